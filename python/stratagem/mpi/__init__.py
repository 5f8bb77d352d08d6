"""The MPI layer: one code path for a single process and for ``mpiexec -n N``.

Every primitive here takes a :class:`Communicator`. Under an MPI launcher with more than one
rank, :func:`world` wraps ``mpi4py.MPI.COMM_WORLD``; otherwise it is a
:class:`SerialCommunicator` (rank 0 of 1) with the same interface, so a game calls the same
functions either way and the single-process run is simply the ``size == 1`` case.

mpi4py initialises MPI when it is imported, so it is imported only when the environment shows a
launcher (``PMI_RANK``, ``PMI_SIZE``, ``PMIX_RANK``, ``OMPI_COMM_WORLD_SIZE``,
``MPI_LOCALNRANKS`` or ``HYDI_CONTROL_FD``) or when ``STRATAGEM_MPI=1``; ``STRATAGEM_MPI=0``
forces one process. Data moves in typed numpy buffers through mpi4py's upper-case calls; the
pickling lower-case calls carry only small control messages. ``docs/mpi.md`` describes the
message patterns.

>>> from stratagem import mpi
>>> mpi.block_partition(10, 3).tolist()
[0, 4, 7, 10]
>>> mpi.owner_of([0, 4, 9], mpi.block_partition(10, 3)).tolist()
[0, 1, 2]
>>> mpi.run_queue(range(4), lambda i: i * i)
[0, 1, 4, 9]
"""

from stratagem._launcher import LAUNCHER_VARIABLES, launcher_detected
from stratagem.mpi.collectives import (
    allgather_blocks,
    allreduce,
    bcast_array,
    block_partition,
    block_range,
    csr_rows,
    gather_blocks,
    owner_of,
)
from stratagem.mpi.communicator import (
    POLL_INTERVAL,
    Communicator,
    MPICommunicator,
    ReduceOp,
    Request,
    SerialCommunicator,
)
from stratagem.mpi.halo import HaloPlan, exchange_with_neighbors
from stratagem.mpi.launch import (
    MPIInfo,
    abort_on_error,
    checked_together,
    mpi_info,
    mpi_requested,
    same_command,
    threads_variable_checked,
    world,
)
from stratagem.mpi.queue import run_queue

__all__ = [
    "LAUNCHER_VARIABLES",
    "POLL_INTERVAL",
    "Communicator",
    "HaloPlan",
    "MPICommunicator",
    "MPIInfo",
    "ReduceOp",
    "Request",
    "SerialCommunicator",
    "abort_on_error",
    "allgather_blocks",
    "allreduce",
    "bcast_array",
    "block_partition",
    "block_range",
    "checked_together",
    "csr_rows",
    "exchange_with_neighbors",
    "gather_blocks",
    "launcher_detected",
    "mpi_info",
    "mpi_requested",
    "owner_of",
    "run_queue",
    "same_command",
    "threads_variable_checked",
    "world",
]
