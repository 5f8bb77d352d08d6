"""Annexation through :mod:`stratagem.protocol`: :class:`Annexation`.

The board is generated from the game's seed, or from ``board_seed`` when it is given (the same
board for every seed: what the vector env plays). Seats are the players, who move in turn
(``dynamics="alternating"``); an action is a colour (``num_actions`` is the colour count), so
an agent expresses every move the rules allow.
Rewards come at the end: +1 to the winner and -1 to every other seat; a draw gives 0 to the
seats sharing the top and -1 to the rest (0 to all with two players); a game stopped at the
move limit is scored the same way (the rules score it). The observation of seat ``s`` is an
``int8`` array of shape ``(2, cells)``: row 0 the owner of each cell relative to ``s``
(-1 unowned, 0 ``s`` itself, 1 the next seat in turn order, ...), row 1 the colour each cell
shows. With ``observation="planes"`` it is one float32 vector, the planes of
``planes_shape`` ``(1 + players + colours, cells)`` flattened: plane 0 is 1 on unowned cells,
plane ``1 + k`` on the cells of the ``k``-th seat after ``s`` (plane 1: ``s`` itself), plane
``1 + players + c`` on the cells showing colour ``c``. ``max_turns`` is the move limit (the
rules' ``max_moves``; None: four moves per cell), the game-length keyword every game shares.

>>> from stratagem.annexation.protocol import Annexation
>>> game = Annexation(seed=2, board="hex:3")
>>> game.observation(0).shape, game.legal_actions(0).tolist()
((2, 37), [0, 1, 3, 4, 5, 6])
>>> game.step([1]); game.to_move()
(1,)
>>> game.native.scores.tolist()
[3, 1]
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

import numpy as np
from numpy.typing import NDArray

from stratagem import protocol
from stratagem.annexation.board import parse_board
from stratagem.annexation.game import Game as NativeGame
from stratagem.annexation.players import AI
from stratagem.errors import InvalidParameter

__all__ = ["Annexation", "GameConfig", "GameOptions"]


class GameConfig(TypedDict, total=False):
    """The configuration keys of :class:`Annexation` but its ``observation``, as keywords
    (:class:`GameOptions` holds their defaults)."""

    board: str
    colours: int
    players: int
    mode: str
    allow_opponent_colours: bool
    max_turns: int | None
    board_seed: int | None


@dataclass(frozen=True)
class GameOptions:
    """The options of a game with their defaults, written once for the protocol game and the
    native envs (which build their engine from them)."""

    board: str = "hex:8"
    colours: int = 8
    players: int = 2
    mode: str = "flood"
    allow_opponent_colours: bool = False
    max_turns: int | None = None
    board_seed: int | None = None


class Annexation(protocol.RawOrPlanes, protocol.TurnGame):
    """An annexation game behind the protocol; ``native`` is the rich
    :class:`~stratagem.annexation.Game` it plays on (read it, do not play on it)."""

    name = "annexation"
    raw_dtype = np.int8

    def __init__(
        self, *, seed: int = 0, observation: str = "raw", **config: Unpack[GameConfig]
    ) -> None:
        self.observation_mode = protocol.check_observation(observation)
        options = GameOptions(**config)
        if not isinstance(options.board, str):
            raise InvalidParameter(f"board must be a board spec string, got {options.board!r}")
        colours_from = seed if options.board_seed is None else options.board_seed
        board = parse_board(
            options.board,
            colour_count=options.colours,
            players=options.players,
            seed=colours_from,
        )
        self.native = NativeGame(
            board,
            seed,
            mode=options.mode,
            allow_opponent_colours=options.allow_opponent_colours,
            max_turns=options.max_turns,
        )
        super().__init__(seed, {**asdict(options), "observation": observation})

    @property
    def seats(self) -> int:
        return self.native.board.players

    @property
    def is_over(self) -> bool:
        return self.native.is_over

    @property
    def outcome(self) -> protocol.Outcome:
        outcome = self.native.outcome
        return "unfinished" if outcome == "ongoing" else outcome  # type: ignore[return-value]

    @property
    def winners(self) -> tuple[int, ...]:
        if not self.is_over:
            return ()
        if self.native.winner is not None:
            return (self.native.winner,)
        scores = self.native.scores
        return tuple(int(seat) for seat in np.flatnonzero(scores == scores.max()))

    @property
    def num_actions(self) -> int:
        return self.native.board.colour_count

    @property
    def max_steps(self) -> int:
        return self.native.move_limit

    @property
    def planes_shape(self) -> tuple[int, int]:
        """The layout of ``observation="planes"``: (planes, cells)."""
        board = self.native.board
        return (1 + board.players + board.colour_count, board.cells)

    @property
    def raw_shape(self) -> tuple[int, ...]:
        return (2, self.native.board.cells)

    @property
    def raw_bounds(self) -> tuple[NDArray[Any], NDArray[Any]]:
        board = self.native.board
        highs = [board.players - 1, board.colour_count - 1]
        return protocol.row_bounds([-1, 0], highs, board.cells, self.observation_dtype)

    def to_move(self) -> tuple[int, ...]:
        return () if self.native.is_over else (self.native.to_move,)

    def legal_actions(self, seat: int) -> NDArray[np.int64]:
        if self._seat(seat) not in self.to_move():
            return np.zeros(0, dtype=np.int64)
        return np.asarray(self.native.legal_moves(), dtype=np.int64)

    def _apply(self, actions: dict[int, int]) -> NDArray[np.float64]:
        (colour,) = actions.values()
        self.native.play(colour)
        return self._end_rewards()

    def observation(self, seat: int) -> NDArray[Any]:
        seat = self._seat(seat)
        owner = self.native.owner.astype(np.int16)
        relative = np.where(owner >= 0, (owner - seat) % self.seats, -1)
        colours = self.native.cell_colours.astype(np.int16)
        if self.observation_mode == "planes":
            board = self.native.board
            return np.concatenate(
                [
                    protocol.one_hot(relative, 1 + self.seats, low=-1),
                    protocol.one_hot(colours, board.colour_count),
                ]
            ).ravel()
        return np.stack([relative, colours]).astype(np.int8)

    def _copy_state(self, twin: Annexation) -> None:
        twin.native = self.native.copy()

    def render(self) -> str:
        from stratagem.annexation.text import render_text

        return render_text(self.native)

    def picture(self, path: str) -> None:
        """Draws the board, each player's territory outlined and its colour named (PNG)."""
        self.native.render(path, title=f"Annexation on {self.native.board.kind}, turn {self.turn}")

    def suggest(self, seat: int, name: str) -> int:
        """The move the built-in AI ``name`` (``random``, ``greedy``, ``fractal``, ``mcts``,
        ``minimax``) would play for ``seat`` now, seeded by this game's seed and turn."""
        if self._seat(seat) not in self.to_move():
            raise InvalidParameter(f"seat {seat} does not move now")
        return AI(name, seed=self.seed + self.turn).choose(self.native)


if TYPE_CHECKING:  # mypy checks that the class satisfies the protocol
    _satisfies: type[protocol.Game] = Annexation
