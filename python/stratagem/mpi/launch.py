"""Detecting the launcher, creating the world, and ending the whole job when a rank fails."""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import os
import sys
import threading
import traceback
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import TracebackType
from typing import TypedDict, TypeVar

from stratagem import _core, errors
from stratagem._launcher import launcher_detected
from stratagem.errors import InvalidParameter, StratagemError
from stratagem.mpi.communicator import (
    Communicator,
    MPICommunicator,
    SerialCommunicator,
)

T = TypeVar("T")

#: The variable that sets the thread count of every call without ``threads=`` (the engine's).
THREADS_VARIABLE = "STRATAGEM_NUM_THREADS"

# --------------------------------------------------------------------------------------------
# Detecting the launcher and creating the world


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


def _oversubscribed(environ: Mapping[str, str]) -> bool:
    """Whether the launcher put more ranks on this host than this process may use cores
    (MPICH's ``MPI_LOCALNRANKS``; other launchers do not say, and count as not)."""
    try:
        ranks_here = int(environ.get("MPI_LOCALNRANKS", "1"))
    except ValueError:
        return False
    if hasattr(os, "sched_getaffinity"):
        cores = len(os.sched_getaffinity(0))
    else:  # macOS and Windows do not say which cores a process may use
        cores = os.cpu_count() or 1
    return ranks_here > cores


def _create_world(environ: Mapping[str, str]) -> Communicator:
    available = _mpi4py_available()
    if not mpi_requested(environ):
        return SerialCommunicator(mpi_available=available)
    if not available:
        if environ.get("STRATAGEM_MPI", "").strip() == "1":
            raise InvalidParameter(
                "STRATAGEM_MPI=1 but mpi4py is not installed; pip install 'stratagem[mpich]'"
            )
        warnings.warn(
            "running under an MPI launcher but mpi4py is not installed, so every rank runs "
            "the whole job alone; pip install 'stratagem[mpich]' (or 'stratagem[mpi]' for this "
            "machine's own MPI)",
            RuntimeWarning,
            stacklevel=3,
        )
        return SerialCommunicator(mpi_available=False)
    if _oversubscribed(environ):
        # MPICH busy-polls while a rank waits, and with more ranks than cores the spinning
        # rank holds the core the awaited rank needs. Yielding while polling took 4 ranks on
        # 2 cores from 2.15 to 1.18 s of play, but 2 ranks on 2 idle cores from 0.83 to
        # 0.88 s (docs/conquest-mpi.md). MPICH reads it when mpi4py starts MPI; a user's
        # value stands.
        os.environ.setdefault("MPIR_CVAR_ENABLE_HEAVY_YIELD", "1")
    from mpi4py import MPI

    comm = MPICommunicator(MPI.COMM_WORLD)
    # Ranks on one host share its cores: a call that names no thread count (and finds no
    # STRATAGEM_NUM_THREADS) takes cores // ranks_on_host threads, not every core.
    _core.share_cores(comm.ranks_on_host)
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
# Agreeing on the command


def same_command(words: Sequence[str], comm: Communicator | None = None) -> None:
    """Collective, before any work: refuses on every rank, with ``InvalidParameter`` naming
    the first difference from rank 0, when the ranks were given different command lines
    (ranks that disagree on ``--turns`` would otherwise wait for each other for ever). One
    gather of a digest of each rank's words; the words themselves only when they differ."""
    comm = _resolve(comm)
    if not comm.is_distributed:
        return
    digest = hashlib.sha256(json.dumps(list(words)).encode()).hexdigest()
    if len(set(comm.allgather_object(digest))) == 1:
        return
    commands = comm.allgather_object(list(words))
    raise InvalidParameter(_first_difference(commands))


def threads_variable_checked(comm: Communicator | None = None) -> None:
    """Collective, before any work (after :func:`same_command`): refuses on every rank, with
    ``InvalidParameter`` naming the variable and each rank where it is bad, when
    ``STRATAGEM_NUM_THREADS`` holds no thread count on any rank (read as the engine reads it).
    Read only when a rank's work starts, a bad value would stop that rank alone, and the
    others would wait for it in their next collective or finish without it."""
    comm = _resolve(comm)
    problem = None
    if os.environ.get(THREADS_VARIABLE) is not None:
        try:
            _core.resolve_threads(None)
        except StratagemError as error:
            problem = str(error)
    if not comm.is_distributed:
        if problem is not None:
            raise InvalidParameter(problem)
        return
    problems = comm.allgather_object(problem)
    if any(text is not None for text in problems):
        raise InvalidParameter(
            "; ".join(
                f"on MPI rank {rank} of {comm.size}: {text}"
                for rank, text in enumerate(problems)
                if text is not None
            )
        )


def _first_difference(commands: Sequence[Sequence[str]]) -> str:
    """Where the first command that is not rank 0's departs from it."""
    first = commands[0]
    rank, other = next((r, c) for r, c in enumerate(commands) if list(c) != list(first))
    at = next(i for i in range(max(len(first), len(other))) if first[i : i + 1] != other[i : i + 1])
    ours = repr(first[at]) if at < len(first) else "nothing"
    theirs = repr(other[at]) if at < len(other) else "nothing"
    return (
        f"the MPI ranks were given different commands: word {at + 1} is {ours} on rank 0 but "
        f"{theirs} on rank {rank} (every rank must run the same command with the same arguments)"
    )
