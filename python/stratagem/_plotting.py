"""What every game's pictures share: matplotlib, imported only when a picture is drawn."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from stratagem._files import written
from stratagem.errors import InvalidParameter


def matplotlib() -> Any:
    """The ``matplotlib`` package, or ``InvalidParameter`` saying how to install it (it is the
    optional extra ``stratagem[plot]``)."""
    try:
        import matplotlib as module
    except ImportError as error:
        raise InvalidParameter(
            "pictures need matplotlib: pip install 'stratagem[plot]' (or pip install matplotlib)"
        ) from error
    return module


def legend_below(
    axes: Any, handles: Sequence[Any], columns: int, *, gap: float = 0.01, **options: Any
) -> None:
    """The legend of a board or map picture: centred under ``axes`` (``gap`` axes heights
    below), in ``columns`` columns, small and without a frame; ``options`` go to
    ``axes.legend`` too."""
    axes.legend(
        handles=handles,
        loc="upper center",
        bbox_to_anchor=(0.5, -gap),
        ncol=columns,
        fontsize="small",
        frameon=False,
        **options,
    )


def png_path(path: str | os.PathLike[str]) -> Path:
    """``path`` as a Path, checked before any work is done: it must end in ``.png`` and its
    folder must exist. Also checks that matplotlib can be imported."""
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidParameter(f"a picture's path must be a string or a path, got {path!r}")
    target = Path(path)
    if target.suffix.lower() != ".png":
        raise InvalidParameter(f"{str(target)!r}: pictures are written as PNG, name a .png file")
    folder = target.parent
    if not folder.is_dir():
        raise InvalidParameter(f"{str(target)!r}: the folder {str(folder)!r} does not exist")
    if target.is_dir():
        raise InvalidParameter(f"{str(target)!r} is a folder, not a file")
    matplotlib()
    return target


def save_figure(figure: Any, path: str | os.PathLike[str], **options: Any) -> Path:
    """Writes ``figure`` as a PNG to ``path`` whole (``stratagem._files.written``: a full
    disk leaves the previous picture, or none, and raises ``WriteError`` naming the file);
    ``options`` go to ``figure.savefig``. Returns the path."""
    target = Path(path)
    with written(target) as partial:
        figure.savefig(partial, format="png", **options)
    return target
