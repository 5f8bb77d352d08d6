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

import numbers
import os
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from stratagem import _core, _validate, graph
from stratagem.conquest.boards import board_files, layouts
from stratagem.conquest.boards.layouts import MAX_TERRITORIES, Layout
from stratagem.errors import InvalidBoard, InvalidParameter
from stratagem.graph import FloatArray, IntArray
from stratagem.progress import Progress, ProgressOption

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

# The engine's limits (docs/conquest-rules.md).
#: Teams per game.
MAX_TEAMS: int = _core.conquest.MAX_TEAMS
#: The most troops a territory holds (2**40).
TROOP_LIMIT: int = _core.conquest.TROOP_LIMIT


# The shared CSR check (stratagem.graph) in conquest's words.
_GRAPH_CHECK = graph.GraphShape(
    node="territory",
    offsets_name="indptr",
    neighbours_name="indices",
    min_nodes=1,
    max_nodes=MAX_TERRITORIES,
    isolated_ok=True,
    connected=False,
)


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
        indptr_array = graph.id_vector("indptr", indptr, node="territory", objects=False)
        indices_array = graph.id_vector("indices", indices, node="territory", objects=False)
        graph.check_graph(indptr_array, indices_array, _GRAPH_CHECK)
        self._assign(
            Layout(
                indptr_array,
                indices_array,
                names=names,
                continents=continents,
                positions=positions,
                kind=kind,
            )
        )

    @classmethod
    def _trusted(cls, layout: Layout) -> Board:
        """The board of a layout whose CSR pair was built correctly (by
        :mod:`stratagem.conquest.boards.layouts`, or checked before): not checked again."""
        board = object.__new__(cls)
        board._assign(layout)
        return board

    @classmethod
    def _checked(cls, layout: Layout) -> Board:
        """The board of a layout whose CSR pair is fresh int64 arrays nothing else holds,
        checked as ``Board(...)`` checks it, without copying them."""
        graph.check_graph(layout.indptr, layout.indices, _GRAPH_CHECK)
        return cls._trusted(layout)

    def _assign(self, layout: Layout) -> None:
        """Checks the layout's names, continents, positions and kind, and fills the slots."""
        n = layout.indptr.shape[0] - 1
        checked = _validate.points("positions", layout.positions, n)
        if not isinstance(layout.kind, str):
            raise InvalidParameter(f"kind must be a string, got {layout.kind!r}")
        values = {
            "_indptr": graph.frozen(layout.indptr, fresh=True),
            "_indices": graph.frozen(layout.indices, fresh=True),
            "_names": _validate.distinct_entries(
                "names",
                layout.names,
                n,
                "territory",
                entry=(str, "string"),
                repeated=InvalidBoard,
            ),
            "_continents": _check_continents(layout.continents, n),
            "_positions": None if checked is None else graph.frozen(checked, fresh=True),
            "_kind": layout.kind,
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

    def _layout(self) -> Layout:
        """The board as plain data (its own read-only arrays), what its files are written from."""
        return Layout(
            self._indptr,
            self._indices,
            kind=self._kind,
            names=self._names,
            continents=self.continents,
            positions=self._positions,
        )

    def to_arrays(self) -> dict[str, NDArray[Any]]:
        """The board as named arrays (no pickled objects): ``indptr``, ``indices``, ``meta``
        (a JSON string: format, version, kind, names, continents) and, if any,
        ``positions``. :meth:`from_arrays` reads them back; :meth:`save` stores them."""
        return board_files.to_arrays(self._layout())

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, ArrayLike]) -> Board:
        """The board :meth:`to_arrays` described; everything is checked again, and anything
        missing or malformed raises ``InvalidBoard``."""
        return board_files.from_arrays(cls, arrays)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the board to ``path`` (an ``.npz`` archive, written to exactly that path),
        uncompressed, so that its CSR can be read by slices
        (:func:`~stratagem.conquest.boards.board_files.map_csr`), and without copying the board."""
        board_files.save(self._layout(), path)

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, progress: ProgressOption = None) -> Board:
        """Read a board written by :meth:`save` (by this version or an earlier one). The
        graph is checked again; a file that is not a valid board raises ``InvalidBoard``
        naming the file. ``progress`` (:mod:`stratagem.progress`) draws a bar on stderr, or
        is told, as the file is read and checked."""
        return board_files.load(cls, cls._checked, path, progress=progress)

    @property
    def engine(self) -> Any:
        """The board in the Rust engine (``stratagem._core.conquest.Board``), built on first
        use and shared by every game on this board."""
        if self._engine is None:
            engine = _core.conquest.Board(self._indptr, self._indices)
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
        layout = layouts.from_edges(edges, n)
        return cls._trusted(
            replace(layout, names=names, continents=continents, positions=positions)
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
        return cls._trusted(layouts.from_networkx(graph))

    # -- generators ------------------------------------------------------------------------

    @classmethod
    def complete(cls, n: int) -> Board:
        """Every pair of the ``n`` territories shares a border; positions on a circle."""
        return cls._trusted(layouts.complete(n))

    @classmethod
    def star(cls, n: int) -> Board:
        """Territory 0 borders each of the other ``n - 1``, which border nothing else."""
        return cls._trusted(layouts.star(n))

    @classmethod
    def ring(cls, n: int) -> Board:
        """A cycle ``0 - 1 - ... - (n-1) - 0`` (``n >= 3``); positions on a circle."""
        return cls._trusted(layouts.ring(n))

    @classmethod
    def grid(cls, rows: int, cols: int, torus: bool = False) -> Board:
        """A ``rows x cols`` grid with 4-neighbour borders; territory ``r * cols + c``.

        ``torus=True`` also joins the first and last row and column (it needs at least 3 of
        each, or borders would repeat). Positions: ``(c, rows - 1 - r)``, row 0 on top.
        """
        return cls._trusted(layouts.grid(rows, cols, torus))

    @classmethod
    def random_geometric(
        cls,
        n: int,
        radius: float | None = None,
        *,
        mean_degree: float = 8.0,
        seed: int = 0,
        progress: ProgressOption = None,
    ) -> Board:
        """``n`` points uniform in the unit square; a border joins points at distance
        ``<= radius``. Without ``radius`` it is chosen for ``mean_degree``:
        ``sqrt(mean_degree / (pi (n - 1)))`` (the mean is slightly lower near the edges of
        the square); ``mean_degree`` is ignored when ``radius`` is given. Positions are the
        points, numbered row of cells by row of cells (cells about ``radius`` wide, every
        other row reversed). Needs scipy (``cKDTree``). ``progress``
        (:mod:`stratagem.progress`) draws a bar on stderr, or is told, as the points are drawn
        and their borders found.
        """
        layout = layouts.random_geometric(
            n, radius, mean_degree=mean_degree, seed=seed, progress=progress
        )
        return cls._trusted(layout)

    @classmethod
    def erdos_renyi(
        cls,
        n: int,
        p: float | None = None,
        *,
        mean_degree: float | None = None,
        seed: int = 0,
        progress: ProgressOption = None,
    ) -> Board:
        """G(n, p): each of the ``n (n - 1) / 2`` pairs is a border with probability ``p``,
        independently (give ``p`` or ``mean_degree = p (n - 1)``, not both).

        Exact, in O(n + m): the gaps between chosen pairs (in the order (0, 1), (0, 2), ...,
        (1, 2), ...) are geometric, ``floor(ln u / ln(1 - p))``, computed with the RNG's
        platform-independent logarithm so the board is the same on every machine.
        ``progress`` (:mod:`stratagem.progress`) counts the territories whose pairs are drawn.
        """
        layout = layouts.erdos_renyi(n, p, mean_degree=mean_degree, seed=seed, progress=progress)
        return cls._trusted(layout)

    @classmethod
    def barabasi_albert(
        cls, n: int, m: int, *, seed: int = 0, progress: ProgressOption = None
    ) -> Board:
        """Preferential attachment: a star on territories ``0..m`` (centre 0), then each new
        territory ``v = m+1 .. n-1`` borders ``m`` distinct earlier territories, each drawn
        with probability proportional to its degree (as networkx does), from stream ``(seed,
        "conquest.board.ba")``. Each draw depends on the ones before, so the engine grows the
        board one territory after another (``ba:10000000:2`` in about two seconds);
        ``progress`` (:mod:`stratagem.progress`) counts the territories added.
        """
        return cls._trusted(layouts.barabasi_albert(n, m, seed=seed, progress=progress))

    @classmethod
    def risk_world(cls) -> Board:
        """The classic RISK world map (:mod:`stratagem.conquest.boards.worldmap`): 42 named
        territories, 6 continents, 83 borders, positions as rough longitude and latitude."""
        return cls._trusted(layouts.risk_world())

    @classmethod
    def from_spec(cls, text: str, *, progress: ProgressOption = None) -> Board:
        """A board from its command-line spec.

        ``complete:N``, ``star:N``, ``ring:N``, ``grid:RxC``, ``grid:RxC:torus``,
        ``rgg:N`` (with ``:radius=R`` or ``:degree=D``, default degree 8), ``er:N:P`` or
        ``er:N:degree=D``, ``ba:N:M``, ``risk``; the random ones take ``:seed=S`` (default 0).
        A spec ending in ``.npz`` is the path of a board file (:meth:`save`), read by
        :meth:`load`; the board's kind is then the path (so that ``from_spec(board.kind)``
        reads it again). A file that is missing, unreadable or not a board raises
        ``InvalidBoard`` naming it. ``progress`` (:mod:`stratagem.progress`) is the bar of
        the long builds: a board file, a random geometric board.
        """
        if isinstance(text, str) and text.endswith(".npz"):
            return board_files.load(cls, cls._checked, text, kind=text, progress=progress)
        return cls._trusted(layouts.from_spec(text, progress=progress))


# -- initial assignment --------------------------------------------------------------------


def assign_random(board: Board, n_teams: int, seed: int) -> IntArray:
    """A balanced random assignment: the territories in random order (sorted by word ``i`` of
    stream ``(seed, "conquest.assign.random")``, ties by id), the one at rank ``r`` to team
    ``r % n_teams``. Team sizes differ by at most one."""
    board = _board(board)
    return random_teams(board.n, _team_count(board, n_teams), _validate.seed(seed))


def random_teams(n: int, teams: int, seed: int) -> IntArray:
    """The teams :func:`assign_random` gives the ``n`` territories of any board (checked
    ``teams`` and ``seed``)."""
    order = layouts.random_order(seed, "conquest.assign.random", n)
    team = np.empty(n, dtype=np.int64)
    team[order] = np.arange(n, dtype=np.int64) % teams
    return team


def assign_regions(
    board: Board, n_teams: int, seed: int, *, progress: ProgressOption = None
) -> IntArray:
    """Regions of equal size (they differ by at most one territory): the territories in one
    breadth-first order cut into ``n_teams`` consecutive pieces, the first to team 0.

    The order: from the first territory of the random order of stream ``(seed,
    "conquest.assign.regions")``, a breadth-first search finds the territory farthest from it
    (the lowest id among the farthest); the territories are ordered by their distance from
    that one, ties by id, and those it does not reach (other components) come last, by id.
    The territory at place ``p`` of ``n`` goes to team ``p * n_teams // n``. The first region
    is connected; on a grid each region is a band of whole diagonals from a corner once it is
    at least two diagonals wide (``docs/conquest.md``). ``progress``
    (:mod:`stratagem.progress`) counts the territories placed in the order."""
    board = _board(board)
    teams = _team_count(board, n_teams)
    seed = _validate.seed(seed)
    first = regions_first(board.n, seed)
    with Progress(board.n, "regions", enabled=progress) as bar:
        team = _core.conquest.regions_of(board.indptr, board.indices, first, teams, bar.reach)
        bar.reach(board.n)
    return team


def regions_first(n: int, seed: int) -> int:
    """The territory the regions of :func:`assign_regions` are searched from: the first of
    the ``n`` territories in the random order of stream ``(seed, "conquest.assign.regions")``."""
    return int(layouts.first_in_order(seed, "conquest.assign.regions", 0, n, 1)[0][1])


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
    return Board._trusted(Layout(indptr, indices, **metadata))


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
