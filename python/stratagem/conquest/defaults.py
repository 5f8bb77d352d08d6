"""The game ``stratagem conquest play`` and the demo play when nothing else is asked for.

Chosen so that it ends with a result for every seed (docs/conquest.md, "The default game"):
the RISK world map (42 territories, fronts of every shape, so the stronger side always finds
a territory it outnumbers), two equal regions, ``balanced`` against ``opportunist``,
10 troops a territory, 20% recruitment, no cap, at most 500 turns. Seeds 0-39 all end won,
the longest after 194 turns. A large grid does not: its straight fronts give neither side the
superiority the built-in players wait for, and the game runs into the troop limit.
"""

from __future__ import annotations

__all__ = ["BOARD", "PLAYERS", "TOURNAMENT_PLAYERS", "TURNS"]

BOARD = "risk"
PLAYERS: tuple[str, ...] = ("balanced", "opportunist")
TURNS = 500
#: The players of ``stratagem conquest tournament``: the rules of one turn (``search`` costs
#: 6 R D turns a decision; name it with ``--players`` to enter it).
TOURNAMENT_PLAYERS: tuple[str, ...] = ("random", "aggressive", "balanced", "opportunist")
