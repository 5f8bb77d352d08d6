"""Conquest boards: the CSR invariants of every constructor, round trips through edges,
networkx, arrays, pickles and files, every error message, the RISK map, the random
generators (against plain-Python references on the RNG oracle, and statistically), and the
initial assignment helpers."""

from __future__ import annotations

import math
import pickle
import re
import time
import tracemalloc

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from stratagem import graph
from stratagem.conquest import oracle as conquest_oracle
from stratagem.conquest.board import (
    MAX_TEAMS,
    TROOP_LIMIT,
    Board,
    assign_continents,
    assign_random,
    assign_regions,
    troops_given,
    troops_uniform,
)
from stratagem.conquest.boards import layouts
from stratagem.errors import InvalidBoard, InvalidParameter
from stratagem.rng import oracle


def check_csr(board: Board) -> None:
    """Every invariant of the CSR form, checked the slow and obvious way."""
    n, indptr, indices = board.n, board.indptr, board.indices
    assert indptr.dtype == np.int64
    assert indices.dtype == np.int64
    assert indptr.shape == (n + 1,)
    assert indices.shape == (2 * board.n_borders,)
    assert not indptr.flags.writeable
    assert not indices.flags.writeable
    assert indptr[0] == 0
    assert indptr[-1] == indices.size
    assert (np.diff(indptr) >= 0).all()
    rows = [indices[indptr[x] : indptr[x + 1]].tolist() for x in range(n)]
    directed = set()
    for x, row in enumerate(rows):
        assert row == sorted(set(row)), f"row {x} is not strictly increasing"
        assert all(0 <= y < n and y != x for y in row)
        directed.update((x, y) for y in row)
    assert directed == {(y, x) for x, y in directed}, "not symmetric"
    edges = board.edges()
    assert edges.dtype == np.int64
    assert edges.shape == (board.n_borders, 2)
    assert edges.tolist() == sorted([x, y] for x, y in directed if x < y)
    assert board.degree().tolist() == [len(row) for row in rows]
    for x in (0, n // 2, n - 1):
        assert board.neighbours(x).tolist() == rows[x]


def canonical(pairs) -> set[tuple[int, int]]:
    return {(min(a, b), max(a, b)) for a, b in pairs}


GENERATED = {
    "complete:1": lambda: Board.complete(1),
    "complete:2": lambda: Board.complete(2),
    "complete:7": lambda: Board.complete(7),
    "star:1": lambda: Board.star(1),
    "star:2": lambda: Board.star(2),
    "star:9": lambda: Board.star(9),
    "ring:3": lambda: Board.ring(3),
    "ring:10": lambda: Board.ring(10),
    "grid:1x1": lambda: Board.grid(1, 1),
    "grid:1x5": lambda: Board.grid(1, 5),
    "grid:4x5": lambda: Board.grid(4, 5),
    "torus:3x3": lambda: Board.grid(3, 3, torus=True),
    "torus:4x6": lambda: Board.grid(4, 6, torus=True),
    "rgg:1": lambda: Board.random_geometric(1),
    "rgg:200": lambda: Board.random_geometric(200, seed=3),
    "rgg:50:radius": lambda: Board.random_geometric(50, 0.3),
    "er:1": lambda: Board.erdos_renyi(1, 0.5),
    "er:60": lambda: Board.erdos_renyi(60, 0.1, seed=5),
    "er:60:p=0": lambda: Board.erdos_renyi(60, 0.0),
    "er:10:p=1": lambda: Board.erdos_renyi(10, 1.0),
    "er:100:degree": lambda: Board.erdos_renyi(100, mean_degree=4.0),
    "ba:2:1": lambda: Board.barabasi_albert(2, 1),
    "ba:50:1": lambda: Board.barabasi_albert(50, 1, seed=2),
    "ba:80:3": lambda: Board.barabasi_albert(80, 3),
    "risk": Board.risk_world,
}


@pytest.mark.parametrize("name", GENERATED)
def test_every_generator_makes_a_valid_csr_board(name):
    board = GENERATED[name]()
    check_csr(board)
    # The kind rebuilds the board, and the Rust engine accepts it.
    assert Board.from_spec(board.kind) == board
    assert board.engine.n == board.n
    assert board.engine.n_borders == board.n_borders
    assert Board(board.indptr, board.indices) == Board.from_edges(board.edges(), board.n)


@pytest.mark.parametrize(
    ("board", "expected"),
    [
        (Board.complete(6), nx.complete_graph(6)),
        (Board.star(7), nx.star_graph(6)),
        (Board.ring(8), nx.cycle_graph(8)),
        (Board.grid(4, 5), nx.grid_2d_graph(4, 5)),
        (Board.grid(3, 5, torus=True), nx.grid_2d_graph(3, 5, periodic=True)),
        (Board.grid(5, 4, torus=True), nx.grid_2d_graph(5, 4, periodic=True)),
    ],
)
def test_deterministic_generators_match_networkx(board, expected):
    if isinstance(next(iter(expected.nodes)), tuple):  # grid nodes (r, c) -> r * cols + c
        cols = max(c for _, c in expected.nodes) + 1
        expected = nx.relabel_nodes(expected, lambda node: node[0] * cols + node[1])
    assert canonical(board.edges().tolist()) == canonical(expected.edges)


def test_generator_sizes_and_positions():
    assert Board.complete(2000).n_borders == 2000 * 1999 // 2
    assert Board.star(1000).n_borders == 999
    assert Board.grid(10, 20).n_borders == 10 * 19 + 20 * 9
    assert Board.grid(10, 20, torus=True).n_borders == 400
    grid = Board.grid(2, 3)
    assert grid.positions is not None
    assert grid.positions.tolist() == [[0, 1], [1, 1], [2, 1], [0, 0], [1, 0], [2, 0]]
    star = Board.star(5)
    assert star.positions is not None
    assert star.positions[0].tolist() == [0.0, 0.0]
    assert Board.erdos_renyi(10, 0.5).positions is None


# -- from_edges, from_networkx, to_networkx -------------------------------------------------


@st.composite
def edge_lists(draw):
    n = draw(st.integers(1, 25))
    pair = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda p: p[0] != p[1])
    pairs = draw(st.lists(pair, max_size=80, unique_by=lambda p: (min(p), max(p))))
    return n, pairs


@given(edge_lists())
def test_from_edges_on_drawn_edge_lists(case):
    n, pairs = case
    board = Board.from_edges(np.array(pairs, dtype=np.int64).reshape(-1, 2), n)
    check_csr(board)
    assert board.n == n
    assert canonical(board.edges().tolist()) == canonical(pairs)
    assert Board.from_edges(pairs, n) == board  # a list of tuples works too
    assert Board(board.indptr, board.indices) == board
    assert board.engine.n_borders == len(pairs)


@given(edge_lists())
def test_networkx_round_trips(case):
    n, pairs = case
    board = Board.from_edges(pairs, n)
    graph = board.to_networkx()
    assert sorted(graph.nodes) == list(range(n))
    assert canonical(graph.edges) == canonical(pairs)
    assert Board.from_networkx(graph) == board
    plain = nx.Graph()
    plain.add_nodes_from(range(n))
    plain.add_edges_from(pairs)
    again = Board.from_networkx(plain)
    assert again == board
    assert again.names is None
    assert again.kind == "networkx"


@given(edge_lists(), st.randoms(use_true_random=False))
def test_from_networkx_numbers_other_labels_in_sorted_order(case, shuffler):
    n, pairs = case
    labels = [f"t{x:03d}" for x in range(n)]
    shuffler.shuffle(labels)
    graph = nx.Graph()
    graph.add_nodes_from(labels)
    graph.add_edges_from((labels[a], labels[b]) for a, b in pairs)
    board = Board.from_networkx(graph)
    check_csr(board)
    assert board.names == tuple(sorted(labels))
    named = {(board.names[a], board.names[b]) for a, b in board.edges().tolist()}
    assert canonical(named) == canonical(graph.edges)


def test_from_networkx_reads_positions_names_continents_and_unsortable_labels():
    graph = nx.Graph(kind="tiny", continents={"west": ["b"], "east": ["a", 3]})
    graph.add_node("b", pos=(0, 1))
    graph.add_node("a", pos=(2.5, 3))
    graph.add_node(3, pos=(1, 1))
    graph.add_edges_from([("a", "b"), ("b", 3)])
    board = Board.from_networkx(graph)  # str and int do not sort: numbered by str
    assert board.names == ("3", "a", "b")
    assert board.positions is not None
    assert board.positions.tolist() == [[1, 1], [2.5, 3], [0, 1]]
    assert board.continents == {"west": (2,), "east": (0, 1)}
    assert board.kind == "tiny"
    assert canonical(board.edges().tolist()) == {(1, 2), (0, 2)}
    risk = Board.risk_world()
    assert Board.from_networkx(risk.to_networkx()) == risk
    assert Board.from_networkx(risk.to_networkx()).kind == "risk"


def test_from_networkx_refuses_what_is_not_a_board():
    with pytest.raises(InvalidBoard, match="a directed graph is not a board"):
        Board.from_networkx(nx.DiGraph([(0, 1)]))
    with pytest.raises(InvalidBoard, match="a multigraph is not a board"):
        Board.from_networkx(nx.MultiGraph([(0, 1)]))
    with pytest.raises(InvalidBoard, match=re.escape("node 'x' has a self-loop")):
        Board.from_networkx(nx.Graph([("x", "y"), ("x", "x")]))
    with pytest.raises(InvalidBoard, match="the graph has no nodes"):
        Board.from_networkx(nx.Graph())
    with pytest.raises(InvalidParameter, match="expected a networkx graph, got list"):
        Board.from_networkx([(0, 1)])
    with pytest.raises(InvalidBoard, match=re.escape("nodes 1 and '1' would both be named '1'")):
        Board.from_networkx(nx.Graph([(1, "1"), (1, 2)]))
    with pytest.raises(InvalidBoard, match=re.escape("continent 'c' lists 7, which is not")):
        Board.from_networkx(nx.Graph([(0, 1)], continents={"c": [7]}))


# -- error messages ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("edges", "n", "error", "message"),
    [
        (
            [(x, x + 1) for x in range(8)] + [(12, 3)],
            10,
            InvalidBoard,
            "edge 8 (12, 3): territory 12 is outside 0..9",
        ),
        ([(0, 1), (1, -2)], 10, InvalidBoard, "edge 1 (1, -2): territory -2 is outside 0..9"),
        ([(0, 1), (-1, 2)], None, InvalidBoard, "edge 1 (-1, 2): territory -1 is negative"),
        (
            [(0, 1), (1, 2), (2, 3), (0, 2), (3, 3)],
            None,
            InvalidBoard,
            "edge 4 (3, 3) is a self-loop",
        ),
        (
            [(0, 1), (9, 2), (1, 2), (3, 4), (5, 6), (2, 9), (9, 2)],
            None,
            InvalidBoard,
            "edge 5 (2, 9) repeats edge 1 (9, 2)",
        ),
        ([(0, 1), (0, 1)], None, InvalidBoard, "edge 1 (0, 1) repeats edge 0 (0, 1)"),
        ([(0, 1)], 0, InvalidBoard, "a board needs at least one territory, got n = 0"),
        ([], None, InvalidBoard, "a board needs at least one territory: give n"),
        ([(0, 2**70)], 10, InvalidBoard, f"edge 0 (0, {2**70}): territory {2**70} is outside"),
        (
            np.array([[0, 2**64 - 1]], dtype=np.uint64),
            None,
            InvalidBoard,
            f"territory {2**64 - 1} is beyond the limit",
        ),
        ([(0, 1.0)], None, InvalidParameter, "edges must hold integer territory ids, got dtype"),
        (
            [(False, True)],
            None,
            InvalidParameter,
            "edges must hold integer territory ids, got dtype",
        ),
        ([(0, "a")], None, InvalidParameter, "edges must hold integer territory ids"),
        ([(0, 2**70), (1, "a")], None, InvalidParameter, "edge 1 holds 'a'"),
        ([0, 1, 2], None, InvalidParameter, "edges must have shape (m, 2), got shape (3,)"),
        ([(0, 1, 2)], None, InvalidParameter, "edges must have shape (m, 2), got shape (1, 3)"),
        ([(0, 1)], 2.0, InvalidParameter, "n must be an integer"),
    ],
)
def test_from_edges_errors_name_the_offending_item(edges, n, error, message):
    with pytest.raises(error, match=re.escape(message)):
        Board.from_edges(edges, n)


def test_from_edges_accepts_isolated_territories_and_empty_edge_lists():
    board = Board.from_edges(np.zeros((0, 2), dtype=np.uint8), 3)
    assert board.n == 3
    assert board.n_borders == 0
    assert Board.from_edges([], 3) == board
    assert Board.from_edges([(0, 1)], 4).degree().tolist() == [1, 1, 0, 0]
    assert Board.from_edges(np.array([[3, 1]], dtype=np.uint64)).edges().tolist() == [[1, 3]]


@pytest.mark.parametrize(
    ("indptr", "indices", "message"),
    [
        ([0], [], "a board needs at least 1 territory, got 0"),
        ([], [], "a board needs at least 1 territory, got 0"),
        ([0, 1, 1], [1], "territory 0 lists 1 as a neighbour but 1 does not list 0"),
        ([0, 1, 2], [0, 0], "territory 0 lists itself as a neighbour"),
        (
            [0, 2, 3, 4],
            [2, 1, 0, 0],
            "the neighbours of territory 0 are not in ascending order: 2 then 1",
        ),
        ([0, 2, 2, 3], [1, 1, 0], "edge (0, 1) is listed twice"),
        ([0, 1, 2], [5, 0], "territory 0 has neighbour 5, outside 0..1"),
        ([0, 2, 1, 3], [1, 2, 0], "indptr decreases at territory 1: 2 then 1"),
        ([1, 2], [0], "indptr must start at 0 and end at len(indices) = 1, got 1 and 2"),
    ],
)
def test_csr_constructor_errors(indptr, indices, message):
    with pytest.raises(InvalidBoard, match=f"^{re.escape(message)}$"):
        Board(indptr, indices)


def test_metadata_errors():
    edges = [(0, 1), (1, 2)]
    with pytest.raises(InvalidParameter, match=re.escape("names must have one entry per")):
        Board.from_edges(edges, names=["a", "b"])
    with pytest.raises(InvalidBoard, match=re.escape("names[2] 'a' repeats names[0]")):
        Board.from_edges(edges, names=["a", "b", "a"])
    with pytest.raises(InvalidParameter, match=re.escape("names[1] must be a string")):
        Board.from_edges(edges, names=["a", 1, "c"])
    with pytest.raises(InvalidBoard, match="territory 1 is in both continents 'x' and 'y'"):
        Board.from_edges(edges, continents={"x": [0, 1], "y": [1, 2]})
    with pytest.raises(InvalidBoard, match=re.escape("continent 'x': territory 3 is outside")):
        Board.from_edges(edges, continents={"x": [3]})
    with pytest.raises(InvalidBoard, match="continent 'x' has no territory"):
        Board.from_edges(edges, continents={"x": []})
    with pytest.raises(InvalidParameter, match=re.escape("positions must have shape (3, 2)")):
        Board.from_edges(edges, positions=[(0, 0), (1, 1)])
    with pytest.raises(InvalidParameter, match=re.escape("positions[1] is not finite")):
        Board.from_edges(edges, positions=[(0, 0), (1, math.nan), (2, 2)])
    with pytest.raises(InvalidParameter, match="positions must be numbers"):
        Board.from_edges(edges, positions=[("a", "b")] * 3)
    with pytest.raises(InvalidParameter, match="indices must hold integers"):
        Board([0, 1, 2], [1.0, 0.0])


def test_generator_parameter_errors():
    cases = [
        (lambda: Board.complete(0), "n must be at least 1"),
        (lambda: Board.ring(2), "n must be at least 3"),
        (lambda: Board.grid(0, 3), "rows must be at least 1"),
        (lambda: Board.grid(2, 3, torus=True), "a torus needs at least 3 rows and 3 columns"),
        (lambda: Board.grid(3, 3, torus=1), "torus must be True or False"),
        (lambda: Board.random_geometric(10, 0.0), "radius must be positive"),
        (lambda: Board.random_geometric(10, mean_degree=-1.0), "mean_degree must be between"),
        (lambda: Board.random_geometric(10, seed=-1), "seed must be at least 0"),
        (lambda: Board.erdos_renyi(10), "exactly one of p and mean_degree"),
        (lambda: Board.erdos_renyi(10, 0.1, mean_degree=1.0), "exactly one of p and mean_degree"),
        (lambda: Board.erdos_renyi(10, 1.5), "p must be between 0.0 and 1.0, got 1.5"),
        (lambda: Board.erdos_renyi(10, mean_degree=10.0), "mean_degree must be between 0.0 and"),
        (lambda: Board.barabasi_albert(3, 3), "n must be at least 4"),
        (lambda: Board.barabasi_albert(10, 0), "m must be at least 1"),
        (lambda: Board.complete(2**40), "n must be at most"),
    ]
    for make, message in cases:
        with pytest.raises(InvalidParameter, match=re.escape(message)):
            make()


# -- specs ------------------------------------------------------------------------------------


def test_from_spec_forms():
    assert Board.from_spec("complete:20") == Board.complete(20)
    assert Board.from_spec("star:30") == Board.star(30)
    assert Board.from_spec("ring:100") == Board.ring(100)
    assert Board.from_spec("grid:10x20") == Board.grid(10, 20)
    assert Board.from_spec("grid:10x20:torus") == Board.grid(10, 20, torus=True)
    assert Board.from_spec("rgg:500") == Board.random_geometric(500)
    assert Board.from_spec("rgg:500:radius=0.05:seed=4") == Board.random_geometric(
        500, 0.05, seed=4
    )
    assert Board.from_spec("rgg:500:degree=5") == Board.random_geometric(500, mean_degree=5)
    assert Board.from_spec("er:300:0.02") == Board.erdos_renyi(300, 0.02)
    assert Board.from_spec("er:300:degree=6:seed=9") == Board.erdos_renyi(
        300, mean_degree=6, seed=9
    )
    assert Board.from_spec("ba:300:2:seed=1") == Board.barabasi_albert(300, 2, seed=1)
    assert Board.from_spec(" RISK ") == Board.risk_world()
    assert Board.from_spec("ba:300:2:seed=1").kind == "ba:300:2:seed=1"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("hex:5", "unknown board 'hex'; expected complete, star"),
        ("ring", "expected 1 field(s), got 0"),
        ("ring:abc", "n must be an integer, got 'abc'"),
        ("complete:5:seed=1", "unknown option 'seed' (accepted: none)"),
        ("grid:10", "cols (grid:RxC) must be an integer, got ''"),
        ("grid:3x3:donut", "expected 'torus', got 'donut'"),
        ("rgg:100:radius=0.1:degree=3", "give radius or degree, not both"),
        ("rgg:100:radius=wide", "radius must be a number, got 'wide'"),
        ("rgg:100:seed=1:seed=2", "option 'seed' is repeated"),
        ("er:100", "er needs exactly one of a probability (er:N:P) and degree=D"),
        ("er:100:0.1:degree=3", "er needs exactly one of a probability"),
        ("ba:100", "expected 2 field(s), got 1"),
        ("risk:seed=3", "unknown option 'seed'"),
        ("er:100:2.0", "p must be between 0.0 and 1.0"),
    ],
)
def test_from_spec_errors(spec, message):
    with pytest.raises(InvalidParameter, match=re.escape(message)):
        Board.from_spec(spec)
    with pytest.raises(InvalidParameter, match="a board spec must be a string"):
        Board.from_spec(5)


# -- the RISK map -----------------------------------------------------------------------------


def test_risk_world_map():
    board = Board.risk_world()
    check_csr(board)
    assert board.n == 42
    assert board.n_borders == 83
    assert board.kind == "risk"
    assert board.names is not None
    assert len(set(board.names)) == 42
    continents = board.continents
    assert continents is not None
    assert {name: len(ids) for name, ids in continents.items()} == {
        "North America": 9,
        "South America": 4,
        "Europe": 7,
        "Africa": 6,
        "Asia": 12,
        "Australia": 4,
    }
    assert sorted(x for ids in continents.values() for x in ids) == list(range(42))
    graph = board.to_networkx()
    assert nx.is_connected(graph)
    for continent in continents.values():  # every continent is connected on its own
        assert nx.is_connected(graph.subgraph(continent))
    ids = {name: x for x, name in enumerate(board.names)}

    def border(a, b):
        return ids[b] in board.neighbours(ids[a]).tolist()

    for a, b in [
        ("Alaska", "Kamchatka"),
        ("Greenland", "Iceland"),
        ("Brazil", "North Africa"),
        ("Central America", "Venezuela"),
        ("Siam", "Indonesia"),
        ("East Africa", "Middle East"),
        ("Southern Europe", "Egypt"),
        ("Ukraine", "Afghanistan"),
        ("Western Europe", "North Africa"),
    ]:
        assert border(a, b)
        assert border(b, a)
    for a, b in [("Alaska", "Greenland"), ("Brazil", "Egypt"), ("Japan", "China")]:
        assert not border(a, b)
    degree = dict(zip(board.names, board.degree().tolist(), strict=True))
    assert degree["Ontario"] == 6
    assert degree["Argentina"] == 2
    assert degree["Middle East"] == 6
    assert board.positions is not None
    assert board.positions.shape == (42, 2)


# -- random generators ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda seed: Board.random_geometric(300, seed=seed),
        lambda seed: Board.erdos_renyi(300, 0.02, seed=seed),
        lambda seed: Board.erdos_renyi(300, mean_degree=3, seed=seed),
        lambda seed: Board.barabasi_albert(300, 2, seed=seed),
    ],
)
def test_random_generators_are_deterministic_and_depend_on_the_seed(make):
    assert make(11) == make(11)
    assert make(11) != make(12)
    assert make(0) != make(2**64 - 1)


def reference_er_pairs(n: int, p: float, seed: int) -> list[tuple[int, int]]:
    """G(n, p) by geometric gaps, one pair at a time, on the RNG oracle."""
    cursor = oracle.Stream(seed, "conquest.board.er").cursor()
    log_q = layouts._ln_one_minus(p)
    pairs, k, total = [], -1, n * (n - 1) // 2
    while True:
        u = 1.0 - (cursor.next_u64() >> 11) * 2.0**-53
        k += math.floor(oracle.det_ln(u) / log_q) + 1
        if k >= total:
            return pairs
        x, rest = 0, k
        while rest >= n - 1 - x:
            rest -= n - 1 - x
            x += 1
        pairs.append((x, x + 1 + rest))


@given(st.integers(1, 40), st.floats(0.001, 0.999), st.integers(0, 2**64 - 1))
def test_erdos_renyi_equals_the_pair_by_pair_reference(n, p, seed):
    board = Board.erdos_renyi(n, p, seed=seed)
    assert board.edges().tolist() == [list(pair) for pair in reference_er_pairs(n, p, seed)]


@given(st.floats(1e-300, 1e300))
def test_vectorised_det_ln_equals_the_oracle_bit_for_bit(x):
    assert layouts._det_ln(np.array([x]))[0] == oracle.det_ln(x)


@given(st.floats(1e-12, 1 - 1e-12))
def test_ln_one_minus_is_accurate(p):
    assert math.isclose(layouts._ln_one_minus(p), math.log1p(-p), rel_tol=1e-14)


def test_erdos_renyi_statistics():
    n, p = 2000, 0.005
    total = n * (n - 1) // 2
    edges = Board.erdos_renyi(n, p, seed=1).n_borders
    assert abs(edges - total * p) < 5 * math.sqrt(total * p * (1 - p))
    # Every pair equally likely, independently: counts over many seeds on 6 territories.
    seeds = 400
    counts = np.zeros((6, 6), dtype=np.int64)
    sizes = np.zeros(16, dtype=np.int64)
    for seed in range(seeds):
        board = Board.erdos_renyi(6, 0.3, seed=seed)
        edges_of = board.edges()
        counts[edges_of[:, 0], edges_of[:, 1]] += 1
        sizes[board.n_borders] += 1
    pair_counts = counts[np.triu_indices(6, 1)]
    assert (np.abs(pair_counts - 0.3 * seeds) < 5 * math.sqrt(seeds * 0.21)).all()
    expected = stats.binom.pmf(np.arange(16), 15, 0.3) * seeds
    merged_observed = [sizes[:2].sum(), *sizes[2:8], sizes[8:].sum()]
    merged_expected = [expected[:2].sum(), *expected[2:8], expected[8:].sum()]
    assert stats.chisquare(merged_observed, merged_expected).pvalue > 1e-4


def test_random_geometric_points_radius_and_mean_degree():
    n, seed = 400, 21
    board = Board.random_geometric(n, seed=seed)
    cursor = oracle.Stream(seed, "conquest.board.rgg").cursor()
    drawn = np.array([cursor.next_float() for _ in range(2 * n)]).reshape(n, 2)
    radius = math.sqrt(8.0 / (math.pi * (n - 1)))
    # Numbered row of cells by row of cells, every other row reversed, ties in drawing order.
    cells = int(1 / radius)

    def cell(point):
        column, row = (min(int(c * cells), cells - 1) for c in point)
        return row, column if row % 2 == 0 else cells - 1 - column

    points = drawn[sorted(range(n), key=lambda i: (cell(drawn[i]), i))]
    assert board.positions is not None
    np.testing.assert_array_equal(board.positions, points)
    distance = np.hypot(*(points[:, None, :] - points[None, :, :]).transpose(2, 0, 1))
    close = {(x, y) for x, y in zip(*np.nonzero(distance <= radius), strict=True) if x < y}
    assert canonical(board.edges().tolist()) == close
    # The mean degree is 8 less what the square's edges cut off (about 8 r / (3 pi)).
    n = 20_000
    radius = math.sqrt(8.0 / (math.pi * (n - 1)))
    mean = 2 * Board.random_geometric(n, seed=2).n_borders / n
    assert abs(mean - 8.0 * (1 - 8 * radius / (3 * math.pi))) < 0.15


@given(st.integers(1, 6), st.integers(1, 200), st.integers(0, 2**64 - 1))
def test_barabasi_albert_is_the_oracles_rule(m, extra, seed):
    n = m + extra
    board = Board.barabasi_albert(n, m, seed=seed)
    ends = np.array(conquest_oracle.barabasi_albert_ends(n, m, seed), dtype=np.int64)
    indptr, indices = graph.csr(ends[::2], ends[1::2], n)
    np.testing.assert_array_equal(board.indptr, indptr)
    np.testing.assert_array_equal(board.indices, indices)


def test_barabasi_albert_structure():
    n, m = 400, 3
    board = Board.barabasi_albert(n, m, seed=8)
    assert board.n_borders == m + m * (n - m - 1)
    assert nx.is_connected(board.to_networkx())
    for v in range(m + 1, n):
        assert (board.neighbours(v) < v).sum() == m
    degree = board.degree()
    assert degree.min() >= 1
    assert degree[m + 1 :].min() >= m
    # Preferential attachment: the oldest territories collect the most borders.
    assert degree[:20].mean() > 3 * degree[-100:].mean()


# -- assignment -------------------------------------------------------------------------------


@given(st.integers(2, 300), st.integers(2, MAX_TEAMS), st.integers(0, 2**64 - 1))
def test_assign_random_is_a_balanced_permutation(n, teams, seed):
    teams = min(teams, n)
    board = Board.ring(max(n, 3)) if n >= 3 else Board.complete(n)
    team = assign_random(board, teams, seed)
    assert team.dtype == np.int64
    assert team.shape == (board.n,)
    counts = np.bincount(team, minlength=teams)
    assert counts.size == teams
    assert counts.max() - counts.min() <= 1
    cursor = oracle.Stream(seed, "conquest.assign.random").cursor()
    keys = [cursor.next_u64() for _ in range(board.n)]
    ranks = sorted(range(board.n), key=lambda x: (keys[x], x))
    assert [team[x] for x in ranks] == [r % teams for r in range(board.n)]
    np.testing.assert_array_equal(assign_random(board, teams, seed), team)


@given(st.integers(1, 12), st.integers(1, 12), st.integers(2, 8), st.integers(0, 2**64 - 1))
def test_assign_regions_deals_equal_regions(rows, cols, teams, seed):
    board = Board.grid(rows, cols)
    if teams > board.n:
        with pytest.raises(InvalidParameter, match="exceeds the"):
            assign_regions(board, teams, seed)
        return
    team = assign_regions(board, teams, seed)
    assert team.dtype == np.int64
    assert ((team >= 0) & (team < teams)).all()
    counts = np.bincount(team, minlength=teams)
    assert counts.max() - counts.min() <= 1
    np.testing.assert_array_equal(assign_regions(board, teams, seed), team)


def test_assign_regions_deals_the_far_ends_component_first_then_the_rest_by_id():
    grid = Board.grid(6, 6)
    edges = np.concatenate((grid.edges(), grid.edges() + 36))  # two separate grids
    board = Board.from_edges(edges, 36 * 2 + 5)  # and 5 isolated territories
    network = board.to_networkx()
    for seed in range(20):
        team = assign_regions(board, 3, seed)
        assert np.bincount(team).tolist() == [26, 26, 25]
        first = int(layouts.random_order(seed, "conquest.assign.regions", board.n)[0])
        piece = sorted(nx.node_connected_component(network, first))
        rest = [x for x in range(board.n) if x not in piece]
        # The first piece's territories take the first places, the others follow by id.
        assert team[piece].max() <= team[rest].min()
        assert (np.diff(team[rest]) >= 0).all()


def test_assign_continents_and_errors():
    risk = Board.risk_world()
    team = assign_continents(risk)
    assert np.bincount(team).tolist() == [9, 4, 7, 6, 12, 4]
    with pytest.raises(InvalidBoard, match="has no continents"):
        assign_continents(Board.grid(3, 3))
    partial = Board.from_edges([(0, 1), (1, 2)], continents={"a": [0], "b": [2]})
    with pytest.raises(InvalidBoard, match="territory 1 is in no continent"):
        assign_continents(partial)
    with pytest.raises(InvalidParameter, match="n_teams must be at least 2"):
        assign_random(risk, 1, 0)
    with pytest.raises(InvalidParameter, match="n_teams must be at most 64"):
        assign_regions(Board.complete(100), 65, 0)
    with pytest.raises(InvalidParameter, match="n_teams = 5 exceeds the 4 territories"):
        assign_random(Board.complete(4), 5, 0)
    with pytest.raises(InvalidParameter, match="expected a Board, got list"):
        assign_random([0, 1], 2, 0)


def test_troops_helpers():
    risk = Board.risk_world()
    assert troops_uniform(risk, 3).tolist() == [3] * 42
    assert troops_uniform(risk, TROOP_LIMIT).dtype == np.int64
    for bad, message in [(-1, "at least 0"), (TROOP_LIMIT + 1, "at most"), (2.5, "integer")]:
        with pytest.raises(InvalidParameter, match=message):
            troops_uniform(risk, bad)
    given_troops = np.arange(42, dtype=np.uint16)
    result = troops_given(risk, given_troops)
    assert result.dtype == np.int64
    assert result.tolist() == list(range(42))
    assert troops_given(risk, [TROOP_LIMIT] * 42)[0] == TROOP_LIMIT
    bad_cases = [
        ([1] * 41, "troops must have shape (42,)"),
        (np.ones(42), "troops must be integers, got dtype float64"),
        (np.ones(42, dtype=bool), "troops must be integers, got dtype bool"),
        ([1] * 3 + [-1] + [1] * 38, "troops[3] = -1 is negative (territory 3 (Alberta))"),
        ([1] * 41 + [2**40 + 1], f"troops[41] = {2**40 + 1} exceeds TROOP_LIMIT = {2**40}"),
        ([1] * 41 + [2**70], "troops[41] = 1180591620717411303424 exceeds TROOP_LIMIT"),
        (np.full(42, 2**63, dtype=np.uint64), "troops[0] = 9223372036854775808 exceeds"),
        ([1] * 41 + ["x"], "troops must be integers"),
    ]
    for troops, message in bad_cases:
        with pytest.raises(InvalidParameter, match=re.escape(message)):
            troops_given(risk, troops)
    with pytest.raises(
        InvalidParameter, match=re.escape("troops[1] = -2 is negative (territory 1)")
    ):
        troops_given(Board.ring(3), [0, -2, 0])


# -- files, pickles, equality -----------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        Board.risk_world,
        lambda: Board.grid(5, 7, torus=True),
        lambda: Board.from_edges([(0, 3)], 5),
        lambda: Board.erdos_renyi(200, 0.03),
        lambda: Board.from_edges([(0, 1)], names=["a\x00", "é"], continents={"c": [1]}),
    ],
)
def test_save_load_arrays_and_pickle_round_trip(make, tmp_path):
    board = make()
    path = tmp_path / "board.bin"
    board.save(path)
    assert path.exists()
    for again in (
        Board.load(path),
        Board.from_arrays(board.to_arrays()),
        pickle.loads(pickle.dumps(board)),
    ):
        assert again == board
        assert again.kind == board.kind
        assert again.names == board.names
        assert again.continents == board.continents
        check_csr(again)


def test_load_refuses_bad_files(tmp_path):
    not_npz = tmp_path / "text.npz"
    not_npz.write_text("hello")
    with pytest.raises(InvalidBoard, match=re.escape(f"{not_npz}: not a valid board file")):
        Board.load(not_npz)
    npy = tmp_path / "array.npy"
    np.save(npy, np.arange(3))
    with pytest.raises(
        InvalidBoard, match=re.escape(f"{npy}: not a valid board file (not an .npz")
    ):
        Board.load(npy)
    empty = tmp_path / "empty.npz"
    empty.write_bytes(b"")
    with pytest.raises(InvalidBoard, match=re.escape(f"{empty}: not a valid board file")):
        Board.load(empty)
    whole = tmp_path / "whole.npz"
    Board.ring(5).save(whole)
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(whole.read_bytes()[:-40])
    with pytest.raises(InvalidBoard, match="a damaged or truncated archive"):
        Board.load(truncated)
    arrays = Board.ring(5).to_arrays()
    tampered = tmp_path / "tampered.npz"
    swapped = arrays["indices"].copy()
    swapped[[0, 1]] = swapped[[1, 0]]
    np.savez(tampered, **{**arrays, "indices": swapped})
    with pytest.raises(InvalidBoard, match="are not in ascending order: 4 then 1"):
        Board.load(tampered)
    other = tmp_path / "other.npz"
    np.savez(other, meta=np.array('{"format": "something else"}'))
    with pytest.raises(InvalidBoard, match="not the arrays of a stratagem board"):
        Board.load(other)
    missing = tmp_path / "missing.npz"
    np.savez(missing, meta=arrays["meta"])
    with pytest.raises(InvalidBoard, match="the board array 'indptr' is missing"):
        Board.load(missing)
    with pytest.raises(InvalidBoard, match=r"absent\.npz: cannot read a valid board file: No such"):
        Board.load(tmp_path / "absent.npz")


def test_boards_are_immutable_values():
    board = Board.risk_world()
    with pytest.raises(ValueError, match="read-only"):
        board.indices[0] = 5
    with pytest.raises(ValueError, match="read-only"):
        board.neighbours(0)[0] = 5
    assert board.positions is not None
    with pytest.raises(ValueError, match="read-only"):
        board.positions[0, 0] = 1.0
    with pytest.raises(AttributeError, match="immutable"):
        board.n = 3
    continents = board.continents
    assert continents is not None
    continents.clear()
    assert board.continents
    assert board == Board.risk_world()
    assert hash(board) == hash(Board.risk_world())
    assert board != Board.grid(6, 7)
    assert board != "risk"
    assert len({Board.ring(5), Board.ring(5), Board.ring(6)}) == 2
    unnamed = Board.from_edges(board.edges())
    assert unnamed != board  # names, continents and positions count
    assert repr(Board.ring(5)) == "Board(kind='ring:5', n=5, n_borders=5)"
    with pytest.raises(InvalidParameter, match="territory must be at most 4"):
        Board.ring(5).neighbours(5)


# -- large boards (run with -m slow) ----------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "spec", ["grid:1000x1000", "rgg:1000000", "er:1000000:degree=8", "star:1000000"]
)
def test_million_territory_builds(spec):
    tracemalloc.start()
    started = time.perf_counter()
    board = Board.from_spec(spec)
    seconds = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    stored = board.indptr.nbytes + board.indices.nbytes
    print(
        f"\n{spec}: {board.n} territories, {board.n_borders} borders in {seconds:.2f} s; "
        f"peak {peak / 2**20:.0f} MiB for {stored / 2**20:.0f} MiB of CSR"
    )
    assert board.n == 1_000_000
    assert peak < 12 * stored + 200 * 2**20  # O(n + m): a small multiple of the result
    checked = Board(board.indptr, board.indices, positions=board.positions)
    assert checked == board
