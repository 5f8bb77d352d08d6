"""Outpost tournaments: fixtures, games over threads or MPI ranks, and standings.

:mod:`~stratagem.outpost.tournament.play` plays them (re-exported here),
:mod:`~stratagem.outpost.tournament.fixtures` lists the games,
:mod:`~stratagem.outpost.tournament.standings` keeps the table.
"""

from stratagem.outpost.tournament import play
from stratagem.outpost.tournament.play import *  # noqa: F403 (the names play.__all__ lists)

__all__ = play.__all__
