"""The dynamic work queue under mpiexec: results ordered by task index on every rank, whatever
the task durations and whichever rank ran each task."""

from __future__ import annotations

import time

import numpy as np

from stratagem.mpi import Communicator, run_queue


def uneven_sleep(task: int, rank: int) -> None:
    # Durations depend on the task and on the rank that runs it, so completion order is
    # shuffled differently on every run and rank count.
    time.sleep(0.0005 * ((task * 7 + rank * 5) % 6))


def test_results_are_ordered_by_task_index(comm: Communicator) -> None:
    def square(task: int) -> tuple[int, int]:
        uneven_sleep(task, comm.rank)
        return task * task, comm.rank

    results = run_queue(range(12 * comm.size), square)
    everyone = comm.allgather_object(results)
    assert [value for value, _ in results] == [t * t for t in range(12 * comm.size)]
    # Rank 0 serves requests between its own tasks, so the workers get work too.
    assert len({rank for _, rank in results}) >= 2
    assert all(other == results for other in everyone)


def test_array_and_object_results_keep_type_shape_and_dtype(comm: Communicator) -> None:
    record = np.dtype([("a", np.int16), ("b", np.float64)])

    def make(task: int) -> object:
        uneven_sleep(task, comm.rank)
        kind = task % 5
        if kind == 0:
            return np.arange(task, dtype=np.int64).reshape(-1, 1)
        if kind == 1:
            return np.full((2, task % 3), task, dtype=np.float32)
        if kind == 2:
            return np.array([(task, task / 4)], dtype=record)
        if kind == 3:
            return np.float64(task)  # a numpy scalar is pickled, not sent as bytes
        return {"task": task, "name": f"t{task}"} if task % 2 else None

    expected = [make(t) for t in range(23)]
    results = run_queue(range(23), make)
    assert len(results) == len(expected)
    for got, want in zip(results, expected, strict=True):
        assert type(got) is type(want)
        if isinstance(want, np.ndarray):
            assert got.dtype == want.dtype
            assert got.shape == want.shape
            assert got.tobytes() == want.tobytes()
        else:
            assert got == want


def test_tasks_are_items_of_any_sequence(comm: Communicator) -> None:
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta"]
    assert run_queue(words, str.upper) == [w.upper() for w in words]


def test_fewer_tasks_than_ranks_and_no_tasks(comm: Communicator) -> None:
    assert run_queue(range(1), lambda t: t + 1) == [1]
    assert run_queue([], lambda t: t) == []


def test_back_to_back_queues_do_not_mix(comm: Communicator) -> None:
    first = run_queue(range(9), lambda t: np.array([t, comm.rank]))
    second = run_queue(range(5), lambda t: -t)
    assert [int(a[0]) for a in first] == list(range(9))
    assert second == [0, -1, -2, -3, -4]
