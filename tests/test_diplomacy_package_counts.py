"""Winter adjustment counts against the independent PyPI package ``diplomacy``.

Each position is rebuilt in a ``diplomacy.Game`` (standard map) put into a winter adjustment
phase. From the package alone we read what each power must do (its ``get_state()['builds']``)
and the orders it offers at each orderable location (``get_all_possible_orders``,
``get_orderable_locations``). The choices are then counted by brute force from those order
lists, under the three conventions of ``docs/diplomacy-rules.md`` ("Adjustments of one power"),
and compared with ``stratagem.diplomacy.adjustments.count``. The whole file skips without the
package (the ``diplomacy`` extra).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stratagem.diplomacy import adjustments as adj
from stratagem.diplomacy.engine import CONVENTIONS, Convention
from stratagem.diplomacy.map import Map
from stratagem.diplomacy.position import Position, Unit
from test_diplomacy_engine import OPENING, random_position

diplomacy = pytest.importorskip("diplomacy")

STANDARD = Map.standard()
#: Our power codes to the package's power names ('AUS' -> 'AUSTRIA').
NAMES = {
    code: name.upper() for code, name in zip(STANDARD.powers, STANDARD.power_names, strict=True)
}


@dataclass(frozen=True)
class Task:
    """What the package says one power does this winter.

    ``need``: the package's ``builds[power]['count']``, negative for removals (``-k``),
    positive for builds (``b``, already capped by the build sites), 0 for nothing.
    ``orders``: each orderable location (``get_orderable_locations``) with the orders
    ``get_all_possible_orders`` offers there.
    """

    need: int
    orders: Mapping[str, Sequence[str]]


def package_game(position: Position) -> Any:
    """A fresh ``diplomacy.Game`` holding exactly the units and centre owners of ``position``,
    in the adjustment phase of winter 1901."""
    game = diplomacy.Game()
    game.clear_units()
    game.clear_centers()
    for code, name in NAMES.items():
        game.set_units(name, [str(u) for u in position.units_of(code)], reset=True)
        game.set_centers(name, list(position.centres_of(code)), reset=True)
    game.set_current_phase("W1901A")
    assert game.phase_type == "A"
    assert not game.error, game.error  # set_units records (and drops) any unit it refuses
    for code, name in NAMES.items():  # nothing was dropped or moved
        power = game.get_power(name)
        assert sorted(power.units) == sorted(str(u) for u in position.units_of(code))
        assert sorted(power.centers) == sorted(position.centres_of(code))
        assert sorted(power.homes) == sorted(STANDARD.homes[code])
    return game


def package_tasks(game: Any) -> dict[str, Task]:
    """Each power's :class:`Task`, by our power code, read from the package only."""
    builds = game.get_state()["builds"]
    possible = game.get_all_possible_orders()
    return {
        code: Task(
            need=builds[name]["count"],
            orders={loc: sorted(possible[loc]) for loc in game.get_orderable_locations(name)},
        )
        for code, name in NAMES.items()
    }


def count_from_orders(task: Task, convention: Convention) -> int:
    """The number of adjustments of one power, by brute force over the package's orders.

    ``docs/diplomacy-rules.md``, "Adjustments of one power":

    - removals (``need = -k < 0``): the power removes exactly ``k`` of its units, the same under
      every convention; an adjustment is a set of ``k`` of the disband orders, one per unit;
    - builds (``need = b > 0``): one order at each open home, either ``WAIVE`` (no build there)
      or one of the home's build orders; the number ``j`` of builds must be ``b`` under
      ``exact``, ``0 <= j <= b`` under ``waives``, ``1 <= j <= b`` under ``article``;
    - otherwise (``u = c``, or ``b = 0``): one option, doing nothing, under every convention.
    """
    if task.need < 0:
        disbands = [order for orders in task.orders.values() for order in orders]
        return sum(1 for _ in itertools.combinations(disbands, -task.need))
    if task.need == 0:
        return 1
    allowed = {
        "exact": range(task.need, task.need + 1),
        "waives": range(task.need + 1),
        "article": range(1, task.need + 1),
    }[convention]
    return sum(
        1
        for choice in itertools.product(*task.orders.values())
        if sum(order != "WAIVE" for order in choice) in allowed
    )


def build_option(order: str) -> str:
    """A package build order as our build option: ``'F STP/NC B'`` -> ``'F/NC'``."""
    kind, location, letter = order.split()
    assert letter == "B", order
    _, slash, coast = location.partition("/")
    return f"{kind}/{coast}" if slash else kind


def check(position: Position) -> dict[str, dict[str, int]]:
    """Every check of this file on one position; our counts by power and convention."""
    game = package_game(position)
    tasks = package_tasks(game)
    found: dict[str, dict[str, int]] = {}
    for code, task in tasks.items():
        units = position.units_of(code)
        u, c = len(units), len(position.centres_of(code))
        homes = position.open_homes(code)
        if u > c:
            assert task.need == c - u
            assert sorted(task.orders) == sorted(unit.province for unit in units)
            for unit in units:  # one order per unit: its disband
                assert task.orders[unit.province] == [f"{unit} D"]
        elif c > u and homes:
            assert task.need == min(c - u, len(homes))
            assert sorted(task.orders) == sorted(homes)
            for home in homes:
                orders = task.orders[home]
                assert "WAIVE" in orders  # the package lets a build site be waived
                built = sorted(build_option(o) for o in orders if o != "WAIVE")
                assert built == sorted(STANDARD.build_options(home)), home
                assert len(orders) == len(STANDARD.build_options(home)) + 1
        else:  # u == c, or builds owed but no open home
            assert task.need == 0
            assert task.orders == {}
        power = game.get_power(NAMES[code])  # the package's balance before its cap
        assert len(power.centers) - len(power.units) == c - u
        found[code] = {}
        for convention in CONVENTIONS:
            ours = adj.count(position, code, convention)
            assert count_from_orders(task, convention) == ours, (str(position), code, convention)
            found[code][convention] = ours
    return found


@given(st.integers(0, 10**6))
def test_random_positions(seed: int) -> None:
    # 14 units make mostly builds; 24 and 34 make removals common too.
    position = random_position(seed, units=(14, 24, 34)[seed % 3])
    check(position)


@pytest.mark.parametrize(
    ("text", "power", "expected"),
    [
        # Russia, four open homes (STP bicoastal: A, F/NC, F/SC), two builds:
        # e_2(1, 2, 3, 1) = 17, e_1 + e_2 = 7 + 17, plus the empty set for waives.
        ("RUS: A UKR, A LVN / MOS SEV STP WAR", "RUS", (17, 25, 24)),
        ("RUS: A UKR, A LVN, A FIN / MOS SEV STP WAR", "RUS", (7, 8, 7)),
        ("RUS: / MOS SEV STP WAR", "RUS", (6, 48, 47)),
        # Builds capped by the open homes: 5 owed, 3 open homes (BER, KIE coastal; MUN inland).
        ("GER: A HOL, A BEL / BER KIE MUN HOL BEL DEN SWE", "GER", (4, 18, 17)),
        # A home held by a foreign unit is not open: only STP is.
        ("RUS: / SEV STP; TUR: F SEV / ANK", "RUS", (3, 4, 3)),
        # Builds owed, no open home: one option, doing nothing, under every convention.
        ("FRA: A PAR, A MAR, F BRE / BRE MAR PAR SPA POR", "FRA", (1, 1, 1)),
        # An owned centre that is another power's home is no build site.
        ("GER: / MUN WAR", "GER", (1, 2, 1)),
        # Removals: C(u, k), the same under every convention, coasts included.
        ("RUS: F STP/SC, A MOS, A WAR, F SEV / MOS", "RUS", (4, 4, 4)),
        ("ITA: A ROM, F NAP, A VEN / ", "ITA", (1, 1, 1)),
        (OPENING, "AUS", (1, 1, 1)),
    ],
)
def test_hand_picked(text: str, power: str, expected: tuple[int, int, int]) -> None:
    counts = check(Position.parse(text))
    assert tuple(counts[power][c] for c in CONVENTIONS) == expected


def test_seventeen_units_on_eight_centres() -> None:
    land = [p for p, k in zip(STANDARD.provinces, STANDARD.kind, strict=True) if k != "sea"]
    units = [Unit("AUS", "A", p) for p in land if p not in STANDARD.centres][:17]
    position = Position.from_units(units, dict.fromkeys(STANDARD.centres[:8], "AUS"))
    counts = check(position)
    assert math.comb(17, 9) == 24_310
    assert counts["AUS"] == dict.fromkeys(CONVENTIONS, 24_310)
