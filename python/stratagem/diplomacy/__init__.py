"""Diplomacy winter adjustments (seed 004, ``docs/diplomacy.md``): the standard map, positions,
exact counting and listing of the adjustments, the position evaluator and the strategy finder,
the article's open problem, and the winter through the common protocol.

>>> from stratagem.diplomacy import OPENING, Position, adjustments
>>> adjustments.total(Position.parse(OPENING))
1
"""

from stratagem.diplomacy import adjustments, open_problem, search
from stratagem.diplomacy.article import openings, tables
from stratagem.diplomacy.engine import CONVENTIONS, Convention
from stratagem.diplomacy.map import Map
from stratagem.diplomacy.position import Position, Unit
from stratagem.diplomacy.positions import OPENING, random_position
from stratagem.diplomacy.protocol import Diplomacy
from stratagem.diplomacy.search.finder import (
    METHODS,
    CombinedSearch,
    SearchResult,
    Weights,
    mixed_equilibrium,
    solve,
    values,
)

__all__ = [
    "CONVENTIONS",
    "METHODS",
    "OPENING",
    "CombinedSearch",
    "Convention",
    "Diplomacy",
    "Map",
    "Position",
    "SearchResult",
    "Unit",
    "Weights",
    "adjustments",
    "mixed_equilibrium",
    "open_problem",
    "openings",
    "random_position",
    "search",
    "solve",
    "tables",
    "values",
]
