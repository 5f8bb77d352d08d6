"""The native vector env of annexation: each env plays exactly what the single Gymnasium env
plays (seat 0 against the random opponent, the same episodes from the same seed, next-step
autoreset), for any thread count."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

gymnasium = pytest.importorskip("gymnasium")

import stratagem.envs.gymnasium  # noqa: E402,F401  (registers the ids)
from stratagem.annexation.vector import AnnexationVectorEnv  # noqa: E402
from stratagem.envs.gymnasium import StratagemEnv  # noqa: E402
from stratagem.errors import InvalidParameter  # noqa: E402


def _singles(n: int, seed: int, **config: object) -> list[StratagemEnv]:
    """``n`` single envs through the protocol (not the engine's own single env)."""
    envs = [StratagemEnv("annexation", **config) for _ in range(n)]
    for i, env in enumerate(envs):
        env.reset(seed=seed + i)
    return envs


@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    board=st.sampled_from(["hex:2", "hex:3", "grid:4x3"]),
    players=st.sampled_from([2, 3]),
    choices=st.lists(st.integers(0, 7), min_size=60, max_size=60),
)
def test_each_env_plays_the_single_env(seed, board, players, choices):
    config = {"board": board, "players": players, "colours": 5, "board_seed": 9}
    n = 3
    vector = AnnexationVectorEnv(n, threads=1, **config)
    observations, info = vector.reset(seed=seed)
    singles = _singles(n, seed, **config)
    # The single env resets by hand after an episode; the vector env on the next step.
    pending_reset = [False] * n
    for step, choice in enumerate(choices):
        for i, single in enumerate(singles):
            if not pending_reset[i]:
                assert np.array_equal(observations[i], single.game.observation(0))
                assert np.array_equal(info["action_mask"][i], single.game.action_mask(0))
        masks = info["action_mask"]
        # Mostly legal actions, sometimes an illegal one (it loses the episode).
        actions = np.array(
            [
                choice % 5
                if step % 17 == 5
                else int(np.flatnonzero(m)[choice % max(m.sum(), 1)])
                if m.any()
                else 0
                for m in masks
            ],
            dtype=np.int64,
        )
        observations, rewards, terminated, truncated, info = vector.step(actions)
        for i, single in enumerate(singles):
            if pending_reset[i]:
                single.reset()  # the next episode of its seed
                assert (rewards[i], terminated[i]) == (0.0, False)
                pending_reset[i] = False
                continue
            _, reward, done, cut, _ = single.step(int(actions[i]))
            assert (rewards[i], terminated[i], truncated[i]) == (reward, done, cut)
            pending_reset[i] = done or cut


@pytest.mark.parametrize("board", ["hex:5", "voronoi:60"])
def test_thread_counts_agree(board: str) -> None:
    runs = []
    for threads in (1, 2, 3):
        # A voronoi board's cells come from the seed: the native env plays one board of it.
        pinned = 0 if board.startswith("voronoi") else None
        vector = AnnexationVectorEnv(50, board=board, board_seed=pinned, threads=threads)
        observations, info = vector.reset(seed=3)
        trace = []
        for step in range(80):
            masks = info["action_mask"]
            actions = np.array([np.flatnonzero(m)[step % m.sum()] if m.any() else 0 for m in masks])
            observations, rewards, terminated, _, info = vector.step(actions)
            trace.append((observations.copy(), rewards.copy(), terminated.copy()))
        runs.append(trace)
    for other in runs[1:]:
        for (o1, r1, t1), (o2, r2, t2) in zip(runs[0], other, strict=True):
            assert np.array_equal(o1, o2)
            assert np.array_equal(r1, r2)
            assert np.array_equal(t1, t2)
    assert any(t.any() for _, _, t in runs[0])  # episodes ended and the envs went on


def test_make_vec_builds_the_native_env() -> None:
    vector = gymnasium.make_vec(
        "stratagem/Annexation-v0",
        num_envs=8,
        vectorization_mode="vector_entry_point",
        board="hex:4",
    )
    assert isinstance(vector.unwrapped, AnnexationVectorEnv)
    observations, info = vector.reset(seed=1)
    assert observations.shape == (8, 2, 61)
    assert info["action_mask"].shape == (8, 8)
    assert vector.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP


def test_bad_input_is_named() -> None:
    vector = AnnexationVectorEnv(4, board="hex:3")
    with pytest.raises(Exception, match="reset"):
        vector.step(np.zeros(4, dtype=np.int64))
    vector.reset(seed=0)
    with pytest.raises(InvalidParameter, match="actions must be 4 integers"):
        vector.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(InvalidParameter, match="actions must be 4 integers"):
        vector.step(np.zeros(4, dtype=np.float64))
    with pytest.raises(InvalidParameter, match="3 seeds given for 4 envs"):
        vector.reset(seed=[1, 2, 3])
    with pytest.raises(InvalidParameter, match="num_envs must be at least 1"):
        AnnexationVectorEnv(0)
    with pytest.raises(InvalidParameter, match="plays annexation, not 'conquest'"):
        AnnexationVectorEnv(2, name="conquest")
