"""Conquest boards: undirected simple graphs in CSR form, their generators, and the helpers
that give the territories their first owners and troops.

A :class:`Board` is immutable. Territories are ``0..n-1``; ``indptr`` (int64, ``n + 1``) and
``indices`` (int64, ``2 m``) list the neighbours of every territory, each row sorted ascending
and every border present in both rows (``docs/conquest-rules.md``, "Board and state").
Storage is O(n + m), and the generators build it with vectorised numpy.

Errors: an argument of the wrong type, shape or dtype raises
:class:`~stratagem.errors.InvalidParameter`; content that does not make a simple graph
(a self-loop, a repeated border, an id out of range, no territory at all, a repeated name,
a territory in two continents) raises :class:`~stratagem.errors.InvalidBoard`. Messages name
the offending edge, territory or node.

Randomness comes only from :mod:`stratagem.rng`, so a seed gives the same board on every
machine. Each stream is read word by word from block 0 (``docs/determinism.md``); a uniform
double is ``(word >> 11) * 2**-53``:

- ``"conquest.board.rgg"``: words ``2 i`` and ``2 i + 1`` are the x and y of territory ``i``;
- ``"conquest.board.er"``: word ``t`` gives the ``t``-th gap between chosen pairs;
- ``"conquest.board.ba"``: the attachment draws, in order (exact rejection, like
  ``uniform_below``);
- ``"conquest.assign.random"`` and ``"conquest.assign.regions"``: word ``i`` is the sort key
  of territory ``i`` (the random order of the territories).

>>> board = Board.grid(2, 3)
>>> board
Board(kind='grid:2x3', n=6, n_borders=7)
>>> board.neighbours(1).tolist()
[0, 2, 4]
>>> Board.from_edges([(0, 1), (1, 2)]).edges().tolist()
[[0, 1], [1, 2]]
>>> assign_random(board, 2, seed=7).tolist().count(0)
3
"""

from __future__ import annotations

import json
import math
import numbers
import os
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from stratagem import _core, _validate, rng
from stratagem.conquest import worldmap
from stratagem.errors import InvalidBoard, InvalidParameter, StratagemError
from stratagem.rng import oracle

__all__ = [
    "MAX_TEAMS",
    "MAX_TERRITORIES",
    "TROOP_LIMIT",
    "Board",
    "assign_continents",
    "assign_random",
    "assign_regions",
    "troops_given",
    "troops_uniform",
]

# The engine's limits (docs/conquest-rules.md) come from the Rust core, whose stub does not
# type them.
_engine_core: Any = _core
#: The most territories a board may have (2**23 - 1, so per-team totals fit in int64).
MAX_TERRITORIES: int = _engine_core.CONQUEST_MAX_TERRITORIES
#: Teams per game.
MAX_TEAMS: int = _engine_core.CONQUEST_MAX_TEAMS
#: The most troops a territory holds (2**40).
TROOP_LIMIT: int = _engine_core.CONQUEST_TROOP_LIMIT

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

_FILE_FORMAT = "stratagem.conquest.board"
_FILE_VERSION = 1
_UNIT = 2.0**-53
# det_ln of the RNG oracle (IEEE basic operations only), vectorised below.
_LN2 = 0.6931471805599453
_SQRT2 = 1.4142135623730951
_ATANH_TERMS = 12


class Board:
    """An immutable conquest board: ``n`` territories and ``n_borders`` undirected borders.

    ``Board(indptr, indices)`` checks a CSR graph (rows strictly increasing, symmetric, no
    self-loops); the class methods build boards from edges, networkx graphs, generators and
    spec strings. ``names`` (one unique string per territory), ``continents`` (name ->
    disjoint territory ids) and ``positions`` (float64 ``(n, 2)``, for drawing) are optional.
    ``kind`` describes the board; for generated boards it is the spec text that rebuilds it
    (``Board.from_spec(board.kind) == board``). Equality compares the graph, names,
    continents and positions, not ``kind``.
    """

    __slots__ = (
        "_continents",
        "_engine",
        "_indices",
        "_indptr",
        "_kind",
        "_names",
        "_positions",
    )

    _indptr: IntArray
    _indices: IntArray
    _names: tuple[str, ...] | None
    _continents: tuple[tuple[str, tuple[int, ...]], ...] | None
    _positions: FloatArray | None
    _kind: str
    _engine: Any

    def __init__(
        self,
        indptr: ArrayLike,
        indices: ArrayLike,
        *,
        names: Iterable[str] | None = None,
        continents: Mapping[str, Iterable[int]] | None = None,
        positions: ArrayLike | None = None,
        kind: str = "csr",
    ) -> None:
        indptr_array = _id_vector("indptr", indptr)
        indices_array = _id_vector("indices", indices)
        _check_csr(indptr_array, indices_array)
        self._assign(
            indptr_array,
            indices_array,
            names=names,
            continents=continents,
            positions=positions,
            kind=kind,
        )

    @classmethod
    def _trusted(
        cls,
        indptr: IntArray,
        indices: IntArray,
        *,
        names: Iterable[str] | None = None,
        continents: Mapping[str, Iterable[int]] | None = None,
        positions: ArrayLike | None = None,
        kind: str,
    ) -> Board:
        """A board from a CSR pair built correctly by this module (not checked again)."""
        board = object.__new__(cls)
        board._assign(
            indptr, indices, names=names, continents=continents, positions=positions, kind=kind
        )
        return board

    def _assign(
        self,
        indptr: IntArray,
        indices: IntArray,
        *,
        names: Iterable[str] | None,
        continents: Mapping[str, Iterable[int]] | None,
        positions: ArrayLike | None,
        kind: str,
    ) -> None:
        n = indptr.shape[0] - 1
        checked = _check_positions(positions, n)
        if not isinstance(kind, str):
            raise InvalidParameter(f"kind must be a string, got {kind!r}")
        values = {
            "_indptr": _frozen(indptr),
            "_indices": _frozen(indices),
            "_names": _check_names(names, n),
            "_continents": _check_continents(continents, n),
            "_positions": None if checked is None else _frozen(checked),
            "_kind": kind,
            "_engine": None,
        }
        for slot, value in values.items():
            object.__setattr__(self, slot, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Board is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Board is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        metadata = {
            "names": self._names,
            "continents": self.continents,
            "positions": self._positions,
            "kind": self._kind,
        }
        return (_rebuild, (self._indptr, self._indices, metadata))

    # -- the graph -------------------------------------------------------------------------

    @property
    def n(self) -> int:
        """Number of territories."""
        return int(self._indptr.shape[0] - 1)

    @property
    def n_borders(self) -> int:
        """Number of undirected borders ``m`` (``indices`` has ``2 m`` entries)."""
        return int(self._indices.shape[0] // 2)

    @property
    def indptr(self) -> IntArray:
        """Row offsets, int64 of length ``n + 1`` (read-only)."""
        return self._indptr

    @property
    def indices(self) -> IntArray:
        """Neighbour ids, int64 of length ``2 m``, each row ascending (read-only)."""
        return self._indices

    @property
    def names(self) -> tuple[str, ...] | None:
        return self._names

    @property
    def continents(self) -> dict[str, tuple[int, ...]] | None:
        """Continent name -> its territories (ascending); a new dict on every access."""
        return None if self._continents is None else dict(self._continents)

    @property
    def positions(self) -> FloatArray | None:
        """Float64 ``(n, 2)`` coordinates for drawing (read-only), or None."""
        return self._positions

    @property
    def kind(self) -> str:
        return self._kind

    def degree(self) -> IntArray:
        """Number of borders of each territory."""
        return np.diff(self._indptr)

    def neighbours(self, x: int) -> IntArray:
        """The neighbours of territory ``x``, ascending (a read-only view)."""
        x = _validate.integer("territory", x, 0, self.n - 1)
        return self._indices[self._indptr[x] : self._indptr[x + 1]]

    def edges(self) -> IntArray:
        """Every border once as a row ``(x, y)`` with ``x < y``, sorted: shape ``(m, 2)``."""
        sources = np.repeat(np.arange(self.n, dtype=np.int64), self.degree())
        upper = self._indices > sources
        return np.stack((sources[upper], self._indices[upper]), axis=1)

    def to_networkx(self) -> Any:
        """A ``networkx.Graph`` on nodes ``0..n-1``, with ``name`` and ``pos`` node attributes
        and ``kind`` and ``continents`` graph attributes when the board has them."""
        import networkx as nx

        graph = nx.Graph(kind=self._kind)
        graph.add_nodes_from(range(self.n))
        if self._names is not None:
            nx.set_node_attributes(graph, dict(enumerate(self._names)), "name")
        if self._positions is not None:
            pos = {x: (float(a), float(b)) for x, (a, b) in enumerate(self._positions.tolist())}
            nx.set_node_attributes(graph, pos, "pos")
        if self._continents is not None:
            graph.graph["continents"] = {name: list(ids) for name, ids in self._continents}
        graph.add_edges_from(self.edges().tolist())
        return graph

    # -- files, comparison, display --------------------------------------------------------

    def to_arrays(self) -> dict[str, NDArray[Any]]:
        """The board as named arrays (no pickled objects): ``indptr``, ``indices``, ``meta``
        (a JSON string: format, version, kind, names, continents) and, if any,
        ``positions``. :meth:`from_arrays` reads them back; :meth:`save` stores them."""
        meta = {
            "format": _FILE_FORMAT,
            "version": _FILE_VERSION,
            "kind": self._kind,
            "names": None if self._names is None else list(self._names),
            "continents": self.continents,
        }
        arrays = {
            "meta": np.array(json.dumps(meta)),
            "indptr": self._indptr,
            "indices": self._indices,
        }
        if self._positions is not None:
            arrays["positions"] = self._positions
        return arrays

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, ArrayLike]) -> Board:
        """The board :meth:`to_arrays` described; everything is checked again, and anything
        missing or malformed raises ``InvalidBoard``."""
        try:
            meta = json.loads(str(np.asarray(arrays["meta"])[()]))
            if not isinstance(meta, dict) or meta.get("format") != _FILE_FORMAT:
                raise InvalidBoard("these are not the arrays of a stratagem board")
            if meta.get("version") != _FILE_VERSION:
                raise InvalidBoard(f"unknown board format version {meta.get('version')!r}")
            return cls(
                arrays["indptr"],
                arrays["indices"],
                names=meta["names"],
                continents=meta["continents"],
                positions=arrays.get("positions"),
                kind=meta["kind"],
            )
        except InvalidBoard:
            raise
        except (StratagemError, KeyError, ValueError) as error:
            raise InvalidBoard(f"malformed board arrays: {error!r}") from error

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the board to ``path`` (an ``.npz`` archive, written to exactly that path)."""
        arrays: dict[str, Any] = self.to_arrays()
        with open(path, "wb") as handle:
            np.savez(handle, **arrays)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Board:
        """Read a board written by :meth:`save`. The graph is checked again; a file that is
        not a valid board raises ``InvalidBoard`` naming the file."""
        try:
            data = np.load(path, allow_pickle=False)
            if not isinstance(data, np.lib.npyio.NpzFile):
                raise InvalidBoard("it is not an .npz archive")
            with data:
                return cls.from_arrays({key: data[key] for key in data.files})
        except (StratagemError, ValueError, zipfile.BadZipFile) as error:
            raise InvalidBoard(f"{os.fspath(path)}: not a valid board file: {error}") from error

    @property
    def engine(self) -> Any:
        """The board in the Rust engine (``stratagem._core.ConquestBoard``), built on first
        use and shared by every game on this board."""
        if self._engine is None:
            engine = _engine_core.ConquestBoard(self._indptr, self._indices)
            object.__setattr__(self, "_engine", engine)
        return self._engine

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        if self._positions is None or other._positions is None:
            same_positions = self._positions is None and other._positions is None
        else:
            same_positions = np.array_equal(self._positions, other._positions)
        return (
            np.array_equal(self._indptr, other._indptr)
            and np.array_equal(self._indices, other._indices)
            and self._names == other._names
            and self._continents == other._continents
            and same_positions
        )

    def __hash__(self) -> int:
        return hash((self.n, self.n_borders, self._names))

    def __repr__(self) -> str:
        return f"Board(kind={self._kind!r}, n={self.n}, n_borders={self.n_borders})"

    # -- construction from data ------------------------------------------------------------

    @classmethod
    def from_edges(
        cls,
        edges: ArrayLike,
        n: int | None = None,
        *,
        names: Iterable[str] | None = None,
        continents: Mapping[str, Iterable[int]] | None = None,
        positions: ArrayLike | None = None,
    ) -> Board:
        """A board from an ``(m, 2)`` array of integer territory ids, one row per border.

        ``n`` defaults to the largest id + 1 (pass it for isolated territories at the end).
        Errors name the first offending edge: ``edge 8 (12, 3): territory 12 is outside
        0..9``, ``edge 4 (3, 3) is a self-loop``, ``edge 5 (2, 9) repeats edge 1 (9, 2)``.
        """
        indptr, indices = _csr_from_edge_list(edges, n)
        return cls._trusted(
            indptr,
            indices,
            names=names,
            continents=continents,
            positions=positions,
            kind="edges",
        )

    @classmethod
    def from_networkx(cls, graph: Any) -> Board:
        """A board from an undirected simple ``networkx.Graph``.

        Nodes that are not exactly ``0..n-1`` are numbered in sorted order (by ``str`` when
        the labels do not sort) and their ``str`` becomes ``names``; a ``name`` attribute on
        every node takes precedence. ``pos`` on every node gives ``positions``; graph
        attributes ``kind`` and ``continents`` (name -> node labels) are read back too.
        Directed graphs, multigraphs and self-loops are refused.
        """
        import networkx as nx

        if not isinstance(graph, nx.Graph):
            raise InvalidParameter(f"expected a networkx graph, got {type(graph).__name__}")
        if graph.is_directed():
            raise InvalidBoard(
                "a directed graph is not a board: borders are undirected "
                "(convert it with graph.to_undirected())"
            )
        if graph.is_multigraph():
            raise InvalidBoard(
                "a multigraph is not a board: two territories share at most one border "
                "(convert it with networkx.Graph(graph))"
            )
        nodes = list(graph.nodes)
        n = len(nodes)
        if n == 0:
            raise InvalidBoard("a board needs at least one territory; the graph has no nodes")
        _check_count("the number of nodes", n)
        loop = next(iter(nx.selfloop_edges(graph)), None)
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
            ((ids[a], ids[b]) for a, b in graph.edges),
            dtype=np.dtype((np.int64, 2)),
            count=graph.number_of_edges(),
        ).reshape(-1, 2)
        attributes = graph.nodes
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
        if graph.graph.get("continents") is not None:
            continents = _continents_by_label(graph.graph["continents"], ids)
        kind = graph.graph.get("kind")
        indptr, indices = _csr(pairs.min(axis=1), pairs.max(axis=1), n)
        return cls._trusted(
            indptr,
            indices,
            names=names,
            continents=continents,
            positions=positions,
            kind=kind if isinstance(kind, str) else "networkx",
        )

    # -- generators ------------------------------------------------------------------------

    @classmethod
    def complete(cls, n: int) -> Board:
        """Every pair of the ``n`` territories shares a border; positions on a circle."""
        n = _territory_count("n", n)
        others = np.arange(n - 1, dtype=np.int64)
        rows = np.arange(n, dtype=np.int64)[:, None]
        indices = (others[None, :] + (others[None, :] >= rows)).ravel()
        indptr = np.arange(n + 1, dtype=np.int64) * (n - 1)
        return cls._trusted(indptr, indices, positions=_circle(n), kind=f"complete:{n}")

    @classmethod
    def star(cls, n: int) -> Board:
        """Territory 0 borders each of the other ``n - 1``, which border nothing else."""
        n = _territory_count("n", n)
        indptr = np.zeros(n + 1, dtype=np.int64)
        indptr[1:] = np.arange(n, dtype=np.int64) + (n - 1)
        indices = np.concatenate((np.arange(1, n, dtype=np.int64), np.zeros(n - 1, dtype=np.int64)))
        positions = np.zeros((n, 2))
        positions[1:] = _circle(n - 1)
        return cls._trusted(indptr, indices, positions=positions, kind=f"star:{n}")

    @classmethod
    def ring(cls, n: int) -> Board:
        """A cycle ``0 - 1 - ... - (n-1) - 0`` (``n >= 3``); positions on a circle."""
        n = _territory_count("n", n, low=3)
        ids = np.arange(n, dtype=np.int64)
        rows = np.stack(((ids - 1) % n, (ids + 1) % n), axis=1)
        rows.sort(axis=1)
        indptr = np.arange(n + 1, dtype=np.int64) * 2
        return cls._trusted(indptr, rows.ravel(), positions=_circle(n), kind=f"ring:{n}")

    @classmethod
    def grid(cls, rows: int, cols: int, torus: bool = False) -> Board:
        """A ``rows x cols`` grid with 4-neighbour borders; territory ``r * cols + c``.

        ``torus=True`` also joins the first and last row and column (it needs at least 3 of
        each, or borders would repeat). Positions: ``(c, rows - 1 - r)``, row 0 on top.
        """
        rows = _validate.integer("rows", rows, 1)
        cols = _validate.integer("cols", cols, 1)
        if not isinstance(torus, bool):
            raise InvalidParameter(f"torus must be True or False, got {torus!r}")
        n = _territory_count("rows * cols", rows * cols)
        r, c = np.divmod(np.arange(n, dtype=np.int64), cols)
        if torus:
            if rows < 3 or cols < 3:
                raise InvalidParameter(
                    f"a torus needs at least 3 rows and 3 columns (fewer would repeat "
                    f"borders), got {rows}x{cols}"
                )
            candidates = np.stack(
                (
                    (r - 1) % rows * cols + c,
                    r * cols + (c - 1) % cols,
                    r * cols + (c + 1) % cols,
                    (r + 1) % rows * cols + c,
                ),
                axis=1,
            )
            candidates.sort(axis=1)
            indices = candidates.ravel()
            indptr = np.arange(n + 1, dtype=np.int64) * 4
        else:
            ids = r * cols + c
            # Up, left, right, down is already ascending order.
            candidates = np.stack((ids - cols, ids - 1, ids + 1, ids + cols), axis=1)
            present = np.stack((r > 0, c > 0, c < cols - 1, r < rows - 1), axis=1)
            indices = candidates[present]
            indptr = np.zeros(n + 1, dtype=np.int64)
            np.cumsum(present.sum(axis=1), out=indptr[1:])
        positions = np.stack((c, rows - 1 - r), axis=1).astype(np.float64)
        kind = f"grid:{rows}x{cols}" + (":torus" if torus else "")
        return cls._trusted(indptr, indices, positions=positions, kind=kind)

    @classmethod
    def random_geometric(
        cls,
        n: int,
        radius: float | None = None,
        *,
        mean_degree: float = 8.0,
        seed: int = 0,
    ) -> Board:
        """``n`` points uniform in the unit square; a border joins points at distance
        ``<= radius``. Without ``radius`` it is chosen for ``mean_degree``:
        ``sqrt(mean_degree / (pi (n - 1)))`` (the mean is slightly lower near the edges of
        the square); ``mean_degree`` is ignored when ``radius`` is given. Positions are the
        points, numbered row of cells by row of cells (cells about ``radius`` wide, every
        other row reversed). Needs scipy (``cKDTree``).
        """
        from scipy.spatial import cKDTree

        n = _territory_count("n", n)
        seed = _validate.seed(seed)
        if radius is None:
            degree = _positive_float("mean_degree", mean_degree)
            radius = math.sqrt(degree / (math.pi * max(n - 1, 1)))
            kind = f"rgg:{n}:degree={degree!r}:seed={seed}"
        else:
            radius = _positive_float("radius", radius)
            kind = f"rgg:{n}:radius={radius!r}:seed={seed}"
        points = _uniforms(seed, "conquest.board.rgg", 2 * n).reshape(n, 2)
        # Number the territories along a boustrophedon of cells about one radius wide, so
        # neighbours sit close together in memory (a turn runs ~2.5x faster than with the
        # points in drawing order).
        cells = max(1, min(int(1.0 / radius), 1 << 20))
        column = np.minimum((points[:, 0] * cells).astype(np.int64), cells - 1)
        row = np.minimum((points[:, 1] * cells).astype(np.int64), cells - 1)
        column = np.where(row % 2 == 0, column, cells - 1 - column)
        points = points[np.lexsort((column, row))]
        pairs = cKDTree(points).query_pairs(radius, output_type="ndarray").astype(np.int64)
        indptr, indices = _csr(pairs[:, 0], pairs[:, 1], n)
        return cls._trusted(indptr, indices, positions=points, kind=kind)

    @classmethod
    def erdos_renyi(
        cls,
        n: int,
        p: float | None = None,
        *,
        mean_degree: float | None = None,
        seed: int = 0,
    ) -> Board:
        """G(n, p): each of the ``n (n - 1) / 2`` pairs is a border with probability ``p``,
        independently (give ``p`` or ``mean_degree = p (n - 1)``, not both).

        Exact, in O(n + m): the gaps between chosen pairs (in the order (0, 1), (0, 2), ...,
        (1, 2), ...) are geometric, ``floor(ln u / ln(1 - p))``, computed with the RNG's
        platform-independent logarithm so the board is the same on every machine.
        """
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
        if p == 1.0:
            complete = cls.complete(n)
            return cls._trusted(complete.indptr, complete.indices, kind=kind)
        total = n * (n - 1) // 2
        chosen = _gnp_pairs(seed, total, p)
        # Row x of the pair order starts at pair index x (2n - x - 1) / 2.
        ids = np.arange(n, dtype=np.int64)
        row_starts = ids * (2 * n - ids - 1) // 2
        u = np.searchsorted(row_starts, chosen, side="right") - 1
        v = chosen - row_starts[u] + u + 1
        indptr, indices = _csr(u, v, n)
        return cls._trusted(indptr, indices, kind=kind)

    @classmethod
    def barabasi_albert(cls, n: int, m: int, *, seed: int = 0) -> Board:
        """Preferential attachment: a star on territories ``0..m`` (centre 0), then each new
        territory ``v = m+1 .. n-1`` borders ``m`` distinct earlier territories, each drawn
        with probability proportional to its degree (as networkx does). Each draw depends on
        the ones before, so this runs one Python step per draw (about a second per million
        borders).
        """
        m = _validate.integer("m", m, 1)
        n = _territory_count("n", n, low=m + 1)
        seed = _validate.seed(seed)
        # Every border appends both ends, so a uniform pick from `ends` is degree-weighted.
        ends: list[int] = []
        for leaf in range(1, m + 1):
            ends += (0, leaf)
        words = _words(seed, "conquest.board.ba")
        for v in range(m + 1, n):
            size = len(ends)
            rejected_below = (1 << 64) % size
            targets: list[int] = []
            while len(targets) < m:
                word = next(words)
                if word < rejected_below:
                    continue
                target = ends[word % size]
                if target not in targets:
                    targets.append(target)
            for target in targets:
                ends += (target, v)
        pairs = np.array(ends, dtype=np.int64).reshape(-1, 2)
        indptr, indices = _csr(pairs[:, 0], pairs[:, 1], n)
        return cls._trusted(indptr, indices, kind=f"ba:{n}:{m}:seed={seed}")

    @classmethod
    def risk_world(cls) -> Board:
        """The classic RISK world map (:mod:`stratagem.conquest.worldmap`): 42 named
        territories, 6 continents, 83 borders, positions as rough longitude and latitude."""
        ids = {name: i for i, name in enumerate(worldmap.TERRITORIES)}
        edges = [(ids[a], ids[b]) for a, b in worldmap.BORDERS]
        indptr, indices = _csr_from_edge_list(edges, len(ids))
        return cls._trusted(
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

    @classmethod
    def from_spec(cls, text: str) -> Board:
        """A board from its command-line spec.

        ``complete:N``, ``star:N``, ``ring:N``, ``grid:RxC``, ``grid:RxC:torus``,
        ``rgg:N`` (with ``:radius=R`` or ``:degree=D``, default degree 8), ``er:N:P`` or
        ``er:N:degree=D``, ``ba:N:M``, ``risk``; the random ones take ``:seed=S`` (default 0).
        """
        if not isinstance(text, str):
            raise InvalidParameter(f"a board spec must be a string, got {text!r}")
        fields = [field.strip() for field in text.strip().split(":")]
        name = fields[0].lower()
        positional = [field for field in fields[1:] if "=" not in field]
        options: dict[str, str] = {}
        for field in fields[1:]:
            if "=" in field:
                key, _, value = field.partition("=")
                key = key.strip().lower()
                if key in options:
                    raise InvalidParameter(f"board spec {text!r}: option {key!r} is repeated")
                options[key] = value.strip()
        spec = _Spec(text, positional, options)
        if name in ("complete", "star", "ring"):
            spec.expect(1, ())
            size = spec.integer(0, "n")
            maker = {"complete": cls.complete, "star": cls.star, "ring": cls.ring}[name]
            return maker(size)
        if name == "grid":
            spec.expect(1, (), optional="torus")
            rows_text, _, cols_text = spec.positional[0].lower().partition("x")
            rows = spec.parse_int(rows_text, "rows (grid:RxC)")
            cols = spec.parse_int(cols_text, "cols (grid:RxC)")
            return cls.grid(rows, cols, torus=len(spec.positional) == 2)
        if name == "rgg":
            spec.expect(1, ("radius", "degree", "seed"))
            if "radius" in options and "degree" in options:
                raise InvalidParameter(f"board spec {text!r}: give radius or degree, not both")
            radius = spec.float_option("radius")
            degree = spec.float_option("degree")
            return cls.random_geometric(
                spec.integer(0, "n"),
                radius,
                mean_degree=8.0 if degree is None else degree,
                seed=spec.seed(),
            )
        if name == "er":
            spec.expect(1, ("degree", "seed"), optional="p")
            if (len(spec.positional) == 2) == ("degree" in options):
                raise InvalidParameter(
                    f"board spec {text!r}: er needs exactly one of a probability (er:N:P) "
                    f"and degree=D"
                )
            p = spec.parse_float(spec.positional[1], "p") if len(spec.positional) == 2 else None
            return cls.erdos_renyi(
                spec.integer(0, "n"),
                p,
                mean_degree=spec.float_option("degree"),
                seed=spec.seed(),
            )
        if name == "ba":
            spec.expect(2, ("seed",))
            return cls.barabasi_albert(spec.integer(0, "n"), spec.integer(1, "m"), seed=spec.seed())
        if name == "risk":
            spec.expect(0, ())
            return cls.risk_world()
        raise InvalidParameter(
            f"board spec {text!r}: unknown board {fields[0]!r}; expected complete, star, ring, "
            f"grid, rgg, er, ba or risk"
        )


# -- initial assignment --------------------------------------------------------------------


def assign_random(board: Board, n_teams: int, seed: int) -> IntArray:
    """A balanced random assignment: the territories in random order (sorted by word ``i`` of
    stream ``(seed, "conquest.assign.random")``, ties by id), the one at rank ``r`` to team
    ``r % n_teams``. Team sizes differ by at most one."""
    board = _board(board)
    teams = _team_count(board, n_teams)
    order = _random_order(_validate.seed(seed), "conquest.assign.random", board.n)
    team = np.empty(board.n, dtype=np.int64)
    team[order] = np.arange(board.n, dtype=np.int64) % teams
    return team


def assign_regions(board: Board, n_teams: int, seed: int) -> IntArray:
    """Contiguous regions: team ``t`` starts from the territory of rank ``t`` in the random
    order of stream ``(seed, "conquest.assign.regions")``, and all regions grow together by
    breadth-first search, one level at a time; a territory reached by several teams in the
    same level goes to the lowest team id. Each region is connected. Territories no start can
    reach (other components) get the team :func:`assign_random` gives them with this seed."""
    board = _board(board)
    teams = _team_count(board, n_teams)
    seed = _validate.seed(seed)
    indptr, indices = board.indptr, board.indices
    team = np.full(board.n, -1, dtype=np.int64)
    frontier = _random_order(seed, "conquest.assign.regions", board.n)[:teams]
    team[frontier] = np.arange(teams, dtype=np.int64)
    while frontier.size:
        starts = indptr[frontier]
        counts = indptr[frontier + 1] - starts
        reached = indices[_concatenated_ranges(starts, counts)]
        owners = np.repeat(team[frontier], counts)
        free = team[reached] < 0
        # Sorted keys put each territory's lowest claiming team first.
        keys = np.unique(reached[free] * teams + owners[free])
        territories, owners = np.divmod(keys, teams)
        first = np.ones(territories.shape[0], dtype=bool)
        first[1:] = territories[1:] != territories[:-1]
        frontier = territories[first]
        team[frontier] = owners[first]
    unreached = team < 0
    if unreached.any():
        team[unreached] = assign_random(board, teams, seed)[unreached]
    return team


def assign_continents(board: Board) -> IntArray:
    """One team per continent, numbered in the board's continent order (on the RISK map:
    North America 0, South America 1, Europe 2, Africa 3, Asia 4, Australia 5)."""
    board = _board(board)
    continents = board.continents
    if continents is None:
        raise InvalidBoard(f"{board!r} has no continents")
    team = np.full(board.n, -1, dtype=np.int64)
    for index, members in enumerate(continents.values()):
        team[list(members)] = index
    missing = np.flatnonzero(team < 0)
    if missing.size:
        raise InvalidBoard(f"{_territory(board, int(missing[0]))} is in no continent")
    if len(continents) < 2 or len(continents) > MAX_TEAMS:
        raise InvalidBoard(f"a game needs 2 to {MAX_TEAMS} teams, got {len(continents)} continents")
    return team


def troops_uniform(board: Board, amount: int) -> IntArray:
    """``amount`` troops on every territory."""
    board = _board(board)
    amount = _validate.integer("amount", amount, 0, TROOP_LIMIT)
    return np.full(board.n, amount, dtype=np.int64)


def troops_given(board: Board, troops: ArrayLike) -> IntArray:
    """A checked int64 copy of ``troops``: one integer from 0 to ``TROOP_LIMIT`` (2**40) per
    territory; errors name the territory."""
    board = _board(board)
    array = np.asarray(troops)
    if array.shape != (board.n,):
        raise InvalidParameter(
            f"troops must have shape ({board.n},), one entry per territory, got {array.shape}"
        )
    if array.dtype == object:
        for x, value in enumerate(array.tolist()):
            _troop_entry(board, x, value)
        return np.array(array.tolist(), dtype=np.int64)
    if array.dtype.kind not in "iu":
        raise InvalidParameter(f"troops must be integers, got dtype {array.dtype}")
    bad = np.flatnonzero((array < 0) | (array > TROOP_LIMIT))
    if bad.size:
        _troop_entry(board, int(bad[0]), int(array[bad[0]]))
    return array.astype(np.int64)


# -- helpers -------------------------------------------------------------------------------


def _rebuild(indptr: IntArray, indices: IntArray, metadata: dict[str, Any]) -> Board:
    """Unpickling: the pickled board was checked when it was made."""
    return Board._trusted(indptr, indices, **metadata)


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


def _board(board: object) -> Board:
    if not isinstance(board, Board):
        raise InvalidParameter(f"expected a Board, got {type(board).__name__}")
    return board


def _territory(board: Board, x: int) -> str:
    names = board.names
    return f"territory {x}" + ("" if names is None else f" ({names[x]})")


def _troop_entry(board: Board, x: int, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidParameter(f"troops[{x}] must be an integer, got {value!r}")
    value = int(value)
    if value < 0:
        raise InvalidParameter(f"troops[{x}] = {value} is negative ({_territory(board, x)})")
    if value > TROOP_LIMIT:
        raise InvalidParameter(
            f"troops[{x}] = {value} exceeds TROOP_LIMIT = {TROOP_LIMIT} ({_territory(board, x)})"
        )


def _team_count(board: Board, n_teams: int) -> int:
    teams = _validate.integer("n_teams", n_teams, 2, MAX_TEAMS)
    if teams > board.n:
        raise InvalidParameter(f"n_teams = {teams} exceeds the {board.n} territories")
    return teams


def _territory_count(name: str, value: int, low: int = 1) -> int:
    count = _validate.integer(name, value, low)
    _check_count(name, count)
    return count


def _check_count(name: str, count: int) -> None:
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


def _frozen(array: NDArray[Any]) -> NDArray[Any]:
    # Every array reaching here is a fresh copy or already frozen: nothing else can write it.
    array = np.ascontiguousarray(array)
    array.flags.writeable = False
    return array


def _id_vector(name: str, value: ArrayLike) -> IntArray:
    array = np.asarray(value)
    if array.ndim != 1:
        raise InvalidParameter(f"{name} must be one-dimensional, got shape {array.shape}")
    if array.size == 0:
        return np.zeros(0, dtype=np.int64)
    if array.dtype.kind not in "iu":
        raise InvalidParameter(f"{name} must hold integers, got dtype {array.dtype}")
    if array.dtype.kind == "u" and int(array.max()) > np.iinfo(np.int64).max:
        raise InvalidBoard(f"{name} holds {int(array.max())}, beyond any territory id")
    return np.array(array, dtype=np.int64)


def _check_csr(indptr: IntArray, indices: IntArray) -> None:
    """Refuse a CSR pair that is not an undirected simple graph, naming the territory."""
    n = indptr.shape[0] - 1
    if n < 1:
        raise InvalidBoard("a board needs at least one territory: indptr must have n + 1 >= 2")
    _check_count("the number of territories", n)
    if indptr[0] != 0 or indptr[-1] != indices.shape[0]:
        raise InvalidBoard(
            f"indptr must start at 0 and end at len(indices) = {indices.shape[0]}, got "
            f"{indptr[0]} and {indptr[-1]}"
        )
    degree = np.diff(indptr)
    bad = np.flatnonzero(degree < 0)
    if bad.size:
        x = int(bad[0])
        raise InvalidBoard(f"indptr decreases at territory {x}: {indptr[x]} then {indptr[x + 1]}")
    sources = np.repeat(np.arange(n, dtype=np.int64), degree)
    bad = np.flatnonzero((indices < 0) | (indices >= n))
    if bad.size:
        e = int(bad[0])
        raise InvalidBoard(
            f"territory {sources[e]} has neighbour {indices[e]}, outside 0..{n - 1} (indices[{e}])"
        )
    bad = np.flatnonzero(indices == sources)
    if bad.size:
        raise InvalidBoard(f"territory {sources[bad[0]]} lists itself as a neighbour")
    bad = np.flatnonzero((sources[1:] == sources[:-1]) & (indices[1:] <= indices[:-1]))
    if bad.size:
        e = int(bad[0])
        raise InvalidBoard(
            f"the neighbours of territory {sources[e]} are not strictly increasing: "
            f"{indices[e]} then {indices[e + 1]}"
        )
    # Rows are sorted, so the keys x * n + y already ascend; symmetry means the keys of the
    # reversed directions are the same set.
    keys = sources * n + indices
    reversed_keys = np.sort(indices * n + sources)
    where = np.minimum(np.searchsorted(reversed_keys, keys), keys.shape[0] - 1)
    bad = np.flatnonzero(reversed_keys[where] != keys)
    if bad.size:
        x, y = int(sources[bad[0]]), int(indices[bad[0]])
        raise InvalidBoard(f"territory {x} lists {y} as a neighbour but {y} does not list {x}")


def _check_names(names: Iterable[str] | None, n: int) -> tuple[str, ...] | None:
    if names is None:
        return None
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise InvalidParameter(f"names must be a sequence of strings, got {names!r}")
    result = tuple(names)
    if len(result) != n:
        raise InvalidParameter(f"names must have one entry per territory ({n}), got {len(result)}")
    first_use: dict[str, int] = {}
    for x, name in enumerate(result):
        if not isinstance(name, str):
            raise InvalidParameter(f"names[{x}] must be a string, got {name!r}")
        if name in first_use:
            raise InvalidBoard(f"names[{x}] {name!r} repeats names[{first_use[name]}]")
        first_use[name] = x
    return result


def _refuse_name_collisions(names: list[str], labels: list[Any]) -> None:
    first_use: dict[str, Any] = {}
    for name, label in zip(names, labels, strict=True):
        if name in first_use:
            raise InvalidBoard(
                f"nodes {first_use[name]!r} and {label!r} would both be named {name!r}"
            )
        first_use[name] = label


def _check_continents(
    continents: Mapping[Any, Any] | None, n: int
) -> tuple[tuple[str, tuple[int, ...]], ...] | None:
    if continents is None:
        return None
    if not isinstance(continents, Mapping):
        raise InvalidParameter(f"continents must be a mapping, got {continents!r}")
    owner: dict[int, str] = {}
    result = []
    for name, members in continents.items():
        if not isinstance(name, str):
            raise InvalidParameter(f"continent names must be strings, got {name!r}")
        if isinstance(members, str) or not isinstance(members, Iterable):
            raise InvalidParameter(f"continent {name!r} must list territory ids")
        ids = []
        for member in members:
            x = _validate.integer(f"a territory of continent {name!r}", member)
            if not 0 <= x < n:
                raise InvalidBoard(f"continent {name!r}: territory {x} is outside 0..{n - 1}")
            if x in owner:
                raise InvalidBoard(f"territory {x} is in both continents {owner[x]!r} and {name!r}")
            owner[x] = name
            ids.append(x)
        if not ids:
            raise InvalidBoard(f"continent {name!r} has no territory")
        result.append((name, tuple(sorted(ids))))
    return tuple(result)


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


def _check_positions(positions: ArrayLike | None, n: int) -> FloatArray | None:
    if positions is None:
        return None
    array = np.asarray(positions)
    if array.dtype.kind not in "iuf":
        raise InvalidParameter(f"positions must be numbers, got dtype {array.dtype}")
    if array.shape != (n, 2):
        raise InvalidParameter(f"positions must have shape ({n}, 2), got {array.shape}")
    array = np.array(array, dtype=np.float64)
    bad = np.flatnonzero(~np.isfinite(array).all(axis=1))
    if bad.size:
        raise InvalidParameter(f"positions[{bad[0]}] is not finite: {array[bad[0]].tolist()}")
    return array


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


def _csr_from_edge_list(edges: ArrayLike, n: int | None) -> tuple[IntArray, IntArray]:
    """Check an edge list (shape, ids, self-loops, repeats) and build its CSR pair."""
    if n is not None:
        n = _validate.integer("n", n)
        if n < 1:
            raise InvalidBoard(f"a board needs at least one territory, got n = {n}")
        _check_count("n", n)
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
    return _csr(ordered // n, ordered % n, n)


def _first_repeat(pairs: IntArray, keys: IntArray) -> str:
    """The message for the first edge (in input order) that repeats an earlier one."""
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    group_start = np.ones(ordered.shape[0], dtype=bool)
    group_start[1:] = ordered[1:] != ordered[:-1]
    first_of_group = order[np.flatnonzero(group_start)][np.cumsum(group_start) - 1]
    repeats = np.flatnonzero(~group_start)
    later = int(order[repeats].min())
    earlier = int(first_of_group[repeats][order[repeats] == later][0])
    a, b = (int(v) for v in pairs[later])
    c, d = (int(v) for v in pairs[earlier])
    return f"edge {later} ({a}, {b}) repeats edge {earlier} ({c}, {d})"


def _csr(u: IntArray, v: IntArray, n: int) -> tuple[IntArray, IntArray]:
    """The CSR pair of the simple graph with borders ``{u[i], v[i]}`` (no loops, no repeats):
    sorting the directed keys ``x * n + y`` orders the rows and each row at once."""
    keys = np.concatenate((u * n + v, v * n + u))
    keys.sort()
    np.remainder(keys, n, out=keys)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(u, minlength=n) + np.bincount(v, minlength=n), out=indptr[1:])
    return indptr, keys


def _circle(n: int) -> FloatArray:
    angles = np.arange(n) * (2.0 * math.pi / max(n, 1))
    return np.stack((np.cos(angles), np.sin(angles)), axis=1)


def _raw_words(seed: int, purpose: str, start_word: int, count: int) -> NDArray[np.uint64]:
    """Words ``start_word .. start_word + count - 1`` of a stream (``start_word % 4 == 0``)."""
    blocks = rng.blocks(seed, purpose, (), start_word // 4, -(-count // 4))
    return blocks.ravel()[:count]


def _uniforms(seed: int, purpose: str, count: int) -> FloatArray:
    return (_raw_words(seed, purpose, 0, count) >> np.uint64(11)).astype(np.float64) * _UNIT


def _words(seed: int, purpose: str, chunk: int = 1 << 16) -> Iterator[int]:
    """The words of a stream one by one, as Python ints, generated a chunk at a time."""
    start = 0
    while True:
        yield from _raw_words(seed, purpose, start, chunk).tolist()
        start += chunk


def _random_order(seed: int, purpose: str, n: int) -> IntArray:
    """The territories sorted by their words of the stream (ties, almost impossible, by id)."""
    return np.argsort(_raw_words(seed, purpose, 0, n), kind="stable").astype(np.int64)


def _concatenated_ranges(starts: IntArray, counts: IntArray) -> IntArray:
    """``concatenate([arange(s, s + c) for s, c in zip(starts, counts)])``, vectorised."""
    offsets = np.cumsum(counts) - counts
    return np.repeat(starts - offsets, counts) + np.arange(int(counts.sum()), dtype=np.int64)


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
        return oracle.det_ln(1.0 - p)  # 1 - p is exact here
    total, power, k = 0.0, p, 1
    while power / k > total * 2.0**-60:
        total += power / k
        power *= p
        k += 1
    return -total


def _gnp_pairs(seed: int, total: int, p: float) -> IntArray:
    """The pair indices in ``0..total-1`` chosen with probability ``p`` each, ascending."""
    if p == 0.0 or total == 0:
        return np.zeros(0, dtype=np.int64)
    log_q = _ln_one_minus(p)
    parts = []
    last, word = -1, 0
    while True:
        expected = (total - last) * p
        # Enough words to finish with high probability, in slices that bound the temporaries.
        chunk = 4 * (min(int(expected + 6.0 * math.sqrt(expected) + 16.0), 1 << 20) // 4 + 1)
        bits = _raw_words(seed, "conquest.board.er", word, chunk) >> np.uint64(11)
        word += chunk
        u = 1.0 - bits.astype(np.float64) * _UNIT  # in (0, 1]
        gaps = np.minimum(np.floor(_det_ln(u) / log_q), float(total)).astype(np.int64)
        chosen = last + np.cumsum(gaps + 1)
        parts.append(chosen[chosen < total])
        if chosen[-1] >= total:
            return np.concatenate(parts)
        last = int(chosen[-1])
