"""Spaces that describe the game: every game declares the bounds of the values its
observations hold (raw and planes), the bridges' Boxes use them, random play stays inside
them, and ``observation="planes"`` passes every bridge's checker."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

from stratagem import games
from stratagem.errors import InvalidParameter
from stratagem.protocol import OBSERVATIONS
from stratagem.testing import random_action

NAMES = [spec.name for spec in games.available()]
BUILTIN = ["annexation", "conquest", "outpost", "mastermind", "diplomacy"]


def quick(name: str, **more: Any) -> dict[str, Any]:
    return {**games.spec(name).quick, **more}


def _play_inside_bounds(name: str, mode: str, seed: int) -> int:
    game = games.make(name, seed=seed, **quick(name, observation=mode))
    low, high = game.observation_bounds
    assert low.shape == high.shape == game.observation_shape
    assert low.dtype == high.dtype == game.observation_dtype
    assert np.all(low <= high)
    seen = 0
    while True:
        for seat in range(game.seats):
            observation = game.observation(seat)
            assert observation.shape == game.observation_shape
            assert observation.dtype == game.observation_dtype
            assert np.all(low <= observation), f"{name} {mode}: below the declared bounds"
            assert np.all(observation <= high), f"{name} {mode}: above the declared bounds"
            seen += 1
        if game.is_over:
            return seen
        game.step({seat: random_action(seed, game, seat) for seat in game.to_move()})


@pytest.mark.parametrize("mode", OBSERVATIONS)
@pytest.mark.parametrize("name", BUILTIN)
def test_observations_stay_inside_the_declared_bounds(name: str, mode: str) -> None:
    assert _play_inside_bounds(name, mode, seed=3) > 0


@pytest.mark.parametrize("name", BUILTIN)
def test_raw_bounds_are_the_games_values_not_the_dtypes_range(name: str) -> None:
    game = games.make(name, **quick(name))
    low, high = game.observation_bounds
    info = np.iinfo(game.observation_dtype)
    assert low.min() > info.min or high.max() < info.max
    assert int(high.max()) - int(low.min()) < 1 << 41


@pytest.mark.parametrize("name", BUILTIN)
def test_planes_are_zero_one_floats_that_follow_the_raw_values(name: str) -> None:
    raw = games.make(name, seed=5, **quick(name))
    planes = games.make(name, seed=5, **quick(name, observation="planes"))
    assert planes.observation_dtype == np.float32
    for _ in range(3):
        if raw.is_over:
            break
        for seat in range(raw.seats):
            values = planes.observation(seat)
            assert set(np.unique(values).tolist()) <= {0.0, 1.0} or name == "conquest"
            assert np.all((values >= 0) & (values <= 1))
        actions = {seat: random_action(5, raw, seat) for seat in raw.to_move()}
        raw.step(actions)
        planes.step(actions)
    assert raw.returns().tolist() == planes.returns().tolist()


def test_annexation_planes_layout() -> None:
    game = games.make("annexation", seed=2, board="hex:3", observation="planes")
    raw = games.make("annexation", seed=2, board="hex:3")
    values, planes = raw.observation(1), game.observation(1).reshape(game.planes_shape)
    players, colours = 2, 8
    assert planes.shape == (1 + players + colours, 37)
    assert game.observation_shape == (planes.size,)
    # one owner plane and one colour plane per cell
    assert planes[: 1 + players].sum(axis=0).tolist() == [1.0] * 37
    assert planes[1 + players :].sum(axis=0).tolist() == [1.0] * 37
    assert np.array_equal(np.argmax(planes[: 1 + players], axis=0) - 1, values[0])
    assert np.array_equal(np.argmax(planes[1 + players :], axis=0), values[1])


def test_mastermind_planes_layout() -> None:
    game = games.make("mastermind", secret="0123", observation="planes")
    for peg in (0, 0, 1, 1, 5):
        game.step([peg])
    planes = game.observation(0).reshape(game.planes_shape)
    spots, colours = 4, 6
    guess = planes[0, : spots * colours].reshape(spots, colours)
    assert np.argmax(guess, axis=1).tolist() == [0, 0, 1, 1]
    black = planes[0, spots * colours : spots * colours + spots + 1]
    white = planes[0, spots * colours + spots + 1 :]
    assert (int(np.argmax(black)), int(np.argmax(white))) == (1, 1)
    entering = planes[-1, : spots * colours].reshape(spots, colours)
    assert entering.sum(axis=1).tolist() == [1.0, 0.0, 0.0, 0.0]
    assert entering[0, 5] == 1.0
    assert planes[-1, spots * colours :].sum() == 0.0
    assert planes[1:-1].sum() == 0.0


def test_outpost_and_diplomacy_planes_layout() -> None:
    raw = games.make("outpost", seed=1, max_turns=30)
    planes = games.make("outpost", seed=1, max_turns=30, observation="planes")
    values, features = raw.observation(2), planes.observation(2).reshape(planes.planes_shape)
    assert features.shape == (11, 100, 100)
    assert np.array_equal(features[0], values[0])
    assert features[1:7].sum(axis=0).max() == 1.0
    assert np.array_equal(features[3] == 1, values[1] == 0)
    assert np.array_equal(features[1] == 1, values[1] == -1)
    assert np.array_equal(features[7:] == 1, values[2:] > 0)
    dip = games.make("diplomacy", seed=4, observation="planes")
    rows = games.make("diplomacy", seed=4).observation(3)
    grid = dip.observation(3).reshape(dip.planes_shape)
    assert grid.shape == (17, 75)
    assert np.array_equal(grid[:7].argmax(axis=0)[rows[0] >= 0], rows[0][rows[0] >= 0])
    assert np.array_equal(grid[7] == 1, rows[1] == 1)
    assert np.array_equal(grid[8] == 1, rows[1] == 2)
    assert np.array_equal(grid[16] == 1, rows[3] == 1)


@pytest.mark.parametrize("name", BUILTIN)
def test_a_wrong_observation_mode_is_refused_naming_it(name: str) -> None:
    with pytest.raises(
        InvalidParameter, match=r"observation must be one of 'raw', 'planes', got 'pixels'"
    ):
        games.make(name, **quick(name, observation="pixels"))


# --- the bridges read the declared bounds --------------------------------------------------


@pytest.mark.parametrize("name", BUILTIN)
def test_gymnasium_and_pettingzoo_boxes_are_the_declared_bounds(name: str) -> None:
    pytest.importorskip("pettingzoo")
    import gymnasium

    from stratagem.envs.gymnasium import env_id
    from stratagem.envs.pettingzoo import env

    for mode in OBSERVATIONS:
        game = games.make(name, **quick(name, observation=mode))
        low, high = game.observation_bounds
        box = gymnasium.make(env_id(name), **quick(name, observation=mode)).observation_space
        assert np.array_equal(box.low, low)
        assert np.array_equal(box.high, high)
        assert box.dtype == game.observation_dtype
        inner = env(name, **quick(name, observation=mode)).observation_space("seat_0")
        assert np.array_equal(inner["observation"].high, high)


@pytest.mark.parametrize("name", NAMES)
def test_planes_pass_the_pettingzoo_checkers(name: str) -> None:
    test = pytest.importorskip("pettingzoo.test")
    from stratagem.envs.pettingzoo import env, parallel_env

    config = quick(name, observation="planes")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        test.api_test(env(name, **config), num_cycles=100)
        test.seed_test(lambda: env(name, **config), num_cycles=20)
        test.parallel_api_test(parallel_env(name, **config), num_cycles=100)


@pytest.mark.parametrize("name", NAMES)
def test_planes_pass_gymnasium_check_env(name: str) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from stratagem.envs.gymnasium import env_id

    environment = gymnasium.make(env_id(name), **quick(name, observation="planes"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning at all in planes mode
        check_env(environment.unwrapped, skip_render_check=True)


@pytest.mark.parametrize("name", NAMES)
def test_planes_pass_openspiel_random_sim_test(name: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from stratagem.envs.openspiel import load_game

    game = load_game(name, **quick(name, observation="planes"))
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    assert len(state.observation_tensor(0)) == int(
        np.prod(games.make(name, **quick(name, observation="planes")).observation_shape)
    )


@pytest.mark.parametrize("name", NAMES)
def test_planes_pass_sb3_check_env_without_a_warning(name: str) -> None:
    pytest.importorskip("stable_baselines3")
    import gymnasium
    from stable_baselines3.common.env_checker import check_env

    from stratagem.envs.gymnasium import env_id

    environment = gymnasium.make(env_id(name), **quick(name, observation="planes"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(environment.unwrapped, warn=True, skip_render_check=True)


@pytest.mark.parametrize("name", BUILTIN)
def test_the_protocol_harness_passes_with_planes_and_moves(name: str, tmp_path: Any) -> None:
    from stratagem import testing

    config = quick(name, observation="planes")
    if "actions" in games.spec(name).defaults:
        config["actions"] = "moves"
    testing.check_protocol(lambda: games.make(name, seed=7, **config), 7, tmp_path)


def test_diplomacy_reward_scales() -> None:
    raw = games.make("diplomacy", seed=9)
    scaled = games.make("diplomacy", seed=9, reward="scaled")
    outcome = games.make("diplomacy", seed=9, reward="outcome")
    profile = {seat: int(raw.legal_actions(seat)[-1]) for seat in range(7)}
    for game in (raw, scaled, outcome):
        game.step(profile)
    low, high = raw.return_bounds
    assert np.allclose(scaled.returns(), raw.returns() / high)
    assert scaled.return_bounds == (low / high, 1.0)
    assert np.all(np.abs(scaled.returns()) <= 1.0)
    assert outcome.return_bounds == (-1.0, 1.0)
    best = raw.returns() == raw.returns().max()
    expected = np.where(best, 1.0 if best.sum() == 1 else 0.0, -1.0)
    assert outcome.returns().tolist() == expected.tolist()
    assert (scaled.outcome, scaled.winners) == (raw.outcome, raw.winners)
    with pytest.raises(InvalidParameter, match="reward must be one of 'values', 'scaled'"):
        games.make("diplomacy", reward="points")


@pytest.mark.parametrize(
    ("name", "config", "named"),
    [
        ("annexation", {"observation": "image"}, "observation must be one of"),
        ("conquest", {"actions": "orders"}, "actions must be one of"),
        ("annexation", {"actions": "moves"}, "unknown annexation config key"),
    ],
)
def test_the_bridges_refuse_a_wrong_mode_naming_it(
    name: str, config: dict[str, Any], named: str
) -> None:
    pytest.importorskip("pettingzoo")
    import gymnasium

    from stratagem.envs.gymnasium import env_id
    from stratagem.envs.pettingzoo import env, parallel_env

    for make in (
        lambda: gymnasium.make(env_id(name), **config),
        lambda: env(name, **config),
        lambda: parallel_env(name, **config),
    ):
        with pytest.raises(InvalidParameter, match=named):
            make()
