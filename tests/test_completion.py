"""Shell completion through argcomplete: the completions the shell's hook gets back for a
partly typed command line, and the hook script a user evaluates in their shell."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def _completions(line: str, folder: Path) -> list[str]:
    """What ``stratagem`` offers for ``line`` (cursor at its end), as the shell hook asks."""
    script = shutil.which("stratagem")
    assert script is not None
    answer = folder / "completions.txt"
    environment = {
        **os.environ,
        "_ARGCOMPLETE": "1",
        "_ARGCOMPLETE_SHELL": "bash",
        "COMP_LINE": line,
        "COMP_POINT": str(len(line)),
        "_ARGCOMPLETE_STDOUT_FILENAME": str(answer),
    }
    subprocess.run([script], env=environment, check=True, timeout=60, capture_output=True)
    return sorted(word.strip() for word in answer.read_text().split("\v") if word.strip())


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("stratagem ", ["annexation", "conquest", "demo", "diplomacy", "info", "mastermind"]),
        ("stratagem conquest pl", ["play"]),
        ("stratagem conquest play --bo", ["--board"]),
        ("stratagem outpost tournament --no-", ["--no-progress"]),
        ("stratagem conquest play --assign ", ["random", "regions"]),
    ],
)
def test_completions_of_a_partial_command_line(tmp_path, line, expected):
    offered = _completions(line, tmp_path)
    assert set(expected) <= set(offered), offered


def test_the_hook_script_names_the_command():
    register = shutil.which("register-python-argcomplete", path=str(Path(sys.executable).parent))
    assert register is not None, "argcomplete installs register-python-argcomplete"
    hook = subprocess.run(
        [register, "stratagem"], check=True, capture_output=True, text=True, timeout=60
    ).stdout
    assert "complete" in hook
    assert "stratagem" in hook
