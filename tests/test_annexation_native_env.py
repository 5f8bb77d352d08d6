"""Annexation's native envs play the protocol env's task step for step: each env of the
vector env plays exactly what a single protocol env plays (the same episodes from the same
seed, next-step autoreset), for any thread count; fresh boards drawn from each episode's seed,
any seat, built-in opponents; masks are int8 and never all zero when a policy must act."""

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


def _check_alongside(observations, info, singles: list[StratagemEnv], pending: list[bool]):
    """Each env of the vector env shows what its single env shows (but one that resets)."""
    for i, single in enumerate(singles):
        if not pending[i]:
            assert np.array_equal(observations[i], single.game.observation(0))
            if not single.game.is_over:  # else all ones: the next step ends it
                assert np.array_equal(info["action_mask"][i], single.game.action_mask(0))


def _step_alongside(vector, singles: list[StratagemEnv], actions, pending: list[bool]):
    """Steps the vector env and each single env with the same actions: a single env resets by
    hand after an episode, the vector env on the next step (``pending``)."""
    observations, rewards, terminated, truncated, info = vector.step(actions)
    for i, single in enumerate(singles):
        if pending[i]:
            single.reset()  # the next episode of its seed
            assert (rewards[i], terminated[i]) == (0.0, False)
            pending[i] = False
            continue
        if single.game.is_over:  # the opponents ended it before the agent's first move
            assert terminated[i]
            pending[i] = True
            continue
        _, reward, done, cut, _ = single.step(int(actions[i]))
        assert (rewards[i], terminated[i], truncated[i]) == (reward, done, cut)
        pending[i] = done or cut
    return observations, info


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
    pending = [False] * n
    boards_seen = set()
    for choice in choices:
        _check_alongside(observations, info, singles, pending)
        for i, single in enumerate(singles):
            if not pending[i]:
                colours = single.game.native.board.colours
                assert np.array_equal(vector.board_colours(i), colours)
                boards_seen.add(colours.tobytes())
        masks = info["action_mask"]
        assert masks.dtype == np.int8
        assert masks.any(axis=1).all()
        actions = np.array([_pick(m, choice) for m in masks], dtype=np.int64)
        observations, info = _step_alongside(vector, singles, actions, pending)
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
    singles = _protocol_envs(n, seed, **config)
    pending = [False] * n
    for step, choice in enumerate(choices):
        _check_alongside(observations, info, singles, pending)
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
        observations, info = _step_alongside(vector, singles, actions, pending)


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


def test_bad_steps_and_sizes_are_named() -> None:
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
