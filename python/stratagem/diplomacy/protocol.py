"""Diplomacy winter adjustments through :mod:`stratagem.protocol`: :class:`Diplomacy`.

Seats are the seven powers (in map order: AUS, ENG, FRA, GER, ITA, RUS, TUR), who adjust once
and at the same time (``dynamics="one-shot"``): after one step the winter is over. A power's
action is the index of one of its adjustment options in the engine's listing order under the
game's counting convention (:func:`stratagem.diplomacy.adjustments.batch` lists them in slot
form, ``describe`` as orders); ``num_actions`` is the configuration's ``max_actions`` (4,096
by default: the action space is the same for every position of a configuration), and a power
with nothing to adjust has one action, 0 (do nothing). An agent can so choose any
adjustment the rules allow — every removal set, every build set — as one integer; what it
cannot do is reason about units one by one through the protocol (the slot form and
``adjustments`` do that). A position with a power of more options than ``max_actions`` is
refused, naming the power; ``max_actions`` goes up to :data:`MAX_ACTIONS`.

Rewards are the position evaluator's values (``search.values`` with the default
``Weights``) of the adjusted position, one per power; the power with the strictly highest
value wins, several sharing it draw. ``reward`` chooses their scale: ``"values"`` (the
default) the values themselves (-306..912 on the standard map); ``"scaled"`` the values
divided by the most a value can be (912 on the standard map), so in [-1, 1]; ``"outcome"``
+1 to the winner and -1 to the others, 0 to powers sharing the top and -1 to the rest.
The observation is an ``int8`` array of shape ``(4, 75)`` over the provinces in map order,
relative to the observing power ``p`` (0 ``p`` itself, 1..6 the next powers in map order, -1
nobody): row 0 the power of the unit on the province, row 1 its kind (0 none, 1 army, 2
fleet), row 2 the owner of the supply centre (-1 also for provinces that are no centre), row
3 whether the province is a centre (1) or not (0). With ``observation="planes"`` it is one
float32 vector, the planes of ``planes_shape`` ``(17, 75)`` flattened: planes 0..6 the unit's
power one-hot (plane 0: ``p`` itself), 7 armies, 8 fleets, 9..15 the centre's owner one-hot,
16 the centres.

With no ``position`` the winter is drawn from the seed (:func:`random_position`).

>>> from stratagem.diplomacy.protocol import Diplomacy
>>> game = Diplomacy(position="AUS: A VIE, A BUD, F TRI, A GAL / BUD TRI VIE; RUS: A UKR / MOS SEV")
>>> game.num_actions, [int(game.legal_actions(seat).size) for seat in range(7)]
(4096, [4, 1, 1, 1, 1, 3, 1])
>>> game.step([1, 0, 0, 0, 0, 0, 0])
>>> game.is_over, game.orders["AUS"], game.outcome, game.winners
(True, ['remove A GAL'], 'won', (0,))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from stratagem import _validate, protocol
from stratagem.diplomacy import adjustments
from stratagem.diplomacy.engine import Convention, check_convention
from stratagem.diplomacy.position import Position
from stratagem.diplomacy.positions import random_position
from stratagem.diplomacy.search.finder import METHODS, Weights, profile_orders, solve, values
from stratagem.errors import InvalidParameter

__all__ = ["MAX_ACTIONS", "REWARDS", "Diplomacy"]

#: The scales of the rewards (the ``reward`` configuration key).
REWARDS = ("values", "scaled", "outcome")
#: The most adjustment options a power may have here: C(17, 9) = 24,310, the largest removal
#: count of the standard map, fits; masks stay a few kilobytes.
MAX_ACTIONS = 1 << 16


class Diplomacy(protocol.RawOrPlanes, protocol.TurnGame):
    """A winter's adjustments behind the protocol: ``position`` is the winter, ``orders``
    (after the step) each power's chosen orders, ``values`` the evaluator's values."""

    name = "diplomacy"
    raw_dtype = np.int8

    def __init__(
        self,
        *,
        seed: int = 0,
        position: str | None = None,
        convention: str = "exact",
        max_actions: int = 4096,
        threads: int | None = None,
        observation: str = "raw",
        reward: str = "values",
    ) -> None:
        self.observation_mode = protocol.check_observation(observation)
        if reward not in REWARDS:
            raise InvalidParameter(
                f"reward must be one of {', '.join(map(repr, REWARDS))}, got {reward!r}"
            )
        self.reward = reward
        self.threads = _validate.threads(threads)
        self.convention: Convention = check_convention(convention)
        self._max_actions = _validate.integer("max_actions", max_actions, 1, MAX_ACTIONS)
        if position is None:
            self.position = random_position(seed)
        elif isinstance(position, str):
            self.position = Position.parse(position)
        else:
            raise InvalidParameter(f"position must be a position's text, got {position!r}")
        self.powers = self.position.map.powers
        self._counts = [
            adjustments.count(self.position, power, self.convention) for power in self.powers
        ]
        for power, count in zip(self.powers, self._counts, strict=True):
            if count > self._max_actions:
                raise InvalidParameter(
                    f"{power} has {count:,} adjustment options under {self.convention!r}, more "
                    f"than max_actions={self._max_actions:,} (raise it, up to {MAX_ACTIONS:,})"
                )
        self._profile: tuple[int, ...] | None = None
        self.values: NDArray[np.int64] | None = None
        self.orders: dict[str, list[str]] = {}
        super().__init__(
            seed,
            {
                "position": position,
                "convention": convention,
                "max_actions": max_actions,
                "observation": observation,
                "reward": reward,
            },
        )

    @property
    def seats(self) -> int:
        return len(self.powers)

    @property
    def is_over(self) -> bool:
        return self._profile is not None

    @property
    def outcome(self) -> protocol.Outcome:
        if self.values is None:
            return "unfinished"
        return "won" if len(self.winners) == 1 else "drawn"

    @property
    def winners(self) -> tuple[int, ...]:
        if self.values is None:
            return ()
        return tuple(int(p) for p in np.flatnonzero(self.values == self.values.max()))

    @property
    def num_actions(self) -> int:
        return self._max_actions

    @property
    def value_bounds(self) -> tuple[float, float]:
        """The evaluator's range with the default weights: every centre owned and in reach,
        a unit on every province, at most; every owned centre threatened, at least."""
        weights, the_map = Weights(), self.position.map
        centres, provinces = len(the_map.centres), len(the_map.provinces)
        most = weights.centre * centres + weights.unit * provinces + weights.reach * 3 * centres
        return (-float(weights.threat * 3 * centres), float(most))

    @property
    def return_bounds(self) -> tuple[float, float]:
        """The range of a reward under the game's ``reward`` scale."""
        low, high = self.value_bounds
        if self.reward == "scaled":
            return (low / high, 1.0)
        if self.reward == "outcome":
            return (-1.0, 1.0)
        return (low, high)

    @property
    def max_steps(self) -> int:
        return 1

    @property
    def planes_shape(self) -> tuple[int, int]:
        """The layout of ``observation="planes"``: (planes, provinces)."""
        return (2 * self.seats + 3, len(self.position.map.provinces))

    @property
    def raw_shape(self) -> tuple[int, ...]:
        return (4, len(self.position.map.provinces))

    @property
    def raw_bounds(self) -> tuple[NDArray[Any], NDArray[Any]]:
        width, last = len(self.position.map.provinces), self.seats - 1
        return protocol.row_bounds(
            [-1, 0, -1, 0], [last, 2, last, 1], width, self.observation_dtype
        )

    def to_move(self) -> tuple[int, ...]:
        return () if self.is_over else tuple(range(self.seats))

    def legal_actions(self, seat: int) -> NDArray[np.int64]:
        seat = self._seat(seat)
        if seat not in self.to_move():
            return np.zeros(0, dtype=np.int64)
        return np.arange(self._counts[seat], dtype=np.int64)

    def _apply(self, actions: dict[int, int]) -> NDArray[np.float64]:
        profile = tuple(actions[seat] for seat in range(self.seats))
        self.values = values(self.position, profile, self.convention)
        self._profile = profile
        self.orders = profile_orders(self.position, self.convention, profile)
        if self.reward == "outcome":
            return protocol.terminal_rewards(self.seats, self.outcome, self.winners)
        if self.reward == "scaled":
            return self.values.astype(np.float64) / self.value_bounds[1]
        return self.values.astype(np.float64)

    def observation(self, seat: int) -> NDArray[Any]:
        seat = self._seat(seat)
        the_map = self.position.map
        planes = np.full(self.raw_shape, -1, dtype=self.raw_dtype)
        planes[1] = 0
        planes[3] = 0
        power_index = {power: i for i, power in enumerate(self.powers)}
        for unit in self.position.units:
            where = the_map.index(unit.province)
            planes[0, where] = (power_index[unit.power] - seat) % self.seats
            planes[1, where] = 1 if unit.kind == "A" else 2
        for centre in the_map.centres:
            where = the_map.index(centre)
            planes[3, where] = 1
            owner = self.position.owners.get(centre)
            if owner is not None:
                planes[2, where] = (power_index[owner] - seat) % self.seats
        if self.observation_mode == "raw":
            return planes
        return np.concatenate(
            [
                protocol.one_hot(planes[0], self.seats),
                protocol.one_hot(planes[1], 2, low=1),
                protocol.one_hot(planes[2], self.seats),
                planes[3][np.newaxis].astype(np.float32),
            ]
        ).ravel()

    def _copy_state(self, twin: Diplomacy) -> None:
        twin._counts = list(self._counts)
        twin.orders = {power: list(orders) for power, orders in self.orders.items()}
        twin.values = None if self.values is None else self.values.copy()

    def render(self) -> str:
        lines = [f"winter ({self.convention}): {self.position}"]
        for seat, power in enumerate(self.powers):
            chosen = "; ".join(self.orders.get(power, [])) or "-"
            value = "" if self.values is None else f", value {int(self.values[seat])}"
            lines.append(f"  {power}: {self._counts[seat]} options, orders {chosen}{value}")
        lines.append(f"  {self.outcome}" + (f" by {list(self.winners)}" if self.winners else ""))
        return "\n".join(lines)

    def picture(self, path: str) -> None:
        """Draws the position (PNG)."""
        from stratagem.diplomacy.plot import plot_position

        plot_position(self.position, path)

    def suggest(self, seat: int, name: str) -> int:
        """The action of ``seat``'s power in the profile the search method ``name``
        (``preliminary``, ``anneal`` or ``combined``) finds, seeded by this game's seed."""
        seat = self._seat(seat)
        if name not in METHODS:
            raise InvalidParameter(f"unknown search method {name!r}; choose one of {METHODS}")
        found = solve(
            self.position, name, convention=self.convention, seed=self.seed, threads=self.threads
        )
        return int(found.profile[seat])


if TYPE_CHECKING:  # mypy checks that the class satisfies the protocol
    _satisfies: type[protocol.Game] = Diplomacy
