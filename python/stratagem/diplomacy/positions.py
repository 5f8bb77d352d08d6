"""Positions to start from: the 1901 opening, and winter positions drawn from a seed.

>>> from stratagem.diplomacy.positions import random_position
>>> position = random_position(3)
>>> position == random_position(3), position == random_position(4)
(True, False)
"""

from __future__ import annotations

from stratagem import _validate, rng
from stratagem.diplomacy.map import Map
from stratagem.diplomacy.position import Position, Unit

__all__ = ["OPENING", "random_position"]

#: The standard map's 1901 start: every power on its home centres.
OPENING = (
    "AUS: A BUD, F TRI, A VIE / BUD TRI VIE; ENG: F EDI, F LON, A LVP / EDI LON LVP; "
    "FRA: F BRE, A MAR, A PAR / BRE MAR PAR; GER: A BER, F KIE, A MUN / BER KIE MUN; "
    "ITA: F NAP, A ROM, A VEN / NAP ROM VEN; "
    "RUS: A MOS, F SEV, F STP/SC, A WAR / MOS SEV STP WAR; TUR: F ANK, A CON, A SMY / ANK CON SMY"
)

_PURPOSE = "diplomacy.random_position"
_PERCENT = 100
# A bicoastal province has two coasts on the standard map; ``side % len(coasts)`` picks one.
_COASTS = 2


class _Draws:
    """The integers a position is drawn from, all read from stream ``(seed, purpose)`` in one
    call: the bounds are fixed in advance (every province gets its power, kind and coast
    draws whether or not it gets a unit), so the draws do not depend on one another."""

    def __init__(self, seed: int, bounds: list[int]) -> None:
        drawn = rng.draws(_validate.seed(seed), _PURPOSE, [], "below", bounds)
        self.values = iter(int(v) for v in drawn)

    def next(self) -> int:
        return next(self.values)


def random_position(seed: int, units: int = 14, map: Map | None = None) -> Position:
    """A legal winter position drawn from ``seed``: up to ``units`` units on distinct
    provinces of the right kind (a fleet on a bicoastal province on one of its coasts), each
    of a random power; home centres mostly owned by their power, other centres by a random
    power or nobody; a unit on a centre owns it, as after a Fall turn. Home centres are often
    left open, so builds happen as well as removals."""
    the_map = map or Map.standard()
    _validate.integer("units", units, 0, len(the_map.provinces))
    n, powers = len(the_map.provinces), len(the_map.powers)
    shuffle = list(range(n, 1, -1))
    per_province = [powers, _PERCENT, _COASTS] * n
    per_centre = [_PERCENT, _PERCENT, powers] * len(the_map.centres)
    draws = _Draws(seed, [*shuffle, units + 1, *per_province, *per_centre])
    provinces = list(the_map.provinces)
    for i in range(n - 1, 0, -1):  # Fisher-Yates
        j = draws.next()
        provinces[i], provinces[j] = provinces[j], provinces[i]
    count = draws.next()
    placed: list[Unit] = []
    for number, province in enumerate(provinces):
        power, coin, side = the_map.powers[draws.next()], draws.next(), draws.next()
        if number >= count:
            continue
        kind = the_map.kind[the_map.provinces.index(province)]
        if kind == "sea":
            placed.append(Unit(power, "F", province))
        elif kind == "land" or coin < _PERCENT // 2:
            placed.append(Unit(power, "A", province))
        elif province in the_map.coasts:
            coasts = the_map.coasts[province]
            placed.append(Unit(power, "F", f"{province}/{coasts[side % len(coasts)]}"))
        else:
            placed.append(Unit(power, "F", province))
    owners: dict[str, str] = {}
    for centre in the_map.centres:
        kept, taken, taker = draws.next(), draws.next(), the_map.powers[draws.next()]
        home = the_map.home_of[centre]
        if home is not None and kept < 70:
            owners[centre] = home
        elif taken < _PERCENT // 2:
            owners[centre] = taker
    for unit in placed:
        if unit.province in the_map.centres:
            owners[unit.province] = unit.power
    return Position.from_units(placed, owners, the_map)
