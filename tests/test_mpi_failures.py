"""A failing command under ``mpiexec``: every command that runs on all ranks, given bad input
on one rank only (the last; the others are given a good command that would run for a while),
ends the whole job within seconds with that rank's message printed once (one JSON object
under ``--json``) and exit status 2; the same bad input on every rank is reported once, by
rank 0. Ranks 2 and 4 (oversubscribed on two cores)."""

from __future__ import annotations

import sys
import time

import pytest

from mpi_launch import json_lines, mpiexec, run

# The failing rank waits up to 2 s for the others to fail alike before it aborts the job;
# the rest is the start of the interpreters (slower when 4 ranks share 2 cores).
_SECONDS = {2: 5.0, 4: 8.0}

# command: (the rest of the line every good rank runs, what the last rank adds, what its error
# names), the lines as a shell splits them
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
def test_bad_input_on_one_rank_ends_the_job_within_seconds(command, ranks):
    rest, added, named = _COMMANDS[command]
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
    (line,) = json_lines(result.stdout)  # printed once, by the failing rank
    message = line["error"]["message"]
    assert message.startswith(f"on MPI rank {ranks - 1} of {ranks}: "), message
    assert named in message
    assert result.stderr.count("stratagem: error:") == 1
    assert "Traceback" not in result.stderr
    assert elapsed < _SECONDS[ranks], f"the job took {elapsed:.1f} s"


def test_a_different_secret_on_one_rank_is_refused_on_every_rank():
    good = ["mastermind", "play", "--spots", "8", "--colours", "8", "--secret", "01234567"]
    started = time.monotonic()
    result = run(
        [
            *[mpiexec(), "-n", "1", *_stratagem(good)],
            *[":", "-n", "1", *_stratagem([*good, "--secret", "01234566"])],
        ]
    )
    assert result.returncode == 2, result.stderr[-2000:]
    (line,) = json_lines(result.stdout)
    assert line["error"]["type"] == "InconsistentInput"
    assert "rank 1 was given another secret" in line["error"]["message"]
    assert time.monotonic() - started < _SECONDS[2]


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
