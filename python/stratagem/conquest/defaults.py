"""The game ``stratagem conquest play`` and the demo play when nothing else is asked for.

Chosen so that it ends with a result (docs/conquest.md, "The default game"):
the RISK world map (42 territories, fronts of every shape, so the stronger side finds
a territory it outnumbers), two equal regions, ``balanced`` against ``opportunist``,
10 troops a territory, 20% recruitment, no cap, at most 3000 turns. 399 of seeds 0-399 end
won, the longest after 189 turns. The limit is set by ``random`` against itself, a driftless
walk: 98% of those games end within 3000 turns, 20% within 500; every other pair of built-in
players (a player against itself too) ends at least 398 of them, each within 200 turns.
"""

from __future__ import annotations

__all__ = ["ASSIGN", "BOARD", "PLAYERS", "TOURNAMENT_PLAYERS", "TROOPS", "TURNS"]

BOARD = "risk"
ASSIGN = "regions"
TROOPS = 10
PLAYERS: tuple[str, ...] = ("balanced", "opportunist")
TURNS = 3000
#: The players of ``stratagem conquest tournament``: the rules of one turn (``search`` costs
#: 6 R D turns a decision; name it with ``--players`` to enter it).
TOURNAMENT_PLAYERS: tuple[str, ...] = ("random", "aggressive", "balanced", "opportunist")
