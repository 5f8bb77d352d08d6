"""Loeb's open problem: the legal position with the largest total number of adjustment choices
(``docs/diplomacy-rules.md``, "The open problem"), solved exactly by the engine's dynamic
programme, with a concrete position on the map that reaches it."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, replace

from stratagem import _validate
from stratagem.diplomacy import engine
from stratagem.diplomacy.adjustments import counts, total
from stratagem.diplomacy.engine import Convention, check_convention
from stratagem.diplomacy.map import Map
from stratagem.diplomacy.position import Position, Unit
from stratagem.errors import InconsistentInput, InvalidParameter


@dataclass(frozen=True)
class Share:
    """One power's part of the best position: its units, centres, open homes, its number of
    choices, and the fewest centres it needed at the previous winter."""

    power: str
    units: int
    centres: int
    open_homes: tuple[str, ...]
    choices: int
    previous: int


@dataclass(frozen=True)
class Answer:
    """The largest total, each power's share, a position reaching it and the solver's time."""

    convention: Convention
    victory: bool
    total: int
    shares: tuple[Share, ...]
    position: Position
    seconds: float


def solve(
    convention: Convention = "exact",
    *,
    victory: bool = False,
    map: Map | None = None,
    units: Mapping[str, int] | None = None,
) -> Answer:
    """Solves the open problem under ``convention``; ``victory`` adds the rule that a power
    with 18 centres has won (at most 17 now and at the previous winter); ``units`` fixes every
    power's number of units (the best legal position for given armies and fleets)."""
    check_convention(convention)
    the_map = map or Map.standard()
    fixed = None
    if units is not None:
        if set(units) != set(the_map.powers):
            raise InvalidParameter(
                f"units must give a number for each power {the_map.powers}, got {sorted(units)}"
            )
        fixed = [
            _validate.integer(f"units[{p!r}]", units[p], 0, len(the_map.provinces))
            for p in the_map.powers
        ]
    board = engine.board(the_map)  # built once per map: not the solver's time
    started = time.perf_counter()
    best, raw = board.open_problem(convention, victory, fixed)
    seconds = time.perf_counter() - started
    shares = tuple(
        Share(
            power=power,
            units=int(units),
            centres=int(centres),
            open_homes=tuple(the_map.homes[power][h] for h in open_homes),
            choices=int(choices),
            previous=int(previous),
        )
        for power, (units, centres, open_homes, choices, previous) in zip(
            the_map.powers, raw, strict=True
        )
    )
    if fixed is None:
        shares = _spend_spare_centres(the_map, shares, victory)
    position = witness(the_map, shares)
    reached = counts(position, convention)
    if total(position, convention) != int(best) or any(
        reached[s.power] != s.choices for s in shares
    ):
        raise InconsistentInput(
            f"the position built for the answer counts {reached}, not the shares {shares}"
        )
    return Answer(convention, victory, int(best), shares, position, seconds)


def _spend_spare_centres(
    the_map: Map, shares: tuple[Share, ...], victory: bool
) -> tuple[Share, ...]:
    """The shares with the centres no power needs handed out, one at a time round the powers
    in map order, each with a unit standing on it, to powers that do not remove: their
    counts stay (``centres - units`` and the open homes do not change) and so do the centres
    they needed at the previous winter (a power never has more units than those). Every
    centre of the board was owned at that winter when those add up to all of them, and a
    centre once owned stays owned, so the position should own every centre too."""
    spare = len(the_map.centres) - sum(s.centres for s in shares)
    cap = len(the_map.centres) // 2 if victory else len(the_map.centres)
    grown = list(shares)
    while spare > 0:
        took = False
        for i, s in enumerate(grown):
            fits = s.units <= s.centres and s.units < s.previous and s.centres < cap
            if spare > 0 and fits:
                grown[i] = replace(s, units=s.units + 1, centres=s.centres + 1)
                spare -= 1
                took = True
        if not took:
            break
    return tuple(grown)


def witness(the_map: Map, shares: tuple[Share, ...]) -> Position:
    """A position reaching ``shares`` (:func:`position_with` their resources)."""
    return position_with(the_map, {s.power: (s.units, s.centres, s.open_homes) for s in shares})


#: A power's units, centres and open homes.
Resources = tuple[int, int, tuple[str, ...]]


def position_with(the_map: Map, resources: Mapping[str, Resources]) -> Position:
    """A position with every power's units, centres and open homes as given.

    Each power owns its open homes (left empty) and as many other centres as it needs,
    neutral centres first, then other powers' homes, its own other homes last; its units stand
    first on its own homes that are not open (an empty owned home would be open), then on its
    other centres, and the rest on provinces that are not centres (fleets at sea, armies on
    land)."""
    owners: dict[str, str] = {}
    for power, (_, _, homes) in resources.items():
        for home in homes:
            owners[home] = power
    open_homes = {h for _, _, homes in resources.values() for h in homes}

    def rank(centre: str, power: str) -> int:
        home = the_map.home_of[centre]
        return 0 if home is None else 2 if home == power else 1

    units: list[Unit] = []
    free = [p for p in the_map.provinces if p not in the_map.centres]
    for power, (unit_count, centre_count, homes) in resources.items():
        extra = centre_count - len(homes)
        spare = [c for c in the_map.centres if c not in owners and c not in open_homes]
        spare.sort(key=lambda c: rank(c, power))
        taken = spare[:extra]
        if len(taken) < extra:
            raise InconsistentInput(f"not enough centres left for {power}'s share")
        for centre in taken:
            owners[centre] = power
        # Own homes first: an owned home with nobody on it would be an open home.
        standing = sorted(taken, key=lambda c: -rank(c, power))[:unit_count]
        for centre in standing:
            units.append(Unit(power, "A", centre))
        for _ in range(unit_count - len(standing)):
            if not free:
                raise InconsistentInput("not enough provinces for every unit")
            province = free.pop(0)
            kind = "F" if the_map.kind[the_map.provinces.index(province)] == "sea" else "A"
            units.append(Unit(power, kind, province))
    return Position.from_units(units, owners, the_map)
