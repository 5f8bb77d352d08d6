"""Annexation boards: the CSR invariants and geometry of every generator, the default start
cells, the colour draw (against the rules' stream and the RNG oracle), regions, Voronoi
tessellations, round trips (edges, networkx, files, dictionaries, pickles), every error
message, the command-line specs, and the pictures."""

from __future__ import annotations

import json
import math
import pickle
import sys
import zipfile

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from edge_lists import bfs_distances
from stratagem import rng
from stratagem.annexation import board as board_module
from stratagem.annexation.board import Board, parse_board
from stratagem.errors import InvalidBoard, InvalidParameter, StratagemError
from stratagem.rng import oracle

# -- references ---------------------------------------------------------------------------


def rows(board: Board) -> list[list[int]]:
    offsets, neighbours = board.offsets, board.neighbours
    return [neighbours[offsets[x] : offsets[x + 1]].tolist() for x in range(board.cells)]


def check_board(board: Board) -> None:
    """Every invariant of the rules' "Board" section, checked the slow and obvious way."""
    n = board.cells
    assert n >= 2
    assert board.offsets.dtype == np.int64
    assert board.neighbours.dtype == np.int64
    assert board.colours.dtype == np.uint8
    assert board.starts.dtype == np.int64
    for array in (board.offsets, board.neighbours, board.colours, board.starts):
        assert not array.flags.writeable
    assert board.offsets.shape == (n + 1,)
    assert board.offsets[0] == 0
    assert board.offsets[-1] == board.neighbours.size
    directed = set()
    for x, row in enumerate(rows(board)):
        assert row, f"cell {x} has no neighbours"
        assert row == sorted(set(row)), f"row {x} is not strictly increasing"
        assert all(0 <= y < n and y != x for y in row)
        directed.update((x, y) for y in row)
    assert directed == {(y, x) for x, y in directed}, "not symmetric"
    assert distances(board, 0).min() >= 0, "not connected"
    assert 3 <= board.colour_count <= 16
    assert 2 <= board.players <= 4
    assert board.colour_count > board.players
    assert board.colours.shape == (n,)
    assert int(board.colours.max()) < board.colour_count
    assert board.starts.shape == (board.players,)
    assert len(set(board.starts.tolist())) == board.players
    regions = reference_regions(board)
    assert len({regions[s] for s in board.starts.tolist()}) == board.players
    assert board.regions().tolist() == regions
    assert board.region_count == max(regions) + 1
    if board.centres is not None:
        assert board.centres.shape == (n, 2)
        assert not board.centres.flags.writeable
    if board.polygons is not None:
        assert len(board.polygons) == n
        for shape in board.polygons:
            assert shape.ndim == 2
            assert shape.shape[1] == 2
            assert shape.shape[0] >= 3
            assert not shape.flags.writeable


def distances(board: Board, source: int) -> np.ndarray:
    """Breadth-first search distances, -1 where unreachable."""
    return np.array(bfs_distances(rows(board), source))


def reference_regions(board: Board) -> list[int]:
    """Flood fill of same-colour cells; regions numbered by their lowest cell."""
    table = rows(board)
    colours = board.colours.tolist()
    region = [-1] * board.cells
    count = 0
    for start in range(board.cells):
        if region[start] >= 0:
            continue
        region[start] = count
        stack = [start]
        while stack:
            x = stack.pop()
            for y in table[x]:
                if region[y] < 0 and colours[y] == colours[x]:
                    region[y] = count
                    stack.append(y)
        count += 1
    return region


def farthest_starts(board: Board, players: int) -> list[int]:
    """The documented default for custom boards: double sweep, then farthest points."""
    a = int(np.argmax(distances(board, 0)))
    chosen = [a]
    nearest = distances(board, a)
    while len(chosen) < players:
        best = max(range(board.cells), key=lambda x: (nearest[x], -x))
        chosen.append(best)
        nearest = np.minimum(nearest, distances(board, best))
    return chosen


def oracle_colours(seed: int, attempt: int, n: int, k: int) -> list[int]:
    cursor = oracle.Stream(seed, "annexation.colours", attempt).cursor()
    return [cursor.uniform_below(k) for _ in range(n)]


def polygon_area(shape: np.ndarray) -> float:
    x, y = shape[:, 0], shape[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


PATH_EDGES = [(0, 1), (1, 2), (2, 3), (3, 4)]

GENERATED = {
    "hex:1": lambda: Board.hexagon(1),
    "hex:2:p4": lambda: Board.hexagon(2, players=4, colour_count=5),
    "hex:8": lambda: Board.hexagon(8),
    "hex:18": lambda: Board.hexagon(18, colour_count=16, seed=3),
    "hexrect:2x1": lambda: Board.hex_rectangle(1, 2),
    "hexrect:9x12:p3": lambda: Board.hex_rectangle(12, 9, players=3),
    "grid:1x2": lambda: Board.grid(2, 1, colour_count=3),
    "grid:8x10:p4": lambda: Board.grid(10, 8, players=4),
    "voronoi:2": lambda: Board.voronoi(2),
    "voronoi:300": lambda: Board.voronoi(300, seed=5),
    "edges": lambda: Board.from_edges(PATH_EDGES, seed=1),
    "networkx": lambda: Board.from_networkx(nx.petersen_graph(), players=3),
}


@pytest.mark.parametrize("name", list(GENERATED))
def test_every_generator_makes_a_valid_board(name):
    check_board(GENERATED[name]())


# -- generators ---------------------------------------------------------------------------


@pytest.mark.parametrize("radius", [1, 2, 3, 8, 18])
def test_hexagon_cell_count_and_geometry(radius):
    board = Board.hexagon(radius)
    n = 3 * radius * (radius + 1) + 1
    assert board.cells == n
    assert board.kind == f"hex:{radius}"
    degree = board.degree()
    # 6 corners of degree 3, 6 (R - 1) other rim cells of degree 4, the interior 6.
    assert np.bincount(degree, minlength=7).tolist() == [
        0,
        0,
        0,
        6,
        6 * (radius - 1),
        0,
        n - 6 * radius,
    ]
    # Neighbours are exactly the cells whose centres are sqrt(3) apart.
    centres = board.centres
    gaps = np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
    close = np.isclose(gaps, math.sqrt(3.0))
    assert [np.flatnonzero(row).tolist() for row in close] == rows(board)
    # Cells are numbered row by row from the top, left to right.
    order = np.lexsort((centres[:, 0], -centres[:, 1]))
    assert order.tolist() == list(range(n))
    # Each hexagon's vertices are 1 from its centre.
    for centre, shape in zip(centres, board.polygons, strict=True):
        assert np.allclose(np.hypot(*(shape - centre).T), 1.0)


def test_hexagon_sizes_of_the_seed():
    assert Board.hexagon(8).cells == 217
    assert Board.hexagon(18).cells == 1027


def test_hex_rectangle_and_grid_geometry():
    board = Board.hex_rectangle(12, 9)
    assert board.cells == 108
    assert board.kind == "hexrect:9x12"  # rows by columns
    centres = board.centres
    gaps = np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
    assert [np.flatnonzero(np.isclose(row, math.sqrt(3.0))).tolist() for row in gaps] == rows(board)
    assert board.degree().max() == 6
    assert board.degree().min() == 2
    grid = Board.grid(10, 8)
    assert grid.cells == 80
    assert grid.kind == "grid:8x10"
    assert np.bincount(grid.degree()).tolist() == [0, 0, 4, 2 * (8 + 6), 8 * 6]
    assert grid.neighbours_of(11).tolist() == [1, 10, 12, 21]
    assert grid.centres[0].tolist() == [0.0, 7.0]
    assert grid.centres[79].tolist() == [9.0, 0.0]
    assert grid.polygons[0].tolist() == [[-0.5, 6.5], [0.5, 6.5], [0.5, 7.5], [-0.5, 7.5]]


def test_default_starts_of_the_hexagon():
    board = Board.hexagon(8)
    assert board.starts.tolist() == [0, 216]
    c = board.centres
    top_left, bottom_right = c[0], c[216]
    assert np.allclose(top_left, -bottom_right)
    assert top_left[1] == c[:, 1].max()
    assert top_left[0] == c[c[:, 1] == top_left[1], 0].min()
    three = Board.hexagon(8, players=3).starts
    points = c[three]
    # Every other corner: 120 degrees apart, all at the corner distance 8 sqrt(3).
    assert np.allclose(np.hypot(*points.T), 8 * math.sqrt(3.0))
    assert np.allclose(points.sum(axis=0), 0.0)
    assert three[0] == 0
    four = Board.hexagon(8, players=4).starts
    assert four[:2].tolist() == [0, 216]
    assert np.allclose(c[four[2]], -c[four[3]])
    assert c[four[2], 1] == c[:, 1].max()  # top-right
    assert len(set(four.tolist())) == 4


@pytest.mark.parametrize("make", [Board.grid, Board.hex_rectangle])
def test_default_starts_of_rectangles(make):
    assert make(10, 8).starts.tolist() == [0, 79]
    assert make(10, 8, players=3).starts.tolist() == [0, 79, 9]
    assert make(10, 8, players=4).starts.tolist() == [0, 79, 9, 70]


def test_default_starts_of_custom_boards_are_the_farthest_cells():
    path = Board.from_edges(PATH_EDGES)
    assert path.starts.tolist() == [4, 0]
    assert Board.from_edges(PATH_EDGES, players=3).starts.tolist() == [4, 0, 2]
    # A star: every leaf is 2 from the others; ties go to the lowest id.
    star = Board.from_edges([(0, x) for x in range(1, 6)], players=4)
    assert star.starts.tolist() == [1, 2, 3, 4]
    for players in (2, 3, 4):
        board = Board.voronoi(200, players=players, seed=9)
        assert board.starts.tolist() == farthest_starts(board, players)
        graph = Board.from_networkx(nx.les_miserables_graph(), players=players, colour_count=9)
        assert graph.starts.tolist() == farthest_starts(graph, players)


def test_explicit_starts_set_the_players():
    board = Board.hexagon(3, starts=[5, 9, 20])
    assert board.players == 3
    assert board.starts.tolist() == [5, 9, 20]


# -- colours and regions ------------------------------------------------------------------


def test_colour_draw_follows_the_rules():
    board = Board.hexagon(8, seed=42)
    assert board == Board.hexagon(8, seed=42)
    assert not np.array_equal(board.colours, Board.hexagon(8, seed=43).colours)
    drawn = rng.draws(42, "annexation.colours", (0,), "uniform_below", np.full(217, 8, np.uint64))
    regions = reference_regions(board.with_colours(drawn))
    assert regions[0] != regions[216]  # attempt 0 is accepted here
    assert board.colours.tolist() == drawn.tolist()
    assert board.colours.tolist() == oracle_colours(42, 0, 217, 8)


def test_a_rejected_colour_draw_moves_on_to_the_next_attempt():
    # Two neighbouring start cells share a region whenever they draw the same colour.
    found = 0
    for seed in range(200):
        first = oracle_colours(seed, 0, 2, 3)
        if first[0] != first[1]:
            continue
        board = Board.from_edges([(0, 1)], colour_count=3, seed=seed)
        attempt = 1
        while len(set(oracle_colours(seed, attempt, 2, 3))) == 1:
            attempt += 1
        assert board.colours.tolist() == oracle_colours(seed, attempt, 2, 3)
        found += 1
    assert found > 20


def test_colour_draw_gives_up_after_1000_attempts(monkeypatch):
    calls = []

    def constant(seed, purpose, ids, kind, params):
        calls.append(ids)
        return np.zeros(len(params), dtype=np.uint64)

    monkeypatch.setattr(board_module.rng, "draws", constant)
    with pytest.raises(InvalidBoard, match=r"1000 .*start cells 0, 4 in different regions"):
        Board.grid(5, 1)
    assert calls == [(attempt,) for attempt in range(1000)]


@given(
    kind=st.sampled_from(["hex", "hexrect", "grid", "voronoi"]),
    size=st.integers(1, 6),
    seed=st.integers(0, 2**64 - 1),
    players=st.integers(2, 4),
    extra_colours=st.integers(1, 4),
)
def test_start_cells_always_lie_in_different_regions(kind, size, seed, players, extra_colours):
    colour_count = players + extra_colours
    options = {"players": players, "colour_count": colour_count, "seed": seed}
    if kind == "hex":
        board = Board.hexagon(size, **options)
    elif kind == "hexrect":
        board = Board.hex_rectangle(size + 1, size + 1, **options)
    elif kind == "grid":
        board = Board.grid(size + 1, 2, **options)
    else:
        board = Board.voronoi(4 * size, **options)
    check_board(board)


def test_regions_match_networkx():
    board = Board.voronoi(400, colour_count=3, seed=2)
    graph = nx.Graph()
    graph.add_nodes_from(range(board.cells))
    graph.add_edges_from(
        (a, b) for a, b in board.edges().tolist() if board.colours[a] == board.colours[b]
    )
    components = sorted(sorted(c) for c in nx.connected_components(graph))
    assert board.region_count == len(components)
    for region, members in enumerate(components):
        assert (board.regions()[members] == region).all()


def test_recoloured_and_with_colours():
    board = Board.hexagon(4, players=3, seed=1)
    other = board.recoloured(7)
    assert other.starts.tolist() == board.starts.tolist()
    assert np.array_equal(other.offsets, board.offsets)
    assert np.array_equal(other.centres, board.centres)
    assert other.colours.tolist() == Board.hexagon(4, players=3, seed=7).colours.tolist()
    assert other == Board.hexagon(4, players=3, seed=7)
    same = board.with_colours(other.colours.tolist())
    assert same == other
    assert board.kind == other.kind == same.kind == "hex:4"


# -- Voronoi ------------------------------------------------------------------------------


def test_voronoi_tessellates_the_unit_square():
    board = Board.voronoi(300, seed=11)
    assert board.cells == 300
    assert board.kind == "voronoi:300"
    assert board.degree().mean() < 6.1
    assert board.degree().min() >= 1
    points = board.centres
    words = rng.blocks(11, "annexation.board.voronoi", (), 0, 150).ravel()
    expected = ((words >> np.uint64(11)).astype(np.float64) * 2.0**-53).reshape(300, 2)
    assert np.array_equal(points, expected)
    total = 0.0
    for point, shape in zip(points, board.polygons, strict=True):
        assert (shape >= 0.0).all()
        assert (shape <= 1.0).all()
        area = polygon_area(shape)
        assert area > 0.0  # counter-clockwise
        total += area
        # The cell of a point is the set of places nearest to it: its vertices are no
        # nearer to any other point.
        nearest = np.hypot(*(shape[:, None, :] - points[None, :, :]).transpose(2, 0, 1))
        own = np.hypot(*(shape - point).T)
        assert (own <= nearest.min(axis=1) + 1e-9).all()
    assert math.isclose(total, 1.0, rel_tol=1e-9)
    # Neighbours share an edge: two common vertices, at positive distance.
    for a, b in board.edges().tolist():
        common = [v for v in board.polygons[a] if np.isclose(board.polygons[b], v).all(1).any()]
        assert len(common) >= 2
        assert max(np.hypot(*(u - v)) for u in common for v in common) > 1e-12
    assert board == Board.voronoi(300, seed=11)
    assert board.neighbours.tolist() != Board.voronoi(300, seed=12).neighbours.tolist()


def test_voronoi_needs_scipy(monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy.spatial", None)
    with pytest.raises(StratagemError, match=r"pip install 'stratagem\[graph\]'"):
        Board.voronoi(10)


# -- custom boards ------------------------------------------------------------------------


def test_from_edges_round_trip():
    board = Board.voronoi(50, seed=4)
    again = Board.from_edges(board.edges()[::-1, ::-1], colours=board.colours, starts=board.starts)
    assert np.array_equal(again.offsets, board.offsets)
    assert np.array_equal(again.neighbours, board.neighbours)
    assert again.kind == "custom"
    assert again.centres is None
    assert again.polygons is None
    assert again != board  # the geometry differs
    assert again == Board.from_edges(board.edges(), colours=board.colours, starts=board.starts)
    assert Board.from_edges([(0, 1), (1, 2)], cells=3).cells == 3


def test_from_networkx_round_trip():
    board = Board.hexagon(3, players=3, seed=8)
    again = Board.from_networkx(board.to_networkx())
    assert again.starts.tolist() == board.starts.tolist()
    assert again.colours.tolist() == board.colours.tolist()
    assert np.array_equal(again.centres, board.centres)
    assert again.labels is None
    plain = Board.from_edges(PATH_EDGES, seed=2)
    assert Board.from_networkx(plain.to_networkx()) == plain


def test_from_networkx_labels():
    graph = nx.Graph([("c", "a"), ("a", "b"), ("b", "d")])
    board = Board.from_networkx(graph, colours={"a": 0, "b": 1, "c": 2, "d": 0})
    assert board.labels == ("a", "b", "c", "d")
    assert board.edges().tolist() == [[0, 1], [0, 2], [1, 3]]
    assert board.colours.tolist() == [0, 1, 2, 0]
    # Farthest from cell 0 ("a") is "d", farthest from "d" is "c".
    assert [board.labels[s] for s in board.starts.tolist()] == ["d", "c"]
    assert Board.from_networkx(board.to_networkx()) == board
    chosen = Board.from_networkx(graph, starts=["b", "c"], colours=[0, 1, 2, 0])
    assert chosen.starts.tolist() == [1, 2]
    # Labels that do not sort keep their insertion order.
    mixed = nx.Graph([(1, "x"), ("x", (2, 3))])
    unsorted = Board.from_networkx(mixed)
    assert unsorted.labels == (1, "x", (2, 3))
    grid = Board.from_networkx(nx.grid_2d_graph(3, 4))
    assert grid.labels[0] == (0, 0)
    assert grid.labels[-1] == (2, 3)
    assert Board.from_dict(json.loads(json.dumps(grid.to_dict()))) == grid


def test_pickle_and_immutability():
    board = Board.voronoi(40, players=3)
    assert pickle.loads(pickle.dumps(board)) == board
    with pytest.raises(AttributeError):
        board.cells = 3
    with pytest.raises(ValueError, match="read-only"):
        board.colours[0] = 1
    with pytest.raises(ValueError, match="read-only"):
        board.neighbours_of(0)[0] = 1
    assert repr(Board.hexagon(8)) == "Board(kind='hex:8', cells=217, colours=8, players=2)"
    assert len({Board.hexagon(2), Board.hexagon(2)}) == 1


# -- errors -------------------------------------------------------------------------------

ERRORS = [
    # (constructor, error class, message fragment)
    (lambda: Board.from_edges([(0, 1), (1, 2)], cells=6), InvalidBoard, "cell 3 has no neighbours"),
    (lambda: Board.from_edges([(0, 1), (2, 2)]), InvalidBoard, r"edge \(2, 2\) is a self-loop"),
    (
        lambda: Board.from_edges([(0, 1), (2, 3), (1, 2), (3, 2)]),
        InvalidBoard,
        r"edge \(2, 3\) is listed twice",
    ),
    (
        lambda: Board.from_edges([(0, 1), (2, 9)], cells=8),
        InvalidBoard,
        r"edge \(2, 9\): cell 9 is outside 0..7",
    ),
    (lambda: Board.from_edges([(0, 1), (-1, 1)]), InvalidBoard, "cell -1 is negative"),
    (
        lambda: Board.from_edges([(0, 1), (2, 3)]),
        InvalidBoard,
        "cell 2 cannot be reached from cell 0",
    ),
    (
        lambda: Board.from_edges(PATH_EDGES, colours=[0, 1, 9, 0, 1]),
        InvalidBoard,
        r"cell 2 has colour 9, outside 0..7",
    ),
    (
        lambda: Board.from_edges(PATH_EDGES, colours=[0, 1, -1, 0, 1]),
        InvalidBoard,
        r"cell 2 has colour -1, outside 0..7",
    ),
    (lambda: Board.hexagon(2, colour_count=2), InvalidParameter, "colour_count must be at least 3"),
    (
        lambda: Board.hexagon(2, colour_count=17),
        InvalidParameter,
        "colour_count must be at most 16",
    ),
    (lambda: Board.hexagon(2, players=1), InvalidParameter, "players must be at least 2"),
    (lambda: Board.hexagon(2, players=5), InvalidParameter, "players must be at most 4"),
    (lambda: Board.hexagon(2, starts=[0, 1, 2, 3, 4]), InvalidParameter, "2 to 4 players"),
    (
        lambda: Board.hexagon(2, players=4, colour_count=4),
        InvalidParameter,
        "colour_count must exceed players",
    ),
    (
        lambda: Board.from_edges(PATH_EDGES, starts=[3, 3]),
        InvalidBoard,
        "start cells of players 0 and 1 are both cell 3",
    ),
    (
        lambda: Board.from_edges(PATH_EDGES, starts=[0, 1, 0]),
        InvalidBoard,
        "start cells of players 0 and 2 are both cell 0",
    ),
    (
        lambda: Board.from_edges(PATH_EDGES, starts=[0, 5]),
        InvalidBoard,
        r"start cell of player 1 is 5, outside 0..4",
    ),
    (
        lambda: Board.from_edges(PATH_EDGES, starts=[0, 2], colours=[2, 2, 2, 0, 1]),
        InvalidBoard,
        "start cells 0 and 2 lie in one region of colour 2",
    ),
    (
        lambda: Board.from_edges(PATH_EDGES, colours=[0, 1, 2]),
        InvalidParameter,
        r"colours must have one entry per cell \(5\)",
    ),
    (
        lambda: Board.from_edges(PATH_EDGES, colours=[0.0, 1.0, 2.0, 0.0, 1.0]),
        InvalidParameter,
        "colours must hold integers",
    ),
    (
        lambda: Board.from_edges(PATH_EDGES, starts=[0, 2], players=3),
        InvalidParameter,
        r"one cell per player \(3\)",
    ),
    (lambda: Board.from_edges([[0, 1, 2]]), InvalidParameter, r"shape \(m, 2\)"),
    (lambda: Board.from_edges([(0.0, 1.0)]), InvalidParameter, "must hold integers"),
    (lambda: Board.from_edges([]), InvalidBoard, "at least 2 cells"),
    (lambda: Board.from_edges([(0, 1)], players=3), InvalidParameter, "2 cells cannot hold 3"),
    (lambda: Board.hexagon(0), InvalidParameter, "radius must be at least 1"),
    (lambda: Board.hexagon(2.5), InvalidParameter, "radius must be an integer"),
    (lambda: Board.grid(1, 1), InvalidParameter, "at least 2 cells"),
    (lambda: Board.grid(5000, 5000), InvalidParameter, "at most"),
    (lambda: Board.voronoi(1), InvalidParameter, "cells must be at least 2"),
    (lambda: Board.hexagon(2, seed=-1), InvalidParameter, "seed must be at least 0"),
    (lambda: Board([0, 1, 2], [1, 1]), InvalidBoard, "^cell 1 lists itself as a neighbour$"),
    (lambda: Board([0, 2, 3, 4], [1, 1, 0, 0]), InvalidBoard, r"edge \(0, 1\) is listed twice"),
    (lambda: Board([0, 1, 2, 2], [1, 0]), InvalidBoard, "cell 2 has no neighbours"),
    (lambda: Board([0, 1, 2], [1, 5]), InvalidBoard, r"cell 1 has neighbour 5, outside 0..1"),
    (
        lambda: Board([0, 1, 3, 4], [1, 2, 0, 1]),
        InvalidBoard,
        "^the neighbours of cell 1 are not in ascending order: 2 then 0$",
    ),
    (
        lambda: Board([0, 1, 2, 3], [1, 2, 0]),
        InvalidBoard,
        "cell 0 lists 1 as a neighbour but 1 does not list 0",
    ),
    (lambda: Board([0, 1], [0]), InvalidBoard, "^a board needs at least 2 cells, got 1$"),
    (lambda: Board([], []), InvalidBoard, "^a board needs at least 2 cells, got 0$"),
    (
        lambda: Board([0, 1, 3], [1, 0]),
        InvalidBoard,
        r"^offsets must start at 0 and end at len\(neighbours\) = 2, got 0 and 3$",
    ),
    (
        lambda: Board([0, 2, 1, 2], [1, 2]),
        InvalidBoard,
        "^offsets decreases at cell 1: 2 then 1$",
    ),
    (
        lambda: Board([0, 1, 2, 3, 4], [1, 0, 3, 2]),
        InvalidBoard,
        "^cell 2 cannot be reached from cell 0$",
    ),
    (lambda: Board([0, 1, 2], [1, 0], centres=[[0, 0]]), InvalidParameter, r"centres must"),
    (
        lambda: Board([0, 1, 2], [1, 0], polygons=[[[0, 0], [1, 0]], [[0, 0], [1, 0], [1, 1]]]),
        InvalidParameter,
        "the polygon of cell 0",
    ),
    (
        lambda: Board([0, 1, 2], [1, 0], labels=["a", "a"]),
        InvalidParameter,
        r"labels\[1\] 'a' repeats labels\[0\]",
    ),
    (
        lambda: Board.from_networkx(nx.MultiGraph([(0, 1), (1, 0)])),
        InvalidBoard,
        "is listed twice",
    ),
    (lambda: Board.from_networkx(nx.Graph([(0, 1), (1, 1)])), InvalidBoard, "self-loop"),
    (lambda: Board.from_networkx(nx.DiGraph([(0, 1)])), InvalidParameter, "directed"),
    (lambda: Board.from_networkx([(0, 1)]), InvalidParameter, "expected a networkx graph"),
    (
        lambda: Board.from_networkx(nx.path_graph(3), starts=[0, 7]),
        InvalidBoard,
        "start node 7 is not in the graph",
    ),
]


@pytest.mark.parametrize(("make", "error", "fragment"), ERRORS)
def test_errors_name_the_offending_item(make, error, fragment):
    with pytest.raises(error, match=fragment):
        make()


def test_a_failed_check_of_a_board_is_a_value_error():
    with pytest.raises(ValueError, match="self-loop"):
        Board.from_edges([(0, 0)])


# -- files and dictionaries ---------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda: Board.hexagon(5, players=3, colour_count=12, seed=4),
        lambda: Board.voronoi(60, players=4, seed=3),
        lambda: Board.from_networkx(nx.grid_2d_graph(4, 3)),
        lambda: Board.from_edges(PATH_EDGES, centres=np.arange(10).reshape(5, 2)),
    ],
)
def test_save_load_and_dict_round_trips(tmp_path, make):
    board = make()
    path = tmp_path / "board.file"
    board.save(path)
    assert path.exists()  # no .npz appended
    loaded = Board.load(path)
    assert loaded == board
    assert loaded.kind == board.kind
    assert loaded.players == board.players
    check_board(loaded)
    data = json.loads(json.dumps(board.to_dict()))
    again = Board.from_dict(data)
    assert again == board
    assert again.kind == board.kind
    assert parse_board(str(path)) == board


def test_regular_geometry_is_not_stored_in_dicts():
    board = Board.hexagon(18)
    data = board.to_dict()
    assert data["geometry"] == "regular"
    assert Board.from_dict(data) == board
    voronoi = Board.voronoi(20).to_dict()
    assert len(voronoi["geometry"]["polygons"]) == 20


def test_corrupt_and_foreign_files(tmp_path):
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"this is not a zip archive at all")
    with pytest.raises(InvalidBoard, match=r"garbage.npz: not a valid annexation board file"):
        Board.load(garbage)
    foreign = tmp_path / "foreign.npz"
    with open(foreign, "wb") as handle:
        np.savez(handle, meta=np.array(json.dumps({"format": "something else"})))
    with pytest.raises(InvalidBoard, match="not an annexation board"):
        Board.load(foreign)
    stranger = tmp_path / "stranger.npz"
    Board.hexagon(2).save(stranger)
    with zipfile.ZipFile(stranger, "a") as archive:
        archive.writestr("x.npy", b"never read")
    with pytest.raises(InvalidBoard, match=r"holds the member 'x\.npy', not one of its"):
        Board.load(stranger)
    missing = tmp_path / "missing.npz"
    with open(missing, "wb") as handle:
        np.savez(handle, x=np.zeros(3))
    with pytest.raises(InvalidBoard, match="not a valid annexation board file"):
        Board.load(missing)
    # A board whose colours were tampered with is refused on load.
    board = Board.hexagon(2)
    with np.load(_saved(board, tmp_path / "good.npz")) as data:
        arrays = {key: data[key] for key in data.files}
    arrays["colours"] = arrays["colours"].copy()
    arrays["colours"][3] = 8
    tampered = tmp_path / "tampered.npz"
    with open(tampered, "wb") as handle:
        np.savez(handle, **arrays)
    with pytest.raises(InvalidBoard, match=r"cell 3 has colour 8, outside 0..7"):
        Board.load(tampered)
    arrays["meta"] = np.array(json.dumps({"format": "stratagem.annexation.board", "version": 9}))
    with open(tampered, "wb") as handle:
        np.savez(handle, **arrays)
    with pytest.raises(InvalidBoard, match="version 9"):
        Board.load(tampered)


def _saved(board: Board, path):
    board.save(path)
    return path


def test_from_dict_errors():
    data = Board.hexagon(2).to_dict()
    with pytest.raises(InvalidBoard, match="not the dictionary"):
        Board.from_dict({"format": "other"})
    with pytest.raises(InvalidBoard, match="version"):
        Board.from_dict({**data, "version": 3})
    with pytest.raises(InvalidBoard, match="malformed"):
        Board.from_dict({key: value for key, value in data.items() if key != "colours"})
    with pytest.raises(InvalidBoard, match=r"^cell 0 lists itself as a neighbour$"):
        Board.from_dict({**data, "neighbours": [0] * len(data["neighbours"])})
    with pytest.raises(InvalidBoard, match="no regular geometry"):
        Board.from_dict({**data, "kind": "custom"})


def test_a_board_saved_when_kinds_gave_width_first_reads_rows_first():
    # Version 1 wrote Board.grid(10, 8) as "grid:10x8" (width by height).
    for board, old in (
        (Board.grid(10, 8), "grid:10x8"),
        (Board.hex_rectangle(5, 3), "hexrect:5x3"),
    ):
        data = board.to_dict()
        assert data["geometry"] == "regular"
        read = Board.from_dict({**data, "version": 1, "kind": old})
        assert read == board
        assert read.kind == board.kind
        assert np.array_equal(read.centres, board.centres)


# -- the command line ---------------------------------------------------------------------


def test_parse_board_forms():
    assert parse_board("hex:8") == Board.hexagon(8)
    assert parse_board(" HEXRECT:9x12 ", players=3, seed=2) == Board.hex_rectangle(
        12, 9, players=3, seed=2
    )
    assert parse_board("grid:8x10", colour_count=5).colour_count == 5
    # grid:RxC is R rows of C cells, in annexation as in conquest.
    assert parse_board("grid:8x10") == Board.grid(10, 8)
    assert parse_board("grid:2x3").centres[:, 1].tolist() == [1, 1, 1, 0, 0, 0]
    assert parse_board("voronoi:30", seed=1) == Board.voronoi(30, seed=1)


@pytest.mark.parametrize(
    "spec",
    ["hex", "hex:", "hex:8x2", "grid:10", "hexrect:4", "voronoi:3x3", "square:4", "", 8, None],
)
def test_parse_board_refuses_anything_else(spec):
    with pytest.raises(InvalidParameter, match=r"hex:R .*voronoi:N"):
        parse_board(spec)


def test_parse_board_missing_file_and_bad_size(tmp_path):
    with pytest.raises(InvalidParameter, match="no such board file"):
        parse_board(str(tmp_path / "nothing.npz"))
    with pytest.raises(InvalidParameter, match="radius must be at least 1"):
        parse_board("hex:0")
    board = Board.grid(3, 3)
    assert parse_board(_saved(board, tmp_path / "b.npz")) == board


# -- pictures -----------------------------------------------------------------------------


def grown_owner(board: Board, steps: int) -> np.ndarray:
    """Each player's cells within ``steps`` of its start (ties to the lower player)."""
    owner = np.full(board.cells, -1)
    best = np.full(board.cells, np.iinfo(np.int64).max)
    for q, start in enumerate(board.starts.tolist()):
        d = distances(board, start)
        take = (d <= steps) & (d < best)
        owner[take], best[take] = q, d[take]
    return owner


@pytest.mark.parametrize(
    "make",
    [
        lambda: Board.hexagon(8),
        lambda: Board.hexagon(18, players=4),
        lambda: Board.grid(10, 8, players=3),
        lambda: Board.hex_rectangle(6, 5),
        lambda: Board.voronoi(300),
        lambda: Board.from_edges([(x, (x + 1) % 20) for x in range(20)] + [(0, 10)]),
        lambda: Board.from_networkx(nx.grid_2d_graph(4, 4)),
    ],
)
def test_render_writes_a_png(tmp_path, make):
    from stratagem.annexation.plot import render

    board = make()
    owner = grown_owner(board, 3)
    shown = board.colours.copy()
    for q in range(board.players):
        shown[owner == q] = board.colours[board.starts[q]]
    path = tmp_path / "board.png"
    figure = render(board, owner=owner, cell_colours=shown, path=path, title="a test")
    assert figure.axes[0].get_title() == "a test"
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert path.stat().st_size > 1000


def test_render_into_axes_and_scores(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from stratagem.annexation.plot import render, render_scores

    figure, ax = plt.subplots()
    try:
        assert render(Board.grid(3, 3), ax=ax) is figure
    finally:
        plt.close(figure)
    path = tmp_path / "scores.png"
    render_scores(np.array([[1, 1], [3, 2], [5, 6]]), path, cells=9)
    assert path.stat().st_size > 1000


def test_render_errors(monkeypatch):
    from stratagem.annexation.plot import render, render_scores

    board = Board.grid(3, 3)
    with pytest.raises(InvalidParameter, match=r"owner\[4\] is 2, outside -1..1"):
        render(board, owner=[0, 0, 0, 0, 2, 0, 0, 0, 1])
    with pytest.raises(InvalidParameter, match="one entry per cell"):
        render(board, owner=[0, 1])
    with pytest.raises(InvalidParameter, match=r"cell_colours\[0\] is 8"):
        render(board, cell_colours=[8] * 9)
    with pytest.raises(InvalidParameter, match="expected an annexation Board"):
        render("grid:3x3")
    with pytest.raises(InvalidParameter, match="history_scores"):
        render_scores(np.zeros(3, dtype=int))
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(StratagemError, match=r"pip install 'stratagem\[plot\]'"):
        render(board)
