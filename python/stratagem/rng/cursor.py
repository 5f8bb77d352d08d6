"""A word-by-word reader of one stream for sequential Python code (map generation, shuffles
decided one draw at a time). Its blocks come from the Rust generator in batches; the draws
follow the same rules as the engine's ``Cursor`` (``docs/determinism.md``), and the tests check
them against :class:`stratagem.rng.oracle.Cursor`, draw for draw."""

from __future__ import annotations

from typing import Final

from stratagem import _core, _validate
from stratagem.errors import InvalidParameter

_MASK64: Final = (1 << 64) - 1
_BATCH: Final = 64  # blocks fetched from Rust at a time: one call per 256 words


class Cursor:
    """Reads stream ``(seed, purpose, *ids)`` word by word from block ``start`` on."""

    __slots__ = ("_ids", "_next_block", "_purpose", "_seed", "_used", "_words")

    def __init__(self, seed: int, purpose: str, *ids: int, start: int = 0) -> None:
        if not isinstance(purpose, str):
            raise InvalidParameter(f"purpose must be a string, got {type(purpose).__name__}")
        self._seed = _validate.seed(seed)
        self._purpose = purpose
        self._ids = _validate.ids(ids, _core.rng.MAX_IDS)
        self._next_block = _validate.u64("start", start)
        self._words: list[int] = []
        self._used = 0

    def next_u64(self) -> int:
        if self._used == len(self._words):
            count = min(
                _BATCH, (1 << 64) - self._next_block
            )  # the stream wraps after block 2**64 - 1
            blocks = _core.rng.stream_blocks(
                self._seed, self._purpose, self._ids, self._next_block, count, 1
            )
            self._words = [int(word) for word in blocks.reshape(-1)]
            self._next_block = (self._next_block + count) & _MASK64
            self._used = 0
        word = self._words[self._used]
        self._used += 1
        return word

    def next_float(self) -> float:
        """A uniform double in [0, 1): the top 53 bits of one word times 2**-53."""
        return (self.next_u64() >> 11) * 2.0**-53

    def uniform_below(self, n: int) -> int:
        """Uniform in [0, n) by exact rejection of words below 2**64 mod n."""
        if n == 0:
            return 0
        rejected_below = (1 << 64) % n
        while True:
            word = self.next_u64()
            if word >= rejected_below:
                return word % n

    def below(self, n: int) -> int:
        """Uniform in [0, n) by multiply-shift (Lemire 2019), redrawn while the low word is
        below 2**64 mod n."""
        if n == 0:
            return 0
        rejected_below = (1 << 64) % n
        while True:
            product = self.next_u64() * n
            if product & _MASK64 >= rejected_below:
                return product >> 64
