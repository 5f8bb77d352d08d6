"""Outpost tournaments over the ranks of the MPI world against the same tournament in one
process (``comm=SerialCommunicator()``, in the same process): built-in players only, a Python
player among them (each rank makes its own), every task size, checkpoints written and resumed
by the ranks, and bad input on one rank only.

Every rank runs the same code and makes the same assertions (see conftest.py). Under
``mpiexec -n 1`` (marker ``any_world_size``) the tournament takes the one-process path, and
the tests that need ranks to disagree skip.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from collective_errors import raised
from outpost_helpers import Looping, Still, Wanderer
from stratagem.errors import InconsistentInput, InvalidParameter, StratagemError
from stratagem.mpi import Communicator, SerialCommunicator, world
from stratagem.outpost import BUILTIN_PLAYERS
from stratagem.outpost.tournament import Params, TournamentResult, tournament

pytestmark = pytest.mark.any_world_size

SIZE = world().size
MAPS = ("lakes", "rivers")
SHORT = [Params(7, 12, 3, 30)]


def agreed(comm: Communicator, result: TournamentResult) -> list[str]:
    """Every rank's result as JSON (the same list on every rank, so all assert alike)."""
    return comm.allgather_object(result.to_json())


@pytest.mark.parametrize("batch", [None, 1, 5])
def test_builtin_tournament_equals_one_process(comm: Communicator, batch: int | None) -> None:
    args: dict[str, Any] = {"maps": MAPS, "params": [Params(6, 12, 3, 60)], "seed": 3}
    # Threads differ between the ranks: they must not matter.
    spread = tournament(**args, comm=comm, batch=batch, threads=1 + comm.rank % 2)
    single = tournament(**args, comm=SerialCommunicator(), threads=1)
    everyone = agreed(comm, spread)

    assert everyone == [single.to_json()] * comm.size
    assert spread == single
    assert len(spread) == 8


def test_python_player_tournament_equals_one_process(comm: Communicator) -> None:
    # Every rank makes its own players, as the same script under mpiexec does.
    here, alone = Wanderer(), Wanderer()
    args: dict[str, Any] = {"maps": MAPS, "params": SHORT, "seed": 9, "supply_fringe": True}
    spread = tournament(**args, players=["random", "spread", here, "frontier", "lookahead"])
    single = tournament(
        **args,
        players=["random", "spread", alone, "frontier", "lookahead"],
        comm=SerialCommunicator(),
    )
    everyone = agreed(comm, spread)
    shares = comm.allgather_object(here.games)  # each game is played on one rank only

    assert everyone == [single.to_json()] * comm.size
    assert len(spread) == 2 * 5 * 4
    assert spread.players == ("random", "spread", "Wanderer", "frontier", "lookahead")
    assert [row.games for row in spread.table()] == [32] * 5
    assert sum(shares) == alone.games == 32


def test_a_hanging_player_is_held_to_its_budget_on_every_rank(comm: Communicator) -> None:
    args: dict[str, Any] = {"maps": MAPS, "params": [Params(7, 12, 3, 12)], "seed": 6}
    started = time.perf_counter()
    spread = tournament(
        **args, players=[Looping(), "random", "spread", "frontier"], time_budget=0.01
    )
    seconds = time.perf_counter() - started
    single = tournament(
        **args, players=[Still(), "random", "spread", "frontier"], comm=SerialCommunicator()
    )
    everyone = agreed(comm, spread)

    # 8 games of 12 turns, the hanging player asked at most 13 times a game (budget + 0.1 s).
    assert seconds < 8 * 13 * 0.11 + 5
    assert spread.land.tolist() == single.land.tolist()
    assert spread.outposts.tolist() == single.outposts.tolist()
    assert len(set(everyone)) == 1


def test_default_world_and_threads(comm: Communicator) -> None:
    spread = tournament(MAPS, SHORT, rotations="all")  # comm=world(), threads shared per host
    single = tournament(MAPS, SHORT, rotations="all", comm=SerialCommunicator())
    everyone = agreed(comm, spread)

    assert everyone == [single.to_json()] * comm.size
    assert len(spread) == 2 * 24


def test_a_checkpoint_is_written_by_rank_0_and_resumed_by_all(
    comm: Communicator, shared_dir: Path
) -> None:
    path = shared_dir / "tournament.json"
    players = [Wanderer(), "random", "spread", "frontier", "lookahead"]
    args: dict[str, Any] = {"maps": MAPS, "params": SHORT, "players": players, "batch": 2}
    spread = tournament(**args, comm=comm, threads=1, checkpoint=path)
    single = tournament(**args, comm=SerialCommunicator())
    saved = json.loads(path.read_text()) if comm.rank == 0 else None
    # Keep the first 13 games only: the ranks play the 27 others.
    if comm.rank == 0:
        assert saved is not None
        saved["done"] = saved["done"][:13]
        path.write_text(json.dumps(saved))
    comm.barrier()
    resumed = tournament(**args, comm=comm, threads=1, checkpoint=path)
    everyone = agreed(comm, resumed)
    done = comm.bcast_object(len(json.loads(path.read_text())["done"]) if comm.rank == 0 else None)

    assert spread == single
    assert everyone == [single.to_json()] * comm.size
    assert done == 40


# -- bad input on one rank --------------------------------------------------------------------

ODD = 1 if SIZE > 1 else 0  # the rank given other arguments

# (what rank ODD is given instead, the error, what it says, whether it needs another rank)
BAD: dict[str, tuple[dict[str, Any], type[StratagemError], str, bool]] = {
    "unknown player": (
        {"players": ["random", "spread", "frontier", "nobody"]},
        InvalidParameter,
        "unknown built-in player 'nobody'",
        False,
    ),
    "three players": (
        {"players": ["random", "spread", "frontier"]},
        InvalidParameter,
        "at least 4 players",
        False,
    ),
    "bad map": ({"maps": ["lakes", "no-such-map"]}, InvalidParameter, "no map", False),
    "bad params": ({"params": [Params(T=-3)]}, InvalidParameter, "params[0].T", False),
    "other seed": ({"seed": 4}, InconsistentInput, "another tournament", True),
    "other players": (
        {"players": ["random", "spread", "lookahead", "frontier"]},
        InconsistentInput,
        "another tournament",
        True,
    ),
    "a python player": (
        {"players": ["random", "spread", "frontier", Wanderer()]},
        InconsistentInput,
        "another tournament",
        True,
    ),
    "other flags": ({"extra_turn": True}, InconsistentInput, "another tournament", True),
    "checkpoint": ({"checkpoint": "x.json"}, InconsistentInput, "checkpoint", True),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_on_one_rank_raises_on_every_rank(
    comm: Communicator, case: str, shared_dir: Path
) -> None:
    changes, error, message, needs_peer = BAD[case]
    if needs_peer and comm.size == 1:
        pytest.skip("one rank cannot disagree with itself")
    args: dict[str, Any] = {"maps": MAPS, "params": SHORT, "players": BUILTIN_PLAYERS, "seed": 1}
    if comm.rank == ODD:
        args.update(changes)
        if "checkpoint" in changes:
            args["checkpoint"] = shared_dir / changes["checkpoint"]
    caught = raised(lambda: tournament(**args, comm=comm, threads=1))
    # The ranks are still in step: the next collectives pair up and a tournament plays on.
    ranks = comm.allgather_object(comm.rank)
    good: dict[str, Any] = {"maps": MAPS, "params": SHORT, "seed": 1}
    after = agreed(comm, tournament(**good, comm=comm, threads=1))
    single = tournament(**good, comm=SerialCommunicator())

    assert isinstance(caught, error), repr(caught)
    assert message in str(caught)
    if comm.size > 1:
        assert f"rank {ODD}" in str(caught)
    assert ranks == list(range(comm.size))
    assert after == [single.to_json()] * comm.size


def test_a_foreign_checkpoint_on_rank_0_raises_on_every_rank(
    comm: Communicator, shared_dir: Path
) -> None:
    path = shared_dir / "other.json"
    if comm.rank == 0:
        tournament(["lakes"], SHORT, comm=SerialCommunicator(), seed=2, checkpoint=path)
    comm.barrier()
    caught = raised(lambda: tournament(["lakes"], SHORT, comm=comm, seed=3, checkpoint=path))
    ranks = comm.allgather_object(comm.rank)

    assert isinstance(caught, InvalidParameter), repr(caught)
    assert "checkpoint of another tournament" in str(caught)
    if comm.size > 1:
        assert str(caught).startswith("rank 0: ")
    assert ranks == list(range(comm.size))
