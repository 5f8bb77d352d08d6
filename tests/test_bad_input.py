"""Bad input of every class, as a hostile user gives it: corrupt saves, sizes that would
exhaust the machine, unwritable outputs, integers past 64 bits, NaN, tampered checkpoints.
Under ``--json`` each ends with exit status 2, one JSON error naming the mistake, no
traceback, at once (nothing is played before an output path is refused); through the
library each raises the ``StratagemError`` subclass that names it."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import numpy as np
import pytest

from stratagem import conquest, diplomacy, mastermind, outpost
from stratagem.cli import main
from stratagem.conquest.saves import read_game
from stratagem.diplomacy.search import CombinedSearch, mixed_equilibrium
from stratagem.errors import InvalidBoard, InvalidParameter, StratagemError

# A refusal is immediate; this only keeps a hang from passing as a slow refusal.
_PROMPT_SECONDS = 20.0


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    """The JSON error of a command that must fail: status 2, one JSON line on stdout, no
    traceback (argument errors also print their usage on stderr)."""
    started = time.perf_counter()
    try:
        status = main([*argv, "--json"])
    except SystemExit as exit:  # the argument parser's way out
        status = exit.code
    assert status == 2
    assert time.perf_counter() - started < _PROMPT_SECONDS
    captured = capsys.readouterr()
    assert captured.out.count("\n") == 1
    assert "Traceback" not in captured.err
    error: dict = json.loads(captured.out)["error"]
    assert set(error) == {"type", "message"}
    return error


def _game_save(folder: Path) -> Path:
    path = folder / "game.npz"
    team = np.arange(16) % 2
    game = conquest.Game("grid:4x4", team, np.full(16, 3), ["random", "random"], seed=3)
    game.run(4)
    game.save(path)
    return path


def _diplomacy_save(folder: Path, **changes: object) -> Path:
    path = folder / "search.json"
    position = diplomacy.Position.parse("AUS: A VIE / BUD TRI VIE; RUS: F STP/SC, A MOS / STP")
    search = CombinedSearch(position)
    search.advance(3)
    search.save(path)
    data = json.loads(path.read_text())
    data.update(changes)
    path.write_text(json.dumps(data))
    return path


# -- corrupt saves ---------------------------------------------------------------------------


def test_cli_refuses_corrupt_saves(tmp_path, capsys):
    whole = _game_save(tmp_path)
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(whole.read_bytes()[:-100])
    empty = tmp_path / "empty.json"
    empty.write_text("")
    cases = [
        (["conquest", "play", "--load", str(truncated)], "a damaged or truncated archive"),
        (["annexation", "play", "--load", str(empty)], "not a saved annexation game"),
        (["diplomacy", "play", "--load", str(empty)], "cannot read a saved combined search"),
        (
            ["diplomacy", "play", "--load", str(_diplomacy_save(tmp_path, weights=[1, 2]))],
            "weights must be a list of 4 integers",
        ),
    ]
    for argv, named in cases:
        error = _refused(capsys, argv)
        assert error["type"] in ("InvalidParameter", "InvalidBoard"), argv
        assert named in error["message"], (argv, error)


def _spoil(path: Path, target: Path, **changes: object) -> Path:
    """``path``'s archive with fields replaced (a value) or removed (``None``)."""
    with np.load(path) as data:
        fields = {key: data[key] for key in data.files}
    for key, value in changes.items():
        if value is None:
            del fields[key]
        else:
            fields[key] = np.asarray(value)
    np.savez(target, **fields)
    return target


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"format": "stratagem.outpost.game/1"}, "format 'stratagem.outpost.game/1'"),
        ({"team": None}, "the field 'team' is missing"),
        (
            {"params": ["1", "2"]},
            "the array 'params' claims the shape (2,); the file's counts give (4,)",
        ),
        ({"params": ["1", "x", "3", "4"]}, "holds ['1', 'x', '3', '4'], not integers"),
        ({"turn": -5}, "the field 'turn' is -5"),
        ({"turn": 2.5}, "the array 'turn' claims the dtype <f8; expected integers of 1 to 8 bytes"),
        ({"winner": 7}, "the field 'winner' is 7, outside -1..1"),
        ({"status": "paused"}, "status 'paused' is not one of"),
        ({"status": "won"}, "a won game with winner -1"),
        (
            {"troops": [1, 2]},
            "the array 'troops' claims the shape (2,); the file's counts give (16,)",
        ),
        (
            {"history_troops": np.zeros((2, 2), dtype=np.int64)},
            "the array 'history_troops' claims the shape (2, 2); the file's counts give (5, 2)",
        ),
        ({"troops": np.full(16, 2**63, dtype=np.uint64)}, "holds a value above 2^63-1"),
        ({"board_indptr": None}, "the board array 'indptr' is missing"),
    ],
)
def test_a_damaged_conquest_save_is_refused_naming_the_file_and_field(tmp_path, changes, named):
    spoiled = _spoil(_game_save(tmp_path), tmp_path / "spoiled.npz", **changes)
    with pytest.raises(StratagemError) as caught:
        conquest.Game.load(spoiled)
    assert str(caught.value).startswith(f"{spoiled}: "), caught.value
    assert named in str(caught.value)


def test_an_edited_state_is_refused_by_the_engine_naming_the_file(tmp_path):
    spoiled = _spoil(_game_save(tmp_path), tmp_path / "spoiled.npz", troops=np.full(16, -1))
    with pytest.raises(InvalidParameter, match=r"spoiled\.npz: territory 0 has -1 troops"):
        conquest.Game.load(spoiled)


def test_a_saved_game_reads_back_whole(tmp_path):
    saved = read_game(_game_save(tmp_path))
    assert (saved.turn, saved.status, saved.policy_names) == (4, "running", ["random", "random"])
    assert saved.history.territories.shape == (5, 2)


def test_a_search_saved_with_missing_weights_is_refused(tmp_path):
    with pytest.raises(InvalidParameter, match="weights must be a list of 4 integers"):
        CombinedSearch.load(_diplomacy_save(tmp_path, weights=[12, 4]))
    with pytest.raises(InvalidParameter, match="got None"):
        CombinedSearch.load(_diplomacy_save(tmp_path, weights=None))


# -- sizes and integers ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["conquest", "play", "--board", "complete:2000000"], "GB of memory"),
        (["conquest", "play", "--board", "er:8000000:0.9"], "GB of memory"),
        (["conquest", "play", "--board", "rgg:200000:radius=1"], "GB of memory"),
        (
            ["annexation", "render", "--board", "voronoi:5000000", "--png", "board.png"],
            "at most 262,144 cells",
        ),
        (["conquest", "play", "--board", "grid:4x4", "--seed", str(2**70)], "seed"),
        (["conquest", "play", "--board", "grid:4x4", "--turns", str(10**23)], "--turns"),
        (
            ["mastermind", "count", "--guess", "0123:1,0", "--estimate", "--probes", str(10**12)],
            "--probes must be at most 1000000000",
        ),
        (["conquest", "play", "--board", "grid:4x4", "--rate", "nan"], "got nan"),
        (
            ["diplomacy", "play", "AUS: A VIE / BUD TRI VIE", "--time-limit", "1e300"],
            "time_limit must be a positive number of seconds, got 1e300 (at most 1e7)",
        ),
        (
            ["annexation", "match", "mcts:time=nan", "greedy", "--games", "2"],
            "time must be a positive number of seconds, got NaN",
        ),
    ],
)
def test_cli_refuses_sizes_and_numbers_before_any_work(capsys, argv, named):
    assert named in _refused(capsys, argv)["message"]


def test_library_refuses_numbers_past_their_bounds():
    with pytest.raises(InvalidParameter, match=r"time_budget must be a positive number \(finite\)"):
        outpost.Game(T=5, time_budget=math.inf)
    with pytest.raises(InvalidParameter, match="n must be at most 18446744073709551615"):
        conquest.simulate_battle(1, 1, 2**64)
    with pytest.raises(InvalidParameter, match="probes must be at most 1000000000"):
        mastermind.estimate_consistent(4, 6, probes=10**12)
    with pytest.raises(InvalidParameter, match=r"payoffs must be finite; a\[0, 1\] is nan"):
        mixed_equilibrium(np.array([[1.0, math.nan]]), np.array([[0.0, 1.0]]))
    with pytest.raises(InvalidParameter, match=r"b\[0, 0\] is inf"):
        mixed_equilibrium(np.array([[1.0, 2.0]]), np.array([[math.inf, 1.0]]))


# -- outputs ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["conquest", "play", "--board", "grid:300x300", "--turns", "100000", "--save"],
        ["conquest", "tournament", "--games", "1000", "--checkpoint"],
        ["annexation", "render", "--board", "hex:6", "--png"],
        ["outpost", "play", "--png"],
        ["outpost", "tournament", "--csv"],
        ["diplomacy", "play", "--save"],
    ],
)
def test_cli_refuses_an_unwritable_output_before_playing(tmp_path, capsys, argv):
    target = tmp_path / "missing-folder" / "out.file"
    error = _refused(capsys, [*argv, str(target)])
    assert f"{target.parent} does not exist" in error["message"], error
    assert not any(tmp_path.rglob("*.partial"))


# -- messages that name the real mistake ---------------------------------------------------


def test_too_few_policies_for_the_teams_is_named():
    team = np.arange(16) % 4
    with pytest.raises(InvalidParameter, match="has team 3, but 3 policies were given"):
        conquest.Game("grid:4x4", team, np.full(16, 2), ["random"] * 3)


def test_a_conquest_game_takes_a_board_spec():
    game = conquest.Game("grid:4x4", np.arange(16) % 2, np.full(16, 2), ["random"] * 2)
    assert game.board.n == 16


def test_board_errors_name_the_option_given(capsys):
    assert _refused(capsys, ["annexation", "play", "--colours", "2"])["message"] == (
        "--colours must be at least 3, got 2"
    )


def test_help_texts_print_a_plain_percent(capsys):
    for argv in (["conquest", "tournament", "--help"], ["annexation", "match", "--help"]):
        with pytest.raises(SystemExit):
            main(argv)
        text = capsys.readouterr().out
        assert "95% Wilson" in text
        assert "%%" not in text


def test_a_missing_board_file_is_a_clean_error():
    with pytest.raises(InvalidBoard, match=r"nowhere\.npz: cannot read"):
        conquest.Board.load("/nowhere/nowhere.npz")
