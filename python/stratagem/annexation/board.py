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
>>> parse_board("grid:3x4", players=4).starts.tolist()
[0, 11, 3, 8]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, TypedDict, Unpack

import numpy as np
from numpy.typing import ArrayLike, NDArray

from stratagem import _validate, graph, rng
from stratagem.annexation.boards import board_files, layouts
from stratagem.annexation.boards.layouts import MAX_CELLS, VORONOI_PURPOSE, Layout
from stratagem.errors import InvalidBoard, InvalidParameter
from stratagem.graph import FloatArray, IntArray

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

ColourArray = NDArray[np.uint8]

MIN_COLOURS = 3
MAX_COLOURS = 16
MIN_PLAYERS = 2
MAX_PLAYERS = 4
#: Colour draws tried before giving up on putting the start cells in different regions.
COLOUR_ATTEMPTS = 1000
COLOUR_PURPOSE = "annexation.colours"


class _BoardOptions(TypedDict, total=False):
    """The keyword options every board constructor takes (:class:`Board` says what they
    mean and their defaults)."""

    colour_count: int
    players: int | None
    seed: int
    starts: ArrayLike | None
    colours: ArrayLike | None


# The shared CSR check (stratagem.graph) in annexation's words.
_GRAPH_CHECK = graph.GraphShape(
    node="cell",
    offsets_name="offsets",
    neighbours_name="neighbours",
    min_nodes=2,
    max_nodes=2**32 - 1,  # the engine numbers cells with 32 bits
    isolated_ok=False,
    connected=True,
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
        offsets_array = graph.id_vector("offsets", offsets, node="cell", objects=True)
        neighbours_array = graph.id_vector("neighbours", neighbours, node="cell", objects=True)
        graph.check_graph(offsets_array, neighbours_array, _GRAPH_CHECK)
        vertices, polygon_offsets = layouts.check_polygons(polygons, offsets_array.shape[0] - 1)
        layout = Layout(
            offsets_array,
            neighbours_array,
            kind,
            centres=centres,
            polygon_vertices=vertices,
            polygon_offsets=polygon_offsets,
            labels=labels,
        )
        self._setup(
            layout,
            checked=True,
            colour_count=colour_count,
            players=players,
            seed=seed,
            starts=starts,
            colours=colours,
        )

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def _make(cls, layout: Layout, **options: Unpack[_BoardOptions]) -> Board:
        """A board from a layout whose CSR pair was built correctly (its structure is not
        checked again; connectivity, starts and colours are)."""
        board = object.__new__(cls)
        board._setup(layout, checked=False, **options)
        return board

    def _setup(self, layout: Layout, *, checked: bool, **options: Unpack[_BoardOptions]) -> None:
        """Checks the options (their defaults are the constructor's) against the layout, and
        its CSR structure too unless ``checked``, and fills the slots."""
        offsets, neighbours, kind = layout.offsets, layout.neighbours, layout.kind
        polygon_vertices, polygon_offsets = layout.polygon_vertices, layout.polygon_offsets
        starts, colours = options.get("starts"), options.get("colours")
        k, p = _colours_and_players(options.get("colour_count", 8), options.get("players"), starts)
        seed = _validate.seed(options.get("seed", 0))
        if not isinstance(kind, str):
            raise InvalidParameter(f"kind must be a string, got {kind!r}")
        n = offsets.shape[0] - 1
        if not checked:
            if n < 2:
                raise InvalidBoard(f"a board needs at least 2 cells, got {n}")
            graph.check_reach(offsets, neighbours, node="cell", isolated_ok=False, connected=True)
        if n < p:
            raise InvalidParameter(f"a board of {n} cells cannot hold {p} players")
        if starts is None:
            chosen = (layout.default_starts or layouts.farthest_starts(offsets, neighbours))(p)
            start_array = np.array(chosen, dtype=np.int64)
            _check_distinct_starts(start_array)
        else:
            start_array = _check_starts(starts, n, p)
        colour_array, regions = _colouring(
            offsets, neighbours, start_array, colours, k=k, seed=seed
        )
        checked_centres = _validate.points("centres", layout.centres, n)
        if checked_centres is None and polygon_vertices is not None and polygon_offsets is not None:
            sums = np.add.reduceat(polygon_vertices, polygon_offsets[:-1], axis=0)
            checked_centres = sums / np.diff(polygon_offsets)[:, None]
        values: dict[str, Any] = {
            "cells": n,
            "offsets": graph.frozen(offsets),
            "neighbours": graph.frozen(neighbours),
            "colours": graph.frozen(colour_array),
            "colour_count": k,
            "players": p,
            "starts": graph.frozen(start_array),
            "kind": kind,
            "centres": None if checked_centres is None else graph.frozen(checked_centres),
            "labels": _validate.distinct_entries(
                "labels",
                layout.labels,
                n,
                "cell",
                entry=(Hashable, "hashable label"),
                repeated=InvalidParameter,
            ),
            "_polygon_vertices": None
            if polygon_vertices is None
            else graph.frozen(polygon_vertices),
            "_polygon_offsets": None if polygon_offsets is None else graph.frozen(polygon_offsets),
            "_polygons": None,
            "_regions": graph.frozen(regions),
            "_region_count": int(regions.max()) + 1,
        }
        for slot, value in values.items():
            object.__setattr__(self, slot, value)

    def _replace_colours(self, *, colours: ArrayLike | None, seed: int) -> Board:
        layout = Layout(
            self.offsets,
            self.neighbours,
            self.kind,
            centres=self.centres,
            polygon_vertices=self._polygon_vertices,
            polygon_offsets=self._polygon_offsets,
            labels=self.labels,
        )
        return type(self)._make(
            layout,
            colour_count=self.colour_count,
            players=self.players,
            seed=seed,
            starts=self.starts,
            colours=colours,
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
        sources = graph.sources(self.offsets)
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
            and board_files.same_optional(self.centres, other.centres)
            and board_files.same_optional(self._polygon_offsets, other._polygon_offsets)
            and board_files.same_optional(self._polygon_vertices, other._polygon_vertices)
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

    def _data(self) -> dict[str, Any]:
        """The board as plain arrays and values by name, what its files are written from."""
        return {slot.lstrip("_"): getattr(self, slot) for slot in self.__slots__}

    def to_dict(self) -> dict[str, Any]:
        """The board as JSON-able data (lists, numbers, strings), for embedding in a saved
        game; :meth:`from_dict` reads it back (checking everything again). The geometry of a
        hexagon, hex rectangle or grid board is rebuilt from ``kind`` rather than stored."""
        return board_files.to_dict(self._data())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Board:
        """The board :meth:`to_dict` described; anything missing or malformed raises
        ``InvalidBoard``."""
        return board_files.from_dict(cls, data)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the board to ``path``, an ``.npz`` archive (written to exactly that path)."""
        board_files.save(self._data(), path)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Board:
        """Read a board written by :meth:`save`; everything is checked again, and a file that
        is not a valid annexation board raises ``InvalidBoard`` naming the file."""
        return board_files.load(cls, path)

    # -- generators ------------------------------------------------------------------------

    @classmethod
    def hexagon(cls, radius: int, **options: Unpack[_BoardOptions]) -> Board:
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
        return cls._make(layouts.hexagon(radius), **options)

    @classmethod
    def hex_rectangle(cls, width: int, height: int, **options: Unpack[_BoardOptions]) -> Board:
        """A ``width x height`` rectangle of pointy-top hexagons in offset rows: cell
        ``row * width + column``, row 0 on top, odd rows shifted half a cell to the right
        (a cell has up to 6 neighbours). Default starts: 2 players at the top-left and
        bottom-right corners; 3 players add top-right; 4 players add bottom-left too."""
        return cls._make(layouts.hex_rectangle(width, height), **options)

    @classmethod
    def grid(cls, width: int, height: int, **options: Unpack[_BoardOptions]) -> Board:
        """A ``width x height`` grid of unit squares with 4 neighbours each: cell
        ``row * width + column``, row 0 on top (centre ``(column, height - 1 - row)``).
        Default starts as for :meth:`hex_rectangle`: top-left and bottom-right, then
        top-right, then bottom-left."""
        return cls._make(layouts.grid(width, height), **options)

    @classmethod
    def voronoi(cls, cells: int, **options: Unpack[_BoardOptions]) -> Board:
        """The Voronoi tessellation of ``cells`` random points in the unit square, clipped to
        the square; two cells are neighbours when they share an edge of positive length.

        Point ``i`` (cell ``i``, also its centre) is ``(x, y)`` from words ``2 i`` and
        ``2 i + 1`` of stream ``(seed, "annexation.board.voronoi")``, each
        ``(word >> 11) * 2**-53``. The points mirrored across the four sides of the square
        bound every cell (``scipy.spatial.Voronoi``; needs ``pip install
        'stratagem[graph]'``). ``seed`` chooses both the points and the colours (from their
        own streams). Default starts: the farthest cells, as for :meth:`from_edges`.
        """
        points_seed = options.get("seed", 0)  # the colours' seed chooses the points too
        return cls._make(layouts.voronoi(cells, points_seed), **options)

    @classmethod
    def from_edges(
        cls,
        edges: ArrayLike,
        *,
        cells: int | None = None,
        centres: ArrayLike | None = None,
        **options: Unpack[_BoardOptions],
    ) -> Board:
        """A custom board from an ``(m, 2)`` array of cell ids, one row per edge (either
        direction). ``cells`` defaults to the largest id + 1. Default starts: the two cells
        farthest apart (double sweep), then farthest-point sampling (module docstring).
        Errors name the edge: ``edge (2, 3) is listed twice``, ``edge (4, 4) is a self-loop``,
        ``edge (2, 9): cell 9 is outside 0..7``."""
        return cls._make(layouts.from_edges(edges, cells, centres), **options)

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
        layout, start_ids, colour_values = layouts.from_networkx(graph, starts, colours)
        return cls._make(
            layout,
            colour_count=colour_count,
            players=players,
            seed=seed,
            starts=start_ids,
            colours=colour_values,
        )


# -- the command line ----------------------------------------------------------------------


def parse_board(
    spec: str | os.PathLike[str], *, colour_count: int = 8, players: int = 2, seed: int = 0
) -> Board:
    """A board from its command-line form: ``hex:R``, ``hexrect:RxC``, ``grid:RxC``,
    ``voronoi:N`` (generated with the given colour count, players and seed), or the path of
    a board saved with :meth:`Board.save` (which keeps its own colours, colour count, players
    and starts: the keyword arguments apply to generated boards only)."""
    name, arguments = layouts.parse_spec(spec)
    if name == "load":
        return Board.load(arguments)
    maker: Callable[..., Board] = getattr(Board, name)
    return maker(*arguments, colour_count=colour_count, players=players, seed=seed)


# -- colours -------------------------------------------------------------------------------


def _region_ids(offsets: IntArray, neighbours: IntArray, colours: NDArray[Any]) -> IntArray:
    """Region of each cell, regions numbered in the order of their lowest cell."""
    sources = graph.sources(offsets)
    same = (neighbours > sources) & (colours[sources] == colours[neighbours])
    lowest = graph.components(offsets.shape[0] - 1, sources[same], neighbours[same])
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


def _length(name: str, value: object) -> int:
    if isinstance(value, (str, bytes)):
        raise InvalidParameter(f"{name} must be a sequence of cell ids, got {value!r}")
    try:
        return len(value)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidParameter(f"{name} must be a sequence of cell ids, got {value!r}") from None


def _colours_and_players(
    colour_count: int, players: int | None, starts: ArrayLike | None
) -> tuple[int, int]:
    """The number of colours and of players, checked against each other."""
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
    return k, p


def _colouring(
    offsets: IntArray,
    neighbours: IntArray,
    starts: IntArray,
    colours: ArrayLike | None,
    *,
    k: int,
    seed: int,
) -> tuple[ColourArray, IntArray]:
    """The cells' colours (drawn with ``seed`` when not given, else checked) and regions."""
    if colours is None:
        return _draw_colours(offsets, neighbours, starts, k, seed)
    colour_array = _check_colours(colours, offsets.shape[0] - 1, k)
    regions = _region_ids(offsets, neighbours, colour_array)
    _check_start_regions(starts, colour_array, regions)
    return colour_array, regions


def _check_distinct_starts(starts: IntArray) -> None:
    values = starts.tolist()
    for q, cell in enumerate(values):
        if cell in values[:q]:
            raise InvalidBoard(
                f"start cells of players {values.index(cell)} and {q} are both cell {cell}"
            )


def _check_starts(starts: ArrayLike, n: int, players: int) -> IntArray:
    array = graph.integer_array("starts", starts, 1)
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
    array = graph.integer_array("colours", array, 1)
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


def _rebuild(state: dict[str, Any]) -> Board:
    """Unpickling: the pickled board was checked when it was made."""
    board = object.__new__(Board)
    for slot, value in state.items():
        object.__setattr__(
            board, slot, graph.frozen(value) if isinstance(value, np.ndarray) else value
        )
    object.__setattr__(board, "_polygons", None)
    return board
