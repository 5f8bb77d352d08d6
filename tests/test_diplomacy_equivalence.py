"""The engine against the oracle (``stratagem.diplomacy.oracle``) on the same random positions:
counts, listings, values, the three searches and the open problem."""

from __future__ import annotations

import _thread
import itertools
import threading
import time
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from stratagem.diplomacy import adjustments as adj
from stratagem.diplomacy import engine, oracle, search
from stratagem.diplomacy.map import Map
from stratagem.diplomacy.open_problem import position_with
from stratagem.diplomacy.open_problem import solve as solve_open_problem
from stratagem.diplomacy.position import Position
from stratagem.errors import InconsistentInput, InvalidParameter
from test_diplomacy_engine import random_position

CONVENTIONS = engine.CONVENTIONS
seeds = st.integers(0, 10**6)
conventions = st.sampled_from(CONVENTIONS)
budgets = st.sampled_from([None, 1, 7, 60])  # None: no budget, to the end


@given(seeds, conventions)
def test_counts_and_listings(seed: int, convention: str) -> None:
    position = random_position(seed, units=18)
    for power in position.map.powers:
        number = adj.count(position, power, convention)
        assert number == oracle.count(position, power, convention)
        if number <= 2000:
            engine_rows = [
                tuple(int(v) for v in r) for r in adj.batch(position, power, convention, 0, number)
            ]
            assert engine_rows == list(oracle.options(position, power, convention))


@given(seeds, st.integers(0, 10**9))
def test_values_of_random_profiles(seed: int, pick: int) -> None:
    position = random_position(seed, units=18)
    counts = adj.counts(position, "waives")
    profile = [pick % n for n in counts.values()]
    engine = search.values(position, profile, "waives")
    assert tuple(int(v) for v in engine) == oracle.values(position, profile, convention="waives")


def small_game(seed: int, convention: str, limit: int = 5_000) -> Position:
    """A random position whose total under ``convention`` is at most ``limit``, so that the
    oracle's searches stay quick: the first of the seeds ``seed, seed + 1, ...`` that gives
    one (about one random position in four, one in twenty under ``waives``)."""
    for attempt in itertools.count(seed):
        position = random_position(attempt, units=12)
        if adj.total(position, convention) <= limit:
            return position
    raise AssertionError("unreachable: itertools.count does not end")


weights_strategy = st.builds(search.Weights, *(st.integers(-12, 12) for _ in range(4))) | st.just(
    search.Weights()
)


@settings(max_examples=12)
@given(seeds, conventions, weights_strategy, budgets)
def test_searches(seed: int, convention: str, weights: search.Weights, budget: int | None) -> None:
    """Every search, run to its end or cut short by an evaluation budget: the same profile,
    values, ending, count of evaluations and cycle."""
    position = small_game(seed, convention)
    plain = oracle.Weights(*weights.as_list())
    limit = budget or 20_000
    expected = {
        "preliminary": oracle.preliminary(position, convention, plain, max_evaluations=limit),
        "anneal": oracle.anneal(position, convention, plain, seed, 300, max_evaluations=limit),
        "combined": oracle.combined(position, convention, plain, limit),
    }
    for method, want in expected.items():
        got = search.solve(
            position,
            method,
            convention=convention,
            weights=weights,
            seed=seed,
            steps=300,
            max_evaluations=limit,
        )
        assert got.profile == tuple(want.profile), method
        assert tuple(int(v) for v in got.values) == tuple(want.values), method
        assert got.finished == want.finished, method
        assert got.evaluations == want.evaluations, method
        assert got.cycle == want.cycle, method


@settings(max_examples=12)
@given(seeds, conventions, st.integers(1, 40))
def test_the_combined_search_step_by_step(seed: int, convention: str, stride: int) -> None:
    """The engine's resumable combined search, advanced ``stride`` evaluations at a time,
    stands where the oracle's does after the same evaluations: profile, values, the power to
    move, every new and old list, the history and the ending."""
    position = small_game(seed, convention)
    fast = search.CombinedSearch(position, convention=convention)
    slow = oracle.CombinedSearch(position, convention)
    while True:
        assert state_of(slow) == comparable(fast.state())
        if slow.ending != "running":
            break
        fast.advance(stride)
        slow.run(slow.evaluations + stride)
    assert fast.result().profile == slow.result().profile


def state_of(search: oracle.CombinedSearch) -> dict[str, object]:
    """The oracle's state in the form of the engine's ``state()``."""
    return {
        "profile": list(search.profile),
        "values": list(search.values),
        "evaluations": search.evaluations,
        "power": search.power,
        "new": [[p, a, b] for p, ranges in enumerate(search.new) for a, b in ranges],
        "old_index": [[p, i] for p, entries in enumerate(search.old) for i, _ in entries],
        "old_value": [v for entries in search.old for _, v in entries],
        "history": [list(profile) for profile in search.history],
        "ending": search.ending,
        "cycle_from": search.cycle_from,
    }


def comparable(state: dict[str, object]) -> dict[str, object]:
    return {k: v.tolist() if isinstance(v, np.ndarray) else v for k, v in state.items()}


def test_open_problem_totals() -> None:
    for convention in CONVENTIONS:
        for victory in (False, True):
            best, _ = oracle.open_problem(convention, victory, Map.standard())
            assert best == solve_open_problem(convention, victory=victory).total


@given(
    conventions,
    st.lists(st.integers(0, 8), min_size=7, max_size=7),
)
def test_open_problem_with_fixed_units(convention: str, units: list[int]) -> None:
    """The best position for given units per power: the engine's total, and every power's
    units, against the oracle's dynamic programme. (Units need as many centres at the previous
    winter: more than 34 in all has no legal position.)"""
    assume(sum(units) <= len(Map.standard().centres))
    fixed = dict(zip(Map.standard().powers, units, strict=True))
    best, per_power = oracle.open_problem(convention, units=fixed)
    answer = solve_open_problem(convention, units=fixed)
    assert answer.total == best
    assert [s.units for s in answer.shares] == [u for u, _, _ in per_power] == units
    assert adj.total(answer.position, convention) == best


@given(st.data())
def test_the_position_builder_gives_what_it_is_asked(data: st.DataObject) -> None:
    """open_problem.position_with (product) against its request, counted by the oracle."""
    the_map = Map.standard()
    power = data.draw(st.sampled_from(the_map.powers))
    homes = the_map.homes[power]
    open_homes = tuple(data.draw(st.lists(st.sampled_from(homes), unique=True)))
    centres = data.draw(st.integers(len(open_homes), len(open_homes) + 6))
    units = data.draw(st.integers(0, 8))
    position = position_with(the_map, {power: (units, centres, open_homes)})
    assert len(position.units_of(power)) == units
    assert len(position.centres_of(power)) == centres
    assert oracle.count(position, power, "exact") == adj.count(position, power, "exact")


def _custom(position_weights: oracle.Weights) -> search.Evaluator:
    """A user's evaluator that is not the built-in one: the oracle's values, halved, with a
    fractional tie-breaker that depends on where the units stand."""

    def evaluate(after: Position) -> list[float]:
        base = oracle.evaluate(after, position_weights)
        spread = [
            sum(len(u.location) for u in after.units if u.power == power) / 1000.0
            for power in after.map.powers
        ]
        return [v / 2 - s for v, s in zip(base, spread, strict=True)]

    return evaluate


@settings(max_examples=max(1, min(15, settings().max_examples)))
@given(seeds, conventions, st.sampled_from([None, 3, 40]))
def test_searches_with_a_user_evaluator(seed: int, convention: str, budget: int | None) -> None:
    """The engine calling a Python evaluator against the oracle calling the same one: the
    same profile, values, ending, count of evaluations and cycle, for any thread count."""
    position = small_game(seed, convention)
    evaluator = _custom(oracle.Weights())
    limit = budget or 20_000
    options: dict[str, Any] = {"evaluator": evaluator, "max_evaluations": limit}
    searched = {"seed": seed, "steps": 60, **options}
    expected = {
        "preliminary": oracle.preliminary(position, convention, **options),
        "anneal": oracle.anneal(position, convention, **searched),
        "combined": oracle.combined(position, convention, **options),
    }
    for method, want in expected.items():
        for threads in (1, 2):
            got = search.solve(position, method, convention=convention, threads=threads, **searched)
            assert got.profile == tuple(want.profile), method
            assert tuple(got.values) == tuple(want.values), method
            assert (got.finished, got.evaluations, got.cycle) == (
                want.finished,
                want.evaluations,
                want.cycle,
            ), method


def test_a_user_evaluator_s_cycle_is_solved_with_its_own_values() -> None:
    """Matching pennies between Austria and England (each removing one of two armies): the
    engine's combined search cycles, and the mixed equilibrium is computed from the user's
    evaluator, as the oracle computes it."""
    position = Position.parse("AUS: A BUD, A VIE / VIE; ENG: A WAL, A YOR / LON")

    def pennies(after: Position) -> tuple[float, ...]:
        kept = {u.location for u in after.units}
        match = ("VIE" in kept) == ("YOR" in kept)
        return (1.0 if match else -1.0, -1.0 if match else 1.0, 0, 0, 0, 0, 0)

    got = search.solve(position, "combined", evaluator=pennies)
    want = oracle.combined(position, "exact", evaluator=pennies)
    assert got.cycle == want.cycle
    assert got.mixed is not None
    assert want.equilibrium is not None
    assert got.mixed.method == want.equilibrium.method == "linear programming (HiGHS)"
    assert got.mixed.probabilities == want.equilibrium.probabilities


class Boom(Exception):
    pass


@pytest.mark.parametrize(
    ("evaluator", "error", "message"),
    [
        (lambda after: (1, 2), InvalidParameter, "must return 7 numbers, got 2"),
        (lambda after: [float("nan")] * 7, InvalidParameter, "finite numbers"),
        (lambda after: ["a"] * 7, ValueError, "could not convert"),
        (lambda after: (_ for _ in ()).throw(Boom("inside")), Boom, "inside"),
        (42, InvalidParameter, "evaluator must be callable"),
    ],
)
@pytest.mark.parametrize("method", ["preliminary", "anneal", "combined"])
def test_a_failing_user_evaluator_ends_the_search_with_its_error(
    method: str, evaluator: Any, error: type[Exception], message: str
) -> None:
    position = small_game(3, "waives")
    with pytest.raises(error, match=message):
        search.solve(position, method, evaluator=evaluator, threads=2, steps=20)


def _built_in(the_weights: search.Weights) -> search.Evaluator:
    """A user's evaluator equal to the built-in one: the engine's own values of the position
    it is shown (every power playing nothing), as Python numbers."""

    def evaluate(after: Position) -> list[int]:
        nothing = [None] * len(after.map.powers)
        return [int(v) for v in search.values(after, nothing, "exact", the_weights)]

    return evaluate


@settings(max_examples=max(1, min(10, settings().max_examples)))
@given(seeds, conventions, weights_strategy, budgets)
def test_a_user_evaluator_equal_to_the_built_in_one_gives_the_built_in_result(
    seed: int, convention: str, weights: search.Weights, budget: int | None
) -> None:
    """The built-in weights given as a Python callable: every search's result (profile,
    values, orders, ending, evaluations, cycle and mixed equilibrium) is the built-in
    search's, for 1 and 2 threads."""
    position = small_game(seed, convention)
    limit = budget or 20_000
    evaluator = _built_in(weights)
    for method in search.METHODS:
        common: dict[str, Any] = {
            "convention": convention,
            "seed": seed,
            "steps": 80,
            "max_evaluations": limit,
        }
        want = search.solve(position, method, weights=weights, threads=1, **common)
        for threads in (1, 2):
            got = search.solve(position, method, evaluator=evaluator, threads=threads, **common)
            assert got.profile == want.profile, (method, threads)
            assert [float(v) for v in got.values] == [float(v) for v in want.values], method
            assert got.orders == want.orders, method
            assert (got.finished, got.evaluations, got.cycle) == (
                want.finished,
                want.evaluations,
                want.cycle,
            ), method
            assert got.mixed == want.mixed, method


@pytest.mark.parametrize("method", ["preliminary", "anneal", "combined"])
@pytest.mark.parametrize("bad", [float("inf"), float("-inf")])
def test_an_infinite_value_is_refused(method: str, bad: float) -> None:
    position = small_game(3, "waives")
    with pytest.raises(InvalidParameter, match="the evaluator must return finite numbers"):
        search.solve(position, method, evaluator=lambda after: [0.0] * 6 + [bad], steps=20)


@pytest.mark.parametrize("method", ["preliminary", "anneal", "combined"])
def test_an_evaluator_failing_after_some_calls_ends_the_search_with_its_error(
    method: str,
) -> None:
    """An error raised after some good answers, with two threads evaluating, ends the search
    with that error."""
    position = small_game(5, "exact")
    calls = []

    def failing(after: Position) -> list[float]:
        calls.append(1)
        if len(calls) == 3:
            raise Boom("third call")
        return [0.0] * 7

    with pytest.raises(Boom, match="third call"):
        search.solve(position, method, evaluator=failing, threads=2, steps=50)


def test_ctrl_c_inside_the_evaluator_is_raised() -> None:
    position = small_game(3, "waives")

    def interrupted(after: Position) -> list[float]:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        search.solve(position, "combined", evaluator=interrupted, threads=2)


def test_ctrl_c_during_a_slow_evaluator_stops_the_search() -> None:
    """A SIGINT arriving while a slow evaluator runs (on the engine's threads) ends the search
    with KeyboardInterrupt within a few evaluations."""
    position = small_game(7, "waives", limit=50_000)
    calls = []

    def slow(after: Position) -> list[float]:
        calls.append(1)
        time.sleep(0.01)
        return [float(len(after.units))] * 7

    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            search.solve(
                position, "anneal", evaluator=slow, steps=10**6, max_evaluations=10**6, threads=2
            )
    finally:
        timer.cancel()
    assert time.monotonic() - started < 10
    assert 0 < len(calls) < 10**6


@settings(max_examples=max(1, min(20, settings().max_examples)))
@given(
    conventions,
    st.booleans(),
    st.lists(st.integers(0, 6), min_size=7, max_size=7),
)
def test_the_open_problem_s_shares_against_the_oracle(
    convention: str, victory: bool, units: list[int]
) -> None:
    """Each share of the product's answer (the tables' nearest legal example is one): its
    choices are the oracle's adjustment_count of its resources, its previous-winter centres
    the oracle's previous_centres, and the product's position counts what the oracle counts."""
    the_map = Map.standard()
    assume(sum(units) <= len(the_map.centres))
    fixed = dict(zip(the_map.powers, units, strict=True))
    answer = solve_open_problem(convention, victory=victory, units=fixed)
    for share in answer.shares:
        sizes = [len(the_map.build_options(h)) for h in share.open_homes]
        want = oracle.adjustment_count(share.units, share.centres, sizes, convention)
        assert share.choices == want
        assert share.previous == oracle.previous_centres(
            share.units, share.centres, len(share.open_homes)
        )
        assert oracle.count(answer.position, share.power, convention) == share.choices
    assert oracle.total(answer.position, convention) == answer.total


@given(st.data())
def test_the_product_position_builder_agrees_with_the_oracle_s(data: st.DataObject) -> None:
    """open_problem.position_with (the product's builder, used by the tables) and the
    oracle's position_for, given the same resources for several powers: wherever both build a
    position, every power counts the same under every convention, and that is the oracle's
    adjustment_count of its resources."""
    the_map = Map.standard()
    powers = data.draw(st.lists(st.sampled_from(the_map.powers), unique=True, min_size=1))
    resources: dict[str, tuple[int, int, tuple[str, ...]]] = {}
    for power in powers:
        homes = the_map.homes[power]
        open_homes = tuple(data.draw(st.lists(st.sampled_from(homes), unique=True)))
        centres = data.draw(st.integers(len(open_homes), len(open_homes) + 5))
        resources[power] = (data.draw(st.integers(0, 7)), centres, open_homes)
    try:
        theirs = oracle.position_for(resources, the_map)
        ours = position_with(the_map, resources)
    except InconsistentInput:  # the map is too small for the demand (either greedy builder)
        assume(False)
        return
    for power, (units, centres, homes) in resources.items():
        assert len(ours.units_of(power)) == units
        assert len(ours.centres_of(power)) == centres
        sizes = [len(the_map.build_options(h)) for h in homes]
        for convention in CONVENTIONS:
            want = oracle.adjustment_count(units, centres, sizes, convention)
            assert adj.count(ours, power, convention) == want
            assert oracle.count(theirs, power, convention) == want


def test_the_tables_previous_winter_centres_are_the_oracle_s() -> None:
    """The example's impossibility note sums max(u, c - u, open homes) per row: the oracle's
    previous_centres."""
    from stratagem.diplomacy import tables

    rows = tables.example_table()
    previous = [oracle.previous_centres(r.units, r.centres, len(r.open_homes)) for r in rows]
    assert f"{' + '.join(map(str, previous))} = {sum(previous)})" in tables.example_impossibility()
