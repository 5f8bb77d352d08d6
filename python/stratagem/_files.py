"""Saving files whole, reading archives that may be damaged, loading Python files as modules."""

from __future__ import annotations

import importlib.util
import json
import os
import zipfile
import zlib
from collections.abc import Iterator, Mapping
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


def read_arrays(
    path: str | os.PathLike[str], what: str, error: type[StratagemError]
) -> dict[str, NDArray[Any]]:
    """Every array of the ``.npz`` archive at ``path``, read whole. A file that is missing,
    empty, truncated or no archive at all raises ``error`` naming the file and ``what`` it
    should have been (numpy's own errors speak of pickles and zip files)."""
    name = os.fspath(path)
    try:
        with open(path, "rb") as handle:
            if handle.read(4) not in _ZIP_MAGICS:
                raise error(f"{name}: not {what} (not an .npz archive)")
            handle.seek(0)
            with np.load(handle, allow_pickle=False) as data:
                return {key: data[key] for key in data.files}
    except StratagemError:
        raise
    except OSError as failure:
        raise error(f"{name}: cannot read {what}: {failure.strerror or failure}") from None
    # zipfile raises NotImplementedError for a garbled version or compression field and
    # RuntimeError for an "encrypted" member.
    except (
        EOFError,
        ValueError,
        zipfile.BadZipFile,
        zlib.error,
        NotImplementedError,
        RuntimeError,
    ) as failure:
        raise error(f"{name}: not {what} (a damaged or truncated archive: {failure})") from None


def write_arrays(path: str | os.PathLike[str], arrays: Mapping[str, Any]) -> None:
    """Writes ``arrays`` as a compressed ``.npz`` archive to exactly ``path``, whole
    (:func:`written`)."""
    with written(path) as partial, open(partial, "wb") as handle:
        np.savez_compressed(handle, **arrays)


def python_module(name: str, path: Path, failure: str) -> tuple[ModuleType, Loader]:
    """A new module ``name`` for the Python file ``path``, and the loader that runs the file
    in it (``loader.exec_module(module)``); :class:`~stratagem.errors.InvalidParameter` with
    the message ``failure`` when Python cannot load the file."""
    found = importlib.util.spec_from_file_location(name, path)
    if found is None or found.loader is None:
        raise InvalidParameter(failure)
    return importlib.util.module_from_spec(found), found.loader
