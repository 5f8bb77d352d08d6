"""How many Spring openings: every unit's legal movement orders on the map, and the number of
order sets of all units under several definitions of "different" (``docs/diplomacy.md``,
"How many openings").

Loeb's article cites "4,430,690,040,914,420 significantly different Spring 1901 openings";
his earlier article credits T. Green with "over four quadrillion distinct openings in Spring of
1901 (not counting openings in which useless support is given)". This module counts the order
sets of a position exactly under the definitions below; the joint counts (where one unit's
order constrains another's) are sums over every order set, computed by eliminating the units
one at a time from a product of pairwise constraints (exact integers, a few milliseconds).

Orders are written as the ``diplomacy`` package writes them: ``A BUD H``, ``A BUD - GAL``,
``A BUD S F TRI`` (support to hold), ``A BUD S A VIE - GAL`` (support to move). Convoys are
not listed: the counter refuses positions with a fleet at sea (no opening has one).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

import numpy as np
from numpy.typing import NDArray

from stratagem.diplomacy.position import Position, Unit
from stratagem.errors import InvalidParameter

#: "4,430,690,040,914,420 significantly different Spring 1901 openings" (the seed's article).
LOEB = 4_430_690_040_914_420

#: The definitions of "different" openings (see :data:`DEFINITIONS`).
Definition = Literal["any", "moves", "matched", "matched-own", "successes"]

#: What each definition counts.
DEFINITIONS: Mapping[Definition, str] = {
    "any": "every legal order of every unit, chosen independently (the product of the "
    "units' order counts)",
    "moves": "holds and moves only, no supports",
    "matched": "no useless support: a support to hold is given to a unit that does not "
    "move, a support to move to a unit ordered to make that move",
    "matched-own": "as matched, with supports only between units of the same power",
    "successes": "the distinct sets of successful moves without supports: each unit holds "
    "or moves, no two units end in one province, no unit moves into a province its occupant "
    "keeps, no two units swap",
}


@dataclass(frozen=True)
class Order:
    """One unit's movement-phase order: ``kind`` is ``H``, ``-`` (move to ``target``),
    ``SH`` (support ``supported`` to hold) or ``SM`` (support ``supported`` to move to
    ``target``, a province)."""

    unit: Unit
    kind: Literal["H", "-", "SH", "SM"]
    target: str = ""
    supported: Unit | None = None

    def __str__(self) -> str:
        head = f"{self.unit.kind} {self.unit.location}"
        if self.kind == "H":
            return f"{head} H"
        if self.kind == "-":
            return f"{head} - {self.target}"
        assert self.supported is not None
        other = f"{self.supported.kind} {self.supported.location}"
        return f"{head} S {other}" if self.kind == "SH" else f"{head} S {other} - {self.target}"


def _reach(position: Position, unit: Unit) -> tuple[str, ...]:
    """The locations the unit may move to."""
    the_map = position.map
    if unit.kind == "A":
        return the_map.army_neighbours(unit.location)
    return the_map.fleet_neighbours(unit.location)


def unit_orders(position: Position) -> dict[Unit, tuple[Order, ...]]:
    """Every unit's legal orders: hold; move to each location it can reach; support to hold
    of every other unit in a province it can reach; support to move of every other unit's
    move into a province it can reach (not its own)."""
    the_map = position.map
    for unit in position.units:
        if unit.kind == "F" and the_map.kind_of(unit.province) == "sea":
            raise InvalidParameter(
                f"{unit} is at sea: convoys are not counted, so positions with a fleet at sea "
                "are not either"
            )
    reach = {u: _reach(position, u) for u in position.units}
    provinces = {u: {the_map.province_of(loc) for loc in reach[u]} for u in position.units}
    result: dict[Unit, tuple[Order, ...]] = {}
    for unit in position.units:
        orders = [Order(unit, "H")]
        orders += [Order(unit, "-", loc) for loc in reach[unit]]
        for other in position.units:
            if other is unit:
                continue
            if other.province in provinces[unit]:
                orders.append(Order(unit, "SH", supported=other))
            for target in sorted(provinces[other] & provinces[unit]):
                if target != unit.province:
                    orders.append(Order(unit, "SM", target, other))
        result[unit] = tuple(sorted(orders, key=str))
    return result


def _support_allows(support: Order, order: Order) -> bool:
    """Whether ``order`` of the supported unit makes ``support`` useful."""
    if support.kind == "SH":
        return order.kind != "-"
    return order.kind == "-" and _province(order) == support.target


def _province(order: Order) -> str:
    return order.target.partition("/")[0]


Factor = tuple[tuple[int, ...], NDArray[np.object_]]
Choice = TypeVar("Choice")


def _merged(pending: Sequence[Factor], variable: int) -> tuple[int, ...]:
    """The variables of every factor holding ``variable``, and itself."""
    scope = {variable}
    for s, _ in pending:
        if variable in s:
            scope.update(s)
    return tuple(sorted(scope))


def contract(sizes: Sequence[int], factors: Sequence[Factor]) -> int:
    """The sum over every assignment of the variables (``sizes[v]`` values each) of the
    product of the factors (each a scope of variables and a table over them), exactly: the
    variables are summed out one at a time, each time the one whose merged table is
    smallest (ties to the lowest index)."""
    pending: list[Factor] = [(tuple(scope), table) for scope, table in factors]
    remaining = set(range(len(sizes)))
    total = 1
    while remaining:
        scopes = {v: _merged(pending, v) for v in sorted(remaining)}
        variable = min(
            sorted(remaining),
            key=lambda v: int(np.prod([sizes[x] for x in scopes[v]], dtype=object)),
        )
        scope = scopes[variable]
        touching = [f for f in pending if variable in f[0]]
        pending = [f for f in pending if variable not in f[0]]
        table: NDArray[np.object_] = np.ones([sizes[v] for v in scope], dtype=object)
        for s, t in touching:
            order = sorted(range(len(s)), key=lambda i: scope.index(s[i]))
            shape = [sizes[v] if v in s else 1 for v in scope]
            table = table * np.transpose(t, order).reshape(shape)
        summed = table.sum(axis=scope.index(variable))
        remaining.discard(variable)
        rest = tuple(v for v in scope if v != variable)
        if rest:
            pending.append((rest, np.asarray(summed, dtype=object)))
        else:
            total *= int(summed)
    return total


def _pairwise(
    choices: Sequence[Sequence[Choice]],
    allowed: Callable[[int, Choice, int, Choice], bool],
    weights: Sequence[Sequence[int]] | None = None,
) -> int:
    """The number of joint choices (one per unit) that every pair of units allows; with
    ``weights``, the sum of the product of the chosen choices' weights instead."""
    factors: list[Factor] = []
    for i in range(len(choices)):
        for j in range(i + 1, len(choices)):
            table = np.ones((len(choices[i]), len(choices[j])), dtype=object)
            for a, x in enumerate(choices[i]):
                for b, y in enumerate(choices[j]):
                    if not allowed(i, x, j, y):
                        table[a, b] = 0
            if (table == 0).any():
                factors.append(((i, j), table))
    if weights is None:
        weights = [[1] * len(c) for c in choices]
    factors += [((i,), np.array(w, dtype=object)) for i, w in enumerate(weights)]
    return contract([len(c) for c in choices], factors)


def check_definition(name: str) -> Definition:
    """``name`` as a :data:`Definition`, or :class:`~stratagem.errors.InvalidParameter`."""
    for known in DEFINITIONS:
        if name == known:
            return known
    raise InvalidParameter(
        f"unknown definition {name!r}; the definitions are {', '.join(DEFINITIONS)}"
    )


def count(position: Position, definition: Definition) -> int:
    """The number of order sets of ``position`` under ``definition`` (:data:`DEFINITIONS`)."""
    definition = check_definition(definition)
    if definition == "any":
        orders = unit_orders(position)
        return int(np.prod([len(orders[u]) for u in position.units], dtype=object))
    if definition == "moves":
        return supported_sets(position, hold="none", move=False)
    if definition == "successes":
        return move_sets(position)
    return supported_sets(position, own_only=definition == "matched-own")


def supported_sets(
    position: Position,
    *,
    hold: Literal["none", "unmoving", "holding"] = "unmoving",
    move: bool = True,
    own_only: bool = False,
    holds: bool = True,
) -> int:
    """The order sets where every support is useful: a support to hold (``hold``: none
    allowed, or given to a unit that does not move, or only to a unit ordered to hold) and a
    support to move (``move``: allowed or not) to a unit ordered to make that move;
    ``own_only``: supports only between units of one power; ``holds``: whether the hold order
    is allowed (without it a unit stays only by giving a support)."""
    orders = unit_orders(position)
    units = list(position.units)

    def kept(order: Order) -> bool:
        if order.supported is None:
            return holds or order.kind != "H"
        if own_only and order.supported.power != order.unit.power:
            return False
        return move if order.kind == "SM" else hold != "none"

    choices = [[o for o in orders[u] if kept(o)] for u in units]

    def useful(support: Order, order: Order) -> bool:
        if support.kind == "SH" and hold == "holding":
            return order.kind == "H"
        return _support_allows(support, order)

    def allowed(i: int, x: Order, j: int, y: Order) -> bool:
        if x.supported is units[j] and not useful(x, y):
            return False
        return not (y.supported is units[i] and not useful(y, x))

    return _pairwise(choices, allowed)


def move_sets(
    position: Position,
    *,
    into_kept: bool = True,
    distinct: bool = True,
    swap: bool = True,
    own_only: bool = False,
) -> int:
    """Holds and moves only, where each unit's end is counted once: no move into a province
    whose unit stays (``into_kept``), no two units to one province (``distinct``), no two
    units swapping (``swap``); ``own_only``: these rules only between units of one power."""
    orders = unit_orders(position)
    units = list(position.units)
    ends = [[None, *sorted({_province(o) for o in orders[u] if o.kind == "-"})] for u in units]

    def allowed(i: int, x: str | None, j: int, y: str | None) -> bool:
        if own_only and units[i].power != units[j].power:
            return True
        if distinct and x is not None and x == y:
            return False
        for mover, goal, other, went in ((i, x, j, y), (j, y, i, x)):
            if goal != units[other].province:
                continue
            if (into_kept and went is None) or (swap and went == units[mover].province):
                return False
        return True

    return _pairwise(ends, allowed)


def contested_sets(position: Position) -> int:
    """The order sets where every support is useful (as in ``matched``) and contested by a
    third unit's order, so that it could change the outcome: a support to hold goes to a unit
    that another unit moves against, a support to move into a province that another unit
    also moves to or whose unit does not move. Each support is two choices of its unit,
    weighted +1 (any orders of the others) and -1 (no other unit contests it): their sum
    counts the order sets where some unit does."""
    orders = unit_orders(position)
    units = list(position.units)
    choices = [
        [(sign, o) for o in orders[u] for sign in ((1,) if o.supported is None else (1, -1))]
        for u in units
    ]

    def contests(support: Order, unit: Unit, order: Order) -> bool:
        assert support.supported is not None
        target = support.target if support.kind == "SM" else support.supported.province
        if order.kind == "-" and _province(order) == target:
            return True
        return support.kind == "SM" and unit.province == target and order.kind != "-"

    def allowed(i: int, x: tuple[int, Order], j: int, y: tuple[int, Order]) -> bool:
        for (sign, support), (_, order), other in ((x, y, j), (y, x, i)):
            if support.supported is None:
                continue
            if support.supported is units[other]:
                if not _support_allows(support, order):
                    return False
            elif sign < 0 and contests(support, units[other], order):
                return False
        return True

    return _pairwise(choices, allowed, [[sign for sign, _ in c] for c in choices])


def variants(position: Position) -> dict[str, int]:
    """The other definitions tried against Loeb's figure (``docs/diplomacy.md``, "How many
    openings"), by name."""
    return {
        "supports to hold only of holding units": supported_sets(position, hold="holding"),
        "no supports to hold": supported_sets(position, hold="none"),
        "no supports to move": supported_sets(position, move=False),
        "supports to hold only of holding units, none to move": supported_sets(
            position, hold="holding", move=False
        ),
        "matched-own, supports to hold only of holding units": supported_sets(
            position, hold="holding", own_only=True
        ),
        "matched-own, no supports to hold": supported_sets(position, hold="none", own_only=True),
        "matched-own, no supports to move": supported_sets(position, move=False, own_only=True),
        "no hold order": supported_sets(position, holds=False),
        "no hold order, matched-own": supported_sets(position, holds=False, own_only=True),
        "contested supports": contested_sets(position),
        "no move into a kept province": move_sets(position, distinct=False, swap=False),
        "no two moves to one province": move_sets(position, into_kept=False, swap=False),
        "no swap": move_sets(position, into_kept=False, distinct=False),
        "no move into a kept province, no two to one": move_sets(position, swap=False),
        "no move into a kept province, no swap": move_sets(position, distinct=False),
        "no two to one, no swap": move_sets(position, into_kept=False),
        "successes within a power only": move_sets(position, own_only=True),
        "no move into a kept province of the same power": move_sets(
            position, distinct=False, swap=False, own_only=True
        ),
        "no two moves of one power to one province": move_sets(
            position, into_kept=False, swap=False, own_only=True
        ),
        "no swap within a power": move_sets(
            position, into_kept=False, distinct=False, own_only=True
        ),
    }


def counts(position: Position) -> dict[Definition, int]:
    """The count under every definition, in :data:`DEFINITIONS` order."""
    return {d: count(position, d) for d in DEFINITIONS}
