"""Saving files whole."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


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
