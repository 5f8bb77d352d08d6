"""The outpost Game API (``stratagem.outpost.Game``): defaults, turns and the end of a game,
history, result, the read-only state players see, batching of ``run``, seeds, Python players
(good ones, broken ones, slow ones, Ctrl-C inside one), saved games, errors, and Ctrl-C of a
long built-in run."""

from __future__ import annotations

import dataclasses
import json
import time
import warnings
from typing import Any

import numpy as np
import pytest

from interrupts import seconds_to_stop_after_ctrl_c
from outpost_helpers import BAD_PARAMETERS, Still
from stratagem import _core
from stratagem.errors import InvalidBoard, InvalidParameter
from stratagem.outpost import (
    BUILTIN_PLAYERS,
    Game,
    History,
    LogEntry,
    Map,
    MapWarning,
    Player,
    Result,
    State,
)

BUILTINS = ("spread", "frontier", "random", "lookahead")

# -- helpers ----------------------------------------------------------------------------------


def lenient_map(cells: list[tuple[int, int]], name: str) -> Map:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MapWarning)
        return Map.from_cells(
            np.array(cells, dtype=np.int64).reshape(-1, 2), name=name, lenient=True
        )


DRY = lenient_map([], "dry")
# A pond near empire 0's home (region cells, so near every home): water to build with.
POND = lenient_map([(x, y) for x in range(3, 7) for y in range(2, 6)], "pond")


def snapshot(game: Game) -> dict[str, Any]:
    """Everything observable about a game, copied."""
    history = game.history
    return {
        "turn": game.turn,
        "finished": game.finished,
        "next_id": game.next_id,
        "outposts": game.outposts.tolist(),
        "control": game.control.tolist(),
        "land": history.land.tolist(),
        "water": history.water.tolist(),
        "history_outposts": history.outposts.tolist(),
        "log": [tuple(entry) for entry in game.log],
    }


def tally(board: Map, outposts: list[list[int]], r: int) -> list[int]:
    control = _core.outpost.control(board.water, np.array(outposts, dtype=np.int64), r)
    row = []
    for e in range(4):
        held = control == e
        row += [int((held & board.land).sum()), int((held & board.water).sum())]
        row.append(sum(1 for o in outposts if o[1] == e))
    return row


def position_game(
    outposts: list[list[int]],
    *,
    turn: int,
    players: Any = BUILTINS,
    board: Map = DRY,
    **params: Any,
) -> Game:
    """A game standing after ``turn`` turns on ``outposts`` (rows ``[id, empire, x, y]``),
    made as a saved game is loaded."""
    data = Game(board, players=players, **params).to_dict()
    data.update(
        turn=turn,
        outposts=outposts,
        next_id=max(o[0] for o in outposts) + 1,
        history=[tally(board, outposts, data["params"]["r"])] * (turn + 1),
    )
    return Game.from_dict(data, players=players)


class Fixed:
    """A player whose answers are a function of the state only."""

    def move(self, state: State) -> list[int]:
        return [(int(i) + state.turn) % 5 for i in state.mine()[:, 0]]

    def disband(self, state: State) -> int:
        return int(state.mine()[0, 0])


# -- defaults, turns, history, result ---------------------------------------------------------


def test_defaults():
    game = Game()
    assert game.map == Map.named("lakes")
    assert game.map.name == "lakes"
    assert (game.r, game.L, game.W, game.T) == (7, 12, 3, 4444)
    assert game.players == BUILTINS
    assert game.seed == 0
    assert game.flags == {"supply_fringe": False, "sequential_moves": False, "extra_turn": False}
    assert game.time_budget is None
    assert (game.turn, game.last_turn, game.finished, game.next_id) == (0, 4444, False, 4)
    assert game.outposts.tolist() == [[0, 0, 0, 0], [1, 1, 99, 0], [2, 2, 99, 99], [3, 3, 0, 99]]
    assert game.log == ()
    assert set(BUILTIN_PLAYERS) == set(BUILTINS)
    assert repr(game).startswith("Game(map='lakes', r=7, L=12, W=3, T=4444")
    assert isinstance(Still(), Player)


def test_steps_turns_and_the_end_of_a_game():
    game = Game(DRY, T=3, seed=1)
    assert game.last_turn == 3
    for turn in (1, 2, 3):
        game.step()
        assert game.turn == turn
    assert game.finished
    with pytest.raises(InvalidParameter, match="the game is over: it ended after turn 3"):
        game.step()
    assert game.turn == 3
    result = game.run()  # nothing left to play
    assert (result.turn, result.finished) == (3, True)

    extra = Game(DRY, T=3, seed=1, extra_turn=True)
    assert extra.last_turn == 4
    assert extra.run().turn == 4
    assert extra.finished
    assert Game(DRY, T=0).finished
    assert not Game(DRY, T=0, extra_turn=True).finished


def test_history_shapes_and_row_zero():
    game = Game(DRY, r=3, T=5)
    history = game.history
    assert isinstance(history, History)
    for array in (history.land, history.water, history.outposts, history.cells):
        assert array.shape == (1, 4)
        assert array.dtype == np.int64
    # Each home holds the corner of its diamond: cells with x + y <= 3, 10 of them, no water.
    assert history.land[0].tolist() == [10] * 4
    assert history.water[0].tolist() == [0] * 4
    assert history.outposts[0].tolist() == [1] * 4
    game.run(turns=2)
    assert game.history.land.shape == (3, 4)
    lakes = Game().history
    assert (lakes.land[0] + lakes.water[0]).tolist() == [36] * 4  # x + y <= 7: 36 cells
    assert lakes.water[0].tolist() == [19] * 4


def test_result_scores_ranks_and_winners():
    game = Game("lakes", T=25, seed=3)
    result = game.run()
    assert isinstance(result, Result)
    history = game.history
    assert result.scores.tolist() == (history.land[-1] + history.water[-1]).tolist()
    assert result.land.tolist() == history.land[-1].tolist()
    assert result.water.tolist() == history.water[-1].tolist()
    assert result.outposts.tolist() == history.outposts[-1].tolist()
    assert result.players == BUILTINS
    assert (result.turn, result.finished) == (25, True)
    best = result.scores.max()
    assert result.winners == tuple(int(e) for e in np.flatnonzero(result.scores == best))
    assert result.to_dict()["scores"] == result.scores.tolist()

    # At the start the map is the same for every empire: all tie for first.
    start = Game("lakes").result
    assert start.placings.tolist() == [1, 1, 1, 1]
    assert start.winners == (0, 1, 2, 3)
    assert not start.finished
    tied = dataclasses.replace(start, scores=np.array([5, 9, 9, 1], dtype=np.int64))
    assert tied.placings.tolist() == [3, 1, 1, 4]
    assert tied.winners == (1, 2)
    assert tied.to_dict()["placings"] == [3, 1, 1, 4]
    assert tied.to_dict()["winners"] == [1, 2]


def test_state_views_are_read_only():
    game = Game(POND, r=3, T=5, seed=2)
    game.run(turns=2)
    before = snapshot(game)
    state = game.state(2)
    assert (state.turn, state.empire, state.r, state.L, state.W, state.T) == (3, 2, 3, 12, 3, 5)
    assert state.map is game.map
    assert state.water is game.map.water
    for array in (state.control, state.outposts, game.control, game.outposts):
        assert not array.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            array[0, 0] = 1
    for array in (game.history.land, game.history.water, game.history.outposts):
        with pytest.raises(ValueError, match="read-only"):
            array[0, 0] = 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.turn = 9  # type: ignore[misc]
    assert state.mine().tolist() == state.of(2).tolist()
    assert all(row[1] == 2 for row in state.mine().tolist())
    for e in range(4):
        assert state.of(e).tolist() == [row for row in game.outposts.tolist() if row[1] == e]
        assert state.cells_of(e) == (int(game.history.land[-1, e]), int(game.history.water[-1, e]))
    assert game.state().empire == -1
    assert snapshot(game) == before  # the failed writes changed nothing


def test_run_in_chunks_equals_one_run():
    options = {"r": 3, "L": 4, "W": 2, "T": 35, "seed": 11, "sequential_moves": True}
    whole = Game("lakes", **options)
    whole.run()
    chunked = Game("lakes", **options)
    for turns in (3, 0, 7, 1, 10, 100):
        result = chunked.run(turns=turns)
        assert result.turn == chunked.turn
    assert snapshot(chunked) == snapshot(whole)
    stepped = Game("lakes", **options)
    while not stepped.finished:
        stepped.step()
    assert snapshot(stepped) == snapshot(whole)
    assert any(entry.kind == "build" for entry in whole.log)


def test_seeds():
    players = ("random", "random", "random", "random")
    one = Game("lakes", T=12, players=players, seed=5)
    two = Game("lakes", T=12, players=players, seed=5)
    one.run()
    two.run()
    assert snapshot(one) == snapshot(two)
    other = Game("lakes", T=12, players=players, seed=6)
    other.run()
    assert other.outposts.tolist() != one.outposts.tolist()


# -- Python players ---------------------------------------------------------------------------


class Scripted:
    """Empire 0's player walking its one outpost by a script of answers in every form."""

    script = ({0: "S"}, ["east"], [3], np.array([2]), ("north",), {}, [0], {0: 4}, ["W"])

    def __init__(self) -> None:
        self.seen: list[State] = []

    def move(self, state: State) -> Any:
        self.seen.append(state)
        return self.script[state.turn - 1]

    def disband(self, state: State) -> int:  # pragma: no cover - never asked here
        raise AssertionError("not a season")


def test_a_good_python_player_moves_by_its_answers():
    player = Scripted()
    game = Game(DRY, r=3, T=9, players=(player, "spread", "random", "frontier"), seed=4)
    assert game.players == ("Scripted", "spread", "random", "frontier")
    cells = []
    while not game.finished:
        game.step()
        cells.append(tuple(game.outposts[0, 2:].tolist()))
    assert cells == [(0, 1), (1, 1), (1, 2), (2, 2), (2, 1), (2, 1), (2, 1), (1, 1), (0, 1)]
    assert [entry for entry in game.log if entry.kind == "player"] == []
    assert [state.turn for state in player.seen] == list(range(1, 10))
    assert all(state.empire == 0 for state in player.seen)
    assert player.seen[1].mine().tolist() == [[0, 0, 0, 1]]


class Broken:
    def __init__(self, answer: Any) -> None:
        self.answer = answer

    def move(self, state: State) -> Any:
        if isinstance(self.answer, BaseException):
            raise self.answer
        if self.answer == "sleep":
            time.sleep(0.12)
            return [1] * len(state.mine())
        return self.answer

    def disband(self, state: State) -> Any:
        return self.move(state)


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        (RuntimeError("boom"), "raised RuntimeError: boom"),
        ([0, 0, 0], "3 directions for 1 outposts"),
        ({77: 1}, "outpost 77 is not one of this empire's outposts"),
        ([7], "direction 7 is not 0..4"),
        ({1: 3.5}, "3.5 is not a direction"),
        ("S", "expected a mapping or a sequence of directions, got str"),
        (["up"], "'up' is not a direction"),
        (None, "got NoneType"),
        ("sleep", "at the budget of 0.05 s"),
    ],
)
def test_a_broken_python_player_loses_its_moves_and_the_game_goes_on(answer, why):
    # Empire 1's player breaks; the same game with a player that keeps still is the reference.
    options = {"r": 3, "T": 3, "seed": 8, "time_budget": 0.05}
    broken = Game(DRY, players=("spread", Broken(answer), "random", "frontier"), **options)
    still = Game(DRY, players=("spread", Still(), "random", "frontier"), **options)
    broken.step()
    still.step()
    entries = [entry for entry in broken.log if entry.kind == "player"]
    assert len(entries) == 1
    entry = entries[0]
    assert (entry.turn, entry.empire, entry.outpost) == (1, 1, -1)
    assert entry.message.startswith("player Broken (move) ")
    assert why in entry.message
    assert entry.message.endswith("; its outposts stay")
    assert broken.outposts.tolist() == still.outposts.tolist()
    assert broken.outposts[1].tolist() == [1, 1, 99, 0]
    assert snapshot(broken) | {"log": None} == snapshot(still) | {"log": None}
    assert [e for e in broken.log if e.kind != "player"] == list(still.log)
    broken.run()  # the game goes on
    assert broken.finished
    assert len([e for e in broken.log if e.kind == "player"]) == 3


# Empire 0 has three outposts and no water: it can afford one, so the season of turn 10 asks
# its player which goes.
CROWD = [[0, 0, 0, 0], [1, 1, 99, 0], [2, 2, 99, 99], [3, 3, 0, 99], [4, 0, 1, 0], [5, 0, 0, 1]]


@pytest.mark.parametrize(
    ("answer", "gone", "why"),
    [
        (4, 4, None),
        (np.int64(0), 0, None),
        (1, 5, "outpost 1 is not one of this empire's outposts"),
        ("4", 5, "expected an outpost id, got '4'"),
        (None, 5, "expected an outpost id, got None"),
        (True, 5, "expected an outpost id, got True"),
        (RuntimeError("no"), 5, "raised RuntimeError: no"),
    ],
)
def test_disband_answers_and_a_bad_one_disbands_the_largest_id(answer, gone, why):
    player = Broken(answer)
    game = position_game(CROWD, turn=9, players=(player, *BUILTINS[1:]), r=2, T=12)
    game.step()
    assert game.turn == 10
    kept = [row[0] for row in game.outposts.tolist() if row[1] == 0]
    assert gone not in kept
    assert len(kept) == 2
    turn_log = [entry for entry in game.log if entry.turn == 10 and entry.empire == 0]
    disbanded = [entry for entry in turn_log if entry.kind == "disband"]
    assert [entry.outpost for entry in disbanded] == [gone]
    cell = next(row[2:] for row in CROWD if row[0] == gone)
    assert disbanded[0].message == f"disbanded outpost {gone} at ({cell[0]}, {cell[1]})"
    refusals = [entry for entry in turn_log if entry.kind == "player"]
    if why is None:
        assert refusals == [] or all("(move)" in e.message for e in refusals)
    else:
        assert refusals[0].message.startswith("player Broken (disband) ")
        assert why in refusals[0].message
        assert refusals[0].message.endswith("; its newest outpost goes")
        assert turn_log.index(refusals[0]) < turn_log.index(disbanded[0])


class Interrupting:
    """Plays as ``Fixed`` but raises KeyboardInterrupt at its first ``question``."""

    def __init__(self, question: str) -> None:
        self.question = question
        self.armed = True
        self.inner = Fixed()

    def _maybe_interrupt(self, question: str) -> None:
        if self.armed and question == self.question:
            self.armed = False
            raise KeyboardInterrupt

    def move(self, state: State) -> list[int]:
        self._maybe_interrupt("move")
        return self.inner.move(state)

    def disband(self, state: State) -> int:
        self._maybe_interrupt("disband")
        return self.inner.disband(state)


@pytest.mark.parametrize(
    ("question", "seat", "sequential"),
    [("move", 0, False), ("move", 2, True), ("move", 3, False), ("disband", 0, False)],
)
def test_ctrl_c_inside_a_player_leaves_the_game_as_before_the_step(question, seat, sequential):
    # Turn 10 is a season: empire 0 disbands (three outposts, no water), empire 1 builds (it
    # holds the pond): the interrupted turn had already built, disbanded and moved some empires.
    outposts = [*CROWD, [6, 1, 97, 1]]
    options = {"r": 3, "L": 1, "W": 1, "T": 14, "seed": 21, "sequential_moves": sequential}

    def seats(player: Any) -> tuple[Any, ...]:
        chosen = list(BUILTINS)
        chosen[seat] = player
        if question == "disband":
            chosen[0] = player
        return tuple(chosen)

    game = position_game(
        outposts, turn=9, players=seats(Interrupting(question)), board=POND, **options
    )
    reference = position_game(outposts, turn=9, players=seats(Fixed()), board=POND, **options)
    before = snapshot(game)
    with pytest.raises(KeyboardInterrupt):
        game.step()
    assert snapshot(game) == before
    # The game plays on exactly like one that was never interrupted.
    game.run()
    reference.run()
    assert snapshot(game) == snapshot(reference)
    kinds = {entry.kind for entry in reference.log if entry.turn == 10}
    assert {"build", "disband"} <= kinds


def test_python_players_run_to_the_end():
    game = Game(DRY, r=2, T=6, players=(Fixed(), "random", Fixed(), "spread"), seed=3)
    assert game.run().finished
    assert game.turn == 6
    assert game.history.land.shape == (7, 4)


# -- saved games ------------------------------------------------------------------------------


@pytest.mark.parametrize("python_seat", [False, True])
def test_save_load_mid_game_continues_like_the_uninterrupted_game(tmp_path, python_seat):
    players: tuple[Any, ...] = (
        ("lookahead", Fixed(), "random", "frontier") if python_seat else BUILTINS
    )
    options = {"r": 4, "L": 3, "W": 2, "T": 24, "seed": 77, "supply_fringe": True}
    whole = Game("lakes", players=players, **options)
    whole.run()
    first = Game("lakes", players=players, **options)
    first.run(turns=13)
    path = tmp_path / "game.json"
    first.save(path)
    assert not (tmp_path / "game.json.partial").exists()
    loaded = Game.load(path, players={1: Fixed()} if python_seat else None)
    assert snapshot(loaded) == snapshot(first)
    assert loaded.log == first.log  # the log is kept
    assert loaded.players == first.players
    assert (loaded.map, loaded.map.name) == (first.map, "lakes")
    assert (loaded.seed, loaded.flags, loaded.T, loaded.r) == (77, first.flags, 24, 4)
    loaded.run()
    first.run()
    assert snapshot(loaded) == snapshot(whole)
    assert snapshot(first) == snapshot(whole)
    assert isinstance(loaded.log[0], LogEntry)


def test_load_errors(tmp_path):
    path = tmp_path / "game.json"
    path.write_text("{not json")
    with pytest.raises(InvalidBoard, match="cannot read a saved outpost game"):
        Game.load(path)
    with pytest.raises(InvalidBoard, match="cannot read a saved outpost game"):
        Game.load(tmp_path / "missing.json")
    path.write_text(json.dumps({"format": "stratagem.conquest.game", "version": 1}))
    with pytest.raises(InvalidBoard, match="not a saved outpost game"):
        Game.load(path)

    game = Game(DRY, r=2, T=5, players=("spread", "random", Fixed(), "frontier"))
    game.step()
    game.save(path)
    with pytest.raises(InvalidParameter, match="seat 2 was a Python player; pass it back"):
        Game.load(path)
    with pytest.raises(InvalidParameter, match="seat 1 was the built-in player 'random'"):
        Game.load(path, players={1: Fixed()})
    with pytest.raises(InvalidParameter, match=r"seat 7 is not 0\.\.3"):
        Game.load(path, players={7: Fixed()})
    assert Game.load(path, players={2: Fixed()}).turn == 1

    data = json.loads(path.read_text())
    for change, match in [
        (lambda d: d.pop("seed"), "KeyError"),
        (lambda d: d["outposts"][0].__setitem__(2, 100), "outpost row 0"),
        (lambda d: d["history"].pop(), "the history has 1 rows; a game at turn 1 has 2"),
        (lambda d: d["history"][-1].__setitem__(0, 999), "the last history row does not match"),
        (lambda d: d.__setitem__("next_id", 2), "ids must increase and stay below the next id"),
        (lambda d: d["params"].__setitem__("r", -1), "r must be at least 0"),
        (lambda d: d["map"].__setitem__("water", [[0, 0]]), r"cell \(0, 0\) is water"),
    ]:
        corrupted = json.loads(json.dumps(data))
        change(corrupted)
        path.write_text(json.dumps(corrupted))
        with pytest.raises(InvalidBoard, match=match):
            Game.load(path, players={2: Fixed()})


def test_a_saved_outpost_on_water_is_refused(tmp_path):
    game = Game("lakes", T=5)
    data = game.to_dict()
    data["outposts"][0][2:] = [2, 1]  # water on the lakes map
    assert game.map.is_water(2, 1)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    with pytest.raises(InvalidBoard, match=r"outpost 0 at \(2, 1\) is on water"):
        Game.load(path)


# -- errors -----------------------------------------------------------------------------------


class NoMethods:
    pass


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        *BAD_PARAMETERS,
        ({"r": 2.5}, "r must be an integer"),
        ({"L": 10_001}, "L must be at most 10000"),
        ({"W": 0}, "W must be at least 1"),
        ({"seed": -1}, "seed must be at least 0"),
        ({"seed": 2**64}, "seed must be at most"),
        ({"players": ("spread", "random", "frontier")}, "players must name 4 players, got 3"),
        ({"players": "spread,random"}, "players must name 4 players, got 2"),
        ({"players": ("spread", "greedy", "random", "frontier")}, "player 1: unknown built-in"),
        ({"players": ("spread", "random", NoMethods(), "frontier")}, "player 2: NoMethods"),
        ({"time_budget": 0}, "time_budget must be a positive number"),
        ({"time_budget": "1"}, "time_budget must be a positive number"),
        ({"map": 5}, "map must be a Map or a map name"),
        ({"map": "atlantis"}, "no map 'atlantis'"),
    ],
)
def test_parameter_errors_name_the_parameter(kwargs, match):
    with pytest.raises(InvalidParameter, match=match):
        Game(**kwargs)


def test_run_and_step_errors_leave_the_game_alone():
    game = Game(DRY, r=2, T=4)
    game.step()
    before = snapshot(game)
    with pytest.raises(InvalidParameter, match="turns must be at least 0"):
        game.run(turns=-1)
    with pytest.raises(InvalidParameter, match="turns must be an integer"):
        game.run(turns=1.5)  # type: ignore[arg-type]
    assert snapshot(game) == before
    assert game.players == BUILTINS
    assert Game(DRY, players="spread,frontier,random,lookahead").players == BUILTINS


# -- Ctrl-C of a long built-in run ------------------------------------------------------------


def test_ctrl_c_stops_a_long_built_in_run_between_turns():
    game = Game(seed=9)  # the default game: 4444 turns, a few seconds
    assert seconds_to_stop_after_ctrl_c(game.run) < 0.5
    assert 0 < game.turn < game.last_turn
    # Whole turns only: the history and log match an uninterrupted game of that length.
    assert game.history.land.shape == (game.turn + 1, 4)
    reference = Game(seed=9)
    reference.run(turns=game.turn)
    assert snapshot(game) == snapshot(reference)
    game.step()
    reference.step()
    assert snapshot(game) == snapshot(reference)
