"""Custom policies named on the command line: ``MODULE:NAME`` (an importable module) or
``FILE.py:NAME`` (a Python file), ``NAME`` being a function, or a class whose instances (made
with no arguments) are called, that takes a :class:`~stratagem.conquest.game.PolicyView` and
returns the placement (``docs/conquest.md``)."""

from __future__ import annotations

import importlib
import zlib
from pathlib import Path
from types import ModuleType

from stratagem._files import python_module
from stratagem.conquest.game import PolicyFn
from stratagem.errors import InvalidParameter

__all__ = ["is_custom_spec", "load_policy"]


def is_custom_spec(text: str) -> bool:
    """Whether a policy name on the command line names Python code (``X:NAME``, but not the
    options of the built-in ``search:...``)."""
    return ":" in text and text.split(":", 1)[0] != "search"


def _module(where: str, spec: str) -> ModuleType:
    if where.endswith(".py") or Path(where).is_file():
        path = Path(where)
        if not path.is_file():
            raise InvalidParameter(f"policy {spec!r}: no file {where}")
        # A name per file, so that two files with the same stem do not replace each other.
        name = f"_stratagem_policy_{zlib.crc32(str(path.resolve()).encode()):08x}"
        module, loader = python_module(
            name, path, f"policy {spec!r}: cannot load {where} as Python"
        )
        loader.exec_module(module)
        return module
    try:
        return importlib.import_module(where)
    except ImportError as error:
        raise InvalidParameter(f"policy {spec!r}: cannot import {where}: {error}") from error


def load_policy(spec: str) -> PolicyFn:
    """The callable ``spec`` names (``MODULE:NAME`` or ``FILE.py:NAME``); a class is
    instantiated with no arguments. Errors name the spec."""
    where, _, name = spec.rpartition(":")
    if not where or not name:
        raise InvalidParameter(f"policy {spec!r}: write MODULE:NAME or FILE.py:NAME")
    found = getattr(_module(where, spec), name, None)
    if found is None:
        raise InvalidParameter(f"policy {spec!r}: {where} has no {name}")
    policy = found() if isinstance(found, type) else found
    if not callable(policy):
        raise InvalidParameter(f"policy {spec!r}: {name} is not callable")
    return policy  # type: ignore[no-any-return]
