"""outpost: four empires on a 100x100 land and water grid (seed 002).

Rules: ``docs/outpost-rules.md``; guide: ``docs/outpost.md``. :class:`Map` loads, checks,
generates and saves maps; :class:`Game` plays a game with built-in players (in Rust) or your
own Python players; :func:`tournament` plays many games over threads or MPI ranks.
"""

from stratagem.outpost.game import EMPIRES, HOMES, Game, History, LogEntry, Result
from stratagem.outpost.map import DEFAULT_MAP, Map, MapWarning, parse_map
from stratagem.outpost.players import BUILTIN_PLAYERS, DIRECTIONS, Player, State
from stratagem.outpost.protocol import Outpost
from stratagem.outpost.tournament.play import (
    TOURNAMENT_2014,
    Params,
    TournamentResult,
    fixtures,
    tournament,
)

__all__ = [
    "BUILTIN_PLAYERS",
    "DEFAULT_MAP",
    "DIRECTIONS",
    "EMPIRES",
    "HOMES",
    "TOURNAMENT_2014",
    "Game",
    "History",
    "LogEntry",
    "Map",
    "MapWarning",
    "Outpost",
    "Params",
    "Player",
    "Result",
    "State",
    "TournamentResult",
    "fixtures",
    "parse_map",
    "tournament",
]
