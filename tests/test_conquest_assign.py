"""The engine's pieces of a conquest start on a large board against their second paths: the
regions of assign_regions (``_core.conquest.regions_of``) against the oracle's plain
breadth-first growth and against distances to the starts, and a grid's CSR
(``_core.conquest.grid_csr``, behind ``layouts.grid``) against a numpy construction and
networkx."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from edge_lists import bfs_distances, csr_lists
from property_settings import SEEDS
from stratagem import _core
from stratagem.conquest import Board, assign_random, assign_regions, oracle
from stratagem.conquest.boards import layouts
from stratagem.errors import InvalidBoard, InvalidParameter


@st.composite
def graphs(draw: st.DrawFn) -> tuple[int, list[tuple[int, int]]]:
    """``(n, edges)``: from one territory up, sparse (often disconnected, some territories
    alone) to dense."""
    n = draw(st.integers(1, 80))
    # x and a territory 1 to n - 1 steps further round: never x itself.
    pairs = st.tuples(st.integers(0, n - 1), st.integers(1, max(1, n - 1))).map(
        lambda p: (min(p[0], (p[0] + p[1]) % n), max(p[0], (p[0] + p[1]) % n))
    )
    edges = draw(st.lists(pairs, max_size=3 * n)) if n > 1 else []
    return n, edges


def csr(n: int, edges: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    indptr, indices = csr_lists(n, edges)
    return np.array(indptr, dtype=np.int64), np.array(indices, dtype=np.int64)


def nearest_lowest(n: int, edges: list[tuple[int, int]], starts: list[int]) -> list[int]:
    """The lowest team among those whose start is nearest to each territory, -1 where none
    is reachable: what growing all regions one level at a time gives."""
    indptr, indices = csr_lists(n, edges)
    rows = [indices[indptr[x] : indptr[x + 1]] for x in range(n)]
    distances = [bfs_distances(rows, start) for start in starts]
    team = []
    for x in range(n):
        reached = [(d[x], t) for t, d in enumerate(distances) if d[x] >= 0]
        team.append(min(reached)[1] if reached else -1)
    return team


@given(graphs(), st.data())
def test_regions_are_the_oracles_and_the_nearest_starts(graph, data):
    n, edges = graph
    teams = data.draw(st.integers(1, min(64, n)))
    starts = data.draw(st.permutations(range(n)))[:teams]
    indptr, indices = csr(n, edges)
    engine = _core.conquest.regions_of(indptr, indices, np.array(starts, dtype=np.int64))
    assert engine.dtype == np.int64
    assert engine.tolist() == oracle.regions_of(indptr, indices, starts)
    assert engine.tolist() == nearest_lowest(n, edges, starts)


@given(graphs(), st.data(), SEEDS)
def test_assign_regions_is_the_oracles_regions_dealt_elsewhere_at_random(graph, data, seed):
    n, edges = graph
    if n < 2:
        n, edges = 2, []
    teams = data.draw(st.integers(2, min(64, n)))
    board = Board(*csr(n, edges))
    starts = layouts.random_order(seed, "conquest.assign.regions", n)[:teams].tolist()
    expected = oracle.regions_of(board.indptr, board.indices, starts)
    dealt = assign_random(board, teams, seed).tolist()
    expected = [dealt[x] if t < 0 else t for x, t in enumerate(expected)]
    assert assign_regions(board, teams, seed).tolist() == expected


@pytest.mark.parametrize(
    "spec", ["grid:40x50", "grid:30x30:torus", "rgg:3000", "rgg:2000:radius=0.01"]
)
@pytest.mark.parametrize("teams", [2, 7, 64])
def test_regions_on_larger_boards_are_the_oracles(spec, teams):
    board = Board.from_spec(spec)
    starts = layouts.random_order(5, "conquest.assign.regions", board.n)[:teams]
    engine = _core.conquest.regions_of(board.indptr, board.indices, starts)
    assert engine.tolist() == oracle.regions_of(board.indptr, board.indices, starts.tolist())


def test_regions_on_one_territory_and_without_starts():
    indptr, indices = np.array([0, 0], dtype=np.int64), np.array([], dtype=np.int64)
    assert _core.conquest.regions_of(indptr, indices, np.array([0])).tolist() == [0]
    nobody = np.array([], dtype=np.int64)
    assert _core.conquest.regions_of(indptr, indices, nobody).tolist() == [-1]


@pytest.mark.parametrize(
    ("indptr", "indices", "starts", "error", "message"),
    [
        ([0, 1, 2], [1, 0], [2], InvalidParameter, "the start 2 of team 0 is outside 0..2"),
        ([0, 1, 2], [1, 0], [-1], InvalidParameter, "the start -1 of team 0 is outside 0..2"),
        ([0, 1, 2], [1, 0], [1, 1], InvalidParameter, "territory 1 is the start of teams 0 and 1"),
        ([0, 1, 3], [1, 0], [0], InvalidBoard, "indptr must rise from 0 to len(indices)"),
        ([0, 2, 1, 2], [1, 0], [0], InvalidBoard, "indptr must rise from 0 to len(indices)"),
        ([0, 1, 2], [5, 0], [0], InvalidBoard, "a neighbour id 5 is outside 0..2"),
        ([0] * 66, [], list(range(65)), InvalidParameter, "at most 64 teams start, got 65"),
    ],
)
def test_regions_refuse_bad_input(indptr, indices, starts, error, message):
    arrays = (np.array(a, dtype=np.int64) for a in (indptr, indices, starts))
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        _core.conquest.regions_of(*arrays)
    with pytest.raises(error):
        oracle.regions_of(indptr, indices, starts)


def numpy_grid(rows: int, cols: int, torus: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(indptr, indices, positions)`` of a grid with numpy alone: the four candidate
    neighbours of every cell, those off the board dropped (or wrapped on a torus)."""
    n = rows * cols
    r, c = np.divmod(np.arange(n, dtype=np.int64), cols)
    if torus:
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
        candidates = np.stack((ids - cols, ids - 1, ids + 1, ids + cols), axis=1)
        present = np.stack((r > 0, c > 0, c < cols - 1, r < rows - 1), axis=1)
        indices = candidates[present]
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(present.sum(axis=1), out=indptr[1:])
    positions = np.stack((c, rows - 1 - r), axis=1).astype(np.float64)
    return indptr, indices, positions


@st.composite
def grid_shapes(draw: st.DrawFn) -> tuple[int, int, bool]:
    torus = draw(st.booleans())
    low = 3 if torus else 1
    return draw(st.integers(low, 40)), draw(st.integers(low, 40)), torus


SHAPES = [(1, 1, False), (1, 9, False), (9, 1, False), (2, 2, False), (3, 3, True), (3, 7, True)]
#: Several blocks of rows written in parallel.
LARGE_SHAPES = [(150, 301, False), (129, 257, True), (1, 70000, False), (70000, 1, False)]


@given(grid_shapes())
def test_grid_csr_is_the_numpy_grid(shape):
    check_grid(*shape)


@pytest.mark.parametrize("shape", SHAPES + LARGE_SHAPES)
def test_grid_csr_on_thin_small_and_large_grids(shape):
    check_grid(*shape)


def check_grid(rows: int, cols: int, torus: bool) -> None:
    indptr, indices, positions = numpy_grid(rows, cols, torus)
    engine = _core.conquest.grid_csr(rows, cols, torus)
    assert [a.dtype for a in engine] == [np.int64, np.int64]
    assert np.array_equal(engine[0], indptr)
    assert np.array_equal(engine[1], indices)
    layout = layouts.grid(rows, cols, torus)
    assert np.array_equal(layout.indptr, indptr)
    assert np.array_equal(layout.indices, indices)
    assert layout.positions is not None
    assert layout.positions.dtype == np.float64
    assert np.array_equal(layout.positions, positions)


@pytest.mark.parametrize("shape", [(1, 1, False), (1, 6, False), (7, 1, False), (4, 5, False)])
@pytest.mark.parametrize("torus", [False, True])
def test_grid_csr_is_the_networkx_grid(shape, torus):
    rows, cols, _ = shape
    if torus:
        rows, cols = rows + 3, cols + 3
    expected = nx.grid_2d_graph(rows, cols, periodic=torus)
    expected = nx.relabel_nodes(expected, lambda node: node[0] * cols + node[1])
    indptr, indices = _core.conquest.grid_csr(rows, cols, torus)
    rows_of = [indices[indptr[x] : indptr[x + 1]].tolist() for x in range(rows * cols)]
    assert rows_of == [sorted(expected.neighbors(x)) for x in range(rows * cols)]


@pytest.mark.parametrize(
    ("rows", "cols", "torus", "message"),
    [
        (0, 3, False, "a grid needs 1 to"),
        (3, -2, False, "a grid needs 1 to"),
        (2**32, 2**32, False, "a grid needs 1 to"),
        (2, 5, True, "a torus needs at least 3 rows and 3 columns"),
    ],
)
def test_grid_csr_refuses_bad_shapes(rows, cols, torus, message):
    with pytest.raises(InvalidParameter, match=message):
        _core.conquest.grid_csr(rows, cols, torus)
