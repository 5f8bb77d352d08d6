"""The open problem's reachability certificate: a game record from Spring 1901, replayed
through the ``diplomacy`` package (an independent adjudicator), reaches a winter whose
adjustments number the open problem's optimum under the ``exact`` convention."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stratagem.diplomacy import adjustments
from stratagem.diplomacy.map import Map
from stratagem.diplomacy.open_problem import solve
from stratagem.diplomacy.position import Position, Unit

RECORD = Path(__file__).parents[1] / "python/stratagem/diplomacy/records/open_problem_exact.json"


def replay(phases: list[dict[str, Any]]) -> Any:
    """The package's game after every phase of the record, each checked to be the phase the
    package is in and every order accepted."""
    diplomacy = pytest.importorskip("diplomacy")
    game = diplomacy.Game()
    for step in phases:
        assert game.get_current_phase() == step["phase"]
        for power, orders in step["orders"].items():
            game.set_orders(power, orders)
            assert sorted(game.get_orders(power)) == sorted(orders), (step["phase"], power)
        game.process()
    return game


def position_of(game: Any) -> Position:
    the_map = Map.standard()
    code = {name.upper(): c for c, name in zip(the_map.powers, the_map.power_names, strict=True)}
    units, owners = [], {}
    for name, power in game.powers.items():
        for unit in power.units:
            kind, location = unit.split()
            units.append(Unit(code[name], kind, location))
        owners.update(dict.fromkeys(power.centers, code[name]))
    return Position.from_units(units, owners, the_map)


def test_the_record_reaches_the_open_problem_s_optimum() -> None:
    record = json.loads(RECORD.read_text())
    game = replay(record["phases"])
    assert game.get_current_phase() == record["final_phase"] == "W1906A"
    position = position_of(game)
    assert position == Position.parse(record["position"])
    optimum = solve("exact").total
    assert adjustments.total(position, "exact") == record["total"] == optimum
    # The package's own adjustment duties agree: Austria removes 9, the others build 2.
    builds = game.get_state()["builds"]
    assert {name: duty["count"] for name, duty in builds.items()} == {
        "AUSTRIA": -9,
        "ENGLAND": 2,
        "FRANCE": 2,
        "GERMANY": 2,
        "ITALY": 2,
        "RUSSIA": 2,
        "TURKEY": 2,
    }
