"""Fuzzing every way in: board specs, damaged save and checkpoint files, hostile files (JSON
nested 200,000 deep or holding 5000-digit numbers, ``.npz`` members whose header lies, zip
bombs, FIFOs, devices, folders), command lines of every game, and saves onto a full disk,
generated at random. The only outcomes allowed are success or a clean ``StratagemError`` (on
the command line: exit status 0 or 2 and exactly one JSON object on stdout) — never another
exception, a hang, or a stale ``*.partial`` file; a hostile file is refused within 5 s, and
a save onto a full disk leaves the previous file byte for byte.

The hypothesis tests run briefly in every suite; the ``slow`` soak tests run the same
generators for ``STRATAGEM_SOAK_SECONDS`` each.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import signal
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hostile_files
from stratagem import _validate, annexation, conquest, outpost
from stratagem.cli import build_parser, main
from stratagem.diplomacy.position import Position
from stratagem.diplomacy.search import CombinedSearch
from stratagem.errors import StratagemError, WriteError
from stratagem.tournament import Checkpoint, check_counts, run

SOAK_SECONDS = float(os.environ.get("STRATAGEM_SOAK_SECONDS", "20"))
# Every generated case is cheap when valid; one that runs this long is a hang.
_HANG_SECONDS = 30

_FUZZ = settings(
    max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None
)


class Hang(Exception):
    """A generated case ran past ``_HANG_SECONDS``."""


@contextlib.contextmanager
def _bounded() -> Iterator[None]:
    def expire(signum: int, frame: object) -> None:
        raise Hang(f"still running after {_HANG_SECONDS} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(_HANG_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _clean(action: Callable[[], object], case: object) -> None:
    """Runs ``action``: success or a ``StratagemError`` pass, anything else fails naming the
    case that caused it."""
    try:
        with _bounded():
            action()
    except StratagemError:
        pass
    except Exception as error:
        raise AssertionError(f"{case!r}: {type(error).__name__}: {error}") from error


def _refused(action: Callable[[], object], case: object) -> None:
    """Runs ``action``: only a ``StratagemError`` passes (naming what it refused)."""
    try:
        with _bounded():
            action()
    except StratagemError:
        return
    except Exception as error:
        raise AssertionError(f"{case!r}: {type(error).__name__}: {error}") from error
    raise AssertionError(f"{case!r} was accepted")


def _soak(salt: int, check: Callable[[random.Random], Any], what: str) -> list[Any]:
    """Runs ``check`` over one random source seeded by ``salt`` for ``SOAK_SECONDS``, says how
    many ``what`` it ran and returns what every run returned."""
    source = random.Random(salt)
    deadline = time.monotonic() + SOAK_SECONDS
    results = []
    while time.monotonic() < deadline:
        results.append(check(source))
    print(f"{len(results)} {what}")
    assert results
    return results


# -- board specs -----------------------------------------------------------------------------

_KINDS = ["grid", "hex", "hexrect", "hexagon", "ring", "complete", "er", "rgg", "voronoi"]
_KINDS += ["risk", "torus", "", "GRID", "grid "]
_NUMBERS = ["0", "1", "2", "3", "5", "-1", "-0", "1.5", "nan", "inf", "1e3", "x", ""]
_NUMBERS += [str(2**26), str(2**32 + 1), str(2**64), str(10**30), "0x10", " 3"]


def _board_spec(source: random.Random) -> str:
    kind = source.choice(_KINDS)
    parts = [source.choice(_NUMBERS) for _ in range(source.randrange(4))]
    if source.random() < 0.3:
        parts.append(source.choice(["radius=", "p=", "seed=", "="]) + source.choice(_NUMBERS))
    separator = source.choice([":", "x", ":", ","])
    body = separator.join(parts)
    return kind if not parts and kind in ("risk", "") else f"{kind}:{body}"


def _check_board_spec(spec: str) -> None:
    # As on a machine with 1 GiB free: a board that fits in memory is built, however long it
    # takes (rgg:67108864 fits in 24 GiB and takes minutes), so the fuzz's large sizes must
    # meet the memory check, which refuses them before anything is allocated.
    with mock.patch.object(_validate, "available_memory", return_value=2**30):
        _clean(lambda: conquest.Board.from_spec(spec), ("conquest board", spec))
        _clean(lambda: annexation.parse_board(spec), ("annexation board", spec))


@_FUZZ
@given(source=st.randoms(use_true_random=False))
def test_board_specs_build_or_are_refused_cleanly(source):
    _check_board_spec(_board_spec(source))


@pytest.mark.slow
def test_board_specs_soak():
    _soak(0xB0A2D, lambda source: _check_board_spec(_board_spec(source)), "board specs")


# -- saved files -----------------------------------------------------------------------------

_POSITION = "AUS: A VIE / BUD TRI VIE; RUS: F STP/SC, A MOS / STP"


def _originals(folder: Path) -> dict[str, tuple[Path, Callable[[Path], object]]]:
    """One good file of every saved kind, with the call that reads it back."""
    team, troops = np.arange(16) % 2, np.full(16, 3)
    game = conquest.Game("grid:4x4", team, troops, ["random", "random"], seed=1)
    game.run(3)
    game.save(folder / "conquest_game.npz")
    conquest.Board.grid(3, 3).save(folder / "conquest_board.npz")
    annexation.Board.hexagon(2).save(folder / "annexation_board.npz")
    played = annexation.Game(annexation.Board.hexagon(2), 1)
    played.play(played.legal_moves()[0])
    played.save(folder / "annexation_game.json")
    search = CombinedSearch(Position.parse(_POSITION))
    search.advance(3)
    search.save(folder / "diplomacy_search.json")
    outpost_game = outpost.Game(T=6, seed=1)
    outpost_game.run(3)
    outpost_game.save(folder / "outpost_game.json")
    checkpoint = _checkpoint(folder / "checkpoint.json")
    run(4, lambda task, threads, report: [[i, 3 - i] for i in task], checkpoint=checkpoint)
    return {
        "conquest game": (folder / "conquest_game.npz", conquest.Game.load),
        "conquest board": (folder / "conquest_board.npz", conquest.Board.load),
        "annexation board": (folder / "annexation_board.npz", annexation.Board.load),
        "annexation game": (folder / "annexation_game.json", annexation.Game.load),
        "diplomacy search": (folder / "diplomacy_search.json", CombinedSearch.load),
        "outpost game": (folder / "outpost_game.json", outpost.Game.load),
        "tournament checkpoint": (
            folder / "checkpoint.json",
            lambda path: _checkpoint(path).load(4),
        ),
    }


def _checkpoint(path: Path) -> Checkpoint:
    """The checkpoint of a toy tournament of 4 fixtures of 3 games, (wins, losses) each."""

    def check(index: int, row: np.ndarray) -> None:
        check_counts(row, 3, "wins and losses")

    return Checkpoint(path, "toy", {"fixtures": 4}, ("wins", "losses"), check=check)


_ODD_VALUES: list[Any] = [None, -1, 0, 2**70, 1.5, float("nan"), "x", "", [], {}, [1, 2], True]


def _spoil_json(data: Any, source: random.Random) -> Any:
    """``data`` with one leaf, list or field replaced, removed or added."""
    if isinstance(data, dict) and data and source.random() < 0.8:
        key = source.choice(sorted(data))
        spoiled = dict(data)
        if source.random() < 0.2:
            del spoiled[key]
        else:
            spoiled[key] = _spoil_json(data[key], source)
        return spoiled
    if isinstance(data, list) and data and source.random() < 0.8:
        index = source.randrange(len(data))
        return [*data[:index], _spoil_json(data[index], source), *data[index + 1 :]]
    return source.choice(_ODD_VALUES)


def _spoil_arrays(path: Path, target: Path, source: random.Random) -> str:
    with np.load(path) as data:
        arrays = {key: data[key] for key in data.files}
    key = source.choice(sorted(arrays))
    array = arrays[key]
    change = source.randrange(5)
    if change == 0:
        del arrays[key]
    elif change == 1 and array.size:
        flat = array.astype(np.int64).ravel() if array.dtype.kind in "iub" else array.ravel()
        if flat.dtype.kind in "iu":
            flat[source.randrange(flat.size)] = source.choice([-1, 0, 2**40, 2**62])
        arrays[key] = flat.reshape(array.shape) if flat.dtype.kind in "iu" else flat
    elif change == 2:
        arrays[key] = array.ravel()[: source.randrange(array.size + 1)]
    elif change == 3:
        arrays[key] = np.array(source.choice(["x", "1.5", 7, 2.5]))
    else:
        arrays[key] = np.zeros((2, 3), dtype=source.choice([np.float64, np.uint64, np.int8]))
    np.savez(target, **arrays)
    return f"array {key!r}, change {change}"


def _hostile_file(original: Path, target: Path, source: random.Random) -> str:
    """Puts a hostile stand-in for ``original`` at ``target``; returns what it is."""
    kinds = ["deep JSON", "a 5000-digit number", "a FIFO", "a folder", "/dev/zero"]
    if original.suffix == ".npz":
        kinds += ["a lying header", "a zip bomb", "a grown member", "a bomb in a member"]
    kind = source.choice(kinds)
    if kind == "deep JSON":
        target.write_bytes(hostile_files.deep_json(source.choice([65, 1000, 200_000])))
    elif kind == "a 5000-digit number":
        target.write_bytes(hostile_files.long_number_json(source.choice([65, 4301, 5000])))
    elif kind == "a FIFO":
        hostile_files.fifo(target.parent, target.name)
    elif kind == "a folder":
        target.mkdir()
    elif kind == "/dev/zero":
        target.symlink_to("/dev/zero")
    elif kind == "a lying header":
        member = source.choice(hostile_files.members(original))
        kind += f" ({member})"
        target.write_bytes(hostile_files.lying_npz(member, (source.choice([2**31, 2**40]),)))
    elif kind == "a grown member":  # the format's counts are exceeded, the rest valid
        member = source.choice(hostile_files.members(original))
        kind += f" ({member})"
        target.write_bytes(hostile_files.grown_npz(original, member, source.choice([1, 10**4])))
    elif kind == "a bomb in a member":  # a member the format reads
        member = source.choice(hostile_files.members(original))
        kind += f" ({member})"
        target.write_bytes(hostile_files.zip_bomb(original, chunks=60, member=member))
    else:
        target.write_bytes(hostile_files.zip_bomb(original, chunks=source.choice([1, 60])))
    return kind


def _spoil_file(original: Path, target: Path, source: random.Random) -> str:
    """Writes a damaged copy of ``original`` to ``target``; returns what was done."""
    raw = original.read_bytes()
    how = source.randrange(4)
    if how == 0:
        length = source.randrange(len(raw))
        target.write_bytes(raw[:length])
        return f"truncated to {length} bytes"
    if how == 1:
        spoiled = bytearray(raw)
        places = [source.randrange(len(spoiled)) for _ in range(source.randrange(1, 8))]
        for place in places:
            spoiled[place] = source.randrange(256)
        target.write_bytes(bytes(spoiled))
        return f"bytes {places} overwritten"
    if original.suffix == ".json":
        spoiled_data = _spoil_json(json.loads(raw), source)
        target.write_text(json.dumps(spoiled_data))
        return f"content {spoiled_data!r:.300}"
    return _spoil_arrays(original, target, source)


@pytest.fixture(scope="module")
def originals(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return _originals(tmp_path_factory.mktemp("originals"))


def _check_spoiled(originals: dict, folder: Path, source: random.Random) -> None:
    kind = source.choice(sorted(originals))
    original, load = originals[kind]
    target = folder / f"spoiled{original.suffix}"
    if target.is_dir() and not target.is_symlink():
        target.rmdir()
    target.unlink(missing_ok=True)
    if source.random() < 0.25:
        hostile = _hostile_file(original, target, source)
        started = time.monotonic()
        _refused(lambda: load(target), (kind, hostile))
        assert time.monotonic() - started < 5.0, (kind, hostile)
        return
    damage = _spoil_file(original, target, source)
    _clean(lambda: load(target), (kind, damage))


def test_the_original_files_read_back(originals):
    for original, load in originals.values():
        load(original)


@_FUZZ
@given(source=st.randoms(use_true_random=False))
def test_damaged_saves_are_refused_cleanly(originals, tmp_path, source):
    _check_spoiled(originals, tmp_path, source)


@pytest.mark.slow
def test_damaged_saves_soak(originals, tmp_path):
    _soak(0x5A7E, lambda source: _check_spoiled(originals, tmp_path, source), "damaged saves")


# -- saves onto a full disk --------------------------------------------------------------------


def _save(kind: str, loaded: Any, path: Path) -> None:
    if kind == "tournament checkpoint":
        _checkpoint(path).save(loaded)
    else:
        loaded.save(path)


def _check_full_disk(originals: dict, disk: Path, source: random.Random) -> bool:
    """Saves a file of a random kind onto ``disk`` filled but for a random few KiB, over a
    previous file: it is saved whole, or ``WriteError`` leaves the previous bytes (and
    True is returned)."""
    for leftover in disk.iterdir():
        leftover.unlink()
    kind = source.choice(sorted(originals))
    original, load = originals[kind]
    target = disk / f"saved{original.suffix}"
    previous = b"the previous file " + source.randbytes(source.randrange(4096))
    target.write_bytes(previous)
    free = source.randrange(16384)
    hostile_files.fill(disk, keep=free)
    loaded = load(original)
    failure = None
    try:
        with _bounded():
            _save(kind, loaded, target)
    except WriteError as error:
        failure = str(error)
    if failure is None:
        load(target)
    else:
        assert failure.startswith(f"{target}: cannot write it: "), (kind, free, failure)
        assert target.read_bytes() == previous, (kind, free)
    assert sorted(path.name for path in disk.iterdir()) == ["filler", target.name], (kind, free)
    return failure is not None


@_FUZZ
@given(source=st.randoms(use_true_random=False))
def test_saves_onto_a_full_disk_keep_the_previous_file(originals, small_disk, source):
    _check_full_disk(originals, small_disk, source)


@pytest.mark.slow
def test_full_disk_soak(originals, small_disk):
    refusals = _soak(
        0xD15C, lambda source: _check_full_disk(originals, small_disk, source), "saves"
    )
    print(f"{sum(refusals)} refused for want of space")
    assert 0 < sum(refusals) < len(refusals)


def test_a_damaged_zip_member_is_refused_cleanly(originals, tmp_path):
    # A whole archive whose compressed member is garbled: zlib's own error must not escape.
    original, load = originals["conquest game"]
    with zipfile.ZipFile(original) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    target = tmp_path / "garbled.npz"
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    raw = bytearray(target.read_bytes())
    middle = len(raw) // 2
    raw[middle : middle + 16] = bytes(16)
    target.write_bytes(bytes(raw))
    _clean(lambda: load(target), "garbled member")


# -- command lines ---------------------------------------------------------------------------

_DIPLOMACY_POSITION = "AUS: A VIE / BUD TRI VIE"
# Each command with what keeps a valid run short; the fuzzed options follow and override.
_COMMANDS: dict[tuple[str, ...], list[str]] = {
    ("info",): [],
    ("rng", "blocks"): ["--count", "3"],
    ("rng", "binomial"): ["--n", "10", "--count", "3"],
    ("annexation", "play"): ["--board", "hex:3", "--players", "random,random"],
    ("annexation", "match"): ["random", "greedy", "--games", "2", "--board", "hex:3"],
    ("annexation", "tournament"): ["random", "greedy", "--games", "2", "--board", "hex:3"],
    ("annexation", "playouts"): ["--board", "hex:3", "--n", "5"],
    ("annexation", "render"): ["--board", "hex:3", "--png", "{out}/board.png"],
    ("conquest", "play"): ["--board", "grid:4x4", "--turns", "3"],
    ("conquest", "odds"): ["3", "2"],
    ("conquest", "tournament"): ["--board", "grid:4x4", "--games", "2", "--turns", "3"],
    ("outpost", "play"): ["--turns", "5"],
    ("outpost", "tournament"): ["--turns", "5", "--maps", "lakes", "--repeats", "1"],
    ("mastermind", "play"): ["--spots", "3", "--colours", "3"],
    ("mastermind", "evaluate"): ["--spots", "3", "--colours", "3"],
    ("mastermind", "count"): ["--spots", "3", "--colours", "3", "--guess", "012:1,0"],
    ("diplomacy", "count"): [_DIPLOMACY_POSITION],
    ("diplomacy", "play"): [_DIPLOMACY_POSITION, "--max-evaluations", "5"],
    ("diplomacy", "show"): [_DIPLOMACY_POSITION, "--png", "{out}/position.png"],
}
# Values cheap when valid (counts up to 3) or invalid in every way a user can be.
_VALUES = ["0", "1", "2", "3", "-1", str(2**64), str(10**30), "nan", "inf", "1.5", "abc", ""]
_VALUES += ["grid:3x3", "hex:3", "ring:5", "grid:0x3", "bogus:9", "random", "greedy,random"]
_VALUES += ["0123", "012:1,0", "lakes", "{out}/out.png", "{out}/out.npz", "{out}/out.csv"]
_VALUES += ["/nonexistent/folder/out.png", "{out}/missing.npz", "{out}/out.json", "7:12:3:5"]
# Hostile inputs (remade in {out}/hostile before every command line) and a device.
_VALUES += ["{out}/hostile/deep.json", "{out}/hostile/number.json", "{out}/hostile/lying.npz"]
_VALUES += ["{out}/hostile/pipe", "@{out}/hostile/pipe", "@{out}/hostile/deep.json", "@/dev/zero"]


def _hostile_inputs(folder: Path) -> None:
    """Remakes the hostile files the fuzzed values name (a command may have replaced one)."""
    if folder.exists():
        for leftover in folder.iterdir():
            leftover.rmdir() if leftover.is_dir() else leftover.unlink()
    folder.mkdir(exist_ok=True)
    (folder / "deep.json").write_bytes(hostile_files.deep_json())
    (folder / "number.json").write_bytes(hostile_files.long_number_json())
    (folder / "lying.npz").write_bytes(hostile_files.lying_npz("format"))
    hostile_files.fifo(folder)


# Options that turn a command into a conversation on standard input, answered in JSON lines:
# another contract than one JSON report (tests/test_mastermind_human.py drives it).
_CONVERSATION = {("mastermind", "play"): {"--human", "--load"}}


def _options(command: tuple[str, ...]) -> list[argparse.Action]:
    parser = build_parser()
    for word in command:
        (choices,) = (
            action.choices
            for action in parser._actions
            if isinstance(action, argparse._SubParsersAction)
        )
        parser = choices[word]
    return [
        action
        for action in parser._actions
        if action.option_strings and action.help != argparse.SUPPRESS
        if not {"--help", "--json", *_CONVERSATION.get(command, ())} & set(action.option_strings)
    ]


_OPTIONS = {command: _options(command) for command in _COMMANDS}


def _command_line(source: random.Random, out: Path) -> list[str]:
    command = source.choice(sorted(_COMMANDS))
    argv = [*command, *_COMMANDS[command]]
    for action in source.sample(_OPTIONS[command], min(len(_OPTIONS[command]), 3))[
        : source.randrange(4)
    ]:
        argv.append(action.option_strings[0])
        if action.nargs != 0:
            argv.append(source.choice(_VALUES))
    return [word.replace("{out}", str(out)) for word in argv] + ["--json"]


def _check_command_line(argv: list[str], out: Path) -> None:
    _hostile_inputs(out / "hostile")
    stdout = io.StringIO()
    try:
        with (
            _bounded(),
            contextlib.redirect_stdout(stdout),
            contextlib.redirect_stderr(io.StringIO()),
        ):
            status: object = main(argv)
    except SystemExit as exit:  # the argument parser's way out
        status = exit.code
    except Exception as error:
        raise AssertionError(f"{argv}: {type(error).__name__}: {error}") from error
    assert status in (0, 2), (argv, status)
    lines = stdout.getvalue().splitlines()
    assert len(lines) == 1, (argv, lines)
    report = json.loads(lines[0])
    assert isinstance(report, dict)
    assert ("error" in report) == (status == 2), (argv, report)
    assert not list(out.glob("**/*.partial")), argv


@pytest.fixture
def in_tmp_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test's folder, also the working directory: a fuzzed value taken for a file name
    is written there."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@_FUZZ
@given(source=st.randoms(use_true_random=False))
def test_command_lines_run_or_fail_cleanly(in_tmp_path, source):
    _check_command_line(_command_line(source, in_tmp_path), in_tmp_path)


@pytest.mark.slow
def test_command_lines_soak(in_tmp_path):
    def check(source: random.Random) -> None:
        _check_command_line(_command_line(source, in_tmp_path), in_tmp_path)

    _soak(0xC11, check, "command lines")
