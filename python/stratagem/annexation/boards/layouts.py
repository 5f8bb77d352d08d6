"""How annexation boards are laid out: the hexagon, hex rectangle, grid and Voronoi
generators, boards from edge lists and networkx graphs, the default start cells, and the
command-line board specs (the rules of each are in :mod:`stratagem.annexation.board`).

Nothing here builds a :class:`~stratagem.annexation.board.Board`: each generator returns a
:class:`Layout` (the checked CSR pair, kind, geometry and default starts) that the board's
class methods turn into a board, so this module does not import the board module.

>>> layout = grid(3, 2)
>>> layout.kind, layout.offsets.tolist(), layout.neighbours[:3].tolist()
('grid:2x3', [0, 2, 5, 7, 9, 12, 14], [1, 3, 0])
>>> parse_spec("hex:4"), parse_spec("grid:4x3")
(('hexagon', (4,)), ('grid', (3, 4)))
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from stratagem import _validate, graph, rng
from stratagem.errors import InvalidBoard, InvalidParameter
from stratagem.graph import FloatArray, IntArray

__all__ = [
    "MAX_CELLS",
    "MAX_VORONOI_CELLS",
    "VORONOI_PURPOSE",
    "Layout",
    "check_polygons",
    "check_size",
    "farthest_starts",
    "from_edges",
    "from_networkx",
    "grid",
    "hex_rectangle",
    "hexagon",
    "parse_spec",
    "regular_geometry",
    "voronoi",
]

#: The largest board the generators build (a bound against typing errors, not a rule).
MAX_CELLS = 1 << 24
#: The most cells of a Voronoi board (2**18): building one takes time in proportion to its
#: cells (about 20 s for 200,000 on a 2-core machine), so more is refused before it starts.
MAX_VORONOI_CELLS = 1 << 18
VORONOI_PURPOSE = "annexation.board.voronoi"

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
    "hex:R (a hexagon of radius R), hexrect:RxC (a rectangle of hexagons, R rows of C), "
    "grid:RxC (a square grid, R rows of C), voronoi:N (N Voronoi cells), or the path of a "
    "board saved with Board.save (.npz)"
)


@dataclass(frozen=True)
class Layout:
    """A board's graph and geometry before colours and starts: the CSR pair (built correctly
    here, so not checked again), ``kind``, optional centres, polygons (vertices and their
    offsets) and node labels, and the default start cells for 2..4 players (None: the
    farthest cells, :func:`farthest_starts`)."""

    offsets: IntArray
    neighbours: IntArray
    kind: str
    centres: ArrayLike | None = None
    polygon_vertices: FloatArray | None = None
    polygon_offsets: IntArray | None = None
    labels: Sequence[Hashable] | None = None
    default_starts: Callable[[int], list[int]] | None = None


# -- generators ------------------------------------------------------------------------------


def hexagon(radius: int) -> Layout:
    """The hexagon of hexagons of ``radius`` (:meth:`Board.hexagon
    <stratagem.annexation.board.Board.hexagon>`)."""
    size = _validate.integer("radius", radius, 1)
    check_size("radius", 3 * size * (size + 1) + 1)
    offsets, neighbours, centres, corners = _hexagon_parts(size)
    top_left, top_right, right, bottom_right, bottom_left, _left = corners
    layouts = {
        2: [top_left, bottom_right],
        3: [top_left, right, bottom_left],
        4: [top_left, bottom_right, top_right, bottom_left],
    }
    return _tiled(offsets, neighbours, f"hex:{size}", centres, _HEXAGON, starts=layouts.__getitem__)


def hex_rectangle(width: int, height: int) -> Layout:
    """A ``width x height`` rectangle of hexagons in offset rows."""
    return _tiled_rectangle("hexrect", _hex_rectangle_parts, _HEXAGON, width, height)


def grid(width: int, height: int) -> Layout:
    """A ``width x height`` grid of unit squares with 4 neighbours each."""
    return _tiled_rectangle("grid", _grid_parts, _SQUARE, width, height)


def _tiled_rectangle(
    name: str,
    parts: Callable[[int, int], tuple[IntArray, IntArray, FloatArray]],
    tile: FloatArray,
    width: int,
    height: int,
) -> Layout:
    """A ``width x height`` board of ``tile`` polygons whose CSR and centres come from
    ``parts``, with the corner starts of :func:`hex_rectangle` and :func:`grid`. Its kind
    gives rows by columns, ``name:HxW``, as every game's grid specs do."""
    w, h = _rectangle("width", width, "height", height)
    offsets, neighbours, centres = parts(w, h)
    return _tiled(
        offsets, neighbours, f"{name}:{h}x{w}", centres, tile, starts=_rectangle_corners(w, h)
    )


def voronoi(cells: int, seed: int) -> Layout:
    """The Voronoi tessellation of ``cells`` random points of stream ``(seed,
    VORONOI_PURPOSE)`` (:meth:`Board.voronoi <stratagem.annexation.board.Board.voronoi>`)."""
    n = _validate.integer("cells", cells, 2)
    check_size("cells", n)
    if n > MAX_VORONOI_CELLS:
        raise InvalidParameter(
            f"voronoi:{n}: a Voronoi board has at most {MAX_VORONOI_CELLS:,} cells"
        )
    seed = _validate.seed(seed)
    offsets, neighbours, points, vertices, polygon_offsets = _voronoi_parts(n, seed)
    return Layout(
        offsets,
        neighbours,
        f"voronoi:{n}",
        centres=points,
        polygon_vertices=vertices,
        polygon_offsets=polygon_offsets,
    )


def from_edges(edges: ArrayLike, cells: int | None, centres: ArrayLike | None) -> Layout:
    """A custom board from an ``(m, 2)`` array of cell ids (:meth:`Board.from_edges
    <stratagem.annexation.board.Board.from_edges>`)."""
    offsets, neighbours = _csr_from_edges(edges, cells)
    return Layout(offsets, neighbours, "custom", centres=centres)


def from_networkx(
    nx_graph: Any,
    starts: Sequence[Hashable] | None,
    colours: ArrayLike | Mapping[Hashable, int] | None,
) -> tuple[Layout, list[int] | None, Any]:
    """The layout of an undirected simple networkx graph, with the start cells and colours
    (in cell order) that the arguments or the graph's attributes give
    (:meth:`Board.from_networkx <stratagem.annexation.board.Board.from_networkx>`)."""
    import networkx as nx

    if not isinstance(nx_graph, nx.Graph):
        raise InvalidParameter(f"expected a networkx graph, got {type(nx_graph).__name__}")
    if nx_graph.is_directed():
        raise InvalidParameter("a directed graph is not a board: convert it with to_undirected()")
    if nx_graph.is_multigraph():
        for a, b, count in _multi_edges(nx_graph):
            if count > 1:
                raise InvalidBoard(f"edge ({a!r}, {b!r}) is listed twice")
    nodes = list(nx_graph.nodes)
    n = len(nodes)
    check_size("the number of nodes", n)
    identity = all(
        isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in nodes
    ) and set(nodes) == set(range(n))
    try:
        order: list[Any] = sorted(nodes)
    except TypeError:
        order = nodes
    ids = {node: i for i, node in enumerate(order)}
    for a, b in nx_graph.edges():
        if a == b:
            raise InvalidBoard(f"edge ({a!r}, {b!r}) is a self-loop (node {a!r})")
    pairs = np.array([(ids[a], ids[b]) for a, b in nx_graph.edges()], dtype=np.int64)
    offsets, neighbours = _csr_from_edges(pairs.reshape(-1, 2), max(n, 1))
    attributes = nx_graph.nodes
    start_ids = _start_ids(nx_graph.graph.get("starts") if starts is None else starts, ids)
    colour_values = _node_colours(colours, order, attributes)
    centres = None
    if n and all("pos" in attributes[v] for v in order):
        centres = [attributes[v]["pos"] for v in order]
    layout = Layout(
        offsets, neighbours, "custom", centres=centres, labels=None if identity else order
    )
    return layout, start_ids, colour_values


def _start_ids(starts: object, ids: Mapping[Hashable, int]) -> list[int] | None:
    """The cells of the start nodes named by their labels (None: none named)."""
    if starts is None:
        return None
    if isinstance(starts, (str, bytes)) or not isinstance(starts, Iterable):
        raise InvalidParameter(f"starts must list node labels, got {starts!r}")
    start_ids = []
    for node in starts:
        if node not in ids:
            raise InvalidBoard(f"start node {node!r} is not in the graph")
        start_ids.append(ids[node])
    return start_ids


def _node_colours(
    colours: ArrayLike | Mapping[Hashable, int] | None, order: list[Any], attributes: Any
) -> Any:
    """The colours in cell order: given by label, given in order, or the nodes' ``colour``."""
    if isinstance(colours, Mapping):
        missing = [node for node in order if node not in colours]
        if missing:
            raise InvalidParameter(f"colours gives no colour for node {missing[0]!r}")
        return [colours[node] for node in order]
    if colours is None and order and all("colour" in attributes[v] for v in order):
        return [attributes[v]["colour"] for v in order]
    return colours


def farthest_starts(offsets: IntArray, neighbours: IntArray) -> Callable[[int], list[int]]:
    """Double sweep, then farthest-point sampling (ties to the lowest id)."""

    def choose(players: int) -> list[int]:
        a = int(np.argmax(graph.distances(offsets, neighbours, [0])))
        nearest = graph.distances(offsets, neighbours, [a])
        chosen = [a]
        while len(chosen) < players:
            cell = int(np.argmax(nearest))
            chosen.append(cell)
            nearest = np.minimum(nearest, graph.distances(offsets, neighbours, [cell]))
        return chosen

    return choose


# -- the command line ------------------------------------------------------------------------


def parse_spec(spec: str | os.PathLike[str]) -> tuple[str, Any]:
    """What a command-line board spec asks for: ``("load", path)`` for a saved board, else
    the name of the :class:`~stratagem.annexation.board.Board` generator and its positional
    arguments (:func:`~stratagem.annexation.board.parse_board`)."""
    if isinstance(spec, os.PathLike):
        return "load", spec
    if not isinstance(spec, str):
        raise InvalidParameter(
            f"a board spec must be a string, got {spec!r}; expected {_SPEC_FORMS}"
        )
    text = spec.strip()
    match = re.fullmatch(r"(hex|hexrect|grid|voronoi):(\d+)(?:x(\d+))?", text, re.IGNORECASE)
    if match is not None:
        name, first, second = match.group(1).lower(), int(match.group(2)), match.group(3)
        if name in ("hex", "voronoi") and second is None:
            return ("hexagon" if name == "hex" else "voronoi"), (first,)
        if name in ("hexrect", "grid") and second is not None:
            # Rows by columns; the generators take the width (columns) first.
            return ("hex_rectangle" if name == "hexrect" else "grid"), (int(second), first)
    elif os.path.isfile(text):
        return "load", text
    elif text.lower().endswith(".npz"):
        raise InvalidParameter(f"board spec {spec!r}: no such board file")
    raise InvalidParameter(f"board spec {spec!r} not understood; expected {_SPEC_FORMS}")


# -- generators' parts -----------------------------------------------------------------------


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
    check_size(f"{width_name} * {height_name}", w * h)
    return w, h


def _csr_from_candidates(candidates: IntArray) -> tuple[IntArray, IntArray]:
    """CSR from an ``(n, d)`` array of neighbour ids, ascending in each row, -1 for none."""
    present = candidates >= 0
    offsets = np.zeros(candidates.shape[0] + 1, dtype=np.int64)
    np.cumsum(present.sum(axis=1), out=offsets[1:])
    return offsets, np.ascontiguousarray(candidates[present], dtype=np.int64)


def _tiled(
    offsets: IntArray,
    neighbours: IntArray,
    kind: str,
    centres: FloatArray,
    shape: FloatArray,
    *,
    starts: Callable[[int], list[int]],
) -> Layout:
    """The layout of a regular board, each cell drawn as the polygon ``centre + shape``."""
    vertices, polygon_offsets = _tile(centres, shape)
    return Layout(
        offsets,
        neighbours,
        kind,
        centres=centres,
        polygon_vertices=vertices,
        polygon_offsets=polygon_offsets,
        default_starts=starts,
    )


def _tile(centres: FloatArray, shape: FloatArray) -> tuple[FloatArray, IntArray]:
    """The polygons ``centre + shape`` of every cell, as vertices and their offsets."""
    vertices = (centres[:, None, :] + shape[None, :, :]).reshape(-1, 2)
    offsets = np.arange(centres.shape[0] + 1, dtype=np.int64) * shape.shape[0]
    return vertices, offsets


def regular_geometry(kind: object, cells: int) -> tuple[FloatArray, FloatArray, IntArray] | None:
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
        centres = parts(int(second), first)[2]  # the kind gives rows by columns
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
    offsets, neighbours = graph.csr(pairs[:, 0], pairs[:, 1], n)
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


# -- edges -----------------------------------------------------------------------------------


def check_size(name: str, count: int) -> None:
    if count > MAX_CELLS:
        raise InvalidParameter(f"{name}: a board has at most {MAX_CELLS} cells, got {count}")


def _csr_from_edges(edges: ArrayLike, cells: int | None) -> tuple[IntArray, IntArray]:
    """Check an edge list (shape, ids, self-loops, repeats) and build its CSR pair."""
    if cells is not None:
        cells = _validate.integer("cells", cells, 2)
        check_size("cells", cells)
    array = np.asarray(edges)
    if array.size == 0 and array.shape in ((0,), (0, 2)):
        pairs = np.zeros((0, 2), dtype=np.int64)
    else:
        if array.ndim != 2 or array.shape[1] != 2:
            raise InvalidParameter(f"edges must have shape (m, 2), got shape {array.shape}")
        pairs = graph.integer_array("edges", array, 2)
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
    repeat = graph.first_repeat(keys)
    if repeat is not None:
        i = repeat[0]  # the first edge (in input order) that repeats an earlier one
        raise InvalidBoard(f"edge ({low[i]}, {high_end[i]}) is listed twice")
    if cells < 2:
        raise InvalidBoard(f"a board needs at least 2 cells, got {cells}")
    return graph.csr_from_keys(np.sort(keys), cells)


def _multi_edges(multigraph: Any) -> Iterable[tuple[Any, Any, int]]:
    for a, b in set(multigraph.edges()):
        yield a, b, multigraph.number_of_edges(a, b)


# -- geometry given by the caller ------------------------------------------------------------


def check_polygons(
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
