"""The distributed conquest game without mpiexec: partitions and each rank's share of the
board, DistributedGame on the serial communicator and on ranks emulated by threads (both
against Game, turn by turn), input checks, the per-rank engine's own checks, checkpoints, and
an mpiexec run where one rank fails in the middle of a turn.

The collective tests proper are in ``tests/mpi/test_conquest_distributed.py``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import queue
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from conquest_spread import (
    Setup,
    first_difference,
    numpy_part_arrays,
    play_alongside,
    push_to_weakest,
    shuffled,
)
from mpi_launch import SCRIPTS, mpirun
from stratagem import _core
from stratagem.conquest import POLICIES, TROOP_LIMIT, Board, Game, assign_regions, oracle
from stratagem.conquest.distributed.game import (
    ORDERS,
    DistributedGame,
    PartitionSummary,
    _part_arrays,
    cut_borders,
    partition,
    territory_order,
)
from stratagem.conquest.distributed.local_board import PartArrays
from stratagem.conquest.game import PolicyView, read_game
from stratagem.errors import (
    InconsistentInput,
    InvalidBoard,
    InvalidMove,
    InvalidParameter,
    StratagemError,
)
from stratagem.mpi import (
    Communicator,
    ReduceOp,
    Request,
    abort_on_error,
    block_partition,
)

# The rules of one turn: the search player plays in one process only.
RULES = POLICIES[:4]
T = TypeVar("T")
IntArray = NDArray[np.int64]

# -- boards and games ---------------------------------------------------------------------------


def with_islands() -> Board:
    """A grid, a separate ring and isolated territories between and after them."""
    grid = Board.grid(4, 5).edges()
    ring = np.array([(25 + i, 25 + (i + 1) % 6) for i in range(6)])
    return Board.from_edges(np.concatenate([grid, ring]), 34)


@st.composite
def boards(draw: st.DrawFn, min_n: int = 3, max_n: int = 30) -> Board:
    """Small boards (at least ``min_n`` territories, at least 3) from every generator, random
    ones with random seeds, ids sometimes shuffled."""
    kind = draw(st.sampled_from(["grid", "ring", "star", "complete", "er", "rgg", "islands"]))
    seed = draw(st.integers(0, 2**16))
    n = draw(st.integers(max(min_n, 3), max_n))
    if kind == "grid":
        cols = draw(st.integers(2, 6))
        board = Board.grid(-(-n // cols), cols)
    elif kind == "ring":
        board = Board.ring(n)
    elif kind == "star":
        board = Board.star(n)
    elif kind == "complete":
        board = Board.complete(min(n, max(min_n, 9)))
    elif kind == "er":  # isolated territories and several components are common here
        board = Board.erdos_renyi(n, draw(st.sampled_from([0.05, 0.15, 0.4])), seed=seed)
    elif kind == "rgg":
        board = Board.random_geometric(n, mean_degree=4.0, seed=seed)
    else:
        board = with_islands()
    return shuffled(board, seed) if draw(st.booleans()) else board


@st.composite
def setups(draw: st.DrawFn, min_n: int = 3, max_n: int = 30, max_turns: int = 12) -> Setup:
    board = draw(boards(min_n, max_n))
    k = draw(st.integers(2, 5))
    # Troops near the limit exercise the clamping of recruitment and occupation, and the
    # siege of a full stack (oracle.FULL).
    amounts = st.one_of(
        st.integers(0, 30), st.sampled_from([oracle.FULL - 1, oracle.FULL, TROOP_LIMIT])
    )
    # Regions leave interior territories, whose frontier distances cross between ranks.
    if draw(st.booleans()):
        team = assign_regions(board, k, seed=draw(st.integers(0, 2**16)))
    else:
        team = np.array(draw(st.lists(st.integers(0, k - 1), min_size=board.n, max_size=board.n)))
    return Setup(
        board=board,
        team=team,
        troops=np.array(draw(st.lists(amounts, min_size=board.n, max_size=board.n))),
        policies=tuple(draw(st.lists(st.sampled_from(RULES), min_size=k, max_size=k))),
        seed=draw(st.integers(0, 2**64 - 1)),
        rate=draw(st.sampled_from([0.0, 0.2, 0.7, 3.5])),
        cap=draw(st.one_of(st.none(), st.integers(1, 60))),
        max_turns=draw(st.integers(1, max_turns)),
    )


# -- partitions ---------------------------------------------------------------------------------


@given(board=boards(max_n=60), ranks=st.integers(1, 8), order=st.sampled_from(ORDERS))
def test_partition_owns_every_territory_once_in_balanced_blocks(
    board: Board, ranks: int, order: str
) -> None:
    owner = partition(board, ranks, order)  # type: ignore[arg-type]
    sequence = territory_order(board, order)  # type: ignore[arg-type]
    sizes = np.diff(block_partition(board.n, ranks))
    assert owner.shape == (board.n,)
    assert owner.dtype == np.int64
    assert ((owner >= 0) & (owner < ranks)).all()
    # One owner per territory, and block sizes as block_partition: the first n % ranks
    # ranks hold one more, so sizes differ by at most 1.
    assert np.bincount(owner, minlength=ranks).tolist() == sizes.tolist()
    assert sizes.max() - sizes.min() <= 1
    # Blocks are contiguous runs of the order, rank after rank.
    assert owner[sequence].tolist() == np.repeat(np.arange(ranks), sizes).tolist()
    if order == "natural":
        assert owner.tolist() == np.repeat(np.arange(ranks), sizes).tolist()


@given(board=boards(max_n=60))
def test_territory_orders_are_permutations(board: Board) -> None:
    natural = territory_order(board, "natural")
    rcm = territory_order(board, "rcm")
    assert natural.tolist() == list(range(board.n))
    assert rcm.dtype == np.int64
    assert sorted(rcm.tolist()) == list(range(board.n))


@given(board=boards(max_n=40), data=st.data())
def test_cut_borders_counts_the_borders_between_owners(board: Board, data: st.DataObject) -> None:
    # Any owner array, not only partitions.
    owner = np.array(data.draw(st.lists(st.integers(0, 3), min_size=board.n, max_size=board.n)))
    brute = sum(1 for x, y in board.edges().tolist() if owner[x] != owner[y])
    assert cut_borders(board, owner) == brute
    assert cut_borders(board, np.zeros(board.n, dtype=np.int64)) == 0


def test_rcm_cuts_far_fewer_borders_than_natural_on_shuffled_ids() -> None:
    geometric = Board.random_geometric(2000, seed=1)
    board = shuffled(geometric, seed=0)
    for ranks in (2, 3, 4):
        natural = cut_borders(board, partition(board, ranks, "natural"))
        rcm = cut_borders(board, partition(board, ranks, "rcm"))
        # Measured: natural / rcm = 3828/124 (31x), 5076/323 (16x), 5700/454 (13x).
        assert natural >= 8 * rcm, (ranks, natural, rcm)
        # ...and rcm finds back the geography the shuffle hid: within 2x of the cut of the
        # generator's own (spatially sorted) ids, 102, 259 and 344.
        assert rcm <= 2 * cut_borders(geometric, partition(geometric, ranks, "natural"))


@given(board=boards(max_n=50), ranks=st.integers(1, 6), order=st.sampled_from(ORDERS))
def test_partition_summary_is_consistent(board: Board, ranks: int, order: str) -> None:
    summary = PartitionSummary.of(board, ranks, order)  # type: ignore[arg-type]
    owner = partition(board, ranks, order)  # type: ignore[arg-type]
    assert (summary.order, summary.ranks, summary.borders) == (order, ranks, board.n_borders)
    assert summary.cut_borders == cut_borders(board, owner)
    assert summary.territories.tolist() == np.bincount(owner, minlength=ranks).tolist()
    assert int(summary.territories.sum()) == board.n
    for rank in range(ranks):
        mine = np.flatnonzero(owner == rank)
        around = {int(y) for x in mine for y in board.neighbours(int(x))}
        ghosts = {y for y in around if owner[y] != rank}
        assert summary.ghosts[rank] == len(ghosts)
        assert summary.neighbours[rank] == len({int(owner[y]) for y in ghosts})
        assert summary.ghosts[rank] <= board.n - summary.territories[rank]
        assert summary.neighbours[rank] <= ranks - 1
    if ranks == 1:
        assert summary.cut_borders == 0
        assert summary.ghosts.tolist() == summary.neighbours.tolist() == [0]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: partition(Board.ring(5), 2, "metis"), "order must be one of .* got 'metis'"),
        (lambda: territory_order(Board.ring(5), "spectral"), "got 'spectral'"),
        (lambda: partition(Board.ring(5), 0), "ranks must be at least 1, got 0"),
        (lambda: PartitionSummary.of(Board.ring(5), 2, "metis"), "got 'metis'"),
    ],
)
def test_partition_refuses_bad_arguments(call: Callable[[], object], message: str) -> None:
    with pytest.raises(InvalidParameter, match=message):
        call()


# -- one rank's share of the board ----------------------------------------------------------------


def _group(values: IntArray, offsets: IntArray, j: int) -> IntArray:
    return values[offsets[j] : offsets[j + 1]]


def _edge_pairs(arrays: PartArrays, positions: IntArray) -> list[tuple[int, int]]:
    """The whole board's ``(source, target)`` of local directed edges."""
    source = np.repeat(np.arange(arrays.local_ids.shape[0]), np.diff(arrays.indptr))
    ids = arrays.local_ids
    return [(int(ids[source[p]]), int(ids[arrays.indices[p]])) for p in positions]


def check_part_arrays(board: Board, owner: IntArray, ranks: int) -> list[PartArrays]:
    """Asserts what every rank's share must be, computed here from the whole board; returns
    the shares."""
    everyone = [_part_arrays(board, owner, rank) for rank in range(ranks)]
    # The engine's share is the numpy one, array for array (same values, same dtypes).
    for rank, arrays in enumerate(everyone):
        reference = numpy_part_arrays(board, owner, rank)
        for field in dataclasses.fields(PartArrays):
            ours, theirs = getattr(arrays, field.name), getattr(reference, field.name)
            assert ours.dtype == theirs.dtype, field.name
            assert ours.tolist() == theirs.tolist(), field.name
    source = np.repeat(np.arange(board.n), board.degree())
    position = {
        (int(x), int(y)): e for e, (x, y) in enumerate(zip(source, board.indices, strict=True))
    }

    def border_id(x: int, y: int) -> int:
        return position[(min(x, y), max(x, y))]

    for rank, arrays in enumerate(everyone):
        mine = np.flatnonzero(owner == rank)
        ghosts = sorted({int(y) for x in mine for y in board.neighbours(int(x))} - set(mine))
        # Ghosts are exactly the other ranks' neighbours of owned territories.
        assert arrays.local_ids.tolist() == sorted([*mine.tolist(), *ghosts])
        assert arrays.owned.tolist() == [owner[x] == rank for x in arrays.local_ids]
        assert arrays.indptr[0] == 0
        assert arrays.indptr[-1] == arrays.indices.shape[0] == arrays.edge_ids.shape[0]
        for i, x in enumerate(arrays.local_ids.tolist()):
            row = slice(arrays.indptr[i], arrays.indptr[i + 1])
            ids = arrays.local_ids[arrays.indices[row]].tolist()
            # Owned rows are the whole board's rows; ghost rows keep the owned neighbours.
            whole = board.neighbours(x).tolist()
            assert ids == (whole if owner[x] == rank else [y for y in whole if owner[y] == rank])
            # Each local directed edge maps to the board's position of the same edge.
            assert arrays.edge_ids[row].tolist() == [position[(x, y)] for y in ids]
        assert arrays.neighbours.tolist() == sorted({int(owner[g]) for g in ghosts})
        lists = (
            (arrays.halo_send, arrays.halo_send_offsets),
            (arrays.halo_recv, arrays.halo_recv_offsets),
            (arrays.cut, arrays.cut_offsets),
        )
        for values, offsets in lists:
            assert offsets.shape == (arrays.neighbours.shape[0] + 1,)
            assert offsets[0] == 0
            assert offsets[-1] == values.shape[0]
        for j, q in enumerate(arrays.neighbours.tolist()):
            theirs = [g for g in ghosts if owner[g] == q]
            recv = arrays.local_ids[_group(arrays.halo_recv, arrays.halo_recv_offsets, j)]
            send = arrays.local_ids[_group(arrays.halo_send, arrays.halo_send_offsets, j)]
            facing = [int(x) for x in mine if (owner[board.neighbours(int(x))] == q).any()]
            assert recv.tolist() == theirs
            assert send.tolist() == facing
            # Every border with q once, as owned -> ghost, by border id.
            cut = _edge_pairs(arrays, _group(arrays.cut, arrays.cut_offsets, j))
            expected = [
                (int(x), int(y))
                for x in mine
                for y in board.neighbours(int(x)).tolist()
                if owner[y] == q
            ]
            assert cut == sorted(expected, key=lambda pair: border_id(*pair))
            # The neighbour lists the same territories and borders in the same order.
            other = everyone[q]
            back = other.neighbours.tolist().index(rank)
            their_recv = other.local_ids[_group(other.halo_recv, other.halo_recv_offsets, back)]
            assert their_recv.tolist() == send.tolist()
            their_cut = _edge_pairs(other, _group(other.cut, other.cut_offsets, back))
            assert [(y, x) for x, y in their_cut] == cut
    assert sum(a.cut.shape[0] for a in everyone) == 2 * cut_borders(board, owner)
    return everyone


def part_arguments(
    arrays: PartArrays, board: Board, team: IntArray, troops: IntArray, policies: Sequence[str]
) -> dict[str, Any]:
    """The arguments DistributedGame passes to ``_core.conquest.Part`` for this share."""
    k = len(policies)
    troop_counts = np.zeros(k, dtype=np.int64)
    np.add.at(troop_counts, team, troops)
    return {
        "share": arrays,
        "team": np.ascontiguousarray(team[arrays.local_ids]),
        "troops": np.ascontiguousarray(troops[arrays.local_ids]),
        "policies": list(policies),
        "params": (7, 200_000, TROOP_LIMIT, 50),
        "territories": board.n,
        "territory_counts": np.bincount(team, minlength=k).astype(np.int64),
        "troop_counts": troop_counts,
        "threads": 1,
    }


@given(
    board=boards(max_n=40),
    ranks=st.integers(1, 5),
    order=st.sampled_from([*ORDERS, "random owners"]),
    data=st.data(),
)
def test_part_arrays_describe_each_rank_share(
    board: Board, ranks: int, order: str, data: st.DataObject
) -> None:
    if order == "random owners":  # any owner array, ranks without territories included
        drawn = data.draw(st.lists(st.integers(0, ranks - 1), min_size=board.n, max_size=board.n))
        owner = np.array(drawn, dtype=np.int64)
    else:
        owner = partition(board, ranks, order)  # type: ignore[arg-type]
    everyone = check_part_arrays(board, owner, ranks)
    # The engine's own plan check accepts every share that owns a territory.
    team = np.arange(board.n) % 2
    for rank, arrays in enumerate(everyone):
        if (owner == rank).any():
            part = _core.conquest.Part(
                **part_arguments(arrays, board, team, np.ones(board.n, np.int64), ["random"] * 2)
            )
            assert part.owned_ids().tolist() == np.flatnonzero(owner == rank).tolist()


def test_a_rank_without_territories_can_make_its_part() -> None:
    board = Board.ring(3)
    arrays = _part_arrays(board, partition(board, 4), 3)
    team, troops = np.array([0, 1, 0]), np.full(3, 5)
    part = _core.conquest.Part(**part_arguments(arrays, board, team, troops, ["random"] * 2))
    assert part.owned_ids().tolist() == []


# -- the serial game against Game ------------------------------------------------------------


@settings(max_examples=40)
@given(setup=setups(), threads=st.sampled_from([1, 2]), order=st.sampled_from(ORDERS))
def test_serial_distributed_game_equals_game_every_turn(
    setup: Setup, threads: int, order: str
) -> None:
    spread = setup.spread(threads=threads, order=order)
    single = setup.game(threads=3 - threads)  # the thread count must not matter either
    assert play_alongside(spread, single) == []
    assert spread.traffic.turns == single.turn
    result = spread.result
    assert (result.status, result.winner, result.turns) == (
        single.status,
        single.winner,
        single.turn,
    )
    assert result.territories.tolist() == single.result.territories.tolist()
    assert result.troops.tolist() == single.result.troops.tolist()


def test_serial_game_has_one_part_without_messages() -> None:
    board = Board.grid(8, 8)
    team = assign_regions(board, 3, seed=2)
    spread = DistributedGame(
        board, team, 6, ["opportunist", "balanced", "random"], seed=4, max_turns=12, threads=2
    )
    assert (spread.rank, spread.threads, spread.rate, spread.order) == (0, 2, 0.2, "natural")
    assert spread.owned_ids.tolist() == list(range(64))
    assert (spread.n_ghosts, spread.n_cut_borders, spread.neighbours) == (0, 0, ())
    spread.run()
    with pytest.raises(ValueError, match="read-only"):
        spread.history.troops[0, 0] = 1
    summary = spread.traffic_summary()
    assert (summary["ranks"], summary["turns"], summary["cut_borders"], summary["ghosts"]) == (
        1,
        spread.turn,
        0,
        0,
    )
    by_phase = summary["bytes_per_turn_by_phase"]
    point_to_point = ("distance", "pressure", "placement", "report", "state")
    assert [by_phase[p] for p in point_to_point] == [0] * 5
    assert summary["bytes_sent_per_turn_by_rank"] == [summary["bytes_per_turn"]]
    (compute,) = summary["compute_seconds_per_turn_by_rank"]
    (wait,) = summary["wait_seconds_per_turn_by_rank"]
    assert compute > 0
    assert wait >= 0
    # The collectives alone: one flag per distance round, then 3 territory and 3 troop counts.
    rounds = summary["distance_rounds_per_turn"]
    assert rounds >= 1  # moving to the front needs the distances every turn
    assert by_phase["collective"] == 8 * rounds + 8 * 2 * 3
    assert summary["bytes_per_turn"] == by_phase["collective"]


# -- bad input ------------------------------------------------------------------------------------

RING = Board.ring(6)
GOOD: dict[str, Any] = {"team": [0, 1] * 3, "troops": 4, "policies": ["random", "balanced"]}


def idle(view: object) -> NDArray[np.int64]:
    return np.zeros(12, dtype=np.int64)


BAD_INPUTS: list[tuple[dict[str, Any], type[StratagemError], str]] = [
    ({"policies": ["random", "sneaky"]}, InvalidParameter, "team 1: unknown policy 'sneaky'"),
    ({"policies": ["random"]}, InvalidParameter, "2 to 64 teams"),
    ({"order": "metis"}, InvalidParameter, r"order must be one of .*got 'metis'"),
    ({"team": [0, 1] * 2}, InvalidParameter, r"team needs one entry per territory.*\(4,\)"),
    (
        {"team": [0, 1, 0, 1, 0, 2]},
        InvalidParameter,
        "territory 5 has team 2, but 2 policies were given: teams run 0..1",
    ),
    ({"team": [0, -1, 0, 1, 0, 1]}, InvalidParameter, "territory 1 has team -1"),
    ({"team": np.zeros(6) + 0.5}, InvalidParameter, "team must hold integers"),
    ({"troops": [4, 4, -1, 4, 4, 4]}, InvalidParameter, "territory 2 has -1 troops"),
    ({"troops": [4] * 5 + [2**40 + 1]}, InvalidParameter, "territory 5 has 1099511627777"),
    ({"troops": [4] * 7}, InvalidParameter, r"troops needs one entry per territory"),
    ({"seed": -1}, InvalidParameter, "seed must be at least 0, got -1"),
    ({"seed": 2**64}, InvalidParameter, "seed must be at most 18446744073709551615"),
    ({"seed": 1.5}, InvalidParameter, "seed must be an integer, got 1.5"),
    ({"rate": -0.5}, InvalidParameter, "rate must be a number between 0 and 10"),
    ({"cap": 0}, InvalidParameter, "cap must be at least 1, got 0"),
    ({"max_turns": 0}, InvalidParameter, "max_turns must be at least 1, got 0"),
    ({"threads": 0}, InvalidParameter, "threads must be at least 1, got 0"),
]


@pytest.mark.parametrize(
    ("changes", "error", "message"), BAD_INPUTS, ids=[m for _, _, m in BAD_INPUTS]
)
def test_bad_input_raises_the_error_naming_the_item(
    changes: dict[str, Any], error: type[StratagemError], message: str
) -> None:
    args = {**GOOD, **changes}
    with pytest.raises(error, match=message):
        DistributedGame(RING, args.pop("team"), args.pop("troops"), args.pop("policies"), **args)


def test_run_and_load_refuse_bad_arguments(tmp_path: Path) -> None:
    game = DistributedGame(RING, GOOD["team"], 4, GOOD["policies"], max_turns=None)
    with pytest.raises(InvalidParameter, match="checkpoint_every needs a checkpoint path"):
        game.run(3, checkpoint_every=2)
    with pytest.raises(InvalidParameter, match="checkpoint_every must be at least 1, got 0"):
        game.run(3, checkpoint=tmp_path / "g.npz", checkpoint_every=0)
    with pytest.raises(InvalidParameter, match="turns must be at least 0, got -1"):
        game.run(-1)
    with pytest.raises(InvalidParameter, match="run\\(\\) without turns needs max_turns"):
        game.run()
    assert game.turn == 0  # nothing was played by the refused calls
    with pytest.raises(
        InvalidBoard, match=r"missing\.npz: cannot read a saved conquest game: No such file"
    ):
        DistributedGame.load(tmp_path / "missing.npz")
    with pytest.raises(InvalidParameter, match="order must be one of"):
        DistributedGame.load(_saved(tmp_path), order="metis")  # type: ignore[arg-type]


def _saved(tmp_path: Path) -> Path:
    path = tmp_path / "ring.npz"
    Game(RING, GOOD["team"], 4, GOOD["policies"], max_turns=5).save(path)
    return path


# -- the per-rank engine's own checks ---------------------------------------------------------


@dataclass
class Share:
    """Rank 0's share of a 6x6 grid cut in two (natural order) and the arguments of its part."""

    board: Board
    arrays: PartArrays
    arguments: dict[str, Any]

    def part(self, **changes: Any) -> Any:
        """The part with some of its arguments, or of its share's arrays, changed."""
        share_fields = {field.name for field in dataclasses.fields(PartArrays)}
        share = {name: changes.pop(name) for name in share_fields & changes.keys()}
        share_arrays = dataclasses.replace(self.arguments["share"], **share)
        return _core.conquest.Part(**{**self.arguments, "share": share_arrays, **changes})


def grid_share(policies: Sequence[str] = ("opportunist", "balanced")) -> Share:
    board = Board.grid(6, 6)
    arrays = _part_arrays(board, partition(board, 2), 0)
    team = np.array([0] * 18 + [1] * 18)
    return Share(board, arrays, part_arguments(arrays, board, team, np.full(36, 7), policies))


def test_part_phases_out_of_order_are_refused() -> None:
    part = grid_share().part()
    with pytest.raises(InvalidParameter, match=r"place called out of order .*Idle.*needs Begun"):
        part.place()
    with pytest.raises(InvalidParameter, match="distance_halo called out of order"):
        part.distance_halo()
    assert part.begin_turn()
    with pytest.raises(InvalidParameter, match=r"fight called out of order .*Begun.*Placed"):
        part.fight(np.zeros(0, dtype=np.int64))
    with pytest.raises(InvalidParameter, match="occupy called out of order"):
        part.occupy(np.zeros(0, dtype=np.int64))
    with pytest.raises(InvalidParameter, match="end_turn called out of order"):
        part.end_turn(np.zeros(0, dtype=np.uint64))
    with pytest.raises(InvalidParameter, match="commit called out of order"):
        part.commit(np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64))
    part.place()
    with pytest.raises(InvalidParameter, match="distance_update called out of order"):
        part.distance_update(np.zeros(6, dtype=np.uint32))
    with pytest.raises(InvalidParameter, match="pressure_out called out of order"):
        part.pressure_out()
    with pytest.raises(InvalidParameter, match="place called out of order"):
        part.place()
    assert part.standing.turn == 0  # nothing was committed


def test_part_refuses_buffers_of_the_wrong_length() -> None:
    share = grid_share()
    part = share.part()
    ghosts, cut = share.arrays.halo_recv.shape[0], share.arrays.cut.shape[0]
    assert (ghosts, cut) == (6, 6)  # row 3 of the grid faces row 2 across the cut
    assert part.begin_turn()
    with pytest.raises(InconsistentInput, match=r"expected 6 ghost distances .* got 5"):
        part.distance_update(np.zeros(5, dtype=np.uint32))
    part.distance_update(np.full(6, 2**32 - 1, dtype=np.uint32))
    with pytest.raises(InconsistentInput, match=r"expected 6 pressure values .* got 7"):
        part.pressure_in(np.zeros(7, dtype=np.uint64))
    part.pressure_in(np.zeros(6, dtype=np.uint64))
    to_them = part.place()
    resolved = int(part.resolved_per_neighbour().sum())
    assert to_them.shape == (cut - resolved,)
    with pytest.raises(InconsistentInput, match=f"expected {resolved} placements .* got 9"):
        part.fight(np.zeros(9, dtype=np.int64))
    with pytest.raises(InconsistentInput, match="a received placement of 1099511627777 troops"):
        part.fight(np.full(resolved, TROOP_LIMIT + 1, dtype=np.int64))
    reports = part.fight(np.zeros(resolved, dtype=np.int64))
    # A report card: the signed survivors of both sides.
    assert reports.shape == (2 * resolved,)
    expected = 2 * (cut - resolved)
    with pytest.raises(InconsistentInput, match=f"expected {expected} report values"):
        part.occupy(np.zeros(expected + 2, dtype=np.int64))
    _, (territories, troops) = part.occupy(np.zeros(expected, dtype=np.int64))
    with pytest.raises(InconsistentInput, match=r"expected 6 ghost states .* got 0"):
        part.end_turn(np.zeros(0, dtype=np.uint64))
    with pytest.raises(InconsistentInput, match=r"territory 18 received team 5 with 1 troops"):
        part.end_turn(np.full(6, (5 << 48) | 1, dtype=np.uint64))
    part.end_turn(np.full(6, (1 << 48) | 7, dtype=np.uint64))
    with pytest.raises(InconsistentInput, match=r"expected 2 territory counts .* got 3"):
        part.commit(np.zeros(3, dtype=np.int64), troops)
    part.commit(territories + np.array([0, 18]), troops)
    assert part.standing.turn == 1


def _replace(values: IntArray, index: int, value: int) -> IntArray:
    changed = values.copy()
    changed[index] = value
    return changed


def _bad_plans(share: Share) -> dict[str, tuple[dict[str, Any], str]]:
    """Changes to the part's arguments, by name, and what the error says."""
    a = share.arrays
    cut, recv, send = a.cut, a.halo_recv, a.halo_send
    ghost = int(recv[-1])
    reverse = int(a.indptr[a.indices[cut[0]]])  # the first edge of the ghost's row: ghost -> x
    shorter_cut = {"cut": cut[:-1], "cut_offsets": a.cut_offsets - [0, 1]}
    shorter_recv = {"halo_recv": recv[:-1], "halo_recv_offsets": a.halo_recv_offsets - [0, 1]}
    missing = f"ghost territory {int(a.local_ids[ghost])} is in no halo_recv list"
    return {
        "ghost -> owned in cut": ({"cut": _replace(cut, 0, reverse)}, "owned -> ghost edge"),
        "cut edge twice": ({"cut": _replace(cut, 1, int(cut[0]))}, "each owned -> ghost edge"),
        "owned -> owned in cut": ({"cut": _replace(cut, 0, 0)}, "owned -> ghost edge once"),
        "cut edge out of range": ({"cut": _replace(cut, 0, 10**6)}, "owned -> ghost edge"),
        "negative cut edge": ({"cut": _replace(cut, 0, -1)}, "cut holds -1"),
        "cut border missing": (shorter_cut, "every cut border be listed"),
        "ghost missing": (shorter_recv, missing),
        "ghost twice": ({"halo_recv": _replace(recv, 0, int(recv[1]))}, "each ghost once"),
        "owned in halo_recv": ({"halo_recv": _replace(recv, 0, 0)}, "each ghost once"),
        "ghost in halo_send": ({"halo_send": _replace(send, 0, ghost)}, "does not own"),
        "offsets too short": ({"cut_offsets": a.cut_offsets[:1]}, "offsets must run from 0"),
        "offsets past the end": (
            {"cut_offsets": a.cut_offsets + np.array([0, 1])},
            "offsets must run",
        ),
        "negative offset": ({"halo_send_offsets": np.array([-1, 6])}, "offsets holds -1"),
        "owned too short": ({"owned": a.owned[:-1]}, "one entry per territory of the part"),
        "team out of range": ({"team": _replace(share.arguments["team"], 0, 2)}, "has team 2"),
        "counts of one team": ({"territory_counts": np.array([36])}, "counts need 2 entries"),
    }


@pytest.mark.parametrize("case", list(_bad_plans(grid_share())))
def test_part_refuses_a_bad_plan_naming_the_entry(case: str) -> None:
    share = grid_share()
    changes, message = _bad_plans(share)[case]
    with pytest.raises(InvalidParameter, match=re.escape(message)):
        share.part(**changes)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"local_ids": np.arange(24)[::-1].copy()}, "territory ids must increase"),
        ({"local_ids": np.arange(24) - 1}, "territory 0 has id -1"),
        ({"edge_ids": np.full(66, -2)}, "directed border 0 has id -2"),
        ({"edge_ids": np.zeros(3, dtype=np.int64)}, "one edge id per directed border (66)"),
        ({"indices": np.zeros(66, dtype=np.int64)}, "territory 0 lists itself as a neighbour"),
    ],
)
def test_part_refuses_bad_board_labels(changes: dict[str, Any], message: str) -> None:
    share = grid_share()
    assert share.arrays.edge_ids.shape == (66,)
    with pytest.raises(InvalidBoard, match=re.escape(message)):
        share.part(**changes)


def test_part_refuses_a_border_between_two_ghosts() -> None:
    # Rank 0 owns territory 0 of a triangle; its ghosts 1 and 2 border each other, which no
    # rank's share may hold (every border must touch an owned territory).
    board = Board.complete(3)
    arrays = _part_arrays(board, np.array([0, 1, 1]), 0)
    arguments = part_arguments(arrays, board, np.array([0, 1, 1]), np.full(3, 3), ["random"] * 2)
    assert arrays.indices.tolist() == [1, 2, 0, 0]
    arguments["share"] = dataclasses.replace(
        arrays,
        indptr=np.array([0, 2, 4, 6]),
        indices=np.array([1, 2, 0, 2, 0, 1]),
        edge_ids=np.arange(6),
    )
    with pytest.raises(InvalidParameter, match="every border must touch an owned territory"):
        _core.conquest.Part(**arguments)


Call = tuple[str, int]  # a phase and how far the buffer's length is off (0: right length)


@settings(max_examples=40)
@given(
    calls=st.lists(
        st.tuples(
            st.sampled_from(
                [
                    *("begin_turn", "distance_update", "pressure_in", "place", "fight"),
                    *("occupy", "end_turn", "commit", "history", "counts", "owned_state"),
                ]
            ),
            st.sampled_from([0, 0, 0, 1, -1]),
        ),
        max_size=30,
    ),
    values=st.sampled_from([0, 1, 7, -1, -(2**40), 2**40, 2**40 + 1, 2**62, -(2**63)]),
)
def test_part_calls_in_any_order_with_any_values_raise_or_work(
    calls: list[Call], values: int
) -> None:
    # Whatever a broken driver does, the part answers with a StratagemError, never a crash
    # or a panic (pyo3 turns panics into PanicException, a BaseException the test would see).
    share = grid_share(("opportunist", "random"))
    part = share.part()
    ghosts, cut = share.arrays.halo_recv.shape[0], share.arrays.cut.shape[0]

    def buffer(length: int, off: int, dtype: type) -> NDArray[Any]:
        info = np.iinfo(dtype)
        return np.full(max(length + off, 0), min(max(values, info.min), info.max), dtype=dtype)

    for phase, off in calls:
        resolved = int(part.resolved_per_neighbour().sum())
        arguments = {
            "distance_update": (buffer(ghosts, off, np.uint32),),
            "pressure_in": (buffer(cut, off, np.uint64),),
            "fight": (buffer(resolved, off, np.int64),),
            "occupy": (buffer(2 * (cut - resolved), off, np.int64),),
            "end_turn": (buffer(ghosts, off, np.uint64),),
            "commit": (buffer(2, off, np.int64), buffer(2, 0, np.int64)),
        }.get(phase, ())
        with contextlib.suppress(StratagemError):
            getattr(part, phase)(*arguments)
        territories, troops = part.history()
        assert territories.shape == troops.shape == (part.standing.turn + 1, 2)


@pytest.mark.parametrize(
    "card",
    [
        # more of this rank's soldiers survive than it placed (it holds 10 troops)
        (TROOP_LIMIT, 0),
        (-TROOP_LIMIT, 0),
        # a survivor count beyond any territory's troops
        (0, TROOP_LIMIT + 1),
    ],
)
def test_part_refuses_impossible_survivors_in_report_cards(card: tuple[int, int]) -> None:
    share = grid_share(("aggressive", "aggressive"))
    part = share.part()
    part.begin_turn()
    part.distance_update(np.zeros(6, dtype=np.uint32))
    part.place()
    resolved = int(part.resolved_per_neighbour().sum())
    part.fight(np.zeros(resolved, dtype=np.int64))
    cards = np.tile(np.array(card, dtype=np.int64), 6 - resolved)
    with pytest.raises(InconsistentInput, match="survivors"):
        part.occupy(cards)


# -- checkpoints ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def grid_setup() -> Setup:
    board = Board.grid(12, 12)
    return Setup(
        board=board,
        team=assign_regions(board, 3, seed=5),
        troops=np.full(board.n, 8),
        policies=("opportunist", "balanced", "random"),
        seed=17,
        rate=0.2,
        cap=None,
        max_turns=40,
    )


def test_checkpoints_every_k_turns_and_at_the_end(grid_setup: Setup, tmp_path: Path) -> None:
    path = tmp_path / "game.npz"
    saved_turns: list[int | None] = []

    def record(game: DistributedGame) -> None:
        # Called after each turn, before that turn's checkpoint.
        saved_turns.append(read_game(path).turn if path.exists() else None)

    spread = grid_setup.spread()
    spread.run(10, checkpoint=path, checkpoint_every=4, on_turn=record)
    assert saved_turns == [None] * 4 + [4] * 4 + [8] * 2
    assert not path.with_name("game.npz.partial").exists()
    loaded = Game.load(path)
    assert loaded.turn == 10
    single = grid_setup.game()
    single.run(10)
    assert first_difference(spread, single) is None
    assert loaded.team.tolist() == single.team.tolist()
    assert loaded.history.troops.tolist() == single.history.troops.tolist()
    assert (loaded.seed, loaded.rate_ppm, loaded.max_turns) == (17, 200_000, 40)
    assert loaded.policy_names == list(grid_setup.policies)
    # Played to the end, the last checkpoint is the finished game.
    spread.run(checkpoint=path, checkpoint_every=4)
    single.run()
    final = Game.load(path)
    assert (final.turn, final.status, final.winner) == (single.turn, single.status, single.winner)
    assert final.troops.tolist() == single.troops.tolist()


def test_game_save_then_distributed_load_continues_like_game(
    grid_setup: Setup, tmp_path: Path
) -> None:
    single = grid_setup.game()
    single.run(7)
    single.save(tmp_path / "single.npz")
    resumed = DistributedGame.load(tmp_path / "single.npz", order="rcm", threads=2)
    assert (resumed.turn, resumed.order, resumed.threads) == (7, "rcm", 2)
    assert play_alongside(resumed, single) == []
    assert resumed.status in ("won", "draw", "unfinished")


def test_distributed_save_then_game_load_continues_like_distributed(
    grid_setup: Setup, tmp_path: Path
) -> None:
    spread = grid_setup.spread(order="rcm")
    spread.run(9)
    spread.save(tmp_path / "spread.npz")
    loaded = Game.load(tmp_path / "spread.npz")
    assert first_difference(spread, loaded) is None  # the same game at turn 9
    assert play_alongside(spread, loaded) == []
    reloaded = DistributedGame.load(tmp_path / "spread.npz")
    assert reloaded.turn == 9
    assert play_alongside(reloaded, Game.load(tmp_path / "spread.npz")) == []


def test_a_loaded_game_with_a_higher_limit_plays_on(grid_setup: Setup, tmp_path: Path) -> None:
    short = DistributedGame(
        grid_setup.board, grid_setup.team, 8, list(grid_setup.policies), seed=3, max_turns=4
    )
    assert short.run().status == "unfinished"
    short.save(tmp_path / "short.npz")
    assert DistributedGame.load(tmp_path / "short.npz").status == "unfinished"
    longer = DistributedGame.load(tmp_path / "short.npz", max_turns=30)
    assert (longer.status, longer.max_turns) == ("running", 30)
    # It plays on as a game made with the higher limit from the start.
    straight = Game(
        grid_setup.board, grid_setup.team, 8, list(grid_setup.policies), seed=3, max_turns=30
    )
    straight.run(4)
    assert play_alongside(longer, straight) == []
    assert longer.turn > 4


def test_ctrl_c_in_on_turn_leaves_a_game_that_plays_on(grid_setup: Setup, tmp_path: Path) -> None:
    path = tmp_path / "game.npz"

    def interrupt_at_9(game: DistributedGame) -> None:
        if game.turn == 9:
            raise KeyboardInterrupt

    spread = grid_setup.spread()
    with pytest.raises(KeyboardInterrupt):
        spread.run(20, checkpoint=path, checkpoint_every=4, on_turn=interrupt_at_9)
    # Whole turns only: turn, history and state agree with a game stopped at turn 9.
    single = grid_setup.game()
    single.run(9)
    assert spread.history.territories.shape == (10, 3)
    assert first_difference(spread, single) is None
    assert read_game(path).turn == 8  # the interrupted run wrote no final checkpoint
    from_checkpoint = Game.load(path)
    # Both play on to the uninterrupted game's result.
    spread.run(11)
    single.run(11)
    from_checkpoint.run(12)
    assert first_difference(spread, single) is None
    assert first_difference(spread, from_checkpoint) is None
    assert play_alongside(spread, single) == []


# -- ranks emulated by threads ---------------------------------------------------------------------


class Aborted(Exception):
    """A rank called abort(): the job would end here."""


class ThreadWorld:
    """``size`` ranks as threads of this process: collectives meet at a barrier, messages go
    through queues. It lets the real DistributedGame code (plans, exchanges, checks) run over
    several ranks in a plain pytest run. Every wait times out, so a mismatch never hangs."""

    def __init__(self, size: int, timeout: float = 20.0) -> None:
        self.size = size
        self.timeout = timeout
        self.barrier = threading.Barrier(size, timeout=timeout)
        self.slots: list[object] = [None] * size
        self._boxes: dict[tuple[int, int, int], queue.SimpleQueue[NDArray[np.uint8]]] = {}
        self._lock = threading.Lock()

    def box(self, source: int, dest: int, tag: int) -> queue.SimpleQueue[NDArray[np.uint8]]:
        with self._lock:
            return self._boxes.setdefault((source, dest, tag), queue.SimpleQueue())

    def run(self, play: Callable[[Communicator], T]) -> list[T | BaseException]:
        """``play(comm)`` on every rank; each rank's result or exception, in rank order."""
        outcomes: list[T | BaseException | None] = [None] * self.size
        failures: list[float] = []

        def main(rank: int) -> None:
            try:
                outcomes[rank] = play(ThreadCommunicator(self, rank))
            except BaseException as error:  # handed back to the test
                outcomes[rank] = error
                failures.append(time.monotonic())

        threads = [threading.Thread(target=main, args=(rank,)) for rank in range(self.size)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 2 * self.timeout
        while any(thread.is_alive() for thread in threads) and time.monotonic() < deadline:
            # Errors raised together (checked_together) end every rank at once; a rank that
            # fails alone leaves the others waiting for it: wake them after a grace period.
            if failures and time.monotonic() > failures[0] + 1.0:
                self.barrier.abort()
            threads[0].join(0.01)
        assert not any(thread.is_alive() for thread in threads), "a rank hung"
        return outcomes  # type: ignore[return-value]


class _Pending:
    """A posted receive (duck-typing the ``Test`` of an mpi4py request)."""

    def __init__(self, comm: ThreadCommunicator, source: int, tag: int, buffer: NDArray[Any]):
        self.comm, self.source, self.tag, self.buffer = comm, source, tag, buffer
        self.box = comm.world.box(source, comm.rank, tag)
        self.done = False

    def _deliver(self, message: NDArray[np.uint8]) -> None:
        # Stricter than MPI (which accepts a shorter message): the counts must agree.
        target = self.buffer.reshape(-1).view(np.uint8)
        if message.shape != target.shape:
            raise Aborted(
                f"rank {self.comm.rank} expected {target.size} bytes from rank "
                f"{self.source} (tag {self.tag:#x}), got {message.size}"
            )
        target[:] = message
        self.done = True

    def Test(self) -> bool:  # noqa: N802 - the name of mpi4py's method
        if not self.done:
            try:
                self._deliver(self.box.get_nowait())
            except queue.Empty:
                return False
        return True

    def wait(self) -> None:
        deadline = time.monotonic() + self.comm.world.timeout
        while not self.done:
            if self.comm.world.barrier.broken or time.monotonic() > deadline:
                raise Aborted(f"rank {self.comm.rank} waits for rank {self.source} in vain")
            with contextlib.suppress(queue.Empty):
                self._deliver(self.box.get(timeout=0.01))


class ThreadCommunicator(Communicator):
    def __init__(self, world: ThreadWorld, rank: int) -> None:
        super().__init__(
            rank=rank, size=world.size, mpi_available=False, library_version=None, mpi_standard=None
        )
        self.world = world

    def _share(self, value: T) -> list[T]:
        """Every rank's value, in rank order."""
        self.world.slots[self.rank] = value
        self.world.barrier.wait()
        everyone = list(self.world.slots)
        self.world.barrier.wait()  # nobody writes the next round's slot before all have read
        return everyone  # type: ignore[return-value]

    def ibarrier(self) -> Request:
        self.world.barrier.wait()
        return Request()

    def allreduce_inplace(self, buffer: NDArray[Any], op: ReduceOp) -> None:
        stacked = np.stack(self._share(buffer.copy()))
        reduce = {"sum": np.sum, "max": np.max, "min": np.min}[op]
        buffer[...] = reduce(stacked, axis=0).astype(buffer.dtype)

    def iallreduce_inplace(self, buffer: NDArray[Any], op: ReduceOp) -> Request:
        # Every rank starts its collectives in the same order, so reducing at once is safe.
        self.allreduce_inplace(buffer, op)
        return Request()

    def bcast_bytes(self, buffer: NDArray[np.uint8], root: int) -> None:
        buffer[:] = self._share(buffer.copy())[root]

    def allgatherv_bytes(
        self, send: NDArray[np.uint8], recv: NDArray[np.uint8], counts: NDArray[np.int64]
    ) -> None:
        recv[:] = np.concatenate(self._share(send.copy()))

    def gatherv_bytes(
        self,
        send: NDArray[np.uint8],
        recv: NDArray[np.uint8] | None,
        counts: NDArray[np.int64],
        root: int,
    ) -> None:
        everyone = self._share(send.copy())
        if recv is not None:
            recv[:] = np.concatenate(everyone)

    def alltoall_counts(self, send: NDArray[np.int64]) -> NDArray[np.int64]:
        return np.array([row[self.rank] for row in self._share(send.copy())], dtype=np.int64)

    def alltoallv_bytes(
        self,
        send: NDArray[np.uint8],
        send_counts: NDArray[np.int64],
        recv: NDArray[np.uint8],
        recv_counts: NDArray[np.int64],
    ) -> None:
        pieces = []
        for data, counts in self._share((send.copy(), send_counts.copy())):
            first = int(counts[: self.rank].sum())
            pieces.append(data[first : first + int(counts[self.rank])])
        recv[:] = np.concatenate(pieces)

    def isend(self, buffer: NDArray[Any], dest: int, tag: int) -> Request:
        self.world.box(self.rank, dest, tag).put(buffer.reshape(-1).view(np.uint8).copy())
        return Request()

    def irecv(self, buffer: NDArray[Any], source: int, tag: int) -> Request:
        return Request(_Pending(self, source, tag, buffer))  # type: ignore[arg-type]

    def send(self, buffer: NDArray[Any], dest: int, tag: int) -> None:
        self.isend(buffer, dest, tag)

    def recv(self, buffer: NDArray[Any], source: int, tag: int) -> None:
        _Pending(self, source, tag, buffer).wait()

    def iprobe(self, tag: int) -> int | None:
        for source in range(self.size):
            if not self.world.box(source, self.rank, tag).empty():
                return source
        return None

    def waitall(self, requests: Sequence[Request]) -> None:
        for request in requests:
            if isinstance(request.handle, _Pending):
                request.handle.wait()

    def bcast_object(self, obj: T, root: int = 0) -> T:
        return self._share(obj)[root]

    def allgather_object(self, obj: T) -> list[T]:
        return self._share(obj)

    def abort(self, code: int = 1) -> NoReturn:
        self.world.barrier.abort()
        raise Aborted(f"rank {self.rank} aborted the job with status {code}")

    def all_failed(self, wait: float) -> bool:
        return False  # the tests' failures are one rank's: the job is aborted


def outcomes_or_raise(outcomes: list[T | BaseException]) -> list[T]:
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            raise outcome
    return outcomes  # type: ignore[return-value]


@settings(max_examples=40)
@given(
    setup=setups(min_n=5, max_n=30, max_turns=8),
    ranks=st.integers(2, 4),
    order=st.sampled_from(ORDERS),
)
def test_game_on_ranks_of_threads_equals_game_every_turn(
    setup: Setup, ranks: int, order: str
) -> None:
    def play(comm: Communicator) -> list[str]:
        spread = setup.spread(comm, order=order, threads=1 + comm.rank % 2)
        return play_alongside(spread, setup.game())

    assert outcomes_or_raise(ThreadWorld(ranks).run(play)) == [[]] * ranks


@pytest.mark.parametrize(
    ("board", "ranks", "order"),
    [
        (Board.grid(24, 24), 4, "natural"),
        # Shuffled ids cut in natural order: most borders are cut, and the paths to the front
        # cross between ranks again and again (many distance rounds).
        (shuffled(Board.random_geometric(300, seed=4), seed=2), 3, "natural"),
        (shuffled(Board.random_geometric(300, seed=4), seed=2), 3, "rcm"),
    ],
    ids=["grid", "shuffled", "shuffled-rcm"],
)
def test_long_game_on_ranks_of_threads_equals_game(board: Board, ranks: int, order: str) -> None:
    team = assign_regions(board, 2, seed=3)  # large regions: long paths to the front
    setup = Setup(board, team, np.full(board.n, 9), ("balanced", "opportunist"), 5, 0.2, None, 25)

    def play(comm: Communicator) -> tuple[list[str], float]:
        spread = setup.spread(comm, order=order, threads=1)
        differences = play_alongside(spread, setup.game())
        return differences, spread.traffic_summary()["distance_rounds_per_turn"]

    outcomes = outcomes_or_raise(ThreadWorld(ranks).run(play))
    assert [differences for differences, _ in outcomes] == [[]] * ranks
    assert outcomes[0][1] > 2  # the distances needed several rounds


@pytest.mark.parametrize(
    ("changes", "error", "message"),
    [
        ({"team": "swapped"}, InconsistentInput, "rank 2 was given another team or troops"),
        ({"troops": 6}, InconsistentInput, "rank 2 was given another team or troops"),
        ({"seed": 2}, InconsistentInput, "rank 2 was given another policies or parameters"),
        ({"max_turns": 9}, InconsistentInput, "rank 2 was given another policies or param"),
        ({"board": "ring"}, InconsistentInput, "rank 2 was given another board"),
        (
            {"team": "bad"},
            InvalidParameter,
            "rank 2: territory 35 has team 7, but 2 policies were given: teams run 0..1",
        ),
        ({"order": "metis"}, InvalidParameter, "rank 2: order must be one of"),
        # Threads may differ: each rank runs its own engine.
        pytest.param({"threads": 1}, None, ""),
        pytest.param(
            {"policies": [idle, "random"]},
            InconsistentInput,
            "rank 2 was given another policies or parameters",
        ),
        pytest.param({"seed": -1}, InvalidParameter, "rank 2: seed must be at least 0"),
    ],
    ids=[
        *("other team", "other troops", "other seed", "other max_turns", "other board"),
        *("bad team", "bad order", "other threads", "custom policy", "negative seed"),
    ],
)
def test_bad_input_on_one_threaded_rank_raises_on_every_rank(
    changes: dict[str, Any], error: type[StratagemError] | None, message: str
) -> None:
    board = Board.grid(6, 6)
    team = assign_regions(board, 2, seed=1)
    special = {"swapped": 1 - team, "bad": _replace(team, 35, 7), "ring": Board.ring(36)}

    def play(comm: Communicator) -> bool:
        args: dict[str, Any] = {"board": board, "team": team, "troops": 5, "seed": 1}
        args["policies"] = ["random", "balanced"]
        if comm.rank == 2:
            args.update(
                {key: special.get(v, v) if isinstance(v, str) else v for key, v in changes.items()}
            )
        game = DistributedGame(
            args.pop("board"),
            args.pop("team"),
            args.pop("troops"),
            args.pop("policies"),
            comm=comm,
            **args,
        )
        return game.step()

    outcomes = ThreadWorld(3).run(play)
    if error is None:
        assert outcomes == [True] * 3
        return
    for outcome in outcomes:
        assert isinstance(outcome, error), repr(outcome)
        assert message in str(outcome)
    # The ranks are still in step: the next collective pairs up.
    assert ThreadWorld(3).run(lambda comm: comm.allgather_object(comm.rank)) == [[0, 1, 2]] * 3


def test_ranks_that_disagree_on_the_order_raise_inconsistent_input() -> None:
    board = Board.grid(8, 8)
    team = assign_regions(board, 2, seed=1)

    def play(comm: Communicator) -> object:
        order = "rcm" if comm.rank == 1 else "natural"
        game = DistributedGame(board, team, 5, ["balanced"] * 2, order=order, comm=comm)
        return game.run(3)

    for outcome in ThreadWorld(2).run(play):
        assert isinstance(outcome, InconsistentInput), repr(outcome)
        assert "rank 1" in str(outcome)


# -- custom policies on every rank -------------------------------------------------------------


@pytest.mark.parametrize("ranks", [1, 2, 3, 4])
@pytest.mark.parametrize("order", ORDERS)
def test_a_custom_policy_plays_alike_on_any_number_of_ranks(ranks: int, order: str) -> None:
    board = shuffled(Board.random_geometric(200, seed=6), seed=1)
    team = assign_regions(board, 3, seed=2)
    policies = (push_to_weakest, "balanced", push_to_weakest)
    setup = Setup(board, team, np.full(board.n, 7), policies, 11, 0.2, None, 12)
    calls: list[int] = []

    def play(comm: Communicator) -> list[str]:
        spread = setup.spread(comm, order=order, threads=1)
        differences = play_alongside(spread, setup.game())
        calls.append(spread.turn)
        return differences

    assert outcomes_or_raise(ThreadWorld(ranks).run(play)) == [[]] * ranks
    assert len(calls) == ranks


def test_a_custom_policy_sees_its_part_and_places_only_there(
    capsys: pytest.CaptureFixture[str],
) -> None:
    board = Board.grid(6, 6)
    team = assign_regions(board, 2, seed=1)
    seen: dict[int, tuple[int, int]] = {}

    def greedy(view: PolicyView) -> NDArray[np.int64]:
        assert view.ids is not None
        assert view.owned is not None
        seen[int(view.ids[view.owned][0])] = (int(view.owned.sum()), view.team.shape[0])
        # The ghosts' rows: not this rank's to place.
        source = np.repeat(np.arange(view.team.shape[0]), np.diff(view.indptr))
        return np.where(view.owned[source], 0, 1).astype(np.int64)

    def play(comm: Communicator) -> bool:
        game = DistributedGame(board, team, 5, [greedy, "random"], seed=1, threads=1, comm=comm)
        return game.step()

    outcomes = ThreadWorld(2, timeout=5.0).run(play)
    # Each rank saw its 18 territories and their neighbours across the cut.
    assert sorted(seen.items()) == [(0, (18, 24)), (18, (18, 24))]
    # Placing for another rank's territory is an error in the middle of a turn: the job ends.
    assert all(isinstance(outcome, Aborted) for outcome in outcomes)
    assert "belongs to another rank" in capsys.readouterr().err


def test_a_part_with_a_custom_team_needs_its_placement() -> None:
    share = grid_share(("random", "random"))
    arguments = share.arguments | {"policies": ["custom", "random"]}
    part = _core.conquest.Part(**arguments)
    assert part.has_custom
    assert part.begin_turn()
    with pytest.raises(InvalidParameter, match="its placement must be given"):
        part.place()
    wrong = np.ones(share.arrays.indices.shape[0], dtype=np.int64)
    with pytest.raises(InvalidMove, match="not a territory of a custom team on this rank"):
        part.place(wrong)


# -- one rank fails in the middle of a turn, under mpiexec ---------------------------------


@pytest.mark.parametrize("ranks", [2, 4])
def test_an_error_inside_a_turn_on_one_rank_ends_the_whole_job(ranks: int) -> None:
    started = time.monotonic()
    result = mpirun(ranks, [str(SCRIPTS / "conquest_fail_mid_run.py"), "place"])
    elapsed = time.monotonic() - started
    assert result.returncode != 0
    assert f"error on MPI rank 1 of {ranks}; aborting all ranks" in result.stderr
    assert "RuntimeError: deliberate failure on rank 1 in turn 3" in result.stderr
    assert re.search(r"conquest_fail_mid_run\.py.*, in place", result.stderr)  # mid-turn
    # Every rank played turns 1 and 2; none finished turn 3 (rank 1's placements never came).
    # Ranks share stdout, and a line may follow another's before its newline. (Whether rank 1
    # prints "finished" is not checked: MPICH's MPI_Abort may return before the launcher
    # kills the rank, and the rank then goes on; see the last test of this module.)
    played = sorted(re.findall(r"rank (\d+) played turn (\d+)", result.stdout))
    assert played == sorted((str(rank), turn) for rank in range(ranks) for turn in "12")
    # MPIEXEC_TIMEOUT (60 s) would also end a hung job; an abort ends it in a few seconds.
    assert elapsed < 30


def test_ranks_that_disagree_on_the_order_are_told_under_mpiexec() -> None:
    result = mpirun(2, [str(SCRIPTS / "conquest_fail_mid_run.py"), "order"])
    assert result.returncode == 0, result.stderr
    assert len(re.findall(r"InconsistentInput: .*rank 1", result.stdout)) == 2


class AbortReturns(ThreadCommunicator):
    """A rank whose abort() returns, as MPICH's MPI_Abort (PyPI mpich, HYDRA_LAUNCHER=fork)
    does now and then: the launcher kills the ranks a moment later."""

    def abort(self, code: int = 1) -> NoReturn:
        return  # type: ignore[misc]


def test_a_failing_rank_does_not_go_on_when_abort_returns(
    capsys: pytest.CaptureFixture[str],
) -> None:
    comm = AbortReturns(ThreadWorld(2), rank=1)
    with pytest.raises(RuntimeError, match="deliberate"), abort_on_error(comm):
        raise RuntimeError("deliberate failure in the middle of a turn")
    assert "error on MPI rank 1 of 2" in capsys.readouterr().err
