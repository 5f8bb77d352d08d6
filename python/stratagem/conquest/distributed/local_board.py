"""Rank-local boards: a rank of a distributed game builds only its territories, their rows
and their ghosts, straight from the board's spec, and the start of its own territories.

A grid's rows and CSR offsets have closed forms, so the share of a rank (the arrays of
the :class:`PartArrays` below) is built by the engine from the ids of its
block of the natural order alone (``_core.conquest.grid_share``): the block's rows, its cut
edges (with the whole board's border ids) and its ghosts' rows, in memory proportional to the
share. The arrays are the ones the engine cuts from the whole board
(``_core.conquest.part_share``), whose exchange plan it builds the same way.

The ``regions`` start (:func:`~stratagem.conquest.board.assign_regions`) orders the
territories by their distance from a far end, ties by id, and cuts the order into equal
pieces. On a grid the distance is the Manhattan distance (the shorter way round on a torus),
so each rank computes the distances of its own territories and ghosts alone: to the first
territory of the random order (each rank offers its own first one, and one small
``allgather`` picks it), then to the farthest from it (one more ``allgather``). The cuts of
the order are found by bisection over the ranks' counts (:func:`dealt_teams`), so no rank
sorts more than its own territories.

>>> grid = GridRows.of_spec("grid:3x4")
>>> grid.kind, grid.n, grid.n_borders, grid.distances(0, np.array([5, 11])).tolist()
('grid:3x4', 12, 17, [2, 5])
>>> local_share(grid, 2, 1)["local_ids"].tolist()  # rank 1's block 6..11 and ghosts 2..5
[2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stratagem import _core
from stratagem.conquest.boards.grid_rows import GridRows
from stratagem.conquest.boards.layouts import _raw_words
from stratagem.mpi import Communicator, allreduce, block_partition

__all__ = [
    "PartArrays",
    "dealt_teams",
    "farthest",
    "grid_blocks",
    "grid_part",
    "local_share",
    "local_start",
    "random_positions",
    "region_starts",
]

IntArray = NDArray[np.int64]
_REGIONS = "conquest.assign.regions"
_RANDOM = "conquest.assign.random"
# Tags of the messages of random_positions' ring.
_TAG_RING = 0x5320
# Ids further apart than this are drawn as separate runs of words.
_RUN_GAP = 1 << 12


@dataclass
class PartArrays:
    """One rank's share of the board: the local CSR (owned rows complete, ghost rows holding
    their borders with owned territories), the whole board's ids, and the exchange plan."""

    local_ids: NDArray[np.int64]
    indptr: NDArray[np.int64]
    indices: NDArray[np.int64]
    edge_ids: NDArray[np.int64]
    owned: NDArray[np.bool_]
    neighbours: NDArray[np.int64]
    halo_send: NDArray[np.int64]
    halo_send_offsets: NDArray[np.int64]
    halo_recv: NDArray[np.int64]
    halo_recv_offsets: NDArray[np.int64]
    cut: NDArray[np.int64]
    cut_offsets: NDArray[np.int64]


def local_share(grid: GridRows, ranks: int, rank: int) -> dict[str, NDArray[Any]]:
    """The share of rank ``rank`` when the natural order is cut into ``ranks`` blocks: the
    arrays ``_core.conquest.part_share`` gives for the whole board, built by the engine from
    the rows of the block and its ghosts only (``_core.conquest.grid_share``)."""
    offsets = block_partition(grid.n, ranks)
    return _core.conquest.grid_share(grid.n_rows, grid.n_cols, grid.torus, offsets, rank)


def region_starts(
    seed: int, n: int, teams: int, block: tuple[int, int], comm: Communicator
) -> list[int]:
    """Collective: the first ``teams`` territories of the random order of stream ``(seed,
    "conquest.assign.regions")`` (by their words of the stream, ties by id), each rank
    drawing the words of its ``block`` (``lo, hi``) of ids only; the first is the territory
    :func:`~stratagem.conquest.board.assign_regions` searches from."""
    mine = _core.conquest.first_in_order(seed, _REGIONS, *block, teams)
    everyone = sorted(pair for pairs in comm.allgather_object(mine) for pair in pairs)
    return [territory for _, territory in everyone[:teams]]


def farthest(
    distance: IntArray, ids: IntArray, owned: NDArray[np.bool_], comm: Communicator
) -> int:
    """Collective: the territory of largest ``distance`` (-1 for unreached) over the owned
    territories of every rank, the lowest id among the farthest."""
    mine = np.flatnonzero(owned & (distance >= 0))
    best = (-1, 0)
    if mine.shape[0]:
        far = int(distance[mine].max())
        best = (far, -int(ids[mine][distance[mine] == far].min()))
    return -max(comm.allgather_object(best))[1]


def dealt_teams(
    distance: IntArray,
    ids: IntArray,
    owned: NDArray[np.bool_],
    *,
    n: int,
    teams: int,
    comm: Communicator,
) -> IntArray:
    """Collective: the team :func:`~stratagem.conquest.board.assign_regions` gives each of
    ``ids`` (owned territories and ghosts) from their ``distance`` to the far end (-1 where
    it does not reach): the place of a territory in the order (distance, then id, the
    unreached last) cut into ``teams`` equal pieces. No rank sorts the board: the key of the
    first place of each team is found by bisection, counting on every rank the owned keys
    up to a guess (one ``allreduce`` a step for all the cuts)."""
    local_most = np.array([int(distance.max(initial=-1))], dtype=np.int64)
    beyond = int(allreduce(local_most, "max", comm=comm)[0]) + 1
    key = np.where(distance >= 0, distance, beyond) * n + ids
    owned_keys = np.sort(key[owned])
    # Team t starts at place ceil(t n / teams): the first place p with p * teams // n == t.
    places = -((-np.arange(1, teams, dtype=np.int64) * n) // teams)
    low = np.zeros(teams - 1, dtype=np.int64)
    high = np.full(teams - 1, (beyond + 1) * n, dtype=np.int64)
    while (low < high).any():
        middle = (low + high) // 2
        at_most = np.searchsorted(owned_keys, middle, side="right").astype(np.int64)
        enough = allreduce(at_most, comm=comm) > places
        high = np.where(enough, middle, high)
        low = np.where(enough, low, middle + 1)
    return np.searchsorted(low, key, side="right").astype(np.int64)


def _words_of(seed: int, purpose: str, ids: IntArray) -> NDArray[np.uint64]:
    """Word ``x`` of the stream for each territory ``x`` of ``ids``, drawn run by run of
    nearby ids (a rank's block and its ghosts, which on a torus include the far end of the
    board: never the words of the whole board)."""
    order = np.argsort(ids, kind="stable")
    ordered = ids[order]
    chosen = np.empty(ids.shape[0], dtype=np.uint64)
    breaks = np.flatnonzero(np.diff(ordered) > _RUN_GAP) + 1
    for run in np.split(np.arange(ids.shape[0]), breaks):
        if run.shape[0] == 0:
            continue
        low, high = int(ordered[run[0]]), int(ordered[run[-1]])
        first = low - low % 4
        words = _raw_words(seed, purpose, first, high + 1 - first)
        chosen[order[run]] = words[ordered[run] - first]
    return chosen


def random_positions(seed: int, ids: IntArray, offsets: IntArray, comm: Communicator) -> IntArray:
    """Collective: the place of each of ``ids`` in the random order of
    :func:`~stratagem.conquest.board.assign_random` (the territories sorted by their words of
    the stream, ties by id), block ``q`` of ``offsets`` being rank ``q``'s. Each rank sorts
    the words of its block; the sorted blocks go round the ranks one step at a time, and each
    rank counts the words before its own in each: memory for two blocks, and ``size - 1``
    messages of a block per rank."""
    rank, size = comm.rank, comm.size
    lo, hi = int(offsets[rank]), int(offsets[rank + 1])
    block_words = _words_of(seed, _RANDOM, np.arange(lo, hi, dtype=np.int64))
    # Equal words are counted as a run, in any order: no need of a stable sort.
    order = np.argsort(block_words)
    words, territories = block_words[order], order.astype(np.int64) + lo
    # Queries in word order: searching sorted keys is several times faster.
    queries = _words_of(seed, _RANDOM, ids)
    asked = np.argsort(queries)
    queries, asking = queries[asked], ids[asked]
    counted = np.zeros(ids.shape[0], dtype=np.int64)
    for step in range(size):
        left = np.searchsorted(words, queries, side="left")
        right = np.searchsorted(words, queries, side="right")
        counted += left
        # Equal words are ordered by id: one is mostly the query's own (before nothing);
        # more than one, a tie of two territories' words, is all but impossible.
        single = np.flatnonzero(right - left == 1)
        counted[single] += territories[left[single]] < asking[single]
        for q in np.flatnonzero(right - left > 1):
            same = territories[left[q] : right[q]]
            counted[q] += int(np.count_nonzero(same < asking[q]))
        if step + 1 < size:
            source = (rank - step - 1) % size
            count = int(offsets[source + 1] - offsets[source])
            incoming = (np.empty(count, dtype=np.uint64), np.empty(count, dtype=np.int64))
            requests = [
                comm.irecv(incoming[0], (rank - 1) % size, _TAG_RING),
                comm.irecv(incoming[1], (rank - 1) % size, _TAG_RING + 1),
                comm.isend(words, (rank + 1) % size, _TAG_RING),
                comm.isend(territories, (rank + 1) % size, _TAG_RING + 1),
            ]
            comm.waitall(requests)
            words, territories = incoming
    before = np.empty(ids.shape[0], dtype=np.int64)
    before[asked] = counted
    return before


def grid_blocks(grid: GridRows, ranks: int) -> NDArray[np.int64]:
    """Where the ranks' blocks of ``grid`` start and end in the natural order: whole rows
    when the grid is not a torus and has a row for every rank (the part then finds its
    frontier distances by passes over its rows, docs/conquest-mpi.md), else equal blocks of
    territories."""
    if grid.torus or grid.n_rows < ranks:
        return block_partition(grid.n, ranks)
    return block_partition(grid.n_rows, ranks) * grid.n_cols


def grid_part(grid: GridRows, comm: Communicator) -> _core.conquest.Share:
    """This rank's share of ``grid`` (block ``comm.rank`` of :func:`grid_blocks`), held by
    the engine in its own types until ``_core.conquest.Part.of_share`` makes the part of it."""
    offsets = grid_blocks(grid, comm.size)
    return _core.conquest.grid_part(grid.n_rows, grid.n_cols, grid.torus, offsets, comm.rank)


def local_start(
    grid: GridRows,
    share: _core.conquest.Share,
    teams: int,
    *,
    assign: str,
    seed: int,
    comm: Communicator,
) -> tuple[NDArray[np.uint8], IntArray]:
    """Collective: the team of every territory of ``share`` (:func:`grid_part`: owned
    territories and ghosts, in local order) in the ``regions`` or ``random`` start, and the
    whole board's territories per team.

    The regions: the far end is the farthest owned territory from the first of the random
    order over the ranks (one ``allgather``); the territories at each distance from it are
    counted by every rank and summed (one ``Allreduce``), which tells at which distance, and
    at which place among the territories at that distance, each team starts; the ranks list
    their owned territories at those distances (one ``allgather``), and the id at that place
    is the start. The engine computes every territory's distance and team in one pass."""
    offsets = grid_blocks(grid, comm.size)
    if assign == "random":
        team = (random_positions(seed, share.ids(), offsets, comm) % teams).astype(np.uint8)
    else:
        block = (int(offsets[comm.rank]), int(offsets[comm.rank + 1]))
        first = region_starts(seed, grid.n, 1, block, comm)[0]
        offers = [f for f in comm.allgather_object(share.farthest(first)) if f is not None]
        far_end = max(offers, key=lambda offer: (offer[0], -offer[1]))[1]
        counts = allreduce(share.distance_counts(far_end), comm=comm)
        cuts = _core.conquest.regions_cuts(counts.tolist(), teams)
        levels = [level for level, _ in cuts]
        listed = comm.allgather_object(share.owned_at(far_end, levels))
        starts = [
            (level, int(np.sort(np.concatenate([ids[t] for ids in listed]))[place]))
            for t, (level, place) in enumerate(cuts)
        ]
        team = share.regions(far_end, starts)
    territories = allreduce(share.team_counts(team, teams), comm=comm)
    return team, territories
