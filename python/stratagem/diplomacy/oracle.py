"""Winter adjustments in plain Python: the oracle of the Rust engine in ``rust/diplomacy``.

Written for reading, not speed. Every function quotes the rule it plays from
``docs/diplomacy-rules.md``, in the order of that page: the options of one power (counted by
the formulas, listed by brute force with :mod:`itertools`), the position after a profile, the
evaluator, the three searches and the open problem. The tests demand that the listing have as
many options as the count says, and that the engine reproduce this module exactly.

A **profile** is one option index per power (map order), an index into that power's listing
under the convention given; a power's **slots** are the option in slot form (see
:func:`options`).

Readings of the rules page made here:

- A power with one option because ``u = c`` or ``b = 0`` has, in slot form, the empty
  tuple ``()``: it decides nothing (the doc gives slots to units and open homes but does not
  say how wide the "doing nothing" row is; for ``u = c`` with open homes the rows would be
  zeros, and here they are ``()``). A power that must remove all its units (``k = u``) has
  one option too, all ones.
- Budgets and the count of evaluations: ``evaluations`` counts every call of the evaluator a
  search made, and ``max_evaluations`` bounds them. The preliminary search values the profile
  it returns with one more call (its values are not known from the search), counted but not
  bounded; the combined search's first call values the first profile ``P`` and is always made.
  The simulated annealing's count (and budget) includes the preliminary search it starts
  from. ``time_limit`` (seconds) stops a search as well; a result cut short by either budget has
  ``finished = False``.
- The combined search on a cycle stops with ``finished = True`` (it ended by its own rule),
  ``cycle`` the profiles from the first visit of the repeated profile up to the one before the
  repeat (each once), and ``profile`` the repeated profile; a pure Nash equilibrium is a
  finished result with ``cycle is None``. The restricted game's players choose among the
  options they played in the cycle in increasing index order; its payoffs are evaluated
  afresh, outside the search's count of evaluations. The restricted game is solved by
  :mod:`stratagem.diplomacy.search.equilibrium`, shared with the engine's searches.
- A proposal of the simulated annealing that reproduces the current option is evaluated like
  any other (it is never better, so it is never kept).
- ``apply`` and ``values`` take the convention (it fixes the listing the indices point into),
  ``"waives"`` unless told.

The open problem (:func:`open_problem`, about a second per convention here, a third of that
with the victory rule): the largest totals are 16,130,949,120 (``exact``: a 17-unit power
down to 8 centres, 24,310, and six powers with 1 unit or none and two or three open homes),
1,969,817,952,960 (``waives``) and 1,536,258,489,480 (``article``: both a 15-unit power down to
7 centres, 6,435, and six powers with no unit and every home open); the victory rule changes
none of them, as no power of these answers needs more than 17 centres. :func:`position_for`
builds a concrete position for them.
"""

from __future__ import annotations

import itertools
import math
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from stratagem import _validate
from stratagem.diplomacy.map import Map
from stratagem.diplomacy.position import Position, Unit
from stratagem.diplomacy.search.equilibrium import (
    MixedEquilibrium,
    cycle_equilibrium,
    restricted_equilibrium,
)
from stratagem.errors import InconsistentInput, InvalidParameter
from stratagem.rng.oracle import Cursor, Stream

__all__ = [
    "CAP",
    "CONVENTIONS",
    "DEFAULT_STEPS",
    "DEFAULT_WEIGHTS",
    "MixedEquilibrium",
    "SearchResult",
    "Weights",
    "adjust",
    "adjustment_count",
    "anneal",
    "apply",
    "combined",
    "count",
    "describe",
    "distance",
    "elementary_symmetric",
    "evaluate",
    "index_of",
    "open_problem",
    "open_problem_position",
    "option_at",
    "options",
    "position_for",
    "power_choices",
    "preliminary",
    "previous_centres",
    "restricted_equilibrium",
    "retreat_options",
    "retreat_plan",
    "sequential",
    "total",
    "values",
]

#: The three counting conventions: build the maximum, any number (none included), at least one.
CONVENTIONS: tuple[str, ...] = ("exact", "waives", "article")
#: "Distances are capped at 3 (anything farther counts as 3)."
CAP = 3
#: "``steps`` proposals (the budget, default 2,000)".
DEFAULT_STEPS = 2_000

Slots = tuple[int, ...]
Profile = tuple[int, ...]
Values = tuple[float, ...]
Evaluator = Callable[[Position], Sequence[float]]
#: Per power, in map order: ``(units, centres, open homes)``.
Resources = tuple[int, int, tuple[str, ...]]


class Weights(NamedTuple):
    """The evaluator's weights: "``w_centre = 12``, ``w_unit = 4``, ``w_reach = 2``,
    ``w_threat = 3`` (integers; any integers may be given)"."""

    centre: int = 12
    unit: int = 4
    reach: int = 2
    threat: int = 3


DEFAULT_WEIGHTS = Weights()


# --- Checked input ----------------------------------------------------------------------------


def _convention(convention: object) -> str:
    if convention not in CONVENTIONS:
        raise InvalidParameter(
            f"convention must be one of {', '.join(CONVENTIONS)}, got {convention!r}"
        )
    return str(convention)


def _position(position: object) -> Position:
    if not isinstance(position, Position):
        raise InvalidParameter(f"position must be a Position, got {type(position).__name__}")
    return position


def _power(map: Map, power: object) -> str:
    """A power given by its code (any case) or its index in ``map.powers``."""
    if isinstance(power, int) and not isinstance(power, bool) and 0 <= power < len(map.powers):
        return map.powers[power]
    if isinstance(power, str) and power.upper() in map.powers:
        return power.upper()
    raise InvalidParameter(f"unknown power {power!r} (powers: {', '.join(map.powers)})")


def _weights(weights: object) -> Weights:
    if not isinstance(weights, tuple) or len(weights) != 4:
        raise InvalidParameter(f"weights must be (centre, unit, reach, threat), got {weights!r}")
    names = Weights._fields
    return Weights(
        *(_validate.integer(f"weights.{n}", w) for n, w in zip(names, weights, strict=True))
    )


def _profile(position: Position, profile: object, convention: str) -> Profile:
    powers = position.map.powers
    if not isinstance(profile, Sequence) or len(profile) != len(powers):
        raise InvalidParameter(
            f"a profile is one option index per power ({len(powers)}), got {profile!r}"
        )
    checked = []
    for power, index in zip(powers, profile, strict=True):
        n = count(position, power, convention)
        checked.append(_validate.integer(f"option of {power}", index, 0, n - 1))
    return tuple(checked)


# --- Adjustments of one power -----------------------------------------------------------------


def elementary_symmetric(values: Sequence[int]) -> list[int]:
    """``[e_0, e_1, ..., e_n]``: ``e_j`` is the sum over the ``j``-subsets of ``values`` of
    their products (``e_0 = 1``)."""
    e = [1] + [0] * len(values)
    for value in values:
        for j in range(len(values), 0, -1):
            e[j] += e[j - 1] * value
    return e


def _build_sizes(b: int, convention: str) -> range:
    """The numbers ``j`` of builds an adjustment may have: "``exact``: ``j = b``; ``waives``:
    ``0 <= j <= b``; ``article``: ``1 <= j <= b``"."""
    if convention == "exact":
        return range(b, b + 1)
    if convention == "waives":
        return range(0, b + 1)
    return range(1, b + 1)


def adjustment_count(units: int, centres: int, home_options: Sequence[int], convention: str) -> int:
    """The number of options of a power with ``units`` units, ``centres`` centres and open
    homes with ``home_options`` build options each (1 inland, 2 coastal, 3 bicoastal).

    - Removals (``u > c``): ``C(u, k)`` with ``k = u - c``.
    - Builds (``c > u``): with ``b = min(c - u, open homes)``, "the counts are ``e_b``,
      ``e_0 + ... + e_b`` and ``e_1 + ... + e_b``".
    - "Otherwise (``u = c``, or ``b = 0``): one option, doing nothing, under every convention."
    """
    convention = _convention(convention)
    u, c = units, centres
    if u > c:
        return math.comb(u, u - c)
    b = min(c - u, len(home_options))
    if b == 0:
        return 1
    e = elementary_symmetric(home_options)
    return sum(e[j] for j in _build_sizes(b, convention))


@dataclass(frozen=True)
class _Adjustment:
    """What a power must or may do: ``kind`` is ``'remove'``, ``'build'`` or ``'none'``; ``k``
    units to remove, or at most ``b`` builds on ``homes`` with ``choices[i]`` the build options
    of ``homes[i]``."""

    kind: str
    units: tuple[Unit, ...]
    k: int
    b: int
    homes: tuple[str, ...]
    choices: tuple[tuple[str, ...], ...]


def _adjustment(position: Position, power: str) -> _Adjustment:
    units = position.units_of(power)
    u, c = len(units), len(position.centres_of(power))
    if u > c:
        return _Adjustment("remove", units, u - c, 0, (), ())
    homes = position.open_homes(power)
    b = min(c - u, len(homes))
    if b == 0:
        return _Adjustment("none", units, 0, 0, (), ())
    choices = tuple(position.map.build_options(h) for h in homes)
    return _Adjustment("build", units, 0, b, homes, choices)


def count(position: Position, power: str | int, convention: str) -> int:
    """The number of options of ``power``, by the formulas of "Adjustments of one power"."""
    position = _position(position)
    code = _power(position.map, power)
    u, c = len(position.units_of(code)), len(position.centres_of(code))
    homes = position.open_homes(code)
    return adjustment_count(u, c, [len(position.map.build_options(h)) for h in homes], convention)


def total(position: Position, convention: str) -> int:
    """The rule: "The total for a position is the product of the seven counts" (an int)."""
    return math.prod(count(position, p, convention) for p in position.map.powers)


def options(position: Position, power: str | int, convention: str) -> Iterator[Slots]:
    """Every option of ``power`` in listing order, in slot form, by brute force.

    - Removals: "the ``k``-subsets of its units ... in lexicographic order of the unit indices
      (the order of Python's ``itertools.combinations``)"; slots "one per unit, ``1`` if
      removed else ``0``".
    - Builds: "by ``j`` ascending; for one ``j``, the sets of homes in lexicographic order of
      their open-home indices; for one set, the product of the homes' options in
      ``itertools.product`` order (the first home's option varies slowest)"; slots "one per
      open home, ``0`` for no build, ``i + 1`` for the home's option ``i``".
    - Otherwise one option, doing nothing: ``()``.
    """
    position = _position(position)
    convention = _convention(convention)
    adjustment = _adjustment(position, _power(position.map, power))
    if adjustment.kind == "remove":
        u = len(adjustment.units)
        for removed in itertools.combinations(range(u), adjustment.k):
            yield tuple(1 if i in removed else 0 for i in range(u))
    elif adjustment.kind == "build":
        n = len(adjustment.homes)
        for j in _build_sizes(adjustment.b, convention):
            for chosen in itertools.combinations(range(n), j):
                for picks in itertools.product(
                    *(range(len(adjustment.choices[h])) for h in chosen)
                ):
                    slots = [0] * n
                    for home, pick in zip(chosen, picks, strict=True):
                        slots[home] = pick + 1
                    yield tuple(slots)
    else:
        yield ()


def option_at(position: Position, power: str | int, convention: str, index: int) -> Slots:
    """The option of ``power`` at ``index`` in its listing, without listing the ones before
    (unranking; the tests check it against :func:`options`)."""
    position = _position(position)
    convention = _convention(convention)
    code = _power(position.map, power)
    n = count(position, code, convention)
    rank = _validate.integer("index", index, 0, n - 1)
    adjustment = _adjustment(position, code)
    if adjustment.kind == "remove":
        u, k = len(adjustment.units), adjustment.k
        removed: list[int] = []
        start = 0
        for place in range(k):
            for i in range(start, u):
                # the k-subsets whose next smallest member is i
                block = math.comb(u - i - 1, k - place - 1)
                if rank < block:
                    removed.append(i)
                    start = i + 1
                    break
                rank -= block
        return tuple(1 if i in removed else 0 for i in range(u))
    if adjustment.kind == "build":
        sizes = [len(c) for c in adjustment.choices]
        for j in _build_sizes(adjustment.b, convention):
            for chosen in itertools.combinations(range(len(sizes)), j):
                weight = math.prod(sizes[h] for h in chosen)
                if rank >= weight:
                    rank -= weight
                    continue
                slots = [0] * len(sizes)
                for home in reversed(chosen):  # the last home's option varies fastest
                    slots[home] = rank % sizes[home] + 1
                    rank //= sizes[home]
                return tuple(slots)
    return ()


def index_of(position: Position, power: str | int, convention: str, slots: Sequence[int]) -> int:
    """The index of ``slots`` in the listing of ``power`` (ranking, the inverse of
    :func:`option_at`); an option the listing does not hold raises
    :class:`~stratagem.errors.InvalidParameter`."""
    position = _position(position)
    convention = _convention(convention)
    code = _power(position.map, power)
    adjustment = _adjustment(position, code)
    slots = tuple(slots)
    wrong = InvalidParameter(f"{slots!r} is not an option of {code} under {convention!r}")
    if adjustment.kind == "remove":
        u, k = len(adjustment.units), adjustment.k
        if len(slots) != u or any(s not in (0, 1) for s in slots) or sum(slots) != k:
            raise wrong
        removed = [i for i, s in enumerate(slots) if s]
        rank, start = 0, 0
        for place, member in enumerate(removed):
            for i in range(start, member):
                rank += math.comb(u - i - 1, k - place - 1)
            start = member + 1
        return rank
    if adjustment.kind == "build":
        sizes = [len(c) for c in adjustment.choices]
        if len(slots) != len(sizes) or any(
            not 0 <= s <= n for s, n in zip(slots, sizes, strict=True)
        ):
            raise wrong
        chosen_set = tuple(h for h, s in enumerate(slots) if s)
        if len(chosen_set) not in _build_sizes(adjustment.b, convention):
            raise wrong
        e = elementary_symmetric(sizes)
        rank = sum(e[j] for j in _build_sizes(adjustment.b, convention) if j < len(chosen_set))
        for chosen in itertools.combinations(range(len(sizes)), len(chosen_set)):
            if chosen == chosen_set:
                break
            rank += math.prod(sizes[h] for h in chosen)
        within = 0
        for home in chosen_set:  # the first home's option varies slowest
            within = within * sizes[home] + slots[home] - 1
        return rank + within
    if slots != ():
        raise wrong
    return 0


def describe(position: Position, power: str | int, slots: Sequence[int]) -> list[str]:
    """An option as orders: ``['remove A VIE', 'build F STP/SC']``."""
    position = _position(position)
    code = _power(position.map, power)
    adjustment = _adjustment(position, code)
    slots = tuple(slots)
    if adjustment.kind == "remove":
        if len(slots) != len(adjustment.units):
            raise InvalidParameter(f"{code} has {len(adjustment.units)} slots, got {slots!r}")
        return [f"remove {unit}" for unit, s in zip(adjustment.units, slots, strict=True) if s]
    if adjustment.kind == "build":
        if len(slots) != len(adjustment.homes):
            raise InvalidParameter(f"{code} has {len(adjustment.homes)} slots, got {slots!r}")
        return [
            f"build {_built(home, choices[s - 1])}"
            for home, choices, s in zip(adjustment.homes, adjustment.choices, slots, strict=True)
            if s
        ]
    if slots:
        raise InvalidParameter(f"{code} has no adjustment to make, got {slots!r}")
    return []


def _built(home: str, option: str) -> str:
    """The unit a build option makes: ``'A'`` -> ``A VIE``, ``'F/NC'`` -> ``F STP/NC``."""
    kind, _, coast = option.partition("/")
    return f"{kind} {home}/{coast}" if coast else f"{kind} {home}"


def adjust(position: Position, slots: Sequence[Sequence[int]]) -> Position:
    """The position after every power's adjustment given in slot form (one per power, map
    order): units removed, units built; "centre ownership does not change in winter". Each
    power's slots must be an option under some convention: exactly ``k`` removals, or at most
    ``b`` builds."""
    position = _position(position)
    powers = position.map.powers
    if len(slots) != len(powers):
        raise InvalidParameter(
            f"adjust takes one option per power ({len(powers)}), got {len(slots)}"
        )
    checked = []
    for power, given in zip(powers, slots, strict=True):
        chosen = tuple(given)
        describe(position, power, chosen)  # checks the width
        adjustment = _adjustment(position, power)
        if adjustment.kind == "remove" and (
            any(s not in (0, 1) for s in chosen) or sum(chosen) != adjustment.k
        ):
            raise InvalidParameter(
                f"{power} must remove exactly {adjustment.k} units, got {chosen}"
            )
        if adjustment.kind == "build" and (
            any(not 0 <= s <= len(c) for s, c in zip(chosen, adjustment.choices, strict=True))
            or sum(1 for s in chosen if s) > adjustment.b
        ):
            raise InvalidParameter(f"{power} may build at most {adjustment.b} units, got {chosen}")
        checked.append(chosen)
    return _after(position, checked)


def _after(position: Position, slots: Sequence[Slots]) -> Position:
    """:func:`adjust` without the checks (the preliminary search also plays "doing nothing",
    keeping every unit, for a power that must remove)."""
    units: list[Unit] = []
    for power, chosen in zip(position.map.powers, slots, strict=True):
        adjustment = _adjustment(position, power)
        if adjustment.kind == "remove":
            units += [unit for unit, s in zip(adjustment.units, chosen, strict=True) if not s]
            continue
        units += adjustment.units
        for home, choices, s in zip(adjustment.homes, adjustment.choices, chosen, strict=True):
            if s:
                kind, _, coast = choices[s - 1].partition("/")
                units.append(Unit(power, kind, f"{home}/{coast}" if coast else home))
    return Position(position.map, tuple(units), dict(position.owners))


def apply(position: Position, profile: Sequence[int], convention: str = "waives") -> Position:
    """The position after every power plays its option of ``profile`` (indices into the
    listings under ``convention``)."""
    position = _position(position)
    convention = _convention(convention)
    checked = _profile(position, profile, convention)
    return adjust(
        position,
        [
            option_at(position, p, convention, i)
            for p, i in zip(position.map.powers, checked, strict=True)
        ],
    )


# --- The evaluator ----------------------------------------------------------------------------


_DISTANCES: dict[Map, tuple[dict[str, dict[str, int]], dict[str, dict[str, int]]]] = {}


def _distance_tables(map: Map) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, int]]]:
    """For every army location and every fleet location, the provinces within ``CAP - 1``
    moves and their distances ("breadth-first search on the army graph for an army, on the
    fleet graph for a fleet (to the nearest location of the province)"); a province absent
    is at the cap."""
    if map not in _DISTANCES:
        tables = []
        for locations, neighbours in (
            (map.army_locations(), map.army_neighbours),
            (map.fleet_locations(), map.fleet_neighbours),
        ):
            table: dict[str, dict[str, int]] = {}
            for start in locations:
                near: dict[str, int] = {}
                frontier, seen, d = [start], {start}, 0
                while frontier and d < CAP:
                    for loc in frontier:
                        near.setdefault(map.province_of(loc), d)
                    following = []
                    for loc in frontier:
                        for other in neighbours(loc):
                            if other not in seen:
                                seen.add(other)
                                following.append(other)
                    frontier, d = following, d + 1
                table[start] = near
            tables.append(table)
        _DISTANCES[map] = (tables[0], tables[1])
    return _DISTANCES[map]


def distance(map: Map, unit: Unit, province: str) -> int:
    """``dist(unit, province)``: "the number of moves the unit needs to stand on the province
    ... Distances are capped at 3 (anything farther counts as 3)"; a fleet never reaches an
    inland province, and unreachable counts as 3 too."""
    army, fleet = _distance_tables(map)
    table = fleet if unit.kind == "F" else army
    return table[unit.location].get(province, CAP)


def evaluate(position: Position, weights: Weights = DEFAULT_WEIGHTS) -> tuple[int, ...]:
    """The value of a position (after the adjustments) for every power, map order:

    ``value(X) = w_centre * centres(X) + w_unit * units(X) + w_reach * reach(X)
    - w_threat * threat(X)``

    - ``reach(X)``: "over every centre ``s`` not owned by ``X``, ``3 - min dist(unit of X,
      s)``" (0 when ``X`` has no unit within 2 moves);
    - ``threat(X)``: "over every centre ``s`` owned by ``X``, with ``e`` the smallest distance
      of another power's unit to ``s`` and ``o`` the smallest distance of ``X``'s own units ...
      ``3 - e`` when ``e < o``, else 0" (no unit at all counts as the cap).
    """
    position = _position(position)
    w = _weights(weights)
    m = position.map
    army, fleet = _distance_tables(m)
    # each unit's distances: province -> moves (absent: the cap)
    near = [(u.power, (fleet if u.kind == "F" else army)[u.location]) for u in position.units]
    result = []
    for power in m.powers:
        own = [table for owner, table in near if owner == power]
        enemies = [table for owner, table in near if owner != power]
        reach = threat = 0
        for centre in m.centres:
            o = min((table.get(centre, CAP) for table in own), default=CAP)
            if position.owners.get(centre) != power:
                reach += CAP - o
            else:
                e = min((table.get(centre, CAP) for table in enemies), default=CAP)
                if e < o:
                    threat += CAP - e
        centres = len(position.centres_of(power))
        result.append(w.centre * centres + w.unit * len(own) + w.reach * reach - w.threat * threat)
    return tuple(result)


def values(
    position: Position,
    profile: Sequence[int],
    weights: Weights = DEFAULT_WEIGHTS,
    convention: str = "waives",
) -> tuple[int, ...]:
    """The rule: "The value of a profile ... for power ``X`` is computed on the position
    after every power's adjustment": seven ints, map order."""
    return evaluate(apply(position, profile, convention), weights)


# --- The searches -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SearchResult:
    """What a search returns: the profile, its values (map order), whether the search ran to
    its end, the evaluations it made, and for the combined search the cycle it entered (or
    ``None``) with the mixed equilibrium of a two-power cycle."""

    profile: Profile
    values: Values
    finished: bool
    evaluations: int
    cycle: tuple[Profile, ...] | None = None
    equilibrium: MixedEquilibrium | None = None


class _OutOfBudget(Exception):
    """A search ran out of evaluations or time."""


class _Game:
    """The options of every power and the evaluation of profiles, with the budgets."""

    def __init__(
        self,
        position: Position,
        convention: str,
        weights: Weights,
        *,
        evaluator: Evaluator | None,
        max_evaluations: int | None,
        time_limit: float | None,
    ) -> None:
        self.position = _position(position)
        self.convention = _convention(convention)
        self.weights = _weights(weights)
        if evaluator is not None and not callable(evaluator):
            raise InvalidParameter(f"evaluator must be callable, got {evaluator!r}")
        self.evaluator = evaluator
        self.budget(max_evaluations, time_limit)
        self.powers = self.position.map.powers
        self.counts = tuple(count(self.position, p, self.convention) for p in self.powers)
        self.evaluations = 0

    def budget(self, max_evaluations: int | None, time_limit: float | None) -> None:
        """Bounds the evaluations made in all, and the time from now."""
        self.max_evaluations = (
            None
            if max_evaluations is None
            else _validate.integer("max_evaluations", max_evaluations, 1)
        )
        if time_limit is not None and not (
            isinstance(time_limit, (int, float)) and time_limit >= 0
        ):
            raise InvalidParameter(
                f"time_limit must be a number of seconds >= 0, got {time_limit!r}"
            )
        self.deadline = None if time_limit is None else time.monotonic() + float(time_limit)

    def slots(self, power: int, index: int) -> Slots:
        return option_at(self.position, self.powers[power], self.convention, index)

    def index(self, power: int, slots: Sequence[int]) -> int:
        return index_of(self.position, self.powers[power], self.convention, slots)

    def out_of_budget(self) -> bool:
        return (self.max_evaluations is not None and self.evaluations >= self.max_evaluations) or (
            self.deadline is not None and time.monotonic() > self.deadline
        )

    def value_of(self, after: Position) -> Values:
        """One evaluation of a position after adjustments, counted."""
        self.evaluations += 1
        if self.evaluator is None:
            return evaluate(after, self.weights)
        result = tuple(self.evaluator(after))
        if len(result) != len(self.powers):
            raise InvalidParameter(
                f"the evaluator must return {len(self.powers)} numbers, got {len(result)}"
            )
        return result

    def value(self, profile: Profile, *, budgeted: bool = True) -> Values:
        """The values of a profile; raises :class:`_OutOfBudget` first when a budget is spent."""
        if budgeted and self.out_of_budget():
            raise _OutOfBudget
        slots = [self.slots(p, i) for p, i in enumerate(profile)]
        return self.value_of(_after(self.position, slots))


def preliminary(
    position: Position,
    convention: str,
    weights: Weights = DEFAULT_WEIGHTS,
    *,
    evaluator: Evaluator | None = None,
    max_evaluations: int | None = None,
    time_limit: float | None = None,
) -> SearchResult:
    """The rule: "Each power with more than one option evaluates every option with all other
    powers doing nothing (keeping their units, building nothing) and takes the option with
    the largest value for itself; ties go to the smallest index"."""
    game = _Game(
        position,
        convention,
        weights,
        evaluator=evaluator,
        max_evaluations=max_evaluations,
        time_limit=time_limit,
    )
    return _preliminary(game)


def sequential(
    position: Position,
    convention: str,
    order: Sequence[str],
    weights: Weights = DEFAULT_WEIGHTS,
    *,
    evaluator: Evaluator | None = None,
    max_evaluations: int | None = None,
    time_limit: float | None = None,
) -> SearchResult:
    """The rule: "The powers decide one after another in the given order (a permutation of
    the powers). Each power with more than one option evaluates every option while the powers
    before it play the options they took and the powers after it do nothing, and takes the
    option with the largest value for itself; ties go to the smallest index. A power with one
    option takes it"."""
    game = _Game(
        position,
        convention,
        weights,
        evaluator=evaluator,
        max_evaluations=max_evaluations,
        time_limit=time_limit,
    )
    powers = list(game.powers)
    if sorted(order) != sorted(powers):
        raise InvalidParameter(f"the order {list(order)} is not a permutation of {powers}")
    return _preliminary(game, [powers.index(p) for p in order], remember=True)


def _preliminary(
    game: _Game, order: Sequence[int] | None = None, *, remember: bool = False
) -> SearchResult:
    powers = game.powers
    playing: list[Slots] = []
    for p in range(len(powers)):  # "doing nothing": keeping the units, building nothing
        adjustment = _adjustment(game.position, powers[p])
        width = len(adjustment.units) if adjustment.kind == "remove" else len(adjustment.homes)
        playing.append((0,) * width)
    profile = [0] * len(powers)
    finished = True
    try:
        for p in range(len(powers)) if order is None else order:
            choices = list(options(game.position, powers[p], game.convention))
            if game.counts[p] > 1:
                best: float | None = None
                for index, slots in enumerate(choices):
                    if game.out_of_budget():
                        raise _OutOfBudget
                    mine = list(playing)
                    mine[p] = slots
                    value = game.value_of(_after(game.position, mine))[p]
                    if best is None or value > best:
                        best, profile[p] = value, index
            if remember:  # the powers after it see what it took
                playing[p] = choices[profile[p]]
    except _OutOfBudget:
        finished = False
    chosen = tuple(profile)
    return SearchResult(chosen, game.value(chosen, budgeted=False), finished, game.evaluations)


def _shuffle(items: list[int], cursor: Cursor) -> None:
    """The rule: "Fisher-Yates from the last position down: for ``i`` from ``n - 1`` to ``1``,
    ``j = below(i + 1)``, swap ``i`` and ``j``."""
    for i in range(len(items) - 1, 0, -1):
        j = cursor.below(i + 1)
        items[i], items[j] = items[j], items[i]


def anneal(
    position: Position,
    convention: str,
    weights: Weights = DEFAULT_WEIGHTS,
    seed: int = 0,
    steps: int = DEFAULT_STEPS,
    *,
    evaluator: Evaluator | None = None,
    max_evaluations: int | None = None,
    time_limit: float | None = None,
) -> SearchResult:
    """Loeb's secondary search, "Simulated annealing" on the rules page: from the
    preliminary profile, ``steps`` proposals, step ``t`` belonging to power
    ``active[t mod len(active)]`` and drawing from ``Stream(seed, "diplomacy.anneal", t)``;
    a proposal is kept when it is better for that power given the others' current options."""
    seed = _validate.seed(seed)
    steps = _validate.integer("steps", steps, 0)
    game = _Game(
        position,
        convention,
        weights,
        evaluator=evaluator,
        max_evaluations=max_evaluations,
        time_limit=time_limit,
    )
    start = _preliminary(game)
    profile, current = list(start.profile), start.values
    # "active the powers with more than one option in map order"
    active = [p for p in range(len(game.powers)) if game.counts[p] > 1]
    finished = start.finished
    for t in range(steps if active else 0):
        if game.out_of_budget():
            finished = False
            break
        power = active[t % len(active)]
        cursor = Stream(seed, "diplomacy.anneal", t).cursor()
        adjustment = _adjustment(game.position, game.powers[power])
        slots = list(game.slots(power, profile[power]))
        if adjustment.kind == "remove":
            k = adjustment.k
            largest = min(k, len(adjustment.units) - k)
        else:
            largest = len(adjustment.homes)
        # "m = max(1, ceil(M * (steps - t) / steps))"
        m = max(1, -(-largest * (steps - t) // steps))
        if adjustment.kind == "remove":
            # "m removed units and m kept units (each chosen as the first m of a uniform
            # shuffle, drawn with below) swap roles"
            removed = [i for i, s in enumerate(slots) if s]
            kept = [i for i, s in enumerate(slots) if not s]
            _shuffle(removed, cursor)
            _shuffle(kept, cursor)
            for i in removed[:m]:
                slots[i] = 0
            for i in kept[:m]:
                slots[i] = 1
        else:
            # "m distinct open homes (first m of a shuffle), each redrawn uniformly among
            # 'no build' and its options"
            homes = list(range(len(adjustment.homes)))
            _shuffle(homes, cursor)
            for h in homes[:m]:
                slots[h] = cursor.below(1 + len(adjustment.choices[h]))
            builds = sum(1 for s in slots if s)
            if builds not in _build_sizes(adjustment.b, game.convention):
                continue  # "dropped without evaluation"
        proposal = list(profile)
        proposal[power] = game.index(power, slots)
        proposed = game.value(tuple(proposal), budgeted=False)
        if proposed[power] > current[power]:
            profile, current = proposal, proposed
    return SearchResult(tuple(profile), current, finished, game.evaluations)


class CombinedSearch:
    """Loeb's combined search ("Combined search" on the rules page) as a state advanced one
    evaluation at a time, so that a run can be resumed and compared step by step.

    A power's new list is kept as ranges ``[start, end)`` of option indices (so a power with
    billions of options costs nothing until it is reached); its old list as ``(index, value)``
    pairs, best first. ``ending`` is ``"running"``, ``"equilibrium"`` or ``"cycle"``; for a
    cycle, ``history[cycle_from:]`` are its profiles and ``profile`` is the repeated one."""

    def __init__(
        self,
        position: Position,
        convention: str,
        weights: Weights = DEFAULT_WEIGHTS,
        *,
        evaluator: Evaluator | None = None,
    ) -> None:
        self.game = _Game(
            position,
            convention,
            weights,
            evaluator=evaluator,
            max_evaluations=None,
            time_limit=None,
        )
        n = len(self.game.powers)
        # 1. "Each power's new list holds all its options in listing order; its old list is
        # empty." 2. "P takes the first option of every power; those options move to the old
        # lists."
        self.new: list[deque[tuple[int, int]]] = [
            deque([(1, c)]) if c > 1 else deque() for c in self.game.counts
        ]
        self.profile: Profile = (0,) * n
        self.values = self.game.value(self.profile, budgeted=False)
        self.old: list[list[tuple[int, float]]] = [[(0, self.values[p])] for p in range(n)]
        # 5. "Every profile P becomes is recorded."
        self.history: list[Profile] = [self.profile]
        self.visited = {self.profile: 0}
        self.power = 0
        self.ending = "running"
        self.cycle_from = 0
        self._settle()

    @property
    def evaluations(self) -> int:
        return self.game.evaluations

    def _settle(self) -> None:
        if self.ending != "running":
            return
        # 4. "When every new list is empty, P is a pure Nash equilibrium."
        if not any(self.new):
            self.ending = "equilibrium"
            return
        # 3. "When C's new list is empty, go to the next power."
        while not self.new[self.power]:
            self.power = (self.power + 1) % len(self.new)

    def step(self) -> None:
        """One evaluation of step 3, and the cycle check of step 5; nothing once ended."""
        if self.ending != "running":
            return
        power, new, old = self.power, self.new, self.old
        b, end = new[power][0]
        trial = (*self.profile[:power], b, *self.profile[power + 1 :])
        trial_values = self.game.value(trial, budgeted=False)
        # "b ... leaves the new list"
        if b + 1 < end:
            new[power][0] = (b + 1, end)
        else:
            new[power].popleft()
        if trial_values[power] > self.values[power]:
            # "P becomes P', and every power's old list goes back to the end of its new list"
            self.profile, self.values = trial, trial_values
            for p in range(len(new)):
                new[p].extend((index, index + 1) for index, _ in old[p])
                old[p] = []
            if self.profile in self.visited:
                self.ending = "cycle"
                self.cycle_from = self.visited[self.profile]
                return
            self.visited[self.profile] = len(self.history)
            self.history.append(self.profile)
        # "b goes into C's old list, after every entry whose value for C is at least
        # value_C(P')"
        value = trial_values[power]
        place = 0
        while place < len(old[power]) and old[power][place][1] >= value:
            place += 1
        old[power].insert(place, (b, value))
        self.power = (power + 1) % len(new)
        self._settle()

    def run(self, max_evaluations: int | None = None, time_limit: float | None = None) -> None:
        """Steps until the search ends, has made ``max_evaluations`` evaluations in all (since
        it began), or ``time_limit`` seconds have passed."""
        self.game.budget(max_evaluations, time_limit)
        while self.ending == "running" and not self.game.out_of_budget():
            self.step()

    @property
    def cycle(self) -> tuple[Profile, ...] | None:
        return tuple(self.history[self.cycle_from :]) if self.ending == "cycle" else None

    def result(self) -> SearchResult:
        """6. "when either runs out the search returns the current P with finished = False";
        a cycle comes with the mixed equilibrium of a two-power cycle."""
        cycle, made = self.cycle, self.evaluations
        equilibrium = (
            None
            if cycle is None
            else cycle_equilibrium(
                self.game.powers, cycle, lambda profile: self.game.value(profile, budgeted=False)
            )
        )
        self.game.evaluations = made  # the restricted game's payoffs are not the search's
        return SearchResult(
            self.profile, self.values, self.ending != "running", made, cycle, equilibrium
        )


def combined(
    position: Position,
    convention: str,
    weights: Weights = DEFAULT_WEIGHTS,
    max_evaluations: int | None = None,
    *,
    evaluator: Evaluator | None = None,
    time_limit: float | None = None,
) -> SearchResult:
    """Loeb's combined search with a cycle check, run to its end or its budget."""
    search = CombinedSearch(position, convention, weights, evaluator=evaluator)
    search.run(max_evaluations, time_limit)
    return search.result()


# --- The open problem -------------------------------------------------------------------------


def previous_centres(units: int, centres: int, open_homes: int) -> int:
    """The least number of centres the power can have held at the previous adjustment:
    "``max(u, c - u, |H|)``"."""
    return max(units, centres - units, open_homes)


def power_choices(
    map: Map,
    power: str,
    convention: str,
    *,
    max_centres: int,
    max_previous: int,
    units: int | None = None,
) -> dict[tuple[int, int], tuple[int, Resources]]:
    """For one power, every ``(c, q)`` (centres, least previous-winter centres) within the
    limits, with the largest count reached there and the first ``(u, c, H)`` reaching it (by
    ``c``, then ``u``, then ``H`` by size and in lexicographic order of the homes). ``units``
    fixes ``u``."""
    homes = map.homes[power]
    sizes = [len(map.build_options(h)) for h in homes]
    best: dict[tuple[int, int], tuple[int, Resources]] = {}
    for c in range(max_centres + 1):
        for u in range(max_previous + 1) if units is None else (units,):
            for size in range(min(c, len(homes)) + 1):  # the open homes are owned centres
                for chosen in itertools.combinations(range(len(homes)), size):
                    q = previous_centres(u, c, size)
                    if q > max_previous:
                        continue
                    n = adjustment_count(u, c, [sizes[h] for h in chosen], convention)
                    if (c, q) not in best or n > best[(c, q)][0]:
                        best[(c, q)] = (n, (u, c, tuple(homes[h] for h in chosen)))
    return best


def open_problem(
    convention: str,
    victory: bool = False,
    map: Map | None = None,
    *,
    centres_limit: int | None = None,
    previous_limit: int | None = None,
    powers: Sequence[str] | None = None,
    units: Mapping[str, int] | None = None,
) -> tuple[int, tuple[Resources, ...]]:
    """The rule: "The maximum of the product over powers of the counts, subject to
    ``sum c <= 34`` and ``sum max(u, c - u, |H|) <= 34``, ... found exactly by dynamic
    programming over the powers (states: the centres and the previous-winter centres used so
    far)." With
    ``victory``, "``c <= 17`` and ``q <= 17``" for every power (half the centres).

    Returns the largest total and, per power (map order, or the order of ``powers``), one
    ``(units, centres, open homes)`` reaching it: the first found with powers taken in order,
    states in increasing order and each power's ``(c, q)`` in increasing order. The limits
    (``centres_limit``, ``previous_limit``: the map's number of centres by default), the
    powers and fixed unit numbers per power can be given for reduced instances.
    """
    convention = _convention(convention)
    the_map = Map.standard() if map is None else map
    all_centres = len(the_map.centres)
    total_c = (
        all_centres
        if centres_limit is None
        else _validate.integer("centres_limit", centres_limit, 0)
    )
    total_q = (
        all_centres
        if previous_limit is None
        else _validate.integer("previous_limit", previous_limit, 0)
    )
    chosen_powers = the_map.powers if powers is None else tuple(_power(the_map, p) for p in powers)
    fixed = {} if units is None else {_power(the_map, p): n for p, n in units.items()}
    per_power_c = min(total_c, all_centres // 2) if victory else total_c
    per_power_q = min(total_q, all_centres // 2) if victory else total_q
    # states: (centres used, previous centres used) -> (best product, choices so far)
    states: dict[tuple[int, int], tuple[int, tuple[Resources, ...]]] = {(0, 0): (1, ())}
    for power in chosen_powers:
        choices = power_choices(
            the_map,
            power,
            convention,
            max_centres=per_power_c,
            max_previous=per_power_q,
            units=fixed.get(power),
        )
        ordered = sorted(choices.items())
        following: dict[tuple[int, int], tuple[int, tuple[Resources, ...]]] = {}
        for (used_c, used_q), (product, so_far) in sorted(states.items()):
            for (c, q), (n, resources) in ordered:
                key = (used_c + c, used_q + q)
                if key[0] > total_c or key[1] > total_q:
                    continue
                candidate = product * n
                if key not in following or candidate > following[key][0]:
                    following[key] = (candidate, (*so_far, resources))
        states = following
    best_key = min(states, key=lambda key: (-states[key][0], key))
    return states[best_key]


def retreat_options(
    position: Position, unit: Unit, attacker: str, standoffs: Sequence[str] = ()
) -> tuple[str, ...]:
    """The rule: "A dislodged unit may retreat to a location it could move to whose province
    no unit stands on after the moves, is not the province its attacker came from and was not
    left empty by a standoff"; ``position`` holds the units after the moves."""
    the_map = position.map
    reach = (
        the_map.army_neighbours(unit.location)
        if unit.kind == "A"
        else the_map.fleet_neighbours(unit.location)
    )
    blocked = {u.province for u in position.units} | set(standoffs) | {attacker}
    return tuple(loc for loc in reach if the_map.province_of(loc) not in blocked)


#: A retreat: a location per dislodged unit, ``None`` to disband.
RetreatChoice = tuple[str | None, ...]


def _retreat_choices(
    position: Position, dislodged: Sequence[tuple[Unit, str]], standoffs: Sequence[str]
) -> list[RetreatChoice]:
    """The rule: "each unit's options in the order of its moves, then disbanding; the first
    unit varies slowest; no two units to one province"."""
    per_unit = [
        (*retreat_options(position, unit, attacker, standoffs), None)
        for unit, attacker in dislodged
    ]
    found = []
    for choice in itertools.product(*per_unit):
        provinces = [loc.partition("/")[0] for loc in choice if loc is not None]
        if len(provinces) == len(set(provinces)):
            found.append(choice)
    return found


def _retreated(
    position: Position,
    power: str,
    dislodged: Sequence[tuple[Unit, str]],
    choice: RetreatChoice,
    capture: bool,
) -> Position:
    """The rule: "the retreated units join the position; with ``capture``, a retreat onto a
    centre another power or nobody owns takes it"."""
    units = list(position.units)
    owners = dict(position.owners)
    for (unit, _), location in zip(dislodged, choice, strict=True):
        if location is not None:
            units.append(Unit(power, unit.kind, location))
            if capture and location.partition("/")[0] in position.map.centres:
                owners[location.partition("/")[0]] = power
    return Position(position.map, tuple(units), owners)


def _power_value(position: Position, power: str, slots: Slots | None, weights: Weights) -> int:
    """The power's value when it plays ``slots`` (``None``: nothing) and the others do
    nothing."""
    nothing: list[Slots] = []
    for p in position.map.powers:
        adjustment = _adjustment(position, p)
        width = len(adjustment.units) if adjustment.kind == "remove" else len(adjustment.homes)
        nothing.append((0,) * width)
    index = position.map.powers.index(power)
    if slots is not None:
        nothing[index] = slots
    return evaluate(_after(position, nothing), weights)[index]


def _best_adjustment(
    position: Position, power: str, convention: str, weights: Weights
) -> tuple[int, int]:
    best: tuple[int, int] | None = None
    for index, slots in enumerate(options(position, power, convention)):
        value = _power_value(position, power, slots, weights)
        if best is None or value > best[1]:
            best = (index, value)
    assert best is not None  # every power has an option
    return best


def retreat_plan(
    position: Position,
    power: str,
    dislodged: Sequence[tuple[Unit, str]],
    standoffs: Sequence[str] = (),
    convention: str = "exact",
    *,
    capture: bool = True,
    joint: bool,
    weights: Weights = DEFAULT_WEIGHTS,
) -> tuple[RetreatChoice, int, int]:
    """The rule (``docs/diplomacy-rules.md``, "Retreats"): *retreat then adjust* (``joint``
    false) takes the retreat with the largest value for the power with nobody adjusting, then
    its best adjustment; *disband and build* (``joint``) the pair with the largest value; the
    other powers do nothing; ties to the first retreat and the smallest index. Returns the
    retreat, the adjustment's index and the value."""
    convention = _convention(convention)
    choices = _retreat_choices(position, dislodged, standoffs)
    if joint:
        best: tuple[RetreatChoice, int, int] | None = None
        for choice in choices:
            after = _retreated(position, power, dislodged, choice, capture)
            option, value = _best_adjustment(after, power, convention, weights)
            if best is None or value > best[2]:
                best = (choice, option, value)
        assert best is not None
        return best
    first: tuple[RetreatChoice, int] | None = None
    for choice in choices:
        after = _retreated(position, power, dislodged, choice, capture)
        value = _power_value(after, power, None, weights)
        if first is None or value > first[1]:
            first = (choice, value)
    assert first is not None
    after = _retreated(position, power, dislodged, first[0], capture)
    return (first[0], *_best_adjustment(after, power, convention, weights))


def position_for(resources: Mapping[str, Resources], map: Map | None = None) -> Position:
    """A concrete position where each power has ``(units, centres, open homes)`` as given and
    could have held ``max(u, c - u, |H|)`` centres at the previous winter: the open homes owned
    and empty; ``min(u, c - |H|)`` of the power's units (armies) on other centres it owns, its
    own homes first; its other owned centres empty and none of them its own home; its other
    units on provinces that are not centres (armies on land first, then fleets at sea).
    Centres are handed out greedily in file order; a demand the greedy cannot meet raises
    :class:`~stratagem.errors.InconsistentInput`."""
    the_map = Map.standard() if map is None else map
    wanted = {_power(the_map, p): r for p, r in resources.items()}
    reserved = {h for _, _, homes in wanted.values() for h in homes}
    free = [c for c in the_map.centres if c not in reserved]
    owners: dict[str, str] = {}
    units: list[Unit] = []
    occupied: dict[str, list[str]] = {}
    for power, (_, c, homes) in wanted.items():
        if len(homes) > c or any(h not in the_map.homes[power] for h in homes):
            raise InconsistentInput(f"{power}: open homes {homes} are not {c} owned homes")
        for h in homes:
            owners[h] = power
        occupied[power] = []
    # the empty owned centres first (they must not be the power's own homes), neutral first
    for power, (u, c, homes) in wanted.items():
        empty = c - len(homes) - min(u, c - len(homes))
        candidates = [s for s in free if the_map.home_of[s] is None] + [
            s for s in free if the_map.home_of[s] not in (None, power)
        ]
        if len(candidates) < empty:
            raise InconsistentInput(f"{power}: no room for {empty} empty owned centres")
        for s in candidates[:empty]:
            owners[s] = power
            free.remove(s)
    for power, (u, c, homes) in wanted.items():
        standing = min(u, c - len(homes))
        candidates = [s for s in free if the_map.home_of[s] == power] + [
            s for s in free if the_map.home_of[s] != power
        ]
        if len(candidates) < standing:
            raise InconsistentInput(f"{power}: no room for {standing} occupied centres")
        for s in candidates[:standing]:
            owners[s] = power
            free.remove(s)
            occupied[power].append(s)
            units.append(Unit(power, "A", s))
    centres = set(the_map.centres)
    land = [
        p
        for p, k in zip(the_map.provinces, the_map.kind, strict=True)
        if k != "sea" and p not in centres
    ]
    seas = [p for p, k in zip(the_map.provinces, the_map.kind, strict=True) if k == "sea"]
    places = [("A", p) for p in land] + [("F", p) for p in seas]
    for power, (u, _, _) in wanted.items():
        for _ in range(u - len(occupied[power])):
            if not places:
                raise InconsistentInput("no room left for the units off the centres")
            kind, province = places.pop(0)
            units.append(Unit(power, kind, province))
    return Position(the_map, tuple(units), owners)


def open_problem_position(
    convention: str, victory: bool = False, map: Map | None = None
) -> tuple[int, Position]:
    """The open problem's answer with a concrete position reaching it (built by
    :func:`position_for`; the validator accepts it and :func:`total` counts it)."""
    the_map = Map.standard() if map is None else map
    best, per_power = open_problem(convention, victory, the_map)
    position = position_for(dict(zip(the_map.powers, per_power, strict=True)), the_map)
    return best, position
