"""The MPI layer in one process (the serial communicator runs the same code paths), input
validation, launcher detection, and mpiexec runs of the scripts in ``tests/mpi/scripts``.

The collective tests proper live in ``tests/mpi`` and run under mpiexec (see its conftest).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mpi_launch import SCRIPTS, json_lines, mpirun, run
from stratagem import _core, mpi
from stratagem._launcher import BLAS_THREADS_VARIABLE, one_blas_thread_under_a_launcher
from stratagem.errors import InvalidParameter, StratagemError

# --------------------------------------------------------------------------------------------
# Block partitions


@given(n=st.integers(0, 10_000), size=st.integers(1, 300))
def test_block_partition_is_balanced_and_matches_block_range(n, size):
    offsets = mpi.block_partition(n, size)
    counts = np.diff(offsets)
    assert offsets.dtype == np.int64
    assert len(offsets) == size + 1
    assert offsets[0] == 0
    assert offsets[-1] == n
    # the first n % size blocks get one extra item
    assert counts.tolist() == [n // size + 1] * (n % size) + [n // size] * (size - n % size)
    for rank in {0, size // 2, size - 1}:
        assert mpi.block_range(n, rank, size) == (offsets[rank], offsets[rank + 1])


@given(
    counts=st.lists(st.integers(0, 6), min_size=1, max_size=12),
    data=st.data(),
)
def test_owner_of_finds_the_block_of_every_index(counts, data):
    # arbitrary partitions, empty blocks included
    offsets = np.r_[0, np.cumsum(counts)]
    n = int(offsets[-1])
    indices = np.array(data.draw(st.lists(st.integers(0, max(n - 1, 0)), max_size=30)))
    if n == 0:
        indices = indices[:0]
    owners = mpi.owner_of(indices, offsets)
    assert owners.shape == indices.shape
    for index, owner in zip(indices, owners, strict=True):
        assert offsets[owner] <= index < offsets[owner + 1]


def test_owner_of_keeps_the_shape_of_its_input():
    offsets = mpi.block_partition(10, 3)
    assert mpi.owner_of([[0, 3], [4, 9]], offsets).tolist() == [[0, 0], [1, 2]]
    assert mpi.owner_of(np.array([], dtype=np.int64), offsets).shape == (0,)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: mpi.block_partition(-1, 2), "n must be at least 0, got -1"),
        (lambda: mpi.block_partition(4, 0), "size must be at least 1, got 0"),
        (lambda: mpi.block_partition(2.5, 1), "n must be an integer, got 2.5"),
        (lambda: mpi.block_partition(True, 1), "n must be an integer, got True"),
        (lambda: mpi.block_range(10, 3, 3), "rank must be at most 2, got 3"),
        (lambda: mpi.owner_of([0, 10], [0, 5, 10]), r"index 10 is outside .*\[0, 10\)"),
        (lambda: mpi.owner_of([-1], [0, 5, 10]), "index -1 is outside"),
        (lambda: mpi.owner_of([0.5], [0, 5, 10]), "indices must hold integers, got dtype float64"),
        (lambda: mpi.owner_of([1], [0, 6, 5]), r"offsets\[1\] = 6 > offsets\[2\] = 5"),
        (lambda: mpi.owner_of([1], [1, 5]), r"offsets\[0\] must be 0, got 1"),
        (lambda: mpi.owner_of([1], [0]), "at least 2 entries, got 1"),
        (lambda: mpi.csr_rows([0, 1, 2], [1, 0], 1, 3), "stop must be at most 2, got 3"),
        (lambda: mpi.csr_rows([0, 2, 1], [1, 0], 0, 1), "indptr must start at 0, not decrease"),
    ],
)
def test_partition_errors_name_the_bad_value(call, message):
    with pytest.raises(InvalidParameter, match=message) as caught:
        call()
    assert isinstance(caught.value, StratagemError)
    assert isinstance(caught.value, ValueError)


def test_csr_rows_takes_rows_with_global_columns():
    indptr, indices = [0, 2, 3, 5], [1, 2, 0, 0, 1]
    local_indptr, local_indices = mpi.csr_rows(indptr, indices, 1, 3)
    assert local_indptr.tolist() == [0, 1, 3]
    assert local_indices.tolist() == [0, 0, 1]


# --------------------------------------------------------------------------------------------
# Collectives on the serial world


def test_world_without_a_launcher_is_serial_and_cached():
    comm = mpi.world()
    assert isinstance(comm, mpi.SerialCommunicator)
    assert (comm.rank, comm.size, comm.is_distributed) == (0, 1, False)
    assert comm.mpi_available == (importlib.util.find_spec("mpi4py") is not None)
    assert mpi.world() is comm
    comm.barrier()


def test_mpi_info_describes_the_serial_world():
    info = mpi.mpi_info()
    assert json.loads(json.dumps(info)) == info
    assert info["world_size"] == 1
    assert info["rank"] == 0
    assert info["distributed"] is False
    assert info["launcher_detected"] is False
    assert info["library_version"] is None  # MPI was not initialised


@pytest.mark.parametrize("op", ["sum", "max", "min"])
@pytest.mark.parametrize("dtype", [np.int8, np.uint64, np.float32, np.float64])
def test_allreduce_of_one_rank_is_the_input(op, dtype):
    values = np.arange(12, dtype=dtype).reshape(3, 4)
    result = mpi.allreduce(values, op)
    assert result is not values
    assert result.dtype == values.dtype
    assert np.array_equal(result, values)
    assert mpi.allreduce(values, op, inplace=True) is values


def test_allreduce_accepts_lists_bools_and_complex():
    assert mpi.allreduce([1, 2, 3]).tolist() == [1, 2, 3]
    assert mpi.allreduce(np.array([True, False]), "max").tolist() == [True, False]
    assert mpi.allreduce(np.array([1 + 2j]), "sum").tolist() == [1 + 2j]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: mpi.allreduce([1], "prod"), "op must be 'sum', 'max' or 'min', got 'prod'"),
        (lambda: mpi.allreduce(np.array([True]), "sum"), "op='sum' of a bool array"),
        (lambda: mpi.allreduce(np.array([1j]), "max"), "op='max' is undefined for complex"),
        (lambda: mpi.allreduce(np.ones(2, np.float16)), "got dtype float16"),
        (lambda: mpi.allreduce(np.array(["a"])), "got dtype <U1"),
        (lambda: mpi.allreduce([1, 2], inplace=True), "inplace=True needs a numpy array, got list"),
        (lambda: mpi.allreduce(np.ones((4, 4))[:, 0], inplace=True), "C-contiguous"),
        (lambda: mpi.bcast_array(None), "the root rank 0 passed None"),
        (lambda: mpi.bcast_array(np.ones(1), root=1), "root must be at most 0, got 1"),
        (lambda: mpi.bcast_array(np.array([None])), r"fixed-size dtype .* got dtype object"),
        (lambda: mpi.allgather_blocks(np.float64(1.0)), "at least one dimension"),
        (lambda: mpi.gather_blocks([1], root=-1), "root must be at least 0, got -1"),
    ],
)
def test_collective_errors_name_the_bad_value(call, message):
    with pytest.raises(InvalidParameter, match=message):
        call()


def test_bcast_and_gathers_of_one_rank_copy_the_input():
    record = np.dtype([("a", np.int8), ("b", np.float64)])
    table = np.zeros((3, 2), dtype=record)
    table["a"] = [[1, 2], [3, 4], [5, 6]]
    for function in (mpi.bcast_array, mpi.allgather_blocks, mpi.gather_blocks):
        result = function(table)
        assert result is not None
        assert result is not table
        assert result.dtype == record
        assert result.tobytes() == table.tobytes()
    fortran = np.asfortranarray(np.arange(6.0).reshape(2, 3))
    assert np.array_equal(mpi.allgather_blocks(fortran), fortran)


def test_serial_communicator_has_no_peer_to_message():
    comm = mpi.SerialCommunicator()
    buffer = np.zeros(1)
    assert comm.iprobe(tag=1) is None
    with pytest.raises(InvalidParameter, match="rank 0 is not another rank"):
        comm.isend(buffer, 0, 1)
    with pytest.raises(InvalidParameter, match="rank 1 is not another rank"):
        comm.recv(buffer, 1, 1)


def test_abort_on_error_in_one_process_lets_the_error_through():
    with pytest.raises(KeyError, match="boom"), mpi.abort_on_error():
        raise KeyError("boom")
    with pytest.raises(SystemExit), mpi.abort_on_error():
        raise SystemExit(0)


# --------------------------------------------------------------------------------------------
# Work queue on the serial world


def test_queue_maps_in_task_order():
    calls = []

    def record(task):
        calls.append(task)
        return task * 10

    assert mpi.run_queue(range(7), record) == [0, 10, 20, 30, 40, 50, 60]
    assert calls == list(range(7))
    assert mpi.run_queue([], record) == []
    assert mpi.run_queue("abc", str.upper) == ["A", "B", "C"]


def test_queue_returns_arrays_and_objects_intact():
    record = np.dtype([("a", np.int16), ("b", np.float64)])
    results = mpi.run_queue(
        range(6),
        lambda t: [
            np.arange(t, dtype=np.int32).reshape(1, -1),
            np.array([(t, 0.5)], dtype=record),
            np.float64(t),
            {"t": t},
            None,
            np.ma.masked_array([t, t], mask=[True, False]),
        ][t],
    )
    assert results[0].shape == (1, 0)
    assert results[0].dtype == np.int32
    assert results[1].dtype == record
    assert results[1].tolist() == [(1, 0.5)]
    assert results[2] == 2.0
    assert isinstance(results[2], np.float64)
    assert results[3:5] == [{"t": 3}, None]
    assert isinstance(results[5], np.ma.MaskedArray)  # subclasses are pickled, not flattened
    assert results[5].mask.tolist() == [True, False]


def test_queue_validates_its_arguments():
    with pytest.raises(InvalidParameter, match="fn must be callable, got 3"):
        mpi.run_queue(range(2), 3)
    with pytest.raises(InvalidParameter, match=r"tasks must be a sequence .* got generator"):
        mpi.run_queue((t for t in range(2)), abs)


# --------------------------------------------------------------------------------------------
# Halo plan on the serial world


def test_halo_plan_of_one_rank_has_no_ghosts():
    # a 5-vertex path 0-1-2-3-4 with a self-reference on 4
    indptr = np.array([0, 1, 3, 5, 7, 9])
    indices = np.array([1, 0, 2, 1, 3, 2, 4, 3, 4])
    plan = mpi.HaloPlan.build(indptr, indices, [0, 5])
    assert plan.n_ghosts == 0
    assert plan.ghost_ids.tolist() == []
    assert plan.neighbors == ()
    assert np.array_equal(plan.column_slots, indices)
    values = np.arange(10.0).reshape(5, 2)
    ghosts = plan.exchange(values)
    assert ghosts.shape == (0, 2)
    assert ghosts.dtype == values.dtype
    assert (plan.bytes_sent_last, plan.bytes_sent_total) == (0, 0)
    assert np.array_equal(plan.with_ghosts(values)[plan.column_slots], values[indices])
    assert plan.slot_of([4, 0]).tolist() == [4, 0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (([0, 1], [0], [0, 1, 2]), "offsets must hold size \\+ 1 = 2 entries"),
        (([0, 1], [0], [0, 2]), "local_indptr must hold n_local \\+ 1 = 3 entries"),
        (([0, 1, 2], [0, 2], [0, 2]), r"local_indices\[1\] = 2 is not a vertex id in \[0, 2\)"),
        (([0, 2, 1], [0, 1], [0, 2]), "local_indptr must start at 0, not decrease"),
        (([0, 1, 2], [0.0, 1.0], [0, 2]), "local_indices must hold integers"),
    ],
)
def test_halo_plan_errors_name_the_bad_value(args, message):
    with pytest.raises(InvalidParameter, match=message):
        mpi.HaloPlan.build(*args)


def test_halo_exchange_and_slots_validate_their_input():
    plan = mpi.HaloPlan.build([0, 1, 2], [1, 0], [0, 2])
    with pytest.raises(InvalidParameter, match=r"one row per owned vertex \(2\), got shape \(3,\)"):
        plan.exchange(np.zeros(3))
    with pytest.raises(InvalidParameter, match="got dtype object"):
        plan.exchange(np.array([None, None]))
    with pytest.raises(InvalidParameter, match="global id 7 is neither owned by rank 0"):
        plan.slot_of([1, 7])


# --------------------------------------------------------------------------------------------
# Detecting the launcher


@pytest.mark.parametrize("name", mpi.LAUNCHER_VARIABLES)
def test_any_launcher_variable_requests_mpi(name):
    assert mpi.launcher_detected({name: "1"})
    assert mpi.mpi_requested({name: "1"})
    assert not mpi.mpi_requested({name: "1", "STRATAGEM_MPI": "0"})


def test_under_a_launcher_each_rank_keeps_one_blas_thread_unless_told():
    env = {"PMI_RANK": "0"}
    one_blas_thread_under_a_launcher(env)
    assert env[BLAS_THREADS_VARIABLE] == "1"
    told = {"PMI_RANK": "0", BLAS_THREADS_VARIABLE: "4"}
    one_blas_thread_under_a_launcher(told)
    assert told[BLAS_THREADS_VARIABLE] == "4"
    alone: dict[str, str] = {}
    one_blas_thread_under_a_launcher(alone)
    assert alone == {}


def test_the_package_sets_the_blas_threads_before_numpy_is_imported():
    # The setting only takes effect if numpy's BLAS has not started yet.
    code = (
        "import os, sys; import stratagem; "
        "print('numpy' in sys.modules, os.environ.get('OPENBLAS_NUM_THREADS'))"
    )
    env = {k: v for k, v in os.environ.items() if k != BLAS_THREADS_VARIABLE}
    env |= {"MPI_LOCALNRANKS": "1", "STRATAGEM_MPI": "0"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["False", "1"]


def test_stratagem_mpi_overrides_detection():
    assert not mpi.launcher_detected({})
    assert not mpi.mpi_requested({})
    assert mpi.mpi_requested({"STRATAGEM_MPI": "1"})
    assert not mpi.mpi_requested({"STRATAGEM_MPI": "0", "PMI_RANK": "0"})
    with pytest.raises(InvalidParameter, match="STRATAGEM_MPI must be 0 or 1, got 'yes'"):
        mpi.mpi_requested({"STRATAGEM_MPI": "yes"})


def test_without_mpi4py_a_launcher_warns_and_runs_serially(monkeypatch):
    monkeypatch.setattr(mpi.launch, "_mpi4py_available", lambda: False)
    with pytest.warns(RuntimeWarning, match="mpi4py is not installed"):
        comm = mpi.launch._create_world({"PMI_SIZE": "2"})
    assert isinstance(comm, mpi.SerialCommunicator)
    assert not comm.mpi_available
    with pytest.raises(InvalidParameter, match="STRATAGEM_MPI=1 but mpi4py is not installed"):
        mpi.launch._create_world({"STRATAGEM_MPI": "1"})


# --------------------------------------------------------------------------------------------
# Subprocess runs: a plain interpreter and mpiexec


def test_plain_run_does_not_initialise_mpi():
    result = run([sys.executable, str(SCRIPTS / "detect.py")])
    assert result.returncode == 0, result.stderr
    (line,) = json_lines(result.stdout)
    assert line["mpi_imported"] is False
    assert line["info"]["world_size"] == 1


def test_stratagem_mpi_1_initialises_a_one_rank_world():
    pytest.importorskip("mpi4py")
    result = run([sys.executable, str(SCRIPTS / "detect.py")], STRATAGEM_MPI="1")
    assert result.returncode == 0, result.stderr
    (line,) = json_lines(result.stdout)
    assert line["mpi_imported"] is True
    assert line["info"]["library_version"]
    assert (line["info"]["world_size"], line["info"]["distributed"]) == (1, False)


@pytest.mark.parametrize("ranks", [2, 4])
def test_mpiexec_gives_every_rank_the_world(ranks):
    result = mpirun(ranks, [str(SCRIPTS / "detect.py")])
    assert result.returncode == 0, result.stderr
    infos = [line["info"] for line in json_lines(result.stdout)]
    assert sorted(info["rank"] for info in infos) == list(range(ranks))
    assert all(info["world_size"] == ranks and info["distributed"] for info in infos)


_SHOW_YIELD = (
    "import json, os; from stratagem.mpi import world; w = world(); "
    "print(json.dumps([w.rank, os.environ.get('MPIR_CVAR_ENABLE_HEAVY_YIELD')]))"
)


@pytest.mark.parametrize(
    ("ranks_here", "cores", "expected"),
    [(None, 2, False), ("2", 2, False), ("3", 2, True), ("16", 8, True), ("two", 1, False)],
)
def test_oversubscribed_counts_the_launchers_ranks_on_this_host_against_the_cores(
    monkeypatch, ranks_here, cores, expected
):
    monkeypatch.setattr(mpi.launch.os, "sched_getaffinity", lambda pid: set(range(cores)))
    environ = {} if ranks_here is None else {"MPI_LOCALNRANKS": ranks_here}
    assert mpi.launch._oversubscribed(environ) is expected


def test_mpich_yields_while_polling_only_when_ranks_outnumber_cores(monkeypatch):
    monkeypatch.delenv("MPIR_CVAR_ENABLE_HEAVY_YIELD", raising=False)
    cores = len(os.sched_getaffinity(0))
    over = mpirun(cores + 1, ["-c", _SHOW_YIELD])
    assert over.returncode == 0, over.stderr
    assert sorted(json_lines(over.stdout)) == [[rank, "1"] for rank in range(cores + 1)]
    kept = mpirun(cores + 1, ["-c", _SHOW_YIELD], MPIR_CVAR_ENABLE_HEAVY_YIELD="0")
    assert sorted(json_lines(kept.stdout)) == [[rank, "0"] for rank in range(cores + 1)]
    if cores >= 2:
        within = mpirun(2, ["-c", _SHOW_YIELD])
        assert sorted(json_lines(within.stdout)) == [[0, None], [1, None]]


def test_stratagem_mpi_0_under_mpiexec_runs_each_rank_alone():
    result = mpirun(2, [str(SCRIPTS / "detect.py")], STRATAGEM_MPI="0")
    assert result.returncode == 0, result.stderr
    lines = json_lines(result.stdout)
    assert len(lines) == 2
    assert all(not line["mpi_imported"] and line["info"]["world_size"] == 1 for line in lines)


@pytest.mark.parametrize("ranks", [2, 4])
def test_collectives_match_the_serial_answers_under_mpiexec(ranks):
    result = mpirun(ranks, [str(SCRIPTS / "smoke.py")])
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("ok") == ranks


@pytest.mark.parametrize("ranks", [2, 4])
@pytest.mark.parametrize("mode", ["hook", "context", "queue"])
def test_an_error_on_one_rank_ends_the_whole_job(ranks, mode):
    started = time.monotonic()
    result = mpirun(ranks, [str(SCRIPTS / "fail_on_rank1.py"), mode])
    elapsed = time.monotonic() - started
    assert result.returncode != 0
    assert "error on MPI rank 1 of" in result.stderr
    assert "RuntimeError: deliberate failure on rank 1" in result.stderr
    # MPIEXEC_TIMEOUT (60 s) would also end a hung job; an abort ends it in about a second.
    assert elapsed < 30


def _threads_of_ranks(*args: str, **env: str) -> list[int]:
    result = mpirun(2, ["-m", "stratagem", "info", "--json", *args], **env)
    assert result.returncode == 0, result.stderr
    (report,) = json_lines(result.stdout)
    return [entry["threads"] for entry in sorted(report["ranks"], key=lambda e: e["rank"])]


def test_two_ranks_on_one_host_take_half_its_cores_each_unless_told():
    cores = _core.default_threads()
    assert _threads_of_ranks() == [max(1, cores // 2)] * 2
    assert _threads_of_ranks(STRATAGEM_NUM_THREADS="3") == [3, 3]
    assert _threads_of_ranks("--threads", "3") == [3, 3]


def test_share_cores_sets_the_default_of_calls_that_name_no_threads(monkeypatch):
    monkeypatch.delenv("STRATAGEM_NUM_THREADS", raising=False)
    cores = _core.default_threads()
    try:
        assert _core.share_cores(cores + 1) == 1
        assert _core.resolve_threads() == 1
        assert _core.resolve_threads(2) == 2
    finally:
        assert _core.share_cores(1) == cores
    assert _core.resolve_threads() == cores


def test_cli_info_json_under_mpiexec():
    pytest.importorskip("stratagem.cli")
    if importlib.util.find_spec("stratagem.__main__") is None:
        pytest.skip("python -m stratagem is not available yet")
    result = mpirun(2, ["-m", "stratagem", "info", "--json"])
    assert result.returncode == 0, result.stderr
    (report,) = json_lines(result.stdout)  # one JSON object, printed by rank 0 only

    def world_sizes(node: object) -> list[int]:
        if isinstance(node, dict):
            found = [node["world_size"]] if "world_size" in node else []
            return found + [size for value in node.values() for size in world_sizes(value)]
        return []

    assert 2 in world_sizes(report)
