"""Collective tests, run on every rank at once:

    mpiexec -n 2 python -m pytest tests/mpi -q -p no:cacheprovider

with ``HYDRA_LAUNCHER=fork MPIEXEC_TIMEOUT=300`` in the environment (the PyPI MPICH), and the
same with an oversubscribed ``-n 4``. In a plain ``pytest`` run (one process) every
test here is skipped, so the full tree does not run them twice.

Ranks stay in lock-step: after each test the ranks share whether it failed, and a test that
failed on any rank fails on all of them, so no rank moves on to the next test's collectives
while another one is still stuck in this test's. For the same reason a test here makes its
assertions after its collectives, or makes the same assertions on every rank.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest

from stratagem.mpi import Communicator, launcher_detected, world

HERE = Path(__file__).resolve().parent
NOT_DISTRIBUTED = (
    "collective MPI tests: run them under mpiexec, e.g. "
    "`mpiexec -n 2 python -m pytest tests/mpi -p no:cacheprovider`"
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # This hook sees the items of the whole session; only those of this directory are ours.
    distributed = world().is_distributed
    # Tests marked any_world_size also run under `mpiexec -n 1` (one rank, no peers).
    one_rank = launcher_detected()
    for item in items:
        if HERE in item.path.resolve().parents:
            item.add_marker(pytest.mark.mpi)
            runs_alone = one_rank and item.get_closest_marker("any_world_size") is not None
            if not distributed and not runs_alone:
                item.add_marker(pytest.mark.skip(reason=NOT_DISTRIBUTED))


def _ranks_that_failed(comm: Communicator, failed: bool) -> list[int]:
    return [rank for rank, flag in enumerate(comm.allgather_object(failed)) if flag]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    comm = world()
    try:
        result = yield
    except (KeyboardInterrupt, pytest.exit.Exception):
        raise  # the whole session stops; there is no next test to keep in step
    except (pytest.skip.Exception, pytest.xfail.Exception):
        _ranks_that_failed(comm, failed=False)
        raise
    except BaseException:  # assertions, errors and pytest.fail (not an Exception subclass)
        _ranks_that_failed(comm, failed=True)
        raise
    failed = _ranks_that_failed(comm, failed=False)
    if failed:
        pytest.fail(f"this test failed on rank(s) {failed}; see their report", pytrace=False)
    return result


@pytest.fixture
def comm() -> Communicator:
    return world()


@pytest.fixture
def shared_dir(comm: Communicator, request: pytest.FixtureRequest) -> Iterator[Path]:
    """A directory every rank sees (made by rank 0, named after the test module)."""
    made = tempfile.mkdtemp(prefix=f"{request.module.__name__}-") if comm.rank == 0 else None
    path = Path(comm.bcast_object(made))
    yield path
    comm.barrier()  # nobody reads any more
    if comm.rank == 0:
        shutil.rmtree(path)
