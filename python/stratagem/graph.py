"""Undirected simple graphs in CSR form, the pieces the graph games (annexation, conquest)
share: the one structural check, building CSR from edges, and vectorised traversals.

A graph on nodes ``0..n-1`` is a pair of int64 arrays: ``offsets`` (``n + 1`` entries, from 0
to ``len(neighbours)``, never decreasing) and ``neighbours``, row ``x`` being
``neighbours[offsets[x]:offsets[x + 1]]``, each row strictly ascending, no node its own
neighbour and every edge listed in both rows. Each game names the pieces its own way (a
"cell" and ``offsets``/``neighbours`` in annexation, a "territory" and ``indptr``/``indices``
in conquest); :func:`check_graph` takes the names, so its messages use the game's words.
The boards run the engine's check (:func:`check_graph`, rust/core/src/graph.rs: a board of
ten million territories in well under a second); :func:`check_csr` is its mirror in numpy,
written for reading, which the tests drive with the same graphs and hold to the same verdicts
and messages.

>>> offsets, neighbours = csr(np.array([0, 1]), np.array([1, 2]), 3)
>>> offsets.tolist(), neighbours.tolist()
([0, 1, 3, 4], [1, 0, 2, 1])
>>> cells = GraphShape(node="cell", offsets_name="offsets", neighbours_name="neighbours",
...                    min_nodes=2, max_nodes=None, isolated_ok=False, connected=True)
>>> check_graph(offsets, neighbours, cells)
>>> distances(offsets, neighbours, [0]).tolist()
[0, 1, 2]
>>> check_csr(offsets, neighbours[::-1].copy(), cells)
Traceback (most recent call last):
...
stratagem.errors.InvalidBoard: the neighbours of cell 1 are not in ascending order: 2 then 0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stratagem import _core, _validate
from stratagem.errors import InvalidBoard, InvalidParameter

__all__ = [
    "BoolArray",
    "FloatArray",
    "GraphShape",
    "IntArray",
    "check_csr",
    "check_graph",
    "check_reach",
    "components",
    "concatenated_ranges",
    "csr",
    "csr_from_keys",
    "distances",
    "first_repeat",
    "frozen",
    "id_vector",
    "integer_array",
    "sources",
]

# The array types of the boards and maps, named once for every game.
BoolArray = NDArray[np.bool_]
FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

_INT64_MAX = int(np.iinfo(np.int64).max)
_INT64_MIN = int(np.iinfo(np.int64).min)


# -- the check -------------------------------------------------------------------------------

# The engine's node limit when the caller sets none (its counts are machine words).
_NO_NODE_LIMIT = 2**64 - 1


@dataclass(frozen=True)
class GraphShape:
    """What a game's boards may be, in the game's words (the engine's ``graph::Shape``): the
    name of a node and of the two arrays, the fewest and most nodes (None: no limit), whether
    a node may have no neighbour and whether every node must be reachable from node 0."""

    node: str
    offsets_name: str
    neighbours_name: str
    min_nodes: int
    max_nodes: int | None
    isolated_ok: bool
    connected: bool


def check_graph(offsets: IntArray, neighbours: IntArray, shape: GraphShape) -> None:
    """:func:`check_csr` run by the engine (``_core.graph.check``, on the arrays in place
    with the GIL released): the same defects in the same order, the same messages."""
    _core.graph.check(
        offsets,
        neighbours,
        shape.node,
        shape.offsets_name,
        shape.neighbours_name,
        shape.min_nodes,
        _NO_NODE_LIMIT if shape.max_nodes is None else shape.max_nodes,
        shape.isolated_ok,
        shape.connected,
    )


def _counted(count: int, node: str) -> str:
    """``1 territory``, ``2 cells``, ``5 territories``."""
    if count == 1:
        return f"1 {node}"
    return f"{count} {node[:-1]}ies" if node.endswith("y") else f"{count} {node}s"


def check_csr(offsets: IntArray, neighbours: IntArray, shape: GraphShape) -> None:
    """Refuse int64 ``offsets`` and ``neighbours`` that are not an undirected simple graph
    (:class:`~stratagem.errors.InvalidBoard`). The defects are checked kind by kind, in a
    fixed order, and each names the first offender (lowest node, then lowest entry):

    1. fewer than ``min_nodes`` nodes; 2. more than ``max_nodes`` (None: no limit);
    3. ``offsets`` not from 0 to ``len(neighbours)``; 4. ``offsets`` decreasing;
    5. a neighbour outside ``0..n-1``; 6. a node its own neighbour; 7. an edge listed twice;
    8. a row not ascending; 9. an edge listed in one direction only; 10. a node without
    neighbours (unless ``isolated_ok``); 11. a node not reachable from node 0 (if
    ``connected``), in the words of ``shape``. ``min_nodes`` is at least 1.
    """
    node, offsets_name, neighbours_name = shape.node, shape.offsets_name, shape.neighbours_name
    min_nodes, max_nodes = shape.min_nodes, shape.max_nodes
    n = max(offsets.shape[0] - 1, 0)
    if n < min_nodes:
        raise InvalidBoard(f"a board needs at least {_counted(min_nodes, node)}, got {n}")
    if max_nodes is not None and n > max_nodes:
        raise InvalidBoard(f"a board has at most {_counted(max_nodes, node)}, got {n}")
    m = neighbours.shape[0]
    if offsets[0] != 0 or offsets[-1] != m:
        raise InvalidBoard(
            f"{offsets_name} must start at 0 and end at len({neighbours_name}) = {m}, got "
            f"{offsets[0]} and {offsets[-1]}"
        )
    bad = np.flatnonzero(offsets[1:] < offsets[:-1])
    if bad.size:
        x = int(bad[0])
        raise InvalidBoard(
            f"{offsets_name} decreases at {node} {x}: {offsets[x]} then {offsets[x + 1]}"
        )
    source = sources(offsets)
    bad = np.flatnonzero((neighbours < 0) | (neighbours >= n))
    if bad.size:
        e = int(bad[0])
        raise InvalidBoard(f"{node} {source[e]} has neighbour {neighbours[e]}, outside 0..{n - 1}")
    bad = np.flatnonzero(neighbours == source)
    if bad.size:
        raise InvalidBoard(f"{node} {source[bad[0]]} lists itself as a neighbour")
    # Ids are in range now, so x * n + y is a unique key of the entry's direction. Rows that
    # strictly ascend (the usual case, checked in O(m)) cannot repeat an entry.
    keys = source * n + neighbours
    not_ascending = (source[1:] == source[:-1]) & (neighbours[1:] <= neighbours[:-1])
    if not_ascending.any():
        repeat = first_repeat(keys)
        if repeat is not None:
            x, y = sorted((int(source[repeat[0]]), int(neighbours[repeat[0]])))
            raise InvalidBoard(f"edge ({x}, {y}) is listed twice")
        e = int(np.flatnonzero(not_ascending)[0])
        raise InvalidBoard(
            f"the neighbours of {node} {source[e]} are not in ascending order: "
            f"{neighbours[e]} then {neighbours[e + 1]}"
        )
    # Rows ascend and hold no repeats, so `keys` ascends; the graph is symmetric when the
    # keys of the reversed directions are the same set.
    if m:
        reversed_keys = np.sort(neighbours * n + source)
        where = np.minimum(np.searchsorted(reversed_keys, keys), m - 1)
        bad = np.flatnonzero(reversed_keys[where] != keys)
        if bad.size:
            x, y = int(source[bad[0]]), int(neighbours[bad[0]])
            raise InvalidBoard(f"{node} {x} lists {y} as a neighbour but {y} does not list {x}")
    check_reach(
        offsets, neighbours, node=node, isolated_ok=shape.isolated_ok, connected=shape.connected
    )


def check_reach(
    offsets: IntArray, neighbours: IntArray, *, node: str, isolated_ok: bool, connected: bool
) -> None:
    """Defects 10 and 11 of :func:`check_csr` alone, for a graph known to be simple: a node
    without neighbours (unless ``isolated_ok``), a node out of reach of node 0 (if
    ``connected``)."""
    if not isolated_ok:
        lonely = np.flatnonzero(offsets[1:] == offsets[:-1])
        if lonely.size:
            raise InvalidBoard(f"{node} {lonely[0]} has no neighbours")
    if connected and offsets.shape[0] > 1:
        unreached = np.flatnonzero(distances(offsets, neighbours, [0]) < 0)
        if unreached.size:
            raise InvalidBoard(f"{node} {unreached[0]} cannot be reached from {node} 0")


# -- building --------------------------------------------------------------------------------


def sources(offsets: IntArray) -> IntArray:
    """The node each entry of ``neighbours`` belongs to (``offsets`` not decreasing)."""
    n = offsets.shape[0] - 1
    return np.repeat(np.arange(n, dtype=np.int64), np.diff(offsets))


def csr(u: IntArray, v: IntArray, n: int) -> tuple[IntArray, IntArray]:
    """The CSR pair of the simple graph on ``n`` nodes with edges ``{u[i], v[i]}`` (no loops,
    no repeats): every edge in both its rows, each row ascending, built by the engine (the
    entries placed by counting, the rows sorted in parallel)."""
    return _core.graph.csr(
        np.ascontiguousarray(u, dtype=np.int64), np.ascontiguousarray(v, dtype=np.int64), n
    )


def csr_from_keys(ordered: IntArray, n: int) -> tuple[IntArray, IntArray]:
    """The CSR pair of the edges ``{k // n, k % n}`` for sorted distinct keys ``k`` of
    edges ``x < y`` (``k = x * n + y``)."""
    return csr(ordered // n, ordered % n, n)


def first_repeat(keys: IntArray) -> tuple[int, int] | None:
    """``(later, earlier)``: the first position whose key equals an earlier one, and the
    first position holding that key; None when the keys are distinct."""
    if keys.shape[0] < 2:
        return None
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    group_start = np.ones(ordered.shape[0], dtype=bool)
    group_start[1:] = ordered[1:] != ordered[:-1]
    repeats = np.flatnonzero(~group_start)
    if not repeats.size:
        return None
    first_of_group = order[np.flatnonzero(group_start)][np.cumsum(group_start) - 1]
    later_positions = order[repeats]
    pick = int(np.argmin(later_positions))
    return int(later_positions[pick]), int(first_of_group[repeats[pick]])


# -- traversal -------------------------------------------------------------------------------


def concatenated_ranges(starts: IntArray, counts: IntArray) -> IntArray:
    """``concatenate([arange(s, s + c) for s, c in zip(starts, counts)])``, vectorised."""
    begins = np.cumsum(counts) - counts
    return np.repeat(starts - begins, counts) + np.arange(int(counts.sum()), dtype=np.int64)


def distances(offsets: IntArray, neighbours: IntArray, origins: Sequence[int]) -> IntArray:
    """Graph distances from the nearest of ``origins`` (-1 where unreachable), one
    breadth-first level at a time."""
    distance = np.full(offsets.shape[0] - 1, -1, dtype=np.int64)
    frontier = np.unique(np.asarray(origins, dtype=np.int64))
    distance[frontier] = 0
    level = 0
    while frontier.size:
        level += 1
        starts = offsets[frontier]
        reached = neighbours[concatenated_ranges(starts, offsets[frontier + 1] - starts)]
        frontier = np.unique(reached[distance[reached] < 0])
        distance[frontier] = level
    return distance


def components(n: int, u: IntArray, v: IntArray) -> IntArray:
    """The lowest node of the connected component of every node, for the edges ``(u, v)``:
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


# -- arrays ----------------------------------------------------------------------------------


def frozen(array: NDArray[Any], *, fresh: bool = False) -> NDArray[Any]:
    """A read-only C-contiguous array nothing else can write. A frozen array (read-only,
    owning its data) is shared; with ``fresh`` the caller promises nothing else holds
    ``array``, which is frozen in place when contiguous; anything else is copied."""
    if fresh:
        array = np.ascontiguousarray(array)
        array.flags.writeable = False
        return array
    if not array.flags.writeable and array.base is None and array.flags.c_contiguous:
        return array
    array = np.array(array, copy=True, order="C")
    array.flags.writeable = False
    return array


def integer_array(name: str, value: object, ndim: int) -> NDArray[Any]:
    """``value`` as an integer array of ``ndim`` dimensions (bools and floats refused; Python
    ints in an object array are checked one by one and must fit in int64)."""
    array = np.asarray(value)
    if array.ndim != ndim:
        raise InvalidParameter(f"{name} must have {ndim} dimension(s), got shape {array.shape}")
    if array.size == 0:
        return array.astype(np.int64)
    if array.dtype == object:
        flat = [_validate.integer(f"{name} entry", v, high=None) for v in array.ravel().tolist()]
        if min(flat) < _INT64_MIN or max(flat) > _INT64_MAX:
            raise InvalidBoard(f"{name} holds an id beyond 64 bits")
        return np.array(flat, dtype=np.int64).reshape(array.shape)
    if array.dtype.kind not in "iu":
        raise InvalidParameter(f"{name} must hold integers, got dtype {array.dtype}")
    return array


def id_vector(name: str, value: object, *, node: str, objects: bool) -> IntArray:
    """``value`` as a new int64 vector of ``node`` ids. With ``objects``, an object array of
    Python ints is accepted (:func:`integer_array`); without, only integer dtypes, and the
    shape message says "one-dimensional". Unsigned values beyond int64 raise
    ``InvalidBoard``."""
    if objects:
        array = integer_array(name, value, 1)
    else:
        array = np.asarray(value)
        if array.ndim != 1:
            raise InvalidParameter(f"{name} must be one-dimensional, got shape {array.shape}")
        if array.size == 0:
            return np.zeros(0, dtype=np.int64)
        if array.dtype.kind not in "iu":
            raise InvalidParameter(f"{name} must hold integers, got dtype {array.dtype}")
    if array.dtype.kind == "u" and array.size and int(array.max()) > _INT64_MAX:
        raise InvalidBoard(f"{name} holds {int(array.max())}, beyond any {node} id")
    return np.array(array, dtype=np.int64)
