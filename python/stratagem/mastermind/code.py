"""Codes: checking, parsing and writing them.

A code of S spots and C colours is a uint8 array of shape ``(S,)`` with entries in ``0..C-1``.
Its written form has one character per spot (``0-9`` then ``a-z``) or integers separated by
commas or spaces.

>>> parse_code("7735427368", 10).tolist()
[7, 7, 3, 5, 4, 2, 7, 3, 6, 8]
>>> format_code(parse_code("3,10,35", 36))
'3az'
"""

from __future__ import annotations

import re
import string
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stratagem import _validate
from stratagem.errors import InvalidParameter

__all__ = [
    "MAX_COLOURS",
    "MAX_SPOTS",
    "MIN_COLOURS",
    "MIN_SPOTS",
    "as_code",
    "as_codes",
    "check_space",
    "format_code",
    "parse_code",
]

MIN_SPOTS, MAX_SPOTS = 1, 16
MIN_COLOURS, MAX_COLOURS = 2, 36
_DIGITS = string.digits + string.ascii_lowercase


def check_space(spots: object, colours: object) -> tuple[int, int]:
    """``(spots, colours)`` as ints within 1..16 and 2..36."""
    return (
        _validate.integer("spots", spots, MIN_SPOTS, MAX_SPOTS),
        _validate.integer("colours", colours, MIN_COLOURS, MAX_COLOURS),
    )


def as_codes(name: str, value: Any, spots: int, colours: int) -> NDArray[np.uint8]:
    """``value`` as a C-contiguous ``(n, spots)`` uint8 array of colours below ``colours``;
    strings are parsed with :func:`parse_code`. Refuses fractions, negatives and overflow."""
    if isinstance(value, str):
        value = [parse_code(value, colours, spots)]
    elif isinstance(value, (list, tuple)) and value and all(isinstance(v, str) for v in value):
        value = [parse_code(v, colours, spots) for v in value]
    array = np.asarray(value)
    if array.ndim == 1:
        array = array.reshape(1, -1) if array.size else array.reshape(0, spots)
    if array.ndim != 2 or array.shape[1] != spots:
        raise InvalidParameter(
            f"{name} must have {spots} colours per code, got shape {np.shape(value)}"
        )
    if array.size and array.dtype.kind not in "iu":
        whole = (
            array.dtype.kind == "f"
            and bool(np.all(np.isfinite(array)))
            and bool(np.all(np.mod(array, 1) == 0))
        )
        if not whole:
            raise InvalidParameter(f"{name} must hold whole colour numbers, got {array.dtype}")
    if array.size:
        low, high = int(array.min()), int(array.max())
        if low < 0 or high >= colours:
            row, spot = np.argwhere((array < 0) | (array >= colours))[0]
            raise InvalidParameter(
                f"{name}: code {row} spot {spot} has colour {array[row, spot]}; "
                f"colours are 0 to {colours - 1}"
            )
    return np.ascontiguousarray(array, dtype=np.uint8)


def as_code(name: str, value: Any, spots: int, colours: int) -> NDArray[np.uint8]:
    """One code as a ``(spots,)`` uint8 array (see :func:`as_codes`)."""
    array = np.asarray(value) if not isinstance(value, str) else None
    if array is not None and array.ndim == 0:
        raise InvalidParameter(
            f"{name} must be a code: a string such as '0123' or a sequence of colours, got "
            f"the single number {array.item()!r}"
        )
    if array is not None and array.ndim != 1:
        raise InvalidParameter(
            f"{name} must be one code of {spots} colours, got shape {array.shape}"
        )
    code: NDArray[np.uint8] = as_codes(name, value, spots, colours)[0]
    return code


def parse_code(text: str, colours: int, spots: int | None = None) -> NDArray[np.uint8]:
    """A code from its written form: ``"7735427368"`` (one character per spot, ``0-9a-z``)
    or ``"7,7,3,5"`` / ``"7 7 3 5"`` (integers). Names the bad character and its position."""
    if not isinstance(text, str):
        raise InvalidParameter(f"a code must be a string, got {text!r}")
    colours = _validate.integer("colours", colours, MIN_COLOURS, MAX_COLOURS)
    stripped = text.strip()
    if re.search(r"[,\s]", stripped):
        parts = [p for p in re.split(r"[,\s]+", stripped) if p]
        values = []
        for position, part in enumerate(parts):
            if not part.isdigit():
                raise InvalidParameter(f"code {text!r}: spot {position} is {part!r}, not a number")
            values.append(int(part))
    else:
        values = []
        for position, char in enumerate(stripped.lower()):
            digit = _DIGITS.find(char)
            if digit < 0:
                raise InvalidParameter(
                    f"code {text!r}: character {char!r} at spot {position} is not 0-9 or a-z"
                )
            values.append(digit)
    if not values:
        raise InvalidParameter("a code must have at least one spot, got an empty string")
    if spots is not None and len(values) != spots:
        raise InvalidParameter(f"code {text!r} has {len(values)} spots, expected {spots}")
    for position, value in enumerate(values):
        if value >= colours:
            raise InvalidParameter(
                f"code {text!r}: spot {position} has colour {value}; colours are 0 to {colours - 1}"
            )
    if len(values) > MAX_SPOTS:
        raise InvalidParameter(f"code {text!r} has {len(values)} spots; at most {MAX_SPOTS}")
    return np.array(values, dtype=np.uint8)


def format_code(code: Any) -> str:
    """The one-character-per-spot written form of a code (colours 0 to 35)."""
    array = np.asarray(code)
    if array.ndim != 1 or not 1 <= array.size <= MAX_SPOTS:
        raise InvalidParameter(
            f"a code is 1 to {MAX_SPOTS} colours in a row, got shape {array.shape}"
        )
    return "".join(_DIGITS[c] for c in as_codes("code", array, array.size, MAX_COLOURS)[0])
