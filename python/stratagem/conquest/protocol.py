"""Conquest through :mod:`stratagem.protocol`: :class:`Conquest`.

Seats are the teams, who all act at once each turn (``dynamics="simultaneous"``); the teams
that still own a territory are the ones to move. A turn of conquest is many decisions (troops
on every border of every territory); the ``actions`` key says how a seat makes them.

- ``actions="players"`` (the default): the action is a choice among the built-in placement
  policies for this turn: action ``i`` plays ``POLICIES[i]`` (``random``, ``aggressive``,
  ``balanced``, ``opportunist``) for all of the team's territories. An agent can so switch
  strategy turn by turn, reacting to the board.
- ``actions="moves"``: the action is the team's own move, one choice per territory (a
  ``MultiDiscrete`` of ``territories`` components of ``2 + max degree`` choices each,
  ``move_nvec``; ``move_mask(seat)`` says which are legal): 0 **hold** (place nothing: every
  troop stays home), 1 **defend** (every troop defends, split evenly over the enemy borders,
  the first borders in CSR order one more), ``2 + j`` **send** ``troops - 1`` to neighbour
  ``j`` (CSR order): an attack on an enemy, a transfer to a friend. Only the team's own
  territories may do more than hold; defend needs an enemy neighbour and a troop, send two
  troops. What it cannot express: other amounts, troops split between attacks, or attack and
  defence from one territory — the native :class:`~stratagem.conquest.Game` takes a Python
  policy callable (any placement) for that. An integer still lets a built-in play the turn
  (the bridges' opponents).

Rewards come at the end: a win gives +1 to the winner and -1 to every other team; a draw (no
troops left anywhere) is shared by every team (0 each); a game that reaches its turn limit is
over with outcome ``"unfinished"`` (no winner, 0 to all), as the rules score it. The
observation of seat ``s`` is an ``int64`` array of shape ``(2, territories)``: row 0 the team
of each territory relative to ``s`` (0 ``s`` itself, 1 the next team, ...), row 1 its
troops (0..``TROOP_LIMIT``). With ``observation="planes"`` it is one float32 vector, the
planes of ``planes_shape`` ``(teams + 1, territories)`` flattened: plane ``k < teams`` is 1
on the territories of the ``k``-th team after ``s`` (plane 0: ``s`` itself), plane ``teams``
the troops on a log scale, ``log1p(troops) / log1p(TROOP_LIMIT)`` (in [0, 1]).

>>> from stratagem.conquest.protocol import Conquest
>>> game = Conquest(seed=1, board="grid:4x4", teams=2, max_turns=40)
>>> game.to_move(), game.num_actions, game.observation_shape
((0, 1), 5, (2, 16))
>>> while not game.is_over:
...     game.step([game.suggest(0, "opportunist"), game.suggest(1, "random")])
>>> game.outcome, game.winners, game.returns().tolist()
('won', (0,), [1.0, -1.0])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from stratagem import _validate, protocol
from stratagem.conquest.board import Board, assign_regions, troops_uniform
from stratagem.conquest.game import POLICIES, TROOP_LIMIT, PolicyView
from stratagem.conquest.game import Game as NativeGame
from stratagem.errors import InvalidParameter

__all__ = ["Conquest"]

_MAX_TEAMS = 8
#: A territory's choices in ``actions="moves"``: hold, defend, then send to neighbour j.
_HOLD, _DEFEND, _SENDS = 0, 1, 2
_INT64_MAX = (1 << 63) - 1


class _Placed:
    """A custom policy (the native game's) that places what a protocol move decided."""

    def __init__(self, placement: NDArray[np.int64]) -> None:
        self.placement = placement

    def __call__(self, view: PolicyView) -> NDArray[np.int64]:
        return self.placement


class Conquest(protocol.RawOrPlanes, protocol.BuiltinChoiceGame):
    """A conquest game behind the protocol; ``native`` is the rich
    :class:`~stratagem.conquest.Game` it plays on (read it, do not play on it). Teams start
    on regions of the board (:func:`~stratagem.conquest.assign_regions`) with ``troops`` in
    every territory."""

    name = "conquest"
    raw_dtype = np.int64
    choices = POLICIES
    choice_kind = "policy"

    def __init__(
        self,
        *,
        seed: int = 0,
        board: str = "grid:8x8",
        teams: int = 2,
        troops: int = 10,
        rate: float = 0.2,
        max_turns: int = 200,
        threads: int | None = None,
        observation: str = "raw",
        actions: str = "players",
    ) -> None:
        self.observation_mode = protocol.check_observation(observation)
        self.action_mode = protocol.check_action_mode(actions)
        if not isinstance(board, str):
            raise InvalidParameter(f"board must be a board spec string, got {board!r}")
        teams = _validate.integer("teams", teams, 2, _MAX_TEAMS)
        built = Board.from_spec(board)
        self.native = NativeGame(
            built,
            assign_regions(built, teams, seed),
            troops_uniform(built, _validate.integer("troops", troops, 0, TROOP_LIMIT)),
            [POLICIES[0]] * teams,
            seed=seed,
            rate=rate,
            max_turns=_validate.integer("max_turns", max_turns, 1),
            threads=threads,
        )
        self._chosen = [POLICIES[0]] * teams
        self._moves = {}
        super().__init__(
            seed,
            {
                "board": board,
                "teams": teams,
                "troops": troops,
                "rate": rate,
                "max_turns": max_turns,
                "observation": observation,
                "actions": actions,
            },
        )

    @property
    def seats(self) -> int:
        return len(self._chosen)

    @property
    def is_over(self) -> bool:
        return self.native.finished

    @property
    def outcome(self) -> protocol.Outcome:
        status = self.native.status
        if status == "won":
            return "won"
        return "drawn" if status == "draw" else "unfinished"

    @property
    def winners(self) -> tuple[int, ...]:
        if self.outcome == "won":
            winner = self.native.winner
            assert winner is not None
            return (winner,)
        return tuple(range(self.seats)) if self.outcome == "drawn" else ()

    @property
    def max_steps(self) -> int:
        return int(self._config["max_turns"])

    @property
    def planes_shape(self) -> tuple[int, int]:
        """The layout of ``observation="planes"``: (planes, territories)."""
        return (self.seats + 1, self.native.board.n)

    @property
    def raw_shape(self) -> tuple[int, ...]:
        return (2, self.native.board.n)

    @property
    def raw_bounds(self) -> tuple[NDArray[Any], NDArray[Any]]:
        # The rules' troop limit, limit(n) = min(TROOP_LIMIT, (2**63 - 1) // n).
        most = min(TROOP_LIMIT, _INT64_MAX // max(self.native.board.n, 1))
        highs = [self.seats - 1, most]
        return protocol.row_bounds([0, 0], highs, self.native.board.n, self.observation_dtype)

    def to_move(self) -> tuple[int, ...]:
        if self.is_over:
            return ()
        alive = np.unique(self.native.team)
        return tuple(int(team) for team in alive)

    def _move_sizes(self) -> tuple[int, ...]:
        board = self.native.board
        most = int(np.diff(board.indptr).max(initial=0))
        return (_SENDS + most,) * board.n

    def _move_mask(self, seat: int) -> NDArray[np.bool_]:
        board = self.native.board
        team, troops = self.native.team, self.native.troops
        degree = np.diff(board.indptr)
        source = np.repeat(np.arange(board.n), degree)
        enemy = np.bincount(source[team[board.indices] != team[source]], minlength=board.n)
        mine = team == seat
        width = self._move_sizes()[0] if board.n else _SENDS
        mask = np.zeros((board.n, width), dtype=np.bool_)
        mask[:, _HOLD] = True
        mask[:, _DEFEND] = mine & (enemy > 0) & (troops >= 1)
        neighbours = np.arange(width - _SENDS)[np.newaxis, :] < degree[:, np.newaxis]
        mask[:, _SENDS:] = (mine & (troops >= 2))[:, np.newaxis] & neighbours
        return mask

    def placement(self, seat: int, move: protocol.Move) -> NDArray[np.int64]:
        """The placement (one entry per directed border, CSR order) of ``seat``'s ``move``
        (see the module's docstring) on the board as it stands."""
        board = self.native.board
        indptr, indices = board.indptr, board.indices
        team, troops = self.native.team, self.native.troops
        choice = np.asarray(move, dtype=np.int64)
        placement = np.zeros(indices.size, dtype=np.int64)
        senders = np.flatnonzero(choice >= _SENDS)
        placement[indptr[senders] + choice[senders] - _SENDS] = troops[senders] - 1
        for x in np.flatnonzero(choice == _DEFEND).tolist():
            edges = np.arange(indptr[x], indptr[x + 1])
            borders = edges[team[indices[edges]] != team[x]]
            share, extra = divmod(int(troops[x]), borders.size)
            placement[borders] = -(share + (np.arange(borders.size) < extra))
        return placement

    def _play_turn(self) -> None:
        names = [
            "custom" if seat in self._moves else name for seat, name in enumerate(self._chosen)
        ]
        placements = {seat: self.placement(seat, move) for seat, move in self._moves.items()}
        self.native._engine.set_policies(names)
        self.native.policy_names = names
        self.native._custom = {seat: _Placed(placed) for seat, placed in placements.items()}
        self.native.step()

    def observation(self, seat: int) -> NDArray[Any]:
        seat = self._seat(seat)
        relative = (self.native.team - seat) % self.seats
        troops = self.native.troops
        if self.observation_mode == "planes":
            scaled = np.log1p(troops.astype(np.float64)) / np.log1p(float(TROOP_LIMIT))
            return np.concatenate(
                [protocol.one_hot(relative, self.seats), scaled.astype(np.float32)[np.newaxis]]
            ).ravel()
        return np.stack([relative, troops])

    def _copy_state(self, twin: Conquest) -> None:
        native = object.__new__(NativeGame)
        native.__dict__.update(self.native.__dict__)
        native._engine = self.native._engine.copy()
        native._history_cache = None
        native._state_cache = None
        twin.native = native
        twin._chosen = list(self._chosen)

    def render(self) -> str:
        history = self.native.history
        lines = [f"conquest on {self.native.board.kind}, turn {self.native.turn}: {self.outcome}"]
        for team in range(self.seats):
            lines.append(
                f"  team {team} ({'moves' if team in self._moves else self._chosen[team]}): "
                f"{int(history.territories[-1, team])} territories, "
                f"{int(history.troops[-1, team])} troops"
            )
        return "\n".join(lines)

    def picture(self, path: str) -> None:
        """Draws the board with each territory in its team's colour (PNG)."""
        from stratagem.conquest import plot

        plot.draw_board(self.native.board, self.native.team, self.native.troops, path=path)


if TYPE_CHECKING:  # mypy checks that the class satisfies the protocol
    _satisfies: type[protocol.Game] = Conquest
