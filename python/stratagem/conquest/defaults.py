"""The game ``stratagem conquest play`` and the demo play when nothing else is asked for.

Chosen so that it ends with a result (docs/conquest.md, "The default game"):
the RISK world map (42 territories, fronts of every shape, so the stronger side finds
a territory it outnumbers), two equal regions, ``balanced`` against ``opportunist``,
10 troops a territory, 20% recruitment, no cap, at most 500 turns. 39 of seeds 0-39 end won,
the longest after 264 turns. On a large grid the troops more often reach the limit before one
team has taken everything.
"""

from __future__ import annotations

__all__ = ["BOARD", "PLAYERS", "TOURNAMENT_PLAYERS", "TURNS"]

BOARD = "risk"
PLAYERS: tuple[str, ...] = ("balanced", "opportunist")
TURNS = 500
#: The players of ``stratagem conquest tournament``: the rules of one turn (``search`` costs
#: 6 R D turns a decision; name it with ``--players`` to enter it).
TOURNAMENT_PLAYERS: tuple[str, ...] = ("random", "aggressive", "balanced", "opportunist")
