"""Rank-local random geometric boards: each rank of a distributed game builds its share of
``rgg:N`` (the arrays of ``stratagem.conquest.distributed.local_board.PartArrays``, block
``q`` of the natural order being rank ``q``'s) from the spec, never holding the whole board.

The territories of ``rgg:N`` are its points sorted by cell row (cells at least one radius
wide), boustrophedon column and drawing index
(:class:`~stratagem.conquest.boards.layouts.Geometric`), and two territories border only
within one cell row of each other. So:

1. each rank draws the points of its slice of drawing indices (``block_range``);
2. one ``allreduce`` of the points per cell row gives every row's first territory id, hence
   the cell rows each rank's block covers;
3. every point goes (one ``alltoallv``) to the ranks whose block covers its cell row, or is
   at most two rows away from it: a rank then holds the complete rows of its block and of its
   ghosts (one row away), whose neighbours are at most two rows away;
4. each rank numbers its points and finds their borders, a band of cell rows at a time
   (:meth:`Geometric.csr <stratagem.conquest.boards.layouts.Geometric.csr>`, the whole
   board's rule);
5. the degree sums of the blocks (one ``allgather``) give where each block's rows start in
   the whole board's CSR, local prefix sums the rest, and the engine cuts the share from the
   rows held (``_core.conquest.rows_share``).

A rank holds the points of its slice, those of its block's cell rows and two rows on each
side, and the cell rows' counts: O(N / ranks + N / cells + cells), not O(N) (unless the radius
is so large that a few rows of cells hold the whole board).

>>> from stratagem.conquest import Board
>>> from stratagem.mpi import SerialCommunicator
>>> local = rgg_share("rgg:300:seed=4", SerialCommunicator())
>>> board = Board.from_spec("rgg:300:seed=4")
>>> (local.kind, local.n, local.n_borders) == (board.kind, board.n, board.n_borders)
True
>>> whole = _core.conquest.part_share(board.indptr, board.indices, np.zeros(300, np.int64), 0)
>>> all((local.share[name] == whole[name]).all() for name in whole)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stratagem import _core
from stratagem.conquest.boards.layouts import Geometric
from stratagem.conquest.boards.rgg_rows import row_order
from stratagem.errors import InconsistentInput, InvalidParameter
from stratagem.mpi import (
    Communicator,
    allgather_blocks,
    allreduce,
    block_partition,
    block_range,
    checked_together,
)
from stratagem.mpi.collectives import _as_bytes
from stratagem.progress import Progress, ProgressOption

__all__ = ["LocalRgg", "rgg_share"]

IntArray = NDArray[np.int64]
# A point as it travels between ranks.
_POINT = np.dtype([("x", np.float64), ("y", np.float64), ("index", np.int64)])
# Cell rows a rank holds on each side of its block's: its ghosts' rows and their neighbours'.
_MARGIN = 2


@dataclass(frozen=True)
class LocalRgg:
    """One rank's share of an ``rgg`` board, with what the whole board is (its ``kind``,
    territories ``n`` and borders ``n_borders``)."""

    kind: str
    n: int
    n_borders: int
    share: dict[str, NDArray[Any]]


def rgg_share(spec: str, comm: Communicator, *, progress: ProgressOption = None) -> LocalRgg:
    """Collective: this rank's share of the board ``Board.from_spec(spec)`` of an ``rgg``
    spec (checked as ``Board.from_spec`` checks it, errors alike), the natural order cut into
    ``comm.size`` blocks (``block_partition``): the arrays ``_core.conquest.part_share``
    gives for the whole board, built from the rank's points and the cell rows about its
    block only. ``progress`` is this rank's bar (:class:`~stratagem.progress.Progress`),
    counting the points it holds whose borders are found."""

    def parsed() -> Geometric:
        rgg = Geometric.of_spec(spec)
        if rgg is None:
            raise InvalidParameter(f"board spec {spec!r}: not a random geometric board (rgg:N)")
        return rgg

    rgg = checked_together(comm, parsed)
    # Ranks that drew their points from different boards would build a mixture silently.
    for rank, kind in enumerate(comm.allgather_object(rgg.kind)):
        if kind != rgg.kind:
            raise InconsistentInput(
                f"rank {rank} builds {kind!r} and rank {comm.rank} {rgg.kind!r}: every rank "
                f"must build the same board"
            )
    n, cells = rgg.n, rgg.cells
    offsets = block_partition(n, comm.size)
    points, row_starts, held = _points_about_blocks(rgg, offsets, comm)
    # 4. The held territories in the whole board's order, and their borders. The points
    # came by rank, each rank's by cell row and drawing index, and the ranks' drawing indices
    # ascend with the rank: those of a cell row are in drawing order already, and a stable
    # sort by row and column keeps it.
    xy = np.stack((points["x"], points["y"]), axis=1)
    row, column = rgg.cells_of(xy)
    order = row_order(row, column, rgg.cells)
    xy, row = xy[order], row[order]
    del points, column, order
    first_row, end_row = (int(r) for r in held[comm.rank])
    first_id = int(row_starts[first_row])
    assert xy.shape[0] == row_starts[end_row] - first_id, "points lost on their way"
    with Progress(xy.shape[0], f"board {rgg.kind} (rank share)", enabled=progress) as bar:
        held_indptr, held_indices = rgg.csr(xy, row, bar.advance)
    del xy, row
    # 5. The complete rows (the block's and one row about it, or none for an empty block),
    # where they start in the whole board's CSR, and the share cut from them.
    a = b = lo = hi = 0
    if offsets[comm.rank] < offsets[comm.rank + 1]:
        lo, hi = int(offsets[comm.rank]) - first_id, int(offsets[comm.rank + 1]) - first_id
        full_from = first_row if first_row == 0 else first_row + 1
        full_to = end_row if end_row == cells else end_row - 1
        a, b = int(row_starts[full_from]) - first_id, int(row_starts[full_to]) - first_id
    degrees = np.diff(held_indptr)
    sums = allgather_blocks(np.array([degrees[lo:hi].sum()], dtype=np.int64), comm=comm)
    starts = np.zeros(b - a + 1, dtype=np.int64)
    np.cumsum(degrees[a:b], out=starts[1:])
    starts += int(sums[: comm.rank].sum()) - int(starts[lo - a])
    held_indices += first_id  # in place: the engine reads the rows held as they are
    share = _core.conquest.rows_share(
        n,
        np.arange(a, b, dtype=np.int64) + first_id,
        starts[:-1],
        held_indptr[a : b + 1] - held_indptr[a],
        held_indices[held_indptr[a] : held_indptr[b]],
        offsets,
        comm.rank,
    )
    return LocalRgg(rgg.kind, n, int(sums.sum()) // 2, share)


def _points_about_blocks(
    rgg: Geometric, offsets: IntArray, comm: Communicator
) -> tuple[NDArray[np.void], IntArray, IntArray]:
    """Collective: the points of the cell rows this rank holds (:func:`_held_rows`), in no
    order, with the first territory id of every cell row and the rows every rank holds."""
    # 1. The points of this rank's slice of drawing indices, by cell row.
    start, stop = block_range(rgg.n, comm.rank, comm.size)
    drawn = rgg.points(start, stop)
    row, _ = rgg.cells_of(drawn)
    by_row = np.argsort(row, kind="stable")
    mine = np.empty(stop - start, dtype=_POINT)
    mine["x"], mine["y"] = drawn[by_row, 0], drawn[by_row, 1]
    mine["index"] = by_row + start
    row = row[by_row]
    del drawn, by_row
    # 2. The first territory id of every cell row, and the cell rows each rank holds.
    row_starts = np.zeros(rgg.cells + 1, dtype=np.int64)
    np.cumsum(allreduce(np.bincount(row, minlength=rgg.cells), comm=comm), out=row_starts[1:])
    held = _held_rows(row_starts, offsets, rgg.cells)
    # 3. Every point to the ranks holding its row.
    low = np.searchsorted(row, held[:, 0])
    high = np.searchsorted(row, held[:, 1])
    send = np.concatenate([mine[i:j] for i, j in zip(low, high, strict=True)])
    del mine, row
    send_counts = high - low
    recv_counts = comm.alltoall_counts(send_counts)
    points = np.empty(int(recv_counts.sum()), dtype=_POINT)
    size = _POINT.itemsize
    comm.alltoallv_bytes(_as_bytes(send), send_counts * size, _as_bytes(points), recv_counts * size)
    return points, row_starts, held


def _held_rows(row_starts: IntArray, offsets: IntArray, cells: int) -> IntArray:
    """``[first, end)`` cell rows each rank holds (one rank a line): those of its block and
    :data:`_MARGIN` rows on each side; none for an empty block."""
    lo, hi = offsets[:-1], offsets[1:]
    first = np.searchsorted(row_starts, lo, side="right") - 1
    last = np.searchsorted(row_starts, hi - 1, side="right") - 1
    held = np.stack((np.maximum(first - _MARGIN, 0), np.minimum(last + _MARGIN + 1, cells)), axis=1)
    held[lo == hi] = 0
    return held.astype(np.int64)
