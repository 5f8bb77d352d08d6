"""The engine against the oracle (``stratagem.diplomacy.oracle``) on the same random positions:
counts, listings, values, the three searches and the open problem."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from stratagem.diplomacy import adjustments as adj
from stratagem.diplomacy import engine, oracle, search
from stratagem.diplomacy.map import Map
from stratagem.diplomacy.open_problem import solve as solve_open_problem
from test_diplomacy_engine import random_position

CONVENTIONS = engine.CONVENTIONS


@given(st.integers(0, 10**6), st.sampled_from(CONVENTIONS))
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


@given(st.integers(0, 10**6), st.integers(0, 10**9))
def test_values_of_random_profiles(seed: int, pick: int) -> None:
    position = random_position(seed, units=18)
    counts = adj.counts(position, "waives")
    profile = [pick % n for n in counts.values()]
    engine = search.values(position, profile, "waives")
    assert tuple(int(v) for v in engine) == oracle.values(position, profile, convention="waives")


@settings(max_examples=8)
@given(st.integers(0, 10**6), st.sampled_from(CONVENTIONS))
def test_searches(seed: int, convention: str) -> None:
    position = random_position(seed, units=12)
    if adj.total(position, convention) > 5_000:
        return
    plain = oracle.DEFAULT_WEIGHTS
    expected = {
        "preliminary": oracle.preliminary(position, convention, plain),
        "anneal": oracle.anneal(position, convention, plain, seed, 300),
        "combined": oracle.combined(position, convention, plain, 20_000),
    }
    for method, want in expected.items():
        got = search.solve(
            position,
            method,
            convention=convention,
            seed=seed,
            steps=300,
            max_evaluations=20_000,
        )
        assert got.profile == tuple(want.profile), method
        assert tuple(int(v) for v in got.values) == tuple(want.values), method
        assert got.finished == want.finished, method
        assert (got.cycle is None) == (want.cycle is None), method


def test_open_problem_totals() -> None:
    for convention in CONVENTIONS:
        for victory in (False, True):
            best, _ = oracle.open_problem(convention, victory, Map.standard())
            assert best == solve_open_problem(convention, victory=victory).total
