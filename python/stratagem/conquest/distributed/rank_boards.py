"""Boards whose share a rank of a distributed game builds alone, from the board's spec: no
rank holds the whole board.

- ``grid:RxC`` and ``grid:RxC:torus``: rows and CSR offsets in closed form, the share built
  and kept by the engine (:func:`~stratagem.conquest.distributed.local_board.grid_part`), and
  so the ``regions`` start too (Manhattan distances to the starts;
  :func:`~stratagem.conquest.distributed.local_board.local_start`);
- ``rgg:N...``: each rank draws its slice of the points and gathers the cell rows about its
  block (:mod:`stratagem.conquest.distributed.local_rgg`);
- a board file (a spec ending in ``.npz``, written by ``Board.save``): each rank maps the
  file and reads the rows of its block and of its ghosts only
  (:func:`stratagem.conquest.boards.board_files.file_share`).

The ``regions`` start of any board but a grid is relaxed over the ranks' shares
(:mod:`stratagem.conquest.distributed.graph_start`); the ``random`` start of any board comes
from the ranks' sorted blocks of random words
(:func:`~stratagem.conquest.distributed.local_board.random_positions`).
Block ``q`` of the natural order is rank ``q``'s, as in the whole-board path, and the arrays
and the start are exactly those the whole board's cut gives.

>>> from stratagem.mpi import world
>>> board = RankBoard.of_spec("rgg:500:seed=2")
>>> share, shape = board.build(world())
>>> shape.n, share["local_ids"].shape[0]
(500, 500)
>>> RankBoard.of_spec("ring:8") is None  # built whole, then cut
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stratagem.conquest.boards.board_files import file_share, map_csr
from stratagem.conquest.boards.grid_rows import GridRows
from stratagem.conquest.boards.layouts import Geometric
from stratagem.conquest.distributed.graph_start import graph_start
from stratagem.conquest.distributed.local_rgg import rgg_share
from stratagem.conquest.game import BoardShape
from stratagem.errors import InvalidParameter
from stratagem.mpi import Communicator, block_partition, checked_together
from stratagem.progress import ProgressOption

__all__ = ["BoardShape", "RankBoard"]

IntArray = NDArray[np.int64]


@dataclass(frozen=True)
class RankBoard:
    """A board named by ``spec``, of ``n`` territories, whose share each rank builds alone: a
    grid (``grid``), a random geometric graph or a board file."""

    spec: str
    n: int
    grid: GridRows | None = None

    @classmethod
    def of_spec(cls, spec: str) -> RankBoard | None:
        """The rank-local board of ``spec``, checked as ``Board.from_spec`` checks it (errors
        alike; a board file is opened and its header read), or None for a board that is
        built whole."""
        if spec.endswith(".npz"):
            return cls(spec, map_csr(spec).n)
        grid = GridRows.of_spec(spec)
        if grid is not None:
            return cls(spec, grid.n, grid)
        rgg = Geometric.of_spec(spec)
        return None if rgg is None else cls(spec, rgg.n)

    def build(
        self, comm: Communicator, *, progress: ProgressOption = None
    ) -> tuple[dict[str, NDArray[Any]], BoardShape]:
        """Collective: this rank's share (the arrays ``_core.conquest.part_share`` cuts from
        the whole board, block ``q`` of the natural order being rank ``q``'s) and the board's
        shape, with this rank's bar ``progress`` (:mod:`stratagem.progress`) for an ``rgg``
        board (a board file's is one call of the engine). A bad row of a board file raises on
        every rank. A grid's share stays in the engine
        (:func:`~stratagem.conquest.distributed.local_board.grid_part`) and is not built
        here."""
        if self.grid is not None:
            raise InvalidParameter(f"{self.spec}: a grid's share is built by grid_part")
        if self.spec.endswith(".npz"):

            def read() -> tuple[dict[str, NDArray[Any]], BoardShape]:
                offsets = block_partition(self.n, comm.size)
                share, mapped = file_share(self.spec, offsets, comm.rank)
                return share, BoardShape(mapped.path, mapped.n, mapped.n_borders)

            return checked_together(comm, read)
        local = rgg_share(self.spec, comm, progress=progress)
        return local.share, BoardShape(local.kind, local.n, local.n_borders)

    def start(
        self,
        share: Any,
        teams: int,
        *,
        assign: str,
        seed: int,
        comm: Communicator,
        progress: ProgressOption = None,
    ) -> tuple[IntArray, IntArray]:
        """Collective: the team of every territory of ``share`` (a ``PartArrays`` of
        :meth:`build`) in the ``regions`` or ``random`` start, and the whole board's
        territories per team, with this rank's bar ``progress`` as the regions grow."""
        return graph_start(
            share, self.n, teams, assign=assign, seed=seed, comm=comm, progress=progress
        )
