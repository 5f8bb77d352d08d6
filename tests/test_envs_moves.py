"""The agent plays the game's own moves (``actions="moves"``): conquest per territory,
outpost per outpost slot. A game played through the protocol's moves equals the native game
given the same moves (conquest: custom placements written here from the documented rules of
a move; outpost: Python players); masks, bad input, saves and the bridges."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from stratagem import games
from stratagem.conquest.board import Board, assign_regions, troops_uniform
from stratagem.conquest.game import POLICIES, PolicyView
from stratagem.conquest.game import Game as ConquestGame
from stratagem.errors import InvalidMove, InvalidParameter
from stratagem.outpost.game import Game as OutpostGame
from stratagem.outpost.players import State
from stratagem.protocol import load

MOVE_GAMES = ["conquest", "outpost"]


def quick(name: str, **more: Any) -> dict[str, Any]:
    return {**games.spec(name).quick, **more}


def random_move(rng: np.random.Generator, game: Any, seat: int) -> tuple[int, ...]:
    mask = game.move_mask(seat)
    return tuple(int(rng.choice(np.flatnonzero(row))) for row in mask)


# --- conquest: the documented meaning of a move, written out plainly --------------------------


def conquest_mask(view: PolicyView, width: int) -> np.ndarray:
    mask = np.zeros((view.team.size, width), dtype=bool)
    for x in range(view.team.size):
        mask[x, 0] = True
        if view.team[x] != view.team_id:
            continue
        neighbours = view.indices[view.indptr[x] : view.indptr[x + 1]].tolist()
        enemies = [y for y in neighbours if view.team[y] != view.team[x]]
        mask[x, 1] = bool(enemies) and view.troops[x] >= 1
        for j in range(len(neighbours)):
            mask[x, 2 + j] = view.troops[x] >= 2
    return mask


def conquest_placement(view: PolicyView, move: tuple[int, ...]) -> np.ndarray:
    placement = np.zeros(view.indices.size, dtype=np.int64)
    for x, choice in enumerate(move):
        first, last = int(view.indptr[x]), int(view.indptr[x + 1])
        troops = int(view.troops[x])
        if choice == 1:  # defend: every troop, evenly over the enemy borders, first ones more
            borders = [e for e in range(first, last) if view.team[view.indices[e]] != view.team[x]]
            for k, e in enumerate(borders):
                placement[e] = -(troops // len(borders) + (k < troops % len(borders)))
        elif choice >= 2:  # send all but one to neighbour choice - 2
            placement[first + choice - 2] = troops - 1
    return placement


class Scripted:
    """A native conquest policy that places the move this test chose for its team."""

    def __init__(self, moves: dict[int, tuple[int, ...]], team: int, width: int) -> None:
        self.moves, self.team, self.width = moves, team, width

    def __call__(self, view: PolicyView) -> np.ndarray:
        move = self.moves[self.team]
        allowed = conquest_mask(view, self.width)
        assert all(allowed[x, c] for x, c in enumerate(move)), "the protocol's mask differs"
        return conquest_placement(view, move)


@pytest.mark.parametrize(("board", "seed"), [("grid:5x5", 1), ("ring:12", 2), ("grid:6x6", 3)])
def test_conquest_moves_equal_the_native_game_with_the_same_placements(
    board: str, seed: int
) -> None:
    teams, troops, turns = 2, 6, 25
    game = games.make(
        "conquest",
        seed=seed,
        board=board,
        teams=teams,
        troops=troops,
        max_turns=turns,
        actions="moves",
    )
    built = Board.from_spec(board)
    chosen: dict[int, tuple[int, ...]] = {}
    width = game.move_nvec[0]
    native = ConquestGame(
        built,
        assign_regions(built, teams, seed),
        troops_uniform(built, troops),
        [Scripted(chosen, team, width) for team in range(teams)],
        seed=seed,
        max_turns=turns,
    )
    rng = np.random.default_rng(seed)
    sends = 0
    while not game.is_over:
        moves = {seat: random_move(rng, game, seat) for seat in game.to_move()}
        sends += sum(choice >= 2 for move in moves.values() for choice in move)
        chosen.clear()
        chosen.update({team: moves.get(team, (0,) * built.n) for team in range(teams)})
        game.step(moves)
        native.step()
        assert np.array_equal(game.native.team, native.team)
        assert np.array_equal(game.native.troops, native.troops)
    assert native.finished
    assert game.native.status == native.status
    assert game.native.winner == native.winner
    assert sends > 0


def test_conquest_moves_and_builtins_in_one_step() -> None:
    game = games.make("conquest", seed=4, board="grid:5x5", max_turns=10, actions="moves")
    twin = games.make("conquest", seed=4, board="grid:5x5", max_turns=10)
    hold = (0,) * 25
    balanced = POLICIES.index("balanced")
    game.step({0: hold, 1: balanced})
    assert "team 0 (moves)" in game.render()
    assert "team 1 (balanced)" in game.render()
    # holding everything is the native game with an all-zero placement for team 0
    native = twin.native
    native._engine.set_policies(["custom", "balanced"])
    native._custom = {0: lambda view: np.zeros(view.indices.size, dtype=np.int64)}
    native.step()
    assert np.array_equal(game.native.troops, native.troops)
    assert np.array_equal(game.native.team, native.team)


# --- outpost: the same moves given by Python players --------------------------------------------


class SlotPlayer:
    """A native outpost player that moves its outposts as this test chose: slot i is its i-th
    outpost by id (as a mapping id -> direction); a disbandment takes the newest."""

    def __init__(self, moves: dict[int, tuple[int, ...]], empire: int) -> None:
        self.moves, self.empire = moves, empire

    def move(self, state: State) -> dict[int, int]:
        ids = state.mine()[:, 0].tolist()
        return dict(zip(ids, self.moves[self.empire], strict=False))

    def disband(self, state: State) -> int:
        return max(state.mine()[:, 0].tolist())


@pytest.mark.parametrize(("the_map", "seed", "turns"), [("rivers", 1, 45), ("lakes", 2, 31)])
def test_outpost_moves_equal_the_native_game_with_python_players(
    the_map: str, seed: int, turns: int
) -> None:
    game = games.make("outpost", seed=seed, map=the_map, max_turns=turns, L=4, W=2, actions="moves")
    slots = len(game.move_nvec)
    assert slots == 1 + turns // 10
    chosen: dict[int, tuple[int, ...]] = {}
    players = [SlotPlayer(chosen, 0), SlotPlayer(chosen, 1), "spread", SlotPlayer(chosen, 3)]
    native = OutpostGame(the_map, 7, 4, 2, turns, players, seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while not game.is_over:
        moves: dict[int, Any] = {s: random_move(rng, game, s) for s in (0, 1, 3)}
        moves[2] = game.suggest(2, "spread")
        chosen.clear()
        chosen.update({s: m for s, m in moves.items() if s != 2})
        steps += sum(c != 0 for s in (0, 1, 3) for c in moves[s])
        game.step(moves)
        native.step()
        assert np.array_equal(game.native.control, native.control)
        assert np.array_equal(game.native.outposts, native.outposts)
        for empire in range(4):
            assert int(np.count_nonzero(native.outposts[:, 1] == empire)) <= slots
    assert game.native.result.scores.tolist() == native.result.scores.tolist()
    assert [entry.kind for entry in native.log].count("player") == 0
    assert steps > 0


def test_outpost_mask_allows_only_land_steps_inside_the_grid() -> None:
    game = games.make("outpost", seed=3, map="lakes", max_turns=40, actions="moves")
    rng = np.random.default_rng(3)
    water = game.native.map.water
    for _ in range(25):
        for seat in range(4):
            mask = game.move_mask(seat)
            rows = game.native.outposts
            mine = rows[rows[:, 1] == seat]
            assert mask[:, 0].all()
            assert not mask[len(mine) :, 1:].any()
            for slot, (_, _, x, y) in enumerate(mine.tolist()):
                for direction, (dx, dy) in enumerate([(0, -1), (1, 0), (0, 1), (-1, 0)], 1):
                    nx, ny = x + dx, y + dy
                    land = 0 <= nx < 100 and 0 <= ny < 100 and not water[ny, nx]
                    assert mask[slot, direction] == land
        game.step({seat: random_move(rng, game, seat) for seat in range(4)})


# --- the protocol's rules for moves --------------------------------------------------------------


@pytest.mark.parametrize("name", MOVE_GAMES)
def test_bad_moves_are_refused_naming_them_and_change_nothing(name: str) -> None:
    game = games.make(name, seed=2, **quick(name, actions="moves"))
    size = len(game.move_nvec)
    before = [game.observation(seat).copy() for seat in range(game.seats)]
    rest = {seat: (0,) * size for seat in game.to_move() if seat != 0}
    with pytest.raises(InvalidMove, match=rf"seat 0: a move is a vector of {size} integers"):
        game.step({0: (0,) * (size + 1), **rest})
    with pytest.raises(InvalidMove, match="seat 0: a move is a vector"):
        game.step({0: [0.5] * size, **rest})
    with pytest.raises(InvalidMove, match="seat 0: a move is a vector"):
        game.step({0: "stay", **rest})
    illegal = np.flatnonzero(~game.move_mask(0)[0])
    bad = [0] * size
    bad[0] = int(illegal[0])
    with pytest.raises(InvalidMove, match=rf"seat 0: component 0 of the move is {bad[0]}"):
        game.step({0: bad, **rest})
    with pytest.raises(InvalidMove, match="component 0 of the move is 99"):
        game.step({0: [99] + [0] * (size - 1), **rest})
    assert game.turn == 0
    for seat in range(game.seats):
        assert np.array_equal(game.observation(seat), before[seat])
    with pytest.raises(InvalidParameter, match="actions must be one of 'players', 'moves'"):
        games.make(name, **quick(name, actions="orders"))
    players = games.make(name, **quick(name))
    assert players.move_nvec is None
    with pytest.raises(InvalidParameter, match="make it with actions='moves'"):
        players.move_mask(0)


@pytest.mark.parametrize("name", MOVE_GAMES)
def test_moves_save_load_and_clone_continue_identically(name: str, tmp_path: Path) -> None:
    game = games.make(name, seed=6, **quick(name, actions="moves"))
    rng = np.random.default_rng(6)
    for _ in range(4):
        game.step({s: random_move(rng, game, s) for s in game.to_move()})
    path = tmp_path / "game.json"
    game.save(path)
    restored, twin = load(path), game.clone()
    moves = {s: random_move(rng, game, s) for s in game.to_move()}
    for copy in (game, restored, twin):
        copy.step(moves)
    for copy in (restored, twin):
        for seat in range(game.seats):
            assert np.array_equal(copy.observation(seat), game.observation(seat))


# --- the bridges ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", MOVE_GAMES)
def test_moves_pass_the_pettingzoo_checkers(name: str) -> None:
    test = pytest.importorskip("pettingzoo.test")
    from stratagem.envs.pettingzoo import env, parallel_env

    config = quick(name, actions="moves", observation="planes")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Action mask is not a NumPy array": it is a tuple
        test.api_test(env(name, **config), num_cycles=100)
        test.seed_test(lambda: env(name, **config), num_cycles=20)
        test.parallel_api_test(parallel_env(name, **config), num_cycles=100)
        test.parallel_seed_test(lambda: parallel_env(name, **config), num_cycles=20)


@pytest.mark.parametrize("name", MOVE_GAMES)
def test_pettingzoo_moves_play_the_protocol_game(name: str) -> None:
    pytest.importorskip("pettingzoo")
    from gymnasium import spaces

    from stratagem.envs.pettingzoo import parallel_env

    par = parallel_env(name, **quick(name, actions="moves"))
    observations, _ = par.reset(seed=5)
    twin = games.make(name, seed=5, **quick(name, actions="moves"))
    space = par.action_space("seat_0")
    assert isinstance(space, spaces.MultiDiscrete)
    assert tuple(space.nvec.tolist()) == twin.move_nvec
    rng = np.random.default_rng(5)
    while par.agents:
        for seat in twin.to_move():
            mask = observations[f"seat_{seat}"]["action_mask"]
            rows = twin.move_mask(seat)
            assert len(mask) == len(twin.move_nvec)
            for component, size in enumerate(twin.move_nvec):
                assert mask[component].dtype == np.int8
                assert np.array_equal(mask[component], rows[component, :size])
        moves = {seat: random_move(rng, twin, seat) for seat in twin.to_move()}
        observations, rewards, *_ = par.step({f"seat_{s}": np.array(m) for s, m in moves.items()})
        twin.step(moves)
        assert [rewards[a] for a in par.possible_agents] == twin.rewards().tolist()
    assert twin.is_over


@pytest.mark.parametrize("name", MOVE_GAMES)
def test_gymnasium_moves_check_env_and_play(name: str) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from stratagem.envs.gymnasium import env_id

    config = quick(name, actions="moves", observation="planes")
    environment = gymnasium.make(env_id(name), **config)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(environment.unwrapped, skip_render_check=True)
    assert isinstance(environment.action_space, gymnasium.spaces.MultiDiscrete)
    _, info = environment.reset(seed=4)
    while True:
        action = environment.action_space.sample(info["action_mask"])
        _, _, terminated, truncated, info = environment.step(action)
        assert "illegal_action" not in info
        if terminated or truncated:
            break
    environment.reset(seed=4)
    game = environment.unwrapped.game
    with pytest.raises(InvalidMove, match="a move is a vector of"):
        environment.step(0)
    assert game.turn == 0
    with pytest.raises(InvalidMove, match="a move is a vector of"):
        environment.step(np.zeros(3 + len(game.move_nvec), dtype=np.int64))
    assert game.turn == 0


@pytest.mark.parametrize("name", MOVE_GAMES)
def test_sb3_check_env_is_silent_with_moves_and_planes(name: str) -> None:
    pytest.importorskip("stable_baselines3")
    import gymnasium
    from stable_baselines3.common.env_checker import check_env

    from stratagem.envs.gymnasium import env_id

    environment = gymnasium.make(env_id(name), **quick(name, actions="moves", observation="planes"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(environment.unwrapped, warn=True, skip_render_check=True)


def test_openspiel_refuses_moves_naming_the_reason() -> None:
    pytest.importorskip("pyspiel")
    from stratagem.envs.openspiel import load_game

    with pytest.raises(InvalidParameter, match="OpenSpiel's actions are integers"):
        load_game("conquest", board="grid:4x4", actions="moves")
    load_game("conquest", board="grid:4x4", actions="players")


def test_a_single_env_acting_by_moves_gives_one_flat_mask_and_takes_a_callable_opponent() -> None:
    import gymnasium

    import stratagem.envs.gymnasium  # noqa: F401  (registers the envs)

    def first_legal(observation: Any, legal: Any) -> np.ndarray:
        return np.array([int(np.flatnonzero(row)[0]) for row in legal], dtype=np.int64)

    env = gymnasium.make(
        "stratagem/Conquest-v0", board="grid:3x3", actions="moves", opponent=first_legal
    )
    _, info = env.reset(seed=2)
    flat = env.unwrapped.action_masks()
    nvec = env.action_space.nvec
    assert flat.dtype == np.bool_
    assert flat.shape == (int(nvec.sum()),)
    assert np.array_equal(flat, np.concatenate(info["action_mask"]).astype(np.bool_))
    env.step(first_legal(None, info["action_mask"]))
    assert env.unwrapped.game.turn == 1
