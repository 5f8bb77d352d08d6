"""Benchmark runner: ``python benches/run.py [name ...] [--quick] [--json]``.

Each ``benches/bench_<name>.py`` module offers ``cases(quick) -> list[Case]``; every case is
timed on the Rust path and on the oracle in this same run, and the table shows both
throughputs and their ratio. Absolute figures on a shared 2-core machine are noisy; the ratio
measured in one run is the figure to quote. A module may also offer
``tables(quick, min_seconds) -> list[Table]`` (``harness.Table``) for results that are not
Rust-vs-oracle rows; they are computed after its cases and printed after the main table (and
put under ``"tables"`` with ``--json``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import stratagem
from harness import Table, measure
from stratagem.progress import Progress

HERE = Path(__file__).resolve().parent


def available() -> list[str]:
    return sorted(path.stem.removeprefix("bench_") for path in HERE.glob("bench_*.py"))


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
    for name in names:
        module = importlib.import_module(f"bench_{name}")
        cases = module.cases(args.quick)
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
                    }
                )
                bar.advance()
        if hasattr(module, "tables"):
            tables += [(name, table) for table in module.tables(args.quick, args.min_seconds)]

    if args.json:
        print(
            json.dumps(
                {
                    "stratagem": stratagem.__version__,
                    "machine": platform.machine(),
                    "results": rows,
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
        )
    for name, table in tables:
        print()
        print(f"{name}: {table.render()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
