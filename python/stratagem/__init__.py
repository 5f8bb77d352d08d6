"""stratagem: fast, reproducible simulation and search for five turn-based territory games.

The hot loops live in the Rust extension :mod:`stratagem._core`; this package holds the typed
Python API, the pure-Python oracles, the command line and the MPI layer.
"""

from __future__ import annotations

from stratagem._core import __version__
from stratagem.errors import (
    InconsistentFeedback,
    InconsistentInput,
    InvalidBoard,
    InvalidMove,
    InvalidParameter,
    MissingDependency,
    StratagemError,
)

__all__ = [
    "InconsistentFeedback",
    "InconsistentInput",
    "InvalidBoard",
    "InvalidMove",
    "InvalidParameter",
    "MissingDependency",
    "StratagemError",
    "__version__",
]
