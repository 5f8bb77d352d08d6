"""Board files read by slices (``stratagem.conquest.boards.board_files``): ``Board.save`` stores the
CSR uncompressed and aligned, ``map_csr`` maps it, and ``file_share`` gives each rank the share
``part_share`` cuts from the whole board while reading only its own rows and its ghosts' (and
checking them); files saved before (compressed) still load whole; ``Board.from_spec`` and the
command line take a board file's path."""

from __future__ import annotations

import io
import json
import re
import tracemalloc
import zipfile

import numpy as np
import pytest

from cli_helpers import Command
from stratagem import _core
from stratagem._files import write_arrays
from stratagem.conquest import board_files
from stratagem.conquest.board import Board
from stratagem.errors import InvalidBoard, InvalidParameter
from stratagem.mpi import block_partition

cli = Command("conquest")

BOARDS = {
    "grid": lambda: Board.grid(6, 7),
    "torus": lambda: Board.grid(5, 5, torus=True),
    "rgg": lambda: Board.random_geometric(300, mean_degree=6.0, seed=3),
    "er": lambda: Board.erdos_renyi(80, 0.02, seed=1),
    "risk": Board.risk_world,
    "one": lambda: Board.from_edges([], 1),
}

COMPRESSED = "is compressed; read the board whole with Board.load, or save it again with Board.save"


def whole_share(board: Board, offsets: np.ndarray, rank: int) -> dict[str, np.ndarray]:
    owner = np.repeat(np.arange(len(offsets) - 1, dtype=np.int64), np.diff(offsets))
    return _core.conquest.part_share(board.indptr, board.indices, owner, rank)


def assert_same_share(got: dict[str, np.ndarray], expected: dict[str, np.ndarray]) -> None:
    assert got.keys() == expected.keys()
    for name, array in expected.items():
        assert got[name].dtype == array.dtype, name
        np.testing.assert_array_equal(got[name], array, err_msg=name)


def stored(path, arrays) -> None:
    """A crafted board file, written as ``Board.save`` writes one (stored and aligned)."""
    write_arrays(path, arrays, stored=True)


@pytest.mark.parametrize("name", list(BOARDS))
def test_file_shares_are_the_whole_boards_shares(name, tmp_path):
    board = BOARDS[name]()
    if name == "er":
        assert (board.degree() == 0).any(), "the er board must have isolated territories"
    path = tmp_path / f"{name}.npz"
    board.save(path)
    mapped = board_files.map_csr(path)
    assert (mapped.path, mapped.kind, mapped.names) == (str(path), board.kind, board.names)
    assert (mapped.n, mapped.n_borders) == (board.n, board.n_borders)
    for array in (mapped.indptr, mapped.indices):
        assert array.dtype == np.dtype("<i8")
        assert not array.flags.writeable
    if board.n_borders:
        assert isinstance(mapped.indices, np.memmap)
        # Every member's data on a multiple of 64 bytes of the file.
        assert mapped.indptr.offset % 64 == 0
        assert mapped.indices.offset % 64 == 0
    np.testing.assert_array_equal(mapped.indptr, board.indptr)
    np.testing.assert_array_equal(mapped.indices, board.indices)
    loaded = Board.load(path)
    assert loaded == board
    assert loaded.kind == board.kind
    for size in range(1, 6):
        offsets = block_partition(board.n, size)
        for rank in range(size):
            share, opened = board_files.file_share(path, offsets, rank)
            assert opened.n == board.n
            assert_same_share(share, whole_share(board, offsets, rank))


def test_save_writes_stored_members_and_the_same_bytes_for_the_same_board(tmp_path):
    board = Board.risk_world()
    board.save(tmp_path / "a.npz")
    board.save(tmp_path / "b.npz")
    assert (tmp_path / "a.npz").read_bytes() == (tmp_path / "b.npz").read_bytes()
    with zipfile.ZipFile(tmp_path / "a.npz") as archive:
        members = {info.filename: info.compress_type for info in archive.infolist()}
    assert members == dict.fromkeys(
        ["meta.npy", "indptr.npy", "indices.npy", "positions.npy"], zipfile.ZIP_STORED
    )
    # numpy reads it as any .npz.
    with np.load(tmp_path / "a.npz") as data:
        np.testing.assert_array_equal(data["positions"], board.positions)


def test_files_saved_before_load_whole_and_are_refused_by_slices(tmp_path):
    board = Board.grid(4, 5)
    old = tmp_path / "old.npz"
    np.savez_compressed(old, **board.to_arrays())  # what Board.save wrote before
    assert Board.load(old) == board
    assert Board.from_spec(str(old)) == board
    for read in (board_files.map_csr, lambda path: board_files.file_share(path, [0, 20], 0)):
        with pytest.raises(InvalidBoard, match=re.escape(f"{old}: cannot be read by slices")):
            read(old)
        with pytest.raises(InvalidBoard, match=re.escape(f"the array 'indptr' {COMPRESSED}")):
            read(old)
    # np.savez stores its members, but not aligned.
    plain = tmp_path / "plain.npz"
    np.savez(plain, **board.to_arrays())
    assert Board.load(plain) == board
    with pytest.raises(InvalidBoard, match="'indptr' is not aligned for its dtype"):
        board_files.map_csr(plain)


def test_malformed_files_are_refused_naming_the_file(tmp_path):
    arrays = Board.ring(20).to_arrays()
    cases = {
        "no indices": ({k: v for k, v in arrays.items() if k != "indices"}, "'indices' is missing"),
        "no meta": ({k: v for k, v in arrays.items() if k != "meta"}, "'meta' is missing"),
        "other format": (
            {**arrays, "meta": np.array('{"format": "else"}')},
            "not the arrays of a stratagem board",
        ),
        "version 2": (
            {
                **arrays,
                "meta": np.array(json.dumps({"format": board_files.FILE_FORMAT, "version": 2})),
            },
            "unknown board format version 2",
        ),
        "int32": (
            {**arrays, "indices": arrays["indices"].astype(np.int32)},
            "the array 'indices' claims the dtype <i4; expected integers of 8 bytes",
        ),
        "big-endian": ({**arrays, "indptr": arrays["indptr"].astype(">i8")}, "'indptr' is >i8"),
        "2-D": (
            {**arrays, "indices": arrays["indices"].reshape(20, 2)},
            "'indices' claims the shape (20, 2); the file's counts give (40,)",
        ),
        "Fortran": (
            {**arrays, "indices": np.asfortranarray(arrays["indices"].reshape(2, 20))},
            "'indices' is stored in Fortran order",
        ),
        "odd": (
            {**arrays, "indices": arrays["indices"][:-1]},
            "'indices' claims the shape (39,); the file's counts give (40,)",
        ),
        "no territory": (
            {**arrays, "indptr": np.zeros(1, np.int64)},
            "'indptr' claims the shape (1,); the file's counts give (2..4294967296,)",
        ),
    }
    for case, (members, message) in cases.items():
        path = tmp_path / f"{case}.npz"
        stored(path, members)
        with pytest.raises(InvalidBoard, match=re.escape(f"{path}: ")) as error:
            board_files.file_share(path, [0, 10, 20], 0)
        assert message in str(error.value), case
    text = tmp_path / "text.npz"
    text.write_text("hello")
    with pytest.raises(InvalidBoard, match=re.escape(f"{text}: not a valid board file (not an")):
        board_files.map_csr(text)
    with pytest.raises(InvalidBoard, match=r"absent\.npz: cannot read a valid board file: No such"):
        board_files.map_csr(tmp_path / "absent.npz")


def test_truncated_files_are_refused(tmp_path):
    whole = tmp_path / "whole.npz"
    Board.grid(10, 10).save(whole)
    cut = tmp_path / "cut.npz"
    cut.write_bytes(whole.read_bytes()[:-40])
    with pytest.raises(InvalidBoard, match=re.escape(f"{cut}: not a valid board file (a damaged")):
        board_files.map_csr(cut)
    # A member whose .npy header promises more than it holds.
    arrays = Board.grid(10, 10).to_arrays()
    short = tmp_path / "short.npz"
    with zipfile.ZipFile(short, "w") as archive:
        for name in ("meta", "indptr", "indices"):
            member = io.BytesIO()
            np.lib.format.write_array(member, arrays[name])
            # indptr's header says 101 entries, 10 of them are missing.
            cut_off = 80 if name == "indptr" else 0
            archive.writestr(f"{name}.npy", member.getvalue()[: len(member.getvalue()) - cut_off])
    with pytest.raises(InvalidBoard, match=r"'indptr' is truncated \(808 bytes of data, 728 in"):
        board_files.map_csr(short)


@pytest.mark.parametrize("garble", [b"\x8e", b")", b"'"])
def test_a_garbled_array_header_is_refused(garble, tmp_path):
    """numpy parses a .npy header as a Python literal: a damaged one raises SyntaxError or
    tokenize's TokenError inside numpy, which the board's readers turn into InvalidBoard."""
    path = tmp_path / "board.npz"
    Board.grid(5, 5).save(path)
    data = bytearray(path.read_bytes())
    shape = data.index(b"'shape': (", data.index(b"indices.npy")) + len(b"'shape': ")
    data[shape : shape + 1] = garble
    path.write_bytes(bytes(data))
    for read in (board_files.map_csr, Board.load):
        with pytest.raises(InvalidBoard, match=re.escape(f"{path}: not a valid board file")):
            read(path)


def ring_with_row(x: int, row: list[int]) -> dict[str, np.ndarray]:
    """ring:20's arrays with territory ``x``'s row replaced (same length)."""
    arrays = Board.ring(20).to_arrays()
    indices = arrays["indices"].copy()
    start = arrays["indptr"][x]
    indices[start : start + len(row)] = row
    return {**arrays, "indices": indices}


@pytest.mark.parametrize(
    ("x", "row", "message"),
    [
        # 12 -> 14 without 14 -> 12, and 13 -> 12 without 12 -> 13: rank 2 of 4 reads both.
        (12, [11, 14], "has no reverse"),
        (7, [8, 6], "the row of territory 7 is not strictly ascending"),
        (7, [6, 7], "territory 7 borders itself"),
        (7, [6, 20], "a neighbour id 20 is outside 0..20"),
    ],
)
def test_a_bad_row_is_refused_by_the_rank_that_reads_it(x, row, message, tmp_path):
    path = tmp_path / "bad.npz"
    stored(path, ring_with_row(x, row))
    offsets = block_partition(20, 4)
    bad = int(np.searchsorted(offsets, x, side="right")) - 1
    for rank in range(4):
        if rank == bad:
            with pytest.raises(InvalidBoard, match=re.escape(f"{path}: ")) as error:
                board_files.file_share(path, offsets, rank)
            assert message in str(error.value)
        else:
            board_files.file_share(path, offsets, rank)
    with pytest.raises(InvalidBoard, match=re.escape(f"{path}: not a valid board file")):
        Board.load(path)


def test_file_share_reads_only_the_rows_of_the_block_and_its_ghosts(tmp_path):
    """ring:20 on two ranks: rank 0 owns 0..9 and reads rows 0..10 and 19; rows 11..18 and
    their offsets are garbage in the file, and rank 0 still gets its share."""
    arrays = Board.ring(20).to_arrays()
    indptr, indices = arrays["indptr"].copy(), arrays["indices"].copy()
    indptr[12:19] = -(10**12)
    indices[indptr[11] : indptr[19]] = 10**15
    path = tmp_path / "garbage.npz"
    stored(path, {**arrays, "indptr": indptr, "indices": indices})
    offsets = block_partition(20, 2)
    share, _ = board_files.file_share(path, offsets, 0)
    assert_same_share(share, whole_share(Board.ring(20), offsets, 0))
    with pytest.raises(InvalidBoard, match=re.escape(f"{path}: not a valid board file")):
        board_files.file_share(path, offsets, 1)


def test_a_board_files_path_is_a_spec(capsys, tmp_path):
    board = Board.grid(12, 12)
    path = tmp_path / "grid.npz"
    board.save(path)
    from_file = Board.from_spec(str(path))
    assert from_file == board
    assert from_file.kind == str(path)
    assert Board.from_spec(from_file.kind) == board
    game = ["play", "--teams", "3", "--seed", "7", "--turns", "5"]
    report = cli.run_json(capsys, *game, "--board", str(path))
    assert report["board"] == str(path)
    generated = cli.run_json(capsys, *game, "--board", "grid:12x12")
    assert report["final"] == generated["final"]
    (tmp_path / "folder.npz").mkdir()
    for unreadable, reason in (
        ("absent.npz", "No such file"),
        ("folder.npz", "it is a folder, not a regular file"),
    ):
        spec = str(tmp_path / unreadable)
        with pytest.raises(InvalidBoard, match=re.escape(f"{spec}: cannot read a valid board")):
            Board.from_spec(spec)
        with pytest.raises(InvalidBoard, match=reason):
            Board.from_spec(spec)
    error, _ = cli.failure(capsys, *game, "--board", str(tmp_path / "absent.npz"))
    assert error["type"] == "InvalidBoard"
    assert "absent.npz: cannot read a valid board file" in error["message"]


def test_save_writes_in_chunks_without_copying_the_board(tmp_path):
    board = Board.grid(1500, 1500)
    size = board.indptr.nbytes + board.indices.nbytes  # 90 MB
    tracemalloc.start()
    try:
        board.save(tmp_path / "big.npz")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # numpy writes 16 MiB at a time.
    assert peak < size / 4, (peak, size)


def test_a_partition_that_does_not_fit_the_board_is_a_bad_parameter(tmp_path):
    path = tmp_path / "ring.npz"
    Board.ring(10).save(path)
    for offsets in ([0, 5, 9], [1, 10], [0, 7, 5, 10], [0.0, 10.0], [[0, 10]], [10]):
        with pytest.raises(InvalidParameter, match=re.escape(f"of {path} into blocks")):
            board_files.file_share(path, offsets, 0)
    for rank in (-1, 2):
        with pytest.raises(InvalidParameter, match="rank must be"):
            board_files.file_share(path, [0, 5, 10], rank)
