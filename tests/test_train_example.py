"""examples/train_annexation.py runs end to end for a few seconds (needs the rl extra); the
figures it reaches in minutes are in docs/envs.md, not asserted here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch", reason="needs the rl extra: pip install 'stratagem[rl]'")

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "train_annexation.py"


def test_the_training_example_prints_one_json_object() -> None:
    command = [sys.executable, str(EXAMPLE), "--minutes", "0.05", "--board", "hex:2"]
    command += ["--envs", "8", "--steps", "8", "--eval-games", "10", "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True)
    result = json.loads(done.stdout)
    assert list(result)[-2:] == ["vs_random", "vs_greedy"]
    assert 0.0 <= result["vs_random"] <= 1.0
    assert result["steps"] > 0
    assert result["curve"]
