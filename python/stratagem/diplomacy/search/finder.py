"""The strategy finder (``docs/diplomacy-rules.md``): preliminary search, simulated annealing
and Loeb's combined search, in Rust, with the built-in evaluator or with an evaluator of your
own (a Python callable the engine calls with each position it evaluates); a mixed equilibrium
when the combined search cycles between two powers."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Literal, get_args

import numpy as np
from numpy.typing import NDArray

from stratagem import _core
from stratagem._files import cannot_read, read_json, write_json
from stratagem.diplomacy import engine
from stratagem.diplomacy.adjustments import batch, describe
from stratagem.diplomacy.engine import Convention, check_convention
from stratagem.diplomacy.search.equilibrium import (
    MixedEquilibrium,
    cycle_equilibrium,
    restricted_equilibrium,
)
from stratagem.errors import InvalidParameter

if TYPE_CHECKING:
    from stratagem.diplomacy.position import Position

Method = Literal["preliminary", "sequential", "anneal", "combined"]
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


def profile_orders(
    position: Position, convention: Convention, profile: Sequence[int]
) -> dict[str, list[str]]:
    """Each power's orders (``remove A VIE``, ``build F STP/SC``) when it plays its option of
    ``profile``."""
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
    order: Sequence[str] | None = None,
) -> SearchResult:
    """Runs one search of ``docs/diplomacy-rules.md`` on ``position``.

    ``max_evaluations`` and ``time_limit`` (seconds) bound every method; the result says
    whether the search finished. With ``evaluator`` the search runs in Python. ``order`` is
    the sequential search's order of the powers (every power once; "our" power last; default
    the map's order)."""
    check_convention(convention)
    if method not in METHODS:
        raise InvalidParameter(f"unknown method {method!r}; the methods are {', '.join(METHODS)}")
    ranks = power_order(position, order)
    for name, value in (("steps", steps), ("max_evaluations", max_evaluations)):
        if not isinstance(value, int) or value < 1:
            raise InvalidParameter(f"{name} must be a positive integer, got {value!r}")
    if not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise InvalidParameter(f"seed must be an integer in [0, 2**64), got {seed!r}")
    weights = weights or Weights()
    shown = None if evaluator is None else _shown(position, evaluator)
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
        shown,
        ranks,
    )
    evaluate = (
        _built_in(position, convention, weights)
        if shown is None
        else _valued(position, convention, shown)
    )
    return _result(position, convention, method, raw, evaluate)


def power_order(position: Position, order: Sequence[str] | None) -> list[int] | None:
    """The sequential search's order as power indices; ``None`` keeps the map's order."""
    if order is None:
        return None
    powers = list(position.map.powers)
    names = [str(p).upper() for p in order]
    if sorted(names) != sorted(powers):
        raise InvalidParameter(
            f"order must name every power once ({', '.join(powers)}), got {list(order)}"
        )
    return [powers.index(p) for p in names]


def _result(
    position: Position,
    convention: Convention,
    method: Method,
    raw: dict[str, Any],
    value: Callable[[tuple[int, ...]], Sequence[float]],
) -> SearchResult:
    """A search's result from the engine's dict, with the mixed equilibrium of a cycle."""
    profile = tuple(int(i) for i in raw["profile"])
    cycle = None if raw["cycle"] is None else tuple(tuple(int(i) for i in p) for p in raw["cycle"])
    mixed = None if cycle is None else cycle_equilibrium(position.map.powers, cycle, value)
    return SearchResult(
        method=method,
        profile=profile,
        values=raw["values"],
        orders=profile_orders(position, convention, profile),
        finished=bool(raw["finished"]),
        evaluations=int(raw["evaluations"]),
        cycle=cycle,
        mixed=mixed,
    )


class CombinedSearch:
    """Loeb's combined search (``docs/diplomacy-rules.md``), advanced in steps: each
    :meth:`advance` makes at most a given number of further evaluations, a search can be saved
    to a file and loaded to go on exactly where it stopped, and Ctrl-C leaves it intact between
    two evaluations. Running it to its end gives the result of ``solve(position, "combined")``.
    """

    FORMAT = "stratagem.diplomacy.combined"

    def __init__(
        self,
        position: Position,
        *,
        convention: Convention = "exact",
        weights: Weights | None = None,
    ) -> None:
        self.position = position
        self.convention = check_convention(convention)
        self.weights = weights or Weights()
        self._core = _core.diplomacy.Combined(
            engine.position(position), self.convention, self.weights.as_list()
        )

    @property
    def evaluations(self) -> int:
        """The evaluations made since the search began (the first profile's included)."""
        return int(self._core.outcome()["evaluations"])

    @property
    def finished(self) -> bool:
        """Whether the search has ended by its own rule (an equilibrium or a cycle)."""
        return bool(self._core.outcome()["finished"])

    def advance(
        self,
        evaluations: int | None = None,
        *,
        time_limit: float | None = None,
        progress: Callable[[int], object] | None = None,
    ) -> SearchResult:
        """Goes on until the search ends, ``evaluations`` more have been made (``None``: no
        limit) or ``time_limit`` seconds have passed; the result so far."""
        if evaluations is None:
            limit = 2**64 - 1
        elif (
            isinstance(evaluations, int) and not isinstance(evaluations, bool) and evaluations >= 0
        ):
            limit = min(self.evaluations + evaluations, 2**64 - 1)
        else:
            raise InvalidParameter(
                f"evaluations must be an integer >= 0 or None, got {evaluations!r}"
            )
        self._core.advance(limit, time_limit, progress)
        return self.result()

    def result(self) -> SearchResult:
        """The profile the search is at, as :func:`solve` reports it."""
        return _result(
            self.position,
            self.convention,
            "combined",
            self._core.outcome(),
            _built_in(self.position, self.convention, self.weights),
        )

    def state(self) -> dict[str, Any]:
        """The whole state: profile, values, evaluations, the power to move, the new lists
        (rows ``[power, start, end)``), the old lists (rows ``[power, index]`` and their
        values), the history of profiles, the ending and where a cycle starts."""
        return dict(self._core.state())

    def to_dict(self) -> dict[str, Any]:
        """The search as JSON-ready data: the position, its map, the convention, the weights
        and :meth:`state`."""
        state = {k: v.tolist() if isinstance(v, np.ndarray) else v for k, v in self.state().items()}
        return {
            "format": self.FORMAT,
            "version": 1,
            "map": self.position.map.text(),
            "position": str(self.position),
            "convention": self.convention,
            "weights": self.weights.as_list(),
            "state": state,
        }

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the search as JSON to ``path`` (written whole, then renamed into place)."""
        write_json(path, self.to_dict())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> CombinedSearch:
        """A saved search, going on exactly where it stopped."""
        data = read_json(path, cannot_read(path, "a saved combined search", InvalidParameter))
        return cls.from_dict(data, source=str(path))

    @classmethod
    def from_dict(cls, data: Any, *, source: str = "saved search") -> CombinedSearch:
        """A search from :meth:`to_dict`'s form; a broken one raises ``InvalidParameter``
        naming ``source`` and what is wrong."""
        from stratagem.diplomacy.map import Map
        from stratagem.diplomacy.position import Position

        if not isinstance(data, dict) or data.get("format") != cls.FORMAT:
            raise InvalidParameter(f"{source}: not a saved combined search ({cls.FORMAT!r})")
        if data.get("version") != 1:
            raise InvalidParameter(
                f"{source}: saved search version {data.get('version')!r}; this version reads 1"
            )
        saved_weights = data.get("weights")
        if not isinstance(saved_weights, list) or len(saved_weights) != len(fields(Weights)):
            raise InvalidParameter(
                f"{source}: weights must be a list of {len(fields(Weights))} integers "
                f"(centre, unit, reach, threat), got {saved_weights!r}"
            )
        try:
            the_map = Map.parse(str(data["map"]), source=f"{source} (its map)")
            position = Position.parse(str(data["position"]), the_map)
            weights = Weights(*saved_weights)
            search = cls.__new__(cls)
            search.position = position
            search.convention = check_convention(str(data["convention"]))
            search.weights = weights
            search._core = _core.diplomacy.Combined.restore(
                engine.position(position), search.convention, weights.as_list(), data["state"]
            )
        except (KeyError, TypeError, ValueError, OverflowError) as error:
            raise InvalidParameter(
                f"{source}: a saved combined search is broken: {error!r}"
            ) from None
        return search


def _shown(position: Position, evaluator: Evaluator) -> Callable[[list[Any]], list[float]]:
    """What the engine calls for a user's evaluator: the units after the adjustments, as
    ``(power, fleet, location)`` triples, become the position the evaluator is shown (the
    centres keep their owners), and its answer is checked: one finite number per power."""
    if not callable(evaluator):
        raise InvalidParameter(f"evaluator must be callable, got {evaluator!r}")
    from stratagem.diplomacy.position import Position, Unit

    the_map = position.map
    powers = the_map.powers
    locations = (the_map.army_locations(), the_map.fleet_locations())
    owners = dict(position.owners)

    def shown(units: list[Any]) -> list[float]:
        after = Position(
            the_map,
            tuple(
                Unit(powers[power], "F" if fleet else "A", locations[fleet][location])
                for power, fleet, location in units
            ),
            owners,
        )
        result = tuple(evaluator(after))
        if len(result) != len(powers):
            raise InvalidParameter(
                f"the evaluator must return {len(powers)} numbers, got {len(result)}"
            )
        numbers = [float(v) for v in result]
        if not all(np.isfinite(numbers)):
            raise InvalidParameter(f"the evaluator must return finite numbers, got {result}")
        return numbers

    return shown


def _built_in(
    position: Position, convention: Convention, weights: Weights
) -> Callable[[tuple[int, ...]], Sequence[float]]:
    """A profile's values under the built-in evaluator (for the mixed equilibrium of a cycle)."""
    return lambda profile: values(position, profile, convention, weights).tolist()


def _valued(
    position: Position, convention: Convention, shown: Callable[[list[Any]], list[float]]
) -> Callable[[tuple[int, ...]], Sequence[float]]:
    """A profile's values under a user's evaluator (for the mixed equilibrium of a cycle)."""
    native = engine.position(position)
    return lambda profile: shown(native.units_after(convention, list(profile)))


def mixed_equilibrium(
    a: NDArray[np.float64], b: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.float64], str]:
    """A mixed Nash equilibrium of the bimatrix game ``(a, b)`` (row payoffs ``a``, column
    payoffs ``b``) and how it was found: linear programming (HiGHS) when ``a + b`` is
    constant, else exact support enumeration (``docs/diplomacy-rules.md``)."""
    try:
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    except (TypeError, ValueError) as error:
        raise InvalidParameter(f"a and b must be matrices of numbers: {error}") from None
    if a.ndim != 2 or a.shape != b.shape or a.size == 0:
        raise InvalidParameter(
            f"a and b must be payoff matrices of one non-empty shape, got {a.shape} and {b.shape}"
        )
    for name, payoffs in (("a", a), ("b", b)):
        if not np.isfinite(payoffs).all():
            row, column = np.argwhere(~np.isfinite(payoffs))[0]
            raise InvalidParameter(
                f"payoffs must be finite; {name}[{row}, {column}] is {payoffs[row, column]}"
            )
    x, y, _, _, method = restricted_equilibrium(a.tolist(), b.tolist())
    return np.asarray(x, dtype=float), np.asarray(y, dtype=float), method
