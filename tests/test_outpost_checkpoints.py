"""`outpost play --checkpoint-every K`: the game is saved every K turns, and a run killed
with SIGKILL resumes from the last checkpoint to the very game an unbroken run plays."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from stratagem.errors import InvalidParameter
from stratagem.outpost import Game

SLOW_PLAYER = """
import time


class Slow:
    def move(self, state):
        time.sleep(0.002)
        return [(int(i) + state.turn) % 5 for i in state.mine()[:, 0]]

    def disband(self, state):
        return int(state.mine()[-1, 0])
"""


def stratagem(*args: str, cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "stratagem", "outpost", "play", *args, "--json"],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def saved_turn(path: Path) -> int:
    try:
        return int(json.loads(path.read_text())["turn"])
    except (OSError, ValueError, KeyError):
        return 0


def test_a_killed_game_resumes_from_its_checkpoint_bit_for_bit(tmp_path: Path) -> None:
    (tmp_path / "slow.py").write_text(SLOW_PLAYER)
    players = ["--players", "slow.py:Slow,random,spread,slow.py:Slow"]
    game = ["--seed", "11", "--turns", "1000", *players]
    unbroken = stratagem(*game, "--save", "unbroken.json", cwd=tmp_path)
    killed = stratagem(*game, "--save", "killed.json", "--checkpoint-every", "200", cwd=tmp_path)
    checkpoint = tmp_path / "killed.json"
    deadline = time.monotonic() + 60
    while saved_turn(checkpoint) < 200 and time.monotonic() < deadline:
        time.sleep(0.01)
    killed.send_signal(signal.SIGKILL)
    killed.communicate()
    reached = saved_turn(checkpoint)
    assert 200 <= reached < 1000
    assert reached % 200 == 0
    resumed = stratagem("--load", "killed.json", *players, "--save", "killed.json", cwd=tmp_path)
    _, error = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, error
    _, error = unbroken.communicate(timeout=120)
    assert unbroken.returncode == 0, error
    assert saved_turn(tmp_path / "unbroken.json") == 1000
    assert checkpoint.read_bytes() == (tmp_path / "unbroken.json").read_bytes()


def test_checkpoints_fall_on_the_multiples_of_k(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "game.json"
    game = Game(seed=3, T=50)
    saved: list[int] = []
    save = Game.save

    def recording(self: Game, target: os.PathLike[str]) -> None:
        saved.append(self.turn)
        save(self, target)

    monkeypatch.setattr(Game, "save", recording)
    game.run(37, checkpoint=path, checkpoint_every=10)
    game.run(checkpoint=path, checkpoint_every=10)
    assert saved == [10, 20, 30, 37, 40, 50, 50]
    assert Game.load(path).to_dict() == game.to_dict()
    unbroken = Game(seed=3, T=50)
    unbroken.run()
    assert unbroken.to_dict() == game.to_dict()


def test_checkpoint_every_needs_a_save_file(tmp_path: Path) -> None:
    with pytest.raises(InvalidParameter, match="checkpoint_every needs a checkpoint path"):
        Game(seed=3, T=50).run(checkpoint_every=10)
    with pytest.raises(InvalidParameter, match="checkpoint_every"):
        Game(seed=3, T=50).run(checkpoint=tmp_path / "game.json", checkpoint_every=0)
    finished = stratagem("--checkpoint-every", "10", cwd=tmp_path)
    out, _ = finished.communicate(timeout=60)
    assert finished.returncode == 2
    assert json.loads(out)["error"] == {
        "type": "InvalidParameter",
        "message": "--checkpoint-every needs --save FILE (the checkpoint file)",
    }
