"""One conquest game over the ranks of the MPI world against Game played in the same process:
every turn on boards of every kind (and on hypothesis' boards), the traffic the message
pattern predicts, checkpoints across rank counts, and bad input on one rank only.

Every rank runs the same code and makes the same assertions (see conftest.py). Nothing here
needs a second rank: under ``mpiexec -n 1`` (marker ``any_world_size``) the game is one part
without messages, and the tests that need ranks to disagree skip.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from collective_errors import raised
from conquest_spread import (
    SPEC_CASES,
    Setup,
    first_difference,
    play_alongside,
    push_to_weakest,
    shuffled,
    spec_on_ranks,
)
from stratagem.conquest import POLICIES, TROOP_LIMIT, Board, Game, assign_random, assign_regions
from stratagem.conquest.distributed import (
    DistributedGame,
    PartitionSummary,
    cut_borders,
    partition,
)
from stratagem.conquest.game import Assign
from stratagem.errors import InconsistentInput, InvalidBoard, InvalidParameter, StratagemError
from stratagem.mpi import Communicator, world

pytestmark = pytest.mark.any_world_size

IntArray = NDArray[np.int64]
SIZE = world().size


# -- games and how to compare them ------------------------------------------------------------


def play_alongside_on_every_rank(spread: DistributedGame, single: Game) -> list[str]:
    """play_alongside on every rank. Collective; the differences that any rank saw (the same
    list on every rank)."""
    mine = play_alongside(spread, single)
    # Shared, so that every rank fails (or passes) the same assertion.
    everyone = spread.comm.allgather_object(mine)
    return [f"rank {rank}: {d}" for rank, theirs in enumerate(everyone) for d in theirs]


def islands() -> Board:
    """A 6x6 grid (ids 0..35), isolated territories 36..39, a ring on 40..47 and isolated
    territories 48..51."""
    ring = np.array([(40 + i, 40 + (i + 1) % 8) for i in range(8)])
    return Board.from_edges(np.concatenate([Board.grid(6, 6).edges(), ring]), 52)


# -- every turn, on boards of every kind ------------------------------------------------------

RGG = Board.random_geometric(2000, seed=3)
SHUFFLED = shuffled(Board.random_geometric(400, seed=2), seed=1)
ISLANDS = islands()
#: The built-in policies a game spread over ranks plays (the search player refuses to: its
#: futures need the whole board; tests/test_conquest_cli.py checks the refusal).
SPREAD_POLICIES = tuple(name for name in POLICIES if name != "search")

# name: (board, order, teams, policies). Boards with geography (grids, rgg, edge lists)
# start from regions, the others from random teams.
CASES: dict[str, tuple[Board, str, int, tuple[str, ...]]] = {
    "grid": (Board.grid(20, 20), "natural", 4, ("aggressive", "balanced", "opportunist", "random")),
    "rgg-rcm": (RGG, "rcm", 3, ("opportunist", "balanced", "aggressive")),
    "er": (Board.erdos_renyi(300, mean_degree=4.0, seed=5), "natural", 3, ("random",) * 3),
    "star": (Board.star(50), "natural", 2, ("balanced", "random")),
    "complete": (Board.complete(30), "rcm", 3, ("random", "balanced", "random")),
    "shuffled": (SHUFFLED, "natural", 2, ("opportunist", "aggressive")),
    "shuffled-rcm": (SHUFFLED, "rcm", 2, ("opportunist", "aggressive")),
    "islands": (ISLANDS, "natural", 3, ("aggressive", "random", "opportunist")),
    "islands-rcm": (ISLANDS, "rcm", 3, ("balanced", "opportunist", "random")),
}


@pytest.mark.parametrize("order", ["natural", "rcm"])
def test_a_custom_policy_on_every_rank_equals_game(comm: Communicator, order: str) -> None:
    board = shuffled(Board.random_geometric(400, seed=3), seed=5)
    team = assign_regions(board, 3, seed=4)
    policies = (push_to_weakest, "opportunist", push_to_weakest)
    setup = Setup(board, team, np.full(board.n, 6), policies, 9, max_turns=15)
    spread = setup.spread(comm, order=order, threads=1)
    assert play_alongside_on_every_rank(spread, setup.game()) == []


@pytest.mark.parametrize("seed", [11, 2**64 - 3])
@pytest.mark.parametrize("name", list(CASES))
def test_every_turn_equals_game(comm: Communicator, name: str, seed: int) -> None:
    board, order, k, policies = CASES[name]
    grows = board.kind.startswith(("rgg", "grid", "edges"))
    team = assign_regions(board, k, seed=seed % 97) if grows else assign_random(board, k, seed=7)
    troops = (np.arange(board.n) * 7 + seed % 13) % 13  # uneven, some empty
    setup = Setup(board, team, troops, policies, seed, max_turns=30)
    # Threads differ between the ranks and from the single game: they must not matter.
    spread = setup.spread(comm, order=order, threads=1 + comm.rank % 2)
    owned = comm.allgather_object(spread.owned_ids.tolist())
    shape = comm.allgather_object((spread.n_cut_borders, spread.n_ghosts, spread.neighbours))
    single = setup.game()

    assert play_alongside_on_every_rank(spread, single) == []
    assert spread.traffic.turns == single.turn >= 1
    # The blocks of the order's partition, every territory once.
    owner = partition(board, comm.size, order)  # type: ignore[arg-type]
    assert owned == [np.flatnonzero(owner == rank).tolist() for rank in range(comm.size)]
    summary = PartitionSummary.of(board, comm.size, order)  # type: ignore[arg-type]
    assert [ghosts for _, ghosts, _ in shape] == summary.ghosts.tolist()
    assert [len(ranks) for _, _, ranks in shape] == summary.neighbours.tolist()
    assert sum(cut for cut, _, _ in shape) == 2 * summary.cut_borders


def describe(setup: Setup, order: str) -> dict[str, object]:
    """An example's identity, to compare between ranks."""
    return {
        "edges": setup.board.edges().tolist(),
        "team": setup.team.tolist(),
        "troops": np.asarray(setup.troops).tolist(),
        "parameters": (setup.policies, setup.seed, setup.rate, setup.cap, setup.max_turns),
        "order": order,
    }


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    """Small games on boards from every generator (random ones with random seeds)."""
    kind = draw(st.sampled_from(["grid", "ring", "star", "complete", "er", "rgg", "shuffled"]))
    n = draw(st.integers(max(SIZE, 5), 40))
    board_seed = draw(st.integers(0, 2**16))
    board = {
        "grid": lambda: Board.grid(-(-n // 5), 5),
        "ring": lambda: Board.ring(n),
        "star": lambda: Board.star(n),
        "complete": lambda: Board.complete(min(n, max(SIZE, 12))),
        "er": lambda: Board.erdos_renyi(n, 0.1, seed=board_seed),
        "rgg": lambda: Board.random_geometric(n, mean_degree=4.0, seed=board_seed),
        "shuffled": lambda: shuffled(Board.grid(-(-n // 5), 5), board_seed),
    }[kind]()
    k = draw(st.integers(2, 5))
    amounts = st.one_of(st.integers(0, 30), st.just(TROOP_LIMIT))
    return Setup(
        board=board,
        team=np.array(draw(st.lists(st.integers(0, k - 1), min_size=board.n, max_size=board.n))),
        troops=draw(st.lists(amounts, min_size=board.n, max_size=board.n)),  # type: ignore[arg-type]
        policies=tuple(draw(st.lists(st.sampled_from(SPREAD_POLICIES), min_size=k, max_size=k))),
        seed=draw(st.integers(0, 2**64 - 1)),
        rate=draw(st.sampled_from([0.0, 0.2, 0.7])),
        cap=draw(st.one_of(st.none(), st.integers(1, 60))),
        max_turns=draw(st.integers(1, 12)),
    )


@settings(
    max_examples=20,
    derandomize=True,  # every rank draws the same examples...
    database=None,  # ...and none replays a failure that only it has stored
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(setup=setups(), order=st.sampled_from(["natural", "rcm"]))
def test_hypothesis_games_equal_game_every_turn(
    comm: Communicator, setup: Setup, order: str
) -> None:
    drawn = comm.allgather_object(describe(setup, order))
    assert all(example == drawn[0] for example in drawn), "the ranks drew different examples"
    spread = setup.spread(comm, order=order, threads=1)
    assert play_alongside_on_every_rank(spread, setup.game()) == []


# -- traffic ------------------------------------------------------------------------------------


def halo_send_count(board: Board, owner: IntArray, rank: int) -> int:
    """Owned territories each neighbour rank sees as ghosts, summed over the neighbours."""
    source = np.repeat(np.arange(board.n), board.degree())
    target_owner = owner[board.indices]
    facing = (owner[source] == rank) & (target_owner != rank)
    return int(np.unique(target_owner[facing] * board.n + source[facing]).shape[0])


@pytest.mark.parametrize(
    "policies", [("random", "random"), ("opportunist", "balanced")], ids=["random", "moving"]
)
def test_traffic_is_what_the_message_pattern_says(
    comm: Communicator, policies: tuple[str, str]
) -> None:
    moving = policies != ("random", "random")  # distances (and pressure) travel
    played: dict[int, tuple[dict[str, Any], dict[str, int], int, int, int]] = {}
    for side in (40, 80):  # the collectives first, the assertions after
        board = Board.grid(side, side)
        setup = Setup(board, assign_regions(board, 2, seed=1), 10, policies, seed=4)
        spread = setup.spread(comm, order="natural", threads=1)
        spread.run(4)
        traffic = spread.traffic
        played[side] = (
            spread.traffic_summary(),
            dict(traffic.bytes),
            traffic.turns,
            traffic.distance_rounds,
            spread.n_cut_borders,
        )

    point_to_point: dict[int, float] = {}
    for side, (summary, mine, turns, rounds, cut_here) in played.items():
        board = Board.grid(side, side)
        owner = partition(board, comm.size, "natural")
        halo_here = halo_send_count(board, owner, comm.rank)
        cut = cut_borders(board, owner)
        ghosts = int(PartitionSummary.of(board, comm.size).ghosts.sum())
        assert (summary["ranks"], summary["turns"], turns) == (comm.size, 4, 4)
        assert summary["cut_borders"] == cut
        assert summary["ghosts"] == ghosts
        # This rank: every message is a whole number of rows of the plan.
        assert mine["state"] == 8 * halo_here * turns  # one packed word per halo territory
        # One halo a round, and one more that carries nothing new while the ranks learn
        # that no distance fell.
        assert mine["distance"] == (4 * halo_here * (rounds + turns) if moving else 0)
        assert mine["pressure"] == (8 * cut_here * turns if "opportunist" in policies else 0)
        # Placements go out on the borders the other side resolves, 2-word report cards on
        # those this rank resolves: 8 bytes per cut border and turn, whoever resolves it.
        assert mine["placement"] + mine["report"] // 2 == 8 * cut_here * turns
        assert mine["report"] % 16 == 0
        assert mine["collective"] == 8 * rounds + 16 * 2 * turns
        # All ranks per turn: (4R + 12) H + 40 C with an opportunist, 24 C without (R rounds).
        by_phase = summary["bytes_per_turn_by_phase"]
        per_round = summary["distance_rounds_per_turn"]
        assert by_phase["placement"] == 8 * cut
        assert by_phase["report"] == 16 * cut
        assert by_phase["state"] == 8 * ghosts
        assert by_phase["pressure"] == (16 * cut if "opportunist" in policies else 0)
        assert by_phase["distance"] == pytest.approx(4 * ghosts * (per_round + 1) if moving else 0)
        assert by_phase["collective"] == pytest.approx(comm.size * (8 * per_round + 32))
        assert summary["bytes_per_turn"] == pytest.approx(sum(by_phase.values()))
        # Per rank: what it sent (its own count, and all ranks' together), and its seconds.
        sent = summary["bytes_sent_per_turn_by_rank"]
        assert sent[comm.rank] == pytest.approx(sum(mine.values()) / turns)
        assert sum(sent) == pytest.approx(summary["bytes_per_turn"])
        compute = summary["compute_seconds_per_turn_by_rank"]
        wait = summary["wait_seconds_per_turn_by_rank"]
        assert len(compute) == len(wait) == comm.size
        assert all(c > 0 for c in compute)
        assert all(w >= 0 for w in wait)
        point_to_point[side] = sum(
            by_phase[p] for p in ("pressure", "placement", "report", "state")
        )
    if comm.size == 1:
        assert point_to_point == {40: 0, 80: 0}
    else:
        # The cut doubles from 40x40 to 80x80 while n grows 4x and n^2 16x.
        assert 1.8 <= point_to_point[80] / point_to_point[40] <= 2.2


# -- boards each rank builds from the spec: only its own part ----------------------------------


@pytest.mark.parametrize(("spec", "teams", "assign"), SPEC_CASES)
def test_a_game_from_a_spec_equals_game_every_turn(
    comm: Communicator, spec: str, teams: int, assign: Assign, shared_dir: Path
) -> None:
    if spec.startswith("file:"):
        path = str(shared_dir / "board.npz")
        if comm.rank == 0:
            Board.from_spec(spec.removeprefix("file:")).save(path)
        comm.barrier()
        spec = path
    differences, built_whole, shape = spec_on_ranks(spec, teams, assign, comm)
    everyone = comm.allgather_object((differences, built_whole))
    board = Board.from_spec(spec)

    assert [f"rank {r}: {d}" for r, (seen, _) in enumerate(everyone) for d in seen] == []
    assert [whole for _, whole in everyone] == [spec.startswith("ring")] * comm.size
    assert tuple(shape) == (board.kind, board.n, board.n_borders)


def test_a_bad_spec_on_one_rank_raises_on_every_rank(comm: Communicator) -> None:
    spec = "grid:2x2:torus" if comm.rank == ODD else "grid:6x6"
    caught = raised(
        lambda: DistributedGame.from_spec(spec, 2, 5, ["random", "balanced"], threads=1, comm=comm)
    )
    ranks = comm.allgather_object(comm.rank)
    spread = DistributedGame.from_spec(
        "grid:6x6", 2, 5, ["random", "balanced"], threads=1, comm=comm
    )
    spread.run(3)

    assert isinstance(caught, InvalidParameter), repr(caught)
    assert "a torus needs at least 3 rows" in str(caught)
    assert ranks == list(range(comm.size))
    assert spread.turn == 3


# -- checkpoints --------------------------------------------------------------------------------


def grid_setup() -> Setup:
    board = Board.grid(20, 20)
    policies = ("opportunist", "balanced", "random")
    return Setup(board, assign_regions(board, 3, seed=4), 10, policies, seed=21, max_turns=25)


def test_a_checkpoint_resumes_in_one_process_and_on_any_ranks(
    comm: Communicator, shared_dir: Path
) -> None:
    setup = grid_setup()
    path = shared_dir / "spread.npz"
    spread = setup.spread(comm, order="natural", threads=1)
    spread.run(8, checkpoint=path, checkpoint_every=4)
    # (a) every rank resumes it alone, (b) all resume it together in the other order.
    single = Game.load(path, threads=1)
    resumed = DistributedGame.load(path, order="rcm", threads=1, comm=comm)
    turns = (single.turn, resumed.turn, resumed.order)
    straight = setup.game()
    straight.run(8)

    at_save = first_difference(spread, single)  # both at turn 8
    assert play_alongside_on_every_rank(resumed, straight) == []
    assert turns == (8, 8, "rcm")
    assert at_save is None
    single.run()
    assert single.team.tolist() == straight.team.tolist()
    assert single.troops.tolist() == straight.troops.tolist()
    assert (single.turn, single.status, single.winner) == (
        straight.turn,
        straight.status,
        straight.winner,
    )
    assert single.history.troops.tolist() == straight.history.troops.tolist()


def test_a_single_process_save_resumes_on_these_ranks(comm: Communicator, shared_dir: Path) -> None:
    setup = grid_setup()
    path = shared_dir / "single.npz"
    if comm.rank == 0:
        alone = setup.game()
        alone.run(6)
        alone.save(path)
    comm.barrier()
    resumed = DistributedGame.load(path, order="rcm", threads=1, comm=comm)
    turn = resumed.turn
    straight = setup.game()
    straight.run(6)
    assert play_alongside_on_every_rank(resumed, straight) == []
    assert turn == 6


# -- bad input on one rank --------------------------------------------------------------------

ODD = 1 if SIZE > 1 else 0  # the rank given other arguments
GOOD: dict[str, Any] = {"board": Board.grid(6, 6), "team": [0] * 18 + [1] * 18, "seed": 1}


def idle(view: object) -> IntArray:
    return np.zeros(0, dtype=np.int64)


# (what rank ODD is given instead, the error, what it says, whether it needs another rank)
BAD: dict[str, tuple[dict[str, Any], type[StratagemError], str, bool]] = {
    "other team": ({"team": [1] * 18 + [0] * 18}, InconsistentInput, "another team", True),
    "other seed": ({"seed": 2}, InconsistentInput, "another policies or parameters", True),
    "other board": ({"board": Board.grid(4, 9)}, InconsistentInput, "another board", True),
    "bad team": ({"team": [0] * 35 + [2]}, InvalidParameter, "territory 35 has team 2", False),
    # A custom policy is fine on every rank, but it must be the same teams' on every rank.
    "custom policy": ({"policies": [idle, "random"]}, InconsistentInput, "another policies", True),
    "negative seed": ({"seed": -1}, InvalidParameter, "seed must be at least 0", False),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_on_one_rank_raises_on_every_rank(comm: Communicator, case: str) -> None:
    changes, error, message, needs_peer = BAD[case]
    if needs_peer and comm.size == 1:
        pytest.skip("one rank cannot disagree with itself")
    args = {**GOOD, "policies": ["random", "balanced"]}
    if comm.rank == ODD:
        args.update(changes)
    # Explicit threads on every rank: with threads=None the check makes a collective that a
    # rank failing earlier skips (a library bug; tests/test_conquest_distributed.py has it).
    caught = raised(
        lambda: DistributedGame(
            args.pop("board"),
            args.pop("team"),
            5,
            args.pop("policies"),
            threads=1,
            comm=comm,
            **args,
        )
    )
    # The ranks are still in step: the next collectives pair up and a game plays on.
    ranks = comm.allgather_object(comm.rank)
    setup = Setup(GOOD["board"], np.array(GOOD["team"]), 5, ("random", "balanced"), seed=1)
    differences = play_alongside_on_every_rank(setup.spread(comm, threads=1), setup.game())

    assert isinstance(caught, error), repr(caught)
    assert message in str(caught)
    if comm.size > 1:
        assert f"rank {ODD}" in str(caught)
    assert ranks == list(range(comm.size))
    assert differences == []


def test_a_missing_checkpoint_on_one_rank_raises_on_every_rank(
    comm: Communicator, shared_dir: Path
) -> None:
    path = shared_dir / "game.npz"
    if comm.rank == 0:
        grid_setup().game().save(path)
    comm.barrier()
    mine = shared_dir / "missing.npz" if comm.rank == ODD else path
    caught = raised(lambda: DistributedGame.load(mine, threads=1, comm=comm))
    ranks = comm.allgather_object(comm.rank)

    assert isinstance(caught, InvalidBoard), repr(caught)
    assert "missing.npz: cannot read a saved conquest game" in str(caught)
    if comm.size > 1:
        assert str(caught).startswith(f"rank {ODD}: ")
    assert ranks == list(range(comm.size))
