"""Annexation's native envs play the protocol env's task step for step: fresh boards drawn
from each episode's seed, any seat, built-in opponents; masks are int8 and never all zero
when a policy must act."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

gymnasium = pytest.importorskip("gymnasium")

import stratagem.envs.gymnasium  # noqa: E402,F401  (registers the ids)
from stratagem.annexation.vector import AnnexationEnv, AnnexationVectorEnv  # noqa: E402
from stratagem.envs.gymnasium import StratagemEnv, env_id  # noqa: E402
from stratagem.errors import InvalidMove, InvalidParameter  # noqa: E402
from stratagem.games import available  # noqa: E402


def _protocol_envs(n: int, seed: int, **config: object) -> list[StratagemEnv]:
    envs = [StratagemEnv("annexation", **config) for _ in range(n)]
    for i, env in enumerate(envs):
        env.reset(seed=seed + i)
    return envs


def _pick(mask: np.ndarray, choice: int) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[choice % legal.size])


@settings(max_examples=8, deadline=None)
@given(
    seed=st.integers(0, 2**40),
    board=st.sampled_from(["hex:2", "hex:3", "grid:4x3"]),
    opponent=st.sampled_from(["random", "greedy", "fractal"]),
    choices=st.lists(st.integers(0, 7), min_size=50, max_size=50),
)
def test_the_vector_env_plays_the_protocol_env_on_fresh_boards(seed, board, opponent, choices):
    config = {"board": board, "colours": 5, "opponent": opponent}
    n = 3
    vector = AnnexationVectorEnv(n, threads=1, **config)
    observations, info = vector.reset(seed=seed)
    singles = _protocol_envs(n, seed, **config)
    pending_reset = [False] * n
    boards_seen = set()
    for choice in choices:
        for i, single in enumerate(singles):
            if not pending_reset[i]:
                assert np.array_equal(observations[i], single.game.observation(0))
                if not single.game.is_over:  # else all ones: the next step ends it
                    assert np.array_equal(info["action_mask"][i], single.game.action_mask(0))
                colours = single.game.native.board.colours
                assert np.array_equal(vector.board_colours(i), colours)
                boards_seen.add(colours.tobytes())
        masks = info["action_mask"]
        assert masks.dtype == np.int8
        assert masks.any(axis=1).all()
        actions = np.array([_pick(m, choice) for m in masks], dtype=np.int64)
        observations, rewards, terminated, truncated, info = vector.step(actions)
        for i, single in enumerate(singles):
            if pending_reset[i]:
                single.reset()
                assert (rewards[i], terminated[i]) == (0.0, False)
                pending_reset[i] = False
                continue
            if single.game.is_over:  # the opponents ended it before the agent's first move
                assert terminated[i]
                pending_reset[i] = True
                continue
            _, reward, done, cut, _ = single.step(int(actions[i]))
            assert (rewards[i], terminated[i], truncated[i]) == (reward, done, cut)
            pending_reset[i] = done or cut
    assert len(boards_seen) > 1, "fresh boards: the envs and episodes differ"


@pytest.mark.parametrize(("seat", "opponent"), [(0, "random"), (1, "greedy"), (2, "random")])
def test_the_single_native_env_plays_the_protocol_env(seat: int, opponent: str) -> None:
    config = {"board": "hex:3", "players": 3, "opponent": opponent}
    native = AnnexationEnv(seat=seat, seed=5, **config)
    protocol = StratagemEnv("annexation", seat=seat, seed=5, **config)
    rng = np.random.default_rng(0)
    for episode in range(6):
        seed = 40 + episode if episode % 2 else None
        observation, info = native.reset(seed=seed)
        expected, expected_info = protocol.reset(seed=seed)
        assert np.array_equal(observation, expected)
        assert np.array_equal(info["action_mask"], expected_info["action_mask"])
        for _ in range(3 if episode == 2 else 500):  # episode 2 is cut short by a reset
            action = _pick(info["action_mask"], int(rng.integers(8)))
            if rng.random() < 0.02:
                action = int(np.flatnonzero(info["action_mask"] == 0)[0])
            observation, reward, done, cut, info = native.step(action)
            expected, expected_reward, expected_done, expected_cut, expected_info = protocol.step(
                action
            )
            assert np.array_equal(observation, expected)
            assert (reward, done, cut) == (expected_reward, expected_done, expected_cut)
            assert info.get("illegal_action") == expected_info.get("illegal_action")
            assert np.array_equal(native.action_masks(), protocol.action_masks())
            if done or cut:
                break


def test_sixty_four_envs_start_from_distinct_positions() -> None:
    vector = AnnexationVectorEnv(64, board="hex:3", threads=1)
    observations, _ = vector.reset(seed=0)
    distinct = {observations[i].tobytes() for i in range(64)}
    assert len(distinct) >= 60
    pinned = AnnexationVectorEnv(64, board="hex:3", board_seed=4, threads=1)
    observations, _ = pinned.reset(seed=0)
    assert len({observations[i].tobytes() for i in range(64)}) == 1


@pytest.mark.parametrize("autoreset", ["next_step", "same_step"])
def test_masks_never_leave_a_policy_without_an_action(autoreset: str) -> None:
    vector = AnnexationVectorEnv(40, board="hex:2", autoreset=autoreset, threads=1)
    _, info = vector.reset(seed=1)
    ended = 0
    for step in range(120):
        masks = info["action_mask"]
        assert masks.dtype == np.int8
        assert masks.any(axis=1).all()
        actions = np.array([_pick(m, step) for m in masks], dtype=np.int64)
        observations, _, terminated, _, info = vector.step(actions)
        ended += int(terminated.sum())
        if autoreset == "same_step" and terminated.any():
            final = info["final_obs"][terminated]
            assert not np.array_equal(final, observations[terminated])
    assert ended > 40


def test_every_single_env_has_action_masks() -> None:
    for spec in available():
        config = {"board": "hex:3"} if spec.name == "annexation" else {}
        if spec.name == "mastermind":
            config = {"secret": "0123"}
        env = gymnasium.make(env_id(spec.name), **config)
        _, info = env.reset(seed=0)
        masks = env.unwrapped.action_masks()
        assert masks.dtype == np.bool_
        assert np.array_equal(masks, info["action_mask"].astype(bool))


def test_bad_input_is_named_before_any_step() -> None:
    with pytest.raises(InvalidParameter, match="unknown annexation opponent 'psychic'"):
        AnnexationVectorEnv(2, opponent="psychic")
    with pytest.raises(InvalidParameter, match="opponent must be"):
        AnnexationVectorEnv(2, opponent=3)
    with pytest.raises(InvalidParameter, match="seat must be from 0 to 1, got 2"):
        AnnexationVectorEnv(2, seat=2)
    with pytest.raises(InvalidParameter, match="autoreset must be"):
        AnnexationVectorEnv(2, autoreset="never")
    with pytest.raises(InvalidParameter, match="board_seed"):
        AnnexationVectorEnv(2, board="voronoi:30")
    vector = AnnexationVectorEnv(2, board="hex:2")
    with pytest.raises(InvalidMove, match="reset"):
        vector.step(np.zeros(2, dtype=np.int64))
    vector.reset(seed=0)
    with pytest.raises(InvalidParameter, match="actions must be 2 integers"):
        vector.step(np.zeros((2, 1), dtype=np.int64))
    single = AnnexationEnv(board="hex:2", illegal_action="raise")
    with pytest.raises(InvalidMove, match="reset"):
        single.step(0)
    _, info = single.reset(seed=0)
    with pytest.raises(InvalidParameter, match="action must be an integer"):
        single.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(InvalidMove, match="not legal"):
        single.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
