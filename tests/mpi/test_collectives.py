"""Partitions, reductions, broadcasts and gathers under mpiexec: every rank computes the
single-process answer from the full data and compares it with the collective's result."""

from __future__ import annotations

import os
import socket

import numpy as np
import pytest

from stratagem import _core
from stratagem.errors import InvalidParameter
from stratagem.mpi import (
    Communicator,
    MPICommunicator,
    ReduceOp,
    allgather_blocks,
    allreduce,
    bcast_array,
    block_partition,
    block_range,
    gather_blocks,
    owner_of,
)

RECORD = np.dtype([("id", np.int32), ("score", np.float64), ("flag", np.bool_)])


def contribution(rank: int, dtype: np.dtype, shape: tuple[int, ...] = (5, 3)) -> np.ndarray:
    """What rank ``rank`` contributes to a reduction: a deterministic function of the rank."""
    values = (np.arange(np.prod(shape)).reshape(shape) * (rank + 3)) % 11 + rank
    return values.astype(dtype)


def test_ranks_on_one_host_share_its_cores(comm: Communicator) -> None:
    hosts = comm.allgather_object(socket.gethostname())
    here = hosts.count(socket.gethostname())
    assert comm.ranks_on_host == here
    if os.environ.get("STRATAGEM_NUM_THREADS") is None:
        assert _core.resolve_threads() == max(1, _core.default_threads() // here)
    assert _core.resolve_threads(3) == 3


def test_world_is_mpi_and_ranks_are_distinct(comm: Communicator) -> None:
    ranks = comm.allgather_object(comm.rank)
    assert isinstance(comm, MPICommunicator)
    assert comm.is_distributed
    assert comm.mpi_available
    assert comm.library_version
    assert ranks == list(range(comm.size))
    assert comm.size == int(os.environ["PMI_SIZE"])


@pytest.mark.parametrize("n", [0, 1, 3, 4, 17, 1000])
def test_blocks_cover_the_range_in_rank_order(comm: Communicator, n: int) -> None:
    offsets = block_partition(n, comm.size)
    start, stop = block_range(n, comm.rank, comm.size)
    gathered = allgather_blocks(np.arange(start, stop))
    owners = owner_of(gathered, offsets)
    assert (start, stop) == (offsets[comm.rank], offsets[comm.rank + 1])
    assert gathered.tolist() == list(range(n))
    assert np.array_equal(owners, np.repeat(np.arange(comm.size), np.diff(offsets)))


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.bool_, RECORD])
def test_allgather_blocks_of_uneven_2d_blocks(comm: Communicator, dtype: np.dtype) -> None:
    # rank r holds r rows (rank 0 none), so the counts really vary
    blocks = [np.zeros((r, 2), dtype=dtype) for r in range(comm.size)]
    for r, block in enumerate(blocks):
        block.reshape(-1).view(np.uint8)[:] = (np.arange(block.nbytes) * (r + 1)) % 251
    gathered = allgather_blocks(blocks[comm.rank])
    assert gathered.dtype == np.dtype(dtype)
    assert gathered.view(np.uint8).tobytes() == np.concatenate(blocks).view(np.uint8).tobytes()


@pytest.mark.parametrize("root_from_end", [False, True])
def test_gather_blocks_only_on_root(comm: Communicator, root_from_end: bool) -> None:
    root = comm.size - 1 if root_from_end else 0
    blocks = [np.arange(3 * r, 3 * r + r + 2, dtype=np.float64) for r in range(comm.size)]
    gathered = gather_blocks(blocks[comm.rank], root=root)
    if comm.rank == root:
        assert gathered is not None
        assert np.array_equal(gathered, np.concatenate(blocks))
    else:
        assert gathered is None


@pytest.mark.parametrize(
    ("dtype", "op"),
    [
        (np.int64, "sum"),
        (np.int64, "max"),
        (np.int32, "min"),
        (np.uint8, "max"),
        (np.float64, "sum"),  # small integers: exact in any summation order
        (np.float32, "min"),
        (np.complex128, "sum"),
    ],
)
def test_allreduce_matches_the_local_reduction(
    comm: Communicator, dtype: type, op: ReduceOp
) -> None:
    parts = np.stack([contribution(r, np.dtype(dtype)) for r in range(comm.size)])
    expected = {"sum": parts.sum(axis=0), "max": parts.max(axis=0), "min": parts.min(axis=0)}[op]
    mine = contribution(comm.rank, np.dtype(dtype))
    result = allreduce(mine, op)
    inplace = mine.copy()
    returned = allreduce(inplace, op, inplace=True)
    assert np.array_equal(mine, contribution(comm.rank, np.dtype(dtype)))  # untouched
    assert result.dtype == np.dtype(dtype)
    assert np.array_equal(result, expected.astype(dtype))
    assert returned is inplace
    assert np.array_equal(inplace, result)


def test_allreduce_of_bools_is_any_and_all(comm: Communicator) -> None:
    flags = np.array([comm.rank == 1, True, False, comm.rank % 2 == 0])
    anywhere = allreduce(flags, "max")
    everywhere = allreduce(flags, "min")
    assert anywhere.dtype == np.bool_
    assert anywhere.tolist() == [True, True, False, True]
    assert everywhere.tolist() == [False, True, False, False]


@pytest.mark.parametrize("root_from_end", [False, True])
def test_bcast_array_from_any_root(comm: Communicator, root_from_end: bool) -> None:
    root = comm.size - 1 if root_from_end else 0
    table = np.zeros((4, 3), dtype=RECORD)
    table["id"] = np.arange(12).reshape(4, 3)
    table["score"] = 0.5 * table["id"]
    table["flag"] = table["id"] % 2 == 1
    scalar = np.float64(2.5)
    got_table = bcast_array(table if comm.rank == root else None, root=root)
    got_scalar = bcast_array(scalar if comm.rank == root else None, root=root)
    assert got_table.dtype == RECORD
    assert got_table.tobytes() == table.tobytes()
    assert got_scalar.shape == ()
    assert got_scalar == 2.5


def test_invalid_root_input_fails_on_every_rank(comm: Communicator) -> None:
    # Only the root's argument counts; its error is broadcast so no rank waits for data.
    with pytest.raises(InvalidParameter, match="root rank 0 passed None"):
        bcast_array(None if comm.rank == 0 else np.ones(3), root=0)


def test_mismatched_blocks_fail_on_every_rank(comm: Communicator) -> None:
    block = np.ones(2, dtype=np.float32 if comm.rank == 1 else np.float64)
    with pytest.raises(InvalidParameter, match="rank 1 has dtype float32"):
        allgather_blocks(block)


def test_a_bad_block_on_one_rank_fails_on_every_rank(comm: Communicator) -> None:
    last = comm.size - 1
    block: object = np.array([{"x": 1}], dtype=object) if comm.rank == last else np.ones(1)
    with pytest.raises(InvalidParameter, match=f"rank {last}: block must have a fixed-size"):
        gather_blocks(block)
