"""The start of a rank's share of any board (stratagem.conquest.distributed.graph_start) against
the whole
board's assign_regions and assign_random: shares cut by the engine (part_share) from boards of
every kind, owned in blocks of the natural order, of the reverse Cuthill-McKee order or
scattered at random, on ranks emulated by threads.

The same under mpiexec is in tests/mpi/test_graph_start_mpi.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from conquest_spread import shuffled
from stratagem import _core, graph
from stratagem.conquest import Board, assign_random, assign_regions
from stratagem.conquest.boards.layouts import random_order
from stratagem.conquest.distributed import partition
from stratagem.conquest.distributed.graph_start import _region_keys, graph_distances, graph_start
from stratagem.errors import InvalidParameter
from stratagem.mpi import Communicator, block_partition
from test_conquest_distributed import ThreadWorld, outcomes_or_raise

IntArray = NDArray[np.int64]


def islands() -> Board:
    """A 5x5 grid (ids 0..24), isolated territories 25..27, a ring on 28..33 and an isolated
    territory 34."""
    ring = np.array([(28 + i, 28 + (i + 1) % 6) for i in range(6)])
    return Board.from_edges(np.concatenate([Board.grid(5, 5).edges(), ring]), 35)


BOARDS: dict[str, Board] = {
    "grid": Board.grid(7, 9),
    "line": Board.grid(1, 12),
    "torus": Board.grid(6, 5, torus=True),
    "rgg": Board.random_geometric(300, seed=2),
    "rgg-shuffled": shuffled(Board.random_geometric(150, seed=4), seed=3),
    "er-sparse": Board.erdos_renyi(120, mean_degree=1.2, seed=5),  # many components, isolated
    "er": Board.erdos_renyi(80, mean_degree=4.0, seed=1),
    "no-borders": Board.from_edges(np.zeros((0, 2), dtype=np.int64), 9),
    "ba": Board.barabasi_albert(100, 2, seed=3),
    "ring": Board.ring(31),
    "star": Board.star(25),
    "risk": Board.risk_world(),
    "islands": islands(),
}
OWNERS = ("natural", "rcm", "scattered")


def owners(board: Board, ranks: int, how: str) -> IntArray:
    """The rank of each territory: blocks of the natural or rcm order, or at random."""
    if how == "scattered":
        return np.random.default_rng(ranks).integers(0, ranks, board.n).astype(np.int64)
    return partition(board, ranks, how)  # type: ignore[arg-type]


def share_of(board: Board, owner: IntArray, rank: int) -> dict[str, NDArray[Any]]:
    return _core.conquest.part_share(board.indptr, board.indices, owner, rank)


def starts_of(board: Board, teams: int, seed: int) -> list[int]:
    """The starts of assign_regions: the first territories of its random order."""
    return [int(x) for x in random_order(seed, "conquest.assign.regions", board.n)[:teams]]


def spread_starts(
    board: Board, owner: IntArray, ranks: int, cases: list[tuple[str, int, int]]
) -> list[list[tuple[list[int], list[int]]]]:
    """Each rank's graph_start (its local ids' teams minus the whole board's, and the teams'
    territories) for every ``(assign, teams, seed)`` of ``cases``."""

    def start(comm: Communicator) -> list[tuple[list[int], list[int]]]:
        share = share_of(board, owner, comm.rank)
        found = []
        for assign, teams, seed in cases:
            team, territories = graph_start(
                share, board.n, teams, assign=assign, seed=seed, comm=comm
            )
            whole = (assign_regions if assign == "regions" else assign_random)(board, teams, seed)
            found.append(((team - whole[share["local_ids"]]).tolist(), territories.tolist()))
        return found

    return outcomes_or_raise(ThreadWorld(ranks).run(start))


def expected(
    board: Board, owner: IntArray, ranks: int, cases: list[tuple[str, int, int]]
) -> list[list[tuple[list[int], list[int]]]]:
    """What spread_starts finds when every team is the whole board's."""
    totals = []
    for assign, teams, seed in cases:
        whole = (assign_regions if assign == "regions" else assign_random)(board, teams, seed)
        totals.append(np.bincount(whole, minlength=teams).tolist())
    return [
        [([0] * share_of(board, owner, rank)["local_ids"].shape[0], total) for total in totals]
        for rank in range(ranks)
    ]


@pytest.mark.parametrize("name", BOARDS)
@pytest.mark.parametrize("ranks", [1, 2, 3, 4])
@pytest.mark.parametrize("how", OWNERS)
def test_graph_start_of_every_share_is_the_whole_boards_start(
    name: str, ranks: int, how: str
) -> None:
    board = BOARDS[name]
    owner = owners(board, ranks, how)
    cases = [
        (assign, teams, seed)
        for teams in sorted({2, 3, min(8, board.n)})
        for seed in (0, 2**64 - 1)
        for assign in ("regions", "random")
    ]
    assert spread_starts(board, owner, ranks, cases) == expected(board, owner, ranks, cases)


@pytest.mark.parametrize("name", ["islands", "er-sparse", "rgg-shuffled"])
@pytest.mark.parametrize("how", OWNERS)
def test_graph_distances_are_the_breadth_first_distances(name: str, how: str) -> None:
    board = BOARDS[name]
    source = starts_of(board, 1, 12)[0]
    want = graph.distances(board.indptr, board.indices, [source])
    owner = owners(board, 3, how)

    def distances(comm: Communicator) -> list[int]:
        share = share_of(board, owner, comm.rank)
        found = graph_distances(share, source, comm) - want[share["local_ids"]]
        return [int(d) for d in found]

    differences = outcomes_or_raise(ThreadWorld(3).run(distances))
    assert [d for found in differences for d in found if d] == []
    assert sum(map(len, differences)) > board.n  # ghosts too


def rounds_of(board: Board, owner: IntArray, ranks: int, teams: int, seed: int) -> list[int]:
    starts = starts_of(board, teams, seed)

    def rounds(comm: Communicator) -> int:
        return _region_keys(share_of(board, owner, comm.rank), starts, teams, comm)[1]

    return outcomes_or_raise(ThreadWorld(ranks).run(rounds))


def test_the_rounds_are_one_on_one_rank_and_few_on_blocks() -> None:
    board = Board.grid(30, 30)
    assert rounds_of(board, partition(board, 1), 1, 4, 3) == [1]
    # Every rank stops together; blocks of rows: a path crosses each cut once.
    found = rounds_of(board, partition(board, 4), 4, 4, 3)
    assert len(set(found)) == 1
    assert 2 <= found[0] <= 5
    # Scattered owners: many crossings, more rounds, the same teams (above).
    assert rounds_of(board, owners(board, 4, "scattered"), 4, 4, 3)[0] > found[0]


@pytest.mark.parametrize("ranks", [1, 2, 3])
def test_a_one_territory_board_is_one_team_and_too_small_for_two(ranks: int) -> None:
    board = Board.from_spec("grid:1x1")
    owner = partition(board, ranks)

    def start(comm: Communicator) -> list[int]:
        share = share_of(board, owner, comm.rank)
        team = [int(t) for t in graph_distances(share, 0, comm)]
        with pytest.raises(InvalidParameter, match="n_teams = 2 exceeds the 1 territories"):
            graph_start(share, 1, 2, assign="regions", seed=0, comm=comm)
        return team

    assert outcomes_or_raise(ThreadWorld(ranks).run(start)) == [[0]] + [[]] * (ranks - 1)


def test_any_blocks_of_the_random_words_give_the_same_start() -> None:
    board = BOARDS["er-sparse"]
    owner = partition(board, 3, "rcm")
    whole = assign_regions(board, 5, 8)
    for offsets in ([0, 0, 1, 120], [0, 60, 60, 120], block_partition(board.n, 3).tolist()):

        def start(comm: Communicator, offsets: list[int] = offsets) -> list[int]:
            share = share_of(board, owner, comm.rank)
            team, _ = graph_start(
                share, board.n, 5, assign="regions", seed=8, offsets=offsets, comm=comm
            )
            return [int(d) for d in team - whole[share["local_ids"]]]

        assert not any(d for found in outcomes_or_raise(ThreadWorld(3).run(start)) for d in found)


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(1, 40),
    pairs=st.lists(st.tuples(st.integers(0, 39), st.integers(0, 39)), max_size=80),
    ranks=st.integers(1, 4),
    teams=st.integers(2, 8),
    seed=st.integers(0, 2**64 - 1),
    how=st.sampled_from(OWNERS),
)
def test_graph_start_on_random_edge_lists_is_the_whole_boards_start(
    *, n: int, pairs: list[tuple[int, int]], ranks: int, teams: int, seed: int, how: str
) -> None:
    edges = np.array([(min(u, v), max(u, v)) for u, v in pairs if u != v and max(u, v) < n])
    board = Board.from_edges(np.unique(edges.reshape(-1, 2), axis=0), n)
    if teams > n:
        return
    owner = owners(board, ranks, how)
    cases = [("regions", teams, seed), ("random", teams, seed)]
    assert spread_starts(board, owner, ranks, cases) == expected(board, owner, ranks, cases)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"n_teams": 1}, "n_teams must be at least 2"),
        ({"n_teams": 65}, "n_teams must be at most 64"),
        ({"n_teams": 6, "n": 5}, "n_teams = 6 exceeds the 5 territories"),
        ({"assign": "continents"}, "assign must be 'regions' or 'random', got 'continents'"),
        ({"seed": -1}, "seed must be at least 0"),
        ({"offsets": [0, 10, 20]}, "offsets must cut the 20 territories into 3 blocks"),
        ({"offsets": [0, 12, 10, 20]}, "got [0, 12, 10, 20]"),
        ({"n": 10}, "the share holds territories 6..14, outside the board's 0..9"),
    ],
)
def test_bad_input_on_one_rank_raises_on_every_rank(
    arguments: dict[str, Any], message: str
) -> None:
    board = Board.ring(20)
    owner = partition(board, 3)

    def start(comm: Communicator) -> None:
        given: dict[str, Any] = {"n": 20, "n_teams": 3, "assign": "regions", "seed": 1}
        given |= {"offsets": None} | (arguments if comm.rank == 1 else {})
        share = share_of(board, owner, comm.rank)
        graph_start(share, given.pop("n"), given.pop("n_teams"), **given, comm=comm)

    for outcome in ThreadWorld(3).run(start):
        assert isinstance(outcome, InvalidParameter), repr(outcome)
        assert message in str(outcome)
