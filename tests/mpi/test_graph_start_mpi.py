"""The start of each rank's share of a board (stratagem.conquest.distributed.graph_start, and a
grid's stratagem.conquest.distributed.local_board.local_start) over the ranks of the MPI world
against the whole board's assign_regions and assign_random, and bad input on one rank only. The
same on ranks emulated by threads is in tests/test_conquest_graph_start.py.

Every rank runs the same code and makes the same assertions (see conftest.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from collective_errors import raised
from stratagem import _core
from stratagem.conquest import Board, assign_random, assign_regions
from stratagem.conquest.boards.grid_rows import GridRows
from stratagem.conquest.distributed import partition
from stratagem.conquest.distributed.graph_start import graph_start
from stratagem.conquest.distributed.local_board import grid_part, local_start
from stratagem.errors import InvalidParameter
from stratagem.mpi import Communicator

pytestmark = pytest.mark.any_world_size

BOARDS = {
    "rgg": Board.random_geometric(3000, seed=6),
    "er-sparse": Board.erdos_renyi(500, mean_degree=1.5, seed=2),
    "torus": Board.grid(20, 25, torus=True),
    "risk": Board.risk_world(),
}


@pytest.mark.parametrize("name", BOARDS)
@pytest.mark.parametrize("how", ["natural", "rcm", "scattered"])
def test_graph_start_on_every_rank_is_the_whole_boards_start(
    comm: Communicator, name: str, how: str
) -> None:
    board = BOARDS[name]
    if how == "scattered":
        owner = np.random.default_rng(1).integers(0, comm.size, board.n).astype(np.int64)
    else:
        owner = partition(board, comm.size, how)  # type: ignore[arg-type]
    share = _core.conquest.part_share(board.indptr, board.indices, owner, comm.rank)
    differences = []
    for assign, teams, seed in [("regions", 3, 1), ("regions", 8, 2**64 - 1), ("random", 5, 4)]:
        team, territories = graph_start(share, board.n, teams, assign=assign, seed=seed, comm=comm)
        whole = (assign_regions if assign == "regions" else assign_random)(board, teams, seed)
        if not np.array_equal(team, whole[share["local_ids"]]):
            differences.append(f"rank {comm.rank}: {assign} {teams} teams")
        if territories.tolist() != np.bincount(whole, minlength=teams).tolist():
            differences.append(f"rank {comm.rank}: {assign} {teams} teams' territories")
    assert [d for theirs in comm.allgather_object(differences) for d in theirs] == []


@pytest.mark.parametrize("spec", ["grid:23x31", "grid:9x45", "grid:17x9:torus"])
def test_each_ranks_grid_regions_are_the_whole_boards(comm: Communicator, spec: str) -> None:
    grid = GridRows.of_spec(spec)
    assert grid is not None
    board = Board.from_spec(spec)
    share = grid_part(grid, comm)
    ids = share.ids()
    differences = []
    for teams in range(2, 9):
        for seed in (0, 7, 2**64 - 1):
            whole = assign_regions(board, teams, seed)
            team, territories = local_start(
                grid, share, teams, assign="regions", seed=seed, comm=comm
            )
            if not np.array_equal(team, whole[ids]):
                differences.append(f"rank {comm.rank}: {teams} teams, seed {seed}")
            if territories.tolist() != np.bincount(whole, minlength=teams).tolist():
                differences.append(f"rank {comm.rank}: {teams} teams' territories, seed {seed}")
    assert [d for theirs in comm.allgather_object(differences) for d in theirs] == []


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"n_teams": 1}, "n_teams must be at least 2"),
        ({"assign": "continents"}, "assign must be 'regions' or 'random'"),
    ],
)
def test_bad_input_on_one_rank_raises_on_every_rank(
    comm: Communicator, arguments: dict[str, Any], message: str
) -> None:
    if comm.size == 1:
        pytest.skip("needs a second rank")
    board = BOARDS["risk"]
    share = _core.conquest.part_share(
        board.indptr, board.indices, partition(board, comm.size), comm.rank
    )
    given: dict[str, Any] = {"n_teams": 3, "assign": "regions"}
    given |= arguments if comm.rank == comm.size - 1 else {}
    error = raised(
        lambda: graph_start(
            share, board.n, given["n_teams"], assign=given["assign"], seed=0, comm=comm
        )
    )
    assert isinstance(error, InvalidParameter), repr(error)
    assert f"rank {comm.size - 1}: " in str(error)
    assert message in str(error)
