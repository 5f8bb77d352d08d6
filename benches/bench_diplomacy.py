"""diplomacy: the engine's speed against the pure-Python oracle (``stratagem.diplomacy.oracle``).

The largest example position is the open problem's answer under the ``exact`` convention
(:func:`stratagem.diplomacy.open_problem.solve`): Austria with 17 units and 8 centres removes 9
(``C(17, 9) = 24,310`` options) while the six other powers build, 16,130,949,120 profiles in
all.

Ratio rows (:func:`cases`, engine and oracle on the same work):

- ``list options``: every option of the 17-unit power, listed in slot form (the engine's numpy
  batch against the oracle's ``itertools``) (unit: an option);
- ``preliminary search``: every option of every power evaluated with the others doing nothing,
  on the largest position, on one thread and on every core (the oracle, single-threaded, stops
  after a budget of evaluations) (unit: an evaluation);
- ``combined search``: Loeb's combined search to its pure Nash equilibrium on a small position
  (Austria removing 3 of 6 units, Italy, Russia and Turkey building 3) (unit: a whole
  search).

Tables (:func:`tables`): the searches (preliminary, sequential, anneal, combined) on the largest
position, on 1 thread and on every core (best of ``repeats``); the open problem's solve time
under each convention, with and without the victory rule, in Rust and in the oracle.

``--quick`` runs each search once, the anneal with fewer steps, and the open problem without
the victory rule.
"""

from __future__ import annotations

import time
from functools import cache

from harness import Case, Table
from stratagem import _core
from stratagem.diplomacy import adjustments, oracle
from stratagem.diplomacy.engine import CONVENTIONS
from stratagem.diplomacy.open_problem import solve as solve_open_problem
from stratagem.diplomacy.position import Position
from stratagem.diplomacy.search import METHODS, SearchResult, solve

_SMALL = (
    "AUS: A VIE, A BUD, F TRI, A GAL, A BOH, A TYR / BUD TRI VIE; ITA: A PIE / NAP ROM VEN TUN; "
    "RUS: A UKR / MOS SEV WAR STP; TUR: A BUL / ANK CON SMY BUL GRE"
)
# The oracle's budget of evaluations per preliminary search (about 0.1 s).
_ORACLE_EVALUATIONS = 150


@cache
def _largest() -> Position:
    return solve_open_problem("exact").position


def _remover() -> str:
    """The power with the most options in the largest position."""
    numbers = adjustments.counts(_largest())
    return max(numbers, key=lambda power: numbers[power])


def _rust_listing() -> int:
    position, power = _largest(), _remover()
    number = adjustments.count(position, power)
    return len(adjustments.batch(position, power, "exact", 0, number))


def _oracle_listing() -> int:
    return sum(1 for _ in oracle.options(_largest(), _remover(), "exact"))


def _rust_preliminary(threads: int) -> int:
    return solve(_largest(), "preliminary", threads=threads).evaluations


def _oracle_preliminary() -> int:
    found = oracle.preliminary(_largest(), "exact", max_evaluations=_ORACLE_EVALUATIONS)
    return found.evaluations


def _rust_combined(repeats: int) -> int:
    position = Position.parse(_SMALL)
    for _ in range(repeats):
        solve(position, "combined", threads=1)
    return repeats


def _oracle_combined() -> int:
    oracle.combined(Position.parse(_SMALL), "exact")
    return 1


def cases(quick: bool) -> list[Case]:
    cores = _core.default_threads()
    position = _largest()
    remover = _remover()
    options = adjustments.count(position, remover)
    removed = len(position.units_of(remover)) - len(position.centres_of(remover))
    rows = [
        Case(
            "list options",
            f"options ({remover} removing {removed}: {options:,})",
            _rust_listing,
            _oracle_listing,
        ),
        Case(
            "preliminary search",
            "evaluations (the open problem's exact answer)",
            lambda: _rust_preliminary(1),
            _oracle_preliminary,
        ),
    ]
    if cores > 1:
        rows.append(
            Case(
                "preliminary search",
                "evaluations (the open problem's exact answer)",
                lambda: _rust_preliminary(cores),
                _oracle_preliminary,
                threads=cores,
            )
        )
    evaluations = solve(Position.parse(_SMALL), "combined").evaluations
    rows.append(
        Case(
            "combined search",
            f"searches to equilibrium (small position, {evaluations} evaluations)",
            lambda: _rust_combined(20),
            _oracle_combined,
            note=(
                "a search is ~0.11 ms of engine work behind a thread hand-off per call (the "
                "watcher that keeps Ctrl-C alive, then the pool): ~0.18 ms a solve() against "
                "~49 ms in the oracle (~270x) on a quiet machine, but each hand-off can wait "
                "milliseconds for a core when the machine is loaded"
            ),
        )
    )
    return rows


def _outcome(method: str, found: SearchResult) -> str:
    if not found.finished:
        return "budget"
    if method != "combined":
        return "done"
    return "equilibrium" if found.cycle is None else "cycle"


def _searches(quick: bool, repeats: int) -> Table:
    position = _largest()
    steps = 500 if quick else 2000
    cores = _core.default_threads()
    rows, records = [], []
    for method in METHODS:
        for threads in sorted({1, cores}):
            best = float("inf")
            for _ in range(repeats):
                started = time.perf_counter()
                found = solve(position, method, steps=steps, threads=threads)
                best = min(best, time.perf_counter() - started)
            outcome = _outcome(method, found)
            rows.append(
                [
                    method,
                    str(threads),
                    f"{best * 1e3:.1f} ms",
                    f"{found.evaluations:,}",
                    f"{found.evaluations / best:,.0f}",
                    outcome,
                ]
            )
            records.append(
                {
                    "method": method,
                    "threads": threads,
                    "seconds": best,
                    "evaluations": found.evaluations,
                    "finished": found.finished,
                    "outcome": outcome,
                }
            )
    shares = ", ".join(
        f"{p} {len(position.units_of(p))}->{len(position.centres_of(p))}"
        for p in position.map.powers
    )
    return Table(
        f"searches on the largest position ({adjustments.total(position):,} profiles; units->"
        f"centres {shares}), anneal {steps} steps (best of {repeats})",
        ["method", "threads", "time", "evaluations", "evaluations/s", "outcome"],
        rows,
        records,
        notes=["anneal: its time and evaluations include the preliminary search it starts from"],
    )


def _open_problem(quick: bool) -> Table:
    rows, records = [], []
    for victory in (False,) if quick else (False, True):
        for convention in CONVENTIONS:
            answer = solve_open_problem(convention, victory=victory)
            started = time.perf_counter()
            best, _ = oracle.open_problem(convention, victory)
            oracle_seconds = time.perf_counter() - started
            rows.append(
                [
                    convention,
                    "yes" if victory else "no",
                    f"{answer.total:,}",
                    f"{answer.seconds * 1e3:.1f} ms",
                    f"{oracle_seconds * 1e3:.0f} ms",
                    "yes" if best == answer.total else "NO",
                ]
            )
            records.append(
                {
                    "convention": convention,
                    "victory": victory,
                    "total": answer.total,
                    "seconds": answer.seconds,
                    "oracle_seconds": oracle_seconds,
                    "oracle_agrees": best == answer.total,
                }
            )
    return Table(
        "the open problem solved exactly (dynamic programming over the powers)",
        ["convention", "victory", "largest total", "rust", "oracle", "agree"],
        rows,
        records,
        notes=["rust: the engine's solve alone (open_problem.solve's Answer.seconds)"],
    )


def tables(quick: bool, min_seconds: float) -> list[Table]:
    return [_searches(quick, 1 if quick else 3), _open_problem(quick)]
