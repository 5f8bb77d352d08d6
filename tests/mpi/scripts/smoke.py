"""Queue, reductions, gathers and a halo exchange against their single-process answers.

Every rank prints ``ok <rank> <size>``; a mismatch raises, which aborts the whole job.
"""

from __future__ import annotations

import numpy as np

from stratagem.mpi import (
    HaloPlan,
    allgather_blocks,
    allreduce,
    bcast_array,
    block_partition,
    csr_rows,
    run_queue,
    world,
)


def main() -> None:
    comm = world()
    n = 101
    offsets = block_partition(n, comm.size)
    start, stop = int(offsets[comm.rank]), int(offsets[comm.rank + 1])
    own = np.arange(start, stop)

    squares = run_queue(range(50), lambda t: np.full(t % 4, t * t))
    assert all(len(a) == t % 4 and (a == t * t).all() for t, a in enumerate(squares))

    assert allgather_blocks(own).tolist() == list(range(n))
    counts = allreduce(np.bincount(own % 7, minlength=7))
    assert np.array_equal(counts, np.bincount(np.arange(n) % 7))
    assert bcast_array(own if comm.rank == 0 else None).tolist() == list(range(offsets[1]))

    # A ring with chords i -> i + 10: ghosts on both sides of every block.
    ids = np.arange(n)
    src = np.r_[ids, ids, ids, ids]
    dst = np.r_[(ids + 1) % n, (ids - 1) % n, (ids + 10) % n, (ids - 10) % n]
    order = np.lexsort((dst, src))
    indptr = np.r_[0, np.cumsum(np.bincount(src, minlength=n))]
    indices = dst[order]
    local_indptr, local_indices = csr_rows(indptr, indices, start, stop)
    plan = HaloPlan.build(local_indptr, local_indices, offsets)
    values = np.stack([own, own * 2], axis=1).astype(np.float64)
    neighbours = plan.with_ghosts(values)[plan.column_slots]
    assert np.array_equal(neighbours[:, 0], local_indices)
    assert np.array_equal(neighbours[:, 1], local_indices * 2)

    print("ok", comm.rank, comm.size, flush=True)


if __name__ == "__main__":
    main()
