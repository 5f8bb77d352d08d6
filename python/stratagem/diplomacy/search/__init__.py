"""The strategy finder: its searches, their mixed equilibrium, and their comparison.

:mod:`~stratagem.diplomacy.search.finder` holds the searches (re-exported here),
:mod:`~stratagem.diplomacy.search.equilibrium` the equilibrium of a two-power cycle (shared
with the oracle), :mod:`~stratagem.diplomacy.search.compare` the measurement.
"""

from stratagem.diplomacy.search.finder import (
    METHODS,
    CombinedSearch,
    Evaluator,
    Method,
    SearchResult,
    Weights,
    mixed_equilibrium,
    power_order,
    profile_orders,
    solve,
    values,
)

__all__ = [
    "METHODS",
    "CombinedSearch",
    "Evaluator",
    "Method",
    "SearchResult",
    "Weights",
    "mixed_equilibrium",
    "power_order",
    "profile_orders",
    "solve",
    "values",
]
