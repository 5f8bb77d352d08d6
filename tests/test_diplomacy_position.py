"""Positions of the standard map against docs/diplomacy-rules.md, "A position": the text form,
the canonical text, every validation rule with its message and the documented order, the
per-power views and the arrays for the core."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from diplomacy_strategies import unit_on
from stratagem.diplomacy.map import Map
from stratagem.diplomacy.position import RULES, Position, Unit, check_rules
from stratagem.errors import InconsistentInput, InvalidParameter, StratagemError

MAP = Map.standard()


# --- Parsing and the canonical text -----------------------------------------------------------


def test_parse_the_documented_example():
    p = Position.parse("AUS: A VIE, A BUD, F TRI / BUD TRI VIE; RUS: F STP/SC / STP")
    assert p.map is MAP
    assert p.units == (
        Unit("AUS", "A", "BUD"),
        Unit("AUS", "F", "TRI"),
        Unit("AUS", "A", "VIE"),
        Unit("RUS", "F", "STP/SC"),
    )
    assert dict(p.owners) == {"BUD": "AUS", "STP": "RUS", "TRI": "AUS", "VIE": "AUS"}
    assert str(p) == "AUS: A BUD, F TRI, A VIE / BUD TRI VIE; RUS: F STP/SC / STP"


def test_canonical_text_orders_powers_units_and_centres():
    p = Position.parse("TUR: F ANK / SMY ANK; ENG: A YOR, F NTH / LON; AUS: / VIE BUD")
    assert str(p) == "AUS: / BUD VIE; ENG: F NTH, A YOR / LON; TUR: F ANK / ANK SMY"


def test_a_slash_between_two_names_is_a_coast():
    # "A MOS/STP" reads as the coast STP of MOS, so the group has no units / centres slash
    with pytest.raises(InvalidParameter, match='expected "POWER: units / centres"'):
        Position.parse("RUS: A MOS/STP MOS")


def test_names_are_case_insensitive_and_spacing_free():
    a = Position.parse("rus:f stp/sc,a mos /stp mos ;  aus :  /vie")
    b = Position.parse("AUS: / VIE; RUS: A MOS, F STP/SC / MOS STP")
    assert a == b
    assert str(a) == "AUS: / VIE; RUS: A MOS, F STP/SC / MOS STP"


def test_a_power_with_no_group_and_a_power_with_centres_only():
    p = Position.parse("AUS: / BUD")
    assert p.units_of("AUS") == ()
    assert p.centres_of("AUS") == ("BUD",)
    assert p.units_of("RUS") == ()
    assert p.centres_of("RUS") == ()
    assert str(p) == "AUS: / BUD"
    assert str(Position.parse("ENG: F NTH /")) == "ENG: F NTH /"


def test_empty_text_is_the_empty_board():
    p = Position.parse("")
    assert p.units == ()
    assert dict(p.owners) == {}
    assert str(p) == ""
    assert Position.parse(str(p)) == p
    assert Position.parse(" ; AUS: / VIE ;") == Position.parse("AUS: / VIE")


def test_from_units_and_the_constructor_normalise_and_sort():
    p = Position.from_units(
        [Unit("rus", "f", "stp/nc"), Unit("AUS", "A", "vie")], {"vie": "aus", "STP": "RUS"}
    )
    assert p.units == (Unit("AUS", "A", "VIE"), Unit("RUS", "F", "STP/NC"))
    assert list(p.owners) == ["STP", "VIE"]  # centre order
    assert p == Position.parse("RUS: F STP/NC / STP; AUS: A VIE / VIE")
    assert hash(p) == hash(Position.parse(str(p)))
    assert Position(MAP, p.units, p.owners) == p
    assert repr(p) == "Position('AUS: A VIE / VIE; RUS: F STP/NC / STP')"


def test_per_power_views_and_open_homes():
    p = Position.parse("RUS: A WAR, F SEV, A UKR / STP SEV MOS WAR; TUR: A MOS / ANK; AUS: / TRI")
    assert [str(u) for u in p.units_of("RUS")] == ["F SEV", "A UKR", "A WAR"]
    assert p.centres_of("RUS") == ("MOS", "SEV", "STP", "WAR")
    # MOS is occupied (by Turkey), SEV and WAR by Russia: only STP is open
    assert p.open_homes("RUS") == ("STP",)
    assert p.open_homes("TUR") == ("ANK",)
    assert p.open_homes("AUS") == ("TRI",)
    assert p.open_homes("ENG") == ()
    with pytest.raises(InvalidParameter, match="unknown power"):
        p.units_of("XYZ")


def test_arrays_for_the_core():
    p = Position.parse("AUS: A VIE, F TRI / VIE; RUS: F STP/NC / STP; TUR: F BLA /")
    assert p.unit_power.dtype == np.int64
    assert p.unit_power.tolist() == [0, 0, 5, 6]
    # units by province: TRI comes before VIE
    assert p.unit_fleet.dtype == np.bool_
    assert p.unit_fleet.tolist() == [True, False, True, True]
    assert p.unit_location.dtype == np.int64
    assert p.unit_location.tolist() == [
        MAP.fleet_locations().index("TRI"),
        MAP.army_locations().index("VIE"),
        MAP.fleet_locations().index("STP/NC"),
        MAP.fleet_locations().index("BLA"),
    ]
    assert p.owner.dtype == np.int64
    assert p.owner.shape == (34,)
    expected = [-1] * 34
    expected[MAP.centres.index("VIE")] = 0
    expected[MAP.centres.index("STP")] = 5
    assert p.owner.tolist() == expected
    with pytest.raises(ValueError, match="read-only"):
        p.owner[0] = 1


# --- Validation -------------------------------------------------------------------------------

SYNTAX = [
    ("AUS A VIE / VIE", 'group 1: expected "POWER: units / centres"'),
    ("AUS: A VIE / VIE; RUS: A MOS", 'group 2: expected "POWER: units / centres"'),
    ("AUS: A VIE / VIE / BUD", 'group 1: expected "POWER: units / centres"'),
    ("AUS: B VIE / VIE", 'group 1: expected a unit as "A VIE" or "F STP/SC"'),
    ("AUS: A VIE A BUD / VIE", 'group 1: expected a unit as "A VIE" or "F STP/SC"'),
    ("AUS: A VIE, / VIE", 'group 1: expected a unit as "A VIE" or "F STP/SC"'),
    ("AUS: / VIE; XYZ: / BUD", "group 2: unknown power 'XYZ'"),
    ("AUS: A XYZ /", "group 1: unknown province 'XYZ'"),
    ("AUS: / VIE XYZ", "group 1: unknown province 'XYZ'"),
    ("RUS: F STP/XX / STP", "group 1: unknown coast 'STP/XX'"),
    ("RUS: / STP/NC", "group 1: a centre is a province, got 'STP/NC'"),
    ("AUS: / VIE; RUS: / MOS; aus: / BUD", "group 3: power AUS given twice"),
]


BICOASTAL = "a fleet on a bicoastal province names its coast"
RULE_CASES = [
    (
        "AUS: A VIE /; ITA: A VIE /",
        "one unit per province: VIE has two units, A VIE (AUS) and A VIE (ITA)",
    ),
    ("RUS: F STP/NC, A STP /", "one unit per province: STP has two units"),
    ("ENG: A NTH /", "armies stand on land: A NTH (ENG) is at sea"),
    ("AUS: F VIE /", "fleets stand on coasts or at sea: F VIE (AUS) is inland"),
    ("RUS: F STP /", f"{BICOASTAL}: F STP (RUS) must be F STP/NC or F STP/SC"),
    ("AUS: F TRI/NC /", f"{BICOASTAL}: TRI has no named coasts"),
    ("ENG: F NTH/NC /", f"{BICOASTAL}: NTH has no named coasts"),
    ("RUS: F STP/EC /", f"{BICOASTAL}: STP has no coast EC (it has NC, SC)"),
    ("RUS: A STP/NC /", f"{BICOASTAL}: an army stands on a whole province"),
    ("AUS: / BOH", "only supply centres are owned: AUS owns BOH, not a supply centre"),
    ("AUS: / VIE; ITA: / VIE", "each centre is owned at most once: VIE is owned by AUS and by ITA"),
    ("AUS: / VIE BUD VIE", "each centre is owned at most once: VIE is owned by AUS and by AUS"),
]


@pytest.mark.parametrize(
    ("text", "message", "kind"),
    [(text, message, InvalidParameter) for text, message in SYNTAX]
    + [(text, message, InconsistentInput) for text, message in RULE_CASES],
)
def test_rule_1_raises_invalid_parameter_and_the_others_inconsistent_input(text, message, kind):
    with pytest.raises(StratagemError) as caught:
        Position.parse(text)
    assert type(caught.value) is kind
    assert str(caught.value).startswith(message)
    if kind is InconsistentInput:
        assert message.split(":")[0] in RULES


def test_rule_8_names_the_map_s_number_of_centres():
    # Rule 8 is implied by rules 6 and 7 on a valid map, so no position reaches it; its name is
    # checked, and check_rules reports it when handed more ownership pairs than centres that
    # passed 6 and 7 (a caller's bug).
    assert RULES[6].format(centres=len(MAP.centres)) == "at most 34 centres are owned"
    pairs = [("AUS", c) for c in MAP.centres]
    check_rules(MAP, [], pairs)  # all 34 owned: fine


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # syntax before everything
        ("AUS: A VIE /; ITA: A VIE /; XYZ: /", "group 3: unknown power"),
        # 2 before 3: two units on a sea, one of them an army
        ("ENG: A NTH /; GER: F NTH /", "one unit per province"),
        # 3 before 4
        ("AUS: F VIE /; ENG: A NTH /", "armies stand on land"),
        # 4 before 5
        ("RUS: F STP /; AUS: F VIE /", "fleets stand on coasts or at sea"),
        # 5 before 6
        ("AUS: / BOH; RUS: F STP /", "a fleet on a bicoastal province names its coast"),
        # 6 before 7
        ("AUS: / VIE; ITA: / VIE BOH", "only supply centres are owned"),
    ],
)
def test_rules_are_checked_in_the_documented_order(text, rule):
    with pytest.raises(InvalidParameter if rule.startswith("group") else InconsistentInput) as e:
        Position.parse(text)
    assert str(e.value).startswith(rule)


def test_construction_from_units_checks_names_and_rules():
    with pytest.raises(InvalidParameter, match="unknown power 'XYZ'"):
        Position.from_units([Unit("XYZ", "A", "VIE")], {})
    with pytest.raises(InvalidParameter, match="kind is 'A' or 'F'"):
        Position.from_units([Unit("AUS", "B", "VIE")], {})
    with pytest.raises(InvalidParameter, match="unknown province 'XYZ'"):
        Position.from_units([], {"XYZ": "AUS"})
    with pytest.raises(InvalidParameter, match="unknown power"):
        Position.from_units([], {"VIE": "XYZ"})
    with pytest.raises(InconsistentInput, match=r"^armies stand on land"):
        Position.from_units([Unit("ENG", "A", "NTH")], {})
    with pytest.raises(InconsistentInput, match=r"^only supply centres are owned"):
        Position.from_units([], {"BOH": "AUS"})
    with pytest.raises(InvalidParameter, match="must be a Map"):
        Position.parse("", map="standard")  # type: ignore[arg-type]


# --- Round trips on generated positions -------------------------------------------------------


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """A valid position: each province empty or holding one unit of a random power, of a kind
    that may stand there (on a named coast for a fleet on STP, SPA or BUL), and each centre
    owned by a random power or nobody."""
    units = []
    for province, kind in zip(MAP.provinces, MAP.kind, strict=True):
        if not draw(st.booleans()):
            continue
        units.append(draw(unit_on(province, kind, draw(st.sampled_from(MAP.powers)))))
    owners = {}
    for centre in MAP.centres:
        owner = draw(st.sampled_from((None, *MAP.powers)))
        if owner is not None:
            owners[centre] = owner
    order = draw(st.permutations(range(len(units))))
    return Position.from_units([units[i] for i in order], owners)


@given(positions())
def test_generated_positions_round_trip_through_the_canonical_text(p):
    text = str(p)
    assert Position.parse(text) == p
    assert str(Position.parse(text)) == text
    assert Position.parse(text.lower()) == p
    # the groups in any order say the same
    assert Position.parse("; ".join(reversed(text.split("; ")))) == p
    assert len(p.unit_power) == len(p.units) == len(p.unit_location) == len(p.unit_fleet)
    assert sum(len(p.centres_of(power)) for power in MAP.powers) == len(p.owners)
    for power in MAP.powers:
        homes = p.open_homes(power)
        assert all(p.owners[h] == power for h in homes)
        assert not set(homes) & {u.province for u in p.units}
