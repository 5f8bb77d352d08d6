"""Counting Spring openings (``stratagem.diplomacy.article.openings``): every unit's orders against
the ``diplomacy`` package, and the joint counts against brute force on small positions."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cli_helpers import Command
from stratagem.diplomacy import openings
from stratagem.diplomacy.map import Map
from stratagem.diplomacy.position import Position, Unit
from stratagem.diplomacy.positions import OPENING
from stratagem.errors import InvalidParameter
from test_diplomacy_engine import random_position

STANDARD = Map.standard()
START = Position.parse(OPENING)


def package_orders(position: Position) -> dict[str, list[str]]:
    """The package's possible orders at each unit's province in a Spring movement phase."""
    diplomacy = pytest.importorskip("diplomacy")
    game = diplomacy.Game()
    game.clear_units()
    for code, name in zip(STANDARD.powers, STANDARD.power_names, strict=True):
        game.set_units(name.upper(), [str(u) for u in position.units_of(code)], reset=True)
    game.set_current_phase("S1901M")
    assert not game.error, game.error
    possible = game.get_all_possible_orders()
    return {
        u.province: sorted({_province_support(o) for o in possible[u.province]})
        for u in position.units
    }


def _province_support(order: str) -> str:
    """The package also lists a support of a fleet's move to a named coast ('S F GRE -
    BUL/SC') beside the same support to the province ('S F GRE - BUL'); a support is to a
    province (the rules, DATC 6.B.4), so the coast is dropped."""
    if " S " in order and " - " in order:
        head, _, target = order.rpartition(" - ")
        return f"{head} - {target.partition('/')[0]}"
    return order


def ours(position: Position) -> dict[str, list[str]]:
    return {u.province: sorted(map(str, o)) for u, o in openings.unit_orders(position).items()}


def test_spring_1901_orders_are_the_package_s() -> None:
    assert ours(START) == package_orders(START)
    assert sum(len(o) for o in ours(START).values()) == 238


@settings(max_examples=max(1, min(30, settings().max_examples)))
@given(st.integers(0, 2**32 - 1))
def test_orders_on_random_positions_are_the_package_s(seed: int) -> None:
    drawn = random_position(seed, units=18)
    landed = [
        u for u in drawn.units if not (u.kind == "F" and STANDARD.kind_of(u.province) == "sea")
    ]
    position = Position.from_units(landed, dict(drawn.owners), STANDARD)
    assert ours(position) == package_orders(position)


def test_a_fleet_at_sea_is_refused() -> None:
    with pytest.raises(InvalidParameter, match="at sea"):
        openings.unit_orders(Position.parse("ENG: F NTH / LON"))


def position_of(units: list[Unit]) -> Position:
    """The units on the standard map, each centre one stands on owned by its power."""
    owners = {u.province: u.power for u in units if u.province in STANDARD.centres}
    return Position.from_units(units, owners, STANDARD)


def joint_orders(
    orders: dict[Unit, tuple[openings.Order, ...]], units: list[Unit]
) -> Iterator[dict[Unit, openings.Order]]:
    """Every choice of one order for each of ``units``, as unit -> order."""
    for chosen in itertools.product(*(orders[u] for u in units)):
        yield dict(zip(units, chosen, strict=True))


def supports(
    by_unit: dict[Unit, openings.Order],
) -> Iterator[tuple[openings.Order, openings.Order]]:
    """Each support order of a joint choice, with the order of the unit it supports."""
    for order in by_unit.values():
        if order.supported is not None:
            yield order, by_unit[order.supported]


def brute_force(position: Position, definition: str) -> int:
    """Every order set of the position, checked one by one."""
    orders = openings.unit_orders(position)
    units = list(position.units)
    if definition == "successes":
        ends = [
            [None, *sorted({o.target.partition("/")[0] for o in orders[u] if o.kind == "-"})]
            for u in units
        ]
        total = 0
        for chosen in itertools.product(*ends):
            moved = {u.province: e for u, e in zip(units, chosen, strict=True)}
            goals = [e for e in chosen if e is not None]
            if len(goals) != len(set(goals)):
                continue
            if any(
                e in moved and moved[e] in (None, u.province)
                for u, e in zip(units, chosen, strict=True)
                if e
            ):
                continue
            total += 1
        return total
    total = 0
    for by_unit in joint_orders(orders, units):
        fine = True
        for order, other in supports(by_unit):
            foreign = order.supported.power != order.unit.power
            if definition == "moves" or (definition == "matched-own" and foreign):
                fine = False
            elif definition in ("matched", "matched-own"):
                if order.kind == "SH":
                    fine = fine and other.kind != "-"
                else:
                    fine = (
                        fine
                        and other.kind == "-"
                        and other.target.partition("/")[0] == order.target
                    )
        total += fine
    return total


@settings(max_examples=max(1, min(12, settings().max_examples)))
@given(st.lists(st.sampled_from(START.units), min_size=1, max_size=4, unique=True))
def test_joint_counts_equal_brute_force(units: list[Unit]) -> None:
    position = position_of(units)
    for definition in openings.DEFINITIONS:
        expected = (
            math.prod(len(o) for o in openings.unit_orders(position).values())
            if definition == "any"
            else brute_force(position, definition)
        )
        assert openings.count(position, definition) == expected, definition


def test_the_1901_counts() -> None:
    assert openings.counts(START) == {
        "any": 19_837_330_971_695_677_440_000,
        "moves": 5_080_320_000_000_000,
        "matched": 265_637_064_960_364_350,
        "matched-own": 92_326_631_997_600_000,
        "successes": 171_431_223_675_180,
    }
    with pytest.raises(InvalidParameter, match="definition"):
        openings.count(START, "nice")  # type: ignore[arg-type]


def test_the_openings_command(capsys: pytest.CaptureFixture[str]) -> None:
    report = Command("diplomacy").run_json(capsys, "openings", "--definition", "matched")
    assert report["counts"] == [
        {
            "definition": "matched",
            "meaning": openings.DEFINITIONS["matched"],
            "count": 265_637_064_960_364_350,
        }
    ]
    assert report["loeb"] == openings.LOEB
    assert [row["orders"] for row in report["units"]][:3] == [13, 6, 15]
    text = Command("diplomacy").run_text(capsys, "openings", "ENG: F LON, A LVP / LON LVP")
    assert "moves: 25 " in text


@settings(max_examples=max(1, min(12, settings().max_examples)))
@given(
    st.lists(st.sampled_from(START.units), min_size=1, max_size=4, unique=True),
    st.sampled_from(["none", "unmoving", "holding"]),
    st.tuples(st.booleans(), st.booleans(), st.booleans()),
    st.tuples(st.booleans(), st.booleans(), st.booleans()),
)
def test_the_parts_of_the_definitions_against_brute_force(
    units: list[Unit], hold: str, flags: tuple[bool, bool, bool], rules: tuple[bool, bool, bool]
) -> None:
    move, own_only, holds = flags
    position = position_of(units)
    orders = openings.unit_orders(position)
    expected = 0
    for by_unit in joint_orders(orders, units):
        fine = holds or all(order.kind != "H" for order in by_unit.values())
        for order, other in supports(by_unit):
            if own_only and order.supported.power != order.unit.power:
                fine = False
            elif order.kind == "SH":
                fine &= hold != "none" and (
                    other.kind == "H" if hold == "holding" else other.kind != "-"
                )
            else:
                fine &= move and other.kind == "-" and other.target[:3] == order.target
        expected += fine
    found = openings.supported_sets(position, hold=hold, move=move, own_only=own_only, holds=holds)
    assert found == expected
    into_kept, distinct, swap = rules
    ends = [[None, *sorted({o.target[:3] for o in orders[u] if o.kind == "-"})] for u in units]
    expected = 0
    for chosen in itertools.product(*ends):
        fine = True
        for (a, x), (b, y) in itertools.combinations(zip(units, chosen, strict=True), 2):
            if own_only and a.power != b.power:
                continue
            if distinct and x is not None and x == y:
                fine = False
            for mover, goal, other, went in ((a, x, b, y), (b, y, a, x)):
                if goal == other.province and (
                    (into_kept and went is None) or (swap and went == mover.province)
                ):
                    fine = False
        expected += fine
    found = openings.move_sets(
        position, into_kept=into_kept, distinct=distinct, swap=swap, own_only=own_only
    )
    assert found == expected


@settings(max_examples=max(1, min(12, settings().max_examples)))
@given(st.lists(st.sampled_from(START.units), min_size=1, max_size=4, unique=True))
@example([u for u in START.units if u.power == "AUS"])
def test_contested_supports_against_brute_force(units: list[Unit]) -> None:
    position = position_of(units)
    orders = openings.unit_orders(position)
    expected = 0
    for by_unit in joint_orders(orders, units):
        fine = True
        for order, other in supports(by_unit):
            target = order.target if order.kind == "SM" else order.supported.province
            third = [(u, o) for u, o in by_unit.items() if u not in (order.unit, order.supported)]
            if order.kind == "SH":
                fine &= other.kind != "-" and any(
                    o.kind == "-" and o.target[:3] == target for _, o in third
                )
            else:
                fine &= (
                    other.kind == "-"
                    and other.target[:3] == target
                    and any(
                        (o.kind == "-" and o.target[:3] == target)
                        or (u.province == target and o.kind != "-")
                        for u, o in third
                    )
                )
        expected += fine
    assert openings.contested_sets(position) == expected


def test_the_1901_variants() -> None:
    others = openings.variants(START)
    assert others["no hold order"] == 4_417_717_576_759_172
    assert others["contested supports"] == 9_204_772_203_554_112
    assert others["no two moves of one power to one province"] == 1_824_156_558_374_400
    assert openings.LOEB not in others.values()
