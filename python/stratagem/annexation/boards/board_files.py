"""Annexation boards as data and files: :meth:`Board.to_dict
<stratagem.annexation.board.Board.to_dict>` and ``from_dict`` (JSON-able data, embedded in
saved games) and ``save``/``load`` (``.npz`` archives of named arrays, no pickles). Reading
checks everything again; anything missing or malformed raises
:class:`~stratagem.errors.InvalidBoard`.

The board is written from plain data (``Board._data()``: its arrays and values by name) and
built by the callable passed in (``from_dict(Board, data)``: the class builds itself from
plain arrays), so this module does not import the board module.
"""

from __future__ import annotations

import json
import numbers
import os
import re
from collections.abc import Callable, Hashable, Mapping
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from stratagem import graph
from stratagem._files import (
    Member,
    Read,
    last_offset,
    length,
    parse_json,
    read_arrays,
    write_arrays,
)
from stratagem.annexation.boards import layouts
from stratagem.errors import InvalidBoard, StratagemError

__all__ = ["FILE_FORMAT", "FILE_VERSION", "from_dict", "load", "save", "to_dict"]

_T = TypeVar("_T")

FILE_FORMAT = "stratagem.annexation.board"
#: 2: a grid or hex rectangle's kind gives rows by columns (``grid:RxC``, as in every game);
#: version 1 files gave width by height and are read with their kind turned round.
FILE_VERSION = 2
_READABLE_VERSIONS = (1, 2)


def _kind(data: Mapping[str, Any]) -> Any:
    """The kind of a saved board, as this version writes it."""
    kind = data["kind"]
    if data.get("version") == 1 and isinstance(kind, str):
        found = re.fullmatch(r"(hexrect|grid):(\d+)x(\d+)", kind)
        if found is not None:
            return f"{found.group(1)}:{found.group(3)}x{found.group(2)}"
    return kind


def to_dict(board: Mapping[str, Any]) -> dict[str, Any]:
    """The board as JSON-able data (lists, numbers, strings), for embedding in a saved
    game; :meth:`from_dict` reads it back (checking everything again). The geometry of a
    hexagon, hex rectangle or grid board is rebuilt from ``kind`` rather than stored."""
    geometry: Any = None
    regular = layouts.regular_geometry(board["kind"], board["cells"])
    if regular is not None and _same_geometry(board, *regular):
        geometry = "regular"
    elif board["centres"] is not None or board["polygon_vertices"] is not None:
        polygons = _polygons(board)
        geometry = {
            "centres": None if board["centres"] is None else board["centres"].tolist(),
            "polygons": None if polygons is None else [shape.tolist() for shape in polygons],
        }
    return {
        "format": FILE_FORMAT,
        "version": FILE_VERSION,
        "kind": board["kind"],
        "colour_count": board["colour_count"],
        "offsets": board["offsets"].tolist(),
        "neighbours": board["neighbours"].tolist(),
        "colours": board["colours"].tolist(),
        "starts": board["starts"].tolist(),
        "labels": None if board["labels"] is None else [_label_to_json(x) for x in board["labels"]],
        "geometry": geometry,
    }


def from_dict(build: Callable[..., _T], data: Mapping[str, Any]) -> _T:
    """The board :meth:`to_dict` described; anything missing or malformed raises
    ``InvalidBoard``."""
    try:
        if not isinstance(data, Mapping) or data.get("format") != FILE_FORMAT:
            raise InvalidBoard("this is not the dictionary of an annexation board")
        if data.get("version") not in _READABLE_VERSIONS:
            raise InvalidBoard(f"unknown annexation board format version {data.get('version')!r}")
        kind = _kind(data)
        geometry = data.get("geometry")
        centres: Any = None
        polygons: Any = None
        if geometry == "regular":
            regular = layouts.regular_geometry(kind, len(data["offsets"]) - 1)
            if regular is None:
                raise InvalidBoard(f"board kind {kind!r} has no regular geometry")
            centres = regular[0]
            polygons = np.split(regular[1], regular[2][1:-1])
        elif geometry is not None:
            centres = geometry["centres"]
            polygons = geometry["polygons"]
        meta = {**data, "kind": kind}
        return _board(build, meta, data, centres=centres, polygons=polygons)
    except InvalidBoard:
        raise
    except (StratagemError, KeyError, TypeError, ValueError) as error:
        raise InvalidBoard(f"malformed annexation board data: {error}") from error


def save(board: Mapping[str, Any], path: str | os.PathLike[str]) -> None:
    """Write the board to ``path``, an ``.npz`` archive (written to exactly that path)."""
    meta = {
        "format": FILE_FORMAT,
        "version": FILE_VERSION,
        "kind": board["kind"],
        "colour_count": board["colour_count"],
        "labels": None if board["labels"] is None else [_label_to_json(x) for x in board["labels"]],
    }
    arrays: dict[str, Any] = {
        "meta": np.array(json.dumps(meta)),
        "offsets": board["offsets"],
        "neighbours": board["neighbours"],
        "colours": board["colours"],
        "starts": board["starts"],
    }
    if board["centres"] is not None:
        arrays["centres"] = board["centres"]
    if board["polygon_vertices"] is not None and board["polygon_offsets"] is not None:
        arrays["polygon_vertices"] = board["polygon_vertices"]
        arrays["polygon_offsets"] = board["polygon_offsets"]
    write_arrays(path, arrays)


def _members() -> dict[str, Member]:
    """What each member of a board file must be, in the order they are read (any other
    member is left unread): the meta first, whose labels (if any) count the cells, then
    ``offsets``, whose length counts them and whose last entry counts ``neighbours``, and
    ``polygon_offsets``, whose last entry counts the vertices."""
    per_cell = Member("iu", lambda read: (_cells(read),))
    return {
        "meta": Member.text(),
        "offsets": Member.int64(lambda read: (_offsets(_cells(read)),)),
        "neighbours": Member.int64(lambda read: (_neighbours(read),)),
        "colours": per_cell,
        "starts": Member("iu", lambda read: (_at_most(_cells(read)),)),
        "centres": Member("fiu", lambda read: (_cells(read), 2)),
        "polygon_offsets": Member.int64(lambda read: (_offsets(_cells(read)),)),
        "polygon_vertices": Member(
            "fiu", lambda read: (last_offset(read, "polygon_offsets", None), 2)
        ),
    }


def _cells(read: Read) -> int | None:
    """The cells of the board whose members ``read`` holds so far, as ``offsets`` counts them
    or else the meta's labels, if either does."""
    offsets = length(read, "offsets")
    if offsets is not None:
        return offsets - 1
    try:
        labels = parse_json(str(read["meta"][()]), InvalidBoard).get("labels")
    except (KeyError, AttributeError, StratagemError):
        return None
    return len(labels) if isinstance(labels, list) else None


def _offsets(cells: int | None) -> int | range:
    return range(2, layouts.MAX_CELLS + 2) if cells is None else cells + 1


def _at_most(cells: int | None) -> range | None:
    return None if cells is None else range(cells + 1)


def _neighbours(read: Read) -> int | range | None:
    """Every adjacency listed from both sides: at most ``n (n - 1)`` entries."""
    cells = _cells(read)
    return last_offset(read, "offsets", None if cells is None else range(cells * (cells - 1) + 1))


def load(build: Callable[..., _T], path: str | os.PathLike[str]) -> _T:
    """Read a board written by :meth:`save`; everything is checked again, and a file that
    is not a valid annexation board raises ``InvalidBoard`` naming the file."""
    name = os.fspath(path)
    arrays = read_arrays(path, "a valid annexation board file", InvalidBoard, _members())
    try:
        meta = parse_json(str(arrays["meta"][()]), lambda reason: InvalidBoard(f"meta is {reason}"))
        if not isinstance(meta, dict) or meta.get("format") != FILE_FORMAT:
            raise InvalidBoard("it is not an annexation board")
        if meta.get("version") not in _READABLE_VERSIONS:
            raise InvalidBoard(f"unknown format version {meta.get('version')!r}")
        meta["kind"] = _kind(meta)
        polygons = None
        if "polygon_vertices" in arrays:
            vertex_offsets = graph.id_vector(
                "polygon_offsets", arrays["polygon_offsets"], node="cell", objects=True
            )
            vertices = arrays["polygon_vertices"]
            if vertices.ndim != 2 or vertices.shape[1] != 2 or vertices.dtype.kind != "f":
                raise InvalidBoard(
                    f"polygon_vertices must be an (n, 2) array of floats, got a {vertices.dtype} "
                    f"array of shape {vertices.shape}"
                )
            polygons = np.split(vertices, vertex_offsets[1:-1])
        return _board(build, meta, arrays, centres=arrays.get("centres"), polygons=polygons)
    except KeyError as error:
        raise InvalidBoard(
            f"{name}: not a valid annexation board file: the array {error.args[0]!r} is missing"
        ) from None
    except (StratagemError, TypeError, ValueError) as error:
        raise InvalidBoard(f"{name}: not a valid annexation board file: {error}") from None


def _board(
    build: Callable[..., _T],
    meta: Mapping[str, Any],
    arrays: Mapping[str, Any],
    *,
    centres: Any,
    polygons: Any,
) -> _T:
    """The board of a dictionary or an archive: its graph, colours and starts from
    ``arrays``, its kind, colour count and labels from ``meta`` (checked by the board)."""
    labels = meta.get("labels")
    return build(
        arrays["offsets"],
        arrays["neighbours"],
        colour_count=meta["colour_count"],
        starts=arrays["starts"],
        colours=arrays["colours"],
        kind=meta["kind"],
        centres=centres,
        polygons=polygons,
        labels=None if labels is None else [_label_from_json(x) for x in labels],
    )


def _polygons(board: Mapping[str, Any]) -> list[NDArray[Any]] | None:
    """The board's polygons, one ``(m_i, 2)`` array of vertices per cell, or None."""
    vertices, offsets = board["polygon_vertices"], board["polygon_offsets"]
    return None if vertices is None or offsets is None else np.split(vertices, offsets[1:-1])


def same_optional(a: NDArray[Any] | None, b: NDArray[Any] | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return a.shape == b.shape and bool(np.array_equal(a, b))


def _label_to_json(label: Any) -> Any:
    """A label as JSON data: numbers and strings as they are, tuples as lists, anything
    else as its ``str``."""
    if label is None or isinstance(label, (bool, str)):
        return label
    if isinstance(label, numbers.Integral):
        return int(label)
    if isinstance(label, numbers.Real):
        return float(label)
    if isinstance(label, tuple):
        return [_label_to_json(part) for part in label]
    return str(label)


def _label_from_json(value: Any) -> Hashable:
    if isinstance(value, list):
        return tuple(_label_from_json(part) for part in value)
    result: Hashable = value
    return result


def _same_geometry(
    board: Mapping[str, Any],
    centres: NDArray[Any],
    vertices: NDArray[Any],
    polygon_offsets: NDArray[Any],
) -> bool:
    return (
        same_optional(board["centres"], centres)
        and same_optional(board["polygon_vertices"], vertices)
        and same_optional(board["polygon_offsets"], polygon_offsets)
    )
