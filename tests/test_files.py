"""The one reader and the one writer (stratagem._files): hostile files are refused at once
naming the file, and a write that fails (a full disk) leaves the previous file as it was."""

from __future__ import annotations

import errno
import json
import os
import resource
import stat
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pytest

import hostile_files
from stratagem import _files
from stratagem.annexation import Board as AnnexationBoard
from stratagem.annexation import Game as AnnexationGame
from stratagem.conquest import Board as ConquestBoard
from stratagem.conquest import Game as ConquestGame
from stratagem.conquest.boards.board_files import map_csr
from stratagem.diplomacy.search import CombinedSearch
from stratagem.errors import InvalidBoard, InvalidParameter, StratagemError, WriteError
from stratagem.mastermind.human import HumanGame
from stratagem.outpost import Game as OutpostGame
from stratagem.protocol import load as load_any_game

# Every JSON loader, by what it loads.
JSON_LOADERS: dict[str, Callable[[Path], Any]] = {
    "annexation save": AnnexationGame.load,
    "outpost save": OutpostGame.load,
    "mastermind save": HumanGame.load,
    "diplomacy search": CombinedSearch.load,
    "any protocol save": load_any_game,
}
HOSTILE_JSON = {
    "nested 200,000 deep": (hostile_files.deep_json(), "nested 200000 deep"),
    "a number of 5000 digits": (hostile_files.long_number_json(), "a number of 5000 digits"),
    "not UTF-8": (b"\xff\xfe{", "not UTF-8 text"),
    "not JSON": (b"{'format': 1}", "not JSON"),
}


def refused_at_once(load: Callable[[], Any], error: type[Exception] = StratagemError) -> str:
    """The message of the error ``load()`` raises, checked to come within a second."""
    start = time.monotonic()
    with pytest.raises(error) as caught:
        load()
    assert time.monotonic() - start < 1.0
    return str(caught.value)


@pytest.mark.parametrize("kind", list(HOSTILE_JSON))
@pytest.mark.parametrize("loader", list(JSON_LOADERS))
def test_hostile_json_is_refused_naming_the_file(tmp_path: Path, loader: str, kind: str) -> None:
    content, reason = HOSTILE_JSON[kind]
    path = tmp_path / "hostile.json"
    path.write_bytes(content)
    message = refused_at_once(lambda: JSON_LOADERS[loader](path))
    assert str(path) in message
    assert reason in message


@pytest.fixture
def pipe(tmp_path: Path) -> Path:
    if not hasattr(os, "mkfifo"):
        pytest.skip("this system has no FIFOs")
    return hostile_files.fifo(tmp_path)


@pytest.mark.parametrize("loader", list(JSON_LOADERS))
def test_what_is_not_a_regular_file_is_refused_unread(
    tmp_path: Path, pipe: Path, loader: str
) -> None:
    for path, kind in ((pipe, "a pipe (FIFO)"), (tmp_path, "a folder")):
        message = refused_at_once(lambda path=path: JSON_LOADERS[loader](path))  # type: ignore[misc]
        assert str(path) in message
        assert f"it is {kind}, not a regular file" in message or "no such file" in message
    if Path("/dev/zero").exists():
        message = refused_at_once(lambda: JSON_LOADERS[loader](Path("/dev/zero")))
        assert "/dev/zero" in message


def test_every_text_and_archive_reader_refuses_a_fifo(pipe: Path) -> None:
    readers: list[Callable[[], Any]] = [
        lambda: _files.read_text(pipe, _files.cannot_read(pipe, "a map", InvalidBoard)),
        lambda: ConquestBoard.load(pipe),
        lambda: ConquestGame.load(pipe),
        lambda: AnnexationBoard.load(pipe),
    ]
    for read in readers:
        assert "it is a pipe (FIFO), not a regular file" in refused_at_once(read)


def test_a_file_over_its_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes(b"x" * 1001)
    refuse = _files.cannot_read(path, "a text", InvalidParameter)
    assert _files.read_text(path, refuse, limit=1001) == "x" * 1001
    message = refused_at_once(lambda: _files.read_text(path, refuse, limit=1000))
    limit = "it holds 1001 bytes, more than the 1000 this kind of file may"
    assert message == f"{path}: cannot read a text: {limit}"


def test_json_within_the_bounds_reads_as_before() -> None:
    def refuse(reason: str) -> StratagemError:
        return InvalidParameter(reason)

    nested = "[" * _files.MAX_JSON_DEPTH + "]" * _files.MAX_JSON_DEPTH
    assert _files.parse_json(nested, refuse) == json.loads(nested)
    # Brackets and digits inside strings are text, not nesting or numbers.
    text = '{"a": "[[[[' + "[" * 1000 + '", "b\\"[": ' + "9" * _files.MAX_JSON_DIGITS + "}"
    assert _files.parse_json(text, refuse)['b"['] == int("9" * _files.MAX_JSON_DIGITS)
    too_deep = "[" * (_files.MAX_JSON_DEPTH + 1) + "]" * (_files.MAX_JSON_DEPTH + 1)
    with pytest.raises(InvalidParameter, match="nested 65 deep"):
        _files.parse_json(too_deep, refuse)


def conquest_save(tmp_path: Path) -> Path:
    path = tmp_path / "good.npz"
    game = ConquestGame.from_spec("grid:4x4", 2, 3, ["random", "aggressive"], seed=3)
    game.run(3)
    game.save(path)
    return path


def test_a_member_whose_header_lies_is_refused_before_allocation(tmp_path: Path) -> None:
    lying = tmp_path / "lying.npz"
    for member, load in (
        ("format", ConquestGame.load),
        ("indptr", ConquestBoard.load),
        ("offsets", AnnexationBoard.load),
    ):
        lying.write_bytes(hostile_files.lying_npz(member))
        assert lying.stat().st_size < 1024
        message = refused_at_once(lambda load=load: load(lying))  # type: ignore[misc]
        assert str(lying) in message
        assert f"the array {member!r}" in message


def test_a_zip_bomb_is_refused_unread(tmp_path: Path) -> None:
    good = conquest_save(tmp_path)
    bomb = tmp_path / "bomb.npz"
    bomb.write_bytes(hostile_files.zip_bomb(good))
    assert bomb.stat().st_size < 5 << 20
    with zipfile.ZipFile(bomb) as archive:
        assert archive.getinfo("bomb.npy").file_size > 3 << 30
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    message = refused_at_once(lambda: ConquestGame.load(bomb), InvalidBoard)
    assert "it holds the member 'bomb.npy', not one of its" in message
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kib < 100 * 1024
    ConquestGame.load(good)


# The loaders of the formats that read .npz archives, by name (for a fresh interpreter too).
NPZ_LOADERS: dict[str, Callable[[Path], Any]] = {
    "ConquestGame": ConquestGame.load,
    "ConquestBoard": ConquestBoard.load,
    "AnnexationBoard": AnnexationBoard.load,
}
NPZ_KINDS = ["conquest save", "conquest history", "conquest board", "annexation board"]


class NpzFile(NamedTuple):
    """A good file of a format that reads .npz archives: its loader's name, how the refusal
    names the format, one member the format's counts size and that member's shape."""

    path: Path
    loader: str
    what: str
    member: str
    shape: tuple[int, ...]


@pytest.fixture(params=NPZ_KINDS)
def good(tmp_path: Path, request: pytest.FixtureRequest) -> NpzFile:
    """A good file of each format that reads .npz archives."""
    kind, path = request.param, tmp_path / "board.npz"
    if kind.startswith("conquest") and kind != "conquest board":
        path, loader, what = conquest_save(tmp_path), "ConquestGame", "a saved conquest game"
        member = "team" if kind == "conquest save" else "history_troops"
    elif kind == "conquest board":
        ConquestBoard.from_spec("risk").save(path)  # its meta names the 42 territories
        loader, what, member = "ConquestBoard", "a valid board file", "indptr"
    else:
        AnnexationBoard.hexagon(2).save(path)
        loader, what, member = "AnnexationBoard", "a valid annexation board file", "colours"
    with np.load(path) as arrays:
        shape = arrays[member].shape
    return NpzFile(path, loader, what, member, shape)


def test_a_member_bigger_than_the_formats_counts_is_refused_unread(
    tmp_path: Path, good: NpzFile
) -> None:
    grown = tmp_path / "grown.npz"
    grown.write_bytes(hostile_files.grown_npz(good.path, good.member, extra=5))
    claimed = (good.shape[0] + 5, *good.shape[1:])
    message = refused_at_once(lambda: NPZ_LOADERS[good.loader](grown))
    assert message == (
        f"{grown}: not {good.what}: the array {good.member!r} claims the shape {claimed}; the "
        f"file's counts give {good.shape}"
    )
    NPZ_LOADERS[good.loader](good.path)


def test_a_mapped_member_bigger_than_the_counts_is_refused_unmapped(tmp_path: Path) -> None:
    arrays = ConquestBoard.from_spec("grid:3x3").to_arrays()
    arrays["indices"] = np.concatenate([arrays["indices"], np.zeros(4, dtype=np.int64)])
    path = tmp_path / "board.npz"
    _files.write_arrays(path, arrays, stored=True)
    message = refused_at_once(lambda: map_csr(path), InvalidBoard)
    assert message == (
        f"{path}: cannot be read by slices: the array 'indices' claims the shape (28,); the "
        "file's counts give (24,)"
    )


# Loads a file in a fresh interpreter: the error and the process's peak memory, as JSON.
_LOAD_MEASURED = """
import json, resource, sys
from stratagem.annexation import Board as AnnexationBoard
from stratagem.conquest import Board as ConquestBoard, Game as ConquestGame
load = {"ConquestGame": ConquestGame.load, "ConquestBoard": ConquestBoard.load,
        "AnnexationBoard": AnnexationBoard.load}[sys.argv[1]]
try:
    load(sys.argv[2])
    error = None
except Exception as failure:
    error = {"type": type(failure).__name__, "message": str(failure)}
print(json.dumps({"error": error, "peak_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def load_measured(loader: str, path: Path) -> tuple[dict[str, Any], float]:
    """What loading ``path`` with ``loader`` in a fresh interpreter gives (its error and its
    peak memory in KiB) and the seconds it took."""
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-c", _LOAD_MEASURED, loader, str(path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(result.stdout), time.monotonic() - started


def test_a_bomb_in_a_member_the_format_reads_is_refused_before_it_is_inflated(
    tmp_path: Path, good: NpzFile
) -> None:
    bomb = tmp_path / "bomb.npz"
    bomb.write_bytes(hostile_files.zip_bomb(good.path, chunks=60, member=good.member))
    assert bomb.stat().st_size < 5 << 20
    with zipfile.ZipFile(bomb) as archive:
        assert archive.getinfo(f"{good.member}.npy").file_size > 3 << 30
    baseline, _ = load_measured(good.loader, good.path)
    assert baseline["error"] is None
    refused, seconds = load_measured(good.loader, bomb)
    assert refused["error"]["message"] == (
        f"{bomb}: not {good.what}: the array {good.member!r} claims the shape ({60 << 26},); "
        f"the file's counts give {good.shape}"
    )
    assert seconds < 5.0
    # The bomb costs what the good file does, give or take 32 MiB (3.75 GiB were it inflated).
    assert refused["peak_kib"] < baseline["peak_kib"] + 32 * 1024


def test_a_member_claiming_more_than_deflate_gives_is_refused(tmp_path: Path) -> None:
    good = conquest_save(tmp_path)
    with zipfile.ZipFile(good) as archive:
        members = {info.filename: archive.read(info) for info in archive.infolist()}
    # The turn's header claims 10^8 int64 after a few compressed bytes.
    members["turn.npy"] = hostile_files.npy_header((10**8,)) + bytes(8)
    with zipfile.ZipFile(good, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    message = refused_at_once(lambda: ConquestGame.load(good), InvalidBoard)
    assert "the array 'turn' claims 800000000 bytes of data" in message


# -- writing -----------------------------------------------------------------------------


def writers(tmp_path: Path) -> dict[str, tuple[Path, Callable[[Path], None]]]:
    """Every kind of file, and a function writing one to a path."""
    annexation = AnnexationGame(AnnexationBoard.hexagon(2), seed=1)
    conquest = ConquestGame.from_spec("grid:4x4", 2, 3, ["random", "aggressive"], seed=3)
    return {
        "json": (tmp_path / "game.json", annexation.save),
        "npz": (tmp_path / "game.npz", conquest.save),
        "text": (tmp_path / "notes.txt", lambda path: _files.write_text(path, "new text\n")),
    }


@pytest.mark.parametrize("failing", ["write", "fsync", "replace"])
@pytest.mark.parametrize("kind", ["json", "npz", "text"])
def test_a_failed_write_leaves_the_previous_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, failing: str
) -> None:
    path, write = writers(tmp_path)[kind]
    path.write_bytes(b"the previous file")

    def full_disk(*args: Any) -> Any:
        raise OSError(errno.ENOSPC, "No space left on device")

    if failing == "write":  # every write to a new file fails as on a full disk
        real_open = open

        def opening(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
            if "w" in mode:
                raise OSError(errno.ENOSPC, "No space left on device")
            return real_open(file, mode, *args, **kwargs)

        monkeypatch.setattr("builtins.open", opening)
    else:
        monkeypatch.setattr(os, failing, full_disk)
    with pytest.raises(WriteError) as caught:
        write(path)
    monkeypatch.undo()
    assert str(caught.value) == f"{path}: cannot write it: No space left on device"
    assert caught.value.errno == errno.ENOSPC
    assert path.read_bytes() == b"the previous file"
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


def test_a_written_file_is_flushed_and_its_folder_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int] = []
    real_fsync = os.fsync

    def fsync(descriptor: int) -> None:
        synced.append(os.fstat(descriptor).st_mode)
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", fsync)
    _files.write_text(tmp_path / "a.txt", "text")
    assert (tmp_path / "a.txt").read_text() == "text"

    assert [stat.S_ISREG(mode) for mode in synced] == [True, False]
    assert stat.S_ISDIR(synced[1])


def test_a_full_disk_leaves_the_previous_save_byte_for_byte(small_disk: Path) -> None:
    path = small_disk / "game.npz"
    game = ConquestGame.from_spec("grid:4x4", 2, 3, ["random", "aggressive"], seed=3)
    game.save(path)
    previous = path.read_bytes()
    hostile_files.fill(small_disk)
    game.run(2)
    with pytest.raises(WriteError, match=f"{path}: cannot write it: No space left on device"):
        game.save(path)
    assert path.read_bytes() == previous
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "game.npz"]


def test_a_full_disk_under_json_gives_one_json_error(small_disk: Path) -> None:
    picture = small_disk / "board.png"
    picture.write_bytes(b"the previous picture")
    hostile_files.fill(small_disk)
    command = [sys.executable, "-m", "stratagem", "annexation", "render", "--board", "hex:8"]
    finished = subprocess.run(
        [*command, "--png", str(picture), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert finished.returncode == 2, finished.stderr
    assert "Traceback" not in finished.stderr
    error = json.loads(finished.stdout)["error"]
    assert error["type"] == "WriteError"
    assert error["message"] == f"{picture}: cannot write it: No space left on device"
    assert picture.read_bytes() == b"the previous picture"
    assert sorted(p.name for p in small_disk.iterdir()) == ["board.png", "filler"]


def test_arrays_round_trip_through_the_reader(tmp_path: Path) -> None:
    path = tmp_path / "arrays.npz"
    arrays = {"a": np.arange(10), "b": np.array("text"), "c": np.zeros((3, 0))}
    _files.write_arrays(path, arrays)
    members = {
        "a": _files.Member("iu", (10,)),
        "b": _files.Member.text(),
        "c": _files.Member("f", (3, None)),
        "d": _files.Member("iu", ()),
    }
    read = _files.read_arrays(path, "arrays", InvalidParameter, members)
    assert sorted(read) == ["a", "b", "c"]
    for key, value in arrays.items():
        assert np.array_equal(read[key], value)
        assert read[key].shape == value.shape


def test_a_device_or_a_pipe_is_never_replaced(tmp_path: Path, pipe: Path) -> None:
    for target in (Path(os.devnull), pipe):
        with pytest.raises(InvalidParameter, match="not a regular file"):
            _files.write_text(target, "text")
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]
