"""The dynamic work queue: rank 0 hands out tasks, every rank gets every result."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import (
    Any,
    Final,
    NamedTuple,
    TypeVar,
    cast,
)

import numpy as np
from numpy.typing import NDArray

from stratagem.errors import InvalidParameter
from stratagem.mpi.collectives import _as_bytes
from stratagem.mpi.communicator import _TAG_REQUEST, _TAG_TASK, POLL_INTERVAL, Communicator, Request
from stratagem.mpi.launch import _resolve

_STOP: Final = -1  # the task index that tells a worker the queue is empty


T = TypeVar("T")
R = TypeVar("R")

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
