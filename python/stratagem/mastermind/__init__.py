"""mastermind: the codebreaker's side of Mastermind (seed 003, ``docs/mastermind-rules.md``).

Scoring, the parallel consistent-code search, seven strategies (``first``, ``random``,
``knuth``, ``irving``, ``entropy``, ``most_parts``, ``optimal``), whole-space evaluation and
the names of contradicting feedbacks, on a Rust engine; ``oracle`` has the same rules in plain
Python, ``distributed`` the search over MPI ranks.
"""

from __future__ import annotations

from stratagem.mastermind.code import as_code, as_codes, format_code, parse_code
from stratagem.mastermind.evaluate import DEFAULT_SAMPLE, Evaluation, evaluate, sample_secrets
from stratagem.mastermind.game import (
    ENUMERABLE_LIMIT,
    MAX_PROBES,
    consistent_codes,
    count_consistent,
    estimate_consistent,
    first_consistent,
    score,
    smallest_contradiction,
)
from stratagem.mastermind.players import (
    OPTIMAL_LIMIT,
    STRATEGIES,
    Codebreaker,
    Solution,
    next_guess,
    solve,
)
from stratagem.mastermind.protocol import Mastermind

__all__ = [
    "DEFAULT_SAMPLE",
    "ENUMERABLE_LIMIT",
    "MAX_PROBES",
    "OPTIMAL_LIMIT",
    "STRATEGIES",
    "Codebreaker",
    "Evaluation",
    "Mastermind",
    "Solution",
    "as_code",
    "as_codes",
    "consistent_codes",
    "count_consistent",
    "estimate_consistent",
    "evaluate",
    "first_consistent",
    "format_code",
    "next_guess",
    "parse_code",
    "sample_secrets",
    "score",
    "smallest_contradiction",
    "solve",
]
