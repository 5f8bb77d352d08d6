"""An annexation game on the Rust engine, its playouts, and saved games.

The rules are ``docs/annexation-rules.md``; :mod:`stratagem.annexation.oracle` plays the same
rules cell by cell in plain Python.

>>> from stratagem.annexation import Board, Game, playouts
>>> game = Game(Board.hexagon(4, seed=2), seed=2)
>>> game.legal_moves()
[0, 1, 3, 4, 6, 7]
>>> game.gain(0, 1)
2
>>> game.play(1)
>>> game.scores.tolist(), game.to_move
([4, 1], 1)
>>> result = playouts(game, 1000, threads=1)
>>> int(result.wins.sum() + result.draws)
1000
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stratagem import _core, _validate
from stratagem._files import read_json, write_json
from stratagem.annexation.board import Board, parse_board
from stratagem.errors import InvalidBoard, InvalidMove, InvalidParameter
from stratagem.progress import Progress, ProgressOption

__all__ = ["MODES", "POLICIES", "Game", "PlayoutResult", "Rules", "playouts"]

#: The capture rules, as the engine names them.
MODES: tuple[str, ...] = tuple(_core.annexation.MODES)
POLICIES = ("random", "light")
_SAVE_FORMAT = "stratagem.annexation.game"
_SAVE_VERSION = 1


@dataclass(frozen=True)
class Rules:
    """The rule options: annexation ``mode``, whether a player may take an opponent's current
    colour, and the move limit (``None``: four moves per cell)."""

    mode: str = "flood"
    allow_opponent_colours: bool = False
    max_moves: int | None = None

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise InvalidParameter(f"mode must be one of {MODES}, got {self.mode!r}")
        if not isinstance(self.allow_opponent_colours, bool):
            raise InvalidParameter(
                f"allow_opponent_colours must be True or False, got {self.allow_opponent_colours!r}"
            )
        if self.max_moves is not None:
            _validate.integer("max_moves", self.max_moves, 1, (1 << 32) - 1)

    def compile(self, board: Board) -> _core.annexation.Board:
        """The engine's checked board with these rules."""
        if not isinstance(board, Board):
            raise InvalidParameter(
                f"board must be a stratagem.annexation.Board, got {type(board).__name__}"
            )
        return _core.annexation.Board(
            board.offsets,
            board.neighbours,
            board.colours,
            board.colour_count,
            board.starts,
            self.mode,
            self.allow_opponent_colours,
            self.max_moves,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "allow_opponent_colours": self.allow_opponent_colours,
            "max_moves": self.max_moves,
        }


def _one_limit(max_moves: int | None, max_turns: int | None) -> int | None:
    """The move limit given as the rules' ``max_moves`` or as ``max_turns``, the game-length
    keyword every stratagem game takes (a turn of annexation is one move)."""
    if max_moves is not None and max_turns is not None and max_moves != max_turns:
        raise InvalidParameter(
            f"max_moves={max_moves} and max_turns={max_turns} are the same limit; give one"
        )
    return max_turns if max_moves is None else max_moves


class Game:
    """A game of annexation on ``board``: ``legal_moves()``, ``play(colour)``, ``scores``,
    ``is_over``, ``winner``, ``copy()``, ``save``/``load``.

    ``board`` is a :class:`Board` or a board spec string (``"hex:8"``, ``"voronoi:300"``, a
    saved board's path: :func:`~stratagem.annexation.parse_board`, generated with ``seed``).
    ``seed`` is the default seed of :func:`playouts` from this game. The rule options are
    keywords (see :class:`Rules`); the move limit is ``max_moves`` or, by the game-length
    keyword every stratagem game takes, ``max_turns``. An illegal move raises
    :class:`~stratagem.errors.InvalidMove` and leaves the game as it was.
    """

    def __init__(
        self,
        board: Board | str,
        seed: int = 0,
        *,
        mode: str = "flood",
        allow_opponent_colours: bool = False,
        max_moves: int | None = None,
        max_turns: int | None = None,
    ) -> None:
        self.rules = Rules(mode, allow_opponent_colours, _one_limit(max_moves, max_turns))
        self.board = parse_board(board, seed=seed) if isinstance(board, str) else board
        self.seed = _validate.seed(seed)
        self._engine_board = self.rules.compile(self.board)
        self._game = _core.annexation.Game(self._engine_board)

    def legal_moves(self) -> list[int]:
        """The colours the player to move may choose, ascending (empty once over)."""
        return self._game.legal_moves()

    def play(self, colour: int) -> None:
        """Plays ``colour`` for the player to move."""
        if isinstance(colour, bool) or not isinstance(colour, int | np.integer):
            raise InvalidMove(f"a move is a colour (an integer), got {colour!r}")
        if not 0 <= colour < self.board.colour_count:
            raise InvalidMove(f"colour {colour} is out of range 0..{self.board.colour_count - 1}")
        self._game.play(int(colour))

    @property
    def scores(self) -> NDArray[np.int64]:
        """Cells owned by each player."""
        return np.array(self._game.scores, dtype=np.int64)

    @property
    def owner(self) -> NDArray[np.int8]:
        """The owner of every cell: -1 or a player."""
        return self._game.owner()

    @property
    def cell_colours(self) -> NDArray[np.uint8]:
        """The colour every cell shows (an owned cell shows its owner's colour)."""
        return self._game.cell_colours()

    @property
    def player_colours(self) -> NDArray[np.uint8]:
        return np.frombuffer(self._game.player_colours, dtype=np.uint8).copy()

    @property
    def to_move(self) -> int:
        return self._game.to_move

    @property
    def move_limit(self) -> int:
        """The most moves the game lasts: the rules' ``max_moves``, else four per cell."""
        limit = self.rules.max_moves
        return 4 * self.board.cells if limit is None else limit

    @property
    def moves(self) -> int:
        return self._game.moves

    @property
    def history(self) -> list[int]:
        """The colours played, in order."""
        return list(self._game.history)

    @property
    def is_over(self) -> bool:
        return self._game.outcome[0] != "ongoing"

    @property
    def outcome(self) -> str:
        """``"ongoing"``, ``"won"`` or ``"drawn"``."""
        return self._game.outcome[0]

    @property
    def winner(self) -> int | None:
        """The winning player, or None (drawn or not over)."""
        return self._game.outcome[1]

    def gain(self, player: int, colour: int) -> int:
        """Cells ``player`` would take now with ``colour`` (legal or not)."""
        checked = _validate.integer("colour", colour)
        if not 0 <= checked < self.board.colour_count:
            raise InvalidParameter(
                f"colour {checked} is out of range 0..{self.board.colour_count - 1}"
            )
        return self._game.gain(self._player(player), checked)

    def reach(self, player: int) -> int:
        """Cells ``player`` could take with its next move, over all colours."""
        return self._game.reach(self._player(player))

    def margin(self, player: int) -> int:
        """``player``'s cells minus the most cells of another player."""
        return self._game.margin(self._player(player))

    def _player(self, player: int) -> int:
        checked = _validate.integer("player", player)
        if not 0 <= checked < self.board.players:
            raise InvalidParameter(f"player {checked} is outside 0..{self.board.players - 1}")
        return checked

    def copy(self) -> Game:
        twin = object.__new__(Game)
        twin.rules, twin.board, twin.seed = self.rules, self.board, self.seed
        twin._engine_board = self._engine_board
        twin._game = self._game.copy()
        return twin

    def render(
        self, path: str | os.PathLike[str] | None = None, *, title: str | None = None
    ) -> Any:
        """Draws the board with each player's territory outlined (PNG when ``path`` is given);
        returns the matplotlib Figure."""
        from stratagem.annexation import plot

        return plot.render(
            self.board,
            owner=self.owner,
            cell_colours=self.cell_colours,
            path=path,
            title=title,
        )

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the board, rules, seed and moves as JSON (through a temporary file)."""
        target = Path(path)
        data = {
            "format": _SAVE_FORMAT,
            "version": _SAVE_VERSION,
            "board": self.board.to_dict(),
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "history": self.history,
        }
        write_json(target, data)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Game:
        """The game saved at ``path``, replayed move by move (so a tampered file is refused
        by the rules, naming the move)."""
        data = read_json(
            path, lambda reason: InvalidBoard(f"{path}: not a saved annexation game ({reason})")
        )
        if not isinstance(data, dict) or data.get("format") != _SAVE_FORMAT:
            raise InvalidBoard(f"{path}: not a saved annexation game")
        if data.get("version") != _SAVE_VERSION:
            raise InvalidBoard(f"{path}: unknown saved-game version {data.get('version')!r}")
        try:
            rules, history = dict(data["rules"]), list(data["history"])
            game = cls(Board.from_dict(data["board"]), data["seed"], **rules)
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidBoard(f"{path}: missing or malformed field ({error})") from None
        for index, colour in enumerate(history):
            try:
                game.play(colour)
            except (InvalidMove, InvalidParameter) as error:
                raise InvalidBoard(f"{path}: move {index}: {error}") from None
        return game

    def __repr__(self) -> str:
        state = self.outcome if self.is_over else f"player {self.to_move} to move"
        return (
            f"Game({self.board.kind}, moves={self.moves}, scores={self.scores.tolist()}, {state})"
        )


@dataclass(frozen=True)
class PlayoutResult:
    """Playouts from one position: wins per player, draws, and the summed margin (cells of
    ``player``, the player to move at the start, minus the best other player's cells)."""

    playouts: int
    wins: NDArray[np.int64]
    draws: int
    margin_sum: int
    player: int

    @property
    def mean_margin(self) -> float:
        return self.margin_sum / self.playouts if self.playouts else float("nan")

    def win_rate(self, player: int | None = None) -> float:
        """The share of playouts ``player`` (default: the player to move) won."""
        who = self.player if player is None else player
        return float(self.wins[who]) / self.playouts if self.playouts else float("nan")


def playouts(
    game: Game,
    n: int,
    *,
    policy: str = "random",
    seed: int | None = None,
    steps: int | None = None,
    threads: int | None = None,
    progress: ProgressOption = None,
) -> PlayoutResult:
    """``n`` playouts from ``game`` (left untouched), each on its own random stream
    (``docs/annexation-rules.md``, "Playouts"), spread over ``threads``; the result is the
    same for any thread count. ``policy="light"`` is the seed's GPU shortcut, ``steps`` its
    step count (default: up to the move limit). ``progress``: see :mod:`stratagem.progress`."""
    if not isinstance(game, Game):
        raise InvalidParameter(f"game must be an annexation Game, got {type(game).__name__}")
    count = _validate.integer("n", n, 0, (1 << 63) - 1)
    if policy not in POLICIES:
        raise InvalidParameter(f"policy must be one of {POLICIES}, got {policy!r}")
    if policy == "random" and steps is not None:
        raise InvalidParameter("steps only applies to the 'light' policy")
    step_count = None if steps is None else _validate.integer("steps", steps, 0, (1 << 32) - 1)
    chosen_seed = game.seed if seed is None else _validate.seed(seed)
    with Progress(count, "annexation playouts", enabled=progress) as bar:
        wins, draws, margin_sum = _core.annexation.playouts(
            game._game,
            count,
            policy,
            step_count,
            chosen_seed,
            _validate.threads(threads),
            bar.reach,
        )
        bar.reach(count)
    return PlayoutResult(count, np.array(wins, dtype=np.int64), draws, margin_sum, game.to_move)
