"""The bridges, for every registered game (a newly registered game is checked here with no new
test code): PettingZoo's api_test, seed_test, parallel_api_test and parallel_seed_test;
Gymnasium's check_env; OpenSpiel's random_sim_test with serialisation; and what each bridge
promises of its own (names, opponents, masks, the illegal-action rule, clones, pickles)."""

from __future__ import annotations

import importlib
import pickle
import sys
import warnings
from typing import Any

import numpy as np
import pytest

from stratagem import games
from stratagem.errors import InvalidMove, InvalidParameter

NAMES = [spec.name for spec in games.available()]


def quick(name: str) -> dict[str, Any]:
    return dict(games.spec(name).quick)


# --- PettingZoo ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_pettingzoo_checkers_pass(name: str) -> None:
    test = pytest.importorskip("pettingzoo.test")
    from stratagem.envs.pettingzoo import env, parallel_env

    with warnings.catch_warnings():
        # The checkers warn about style (e.g. negative values in a 2-D observation).
        warnings.simplefilter("ignore")
        test.api_test(env(name, **quick(name)), num_cycles=200)
        test.seed_test(lambda: env(name, **quick(name)), num_cycles=50)
        test.parallel_api_test(parallel_env(name, **quick(name)), num_cycles=200)
        test.parallel_seed_test(lambda: parallel_env(name, **quick(name)), num_cycles=50)


@pytest.mark.parametrize("name", NAMES)
def test_pettingzoo_plays_the_protocol_game(name: str) -> None:
    pytest.importorskip("pettingzoo")
    from stratagem.envs.pettingzoo import env
    from stratagem.testing import random_action

    aec = env(name, **quick(name))
    aec.reset(seed=5)
    twin = games.make(name, seed=5, **quick(name))
    returns = dict.fromkeys(aec.possible_agents, 0.0)
    held: dict[int, int] = {}
    for agent in aec.agent_iter():
        observation, reward, terminated, truncated, _ = aec.last()
        returns[agent] += reward
        if terminated or truncated:
            aec.step(None)
            continue
        seat = int(agent.removeprefix("seat_"))
        assert np.array_equal(observation["observation"], twin.observation(seat))
        assert np.array_equal(observation["action_mask"], twin.action_mask(seat).astype(np.int8))
        held[seat] = random_action(5, twin, seat)
        aec.step(held[seat])
        if set(held) == set(twin.to_move()):
            twin.step(held)
            held = {}
    assert twin.is_over
    assert [returns[a] for a in aec.possible_agents] == twin.returns().tolist()


def test_pettingzoo_illegal_actions_lose_or_raise() -> None:
    pytest.importorskip("pettingzoo")
    from stratagem.envs.pettingzoo import env, parallel_env

    aec = env("annexation", board="hex:3")
    aec.reset(seed=2)
    illegal = int(np.flatnonzero(aec.observe("seat_0")["action_mask"] == 0)[0])
    aec.step(illegal)
    assert aec.terminations == {"seat_0": True, "seat_1": True}
    assert aec._cumulative_rewards == {"seat_0": -1.0, "seat_1": 0.0}
    assert aec.infos["seat_0"] == {"illegal_action": True}
    strict = env("annexation", board="hex:3", illegal_action="raise")
    strict.reset(seed=2)
    with pytest.raises(InvalidMove, match=f"seat_0: action {illegal} is not legal"):
        strict.step(illegal)
    assert strict.game.turn == 0
    par = parallel_env("annexation", board="hex:3")
    par.reset(seed=2)
    _, rewards, terminations, _, _ = par.step({"seat_0": illegal, "seat_1": 0})
    assert rewards == {"seat_0": -1.0, "seat_1": 0.0}
    assert all(terminations.values())
    assert par.agents == []
    with pytest.raises(InvalidParameter, match="illegal_action must be 'lose' or 'raise'"):
        env("annexation", illegal_action="ignore")


def test_pettingzoo_names_unknown_games_and_agents() -> None:
    pytest.importorskip("pettingzoo")
    from stratagem.envs.pettingzoo import env

    with pytest.raises(InvalidParameter, match="unknown game 'chess'"):
        env("chess")
    with pytest.raises(InvalidParameter, match="unknown agent 'seat_9'"):
        env("annexation").observe("seat_9")


# --- Gymnasium -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_gymnasium_check_env_passes(name: str) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from stratagem.envs.gymnasium import env_id

    environment = gymnasium.make(env_id(name), **quick(name))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(environment.unwrapped, skip_render_check=True)
    observation, info = environment.reset(seed=4)
    assert observation.shape == environment.observation_space.shape
    assert info["action_mask"].shape == (environment.action_space.n,)
    steps = 0
    while True:
        action = environment.action_space.sample(info["action_mask"])
        observation, _, terminated, truncated, info = environment.step(action)
        assert environment.observation_space.contains(observation)
        steps += 1
        if terminated or truncated:
            break
    assert "illegal_action" not in info


@pytest.mark.parametrize(
    ("name", "opponent"),
    [
        ("annexation", "greedy"),
        ("conquest", "balanced"),
        ("outpost", "lookahead"),
        ("diplomacy", "preliminary"),
    ],
)
def test_gymnasium_named_opponents_are_the_games_suggestions(name: str, opponent: str) -> None:
    pytest.importorskip("gymnasium")
    from stratagem.envs.gymnasium import StratagemEnv

    # The protocol env (annexation's native env is stepped beside it in
    # tests/test_annexation_native_env.py).
    environment = StratagemEnv(name, opponent=opponent, **quick(name))
    _, info = environment.reset(seed=3)
    game = environment.game
    before = game.clone()
    action = int(np.flatnonzero(info["action_mask"])[0])
    environment.step(action)
    expected = {seat: before.suggest(seat, opponent) for seat in before.to_move() if seat != 0}
    before.step({0: action, **expected})
    while not before.is_over and 0 not in before.to_move():
        before.step({seat: before.suggest(seat, opponent) for seat in before.to_move()})
    assert np.array_equal(before.observation(0), game.observation(0))


def test_gymnasium_refuses_bad_opponents_and_illegal_actions() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    with pytest.raises(InvalidParameter, match="unknown annexation opponent 'psychic'"):
        gymnasium.make("stratagem/Annexation-v0", opponent="psychic")
    with pytest.raises(InvalidParameter, match="mastermind has one seat"):
        gymnasium.make("stratagem/Mastermind-v0", opponent="random")
    environment = gymnasium.make("stratagem/Annexation-v0", board="hex:3")
    _, info = environment.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = environment.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(InvalidMove, match="call reset"):
        environment.unwrapped.step(0)


def test_gymnasium_episodes_follow_from_one_seed() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    first = gymnasium.make("stratagem/Diplomacy-v0")
    second = gymnasium.make("stratagem/Diplomacy-v0")
    runs = []
    for environment in (first, second):
        observations = [environment.reset(seed=11)[0]]
        observations += [environment.reset()[0] for _ in range(3)]
        runs.append(observations)
    for left, right in zip(*runs, strict=True):
        assert np.array_equal(left, right)
    assert not np.array_equal(runs[0][1], runs[0][2])


# --- OpenSpiel -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_random_sim_test_passes(name: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from stratagem.envs.openspiel import load_game

    pyspiel.random_sim_test(
        load_game(name, **quick(name)), num_sims=3, serialize=True, verbose=False
    )


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_states_are_the_protocol_game(name: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from stratagem.envs.openspiel import load_game
    from stratagem.testing import random_action

    game = load_game(name, seed=6, **quick(name))
    state = game.new_initial_state()
    twin = games.make(name, seed=6, **quick(name))
    while not state.is_terminal():
        actions = {seat: random_action(6, twin, seat) for seat in twin.to_move()}
        if state.current_player() == pyspiel.PlayerId.SIMULTANEOUS:
            state.apply_actions([actions.get(seat, 0) for seat in range(twin.seats)])
        else:
            (action,) = actions.values()
            assert state.legal_actions() == twin.legal_actions(twin.to_move()[0]).tolist()
            state.apply_action(action)
        twin.step(actions)
        for seat in range(twin.seats):
            tensor = np.asarray(state.observation_tensor(seat), dtype=np.float32)
            assert np.array_equal(tensor, twin.observation(seat).ravel().astype(np.float32))
    assert state.returns() == twin.returns().tolist()
    assert game.min_utility() <= min(state.returns())
    assert max(state.returns()) <= game.max_utility()


def test_openspiel_clones_and_pickles_are_independent() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from stratagem.envs.openspiel import load_game

    game = load_game("annexation", seed=1, board="hex:3", mode="adjacent")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    twin = state.clone()
    twin.apply_action(twin.legal_actions()[0])
    assert (state.game.turn, twin.game.turn) == (1, 2)
    restored = pickle.loads(pickle.dumps(twin))
    assert str(restored) == str(twin)
    assert restored.history() == twin.history()
    text = pyspiel.serialize_game_and_state(game, twin)
    game_back, state_back = pyspiel.deserialize_game_and_state(text)
    assert str(game_back) == str(game)
    assert state_back.game.config == twin.game.config
    assert str(state_back) == str(twin)


def test_openspiel_mcts_plays_conquest_turn_based() -> None:
    # MCTSBot plays sequential games: OpenSpiel's own transform makes the simultaneous
    # conquest turn-based (seat 0 chooses first, so its search sees nothing it should not).
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import mcts

    from stratagem.envs.openspiel import load_game

    game = pyspiel.convert_to_turn_based(
        load_game("conquest", seed=4, board="grid:4x4", max_turns=20)
    )
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = mcts.MCTSBot(game, 1.4, 100, evaluator, random_state=np.random.RandomState(1))
    returns = []
    for seed in range(3):
        rng = np.random.RandomState(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            action = bot.step(state) if player == 0 else int(rng.choice(state.legal_actions()))
            assert action in state.legal_actions()
            state.apply_action(action)
        returns.append(state.returns()[0])
    assert returns == [1.0, 1.0, 1.0]


def test_openspiel_refuses_bad_parameters() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from stratagem.envs.openspiel import load_game

    with pytest.raises(InvalidParameter, match=r"seed must be in 0\.\.2147483647"):
        load_game("annexation", seed=1 << 40)
    with pytest.raises(InvalidParameter, match="unknown annexation config key"):
        load_game("annexation", colour=5)
    with pytest.raises(InvalidParameter, match="not a JSON object"):
        pyspiel.load_game("stratagem_annexation(config=bm90anNvbg)")


# --- the bridges need their packages ---------------------------------------------------------


@pytest.mark.parametrize(
    ("module", "package", "extra"),
    [
        ("stratagem.envs.pettingzoo", "pettingzoo", "envs"),
        ("stratagem.envs.gymnasium", "gymnasium", "envs"),
        ("stratagem.envs.openspiel", "pyspiel", "openspiel"),
    ],
)
def test_a_missing_package_names_its_extra(
    monkeypatch: pytest.MonkeyPatch, module: str, package: str, extra: str
) -> None:
    monkeypatch.setitem(sys.modules, package, None)  # makes `import package` fail
    monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(InvalidParameter, match=rf"pip install 'stratagem\[{extra}\]'") as info:
        importlib.import_module(module)
    assert isinstance(info.value, ImportError)
