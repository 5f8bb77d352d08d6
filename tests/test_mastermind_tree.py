"""The optimal strategy trees that ship with the package: the 4 x 6 tree plays every secret in
exactly the guesses the evaluator's optimal strategy takes (5625 in all, Koyama & Lai 1993),
and the 4 x 7 tree finds every secret, scored by the plain-Python oracle, in 11228 guesses in
all (4.676 on average, as Ville 2013 reports for the optimum); the 5 x 5 tree finds every secret
in 13496."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from stratagem.errors import InvalidParameter
from stratagem.mastermind import evaluate, oracle
from stratagem.mastermind.tree import StrategyTree


def oracle_score(guess: Any, secrets: Any, colours: int) -> tuple[list[int], list[int]]:
    feedbacks = [oracle.score(tuple(guess), tuple(secret)) for secret in secrets]
    return [f[0] for f in feedbacks], [f[1] for f in feedbacks]


def test_the_four_by_six_tree_is_the_evaluators_optimal_strategy() -> None:
    tree = StrategyTree.bundled(4, 6)
    played = tree.play_all()
    assert played.tolist() == evaluate(4, 6, "optimal").guesses.tolist()
    assert int(played.sum()) == 5625


def test_the_four_by_seven_tree_finds_every_secret_in_11228_guesses() -> None:
    played = StrategyTree.bundled(4, 7).play_all(oracle_score)
    assert played.min() >= 1
    assert int(played.sum()) == 11228
    assert int(played.max()) == 6
    assert np.bincount(played).tolist()[1] == 1


def test_the_five_by_five_tree_finds_every_secret_in_13496_guesses() -> None:
    played = StrategyTree.bundled(5, 5).play_all()
    assert played.min() >= 1
    assert int(played.sum()) == 13496


def test_the_optimal_search_does_not_stop_at_a_refused_budget() -> None:
    """3 x 10 needs 5242 guesses in all; the search once remembered a set that no guess could
    finish within one budget as unaffordable at every budget, and answered 5243."""
    assert evaluate(3, 10, "optimal").total == 5242


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("0.0 0123", "no parent"),
        ("- 0123\n- 0124", "a second decision"),
        ("- 0123\n0.x 0000", "not 'black.white'"),
        ("- 0123\n0.0", "expected 'path guess'"),
        ("0.0 0123\n", "no parent"),
        ("", "no first guess"),
        ("- 0129", "colour 9"),
    ],
)
def test_bad_tree_files_are_refused_by_line(text: str, problem: str) -> None:
    with pytest.raises(InvalidParameter, match=problem):
        StrategyTree.parse(text, 6)


def test_a_tree_without_a_decision_for_some_feedback_says_which() -> None:
    tree = StrategyTree.parse("- 0011\n0.0 2222", 3)
    with pytest.raises(InvalidParameter, match="no decision after the feedbacks"):
        tree.play_all()
    with pytest.raises(InvalidParameter, match="no optimal tree ships"):
        StrategyTree.bundled(5, 6)
