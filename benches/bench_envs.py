"""The agent interfaces: the annexation vector env's steps per second against the same games
stepped one by one through the single Gymnasium env, the table of the vector env at
N = 1, 64, 1024 envs on 1 and 2 threads (fresh boards), and issue 34's figures: one short
engine call, the single ``Annexation-v0`` env with resets, and the distinct start positions of
64 envs.

An env step is one move of the agent (seat 0, the first legal colour here) and the random
opponent's reply, with the observation ``int8 (2, cells)`` and the action mask written for
every env. For scale, Pgx reports about 200k steps/s (hex 11x11) and 290k (othello) on a CPU
of this machine's kind at batch 1024 (issue 18); EnvPool is of the same order.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from harness import Case, Table

_BOARD = "hex:8"


def _vector(n: int, threads: int, board: str = _BOARD) -> Any:
    from stratagem.annexation.vector import AnnexationVectorEnv

    env = AnnexationVectorEnv(n, board=board, threads=threads)
    _, info = env.reset(seed=0)
    return env, info


def _vector_steps(env: Any, info: dict[str, Any], steps: int) -> int:
    for _ in range(steps):
        _, _, _, _, info = env.step(info["action_mask"].argmax(axis=1))
    return steps * env.num_envs


def _single_steps(envs: list[Any], infos: list[dict[str, Any]], steps: int) -> int:
    for _ in range(steps):
        for i, env in enumerate(envs):
            _, _, done, cut, infos[i] = env.step(int(infos[i]["action_mask"].argmax()))
            if done or cut:
                _, infos[i] = env.reset()
    return steps * len(envs)


def cases(quick: bool) -> list[Case]:
    import gymnasium

    import stratagem.envs.gymnasium  # noqa: F401  (registers the ids)

    n = 64 if quick else 1024
    vector, info = _vector(n, 1)
    singles = [gymnasium.make("stratagem/Annexation-v0", board=_BOARD).unwrapped for _ in range(8)]
    infos = [env.reset(seed=i)[1] for i, env in enumerate(singles)]
    return [
        Case(
            f"annexation vector env N={n} vs single envs",
            f"env steps, {_BOARD}, seat 0 + random opponent",
            lambda: _vector_steps(vector, info, 20),
            lambda: _single_steps(singles, infos, 20),
            1,
            note="the single env is the same engine, one env and one Python call per step",
        )
    ]


def _per_second(work: Any, min_seconds: float) -> float:
    """Units per second of ``work()`` (which returns its units), timed for ``min_seconds``."""
    done, started = 0, time.perf_counter()
    while (seconds := time.perf_counter() - started) < min_seconds:
        done += work()
    return done / seconds


def _short_calls(min_seconds: float) -> tuple[float, float]:
    """Microseconds per call of the engine's draw of one value, bare and through
    ``stratagem.rng.draws``."""
    from stratagem import _core, rng

    params = np.array([5], dtype=np.uint64)

    def bare() -> int:
        for _ in range(1000):
            _core.rng.stream_draws(1, "bench", [0], "below", params)
        return 1000

    def public() -> int:
        for _ in range(1000):
            rng.draws(1, "bench", [0], "below", [5])
        return 1000

    return 1e6 / _per_second(bare, min_seconds), 1e6 / _per_second(public, min_seconds)


def _single_env_rate(min_seconds: float) -> float:
    """Steps per second of ``gymnasium.make("stratagem/Annexation-v0", board=hex:8)``, the
    random opponent, one thread, resets included."""
    import gymnasium

    env = gymnasium.make("stratagem/Annexation-v0", board=_BOARD)
    _, info = env.reset(seed=0)

    def steps() -> int:
        nonlocal info
        for _ in range(1000):
            _, _, done, cut, info = env.step(int(info["action_mask"].argmax()))
            if done or cut:
                _, info = env.reset()
        return 1000

    return _per_second(steps, min_seconds)


def _distinct_starts() -> int:
    env, _ = _vector(64, 1, "hex:3")
    observations, _ = env.reset(seed=0)
    return len({observations[i].tobytes() for i in range(64)})


def tables(quick: bool, min_seconds: float) -> list[Table]:
    bare, public = _short_calls(min_seconds)
    single = _single_env_rate(min_seconds)
    distinct = _distinct_starts()
    issue = Table(
        "agent interfaces (issue 34)",
        ["what", "figure"],
        [
            ["one short engine call (_core.rng.stream_draws, one value)", f"{bare:.2f} us"],
            ["the same through stratagem.rng.draws (Python checks)", f"{public:.2f} us"],
            [f"single Annexation-v0 {_BOARD}, random opponent, resets", f"{single:,.0f} steps/s"],
            ["vector env, 64 envs hex:3: distinct start positions", str(distinct)],
        ],
        [
            {"short_call_us": bare, "rng_draws_us": public},
            {"single_env_steps_per_second": single},
            {"distinct_starts_of_64": distinct},
        ],
    )
    rows, records = [], []
    for n in (1, 64, 1024):
        for threads in (1, 2):
            env, info = _vector(n, threads)
            done, seconds = 0, 0.0
            while seconds < min_seconds:
                started = time.perf_counter()
                done += _vector_steps(env, info, 10)
                seconds += time.perf_counter() - started
            rate = done / seconds
            rows.append([str(n), str(threads), f"{rate:,.0f}"])
            records.append({"num_envs": n, "threads": threads, "steps_per_second": rate})
    return [
        issue,
        Table(
            f"annexation vector env ({_BOARD}, fresh boards): env steps per second",
            ["num_envs", "threads", "steps/s"],
            rows,
            records,
            notes=[
                "Pgx on this CPU kind at batch 1024: ~200k (hex 11x11) - 290k (othello) steps/s",
                "one step = the agent's move + the random opponent's reply + observation + mask",
            ],
        ),
    ]
