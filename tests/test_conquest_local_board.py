"""Rank-local grid boards (stratagem.conquest.distributed.local_board) against the whole board:
the rows and offsets of a grid from its spec, each rank's share built from its own block against
the engine's cut of the whole board, each rank's regions start from the grid's distances against
the whole board's assign_regions, and DistributedGame.from_spec against Game, on the serial
communicator and on ranks emulated by threads.

The same games under mpiexec are in tests/mpi/test_conquest_mpi.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquest_spread import SPEC_CASES, spec_on_ranks
from stratagem import _core
from stratagem.conquest import Board, Game, assign_random, assign_regions
from stratagem.conquest.boards.grid_rows import GridRows
from stratagem.conquest.boards.layouts import random_order
from stratagem.conquest.distributed import DistributedGame, local_board, partition
from stratagem.conquest.distributed.local_board import (
    grid_part,
    local_share,
    local_start,
    random_positions,
    region_starts,
)
from stratagem.conquest.game import Assign
from stratagem.errors import InconsistentInput, InvalidParameter
from stratagem.mpi import Communicator, block_partition
from test_conquest_distributed import ThreadWorld, outcomes_or_raise

SHAPES = [
    (1, 1, False),
    (1, 6, False),
    (6, 1, False),
    (2, 2, False),
    (5, 8, False),
    (9, 4, False),
    (3, 3, True),
    (4, 7, True),
    (8, 5, True),
]


def shape_id(shape: tuple[int, int, bool]) -> str:
    rows, cols, torus = shape
    return f"{rows}x{cols}" + (":torus" if torus else "")


@pytest.mark.parametrize("shape", SHAPES, ids=shape_id)
def test_a_grid_from_its_spec_tells_the_boards_kind_and_size(shape: tuple[int, int, bool]) -> None:
    board = Board.grid(*shape)
    grid = GridRows.of_spec(board.kind)
    assert grid == GridRows(*shape)
    assert (grid.kind, grid.n, grid.n_borders) == (board.kind, board.n, board.n_borders)
    assert GridRows.of_spec("ring:5") is None


@pytest.mark.parametrize("shape", SHAPES, ids=shape_id)
@pytest.mark.parametrize("ranks", [1, 2, 3, 4, 7])
def test_a_share_from_its_block_is_the_engines_cut_of_the_whole_board(
    shape: tuple[int, int, bool], ranks: int
) -> None:
    board = Board.grid(*shape)
    owner = partition(board, ranks)
    for rank in range(ranks):
        whole = _core.conquest.part_share(board.indptr, board.indices, owner, rank)
        local = local_share(GridRows(*shape), ranks, rank)
        assert sorted(local) == sorted(whole)
        for name, array in whole.items():
            assert local[name].dtype == array.dtype, name
            assert local[name].tolist() == array.tolist(), (name, rank)


def test_the_distances_of_a_grid_are_breadth_first_search_hops() -> None:
    board = Board.grid(6, 9, torus=True)
    grid = GridRows(6, 9, torus=True)
    # Hops from territory 10 by breadth-first search on the board.
    hops = np.full(board.n, -1)
    hops[10], level, d = 0, [10], 0
    while level:
        d += 1
        level = [y for x in level for y in board.neighbours(x).tolist() if hops[y] < 0]
        level = sorted(set(level))
        hops[level] = d
    assert grid.distances(10, np.arange(board.n)).tolist() == hops.tolist()


@settings(max_examples=60, deadline=None)
@given(
    rows=st.integers(1, 12),
    cols=st.integers(1, 12),
    torus=st.booleans(),
    teams=st.integers(2, 8),
    seed=st.integers(0, 2**64 - 1),
    ranks=st.integers(1, 4),
)
def test_each_ranks_regions_from_the_distances_are_assign_regions(
    *, rows: int, cols: int, torus: bool, teams: int, seed: int, ranks: int
) -> None:
    torus = torus and rows >= 3 and cols >= 3
    board = Board.grid(rows, cols, torus)
    if teams > board.n:
        return
    grid = GridRows(rows, cols, torus)
    whole = assign_regions(board, teams, seed)

    def start(comm: Communicator) -> tuple[list[int], list[int]]:
        share = grid_part(grid, comm)
        ids = share.ids()
        team, territories = local_start(grid, share, teams, assign="regions", seed=seed, comm=comm)
        return (team - whole[ids]).tolist(), territories.tolist()

    sizes = np.bincount(whole, minlength=teams).tolist()
    for differences, territories in outcomes_or_raise(ThreadWorld(ranks).run(start)):
        assert not any(differences)
        assert territories == sizes


class Offers:
    """A communicator stand-in for region_starts: every rank's offer, this one's last."""

    def __init__(self, others: list[Any]) -> None:
        self.others = others

    def allgather_object(self, mine: Any) -> list[Any]:
        return [*self.others, mine]


class Recorder:
    """Records a rank's offer instead of sharing it."""

    offer: Any = None

    def allgather_object(self, mine: Any) -> list[Any]:
        self.offer = mine
        return [mine]


@pytest.mark.parametrize("n", [1, 4, 9, 1000])
@pytest.mark.parametrize("ranks", [1, 2, 3, 4])
@pytest.mark.parametrize("teams", [1, 3, 8])
def test_region_starts_from_every_ranks_block_are_the_random_orders_first(
    n: int, ranks: int, teams: int
) -> None:
    if teams > n:
        return
    offsets = block_partition(n, ranks)
    for seed in (0, 5, 2**64 - 1):
        offers = []
        for rank in range(ranks - 1):
            recorder = Recorder()
            region_starts(seed, n, teams, (offsets[rank], offsets[rank + 1]), recorder)  # type: ignore[arg-type]
            offers.append(recorder.offer)
        last = (int(offsets[-2]), int(offsets[-1]))
        starts = region_starts(seed, n, teams, last, Offers(offers))  # type: ignore[arg-type]
        assert starts == random_order(seed, "conquest.assign.regions", n)[:teams].tolist()


def test_words_of_scattered_ids_are_drawn_run_by_run_as_the_stream_gives_them() -> None:
    # A torus block's ghosts reach the far end of the board: two runs, not the whole range.
    ids = np.array([5, 99_999, 3, 100_000, 7, 2, 50_000, 1, 0, 123_456, 6], dtype=np.int64)
    whole = local_board._raw_words(3, "conquest.assign.random", 0, 123_457)
    drawn = local_board._words_of(3, "conquest.assign.random", ids)
    assert drawn.tolist() == whole[ids].tolist()
    assert local_board._words_of(3, "conquest.assign.random", ids[:0]).shape == (0,)


@pytest.mark.parametrize("n", [1, 7, 1000])
@pytest.mark.parametrize("ranks", [1, 2, 3, 4])
@pytest.mark.parametrize("tied", [False, True])
def test_random_positions_going_round_the_ranks_are_the_random_order(
    monkeypatch: pytest.MonkeyPatch, n: int, ranks: int, tied: bool
) -> None:
    if tied:
        # Words with many ties, to check that ties are ordered by id as argsort does.
        drawn = local_board._words_of
        monkeypatch.setattr(local_board, "_words_of", lambda *args: drawn(*args) % np.uint64(5))
    offsets = block_partition(n, ranks)
    words = local_board._words_of(11, "conquest.assign.random", np.arange(n))
    place = np.empty(n, dtype=np.int64)
    place[np.argsort(words, kind="stable")] = np.arange(n)
    if not tied and n >= 3:
        # The order assign_random deals the teams in.
        assert (place % 3).tolist() == assign_random(Board.ring(n), 3, 11).tolist()

    def positions(comm: Communicator) -> list[int]:
        # Each rank asks for its block and, like ghosts, the ends of its neighbours' blocks.
        lo, hi = int(offsets[comm.rank]), int(offsets[comm.rank + 1])
        ids = np.arange(max(lo - 2, 0), min(hi + 2, n), dtype=np.int64)
        found = random_positions(11, ids, offsets, comm)
        return [int(found[k]) - int(place[x]) for k, x in enumerate(ids.tolist())]

    assert outcomes_or_raise(ThreadWorld(ranks).run(positions)) == [
        [0] * (min(int(offsets[r + 1]) + 2, n) - max(int(offsets[r]) - 2, 0)) for r in range(ranks)
    ]


@pytest.mark.parametrize(("spec", "teams", "assign"), SPEC_CASES)
@pytest.mark.parametrize("ranks", [1, 2, 3, 4])
def test_from_spec_on_ranks_of_threads_equals_game(
    spec: str, teams: int, assign: Assign, ranks: int, tmp_path: Any
) -> None:
    if spec.startswith("file:"):
        path = str(tmp_path / "board.npz")
        Board.from_spec(spec.removeprefix("file:")).save(path)
        spec = path

    outcomes = outcomes_or_raise(
        ThreadWorld(ranks).run(lambda comm: spec_on_ranks(spec, teams, assign, comm))
    )
    board = Board.from_spec(spec)
    local = not spec.startswith("ring")
    for differences, built_whole, shape in outcomes:
        assert differences == []
        assert built_whole is not local
        assert tuple(shape) == (board.kind, board.n, board.n_borders)


def test_a_game_from_a_grid_spec_builds_its_board_only_when_asked(tmp_path: Any) -> None:
    spread = DistributedGame.from_spec("grid:8x9", 3, 5, ["balanced"] * 3, seed=2, max_turns=6)
    assert spread._board is None
    spread.run()
    spread.save(tmp_path / "game.npz")  # saving needs the whole board: built now
    assert spread.board == Board.grid(8, 9)
    loaded = Game.load(tmp_path / "game.npz")
    assert loaded.turn == spread.turn == 6
    assert np.array_equal(loaded.team, spread.gather_state()[0])
    with pytest.raises(AttributeError, match="fixed"):
        spread.board = Board.grid(8, 9)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"spec": "grid:5x4"}, "rank 2 was given another board than rank 0"),
        ({"spec": "ring:20"}, "rank 2 was given another board, order or start"),
        ({"order": "rcm"}, "rank 2 was given another board, order or start"),
        ({"troops": 4}, "rank 2 was given another team or troops"),
        ({"seed": 3}, "rank 2 was given another policies or parameters"),
        ({"spec": "grid:0x4"}, "rank 2: "),
    ],
)
def test_bad_input_to_from_spec_on_one_rank_raises_on_every_rank(
    changes: dict[str, Any], message: str
) -> None:
    def make(comm: Communicator) -> None:
        given: dict[str, Any] = {"spec": "grid:4x5", "troops": 3, "seed": 1, "order": "natural"}
        if comm.rank == 2:
            given |= changes
        DistributedGame.from_spec(
            given["spec"],
            2,
            given["troops"],
            ["random", "balanced"],
            seed=given["seed"],
            order=given["order"],
            threads=1,
            comm=comm,
        )

    outcomes = ThreadWorld(3).run(make)
    for outcome in outcomes:
        assert isinstance(outcome, (InvalidParameter, InconsistentInput)), repr(outcome)
        assert message in str(outcome)


def test_a_share_kept_by_the_engine_is_the_share_of_the_whole_board_and_makes_one_part() -> None:
    grid = GridRows(7, 6, False)
    board = Board.grid(7, 6)
    offsets = block_partition(grid.n, 3)
    owner = partition(board, 3)
    share = _core.conquest.grid_part(7, 6, False, offsets, 1)
    whole = _core.conquest.part_share(board.indptr, board.indices, owner, 1)
    arrays = share.arrays()
    assert sorted(arrays) == sorted(whole)
    for name, array in whole.items():
        assert arrays[name].tolist() == array.tolist(), name
    assert sorted(share.plan()) == sorted(PLAN_FIELDS)
    assert share.ids().tolist() == whole["local_ids"].tolist()
    names = ["random", "balanced"]
    team = np.zeros(share.n, dtype=np.uint8)
    counts = np.array([grid.n, 0], dtype=np.int64)
    make = _core.conquest.Part.of_share
    with pytest.raises(InvalidParameter, match="one entry per territory"):
        make(share, team[:-1], 3, names, (1, 200_000, 2**40, None), grid.n, counts, counts * 3)
    with pytest.raises(InvalidParameter, match="team 2 of 2"):
        share.team_counts(team + 2, 2)
    part = make(share, team, 3, names, (1, 200_000, 2**40, None), grid.n, counts, counts * 3)
    assert part.owned_ids().tolist() == list(range(offsets[1], offsets[2]))
    with pytest.raises(InvalidParameter, match="made into a part already"):
        share.plan()


def test_the_regions_cuts_refuse_more_teams_than_territories() -> None:
    assert _core.conquest.regions_cuts([1, 2, 1], 2) == [(1, 1)]
    with pytest.raises(InvalidParameter, match="5 teams on 4 territories"):
        _core.conquest.regions_cuts([1, 2, 1], 5)
    with pytest.raises(InvalidParameter, match="not on the grid"):
        _core.conquest.grid_part(2, 2, False, np.array([0, 4]), 0).farthest(4)


PLAN_FIELDS = (
    "neighbours",
    "halo_send",
    "halo_send_offsets",
    "halo_recv",
    "halo_recv_offsets",
    "cut",
    "cut_offsets",
)
