"""What every game's pictures share: matplotlib, imported only when a picture is drawn."""

from __future__ import annotations

from typing import Any

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
