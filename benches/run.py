"""Benchmark runner: ``python benches/run.py [name ...] [--quick] [--json]``.

Each ``benches/bench_<name>.py`` module offers ``cases(quick) -> list[Case]``; every case is
timed on the Rust path and on the oracle in this same run, and the table shows both
throughputs and their ratio. Absolute figures on a shared 2-core machine are noisy; the ratio
measured in one run is the figure to quote. A module may also offer
``tables(quick, min_seconds) -> list[Table]`` (``harness.Table``) for results that are not
Rust-vs-oracle rows; they are computed after its cases and printed after the main table (and
put under ``"tables"`` with ``--json``).

Progress goes to stderr as it runs: a line as each benchmark starts and ends (with its time)
and as its extra tables start, whatever stderr is (a terminal, a CI log), and a bar over its
cases on a terminal. Two checks are printed under the table and kept in ``--json``
(``"under_target"``, ``"slower_with_threads"``): rows under ``TARGET_RATIO`` times their oracle
with no ``note`` saying why, and rows with more than one thread that keep less than
``THREADS_FLOOR`` of the same case's one-thread speed.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import stratagem
from harness import TARGET_RATIO, THREADS_FLOOR, Table, measure
from stratagem.progress import Progress

HERE = Path(__file__).resolve().parent


def available() -> list[str]:
    return sorted(path.stem.removeprefix("bench_") for path in HERE.glob("bench_*.py"))


def label(row: dict[str, Any]) -> str:
    return f"{row['bench']}: {row['case']} ({row['threads']} threads, {row['ratio']:.0f}x)"


def say(line: str) -> None:
    """One line of progress on stderr, at once (stdout holds the results)."""
    print(f"benches: {line}", file=sys.stderr, flush=True)


def add_one_thread_ratios(rows: list[dict[str, Any]]) -> None:
    """Gives each row run on more than one thread its speed over the same case's one-thread
    row, where the bench has one (``vs_one_thread``)."""
    one_thread = {(row["bench"], row["case"]): row for row in rows if row["threads"] == 1}
    for row in rows:
        single = one_thread.get((row["bench"], row["case"]))
        if row["threads"] > 1 and single is not None:
            row["vs_one_thread"] = row["rust_per_second"] / single["rust_per_second"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "names", nargs="*", help=f"benchmarks to run (default all: {', '.join(available())})"
    )
    parser.add_argument("--quick", action="store_true", help="smaller workloads (a smoke test)")
    parser.add_argument(
        "--min-seconds", type=float, default=1.0, help="minimum timed seconds per path"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    args = parser.parse_args(argv)
    names = args.names or available()
    unknown = sorted(set(names) - set(available()))
    if unknown:
        parser.error(f"unknown benchmark(s) {unknown}; available: {available()}")

    rows: list[dict[str, Any]] = []
    tables: list[tuple[str, Table]] = []
    started = time.perf_counter()
    for number, name in enumerate(names, 1):
        module = importlib.import_module(f"bench_{name}")
        cases = module.cases(args.quick)
        say(f"[{number}/{len(names)}] {name}: {len(cases)} cases, Rust and oracle each")
        with Progress(len(cases), f"bench {name}") as bar:
            for case in cases:
                rust = measure(case.rust, args.min_seconds)
                python = measure(case.oracle, args.min_seconds)
                rows.append(
                    {
                        "bench": name,
                        "case": case.name,
                        "threads": case.threads,
                        "unit": case.unit,
                        "rust_per_second": rust.per_second,
                        "oracle_per_second": python.per_second,
                        "ratio": rust.per_second / python.per_second,
                        "note": case.note or None,
                    }
                )
                bar.advance()
        if hasattr(module, "tables"):
            say(f"[{number}/{len(names)}] {name}: its extra tables")
            tables += [(name, table) for table in module.tables(args.quick, args.min_seconds)]
        say(f"[{number}/{len(names)}] {name} done ({time.perf_counter() - started:.0f} s so far)")

    add_one_thread_ratios(rows)
    under_target = [row for row in rows if row["ratio"] < TARGET_RATIO and not row["note"]]
    slower_with_threads = [
        row for row in rows if row.get("vs_one_thread", THREADS_FLOOR) < THREADS_FLOOR
    ]
    if args.json:
        print(
            json.dumps(
                {
                    "stratagem": stratagem.__version__,
                    "machine": platform.machine(),
                    "results": rows,
                    "under_target": [label(row) for row in under_target],
                    "slower_with_threads": [label(row) for row in slower_with_threads],
                    "tables": [{"bench": name, **table.to_dict()} for name, table in tables],
                }
            )
        )
        return 0
    bench_width = max([5, *(len(row["bench"]) for row in rows)])
    case_width = max([24, *(len(row["case"]) for row in rows)])
    header = (
        f"{'bench':<{bench_width}} {'case':<{case_width}} {'threads':>7} {'rust /s':>14} "
        f"{'oracle /s':>14} {'ratio':>10}"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        print(
            f"{row['bench']:<{bench_width}} {row['case']:<{case_width}} {row['threads']:>7} "
            f"{row['rust_per_second']:>14.4g} {row['oracle_per_second']:>14.4g} "
            f"{row['ratio']:>9.0f}x"
            f"  ({row['unit']})"
            + (f"  {row['vs_one_thread']:.2f}x one thread" if "vs_one_thread" in row else "")
        )
        if row["note"] and row["ratio"] < TARGET_RATIO:
            print(f"{'':<{bench_width}}   note: {row['note']}")
    print(f"\nunder {TARGET_RATIO:.0f}x with no note: {len(under_target)} of {len(rows)} rows")
    for row in under_target:
        print(f"  {label(row)}")
    print(
        f"slower than {THREADS_FLOOR:.2f}x of one thread: {len(slower_with_threads)} "
        f"of {sum('vs_one_thread' in row for row in rows)} rows"
    )
    for row in slower_with_threads:
        print(f"  {label(row)}")
    for name, table in tables:
        print()
        print(f"{name}: {table.render()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
