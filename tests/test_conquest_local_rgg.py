"""Rank-local random geometric boards (stratagem.conquest.distributed.local_rgg) against the whole
board: each rank's share, built from its own points and the cell rows about its block, against the
engine's cut of ``Board.from_spec``, on the serial communicator and on ranks emulated by
threads; the spec's errors against ``Board.from_spec``'s.

The same shares under mpiexec are in tests/mpi/test_local_rgg_mpi.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stratagem import _core
from stratagem.conquest import Board
from stratagem.conquest.distributed import partition
from stratagem.conquest.distributed.local_rgg import LocalRgg, rgg_share
from stratagem.errors import InconsistentInput, InvalidParameter
from stratagem.mpi import Communicator, SerialCommunicator
from test_conquest_distributed import ThreadWorld, outcomes_or_raise


def shares_on(spec: str, ranks: int) -> list[LocalRgg]:
    if ranks == 1:
        return [rgg_share(spec, SerialCommunicator())]

    def build(comm: Communicator) -> LocalRgg:
        return rgg_share(spec, comm)

    return outcomes_or_raise(ThreadWorld(ranks).run(build))


def assert_whole_boards_cut(spec: str, ranks: int) -> None:
    board = Board.from_spec(spec)
    owner = partition(board, ranks)
    for rank, local in enumerate(shares_on(spec, ranks)):
        assert (local.kind, local.n, local.n_borders) == (board.kind, board.n, board.n_borders)
        whole = _core.conquest.part_share(board.indptr, board.indices, owner, rank)
        assert sorted(local.share) == sorted(whole)
        for name, array in whole.items():
            assert local.share[name].dtype == array.dtype, name
            np.testing.assert_array_equal(local.share[name], array, err_msg=f"{spec} {name}")


@pytest.mark.parametrize(
    "spec",
    [
        "rgg:1",
        "rgg:2",
        "rgg:3:seed=5",
        "rgg:10",
        "rgg:57:degree=3",
        "rgg:400:seed=2",
        "rgg:3000:degree=6:seed=9",
        # Cells of the square: 2 (a rank's margins hold every row), 1 (one row of cells).
        "rgg:57:radius=0.4",
        "rgg:400:radius=0.7:seed=1",
        # Ten thousand rows of cells, most of them empty.
        "rgg:57:radius=0.0001",
    ],
)
@pytest.mark.parametrize("ranks", [1, 2, 3, 4])
def test_every_ranks_share_is_the_engines_cut_of_the_whole_board(spec: str, ranks: int) -> None:
    assert_whole_boards_cut(spec, ranks)


@settings(max_examples=10, deadline=None)
@given(
    n=st.integers(1, 700),
    degree=st.floats(0.5, 20.0),
    seed=st.integers(0, 2**64 - 1),
    ranks=st.integers(2, 4),
)
def test_shares_of_drawn_boards_are_the_whole_boards_cut(
    n: int, degree: float, seed: int, ranks: int
) -> None:
    assert_whole_boards_cut(f"rgg:{n}:degree={degree!r}:seed={seed}", ranks)


@pytest.mark.parametrize(
    "spec",
    [
        "rgg:0",
        "rgg:many",
        "rgg:10:radius=0",
        "rgg:10:radius=wide",
        "rgg:10:degree=-1",
        "rgg:10:radius=0.1:degree=3",
        "rgg:10:seed=-1",
        "rgg:10:seed=1:seed=2",
        "rgg:10:sides=4",
        "rgg:10:20",
        "rgg:200000:radius=1",
        "RGG:5:torus",
    ],
)
def test_a_bad_spec_raises_the_error_of_board_from_spec(spec: str) -> None:
    with pytest.raises(InvalidParameter) as whole:
        Board.from_spec(spec)
    with pytest.raises(InvalidParameter) as local:
        rgg_share(spec, SerialCommunicator())
    assert str(local.value) == str(whole.value)


def test_a_spec_of_another_board_is_refused() -> None:
    with pytest.raises(InvalidParameter, match="not a random geometric board"):
        rgg_share("grid:3x4", SerialCommunicator())


def test_ranks_given_different_boards_all_refuse() -> None:
    def build(comm: Communicator) -> LocalRgg:
        return rgg_share("rgg:300:seed=1" if comm.rank else "rgg:300:seed=2", comm)

    for outcome in ThreadWorld(3).run(build):
        assert isinstance(outcome, InconsistentInput), repr(outcome)
        assert "must build the same board" in str(outcome)


def test_a_bad_spec_on_one_rank_raises_on_every_rank() -> None:
    def build(comm: Communicator) -> LocalRgg:
        return rgg_share("rgg:300:radius=-1" if comm.rank == 1 else "rgg:300", comm)

    for outcome in ThreadWorld(3).run(build):
        assert isinstance(outcome, InvalidParameter), repr(outcome)
