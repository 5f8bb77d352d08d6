"""Outpost tournaments: fixtures, games over threads or MPI ranks, and standings.

:mod:`~stratagem.outpost.tournament.play` plays them (re-exported here),
:mod:`~stratagem.outpost.tournament.fixtures` lists the games,
:mod:`~stratagem.outpost.tournament.standings` keeps the table.
"""

from stratagem.outpost.tournament.play import (
    PURPOSE,
    ROTATIONS,
    TOURNAMENT_2014,
    Fixture,
    Params,
    Standing,
    TournamentResult,
    TournamentSetup,
    fixtures,
    tournament,
)

__all__ = [
    "PURPOSE",
    "ROTATIONS",
    "TOURNAMENT_2014",
    "Fixture",
    "Params",
    "Standing",
    "TournamentResult",
    "TournamentSetup",
    "fixtures",
    "tournament",
]
