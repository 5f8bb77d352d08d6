"""Communicators: one interface for a single process and for ``mpiexec -n N``."""

from __future__ import annotations

import os
import sys
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import (
    TYPE_CHECKING,
    Any,
    Final,
    Literal,
    NoReturn,
    TypeVar,
    cast,
)

import numpy as np
from numpy.typing import NDArray

from stratagem.errors import InvalidParameter

if TYPE_CHECKING:
    from mpi4py import MPI

T = TypeVar("T")

ReduceOp = Literal["sum", "max", "min"]

#: Seconds an aborting rank leaves the launcher to forward what the rank printed.
ABORT_GRACE: Final = 0.5

#: Seconds a waiting rank sleeps between polls: short enough to add little latency, long
#: enough that an idle rank leaves its core to the ranks that compute (oversubscribed runs).
POLL_INTERVAL: Final = 0.0005

# Tags of the point-to-point messages; collectives need none. Each protocol drains its own
# messages before it returns, so distinct tags only guard against user traffic on the world.
_TAG_REQUEST: Final = 0x5301
_TAG_TASK: Final = 0x5302
_TAG_HALO: Final = 0x5303
_TAG_NEIGHBORS: Final = 0x5304


# Reductions MPI defines for these dtypes (bool is reduced as uint8: MPI has no MAX on C_BOOL).
_REDUCIBLE: Final = frozenset(
    np.dtype(name)
    for name in (
        "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
        "float32", "float64", "complex64", "complex128",
    )
)  # fmt: skip


# --------------------------------------------------------------------------------------------
# Communicators


class Request:
    """A pending non-blocking operation: an ``MPI.Request``, or nothing when already complete."""

    __slots__ = ("handle",)

    def __init__(self, handle: MPI.Request | None = None) -> None:
        self.handle = handle

    def test(self) -> bool:
        """Whether the operation has completed (and let MPI progress if it has not)."""
        return self.handle is None or self.handle.Test()

    def wait_quietly(self) -> None:
        """Wait by polling with short sleeps, so a waiting rank does not spin a core at 100%."""
        while not self.test():
            time.sleep(POLL_INTERVAL)


class Communicator(ABC):
    """The interface every primitive uses: a group of ``size`` ranks, this one being ``rank``.

    Byte-level methods move C-contiguous ``uint8`` views of numpy arrays, so any fixed-size
    dtype (structured ones included) travels without pickling; counts are in bytes.
    """

    def __init__(
        self,
        *,
        rank: int,
        size: int,
        mpi_available: bool,
        library_version: str | None,
        mpi_standard: str | None,
        ranks_on_host: int = 1,
    ) -> None:
        self.rank = rank
        self.size = size
        #: The ranks of this group on this rank's host (itself included): they share its cores.
        self.ranks_on_host = ranks_on_host
        self.mpi_available = mpi_available
        self.library_version = library_version
        self.mpi_standard = mpi_standard

    @property
    def is_distributed(self) -> bool:
        """True when the work is spread over more than one process."""
        return self.size > 1

    def __repr__(self) -> str:
        return f"{type(self).__name__}(rank={self.rank}, size={self.size})"

    def barrier(self) -> None:
        """Wait for every rank, polling so that waiting ranks do not spin."""
        self.ibarrier().wait_quietly()

    @abstractmethod
    def ibarrier(self) -> Request:
        """Start a non-blocking barrier."""

    @abstractmethod
    def allreduce_inplace(self, buffer: NDArray[Any], op: ReduceOp) -> None:
        """Reduce ``buffer`` element-wise over all ranks, leaving the result in it everywhere."""

    @abstractmethod
    def iallreduce_inplace(self, buffer: NDArray[Any], op: ReduceOp) -> Request:
        """Start :meth:`allreduce_inplace`; ``buffer`` holds the result once the request is
        complete (wait for it with :meth:`waitall`, alone or with other requests)."""

    @abstractmethod
    def bcast_bytes(self, buffer: NDArray[np.uint8], root: int) -> None:
        """Copy ``root``'s buffer into every rank's buffer of the same length."""

    @abstractmethod
    def allgatherv_bytes(
        self, send: NDArray[np.uint8], recv: NDArray[np.uint8], counts: NDArray[np.int64]
    ) -> None:
        """Concatenate every rank's ``send`` (``counts[r]`` bytes from rank r) into ``recv``."""

    @abstractmethod
    def gatherv_bytes(
        self,
        send: NDArray[np.uint8],
        recv: NDArray[np.uint8] | None,
        counts: NDArray[np.int64],
        root: int,
    ) -> None:
        """Like :meth:`allgatherv_bytes` but only ``root`` receives (others pass ``None``)."""

    @abstractmethod
    def alltoall_counts(self, send: NDArray[np.int64]) -> NDArray[np.int64]:
        """Send ``send[q]`` to rank q; return what each rank sent to this one."""

    @abstractmethod
    def alltoallv_bytes(
        self,
        send: NDArray[np.uint8],
        send_counts: NDArray[np.int64],
        recv: NDArray[np.uint8],
        recv_counts: NDArray[np.int64],
    ) -> None:
        """Personalised all-to-all: consecutive segments of ``send`` go to ranks 0, 1, ..."""

    @abstractmethod
    def isend(self, buffer: NDArray[Any], dest: int, tag: int) -> Request:
        """Start sending a contiguous buffer to another rank."""

    @abstractmethod
    def irecv(self, buffer: NDArray[Any], source: int, tag: int) -> Request:
        """Start receiving into a contiguous buffer from another rank."""

    @abstractmethod
    def send(self, buffer: NDArray[Any], dest: int, tag: int) -> None:
        """Send a (small) contiguous buffer to another rank."""

    @abstractmethod
    def recv(self, buffer: NDArray[Any], source: int, tag: int) -> None:
        """Receive into a contiguous buffer from another rank."""

    @abstractmethod
    def iprobe(self, tag: int) -> int | None:
        """The source rank of a pending message with ``tag``, or ``None`` if there is none."""

    @abstractmethod
    def waitall(self, requests: Sequence[Request]) -> None:
        """Complete all ``requests`` (for short waits, such as a halo exchange)."""

    @abstractmethod
    def bcast_object(self, obj: T, root: int = 0) -> T:
        """Broadcast a small picklable object (control messages only)."""

    @abstractmethod
    def allgather_object(self, obj: T) -> list[T]:
        """Every rank's small picklable object, in rank order (control messages only)."""

    @abstractmethod
    def abort(self, code: int = 1) -> NoReturn:
        """End the whole job with exit status ``code``."""

    @abstractmethod
    def all_failed(self, wait: float) -> bool:
        """Called by a rank that has failed: whether every rank reports a failure within
        ``wait`` seconds (the same bad input fails everywhere at once), so that one rank can
        speak for all; False means some rank goes on, and the job must be aborted."""


class SerialCommunicator(Communicator):
    """Rank 0 of a one-process world: collectives are copies and there is no peer to message."""

    def __init__(
        self,
        *,
        mpi_available: bool = False,
        library_version: str | None = None,
        mpi_standard: str | None = None,
    ) -> None:
        super().__init__(
            rank=0,
            size=1,
            mpi_available=mpi_available,
            library_version=library_version,
            mpi_standard=mpi_standard,
        )

    def ibarrier(self) -> Request:
        return Request()

    def allreduce_inplace(self, buffer: NDArray[Any], op: ReduceOp) -> None:
        return None  # the reduction of one contribution is itself

    def iallreduce_inplace(self, buffer: NDArray[Any], op: ReduceOp) -> Request:
        return Request()  # complete already: the reduction of one contribution is itself

    def bcast_bytes(self, buffer: NDArray[np.uint8], root: int) -> None:
        return None

    def allgatherv_bytes(
        self, send: NDArray[np.uint8], recv: NDArray[np.uint8], counts: NDArray[np.int64]
    ) -> None:
        recv[:] = send

    def gatherv_bytes(
        self,
        send: NDArray[np.uint8],
        recv: NDArray[np.uint8] | None,
        counts: NDArray[np.int64],
        root: int,
    ) -> None:
        if recv is not None:
            recv[:] = send

    def alltoall_counts(self, send: NDArray[np.int64]) -> NDArray[np.int64]:
        return send.copy()

    def alltoallv_bytes(
        self,
        send: NDArray[np.uint8],
        send_counts: NDArray[np.int64],
        recv: NDArray[np.uint8],
        recv_counts: NDArray[np.int64],
    ) -> None:
        recv[:] = send

    # The layer's protocols never message their own rank, so with one rank there is no valid
    # destination or source: refuse instead of blocking forever.
    def _no_peer(self, what: str, peer: int) -> NoReturn:
        raise InvalidParameter(
            f"{what}: rank {peer} is not another rank of this one-process world (size 1)"
        )

    def isend(self, buffer: NDArray[Any], dest: int, tag: int) -> Request:
        self._no_peer("isend", dest)

    def irecv(self, buffer: NDArray[Any], source: int, tag: int) -> Request:
        self._no_peer("irecv", source)

    def send(self, buffer: NDArray[Any], dest: int, tag: int) -> None:
        self._no_peer("send", dest)

    def recv(self, buffer: NDArray[Any], source: int, tag: int) -> None:
        self._no_peer("recv", source)

    def iprobe(self, tag: int) -> int | None:
        return None

    def waitall(self, requests: Sequence[Request]) -> None:
        return None  # every request of a serial world is complete when created

    def bcast_object(self, obj: T, root: int = 0) -> T:
        return obj

    def allgather_object(self, obj: T) -> list[T]:
        return [obj]

    def abort(self, code: int = 1) -> NoReturn:
        raise SystemExit(code)

    def all_failed(self, wait: float) -> bool:
        return True


class MPICommunicator(Communicator):
    """An mpi4py communicator (normally ``COMM_WORLD``) behind the :class:`Communicator` API."""

    def __init__(self, comm: MPI.Comm) -> None:
        from mpi4py import MPI

        version, subversion = MPI.Get_version()
        # The ranks that can share memory with this one are those on its host.
        same_host = comm.Split_type(MPI.COMM_TYPE_SHARED)
        ranks_on_host = same_host.Get_size()
        same_host.Free()
        super().__init__(
            rank=comm.Get_rank(),
            size=comm.Get_size(),
            mpi_available=True,
            library_version=_first_line(MPI.Get_library_version()),
            mpi_standard=f"{version}.{subversion}",
            ranks_on_host=ranks_on_host,
        )
        self.comm = comm
        self._mpi = MPI
        self._ops = {"sum": MPI.SUM, "max": MPI.MAX, "min": MPI.MIN}
        # A communicator for failures alone: its barrier cannot meet any other collective.
        self._failures = comm.Dup()

    def ibarrier(self) -> Request:
        return Request(self.comm.Ibarrier())

    def allreduce_inplace(self, buffer: NDArray[Any], op: ReduceOp) -> None:
        self.comm.Allreduce(self._mpi.IN_PLACE, buffer, self._ops[op])

    def iallreduce_inplace(self, buffer: NDArray[Any], op: ReduceOp) -> Request:
        return Request(self.comm.Iallreduce(self._mpi.IN_PLACE, buffer, self._ops[op]))

    def bcast_bytes(self, buffer: NDArray[np.uint8], root: int) -> None:
        self.comm.Bcast([buffer, self._mpi.BYTE], root=root)

    def allgatherv_bytes(
        self, send: NDArray[np.uint8], recv: NDArray[np.uint8], counts: NDArray[np.int64]
    ) -> None:
        self.comm.Allgatherv(
            [send, self._mpi.BYTE], [recv, counts, _displacements(counts), self._mpi.BYTE]
        )

    def gatherv_bytes(
        self,
        send: NDArray[np.uint8],
        recv: NDArray[np.uint8] | None,
        counts: NDArray[np.int64],
        root: int,
    ) -> None:
        spec = None if recv is None else [recv, counts, _displacements(counts), self._mpi.BYTE]
        self.comm.Gatherv([send, self._mpi.BYTE], spec, root=root)

    def alltoall_counts(self, send: NDArray[np.int64]) -> NDArray[np.int64]:
        recv = np.empty_like(send)
        self.comm.Alltoall([send, self._mpi.INT64_T], [recv, self._mpi.INT64_T])
        return recv

    def alltoallv_bytes(
        self,
        send: NDArray[np.uint8],
        send_counts: NDArray[np.int64],
        recv: NDArray[np.uint8],
        recv_counts: NDArray[np.int64],
    ) -> None:
        self.comm.Alltoallv(
            [send, send_counts, _displacements(send_counts), self._mpi.BYTE],
            [recv, recv_counts, _displacements(recv_counts), self._mpi.BYTE],
        )

    def isend(self, buffer: NDArray[Any], dest: int, tag: int) -> Request:
        return Request(self.comm.Isend(buffer, dest=dest, tag=tag))

    def irecv(self, buffer: NDArray[Any], source: int, tag: int) -> Request:
        return Request(self.comm.Irecv(buffer, source=source, tag=tag))

    def send(self, buffer: NDArray[Any], dest: int, tag: int) -> None:
        self.comm.Send(buffer, dest=dest, tag=tag)

    def recv(self, buffer: NDArray[Any], source: int, tag: int) -> None:
        self.comm.Recv(buffer, source=source, tag=tag)

    def iprobe(self, tag: int) -> int | None:
        status = self._mpi.Status()
        if self.comm.Iprobe(source=self._mpi.ANY_SOURCE, tag=tag, status=status):
            return status.Get_source()
        return None

    def waitall(self, requests: Sequence[Request]) -> None:
        handles = [r.handle for r in requests if r.handle is not None]
        if handles:
            self._mpi.Request.Waitall(handles)

    def bcast_object(self, obj: T, root: int = 0) -> T:
        return cast(T, self.comm.bcast(obj, root=root))

    def allgather_object(self, obj: T) -> list[T]:
        return cast(list[T], self.comm.allgather(obj))

    def all_failed(self, wait: float) -> bool:
        request = self._failures.Ibarrier()
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if request.Test():
                return True
            time.sleep(POLL_INTERVAL)
        return False

    def abort(self, code: int = 1) -> NoReturn:
        # Abort makes the launcher kill every rank at once; what this rank printed must reach
        # the launcher first (MPICH's Hydra otherwise loses it now and then).
        sys.stdout.flush()
        sys.stderr.flush()
        time.sleep(ABORT_GRACE)
        self._mpi.COMM_WORLD.Abort(code)
        # MPI_Abort may return on this rank (MPICH with the fork launcher now and then does);
        # the rank must not go on as if nothing had failed.
        os._exit(code)


def _first_line(text: str) -> str:
    lines = text.strip().splitlines()
    return " ".join(lines[0].split()) if lines else ""


def _displacements(counts: NDArray[np.int64]) -> NDArray[np.int64]:
    displs = np.zeros_like(counts)
    np.cumsum(counts[:-1], out=displs[1:])
    return displs
