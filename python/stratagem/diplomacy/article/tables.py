"""Loeb's tables ("The Combinatorics of Adjustments", seed 004), ours beside his.

Every figure of ours is counted by the engine (:func:`stratagem.diplomacy.adjustments.count`)
on a concrete, validated position of the standard map built for it (one power alone on the
board), never by a formula typed in here; his figures are copied from the article as printed.
The tests count the same positions with the oracle.

- :func:`removal_table`: a power with ``n`` units and ``n - k`` centres removes ``k``:
  ``C(n, k)``, up to 17 units; the largest is ``C(17, 8) = C(17, 9) = 24,310``. His table is
  right everywhere.
- :func:`build_table`: each power with all its homes open and 1 to 3 (Russia 4) builds, under
  the three conventions. ``article`` is his "counting waives" (at least one build), ``waives``
  includes the empty option as well. His Russian figures are wrong from the first: the four
  homes (Moscow and Warsaw inland, Sevastopol coastal, St Petersburg bicoastal) give
  ``1 + 1 + 2 + 3 = 7`` one-build options, not 5, so every "counting waives" total after it is
  2 short: 24, 41, 47 where he prints 22, 39, 45.
- :func:`example_table`: his 11,426,088,960 example. Every row holds on its own, but the rows
  own ``8 + 2 + 5 + 5 + 5 + 5 + 6 = 36`` centres and the board has 34
  (:func:`example_impossibility`); :func:`nearest_legal_example` keeps his units per power and
  finds the best legal centres and open homes: 5,816,918,016 (Austria keeps 6 centres, not 8).

>>> [row.count for row in removal_table(17) if row.n == 17 and row.k in (8, 9)]
[24310, 24310]
>>> [(row.builds, row.article, row.printed_article) for row in build_table() if row.power == "RUS"]
[(1, 7, None), (2, 24, 22), (3, 41, 39), (4, 47, 45)]
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from stratagem import _validate
from stratagem.diplomacy import open_problem
from stratagem.diplomacy.adjustments import count
from stratagem.diplomacy.engine import check_convention
from stratagem.diplomacy.map import Map
from stratagem.diplomacy.position import Position

__all__ = [
    "ARTICLE_BUILDS",
    "ARTICLE_EXAMPLE",
    "ARTICLE_EXAMPLE_TOTAL",
    "ARTICLE_REMOVALS",
    "BuildRow",
    "ExampleRow",
    "RemovalRow",
    "build_table",
    "example_impossibility",
    "example_position",
    "example_table",
    "format_tables",
    "nearest_legal_example",
    "removal_table",
]

#: The article's removal table as printed (``n`` then the counts for ``k = 1..n``).
ARTICLE_REMOVALS = """\
 1  1
 2  2   1
 3  3   3   1
 4  4   6   4    1
 5  5  10  10    5    1
 6  6  15  20   15    6     1
 7  7  21  35   35   21     7     1
 8  8  28  56   70   56    28     8     1
 9  9  36  84  126  126    84    36     9     1
10 10  45 120  210  252   210   120    45    10     1
11 11  55 165  330  462   462   330   165    55    11     1
12 12  66 220  495  792   924   792   495   220    66    12    1
13 13  78 286  715 1287  1716  1716  1287   715   286    78   13    1
14 14  91 364 1001 2002  3003  3432  3003  2002  1001   364   91   14   1
15 15 105 455 1365 3003  5005  6435  6435  5005  3003  1365  455  105  15   1
16 16 120 560 1820 4368  8008 11440 12870 11440  8008  4368 1820  560 120  16  1
17 17 136 680 2380 6188 12376 19448 24310 24310 19448 12376 6188 2380 680 136 17 1
"""

#: The article's build figures: power -> ``(builds, without waives, counting waives)``, the
#: second ``None`` where he prints one figure only (one build).
ARTICLE_BUILDS: dict[str, tuple[tuple[int, int, int | None], ...]] = {
    **dict.fromkeys(("TUR", "ENG", "ITA"), ((1, 6, None), (2, 12, 18), (3, 8, 26))),
    **dict.fromkeys(("FRA", "GER"), ((1, 5, None), (2, 8, 13), (3, 4, 17))),
    "AUS": ((1, 4, None), (2, 5, 9), (3, 2, 11)),
    "RUS": ((1, 5, None), (2, 17, 22), (3, 17, 39), (4, 6, 45)),
}

#: The article's example: power, units ("From"), centres ("To"), possibilities.
ARTICLE_EXAMPLE: tuple[tuple[str, int, int, int], ...] = (
    ("AUS", 17, 8, 24310),
    ("GER", 1, 2, 2),
    ("FRA", 3, 5, 8),
    ("TUR", 3, 5, 12),
    ("ENG", 3, 5, 12),
    ("ITA", 3, 5, 12),
    ("RUS", 4, 6, 17),
)
ARTICLE_EXAMPLE_TOTAL = 11_426_088_960


def _article_removals() -> dict[tuple[int, int], int]:
    printed: dict[tuple[int, int], int] = {}
    for line in ARTICLE_REMOVALS.splitlines():
        n, *counts = (int(word) for word in line.split())
        for k, value in enumerate(counts, 1):
            printed[(n, k)] = value
    return printed


def _alone(power: str, units: int, centres: int, open_homes: tuple[str, ...]) -> Position:
    """A position of the standard map where ``power`` alone has ``units`` units and
    ``centres`` centres, ``open_homes`` among them open
    (:func:`~stratagem.diplomacy.open_problem.position_with`)."""
    return open_problem.position_with(Map.standard(), {power: (units, centres, open_homes)})


# --- Removals ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class RemovalRow:
    """``n`` units, ``k`` removals: our count (``C(n, k)``) and the article's."""

    n: int
    k: int
    count: int
    article: int | None
    note: str = ""


def removal_table(max_units: int = 17, power: str = "AUS") -> tuple[RemovalRow, ...]:
    """Every ``1 <= k <= n <= max_units``: ``power`` with ``n`` units and ``n - k`` centres,
    counted by the engine (the convention does not matter for removals)."""
    max_units = _validate.integer("max_units", max_units, 1, len(Map.standard().centres))
    printed = _article_removals()
    rows = []
    for n in range(1, max_units + 1):
        for k in range(1, n + 1):
            ours = count(_alone(power, n, n - k, ()), power, "exact")
            theirs = printed.get((n, k))
            note = "" if theirs in (None, ours) else f"printed {theirs}, C({n}, {k}) = {ours}"
            rows.append(RemovalRow(n, k, ours, theirs, note))
    return tuple(rows)


# --- Builds -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BuildRow:
    """One power with all its homes open and ``builds`` builds allowed: our counts under the
    three conventions (``exact``: all the builds; ``article``: at least one, his "counting
    waives"; ``waives``: any number, none included) and his printed figures."""

    power: str
    builds: int
    exact: int
    article: int
    waives: int
    printed_exact: int
    printed_article: int | None
    note: str = ""


def build_table() -> tuple[BuildRow, ...]:
    """Every power (map order) with 1 to all-its-homes builds: it owns its homes and nothing
    else, and has ``homes - builds`` units, all on provinces that are not centres."""
    the_map = Map.standard()
    rows = []
    for power in the_map.powers:
        homes = the_map.homes[power]
        printed = {j: (e, a) for j, e, a in ARTICLE_BUILDS[power]}
        for j in range(1, len(homes) + 1):
            position = _alone(power, len(homes) - j, len(homes), homes)
            exact, waives, article = (
                count(position, power, c) for c in ("exact", "waives", "article")
            )
            printed_exact, printed_article = printed[j]
            notes = []
            if printed_exact != exact:
                sizes = " + ".join(str(len(the_map.build_options(h))) for h in homes)
                notes.append(
                    f"{j} build(s): {exact}, not {printed_exact}"
                    + (f" ({sizes} = {exact}; the article's own sum is the same)" if j == 1 else "")
                )
            if printed_article is not None and printed_article != article:
                notes.append(f"counting waives: {article}, not {printed_article}")
            rows.append(
                BuildRow(
                    power,
                    j,
                    exact,
                    article,
                    waives,
                    printed_exact,
                    printed_article,
                    "; ".join(notes),
                )
            )
    return tuple(rows)


# --- The example ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExampleRow:
    """A row of the article's example, realised on its own: the power's units, centres and
    open homes, its position alone on the board, our count (convention ``exact``, as the
    article counts here) and his."""

    power: str
    units: int
    centres: int
    open_homes: tuple[str, ...]
    position: Position
    count: int
    article: int


def _example_homes(power: str, units: int, centres: int, possibilities: int) -> tuple[str, ...]:
    """The open homes that give the row's count with the least previous-winter centres: all
    the homes for the three-to-four-home rows; Germany's 2 is one coastal home open (two open
    homes would give it 3 or 4)."""
    homes = Map.standard().homes[power]
    if units > centres:
        return ()
    for size in range(min(len(homes), centres) + 1):
        for chosen in itertools.combinations(homes, size):
            if count(_alone(power, units, centres, chosen), power, "exact") == possibilities:
                return chosen
    return homes


def example_table() -> tuple[ExampleRow, ...]:
    """The article's example, row by row, each row counted on its own concrete position."""
    rows = []
    for power, units, centres, possibilities in ARTICLE_EXAMPLE:
        homes = _example_homes(power, units, centres, possibilities)
        position = _alone(power, units, centres, homes)
        ours = count(position, power, "exact")
        rows.append(ExampleRow(power, units, centres, homes, position, ours, possibilities))
    return tuple(rows)


def example_position() -> tuple[Position, ...]:
    """The example as concrete positions, one per row (each power alone on the board): the
    product of their counts is 11,426,088,960. They cannot be merged into one position of the
    board: :func:`example_impossibility` says why."""
    return tuple(row.position for row in example_table())


def example_impossibility() -> str:
    """Why the example cannot be on the board: its centres and its previous-winter centres
    against the map's 34."""
    rows = example_table()
    the_map = Map.standard()
    centres = [row.centres for row in rows]
    previous = [max(r.units, r.centres - r.units, len(r.open_homes)) for r in rows]
    units = [row.units for row in rows]
    return (
        f"the rows own {' + '.join(map(str, centres))} = {sum(centres)} centres and the map has "
        f"{len(the_map.centres)}: two centres would be owned twice ('each centre is owned at "
        f"most once'). Its units ({' + '.join(map(str, units))} = {sum(units)}) and the centres "
        f"its powers needed at the previous winter (max(u, c - u, open homes): "
        f"{' + '.join(map(str, previous))} = {sum(previous)}) fit; the centres do not."
    )


def nearest_legal_example(
    convention: str = "exact",
) -> tuple[int, tuple[open_problem.Resources, ...], Position]:
    """The best legal position with the example's units per power (the open problem's dynamic
    programming with ``u`` fixed): its total, ``(units, centres, open homes)`` per power in
    map order and a concrete position reaching it."""
    units = {power: u for power, u, _, _ in ARTICLE_EXAMPLE}
    answer = open_problem.solve(check_convention(convention), units=units)
    per_power = tuple((s.units, s.centres, s.open_homes) for s in answer.shares)
    return answer.total, per_power, answer.position


# --- Text -------------------------------------------------------------------------------------


def format_tables() -> str:
    """The three tables as text, ours beside the article's, with the differences noted."""
    lines = ["Removals: n units, k removed (ours = C(n, k); the article's table agrees):", ""]
    removals = removal_table()
    header = "n\\k " + " ".join(f"{k:>5}" for k in range(1, 18))
    lines.append(header)
    for n in range(1, 18):
        cells = [f"{row.count:>5}" for row in removals if row.n == n]
        lines.append(f"{n:>3} " + " ".join(cells))
    differing = [row for row in removals if row.note]
    lines += ["", f"differences: {len(differing)}", ""]

    lines.append("Builds, all homes open (ours: exact / article = at least one / waives =")
    lines.append("any number, none included; article as printed: without / counting waives):")
    lines.append("")
    lines.append("power builds  exact article waives   printed  note")
    for build in build_table():
        printed = f"{build.printed_exact}" + (
            "" if build.printed_article is None else f" / {build.printed_article}"
        )
        lines.append(
            f"{build.power:<5} {build.builds:>6} {build.exact:>6} {build.article:>7}"
            f" {build.waives:>6}   {printed:<8} {build.note}".rstrip()
        )
    lines += ["", "The article's example (counted as printed, without waives):", ""]
    lines.append("power  from  to  open homes           ours  article")
    rows = example_table()
    for row in rows:
        homes = " ".join(row.open_homes) or "-"
        lines.append(
            f"{row.power:<5} {row.units:>5} {row.centres:>3}  {homes:<18} {row.count:>6}"
            f"  {row.article:>7}"
        )
    product = math.prod(row.count for row in rows)
    lines.append(f"total {product:,} (article {ARTICLE_EXAMPLE_TOTAL:,})")
    lines += ["", "Impossible on the board: " + example_impossibility()]
    best, per_power, _ = nearest_legal_example()
    the_map = Map.standard()
    described = ", ".join(
        f"{power} {u}->{c}" for power, (u, c, _) in zip(the_map.powers, per_power, strict=True)
    )
    lines.append(f"Nearest legal (same units per power, exact): {best:,} ({described})")
    return "\n".join(lines) + "\n"
