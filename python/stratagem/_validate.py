"""Checks shared by every public entry point: what a user passes in is validated here, at the
boundary, and a bad value raises :class:`~stratagem.errors.InvalidParameter` naming it."""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stratagem.errors import InvalidParameter, StratagemError

U64_MAX = (1 << 64) - 1


#: The bound of an integer parameter given no other: the largest the engine takes (u64).
LARGEST = 2**64 - 1


def integer(name: str, value: object, low: int | None = None, high: int | None = LARGEST) -> int:
    """``value`` as a Python int within ``[low, high]`` (``high`` at most :data:`LARGEST`
    unless the caller lifts it with ``None``); bools and floats are refused."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidParameter(f"{name} must be an integer, got {value!r}")
    result = int(value)
    if low is not None and result < low:
        raise InvalidParameter(f"{name} must be at least {low}, got {result}")
    if high is not None and result > high:
        raise InvalidParameter(f"{name} must be at most {high}, got {result}")
    return result


def seed(value: object) -> int:
    """A seed: an integer in [0, 2**64)."""
    return integer("seed", value, 0, U64_MAX)


def checkpoint_every(checkpoint: object, every: object) -> int | None:
    """The checked ``checkpoint_every`` of a run that saves to ``checkpoint``."""
    if every is None:
        return None
    if checkpoint is None:
        raise InvalidParameter("checkpoint_every needs a checkpoint path")
    return integer("checkpoint_every", every, 1)


def u64(name: str, value: object) -> int:
    return integer(name, value, 0, U64_MAX)


def threads(value: object) -> int | None:
    """``None`` (let the core decide) or a thread count from 1 to ``MAX_THREADS``."""
    from stratagem._core import MAX_THREADS

    if value is None:
        return None
    return integer("threads", value, 1, MAX_THREADS)


def ids(value: Sequence[object], max_ids: int) -> list[int]:
    """Stream ids: at most ``max_ids`` integers in [0, 2**64)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise InvalidParameter(f"ids must be a sequence of integers, got {value!r}")
    if len(value) > max_ids:
        raise InvalidParameter(f"a stream takes at most {max_ids} ids, got {len(value)}")
    return [u64(f"ids[{i}]", v) for i, v in enumerate(value)]


def u64_array(name: str, value: Any, ndim: int, columns: int | None = None) -> NDArray[np.uint64]:
    """``value`` as a C-contiguous uint64 array of ``ndim`` dimensions, refusing negative,
    fractional or non-numeric entries instead of letting numpy wrap or truncate them."""
    array = np.asarray(value)
    if not isinstance(value, np.ndarray) and array.dtype.kind in "fO":
        # A Python list mixing ints of more than 63 bits becomes float64 (or object) in
        # numpy: check the entries one by one instead of losing precision.
        array = np.asarray(value, dtype=object)
    if array.dtype == np.uint64:
        pass
    elif array.size == 0:
        array = array.astype(np.uint64)
    elif np.issubdtype(array.dtype, np.integer):
        if array.min() < 0:
            bad = tuple(int(i) for i in np.argwhere(array < 0)[0])
            raise InvalidParameter(f"{name} must be non-negative; {name}{list(bad)} is negative")
        array = array.astype(np.uint64)
    elif array.dtype == object:
        flat = [u64(f"{name}[{i}]", v) for i, v in enumerate(array.ravel())]
        array = np.array(flat, dtype=np.uint64).reshape(array.shape)
    else:
        raise InvalidParameter(
            f"{name} must hold unsigned 64-bit integers, got dtype {array.dtype}"
        )
    if array.ndim != ndim:
        raise InvalidParameter(f"{name} must have {ndim} dimension(s), got shape {array.shape}")
    if columns is not None and array.shape[-1] != columns:
        raise InvalidParameter(f"{name} must have {columns} columns, got shape {array.shape}")
    return np.ascontiguousarray(array)


def distinct_entries(
    name: str,
    values: object,
    n: int,
    unit: str,
    *,
    entry: tuple[type, str],
    repeated: type[StratagemError],
) -> tuple[Any, ...] | None:
    """``values`` (``None`` or one entry per ``unit``, ``n`` in all, each an instance of
    ``entry[0]`` and no two equal) as a tuple; a repeat raises ``repeated``."""
    if values is None:
        return None
    kind, kind_name = entry
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise InvalidParameter(f"{name} must be a sequence of {kind_name}s, got {values!r}")
    result = tuple(values)
    if len(result) != n:
        raise InvalidParameter(f"{name} must have one entry per {unit} ({n}), got {len(result)}")
    first_use: dict[object, int] = {}
    for index, value in enumerate(result):
        if not isinstance(value, kind):
            raise InvalidParameter(f"{name}[{index}] must be a {kind_name}, got {value!r}")
        if value in first_use:
            raise repeated(f"{name}[{index}] {value!r} repeats {name}[{first_use[value]}]")
        first_use[value] = index
    return result


def points(name: str, values: object, n: int) -> NDArray[np.float64] | None:
    """``values`` (``None`` or ``n`` finite points of the plane, an ``(n, 2)`` array of
    numbers) as a new float64 array."""
    if values is None:
        return None
    array = np.asarray(values)
    if array.dtype.kind not in "iuf":
        raise InvalidParameter(f"{name} must be numbers, got dtype {array.dtype}")
    if array.shape != (n, 2):
        raise InvalidParameter(f"{name} must have shape ({n}, 2), got {array.shape}")
    result = np.array(array, dtype=np.float64)
    bad = np.flatnonzero(~np.isfinite(result).all(axis=1))
    if bad.size:
        raise InvalidParameter(f"{name}[{bad[0]}] is not finite: {result[bad[0]].tolist()}")
    return result


def available_memory() -> int | None:
    """The bytes the kernel could give this process without swapping (``MemAvailable`` in
    ``/proc/meminfo``), or None where it does not say (then nothing is refused for size)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def memory(what: str, needed: float, advice: str) -> None:
    """Refuses, before anything is allocated, work that would need ``needed`` bytes when
    less memory is available: "``what`` needs about N GB of memory, and M GB are
    available; ``advice``"."""
    available = available_memory()
    if available is not None and needed > available:
        raise InvalidParameter(
            f"{what} needs about {needed / 1e9:,.1f} GB of memory, and "
            f"{available / 1e9:,.1f} GB are available (MemAvailable); {advice}"
        )
