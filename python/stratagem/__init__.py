"""stratagem: fast, reproducible simulation and search for five turn-based territory games.

The hot loops live in the Rust extension :mod:`stratagem._core`; this package holds the typed
Python API, the pure-Python oracles, the command line and the MPI layer.
"""

from __future__ import annotations

from stratagem import errors
from stratagem._core import __version__
from stratagem._launcher import one_blas_thread_under_a_launcher
from stratagem.errors import *  # noqa: F403 (the exceptions, listed once in errors.__all__)

# Before anything imports numpy (none of the imports above does).
one_blas_thread_under_a_launcher()

__all__ = ["__version__"]
__all__ += errors.__all__
