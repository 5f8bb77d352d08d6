"""Conquest boards as named arrays and ``.npz`` files: :meth:`Board.to_arrays
<stratagem.conquest.board.Board.to_arrays>`, ``from_arrays``, ``save`` and ``load`` (no
pickled objects). Reading checks everything again; anything missing or malformed raises
:class:`~stratagem.errors.InvalidBoard`.

The board class is passed in (``from_arrays(Board, arrays)``), so this module does not
import the board module.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from stratagem._files import read_arrays, write_arrays
from stratagem.errors import InvalidBoard, StratagemError

if TYPE_CHECKING:
    from stratagem.conquest.board import Board

__all__ = ["FILE_FORMAT", "FILE_VERSION", "from_arrays", "load", "save", "to_arrays"]

FILE_FORMAT = "stratagem.conquest.board"
FILE_VERSION = 1


def to_arrays(board: Board) -> dict[str, NDArray[Any]]:
    """The board as named arrays (no pickled objects): ``indptr``, ``indices``, ``meta``
    (a JSON string: format, version, kind, names, continents) and, if any,
    ``positions``. :meth:`from_arrays` reads them back; :meth:`save` stores them."""
    meta = {
        "format": FILE_FORMAT,
        "version": FILE_VERSION,
        "kind": board.kind,
        "names": None if board.names is None else list(board.names),
        "continents": board.continents,
    }
    arrays = {
        "meta": np.array(json.dumps(meta)),
        "indptr": board.indptr,
        "indices": board.indices,
    }
    if board.positions is not None:
        arrays["positions"] = board.positions
    return arrays


def from_arrays(board_class: type[Board], arrays: Mapping[str, ArrayLike]) -> Board:
    """The board :meth:`to_arrays` described; everything is checked again, and anything
    missing or malformed raises ``InvalidBoard``."""
    try:
        meta = json.loads(str(np.asarray(arrays["meta"])[()]))
        if not isinstance(meta, dict) or meta.get("format") != FILE_FORMAT:
            raise InvalidBoard("these are not the arrays of a stratagem board")
        if meta.get("version") != FILE_VERSION:
            raise InvalidBoard(f"unknown board format version {meta.get('version')!r}")
        return board_class(
            arrays["indptr"],
            arrays["indices"],
            names=meta["names"],
            continents=meta["continents"],
            positions=arrays.get("positions"),
            kind=meta["kind"],
        )
    except InvalidBoard:
        raise
    except KeyError as error:
        raise InvalidBoard(f"the board array {error.args[0]!r} is missing") from None
    except (StratagemError, ValueError) as error:
        raise InvalidBoard(f"malformed board arrays: {error}") from None


def save(board: Board, path: str | os.PathLike[str]) -> None:
    """Write the board to ``path`` (an ``.npz`` archive, written to exactly that path)."""
    write_arrays(path, to_arrays(board))


def load(board_class: type[Board], path: str | os.PathLike[str]) -> Board:
    """Read a board written by :meth:`save`. The graph is checked again; a file that is
    not a valid board raises ``InvalidBoard`` naming the file."""
    arrays = read_arrays(path, "a valid board file", InvalidBoard)
    try:
        return from_arrays(board_class, arrays)
    except StratagemError as error:
        raise InvalidBoard(f"{os.fspath(path)}: not a valid board file: {error}") from None
