"""The help screens and usage errors a person meets: every command's ``--help`` free of
argparse's internals, one program name in an error, and a misspelt option or command answered
by the command it was given to, with the nearest valid spelling."""

from __future__ import annotations

import argparse
import json
import shlex
from collections.abc import Iterator

import pytest

from cli_helpers import Command
from stratagem.cli import build_parser, main


def _commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[str, ...]]:
    """Every command and group's words, the top level included (old names too)."""
    yield path
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _commands(sub, (*path, name))


_EVERY_COMMAND = sorted(_commands(build_parser()))
# argparse's words a person should never read in a help screen.
_INTERNALS = ("==SUPPRESS==", "%(", "(default: None)", "(default None)", "_SubParsersAction")


def test_every_game_has_its_commands_walked():
    groups = {path[0] for path in _EVERY_COMMAND if path}
    assert {"annexation", "conquest", "outpost", "mastermind", "diplomacy", "rng"} <= groups
    assert len(_EVERY_COMMAND) > 40


@pytest.mark.parametrize("words", _EVERY_COMMAND, ids=" ".join)
def test_help_screens_hold_no_argparse_internals(words, capsys):
    with pytest.raises(SystemExit) as caught:
        main([*words, "--help"])
    assert caught.value.code == 0
    screen = capsys.readouterr().out
    assert screen.startswith(f"usage: {' '.join(('stratagem', *words))} ")
    for internal in _INTERNALS:
        assert internal not in screen, f"{internal!r} in the help of {' '.join(words)}"


@pytest.mark.parametrize(
    ("group", "hidden"), [("conquest", "run"), ("mastermind", "solve"), ("diplomacy", "solve")]
)
def test_deprecated_command_names_are_not_listed(group, hidden, capsys):
    with pytest.raises(SystemExit):
        main([group, "--help"])
    listed = capsys.readouterr().out.split("options:")[0]
    assert f"    {hidden} " not in listed
    assert "    play " in listed


def test_game_summaries_say_what_the_commands_do(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    screen = " ".join(capsys.readouterr().out.split())
    assert "peg by peg" not in screen
    assert "each turn each" not in screen
    for words in ("play a game", "tournaments", "count"):
        assert words in screen


def _usage_error(capsys, argv: str) -> tuple[str, str]:
    """stderr of a command line the parser refuses (status 2, nothing on stdout), and the
    message of its JSON error under --json (one object)."""
    err = Command().parser_failure(capsys, *shlex.split(argv))
    with pytest.raises(SystemExit) as caught:
        main([*shlex.split(argv), "--json"])
    assert caught.value.code == 2
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    error = json.loads(out)["error"]
    assert error["type"] == "UsageError"
    return err, error["message"]


@pytest.mark.parametrize(
    ("argv", "command", "suggestion"),
    [
        ("conquest play --plaers random", "conquest play", "--players"),
        ("conquest play --plaers=random", "conquest play", "--players"),
        ("annexation play --colors 5", "annexation play", "--colours"),
        ("outpost tournament --rpeats 2", "outpost tournament", "--repeats"),
        ("mastermind play --sceret 1234", "mastermind play", "--secret"),
        ("diplomacy count opening --lst 3", "diplomacy count", "--list"),
        ("outpost map generate --laks 3", "outpost map generate", "--lakes"),
        ("rng binomial --n 5 --cuont 3", "rng binomial", "--count"),
    ],
)
def test_a_misspelt_option_gets_the_command_usage_and_the_nearest_option(
    argv, command, suggestion, capsys
):
    err, message = _usage_error(capsys, argv)
    assert err.startswith(f"usage: stratagem {command} ")
    assert f"did you mean {suggestion}?" in message
    assert message.startswith(f"{command}: unrecognized arguments")
    assert err.count("stratagem:") == 1, "one program name"


@pytest.mark.parametrize(
    ("argv", "usage", "suggestion"),
    [
        ("conquset", "stratagem", "conquest"),
        ("conquest plya", "stratagem conquest", "play"),
        ("mastermind evalute", "stratagem mastermind", "evaluate"),
        ("outpost map lst", "stratagem outpost map", "list"),
        ("diplomacy play opening --method combnied", "stratagem diplomacy play", "combined"),
    ],
)
def test_a_misspelt_command_or_choice_gets_the_nearest_one(argv, usage, suggestion, capsys):
    err, message = _usage_error(capsys, argv)
    assert err.startswith(f"usage: {usage} ")
    assert f"did you mean {suggestion}?" in message


@pytest.mark.parametrize("group", ["conquest", "mastermind", "diplomacy"])
def test_choices_of_a_group_leave_out_the_deprecated_names(group, capsys):
    _, message = _usage_error(capsys, f"{group} nosuch")
    assert "solve" not in message.split("choose from")[1]
    assert "run" not in message.split("choose from")[1].split(", ")


def test_a_bare_command_shows_its_help_and_names_the_program_once(capsys):
    err, message = _usage_error(capsys, "")
    assert "stratagem: error: stratagem" not in err
    assert err.count("stratagem: error:") == 1
    assert "positional arguments" in err, "the whole help"
    assert message.startswith("missing <command>: one of info, demo, rng")
    err, message = _usage_error(capsys, "conquest")
    assert message == "conquest: missing <conquest command>: one of play, odds, tournament"
