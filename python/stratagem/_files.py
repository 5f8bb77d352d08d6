"""Saving files whole."""

from __future__ import annotations

import json
import os
from pathlib import Path


def write_json(path: str | os.PathLike[str], data: object) -> None:
    """Writes ``data`` as JSON to ``path`` whole: to ``path.partial`` first, then renamed into
    place, so that an interrupted write leaves the previous file (or none), never half of one."""
    target = Path(path)
    partial = target.with_name(target.name + ".partial")
    try:
        partial.write_text(json.dumps(data), encoding="utf-8")
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)  # Ctrl-C or a full disk leaves no stale partial file
        raise
