"""Reproducible random numbers: Philox4x64-10 streams named by ``(seed, purpose, ids)``.

Every random draw in stratagem is a pure function of ``(seed, purpose, ids..., index)``.
A *stream* is named by a seed (an integer in ``[0, 2**64)``), a purpose string (hashed with
FNV-1a) and up to three integer ids; its blocks are Philox4x64-10 outputs addressed by a
64-bit index, with key ``[seed, purpose_tag(purpose)]`` and counter
``[index, id0, id1, id2]``. Draws read a stream's words in order (``docs/determinism.md``).

The functions here run in Rust, :class:`Cursor` reads one stream draw by draw for sequential
Python code, and :mod:`stratagem.rng.oracle` is the same generator in plain Python, the
independent second path the tests demand identical output from.

>>> import numpy as np
>>> from stratagem import rng
>>> rng.blocks(seed=7, purpose="demo", ids=[1], start=0, count=2).shape
(2, 4)
>>> from stratagem.rng import oracle
>>> int(rng.blocks(7, "demo", [1], count=1)[0, 0]) == oracle.Stream(7, "demo", 1).block(0)[0]
True
>>> rng.Cursor(7, "demo", 1).next_u64() == oracle.Stream(7, "demo", 1).block(0)[0]
True
>>> rng.draws(7, "demo", [1], "uniform_below", [6, 6, 6]).tolist()
[5, 4, 3]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, get_args

import numpy as np
from numpy.typing import ArrayLike, NDArray

from stratagem import _core, _validate
from stratagem.errors import InvalidParameter
from stratagem.rng.cursor import Cursor

__all__ = [
    "BINOMIAL_POPCOUNT_LIMIT",
    "MAX_IDS",
    "Cursor",
    "DrawKind",
    "binomial_half",
    "blocks",
    "coin_flip_heads",
    "draws",
    "philox4x64_10",
    "purpose_tag",
]

MAX_IDS: int = _core.rng.MAX_IDS
BINOMIAL_POPCOUNT_LIMIT: int = _core.rng.BINOMIAL_POPCOUNT_LIMIT

DrawKind = Literal["u64", "uniform_below", "below", "below_half", "coin_flips", "binomial_half"]
_DRAW_KINDS: tuple[str, ...] = get_args(DrawKind)


def _purpose(purpose: object) -> str:
    if not isinstance(purpose, str) or not purpose:
        raise InvalidParameter(f"purpose must be a non-empty string, got {purpose!r}")
    return purpose


def philox4x64_10(counters: ArrayLike, keys: ArrayLike) -> NDArray[np.uint64]:
    """Philox4x64-10 of each row: ``counters`` of shape (N, 4), ``keys`` of shape (N, 2)."""
    counter_array = _validate.u64_array("counters", counters, ndim=2, columns=4)
    key_array = _validate.u64_array("keys", keys, ndim=2, columns=2)
    if counter_array.shape[0] != key_array.shape[0]:
        raise InvalidParameter(
            f"counters and keys need the same number of rows, got {counter_array.shape[0]} "
            f"and {key_array.shape[0]}"
        )
    return _core.rng.philox4x64_10(counter_array, key_array)


def purpose_tag(purpose: str) -> int:
    """The 64-bit key word of a purpose: FNV-1a of its UTF-8 bytes."""
    return _core.rng.purpose_tag(_purpose(purpose))


def blocks(
    seed: int,
    purpose: str,
    ids: Sequence[int] = (),
    start: int = 0,
    count: int = 1,
    *,
    threads: int | None = None,
) -> NDArray[np.uint64]:
    """Blocks ``start .. start+count-1`` of stream ``(seed, purpose, *ids)``, shape (count, 4)."""
    start = _validate.u64("start", start)
    count = _validate.integer("count", count, 0, (1 << 64) - start)
    return _core.rng.stream_blocks(
        _validate.seed(seed),
        _purpose(purpose),
        _validate.ids(ids, MAX_IDS),
        start,
        count,
        _validate.threads(threads),
    )


def draws(
    seed: int,
    purpose: str,
    ids: Sequence[int],
    kind: DrawKind,
    params: ArrayLike,
) -> NDArray[np.uint64]:
    """One draw per parameter, read in order from the start of one stream.

    ``kind`` is ``"u64"`` (a raw word; the parameter is ignored), ``"uniform_below"`` (an
    integer in ``[0, n)`` by exact rejection), ``"below"`` (an integer in ``[0, n)`` by
    multiply-shift with exact rejection), ``"below_half"`` (the same on 32-bit halves of the
    words, low half first; n < 2**32), ``"coin_flips"`` (heads among ``k`` coins, the
    popcount of ``k`` bits) or ``"binomial_half"`` (Binomial(n, 1/2) for any n).
    """
    if kind not in _DRAW_KINDS:
        raise InvalidParameter(f"kind must be one of {_DRAW_KINDS}, got {kind!r}")
    return _core.rng.stream_draws(
        _validate.seed(seed),
        _purpose(purpose),
        _validate.ids(ids, MAX_IDS),
        kind,
        _validate.u64_array("params", params, ndim=1),
    )


def binomial_half(
    seed: int,
    purpose: str,
    ids: ArrayLike,
    n: ArrayLike,
    *,
    threads: int | None = None,
) -> NDArray[np.uint64]:
    """Binomial(n[i], 1/2) for each row ``i``, drawn from its own stream
    ``(seed, purpose, *ids[i])``; rows run in parallel and the result never depends on
    ``threads``."""
    id_rows = _validate.u64_array("ids", ids, ndim=2)
    trials = _validate.u64_array("n", n, ndim=1)
    if id_rows.shape[1] > MAX_IDS or id_rows.shape[0] != trials.shape[0]:
        raise InvalidParameter(
            f"ids must have shape (len(n), j) with j <= {MAX_IDS}; got ids {id_rows.shape} "
            f"for {trials.shape[0]} values of n"
        )
    return _core.rng.binomial_half_streams(
        _validate.seed(seed), _purpose(purpose), id_rows, trials, _validate.threads(threads)
    )


def coin_flip_heads(
    seed: int, purpose: str, ids: Sequence[int], k: int, *, threads: int | None = None
) -> int:
    """Heads among ``k`` coins read from the start of a stream, counted in parallel.

    Equal to ``draws(seed, purpose, ids, "coin_flips", [k])[0]``; for very large ``k`` this is
    an exact Binomial(k, 1/2) draw at more than 10^10 coins per second per core, interruptible.
    """
    return _core.rng.coin_flip_heads(
        _validate.seed(seed),
        _purpose(purpose),
        _validate.ids(ids, MAX_IDS),
        _validate.u64("k", k),
        _validate.threads(threads),
    )
