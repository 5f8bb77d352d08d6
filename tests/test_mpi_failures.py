"""A failing command under ``mpiexec``: every command that runs on all ranks, given a bad
``STRATAGEM_NUM_THREADS`` on one rank only (the last, through its environment; the others
run a good command that would run for a while), is refused by rank 0 within seconds naming
that rank (one JSON object under ``--json``), exit status 2; the same bad input on every rank
is reported once, by rank 0; ranks given different command lines are refused together, by
rank 0, naming the first difference. Ranks 2 and 4 (oversubscribed on two cores)."""

from __future__ import annotations

import sys
import time

import pytest

from mpi_launch import json_lines, mpiexec, run

# The failing rank waits up to 2 s for the others to fail alike before it aborts the job;
# the rest is the start of the interpreters (slower when 4 ranks share 2 cores).
_SECONDS = {2: 5.0, 4: 8.0}

# command: (the rest of the line every good rank runs, what the last rank adds to make its
# command differ, what the refusal names), the lines as a shell splits them
_COMMANDS = {
    "conquest play": (
        "--board grid:200x200 --turns 500",
        "--board grid:axb",
        "board spec 'grid:axb'",
    ),
    "conquest tournament": (
        "--board grid:30x30 --games 200",
        "--players random,bogus",
        "unknown policy 'bogus'",
    ),
    "annexation tournament": ("greedy random --games 400", "--games 0", "games"),
    "outpost tournament": ("--maps lakes --repeats 8", "--players bogus", "player 'bogus'"),
    "mastermind play": ("--spots 10 --colours 10 --secret 7735427368", "--secret 77354", "77354"),
    "demo": ("", "--threads 0", "threads must be an integer from 1"),
    "info": ("", "--threads 0", "threads must be an integer from 1"),
}


def _stratagem(arguments: list[str]) -> list[str]:
    return [sys.executable, "-m", "stratagem", *arguments, "--json"]


@pytest.mark.parametrize("ranks", [2, 4])
@pytest.mark.parametrize("command", sorted(_COMMANDS))
def test_a_bad_thread_count_on_one_rank_is_refused_by_rank_0_within_seconds(command, ranks):
    good = [*command.split(), *_COMMANDS[command][0].split()]
    started = time.monotonic()
    result = run(
        [
            *[mpiexec(), "-n", str(ranks - 1), *_stratagem(good)],
            *[":", "-n", "1", "-env", "STRATAGEM_NUM_THREADS", "many", *_stratagem(good)],
        ]
    )
    elapsed = time.monotonic() - started
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    (line,) = json_lines(result.stdout)  # printed once, by rank 0 for all (checked together)
    assert line["error"] == {
        "type": "InvalidParameter",
        "message": f"on MPI rank {ranks - 1} of {ranks}: STRATAGEM_NUM_THREADS must be a whole "
        'number from 1 to 1024, got "many"',
    }
    assert result.stderr.count("stratagem: error:") == 1
    assert "Traceback" not in result.stderr
    assert elapsed < _SECONDS[ranks], f"the job took {elapsed:.1f} s"


@pytest.mark.parametrize("ranks", [2, 4])
@pytest.mark.parametrize("command", sorted(_COMMANDS))
def test_ranks_given_different_commands_are_refused_together(command, ranks):
    rest, added, _ = _COMMANDS[command]
    good, change = [*command.split(), *rest.split()], added.split()
    started = time.monotonic()
    result = run(
        [
            *[mpiexec(), "-n", str(ranks - 1), *_stratagem(good)],
            *[":", "-n", "1", *_stratagem([*good, *change])],
        ]
    )
    elapsed = time.monotonic() - started
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    (line,) = json_lines(result.stdout)  # printed once, by rank 0 for all
    assert line["error"] == {
        "type": "InvalidParameter",
        "message": f"the MPI ranks were given different commands: word {len(good) + 1} is "
        f"'--json' on rank 0 but {change[0]!r} on rank {ranks - 1} (every rank must run the "
        "same command with the same arguments)",
    }
    assert result.stderr.count("stratagem: error:") == 1
    assert "Traceback" not in result.stderr
    assert elapsed < _SECONDS[ranks], f"the job took {elapsed:.1f} s"


def test_ranks_given_different_turns_are_refused_within_5_seconds():
    play = ["conquest", "play", "--board", "grid:100x100", "--turns"]
    started = time.monotonic()
    result = run(
        [
            *[mpiexec(), "-n", "1", *_stratagem([*play, "10"])],
            *[":", "-n", "1", *_stratagem([*play, "20"])],
        ]
    )
    assert result.returncode == 2, result.stderr[-2000:]
    (line,) = json_lines(result.stdout)
    assert line["error"]["message"].startswith(
        "the MPI ranks were given different commands: word 6 is '10' on rank 0 but '20' on rank 1"
    )
    assert time.monotonic() - started < 5.0


@pytest.mark.parametrize("ranks", [2, 4])
def test_the_same_bad_input_on_every_rank_prints_one_error_and_exits_2(ranks):
    started = time.monotonic()
    result = run(
        [mpiexec(), "-n", str(ranks), *_stratagem(["conquest", "play", "--board", "grid:axb"])]
    )
    assert result.returncode == 2, result.stderr
    (line,) = json_lines(result.stdout)
    assert line["error"]["type"] == "InvalidParameter"
    assert line["error"]["message"].startswith("board spec 'grid:axb'")
    assert result.stderr.count("stratagem: error:") == 1
    assert time.monotonic() - started < _SECONDS[ranks]
