"""The shared CSR graph helpers (stratagem.graph): the one structural check both graph games
use, with its exact messages, and the builders and traversals beside it."""

from __future__ import annotations

import itertools
import re
from collections import deque
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from edge_lists import bfs_distances
from stratagem import _core, graph
from stratagem.errors import InvalidBoard, InvalidParameter

CELLS: dict[str, Any] = {
    "node": "cell",
    "offsets_name": "offsets",
    "neighbours_name": "neighbours",
    "min_nodes": 2,
    "max_nodes": None,
    "isolated_ok": False,
    "connected": True,
}
TERRITORIES: dict[str, Any] = {
    "node": "territory",
    "offsets_name": "indptr",
    "neighbours_name": "indices",
    "min_nodes": 1,
    "max_nodes": 5,
    "isolated_ok": True,
    "connected": False,
}


def check(offsets: list[int], neighbours: list[int], words: dict[str, Any]) -> None:
    graph.check_csr(
        np.array(offsets, dtype=np.int64),
        np.array(neighbours, dtype=np.int64),
        graph.GraphShape(**words),
    )


def refused(offsets: list[int], neighbours: list[int], words: dict[str, Any]) -> str:
    with pytest.raises(InvalidBoard) as caught:
        check(offsets, neighbours, words)
    return str(caught.value)


# -- one test per defect, in the order they are checked ------------------------------------


def test_too_few_nodes():
    assert refused([0, 0], [], CELLS) == "a board needs at least 2 cells, got 1"
    assert refused([], [], CELLS) == "a board needs at least 2 cells, got 0"
    assert refused([0], [], TERRITORIES) == "a board needs at least 1 territory, got 0"


def test_too_many_nodes():
    offsets = [0] * 7
    assert refused(offsets, [], TERRITORIES) == "a board has at most 5 territories, got 6"
    # Before anything else is looked at: these offsets do not even end at len(neighbours).
    assert refused([0] * 6 + [9], [], TERRITORIES) == "a board has at most 5 territories, got 6"


def test_offsets_must_span_the_neighbours():
    message = "offsets must start at 0 and end at len(neighbours) = 2, got 1 and 2"
    assert refused([1, 1, 2], [1, 0], CELLS) == message
    message = "indptr must start at 0 and end at len(indices) = 2, got 0 and 3"
    assert refused([0, 1, 3], [1, 0], TERRITORIES) == message


def test_offsets_decrease():
    assert refused([0, 2, 1, 2], [1, 2], CELLS) == "offsets decreases at cell 1: 2 then 1"
    assert (
        refused([0, 2, 1, 3, 3], [1, 2, 0], TERRITORIES)
        == "indptr decreases at territory 1: 2 then 1"
    )


def test_neighbour_out_of_range():
    assert refused([0, 1, 2], [1, 2], CELLS) == "cell 1 has neighbour 2, outside 0..1"
    assert refused([0, 1, 2], [-1, 0], CELLS) == "cell 0 has neighbour -1, outside 0..1"


def test_self_loop():
    assert refused([0, 1, 3], [1, 0, 1], CELLS) == "cell 1 lists itself as a neighbour"


def test_edge_listed_twice():
    assert refused([0, 2, 3], [1, 1, 0], CELLS) == "edge (0, 1) is listed twice"
    # Named with the lower id first, from the row where the repeat occurs.
    assert refused([0, 1, 4, 5], [1, 0, 2, 2, 1], CELLS) == "edge (1, 2) is listed twice"
    # A repeat counts even when the row is also out of order.
    assert refused([0, 3, 4, 5], [2, 1, 2, 0, 0], CELLS) == "edge (0, 2) is listed twice"


def test_row_not_ascending():
    message = "the neighbours of cell 0 are not in ascending order: 2 then 1"
    assert refused([0, 2, 3, 4], [2, 1, 0, 0], CELLS) == message


def test_one_way_edge():
    assert (
        refused([0, 1, 1], [1], TERRITORIES)
        == "territory 0 lists 1 as a neighbour but 1 does not list 0"
    )
    assert (
        refused([0, 1, 3, 4], [1, 0, 2, 0], CELLS)
        == "cell 1 lists 2 as a neighbour but 2 does not list 1"
    )


def test_isolated_node():
    assert refused([0, 1, 2, 2], [1, 0], CELLS) == "cell 2 has no neighbours"
    check([0, 1, 2, 2], [1, 0], TERRITORIES)  # isolated territories are fine


def test_unreachable_node():
    assert refused([0, 1, 2, 3, 4], [1, 0, 3, 2], CELLS) == "cell 2 cannot be reached from cell 0"
    check([0, 1, 2, 3, 4], [1, 0, 3, 2], TERRITORIES)  # so are several components
    words = {**TERRITORIES, "isolated_ok": False, "connected": True}
    assert (
        refused([0, 1, 2, 3, 4], [1, 0, 3, 2], words)
        == "territory 2 cannot be reached from territory 0"
    )


def test_isolated_is_reported_before_unreachable():
    assert refused([0, 1, 2, 2, 3, 4], [1, 0, 4, 3], CELLS) == "cell 2 has no neighbours"


def test_a_failed_check_is_a_value_error():
    with pytest.raises(ValueError, match=re.escape("cell 0 has no neighbours")):
        check([0, 0, 0], [], CELLS)


# -- random graphs ---------------------------------------------------------------------------


def reference(  # noqa: PLR0911, PLR0912 (the slow obvious way: one branch per defect)
    offsets: list[int], neighbours: list[int], words: dict[str, Any]
) -> str | None:
    """The check's first message, the slow and obvious way (None for a valid graph)."""
    node, low, high = words["node"], words["min_nodes"], words["max_nodes"]
    n, m = max(len(offsets) - 1, 0), len(neighbours)
    plural = {"cell": "cells", "territory": "territories"}[node]
    if n < low:
        return f"a board needs at least {low} {node if low == 1 else plural}, got {n}"
    if high is not None and n > high:
        return f"a board has at most {high} {node if high == 1 else plural}, got {n}"
    o, e = words["offsets_name"], words["neighbours_name"]
    if offsets[0] != 0 or offsets[-1] != m:
        return f"{o} must start at 0 and end at len({e}) = {m}, got {offsets[0]} and {offsets[-1]}"
    for x in range(n):
        if offsets[x + 1] < offsets[x]:
            return f"{o} decreases at {node} {x}: {offsets[x]} then {offsets[x + 1]}"
    rows = [neighbours[offsets[x] : offsets[x + 1]] for x in range(n)]
    for x, row in enumerate(rows):
        for y in row:
            if not 0 <= y < n:
                return f"{node} {x} has neighbour {y}, outside 0..{n - 1}"
    for x, row in enumerate(rows):
        if x in row:
            return f"{node} {x} lists itself as a neighbour"
    for x, row in enumerate(rows):
        seen: set[int] = set()
        for y in row:
            if y in seen:
                return f"edge ({min(x, y)}, {max(x, y)}) is listed twice"
            seen.add(y)
    for x, row in enumerate(rows):
        for a, b in itertools.pairwise(row):
            if b < a:
                return f"the neighbours of {node} {x} are not in ascending order: {a} then {b}"
    for x, row in enumerate(rows):
        for y in row:
            if x not in rows[y]:
                return f"{node} {x} lists {y} as a neighbour but {y} does not list {x}"
    if not words["isolated_ok"]:
        for x, row in enumerate(rows):
            if not row:
                return f"{node} {x} has no neighbours"
    if words["connected"]:
        seen_nodes, queue = {0}, deque([0])
        while queue:
            for y in rows[queue.popleft()]:
                if y not in seen_nodes:
                    seen_nodes.add(y)
                    queue.append(y)
        for x in range(n):
            if x not in seen_nodes:
                return f"{node} {x} cannot be reached from {node} 0"
    return None


@st.composite
def graphs(draw: st.DrawFn, connected: bool) -> tuple[list[int], list[int]]:
    """A valid CSR graph of 2..25 nodes, built row by row in plain Python; when
    ``connected``, a random spanning tree is always among its edges."""
    n = draw(st.integers(2, 25))
    edges: set[tuple[int, int]] = set()
    if connected:
        for x in range(1, n):
            edges.add((draw(st.integers(0, x - 1)), x))
    pairs = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    for a, b in draw(st.lists(pairs, max_size=3 * n)):
        if a != b:
            edges.add((min(a, b), max(a, b)))
    rows: list[list[int]] = [[] for _ in range(n)]
    for a, b in edges:
        rows[a].append(b)
        rows[b].append(a)
    offsets, neighbours = [0], []
    for row in rows:
        neighbours += sorted(row)
        offsets.append(len(neighbours))
    return offsets, neighbours


def corrupt(data: st.DataObject, offsets: list[int], neighbours: list[int]) -> tuple[list, list]:
    """One random change that no valid graph survives."""
    offsets, neighbours = list(offsets), list(neighbours)
    n, m = len(offsets) - 1, len(neighbours)
    kinds = ["offset", "add"] + (["change", "remove"] if m else [])
    rows_of_two = [x for x in range(n) if offsets[x + 1] - offsets[x] >= 2]
    kinds += ["swap"] if rows_of_two else []
    kind = data.draw(st.sampled_from(kinds))
    if kind == "offset":
        i = data.draw(st.integers(0, n))
        offsets[i] = data.draw(st.integers(-2, m + 2).filter(lambda v: v != offsets[i]))
    elif kind == "add":
        x = data.draw(st.integers(0, n - 1))
        at = data.draw(st.integers(offsets[x], offsets[x + 1]))
        neighbours.insert(at, data.draw(st.integers(-1, n)))
        offsets = offsets[: x + 1] + [v + 1 for v in offsets[x + 1 :]]
    elif kind == "change":
        e = data.draw(st.integers(0, m - 1))
        neighbours[e] = data.draw(st.integers(-1, n).filter(lambda v: v != neighbours[e]))
    elif kind == "remove":
        e = data.draw(st.integers(0, m - 1))
        del neighbours[e]
        offsets = [v - 1 if v > e else v for v in offsets]
    else:
        x = data.draw(st.sampled_from(rows_of_two))
        i, j = sorted(data.draw(st.permutations(range(offsets[x], offsets[x + 1])))[:2])
        neighbours[i], neighbours[j] = neighbours[j], neighbours[i]
    return offsets, neighbours


@given(graphs(connected=True))
def test_a_valid_connected_graph_passes(csr):
    offsets, neighbours = csr
    check(offsets, neighbours, CELLS)
    assert reference(offsets, neighbours, CELLS) is None


@given(graphs(connected=False))
def test_a_valid_graph_passes_where_components_are_allowed(csr):
    offsets, neighbours = csr
    words = {**TERRITORIES, "max_nodes": None}
    check(offsets, neighbours, words)
    assert reference(offsets, neighbours, words) is None


@given(graphs(connected=True), st.booleans(), st.data())
def test_a_single_corruption_is_refused_with_the_first_defect(csr, as_cells, data):
    words = CELLS if as_cells else {**TERRITORIES, "max_nodes": None}
    offsets, neighbours = corrupt(data, *csr)
    expected = reference(offsets, neighbours, words)
    assert expected is not None
    assert refused(offsets, neighbours, words) == expected


@given(graphs(connected=False), st.data())
def test_every_check_agrees_with_the_reference(csr, data):
    # Anything goes here, valid or not, with both sets of words and switches.
    offsets, neighbours = corrupt(data, *csr) if data.draw(st.booleans()) else csr
    words = data.draw(st.sampled_from([CELLS, {**TERRITORIES, "max_nodes": 20}]))
    expected = reference(offsets, neighbours, words)
    if expected is None:
        check(offsets, neighbours, words)
    else:
        assert refused(offsets, neighbours, words) == expected


def rust_verdict(offsets: list[int], neighbours: list[int], words: dict[str, Any]) -> str | None:
    """The engine's check (rust/core/src/graph.rs) on the same graph: its message, or None."""
    try:
        _core.graph.check(
            np.array(offsets, dtype=np.int64),
            np.array(neighbours, dtype=np.int64),
            words["node"],
            words["offsets_name"],
            words["neighbours_name"],
            words["min_nodes"],
            2**32 - 1 if words["max_nodes"] is None else words["max_nodes"],
            words["isolated_ok"],
            words["connected"],
        )
    except InvalidBoard as error:
        return str(error)
    return None


@given(graphs(connected=False), st.data())
def test_the_engine_and_the_mirror_name_the_same_defect(csr, data):
    """The two paths of the one check: Rust and Python refuse the same graphs, each naming
    the same first defect in the same words."""
    offsets, neighbours = corrupt(data, *csr) if data.draw(st.booleans()) else csr
    words = data.draw(st.sampled_from([CELLS, {**TERRITORIES, "max_nodes": 20}]))
    try:
        check(offsets, neighbours, words)
        python = None
    except InvalidBoard as error:
        python = str(error)
    assert rust_verdict(offsets, neighbours, words) == python


# -- builders and traversals ---------------------------------------------------------------


@given(graphs(connected=False))
def test_csr_rebuilds_a_graph_from_its_edges(csr):
    offsets, neighbours = (np.array(a, dtype=np.int64) for a in csr)
    sources = graph.sources(offsets)
    upper = neighbours > sources
    again = graph.csr(sources[upper], neighbours[upper], offsets.shape[0] - 1)
    assert again[0].tolist() == csr[0]
    assert again[1].tolist() == csr[1]
    n = offsets.shape[0] - 1
    keys = np.sort(sources[upper] * n + neighbours[upper])
    assert [a.tolist() for a in graph.csr_from_keys(keys, n)] == list(csr)


def test_first_repeat():
    assert graph.first_repeat(np.array([3, 1, 2], dtype=np.int64)) is None
    assert graph.first_repeat(np.array([], dtype=np.int64)) is None
    assert graph.first_repeat(np.array([5, 1, 2, 1, 5], dtype=np.int64)) == (3, 1)
    assert graph.first_repeat(np.array([7, 7, 7], dtype=np.int64)) == (1, 0)


@given(graphs(connected=False))
def test_distances_and_components_match_breadth_first_search(csr):
    offsets, neighbours = (np.array(a, dtype=np.int64) for a in csr)
    n = offsets.shape[0] - 1
    rows = [neighbours[offsets[x] : offsets[x + 1]].tolist() for x in range(n)]
    expected = bfs_distances(rows, 0)
    assert graph.distances(offsets, neighbours, [0]).tolist() == expected
    lowest = graph.components(n, graph.sources(offsets), neighbours)
    for x in range(n):
        reached = graph.distances(offsets, neighbours, [x]) >= 0
        assert lowest[x] == int(np.flatnonzero(reached)[0])


def test_concatenated_ranges():
    starts = np.array([5, 0, 9], dtype=np.int64)
    counts = np.array([2, 0, 3], dtype=np.int64)
    assert graph.concatenated_ranges(starts, counts).tolist() == [5, 6, 9, 10, 11]


def test_frozen_arrays():
    writable = np.arange(4)
    copy = graph.frozen(writable)
    assert copy is not writable
    assert not copy.flags.writeable
    assert writable.flags.writeable
    assert graph.frozen(copy) is copy
    view = graph.frozen(copy[::2])
    assert view.base is None
    assert view.tolist() == [0, 2]
    fresh = np.arange(3)
    assert graph.frozen(fresh, fresh=True) is fresh
    assert not fresh.flags.writeable


def test_id_vectors():
    assert graph.id_vector("ids", [1, 2], node="cell", objects=True).dtype == np.int64
    big = np.array([2**63], dtype=np.uint64)
    with pytest.raises(InvalidBoard, match=re.escape(f"ids holds {2**63}, beyond any cell id")):
        graph.id_vector("ids", big, node="cell", objects=True)
    with pytest.raises(InvalidBoard, match="beyond any territory id"):
        graph.id_vector("ids", big, node="territory", objects=False)
    with pytest.raises(InvalidParameter, match=re.escape("ids must have 1 dimension(s)")):
        graph.id_vector("ids", [[1]], node="cell", objects=True)
    with pytest.raises(InvalidParameter, match="ids must be one-dimensional"):
        graph.id_vector("ids", [[1]], node="territory", objects=False)
    with pytest.raises(InvalidParameter, match="ids must hold integers"):
        graph.id_vector("ids", [1.5], node="territory", objects=False)
    with pytest.raises(InvalidBoard, match="beyond 64 bits"):
        graph.id_vector("ids", np.array([2**70], dtype=object), node="cell", objects=True)
    assert graph.integer_array("ids", [[1, 2]], 2).shape == (1, 2)


@given(st.integers(1, 40), st.data())
def test_csr_sorts_the_directed_keys_of_the_edges(n, data):
    """The engine's CSR of an edge list is the sort of the keys ``x * n + y`` of its directed
    edges (rows ascending), however the edges come; an end outside ``0..n`` is refused."""
    ends = st.lists(st.integers(0, n - 1), max_size=60)
    u = np.array(data.draw(ends), dtype=np.int64)
    v = np.array(
        data.draw(st.lists(st.integers(0, n - 1), min_size=len(u), max_size=len(u))),
        dtype=np.int64,
    )
    offsets, neighbours = graph.csr(u, v, n)
    keys = np.sort(np.concatenate((u * n + v, v * n + u)))
    assert neighbours.tolist() == (keys % n).tolist()
    assert offsets.tolist() == np.searchsorted(keys // n, np.arange(n + 1)).tolist()
    with pytest.raises(InvalidBoard, match=f"an edge end {n} is outside 0..{n}"):
        graph.csr(np.append(u, n), np.append(v, 0), n)
