"""A Diplomacy position at the winter adjustment: units and the owners of the supply centres,
as ``docs/diplomacy-rules.md`` ("A position") defines them.

A :class:`Position` is immutable and always valid: every way of making one (the constructor,
:meth:`Position.parse`, :meth:`Position.from_units`) checks the rules in the documented order
and raises the first failure, its message starting with the rule's name as the rules page
quotes it:

1. syntax, unknown power, unknown province or coast, a power given twice
   (:class:`~stratagem.errors.InvalidParameter`);
2. ``one unit per province``; 3. ``armies stand on land``;
4. ``fleets stand on coasts or at sea``; 5. ``a fleet on a bicoastal province names its
   coast``; 6. ``only supply centres are owned``; 7. ``each centre is owned at most once``;
8. ``at most 34 centres are owned`` (the map's number of centres)
   (:class:`~stratagem.errors.InconsistentInput`).

Readings of the rules page made here: an *unknown coast* (step 1) is a coast name that no
province of the map has (``STP/XX``); a coast name the map knows but the province lacks
(``STP/EC``, ``TRI/NC``) breaks rule 5, and so does an army given a coast (``A STP/NC``: an
army stands on the whole province). Blank groups (a trailing ``;``, an empty text) are skipped.
The ``/`` between units and centres is any ``/`` that does not join two name characters (a
coast's ``/`` does: ``STP/SC``).

>>> p = Position.parse("aus: A VIE, F TRI, A BUD / VIE TRI BUD; RUS: F STP/SC / STP SEV")
>>> str(p)
'AUS: A BUD, F TRI, A VIE / BUD TRI VIE; RUS: F STP/SC / SEV STP'
>>> Position.parse(str(p)) == p
True
>>> p.open_homes("RUS")
('SEV',)
>>> p.unit_location.tolist(), p.owner.tolist()[:5]
([8, 56, 52, 53], [-1, -1, -1, -1, 0])
>>> Position.parse("RUS: F STP / STP")  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
stratagem.errors.InconsistentInput: a fleet on a bicoastal province names its coast: F STP ...
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

from stratagem.diplomacy.map import Map
from stratagem.errors import InconsistentInput, InvalidParameter

__all__ = [
    "RULES",
    "Position",
    "Unit",
    "check_rules",
]

#: The rules of a valid position after the syntax (step 1), in the order they are checked;
#: ``{centres}`` is the map's number of supply centres.
RULES: tuple[str, ...] = (
    "one unit per province",
    "armies stand on land",
    "fleets stand on coasts or at sea",
    "a fleet on a bicoastal province names its coast",
    "only supply centres are owned",
    "each centre is owned at most once",
    "at most {centres} centres are owned",
)

_T = TypeVar("_T", bound=np.generic)
_GROUP = re.compile(r"\s*([^\s:]+)\s*:(.*)\Z", re.DOTALL)
_NAME_CHAR = re.compile(r"[A-Za-z0-9_]")


@dataclass(frozen=True)
class Unit:
    """A unit: its power's code, its kind (``'A'`` army or ``'F'`` fleet) and its location
    (``'VIE'``, or ``'STP/SC'`` for a fleet on a named coast)."""

    power: str
    kind: str
    location: str

    @property
    def province(self) -> str:
        """The province the unit stands on: ``'STP'`` for ``'STP/SC'``."""
        return self.location.partition("/")[0]

    @property
    def coast(self) -> str | None:
        """The named coast (``'SC'``), or ``None``."""
        _, slash, coast = self.location.partition("/")
        return coast if slash else None

    def __str__(self) -> str:
        return f"{self.kind} {self.location}"


def _described(unit: Unit) -> str:
    return f"{unit} ({unit.power})"


def check_rules(map: Map, units: Sequence[Unit], ownership: Sequence[tuple[str, str]]) -> None:
    """Rules 2 to 8 of "A position", in order, on units and ``(power, centre)`` ownership
    pairs whose names are known (step 1 passed); the first failure raises
    :class:`~stratagem.errors.InconsistentInput`, its message starting with the rule."""
    _check_units(map, units)
    _check_ownership(map, ownership)


def _check_units(map: Map, units: Sequence[Unit]) -> None:
    """Rules 2 to 5: where units stand."""
    kind_of = dict(zip(map.provinces, map.kind, strict=True))

    # 2. "one unit per province": two units on one province (whatever their coasts).
    seen: dict[str, Unit] = {}
    for unit in units:
        if unit.province in seen:
            first = seen[unit.province]
            raise InconsistentInput(
                f"{RULES[0]}: {unit.province} has two units, {_described(first)} and "
                f"{_described(unit)}"
            )
        seen[unit.province] = unit

    # 3. "armies stand on land": an army on a sea.
    for unit in units:
        if unit.kind == "A" and kind_of[unit.province] == "sea":
            raise InconsistentInput(f"{RULES[1]}: {_described(unit)} is at sea")

    # 4. "fleets stand on coasts or at sea": a fleet on an inland province.
    for unit in units:
        if unit.kind == "F" and kind_of[unit.province] == "land":
            raise InconsistentInput(f"{RULES[2]}: {_described(unit)} is inland")

    # 5. "a fleet on a bicoastal province names its coast"; a coast given for a province without
    # named coasts, or a coast the province does not have, is refused too.
    for unit in units:
        _check_coast(map, unit)


def _check_coast(map: Map, unit: Unit) -> None:
    """Rule 5 for one unit."""
    named = map.coasts.get(unit.province, ())
    coast = unit.coast
    if unit.kind == "A" and coast is not None:
        raise InconsistentInput(
            f"{RULES[3]}: an army stands on a whole province, not on a coast: "
            f"{_described(unit)} must be A {unit.province}"
        )
    if unit.kind == "F" and coast is None and named:
        options = " or ".join(f"F {unit.province}/{c}" for c in named)
        raise InconsistentInput(f"{RULES[3]}: {_described(unit)} must be {options}")
    if coast is not None and not named:
        raise InconsistentInput(
            f"{RULES[3]}: {unit.province} has no named coasts, so {_described(unit)} "
            f"must be F {unit.province}"
        )
    if coast is not None and coast not in named:
        raise InconsistentInput(
            f"{RULES[3]}: {unit.province} has no coast {coast} (it has "
            f"{', '.join(named)}): {_described(unit)}"
        )


def _check_ownership(map: Map, ownership: Sequence[tuple[str, str]]) -> None:
    """Rules 6 to 8: which centres are owned, and by whom."""
    # 6. "only supply centres are owned".
    centres = set(map.centres)
    for power, province in ownership:
        if province not in centres:
            raise InconsistentInput(f"{RULES[4]}: {power} owns {province}, not a supply centre")

    # 7. "each centre is owned at most once".
    owner: dict[str, str] = {}
    for power, centre in ownership:
        if centre in owner:
            raise InconsistentInput(
                f"{RULES[5]}: {centre} is owned by {owner[centre]} and by {power}"
            )
        owner[centre] = power

    # 8. "at most 34 centres are owned" (implied by 6 and 7 on a valid map).
    if len(ownership) > len(map.centres):
        rule = RULES[6].format(centres=len(map.centres))
        raise InconsistentInput(f"{rule}: {len(ownership)} are")


def _default_map(map: Map | None) -> Map:
    if map is None:
        return Map.standard()
    if not isinstance(map, Map):
        raise InvalidParameter(f"map must be a Map, got {map!r}")
    return map


def _known_location(map: Map, location: str, where: str) -> str:
    """Step 1 for a location: an upper-case ``PROVINCE`` or ``PROVINCE/COAST`` whose province
    is on the map and whose coast is one the map names somewhere."""
    province, slash, coast = location.upper().partition("/")
    if province not in map.provinces:
        raise InvalidParameter(f"{where}unknown province {province!r}")
    if slash:
        known = {c for coasts in map.coasts.values() for c in coasts}
        if coast not in known:
            raise InvalidParameter(f"{where}unknown coast {location.upper()!r}")
        return f"{province}/{coast}"
    return province


def _known_power(map: Map, power: object, where: str = "") -> str:
    code = power.upper() if isinstance(power, str) else power
    if code not in map.powers:
        raise InvalidParameter(f"{where}unknown power {power!r} (powers: {', '.join(map.powers)})")
    return str(code)


def _split_group(body: str) -> tuple[str, str] | None:
    """``units / centres`` split at the one ``/`` that does not join two name characters, or
    ``None`` when there is not exactly one such ``/``."""
    cuts = [
        i
        for i, char in enumerate(body)
        if char == "/"
        and not (
            0 < i < len(body) - 1
            and _NAME_CHAR.match(body[i - 1])
            and _NAME_CHAR.match(body[i + 1])
        )
    ]
    if len(cuts) != 1:
        return None
    return body[: cuts[0]], body[cuts[0] + 1 :]


@dataclass(frozen=True, eq=False)
class Position:
    """Units (sorted by power, then province, in map order) and centre ownership (centre ->
    power code, in centre order; a centre nobody owns is absent), checked on construction.

    Equal positions have equal canonical texts (``str``); positions hash by them."""

    map: Map
    units: tuple[Unit, ...]
    owners: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.map, Map):
            raise InvalidParameter(f"map must be a Map, got {self.map!r}")
        units: list[Unit] = []
        for unit in self.units:
            if not isinstance(unit, Unit):
                raise InvalidParameter(f"a unit must be a Unit, got {unit!r}")
            power = _known_power(self.map, unit.power)
            kind = unit.kind.upper() if isinstance(unit.kind, str) else unit.kind
            if kind not in ("A", "F"):
                raise InvalidParameter(f"a unit's kind is 'A' or 'F', got {unit.kind!r}")
            if not isinstance(unit.location, str):
                raise InvalidParameter(f"a unit's location is a string, got {unit.location!r}")
            units.append(Unit(power, kind, _known_location(self.map, unit.location, "")))
        pairs: list[tuple[str, str]] = []
        for centre, power in dict(self.owners).items():
            if not isinstance(centre, str):
                raise InvalidParameter(f"a centre is a province name, got {centre!r}")
            name = centre.upper()
            if name not in self.map.provinces:
                raise InvalidParameter(f"unknown province {centre!r}")
            pairs.append((_known_power(self.map, power), name))
        check_rules(self.map, units, pairs)
        power_index = {code: i for i, code in enumerate(self.map.powers)}
        province_index = {name: i for i, name in enumerate(self.map.provinces)}
        units.sort(key=lambda u: (power_index[u.power], province_index[u.province]))
        owner = {centre: power for power, centre in pairs}
        object.__setattr__(self, "units", tuple(units))
        object.__setattr__(self, "owners", {c: owner[c] for c in self.map.centres if c in owner})

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_units(
        cls, units: Iterable[Unit], owners: Mapping[str, str], map: Map | None = None
    ) -> Position:
        """The position of ``units`` and ``owners`` (centre -> power code) on ``map`` (the
        standard map by default)."""
        return cls(_default_map(map), tuple(units), dict(owners))

    @classmethod
    def parse(cls, text: str, map: Map | None = None) -> Position:
        """Read the text form of "A position": ``POWER: units / centres`` groups separated by
        ``;``, e.g. ``AUS: A VIE, A BUD, F TRI / BUD TRI VIE; RUS: F STP/SC / STP``."""
        the_map = _default_map(map)
        if not isinstance(text, str):
            raise InvalidParameter(f"a position's text must be a string, got {text!r}")
        units: list[Unit] = []
        pairs: list[tuple[str, str]] = []
        given: set[str] = set()
        for number, group in enumerate(text.split(";"), 1):
            if not group.strip():
                continue
            where = f"group {number}: "
            match = _GROUP.match(group)
            parts = _split_group(match.group(2)) if match else None
            if match is None or parts is None:
                raise InvalidParameter(f'{where}expected "POWER: units / centres", got {group!r}')
            power = _known_power(the_map, match.group(1), where)
            if power in given:
                raise InvalidParameter(f"{where}power {power} given twice")
            given.add(power)
            unit_text, centre_text = parts
            if unit_text.strip():
                for token in unit_text.split(","):
                    words = token.split()
                    if len(words) != 2 or words[0].upper() not in ("A", "F"):
                        raise InvalidParameter(
                            f'{where}expected a unit as "A VIE" or "F STP/SC", got {token!r}'
                        )
                    location = _known_location(the_map, words[1], where)
                    units.append(Unit(power, words[0].upper(), location))
            for name in centre_text.split():
                province = _known_location(the_map, name, where)
                if "/" in province:
                    raise InvalidParameter(f"{where}a centre is a province, got {name!r}")
                pairs.append((power, province))
        check_rules(the_map, units, pairs)
        return cls(the_map, tuple(units), {centre: power for power, centre in pairs})

    # ------------------------------------------------------------------ text and identity

    def __str__(self) -> str:
        return self._text

    @cached_property
    def _text(self) -> str:
        """The canonical text, made once (the engine's cache of positions is keyed by it)."""
        groups = []
        for power in self.map.powers:
            units = ", ".join(str(u) for u in self.units_of(power))
            centres = " ".join(self.centres_of(power))
            if units or centres:
                groups.append(" ".join(part for part in (f"{power}:", units, "/", centres) if part))
        return "; ".join(groups)

    def __repr__(self) -> str:
        return f"Position({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (
            (self.map is other.map or self.map == other.map)
            and self.units == other.units
            and dict(self.owners) == dict(other.owners)
        )

    def __hash__(self) -> int:
        return hash((self.units, tuple(self.owners.items())))

    # ------------------------------------------------------------------ per power

    def units_of(self, power: str) -> tuple[Unit, ...]:
        """The power's units in province order: unit ``i`` of the power is the ``i``-th."""
        code = _known_power(self.map, power)
        return tuple(u for u in self.units if u.power == code)

    def centres_of(self, power: str) -> tuple[str, ...]:
        """The centres the power owns, in province order."""
        code = _known_power(self.map, power)
        return tuple(c for c, p in self.owners.items() if p == code)

    def open_homes(self, power: str) -> tuple[str, ...]:
        """The power's home centres that it owns and on which no unit (of any power) stands,
        in province order."""
        code = _known_power(self.map, power)
        occupied = {u.province for u in self.units}
        return tuple(
            h for h in self.map.homes[code] if self.owners.get(h) == code and h not in occupied
        )

    # ------------------------------------------------------------------ arrays for the core

    @cached_property
    def unit_power(self) -> NDArray[np.int64]:
        """Each unit's power as its index in ``map.powers`` (int64, read-only)."""
        index = {code: i for i, code in enumerate(self.map.powers)}
        return _frozen(np.array([index[u.power] for u in self.units], dtype=np.int64))

    @cached_property
    def unit_fleet(self) -> NDArray[np.bool_]:
        """Whether each unit is a fleet (bool, read-only)."""
        return _frozen(np.array([u.kind == "F" for u in self.units], dtype=np.bool_))

    @cached_property
    def unit_location(self) -> NDArray[np.int64]:
        """Each unit's location: its index in ``map.army_locations()`` for an army, in
        ``map.fleet_locations()`` for a fleet (int64, read-only)."""
        army = {loc: i for i, loc in enumerate(self.map.army_locations())}
        fleet = {loc: i for i, loc in enumerate(self.map.fleet_locations())}
        return _frozen(
            np.array(
                [(fleet if u.kind == "F" else army)[u.location] for u in self.units],
                dtype=np.int64,
            )
        )

    @cached_property
    def owner(self) -> NDArray[np.int64]:
        """The owner of each centre in ``map.centres`` order as a power index, -1 for nobody
        (int64, read-only)."""
        index = {code: i for i, code in enumerate(self.map.powers)}
        return _frozen(
            np.array(
                [index[self.owners[c]] if c in self.owners else -1 for c in self.map.centres],
                dtype=np.int64,
            )
        )


def _frozen(array: NDArray[_T]) -> NDArray[_T]:
    array.setflags(write=False)
    return array
