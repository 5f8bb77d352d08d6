"""Conquest through :mod:`stratagem.protocol`: :class:`Conquest`.

Seats are the teams, who all act at once each turn (``dynamics="simultaneous"``); the teams
that still own a territory are the ones to move. A turn of conquest is many decisions (troops
on every border of every territory), so the protocol's action is a choice among the built-in
placement policies for this turn: action ``i`` plays ``POLICIES[i]`` (``random``,
``aggressive``, ``balanced``, ``opportunist``) for all of the team's territories. An agent can
so switch strategy turn by turn, reacting to the board; it cannot place troops border by
border — the native :class:`~stratagem.conquest.Game` takes a Python policy callable for that.

Rewards come at the end: a win gives +1 to the winner and -1 to every other team; a draw (no
troops left anywhere) is shared by every team (0 each); a game that reaches its turn limit is
over with outcome ``"unfinished"`` (no winner, 0 to all), as the rules score it. The
observation of seat ``s`` is an ``int64`` array of shape ``(2, territories)``: row 0 the team
of each territory relative to ``s`` (0 ``s`` itself, 1 the next team, ...), row 1 its troops (0..``TROOP_LIMIT``). With ``observation="planes"`` it is float32
planes of shape ``(teams + 1, territories)``: plane ``k < teams`` is 1 on the territories of
the ``k``-th team after ``s`` (plane 0: ``s`` itself), plane ``teams`` the troops on a log
scale, ``log1p(troops) / log1p(TROOP_LIMIT)`` (in [0, 1]).

>>> from stratagem.conquest.protocol import Conquest
>>> game = Conquest(seed=1, board="grid:4x4", teams=2, max_turns=40)
>>> game.to_move(), game.num_actions, game.observation_shape
((0, 1), 4, (2, 16))
>>> while not game.is_over:
...     game.step([game.suggest(0, "opportunist"), game.suggest(1, "random")])
>>> game.outcome, game.winners, game.returns().tolist()
('won', (0,), [1.0, -1.0])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from stratagem import _validate
from stratagem.conquest.board import Board, assign_regions, troops_uniform
from stratagem.conquest.game import POLICIES, TROOP_LIMIT
from stratagem.conquest.game import Game as NativeGame
from stratagem.errors import InvalidParameter
from stratagem.protocol import (
    BuiltinChoiceGame,
    Game,
    Outcome,
    check_observation,
    flat,
    one_hot,
    plane_bounds,
    row_bounds,
)

__all__ = ["Conquest"]

_MAX_TEAMS = 8


class Conquest(BuiltinChoiceGame):
    """A conquest game behind the protocol; ``native`` is the rich
    :class:`~stratagem.conquest.Game` it plays on (read it, do not play on it). Teams start
    on regions of the board (:func:`~stratagem.conquest.assign_regions`) with ``troops`` in
    every territory."""

    name = "conquest"
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
    ) -> None:
        self.observation_mode = check_observation(observation)
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
        super().__init__(
            seed,
            {
                "board": board,
                "teams": teams,
                "troops": troops,
                "rate": rate,
                "max_turns": max_turns,
                "observation": observation,
            },
        )

    @property
    def seats(self) -> int:
        return len(self._chosen)

    @property
    def is_over(self) -> bool:
        return self.native.finished

    @property
    def outcome(self) -> Outcome:
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
    def observation_shape(self) -> tuple[int, ...]:
        if self.observation_mode == "planes":
            return flat(self.planes_shape)
        return (2, self.native.board.n)

    @property
    def observation_dtype(self) -> np.dtype[Any]:
        return np.dtype(np.float32 if self.observation_mode == "planes" else np.int64)

    @property
    def observation_bounds(self) -> tuple[NDArray[Any], NDArray[Any]]:
        if self.observation_mode == "planes":
            return plane_bounds(self.observation_shape)
        highs = [self.seats - 1, TROOP_LIMIT]
        return row_bounds([0, 0], highs, self.native.board.n, self.observation_dtype)

    def to_move(self) -> tuple[int, ...]:
        if self.is_over:
            return ()
        alive = np.unique(self.native.team)
        return tuple(int(team) for team in alive)

    def _play_turn(self) -> None:
        self.native._engine.set_policies(list(self._chosen))
        self.native.policy_names = list(self._chosen)
        self.native.step()

    def observation(self, seat: int) -> NDArray[Any]:
        seat = self._seat(seat)
        relative = (self.native.team - seat) % self.seats
        troops = self.native.troops
        if self.observation_mode == "planes":
            scaled = np.log1p(troops.astype(np.float64)) / np.log1p(float(TROOP_LIMIT))
            return np.concatenate(
                [one_hot(relative, self.seats), scaled.astype(np.float32)[np.newaxis]]
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
                f"  team {team} ({self._chosen[team]}): "
                f"{int(history.territories[-1, team])} territories, "
                f"{int(history.troops[-1, team])} troops"
            )
        return "\n".join(lines)

    def picture(self, path: str) -> None:
        """Draws the board with each territory in its team's colour (PNG)."""
        from stratagem.conquest import plot

        plot.draw_board(self.native.board, self.native.team, self.native.troops, path=path)


if TYPE_CHECKING:  # mypy checks that the class satisfies the protocol
    _satisfies: type[Game] = Conquest
