"""What every benchmark module shares: a case is one workload timed on the Rust path and on
the pure-Python oracle in the same run, reported as throughput and as their ratio."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    """One workload. ``rust`` and ``oracle`` each do the work once and return the number of
    units done (blocks, draws, turns...), so the two may use different batch sizes."""

    name: str
    unit: str
    rust: Callable[[], int]
    oracle: Callable[[], int]
    threads: int = 1


@dataclass(frozen=True)
class Timing:
    units: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.units / self.seconds


def measure(work: Callable[[], int], min_seconds: float) -> Timing:
    """Repeats ``work`` until ``min_seconds`` have passed (at least once; the first call is a
    warm-up and is not counted unless it is the only one that fits)."""
    started = time.perf_counter()
    units = work()
    warm_up = time.perf_counter() - started
    if warm_up >= min_seconds:
        return Timing(units, warm_up)
    total_units, total_seconds = 0, 0.0
    while total_seconds < min_seconds:
        started = time.perf_counter()
        total_units += work()
        total_seconds += time.perf_counter() - started
    return Timing(total_units, total_seconds)
