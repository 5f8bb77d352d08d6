"""The mixed equilibrium of a two-power cycle of the combined search ("Combined search", step
5, on ``docs/diplomacy-rules.md``), shared by the engine's searches and the oracle's: the
restricted game is built from whatever evaluates a profile, and solved exactly (linear
programming with HiGHS when constant-sum, otherwise support enumeration in exact fractions).

Support enumeration runs over support pairs ordered by total size, then by the row support,
then by the column support (index tuples in lexicographic order), solves the indifference
equations exactly (free unknowns set to 0) and returns the first equilibrium found."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from stratagem.errors import InconsistentInput

__all__ = ["MixedEquilibrium", "cycle_equilibrium", "restricted_equilibrium"]

Profile = tuple[int, ...]


@dataclass(frozen=True)
class MixedEquilibrium:
    """A mixed equilibrium of the restricted game of a two-power cycle: ``powers`` the two
    powers, ``options`` the options each chooses among (indices), ``probabilities`` each
    one's mixture over them, ``values`` each one's expected value, ``method``
    ``'linear programming (HiGHS)'`` (constant-sum) or ``'support enumeration'``."""

    powers: tuple[str, str]
    options: tuple[tuple[int, ...], tuple[int, ...]]
    probabilities: tuple[tuple[float, ...], tuple[float, ...]]
    values: tuple[float, float]
    method: str


def cycle_equilibrium(
    powers: Sequence[str],
    cycle: Sequence[Profile],
    value: Callable[[Profile], Sequence[float]],
) -> MixedEquilibrium | None:
    """The rule: "When the cycle's profiles differ in exactly two powers, the mixed
    equilibrium of their restricted game -- those two powers, each choosing among the options
    it played in the cycle, the others fixed -- is computed". ``value`` evaluates a profile;
    the players' options are taken in increasing index order."""
    moving = [p for p in range(len(powers)) if len({q[p] for q in cycle}) > 1]
    if len(moving) != 2:
        return None
    first, second = moving
    rows = tuple(sorted({q[first] for q in cycle}))
    columns = tuple(sorted({q[second] for q in cycle}))
    base = list(cycle[0])
    payoff_rows: list[list[float]] = []
    payoff_columns: list[list[float]] = []
    for r in rows:
        row_a, row_b = [], []
        for c in columns:
            base[first], base[second] = r, c
            cell = value(tuple(base))
            row_a.append(float(cell[first]))
            row_b.append(float(cell[second]))
        payoff_rows.append(row_a)
        payoff_columns.append(row_b)
    x, y, value_a, value_b, method = restricted_equilibrium(payoff_rows, payoff_columns)
    return MixedEquilibrium(
        (powers[first], powers[second]),
        (rows, columns),
        (x, y),
        (value_a, value_b),
        method,
    )


def restricted_equilibrium(
    a: Sequence[Sequence[float]], b: Sequence[Sequence[float]]
) -> tuple[tuple[float, ...], tuple[float, ...], float, float, str]:
    """A mixed equilibrium ``(x, y, value_row, value_column, method)`` of the bimatrix game
    ``(a, b)`` (row player's payoffs ``a``, column player's ``b``): "by linear programming
    (``scipy.optimize.linprog``, HiGHS) when the restricted game is constant-sum, otherwise by
    support enumeration"."""
    sums = {a[i][j] + b[i][j] for i in range(len(a)) for j in range(len(a[0]))}
    if len(sums) == 1:
        x, value_a = _maximin(a)
        transposed = [[b[i][j] for i in range(len(a))] for j in range(len(a[0]))]
        y, value_b = _maximin(transposed)
        return x, y, value_a, value_b, "linear programming (HiGHS)"
    found = _support_enumeration(a, b)
    if found is None:  # pragma: no cover - every finite game has an equilibrium
        raise InconsistentInput("support enumeration found no equilibrium")
    return found


def _maximin(payoff: Sequence[Sequence[float]]) -> tuple[tuple[float, ...], float]:
    """The row player's maximin mixture of a zero-sum game and its value: maximise ``v``
    subject to ``sum_i x_i payoff[i][j] >= v`` for every column, ``sum x = 1``, ``x >= 0``."""
    from scipy.optimize import linprog

    m, n = len(payoff), len(payoff[0])
    objective = [0.0] * m + [-1.0]
    upper = [[-float(payoff[i][j]) for i in range(m)] + [1.0] for j in range(n)]
    result = linprog(
        objective,
        A_ub=upper,
        b_ub=[0.0] * n,
        A_eq=[[1.0] * m + [0.0]],
        b_eq=[1.0],
        bounds=[(0.0, None)] * m + [(None, None)],
        method="highs",
    )
    return tuple(float(v) for v in result.x[:m]), float(result.x[m])


def _solve(equations: list[list[Fraction]]) -> list[Fraction] | None:
    """A solution of the augmented linear system (free unknowns 0), or ``None``."""
    rows = [list(r) for r in equations]
    width = len(rows[0]) - 1
    pivots: list[int] = []
    line = 0
    for column in range(width):
        pivot = next((r for r in range(line, len(rows)) if rows[r][column] != 0), None)
        if pivot is None:
            continue
        rows[line], rows[pivot] = rows[pivot], rows[line]
        lead = rows[line][column]
        rows[line] = [v / lead for v in rows[line]]
        for r in range(len(rows)):
            if r != line and rows[r][column] != 0:
                factor = rows[r][column]
                rows[r] = [v - factor * w for v, w in zip(rows[r], rows[line], strict=True)]
        pivots.append(column)
        line += 1
    if any(all(v == 0 for v in r[:-1]) and r[-1] != 0 for r in rows):
        return None
    solution = [Fraction(0)] * width
    for r, column in enumerate(pivots):
        solution[column] = rows[r][-1]
    return solution


def _support_enumeration(
    a: Sequence[Sequence[float]], b: Sequence[Sequence[float]]
) -> tuple[tuple[float, ...], tuple[float, ...], float, float, str] | None:
    m, n = len(a), len(a[0])
    fa = [[Fraction(v) for v in row] for row in a]
    fb = [[Fraction(v) for v in row] for row in b]
    pairs = [
        (rows, columns)
        for size_r in range(1, m + 1)
        for size_c in range(1, n + 1)
        for rows in itertools.combinations(range(m), size_r)
        for columns in itertools.combinations(range(n), size_c)
    ]
    pairs.sort(key=lambda pair: (len(pair[0]) + len(pair[1]), pair[0], pair[1]))
    for rows, columns in pairs:
        # y on the columns makes every row of the support worth v: a y = v, sum y = 1
        system = [[fa[i][j] for j in columns] + [Fraction(-1), Fraction(0)] for i in rows]
        system.append([Fraction(1)] * len(columns) + [Fraction(0), Fraction(1)])
        y_part = _solve(system)
        # x on the rows makes every column of the support worth w: x b = w, sum x = 1
        system = [[fb[i][j] for i in rows] + [Fraction(-1), Fraction(0)] for j in columns]
        system.append([Fraction(1)] * len(rows) + [Fraction(0), Fraction(1)])
        x_part = _solve(system)
        if y_part is None or x_part is None:
            continue
        y = [Fraction(0)] * n
        for j, v in zip(columns, y_part, strict=False):
            y[j] = v
        x = [Fraction(0)] * m
        for i, v in zip(rows, x_part, strict=False):
            x[i] = v
        if any(v < 0 for v in x + y):
            continue
        row_values = [sum((fa[i][j] * y[j] for j in range(n)), Fraction(0)) for i in range(m)]
        column_values = [sum((x[i] * fb[i][j] for i in range(m)), Fraction(0)) for j in range(n)]
        v, w = max(row_values), max(column_values)
        if all(row_values[i] == v for i in rows) and all(column_values[j] == w for j in columns):
            return (
                tuple(float(p) for p in x),
                tuple(float(p) for p in y),
                float(v),
                float(w),
                "support enumeration",
            )
    return None
