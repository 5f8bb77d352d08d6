"""Retreats and Loeb's "disband and build": retreat options against the ``diplomacy``
package's on positions it adjudicates, and the joint search against the plain order through
the engine and through the oracle's evaluator."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli_helpers import Command
from stratagem.cli import main
from stratagem.diplomacy import oracle
from stratagem.diplomacy.map import Map
from stratagem.diplomacy.position import Position, Unit
from stratagem.diplomacy.positions import random_position
from stratagem.diplomacy.retreats import (
    Dislodged,
    RetreatPosition,
    disband_and_build,
    retreat_then_adjust,
)
from stratagem.errors import InvalidParameter

STANDARD = Map.standard()
NAMES = {c: n.upper() for c, n in zip(STANDARD.powers, STANDARD.power_names, strict=True)}
CODES = {n: c for c, n in NAMES.items()}
#: The constructed position where disbanding and building beats retreating then adjusting.
EXAMPLE = (
    "AUS: F ION, F EAS / BUD TRI VIE; RUS: A GAL / MOS; ITA: A TYR / NAP; "
    "ENG: F NAO, F NWG, F CLY, A LVP / LON | dislodged: AUS F NAO < IRI"
)


def adjudicated(seed: int) -> tuple[RetreatPosition, dict[str, list[str]]] | None:
    """A random position, random Spring orders with supported attacks, adjudicated by the
    package; ``None`` unless a unit is dislodged. The retreat position read from the package's
    state, and the package's retreat options of each dislodged unit."""
    diplomacy = pytest.importorskip("diplomacy")
    start = random_position(seed, units=34)
    game = diplomacy.Game()
    game.clear_units()
    for code, name in NAMES.items():
        game.set_units(name, [str(u) for u in start.units_of(code)], reset=True)
    game.set_current_phase("S1901M")
    rng = random.Random(seed)
    # Sorted: the package lists them in an order that changes with the hash seed.
    possible = {loc: sorted(orders) for loc, orders in game.get_all_possible_orders().items()}
    chosen: dict[str, str] = {}
    for location in sorted(u.province for u in start.units):
        moves = [o for o in possible[location] if " - " in o and " S " not in o and "VIA" not in o]
        chosen[location] = rng.choice(moves) if moves else possible[location][0]
    # Supports of the moves chosen, where a unit can give one.
    for location in chosen:
        backing = [
            o
            for o in possible[location]
            if " S " in o and " - " in o and o.split(" S ", 1)[1] in chosen.values()
        ]
        if backing and rng.random() < 0.7:
            chosen[location] = rng.choice(backing)
    for code, name in NAMES.items():
        game.set_orders(name, [chosen[u.province] for u in start.units_of(code)])
    game.process()
    if game.phase_type != "R":
        return None
    units = [
        Unit(CODES[name], *unit.split())
        for name, power in game.powers.items()
        for unit in power.units
    ]
    occupied = {u.province for u in units}
    dislodged = tuple(
        Dislodged(Unit(CODES[name], *unit.split()), game.dislodged[unit][:3])
        for name, power in game.powers.items()
        for unit in power.retreats
    )
    standoffs = frozenset(p[:3] for p in game.combat if p[:3] not in occupied)
    rp = RetreatPosition(
        Position.from_units(units, dict(start.owners), STANDARD), dislodged, standoffs
    )
    options = {
        f"{d.unit.power} {d.unit}": sorted(
            o.split(" R ")[1] for o in game.get_all_possible_orders()[d.unit.province] if " R " in o
        )
        for d in dislodged
    }
    return rp, options


def test_retreat_options_are_the_package_s_on_adjudicated_positions() -> None:
    """Seed 83 has a dislodged unit next to a standoff."""
    found = 0
    standoff_mattered = False
    for seed in [*range(60), 83]:
        drawn = adjudicated(seed)
        if drawn is None:
            continue
        rp, options = drawn
        found += 1
        assert {f"{d.unit.power} {d.unit}": sorted(rp.options(d)) for d in rp.dislodged} == options
        for d in rp.dislodged:
            assert rp.options(d) == oracle.retreat_options(
                rp.position, d.unit, d.attacker, sorted(rp.standoffs)
            )
        assert RetreatPosition.parse(str(rp)) == rp
        bare = RetreatPosition(rp.position, rp.dislodged)
        standoff_mattered |= any(bare.options(d) != rp.options(d) for d in rp.dislodged)
    assert found >= 5
    assert standoff_mattered


@settings(max_examples=max(1, min(40, settings().max_examples)))
@given(st.integers(0, 2**32 - 1), st.data())
def test_engine_and_oracle_retreat_options_agree(seed: int, data: st.DataObject) -> None:
    """Any unit taken off a random position as dislodged, any attacker's province and any
    standoffs: the engine's options are the oracle's, in the same order."""
    drawn = random_position(seed, units=30)
    if not drawn.units:
        return
    unit = data.draw(st.sampled_from(drawn.units))
    rest = [u for u in drawn.units if u is not unit]
    position = Position.from_units(rest, dict(drawn.owners), STANDARD)
    attacker = data.draw(st.sampled_from(STANDARD.provinces))
    empty = sorted(set(STANDARD.provinces) - {u.province for u in rest})
    standoffs = data.draw(st.lists(st.sampled_from(empty), unique=True, max_size=6))
    rp_options = RetreatPosition(position, (), frozenset(standoffs)).options(
        Dislodged(unit, attacker)
    )
    assert rp_options == oracle.retreat_options(position, unit, attacker, standoffs)


def oracle_plan(rp: RetreatPosition, power: str, convention: str, capture: bool, joint: bool):
    """The oracle's plan as the product's (retreat, option, value)."""
    dislodged = [(d.unit, d.attacker) for d in rp.of(power)]
    return oracle.retreat_plan(
        rp.position,
        power,
        dislodged,
        sorted(rp.standoffs),
        convention,
        capture=capture,
        joint=joint,
    )


@settings(max_examples=max(1, min(6, settings().max_examples)))
@given(st.integers(0, 59), st.sampled_from(["exact", "waives"]), st.booleans())
def test_the_searches_through_the_engine_and_the_oracle(
    seed: int, convention: str, capture: bool
) -> None:
    """On adjudicated positions, for every power with a dislodged unit: the same plans
    through the engine's evaluator and the oracle's, and the joint search never worse."""
    drawn = adjudicated(seed)
    if drawn is None:
        return
    rp, _ = drawn
    for power in sorted({d.unit.power for d in rp.dislodged}):
        for search, joint in ((retreat_then_adjust, False), (disband_and_build, True)):
            fast = search(rp, power, convention=convention, capture=capture)
            slow = oracle_plan(rp, power, convention, capture, joint)
            assert (fast.retreat, fast.option, fast.value) == slow, (search.__name__, power)
        plain = retreat_then_adjust(rp, power, convention=convention, capture=capture)
        joint_plan = disband_and_build(rp, power, convention=convention, capture=capture)
        assert joint_plan.value >= plain.value


def test_disbanding_and_building_beats_retreating_then_adjusting() -> None:
    """Austria's fleet in the North Atlantic can only retreat to the Mid-Atlantic; kept, it
    leaves Vienna, Budapest and Trieste to the Russian and Italian armies next to them.
    Disbanded, it is built again in Budapest."""
    rp = RetreatPosition.parse(EXAMPLE)
    for capture in (True, False):
        plain = retreat_then_adjust(rp, "AUS", capture=capture)
        joint = disband_and_build(rp, "AUS", capture=capture)
        assert (plain.orders, plain.value) == (("F NAO R MAO",), 74)
        assert (joint.orders, joint.value) == (("F NAO D", "build A BUD"), 84)
        assert oracle_plan(rp, "AUS", "exact", capture, joint=True) == (
            joint.retreat,
            joint.option,
            joint.value,
        )
        assert oracle_plan(rp, "AUS", "exact", capture, joint=False) == (
            plain.retreat,
            plain.option,
            plain.value,
        )


def test_bad_retreat_positions_are_refused() -> None:
    for text, words in (
        ("AUS: A BUD / BUD | dislodged: AUS A VIE < BOH", "attacker"),
        ("AUS: A BUD / BUD; RUS: A VIE / MOS | dislodged: AUS A VIE < VIE", "attacker's province"),
        ("AUS: A BUD / BUD | standoffs: BUD", "standoff"),
        ("AUS: A BUD / BUD | dislodged: AUS A VIE BOH", "POWER KIND"),
        ("AUS: A BUD / BUD | moved: GAL", "dislodged"),
    ):
        with pytest.raises(InvalidParameter, match=words):
            RetreatPosition.parse(text)


def test_the_retreat_command(capsys: pytest.CaptureFixture[str]) -> None:
    report = Command("diplomacy").run_json(capsys, "retreat", EXAMPLE, "--power", "AUS")
    assert report["options"] == {"AUS F NAO < IRI": ["MAO"]}
    assert report["plans"]["retreat_then_adjust"]["orders"] == ["F NAO R MAO"]
    assert report["plans"]["disband_and_build"]["orders"] == ["F NAO D", "build A BUD"]
    assert report["seed_condition"] is True
    text = Command("diplomacy").run_text(
        capsys, "retreat", EXAMPLE, "--power", "AUS", "--no-capture"
    )
    assert "disband and build" in text
    assert main(["diplomacy", "retreat", EXAMPLE, "--power", "XYZ"]) != 0
