"""The sequential preliminary search (power ``i`` assumes only the powers after it skip their
adjustments): the engine against the oracle, and what the rule guarantees."""

from __future__ import annotations

from dataclasses import asdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli_helpers import Command
from stratagem.cli import main
from stratagem.diplomacy import adjustments as adj
from stratagem.diplomacy import oracle, search
from stratagem.diplomacy.map import Map
from stratagem.diplomacy.search.compare import compare
from stratagem.errors import InvalidParameter
from test_diplomacy_equivalence import budgets, conventions, seeds, small_game, weights_strategy

POWERS = Map.standard().powers


@settings(max_examples=max(1, min(12, settings().max_examples)))
@given(seeds, conventions, weights_strategy, budgets, st.permutations(POWERS))
def test_engine_and_oracle_agree(
    seed: int, convention: str, weights: search.Weights, budget: int | None, order: list[str]
) -> None:
    """The same profile, values, ending and evaluations, to the end or cut by a budget."""
    position = small_game(seed, convention)
    limit = budget or 20_000
    plain = oracle.Weights(*weights.as_list())
    want = oracle.sequential(position, convention, order, plain, max_evaluations=limit)
    got = search.solve(
        position,
        "sequential",
        convention=convention,
        weights=weights,
        max_evaluations=limit,
        order=order,
    )
    assert got.profile == tuple(want.profile)
    assert tuple(int(v) for v in got.values) == tuple(want.values)
    assert (got.finished, got.evaluations) == (want.finished, want.evaluations)


@settings(max_examples=max(1, min(12, settings().max_examples)))
@given(seeds, conventions, st.permutations(POWERS))
def test_the_last_power_answers_everyone_and_the_first_sees_nobody(
    seed: int, convention: str, order: list[str]
) -> None:
    """The last power's option is a best reply to every other power's: no option of its own
    gives it more against them. The first power decides as in the preliminary search."""
    position = small_game(seed, convention)
    found = search.solve(position, "sequential", convention=convention, order=order)
    assert found.finished
    last, first = POWERS.index(order[-1]), POWERS.index(order[0])
    mine = int(found.values[last])
    for option in range(adj.count(position, order[-1], convention)):
        profile = list(found.profile)
        profile[last] = option
        assert int(search.values(position, profile, convention)[last]) <= mine
    plain = search.solve(position, "preliminary", convention=convention)
    assert found.profile[first] == plain.profile[first]


def test_a_bad_order_is_refused() -> None:
    position = small_game(0, "exact")
    for order in (["AUS"], [*POWERS[:-1], "AUS"], [*POWERS, "AUS"]):
        with pytest.raises(InvalidParameter, match="order"):
            search.solve(position, "sequential", order=order)
        with pytest.raises(InvalidParameter, match="order"):
            oracle.sequential(position, "exact", order)


def test_the_comparison_adds_up() -> None:
    found = compare(40, seed=7, order=list(reversed(POWERS)))
    assert found.order == tuple(reversed(POWERS))
    assert found.better + found.same + found.worse == found.positions == 40
    assert found.differs <= found.contested <= 40
    assert sum(found.differs_by_power.values()) >= found.differs
    assert found.largest_gain >= 0
    assert found.largest_loss >= 0
    assert found == compare(40, seed=7, order=list(reversed(POWERS)))


def test_the_compare_and_play_commands(capsys: pytest.CaptureFixture[str]) -> None:
    command = Command("diplomacy")
    report = command.run_json(capsys, "compare", "--positions", "25", "--seed", "3")
    assert report == {**asdict(compare(25, seed=3)), "order": list(POWERS)}
    order = "TUR,RUS,ITA,GER,FRA,ENG,AUS"
    played = command.run_json(capsys, "play", "opening", "--method", "sequential", "--order", order)
    assert played["order"] == order.split(",")
    assert "AUS's value" in command.run_text(
        capsys, "compare", "--positions", "3", "--order", order
    )
    assert main(["diplomacy", "compare", "--positions", "3", "--order", "AUS"]) != 0
