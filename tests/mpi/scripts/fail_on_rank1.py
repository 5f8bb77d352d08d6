"""Rank 1 raises while the other ranks wait for it; the whole job must end at once.

Modes: ``hook`` (uncaught: the excepthook installed by world() aborts), ``context`` (inside
``abort_on_error()``), ``queue`` (a task of the work queue raises on rank 1).
"""

from __future__ import annotations

import sys
import time

import numpy as np

from stratagem.mpi import abort_on_error, allreduce, run_queue, world


def step() -> None:
    if world().rank == 1:
        raise RuntimeError("deliberate failure on rank 1")
    allreduce(np.ones(1))  # the other ranks would wait here for rank 1 forever


def task(index: int) -> int:
    time.sleep(0.001)
    if world().rank == 1:
        raise RuntimeError(f"deliberate failure on rank 1 in task {index}")
    return index


def main(mode: str) -> None:
    world().barrier()
    if mode == "hook":
        step()
    elif mode == "context":
        with abort_on_error():
            step()
    elif mode == "queue":
        run_queue(range(1000), task)
    else:
        raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    main(sys.argv[1])
