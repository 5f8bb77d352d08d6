"""Files a hostile user (or a broken machine) hands to stratagem: JSON nested without end or
holding numbers of thousands of digits, ``.npz`` archives whose members lie about their
shape or hold more than the format's counts, zip bombs (in a member of their own or in one
the format reads), and things that are not files at all (FIFOs, devices, folders). Shared by
the tests of the readers and by the fuzz soak."""

from __future__ import annotations

import contextlib
import errno
import functools
import io
import os
import struct
import subprocess
import sys
import zipfile
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path

import numpy as np

# A zip local header, central directory entry and end record (no zip64: members < 4 GiB).
_LOCAL = struct.Struct("<4sHHHHHIIIHH")
_CENTRAL = struct.Struct("<4sHHHHHHIIIHHHHHII")
_END = struct.Struct("<4sHHHHIIH")
_DEFLATED = 8
_DOS_DATE = 0x21  # 1980-01-01
# Zeros are deflated this many at a time; each chunk's compressed block is the same bytes.
_ZERO_CHUNK = 1 << 26


def deep_json(depth: int = 200_000) -> bytes:
    """An array nested ``depth`` deep (valid JSON; Python's parser recurses once a level)."""
    return b"[" * depth + b"]" * depth


def long_number_json(digits: int = 5000) -> bytes:
    """An object whose one value is a number of ``digits`` digits (Python refuses to convert
    one of more than 4300)."""
    return b'{"format": ' + b"7" * digits + b"}"


def npy_header(shape: tuple[int, ...], dtype: str = "<i8") -> bytes:
    """The ``.npy`` header (version 1.0) of an array of ``shape`` and ``dtype``, whatever the
    data after it."""
    buffer = io.BytesIO()
    header = {"descr": dtype, "fortran_order": False, "shape": shape}
    np.lib.format.write_array_header_1_0(buffer, header)
    return buffer.getvalue()


def _zip(members: Mapping[str, tuple[bytes, int, int]]) -> bytes:
    """A zip archive of raw deflated members: name -> (deflated data, size, CRC-32)."""
    out = io.BytesIO()
    central = io.BytesIO()
    for name, (data, size, crc) in members.items():
        encoded = name.encode()
        offset = out.tell()
        out.write(
            _LOCAL.pack(
                b"PK\x03\x04", 20, 0, _DEFLATED, 0, _DOS_DATE, crc, len(data), size, len(encoded), 0
            )
        )
        out.write(encoded + data)
        entry = (b"PK\x01\x02", 20, 20, 0, _DEFLATED, 0, _DOS_DATE, crc, len(data), size)
        central.write(_CENTRAL.pack(*entry, len(encoded), 0, 0, 0, 0, 0, offset) + encoded)
    start = out.tell()
    out.write(central.getvalue())
    count = len(members)
    out.write(_END.pack(b"PK\x05\x06", 0, 0, count, count, len(central.getvalue()), start, 0))
    return out.getvalue()


def _deflated(data: bytes) -> tuple[bytes, int, int]:
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush(), len(data), zlib.crc32(data)


def lying_npz(member: str, shape: tuple[int, ...] = (2**40,)) -> bytes:
    """An ``.npz`` of about 1 KiB whose member ``member`` claims ``shape`` (int64) in its
    header and in the archive's directory, with a few bytes of data."""
    data = npy_header(shape) + bytes(64)
    body, _, crc = _deflated(data)
    claimed = min(int(np.prod(shape, dtype=object)) * 8 + len(data) - 64, 2**32 - 1)
    return _zip({f"{member}.npy": (body, claimed, crc)})


def zip_bomb(good: Path, *, chunks: int = 60, member: str = "bomb") -> bytes:
    """The ``.npz`` archive ``good`` (written by numpy) with its member ``member`` (a new one,
    ``bomb``, unless the archive has it) replaced by a byte array of ``chunks`` x 64 MiB zeros
    (3.75 GiB for 60) deflated to about 4 MiB, with its true CRC. A reader that inflates every
    member, or a member without checking its shape, runs out of memory."""
    members = _members(good)
    members[f"{member}.npy"] = _zeros_member(chunks)
    return _zip(members)


def grown_npz(good: Path, member: str, extra: int = 5) -> bytes:
    """The ``.npz`` archive ``good`` with its member ``member`` given ``extra`` more rows (of
    zeros; a single value becomes ``extra`` + 1 of them), its data all there: a shape bigger
    than the format's counts, the rest of the archive valid."""
    with np.load(good) as arrays:
        array = arrays[member]
    rows = np.zeros((extra, *array.shape[1:]), dtype=array.dtype)
    grown = np.concatenate([array.reshape(-1, *array.shape[1:]), rows])
    members = _members(good)
    members[f"{member}.npy"] = _deflated(_npy(grown))
    return _zip(members)


def _members(good: Path) -> dict[str, tuple[bytes, int, int]]:
    """The members of the archive ``good``, deflated afresh."""
    with zipfile.ZipFile(good) as archive:
        return {info.filename: _deflated(archive.read(info)) for info in archive.infolist()}


def _npy(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.lib.format.write_array(buffer, array, allow_pickle=False)
    return buffer.getvalue()


@functools.cache
def _zeros_member(chunks: int) -> tuple[bytes, int, int]:
    """The deflated ``.npy`` of ``chunks`` x 64 MiB zero bytes, its size and CRC-32 (each
    chunk deflates to the same block, written once and repeated)."""
    header = npy_header((chunks * _ZERO_CHUNK,), "|u1")
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    first = compressor.compress(header) + compressor.flush(zlib.Z_FULL_FLUSH)
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    zeros = bytes(_ZERO_CHUNK)
    block = compressor.compress(zeros) + compressor.flush(zlib.Z_FULL_FLUSH)
    last = zlib.compressobj(9, zlib.DEFLATED, -15).flush()
    crc = zlib.crc32(header)
    for _ in range(chunks):
        crc = zlib.crc32(zeros, crc)
    return first + block * chunks + last, len(header) + chunks * _ZERO_CHUNK, crc


def fifo(folder: Path, name: str = "pipe") -> Path:
    """A FIFO with no writer: opening it for reading blocks forever unless done without
    blocking."""
    path = folder / name
    os.mkfifo(path)
    return path


def members(path: Path) -> list[str]:
    """The member names of the ``.npz`` archive ``path``, without ``.npy``."""
    with zipfile.ZipFile(path) as archive:
        return [name.removesuffix(".npy") for name in archive.namelist()]


def fill(disk: Path, keep: int = 0) -> None:
    """Fills the file system of ``disk`` (with the file ``filler``) but about ``keep`` bytes."""
    free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
    with open(disk / "filler", "wb", buffering=0) as handle:
        try:
            handle.write(bytes(max(free - keep, 0)))
            while not keep:
                handle.write(bytes(1024))
        except OSError as error:
            if error.errno != errno.ENOSPC:
                raise


@contextlib.contextmanager
def small_disk(folder: Path, size: str = "64k") -> Iterator[Path | str]:
    """``folder`` with a tmpfs of ``size`` mounted on it, or the reason there is none (this
    needs Linux, root, and a kernel that lets this process mount)."""
    folder.mkdir(exist_ok=True)
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        yield "mounting a small tmpfs needs Linux and root"
        return
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    if mounted.returncode != 0:
        yield f"this machine does not allow mounting a tmpfs: {mounted.stderr.strip()}"
        return
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)
