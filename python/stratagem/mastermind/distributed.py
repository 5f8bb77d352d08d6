"""The consistent-code search spread over MPI ranks: a dynamic queue of prefixes
(``docs/mastermind-rules.md``, "Distributed search (MPI)").

Rank 0 keeps the viable prefixes in search order, starting with every viable one-spot prefix.
It hands the earliest waiting prefix to any rank that asks and searches prefixes itself in
between, answering the requests that came in meanwhile (``Iprobe``) after each of its own.
Whenever fewer prefixes wait than there are ranks, the earliest waiting prefix shorter than
S - 1 is replaced by its viable children. A rank searches for the first consistent code below
its prefix (with its own threads). Like a worker of :func:`stratagem.mpi.run_queue`, a
worker holds one prefix in reserve: it asks for the next prefix (reporting the result of the
last one) before it searches the one it holds, so the answer is usually waiting when it is
done. Prefixes after the best answer found so far are no longer handed out, and the search
ends once every prefix before that answer is done and every worker has been told to stop;
the answer is broadcast, so every rank returns the same code:
:func:`stratagem.mastermind.first_consistent` itself, for any number of ranks. A worker still
finishes the prefix it holds when the answer turns up elsewhere (the engine's search cannot be
interrupted from outside), and rank 0 answers requests only between its own prefixes, so one
long prefix on rank 0 leaves the workers waiting.

In one process (no MPI, or ``mpiexec -n 1``) the single-process search runs:

>>> from stratagem.mastermind.distributed import SearchStats, first_consistent, solve
>>> first_consistent(4, 6, ["0011"], [(1, 1)]).tolist()
[0, 1, 2, 2]
>>> stats = SearchStats()
>>> result = solve("7735427368", colours=10, stats=stats)
>>> result.turns, stats.searches
(13, 13)
"""

from __future__ import annotations

import os
import socket
import time
import zlib
from dataclasses import dataclass, field
from typing import Any, Final, cast

import numpy as np
from numpy.typing import NDArray

from stratagem import _core, _validate
from stratagem.errors import InconsistentInput, InvalidParameter
from stratagem.mastermind import game
from stratagem.mastermind.code import as_code, check_space, parse_code
from stratagem.mastermind.game import _history
from stratagem.mastermind.players import Solution, _strategy
from stratagem.mpi import (
    POLL_INTERVAL,
    Communicator,
    Request,
    abort_on_error,
    checked_together,
    world,
)

__all__ = ["SearchStats", "first_consistent", "solve"]

# Tags of the queue's point-to-point messages, int64 buffers of a few words plus S:
# worker -> rank 0: [task, found, more, code...], the result of a task (or _NO_TASK) and
# whether it asks for another prefix (more = 0 only in its last report, after _STOP);
_TAG_REPORT: Final = 0x5320
# rank 0 -> worker: [task, length, colours...], a prefix to search, or [_STOP, 0, ...].
_TAG_PREFIX: Final = 0x5321
_REPORT: Final = 3  # words before the code in a report
_REPLY: Final = 2  # words before the colours in a reply
_NO_TASK: Final = -1  # in a report: no result to report (the worker's first request)
_STOP: Final = -1  # in a reply: no prefix is left for this worker

_WAITING, _RUNNING, _FOUND, _DROPPED = range(4)  # states of a prefix in rank 0's queue

Code = NDArray[np.uint8]
_Shared = tuple[list[int] | None, dict[str, Any]]  # rank 0's answer and summary, broadcast


@dataclass
class SearchStats:
    """What the distributed searches did, summed over every search it was passed to (the same
    figures on every rank).

    ``prefixes[r]`` counts the prefixes rank r searched, ``splits`` the prefixes replaced by
    their children, ``dropped`` the waiting prefixes never searched because an earlier one had
    an answer, ``late`` the prefixes searched to no use (an earlier answer was known when they
    finished) and ``messages`` the point-to-point messages (the workers' reports and requests,
    rank 0's replies). With one rank only ``searches`` and ``seconds`` grow.
    """

    ranks: int = 1
    searches: int = 0
    prefixes: list[int] = field(default_factory=lambda: [0])
    splits: int = 0
    dropped: int = 0
    late: int = 0
    messages: int = 0
    seconds: float = 0.0

    def _add(self, ranks: int, summary: dict[str, Any], seconds: float) -> None:
        if len(self.prefixes) < ranks:
            self.prefixes.extend([0] * (ranks - len(self.prefixes)))
        self.ranks = ranks
        self.searches += 1
        for rank, count in enumerate(summary.get("prefixes", ())):
            self.prefixes[rank] += count
        self.splits += summary.get("splits", 0)
        self.dropped += summary.get("dropped", 0)
        self.late += summary.get("late", 0)
        self.messages += summary.get("messages", 0)
        self.seconds += seconds


@dataclass(frozen=True)
class _Problem:
    """A checked search: the history (with its space) and the order (``None``: lexicographic)."""

    history: _core.mastermind.History
    order: Code | None

    @property
    def spots(self) -> int:
        return self.history.spots

    @property
    def colours(self) -> int:
        return self.history.colours

    def children(self, prefix: Code) -> Code:
        """The viable one-spot extensions of ``prefix``, in search order."""
        found: Code = _core.mastermind.children(self.history, prefix, self.order)
        return found

    def first(self, prefix: Code, threads: int | None) -> Code | None:
        """The first consistent code starting with ``prefix``, or ``None``."""
        found: Code | None = _core.mastermind.first(self.history, prefix, self.order, threads)
        return found

    def answered(self, guess: Code, black: int, white: int) -> _Problem:
        """This search with ``guess`` answered ``(black, white)`` added to the history."""
        history = _core.mastermind.History(
            self.spots,
            self.colours,
            np.vstack([self.history.guesses, guess[None, :]]),
            np.vstack([self.history.feedback, np.array([[black, white]], dtype=np.uint8)]),
        )
        return _Problem(history, self.order)

    def fingerprint(self, *more: Code) -> int:
        """A checksum of the problem (and of ``more`` arrays) that every rank must share."""
        value = zlib.crc32(np.array([self.spots, self.colours], dtype=np.int64).tobytes())
        for array in (self.history.guesses, self.history.feedback, self.order, *more):
            value = zlib.crc32(b"-" if array is None else array.tobytes(), value)
        return value


def _order_array(order: Any) -> Code | None:
    """``order`` as the engine takes it (the engine checks its shape and permutations)."""
    if order is None:
        return None
    try:
        return np.ascontiguousarray(order, dtype=np.uint8)
    except (TypeError, ValueError, OverflowError):
        raise InvalidParameter(
            f"a search order is an (S, C) array of colour permutations, got {order!r}"
        ) from None


def _problem(spots: Any, colours: Any, guesses: Any, feedback: Any, order: Any) -> _Problem:
    """The checks of :func:`stratagem.mastermind.first_consistent`, on this rank."""
    spots, colours = check_space(spots, colours)
    problem = _Problem(_history(spots, colours, guesses, feedback), _order_array(order))
    problem.children(np.zeros(0, dtype=np.uint8))  # lets the engine check the order
    return problem


def _threads_per_rank(
    comm: Communicator, fingerprint: int, threads: int | None, what: str
) -> int | None:
    """Collective: check that every rank has the same ``fingerprint`` (of ``what``), and pick
    this rank's threads: ``threads`` if given, else its host's cores shared among the ranks
    there (unless ``STRATAGEM_NUM_THREADS`` decides)."""
    host = socket.gethostname()
    everyone = comm.allgather_object((fingerprint, host))
    for rank, (theirs, _) in enumerate(everyone):
        if theirs != everyone[0][0]:
            raise InconsistentInput(
                f"rank {rank} was given another {what} than rank 0; every rank must pass the "
                "same arguments"
            )
    if threads is not None or os.environ.get("STRATAGEM_NUM_THREADS") is not None:
        return threads
    here = sum(1 for _, other in everyone if other == host)
    return max(1, _core.default_threads() // here)


# -- rank 0's queue ------------------------------------------------------------------------


@dataclass(eq=False)
class _Prefix:
    colours: Code
    state: int = _WAITING
    code: Code | None = None


class _Queue:
    """Rank 0's prefixes in search order: waiting and running ones, and last of all the one
    holding the best answer so far (every prefix after it is dropped)."""

    def __init__(self, problem: _Problem, ranks: int) -> None:
        self.problem = problem
        self.ranks = ranks
        roots = problem.children(np.zeros(0, dtype=np.uint8))
        self.items = [_Prefix(row) for row in roots]
        self.running: dict[int, _Prefix] = {}
        self.tasks = 0
        self.best: _Prefix | None = None
        self.prefixes = [0] * ranks
        self.splits = self.dropped = self.late = 0

    @property
    def complete(self) -> bool:
        """Every prefix before the best answer (every prefix, without one) is done."""
        return all(item.state == _FOUND for item in self.items)

    def _split(self) -> None:
        spots = self.problem.spots
        while True:
            waiting = [i for i, item in enumerate(self.items) if item.state == _WAITING]
            if len(waiting) >= self.ranks:
                return
            short = [i for i in waiting if len(self.items[i].colours) < spots - 1]
            if not short:
                return
            first = short[0]
            children = self.problem.children(self.items[first].colours)
            self.items[first : first + 1] = [_Prefix(row) for row in children]
            self.splits += 1

    def take(self, rank: int) -> tuple[int, Code] | None:
        """The earliest waiting prefix (after splitting if few wait) as ``(task, colours)``,
        now running on ``rank``; ``None`` when none waits (and none ever will)."""
        self._split()
        for item in self.items:
            if item.state == _WAITING:
                item.state = _RUNNING
                task = self.tasks
                self.tasks += 1
                self.running[task] = item
                self.prefixes[rank] += 1
                return task, item.colours
        return None

    def finish(self, task: int, code: Code | None) -> None:
        """Record the result of a task."""
        item = self.running.pop(task)
        if item.state == _DROPPED:
            self.late += 1
        elif code is None:
            self.items.remove(item)
        else:
            item.state, item.code = _FOUND, code
            position = self.items.index(item)
            for later in self.items[position + 1 :]:
                self.dropped += int(later.state == _WAITING)
                self.late += int(later.state == _FOUND)  # the previous best
                later.state = _DROPPED
            del self.items[position + 1 :]
            self.best = item

    @property
    def answer(self) -> Code | None:
        return None if self.best is None else self.best.code


def _lead(
    comm: Communicator, problem: _Problem, threads: int | None
) -> tuple[Code | None, dict[str, Any]]:
    """Rank 0: serves requests and searches prefixes until the answer is known and every
    worker has sent its last report (so no message is left behind)."""
    queue = _Queue(problem, comm.size)
    report = np.empty(_REPORT + problem.spots, dtype=np.int64)
    reply = np.empty(_REPLY + problem.spots, dtype=np.int64)
    finished = messages = 0  # workers whose last report came in; messages sent and received
    while True:
        served = False
        while (source := comm.iprobe(_TAG_REPORT)) is not None:
            comm.recv(report, source, _TAG_REPORT)
            served = True
            messages += 1
            if report[0] != _NO_TASK:
                code = report[_REPORT:].astype(np.uint8) if report[1] else None
                queue.finish(int(report[0]), code)
            if not report[2]:  # the worker's last report: it was told to stop
                finished += 1
                continue
            taken = queue.take(source)
            reply[:] = 0
            if taken is None:
                reply[0] = _STOP
            else:
                task, colours = taken
                reply[0], reply[1] = task, len(colours)
                reply[_REPLY : _REPLY + len(colours)] = colours
            comm.send(reply, source, _TAG_PREFIX)
            messages += 1
        if queue.complete:
            if finished == comm.size - 1:
                break
        elif (taken := queue.take(0)) is not None:
            task, colours = taken
            queue.finish(task, problem.first(colours, threads))
            continue
        if not served:
            time.sleep(POLL_INTERVAL)
    summary = {
        "prefixes": queue.prefixes,
        "splits": queue.splits,
        "dropped": queue.dropped,
        "late": queue.late,
        "messages": messages,
    }
    return queue.answer, summary


def _follow(comm: Communicator, problem: _Problem, threads: int | None) -> None:
    """A worker: holds one prefix in reserve (it asks for the next one, reporting the result
    of the last, before it searches the one it holds), until told to stop; then it sends its
    last report."""
    report = np.zeros(_REPORT + problem.spots, dtype=np.int64)
    reply = np.empty(_REPLY + problem.spots, dtype=np.int64)

    def send_report(task: int, code: Code | None, more: bool) -> None:
        report[:] = 0
        report[0], report[2] = task, more
        if code is not None:
            report[1] = 1
            report[_REPORT:] = code
        comm.send(report, 0, _TAG_REPORT)

    def ask(task: int, code: Code | None) -> Request:
        pending = comm.irecv(reply, 0, _TAG_PREFIX)  # posted before the request it answers
        send_report(task, code, more=True)
        return pending

    def answer() -> tuple[int, Code]:
        return int(reply[0]), reply[_REPLY : _REPLY + reply[1]].astype(np.uint8)

    ask(_NO_TASK, None).wait_quietly()
    task, prefix = answer()
    done, code = _NO_TASK, None
    while task != _STOP:
        pending = ask(done, code)  # the answer is usually waiting when this search ends
        done, code = task, problem.first(prefix, threads)
        pending.wait_quietly()
        task, prefix = answer()
    send_report(done, code, more=False)


def _search(
    comm: Communicator, problem: _Problem, threads: int | None, stats: SearchStats | None
) -> Code | None:
    """Collective: the distributed search of a checked problem, on every rank."""
    started = time.perf_counter()
    with abort_on_error(comm):
        if comm.rank == 0:
            answer, summary = _lead(comm, problem, threads)
            shared: _Shared | None = (None if answer is None else answer.tolist(), summary)
        else:
            _follow(comm, problem, threads)
            shared = None
        comm.barrier()  # finished ranks wait here quietly, not spinning in the broadcast
        found, summary = cast(_Shared, comm.bcast_object(shared, 0))
    if stats is not None:
        stats._add(comm.size, summary, time.perf_counter() - started)
    return None if found is None else np.array(found, dtype=np.uint8)


# -- the public functions --------------------------------------------------------------------


def first_consistent(
    spots: int,
    colours: int,
    guesses: Any = (),
    feedback: Any = (),
    *,
    comm: Communicator | None = None,
    order: Any = None,
    threads: int | None = None,
    stats: SearchStats | None = None,
) -> NDArray[np.uint8] | None:
    """Collective: :func:`stratagem.mastermind.first_consistent` (the first code consistent
    with the history in the search order, or ``None``) searched by every rank of ``comm``
    (default: the MPI world) and returned on every rank.

    Every rank passes the same arguments (``threads`` may differ: it is this rank's thread
    count, by default its host's cores shared among the ranks there). Bad input on any rank
    raises the error on every rank. ``stats``, if given, receives what the search did.
    """
    comm = world() if comm is None else comm
    if not comm.is_distributed:
        started = time.perf_counter()
        found = game.first_consistent(
            spots, colours, guesses, feedback, order=order, threads=threads
        )
        if stats is not None:
            stats._add(1, {}, time.perf_counter() - started)
        return found

    def check() -> tuple[_Problem, int | None]:
        return _problem(spots, colours, guesses, feedback, order), _validate.threads(threads)

    problem, threads_here = checked_together(comm, check)
    threads_here = _threads_per_rank(
        comm, problem.fingerprint(), threads_here, "space, history or order"
    )
    return _search(comm, problem, threads_here, stats)


def solve(
    secret: Any,
    colours: int,
    *,
    comm: Communicator | None = None,
    order: str = "lex",
    seed: int = 0,
    threads: int | None = None,
    stats: SearchStats | None = None,
) -> Solution:
    """Collective: plays the ``first`` strategy against ``secret`` (a code or its written
    form), every guess found by the distributed search; the same :class:`Solution` as
    ``stratagem.mastermind.solve(secret, colours, "first", seed, order=order)`` on every rank
    (``seed`` matters only for ``order="shuffled"``)."""
    comm = world() if comm is None else comm

    def check() -> tuple[Code, _Problem, int, int | None]:
        secret_array = parse_code(secret, colours) if isinstance(secret, str) else secret
        secret_array = np.asarray(secret_array)
        spots, checked_colours = check_space(secret_array.size, colours)
        secret_array = as_code("secret", secret_array, spots, checked_colours)
        _strategy("first", order)
        checked_seed = _validate.seed(seed)
        order_array: Code | None = None
        if order == "shuffled":
            order_array = _core.mastermind.shuffled_order(spots, checked_colours, checked_seed)
        problem = _Problem(_history(spots, checked_colours, (), ()), order_array)
        return secret_array, problem, checked_seed, _validate.threads(threads)

    secret_array, problem, checked_seed, threads_here = checked_together(comm, check)
    if comm.is_distributed:
        fingerprint = problem.fingerprint(secret_array)
        threads_here = _threads_per_rank(comm, fingerprint, threads_here, "secret or order")
    spots = problem.spots
    started = time.perf_counter()
    while True:
        if comm.is_distributed:
            guess = _search(comm, problem, threads_here, stats)
        else:
            begun = time.perf_counter()
            guess = problem.first(np.zeros(0, dtype=np.uint8), threads_here)
            if stats is not None:
                stats._add(1, {}, time.perf_counter() - begun)
        if guess is None:  # the feedback is the secret's own, so a code always fits
            raise RuntimeError("no code fits the secret's own feedback: a bug in the search")
        black, white = game.score(guess, secret_array, colours=problem.colours, threads=1)
        problem = problem.answered(guess, int(black[0]), int(white[0]))
        if int(black[0]) == spots:
            break
    return Solution(
        secret=secret_array,
        guesses=problem.history.guesses,
        feedback=problem.history.feedback,
        seconds=time.perf_counter() - started,
        strategy="first",
        colours=problem.colours,
        seed=checked_seed,
    )
