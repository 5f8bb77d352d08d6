"""The agent interfaces: the annexation vector env's steps per second against the same games
stepped one by one through the single Gymnasium env, and the table of the vector env at
N = 1, 64, 1024 envs on 1 and 2 threads.

An env step is one move of the agent (seat 0, the first legal colour here) and the random
opponent's reply, with the observation ``int8 (2, cells)`` and the action mask written for
every env. For scale, Pgx reports about 200k steps/s (hex 11x11) and 290k (othello) on a CPU
of this machine's kind at batch 1024 (issue 18); EnvPool is of the same order.
"""

from __future__ import annotations

import time
from typing import Any

from harness import Case, Table

_BOARD = "hex:8"


def _vector(n: int, threads: int) -> Any:
    from stratagem.annexation.vector import AnnexationVectorEnv

    env = AnnexationVectorEnv(n, board=_BOARD, threads=threads)
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
    singles = [
        gymnasium.make("stratagem/Annexation-v0", board=_BOARD, board_seed=0).unwrapped
        for _ in range(8)
    ]
    infos = [env.reset(seed=i)[1] for i, env in enumerate(singles)]
    return [
        Case(
            f"annexation vector env N={n} vs single envs",
            f"env steps, {_BOARD}, seat 0 + random opponent",
            lambda: _vector_steps(vector, info, 20),
            lambda: _single_steps(singles, infos, 20),
            1,
        )
    ]


def tables(quick: bool, min_seconds: float) -> list[Table]:
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
        Table(
            f"annexation vector env ({_BOARD}): env steps per second",
            ["num_envs", "threads", "steps/s"],
            rows,
            records,
            notes=[
                "Pgx on this CPU kind at batch 1024: ~200k (hex 11x11) - 290k (othello) steps/s",
                "one step = the agent's move + the random opponent's reply + observation + mask",
            ],
        )
    ]
