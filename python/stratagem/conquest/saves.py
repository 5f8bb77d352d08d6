"""The saved-game format of conquest (``Game.save``, the distributed game's checkpoints).

An ``.npz`` archive: a format name with its version, the policy names, the parameters as text
(every 64-bit seed stays exact), the state, the history and the board's arrays. Reading checks
every field against the others before the game is rebuilt, so a damaged or edited file is
refused naming the file and the field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import numpy as np
from numpy.typing import NDArray

from stratagem import _core
from stratagem._files import Member, Read, length, read_arrays, write_arrays
from stratagem.conquest.boards import board_files
from stratagem.errors import InvalidBoard, InvalidParameter, StratagemError

if TYPE_CHECKING:
    from stratagem.conquest.board import Board

__all__ = ["STATUSES", "History", "SavedGame", "read_game", "write_game"]

FORMAT = "stratagem.conquest.game/1"
STATUSES = ("running", "won", "draw", "unfinished")
_WHAT = "a saved conquest game"
# seed, rate (parts per million), troop cap, turn limit (-1: none).
_PARAMS = ("seed", "rate_ppm", "cap", "max_turns")
# The longest text of the fields format, params and status; of a policy name.
_SHORT_TEXT = 64
_NAME_CHARS = 1024
_LARGEST_TURN = 2**63 - 1

_Given = TypeVar("_Given")


@dataclass(frozen=True)
class History:
    """Territories and troops per team, one row per turn (row 0: the start)."""

    territories: NDArray[np.int64]
    troops: NDArray[np.int64]


@dataclass(frozen=True)
class SavedGame:
    """Everything a saved game holds (the file format of :meth:`Game.save`, shared by the
    checkpoints of :class:`~stratagem.conquest.distributed.game.DistributedGame`)."""

    board: Board
    policy_names: list[str]
    seed: int
    rate_ppm: int
    cap: int
    max_turns: int | None
    team: NDArray[np.int64]
    troops: NDArray[np.int64]
    turn: int
    status: str
    winner: int | None
    history: History

    def policies(self, path: str | Path, given: Sequence[_Given] | None) -> Sequence[_Given | str]:
        """The policies to play: ``given``, else the saved names (custom ones must be given)."""
        if given is not None:
            return given
        if "custom" in self.policy_names:
            raise InvalidParameter(f"{path}: the saved game has custom policies; pass policies=")
        return self.policy_names

    def resume_arguments(
        self, max_turns: int | None
    ) -> tuple[int, str, int | None, NDArray[np.int64], NDArray[np.int64]]:
        """What the engine's ``resume`` takes; a game that ended unfinished at its old limit
        is running again when ``max_turns`` allows more turns."""
        status = self.status
        if status == "unfinished" and (max_turns is None or max_turns > self.turn):
            status = "running"
        return (
            self.turn,
            status,
            self.winner,
            np.ascontiguousarray(self.history.territories, dtype=np.int64),
            np.ascontiguousarray(self.history.troops, dtype=np.int64),
        )


def write_game(path: str | Path, saved: SavedGame) -> None:
    """Writes ``saved`` to ``path`` (npz) through a temporary file, so an interrupted write
    never leaves a broken file where a good one was."""
    fields: dict[str, Any] = {
        "format": np.array(FORMAT),
        "policies": np.array(saved.policy_names),
        # Text keeps every 64-bit seed exact (int64 cannot hold seeds above 2**63).
        "params": np.array(
            [
                str(saved.seed),
                str(saved.rate_ppm),
                str(saved.cap),
                str(-1 if saved.max_turns is None else saved.max_turns),
            ]
        ),
        "team": saved.team,
        "troops": saved.troops,
        "turn": np.array(saved.turn),
        "status": np.array(saved.status),
        "winner": np.array(-1 if saved.winner is None else saved.winner),
        "history_territories": saved.history.territories,
        "history_troops": saved.history.troops,
    }
    fields.update({f"board_{key}": value for key, value in saved.board.to_arrays().items()})
    write_arrays(path, fields)


def _members() -> dict[str, Member]:
    """What each member of a save must be, in the order they are read (any other member is
    left unread): the policies count the teams and ``turn`` the history's rows, the board
    its territories (:func:`board_files.members`)."""
    teams = Member("iu", lambda read: (board_files.territories(read, "board_"),))
    history = Member("iu", lambda read: (_rows(read), length(read, "policies")))
    return {
        "format": Member.text(chars=_SHORT_TEXT),
        "policies": Member.text(range(_core.conquest.MAX_TEAMS + 1), chars=_NAME_CHARS),
        "params": Member.text(len(_PARAMS), chars=_SHORT_TEXT),
        "turn": Member("iu", ()),
        "status": Member.text(chars=_SHORT_TEXT),
        "winner": Member("iu", ()),
        **board_files.members("board_"),
        "team": teams,
        "troops": teams,
        "history_territories": history,
        "history_troops": history,
    }


def _rows(read: Read) -> int | None:
    """One history row per turn played and one for the start, if the turn is known."""
    turn = read.get("turn")
    if turn is None or turn.ndim or turn.dtype.kind not in "iu" or int(turn) < 0:
        return None
    return int(turn) + 1


def read_game(path: str | Path) -> SavedGame:
    """Reads a file written by :func:`write_game`. Each field is checked for its kind and
    shape, and the fields against each other (one team per policy, a winner only in a won
    game, one history row per turn played); the board's arrays are checked by the board.
    The ranges of the parameters and of the state are the engine's to check when the game
    is rebuilt."""
    from stratagem.conquest.board import Board

    fields = _Fields(path, read_arrays(path, _WHAT, InvalidBoard, _members()))
    if fields.text("format") != FORMAT:
        fields.refuse(f"format {fields.text('format')!r}, not {FORMAT!r}")
    names = fields.texts("policies")
    seed, rate_ppm, cap, max_turns = fields.numbers("params", _PARAMS)
    team, troops = fields.integers("team", 1), fields.integers("troops", 1)
    if len(team) != len(troops):
        fields.refuse(f"team has {len(team)} entries but troops {len(troops)}")
    turn = fields.scalar("turn", 0, _LARGEST_TURN)
    status = fields.text("status")
    if status not in STATUSES:
        fields.refuse(f"status {status!r} is not one of {', '.join(STATUSES)}")
    winner = fields.scalar("winner", -1, len(names) - 1)
    if (winner >= 0) != (status == "won"):
        fields.refuse(f"a {status} game with winner {winner} (a winner is set only when won)")
    history = History(
        fields.integers("history_territories", 2), fields.integers("history_troops", 2)
    )
    for name, table in (("territories", history.territories), ("troops", history.troops)):
        if table.shape != (turn + 1, len(names)):
            fields.refuse(
                f"history_{name} has shape {table.shape}; turn {turn} of {len(names)} teams "
                f"needs ({turn + 1}, {len(names)})"
            )
    try:
        board = Board.from_arrays(
            {key[6:]: value for key, value in fields.arrays.items() if key.startswith("board_")}
        )
    except StratagemError as error:
        raise type(error)(f"{path}: {error}") from None
    return SavedGame(
        board=board,
        policy_names=names,
        seed=seed,
        rate_ppm=rate_ppm,
        cap=cap,
        max_turns=None if max_turns < 0 else max_turns,
        team=team,
        troops=troops,
        turn=turn,
        status=status,
        winner=None if winner < 0 else winner,
        history=history,
    )


class _Fields:
    """The arrays of one saved game, read by name; a missing or malformed field is refused
    naming the file and the field."""

    def __init__(self, path: str | Path, arrays: Mapping[str, NDArray[Any]]) -> None:
        self.path = path
        self.arrays = arrays

    def refuse(self, problem: str) -> NoReturn:
        raise InvalidBoard(f"{self.path}: not {_WHAT}: {problem}")

    def _get(self, name: str, kinds: str, ndim: int) -> NDArray[Any]:
        if name not in self.arrays:
            self.refuse(f"the field {name!r} is missing")
        array = self.arrays[name]
        if array.dtype.kind not in kinds or array.ndim != ndim:
            self.refuse(
                f"the field {name!r} is a {array.ndim}-dimensional {array.dtype} array, "
                f"not {ndim}-dimensional {'text' if kinds == 'U' else 'integers'}"
            )
        return array

    def text(self, name: str) -> str:
        return str(self._get(name, "U", 0)[()])

    def texts(self, name: str) -> list[str]:
        return [str(value) for value in self._get(name, "U", 1)]

    def integers(self, name: str, ndim: int) -> NDArray[np.int64]:
        array = self._get(name, "iu", ndim)
        if array.dtype.kind == "u" and array.size and int(array.max()) > np.iinfo(np.int64).max:
            self.refuse(f"the field {name!r} holds a value above 2^63-1")
        return array.astype(np.int64)

    def scalar(self, name: str, low: int, high: int) -> int:
        value = int(self._get(name, "iu", 0)[()])
        if not low <= value <= high:
            self.refuse(f"the field {name!r} is {value}, outside {low}..{high}")
        return value

    def numbers(self, name: str, labels: tuple[str, ...]) -> list[int]:
        texts = self.texts(name)
        if len(texts) != len(labels):
            self.refuse(f"the field {name!r} holds {len(texts)} values, not {len(labels)}")
        try:
            return [int(text) for text in texts]
        except ValueError:
            self.refuse(f"the field {name!r} ({', '.join(labels)}) holds {texts!r}, not integers")
