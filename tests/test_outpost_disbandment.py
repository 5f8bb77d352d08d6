"""When mutual disbandment does not happen (``stratagem.outpost.disbandment``): every
configuration checked by the engine and the oracle, the same positions under the default rules
for contrast, and the season case played as a whole turn by both."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

from stratagem import _core
from stratagem.outpost import Game, Map, MapWarning, State, oracle
from stratagem.outpost.disbandment import CONFIGURATIONS, Configuration, R, checked, land, rows


def oracle_cut(configuration: Configuration, fringe: bool) -> tuple[Any, list[int]]:
    water = land()
    outposts = [oracle.Outpost(*row) for row in configuration.outposts]
    control = oracle.control(water, outposts, R)
    return control, sorted(oracle.cut_off(water, control, outposts, fringe=fringe))


@pytest.mark.parametrize("configuration", CONFIGURATIONS, ids=lambda c: c.name)
def test_engine_and_oracle_cut_off_what_the_configuration_says(configuration) -> None:
    control, cut = checked(configuration)
    expected_control, expected_cut = oracle_cut(configuration, configuration.fringe)
    assert control.tolist() == expected_control.tolist()
    assert cut == expected_cut == list(configuration.cut)
    # Every configuration has a cell two empires share, now or at the move phase's start.
    shared = configuration.before or configuration.outposts
    cells = {}
    for _, empire, x, y in shared:
        cells.setdefault((x, y), set()).add(empire)
    assert any(len(empires) > 1 for empires in cells.values())


@pytest.mark.parametrize(
    "configuration", [c for c in CONFIGURATIONS if c.fringe], ids=lambda c: c.name
)
def test_without_the_fringe_rule_both_outposts_on_the_shared_cell_go(configuration) -> None:
    position = rows(configuration.outposts)
    water = land()
    control = _core.outpost.control(water, position, R)
    cut = sorted(_core.outpost.cut_off(water, control, position, False))
    _, expected = oracle_cut(configuration, False)
    cells: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for outpost, empire, x, y in configuration.outposts:
        cells.setdefault((x, y), []).append((outpost, empire))
    on_shared = sorted(
        i for here in cells.values() if len({e for _, e in here}) > 1 for i, _ in here
    )
    assert cut == expected
    assert set(on_shared) <= set(cut)
    assert len(on_shared) >= 2


# The season case as a whole turn: a pond beside every home (water at region cell (2, 1) and
# its rotations), L = W = 1, so at turn 10 empire 0 (no outposts) builds on its home, where an
# outpost of empire 1 stands, and empires 1..3 build on theirs.
START = [[1, 1, 99, 0], [2, 2, 99, 99], [3, 3, 0, 99], [4, 1, 0, 0]]
PARAMS: dict[str, Any] = {"r": R, "L": 1, "W": 1, "T": 10}


def pond() -> Map:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MapWarning)
        return Map.from_cells([(2, 1)], name="pond", lenient=True)


class Scripted:
    """Stays, except that on turn 10 outpost 4 (if it is this empire's) steps east."""

    def __init__(self, step_off: bool) -> None:
        self.step_off = step_off

    def move(self, state: State) -> dict[int, str]:
        mine = [int(i) for i in state.mine()[:, 0]]
        return {4: "E"} if self.step_off and state.turn == 10 and 4 in mine else {}

    def disband(self, state: State) -> int:
        return int(state.mine()[-1, 0])


def engine_turn_10(step_off: bool) -> tuple[list[list[int]], list[Any]]:
    board = pond()
    players = [Scripted(step_off) for _ in range(4)]
    data = Game(board, players=players, **PARAMS).to_dict()
    control = _core.outpost.control(board.water, np.array(START, dtype=np.int64), R)
    row = []
    for empire in range(4):
        held = control == empire
        row += [int((held & ~board.water).sum()), int((held & board.water).sum())]
        row.append(sum(o[1] == empire for o in START))
    counts = [row[3 * e : 3 * e + 3] for e in range(4)]
    data.update(turn=0, outposts=START, next_id=5, history=[[c for e in counts for c in e]])
    game = Game.from_dict(data, players=players)
    game.run(progress=False)
    return game.outposts.tolist(), [e for e in game.log if e.turn == 10]


def oracle_turn_10(step_off: bool) -> tuple[list[list[int]], list[Any]]:
    board = pond()
    outposts = [oracle.Outpost(*row) for row in START]
    game = oracle.OracleGame.from_position(board.water, outposts, players=[None] * 4, **PARAMS)
    for _ in range(9):
        game.step()
    moves = {1: [0, 2 if step_off else 0, 0]}
    game.step(external_moves=moves)
    return [list(o) for o in game.outposts], [e for e in game.log if e.turn == 10]


@pytest.mark.parametrize("step_off", [True, False])
def test_the_season_case_played_as_a_turn(step_off: bool) -> None:
    outposts, log = engine_turn_10(step_off)
    expected_outposts, expected_log = oracle_turn_10(step_off)
    assert outposts == expected_outposts
    assert [(e.empire, e.kind, e.outpost) for e in log] == [
        (e.empire, e.kind, e.outpost) for e in expected_log
    ]
    builds = [(e.empire, e.outpost) for e in log if e.kind == "build"]
    assert builds[0] == (0, 5)
    cut = sorted(e.outpost for e in log if e.kind == "cut")
    # Staying on the shared home cell, both go; stepping off, neither does.
    assert cut == ([] if step_off else [4, 5])
