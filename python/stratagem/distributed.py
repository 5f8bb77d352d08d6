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

>>> from stratagem import distributed
>>> distributed.block_partition(10, 3).tolist()
[0, 4, 7, 10]
>>> distributed.owner_of([0, 4, 9], distributed.block_partition(10, 3)).tolist()
[0, 1, 2]
>>> distributed.run_queue(range(4), lambda i: i * i)
[0, 1, 4, 9]
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import math
import os
import sys
import threading
import time
import traceback
import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import TracebackType
from typing import (
    TYPE_CHECKING,
    Any,
    Final,
    Literal,
    NamedTuple,
    NoReturn,
    TypedDict,
    TypeVar,
    cast,
)

import numpy as np
from numpy.typing import ArrayLike, NDArray

from stratagem import _validate, errors
from stratagem.errors import InvalidParameter, StratagemError

if TYPE_CHECKING:
    from mpi4py import MPI

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
    "world",
]

T = TypeVar("T")
R = TypeVar("R")

ReduceOp = Literal["sum", "max", "min"]

#: Environment variables set by mpiexec/mpirun (MPICH Hydra, PMIx, Open MPI).
LAUNCHER_VARIABLES: Final = (
    "PMI_RANK",
    "PMI_SIZE",
    "PMIX_RANK",
    "OMPI_COMM_WORLD_SIZE",
    "MPI_LOCALNRANKS",
    "HYDI_CONTROL_FD",
)

#: Seconds a waiting rank sleeps between polls: short enough to add little latency, long
#: enough that an idle rank leaves its core to the ranks that compute (oversubscribed runs).
POLL_INTERVAL: Final = 0.0005

# Tags of the point-to-point messages; collectives need none. Each protocol drains its own
# messages before it returns, so distinct tags only guard against user traffic on the world.
_TAG_REQUEST: Final = 0x5301
_TAG_TASK: Final = 0x5302
_TAG_HALO: Final = 0x5303
_TAG_NEIGHBORS: Final = 0x5304

_ABORT_GRACE: Final = 0.2  # seconds between printing a failing rank's error and aborting

_STOP: Final = -1  # the task index that tells a worker the queue is empty

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
    ) -> None:
        self.rank = rank
        self.size = size
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
        super().__init__(
            rank=comm.Get_rank(),
            size=comm.Get_size(),
            mpi_available=True,
            library_version=_first_line(MPI.Get_library_version()),
            mpi_standard=f"{version}.{subversion}",
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


# --------------------------------------------------------------------------------------------
# Detecting the launcher and creating the world


def launcher_detected(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the environment shows an MPI launcher (``mpiexec``/``mpirun``)."""
    env = os.environ if environ is None else environ
    return any(name in env for name in LAUNCHER_VARIABLES)


def mpi_requested(environ: Mapping[str, str] | None = None) -> bool:
    """Whether to initialise MPI: ``STRATAGEM_MPI`` (``1``/``0``) if set, else a launcher."""
    env = os.environ if environ is None else environ
    flag = env.get("STRATAGEM_MPI", "").strip()
    if flag == "1":
        return True
    if flag == "0":
        return False
    if flag:
        raise InvalidParameter(f"STRATAGEM_MPI must be 0 or 1, got {flag!r}")
    return launcher_detected(env)


def _mpi4py_available() -> bool:
    return importlib.util.find_spec("mpi4py") is not None


def _create_world(environ: Mapping[str, str]) -> Communicator:
    available = _mpi4py_available()
    if not mpi_requested(environ):
        return SerialCommunicator(mpi_available=available)
    if not available:
        if environ.get("STRATAGEM_MPI", "").strip() == "1":
            raise InvalidParameter(
                "STRATAGEM_MPI=1 but mpi4py is not installed; pip install 'stratagem[mpi]'"
            )
        warnings.warn(
            "running under an MPI launcher but mpi4py is not installed, so every rank runs "
            "the whole job alone; pip install 'stratagem[mpi]'",
            RuntimeWarning,
            stacklevel=3,
        )
        return SerialCommunicator(mpi_available=False)
    from mpi4py import MPI

    comm = MPICommunicator(MPI.COMM_WORLD)
    if not comm.is_distributed:
        # mpiexec -n 1: MPI is up, but one rank takes the serial path like a plain run.
        return SerialCommunicator(
            mpi_available=True,
            library_version=comm.library_version,
            mpi_standard=comm.mpi_standard,
        )
    _install_excepthook(comm)
    return comm


_world: Communicator | None = None
_world_lock = threading.Lock()


def world() -> Communicator:
    """The communicator of all processes of this job, created (and cached) on first use.

    Under a launcher with more than one rank this initialises MPI and installs an excepthook
    that aborts the whole job when any rank dies of an uncaught exception.
    """
    global _world  # noqa: PLW0603 - one world per process, created lazily on purpose
    with _world_lock:
        if _world is None:
            _world = _create_world(os.environ)
        return _world


def _resolve(comm: Communicator | None) -> Communicator:
    return world() if comm is None else comm


class MPIInfo(TypedDict):
    """What :func:`mpi_info` reports (JSON-ready)."""

    mpi_available: bool
    mpi4py_version: str | None
    launcher_detected: bool
    distributed: bool
    world_size: int
    rank: int
    library_version: str | None
    mpi_standard: str | None


def mpi_info() -> MPIInfo:
    """A description of the MPI setup for ``stratagem info``; initialises the world."""
    comm = world()
    try:
        mpi4py_version: str | None = importlib.metadata.version("mpi4py")
    except importlib.metadata.PackageNotFoundError:
        mpi4py_version = None
    return MPIInfo(
        mpi_available=comm.mpi_available,
        mpi4py_version=mpi4py_version,
        launcher_detected=launcher_detected(),
        distributed=comm.is_distributed,
        world_size=comm.size,
        rank=comm.rank,
        library_version=comm.library_version,
        mpi_standard=comm.mpi_standard,
    )


# --------------------------------------------------------------------------------------------
# Failure handling


def _report_and_abort(
    comm: Communicator,
    exc_type: type[BaseException],
    exc: BaseException,
    tb: TracebackType | None,
) -> None:
    text = "".join(traceback.format_exception(exc_type, exc, tb))
    sys.stderr.write(
        f"stratagem: error on MPI rank {comm.rank} of {comm.size}; aborting all ranks\n{text}"
    )
    sys.stderr.flush()
    # Abort makes the launcher kill every rank at once; give it a moment to forward the
    # text above first (MPICH's Hydra otherwise loses it now and then).
    time.sleep(_ABORT_GRACE)
    comm.abort(1)


def _install_excepthook(comm: Communicator) -> None:
    # Like `python -m mpi4py`: a rank that dies must take the job down with it, otherwise
    # the other ranks wait forever in their next collective.
    def hook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        _report_and_abort(comm, exc_type, exc, tb)

    sys.excepthook = hook


@contextmanager
def abort_on_error(comm: Communicator | None = None) -> Iterator[None]:
    """Abort the whole MPI job (exit status 1) if the body raises on any rank.

    The traceback is printed to stderr with the rank first. In one process the exception
    simply propagates; so does ``SystemExit`` with status 0 or ``None``.
    """
    try:
        yield
    except BaseException as exc:
        if isinstance(exc, SystemExit) and exc.code in (0, None):
            raise
        resolved = _resolve(comm)
        if not resolved.is_distributed:
            raise
        _report_and_abort(resolved, type(exc), exc, exc.__traceback__)
        raise  # only if the abort returned: never go on as if the body had succeeded


# --------------------------------------------------------------------------------------------
# Validation helpers


def _check_rank(name: str, value: object, comm: Communicator) -> int:
    return _validate.integer(name, value, 0, comm.size - 1)


def _plain_array(name: str, value: ArrayLike) -> NDArray[Any]:
    """``value`` as a numpy array whose bytes can travel as they are (no Python objects)."""
    array = np.asarray(value)
    if array.dtype.hasobject:
        raise InvalidParameter(
            f"{name} must have a fixed-size dtype to be sent as bytes, got dtype {array.dtype}"
        )
    return array


def _as_bytes(array: NDArray[Any]) -> NDArray[np.uint8]:
    """A ``uint8`` view of a C-contiguous array (a copy first if it is not contiguous)."""
    return np.ascontiguousarray(array).reshape(-1).view(np.uint8)


def _int_array(name: str, value: ArrayLike, ndim: int) -> NDArray[np.int64]:
    array = np.asarray(value)
    if array.size == 0 and not np.issubdtype(array.dtype, np.integer):
        array = array.astype(np.int64)  # an empty list arrives as float64
    if not np.issubdtype(array.dtype, np.integer):
        raise InvalidParameter(f"{name} must hold integers, got dtype {array.dtype}")
    if array.ndim != ndim:
        raise InvalidParameter(f"{name} must have {ndim} dimension(s), got shape {array.shape}")
    if array.dtype == np.uint64 and array.size and int(array.max()) > np.iinfo(np.int64).max:
        raise InvalidParameter(f"{name} holds {int(array.max())}, beyond the int64 range")
    return array.astype(np.int64, copy=False)


def _check_offsets(offsets: ArrayLike, size: int | None = None) -> NDArray[np.int64]:
    offs = _int_array("offsets", offsets, 1)
    if len(offs) < 2:
        raise InvalidParameter(f"offsets must hold at least 2 entries, got {len(offs)}")
    if size is not None and len(offs) != size + 1:
        raise InvalidParameter(
            f"offsets must hold size + 1 = {size + 1} entries (one block per rank), got {len(offs)}"
        )
    if offs[0] != 0:
        raise InvalidParameter(f"offsets[0] must be 0, got {int(offs[0])}")
    drops = np.flatnonzero(np.diff(offs) < 0)
    if len(drops):
        i = int(drops[0])
        raise InvalidParameter(
            f"offsets must not decrease: offsets[{i}] = {int(offs[i])} > "
            f"offsets[{i + 1}] = {int(offs[i + 1])}"
        )
    return offs


def _combined_error(
    messages: Sequence[str | None], kind: type[StratagemError] = InvalidParameter
) -> StratagemError:
    """One error naming every rank whose message is not ``None``."""
    failed = [(rank, text) for rank, text in enumerate(messages) if text is not None]
    return kind("; ".join(f"rank {rank}: {text}" for rank, text in failed))


def checked_together(comm: Communicator, check: Callable[[], T]) -> T:
    """Run a local step that may raise :class:`StratagemError` on every rank, and raise on
    every rank if it failed on any, so that bad input on one rank never leaves the others
    waiting in the next collective. The error names each rank that failed; its class is the
    failing ranks' class when they agree (else :class:`StratagemError`)."""
    failure: tuple[str, str] | None = None
    try:
        value = check()
    except StratagemError as exc:
        if comm.size == 1:
            raise
        failure = (type(exc).__name__, str(exc))
        local: StratagemError | None = exc
    else:
        local = None
    reports = comm.allgather_object(failure)
    failed = [report for report in reports if report is not None]
    if not failed:
        return value
    kinds = {name for name, _ in failed}
    kind = getattr(errors, kinds.pop(), StratagemError) if len(kinds) == 1 else StratagemError
    combined = _combined_error([None if r is None else r[1] for r in reports], kind)
    raise combined from local


# --------------------------------------------------------------------------------------------
# Block partitions


def block_partition(n: int, size: int) -> NDArray[np.int64]:
    """Offsets (``size + 1`` of them) of ``n`` items cut into ``size`` contiguous blocks.

    Block r is ``offsets[r]:offsets[r + 1]``; the first ``n % size`` blocks get one extra item.
    """
    n = _validate.integer("n", n, 0)
    size = _validate.integer("size", size, 1)
    base, extra = divmod(n, size)
    counts = np.full(size, base, dtype=np.int64)
    counts[:extra] += 1
    offsets = np.zeros(size + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return offsets


def block_range(n: int, rank: int, size: int) -> tuple[int, int]:
    """``(start, stop)`` of block ``rank`` of :func:`block_partition` ``(n, size)``."""
    n = _validate.integer("n", n, 0)
    size = _validate.integer("size", size, 1)
    rank = _validate.integer("rank", rank, 0, size - 1)
    base, extra = divmod(n, size)
    start = rank * base + min(rank, extra)
    return start, start + base + (1 if rank < extra else 0)


def owner_of(indices: ArrayLike, offsets: ArrayLike) -> NDArray[np.int64]:
    """The block (rank) that holds each index, for blocks given by ``offsets`` (vectorised)."""
    offs = _check_offsets(offsets)
    idx = _int_array("indices", indices, np.ndim(indices))
    bad = np.flatnonzero((idx.ravel() < 0) | (idx.ravel() >= offs[-1]))
    if len(bad):
        raise InvalidParameter(
            f"index {int(idx.ravel()[bad[0]])} is outside the partitioned range "
            f"[0, {int(offs[-1])})"
        )
    # side="right" skips empty blocks: an index equal to an offset belongs to the next
    # non-empty block.
    return np.searchsorted(offs, idx, side="right").astype(np.int64) - 1


def csr_rows(
    indptr: ArrayLike, indices: ArrayLike, start: int, stop: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Rows ``start:stop`` of a CSR graph as ``(local_indptr, local_indices)`` with global
    column ids, the input :meth:`HaloPlan.build` expects from the owner of those rows."""
    ptr = _int_array("indptr", indptr, 1)
    cols = _int_array("indices", indices, 1)
    n = len(ptr) - 1
    if n < 0 or ptr[0] != 0 or ptr[-1] != len(cols) or np.any(np.diff(ptr) < 0):
        raise InvalidParameter(
            f"indptr must start at 0, not decrease and end at len(indices) = {len(cols)}"
        )
    start = _validate.integer("start", start, 0, n)
    stop = _validate.integer("stop", stop, start, n)
    local_indptr = ptr[start : stop + 1] - ptr[start]
    return local_indptr, cols[ptr[start] : ptr[stop]].copy()


# --------------------------------------------------------------------------------------------
# Collectives on numpy arrays


def allreduce(
    values: ArrayLike,
    op: ReduceOp = "sum",
    *,
    comm: Communicator | None = None,
    inplace: bool = False,
) -> NDArray[Any]:
    """Element-wise ``op`` of ``values`` over all ranks, returned on every rank.

    With ``inplace=True`` ``values`` must be a writeable C-contiguous array and receives the
    result; otherwise a new array is returned and ``values`` is left alone. Integer sums are
    exact; float sums depend on the reduction order, so they can differ in the last bits from
    a single-process sum.
    """
    comm = _resolve(comm)
    if op not in ("sum", "max", "min"):
        raise InvalidParameter(f"op must be 'sum', 'max' or 'min', got {op!r}")
    if inplace:
        if not isinstance(values, np.ndarray):
            raise InvalidParameter(f"inplace=True needs a numpy array, got {type(values).__name__}")
        if not (values.flags.c_contiguous and values.flags.writeable):
            raise InvalidParameter("inplace=True needs a writeable C-contiguous array")
        result = values
    else:
        result = np.array(values, order="C")
    if result.dtype == np.bool_:
        if op == "sum":
            raise InvalidParameter("op='sum' of a bool array: convert it to an integer dtype")
        buffer = result.reshape(-1).view(np.uint8)  # 0/1 bytes: max is 'any', min is 'all'
    elif result.dtype in _REDUCIBLE:
        if result.dtype.kind == "c" and op != "sum":
            raise InvalidParameter(f"op={op!r} is undefined for complex dtype {result.dtype}")
        buffer = result.reshape(-1)
    else:
        raise InvalidParameter(
            f"allreduce supports bool, (unsigned) integer, float32/64 and complex64/128 "
            f"arrays, got dtype {result.dtype}"
        )
    comm.allreduce_inplace(buffer, op)
    return result


def bcast_array(
    array: ArrayLike | None, root: int = 0, *, comm: Communicator | None = None
) -> NDArray[Any]:
    """``root``'s array on every rank; other ranks may pass ``None`` (their argument is ignored).

    Shape and dtype travel in a small control message, the data in one typed ``Bcast``.
    """
    comm = _resolve(comm)
    root = _check_rank("root", root, comm)
    source: NDArray[Any] | None = None
    # The root broadcasts (dtype, shape) or its validation error, so every rank raises together.
    header: str | tuple[np.dtype[Any], tuple[int, ...]] | None = None
    if comm.rank == root:
        try:
            if array is None:
                raise InvalidParameter(f"bcast_array: the root rank {root} passed None")
            source = np.array(_plain_array("array", array), order="C")
            header = (source.dtype, source.shape)
        except InvalidParameter as exc:
            header = str(exc)
    header = comm.bcast_object(header, root)
    if header is None or isinstance(header, str):
        raise InvalidParameter(header)
    dtype, shape = header
    result = source if source is not None else np.empty(shape, dtype=dtype)
    comm.bcast_bytes(_as_bytes(result), root)
    return result


class _BlockLayout(NamedTuple):
    block: NDArray[Any]
    rows: NDArray[np.int64]  # rows held by each rank
    row_shape: tuple[int, ...]


def _block_layout(name: str, block: ArrayLike, comm: Communicator) -> _BlockLayout:
    """Validate a per-rank block and check that all ranks agree on dtype and row shape."""
    try:
        local = _plain_array(name, block)
        if local.ndim == 0:
            raise InvalidParameter(f"{name} must have at least one dimension (rows), got a scalar")
        local = np.ascontiguousarray(local)
    except InvalidParameter as exc:
        failed = comm.allgather_object((str(exc), None))
        if len(failed) == 1:
            raise
        raise _combined_error([text for text, _ in failed]) from exc
    metas = comm.allgather_object((None, (local.dtype, local.shape[1:], local.shape[0])))
    if any(text is not None for text, _ in metas):
        raise _combined_error([text for text, _ in metas])
    checked = [meta for _, meta in metas if meta is not None]
    dtype, row_shape, _ = checked[0]
    for rank, (other_dtype, other_shape, _) in enumerate(checked):
        if other_dtype != dtype or other_shape != row_shape:
            raise InvalidParameter(
                f"{name} differs between ranks: rank 0 has dtype {dtype} and rows of shape "
                f"{row_shape}, rank {rank} has dtype {other_dtype} and rows of shape {other_shape}"
            )
    return _BlockLayout(local, np.array([m[2] for m in checked], dtype=np.int64), row_shape)


def allgather_blocks(block: ArrayLike, *, comm: Communicator | None = None) -> NDArray[Any]:
    """Concatenate every rank's block (rows along axis 0) in rank order, on every rank.

    All ranks must pass the same dtype and row shape; block lengths may differ (``Allgatherv``).
    """
    comm = _resolve(comm)
    layout = _block_layout("block", block, comm)
    full = np.empty((int(layout.rows.sum()), *layout.row_shape), dtype=layout.block.dtype)
    row_bytes = layout.block.dtype.itemsize * math.prod(layout.row_shape)
    comm.allgatherv_bytes(_as_bytes(layout.block), _as_bytes(full), layout.rows * row_bytes)
    return full


def gather_blocks(
    block: ArrayLike, root: int = 0, *, comm: Communicator | None = None
) -> NDArray[Any] | None:
    """Like :func:`allgather_blocks`, but only ``root`` gets the full array; others get ``None``."""
    comm = _resolve(comm)
    root = _check_rank("root", root, comm)
    layout = _block_layout("block", block, comm)
    row_bytes = layout.block.dtype.itemsize * math.prod(layout.row_shape)
    full: NDArray[Any] | None = None
    if comm.rank == root:
        full = np.empty((int(layout.rows.sum()), *layout.row_shape), dtype=layout.block.dtype)
    comm.gatherv_bytes(
        _as_bytes(layout.block),
        None if full is None else _as_bytes(full),
        layout.rows * row_bytes,
        root,
    )
    return full


# --------------------------------------------------------------------------------------------
# Dynamic work queue


class _Entry(NamedTuple):
    """One result on its way to every rank: arrays travel as bytes, the rest pickled."""

    task: int
    dtype: np.dtype[Any] | None  # None: ``value`` is the (small, picklable) result itself
    shape: tuple[int, ...]
    value: object


def run_queue(
    tasks: Sequence[T], fn: Callable[[T], R], *, comm: Communicator | None = None
) -> list[R]:
    """``[fn(task) for task in tasks]`` spread over all ranks, returned on every rank.

    Every rank passes the same ``tasks``. Rank 0 hands out task indices on request and computes
    tasks itself in between; a worker always holds one request in advance so it rarely waits.
    The result list is ordered by task index, so it never depends on which rank ran what or on
    timing. Results that are numpy arrays (without Python objects) travel as raw bytes; others
    must be small picklable objects. Keep single tasks much shorter than the whole job: rank 0
    answers requests only between its own tasks.
    """
    comm = _resolve(comm)
    if not callable(fn):
        raise InvalidParameter(f"fn must be callable, got {fn!r}")
    try:
        n_tasks = len(tasks)
    except TypeError:
        raise InvalidParameter(
            f"tasks must be a sequence (with len), got {type(tasks).__name__}"
        ) from None
    done: list[tuple[int, R]] = []
    if comm.rank == 0:
        _queue_master(comm, tasks, n_tasks, fn, done)
    else:
        _queue_worker(comm, tasks, fn, done)
    comm.barrier()  # early finishers wait here quietly instead of spinning in the allgather
    return _share_results(comm, done, n_tasks)


def _queue_master(
    comm: Communicator,
    tasks: Sequence[T],
    n_tasks: int,
    fn: Callable[[T], R],
    done: list[tuple[int, R]],
) -> None:
    token = np.empty(1, dtype=np.int64)
    reply = np.empty(1, dtype=np.int64)
    next_task = 0
    stopped = 0  # workers told that the queue is empty; each then sends no more requests
    while True:
        while (source := comm.iprobe(_TAG_REQUEST)) is not None:
            comm.recv(token, source, _TAG_REQUEST)
            if next_task < n_tasks:
                reply[0] = next_task
                next_task += 1
            else:
                reply[0] = _STOP
                stopped += 1
            comm.send(reply, source, _TAG_TASK)
        if next_task < n_tasks:
            index = next_task
            next_task += 1
            done.append((index, fn(tasks[index])))
        elif stopped == comm.size - 1:
            return
        else:
            time.sleep(POLL_INTERVAL)


def _queue_worker(
    comm: Communicator, tasks: Sequence[T], fn: Callable[[T], R], done: list[tuple[int, R]]
) -> None:
    token = np.array([comm.rank], dtype=np.int64)

    def ask() -> tuple[Request, NDArray[np.int64]]:
        answer = np.empty(1, dtype=np.int64)
        pending = comm.irecv(answer, 0, _TAG_TASK)  # posted before the request it answers
        comm.send(token, 0, _TAG_REQUEST)
        return pending, answer

    pending, answer = ask()
    pending.wait_quietly()
    current = int(answer[0])
    while current != _STOP:
        # Ask for the next task before computing this one, so the answer is waiting when done.
        pending, answer = ask()
        done.append((current, fn(tasks[current])))
        pending.wait_quietly()
        current = int(answer[0])


def _share_results(comm: Communicator, done: list[tuple[int, R]], n_tasks: int) -> list[R]:
    entries: list[_Entry] = []
    payload: list[NDArray[np.uint8]] = []
    for index, result in done:
        # Exact ndarrays only: a subclass (masked array...) is pickled to keep its type.
        if (
            isinstance(result, np.ndarray)
            and type(result) is np.ndarray
            and not result.dtype.hasobject
        ):
            entries.append(_Entry(index, result.dtype, result.shape, None))
            payload.append(_as_bytes(result))
        else:
            entries.append(_Entry(index, None, (), result))
    local_bytes = np.concatenate(payload) if payload else np.empty(0, dtype=np.uint8)
    per_rank = comm.allgather_object(entries)
    counts = np.array(
        [sum(_nbytes(e) for e in rank_entries) for rank_entries in per_rank], dtype=np.int64
    )
    all_bytes = np.empty(int(counts.sum()), dtype=np.uint8)
    comm.allgatherv_bytes(local_bytes, all_bytes, counts)
    results: list[object] = [None] * n_tasks
    position = 0
    for rank_entries in per_rank:
        for entry in rank_entries:
            if entry.dtype is None:
                results[entry.task] = entry.value
            else:
                size = _nbytes(entry)
                chunk = all_bytes[position : position + size]
                results[entry.task] = chunk.view(entry.dtype).reshape(entry.shape).copy()
                position += size
    return cast(list[R], results)


def _nbytes(entry: _Entry) -> int:
    return 0 if entry.dtype is None else entry.dtype.itemsize * math.prod(entry.shape)


# --------------------------------------------------------------------------------------------
# Halo (neighbour) exchange


def exchange_with_neighbors(
    comm: Communicator,
    neighbors: Sequence[int],
    outgoing: NDArray[Any],
    send_counts: ArrayLike,
    recv_counts: ArrayLike,
    *,
    tag: int = _TAG_NEIGHBORS,
) -> NDArray[Any]:
    """Point-to-point exchange with a few neighbour ranks: ``outgoing`` holds the rows for
    each rank in rank order (``send_counts[q]`` rows for rank ``q``); the result holds the
    rows received, ``recv_counts[q]`` from rank ``q``, in rank order. Only ``neighbors``
    (which must include every rank with a nonzero count) are contacted, with ``Irecv`` and
    ``Isend`` on the numpy buffers. Every rank of a pair must agree on the counts.
    """
    send = np.asarray(send_counts, dtype=np.int64)
    recv = np.asarray(recv_counts, dtype=np.int64)
    rows = np.ascontiguousarray(outgoing)
    row_shape = rows.shape[1:]
    row_bytes = rows.dtype.itemsize * math.prod(row_shape)
    if rows.shape[0] != int(send.sum()):
        raise InvalidParameter(
            f"outgoing has {rows.shape[0]} rows but the send counts add up to {int(send.sum())}"
        )
    incoming = np.empty((int(recv.sum()), *row_shape), dtype=rows.dtype)
    out_bytes, in_bytes = _as_bytes(rows), _as_bytes(incoming)
    send_displs, recv_displs = _displacements(send), _displacements(recv)
    requests: list[Request] = []
    for q in neighbors:
        if recv[q]:
            first = int(recv_displs[q]) * row_bytes
            part = in_bytes[first : first + int(recv[q]) * row_bytes]
            requests.append(comm.irecv(part, q, tag))
    for q in neighbors:
        if send[q]:
            first = int(send_displs[q]) * row_bytes
            part = out_bytes[first : first + int(send[q]) * row_bytes]
            requests.append(comm.isend(part, q, tag))
    comm.waitall(requests)
    return incoming


class HaloPlan:
    """Who sends which owned values to whom so that each rank sees its rows' neighbours.

    Each rank owns rows ``start:stop`` (block ``rank`` of ``offsets``) of a CSR graph whose
    column ids are global. A column outside the block is a *ghost*: a vertex owned by another
    rank whose value this rank needs. Build the plan once with :meth:`build` (collective),
    then :meth:`exchange` each step: every rank sends each neighbour rank exactly the values of its
    own vertices that the neighbour needs, O(cut edges) bytes in total.

    Slots: values of owned vertices sit at slots ``0..n_local-1`` and ghosts at
    ``n_local + i`` in the order of :attr:`ghost_ids`, so with
    ``extended = plan.with_ghosts(values)``, ``extended[plan.column_slots]`` holds the value of
    every neighbour in the order of ``local_indices``.
    """

    def __init__(
        self,
        *,
        comm: Communicator,
        offsets: NDArray[np.int64],
        ghost_ids: NDArray[np.int64],
        column_slots: NDArray[np.int64],
        send_local: NDArray[np.int64],
        send_counts: NDArray[np.int64],
        recv_counts: NDArray[np.int64],
    ) -> None:
        self.comm = comm
        self.offsets = offsets
        self.start = int(offsets[comm.rank])
        self.stop = int(offsets[comm.rank + 1])
        self.n_local = self.stop - self.start
        #: Global ids of the ghosts, sorted (hence grouped by owner rank).
        self.ghost_ids = ghost_ids
        #: Slot of every entry of ``local_indices`` in ``with_ghosts`` order.
        self.column_slots = column_slots
        #: Local rows whose values are sent, grouped by destination rank in rank order.
        self.send_local = send_local
        #: Values sent to / received from each rank per exchange.
        self.send_counts = send_counts
        self.recv_counts = recv_counts
        self.neighbors = tuple(
            int(q) for q in np.flatnonzero((send_counts > 0) | (recv_counts > 0))
        )
        self.bytes_sent_last = 0
        self.bytes_sent_total = 0

    @classmethod
    def build(
        cls,
        local_indptr: ArrayLike,
        local_indices: ArrayLike,
        offsets: ArrayLike,
        comm: Communicator | None = None,
    ) -> HaloPlan:
        """Collective: find the ghosts of this rank's rows and tell their owners.

        ``local_indptr``/``local_indices`` are this rank's rows in CSR form with global column
        ids (see :func:`csr_rows`); ``offsets`` is the row partition, identical on all ranks.
        Each rank counts the ghosts it needs per owner, one ``Alltoall`` swaps the counts and
        one ``Alltoallv`` sends the ghost ids to their owners. Invalid input on any rank
        raises :class:`InvalidParameter` on every rank.
        """
        comm = _resolve(comm)
        offs, indices = checked_together(
            comm, lambda: _check_plan_input(local_indptr, local_indices, offsets, comm)
        )
        start, stop = int(offs[comm.rank]), int(offs[comm.rank + 1])
        ghost_ids = np.unique(indices[(indices < start) | (indices >= stop)])
        recv_counts = np.bincount(owner_of(ghost_ids, offs), minlength=comm.size).astype(np.int64)
        send_counts = comm.alltoall_counts(recv_counts)
        wanted = np.empty(int(send_counts.sum()), dtype=np.int64)
        comm.alltoallv_bytes(
            _as_bytes(ghost_ids),
            recv_counts * ghost_ids.itemsize,
            _as_bytes(wanted),
            send_counts * wanted.itemsize,
        )
        checked_together(comm, lambda: _check_wanted(wanted, start, stop, comm.rank))
        return cls(
            comm=comm,
            offsets=offs,
            ghost_ids=ghost_ids,
            column_slots=_slots(indices, start, stop, ghost_ids, comm.rank),
            send_local=wanted - start,
            send_counts=send_counts,
            recv_counts=recv_counts,
        )

    @property
    def n_ghosts(self) -> int:
        """Number of distinct remote vertices adjacent to this rank's rows."""
        return len(self.ghost_ids)

    def slot_of(self, global_ids: ArrayLike) -> NDArray[np.int64]:
        """The slot (owned ``0..n_local-1`` or ghost ``n_local + i``) of each global id."""
        ids = _int_array("global_ids", global_ids, np.ndim(global_ids))
        return _slots(ids, self.start, self.stop, self.ghost_ids, self.comm.rank)

    def exchange(self, owned_values: ArrayLike) -> NDArray[Any]:
        """The values of the ghosts (in :attr:`ghost_ids` order) given each rank's own values.

        ``owned_values`` has one row per owned vertex (shape ``(n_local, ...)``) and any
        fixed-size dtype; all ranks must pass the same dtype and row shape. Only the cut-border
        rows travel, with ``Isend``/``Irecv`` between neighbour ranks.
        """
        values = _plain_array("owned_values", owned_values)
        if values.ndim == 0 or values.shape[0] != self.n_local:
            raise InvalidParameter(
                f"owned_values must have one row per owned vertex ({self.n_local}), "
                f"got shape {values.shape}"
            )
        ghosts = exchange_with_neighbors(
            self.comm,
            self.neighbors,
            values[self.send_local],  # grouped by destination rank
            self.send_counts,
            self.recv_counts,
            tag=_TAG_HALO,
        )
        sent = int(self.send_counts.sum()) * values.dtype.itemsize * math.prod(values.shape[1:])
        self.bytes_sent_last = sent
        self.bytes_sent_total += sent
        return ghosts

    def with_ghosts(self, owned_values: ArrayLike) -> NDArray[Any]:
        """Owned values followed by the exchanged ghost values (index it with slots)."""
        values = np.asarray(owned_values)
        return np.concatenate([values, self.exchange(values)])


def _check_plan_input(
    local_indptr: ArrayLike, local_indices: ArrayLike, offsets: ArrayLike, comm: Communicator
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    offs = _check_offsets(offsets, comm.size)
    n_local = int(offs[comm.rank + 1] - offs[comm.rank])
    indptr = _int_array("local_indptr", local_indptr, 1)
    indices = _int_array("local_indices", local_indices, 1)
    if len(indptr) != n_local + 1:
        raise InvalidParameter(
            f"local_indptr must hold n_local + 1 = {n_local + 1} entries for rank {comm.rank}'s "
            f"rows {int(offs[comm.rank])}..{int(offs[comm.rank + 1]) - 1}, got {len(indptr)}"
        )
    if indptr[0] != 0 or indptr[-1] != len(indices) or np.any(np.diff(indptr) < 0):
        raise InvalidParameter(
            f"local_indptr must start at 0, not decrease and end at len(local_indices) = "
            f"{len(indices)}; got {indptr[0]}..{indptr[-1]}"
        )
    n_total = int(offs[-1])
    bad = np.flatnonzero((indices < 0) | (indices >= n_total))
    if len(bad):
        i = int(bad[0])
        raise InvalidParameter(
            f"local_indices[{i}] = {int(indices[i])} is not a vertex id in [0, {n_total})"
        )
    return offs, indices


def _check_wanted(wanted: NDArray[np.int64], start: int, stop: int, rank: int) -> None:
    # Ranks that disagree on the offsets ask for vertices their "owner" does not hold.
    bad = np.flatnonzero((wanted < start) | (wanted >= stop))
    if len(bad):
        raise InvalidParameter(
            f"rank {rank} (rows {start}..{stop - 1}) was asked for vertex {int(wanted[bad[0]])}: "
            "do all ranks pass the same offsets?"
        )


def _slots(
    ids: NDArray[np.int64], start: int, stop: int, ghost_ids: NDArray[np.int64], rank: int
) -> NDArray[np.int64]:
    slots = np.empty(ids.shape, dtype=np.int64)
    owned = (ids >= start) & (ids < stop)
    slots[owned] = ids[owned] - start
    others = ids[~owned]
    position = np.searchsorted(ghost_ids, others)
    found = position < len(ghost_ids)
    found[found] = ghost_ids[position[found]] == others[found]
    if not found.all():
        raise InvalidParameter(
            f"global id {int(others[~found][0])} is neither owned by rank {rank} "
            f"(rows {start}..{stop - 1}) nor one of its ghosts"
        )
    slots[~owned] = (stop - start) + position
    return slots
