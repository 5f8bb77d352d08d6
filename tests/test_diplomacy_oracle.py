"""The diplomacy oracle against docs/diplomacy-rules.md: counts against brute-force listings,
the listing order and slot form worked out by hand, the evaluator against an independent
networkx computation, the searches (determinism, budgets, pure Nash equilibria checked by brute
force, cycles and their mixed equilibria), Loeb's tables and the open problem's dynamic
programming against a brute force on a reduced instance."""

from __future__ import annotations

import functools
import itertools
import math

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diplomacy_strategies import unit_on
from stratagem.diplomacy import oracle, tables
from stratagem.diplomacy.map import Map
from stratagem.diplomacy.oracle import (
    CONVENTIONS,
    adjust,
    adjustment_count,
    anneal,
    apply,
    combined,
    count,
    describe,
    evaluate,
    index_of,
    open_problem,
    option_at,
    options,
    position_for,
    preliminary,
    restricted_equilibrium,
    total,
    values,
)
from stratagem.diplomacy.position import Position, Unit
from stratagem.errors import InvalidParameter

MAP = Map.standard()


# --- Generated positions ----------------------------------------------------------------------


@st.composite
def board_positions(draw: st.DrawFn) -> Position:
    """Any valid position with at most 10 units per power (so that ``C(u, k) <= 252``): each
    province empty or holding a unit of a random power, each centre owned by its home power,
    a random power or nobody."""
    units: list[Unit] = []
    per_power = dict.fromkeys(MAP.powers, 0)
    for province, kind in zip(MAP.provinces, MAP.kind, strict=True):
        if draw(st.integers(0, 2)) != 0:
            continue
        power = draw(st.sampled_from(MAP.powers))
        if per_power[power] == 10:
            continue
        per_power[power] += 1
        units.append(draw(unit_on(province, kind, power)))
    owners = {}
    for centre in MAP.centres:
        home = MAP.home_of[centre]
        owner = draw(st.sampled_from((None, home, home, *MAP.powers)))
        if owner is not None:
            owners[centre] = owner
    return Position.from_units(units, owners)


@st.composite
def adjustment_positions(draw: st.DrawFn, most: int = 3) -> Position:
    """A position built by :func:`oracle.position_for` from per-power ``(u, c, H)`` drawn within
    a shared budget of centres and previous-winter centres: many builds on open homes."""
    wanted = {}
    centres = previous = 34
    for power in MAP.powers:
        homes = MAP.homes[power]
        h = draw(st.integers(0, len(homes)))
        chosen = draw(st.sampled_from(list(itertools.combinations(homes, h))))
        c = draw(st.integers(h, h + most))
        u = draw(st.integers(0, c + most))
        q = oracle.previous_centres(u, c, h)
        if c <= centres and q <= previous:
            wanted[power] = (u, c, chosen)
            centres -= c
            previous -= q
    return position_for(wanted)


any_position = st.one_of(board_positions(), adjustment_positions())


# --- Counting and listing ---------------------------------------------------------------------


@given(any_position)
def test_count_equals_the_brute_force_listing_for_every_convention(position):
    for convention in CONVENTIONS:
        for power in MAP.powers:
            listing = list(options(position, power, convention))
            assert count(position, power, convention) == len(listing)
            assert len(set(listing)) == len(listing)
            units = len(position.units_of(power))
            centres = len(position.centres_of(power))
            homes = position.open_homes(power)
            widths = {len(slots) for slots in listing}
            if units > centres:
                assert widths == {units}
                assert all(sum(slots) == units - centres for slots in listing)
            elif listing != [()]:
                assert widths == {len(homes)}
                b = min(centres - units, len(homes))
                sizes = {sum(1 for s in slots if s) for slots in listing}
                assert sizes == {"exact": {b}, "waives": set(range(b + 1))}.get(
                    convention, set(range(1, b + 1))
                )
            for index, slots in enumerate(listing):
                assert option_at(position, power, convention, index) == slots
                assert index_of(position, power, convention, slots) == index
    product = math.prod(count(position, p, "waives") for p in MAP.powers)
    assert total(position, "waives") == product


def test_removal_listing_order_and_slot_form():
    p = Position.parse("AUS: A BUD, A TRI, A VIE / VIE")
    assert list(options(p, "AUS", "exact")) == [(1, 1, 0), (1, 0, 1), (0, 1, 1)]
    assert describe(p, "AUS", (1, 0, 1)) == ["remove A BUD", "remove A VIE"]
    # the convention does not matter for removals
    assert list(options(p, "AUS", "waives")) == list(options(p, "AUS", "article"))


def test_build_listing_order_slot_form_and_conventions():
    # Russia owns MOS (inland, 1 option) and STP (bicoastal: A, F/NC, F/SC) open, and SEV
    # occupied: b = min(3 - 0, 2) = 2.
    p = Position.parse("RUS: / MOS STP SEV; TUR: F SEV / ANK")
    assert p.open_homes("RUS") == ("MOS", "STP")
    waives = list(options(p, "RUS", "waives"))
    assert waives == [
        (0, 0),  # j = 0
        (1, 0),  # j = 1: {MOS}
        (0, 1),  # j = 1: {STP}: A, F/NC, F/SC
        (0, 2),
        (0, 3),
        (1, 1),  # j = 2: {MOS, STP}, MOS's option slowest
        (1, 2),
        (1, 3),
    ]
    assert list(options(p, "RUS", "article")) == waives[1:]
    assert list(options(p, "RUS", "exact")) == waives[5:]
    assert [count(p, "RUS", c) for c in CONVENTIONS] == [3, 8, 7]
    assert describe(p, "RUS", (1, 3)) == ["build A MOS", "build F STP/SC"]
    assert describe(p, "RUS", (0, 2)) == ["build F STP/NC"]
    # one option, doing nothing: () under every convention
    for convention in CONVENTIONS:
        assert list(options(p, "TUR", convention)) == [()]
        assert list(options(p, "AUS", convention)) == [()]
    # removing every unit is one option too, in slot form all ones
    lone = Position.parse("TUR: F SEV, A ARM /")
    assert list(options(lone, "TUR", "exact")) == [(1, 1)]


def test_builds_are_capped_by_centres_minus_units():
    # England: 3 open homes but c - u = 1, so b = 1
    p = Position.parse("ENG: A YOR, A WAL / EDI LON LVP")
    assert [count(p, "ENG", c) for c in CONVENTIONS] == [6, 7, 6]
    assert adjustment_count(2, 3, [2, 2, 2], "exact") == 6


def test_counts_exceed_64_bits_as_python_ints():
    # the product of C(17, 8) over many powers is only an int: check the formula's parts
    assert adjustment_count(34, 17, [], "exact") == math.comb(34, 17)
    assert oracle.elementary_symmetric([1, 2, 3, 1]) == [1, 7, 17, 17, 6]
    assert math.comb(17, 8) ** 7 > 2**64


def test_apply_plays_every_power_s_option():
    p = Position.parse("AUS: A BUD, A TRI, A VIE / VIE; RUS: / MOS STP SEV; TUR: F SEV / ANK")
    profile = (0, 0, 0, 0, 0, 7, 0)  # AUS removes BUD and TRI; RUS builds A MOS, F STP/SC
    after = apply(p, profile, "waives")
    assert str(after) == "AUS: A VIE / VIE; RUS: A MOS, F STP/SC / MOS SEV STP; TUR: F SEV / ANK"
    assert values(p, profile, convention="waives") == evaluate(after)
    with pytest.raises(InvalidParameter, match="option of RUS"):
        apply(p, (0, 0, 0, 0, 0, 8, 0), "waives")
    with pytest.raises(InvalidParameter, match="must remove exactly 2"):
        adjust(p, [(1, 0, 0), (), (), (), (), (0, 0), ()])
    with pytest.raises(InvalidParameter, match="convention"):
        count(p, "AUS", "some")


# --- The evaluator ----------------------------------------------------------------------------


@functools.cache
def _graph_distances(kind: str) -> dict[str, dict[str, int]]:
    """Location -> province -> moves, by networkx on the map's graphs (capped at 3)."""
    graph = MAP.fleet_graph() if kind == "F" else MAP.army_graph()
    result: dict[str, dict[str, int]] = {}
    for source, lengths in nx.all_pairs_shortest_path_length(graph, cutoff=3):
        near: dict[str, int] = {}
        for target, d in lengths.items():
            province = MAP.province_of(target)
            near[province] = min(near.get(province, 3), d)
        result[source] = near
    return result


def _independent_values(position: Position, w: oracle.Weights) -> tuple[int, ...]:
    def dist(unit: Unit, province: str) -> int:
        return _graph_distances(unit.kind)[unit.location].get(province, 3)

    result = []
    for power in MAP.powers:
        own = [u for u in position.units if u.power == power]
        other = [u for u in position.units if u.power != power]
        owned = [c for c in MAP.centres if position.owners.get(c) == power]
        reach = sum(3 - min([3] + [dist(u, s) for u in own]) for s in MAP.centres if s not in owned)
        threat = 0
        for s in owned:
            e = min([3] + [dist(u, s) for u in other])
            o = min([3] + [dist(u, s) for u in own])
            threat += 3 - e if e < o else 0
        result.append(
            w.centre * len(owned) + w.unit * len(own) + w.reach * reach - w.threat * threat
        )
    return tuple(result)


@settings(max_examples=15)
@given(board_positions(), st.tuples(*(st.integers(-5, 20) for _ in range(4))))
def test_evaluator_matches_an_independent_computation(position, weights):
    w = oracle.Weights(*weights)
    assert evaluate(position, w) == _independent_values(position, w)


def test_evaluator_by_hand():
    # Austria alone with A VIE on VIE. Centres one move away: BUD, TRI (2 each); two moves
    # away: MUN (BOH, TYR), WAR and RUM (GAL), SER (BUD, TRI), VEN (TRI, TYR) (1 each):
    # reach = 4 + 5 = 9; no threat. 12 * 1 + 4 * 1 + 2 * 9 = 34.
    p = Position.parse("AUS: A VIE / VIE")
    assert evaluate(p) == (34, 0, 0, 0, 0, 0, 0)
    # An Italian army in TYR: VIE owned by Austria, defended at distance 0: no threat; ITA has
    # no centre, reaches VIE, MUN, VEN, TRI at 1 (2 each) and 7 centres at 2.
    p = Position.parse("AUS: A VIE / VIE; ITA: A TYR /")
    assert oracle.distance(MAP, Unit("ITA", "A", "TYR"), "VIE") == 1
    assert evaluate(p)[0] == 34
    # Remove the Austrian army: the Italian is nearer than every defender (3): threat 3 - 1.
    p = Position.parse("AUS: / VIE; ITA: A TYR /")
    assert evaluate(p)[0] == 12 - 3 * 2
    # a fleet never reaches an inland province
    assert oracle.distance(MAP, Unit("RUS", "F", "STP/SC"), "MOS") == 3


# --- The searches -----------------------------------------------------------------------------

SMALL = (
    "AUS: A VIE, A BUD, F TRI, A SER, A GAL / VIE; RUS: F STP/SC / STP MOS WAR SEV; "
    "ENG: / LON EDI LVP"
)


def _alone(position: Position, power: str, slots: tuple[int, ...]) -> Position:
    """``position`` with only ``power``'s option ``slots`` played, built by hand."""
    units = [u for u in position.units if u.power != power]
    mine = position.units_of(power)
    if len(mine) > len(position.centres_of(power)):
        units += [u for u, s in zip(mine, slots, strict=True) if not s]
    else:
        units += mine
        for home, s in zip(position.open_homes(power), slots, strict=True):
            if s:
                kind, _, coast = MAP.build_options(home)[s - 1].partition("/")
                units.append(Unit(power, kind, f"{home}/{coast}" if coast else home))
    return Position(MAP, tuple(units), dict(position.owners))


@pytest.mark.parametrize("convention", CONVENTIONS)
def test_preliminary_takes_each_power_s_best_option_alone(convention):
    p = Position.parse(SMALL)
    result = preliminary(p, convention)
    assert result.finished
    assert result.cycle is None
    expected = []
    evaluations = 0
    for i, power in enumerate(MAP.powers):
        listing = list(options(p, power, convention))
        if len(listing) == 1:
            expected.append(0)
            continue
        scores = [evaluate(_alone(p, power, slots))[i] for slots in listing]
        evaluations += len(scores)
        expected.append(scores.index(max(scores)))  # ties: the smallest index
    assert result.profile == tuple(expected)
    assert result.values == values(p, result.profile, convention=convention)
    assert result.evaluations == evaluations + 1


def test_anneal_is_deterministic_and_starts_from_the_preliminary_profile():
    p = Position.parse(SMALL)
    first = anneal(p, "waives", seed=7, steps=120)
    assert first == anneal(p, "waives", seed=7, steps=120)
    assert first.finished
    assert first.values == values(p, first.profile, convention="waives")
    start = preliminary(p, "waives")
    assert anneal(p, "waives", seed=7, steps=0) == start
    # with the exact convention England's proposals that change its number of builds are
    # dropped without evaluation
    exact = anneal(p, "exact", seed=3, steps=90)
    assert exact.evaluations < preliminary(p, "exact").evaluations + 90
    assert count(p, "ENG", "exact") > exact.profile[1] >= 0


def test_anneal_first_step_swaps_m_removed_and_m_kept_units():
    # Austria must remove 2 of 4 (M = min(2, 2) = 2); with steps = 1, step 0 has
    # m = max(1, ceil(2 * 1 / 1)) = 2: the two removed and the two kept swap roles, giving the
    # complement of the preliminary option, which cannot beat the preliminary's best for
    # Austria alone on the board: one evaluation, nothing kept.
    p = Position.parse("AUS: A BUD, A TRI, A VIE, A GAL / VIE BUD")
    start = preliminary(p, "exact")
    result = anneal(p, "exact", seed=11, steps=1)
    assert result.profile == start.profile
    assert result.evaluations == start.evaluations + 1
    listing = list(options(p, "AUS", "exact"))
    chosen = listing[start.profile[0]]
    complement = tuple(1 - s for s in chosen)
    assert evaluate(_alone(p, "AUS", complement))[0] <= start.values[0]


def _is_pure_nash(position: Position, profile, convention, evaluator=None) -> bool:
    def value(trial):
        after = apply(position, trial, convention)
        return evaluator(after) if evaluator else evaluate(after)

    here = value(profile)
    for i, power in enumerate(MAP.powers):
        for option in range(count(position, power, convention)):
            trial = (*profile[:i], option, *profile[i + 1 :])
            if value(trial)[i] > here[i]:
                return False
    return True


@settings(max_examples=12)
@given(adjustment_positions(most=2), st.sampled_from(CONVENTIONS))
def test_combined_search_stops_at_a_pure_nash_equilibrium(position, convention):
    # the search and the check cost about the sum of the counts per improvement
    if sum(count(position, p, convention) for p in MAP.powers) > 80:
        position = Position.parse(SMALL)
    result = combined(position, convention)
    assert result == combined(position, convention)  # deterministic
    assert result.values == values(position, result.profile, convention=convention)
    if result.cycle is None:
        assert result.finished
        assert _is_pure_nash(position, result.profile, convention)
    else:
        assert result.profile in result.cycle


def test_combined_search_budget_and_time_limit():
    p = Position.parse(SMALL)
    full = combined(p, "waives")
    assert full.finished
    assert full.cycle is None
    assert _is_pure_nash(p, full.profile, "waives")
    cut = combined(p, "waives", max_evaluations=3)
    assert not cut.finished
    assert cut.evaluations == 3
    assert not combined(p, "waives", time_limit=0).finished
    assert not preliminary(p, "waives", max_evaluations=2).finished
    assert not anneal(p, "waives", seed=1, steps=50, time_limit=0).finished


# Matching pennies between Austria and England, each removing one of two armies: Austria wants
# to match (keep VIE and YOR, or BUD and WAL), England to differ.
PENNIES = "AUS: A BUD, A VIE / VIE; ENG: A WAL, A YOR / LON"


def _pennies(win: float, lose: float, other_win: float, other_lose: float):
    def evaluator(after: Position) -> tuple[float, ...]:
        kept = {u.location for u in after.units}
        match = ("VIE" in kept) == ("YOR" in kept)
        return (win if match else lose, other_lose if match else other_win, 0, 0, 0, 0, 0)

    return evaluator


def test_combined_search_detects_a_cycle_and_solves_the_zero_sum_restricted_game():
    p = Position.parse(PENNIES)
    result = combined(p, "exact", evaluator=_pennies(1, -1, 1, -1))
    assert result.finished
    assert result.cycle == ((0, 0, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0, 0), (1, 1, 0, 0, 0, 0, 0),
                            (1, 0, 0, 0, 0, 0, 0))  # fmt: skip
    assert result.profile == result.cycle[0]
    eq = result.equilibrium
    assert eq is not None
    assert eq.powers == ("AUS", "ENG")
    assert eq.options == ((0, 1), (0, 1))
    assert eq.method == "linear programming (HiGHS)"
    assert eq.probabilities[0] == pytest.approx((0.5, 0.5))
    assert eq.probabilities[1] == pytest.approx((0.5, 0.5))
    assert eq.values == pytest.approx((0.0, 0.0), abs=1e-9)
    assert not _is_pure_nash(p, result.profile, "exact", _pennies(1, -1, 1, -1))


def test_a_general_sum_cycle_is_solved_by_support_enumeration():
    p = Position.parse(PENNIES)
    result = combined(p, "exact", evaluator=_pennies(2, 0, 1, 0))
    eq = result.equilibrium
    assert eq is not None
    assert eq.method == "support enumeration"
    assert eq.probabilities == ((0.5, 0.5), (0.5, 0.5))
    assert eq.values == (1.0, 0.5)


def test_restricted_equilibrium_finds_the_first_support_pair():
    # battle of the sexes: the pure equilibrium (0, 0) comes first (supports of size 1 + 1)
    a = [[2, 0], [0, 1]]
    b = [[1, 0], [0, 2]]
    assert restricted_equilibrium(a, b) == ((1.0, 0.0), (1.0, 0.0), 2.0, 1.0, "support enumeration")
    # a game whose only equilibrium is mixed: x makes the column player indifferent
    a = [[3, 0], [0, 1]]
    b = [[0, 1], [2, 0]]
    x, y, _, _, method = restricted_equilibrium(a, b)
    assert method == "support enumeration"
    assert x == pytest.approx((2 / 3, 1 / 3))
    assert y == pytest.approx((1 / 4, 3 / 4))


def test_a_user_evaluator_must_return_seven_numbers():
    p = Position.parse(SMALL)
    with pytest.raises(InvalidParameter, match="must return 7 numbers"):
        combined(p, "waives", evaluator=lambda after: (1, 2))


# --- Loeb's tables ----------------------------------------------------------------------------


def test_removal_table_reproduces_the_article():
    rows = tables.removal_table(17)
    assert len(rows) == 17 * 18 // 2
    for row in rows:
        assert row.count == math.comb(row.n, row.k)
        assert row.article == row.count
        assert row.note == ""
    assert max(row.count for row in rows) == 24310
    assert [(r.n, r.k) for r in rows if r.count == 24310] == [(17, 8), (17, 9)]


def test_build_table_reproduces_the_article_except_russia():
    rows = {(r.power, r.builds): r for r in tables.build_table()}
    assert len(rows) == 6 * 3 + 4
    for (power, _), row in rows.items():
        assert row.waives == row.article + 1  # the empty option
        if power != "RUS":
            assert row.exact == row.printed_exact
            assert row.printed_article in (None, row.article)
            assert row.note == ""
    ours = [(rows["RUS", j].exact, rows["RUS", j].article) for j in range(1, 5)]
    assert ours == [(7, 7), (17, 24), (17, 41), (6, 47)]
    theirs = [(rows["RUS", j].printed_exact, rows["RUS", j].printed_article) for j in range(1, 5)]
    assert theirs == [(5, None), (17, 22), (17, 39), (6, 45)]
    assert "7, not 5" in rows["RUS", 1].note
    assert "24, not 22" in rows["RUS", 2].note
    assert (rows["TUR", 3].article, rows["FRA", 3].article, rows["AUS", 3].article) == (26, 17, 11)


def test_the_article_s_example_and_why_it_is_impossible():
    rows = tables.example_table()
    assert [r.count for r in rows] == [r.article for r in rows]
    assert math.prod(r.count for r in rows) == tables.ARTICLE_EXAMPLE_TOTAL == 11_426_088_960
    for row, position in zip(rows, tables.example_position(), strict=True):
        assert count(position, row.power, "exact") == row.count
        assert len(position.units_of(row.power)) == row.units
        assert len(position.centres_of(row.power)) == row.centres
    assert sum(r.centres for r in rows) == 36
    assert "= 36 centres and the map has 34" in tables.example_impossibility()
    best, per_power, position = tables.nearest_legal_example()
    assert best == 5_816_918_016
    assert total(position, "exact") == best
    assert [u for u, _, _ in per_power] == [17, 3, 3, 1, 3, 4, 3]
    assert sum(c for _, c, _ in per_power) <= 34
    assert "11,426,088,960" in tables.format_tables()


# --- The open problem -------------------------------------------------------------------------


def _brute_force(convention: str, powers: tuple[str, ...], limit_c: int, limit_q: int) -> int:
    """Every per-power ``(u, c, H)`` within the limits, every combination over the powers."""
    per_power = []
    for power in powers:
        homes = MAP.homes[power]
        seen = set()
        for u, c in itertools.product(range(limit_q + 1), range(limit_c + 1)):
            for size in range(min(c, len(homes)) + 1):
                for chosen in itertools.combinations(homes, size):
                    q = max(u, c - u, size)
                    if q <= limit_q:
                        sizes = [len(MAP.build_options(h)) for h in chosen]
                        seen.add((c, q, adjustment_count(u, c, sizes, convention)))
        per_power.append(sorted(seen))
    best = 0
    first, second, third = per_power
    for c1, q1, n1 in first:
        for c2, q2, n2 in second:
            if c1 + c2 > limit_c or q1 + q2 > limit_q:
                continue  # no third choice can make up for it
            for c3, q3, n3 in third:
                if c1 + c2 + c3 <= limit_c and q1 + q2 + q3 <= limit_q:
                    best = max(best, n1 * n2 * n3)
    return best


@pytest.mark.parametrize("convention", CONVENTIONS)
def test_open_problem_dp_equals_brute_force_on_a_reduced_instance(convention):
    powers = ("AUS", "ENG", "RUS")
    best, per_power = open_problem(convention, centres_limit=8, previous_limit=8, powers=powers)
    assert best == _brute_force(convention, powers, 8, 8)
    assert len(per_power) == 3
    reached = 1
    for u, c, homes in per_power:
        reached *= adjustment_count(u, c, [len(MAP.build_options(h)) for h in homes], convention)
    assert reached == best
    assert sum(c for _, c, _ in per_power) <= 8
    assert sum(oracle.previous_centres(u, c, len(h)) for u, c, h in per_power) <= 8


@functools.cache
def _answer(convention: str, victory: bool):
    return open_problem(convention, victory)


ANSWERS = {"exact": 16_130_949_120, "waives": 1_969_817_952_960, "article": 1_536_258_489_480}


@pytest.mark.parametrize("convention", CONVENTIONS)
def test_open_problem_answers_and_a_concrete_position(convention):
    best, per_power = _answer(convention, False)
    assert best == ANSWERS[convention]
    assert _answer(convention, True)[0] == best  # no power needs more than 17 centres
    position = position_for(dict(zip(MAP.powers, per_power, strict=True)))
    assert Position.parse(str(position)) == position
    assert total(position, convention) == best
    # the position can follow a previous winter: the q sum to at most 34
    previous = 0
    for power in MAP.powers:
        units = position.units_of(power)
        owned = position.centres_of(power)
        standing = {u.province for u in units}
        previous += max(len(units), sum(1 for c in owned if c not in standing))
        # every unit on a supply centre stands on one its power owns
        assert all(
            position.owners.get(u.province) == power for u in units if u.province in MAP.centres
        )
    assert previous <= 34
    assert sum(len(position.centres_of(p)) for p in MAP.powers) <= 34
