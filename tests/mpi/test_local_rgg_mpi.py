"""Rank-local random geometric boards over the ranks of the MPI world: every rank's share of
``rgg`` boards (stratagem.conquest.distributed.local_rgg) against the engine's cut of the whole
board. The same shares on ranks emulated by threads are in tests/test_conquest_local_rgg.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from stratagem import _core
from stratagem.conquest import Board
from stratagem.conquest.distributed import partition
from stratagem.conquest.distributed.local_rgg import rgg_share
from stratagem.mpi import Communicator

pytestmark = pytest.mark.any_world_size


@pytest.mark.parametrize(
    "spec", ["rgg:1", "rgg:3", "rgg:2000:seed=3", "rgg:500:radius=0.3", "rgg:5000:degree=5"]
)
def test_every_ranks_share_is_the_engines_cut_of_the_whole_board(
    spec: str, comm: Communicator
) -> None:
    local = rgg_share(spec, comm)
    board = Board.from_spec(spec)
    whole = _core.conquest.part_share(
        board.indptr, board.indices, partition(board, comm.size), comm.rank
    )
    assert (local.kind, local.n, local.n_borders) == (board.kind, board.n, board.n_borders)
    assert sorted(local.share) == sorted(whole)
    for name, array in whole.items():
        np.testing.assert_array_equal(local.share[name], array, err_msg=name)
