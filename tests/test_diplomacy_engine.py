"""The diplomacy engine: exact counts, listing and ranking, the searches (deterministic, thread
independent, equilibria when finished), the open problem, and agreement with the oracle."""

from __future__ import annotations

import itertools
import random
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from stratagem import InvalidParameter
from stratagem.diplomacy import adjustments as adj
from stratagem.diplomacy import search
from stratagem.diplomacy.map import Map
from stratagem.diplomacy.open_problem import solve as solve_open_problem
from stratagem.diplomacy.position import Position, Unit

OPENING = (
    "AUS: A VIE, A BUD, F TRI / BUD TRI VIE; ENG: F LON, F EDI, A LVP / EDI LON LVP; "
    "FRA: F BRE, A PAR, A MAR / BRE MAR PAR; GER: F KIE, A BER, A MUN / BER KIE MUN; "
    "ITA: F NAP, A ROM, A VEN / NAP ROM VEN; RUS: F STP/SC, A MOS, A WAR, F SEV / MOS SEV STP WAR; "
    "TUR: F ANK, A CON, A SMY / ANK CON SMY"
)


def random_position(seed: int, units: int = 14) -> Position:
    """A valid position: units on distinct provinces of the right kind, random owners, with
    home centres often left open so that builds happen."""
    rng = random.Random(seed)
    the_map = Map.standard()
    provinces = list(the_map.provinces)
    rng.shuffle(provinces)
    placed: list[Unit] = []
    for province in provinces[: rng.randint(0, units)]:
        power = rng.choice(the_map.powers)
        kind = the_map.kind[the_map.provinces.index(province)]
        if kind == "sea":
            placed.append(Unit(power, "F", province))
        elif kind == "land" or rng.random() < 0.5:
            placed.append(Unit(power, "A", province))
        elif province in the_map.coasts:
            placed.append(Unit(power, "F", f"{province}/{rng.choice(the_map.coasts[province])}"))
        else:
            placed.append(Unit(power, "F", province))
    owners = {}
    for centre in the_map.centres:
        home = the_map.home_of[centre]
        if home is not None and rng.random() < 0.7:
            owners[centre] = home
        elif rng.random() < 0.5:
            owners[centre] = rng.choice(the_map.powers)
    # A unit on a centre owns it, as after a Fall turn.
    for unit in placed:
        if unit.province in the_map.centres:
            owners[unit.province] = unit.power
    return Position.from_units(placed, owners, the_map)


def test_the_opening_has_one_option_each() -> None:
    position = Position.parse(OPENING)
    assert adj.total(position) == 1
    assert set(adj.counts(position, "waives").values()) == {1}


def test_russia_builds_as_the_rules_count() -> None:
    # Russia with all four homes open and 1..4 builds to make.
    for builds, exact, article in ((1, 7, 7), (2, 17, 24), (3, 17, 41), (4, 6, 47)):
        units = ["A UKR", "A LVN", "A FIN", "A SIL"][: 4 - builds]
        text = f"RUS: {', '.join(units)} / MOS SEV STP WAR"
        position = Position.parse(text)
        assert adj.count(position, "RUS", "exact") == exact
        assert adj.count(position, "RUS", "article") == article
        assert adj.count(position, "RUS", "waives") == article + 1


def test_the_largest_removal_is_c_17_9() -> None:
    the_map = Map.standard()
    land = [p for p, k in zip(the_map.provinces, the_map.kind, strict=True) if k != "sea"]
    units = [Unit("AUS", "A", p) for p in land if p not in the_map.centres][:17]
    centres = dict.fromkeys(the_map.centres[:8], "AUS")
    for unit in units[:8]:
        centres.pop(unit.province, None)
    position = Position.from_units(units, centres)
    assert adj.count(position, "AUS") == 24_310


@given(st.integers(0, 10**6))
def test_listing_ranks_and_counts_agree(seed: int) -> None:
    position = random_position(seed)
    for convention in ("exact", "waives", "article"):
        for power, number in adj.counts(position, convention).items():
            if number > 3000:
                continue
            rows = adj.batch(position, power, convention, 0, number)
            assert len(rows) == number
            assert len({tuple(r) for r in rows}) == number
            for index in (0, number // 2, number - 1):
                assert adj.index_of(position, power, rows[index], convention) == index


def test_searches_are_deterministic_and_thread_independent() -> None:
    position = solve_open_problem("exact").position
    for method in ("preliminary", "anneal", "combined"):
        one = search.solve(position, method, seed=7, threads=1, max_evaluations=50_000)
        two = search.solve(position, method, seed=7, threads=2, max_evaluations=50_000)
        assert one.profile == two.profile
        assert one.values.tolist() == two.values.tolist()
        assert one.evaluations == two.evaluations


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_a_finished_combined_search_is_a_pure_equilibrium(seed: int) -> None:
    position = random_position(seed, units=20)
    found = search.solve(position, "combined", convention="waives")
    counts = adj.counts(position, "waives")
    if not found.finished or found.cycle is not None:
        pytest.skip("this position cycles")
    for p, power in enumerate(position.map.powers):
        for option in range(min(counts[power], 500)):
            profile = list(found.profile)
            profile[p] = option
            values = search.values(position, profile, "waives")
            assert values[p] <= found.values[p], (power, option)


def test_a_budget_stops_the_search() -> None:
    position = solve_open_problem("exact").position
    found = search.solve(position, "combined", max_evaluations=100)
    assert not found.finished
    assert found.evaluations <= 101


def test_open_problem_answers_are_verified_positions() -> None:
    expected = {"exact": 16_130_949_120, "waives": 1_969_817_952_960, "article": 1_536_258_489_480}
    for convention, total in expected.items():
        answer = solve_open_problem(convention)
        assert answer.total == total
        assert adj.total(answer.position, convention) == total
        assert Position.parse(str(answer.position)) == answer.position
        assert sum(s.centres for s in answer.shares) <= 34
        assert sum(s.previous for s in answer.shares) <= 34
        assert solve_open_problem(convention, victory=True).total <= total


def test_mixed_equilibria() -> None:
    pennies = np.array([[1.0, -1.0], [-1.0, 1.0]])
    x, y, method = search.mixed_equilibrium(pennies, -pennies)
    assert method.startswith("linear programming")
    assert np.allclose(x, [0.5, 0.5])
    assert np.allclose(y, [0.5, 0.5])
    # Battle of the sexes: a pure equilibrium is found first by support enumeration.
    a = np.array([[2.0, 0.0], [0.0, 1.0]])
    b = np.array([[1.0, 0.0], [0.0, 2.0]])
    x, y, method = search.mixed_equilibrium(a, b)
    assert method == "support enumeration"
    assert x @ a @ y >= max(a @ y) - 1e-9
    assert x @ b @ y >= max(x @ b) - 1e-9


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda p: adj.counts(p, "most"), "unknown convention"),  # type: ignore[arg-type]
        (lambda p: search.solve(p, "greedy"), "unknown method"),  # type: ignore[arg-type]
        (lambda p: search.solve(p, time_limit=-1.0), "time_limit"),
        (lambda p: search.solve(p, max_evaluations=0), "max_evaluations"),
        (lambda p: adj.count(p, "XYZ"), "unknown power"),
        (lambda p: adj.index_of(p, "AUS", [5]), "not an option"),
    ],
)
def test_bad_input_is_named(call: object, message: str) -> None:
    position = Position.parse(OPENING)
    with pytest.raises(InvalidParameter, match=message):
        call(position)  # type: ignore[operator]


def test_removal_listing_is_lexicographic() -> None:
    position = Position.parse("AUS: A VIE, A BUD, F TRI, A GAL, A BOH, A TYR / BUD TRI VIE")
    rows = adj.batch(position, "AUS", "exact", 0, 100)
    chosen = [tuple(int(i) for i in np.flatnonzero(r)) for r in rows]
    assert chosen == list(itertools.combinations(range(6), 3))
    assert adj.describe(position, "AUS", rows[0]) == [
        "remove A BOH",
        "remove A BUD",
        "remove A GAL",
    ]


@pytest.mark.parametrize(
    ("slots", "message"),
    [
        ([0, -1, 0], "slot 1 (home STP) must be from 0 to 3, got -1"),
        ([9, 0, 0], "slot 0 (home SEV) must be from 0 to 2, got 9"),
        ([1.7, 0, 0], "slot 0 (home SEV) must be a whole number, got 1.7"),
        ([True, 0, 0], "slot 0 (home SEV) must be a whole number, got True"),
        ([0, 0], "RUS has 3 open homes; got 2 slots"),
    ],
)
def test_describe_refuses_slots_that_are_not_an_option(slots, message):
    position = Position.parse("RUS: A MOS / MOS SEV STP WAR")
    with pytest.raises(InvalidParameter, match=re.escape(message)):
        adj.describe(position, "RUS", slots)


def test_describe_refuses_more_builds_than_allowed_and_removal_slots_out_of_range():
    builds = Position.parse("RUS: A MOS, A UKR / MOS SEV STP")
    assert adj.describe(builds, "RUS", [1, 0]) == ["build A SEV"]
    with pytest.raises(InvalidParameter, match="may build at most 1 units, got 2 builds"):
        adj.describe(builds, "RUS", [1, 1])
    removals = Position.parse("AUS: A BUD, A VIE, A TRI / VIE")
    assert adj.describe(removals, "AUS", [1, 0, 1]) == ["remove A BUD", "remove A VIE"]
    with pytest.raises(InvalidParameter, match="slot 1 \\(unit A TRI\\) must be from 0 to 1"):
        adj.describe(removals, "AUS", [0, 2, 0])
