"""What every benchmark module shares: a case is one workload timed on the Rust path and on
the pure-Python oracle in the same run, reported as throughput and as their ratio."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Case:
    """One workload. ``rust`` and ``oracle`` each do the work once and return the number of
    units done (blocks, draws, turns...), so the two may use different batch sizes. ``note``
    says why a row stays under ``TARGET_RATIO`` (run.py prints it and flags rows without one)."""

    name: str
    unit: str
    rust: Callable[[], int]
    oracle: Callable[[], int]
    threads: int = 1
    note: str = ""


# Every engine aims at this many times its oracle's speed; a row below it carries a note.
TARGET_RATIO = 100.0
# A multi-threaded row must keep this fraction of the same case's one-thread speed.
THREADS_FLOOR = 0.95


@dataclass(frozen=True)
class Timing:
    units: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.units / self.seconds


# Timed calls are grouped in this many rounds and the fastest round counts: on a shared
# machine other work only ever adds time, so the best round is the steadiest estimate (as
# timeit advises), for the engine and the oracle alike.
ROUNDS = 5


def measure(work: Callable[[], int], min_seconds: float) -> Timing:
    """Repeats ``work`` for about ``min_seconds`` in :data:`ROUNDS` rounds and returns the
    fastest round (the first call is a warm-up and is not counted unless it is the only one
    that fits)."""
    started = time.perf_counter()
    units = work()
    warm_up = time.perf_counter() - started
    if warm_up >= min_seconds:
        return Timing(units, warm_up)

    def timed_round() -> Timing:
        units, seconds = 0, 0.0
        while seconds < min_seconds / ROUNDS:
            started = time.perf_counter()
            units += work()
            seconds += time.perf_counter() - started
        return Timing(units, seconds)

    return max((timed_round() for _ in range(ROUNDS)), key=lambda timing: timing.per_second)


@dataclass(frozen=True)
class Table:
    """A result table that does not fit the Rust-vs-oracle rows: a bench module may offer
    ``tables(quick, min_seconds) -> list[Table]``, which ``run.py`` calls after timing its
    cases and prints after the main table. ``rows`` are the printed cells (the first ``left``
    columns aligned left, the others right), ``records`` the same figures unrounded for
    ``--json``, ``notes`` lines printed under the table."""

    title: str
    header: Sequence[str]
    rows: Sequence[Sequence[str]]
    records: Sequence[dict[str, Any]] = field(default_factory=tuple)
    notes: Sequence[str] = field(default_factory=tuple)
    left: int = 1

    def render(self) -> str:
        widths = [
            max([len(name), *(len(row[i]) for row in self.rows)])
            for i, name in enumerate(self.header)
        ]

        def line(cells: Sequence[str]) -> str:
            return " ".join(
                f"{cell:<{width}}" if i < self.left else f"{cell:>{width}}"
                for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
            ).rstrip()

        header = line(self.header)
        out = [self.title, header, "-" * len(header), *(line(row) for row in self.rows)]
        out += [f"  {note}" for note in self.notes]
        return "\n".join(out)

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "records": list(self.records), "notes": list(self.notes)}
