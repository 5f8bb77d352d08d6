"""Annexation boards: a connected graph of coloured cells, the players' start cells, and the
geometry to draw them (``docs/annexation-rules.md``, "Board").

A :class:`Board` is immutable. Cells are ``0..n-1``; ``offsets`` (int64, ``n + 1``) and
``neighbours`` (int64) list the neighbours of every cell, each row sorted ascending and every
edge present in both rows. ``colours`` (uint8) holds one colour in ``0..colour_count-1`` per
cell and ``starts`` (int64) one start cell per player, each in its own region (a region is a
maximal connected set of cells of one colour).

Generators and their default start cells (for 2, 3 and 4 players):

- :meth:`Board.hexagon`: a hexagon of hexagons of radius R (``3 R (R + 1) + 1`` cells),
  numbered row by row from the top. Corners: top-left is cell 0, bottom-right cell n - 1.
  2 players: top-left, bottom-right; 3: top-left, right, bottom-left (every other corner);
  4: top-left, bottom-right, top-right, bottom-left (players 0 and 1 opposite, 2 and 3
  opposite).
- :meth:`Board.hex_rectangle` (hexagons in offset rows, odd rows shifted half a cell right)
  and :meth:`Board.grid` (squares, 4 neighbours): ``width x height`` cells numbered row by
  row from the top. 2 players: top-left, bottom-right; 3: top-left, bottom-right, top-right;
  4: top-left, bottom-right, top-right, bottom-left.
- :meth:`Board.voronoi`, :meth:`Board.from_edges`, :meth:`Board.from_networkx`, and the
  constructor: the two cells farthest apart by a double sweep (a = the cell farthest from
  cell 0, b = the cell farthest from a; graph distances, ties to the lowest id), then for 3
  and 4 players the cell whose distance to the nearest chosen start is largest (lowest id on
  ties).

Colours, unless given, are drawn as the rules say: attempt ``a = 0, 1, 2, ...`` draws
``colours[i]`` as draw ``i`` of ``rng.draws(seed, "annexation.colours", (a,),
"uniform_below", [k] * n)``, and the first attempt whose start cells lie in different regions
is kept (``InvalidBoard`` after :data:`COLOUR_ATTEMPTS` attempts). The Voronoi points come
from stream ``(seed, "annexation.board.voronoi")``: words ``2 i`` and ``2 i + 1`` give the x
and y of point ``i`` as ``(word >> 11) * 2**-53``.

Errors: an argument of the wrong type, shape or range raises
:class:`~stratagem.errors.InvalidParameter`; content that breaks the rules (a cell without
neighbours, a self-loop, a repeated edge, an id out of range, a disconnected board, a colour
out of range, equal start cells, two start cells in one region) raises
:class:`~stratagem.errors.InvalidBoard`, naming the cell or edge.

>>> board = Board.hexagon(8)
>>> board
Board(kind='hex:8', cells=217, colours=8, players=2)
>>> board.starts.tolist()
[0, 216]
>>> board.neighbours_of(0).tolist()
[1, 9, 10]
>>> board == Board.hexagon(8) and board != board.recoloured(1)
True
>>> path = Board.from_edges([(0, 1), (1, 2), (2, 3)], colours=[0, 1, 2, 0])
>>> path.starts.tolist(), path.regions().tolist(), path.region_count
([3, 0], [0, 1, 2, 3], 4)
>>> Board.from_dict(path.to_dict()) == path
True
>>> parse_board("grid:4x3", players=4).starts.tolist()
[0, 11, 3, 8]
"""

from __future__ import annotations

import json
import math
import numbers
import os
import re
import zipfile
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from stratagem import _validate, rng
from stratagem.errors import InvalidBoard, InvalidParameter, StratagemError

__all__ = [
    "COLOUR_ATTEMPTS",
    "COLOUR_PURPOSE",
    "MAX_CELLS",
    "MAX_COLOURS",
    "MAX_PLAYERS",
    "MIN_COLOURS",
    "MIN_PLAYERS",
    "VORONOI_PURPOSE",
    "Board",
    "parse_board",
]

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
ColourArray = NDArray[np.uint8]

MIN_COLOURS = 3
MAX_COLOURS = 16
MIN_PLAYERS = 2
MAX_PLAYERS = 4
#: The largest board the generators build (a bound against typing errors, not a rule).
MAX_CELLS = 1 << 24
#: Colour draws tried before giving up on putting the start cells in different regions.
COLOUR_ATTEMPTS = 1000
COLOUR_PURPOSE = "annexation.colours"
VORONOI_PURPOSE = "annexation.board.voronoi"

_FILE_FORMAT = "stratagem.annexation.board"
_FILE_VERSION = 1
_UNIT = 2.0**-53
# Voronoi ridges shorter than this (in the unit square) are a degenerate vertex, not an edge.
_MIN_RIDGE = 1e-12
_HALF_ROOT3 = math.sqrt(3.0) / 2.0
# Pointy-top hexagon of circumradius 1 (width sqrt(3)), counter-clockwise from the right.
_HEXAGON = np.array(
    [
        [_HALF_ROOT3, 0.5],
        [0.0, 1.0],
        [-_HALF_ROOT3, 0.5],
        [-_HALF_ROOT3, -0.5],
        [0.0, -1.0],
        [_HALF_ROOT3, -0.5],
    ]
)
_SQUARE = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
_SPEC_FORMS = (
    "hex:R (a hexagon of radius R), hexrect:WxH (a rectangle of hexagons), grid:WxH "
    "(a square grid), voronoi:N (N Voronoi cells), or the path of a board saved with "
    "Board.save (.npz)"
)


class Board:
    """An immutable annexation board.

    ``Board(offsets, neighbours, ...)`` checks a CSR graph; the class methods build boards
    from generators, edge lists and networkx graphs. Public attributes (all numpy arrays
    read-only): ``cells`` (n), ``offsets``, ``neighbours``, ``colours``, ``colour_count``
    (k), ``players`` (p), ``starts``, ``kind``, ``centres`` (float64 ``(n, 2)`` or None),
    ``polygons`` (a tuple of float64 ``(m_i, 2)`` arrays, or None) and ``labels`` (the
    original node labels of a networkx graph, or None).

    Keyword options shared by the constructors: ``colour_count`` (3..16, default 8),
    ``players`` (2..4; default 2, or ``len(starts)`` when ``starts`` is given), ``seed``
    (for the colour draw), ``starts`` (the start cells instead of the default ones) and
    ``colours`` (the colours instead of drawing them). Equality compares the graph, colours,
    colour count, starts, geometry and labels, not ``kind``.
    """

    __slots__ = (
        "_polygon_offsets",
        "_polygon_vertices",
        "_polygons",
        "_region_count",
        "_regions",
        "cells",
        "centres",
        "colour_count",
        "colours",
        "kind",
        "labels",
        "neighbours",
        "offsets",
        "players",
        "starts",
    )

    cells: int
    offsets: IntArray
    neighbours: IntArray
    colours: ColourArray
    colour_count: int
    players: int
    starts: IntArray
    kind: str
    centres: FloatArray | None
    labels: tuple[Hashable, ...] | None
    _polygon_offsets: IntArray | None
    _polygon_vertices: FloatArray | None
    _polygons: tuple[FloatArray, ...] | None
    _regions: IntArray
    _region_count: int

    def __init__(
        self,
        offsets: ArrayLike,
        neighbours: ArrayLike,
        *,
        colour_count: int = 8,
        players: int | None = None,
        seed: int = 0,
        starts: ArrayLike | None = None,
        colours: ArrayLike | None = None,
        kind: str = "custom",
        centres: ArrayLike | None = None,
        polygons: Sequence[ArrayLike] | None = None,
        labels: Sequence[Hashable] | None = None,
    ) -> None:
        offsets_array = _id_vector("offsets", offsets)
        neighbours_array = _id_vector("neighbours", neighbours)
        _check_csr(offsets_array, neighbours_array)
        vertices, polygon_offsets = _check_polygons(polygons, offsets_array.shape[0] - 1)
        self._setup(
            offsets_array,
            neighbours_array,
            colour_count=colour_count,
            players=players,
            seed=seed,
            starts=starts,
            colours=colours,
            kind=kind,
            centres=centres,
            polygon_vertices=vertices,
            polygon_offsets=polygon_offsets,
            labels=labels,
            default_starts=None,
        )

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def _make(
        cls,
        offsets: IntArray,
        neighbours: IntArray,
        *,
        colour_count: int,
        players: int | None,
        seed: int,
        starts: ArrayLike | None,
        colours: ArrayLike | None,
        kind: str,
        centres: ArrayLike | None = None,
        polygon_vertices: FloatArray | None = None,
        polygon_offsets: IntArray | None = None,
        labels: Sequence[Hashable] | None = None,
        default_starts: Callable[[int], list[int]] | None = None,
    ) -> Board:
        """A board from a CSR pair built correctly by this module (its structure is not
        checked again; connectivity, starts and colours are)."""
        board = object.__new__(cls)
        board._setup(
            offsets,
            neighbours,
            colour_count=colour_count,
            players=players,
            seed=seed,
            starts=starts,
            colours=colours,
            kind=kind,
            centres=centres,
            polygon_vertices=polygon_vertices,
            polygon_offsets=polygon_offsets,
            labels=labels,
            default_starts=default_starts,
        )
        return board

    def _setup(
        self,
        offsets: IntArray,
        neighbours: IntArray,
        *,
        colour_count: int,
        players: int | None,
        seed: int,
        starts: ArrayLike | None,
        colours: ArrayLike | None,
        kind: str,
        centres: ArrayLike | None,
        polygon_vertices: FloatArray | None,
        polygon_offsets: IntArray | None,
        labels: Sequence[Hashable] | None,
        default_starts: Callable[[int], list[int]] | None,
    ) -> None:
        k = _validate.integer("colour_count", colour_count, MIN_COLOURS, MAX_COLOURS)
        if players is None:
            p = MIN_PLAYERS if starts is None else _length("starts", starts)
            if not MIN_PLAYERS <= p <= MAX_PLAYERS:
                raise InvalidParameter(
                    f"starts lists {p} cells; a game has {MIN_PLAYERS} to {MAX_PLAYERS} players"
                )
        else:
            p = _validate.integer("players", players, MIN_PLAYERS, MAX_PLAYERS)
        if k <= p:
            raise InvalidParameter(
                f"colour_count must exceed players (so that a player always has a legal "
                f"colour), got {k} colours for {p} players"
            )
        seed = _validate.seed(seed)
        if not isinstance(kind, str):
            raise InvalidParameter(f"kind must be a string, got {kind!r}")
        n = offsets.shape[0] - 1
        if n < 2:
            raise InvalidBoard(f"a board needs at least 2 cells, got {n}")
        _check_cells(offsets, neighbours)
        if n < p:
            raise InvalidParameter(f"a board of {n} cells cannot hold {p} players")
        if starts is None:
            chosen = (default_starts or _farthest_starts(offsets, neighbours))(p)
            start_array = np.array(chosen, dtype=np.int64)
            _check_distinct_starts(start_array)
        else:
            start_array = _check_starts(starts, n, p)
        if colours is None:
            colour_array, regions = _draw_colours(offsets, neighbours, start_array, k, seed)
        else:
            colour_array = _check_colours(colours, n, k)
            regions = _region_ids(offsets, neighbours, colour_array)
            _check_start_regions(start_array, colour_array, regions)
        checked_centres = _check_centres(centres, n)
        if checked_centres is None and polygon_vertices is not None and polygon_offsets is not None:
            sums = np.add.reduceat(polygon_vertices, polygon_offsets[:-1], axis=0)
            checked_centres = sums / np.diff(polygon_offsets)[:, None]
        values: dict[str, Any] = {
            "cells": n,
            "offsets": _frozen(offsets),
            "neighbours": _frozen(neighbours),
            "colours": _frozen(colour_array),
            "colour_count": k,
            "players": p,
            "starts": _frozen(start_array),
            "kind": kind,
            "centres": None if checked_centres is None else _frozen(checked_centres),
            "labels": _check_labels(labels, n),
            "_polygon_vertices": None if polygon_vertices is None else _frozen(polygon_vertices),
            "_polygon_offsets": None if polygon_offsets is None else _frozen(polygon_offsets),
            "_polygons": None,
            "_regions": _frozen(regions),
            "_region_count": int(regions.max()) + 1,
        }
        for slot, value in values.items():
            object.__setattr__(self, slot, value)

    def _replace_colours(self, *, colours: ArrayLike | None, seed: int) -> Board:
        return type(self)._make(
            self.offsets,
            self.neighbours,
            colour_count=self.colour_count,
            players=self.players,
            seed=seed,
            starts=self.starts,
            colours=colours,
            kind=self.kind,
            centres=self.centres,
            polygon_vertices=self._polygon_vertices,
            polygon_offsets=self._polygon_offsets,
            labels=self.labels,
        )

    def recoloured(self, seed: int) -> Board:
        """The same board (graph, starts, geometry) with colours drawn with ``seed``."""
        return self._replace_colours(colours=None, seed=seed)

    def with_colours(self, colours: ArrayLike) -> Board:
        """The same board with the given colours (checked: range, start regions)."""
        return self._replace_colours(colours=colours, seed=0)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Board is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Board is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        state = {slot: getattr(self, slot) for slot in self.__slots__ if slot != "_polygons"}
        return (_rebuild, (state,))

    # -- the graph -------------------------------------------------------------------------

    @property
    def polygons(self) -> tuple[FloatArray, ...] | None:
        """One float64 ``(m_i, 2)`` array of vertices per cell (read-only views), or None."""
        if self._polygon_vertices is None or self._polygon_offsets is None:
            return None
        if self._polygons is None:
            parts = np.split(self._polygon_vertices, self._polygon_offsets[1:-1])
            object.__setattr__(self, "_polygons", tuple(parts))
        return self._polygons

    @property
    def region_count(self) -> int:
        """The number of regions (maximal connected sets of cells of one colour)."""
        return self._region_count

    def regions(self) -> IntArray:
        """The region of each cell (int64, read-only); regions are numbered in the order of
        their lowest cell, so cell 0 is in region 0."""
        return self._regions

    def neighbours_of(self, cell: int) -> IntArray:
        """The neighbours of ``cell``, ascending (a read-only view)."""
        cell = _validate.integer("cell", cell, 0, self.cells - 1)
        return self.neighbours[self.offsets[cell] : self.offsets[cell + 1]]

    def degree(self) -> IntArray:
        """The number of neighbours of each cell."""
        return np.diff(self.offsets)

    def edges(self) -> IntArray:
        """Every edge once as a row ``(a, b)`` with ``a < b``, sorted: shape ``(m, 2)``."""
        sources = _sources(self.offsets)
        upper = self.neighbours > sources
        return np.stack((sources[upper], self.neighbours[upper]), axis=1)

    def to_networkx(self) -> Any:
        """A ``networkx.Graph`` (nodes ``labels`` or ``0..n-1``) with node attributes
        ``colour`` and, if the board has centres, ``pos``; graph attributes ``kind``,
        ``colour_count`` and ``starts`` (as node labels). :meth:`from_networkx` reads the
        colours, positions and starts back."""
        import networkx as nx

        nodes: list[Hashable] = (
            list(self.labels) if self.labels is not None else list(range(self.cells))
        )
        graph = nx.Graph(
            kind=self.kind,
            colour_count=self.colour_count,
            starts=[nodes[s] for s in self.starts.tolist()],
        )
        for cell, node in enumerate(nodes):
            graph.add_node(node, colour=int(self.colours[cell]))
            if self.centres is not None:
                graph.nodes[node]["pos"] = (
                    float(self.centres[cell, 0]),
                    float(self.centres[cell, 1]),
                )
        graph.add_edges_from((nodes[a], nodes[b]) for a, b in self.edges().tolist())
        return graph

    # -- comparison, display ---------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (
            self.cells == other.cells
            and self.colour_count == other.colour_count
            and np.array_equal(self.offsets, other.offsets)
            and np.array_equal(self.neighbours, other.neighbours)
            and np.array_equal(self.colours, other.colours)
            and np.array_equal(self.starts, other.starts)
            and _same_optional(self.centres, other.centres)
            and _same_optional(self._polygon_offsets, other._polygon_offsets)
            and _same_optional(self._polygon_vertices, other._polygon_vertices)
            and self.labels == other.labels
        )

    def __hash__(self) -> int:
        return hash((self.cells, self.colour_count, tuple(self.starts.tolist())))

    def __repr__(self) -> str:
        return (
            f"Board(kind={self.kind!r}, cells={self.cells}, colours={self.colour_count}, "
            f"players={self.players})"
        )

    # -- files and dictionaries ------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The board as JSON-able data (lists, numbers, strings), for embedding in a saved
        game; :meth:`from_dict` reads it back (checking everything again). The geometry of a
        hexagon, hex rectangle or grid board is rebuilt from ``kind`` rather than stored."""
        geometry: Any = None
        regular = _regular_geometry(self.kind, self.cells)
        if regular is not None and self._same_geometry(*regular):
            geometry = "regular"
        elif self.centres is not None or self._polygon_vertices is not None:
            polygons = self.polygons
            geometry = {
                "centres": None if self.centres is None else self.centres.tolist(),
                "polygons": None if polygons is None else [shape.tolist() for shape in polygons],
            }
        return {
            "format": _FILE_FORMAT,
            "version": _FILE_VERSION,
            "kind": self.kind,
            "colour_count": self.colour_count,
            "offsets": self.offsets.tolist(),
            "neighbours": self.neighbours.tolist(),
            "colours": self.colours.tolist(),
            "starts": self.starts.tolist(),
            "labels": None if self.labels is None else [_label_to_json(x) for x in self.labels],
            "geometry": geometry,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Board:
        """The board :meth:`to_dict` described; anything missing or malformed raises
        ``InvalidBoard``."""
        try:
            if not isinstance(data, Mapping) or data.get("format") != _FILE_FORMAT:
                raise InvalidBoard("this is not the dictionary of an annexation board")
            if data.get("version") != _FILE_VERSION:
                raise InvalidBoard(
                    f"unknown annexation board format version {data.get('version')!r}"
                )
            kind = data["kind"]
            geometry = data.get("geometry")
            centres: Any = None
            polygons: Any = None
            if geometry == "regular":
                regular = _regular_geometry(kind, len(data["offsets"]) - 1)
                if regular is None:
                    raise InvalidBoard(f"board kind {kind!r} has no regular geometry")
                centres = regular[0]
                polygons = np.split(regular[1], regular[2][1:-1])
            elif geometry is not None:
                centres = geometry["centres"]
                polygons = geometry["polygons"]
            labels = data.get("labels")
            return cls(
                data["offsets"],
                data["neighbours"],
                colour_count=data["colour_count"],
                starts=data["starts"],
                colours=data["colours"],
                kind=kind,
                centres=centres,
                polygons=polygons,
                labels=None if labels is None else [_label_from_json(x) for x in labels],
            )
        except InvalidBoard:
            raise
        except (StratagemError, KeyError, TypeError, ValueError) as error:
            raise InvalidBoard(f"malformed annexation board data: {error}") from error

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the board to ``path``, an ``.npz`` archive (written to exactly that path)."""
        meta = {
            "format": _FILE_FORMAT,
            "version": _FILE_VERSION,
            "kind": self.kind,
            "colour_count": self.colour_count,
            "labels": None if self.labels is None else [_label_to_json(x) for x in self.labels],
        }
        arrays: dict[str, Any] = {
            "meta": np.array(json.dumps(meta)),
            "offsets": self.offsets,
            "neighbours": self.neighbours,
            "colours": self.colours,
            "starts": self.starts,
        }
        if self.centres is not None:
            arrays["centres"] = self.centres
        if self._polygon_vertices is not None and self._polygon_offsets is not None:
            arrays["polygon_vertices"] = self._polygon_vertices
            arrays["polygon_offsets"] = self._polygon_offsets
        with open(path, "wb") as handle:
            np.savez(handle, **arrays)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Board:
        """Read a board written by :meth:`save`; everything is checked again, and a file that
        is not a valid annexation board raises ``InvalidBoard`` naming the file."""
        name = os.fspath(path)
        try:
            data = np.load(path, allow_pickle=False)
            if not isinstance(data, np.lib.npyio.NpzFile):
                raise InvalidBoard("it is not an .npz archive")
            with data:
                arrays = {key: data[key] for key in data.files}
            meta = json.loads(str(arrays["meta"][()]))
            if not isinstance(meta, dict) or meta.get("format") != _FILE_FORMAT:
                raise InvalidBoard("it is not an annexation board")
            if meta.get("version") != _FILE_VERSION:
                raise InvalidBoard(f"unknown format version {meta.get('version')!r}")
            polygons = None
            if "polygon_vertices" in arrays:
                vertex_offsets = _id_vector("polygon_offsets", arrays["polygon_offsets"])
                polygons = np.split(arrays["polygon_vertices"], vertex_offsets[1:-1])
            labels = meta.get("labels")
            return cls(
                arrays["offsets"],
                arrays["neighbours"],
                colour_count=meta["colour_count"],
                starts=arrays["starts"],
                colours=arrays["colours"],
                kind=meta["kind"],
                centres=arrays.get("centres"),
                polygons=polygons,
                labels=None if labels is None else [_label_from_json(x) for x in labels],
            )
        except (StratagemError, KeyError, TypeError, ValueError, zipfile.BadZipFile) as error:
            raise InvalidBoard(f"{name}: not a valid annexation board file: {error}") from error

    def _same_geometry(
        self, centres: FloatArray, vertices: FloatArray, polygon_offsets: IntArray
    ) -> bool:
        return (
            _same_optional(self.centres, centres)
            and _same_optional(self._polygon_vertices, vertices)
            and _same_optional(self._polygon_offsets, polygon_offsets)
        )

    # -- generators ------------------------------------------------------------------------

    @classmethod
    def hexagon(
        cls,
        radius: int,
        *,
        colour_count: int = 8,
        players: int | None = None,
        seed: int = 0,
        starts: ArrayLike | None = None,
        colours: ArrayLike | None = None,
    ) -> Board:
        """A hexagon of hexagons of radius ``radius`` >= 1: ``3 R (R + 1) + 1`` cells (217 for
        R = 8, 1027 for R = 18).

        Cells are the axial coordinates ``(q, r)`` with ``|q|, |r|, |q + r| <= R``, numbered
        row by row (``r`` from ``-R``, the top row, to ``R``), ``q`` ascending in a row.
        Pointy-top hexagons of circumradius 1, centre ``(sqrt(3) (q + r / 2), -1.5 r)``.
        Default starts: 2 players at the top-left (cell 0) and bottom-right (cell n - 1)
        corners; 3 players at every other corner (top-left, right, bottom-left); 4 players
        at top-left, bottom-right, top-right and bottom-left (players 0 and 1 opposite, 2 and
        3 opposite).
        """
        size = _validate.integer("radius", radius, 1)
        _check_size("radius", 3 * size * (size + 1) + 1)
        offsets, neighbours, centres, corners = _hexagon_parts(size)
        top_left, top_right, right, bottom_right, bottom_left, _left = corners
        layouts = {
            2: [top_left, bottom_right],
            3: [top_left, right, bottom_left],
            4: [top_left, bottom_right, top_right, bottom_left],
        }
        vertices, polygon_offsets = _tile(centres, _HEXAGON)
        return cls._make(
            offsets,
            neighbours,
            colour_count=colour_count,
            players=players,
            seed=seed,
            starts=starts,
            colours=colours,
            kind=f"hex:{size}",
            centres=centres,
            polygon_vertices=vertices,
            polygon_offsets=polygon_offsets,
            default_starts=layouts.__getitem__,
        )

    @classmethod
    def hex_rectangle(
        cls,
        width: int,
        height: int,
        *,
        colour_count: int = 8,
        players: int | None = None,
        seed: int = 0,
        starts: ArrayLike | None = None,
        colours: ArrayLike | None = None,
    ) -> Board:
        """A ``width x height`` rectangle of pointy-top hexagons in offset rows: cell
        ``row * width + column``, row 0 on top, odd rows shifted half a cell to the right
        (a cell has up to 6 neighbours). Default starts: 2 players at the top-left and
        bottom-right corners; 3 players add top-right; 4 players add bottom-left too."""
        return cls._tiled_rectangle(
            "hexrect",
            _hex_rectangle_parts,
            _HEXAGON,
            width,
            height,
            colour_count=colour_count,
            players=players,
            seed=seed,
            starts=starts,
            colours=colours,
        )

    @classmethod
    def grid(
        cls,
        width: int,
        height: int,
        *,
        colour_count: int = 8,
        players: int | None = None,
        seed: int = 0,
        starts: ArrayLike | None = None,
        colours: ArrayLike | None = None,
    ) -> Board:
        """A ``width x height`` grid of unit squares with 4 neighbours each: cell
        ``row * width + column``, row 0 on top (centre ``(column, height - 1 - row)``).
        Default starts as for :meth:`hex_rectangle`: top-left and bottom-right, then
        top-right, then bottom-left."""
        return cls._tiled_rectangle(
            "grid",
            _grid_parts,
            _SQUARE,
            width,
            height,
            colour_count=colour_count,
            players=players,
            seed=seed,
            starts=starts,
            colours=colours,
        )

    @classmethod
    def _tiled_rectangle(
        cls,
        name: str,
        parts: Callable[[int, int], tuple[IntArray, IntArray, FloatArray]],
        tile: FloatArray,
        width: int,
        height: int,
        *,
        colour_count: int,
        players: int | None,
        seed: int,
        starts: ArrayLike | None,
        colours: ArrayLike | None,
    ) -> Board:
        """A ``width x height`` board of ``tile`` polygons whose CSR and centres come from
        ``parts``, with the corner starts of :meth:`hex_rectangle` and :meth:`grid`."""
        w, h = _rectangle("width", width, "height", height)
        offsets, neighbours, centres = parts(w, h)
        vertices, polygon_offsets = _tile(centres, tile)
        return cls._make(
            offsets,
            neighbours,
            colour_count=colour_count,
            players=players,
            seed=seed,
            starts=starts,
            colours=colours,
            kind=f"{name}:{w}x{h}",
            centres=centres,
            polygon_vertices=vertices,
            polygon_offsets=polygon_offsets,
            default_starts=_rectangle_corners(w, h),
        )

    @classmethod
    def voronoi(
        cls,
        cells: int,
        *,
        colour_count: int = 8,
        players: int | None = None,
        seed: int = 0,
        starts: ArrayLike | None = None,
        colours: ArrayLike | None = None,
    ) -> Board:
        """The Voronoi tessellation of ``cells`` random points in the unit square, clipped to
        the square; two cells are neighbours when they share an edge of positive length.

        Point ``i`` (cell ``i``, also its centre) is ``(x, y)`` from words ``2 i`` and
        ``2 i + 1`` of stream ``(seed, "annexation.board.voronoi")``, each
        ``(word >> 11) * 2**-53``. The points mirrored across the four sides of the square
        bound every cell (``scipy.spatial.Voronoi``; needs ``pip install
        'stratagem[graph]'``). ``seed`` chooses both the points and the colours (from their
        own streams). Default starts: the farthest cells, as for :meth:`from_edges`.
        """
        n = _validate.integer("cells", cells, 2)
        _check_size("cells", n)
        seed = _validate.seed(seed)
        offsets, neighbours, points, vertices, polygon_offsets = _voronoi_parts(n, seed)
        return cls._make(
            offsets,
            neighbours,
            colour_count=colour_count,
            players=players,
            seed=seed,
            starts=starts,
            colours=colours,
            kind=f"voronoi:{n}",
            centres=points,
            polygon_vertices=vertices,
            polygon_offsets=polygon_offsets,
        )

    @classmethod
    def from_edges(
        cls,
        edges: ArrayLike,
        *,
        cells: int | None = None,
        colour_count: int = 8,
        players: int | None = None,
        seed: int = 0,
        starts: ArrayLike | None = None,
        colours: ArrayLike | None = None,
        centres: ArrayLike | None = None,
    ) -> Board:
        """A custom board from an ``(m, 2)`` array of cell ids, one row per edge (either
        direction). ``cells`` defaults to the largest id + 1. Default starts: the two cells
        farthest apart (double sweep), then farthest-point sampling (module docstring).
        Errors name the edge: ``edge (2, 3) is listed twice``, ``edge (4, 4) is a self-loop``,
        ``edge (2, 9): cell 9 is outside 0..7``."""
        offsets, neighbours = _csr_from_edges(edges, cells)
        return cls._make(
            offsets,
            neighbours,
            colour_count=colour_count,
            players=players,
            seed=seed,
            starts=starts,
            colours=colours,
            kind="custom",
            centres=centres,
        )

    @classmethod
    def from_networkx(
        cls,
        graph: Any,
        *,
        colour_count: int = 8,
        players: int | None = None,
        seed: int = 0,
        starts: Sequence[Hashable] | None = None,
        colours: ArrayLike | Mapping[Hashable, int] | None = None,
    ) -> Board:
        """A custom board from an undirected simple ``networkx.Graph``.

        Nodes are numbered in sorted order (insertion order when they do not sort); unless
        they are exactly ``0..n-1``, ``labels`` keeps them so that ``labels[cell]`` is the
        node of a cell. ``starts`` are node labels (default: the graph attribute ``starts``
        if present, else the farthest cells); ``colours`` is a sequence in cell order or a
        mapping node -> colour (default: the node attribute ``colour`` if every node has
        one, else drawn). ``pos`` on every node gives ``centres``.
        """
        import networkx as nx

        if not isinstance(graph, nx.Graph):
            raise InvalidParameter(f"expected a networkx graph, got {type(graph).__name__}")
        if graph.is_directed():
            raise InvalidParameter(
                "a directed graph is not a board: convert it with to_undirected()"
            )
        if graph.is_multigraph():
            for a, b, count in _multi_edges(graph):
                if count > 1:
                    raise InvalidBoard(f"edge ({a!r}, {b!r}) is listed twice")
        nodes = list(graph.nodes)
        n = len(nodes)
        _check_size("the number of nodes", n)
        identity = all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in nodes
        ) and set(nodes) == set(range(n))
        try:
            order: list[Any] = sorted(nodes)
        except TypeError:
            order = nodes
        ids = {node: i for i, node in enumerate(order)}
        for a, b in graph.edges():
            if a == b:
                raise InvalidBoard(f"edge ({a!r}, {b!r}) is a self-loop (node {a!r})")
        pairs = np.array([(ids[a], ids[b]) for a, b in graph.edges()], dtype=np.int64)
        offsets, neighbours = _csr_from_edges(pairs.reshape(-1, 2), max(n, 1))
        attributes = graph.nodes
        if starts is None:
            starts = graph.graph.get("starts")
        start_ids = None
        if starts is not None:
            if isinstance(starts, (str, bytes)) or not isinstance(starts, Iterable):
                raise InvalidParameter(f"starts must list node labels, got {starts!r}")
            start_ids = []
            for node in starts:
                if node not in ids:
                    raise InvalidBoard(f"start node {node!r} is not in the graph")
                start_ids.append(ids[node])
        colour_values: Any = colours
        if isinstance(colours, Mapping):
            missing = [node for node in order if node not in colours]
            if missing:
                raise InvalidParameter(f"colours gives no colour for node {missing[0]!r}")
            colour_values = [colours[node] for node in order]
        elif colours is None and n and all("colour" in attributes[v] for v in order):
            colour_values = [attributes[v]["colour"] for v in order]
        centres = None
        if n and all("pos" in attributes[v] for v in order):
            centres = [attributes[v]["pos"] for v in order]
        return cls._make(
            offsets,
            neighbours,
            colour_count=colour_count,
            players=players,
            seed=seed,
            starts=start_ids,
            colours=colour_values,
            kind="custom",
            centres=centres,
            labels=None if identity else order,
        )


# -- the command line ----------------------------------------------------------------------


def parse_board(
    spec: str | os.PathLike[str], *, colour_count: int = 8, players: int = 2, seed: int = 0
) -> Board:
    """A board from its command-line form: ``hex:R``, ``hexrect:WxH``, ``grid:WxH``,
    ``voronoi:N`` (generated with the given colour count, players and seed), or the path of
    a board saved with :meth:`Board.save` (which keeps its own colours, colour count, players
    and starts: the keyword arguments apply to generated boards only)."""
    if isinstance(spec, os.PathLike):
        return Board.load(spec)
    if not isinstance(spec, str):
        raise InvalidParameter(
            f"a board spec must be a string, got {spec!r}; expected {_SPEC_FORMS}"
        )
    text = spec.strip()
    match = re.fullmatch(r"(hex|hexrect|grid|voronoi):(\d+)(?:x(\d+))?", text, re.IGNORECASE)
    if match is not None:
        name, first, second = match.group(1).lower(), int(match.group(2)), match.group(3)
        options: dict[str, Any] = {"colour_count": colour_count, "players": players, "seed": seed}
        if name in ("hex", "voronoi") and second is None:
            if name == "hex":
                return Board.hexagon(first, **options)
            return Board.voronoi(first, **options)
        if name in ("hexrect", "grid") and second is not None:
            maker = Board.hex_rectangle if name == "hexrect" else Board.grid
            return maker(first, int(second), **options)
    elif os.path.isfile(text):
        return Board.load(text)
    elif text.lower().endswith(".npz"):
        raise InvalidParameter(f"board spec {spec!r}: no such board file")
    raise InvalidParameter(f"board spec {spec!r} not understood; expected {_SPEC_FORMS}")


# -- generators' parts ---------------------------------------------------------------------


def _hexagon_parts(radius: int) -> tuple[IntArray, IntArray, FloatArray, list[int]]:
    """CSR, centres and the six corners (top-left, top-right, right, bottom-right,
    bottom-left, left) of the hexagon of hexagons of ``radius``."""
    size = 2 * radius + 1
    row = np.arange(-radius, radius + 1, dtype=np.int64)
    q_low = np.maximum(-radius, -radius - row)
    lengths = size - np.abs(row)
    n = int(lengths.sum())
    r = np.repeat(row, lengths)
    row_start = np.cumsum(lengths) - lengths
    q = np.repeat(q_low, lengths) + np.arange(n, dtype=np.int64) - np.repeat(row_start, lengths)
    index = np.full((size + 2, size + 2), -1, dtype=np.int64)  # padded by one on every side
    index[r + radius + 1, q + radius + 1] = np.arange(n, dtype=np.int64)
    # Neighbours in ascending id order: the row above, the same row, the row below.
    steps = [(0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1)]
    candidates = np.stack(
        [index[r + dr + radius + 1, q + dq + radius + 1] for dq, dr in steps], axis=1
    )
    offsets, neighbours = _csr_from_candidates(candidates)
    centres = np.stack((2.0 * _HALF_ROOT3 * (q + 0.5 * r), -1.5 * r), axis=1)

    def cell(cq: int, cr: int) -> int:
        return int(index[cr + radius + 1, cq + radius + 1])

    corners = [
        cell(0, -radius),
        cell(radius, -radius),
        cell(radius, 0),
        cell(0, radius),
        cell(-radius, radius),
        cell(-radius, 0),
    ]
    return offsets, neighbours, centres, corners


def _hex_rectangle_parts(width: int, height: int) -> tuple[IntArray, IntArray, FloatArray]:
    row, column = np.divmod(np.arange(width * height, dtype=np.int64), width)
    shift = row % 2  # odd rows sit half a cell to the right
    steps = [(-1, -1), (-1, 0), (0, -1), (0, 1), (1, -1), (1, 0)]
    columns = [column + dc + (shift if dr != 0 else 0) for dr, dc in steps]
    rows = [row + dr for dr, _ in steps]
    candidates = np.stack(
        [
            np.where((rr >= 0) & (rr < height) & (cc >= 0) & (cc < width), rr * width + cc, -1)
            for rr, cc in zip(rows, columns, strict=True)
        ],
        axis=1,
    )
    offsets, neighbours = _csr_from_candidates(candidates)
    centres = np.stack(
        (2.0 * _HALF_ROOT3 * (column + 0.5 * shift), 1.5 * (height - 1 - row)), axis=1
    )
    return offsets, neighbours, centres


def _grid_parts(width: int, height: int) -> tuple[IntArray, IntArray, FloatArray]:
    row, column = np.divmod(np.arange(width * height, dtype=np.int64), width)
    ids = row * width + column
    candidates = np.stack(
        (
            np.where(row > 0, ids - width, -1),
            np.where(column > 0, ids - 1, -1),
            np.where(column < width - 1, ids + 1, -1),
            np.where(row < height - 1, ids + width, -1),
        ),
        axis=1,
    )
    offsets, neighbours = _csr_from_candidates(candidates)
    centres = np.stack((column, height - 1 - row), axis=1).astype(np.float64)
    return offsets, neighbours, centres


def _rectangle_corners(width: int, height: int) -> Callable[[int], list[int]]:
    n = width * height
    corners = [0, n - 1, width - 1, n - width]  # top-left, bottom-right, top-right, bottom-left
    return lambda players: corners[:players]


def _rectangle(width_name: str, width: object, height_name: str, height: object) -> tuple[int, int]:
    w = _validate.integer(width_name, width, 1)
    h = _validate.integer(height_name, height, 1)
    if w * h < 2:
        raise InvalidParameter(f"a board needs at least 2 cells, got {w}x{h}")
    _check_size(f"{width_name} * {height_name}", w * h)
    return w, h


def _csr_from_candidates(candidates: IntArray) -> tuple[IntArray, IntArray]:
    """CSR from an ``(n, d)`` array of neighbour ids, ascending in each row, -1 for none."""
    present = candidates >= 0
    offsets = np.zeros(candidates.shape[0] + 1, dtype=np.int64)
    np.cumsum(present.sum(axis=1), out=offsets[1:])
    return offsets, np.ascontiguousarray(candidates[present], dtype=np.int64)


def _tile(centres: FloatArray, shape: FloatArray) -> tuple[FloatArray, IntArray]:
    """The polygons ``centre + shape`` of every cell, as vertices and their offsets."""
    vertices = (centres[:, None, :] + shape[None, :, :]).reshape(-1, 2)
    offsets = np.arange(centres.shape[0] + 1, dtype=np.int64) * shape.shape[0]
    return vertices, offsets


def _regular_geometry(kind: object, cells: int) -> tuple[FloatArray, FloatArray, IntArray] | None:
    """Centres, polygon vertices and offsets of a hexagon, hex rectangle or grid board, from
    its kind; None for other kinds or when the size does not match."""
    if not isinstance(kind, str):
        return None
    match = re.fullmatch(r"(hex|hexrect|grid):(\d+)(?:x(\d+))?", kind)
    if match is None:
        return None
    name, first, second = match.group(1), int(match.group(2)), match.group(3)
    if name == "hex" and second is None and 3 * first * (first + 1) + 1 == cells:
        centres = _hexagon_parts(first)[2]
        shape = _HEXAGON
    elif name != "hex" and second is not None and first * int(second) == cells:
        parts = _hex_rectangle_parts if name == "hexrect" else _grid_parts
        centres = parts(first, int(second))[2]
        shape = _HEXAGON if name == "hexrect" else _SQUARE
    else:
        return None
    vertices, offsets = _tile(centres, shape)
    return centres, vertices, offsets


def _voronoi_parts(
    n: int, seed: int
) -> tuple[IntArray, IntArray, FloatArray, FloatArray, IntArray]:
    try:
        from scipy.spatial import Voronoi
    except ImportError as error:
        raise InvalidParameter(
            "Voronoi boards need scipy: pip install 'stratagem[graph]' (or pip install scipy)"
        ) from error
    words = rng.blocks(seed, VORONOI_PURPOSE, (), 0, -(-2 * n // 4)).ravel()[: 2 * n]
    points = ((words >> np.uint64(11)).astype(np.float64) * _UNIT).reshape(n, 2)
    x, y = points[:, 0], points[:, 1]
    mirrored = np.concatenate(
        (
            points,
            np.stack((-x, y), axis=1),
            np.stack((2.0 - x, y), axis=1),
            np.stack((x, -y), axis=1),
            np.stack((x, 2.0 - y), axis=1),
        )
    )
    diagram = Voronoi(mirrored)
    ridge_points = np.asarray(diagram.ridge_points, dtype=np.int64)
    ridge_vertices = np.array(
        [pair if len(pair) == 2 else [-1, -1] for pair in diagram.ridge_vertices], dtype=np.int64
    )
    inner = (ridge_points < n).all(axis=1) & (ridge_vertices >= 0).all(axis=1)
    ends = diagram.vertices[ridge_vertices[inner]]
    lengths = np.hypot(*(ends[:, 1] - ends[:, 0]).T)
    pairs = ridge_points[inner][lengths > _MIN_RIDGE]
    pairs.sort(axis=1)
    offsets, neighbours = _csr(pairs[:, 0], pairs[:, 1], n)
    shapes = []
    for i in range(n):
        region = diagram.regions[diagram.point_region[i]]
        corners = np.clip(diagram.vertices[[v for v in region if v >= 0]], 0.0, 1.0)
        # Counter-clockwise around the point, which lies inside its (convex) cell.
        angles = np.arctan2(corners[:, 1] - points[i, 1], corners[:, 0] - points[i, 0])
        shapes.append(corners[np.argsort(angles, kind="stable")])
    counts = np.array([shape.shape[0] for shape in shapes], dtype=np.int64)
    polygon_offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=polygon_offsets[1:])
    vertices = np.concatenate(shapes) if shapes else np.zeros((0, 2))
    return offsets, neighbours, points, vertices, polygon_offsets


# -- graph helpers -------------------------------------------------------------------------


def _sources(offsets: IntArray) -> IntArray:
    n = offsets.shape[0] - 1
    return np.repeat(np.arange(n, dtype=np.int64), np.diff(offsets))


def _csr(u: IntArray, v: IntArray, n: int) -> tuple[IntArray, IntArray]:
    """The CSR pair of the simple graph with edges ``{u[i], v[i]}`` (no loops, no repeats)."""
    keys = np.concatenate((u * n + v, v * n + u))
    keys.sort()
    np.remainder(keys, n, out=keys)
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(u, minlength=n) + np.bincount(v, minlength=n), out=offsets[1:])
    return offsets, keys


def _concatenated_ranges(starts: IntArray, counts: IntArray) -> IntArray:
    """``concatenate([arange(s, s + c) for s, c in zip(starts, counts)])``, vectorised."""
    begins = np.cumsum(counts) - counts
    return np.repeat(starts - begins, counts) + np.arange(int(counts.sum()), dtype=np.int64)


def _distances(offsets: IntArray, neighbours: IntArray, sources: Sequence[int]) -> IntArray:
    """Graph distances from the nearest of ``sources`` (-1 where unreachable)."""
    distance = np.full(offsets.shape[0] - 1, -1, dtype=np.int64)
    frontier = np.unique(np.asarray(sources, dtype=np.int64))
    distance[frontier] = 0
    level = 0
    while frontier.size:
        level += 1
        starts = offsets[frontier]
        reached = neighbours[_concatenated_ranges(starts, offsets[frontier + 1] - starts)]
        frontier = np.unique(reached[distance[reached] < 0])
        distance[frontier] = level
    return distance


def _farthest_starts(offsets: IntArray, neighbours: IntArray) -> Callable[[int], list[int]]:
    """Double sweep, then farthest-point sampling (ties to the lowest id)."""

    def choose(players: int) -> list[int]:
        a = int(np.argmax(_distances(offsets, neighbours, [0])))
        nearest = _distances(offsets, neighbours, [a])
        chosen = [a]
        while len(chosen) < players:
            cell = int(np.argmax(nearest))
            chosen.append(cell)
            nearest = np.minimum(nearest, _distances(offsets, neighbours, [cell]))
        return chosen

    return choose


def _components(n: int, u: IntArray, v: IntArray) -> IntArray:
    """The lowest cell of the connected component of every cell, for the edges ``(u, v)``:
    hooking of roots onto smaller roots and pointer jumping, O(log n) rounds."""
    label = np.arange(n, dtype=np.int64)
    while True:
        lu, lv = label[u], label[v]
        differ = lu != lv
        if not differ.any():
            return label
        lu, lv = lu[differ], lv[differ]
        parent = label.copy()
        np.minimum.at(parent, lu, lv)
        np.minimum.at(parent, lv, lu)
        while True:
            jumped = parent[parent]
            if np.array_equal(jumped, parent):
                break
            parent = jumped
        label = parent


def _region_ids(offsets: IntArray, neighbours: IntArray, colours: NDArray[Any]) -> IntArray:
    """Region of each cell, regions numbered in the order of their lowest cell."""
    sources = _sources(offsets)
    same = (neighbours > sources) & (colours[sources] == colours[neighbours])
    lowest = _components(offsets.shape[0] - 1, sources[same], neighbours[same])
    _, ids = np.unique(lowest, return_inverse=True)
    return ids.astype(np.int64).ravel()


def _draw_colours(
    offsets: IntArray, neighbours: IntArray, starts: IntArray, k: int, seed: int
) -> tuple[ColourArray, IntArray]:
    n = offsets.shape[0] - 1
    params = np.full(n, k, dtype=np.uint64)
    for attempt in range(COLOUR_ATTEMPTS):
        drawn = rng.draws(seed, COLOUR_PURPOSE, (attempt,), "uniform_below", params)
        colours = drawn.astype(np.uint8)
        regions = _region_ids(offsets, neighbours, colours)
        if np.unique(regions[starts]).shape[0] == starts.shape[0]:
            return colours, regions
    cells = ", ".join(str(s) for s in starts.tolist())
    raise InvalidBoard(
        f"no colour draw out of {COLOUR_ATTEMPTS} (seed {seed}, {k} colours) puts the start "
        f"cells {cells} in different regions"
    )


# -- checks --------------------------------------------------------------------------------


def _check_size(name: str, count: int) -> None:
    if count > MAX_CELLS:
        raise InvalidParameter(f"{name}: a board has at most {MAX_CELLS} cells, got {count}")


def _length(name: str, value: object) -> int:
    if isinstance(value, (str, bytes)):
        raise InvalidParameter(f"{name} must be a sequence of cell ids, got {value!r}")
    try:
        return len(value)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidParameter(f"{name} must be a sequence of cell ids, got {value!r}") from None


def _frozen(array: NDArray[Any]) -> NDArray[Any]:
    """A read-only C-contiguous array nothing else can write: a frozen array this module
    made (read-only, owning its data) is shared, anything else copied."""
    if not array.flags.writeable and array.base is None and array.flags.c_contiguous:
        return array
    array = np.array(array, copy=True, order="C")
    array.flags.writeable = False
    return array


def _same_optional(a: NDArray[Any] | None, b: NDArray[Any] | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return a.shape == b.shape and bool(np.array_equal(a, b))


def _integer_array(name: str, value: object, ndim: int) -> NDArray[Any]:
    """``value`` as an integer array of ``ndim`` dimensions (bools and floats refused)."""
    array = np.asarray(value)
    if array.ndim != ndim:
        raise InvalidParameter(f"{name} must have {ndim} dimension(s), got shape {array.shape}")
    if array.size == 0:
        return array.astype(np.int64)
    if array.dtype == object:
        flat = [_validate.integer(f"{name} entry", v) for v in array.ravel().tolist()]
        if min(flat) < np.iinfo(np.int64).min or max(flat) > np.iinfo(np.int64).max:
            raise InvalidBoard(f"{name} holds an id beyond 64 bits")
        return np.array(flat, dtype=np.int64).reshape(array.shape)
    if array.dtype.kind not in "iu":
        raise InvalidParameter(f"{name} must hold integers, got dtype {array.dtype}")
    return array


def _id_vector(name: str, value: object) -> IntArray:
    array = _integer_array(name, value, 1)
    if array.dtype.kind == "u" and array.size and int(array.max()) > np.iinfo(np.int64).max:
        raise InvalidBoard(f"{name} holds {int(array.max())}, beyond any cell id")
    return np.array(array, dtype=np.int64)


def _check_csr(offsets: IntArray, neighbours: IntArray) -> None:
    """Refuse a CSR pair that is not an undirected simple graph, naming the cell."""
    n = offsets.shape[0] - 1
    if n < 2:
        raise InvalidBoard(
            f"a board needs at least 2 cells: offsets must have n + 1 >= 3 entries, got {n + 1}"
        )
    if offsets[0] != 0 or offsets[-1] != neighbours.shape[0]:
        raise InvalidBoard(
            f"offsets must start at 0 and end at len(neighbours) = {neighbours.shape[0]}, got "
            f"{offsets[0]} and {offsets[-1]}"
        )
    degree = np.diff(offsets)
    bad = np.flatnonzero(degree < 0)
    if bad.size:
        x = int(bad[0])
        raise InvalidBoard(f"offsets decrease at cell {x}: {offsets[x]} then {offsets[x + 1]}")
    sources = _sources(offsets)
    bad = np.flatnonzero((neighbours < 0) | (neighbours >= n))
    if bad.size:
        e = int(bad[0])
        raise InvalidBoard(f"cell {sources[e]} has neighbour {neighbours[e]}, outside 0..{n - 1}")
    bad = np.flatnonzero(neighbours == sources)
    if bad.size:
        x = int(sources[bad[0]])
        raise InvalidBoard(f"edge ({x}, {x}) is a self-loop: cell {x} lists itself as a neighbour")
    same_row = sources[1:] == sources[:-1]
    bad = np.flatnonzero(same_row & (neighbours[1:] == neighbours[:-1]))
    if bad.size:
        x, y = sorted((int(sources[bad[0]]), int(neighbours[bad[0]])))
        raise InvalidBoard(f"edge ({x}, {y}) is listed twice")
    bad = np.flatnonzero(same_row & (neighbours[1:] < neighbours[:-1]))
    if bad.size:
        e = int(bad[0])
        raise InvalidBoard(
            f"the neighbours of cell {sources[e]} are not in ascending order: "
            f"{neighbours[e]} then {neighbours[e + 1]}"
        )
    keys = sources * n + neighbours
    reversed_keys = np.sort(neighbours * n + sources)
    where = np.minimum(np.searchsorted(reversed_keys, keys), max(keys.shape[0] - 1, 0))
    bad = np.flatnonzero(reversed_keys[where] != keys) if keys.size else np.zeros(0, np.int64)
    if bad.size:
        x, y = int(sources[bad[0]]), int(neighbours[bad[0]])
        raise InvalidBoard(f"cell {x} lists {y} as a neighbour but {y} does not list {x}")


def _check_cells(offsets: IntArray, neighbours: IntArray) -> None:
    """Every cell has a neighbour and the board is connected."""
    lonely = np.flatnonzero(np.diff(offsets) == 0)
    if lonely.size:
        raise InvalidBoard(f"cell {lonely[0]} has no neighbours")
    unreached = np.flatnonzero(_distances(offsets, neighbours, [0]) < 0)
    if unreached.size:
        raise InvalidBoard(f"cell {unreached[0]} cannot be reached from cell 0")


def _csr_from_edges(edges: ArrayLike, cells: int | None) -> tuple[IntArray, IntArray]:
    """Check an edge list (shape, ids, self-loops, repeats) and build its CSR pair."""
    if cells is not None:
        cells = _validate.integer("cells", cells, 2)
        _check_size("cells", cells)
    array = np.asarray(edges)
    if array.size == 0 and array.shape in ((0,), (0, 2)):
        pairs = np.zeros((0, 2), dtype=np.int64)
    else:
        if array.ndim != 2 or array.shape[1] != 2:
            raise InvalidParameter(f"edges must have shape (m, 2), got shape {array.shape}")
        pairs = _integer_array("edges", array, 2)
        if pairs.dtype.kind == "u" and int(pairs.max()) > np.iinfo(np.int64).max:
            raise InvalidBoard(f"edges hold cell {int(pairs.max())}, beyond any cell id")
        pairs = np.array(pairs, dtype=np.int64)
    high = MAX_CELLS if cells is None else cells
    outside = np.flatnonzero(((pairs < 0) | (pairs >= high)).any(axis=1))
    if outside.size:
        a, b = (int(v) for v in pairs[outside[0]])
        value = a if not 0 <= a < high else b
        limit = (
            f"outside 0..{cells - 1}"
            if cells is not None
            else ("negative" if value < 0 else f"beyond the limit of {MAX_CELLS} cells")
        )
        raise InvalidBoard(f"edge ({a}, {b}): cell {value} is {limit}")
    if cells is None:
        if pairs.shape[0] == 0:
            raise InvalidBoard("a board needs at least 2 cells and an edge; no edges given")
        cells = int(pairs.max()) + 1
    loops = np.flatnonzero(pairs[:, 0] == pairs[:, 1])
    if loops.size:
        a = int(pairs[loops[0], 0])
        raise InvalidBoard(f"edge ({a}, {a}) is a self-loop")
    low, high_end = pairs.min(axis=1), pairs.max(axis=1)
    keys = low * cells + high_end
    ordered = np.sort(keys)
    repeated = np.flatnonzero(ordered[1:] == ordered[:-1])
    if repeated.size:
        # The first edge (in input order) that repeats an earlier one.
        seen: set[int] = set()
        for i, key in enumerate(keys.tolist()):
            if key in seen:
                raise InvalidBoard(f"edge ({low[i]}, {high_end[i]}) is listed twice")
            seen.add(key)
    if cells < 2:
        raise InvalidBoard(f"a board needs at least 2 cells, got {cells}")
    return _csr(ordered // cells, ordered % cells, cells)


def _multi_edges(graph: Any) -> Iterable[tuple[Any, Any, int]]:
    for a, b in set(graph.edges()):
        yield a, b, graph.number_of_edges(a, b)


def _check_distinct_starts(starts: IntArray) -> None:
    values = starts.tolist()
    for q, cell in enumerate(values):
        if cell in values[:q]:
            raise InvalidBoard(
                f"start cells of players {values.index(cell)} and {q} are both cell {cell}"
            )


def _check_starts(starts: ArrayLike, n: int, players: int) -> IntArray:
    array = _integer_array("starts", starts, 1)
    if array.shape[0] != players:
        raise InvalidParameter(
            f"starts must list one cell per player ({players}), got {array.shape[0]}"
        )
    for q, cell in enumerate(array.tolist()):
        if not 0 <= cell < n:
            raise InvalidBoard(f"start cell of player {q} is {cell}, outside 0..{n - 1}")
    result = np.array(array, dtype=np.int64)
    _check_distinct_starts(result)
    return result


def _check_colours(colours: ArrayLike, n: int, k: int) -> ColourArray:
    array = np.asarray(colours)
    if array.shape != (n,):
        raise InvalidParameter(
            f"colours must have one entry per cell ({n}), got shape {array.shape}"
        )
    array = _integer_array("colours", array, 1)
    bad = np.flatnonzero((array < 0) | (array >= k))
    if bad.size:
        i = int(bad[0])
        raise InvalidBoard(f"cell {i} has colour {array[i]}, outside 0..{k - 1}")
    return array.astype(np.uint8)


def _check_start_regions(starts: IntArray, colours: ColourArray, regions: IntArray) -> None:
    cells = starts.tolist()
    for q, a in enumerate(cells):
        for b in cells[q + 1 :]:
            if regions[a] == regions[b]:
                raise InvalidBoard(
                    f"start cells {a} and {b} lie in one region of colour {colours[a]}"
                )


def _check_centres(centres: ArrayLike | None, n: int) -> FloatArray | None:
    if centres is None:
        return None
    array = np.asarray(centres)
    if array.dtype.kind not in "iuf":
        raise InvalidParameter(f"centres must be numbers, got dtype {array.dtype}")
    if array.shape != (n, 2):
        raise InvalidParameter(f"centres must have shape ({n}, 2), got {array.shape}")
    result = np.array(array, dtype=np.float64)
    bad = np.flatnonzero(~np.isfinite(result).all(axis=1))
    if bad.size:
        raise InvalidParameter(
            f"the centre of cell {bad[0]} is not finite: {result[bad[0]].tolist()}"
        )
    return result


def _check_polygons(
    polygons: Sequence[ArrayLike] | None, n: int
) -> tuple[FloatArray | None, IntArray | None]:
    if polygons is None:
        return None, None
    if isinstance(polygons, (str, bytes, np.ndarray)) or not isinstance(polygons, Sequence):
        raise InvalidParameter("polygons must be a sequence of (m, 2) vertex arrays, one per cell")
    if len(polygons) != n:
        raise InvalidParameter(f"polygons must have one entry per cell ({n}), got {len(polygons)}")
    shapes = []
    for cell, polygon in enumerate(polygons):
        array = np.asarray(polygon)
        if (
            array.dtype.kind not in "iuf"
            or array.ndim != 2
            or array.shape[1] != 2
            or array.shape[0] < 3
        ):
            raise InvalidParameter(
                f"the polygon of cell {cell} must be an (m, 2) array of numbers with m >= 3, "
                f"got shape {array.shape}"
            )
        if not np.isfinite(array).all():
            raise InvalidParameter(f"the polygon of cell {cell} has a vertex that is not finite")
        shapes.append(np.array(array, dtype=np.float64))
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum([shape.shape[0] for shape in shapes], out=offsets[1:])
    return np.concatenate(shapes), offsets


def _check_labels(labels: Sequence[Hashable] | None, n: int) -> tuple[Hashable, ...] | None:
    if labels is None:
        return None
    if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable):
        raise InvalidParameter(f"labels must be a sequence of node labels, got {labels!r}")
    result = tuple(labels)
    if len(result) != n:
        raise InvalidParameter(f"labels must have one entry per cell ({n}), got {len(result)}")
    seen: dict[Hashable, int] = {}
    for cell, label in enumerate(result):
        if not isinstance(label, Hashable):
            raise InvalidParameter(f"the label of cell {cell} is not hashable: {label!r}")
        if label in seen:
            raise InvalidParameter(f"cells {seen[label]} and {cell} have the same label {label!r}")
        seen[label] = cell
    return result


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


def _rebuild(state: dict[str, Any]) -> Board:
    """Unpickling: the pickled board was checked when it was made."""
    board = object.__new__(Board)
    for slot, value in state.items():
        object.__setattr__(board, slot, _frozen(value) if isinstance(value, np.ndarray) else value)
    object.__setattr__(board, "_polygons", None)
    return board
