"""Every rank runs the same command: `same_command` (the first collective of every command
line) lets identical words through and refuses different ones on every rank, naming the
first difference from rank 0."""

from __future__ import annotations

import json
import time

import pytest

from stratagem.cli import main
from stratagem.errors import InvalidParameter
from stratagem.mpi import Communicator, same_command


def test_the_same_words_pass(comm: Communicator) -> None:
    same_command(["conquest", "play", "--turns", "10"], comm)


def test_different_words_are_refused_on_every_rank(comm: Communicator) -> None:
    last = comm.size - 1
    words = ["conquest", "play", "--turns", "20" if comm.rank == last else "10"]
    started = time.monotonic()
    with pytest.raises(InvalidParameter) as caught:
        same_command(words, comm)
    assert time.monotonic() - started < 5.0
    assert str(caught.value) == (
        f"the MPI ranks were given different commands: word 4 is '10' on rank 0 but '20' on "
        f"rank {last} (every rank must run the same command with the same arguments)"
    )


def test_a_missing_word_is_named(comm: Communicator) -> None:
    words = ["info", "--json"] if comm.rank == 0 else ["info"]
    with pytest.raises(InvalidParameter, match="word 2 is '--json' on rank 0 but nothing on"):
        same_command(words, comm)


def test_main_refuses_before_any_work(
    comm: Communicator, capsys: pytest.CaptureFixture[str]
) -> None:
    turns = "20" if comm.rank == comm.size - 1 else "10"
    status = main(["conquest", "play", "--board", "grid:300x300", "--turns", turns, "--json"])
    out = capsys.readouterr().out
    assert status == 2
    assert ("different commands" in out) == (comm.rank == 0)


# A command of each game (most would run for a while), and a bad thread count.
_BAD_THREADS = [
    (["outpost", "tournament", "--maps", "lakes", "--repeats", "8"], "abc"),
    (["mastermind", "play", "--spots", "10", "--colours", "10", "--secret", "7735427368"], "0"),
    (["conquest", "tournament", "--board", "grid:30x30", "--games", "200"], "-1"),
    (["annexation", "play", "--board", "hex:8"], "abc"),
    (["diplomacy", "play"], "0"),  # refused before it would ask for a position
]


@pytest.mark.parametrize(("words", "value"), _BAD_THREADS)
def test_a_bad_thread_count_on_one_rank_is_refused_on_every_rank_before_any_work(
    comm: Communicator,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    words: list[str],
    value: str,
) -> None:
    last = comm.size - 1
    if comm.rank == last:
        monkeypatch.setenv("STRATAGEM_NUM_THREADS", value)
    else:
        monkeypatch.delenv("STRATAGEM_NUM_THREADS", raising=False)
    started = time.monotonic()
    status = main([*words, "--json"])
    elapsed = time.monotonic() - started
    captured = capsys.readouterr()
    assert status == 2
    assert elapsed < 5.0
    assert "Traceback" not in captured.err
    if comm.rank != 0:
        assert captured.out == ""
        return
    assert json.loads(captured.out) == {
        "error": {
            "type": "InvalidParameter",
            "message": f"on MPI rank {last} of {comm.size}: STRATAGEM_NUM_THREADS must be a "
            f'whole number from 1 to 1024, got "{value}"',
        }
    }
