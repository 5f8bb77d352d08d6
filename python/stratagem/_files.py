"""Every file stratagem reads or writes goes through here.

Reading: :func:`read_bytes`, :func:`read_text` and :func:`read_json` refuse what is not a
regular file (a FIFO, a device, a folder) before reading a byte, refuse a file over a limit of
its kind, and bound JSON's nesting and numbers before parsing; :func:`read_arrays` and
:func:`map_arrays` read only the named members of an ``.npz`` archive, in the order named, and
check each member's header against the format's own counts (a :class:`Member`: its dtype and
its shape, as the members read before it give them) and against the archive's size before
allocating its array. Every failure raises the caller's error naming the file.

Writing: :func:`written` (and :func:`write_bytes`, :func:`write_json`, :func:`write_arrays`,
``stratagem._plotting.save_figure``) writes ``NAME.partial`` in the same folder, flushes it
to the disk, renames it into place and flushes the folder; any ``OSError`` becomes
:class:`~stratagem.errors.WriteError` naming the file, the partial file removed and the
previous file unchanged.
"""

from __future__ import annotations

import errno
import importlib.util
import json
import os
import re
import stat
import struct
import tokenize
import zipfile
import zlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from importlib.abc import Loader
from pathlib import Path
from types import ModuleType
from typing import IO, Any

import numpy as np
from numpy.typing import NDArray

from stratagem.errors import InvalidParameter, StratagemError, WriteError

#: The most bytes read from a JSON file (saved games, searches, tournament checkpoints and
#: results): 128 MiB, far above any file stratagem writes. A larger file is refused unread.
JSON_LIMIT = 1 << 27
#: The most bytes read from a text file (maps, positions, strategy trees, CSV results): 64 MiB.
TEXT_LIMIT = 1 << 26
#: The deepest nesting of arrays and objects a JSON file may have (stratagem's use 5 at most).
MAX_JSON_DEPTH = 64
#: The most digits one JSON number may have (a 64-bit seed has 20).
MAX_JSON_DIGITS = 64
#: The most a deflate stream expands (1032 to 1, zlib's own bound): an ``.npz`` member that
#: claims more than this many bytes per compressed byte is refused before it is inflated.
DEFLATE_RATIO = 1032

#: The most characters one text member of an ``.npz`` archive may hold (a board's meta with
#: every territory's name): as many as a JSON file's bytes, 2^27.
TEXT_MEMBER_CHARS = JSON_LIMIT

#: Builds the error for a file that cannot be read, from the reason.
Refusal = Callable[[str], StratagemError]
#: One dimension a member must have: exactly so many, any number in the range, or any (then
#: the archive's size bounds it).
Dimension = int | range | None
#: The arrays of an archive read so far, by name.
Read = Mapping[str, NDArray[Any]]

# An .npz archive is a zip file: a local file header first, or the end record when empty.
_ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06")
# A member's local header: signature, 22 bytes, the lengths of its name and extra field.
_LOCAL_HEADER = struct.Struct("<4s22xHH")
# The zip64 sizes field zipfile adds to the local header of a member opened with force_zip64.
_ZIP64_EXTRA = 20
# A stored member's data starts on a multiple of _ALIGN bytes of the file (numpy pads the .npy
# header to 64 bytes too), padded by an extra field in the form zipalign writes: id 0xD935,
# the alignment (2 bytes), zeros.
_ALIGN = 64
_PADDING = struct.Struct("<HHH")
_PADDING_ID = 0xD935
# A JSON string (strings hold no nesting and no numbers: they are blanked before counting).
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_JSON_LONG_NUMBER = re.compile(rf"[0-9]{{{MAX_JSON_DIGITS + 1},}}")
# The nesting is counted over this many bytes at a time (a bounded working set).
_DEPTH_CHUNK = 1 << 22


# -- reading ---------------------------------------------------------------------------------


def cannot_read(path: str | os.PathLike[str], what: str, error: type[StratagemError]) -> Refusal:
    """The usual refusal: ``error("PATH: cannot read WHAT: REASON")``."""
    name = os.fspath(path)
    return lambda reason: error(f"{name}: cannot read {what}: {reason}")


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


@contextmanager
def _regular(path: str | os.PathLike[str], refuse: Refusal) -> Iterator[IO[bytes]]:
    """``path`` opened for reading, if it is a regular file: anything else is refused at once,
    before a byte is read (opened without blocking, so a FIFO without a writer cannot hang)."""
    name = os.fspath(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        if not stat.S_ISREG(mode := os.stat(name).st_mode):
            raise refuse(f"it is {_kind(mode)}, not a regular file")
        descriptor = os.open(name, flags)
    except OSError as failure:
        raise refuse(str(failure.strerror or failure)) from None
    with os.fdopen(descriptor, "rb") as handle:
        # Checked again on what was opened: the name may have been replaced in between.
        if not stat.S_ISREG(mode := os.fstat(descriptor).st_mode):
            raise refuse(f"it is {_kind(mode)}, not a regular file")
        yield handle


def read_bytes(path: str | os.PathLike[str], refuse: Refusal, *, limit: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them: a larger file, or
    anything that is not a regular file, raises ``refuse(reason)`` before it is read."""
    with _regular(path, refuse) as handle:
        try:
            size = os.fstat(handle.fileno()).st_size
            if size > limit:
                raise refuse(f"it holds {size} bytes, more than the {limit} this kind of file may")
            data = handle.read(limit + 1)
        except OSError as failure:
            raise refuse(str(failure.strerror or failure)) from None
    if len(data) > limit:  # it grew while being read
        raise refuse(f"it holds more than the {limit} bytes this kind of file may")
    return data


def read_text(
    path: str | os.PathLike[str],
    refuse: Refusal,
    *,
    limit: int = TEXT_LIMIT,
    encoding: str = "utf-8",
) -> str:
    """The text of the UTF-8 file ``path`` (:func:`read_bytes`; text that is not UTF-8 is
    refused too). Line ends are read as Python's text files read them."""
    data = read_bytes(path, refuse, limit=limit)
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError:
        raise refuse("not UTF-8 text") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def parse_json(text: str, refuse: Refusal) -> Any:
    """The JSON value of ``text``; text nested deeper than :data:`MAX_JSON_DEPTH`, with a
    number of more than :data:`MAX_JSON_DIGITS` digits, or that is no JSON at all raises
    ``refuse(reason)`` (checked before parsing: the parser neither recurses without bound
    nor converts huge numbers)."""
    bare = _JSON_STRING.sub('""', text)
    if (number := _JSON_LONG_NUMBER.search(bare)) is not None:
        digits = number.end() - number.start()
        raise refuse(f"not JSON of stratagem's: a number of {digits} digits")
    if (depth := _json_depth(bare.encode("utf-8", "replace"))) > MAX_JSON_DEPTH:
        raise refuse(f"not JSON of stratagem's: nested {depth} deep (at most {MAX_JSON_DEPTH})")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as failure:
        raise refuse(f"not JSON ({failure})") from None


def _json_depth(data: bytes) -> int:
    """The deepest nesting of brackets in ``data`` (JSON with its strings blanked), counted a
    chunk at a time; a close before its open counts as no depth."""
    codes = np.frombuffer(data, dtype=np.uint8)
    deepest = depth = 0
    for start in range(0, codes.shape[0], _DEPTH_CHUNK):
        chunk = codes[start : start + _DEPTH_CHUNK]
        steps = ((chunk == ord("[")) | (chunk == ord("{"))).astype(np.int64)
        steps -= (chunk == ord("]")) | (chunk == ord("}"))
        if steps.any():
            running = np.cumsum(steps) + depth
            deepest = max(deepest, int(running.max()))
            depth = int(running[-1])
    return deepest


def read_json(path: str | os.PathLike[str], refuse: Refusal, *, limit: int = JSON_LIMIT) -> Any:
    """The JSON value of the UTF-8 file ``path`` (:func:`read_text`, :func:`parse_json`)."""
    return parse_json(read_text(path, refuse, limit=limit), refuse)


@contextmanager
def _archive(
    path: str | os.PathLike[str], what: str, error: type[StratagemError]
) -> Iterator[tuple[str, IO[bytes]]]:
    """The name of ``path`` and the regular file opened; a file that is missing, empty,
    truncated or no archive at all raises ``error`` naming the file and ``what`` it should
    have been (numpy's own errors speak of pickles and zip files)."""
    name = os.fspath(path)
    try:
        with _regular(path, cannot_read(path, what, error)) as handle:
            if handle.read(4) not in _ZIP_MAGICS:
                raise error(f"{name}: not {what} (not an .npz archive)")
            handle.seek(0)
            yield name, handle
    except StratagemError:
        raise
    except OSError as failure:
        raise error(f"{name}: cannot read {what}: {failure.strerror or failure}") from None
    # zipfile raises NotImplementedError for a garbled version or compression field and
    # RuntimeError for an "encrypted" member; numpy raises SyntaxError or tokenize's TokenError
    # for a garbled .npy header (it parses the header as a Python literal).
    except (
        EOFError,
        ValueError,
        SyntaxError,
        tokenize.TokenError,
        zipfile.BadZipFile,
        zlib.error,
        NotImplementedError,
        RuntimeError,
    ) as failure:
        raise error(f"{name}: not {what} (a damaged or truncated archive: {failure})") from None


def _read_member(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, size: int, member: Member, read: Read
) -> NDArray[Any]:
    """The array of the member ``info`` of an archive of ``size`` bytes, read whole once its
    header is found to fit what the archive holds and what ``member`` must be (so a lying
    header or a bomb is refused before anything is allocated or inflated)."""
    if info.compress_size > size:
        raise _Unreadable(f"claims {info.compress_size} bytes in a file of {size}")
    if info.compress_type == zipfile.ZIP_STORED:
        inflated_at_most = info.compress_size
    else:
        inflated_at_most = DEFLATE_RATIO * info.compress_size + _ALIGN
    if info.file_size > inflated_at_most:
        raise _Unreadable(
            f"claims {info.file_size} bytes from {info.compress_size} compressed ones "
            f"(a deflate stream expands {DEFLATE_RATIO} times at most)"
        )
    with archive.open(info) as stream:
        shape, _fortran, dtype, start = _header(stream)
    nbytes = int(np.prod(shape, dtype=object)) * dtype.itemsize
    if start + nbytes > info.file_size:
        raise _Unreadable(
            f"claims {nbytes} bytes of data (shape {shape}, {dtype}) but holds "
            f"{max(info.file_size - start, 0)}"
        )
    member.check(shape, dtype, read)
    with archive.open(info) as stream:
        array: NDArray[Any] = np.lib.format.read_array(stream, allow_pickle=False)
    return array


def _header(stream: IO[bytes]) -> tuple[tuple[int, ...], bool, np.dtype[Any], int]:
    """The shape, Fortran order and dtype of the ``.npy`` data at the start of ``stream``,
    and the byte where its data starts (after the header)."""
    version = np.lib.format.read_magic(stream)
    if version == (1, 0):
        shape, fortran, dtype = np.lib.format.read_array_header_1_0(stream)
    elif version == (2, 0):
        shape, fortran, dtype = np.lib.format.read_array_header_2_0(stream)
    else:
        raise _Unreadable(f"has a .npy header of version {version}, not 1.0 or 2.0")
    if dtype.hasobject:
        raise _Unreadable("holds Python objects")
    return shape, fortran, dtype, stream.tell()


@dataclass(frozen=True)
class Member:
    """What one member of an ``.npz`` archive must be, checked on its ``.npy`` header before
    its data is read or mapped: a dtype of one of numpy's ``kinds`` (``"iu"`` integers,
    ``"f"`` floats, ``"U"`` text) whose width in bytes is in ``widths``, and the ``shape`` the
    format's counts give, fixed or worked out from the members read before it (the format's
    meta and counts first: members are read in the order they are named)."""

    kinds: str
    shape: tuple[Dimension, ...] | Callable[[Read], tuple[Dimension, ...]]
    widths: range = range(1, 9)

    @classmethod
    def text(cls, *shape: Dimension, chars: int = TEXT_MEMBER_CHARS) -> Member:
        """Text of ``shape``, each string at most ``chars`` characters."""
        return cls("U", shape, range(4 * chars + 1))

    @classmethod
    def int64(cls, shape: Callable[[Read], tuple[Dimension, ...]]) -> Member:
        """64-bit integers (a CSR's offsets and entries, as every board stores them)."""
        return cls("iu", shape, range(8, 9))

    def check(self, shape: tuple[int, ...], dtype: np.dtype[Any], read: Read) -> None:
        """Raises ``_Unreadable`` (naming the shape or dtype claimed and the one expected)
        unless a member of ``shape`` and ``dtype`` is what this one must be."""
        expected = self.shape(read) if callable(self.shape) else self.shape
        fits = len(shape) == len(expected) and all(
            want is None or (size in want if isinstance(want, range) else size == want)
            for size, want in zip(shape, expected, strict=False)
        )
        if not fits:
            raise _Unreadable(
                f"claims the shape {shape}; the file's counts give {_shown(expected)}"
            )
        if dtype.kind not in self.kinds or dtype.itemsize not in self.widths:
            low, high = self.widths.start, self.widths.stop - 1
            raise _Unreadable(
                f"claims the dtype {dtype.str}; expected {_KIND_NAMES[self.kinds]} of "
                f"{high if low == high else f'{low} to {high}'} bytes"
            )


def length(read: Read, key: str) -> int | None:
    """The length of the 1-D member ``key`` read so far, if there is one."""
    array = read.get(key)
    return None if array is None or array.ndim != 1 else len(array)


def last_offset(read: Read, key: str, within: range | None) -> Dimension:
    """The entries of a CSR whose offsets are the member ``key`` read so far: its last
    offset when that is in ``within``, else any number in ``within`` (``None``: any)."""
    offsets = read.get(key)
    if offsets is None or offsets.ndim != 1 or not len(offsets) or offsets.dtype.kind not in "iu":
        return within
    last = int(offsets[-1])
    return last if within is None or last in within else within


_KIND_NAMES = {"iu": "integers", "f": "floats", "fiu": "numbers", "U": "text"}


def _shown(shape: tuple[Dimension, ...]) -> str:
    """``shape`` as the refusal shows it: ``(16, 2)``, ``(0..12,)``, ``(any,)``."""
    words = [
        "any"
        if size is None
        else f"{size.start}..{size.stop - 1}"
        if isinstance(size, range)
        else str(size)
        for size in shape
    ]
    return f"({', '.join(words)}{',' if len(words) == 1 else ''})"


def read_arrays(
    path: str | os.PathLike[str],
    what: str,
    error: type[StratagemError],
    members: Mapping[str, Member],
) -> dict[str, NDArray[Any]]:
    """The arrays named in ``members`` of the ``.npz`` archive at ``path`` (those it has),
    read whole in that order, each checked first against what its :class:`Member` says. A
    file that is missing, empty, truncated, no archive at all, that holds a member not named
    in ``members`` (left unread), or whose member claims more data than it holds or another
    dtype or shape than the format's counts give, raises ``error`` naming the file and
    ``what`` it should have been."""
    return map_arrays(path, members, {}, what=what, error=error, remedy="")


def map_arrays(
    path: str | os.PathLike[str],
    whole: Mapping[str, Member],
    mapped: Mapping[str, Member],
    *,
    what: str,
    error: type[StratagemError],
    remedy: str,
) -> dict[str, NDArray[Any]]:
    """The arrays named in ``whole`` (read whole) and then in ``mapped`` (memory-mapped
    read-only: only the pages used are ever read) of the ``.npz`` archive at ``path``, those
    it has (a member named in neither is refused unread), each checked first as in
    :func:`read_arrays`. A mapped member must be stored uncompressed in C order with its data
    aligned for its dtype (as :func:`write_arrays` with ``stored=True`` writes it); anything
    else raises ``error`` naming the file and the member (``remedy`` says what to do about a
    compressed or misaligned one), and so does a bad file as in :func:`read_arrays`."""
    arrays: dict[str, NDArray[Any]] = {}
    with _archive(path, what, error) as (name, handle), zipfile.ZipFile(handle) as archive:
        size = os.fstat(handle.fileno()).st_size
        members = {info.filename: info for info in archive.infolist()}
        known = {f"{key}.npy" for key in (*whole, *mapped)}
        if strangers := sorted(set(members) - known):
            raise error(f"{name}: not {what}: it holds the member {strangers[0]!r}, not one of its")
        for key, member in {**whole, **mapped}.items():
            if (info := members.get(f"{key}.npy")) is None:
                continue
            try:
                if key in mapped:
                    array = _map_member(handle, name, info, remedy, member=member, read=arrays)
                else:
                    array = _read_member(archive, info, size, member, arrays)
            except _Unreadable as reason:
                how = "cannot be read by slices" if key in mapped else f"not {what}"
                raise error(f"{name}: {how}: the array {key!r} {reason}") from None
            arrays[key] = array
    return arrays


class _Unreadable(Exception):
    """Why a member cannot be read or mapped (the caller names the file and the member)."""


def _map_member(
    handle: Any, name: str, info: zipfile.ZipInfo, remedy: str, *, member: Member, read: Read
) -> NDArray[Any]:
    """The array of the stored member ``info`` of the archive ``name`` open as ``handle``,
    memory-mapped read-only once its header is found to be what ``member`` must be."""
    if info.compress_type != zipfile.ZIP_STORED:
        raise _Unreadable(f"is compressed; {remedy}")
    if info.flag_bits & 1:
        raise _Unreadable("is encrypted")
    size = os.fstat(handle.fileno()).st_size
    handle.seek(info.header_offset)
    header = handle.read(_LOCAL_HEADER.size)
    if len(header) < _LOCAL_HEADER.size:
        raise _Unreadable("is truncated (its header is cut off)")
    signature, name_length, extra_length = _LOCAL_HEADER.unpack(header)
    if signature != b"PK\x03\x04":
        raise _Unreadable("has no local header (a damaged archive)")
    start = info.header_offset + _LOCAL_HEADER.size + name_length + extra_length
    end = start + info.file_size
    handle.seek(start)
    shape, fortran, dtype, offset = _header(handle)
    if fortran:
        raise _Unreadable("is stored in Fortran order")
    nbytes = int(np.prod(shape, dtype=object)) * dtype.itemsize
    if offset + nbytes > min(end, size):
        held = min(end, size) - offset
        raise _Unreadable(f"is truncated ({nbytes} bytes of data, {held} in the file)")
    member.check(shape, dtype, read)
    if offset % dtype.alignment:
        raise _Unreadable(f"is not aligned for its dtype (byte {offset} of the file); {remedy}")
    if nbytes == 0:
        array = np.empty(shape, dtype=dtype)
        array.flags.writeable = False
        return array
    return np.memmap(name, dtype=dtype, mode="r", offset=offset, shape=shape)


# -- writing ---------------------------------------------------------------------------------


def _sync_folder(folder: Path) -> None:
    """Flushes ``folder``'s entries (a rename in it) to the disk, where the system can."""
    if not hasattr(os, "O_DIRECTORY"):
        return  # Windows: a folder cannot be opened; its renames are flushed with the file
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    except OSError as failure:
        if failure.errno not in (errno.EINVAL, errno.ENOTSUP):  # a file system without it
            raise
    finally:
        os.close(descriptor)


@contextmanager
def written(path: str | os.PathLike[str]) -> Iterator[Path]:
    """The path to write ``path``'s new content to: ``path.partial`` in the same folder. When
    the block ends it is flushed to the disk, renamed into place and the folder flushed too.
    Any ``OSError`` (a full disk, a quota, a read-only file system, an I/O error) raises
    :class:`~stratagem.errors.WriteError` naming the file; an error or Ctrl-C removes the
    partial file and leaves the previous file, or none, as it was. A ``path`` that exists and
    is not a regular file (a device, a FIFO, a folder) is refused before anything is
    written."""
    target = Path(path)
    if target.exists() and not target.is_file():
        # A device, a pipe or a folder cannot be replaced by renaming (nor should /dev/null
        # be, were we allowed to).
        raise InvalidParameter(f"{target}: not a regular file; stratagem writes whole files")
    partial = target.with_name(target.name + ".partial")
    try:
        yield partial
        with open(partial, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(partial, target)
        _sync_folder(target.parent)
    except OSError as failure:
        _remove(partial)
        reason = failure.strerror or str(failure)
        raise WriteError(f"{target}: cannot write it: {reason}", failure.errno) from None
    except BaseException:
        _remove(partial)
        raise


def _remove(partial: Path) -> None:
    """Removes ``partial`` if it is there (the failure that brought us here is the one told)."""
    with suppress(OSError):
        partial.unlink(missing_ok=True)


def write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Writes ``data`` to ``path`` whole (:func:`written`)."""
    with written(path) as partial, open(partial, "wb") as handle:
        handle.write(data)


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Writes ``text`` as UTF-8 to ``path`` whole (:func:`written`), line ends as given."""
    write_bytes(path, text.encode("utf-8"))


def write_json(path: str | os.PathLike[str], data: object) -> None:
    """Writes ``data`` as JSON to ``path`` whole (:func:`written`)."""
    write_text(path, json.dumps(data))


def write_arrays(
    path: str | os.PathLike[str], arrays: Mapping[str, Any], *, stored: bool = False
) -> None:
    """Writes ``arrays`` as an ``.npz`` archive to exactly ``path``, whole (:func:`written`):
    compressed, or with ``stored`` uncompressed, each member's data starting on a multiple of
    64 bytes of the file, so that :func:`map_arrays` can map it. Either way each array is
    written in chunks, never copied whole."""
    with written(path) as partial, open(partial, "wb") as handle:
        if not stored:
            np.savez_compressed(handle, **arrays)
            return
        with zipfile.ZipFile(handle, "w", zipfile.ZIP_STORED, allowZip64=True) as archive:
            for key, value in arrays.items():
                # The zip epoch as the date: the same arrays give the same bytes.
                info = zipfile.ZipInfo(f"{key}.npy")
                start = (
                    handle.tell()
                    + _LOCAL_HEADER.size
                    + len(info.filename.encode())
                    + _ZIP64_EXTRA
                    + _PADDING.size
                )
                padding = -start % _ALIGN
                info.extra = _PADDING.pack(_PADDING_ID, 2 + padding, _ALIGN) + bytes(padding)
                with archive.open(info, "w", force_zip64=True) as member:
                    np.lib.format.write_array(member, np.asanyarray(value), allow_pickle=False)


def python_module(name: str, path: Path, failure: str) -> tuple[ModuleType, Loader]:
    """A new module ``name`` for the Python file ``path``, and the loader that runs the file
    in it (``loader.exec_module(module)``); :class:`~stratagem.errors.InvalidParameter` with
    the message ``failure`` when Python cannot load the file."""
    found = importlib.util.spec_from_file_location(name, path)
    if found is None or found.loader is None:
        raise InvalidParameter(failure)
    return importlib.util.module_from_spec(found), found.loader
