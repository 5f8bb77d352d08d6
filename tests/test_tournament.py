"""The tournament engine every game shares (stratagem.tournament): fixtures played in order,
resumed from the one checkpoint format, and every bad checkpoint refused by name."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from stratagem.errors import InvalidParameter
from stratagem.tournament import CHECKPOINT_FORMAT, Checkpoint, play


def decode(index: int, value: Any) -> int:
    if not isinstance(value, int) or value != index * index:
        raise ValueError(f"{value!r} is not the square of {index}")
    return value


def checkpoint(path: Path, n: int = 5) -> Checkpoint[int]:
    return Checkpoint(path, "toy", {"n": n}, encode=int, decode=decode)


def test_a_resumed_run_plays_only_what_is_missing_and_equals_an_uninterrupted_one(tmp_path):
    path = tmp_path / "c.json"
    played: list[int] = []

    def square(index: int) -> int:
        played.append(index)
        if index == 3 and len(played) == 4:
            raise KeyboardInterrupt
        return index * index

    with pytest.raises(KeyboardInterrupt):
        play(5, square, checkpoint=checkpoint(path), progress=False)
    assert sorted(checkpoint(path).load(5)) == [0, 1, 2]
    assert not path.with_name(path.name + ".partial").exists()
    played.clear()
    assert play(5, square, checkpoint=checkpoint(path), progress=False) == [0, 1, 4, 9, 16]
    assert played == [3, 4]
    assert play(5, lambda i: i * i, progress=False) == [0, 1, 4, 9, 16]


def test_the_file_names_its_format_game_and_setup(tmp_path):
    path = tmp_path / "c.json"
    play(2, lambda i: i * i, checkpoint=checkpoint(path, 2), progress=False)
    saved = json.loads(path.read_text())
    assert saved == {
        "format": CHECKPOINT_FORMAT,
        "version": 1,
        "game": "toy",
        "setup": {"n": 2},
        "done": [[0, 0], [1, 1]],
    }


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "not a checkpoint (JSONDecodeError"),
        ('{"format": "stratagem.tournament.checkpoint", "ver', "not a checkpoint"),
        ("[1, 2]", "not a checkpoint (no format"),
        ('{"format": "other"}', "not a checkpoint (no format"),
        ('{"format": "stratagem.tournament.checkpoint", "version": 2}', "version 2"),
        (
            '{"format": "stratagem.tournament.checkpoint", "version": 1, "game": "chess", '
            '"setup": {"n": 5}, "done": []}',
            "not the checkpoint of a toy tournament",
        ),
        (
            '{"format": "stratagem.tournament.checkpoint", "version": 1, "game": "toy", '
            '"setup": {"n": 6}, "done": []}',
            "checkpoint of another tournament (n: 6 there, 5 here)",
        ),
        (
            '{"format": "stratagem.tournament.checkpoint", "version": 1, "game": "toy", '
            '"setup": {"n": 5}, "done": {}}',
            "'done' must be a list",
        ),
        (
            '{"format": "stratagem.tournament.checkpoint", "version": 1, "game": "toy", '
            '"setup": {"n": 5}, "done": [[7, 49]]}',
            "done[0]: fixture 7 is not one of 0..4",
        ),
        (
            '{"format": "stratagem.tournament.checkpoint", "version": 1, "game": "toy", '
            '"setup": {"n": 5}, "done": [[1, 1], [1, 1]]}',
            "done[1]: fixture 1 is given twice",
        ),
        (
            '{"format": "stratagem.tournament.checkpoint", "version": 1, "game": "toy", '
            '"setup": {"n": 5}, "done": [[2, 999]]}',
            "fixture 2: 999 is not the square of 2",
        ),
        (
            '{"format": "stratagem.tournament.checkpoint", "version": 1, "game": "toy", '
            '"setup": {"n": 5}, "done": [2]}',
            "done[0] is not [index, result]",
        ),
    ],
)
def test_a_bad_checkpoint_is_refused_naming_the_file_and_the_problem(tmp_path, content, message):
    path = tmp_path / "c.json"
    path.write_text(content)
    with pytest.raises(InvalidParameter, match=re.escape(message)) as caught:
        play(5, lambda i: i * i, checkpoint=checkpoint(path), progress=False)
    assert str(caught.value).startswith(str(path))


def test_a_checkpoint_in_a_missing_folder_is_refused_before_any_game(tmp_path):
    played: list[int] = []
    with pytest.raises(InvalidParameter, match="does not exist"):
        play(
            3,
            lambda i: played.append(i) or i * i,
            checkpoint=checkpoint(tmp_path / "nowhere" / "c.json", 3),
            progress=False,
        )
    assert played == []
