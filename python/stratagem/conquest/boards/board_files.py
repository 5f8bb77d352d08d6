"""Conquest boards as named arrays and ``.npz`` files: :meth:`Board.to_arrays
<stratagem.conquest.board.Board.to_arrays>`, ``from_arrays``, ``save`` and ``load`` (no
pickled objects). Reading checks everything again; anything missing or malformed raises
:class:`~stratagem.errors.InvalidBoard`.

A board file is a zip of ``.npy`` members: ``meta`` (a JSON string), ``indptr``, ``indices``
and, if any, ``positions``. :func:`save` writes every member stored (uncompressed), its data
on a multiple of 64 bytes of the file, so that :func:`map_csr` can memory-map the CSR and
:func:`file_share` can read one rank's rows of a board too big for one process (files saved
before, compressed, are still read whole by :func:`load`).

The board is written from its plain data (a :class:`~stratagem.conquest.boards.layouts.Layout`
of its arrays) and built by the callables passed in (``from_arrays(Board, arrays)``: the class
builds itself from plain arrays), so this module does not import the board module.

>>> import tempfile
>>> from pathlib import Path
>>> from stratagem.conquest.board import Board
>>> from stratagem.mpi import block_partition
>>> path = Path(tempfile.mkdtemp()) / "ring.npz"
>>> Board.ring(6).save(path)
>>> mapped = map_csr(path)
>>> mapped.kind, mapped.n, mapped.n_borders, mapped.indices[:4].tolist()
('ring:6', 6, 6, [1, 5, 0, 2])
>>> share, _ = file_share(path, block_partition(6, 2), 1)
>>> share["local_ids"].tolist()  # rank 1 owns 3, 4, 5 and sees 0 and 2
[0, 2, 3, 4, 5]
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from stratagem import _core, _validate
from stratagem._files import (
    Member,
    Read,
    last_offset,
    length,
    map_arrays,
    parse_json,
    read_arrays,
    write_arrays,
)
from stratagem.conquest.boards.layouts import Layout
from stratagem.errors import InvalidBoard, InvalidParameter, StratagemError
from stratagem.progress import Progress, ProgressOption

__all__ = [
    "FILE_FORMAT",
    "FILE_VERSION",
    "MappedBoard",
    "file_share",
    "from_arrays",
    "load",
    "map_csr",
    "save",
    "to_arrays",
]

_T = TypeVar("_T")


FILE_FORMAT = "stratagem.conquest.board"
FILE_VERSION = 1
# CSR entries load reads at a time.
_SLICE = 1 << 22


def members(prefix: str = "") -> dict[str, Member]:
    """What each member of a board file must be, in the order they are read (any other
    member is left unread), named ``prefix`` + its name (a saved game holds its board's as
    ``board_meta``...): the meta first, whose names (if any) count the territories, then
    ``indptr``, whose length counts them and whose last entry counts ``indices``."""
    return {
        f"{prefix}meta": Member.text(),
        f"{prefix}indptr": Member.int64(lambda read: (_offsets(read, prefix),)),
        f"{prefix}indices": Member.int64(lambda read: (_entries(read, prefix),)),
        f"{prefix}positions": Member("fiu", lambda read: (territories(read, prefix), 2)),
    }


def territories(read: Read, prefix: str = "") -> int | None:
    """The territories of the board whose members ``read`` holds so far (named ``prefix`` +
    their name), as ``indptr`` counts them or else the meta's names, if either does."""
    offsets = length(read, f"{prefix}indptr")
    if offsets is not None:
        return offsets - 1
    try:
        names = _meta(read, f"{prefix}meta")["names"]
    except (KeyError, StratagemError):
        return None
    return len(names) if isinstance(names, list) else None


def _offsets(read: Read, prefix: str) -> int | range:
    named = territories(read, prefix)
    return range(2, _core.conquest.MAX_TERRITORIES + 2) if named is None else named + 1


def _entries(read: Read, prefix: str) -> int | range | None:
    """Every border listed twice: at most ``n (n - 1)`` entries, as ``indptr`` says."""
    n = territories(read, prefix)
    return last_offset(read, f"{prefix}indptr", None if n is None else range(n * (n - 1) + 1))


def to_arrays(board: Layout) -> dict[str, NDArray[Any]]:
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
        arrays["positions"] = np.asarray(board.positions)
    return arrays


def from_arrays(
    build: Callable[..., _T], arrays: Mapping[str, ArrayLike], *, kind: str | None = None
) -> _T:
    """The board :meth:`to_arrays` described (its kind ``kind`` if given, else the stored
    one); everything is checked again, and anything missing or malformed raises
    ``InvalidBoard``."""

    def board() -> _T:
        meta = _meta(arrays)
        return build(
            arrays["indptr"],
            arrays["indices"],
            names=meta["names"],
            continents=meta["continents"],
            positions=arrays.get("positions"),
            kind=meta["kind"] if kind is None else kind,
        )

    return _malformed(board)


def _malformed(build: Callable[[], _T]) -> _T:
    """``build()``; anything missing or malformed raises ``InvalidBoard``."""
    try:
        return build()
    except InvalidBoard:
        raise
    except KeyError as error:
        raise InvalidBoard(f"the board array {error.args[0]!r} is missing") from None
    except (StratagemError, ValueError) as error:
        raise InvalidBoard(f"malformed board arrays: {error}") from None


def _meta(arrays: Mapping[str, ArrayLike], key: str = "meta") -> dict[str, Any]:
    """The board's ``meta`` (the array ``key``), of this format and version (``KeyError`` if
    there is none, ``InvalidBoard`` if it is no JSON object of this format)."""
    meta = parse_json(str(np.asarray(arrays[key])[()]), _bad_meta)
    if not isinstance(meta, dict) or meta.get("format") != FILE_FORMAT:
        raise InvalidBoard("these are not the arrays of a stratagem board")
    if meta.get("version") != FILE_VERSION:
        raise InvalidBoard(f"unknown board format version {meta.get('version')!r}")
    return meta


def _bad_meta(reason: str) -> InvalidBoard:
    return InvalidBoard(f"the board's meta is {reason}")


def save(board: Layout, path: str | os.PathLike[str]) -> None:
    """Write the board to ``path`` (an ``.npz`` archive, written to exactly that path), every
    member stored uncompressed and aligned (:func:`map_csr` maps its CSR), each written in
    chunks: no copy of the board is made."""
    write_arrays(path, to_arrays(board), stored=True)


def load(
    build: Callable[..., _T],
    checked: Callable[[Layout], _T],
    path: str | os.PathLike[str],
    *,
    kind: str | None = None,
    progress: ProgressOption = None,
) -> _T:
    """Read a board written by :meth:`save` (now or by an earlier version, compressed), with
    the kind ``kind`` if given. The graph is checked again; a file that is not a valid board
    raises ``InvalidBoard`` naming the file. A stored file is read a slice of its CSR at a
    time, into the board's own arrays, with a bar (``progress``) counting the entries read,
    then checked; a compressed one is read whole. The board is built by ``build`` (from the
    arrays, as the board's constructor takes them) or ``checked`` (from a layout of fresh
    arrays, checked without copying them)."""
    try:
        mapped = map_csr(path)
    except InvalidBoard:
        mapped = None  # compressed, or no board file: read whole, and refused in its words
    if mapped is None:
        arrays = read_arrays(path, "a valid board file", InvalidBoard, members())
        return _naming(path, lambda: from_arrays(build, arrays, kind=kind))
    total = mapped.indptr.shape[0] + 2 * mapped.indices.shape[0]
    with Progress(total, f"board {mapped.path}", enabled=progress, counts=False) as bar:
        indptr = _read_in_slices(mapped.indptr, bar)
        indices = _read_in_slices(mapped.indices, bar)
        layout = Layout(
            indptr,
            indices,
            names=mapped.names,
            continents=mapped.continents,
            positions=mapped.positions,
            kind=mapped.kind if kind is None else kind,
        )
        board = _naming(path, lambda: _malformed(lambda: checked(layout)))
        bar.advance(indices.shape[0])
    return board


def _read_in_slices(mapped: NDArray[np.int64], bar: Progress) -> NDArray[np.int64]:
    """A fresh copy of the memory-mapped ``mapped``, read :data:`_SLICE` entries at a time."""
    array = np.empty(mapped.shape[0], dtype=np.int64)
    for start in range(0, array.shape[0], _SLICE):
        array[start : start + _SLICE] = mapped[start : start + _SLICE]
        bar.advance(min(_SLICE, array.shape[0] - start))
    return array


def _naming(path: str | os.PathLike[str], read: Callable[[], _T]) -> _T:
    """``read()``; an error names the file ``path``."""
    try:
        return read()
    except StratagemError as error:
        raise InvalidBoard(f"{os.fspath(path)}: not a valid board file: {error}") from None


class MappedBoard(NamedTuple):
    """A board file opened by :func:`map_csr`: its CSR memory-mapped (read-only int64 arrays,
    read from the file only where used, and not checked yet), its kind and names as stored,
    its numbers of territories and borders, its continents as stored and its positions
    (memory-mapped too, not checked yet), if any."""

    path: str
    indptr: NDArray[np.int64]
    indices: NDArray[np.int64]
    kind: str
    names: tuple[str, ...] | None
    n: int
    n_borders: int
    continents: Mapping[str, Any] | None = None
    positions: NDArray[Any] | None = None


def map_csr(path: str | os.PathLike[str]) -> MappedBoard:
    """The board file at ``path`` (written by :func:`save`) opened without reading it: its
    ``meta`` is read and checked (as :func:`load` checks it), ``indptr`` and ``indices`` are
    memory-mapped. A file that is not a board file, a member missing, compressed (a file saved
    before boards were stored: read it whole with ``Board.load``, or save it again with
    ``Board.save``), misaligned, truncated, in Fortran order, or not 1-D little-endian int64,
    raises ``InvalidBoard`` naming the file and the member. The rows themselves are checked
    by whoever reads them (:func:`file_share`)."""
    name = os.fspath(path)
    readers = members()
    arrays = map_arrays(
        path,
        {"meta": readers.pop("meta")},
        readers,
        what="a valid board file",
        error=InvalidBoard,
        remedy="read the board whole with Board.load, or save it again with Board.save",
    )

    def checked() -> MappedBoard:
        meta = _meta(arrays)
        csr = {key: arrays[key] for key in ("indptr", "indices")}
        for key, array in csr.items():
            if array.dtype != np.dtype("<i8") or array.ndim != 1:
                raise InvalidBoard(
                    f"the array {key!r} is {array.dtype.str} of shape {array.shape}, not a "
                    f"1-D little-endian int64 array"
                )
        n = len(csr["indptr"]) - 1
        if not 1 <= n <= _core.conquest.MAX_TERRITORIES:
            raise InvalidBoard(
                f"indptr has {n + 1} entries: a board has 1 to "
                f"{_core.conquest.MAX_TERRITORIES} territories"
            )
        if len(csr["indices"]) % 2:
            raise InvalidBoard(
                f"indices has {len(csr['indices'])} entries: every border is listed twice"
            )
        names = meta["names"]
        return MappedBoard(
            name,
            csr["indptr"],
            csr["indices"],
            str(meta["kind"]),
            None if names is None else tuple(names),
            n,
            len(csr["indices"]) // 2,
            meta["continents"],
            arrays.get("positions"),
        )

    try:
        return checked()
    except KeyError as error:
        reason = f"the board array {error.args[0]!r} is missing"
    except StratagemError as error:
        reason = str(error)
    except (TypeError, ValueError) as error:
        reason = f"malformed board arrays: {error}"
    raise InvalidBoard(f"{name}: not a valid board file: {reason}")


def file_share(
    path: str | os.PathLike[str], offsets: ArrayLike, rank: int
) -> tuple[dict[str, NDArray[Any]], MappedBoard]:
    """Rank ``rank``'s share of a distributed game on the board file at ``path`` when block
    ``q`` of the territories, ``offsets[q]`` to ``offsets[q + 1]``, belongs to rank ``q``
    (``offsets = stratagem.mpi.block_partition(n, size)``): the arrays
    ``_core.conquest.part_share`` gives for the whole board, and the opened file
    (:func:`map_csr`: kind, names, sizes). Only the rows of the rank's block and of its
    ghosts are read, and each is checked as it is read (the ranks together check the whole
    board); a bad row raises ``InvalidBoard`` naming the file, on the rank that read it. Offsets
    that are no such partition, or a rank without a block, raise ``InvalidParameter``."""
    mapped = map_csr(path)
    cuts = np.asarray(offsets)
    blocks = (
        cuts.ndim == 1
        and cuts.dtype.kind in "iu"
        and len(cuts) >= 2
        and cuts[0] == 0
        and cuts[-1] == mapped.n
        and bool((np.diff(cuts) >= 0).all())
    )
    if not blocks:
        raise InvalidParameter(
            f"offsets {cuts.tolist()} do not cut the {mapped.n} territories of {mapped.path} "
            f"into blocks (from 0 up to {mapped.n}, never down)"
        )
    rank = _validate.integer("rank", rank, 0, len(cuts) - 2)
    cuts = np.ascontiguousarray(cuts, dtype=np.int64)
    share = _naming(
        path, lambda: _core.conquest.csr_share(mapped.indptr, mapped.indices, cuts, rank)
    )
    return share, mapped
