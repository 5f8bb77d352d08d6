"""A word-by-word reader of one stream for sequential Python code (map generation, shuffles
decided one draw at a time): the engine's ``Cursor`` (``docs/determinism.md``), one draw a
call. The tests check it against :class:`stratagem.rng.oracle.Cursor`, draw for draw."""

from __future__ import annotations

from stratagem import _core, _validate
from stratagem.errors import InvalidParameter


class Cursor:
    """Reads stream ``(seed, purpose, *ids)`` word by word from block ``start`` on; after
    block ``2**64 - 1`` the stream wraps to block 0."""

    __slots__ = ("_engine",)

    def __init__(self, seed: int, purpose: str, *ids: int, start: int = 0) -> None:
        if not isinstance(purpose, str):
            raise InvalidParameter(f"purpose must be a string, got {type(purpose).__name__}")
        self._engine = _core.rng.Cursor(
            _validate.seed(seed),
            purpose,
            _validate.ids(ids, _core.rng.MAX_IDS),
            _validate.u64("start", start),
        )

    def next_u64(self) -> int:
        """The next word of the stream."""
        return self._engine.next_u64()

    def next_float(self) -> float:
        """A uniform double in [0, 1): the top 53 bits of one word times 2**-53."""
        return self._engine.next_float()

    def uniform_below(self, n: int) -> int:
        """Uniform in [0, n) by exact rejection of words below 2**64 mod n (0 for n = 0)."""
        try:
            return self._engine.uniform_below(n)
        except (OverflowError, TypeError):
            raise _bad_bound(n) from None

    def below(self, n: int) -> int:
        """Uniform in [0, n) by multiply-shift (Lemire 2019), redrawn while the low word is
        below 2**64 mod n (0 for n = 0)."""
        try:
            return self._engine.below(n)
        except (OverflowError, TypeError):
            raise _bad_bound(n) from None


def _bad_bound(n: object) -> InvalidParameter:
    return InvalidParameter(f"a draw's bound n must be an integer in [0, 2**64), got {n!r}")
