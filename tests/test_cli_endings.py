"""How commands end when the world misbehaves: a user's policy that raises is a PolicyError
reported as JSON, a reader that closes stdout early ends the command quietly, and a count
that could not finish is refused at once."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import numpy as np
import pytest

from stratagem.conquest import Game
from stratagem.errors import PolicyError


def stratagem(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "stratagem", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_policy_of_the_wrong_signature_is_a_json_policy_error() -> None:
    finished = stratagem(
        "conquest", "play", "--board", "grid:8x8", "--teams", "2", "--turns", "3",
        "--players", "os:getcwd,random", "--json",
    )  # fmt: skip
    assert finished.returncode == 2, finished.stderr
    assert "Traceback" not in finished.stderr
    error = json.loads(finished.stdout)["error"]
    assert error["type"] == "PolicyError"
    assert error["message"].startswith("the policy of team 0 (posix:getcwd) failed on turn 0: ")
    assert "TypeError" in error["message"]


def test_a_policy_that_raises_names_itself_and_the_turn() -> None:
    def late(view):
        if view.turn == 2:
            raise ZeroDivisionError("division by zero")
        return np.zeros(len(view.indices), dtype=np.int64)  # no troops moved

    game = Game.from_spec("grid:6x6", 2, 3, [late, "random"], seed=1)
    with pytest.raises(PolicyError) as caught:
        game.run(5)
    assert caught.value.turn == 2
    assert caught.value.policy.endswith("late")
    assert isinstance(caught.value.__cause__, ZeroDivisionError)
    assert "failed on turn 2: ZeroDivisionError: division by zero" in str(caught.value)


@pytest.mark.parametrize(
    "command",
    [
        ["info", "--json"],
        ["conquest", "play", "--board", "grid:20x20", "--turns", "5", "--json"],
        ["mastermind", "count", "--spots", "4", "--colours", "6"],
    ],
)
def test_a_closed_stdout_ends_the_command_quietly(command: list[str]) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "stratagem", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    process.stdout.close()  # as `| head -c 0` would, before the command writes
    _, error = process.communicate(timeout=120)
    assert process.returncode in (0, 141), error
    assert "Traceback" not in error
    assert "BrokenPipe" not in error


def test_a_count_that_could_not_finish_is_refused_at_once() -> None:
    started = time.monotonic()
    finished = stratagem(
        "mastermind", "count", "--spots", "16", "--colours", "36",
        "--guess", "0123456789abcdef:1,1", "--json",
    )  # fmt: skip
    assert time.monotonic() - started < 5.0
    assert finished.returncode == 2
    error = json.loads(finished.stdout)["error"]
    assert error["type"] == "InvalidParameter"
    assert "counting them one by one would not finish" in error["message"]
    assert "--estimate" in error["message"]
    estimated = stratagem(
        "mastermind", "count", "--spots", "16", "--colours", "36",
        "--guess", "0123456789abcdef:1,1", "--estimate", "--json",
    )  # fmt: skip
    assert estimated.returncode == 0
    assert json.loads(estimated.stdout)["estimate"]["mean"] > 1e20
    small = stratagem("mastermind", "count", "--spots", "9", "--colours", "10", "--guess",
                      "012345678:1,1", "--json")  # fmt: skip
    assert json.loads(small.stdout)["count"] == 296496
