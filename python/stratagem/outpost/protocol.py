"""Outpost through :mod:`stratagem.protocol`: :class:`Outpost`.

Seats are the four empires, who move at once each turn (``dynamics="simultaneous"``). A turn
of outpost is many decisions (a direction for every outpost, and at a season which outpost to
disband); the ``actions`` key says how a seat makes them.

- ``actions="players"`` (the default): the action is a choice among the built-in players for
  this turn: action ``i`` lets ``BUILTIN_PLAYERS[i]`` (``random``, ``spread``, ``frontier``,
  ``lookahead``) make all of the empire's moves this turn, and its season disbandment.
- ``actions="moves"``: the action is the empire's own move, one step per outpost slot (a
  ``MultiDiscrete`` of ``slots`` components of 5 choices, ``move_nvec``): slot ``i`` is the
  empire's ``i``-th outpost in increasing id, its choice a direction of ``DIRECTIONS`` (0
  stay, 1 N, 2 E, 3 S, 4 W). ``move_mask(seat)`` allows stay everywhere and a step only onto
  a land cell inside the grid, and only stay on slots without an outpost. ``slots`` is
  ``1 + min(max_turns // 10, land // L, water // W)`` (the map's land and water cells): the
  most outposts an empire can hold, one being built a season at most. The move is chosen from
  the state at the start of the turn, before the season: an outpost built this turn stays,
  and when the season demands a disbandment the empire's newest outpost goes (so every other
  slot keeps its outpost). What it cannot express: which outpost to disband — the native
  :class:`~stratagem.outpost.Game` takes Python players (``move`` and ``disband``) for that.
  An integer still lets a built-in play the turn (the bridges' opponents).

Rewards come after the last turn, from the scores (cells controlled): +1 to the empire with
the top score and -1 to the others; when several share the top it is a draw, 0 to them and
-1 to the rest. The observation of seat ``s`` is an ``int8`` array of shape
``(6, 100, 100)`` indexed ``[plane, y, x]``: plane 0 water (1) or land (0); plane 1 the control
map relative to ``s`` (0 ``s`` itself, 1..3 the next empires, -1 neutral, -2 disputed);
planes 2..5 the number of outposts on each cell of ``s`` and then of the next empires (at
most 127 shown). With ``observation="planes"`` it is one float32 vector, the planes of
``planes_shape`` ``(11, 100, 100)`` flattened: plane 0 water; planes 1..6 the control map
one-hot (1 neutral, 2 disputed, ``3 + k`` the ``k``-th empire after ``s``, plane 3 ``s``
itself); planes 7..10 where ``s`` and then the next empires have at least one outpost.

>>> from stratagem.outpost.protocol import Outpost
>>> game = Outpost(seed=1, map="rivers", max_turns=60)
>>> game.to_move(), game.num_actions, game.observation_shape
((0, 1, 2, 3), 4, (6, 100, 100))
>>> players = ["spread", "frontier", "random", "lookahead"]
>>> while not game.is_over:
...     game.step([game.suggest(seat, players[seat]) for seat in game.to_move()])
>>> game.native.result.scores.tolist(), game.outcome, game.winners, game.returns().tolist()
([377, 252, 118, 454], 'won', (3,), [-1.0, -1.0, -1.0, 1.0])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from stratagem import protocol
from stratagem.errors import InvalidParameter
from stratagem.outpost.game import EMPIRES
from stratagem.outpost.game import Game as NativeGame
from stratagem.outpost.players import BUILTIN_PLAYERS, State

__all__ = ["Outpost"]

_PLANES = 2 + EMPIRES
#: Planes mode: water, the control one-hot (neutral, disputed, four empires), four presences.
_FEATURE_PLANES = 1 + (2 + EMPIRES) + EMPIRES
_SIDE = 100
_MOST_SHOWN = 127
#: A step of each direction of ``DIRECTIONS`` (stay, N, E, S, W) as (dx, dy).
_STEPS = np.array([(0, 0), (0, -1), (1, 0), (0, 1), (-1, 0)], dtype=np.int64)
_SEASON = 10


class _MovePlayer:
    """An empire's move given through the protocol, as the native game's Python player: its
    outposts (in id order) step as the move's slots say; a disbandment takes the newest."""

    def __init__(self, move: protocol.Move) -> None:
        self.directions = list(move)

    def move(self, state: State) -> list[int]:
        count = len(state.mine())
        return self.directions[:count] + [0] * max(count - len(self.directions), 0)

    def disband(self, state: State) -> int:
        return int(state.mine()[-1, 0])


class Outpost(protocol.RawOrPlanes, protocol.BuiltinChoiceGame):
    """An outpost game behind the protocol; ``native`` is the rich
    :class:`~stratagem.outpost.Game` it plays on (read it, do not play on it)."""

    name = "outpost"
    raw_dtype = np.int8
    choices = BUILTIN_PLAYERS
    choice_kind = "player"

    def __init__(
        self,
        *,
        seed: int = 0,
        map: str = "rivers",
        r: int = 7,
        L: int = 12,  # noqa: N803 (the rules' names)
        W: int = 3,  # noqa: N803
        max_turns: int = 200,
        observation: str = "raw",
        actions: str = "players",
    ) -> None:
        self.observation_mode = protocol.check_observation(observation)
        self.action_mode = protocol.check_action_mode(actions)
        self._moves = {}
        if not isinstance(map, str):
            raise InvalidParameter(f"map must be a map name or file path, got {map!r}")
        self._chosen = [BUILTIN_PLAYERS[0]] * EMPIRES
        self.native = NativeGame(map, r, L, W, max_turns, list(self._chosen), seed)
        self._water = self.native.map.water.astype(np.int8)
        config = {"map": map, "r": r, "L": L, "W": W, "max_turns": max_turns}
        water = int(np.count_nonzero(self.native.map.water))
        self._slots = 1 + min(
            self.native.last_turn // _SEASON, (_SIDE * _SIDE - water) // L, water // W
        )
        super().__init__(seed, {**config, "observation": observation, "actions": actions})

    @property
    def seats(self) -> int:
        return EMPIRES

    @property
    def is_over(self) -> bool:
        return self.native.finished

    @property
    def outcome(self) -> protocol.Outcome:
        if not self.is_over:
            return "unfinished"
        return "won" if len(self.native.result.winners) == 1 else "drawn"

    @property
    def winners(self) -> tuple[int, ...]:
        return self.native.result.winners if self.is_over else ()

    @property
    def max_steps(self) -> int:
        return self.native.last_turn

    @property
    def planes_shape(self) -> tuple[int, int, int]:
        """The layout of ``observation="planes"``: (planes, y, x)."""
        return (_FEATURE_PLANES, _SIDE, _SIDE)

    @property
    def raw_shape(self) -> tuple[int, ...]:
        return (_PLANES, _SIDE, _SIDE)

    @property
    def raw_bounds(self) -> tuple[NDArray[Any], NDArray[Any]]:
        low = np.zeros(self.raw_shape, dtype=self.raw_dtype)
        high = np.full(self.raw_shape, _MOST_SHOWN, dtype=self.raw_dtype)
        low[1], high[0], high[1] = -2, 1, EMPIRES - 1
        return low, high

    def to_move(self) -> tuple[int, ...]:
        return () if self.is_over else tuple(range(EMPIRES))

    def _move_sizes(self) -> tuple[int, ...]:
        return (len(_STEPS),) * self._slots

    def _move_mask(self, seat: int) -> NDArray[np.bool_]:
        mask = np.zeros((self._slots, len(_STEPS)), dtype=np.bool_)
        mask[:, 0] = True
        rows = self.native.outposts
        mine = rows[rows[:, 1] == seat][: self._slots]
        cells = mine[:, np.newaxis, 2:4].astype(np.int64) + _STEPS[np.newaxis]  # (k, 5, [x, y])
        x, y = cells[..., 0], cells[..., 1]
        inside = (x >= 0) & (x < _SIDE) & (y >= 0) & (y < _SIDE)
        land = np.zeros_like(inside)
        land[inside] = self._water[y[inside], x[inside]] == 0
        mask[: len(mine), 1:] = land[:, 1:]
        return mask

    def _play_turn(self) -> None:
        players = [
            _MovePlayer(self._moves[seat]) if seat in self._moves else self._chosen[seat]
            for seat in range(EMPIRES)
        ]
        self.native._core.set_players([p if isinstance(p, str) else None for p in players])
        self.native._players = tuple(players)
        self.native.step()

    def observation(self, seat: int) -> NDArray[Any]:
        seat = self._seat(seat)
        control = self.native.control
        relative_control = np.where(control >= 0, (control - seat) % EMPIRES, control)
        counts = np.zeros((EMPIRES, _SIDE, _SIDE), dtype=np.int64)
        rows = self.native.outposts
        if rows.size:
            relative = (rows[:, 1].astype(np.int64) - seat) % EMPIRES
            np.add.at(counts, (relative, rows[:, 3], rows[:, 2]), 1)
        if self.observation_mode == "planes":
            return np.concatenate(
                [
                    self._water[np.newaxis].astype(np.float32),
                    protocol.one_hot(relative_control, 2 + EMPIRES, low=-2)[[1, 0, 2, 3, 4, 5]],
                    (counts > 0).astype(np.float32),
                ]
            ).ravel()
        planes = np.zeros(self.raw_shape, dtype=self.raw_dtype)
        planes[0] = self._water
        planes[1] = relative_control
        planes[2:] = np.minimum(counts, _MOST_SHOWN)
        return planes

    def _copy_state(self, twin: Outpost) -> None:
        native = object.__new__(NativeGame)
        native.__dict__.update(self.native.__dict__)
        native._core = self.native._core.copy()
        native._log = list(self.native._log)
        twin.native = native
        twin._chosen = list(self._chosen)

    def render(self) -> str:
        result = self.native.result
        lines = [f"outpost on {self.native.map.name}, turn {self.native.turn}: {self.outcome}"]
        for empire in range(EMPIRES):
            lines.append(
                f"  empire {empire} ({self._conduct(empire)}): {int(result.scores[empire])} "
                f"cells, {int(result.outposts[empire])} outposts"
            )
        return "\n".join(lines)

    def _conduct(self, seat: int) -> str:
        return "moves" if seat in self._moves else self._chosen[seat]

    def picture(self, path: str) -> None:
        """Draws the map, the control and the outposts (PNG)."""
        from stratagem.outpost.plot import render_game

        render_game(self.native, path)


if TYPE_CHECKING:  # mypy checks that the class satisfies the protocol
    _satisfies: type[protocol.Game] = Outpost
