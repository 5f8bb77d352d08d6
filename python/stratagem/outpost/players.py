"""The players of outpost and what they see (``docs/outpost-rules.md``).

A player is a built-in name (``"random"``, ``"spread"``, ``"frontier"``, ``"lookahead"``, played
in Rust) or an object with two methods (see :class:`Player`)::

    move(state) -> directions for my outposts
    disband(state) -> the id of one of my outposts

Both see a :class:`State`: the map, the parameters, the turn, the control map and every outpost,
as read-only numpy arrays. A direction is ``0``-``4`` or one of ``"stay"``, ``"N"``, ``"E"``,
``"S"``, ``"W"`` (also spelt out, any case); ``move`` answers with a mapping ``{outpost id:
direction}`` (outposts left out stay) or a sequence with one direction per outpost of
``state.mine()`` (in increasing id); ``None`` stands for stay. A player that raises, answers
anything else, or runs past the game's ``time_budget`` (seconds per turn) loses that answer:
its outposts stay, or its outpost with the largest id is disbanded; the log says why (kind
``player``). The budget holds: a player still thinking at its deadline is cut off there
(:mod:`stratagem.outpost.budget`), whether it computes or blocks.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from stratagem import _core
from stratagem.errors import InvalidParameter
from stratagem.outpost.map import Map

__all__ = ["BUILTIN_PLAYERS", "DIRECTIONS", "Player", "State", "check_budget"]

BUILTIN_PLAYERS: tuple[str, ...] = tuple(_core.outpost.PLAYERS)
"""The players that run in Rust, as the engine names them."""

DIRECTIONS = ("stay", "N", "E", "S", "W")
"""Direction numbers 0-4: stay, north (y - 1), east (x + 1), south (y + 1), west (x - 1)."""

_DIRECTION_WORDS = {
    "stay": 0,
    "n": 1,
    "north": 1,
    "e": 2,
    "east": 2,
    "s": 3,
    "south": 3,
    "w": 4,
    "west": 4,
}


@dataclass(frozen=True)
class State:
    """What a player sees. Arrays are read-only; ``outposts`` rows are ``[id, empire, x, y]`` in
    increasing id, ``control`` is int8 ``[y, x]`` (the empire, -1 neutral, -2 disputed)."""

    map: Map
    r: int
    L: int
    W: int
    T: int
    turn: int
    """The turn being played (1 on the first)."""
    empire: int
    """The empire whose player is asked (-1 when nobody is)."""
    control: NDArray[np.int8]
    outposts: NDArray[np.int32]

    @property
    def water(self) -> NDArray[np.bool_]:
        """The 100 x 100 water mask ``[y, x]``."""
        return self.map.water

    def mine(self) -> NDArray[np.int32]:
        """The rows of ``outposts`` that belong to the asked empire."""
        return self.of(self.empire)

    def of(self, empire: int) -> NDArray[np.int32]:
        """The rows of ``outposts`` that belong to ``empire``."""
        rows: NDArray[np.int32] = self.outposts[self.outposts[:, 1] == empire]
        return rows

    def cells_of(self, empire: int) -> tuple[int, int]:
        """Land and water cells ``empire`` controls."""
        held = self.control == empire
        water = int(np.count_nonzero(held & self.map.water))
        return int(np.count_nonzero(held)) - water, water


@runtime_checkable
class Player(Protocol):
    """A player written in Python."""

    def move(self, state: State) -> Mapping[int, int | str] | Sequence[int | str] | NDArray[Any]:
        """Directions for the outposts of ``state.empire``."""
        ...

    def disband(self, state: State) -> int:
        """The id of one of ``state.empire``'s outposts, to be disbanded."""
        ...


class _Refused(Exception):
    """A player's answer that cannot be used; the message says why."""


def _direction(value: object, where: str) -> int:
    if isinstance(value, str):
        number = _DIRECTION_WORDS.get(value.strip().lower())
        if number is None:
            raise _Refused(f"{where}: {value!r} is not a direction")
        return number
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise _Refused(f"{where}: {value!r} is not a direction")
    if not 0 <= int(value) <= 4:
        raise _Refused(f"{where}: direction {int(value)} is not 0..4")
    return int(value)


def _parse_moves(answer: object, own_ids: Sequence[int]) -> NDArray[np.uint8]:
    """One direction per own outpost (in id order) from a player's answer."""
    directions = np.zeros(len(own_ids), dtype=np.uint8)
    if isinstance(answer, Mapping):
        index = {outpost: i for i, outpost in enumerate(own_ids)}
        for key, value in answer.items():
            if isinstance(key, bool) or not isinstance(key, int | np.integer):
                raise _Refused(f"outpost id {key!r} is not an integer")
            if int(key) not in index:
                raise _Refused(f"outpost {int(key)} is not one of this empire's outposts")
            directions[index[int(key)]] = _direction(value, f"outpost {int(key)}")
        return directions
    if isinstance(answer, str | bytes) or not isinstance(answer, Sequence | np.ndarray):
        kind = type(answer).__name__
        raise _Refused(f"expected a mapping or a sequence of directions, got {kind}")
    values = list(answer)
    if len(values) != len(own_ids):
        raise _Refused(f"{len(values)} directions for {len(own_ids)} outposts")
    for i, value in enumerate(values):
        directions[i] = _direction(value, f"outpost {own_ids[i]}")
    return directions


def _parse_disband(answer: object, own_ids: Sequence[int]) -> int:
    if isinstance(answer, bool) or not isinstance(answer, int | np.integer):
        raise _Refused(f"expected an outpost id, got {answer!r}")
    if int(answer) not in own_ids:
        raise _Refused(f"outpost {int(answer)} is not one of this empire's outposts")
    return int(answer)


def _player_name(player: object) -> str:
    return player if isinstance(player, str) else type(player).__name__


def _seat(player: object, empire: int) -> str | Player:
    if isinstance(player, str):
        if player not in BUILTIN_PLAYERS:
            raise InvalidParameter(
                f"player {empire}: unknown built-in player {player!r}; the built-in players "
                f"are {', '.join(BUILTIN_PLAYERS)}"
            )
        return player
    if not (callable(getattr(player, "move", None)) and callable(getattr(player, "disband", None))):
        raise InvalidParameter(
            f"player {empire}: {type(player).__name__} is neither a built-in name nor an object "
            "with move(state) and disband(state) methods"
        )
    return player  # type: ignore[return-value]


def check_budget(time_budget: object) -> float | None:
    """A time budget (seconds per turn, positive and finite) or None."""
    if time_budget is not None and (
        isinstance(time_budget, bool)
        or not isinstance(time_budget, int | float)
        or not 0 < time_budget < math.inf
    ):
        raise InvalidParameter(
            f"time_budget must be a positive number (finite), got {time_budget!r}"
        )
    return time_budget
