"""The start of a rank's share of any board, without the whole board: the team
:func:`~stratagem.conquest.board.assign_regions` or
:func:`~stratagem.conquest.board.assign_random` gives each territory of the share (the arrays
of ``stratagem.conquest.distributed.local_board.PartArrays``, as ``_core.conquest.part_share``
cuts them).

``assign_regions`` orders the territories by their distance from a far end, ties by id, and
cuts the order into equal pieces
(:func:`~stratagem.conquest.distributed.local_board.dealt_teams`). The distances are relaxed
over the ranks' shares: a source's key is 0, and a territory's key is the smallest of its
neighbours' keys plus one. Each rank relaxes its own territories from its territories and
ghosts with a breadth-first search one level at a time (every territory of a level at once),
sends the keys of its territories on cut borders to the ranks holding them as ghosts (the
game's halo plan), and starts again from the ghosts whose key fell, until no rank's ghost key
falls. On a board cut into blocks of nearby territories a shortest path crosses the cuts a few
times only, and so the rounds are few. It is done twice: from the first territory of the random
order, then from the farthest territory from it.

On a ring of 8 the distances from 0, and the regions of three teams searched from 5 (whose
far end is 1):

>>> from stratagem import _core
>>> from stratagem.conquest import Board, assign_regions
>>> from stratagem.conquest.distributed import partition
>>> from stratagem.mpi import world
>>> board = Board.ring(8)
>>> share = _core.conquest.part_share(board.indptr, board.indices, partition(board, 1), 0)
>>> graph_distances(share, 0, world()).tolist()
[0, 1, 2, 3, 4, 3, 2, 1]
>>> team, territories = graph_start(share, board.n, 3, assign="regions", seed=5, comm=world())
>>> team.tolist() == assign_regions(board, 3, 5).tolist(), territories.tolist()
(True, [3, 3, 2])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import ArrayLike, NDArray

from stratagem import _validate
from stratagem.conquest.distributed.local_board import (
    PartArrays,
    dealt_teams,
    farthest,
    random_positions,
    region_starts,
)
from stratagem.conquest.game import MAX_TEAMS, check_assign
from stratagem.errors import InvalidParameter
from stratagem.graph import concatenated_ranges
from stratagem.mpi import (
    Communicator,
    allreduce,
    block_partition,
    checked_together,
    exchange_with_neighbors,
    world,
)
from stratagem.progress import Progress, ProgressOption

Share: TypeAlias = Mapping[str, NDArray[Any]] | PartArrays

__all__ = ["graph_distances", "graph_start"]

IntArray = NDArray[np.int64]
# The key of a territory no start has reached (yet).
_UNREACHED = np.iinfo(np.int64).max
# Tag of the messages of the keys' exchange.
_TAG_KEYS = 0x5330


def _field(share: Share, name: str) -> NDArray[Any]:
    """Array ``name`` of a share: a mapping (as ``part_share`` gives it) or ``PartArrays``."""
    return share[name] if isinstance(share, Mapping) else getattr(share, name)


def _relax(
    key: IntArray,
    seeds: IntArray,
    *,
    indptr: IntArray,
    indices: IntArray,
    owned: NDArray[np.bool_],
    teams: int,
    bar: Progress,
) -> None:
    """Lower the keys of the owned territories to the smallest neighbour's key plus
    ``teams``, from the territories ``seeds`` whose keys are new: one breadth-first level at a
    time, every territory of the level at once (a territory pushes at most once a call); the
    bar counts the territories reached for the first time."""
    levels = key[seeds] // teams
    order = np.argsort(levels, kind="stable")
    seeds, levels = seeds[order], levels[order]
    current = np.empty(0, dtype=np.int64)  # the territories of the level lowered last
    level, taken = 0, 0
    while current.shape[0] or taken < seeds.shape[0]:
        if not current.shape[0]:
            level = int(levels[taken])
        upto = int(np.searchsorted(levels, level, side="right"))
        current = np.concatenate([current, seeds[taken:upto]])
        taken = upto
        first = indptr[current]
        counts = indptr[current + 1] - first
        targets = indices[concatenated_ranges(first, counts)]
        claims = np.repeat(key[current] + teams, counts)
        better = owned[targets]
        better[better] = claims[better] < key[targets[better]]
        targets, claims = targets[better], claims[better]
        current = np.unique(targets)
        reached = int(np.count_nonzero(key[current] == _UNREACHED))
        np.minimum.at(key, targets, claims)
        bar.advance(reached)
        level += 1


def _region_keys(
    share: Share,
    starts: Sequence[int] | IntArray,
    teams: int,
    comm: Communicator,
    progress: ProgressOption = False,
) -> tuple[IntArray, int]:
    """Collective: the key ``distance * teams + team`` of every local id of the share (or
    ``_UNREACHED``), and the rounds of exchanges it took, with a bar (``progress``) counting
    the territories of this rank reached."""
    ids = _field(share, "local_ids")
    indptr, indices = _field(share, "indptr"), _field(share, "indices")
    owned = _field(share, "owned")
    halo_send, halo_recv = _field(share, "halo_send"), _field(share, "halo_recv")
    neighbours = _field(share, "neighbours")
    send_counts = np.zeros(comm.size, dtype=np.int64)
    recv_counts = np.zeros(comm.size, dtype=np.int64)
    send_counts[neighbours] = np.diff(_field(share, "halo_send_offsets"))
    recv_counts[neighbours] = np.diff(_field(share, "halo_recv_offsets"))
    key = np.full(ids.shape[0], _UNREACHED, dtype=np.int64)
    start_ids = np.asarray(starts, dtype=np.int64)
    place = np.minimum(np.searchsorted(ids, start_ids), max(ids.shape[0] - 1, 0))
    here = np.flatnonzero(ids[place] == start_ids) if ids.shape[0] else place[:0]
    np.minimum.at(key, place[here], here)  # a start given twice keeps its lowest team
    seeds = np.unique(place[here])
    rounds = 0
    label = "regions (territories reached)"
    with Progress(int(np.count_nonzero(owned)), label, enabled=progress) as bar:
        bar.advance(int(np.count_nonzero(owned[seeds])))
        while True:
            _relax(key, seeds, indptr=indptr, indices=indices, owned=owned, teams=teams, bar=bar)
            ghosts = exchange_with_neighbors(
                comm, neighbours.tolist(), key[halo_send], send_counts, recv_counts, tag=_TAG_KEYS
            )
            rounds += 1
            fell = ghosts < key[halo_recv]
            seeds = halo_recv[fell]
            key[seeds] = ghosts[fell]
            if not allreduce(np.array([seeds.shape[0]], dtype=np.int64), comm=comm)[0]:
                bar.reach(bar.total)  # the territories left no start reaches
                return key, rounds


def graph_distances(
    share: Share, source: int, comm: Communicator, *, progress: ProgressOption = False
) -> IntArray:
    """Collective: the borders crossed on a shortest path from the territory ``source``
    (a whole-board id, the same on every rank) to every local id of ``share`` (owned
    territories and ghosts), -1 where no path is. ``progress`` (:mod:`stratagem.progress`) is
    this rank's bar, counting its territories reached (none by default)."""
    key = _region_keys(share, [source], 1, comm, progress)[0]
    key[key == _UNREACHED] = -1
    return key


def _checked(
    share: Share,
    n: int,
    n_teams: int,
    *,
    assign: str,
    seed: int,
    offsets: ArrayLike | None,
    size: int,
) -> tuple[int, int, IntArray]:
    """The teams, the seed and the blocks of ``offsets``, checked."""
    n = _validate.integer("n", n, 1)
    teams = _validate.integer("n_teams", n_teams, 2, MAX_TEAMS)
    if teams > n:
        raise InvalidParameter(f"n_teams = {teams} exceeds the {n} territories")
    check_assign(assign)
    seed = _validate.seed(seed)
    blocks = block_partition(n, size) if offsets is None else np.asarray(offsets, dtype=np.int64)
    if (
        blocks.shape != (size + 1,)
        or blocks[0] != 0
        or blocks[-1] != n
        or (np.diff(blocks) < 0).any()
    ):
        raise InvalidParameter(
            f"offsets must cut the {n} territories into {size} blocks (0 = offsets[0] <= ... "
            f"<= offsets[{size}] = {n}), got {blocks.tolist()}"
        )
    ids = _field(share, "local_ids")
    if ids.shape[0] and not 0 <= int(ids[0]) <= int(ids[-1]) < n:
        raise InvalidParameter(
            f"the share holds territories {int(ids[0])}..{int(ids[-1])}, outside the board's "
            f"0..{n - 1}"
        )
    return teams, seed, blocks


def graph_start(
    share: Share,
    n: int,
    n_teams: int,
    *,
    assign: str,
    seed: int,
    offsets: ArrayLike | None = None,
    comm: Communicator | None = None,
    progress: ProgressOption = None,
) -> tuple[IntArray, IntArray]:
    """Collective: the team of each local id of ``share`` (a rank's part of a board of ``n``
    territories) in the ``regions`` or ``random`` start of ``n_teams`` teams with ``seed``
    (:func:`~stratagem.conquest.board.assign_regions`,
    :func:`~stratagem.conquest.board.assign_random`), and the whole board's territories per
    team. Rank ``q`` draws the random words of block ``q`` of ``offsets`` (by default the
    territories cut into ``comm.size`` blocks), whatever territories its share holds. Bad
    input on any rank raises :class:`~stratagem.errors.InvalidParameter` on every rank."""
    comm = world() if comm is None else comm
    teams, seed, blocks = checked_together(
        comm,
        lambda: _checked(
            share, n, n_teams, assign=assign, seed=seed, offsets=offsets, size=comm.size
        ),
    )
    ids, owned = _field(share, "local_ids"), _field(share, "owned")
    if assign == "random":
        team = random_positions(seed, ids, blocks, comm) % teams
    else:
        block = (int(blocks[comm.rank]), int(blocks[comm.rank + 1]))
        first = region_starts(seed, n, 1, block, comm)[0]
        far_end = farthest(graph_distances(share, first, comm), ids, owned, comm)
        distance = graph_distances(share, far_end, comm, progress=progress)
        team = dealt_teams(distance, ids, owned, n=n, teams=teams, comm=comm)
    territories = allreduce(np.bincount(team[owned], minlength=teams).astype(np.int64), comm=comm)
    return team, territories
