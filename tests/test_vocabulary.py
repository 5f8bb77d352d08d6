"""One vocabulary on the command line (docs/games.md): ``--turns`` is a game's length in every
game (Mastermind's rows, annexation's move limit), a pause is ``--stop-after``, a placing in a
game is a placing (``rank`` is an MPI process), and a file option reads ``FILE``."""

from __future__ import annotations

import argparse
import io
import json

import pytest

from cli_helpers import Command
from stratagem.cli import build_parser, main
from stratagem.mastermind.human import HumanGame

mastermind = Command("mastermind")
annexation = Command("annexation")


def test_mastermind_rows_end_the_game_when_they_run_out(capsys):
    whole = mastermind.run_json(capsys, "play", "--secret", "5432")
    needed = whole["turns_played"]
    assert needed > 3
    assert (whole["outcome"], whole["lost"], whole["rows"]) == ("won", False, None)
    short = mastermind.run_json(capsys, "play", "--secret", "5432", "--turns", "3")
    assert (short["outcome"], short["winners"], short["lost"]) == ("unfinished", [], True)
    assert (short["turns_played"], short["rows"], short["guesses_needed"]) == (3, 3, needed)
    assert short["guesses"] == whole["guesses"][:3]
    assert short["feedback"] == whole["feedback"][:3]
    # Exactly enough rows: the last row breaks it.
    enough = mastermind.run_json(capsys, "play", "--secret", "5432", "--turns", str(needed))
    assert (enough["outcome"], enough["winners"], enough["lost"]) == ("won", [0], False)
    text = mastermind.run_text(capsys, "play", "--secret", "5432", "--turns", "3")
    assert "not broken in 3 rows: the codebreaker loses" in text


def test_mastermind_rows_hold_for_a_person_and_are_saved(capsys, monkeypatch, tmp_path):
    saved = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("0011\n"))
    argv = ["play", "--human", "--secret", "5432", "--turns", "2", "--save", str(saved)]
    assert main(["mastermind", *argv]) == 0
    assert "guess 2 of 2?" in capsys.readouterr().out
    assert HumanGame.load(saved).rows == 2
    monkeypatch.setattr("sys.stdin", io.StringIO("2222\n0000\n"))
    assert main(["mastermind", "play", "--load", str(saved), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line.get("event") for line in lines] == ["start", "history", "guess", "lost", "end"]
    report = lines[-1]
    assert (report["outcome"], report["winners"], report["ended"]) == ("unfinished", [], "lost")
    assert (report["lost"], report["rows"], report["secret"]) == (True, 2, "5432")


@pytest.mark.parametrize("turns", ["0", "-2"])
def test_mastermind_rows_must_be_positive(turns, capsys):
    error, _ = mastermind.failure(capsys, "play", "--turns", turns)
    assert "--turns" in error["message"]


def test_annexation_turns_is_the_length_and_stop_after_the_pause(capsys):
    small = ["play", "--board", "hex:4", "--players", "greedy,random", "--seed", "2"]
    limited = annexation.run_json(capsys, *small, "--turns", "5")
    assert limited["rules"]["max_moves"] == 5
    assert limited["turns_played"] <= 5
    assert limited["outcome"] in ("won", "drawn"), "the move limit ends the game"
    paused = annexation.run_json(capsys, *small, "--stop-after", "5")
    assert paused["turns_played"] == 5
    assert paused["outcome"] == "unfinished"
    # The limit in force is reported, not null: four moves per cell of hex:4's 61.
    assert paused["rules"]["max_moves"] == 4 * paused["cells"] == 244


def test_outpost_reports_placings_not_ranks(capsys):
    report = Command("outpost").run_json(capsys, "play", "--turns", "20")
    assert len(report["placings"]) == 4
    assert "ranks" not in report
    text = Command("outpost").run_text(capsys, "play", "--turns", "20")
    assert "placing" in text
    assert " rank" not in text


def _file_options() -> list[tuple[str, argparse.Action]]:
    found = []
    stack = [("stratagem", build_parser())]
    while stack:
        path, parser = stack.pop()
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                stack.extend((f"{path} {name}", sub) for name, sub in action.choices.items())
            elif action.help != argparse.SUPPRESS and set(action.option_strings) & {
                "--png",
                "--history-png",
                "--save",
                "--load",
                "--csv",
                "--checkpoint",
                "--gif",
                "--out",
            }:
                found.append((path, action))
    return found


def test_every_file_option_reads_file():
    options = _file_options()
    assert len(options) > 30
    for path, action in options:
        assert action.metavar == "FILE", f"{path} {action.option_strings[0]}: {action.metavar}"
