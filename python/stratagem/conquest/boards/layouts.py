"""How conquest boards are laid out: boards from edge lists and networkx graphs, the
generators (complete, star, ring, grid, random geometric, Erdos-Renyi, Barabasi-Albert, the
RISK world map) and the spec strings of the command line. The random streams each generator
reads are listed in :mod:`stratagem.conquest.board`.

Nothing here builds a :class:`~stratagem.conquest.board.Board`: each function returns a
:class:`Layout` (a CSR pair built correctly, with its names, continents, positions and kind)
that the board's class methods turn into a board, so this module does not import the board
module.

>>> layout = ring(4)
>>> layout.kind, layout.indptr.tolist(), layout.indices.tolist()
('ring:4', [0, 2, 4, 6, 8], [1, 3, 0, 2, 1, 3, 0, 2])
>>> from_spec("grid:2x3").kind
'grid:2x3'
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import KW_ONLY, dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from stratagem import _core, _validate, graph, rng
from stratagem.conquest.boards import rgg_rows, worldmap
from stratagem.errors import InvalidBoard, InvalidParameter
from stratagem.graph import FloatArray, IntArray
from stratagem.progress import Progress, ProgressOption

__all__ = [
    "ENGINE_BYTES",
    "MAX_TERRITORIES",
    "PYTHON_BYTES",
    "Geometric",
    "Layout",
    "barabasi_albert",
    "check_count",
    "check_memory",
    "complete",
    "csr_from_edge_list",
    "erdos_renyi",
    "from_edges",
    "from_networkx",
    "from_spec",
    "grid",
    "grid_of_spec",
    "grid_shape",
    "random_geometric",
    "random_order",
    "ring",
    "risk_world",
    "star",
]

#: The most territories a board may have (2**32 - 1: ids are 32-bit in the engine), the
#: engine's limit (docs/conquest-rules.md).
MAX_TERRITORIES: int = _core.conquest.MAX_TERRITORIES
#: Bytes a game holds at its peak (per territory, per border) when its board is built in
#: Python, and when the engine builds it (a grid named by its spec): a board expected to need
#: more than the memory available is refused before anything is allocated (docs/conquest.md,
#: "Memory").
PYTHON_BYTES = (50, 48)
ENGINE_BYTES = (26, 32)

_UNIT = 2.0**-53
# det_ln of the RNG oracle (IEEE basic operations only), vectorised below.
_LN2 = 0.6931471805599453
_SQRT2 = 1.4142135623730951
_ATANH_TERMS = 12
# Points drawn at a time by random_geometric.
_DRAW_PART = 1 << 20
# Words of the stream read at a time by erdos_renyi, at the most.
_GNP_SLICE = 1 << 20


@dataclass(frozen=True)
class Layout:
    """A board before it is one: a CSR pair built correctly (not checked again), the
    board's ``kind`` and its optional names, continents and positions (checked by the
    board)."""

    indptr: IntArray
    indices: IntArray
    _: KW_ONLY
    kind: str
    names: Iterable[str] | None = None
    continents: Mapping[str, Iterable[int]] | None = None
    positions: ArrayLike | None = None


# -- construction from data ------------------------------------------------------------------


def from_edges(edges: ArrayLike, n: int | None) -> Layout:
    """The layout of an ``(m, 2)`` array of territory ids, one row per border
    (:meth:`Board.from_edges <stratagem.conquest.board.Board.from_edges>`)."""
    indptr, indices = csr_from_edge_list(edges, n)
    return Layout(indptr, indices, kind="edges")


def from_networkx(nx_graph: Any) -> Layout:
    """The layout of an undirected simple ``networkx.Graph``
    (:meth:`Board.from_networkx <stratagem.conquest.board.Board.from_networkx>`)."""
    import networkx as nx

    if not isinstance(nx_graph, nx.Graph):
        raise InvalidParameter(f"expected a networkx graph, got {type(nx_graph).__name__}")
    if nx_graph.is_directed():
        raise InvalidBoard(
            "a directed graph is not a board: borders are undirected "
            "(convert it with nx_graph.to_undirected())"
        )
    if nx_graph.is_multigraph():
        raise InvalidBoard(
            "a multigraph is not a board: two territories share at most one border "
            "(convert it with networkx.Graph(graph))"
        )
    nodes = list(nx_graph.nodes)
    n = len(nodes)
    if n == 0:
        raise InvalidBoard("a board needs at least one territory; the graph has no nodes")
    check_count("the number of nodes", n)
    loop = next(iter(nx.selfloop_edges(nx_graph)), None)
    if loop is not None:
        raise InvalidBoard(f"node {loop[0]!r} has a self-loop (a border with itself)")
    identity = all(
        isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in nodes
    ) and set(nodes) == set(range(n))
    if identity:
        order: list[Any] = list(range(n))
    else:
        try:
            order = sorted(nodes)
        except TypeError:
            order = sorted(nodes, key=str)
    ids = {node: i for i, node in enumerate(order)}
    pairs = np.fromiter(
        ((ids[a], ids[b]) for a, b in nx_graph.edges),
        dtype=np.dtype((np.int64, 2)),
        count=nx_graph.number_of_edges(),
    ).reshape(-1, 2)
    attributes = nx_graph.nodes
    names: list[str] | None = None
    if all("name" in attributes[v] for v in order):
        names = [attributes[v]["name"] for v in order]
    elif not identity:
        names = [str(v) for v in order]
        _refuse_name_collisions(names, order)
    positions = None
    if all("pos" in attributes[v] for v in order):
        positions = [attributes[v]["pos"] for v in order]
    continents = None
    if nx_graph.graph.get("continents") is not None:
        continents = _continents_by_label(nx_graph.graph["continents"], ids)
    kind = nx_graph.graph.get("kind")
    indptr, indices = graph.csr(pairs.min(axis=1), pairs.max(axis=1), n)
    return Layout(
        indptr,
        indices,
        names=names,
        continents=continents,
        positions=positions,
        kind=kind if isinstance(kind, str) else "networkx",
    )


# -- generators ----------------------------------------------------------------------------


def complete(n: int) -> Layout:
    """Every pair of the ``n`` territories shares a border; positions on a circle."""
    n = _territory_count("n", n)
    check_memory(f"complete:{n}", n, n * (n - 1) / 2)
    others = np.arange(n - 1, dtype=np.int64)
    rows = np.arange(n, dtype=np.int64)[:, None]
    indices = (others[None, :] + (others[None, :] >= rows)).ravel()
    indptr = np.arange(n + 1, dtype=np.int64) * (n - 1)
    return Layout(indptr, indices, positions=_circle(n), kind=f"complete:{n}")


def star(n: int) -> Layout:
    """Territory 0 borders each of the other ``n - 1``, which border nothing else."""
    n = _territory_count("n", n)
    check_memory(f"star:{n}", n, n - 1)
    indptr = np.zeros(n + 1, dtype=np.int64)
    indptr[1:] = np.arange(n, dtype=np.int64) + (n - 1)
    indices = np.concatenate((np.arange(1, n, dtype=np.int64), np.zeros(n - 1, dtype=np.int64)))
    positions = np.zeros((n, 2))
    positions[1:] = _circle(n - 1)
    return Layout(indptr, indices, positions=positions, kind=f"star:{n}")


def ring(n: int) -> Layout:
    """A cycle ``0 - 1 - ... - (n-1) - 0`` (``n >= 3``); positions on a circle."""
    n = _territory_count("n", n, low=3)
    check_memory(f"ring:{n}", n, n)
    ids = np.arange(n, dtype=np.int64)
    rows = np.stack(((ids - 1) % n, (ids + 1) % n), axis=1)
    rows.sort(axis=1)
    indptr = np.arange(n + 1, dtype=np.int64) * 2
    return Layout(indptr, rows.ravel(), positions=_circle(n), kind=f"ring:{n}")


def grid(rows: int, cols: int, torus: bool = False) -> Layout:
    """A ``rows x cols`` grid, a torus with ``torus``
    (:meth:`Board.grid <stratagem.conquest.board.Board.grid>`)."""
    rows, cols = grid_shape(rows, cols, torus)
    kind = f"grid:{rows}x{cols}" + (":torus" if torus else "")
    check_memory(kind, rows * cols, 2 * rows * cols if torus else 2 * rows * cols - rows - cols)
    indptr, indices = _core.conquest.grid_csr(rows, cols, torus)
    # Territory r * cols + c sits at (c, rows - 1 - r), written column by column in place.
    positions = np.empty((rows * cols, 2), dtype=np.float64)
    cells = positions.reshape(rows, cols, 2)
    cells[:, :, 0] = np.arange(cols, dtype=np.float64)
    cells[:, :, 1] = np.arange(rows - 1, -1, -1, dtype=np.float64)[:, np.newaxis]
    return Layout(indptr, indices, positions=positions, kind=kind)


def grid_shape(rows: int, cols: int, torus: bool) -> tuple[int, int]:
    """``(rows, cols)`` checked as :func:`grid` checks them."""
    rows = _validate.integer("rows", rows, 1)
    cols = _validate.integer("cols", cols, 1)
    if not isinstance(torus, bool):
        raise InvalidParameter(f"torus must be True or False, got {torus!r}")
    _territory_count("rows * cols", rows * cols)
    if torus and (rows < 3 or cols < 3):
        raise InvalidParameter(
            f"a torus needs at least 3 rows and 3 columns (fewer would repeat "
            f"borders), got {rows}x{cols}"
        )
    return rows, cols


def grid_of_spec(text: str) -> tuple[int, int, bool] | None:
    """``(rows, cols, torus)`` of a ``grid:RxC[:torus]`` spec, checked as :func:`from_spec`
    checks it (errors alike); None for a spec of another board."""
    name, spec = _parse_spec(text)
    if name != "grid":
        return None
    rows, cols, torus = _grid_fields(spec)
    return (*grid_shape(rows, cols, torus), torus)


def random_geometric(
    n: int,
    radius: float | None = None,
    *,
    mean_degree: float = 8.0,
    seed: int = 0,
    progress: ProgressOption = None,
) -> Layout:
    """``n`` random points joined within ``radius``
    (:meth:`Board.random_geometric <stratagem.conquest.board.Board.random_geometric>`), with a
    bar (``progress``) counting the points drawn, then the points whose borders are found."""
    rgg = Geometric.of(n, radius, mean_degree=mean_degree, seed=seed)
    with Progress(2 * rgg.n, f"board {rgg.kind}", enabled=progress, counts=False) as bar:
        points = np.empty((rgg.n, 2), dtype=np.float64)
        for start in range(0, rgg.n, _DRAW_PART):
            stop = min(start + _DRAW_PART, rgg.n)
            points[start:stop] = rgg.points(start, stop)
            bar.advance(stop - start)
        row, column = rgg.cells_of(points)
        # Number the territories along a boustrophedon of cells about one radius wide, so
        # neighbours sit close together in memory (a turn runs ~2.5x faster than with the
        # points in drawing order).
        order = rgg_rows.row_order(row, column, rgg.cells)
        points, row = points[order], row[order]
        del order, column
        indptr, indices = rgg.csr(points, row, bar.advance)
    return Layout(indptr, indices, positions=points, kind=rgg.kind)


@dataclass(frozen=True)
class Geometric:
    """The random geometric board ``rgg:N`` known by its parameters, and the steps that
    build it, written once for :func:`random_geometric` (the whole board) and for
    :mod:`stratagem.conquest.distributed.local_rgg` (one rank's rows).

    Point ``i`` (its *drawing index*) is words ``2i`` and ``2i + 1`` of stream
    ``(seed, "conquest.board.rgg")`` as uniforms (x, y). The unit square is cut into
    ``cells x cells`` cells at least one radius wide; the territories are the points sorted by
    cell row, then column along a boustrophedon (every other row reversed), then drawing
    index. Two territories border when :meth:`csr` says so: within the radius and in the
    same or adjacent cell rows.

    >>> rgg = Geometric.of(5, 0.5, seed=1)
    >>> rgg.kind, rgg.cells, bool((rgg.points(1, 4) == rgg.points(0, 5)[1:4]).all())
    ('rgg:5:radius=0.5:seed=1', 2, True)
    """

    n: int
    radius: float
    seed: int
    kind: str

    @classmethod
    def of(
        cls, n: int, radius: float | None = None, *, mean_degree: float = 8.0, seed: int = 0
    ) -> Geometric:
        """The parameters checked as :func:`random_geometric` checks them (errors alike)."""
        n = _territory_count("n", n)
        seed = _validate.seed(seed)
        if radius is None:
            degree = _positive_float("mean_degree", mean_degree)
            radius = math.sqrt(degree / (math.pi * max(n - 1, 1)))
            kind = f"rgg:{n}:degree={degree!r}:seed={seed}"
        else:
            radius = _positive_float("radius", radius)
            kind = f"rgg:{n}:radius={radius!r}:seed={seed}"
        # Pairs closer than the radius, in the unit square (edge effects only lower it).
        check_memory(kind, n, n * (n - 1) / 2 * min(1.0, math.pi * radius * radius))
        return cls(n, radius, seed, kind)

    @classmethod
    def of_spec(cls, text: str) -> Geometric | None:
        """The board of an ``rgg:N[:radius=R|:degree=D][:seed=S]`` spec, checked as
        :func:`from_spec` checks it (errors alike); None for a spec of another board."""
        name, spec = _parse_spec(text)
        if name != "rgg":
            return None
        n, radius, degree, seed = _rgg_fields(spec)
        return cls.of(n, radius, mean_degree=degree, seed=seed)

    @property
    def cells(self) -> int:
        """Cells per side of the square: at least one radius wide."""
        return max(1, min(int(1.0 / self.radius), 1 << 20))

    def points(self, start: int, stop: int) -> FloatArray:
        """The points of drawing indices ``start .. stop - 1``, shape ``(stop - start, 2)``."""
        return _uniforms(self.seed, "conquest.board.rgg", 2 * (stop - start), 2 * start).reshape(
            -1, 2
        )

    def cells_of(self, points: FloatArray) -> tuple[IntArray, IntArray]:
        """The cell row of each point and its column along the boustrophedon."""
        cells = self.cells
        column = np.minimum((points[:, 0] * cells).astype(np.int64), cells - 1)
        row = np.minimum((points[:, 1] * cells).astype(np.int64), cells - 1)
        return row, np.where(row % 2 == 0, column, cells - 1 - column)

    def csr(
        self, points: FloatArray, row: IntArray, advance: Callable[[int], object]
    ) -> tuple[IntArray, IntArray]:
        """The CSR pair of the borders of ``points`` (sorted by their cell rows ``row``):
        ``dx * dx + dy * dy <= radius * radius`` in float64 and cell rows at most one apart
        (always so in exact arithmetic: it settles rounding at a cell's edge, so that a rank
        holding some rows of cells decides every pair as the whole board does), a band of
        cell rows at a time (:func:`~stratagem.conquest.boards.rgg_rows.csr_by_bands`, which calls
        ``advance(k)`` as the rows of ``k`` more points are written)."""
        return rgg_rows.csr_by_bands(points, row, self.radius, advance=advance)


def erdos_renyi(
    n: int,
    p: float | None = None,
    *,
    mean_degree: float | None = None,
    seed: int = 0,
    progress: ProgressOption = None,
) -> Layout:
    """G(n, p), each pair a border with probability ``p``
    (:meth:`Board.erdos_renyi <stratagem.conquest.board.Board.erdos_renyi>`), with a bar
    (``progress``) counting the territories whose pairs are drawn, then listed."""
    n = _territory_count("n", n)
    seed = _validate.seed(seed)
    if (p is None) == (mean_degree is None):
        raise InvalidParameter("erdos_renyi takes exactly one of p and mean_degree")
    if p is not None:
        p = _float_in("p", p, 0.0, 1.0)
        kind = f"er:{n}:{p!r}:seed={seed}"
    else:
        degree = _float_in("mean_degree", mean_degree, 0.0, float(n - 1))
        p = degree / (n - 1) if n > 1 else 0.0
        kind = f"er:{n}:degree={degree!r}:seed={seed}"
    check_memory(kind, n, n * (n - 1) / 2 * p)
    if p == 1.0:
        full = complete(n)
        return Layout(full.indptr, full.indices, kind=kind)
    total = n * (n - 1) // 2
    # Row x of the pair order starts at pair index x (2n - x - 1) / 2.
    ids = np.arange(n, dtype=np.int64)
    row_starts = ids * (2 * n - ids - 1) // 2
    with Progress(2 * n, f"board {kind}", enabled=progress, counts=False) as bar:

        def passed(last: int) -> None:
            bar.reach(int(np.searchsorted(row_starts, last, side="right")))

        chosen = _gnp_pairs(seed, total, p, passed)
        bar.reach(n)  # the rows' pairs drawn; then their borders listed
        u = np.searchsorted(row_starts, chosen, side="right") - 1
        v = chosen - row_starts[u] + u + 1
        indptr, indices = graph.csr(u, v, n)
        bar.reach(2 * n)
    return Layout(indptr, indices, kind=kind)


def barabasi_albert(n: int, m: int, *, seed: int = 0, progress: ProgressOption = None) -> Layout:
    """Preferential attachment, ``m`` borders per new territory
    (:meth:`Board.barabasi_albert <stratagem.conquest.board.Board.barabasi_albert>`), grown by
    the engine (``progress`` counts the territories added)."""
    m = _validate.integer("m", m, 1)
    n = _territory_count("n", n, low=m + 1)
    seed = _validate.seed(seed)
    kind = f"ba:{n}:{m}:seed={seed}"
    check_memory(kind, n, m * (n - m + 1))
    with Progress(n, f"board {kind}", enabled=progress) as bar:
        indptr, indices = _core.conquest.attachment_csr(n, m, seed, bar.reach)
        bar.reach(n)
    return Layout(indptr, indices, kind=kind)


def risk_world() -> Layout:
    """The classic RISK world map (:mod:`stratagem.conquest.boards.worldmap`): 42 named
    territories, 6 continents, 83 borders, positions as rough longitude and latitude."""
    ids = {name: i for i, name in enumerate(worldmap.TERRITORIES)}
    edges = [(ids[a], ids[b]) for a, b in worldmap.BORDERS]
    indptr, indices = csr_from_edge_list(edges, len(ids))
    return Layout(
        indptr,
        indices,
        names=worldmap.TERRITORIES,
        continents={
            continent: [ids[name] for name in members]
            for continent, members in worldmap.CONTINENTS.items()
        },
        positions=[worldmap.POSITIONS[name] for name in worldmap.TERRITORIES],
        kind="risk",
    )


def from_spec(text: str, *, progress: ProgressOption = None) -> Layout:
    """The layout of a command-line board spec
    (:meth:`Board.from_spec <stratagem.conquest.board.Board.from_spec>`); ``progress`` is
    the bar of a random geometric, Erdős-Rényi or preferential-attachment board."""
    name, spec = _parse_spec(text)
    options = spec.options
    if name in ("complete", "star", "ring"):
        spec.expect(1, ())
        size = spec.integer(0, "n")
        maker = {"complete": complete, "star": star, "ring": ring}[name]
        return maker(size)
    if name == "grid":
        return grid(*_grid_fields(spec))
    if name == "rgg":
        n, radius, degree, seed = _rgg_fields(spec)
        return random_geometric(n, radius, mean_degree=degree, seed=seed, progress=progress)
    if name == "er":
        spec.expect(1, ("degree", "seed"), optional="p")
        if (len(spec.positional) == 2) == ("degree" in options):
            raise InvalidParameter(
                f"board spec {text!r}: er needs exactly one of a probability (er:N:P) and degree=D"
            )
        p = spec.parse_float(spec.positional[1], "p") if len(spec.positional) == 2 else None
        return erdos_renyi(
            spec.integer(0, "n"),
            p,
            mean_degree=spec.float_option("degree"),
            seed=spec.seed(),
            progress=progress,
        )
    if name == "ba":
        spec.expect(2, ("seed",))
        n, m, seed = spec.integer(0, "n"), spec.integer(1, "m"), spec.seed()
        return barabasi_albert(n, m, seed=seed, progress=progress)
    if name == "risk":
        spec.expect(0, ())
        return risk_world()
    raise InvalidParameter(
        f"board spec {text!r}: unknown board {text.strip().split(':')[0].strip()!r}; expected "
        f"complete, star, ring, grid, rgg, er, ba or risk"
    )


def _parse_spec(text: str) -> tuple[str, _Spec]:
    """The board's name (lower case) and the fields of a spec."""
    if not isinstance(text, str):
        raise InvalidParameter(f"a board spec must be a string, got {text!r}")
    fields = [field.strip() for field in text.strip().split(":")]
    positional = [field for field in fields[1:] if "=" not in field]
    options: dict[str, str] = {}
    for field in fields[1:]:
        if "=" in field:
            key, _, value = field.partition("=")
            key = key.strip().lower()
            if key in options:
                raise InvalidParameter(f"board spec {text!r}: option {key!r} is repeated")
            options[key] = value.strip()
    return fields[0].lower(), _Spec(text, positional, options)


def _rgg_fields(spec: _Spec) -> tuple[int, float | None, float, int]:
    """``n``, ``radius``, ``mean_degree`` and ``seed`` of an rgg spec (values not checked yet)."""
    spec.expect(1, ("radius", "degree", "seed"))
    if "radius" in spec.options and "degree" in spec.options:
        raise spec.error("give radius or degree, not both")
    radius = spec.float_option("radius")
    degree = spec.float_option("degree")
    return spec.integer(0, "n"), radius, 8.0 if degree is None else degree, spec.seed()


def _grid_fields(spec: _Spec) -> tuple[int, int, bool]:
    """``rows``, ``cols`` and ``torus`` of a grid spec (values not checked yet)."""
    spec.expect(1, (), optional="torus")
    rows_text, _, cols_text = spec.positional[0].lower().partition("x")
    rows = spec.parse_int(rows_text, "rows (grid:RxC)")
    cols = spec.parse_int(cols_text, "cols (grid:RxC)")
    return rows, cols, len(spec.positional) == 2


# -- helpers ---------------------------------------------------------------------------------


class _Spec:
    """The fields of a board spec, with errors that quote the spec."""

    def __init__(self, text: str, positional: list[str], options: dict[str, str]) -> None:
        self.text = text
        self.positional = positional
        self.options = options

    def error(self, message: str) -> InvalidParameter:
        return InvalidParameter(f"board spec {self.text!r}: {message}")

    def expect(self, count: int, options: tuple[str, ...], optional: str | None = None) -> None:
        allowed = (count, count + 1) if optional else (count,)
        if len(self.positional) not in allowed:
            extra = f" (and optionally {optional})" if optional else ""
            raise self.error(f"expected {count} field(s){extra}, got {len(self.positional)}")
        if optional == "torus" and len(self.positional) == 2 and self.positional[1] != "torus":
            raise self.error(f"expected 'torus', got {self.positional[1]!r}")
        for key in self.options:
            if key not in options:
                accepted = ", ".join(options) or "none"
                raise self.error(f"unknown option {key!r} (accepted: {accepted})")

    def parse_int(self, value: str, what: str) -> int:
        try:
            return int(value)
        except ValueError:
            raise self.error(f"{what} must be an integer, got {value!r}") from None

    def parse_float(self, value: str, what: str) -> float:
        try:
            return float(value)
        except ValueError:
            raise self.error(f"{what} must be a number, got {value!r}") from None

    def integer(self, index: int, what: str) -> int:
        return self.parse_int(self.positional[index], what)

    def float_option(self, key: str) -> float | None:
        value = self.options.get(key)
        return None if value is None else self.parse_float(value, key)

    def seed(self) -> int:
        value = self.options.get("seed")
        return 0 if value is None else self.parse_int(value, "seed")


def _territory_count(name: str, value: int, low: int = 1) -> int:
    count = _validate.integer(name, value, low)
    check_count(name, count)
    return count


def check_memory(spec: str, n: int, borders: float, per: tuple[int, int] = PYTHON_BYTES) -> None:
    """Refuses the board ``spec`` of ``n`` territories and about ``borders`` borders when a
    game on it would need, at ``per`` bytes a territory and a border, more memory than is
    available, saying how much it would need."""
    _validate.memory(
        f"{spec} would have {n:,} territories and about {borders:,.0f} borders: a game on it",
        n * per[0] + borders * per[1],
        "spread it over MPI ranks on several machines or take a smaller board",
    )


def check_count(name: str, count: int) -> None:
    if count > MAX_TERRITORIES:
        raise InvalidParameter(f"{name} must be at most {MAX_TERRITORIES}, got {count}")


def _float_in(name: str, value: object, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidParameter(f"{name} must be a number, got {value!r}")
    result = float(value)
    if not low <= result <= high:
        raise InvalidParameter(f"{name} must be between {low} and {high}, got {result}")
    return result


def _positive_float(name: str, value: object) -> float:
    result = _float_in(name, value, 0.0, math.inf)
    if result == 0.0 or math.isinf(result):
        raise InvalidParameter(f"{name} must be positive and finite, got {result}")
    return result


def _refuse_name_collisions(names: list[str], labels: list[Any]) -> None:
    first_use: dict[str, Any] = {}
    for name, label in zip(names, labels, strict=True):
        if name in first_use:
            raise InvalidBoard(
                f"nodes {first_use[name]!r} and {label!r} would both be named {name!r}"
            )
        first_use[name] = label


def _continents_by_label(
    continents: Mapping[str, Iterable[Any]], ids: dict[Any, int]
) -> dict[str, list[int]]:
    result = {}
    for name, labels in continents.items():
        members = []
        for label in labels:
            if label not in ids:
                raise InvalidBoard(f"continent {name!r} lists {label!r}, which is not a node")
            members.append(ids[label])
        result[name] = members
    return result


def _edge_array(edges: ArrayLike, n: int | None) -> IntArray:
    """``edges`` as an int64 ``(m, 2)`` array; ids beyond int64 are reported out of range."""
    array = np.asarray(edges)
    if array.size == 0 and array.shape in ((0,), (0, 2)):
        return np.zeros((0, 2), dtype=np.int64)
    if array.ndim != 2 or array.shape[1] != 2:
        raise InvalidParameter(f"edges must have shape (m, 2), got shape {array.shape}")
    kind = array.dtype.kind
    if kind == "O":
        for i, pair in enumerate(array.tolist()):
            for value in pair:
                if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                    raise InvalidParameter(
                        f"edges must hold integer territory ids; edge {i} holds {value!r}"
                    )
    elif kind not in "iu":
        raise InvalidParameter(f"edges must hold integer territory ids, got dtype {array.dtype}")
    if kind == "O" or (kind == "u" and int(array.max()) > np.iinfo(np.int64).max):
        low, high = np.iinfo(np.int64).min, np.iinfo(np.int64).max
        for i, (a, b) in enumerate(array.tolist()):
            for value in (a, b):
                if not low <= value <= high:
                    raise InvalidBoard(_out_of_range(i, a, b, value, n))
    return np.array(array, dtype=np.int64)


def _out_of_range(i: int, a: int, b: int, value: int, n: int | None) -> str:
    if n is None:
        limit = "negative" if value < 0 else f"beyond the limit of {MAX_TERRITORIES} territories"
        return f"edge {i} ({a}, {b}): territory {value} is {limit}"
    return f"edge {i} ({a}, {b}): territory {value} is outside 0..{n - 1}"


def csr_from_edge_list(edges: ArrayLike, n: int | None) -> tuple[IntArray, IntArray]:
    """Check an edge list (shape, ids, self-loops, repeats) and build its CSR pair."""
    if n is not None:
        n = _validate.integer("n", n)
        if n < 1:
            raise InvalidBoard(f"a board needs at least one territory, got n = {n}")
        check_count("n", n)
    pairs = _edge_array(edges, n)
    high = MAX_TERRITORIES if n is None else n
    outside = np.flatnonzero(((pairs < 0) | (pairs >= high)).any(axis=1))
    if outside.size:
        i = int(outside[0])
        a, b = (int(v) for v in pairs[i])
        raise InvalidBoard(_out_of_range(i, a, b, a if not 0 <= a < high else b, n))
    if n is None:
        if pairs.shape[0] == 0:
            raise InvalidBoard("a board needs at least one territory: give n with no edges")
        n = int(pairs.max()) + 1
    loops = np.flatnonzero(pairs[:, 0] == pairs[:, 1])
    if loops.size:
        i = int(loops[0])
        raise InvalidBoard(f"edge {i} ({pairs[i, 0]}, {pairs[i, 1]}) is a self-loop")
    keys = pairs.min(axis=1) * n + pairs.max(axis=1)
    ordered = np.sort(keys)
    if (ordered[1:] == ordered[:-1]).any():
        raise InvalidBoard(_first_repeat(pairs, keys))
    return graph.csr_from_keys(ordered, n)


def _first_repeat(pairs: IntArray, keys: IntArray) -> str:
    """The message for the first edge (in input order) that repeats an earlier one."""
    repeat = graph.first_repeat(keys)
    assert repeat is not None
    later, earlier = repeat
    a, b = (int(v) for v in pairs[later])
    c, d = (int(v) for v in pairs[earlier])
    return f"edge {later} ({a}, {b}) repeats edge {earlier} ({c}, {d})"


def _circle(n: int) -> FloatArray:
    angles = np.arange(n) * (2.0 * math.pi / max(n, 1))
    return np.stack((np.cos(angles), np.sin(angles)), axis=1)


def _raw_words(seed: int, purpose: str, start_word: int, count: int) -> NDArray[np.uint64]:
    """Words ``start_word .. start_word + count - 1`` of a stream (``start_word % 4 == 0``)."""
    blocks = rng.blocks(seed, purpose, (), start_word // 4, -(-count // 4))
    return blocks.ravel()[:count]


def _uniforms(seed: int, purpose: str, count: int, start: int = 0) -> FloatArray:
    """Words ``start .. start + count - 1`` of a stream as uniforms in [0, 1)."""
    first = start - start % 4
    words = _raw_words(seed, purpose, first, start + count - first)[start - first :]
    return (words >> np.uint64(11)).astype(np.float64) * _UNIT


def _words(seed: int, purpose: str, chunk: int = 1 << 16) -> Iterator[int]:
    """The words of a stream one by one, as Python ints, generated a chunk at a time."""
    start = 0
    while True:
        yield from _raw_words(seed, purpose, start, chunk).tolist()
        start += chunk


def random_order(seed: int, purpose: str, n: int) -> IntArray:
    """The territories sorted by their words of the stream (ties, almost impossible, by id)."""
    return np.argsort(_raw_words(seed, purpose, 0, n), kind="stable").astype(np.int64)


def first_in_order(seed: int, purpose: str, lo: int, hi: int, count: int) -> list[tuple[int, int]]:
    """``(word, id)`` of the first ``count`` territories of ``lo .. hi - 1`` in
    :func:`random_order`, in that order, without sorting them all: every word up to the
    ``count``-th smallest (more only on ties), then by word and id."""
    first = lo - lo % 4
    words = _raw_words(seed, purpose, first, hi - first)[lo - first :]
    if words.shape[0] > count:
        chosen = np.flatnonzero(words <= np.partition(words, count - 1)[count - 1])
    else:
        chosen = np.arange(words.shape[0])
    chosen = chosen[np.lexsort((chosen, words[chosen]))[:count]]
    return list(zip(words[chosen].tolist(), (chosen + lo).tolist(), strict=True))


def _det_ln(x: FloatArray) -> FloatArray:
    """:func:`stratagem.rng.oracle.det_ln` for positive finite ``x``, element-wise, with the
    same operations in the same order, hence the same bits on every platform."""
    half_mantissa, exponent = np.frexp(x)
    f = half_mantissa * 2.0
    e = (exponent - 1).astype(np.float64)
    above = f > _SQRT2
    f = np.where(above, f * 0.5, f)
    e = e + above
    s = (f - 1.0) / (f + 1.0)
    z = s * s
    series = np.full_like(s, 1.0 / float(2 * _ATANH_TERMS + 1))
    for j in range(_ATANH_TERMS - 1, -1, -1):
        series = series * z + 1.0 / float(2 * j + 1)
    result: FloatArray = e * _LN2 + 2.0 * s * series
    return result


def _ln_one_minus(p: float) -> float:
    """ln(1 - p) for 0 < p < 1, accurate for tiny p, from basic operations only."""
    if p > 0.5:
        return float(_det_ln(np.array([1.0 - p]))[0])  # 1 - p is exact here
    total, power, k = 0.0, p, 1
    while power / k > total * 2.0**-60:
        total += power / k
        power *= p
        k += 1
    return -total


def _gnp_pairs(
    seed: int, total: int, p: float, passed: Callable[[int], object] = lambda last: None
) -> IntArray:
    """The pair indices in ``0..total-1`` chosen with probability ``p`` each, ascending;
    ``passed(last)`` is told the last pair index decided so far, a slice of words at a
    time."""
    if p == 0.0 or total == 0:
        return np.zeros(0, dtype=np.int64)
    log_q = _ln_one_minus(p)
    parts = []
    last, word = -1, 0
    while True:
        expected = (total - last) * p
        # Enough words to finish with high probability, in slices that bound the temporaries.
        chunk = 4 * (min(int(expected + 6.0 * math.sqrt(expected) + 16.0), _GNP_SLICE) // 4 + 1)
        bits = _raw_words(seed, "conquest.board.er", word, chunk) >> np.uint64(11)
        word += chunk
        u = 1.0 - bits.astype(np.float64) * _UNIT  # in (0, 1]
        gaps = np.minimum(np.floor(_det_ln(u) / log_q), float(total)).astype(np.int64)
        chosen = last + np.cumsum(gaps + 1)
        parts.append(chosen[chosen < total])
        if chosen[-1] >= total:
            return np.concatenate(parts)
        last = int(chosen[-1])
        passed(last)
