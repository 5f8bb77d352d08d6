"""Halo exchange under mpiexec on a ring, a 2-D grid and random graphs: every rank builds the
whole graph, takes its own rows, and checks the exchanged ghosts and the bytes sent against
what the full graph says."""

from __future__ import annotations

import numpy as np
import pytest

from stratagem.errors import InvalidParameter
from stratagem.mpi import Communicator, HaloPlan, block_partition, csr_rows, owner_of

Graph = tuple[np.ndarray, np.ndarray]  # (indptr, indices) of the whole graph, CSR


def csr(n: int, src: np.ndarray, dst: np.ndarray) -> Graph:
    order = np.lexsort((dst, src))
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=indptr[1:])
    return indptr, dst[order].astype(np.int64)


def undirected(n: int, src: np.ndarray, dst: np.ndarray) -> Graph:
    pairs = np.unique(np.stack([np.r_[src, dst], np.r_[dst, src]], axis=1), axis=0)
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    return csr(n, pairs[:, 0], pairs[:, 1])


def ring(n: int) -> Graph:
    ids = np.arange(n)
    return undirected(n, ids, (ids + 1) % n)


def grid(rows: int, cols: int) -> Graph:
    ids = np.arange(rows * cols).reshape(rows, cols)
    right = (ids[:, :-1].ravel(), ids[:, 1:].ravel())
    down = (ids[:-1, :].ravel(), ids[1:, :].ravel())
    return undirected(rows * cols, np.r_[right[0], down[0]], np.r_[right[1], down[1]])


def random_graph(n: int, edges: int, seed: int, *, directed: bool = False) -> Graph:
    draw = np.random.default_rng(seed)
    src, dst = draw.integers(0, n, size=(2, edges))
    if directed:
        keep = src != dst
        return csr(n, src[keep], dst[keep])
    return undirected(n, src, dst)


def uneven_offsets(n: int, size: int) -> np.ndarray:
    """Block boundaries drawn at random; with three ranks or more, rank 1's block is empty."""
    cuts = np.sort(np.random.default_rng(size).integers(0, n + 1, size=size - 1))
    if size > 2:
        cuts[1] = cuts[0]
    return np.r_[0, cuts, n].astype(np.int64)


GRAPHS = {
    "ring": ring(37),
    "grid": grid(9, 11),
    "random": random_graph(300, 700, seed=5),
    "random-directed": random_graph(120, 500, seed=8, directed=True),
}


def expected_bytes_sent(graph: Graph, offsets: np.ndarray, rank: int, row_bytes: int) -> int:
    """Bytes ``rank`` sends per exchange: each other rank's distinct ghosts that it owns."""
    indptr, indices = graph
    total = 0
    for other in range(len(offsets) - 1):
        start, stop = offsets[other], offsets[other + 1]
        columns = indices[indptr[start] : indptr[stop]]
        ghosts = np.unique(columns[(columns < start) | (columns >= stop)])
        total += int(np.count_nonzero(owner_of(ghosts, offsets) == rank))
    return total * row_bytes


def values_of(ids: np.ndarray, dtype: np.dtype, width: int) -> np.ndarray:
    """The value of each vertex: a function of its id, so any rank can predict a neighbour's."""
    base = (ids[:, None] * 31 + np.arange(width)[None, :]) % 97
    if dtype.names:
        out = np.zeros((len(ids), width), dtype=dtype)
        out["id"] = ids[:, None]
        out["score"] = base / 8
        return out
    return base.astype(dtype)


CASES = [
    pytest.param(name, partition, id=f"{name}-{partition}")
    for name in GRAPHS
    for partition in ("balanced", "uneven")
]


@pytest.mark.parametrize(("name", "partition"), CASES)
def test_exchange_delivers_neighbour_values(comm: Communicator, name: str, partition: str) -> None:
    graph = GRAPHS[name]
    n = len(graph[0]) - 1
    offsets = (
        block_partition(n, comm.size) if partition == "balanced" else uneven_offsets(n, comm.size)
    )
    start, stop = int(offsets[comm.rank]), int(offsets[comm.rank + 1])
    local_indptr, local_indices = csr_rows(*graph, start, stop)
    plan = HaloPlan.build(local_indptr, local_indices, offsets)
    own = np.arange(start, stop)
    record = np.dtype([("id", np.int64), ("score", np.float64)])
    exchanged = []
    for dtype, width in [(np.dtype(np.int64), 1), (np.dtype(np.float32), 3), (record, 2)]:
        owned = values_of(own, dtype, width)
        exchanged.append((dtype, width, owned, plan.exchange(owned), plan.bytes_sent_last))
    flat = plan.with_ghosts(own * 3)  # 1-D values
    total = plan.bytes_sent_total

    remote = local_indices[(local_indices < start) | (local_indices >= stop)]
    assert np.array_equal(plan.ghost_ids, np.unique(remote))
    assert np.array_equal(flat[plan.column_slots], local_indices * 3)  # the serial answer
    sent = 0
    for dtype, width, owned, ghosts, bytes_sent in exchanged:
        assert ghosts.dtype == dtype
        assert ghosts.shape == (plan.n_ghosts, width)
        assert ghosts.tobytes() == values_of(plan.ghost_ids, dtype, width).tobytes()
        extended = np.concatenate([owned, ghosts])
        assert (
            extended[plan.column_slots].tobytes()
            == values_of(local_indices, dtype, width).tobytes()
        )
        row_bytes = dtype.itemsize * width
        assert bytes_sent == expected_bytes_sent(graph, offsets, comm.rank, row_bytes)
        sent += bytes_sent
    assert total == sent + expected_bytes_sent(graph, offsets, comm.rank, 8)


def test_ring_sends_only_the_two_border_vertices(comm: Communicator) -> None:
    n = 40
    offsets = block_partition(n, comm.size)
    start, stop = int(offsets[comm.rank]), int(offsets[comm.rank + 1])
    plan = HaloPlan.build(*csr_rows(*ring(n), start, stop), offsets)
    ghosts = plan.exchange(np.arange(start, stop, dtype=np.float64))
    assert plan.ghost_ids.tolist() == sorted([(start - 1) % n, stop % n])
    assert ghosts.tolist() == [float(g) for g in plan.ghost_ids]
    assert plan.bytes_sent_last == 2 * 8
    left, right = (comm.rank - 1) % comm.size, (comm.rank + 1) % comm.size
    assert plan.neighbors == tuple(sorted({left, right}))


def test_slot_of_maps_owned_and_ghost_ids(comm: Communicator) -> None:
    graph = GRAPHS["grid"]
    offsets = block_partition(len(graph[0]) - 1, comm.size)
    start, stop = int(offsets[comm.rank]), int(offsets[comm.rank + 1])
    plan = HaloPlan.build(*csr_rows(*graph, start, stop), offsets)
    ids = np.r_[np.arange(start, stop), plan.ghost_ids]
    assert plan.slot_of(ids).tolist() == list(range(len(ids)))


def test_bad_index_on_one_rank_fails_on_every_rank(comm: Communicator) -> None:
    n = 20
    offsets = block_partition(n, comm.size)
    start, stop = int(offsets[comm.rank]), int(offsets[comm.rank + 1])
    local_indptr, local_indices = csr_rows(*ring(n), start, stop)
    last = comm.size - 1
    if comm.rank == last:
        local_indices = local_indices.copy()
        local_indices[0] = n + 5
    with pytest.raises(InvalidParameter, match=rf"rank {last}: local_indices\[0\] = 25"):
        HaloPlan.build(local_indptr, local_indices, offsets)


def test_ranks_that_disagree_on_offsets_fail_on_every_rank(comm: Communicator) -> None:
    n = 24
    offsets = block_partition(n, comm.size)
    if comm.rank == 1:  # rank 1 believes its block starts one row later
        offsets = offsets.copy()
        offsets[1] += 1
    start, stop = int(offsets[comm.rank]), int(offsets[comm.rank + 1])
    with pytest.raises(InvalidParameter, match="do all ranks pass the same offsets"):
        HaloPlan.build(*csr_rows(*ring(n), start, stop), offsets)
