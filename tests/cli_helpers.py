"""Running ``stratagem`` in process for the command-line tests, with pytest's ``capsys``: a
command's ``--json`` report, its text, or the JSON error of a command that must fail."""

from __future__ import annotations

import json

import pytest

from stratagem.cli import main


class Command:
    """``stratagem <prefix> ...``: ``Command("outpost")`` for a game's commands, ``Command()``
    for the top level. Its methods read what the command printed from ``capsys``."""

    def __init__(self, *prefix: str) -> None:
        self.prefix = prefix

    def run_json(self, capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
        """The report of a command that succeeds with ``--json``."""
        assert main([*self.prefix, *argv, "--json"]) == 0
        out = capsys.readouterr().out
        assert out.count("\n") == 1, "--json must print exactly one line"
        return json.loads(out)

    def run_text(self, capsys: pytest.CaptureFixture[str], *argv: str) -> str:
        """stdout of a command that succeeds."""
        assert main([*self.prefix, *argv]) == 0
        return capsys.readouterr().out

    def failure(self, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[dict, str]:
        """The JSON error and stderr of a command that must fail with status 2: one line on
        each, and no traceback."""
        assert main([*self.prefix, *argv, "--json"]) == 2
        captured = capsys.readouterr()
        assert captured.out.count("\n") == 1
        assert "Traceback" not in captured.err
        assert captured.err.count("\n") == 1, "one line on stderr"
        return json.loads(captured.out)["error"], captured.err

    def parser_failure(self, capsys: pytest.CaptureFixture[str], *argv: str) -> str:
        """stderr of a command the argument parser refuses: status 2, nothing on stdout."""
        with pytest.raises(SystemExit) as caught:
            main([*self.prefix, *argv])
        assert caught.value.code == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        return captured.err
