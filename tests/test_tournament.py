"""The tournament engine every game shares (stratagem.tournament), on its own with a toy game:
tasks over threads, resuming from the one checkpoint format, and every bad checkpoint refused
by name."""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from stratagem import rng
from stratagem.errors import InvalidParameter
from stratagem.mpi import SerialCommunicator
from stratagem.tournament import CHECKPOINT_FORMAT, Checkpoint, check_counts, run

GAMES = 10  # the toy fixture: 10 coin tosses, its row (heads, tails, longest run of heads)
SERIAL = SerialCommunicator()


def toss(seed: int, index: int) -> list[int]:
    """Fixture ``index``: its coins come from the stream (seed, "toy", index) alone."""
    coins = [int(c) for c in rng.draws(seed, "toy", [index], "uniform_below", [2] * GAMES)]
    longest = run_of = 0
    for coin in coins:
        run_of = run_of + 1 if coin else 0
        longest = max(longest, run_of)
    return [sum(coins), GAMES - sum(coins), longest]


def check(index: int, row: NDArray[np.int64]) -> None:
    check_counts(row[:2], GAMES, "heads and tails")
    if row[2] > row[0]:
        raise ValueError(f"a run of {row[2]} heads among {row[0]}")


def checkpoint(path: Path, seed: int = 1) -> Checkpoint:
    return Checkpoint(path, "toy", {"seed": seed}, ("heads", "tails", "run"), check=check)


def player(seed: int, tasks: list[range] | None = None, stop_at: int | None = None) -> Any:
    """The toy's play function: a task's fixtures over ``threads`` Python threads."""

    def play(task: range, threads: int | None, report: Callable[[int], None] | None) -> Any:
        if tasks is not None:
            tasks.append(task)
        if stop_at in task:
            raise KeyboardInterrupt
        with ThreadPoolExecutor(threads or 1) as pool:
            return list(pool.map(lambda index: toss(seed, index), task))

    return play


def test_the_table_is_each_fixture_played_alone() -> None:
    table = run(7, player(1), columns=3, comm=SERIAL)
    assert table.dtype == np.int64
    assert table.tolist() == [toss(1, index) for index in range(7)]
    assert table[:, :2].sum(axis=1).tolist() == [GAMES] * 7
    assert run(0, player(1), columns=3, comm=SERIAL).shape == (0, 3)


@pytest.mark.parametrize(("threads", "batch"), [(1, None), (2, None), (3, 1), (None, 4), (2, 5)])
def test_threads_and_batches_do_not_change_the_result(
    tmp_path: Path, threads: int | None, batch: int | None
) -> None:
    tasks: list[range] = []
    reference = run(13, player(1), columns=3, comm=SERIAL, threads=1, batch=1)
    path = tmp_path / "c.json"
    table = run(
        13, player(1, tasks), checkpoint=checkpoint(path), comm=SERIAL, threads=threads, batch=batch
    )
    assert table.tolist() == reference.tolist()
    assert [index for task in tasks for index in task] == list(range(13))
    if batch is not None:
        assert max(len(task) for task in tasks) == min(batch, 13)
    # The checkpoint holds the same rows whatever the threads and batches.
    assert json.loads(path.read_text())["done"] == [
        [i, row] for i, row in enumerate(reference.tolist())
    ]


def test_an_interrupted_run_resumes_and_equals_an_uninterrupted_one(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    straight = run(12, player(3), columns=3, comm=SERIAL)
    tasks: list[range] = []
    with pytest.raises(KeyboardInterrupt):
        run(12, player(3, tasks, stop_at=7), checkpoint=checkpoint(path, 3), comm=SERIAL, batch=3)
    # Ctrl-C in the third task: the two finished ones are in the file, and no partial file.
    assert tasks == [range(0, 3), range(3, 6), range(6, 9)]
    assert sorted(checkpoint(path, 3).load(12)) == [0, 1, 2, 3, 4, 5]
    assert not path.with_name(path.name + ".partial").exists()

    tasks.clear()
    resumed = run(12, player(3, tasks), checkpoint=checkpoint(path, 3), comm=SERIAL, threads=2)
    assert tasks == [range(6, 12)]  # only what is missing (8 per thread at most)
    assert resumed.tolist() == straight.tolist()
    # Everything is in the file now: nothing is played again.
    tasks.clear()
    again = run(12, player(3, tasks), checkpoint=checkpoint(path, 3), comm=SERIAL)
    assert (tasks, again.tolist()) == ([], straight.tolist())


def test_any_missing_fixtures_are_played_and_alone_ones_on_their_own(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    straight = run(10, player(2), columns=3, comm=SERIAL)
    run(10, player(2), checkpoint=checkpoint(path, 2), comm=SERIAL)
    saved = json.loads(path.read_text())
    saved["done"] = [entry for entry in saved["done"] if entry[0] not in (0, 3, 4, 5, 9)]
    path.write_text(json.dumps(saved))
    tasks: list[range] = []
    table = run(
        10,
        player(2, tasks),
        checkpoint=checkpoint(path, 2),
        comm=SERIAL,
        alone=lambda index: index == 4,
    )
    assert tasks == [range(0, 1), range(3, 4), range(4, 5), range(5, 6), range(9, 10)]
    assert table.tolist() == straight.tolist()


def test_the_file_names_its_format_game_setup_and_columns(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    run(2, player(1), checkpoint=checkpoint(path), comm=SERIAL)
    assert json.loads(path.read_text()) == {
        "format": CHECKPOINT_FORMAT,
        "version": 2,
        "game": "toy",
        "setup": {"seed": 1},
        "columns": ["heads", "tails", "run"],
        "done": [[0, toss(1, 0)], [1, toss(1, 1)]],
    }


def saved_file(**changes: Any) -> str:
    data: dict[str, Any] = {
        "format": CHECKPOINT_FORMAT,
        "version": 2,
        "game": "toy",
        "setup": {"seed": 1},
        "columns": ["heads", "tails", "run"],
        "done": [[0, toss(1, 0)]],
    }
    return json.dumps({**data, **changes})


GOOD = toss(1, 2)
BAD = {
    "empty": ("", "not a checkpoint (not JSON (Expecting value"),
    "truncated": (saved_file()[:-9], "not a checkpoint (not JSON ("),
    "not JSON": ("checkpoint: yes", "not a checkpoint (not JSON (Expecting value"),
    "nested too deep": ("[" * 200_000 + "]" * 200_000, "nested 200000 deep"),
    "a number of 5000 digits": ('{"format": ' + "7" * 5000 + "}", "a number of 5000 digits"),
    "not UTF-8": (b"\xff\xfe{".decode("latin-1"), "not a checkpoint"),
    "a list": ("[1, 2]", "not a checkpoint (no format"),
    "another format": ('{"format": "other"}', "not a checkpoint (no format"),
    "another version": (saved_file(version=1), "checkpoint version 1; this stratagem reads 2"),
    "another game": (saved_file(game="chess"), "not the checkpoint of a toy tournament"),
    "no setup": (saved_file(setup=None), "not the checkpoint of a toy tournament"),
    "another setup": (
        saved_file(setup={"seed": 2}),
        "the checkpoint of another tournament (seed: 2 there, 1 here)",
    ),
    "other columns": (saved_file(columns=["heads"]), "columns ['heads'], not"),
    "done not a list": (saved_file(done={}), "'done' must be a list of [index, row]"),
    "entry not a pair": (saved_file(done=[2]), "done[0] is not [index, row]"),
    "index out of range": (saved_file(done=[[7, GOOD]]), "done[0]: fixture 7 is not one of 0..4"),
    "index a bool": (saved_file(done=[[True, GOOD]]), "done[0]: fixture True is not one of"),
    "index twice": (saved_file(done=[[2, GOOD], [2, GOOD]]), "done[1]: fixture 2 is given twice"),
    "short row": (saved_file(done=[[2, GOOD[:2]]]), f"fixture 2: {GOOD[:2]} is not a row of 3"),
    "float in a row": (saved_file(done=[[2, [5.0, 5, 1]]]), "is not a row of 3 whole numbers"),
    "negative count": (saved_file(done=[[2, [11, -1, 1]]]), "has a value outside 0..2^63-1"),
    "more heads than games": (
        saved_file(done=[[2, [11, 0, 1]]]),
        "fixture 2: heads and tails (11, 0) are not 10 games",
    ),
    "a run longer than the heads": (
        saved_file(done=[[2, [3, 7, 4]]]),
        "fixture 2: a run of 4 heads among 3",
    ),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_checkpoint_is_refused_naming_the_file_and_the_problem(
    tmp_path: Path, case: str
) -> None:
    content, message = BAD[case]
    path = tmp_path / "c.json"
    path.write_text(content, encoding="latin-1" if case == "not UTF-8" else "utf-8")
    tasks: list[range] = []
    with pytest.raises(InvalidParameter) as caught:
        run(5, player(1, tasks), checkpoint=checkpoint(path), comm=SERIAL)
    text = str(caught.value)
    assert text.startswith(f"{path}: ")
    assert message in text, text
    assert tasks == []  # refused before any game


def test_a_checkpoint_in_a_missing_folder_is_refused_before_any_game(tmp_path: Path) -> None:
    tasks: list[range] = []
    with pytest.raises(InvalidParameter, match="does not exist"):
        run(3, player(1, tasks), checkpoint=checkpoint(tmp_path / "no" / "c.json"), comm=SERIAL)
    assert tasks == []


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(InvalidParameter, match="columns or a checkpoint"):
        run(3, player(1), comm=SERIAL)
    with pytest.raises(InvalidParameter, match="threads must be at least 1"):
        run(3, player(1), columns=3, comm=SERIAL, threads=0)
    with pytest.raises(InvalidParameter, match="batch must be at least 1"):
        run(3, player(1), columns=3, comm=SERIAL, batch=0)
    with pytest.raises(InvalidParameter, match="fixtures must be at least 0"):
        run(-1, player(1), columns=3, comm=SERIAL)
