"""Mastermind passes the shared conformance test (a turn is one guess of a strategy against a
secret), and an adapter whose oracle plays the wrong strategy is caught."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings

from stratagem import testing
from stratagem.errors import InconsistentFeedback
from stratagem.mastermind.conformance import Case, MastermindAdapter, Match

ADAPTER = MastermindAdapter()


@pytest.fixture(scope="module")
def save_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mastermind-conformance")


@settings(deadline=None)
@given(case=ADAPTER.cases(), seed=testing.seeds())
def test_mastermind_passes_the_conformance_test(save_dir: Path, case: Case, seed: int) -> None:
    testing.check_conformance(ADAPTER, case, seed, save_dir, turns=4)


def test_random_cases_play_to_the_end_alike() -> None:
    rng = random.Random(3)
    for _ in range(8):
        case = ADAPTER.random_case(rng)
        testing.check_oracle_equivalence(ADAPTER, case, rng.randrange(2**64), turns=8)


class FirstOnlyOracle(MastermindAdapter):
    """An oracle that ignores the strategy and always plays the first consistent code."""

    def start_oracle(self, case: Case, seed: int) -> Match:
        return super().start_oracle(Case(case.spots, case.colours, "first", case.secret), seed)


def test_an_oracle_playing_the_wrong_strategy_is_caught() -> None:
    case = Case(4, 4, "knuth", (3, 0, 2, 1))
    with pytest.raises(AssertionError, match="oracle equivalence after turn 1"):
        testing.check_oracle_equivalence(FirstOnlyOracle(), case, 0, turns=3)


def test_load_refuses_an_answer_that_does_not_fit(tmp_path: Path) -> None:
    case = Case(4, 6, "first", (3, 5, 2, 1))
    game = ADAPTER.advance(ADAPTER.start(case, 0, threads=1), 2)
    path = tmp_path / "match.json"
    ADAPTER.save(game, path)
    text = path.read_text().replace('"feedback": [[0, 0]', '"feedback": [[1, 2]')
    path.write_text(text)
    with pytest.raises(InconsistentFeedback, match="no code fits"):
        ADAPTER.load(path, threads=1)
