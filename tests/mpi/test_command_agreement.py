"""Every rank runs the same command: `same_command` (the first collective of every command
line) lets identical words through and refuses different ones on every rank, naming the
first difference from rank 0."""

from __future__ import annotations

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
