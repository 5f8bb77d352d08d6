"""Saving files whole, reading archives that may be damaged (whole, or their stored members
memory-mapped), loading Python files as modules."""

from __future__ import annotations

import importlib.util
import json
import os
import struct
import tokenize
import zipfile
import zlib
from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager
from importlib.abc import Loader
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stratagem.errors import InvalidParameter, StratagemError

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


@contextmanager
def written(path: str | os.PathLike[str]) -> Iterator[Path]:
    """The path to write ``path``'s new content to: ``path.partial``, renamed into place when
    the block ends, removed when it fails (an error or Ctrl-C leaves the previous file, or
    none, and nothing stale beside it)."""
    target = Path(path)
    partial = target.with_name(target.name + ".partial")
    try:
        yield partial
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def write_json(path: str | os.PathLike[str], data: object) -> None:
    """Writes ``data`` as JSON to ``path`` whole (:func:`written`)."""
    with written(path) as partial:
        partial.write_text(json.dumps(data), encoding="utf-8")


@contextmanager
def _reading(path: str | os.PathLike[str], what: str, error: type[StratagemError]) -> Iterator[str]:
    """The file name of ``path``; a file that is missing, empty, truncated or no archive at all
    raises ``error`` naming the file and ``what`` it should have been (numpy's own errors speak
    of pickles and zip files)."""
    name = os.fspath(path)
    try:
        yield name
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


def _check_magic(handle: Any, name: str, what: str, error: type[StratagemError]) -> None:
    if handle.read(4) not in _ZIP_MAGICS:
        raise error(f"{name}: not {what} (not an .npz archive)")
    handle.seek(0)


def read_arrays(
    path: str | os.PathLike[str], what: str, error: type[StratagemError]
) -> dict[str, NDArray[Any]]:
    """Every array of the ``.npz`` archive at ``path``, read whole. A file that is missing,
    empty, truncated or no archive at all raises ``error`` naming the file and ``what`` it
    should have been (numpy's own errors speak of pickles and zip files)."""
    with _reading(path, what, error) as name, open(name, "rb") as handle:
        _check_magic(handle, name, what, error)
        with np.load(handle, allow_pickle=False) as data:
            return {key: data[key] for key in data.files}


def map_arrays(
    path: str | os.PathLike[str],
    whole: Collection[str],
    mapped: Collection[str],
    *,
    what: str,
    error: type[StratagemError],
    remedy: str,
) -> dict[str, NDArray[Any]]:
    """The arrays named in ``whole`` (read whole) and in ``mapped`` (memory-mapped read-only:
    only the pages used are ever read) of the ``.npz`` archive at ``path``, those it has. A
    mapped member must be stored uncompressed in C order with its data aligned for its dtype
    (as :func:`write_arrays` with ``stored=True`` writes it); anything else raises ``error``
    naming the file and the member (``remedy`` says what to do about a compressed or
    misaligned one), and so does a bad file as in :func:`read_arrays`."""
    arrays: dict[str, NDArray[Any]] = {}
    with _reading(path, what, error) as name, open(name, "rb") as handle:
        _check_magic(handle, name, what, error)
        with zipfile.ZipFile(handle) as archive:
            members = {info.filename: info for info in archive.infolist()}
            for key in whole:
                if (info := members.get(f"{key}.npy")) is not None:
                    with archive.open(info) as member:
                        arrays[key] = np.lib.format.read_array(member, allow_pickle=False)
            for key in mapped:
                if (info := members.get(f"{key}.npy")) is None:
                    continue
                try:
                    arrays[key] = _map_member(handle, info, remedy)
                except _Unmappable as reason:
                    raise error(
                        f"{name}: cannot be read by slices: the array {key!r} {reason}"
                    ) from None
    return arrays


class _Unmappable(Exception):
    """Why a member cannot be mapped (:func:`map_arrays` names the file and the member)."""


def _map_member(handle: Any, info: zipfile.ZipInfo, remedy: str) -> NDArray[Any]:
    """The array of the stored member ``info`` of the open archive ``handle``, memory-mapped
    read-only."""
    if info.compress_type != zipfile.ZIP_STORED:
        raise _Unmappable(f"is compressed; {remedy}")
    if info.flag_bits & 1:
        raise _Unmappable("is encrypted")
    size = os.fstat(handle.fileno()).st_size
    handle.seek(info.header_offset)
    header = handle.read(_LOCAL_HEADER.size)
    if len(header) < _LOCAL_HEADER.size:
        raise _Unmappable("is truncated (its header is cut off)")
    signature, name_length, extra_length = _LOCAL_HEADER.unpack(header)
    if signature != b"PK\x03\x04":
        raise _Unmappable("has no local header (a damaged archive)")
    start = info.header_offset + _LOCAL_HEADER.size + name_length + extra_length
    end = start + info.file_size
    handle.seek(start)
    version = np.lib.format.read_magic(handle)
    if version == (1, 0):
        shape, fortran, dtype = np.lib.format.read_array_header_1_0(handle)
    elif version == (2, 0):
        shape, fortran, dtype = np.lib.format.read_array_header_2_0(handle)
    else:
        raise _Unmappable(f"has a .npy header of version {version}, not 1.0 or 2.0")
    if fortran:
        raise _Unmappable("is stored in Fortran order")
    if dtype.hasobject:
        raise _Unmappable("holds Python objects")
    offset = handle.tell()
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if offset + nbytes > min(end, size):
        held = min(end, size) - offset
        raise _Unmappable(f"is truncated ({nbytes} bytes of data, {held} in the file)")
    if offset % dtype.alignment:
        raise _Unmappable(f"is not aligned for its dtype (byte {offset} of the file); {remedy}")
    if nbytes == 0:
        array = np.empty(shape, dtype=dtype)
        array.flags.writeable = False
        return array
    return np.memmap(handle.name, dtype=dtype, mode="r", offset=offset, shape=shape)


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
