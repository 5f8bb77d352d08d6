"""The engine's pieces of a conquest start on a large board against their second paths: the
regions of assign_regions (``_core.conquest.regions_of``) against the oracle's plain
breadth-first order and networkx's distances (equal sizes, connected bands on a grid), and a
grid's CSR
(``_core.conquest.grid_csr``, behind ``layouts.grid``) against a numpy construction and
networkx."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from edge_lists import csr_lists
from property_settings import SEEDS
from stratagem import _core
from stratagem.conquest import Board, assign_regions, oracle
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


def order_cut(n: int, edges: list[tuple[int, int]], first: int, teams: int) -> list[int]:
    """The regions from networkx's distances: the far end is the lowest id among the
    territories farthest from ``first``; the order by distance from it, then id, the others
    last by id, the territory at place ``p`` to team ``p * teams // n``."""
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(edges)
    from_first = nx.single_source_shortest_path_length(graph, first)
    far_end = min(x for x, d in from_first.items() if d == max(from_first.values()))
    from_end = nx.single_source_shortest_path_length(graph, far_end)
    order = sorted(range(n), key=lambda x: (from_end.get(x, n), x))
    team = [0] * n
    for place, x in enumerate(order):
        team[x] = place * teams // n
    return team


@given(graphs(), st.data())
def test_regions_are_the_oracles_and_the_cut_breadth_first_order(graph, data):
    n, edges = graph
    teams = data.draw(st.integers(1, min(64, n)))
    first = data.draw(st.integers(0, n - 1))
    indptr, indices = csr(n, edges)
    engine = _core.conquest.regions_of(indptr, indices, first, teams)
    assert engine.dtype == np.int64
    assert engine.tolist() == oracle.regions_of(indptr, indices, first, teams)
    assert engine.tolist() == order_cut(n, edges, first, teams)
    sizes = np.bincount(engine, minlength=teams)
    assert sizes.max() - sizes.min() <= 1


@given(graphs(), st.data(), SEEDS)
def test_assign_regions_is_the_oracles_regions_from_the_first_of_the_random_order(
    graph, data, seed
):
    n, edges = graph
    if n < 2:
        n, edges = 2, []
    teams = data.draw(st.integers(2, min(64, n)))
    board = Board(*csr(n, edges))
    first = int(layouts.random_order(seed, "conquest.assign.regions", n)[0])
    expected = oracle.regions_of(board.indptr, board.indices, first, teams)
    assert assign_regions(board, teams, seed).tolist() == expected


@st.composite
def board_specs(draw: st.DrawFn) -> str:
    """Small boards of every kind the command line names."""
    seed = draw(st.integers(0, 2**16))
    return draw(
        st.sampled_from(
            [
                f"grid:{draw(st.integers(1, 20))}x{draw(st.integers(2, 20))}",
                f"grid:{draw(st.integers(3, 15))}x{draw(st.integers(3, 15))}:torus",
                f"rgg:{draw(st.integers(20, 300))}:degree={draw(st.integers(2, 10))}:seed={seed}",
                f"er:{draw(st.integers(20, 300))}:degree={draw(st.integers(1, 8))}:seed={seed}",
                f"ba:{draw(st.integers(20, 300))}:{draw(st.integers(1, 3))}:seed={seed}",
                "risk",
            ]
        )
    )


@given(board_specs(), st.integers(2, 8), SEEDS)
def test_regions_of_every_kind_of_board_are_equal_and_the_oracles(spec, teams, seed):
    board = Board.from_spec(spec)
    if teams > board.n:
        return
    team = assign_regions(board, teams, seed)
    sizes = np.bincount(team, minlength=teams)
    assert sizes.size == teams
    assert sizes.max() - sizes.min() <= 1
    first = int(layouts.random_order(seed, "conquest.assign.regions", board.n)[0])
    assert team.tolist() == oracle.regions_of(board.indptr, board.indices, first, teams)


def whole_diagonals(distance: np.ndarray, members: np.ndarray) -> int:
    """The distances all of whose territories are among ``members``."""
    levels = np.bincount(distance)
    held = np.bincount(distance[members], minlength=levels.size)
    return int(np.count_nonzero(held == levels))


@given(st.integers(1, 30), st.integers(1, 30), st.integers(2, 8), SEEDS)
def test_grid_regions_are_bands_of_diagonals_from_a_corner(rows, cols, teams, seed):
    """On a grid the far end is a corner, the first region is connected, and so is every
    region holding two whole diagonals."""
    board = Board.grid(rows, cols)
    if teams > board.n:
        return
    team = assign_regions(board, teams, seed)
    graph = board.to_networkx()
    first = int(layouts.random_order(seed, "conquest.assign.regions", board.n)[0])
    from_first = nx.single_source_shortest_path_length(graph, first)
    far_end = min(x for x, d in from_first.items() if d == max(from_first.values()))
    assert far_end in (0, cols - 1, (rows - 1) * cols, rows * cols - 1)
    distance = np.array([nx.shortest_path_length(graph, far_end, x) for x in range(board.n)])
    assert team[far_end] == 0
    for t in range(teams):
        members = np.flatnonzero(team == t)
        if t == 0 or whole_diagonals(distance, members) >= 2:
            assert nx.is_connected(graph.subgraph(members.tolist()))


@pytest.mark.parametrize(
    "spec",
    ["grid:40x50", "grid:30x30:torus", "rgg:3000", "rgg:2000:radius=0.01", "er:2000:degree=3"],
)
@pytest.mark.parametrize("teams", [2, 7, 64])
def test_regions_on_larger_boards_are_the_oracles(spec, teams):
    board = Board.from_spec(spec)
    first = int(layouts.random_order(5, "conquest.assign.regions", board.n)[0])
    engine = _core.conquest.regions_of(board.indptr, board.indices, first, teams)
    assert engine.tolist() == oracle.regions_of(board.indptr, board.indices, first, teams)
    sizes = np.bincount(engine, minlength=teams)
    assert sizes.max() - sizes.min() <= 1


def test_regions_on_one_territory():
    indptr, indices = np.array([0, 0], dtype=np.int64), np.array([], dtype=np.int64)
    assert _core.conquest.regions_of(indptr, indices, 0, 1).tolist() == [0]
    assert oracle.regions_of(indptr, indices, 0, 1) == [0]


@pytest.mark.parametrize(
    ("indptr", "indices", "start", "error", "message"),
    [
        ([0, 1, 2], [1, 0], (2, 2), InvalidParameter, "outside 0..2"),
        ([0, 1, 2], [1, 0], (-1, 2), InvalidParameter, "outside 0..2"),
        ([0, 1, 2], [1, 0], (0, 0), InvalidParameter, "got 0"),
        ([0, 1, 2], [1, 0], (0, 65), InvalidParameter, "got 65"),
        ([0, 1, 3], [1, 0], (0, 2), InvalidBoard, "indptr must rise from 0 to len(indices)"),
        ([0, 2, 1, 2], [1, 0], (0, 2), InvalidBoard, "indptr must rise from 0 to len(indices)"),
        ([0, 1, 2], [5, 0], (0, 2), InvalidBoard, "a neighbour id 5 is outside 0..2"),
    ],
)
def test_regions_refuse_bad_input(indptr, indices, start, error, message):
    first, teams = start
    arrays = (np.array(a, dtype=np.int64) for a in (indptr, indices))
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        _core.conquest.regions_of(*arrays, first, teams)
    with pytest.raises(error):
        oracle.regions_of(indptr, indices, first, teams)


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
