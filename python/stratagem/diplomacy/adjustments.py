"""Counting and listing the winter adjustments of a position (``docs/diplomacy-rules.md``).

Counts are exact Python integers; options come lazily or as numpy batches in *slot form*: for a
power that removes, one slot per unit (``1`` removed); for a power that builds, one slot per
open home (``0`` no build, ``i + 1`` the home's build option ``i``).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from stratagem.diplomacy import engine
from stratagem.diplomacy.engine import Convention, check_convention
from stratagem.errors import InvalidParameter

if TYPE_CHECKING:
    from stratagem.diplomacy.position import Position

#: Rows per batch when options are listed lazily.
BATCH = 4096


def _power_index(position: Position, power: str) -> int:
    code = power.upper()
    if code not in position.map.powers:
        raise InvalidParameter(
            f"unknown power {power!r}; the powers are {', '.join(position.map.powers)}"
        )
    return position.map.powers.index(code)


def counts(position: Position, convention: Convention = "exact") -> dict[str, int]:
    """Each power's number of adjustment options, by power code."""
    check_convention(convention)
    numbers = engine.position(position).counts(convention)
    return dict(zip(position.map.powers, (int(n) for n in numbers), strict=True))


def count(position: Position, power: str, convention: Convention = "exact") -> int:
    """The number of adjustment options of one power."""
    return counts(position, convention)[position.map.powers[_power_index(position, power)]]


def total(position: Position, convention: Convention = "exact") -> int:
    """The size of the whole search space: the product of the powers' counts."""
    return math.prod(counts(position, convention).values())


def batch(
    position: Position, power: str, convention: Convention, start: int, stop: int
) -> NDArray[np.uint8]:
    """Options ``start..stop`` (clipped to the count) of ``power`` in listing order, one row
    per option in slot form."""
    check_convention(convention)
    if start < 0 or stop < start:
        raise InvalidParameter(f"need 0 <= start <= stop, got start={start} stop={stop}")
    rows: NDArray[np.uint8] = engine.position(position).options(
        _power_index(position, power), convention, start, stop
    )
    return rows


def options(
    position: Position, power: str, convention: Convention = "exact"
) -> Iterator[tuple[int, ...]]:
    """Every option of ``power`` in listing order, in slot form, fetched in batches."""
    number = count(position, power, convention)
    for start in range(0, number, BATCH):
        for row in batch(position, power, convention, start, start + BATCH):
            yield tuple(int(v) for v in row)


def index_of(
    position: Position, power: str, slots: Sequence[int], convention: Convention = "exact"
) -> int:
    """The listing index of an option given in slot form."""
    check_convention(convention)
    if any(not 0 <= int(s) <= 255 for s in slots):
        raise InvalidParameter(f"slots are small non-negative integers, got {list(slots)}")
    return int(
        engine.position(position).rank(
            _power_index(position, power), convention, [int(s) for s in slots]
        )
    )


def describe(position: Position, power: str, slots: Sequence[int]) -> list[str]:
    """The orders of an option in slot form: ``remove A VIE`` or ``build F STP/SC``. A removal
    slot is 0 (keep) or 1 (remove); a build slot is 0 (no build) or ``1..k`` for the home's
    ``k`` build options."""
    code = position.map.powers[_power_index(position, power)]
    units = position.units_of(code)
    centres = len(position.centres_of(code))
    if len(units) > centres:
        if len(slots) != len(units):
            raise InvalidParameter(f"{code} has {len(units)} units; got {len(slots)} slots")
        kept = [_slot(slots, i, 1, f"unit {u.kind} {u.location}") for i, u in enumerate(units)]
        return [f"remove {u.kind} {u.location}" for u, s in zip(units, kept, strict=True) if s]
    homes = position.open_homes(code) if centres > len(units) else ()
    if len(slots) != len(homes):
        raise InvalidParameter(f"{code} has {len(homes)} open homes; got {len(slots)} slots")
    orders = []
    for i, home in enumerate(homes):
        choices = position.map.build_options(home)
        s = _slot(slots, i, len(choices), f"home {home}")
        if s:
            kind, _, coast = choices[s - 1].partition("/")
            orders.append(f"build {kind} {home}{'/' + coast if coast else ''}")
    if len(orders) > centres - len(units):
        raise InvalidParameter(
            f"{code} may build at most {centres - len(units)} units, got {len(orders)} builds"
        )
    return orders


def _slot(slots: Sequence[int], i: int, most: int, what: str) -> int:
    """``slots[i]``, a whole number from 0 to ``most`` (the slot of ``what``)."""
    value = slots[i]
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InvalidParameter(f"slot {i} ({what}) must be a whole number, got {value!r}")
    if not 0 <= int(value) <= most:
        raise InvalidParameter(f"slot {i} ({what}) must be from 0 to {most}, got {int(value)}")
    return int(value)
