"""A grid game whose ranks own blocks of whole rows finds its frontier distances by passes over
the rows and one exchange of edge rows (``Part.row_edges``/``join_rows``), not by the search's
rounds: on ranks of threads it must play the one-process game turn by turn. A torus, and a
grid with fewer rows than ranks, keep the search's rounds."""

from __future__ import annotations

import numpy as np
import pytest

from conquest_spread import spread_beside_whole
from stratagem.conquest.boards.grid_rows import GridRows
from stratagem.conquest.distributed.local_board import grid_blocks
from stratagem.conquest.game import Assign
from stratagem.mpi import Communicator
from test_conquest_distributed import ThreadWorld, outcomes_or_raise

CASES = [
    # odd row counts; a team cut by the blocks' edges (regions are bands of diagonals)
    ("grid:31x17", 2, ("balanced", "opportunist"), "regions"),
    ("grid:27x9", 3, ("opportunist", "random", "balanced"), "regions"),
    ("grid:21x16", 4, ("aggressive", "balanced", "opportunist", "random"), "random"),
    # narrow grids: one row a rank, and three columns
    ("grid:3x50", 2, ("balanced", "opportunist"), "regions"),
    ("grid:50x3", 2, ("balanced", "opportunist"), "regions"),
    ("grid:50x3", 3, ("opportunist", "balanced", "balanced"), "random"),
    # teams that do not move to the front beside ones that do
    ("grid:25x25", 3, ("random", "balanced", "aggressive"), "regions"),
]


def play_on_threads(
    spec: str, ranks: int, policies: tuple[str, ...], assign: Assign
) -> list[tuple[list[str], bool, float]]:
    """Each rank's (differences from the one-process game, whether it went by rows, distance
    rounds a turn)."""

    def play(comm: Communicator) -> tuple[list[str], bool, float]:
        spread, differences = spread_beside_whole(
            spec, assign, comm, policies=list(policies), seed=11
        )
        rounds = spread.traffic_summary()["distance_rounds_per_turn"]
        return differences, spread._part.by_rows, rounds

    return outcomes_or_raise(ThreadWorld(ranks).run(play))


@pytest.mark.parametrize("ranks", [2, 3])
@pytest.mark.parametrize(("spec", "_", "policies", "assign"), CASES)
def test_a_grid_of_row_blocks_plays_the_one_process_game(
    spec: str, _: int, policies: tuple[str, ...], assign: Assign, ranks: int
) -> None:
    grid = GridRows.of_spec(spec)
    assert grid is not None
    outcomes = play_on_threads(spec, ranks, policies, assign)

    assert [differences for differences, _, _ in outcomes] == [[]] * ranks
    by_rows = grid.n_rows >= ranks
    assert [rows for _, rows, _ in outcomes] == [by_rows] * ranks
    if by_rows:
        # One exchange of edge rows a turn, whatever the paths to the front.
        assert all(rounds <= 1 for _, _, rounds in outcomes)


@pytest.mark.parametrize(("spec", "ranks"), [("grid:17x9:torus", 3), ("grid:2x30", 3)])
def test_a_torus_and_a_grid_of_fewer_rows_than_ranks_keep_the_search(spec: str, ranks: int) -> None:
    outcomes = play_on_threads(spec, ranks, ("balanced", "opportunist"), "regions")

    assert [differences for differences, _, _ in outcomes] == [[]] * ranks
    assert [rows for _, rows, _ in outcomes] == [False] * ranks


def test_the_blocks_of_a_grid_are_whole_rows_when_every_rank_gets_one() -> None:
    plane = GridRows(7, 5, False)
    assert grid_blocks(plane, 3).tolist() == [0, 15, 25, 35]
    assert grid_blocks(GridRows(2, 5, False), 3).tolist() == [0, 4, 7, 10]
    torus = GridRows(7, 5, True)
    assert np.array_equal(grid_blocks(torus, 3), [0, 12, 24, 35])
