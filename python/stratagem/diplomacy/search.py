"""The strategy finder (``docs/diplomacy-rules.md``): preliminary search, simulated annealing
and Loeb's combined search, in Rust with the built-in evaluator or in Python
(:mod:`stratagem.diplomacy.oracle`) with an evaluator of your own; a mixed equilibrium when the
combined search cycles between two powers."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, get_args

import numpy as np
from numpy.typing import NDArray

from stratagem.diplomacy import engine
from stratagem.diplomacy.adjustments import batch, describe
from stratagem.diplomacy.engine import Convention, check_convention
from stratagem.errors import InvalidParameter

if TYPE_CHECKING:
    from stratagem.diplomacy.position import Position

Method = Literal["preliminary", "anneal", "combined"]
METHODS: tuple[Method, ...] = get_args(Method)
#: A Python evaluator: the position after every adjustment -> one number per power.
Evaluator = Callable[["Position"], Sequence[float]]


@dataclass(frozen=True)
class Weights:
    """The evaluator's integer weights (``docs/diplomacy-rules.md``, "The evaluator")."""

    centre: int = 12
    unit: int = 4
    reach: int = 2
    threat: int = 3

    def as_list(self) -> list[int]:
        values = [self.centre, self.unit, self.reach, self.threat]
        if any(not isinstance(v, int) for v in values):
            raise InvalidParameter(f"weights are integers, got {values}")
        return values


@dataclass(frozen=True)
class MixedEquilibrium:
    """A mixed equilibrium of the two powers of a cycle, the others fixed: each power's
    options (indices) and the probability of each."""

    powers: tuple[str, str]
    options: tuple[tuple[int, ...], tuple[int, ...]]
    probabilities: tuple[tuple[float, ...], tuple[float, ...]]
    values: tuple[float, float]
    method: str


@dataclass(frozen=True)
class SearchResult:
    """What a search found: one option index per power, the values of that profile, the
    orders, whether the search ended by its own rule (``finished``), how many evaluations it
    made, and for a cycle its profiles and, between two powers, a mixed equilibrium."""

    method: str
    profile: tuple[int, ...]
    values: NDArray[np.int64]
    orders: dict[str, list[str]]
    finished: bool
    evaluations: int
    cycle: tuple[tuple[int, ...], ...] | None = None
    mixed: MixedEquilibrium | None = field(default=None)


def values(
    position: Position,
    profile: Sequence[int | None],
    convention: Convention = "exact",
    weights: Weights | None = None,
) -> NDArray[np.int64]:
    """Every power's value when each plays its option of ``profile`` (``None``: nothing)."""
    check_convention(convention)
    result: NDArray[np.int64] = engine.position(position).values(
        convention, list(profile), (weights or Weights()).as_list()
    )
    return result


def _orders(position: Position, convention: Convention, profile: Sequence[int]) -> dict[str, Any]:
    orders: dict[str, list[str]] = {}
    for power, index in zip(position.map.powers, profile, strict=True):
        row = batch(position, power, convention, index, index + 1)
        orders[power] = describe(position, power, [int(v) for v in row[0]]) if len(row) else []
    return orders


def solve(
    position: Position,
    method: Method = "combined",
    *,
    convention: Convention = "exact",
    weights: Weights | None = None,
    evaluator: Evaluator | None = None,
    seed: int = 0,
    steps: int = 2000,
    max_evaluations: int = 1_000_000,
    time_limit: float | None = None,
    threads: int | None = None,
    progress: Callable[[int], object] | None = None,
) -> SearchResult:
    """Runs one search of ``docs/diplomacy-rules.md`` on ``position``.

    ``max_evaluations`` and ``time_limit`` (seconds) bound every method; the result says
    whether the search finished. With ``evaluator`` the search runs in Python."""
    check_convention(convention)
    if method not in METHODS:
        raise InvalidParameter(
            f"unknown method {method!r}; the methods are preliminary, anneal and combined"
        )
    for name, value in (("steps", steps), ("max_evaluations", max_evaluations)):
        if not isinstance(value, int) or value < 1:
            raise InvalidParameter(f"{name} must be a positive integer, got {value!r}")
    if not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise InvalidParameter(f"seed must be an integer in [0, 2**64), got {seed!r}")
    weights = weights or Weights()
    if evaluator is not None:
        return _solve_in_python(
            position,
            method,
            convention=convention,
            weights=weights,
            evaluator=evaluator,
            seed=seed,
            steps=steps,
            max_evaluations=max_evaluations,
        )
    raw = engine.position(position).search(
        method,
        convention,
        weights.as_list(),
        seed,
        steps,
        max_evaluations,
        time_limit,
        None,
        threads,
        progress,
    )
    profile = tuple(int(i) for i in raw["profile"])
    cycle = None if raw["cycle"] is None else tuple(tuple(int(i) for i in p) for p in raw["cycle"])
    mixed = None if cycle is None else _mixed_from_cycle(position, convention, weights, cycle)
    return SearchResult(
        method=method,
        profile=profile,
        values=raw["values"],
        orders=_orders(position, convention, profile),
        finished=bool(raw["finished"]),
        evaluations=int(raw["evaluations"]),
        cycle=cycle,
        mixed=mixed,
    )


def _solve_in_python(
    position: Position,
    method: Method,
    *,
    convention: Convention,
    weights: Weights,
    evaluator: Evaluator,
    seed: int,
    steps: int,
    max_evaluations: int,
) -> SearchResult:
    from stratagem.diplomacy import oracle

    plain = oracle.Weights(*weights.as_list())
    if method == "preliminary":
        found = oracle.preliminary(position, convention, plain, evaluator=evaluator)
    elif method == "anneal":
        found = oracle.anneal(position, convention, plain, seed, steps, evaluator=evaluator)
    else:
        found = oracle.combined(position, convention, plain, max_evaluations, evaluator=evaluator)
    profile = tuple(int(i) for i in found.profile)
    return SearchResult(
        method=method,
        profile=profile,
        values=np.asarray(found.values),
        orders=_orders(position, convention, profile),
        finished=bool(found.finished),
        evaluations=int(found.evaluations),
        cycle=found.cycle,
    )


def _mixed_from_cycle(
    position: Position,
    convention: Convention,
    weights: Weights,
    cycle: tuple[tuple[int, ...], ...],
) -> MixedEquilibrium | None:
    """The restricted game of a cycle between exactly two powers, solved."""
    moving = [p for p in range(len(cycle[0])) if len({profile[p] for profile in cycle}) > 1]
    if len(moving) != 2:
        return None
    first, second = moving
    rows = tuple(sorted({profile[first] for profile in cycle}))
    cols = tuple(sorted({profile[second] for profile in cycle}))
    base = list(cycle[0])
    a = np.zeros((len(rows), len(cols)))
    b = np.zeros((len(rows), len(cols)))
    for i, j in itertools.product(range(len(rows)), range(len(cols))):
        base[first], base[second] = rows[i], cols[j]
        found = values(position, base, convention, weights)
        a[i, j], b[i, j] = found[first], found[second]
    x, y, method = mixed_equilibrium(a, b)
    powers = (position.map.powers[first], position.map.powers[second])
    return MixedEquilibrium(
        powers=powers,
        options=(rows, cols),
        probabilities=(tuple(float(v) for v in x), tuple(float(v) for v in y)),
        values=(float(x @ a @ y), float(x @ b @ y)),
        method=method,
    )


def _zero_sum_strategy(payoff: NDArray[np.float64]) -> NDArray[np.float64]:
    """The row player's maximin strategy of ``payoff`` by linear programming (HiGHS)."""
    from scipy.optimize import linprog

    m, n = payoff.shape
    # Variables x_1..x_m, v: maximise v with every column paying at least v.
    cost = np.zeros(m + 1)
    cost[-1] = -1.0
    upper = np.hstack([-payoff.T, np.ones((n, 1))])
    equal = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * m + [(None, None)]
    found = linprog(
        cost, A_ub=upper, b_ub=np.zeros(n), A_eq=equal, b_eq=[1.0], bounds=bounds, method="highs"
    )
    strategy = np.clip(np.asarray(found.x[:m], dtype=float), 0.0, None)
    return np.asarray(strategy / strategy.sum(), dtype=float)


def mixed_equilibrium(
    a: NDArray[np.float64], b: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.float64], str]:
    """A mixed Nash equilibrium of the bimatrix game ``(a, b)`` (row payoffs ``a``, column
    payoffs ``b``): linear programming when ``a + b`` is constant, else support enumeration
    (equal-sized supports, smallest first)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    total = a + b
    if np.allclose(total, total.flat[0]):
        return _zero_sum_strategy(a), _zero_sum_strategy(b.T), "linear programming (HiGHS)"
    m, n = a.shape
    for size in range(1, min(m, n) + 1):
        for rows in itertools.combinations(range(m), size):
            for cols in itertools.combinations(range(n), size):
                found = _support_equilibrium(a, b, rows, cols)
                if found is not None:
                    return found[0], found[1], "support enumeration"
    raise InvalidParameter("no equilibrium found by support enumeration (a degenerate game)")


def _support_equilibrium(
    a: NDArray[np.float64], b: NDArray[np.float64], rows: tuple[int, ...], cols: tuple[int, ...]
) -> tuple[NDArray[np.float64], NDArray[np.float64]] | None:
    size = len(rows)

    def indifferent(payoff: NDArray[np.float64]) -> NDArray[np.float64] | None:
        # Probabilities p over the support and a value w: payoff @ p == w on every row.
        system = np.zeros((size + 1, size + 1))
        system[:size, :size] = payoff
        system[:size, size] = -1.0
        system[size, :size] = 1.0
        rhs = np.zeros(size + 1)
        rhs[size] = 1.0
        try:
            solution = np.asarray(np.linalg.solve(system, rhs), dtype=np.float64)
        except np.linalg.LinAlgError:
            return None
        return solution

    y_part = indifferent(a[np.ix_(rows, cols)])
    x_part = indifferent(b[np.ix_(rows, cols)].T)
    if y_part is None or x_part is None:
        return None
    if (y_part[:size] < -1e-12).any() or (x_part[:size] < -1e-12).any():
        return None
    x = np.zeros(a.shape[0])
    y = np.zeros(a.shape[1])
    x[list(rows)] = x_part[:size]
    y[list(cols)] = y_part[:size]
    # No better reply outside the supports.
    if (a @ y > y_part[size] + 1e-9).any() or (x @ b > x_part[size] + 1e-9).any():
        return None
    return x, y
