"""``stratagem mastermind play --human``: a person breaks the machine's code. Scripted guesses
through a real pipe and through a pseudo-terminal, JSON lines checked against the oracle
(feedback, codes still consistent, whether the last guess could have been the secret), the
hint strategy's guess, saving and resuming (and a tampered save refused), and bad input
answered without ending the game."""

from __future__ import annotations

import io
import json
import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from stratagem.cli import main
from stratagem.errors import InvalidBoard, InvalidMove
from stratagem.mastermind import next_guess, oracle, sample_secrets
from stratagem.mastermind.code import format_code
from stratagem.mastermind.human import HumanGame


def human(capsys, monkeypatch, lines: list[str], *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    code = main(["mastermind", "play", "--human", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def events(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def test_scripted_play_through_a_pipe_matches_the_oracle() -> None:
    script = shutil.which("stratagem")
    assert script is not None
    lines = ["0011", "count", "could", "2345", "could", "hint", "history", "0123"]
    done = subprocess.run(
        [script, "mastermind", "play", "--human", "--secret", "0123", "--json"],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    answers = events(done.stdout)
    assert [a["event"] for a in answers] == [
        "start",
        "guess",
        "count",
        "could",
        "guess",
        "could",
        "hint",
        "history",
        "guess",
        "won",
        "end",
    ]
    secret = (0, 1, 2, 3)
    history = []
    for answer in answers:
        if answer["event"] == "guess":
            code = tuple(int(c) for c in answer["guess"])
            feedback = oracle.score(code, secret)
            assert (answer["black"], answer["white"]) == feedback
            history.append((code, feedback))
        elif answer["event"] == "count":
            assert answer["codes"] == oracle.count_consistent(4, 6, history)
        elif answer["event"] == "could":
            last, before = history[-1][0], history[:-1]
            assert answer["could_have_been"] == oracle.is_consistent(last, before)
    assert answers[5]["could_have_been"] is False  # 2345 contradicts 0011's feedback
    guesses = np.array([g for g, _ in history[:2]], np.uint8)
    feedback = np.array([f for _, f in history[:2]], np.uint8)
    assert answers[6]["guess"] == format_code(next_guess(4, 6, guesses, feedback, strategy="knuth"))
    end = answers[-1]
    assert (end["outcome"], end["turns_played"], end["secret"]) == ("won", 3, "0123")


def test_text_play_from_a_pipe_reads_like_a_transcript(capsys, monkeypatch) -> None:
    code, out, _ = human(capsys, monkeypatch, ["0011", "count", "0123"], "--secret", "0123")
    assert code == 0
    assert "guess 1? 0011\n  0011  1 black 1 white\n" in out
    assert "208 codes still fit" in out
    assert out.rstrip().endswith("found in 2 guesses")


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_play_in_a_terminal() -> None:
    """The same command on a pseudo-terminal: prompts, the terminal's own echo, an answer to
    every line typed."""
    primary, secondary = os.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "stratagem", "mastermind", "play", "--human", "--seed", "4"],
        stdin=secondary,
        stdout=secondary,
        stderr=secondary,
        close_fds=True,
    )
    os.close(secondary)
    secret = format_code(sample_secrets(4, 6, 1, 4)[0])
    seen = b""

    def read_until(marker: bytes) -> None:
        nonlocal seen
        deadline = time.monotonic() + 60
        while marker not in seen:
            assert time.monotonic() < deadline, seen.decode(errors="replace")
            ready, _, _ = select.select([primary], [], [], 1)
            if ready:
                try:
                    seen += os.read(primary, 4096)
                except OSError:  # the terminal closed
                    break

    try:
        read_until(b"guess 1? ")
        os.write(primary, b"0011\n")
        read_until(b"guess 2? ")
        os.write(primary, b"count\n")
        read_until(b"still fit")
        os.write(primary, secret.encode() + b"\n")
        read_until(b"found in 2 guesses")
        assert process.wait(timeout=60) == 0
    finally:
        process.kill()
        os.close(primary)
    text = seen.decode().replace("\r\n", "\n")
    assert "guess 1? 0011\n  0011  " in text  # echoed once, by the terminal
    assert f"  {secret}  4 black 0 white" in text


def test_a_drawn_secret_is_the_seeds_and_is_shown_on_quit(capsys, monkeypatch) -> None:
    code, out, _ = human(capsys, monkeypatch, ["quit"], "--seed", "9", "--spots", "5", "--json")
    assert code == 0
    end = events(out)[-1]
    assert end["secret"] == format_code(sample_secrets(5, 6, 1, 9)[0])
    assert (end["outcome"], end["ended"], end["turns_played"]) == ("unfinished", "quit", 0)


def test_save_and_resume(capsys, monkeypatch, tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    code, out, _ = human(
        capsys, monkeypatch, ["0011", "1234"], "--secret", "5432", "--save", str(saved), "--json"
    )
    assert code == 0
    end = events(out)[-1]
    assert (end["ended"], end["secret"]) == ("unfinished", None)  # kept hidden: it may go on
    monkeypatch.setattr("sys.stdin", io.StringIO("history\n5432\n"))
    assert main(["mastermind", "play", "--load", str(saved), "--json"]) == 0
    resumed = events(capsys.readouterr().out)
    assert resumed[0]["turn"] == 2
    assert resumed[1]["guesses"] == ["0011", "1234"]
    assert resumed[3]["guess"] == "5432"
    assert resumed[3]["won"]
    assert resumed[-1]["turns_played"] == 3


def test_a_tampered_save_is_refused(tmp_path: Path) -> None:
    game = HumanGame.new(4, 6, secret="5432")
    game.guess("0011")
    path = tmp_path / "game.json"
    game.save(path)
    data = json.loads(path.read_text())
    data["feedback"] = [[1, 0]]
    path.write_text(json.dumps(data))
    with pytest.raises(InvalidBoard, match="saved turn 1: 0011 scores 0 black 0 white"):
        HumanGame.load(path)
    path.write_text("{")
    with pytest.raises(InvalidBoard, match="not a saved game"):
        HumanGame.load(path)


def test_bad_lines_are_answered_and_the_game_goes_on(capsys, monkeypatch) -> None:
    lines = ["could", "99", "save", "012345", "hint", "0123"]
    code, out, _ = human(capsys, monkeypatch, lines, "--secret", "0123", "--json")
    assert code == 0
    answers = events(out)
    errors = [a["message"] for a in answers if a["event"] == "error"]
    assert len(errors) == 4
    assert "no guess yet" in errors[0]
    assert "save where?" in errors[2]
    assert answers[-2]["event"] == "won"


def test_closed_standard_input_is_named(capsys, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", None)
    code = main(["mastermind", "play", "--human", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 2
    assert "standard input, which is closed" in report["error"]["message"]


def test_a_won_game_takes_no_more_guesses() -> None:
    game = HumanGame.new(3, 4, secret="012")
    game.guess("012")
    with pytest.raises(InvalidMove, match="the game is over"):
        game.guess("000")
