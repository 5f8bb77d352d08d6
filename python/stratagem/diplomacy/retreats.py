"""Retreats, and Loeb's "disband and build" (``docs/diplomacy.md``, "Retreats: disband and
build"): a Fall position with dislodged units, each unit's retreat options under the standard
rules, and a joint retreat and adjustment search for one power set beside the plain
retreat-then-adjust order.

A :class:`RetreatPosition` is the position after a Fall's moves: the units in place (the
dislodged ones not among them), the centre owners as they will be after the Fall apart from
the retreats, each dislodged unit with the province its attacker came from, and the provinces
left empty by a standoff. Its text is the position's, then ``| dislodged: AUS A VIE < BOH,
...`` and ``| standoffs: GAL UKR``.

A dislodged unit may retreat to a location it could move to whose province is empty after the
moves, is not the attacker's province and was not left empty by a standoff; or disband.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from stratagem.diplomacy import adjustments, engine
from stratagem.diplomacy.engine import Convention, check_convention
from stratagem.diplomacy.map import Map
from stratagem.diplomacy.position import Position, Unit
from stratagem.diplomacy.search.finder import Weights
from stratagem.errors import InvalidParameter

#: A retreat choice for each dislodged unit of a power: a location, or ``None`` to disband.
Retreat = tuple[str | None, ...]


@dataclass(frozen=True)
class Dislodged:
    """A dislodged unit and the province its attacker came from."""

    unit: Unit
    attacker: str

    def __str__(self) -> str:
        return f"{self.unit.power} {self.unit} < {self.attacker}"


@dataclass(frozen=True)
class RetreatPosition:
    """The position after a Fall's moves, its dislodged units and its standoff provinces."""

    position: Position
    dislodged: tuple[Dislodged, ...]
    standoffs: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        the_map = self.position.map
        occupied = {u.province: u for u in self.position.units}
        seen: set[str] = set()
        for d in self.dislodged:
            province = d.unit.province
            if province in seen:
                raise InvalidParameter(f"two dislodged units on {province}")
            seen.add(province)
            holder = occupied.get(province)
            if holder is None or holder.power == d.unit.power:
                raise InvalidParameter(
                    f"{d}: a dislodged unit's province holds its attacker (another power's "
                    "unit) after the moves"
                )
            if d.attacker not in the_map.provinces or d.attacker == province:
                raise InvalidParameter(f"{d}: {d.attacker!r} is not the attacker's province")
            # The unit must be legal where it stood.
            Position.from_units([d.unit], {}, the_map)
        for province in self.standoffs:
            if province not in the_map.provinces or province in occupied:
                raise InvalidParameter(
                    f"standoff {province!r}: a province left empty by a standoff is an empty "
                    "province of the map"
                )

    @classmethod
    def parse(cls, text: str, map: Map | None = None) -> RetreatPosition:
        """Reads ``POSITION | dislodged: AUS A VIE < BOH, ... | standoffs: GAL ...``."""
        the_map = map or Map.standard()
        parts = [p.strip() for p in text.split("|")]
        position = Position.parse(parts[0], the_map)
        dislodged: list[Dislodged] = []
        standoffs: set[str] = set()
        for part in parts[1:]:
            head, _, body = part.partition(":")
            if head.strip() == "dislodged":
                for item in filter(None, (i.strip() for i in body.split(","))):
                    words = item.replace("<", " < ").split()
                    if len(words) != 5 or words[3] != "<":
                        raise InvalidParameter(
                            f"a dislodged unit is 'POWER KIND LOCATION < PROVINCE', got {item!r}"
                        )
                    power, kind, location, _, attacker = words
                    dislodged.append(
                        Dislodged(Unit(power.upper(), kind.upper(), location.upper()), attacker)
                    )
            elif head.strip() == "standoffs":
                standoffs.update(w.upper() for w in body.split())
            else:
                raise InvalidParameter(f"expected 'dislodged:' or 'standoffs:', got {part!r}")
        return cls(position, tuple(dislodged), frozenset(standoffs))

    def __str__(self) -> str:
        text = str(self.position)
        if self.dislodged:
            text += " | dislodged: " + ", ".join(map(str, self.dislodged))
        if self.standoffs:
            text += " | standoffs: " + " ".join(sorted(self.standoffs))
        return text

    def options(self, dislodged: Dislodged) -> tuple[str, ...]:
        """Where ``dislodged`` may retreat (locations, in the order of its moves), by the
        engine."""
        the_map = self.position.map
        unit = dislodged.unit
        fleet = unit.kind == "F"
        locations = the_map.fleet_locations() if fleet else the_map.army_locations()
        found = engine.position(self.position).retreat_options(
            fleet,
            locations.index(unit.location),
            the_map.index(dislodged.attacker),
            sorted(the_map.index(p) for p in self.standoffs),
        )
        return tuple(locations[i] for i in found)

    def of(self, power: str) -> tuple[Dislodged, ...]:
        """The dislodged units of ``power``."""
        return tuple(d for d in self.dislodged if d.unit.power == power)

    def retreats(self, power: str) -> Iterator[Retreat]:
        """Every retreat choice of ``power``: each of its dislodged units to one of its
        options or disbanded (``None``), no two to the same province (both would be
        destroyed: the same as disbanding both)."""
        own = self.of(power)
        choices = [(*self.options(d), None) for d in own]
        for combination in itertools.product(*choices):
            provinces = [loc.partition("/")[0] for loc in combination if loc is not None]
            if len(provinces) == len(set(provinces)):
                yield combination

    def after(self, power: str, retreat: Retreat, *, capture: bool = True) -> Position:
        """The position after ``power`` retreats as ``retreat`` says and every other
        dislodged unit disbands; with ``capture`` (the article's assumption), a unit that
        retreats onto a centre another power or nobody owns takes it (the retreat ends the
        Fall)."""
        own = self.of(power)
        if len(retreat) != len(own):
            raise InvalidParameter(f"{power} has {len(own)} dislodged units, got {retreat}")
        units = list(self.position.units)
        owners = dict(self.position.owners)
        for d, location in zip(own, retreat, strict=True):
            if location is None:
                continue
            if location not in self.options(d):
                raise InvalidParameter(f"{d} cannot retreat to {location}")
            units.append(Unit(power, d.unit.kind, location))
            province = location.partition("/")[0]
            if capture and province in self.position.map.centres:
                owners[province] = power
        return Position.from_units(units, owners, self.position.map)


@dataclass(frozen=True)
class Plan:
    """One power's retreat and adjustment: the retreat, the adjustment option (an index into
    the listing of the position after the retreat), its orders and the power's value."""

    retreat: Retreat
    option: int
    orders: tuple[str, ...]
    value: int


def _engine_plan(
    rp: RetreatPosition,
    power: str,
    convention: Convention,
    capture: bool,
    weights: Weights | None,
    *,
    joint: bool,
) -> Plan:
    check_convention(convention)
    the_map = rp.position.map
    if power not in the_map.powers:
        raise InvalidParameter(f"{power!r} is not one of the powers {', '.join(the_map.powers)}")
    own = rp.of(power)
    locations = [
        the_map.fleet_locations() if d.unit.kind == "F" else the_map.army_locations() for d in own
    ]
    retreat, option, value = engine.position(rp.position).retreat_plan(
        the_map.powers.index(power),
        [
            (d.unit.kind == "F", places.index(d.unit.location), the_map.index(d.attacker))
            for d, places in zip(own, locations, strict=True)
        ],
        sorted(the_map.index(p) for p in rp.standoffs),
        convention,
        capture,
        (weights or Weights()).as_list(),
        joint,
    )
    chosen = tuple(
        None if at is None else places[at] for at, places in zip(retreat, locations, strict=True)
    )
    after = rp.after(power, chosen, capture=capture)
    rows = adjustments.batch(after, power, convention, option, option + 1)
    slots = [int(s) for s in rows[0]] if len(rows) else []
    orders = [
        *(
            f"{d.unit} R {loc}" if loc is not None else f"{d.unit} D"
            for d, loc in zip(own, chosen, strict=True)
        ),
        *adjustments.describe(after, power, slots),
    ]
    return Plan(chosen, int(option), tuple(orders), int(value))


def retreat_then_adjust(
    rp: RetreatPosition,
    power: str,
    *,
    convention: Convention = "exact",
    capture: bool = True,
    weights: Weights | None = None,
) -> Plan:
    """The plain order: first the retreat that is best for ``power`` with nobody adjusting,
    then its best adjustment after that retreat (ties: the first retreat, smallest index);
    the other powers do nothing and their dislodged units disband."""
    return _engine_plan(rp, power, convention, capture, weights, joint=False)


def disband_and_build(
    rp: RetreatPosition,
    power: str,
    *,
    convention: Convention = "exact",
    capture: bool = True,
    weights: Weights | None = None,
) -> Plan:
    """The joint search: every retreat (disbands included) together with every adjustment
    after it, the best for ``power`` with the others doing nothing (ties: the first retreat,
    smallest index). It can disband a unit and build it again at an open home."""
    return _engine_plan(rp, power, convention, capture, weights, joint=True)


def seed_condition(rp: RetreatPosition, power: str, *, capture: bool = True) -> bool:
    """The article's "whenever there are units to retreat, and no removals to consider, and
    at least one home supply center open" (with every unit retreated)."""
    own = rp.of(power)
    if not own:
        return False
    everyone = tuple((*rp.options(d), None)[0] for d in own)
    after = rp.after(power, everyone, capture=capture)
    units, centres = len(after.units_of(power)), len(after.centres_of(power))
    return units <= centres and bool(after.open_homes(power))


def all_options(rp: RetreatPosition) -> Mapping[Dislodged, tuple[str, ...]]:
    """Every dislodged unit's retreat options."""
    return {d: rp.options(d) for d in rp.dislodged}
