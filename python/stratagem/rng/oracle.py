"""The stratagem random number generator in plain Python: the oracle of ``rust/core/src/rng``.

Written for reading, not speed. Every function here mirrors one in Rust line by line, and the
tests demand bit-identical output:

- :func:`philox4x64_10` -- ``rng/philox.rs``
- :func:`purpose_tag`, :class:`Stream`, :class:`Cursor` -- ``rng/stream.rs``
- :func:`det_ln` -- ``rng/detmath.rs``
- :meth:`Cursor.binomial_half` -- ``rng/binomial.rs``

Layout of a stream ``(seed, purpose, ids)``: key ``[seed, purpose_tag(purpose)]``, counter
``[block_index, id0, id1, id2]`` with missing ids 0 (see ``docs/determinism.md``).
"""

from __future__ import annotations

import math

from stratagem.errors import InvalidParameter

__all__ = [
    "BINOMIAL_POPCOUNT_LIMIT",
    "BTRS_CHUNK",
    "MAX_IDS",
    "Cursor",
    "Stream",
    "det_ln",
    "philox4x64_10",
    "purpose_tag",
]

MASK64 = (1 << 64) - 1
MAX_IDS = 3
BINOMIAL_POPCOUNT_LIMIT = 256
BTRS_CHUNK = 1 << 52

_MULTIPLIER = (0xD2E7470EE14C6C93, 0xCA5A826395121157)
_WEYL = (0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B)
_ROUNDS = 10


def philox4x64_10(counter: tuple[int, int, int, int], key: tuple[int, int]) -> tuple[int, ...]:
    """One Philox4x64-10 block (Salmon et al. 2011), as Random123 and numpy compute it."""
    x0, x1, x2, x3 = counter
    k0, k1 = key
    for round_index in range(_ROUNDS):
        if round_index > 0:
            k0 = (k0 + _WEYL[0]) & MASK64
            k1 = (k1 + _WEYL[1]) & MASK64
        product0 = _MULTIPLIER[0] * x0
        product1 = _MULTIPLIER[1] * x2
        hi0, lo0 = product0 >> 64, product0 & MASK64
        hi1, lo1 = product1 >> 64, product1 & MASK64
        x0, x1, x2, x3 = hi1 ^ x1 ^ k0, lo1, hi0 ^ x3 ^ k1, lo0
    return (x0, x1, x2, x3)


class Halves:
    """Reads a cursor's words as 32-bit halves, low half first."""

    def __init__(self, cursor: Cursor) -> None:
        self.cursor = cursor
        self.high: int | None = None

    def next_u32(self) -> int:
        if self.high is not None:
            half, self.high = self.high, None
            return half
        word = self.cursor.next_u64()
        self.high = word >> 32
        return word & 0xFFFFFFFF

    def below(self, n: int) -> int:
        """Uniform in [0, n): the high half of half * n, redrawn while the low half is below
        2**32 mod n."""
        if n == 0:
            return 0
        rejected_below = (1 << 32) % n
        while True:
            product = self.next_u32() * n
            if product & 0xFFFFFFFF >= rejected_below:
                return product >> 32


def purpose_tag(purpose: str) -> int:
    """FNV-1a (64-bit) of the purpose's UTF-8 bytes."""
    tag = 0xCBF29CE484222325
    for byte in purpose.encode("utf-8"):
        tag ^= byte
        tag = (tag * 0x100000001B3) & MASK64
    return tag


class Stream:
    """The stream of Philox blocks named ``(seed, purpose, *ids)``."""

    def __init__(self, seed: int, purpose: str, *ids: int) -> None:
        if len(ids) > MAX_IDS:
            raise InvalidParameter(f"a stream takes at most {MAX_IDS} ids, got {len(ids)}")
        self.key = (seed, purpose_tag(purpose))
        self.ids = tuple(ids) + (0,) * (MAX_IDS - len(ids))

    def block(self, index: int) -> tuple[int, ...]:
        """Block ``index``: Philox of counter ``[index, id0, id1, id2]``."""
        return philox4x64_10((index, self.ids[0], self.ids[1], self.ids[2]), self.key)

    def cursor(self, start: int = 0) -> Cursor:
        """A reader of the stream's words from block ``start`` on."""
        return Cursor(self, start)


class Cursor:
    """Reads a stream word by word and turns words into draws."""

    def __init__(self, stream: Stream, start: int = 0) -> None:
        self.stream = stream
        self.next_block = start
        self.words: tuple[int, ...] = ()
        self.used = 4

    def next_u64(self) -> int:
        if self.used == 4:
            self.words = self.stream.block(self.next_block)
            self.next_block = (self.next_block + 1) & MASK64
            self.used = 0
        word = self.words[self.used]
        self.used += 1
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
        """Uniform in [0, n) by multiply-shift: the high word of word * n, redrawn while the
        low word is below 2**64 mod n (Lemire 2019)."""
        if n == 0:
            return 0
        rejected_below = (1 << 64) % n
        while True:
            product = self.next_u64() * n
            if product & MASK64 >= rejected_below:
                return product >> 64

    def halves(self) -> Halves:
        """This cursor's words read as 32-bit halves, low half first."""
        return Halves(self)

    def coin_flips(self, k: int) -> int:
        """Heads among k fair coins: popcount of k bits, exactly Binomial(k, 1/2)."""
        heads = 0
        for _ in range(k // 64):
            heads += self.next_u64().bit_count()
        rest = k % 64
        if rest > 0:
            heads += (self.next_u64() & ((1 << rest) - 1)).bit_count()
        return heads

    def binomial_half(self, n: int) -> int:
        """Binomial(n, 1/2): coin flips for small n, BTRS in chunks of at most 2**52 above."""
        if n <= BINOMIAL_POPCOUNT_LIMIT:
            return self.coin_flips(n)
        heads = 0
        while n > BTRS_CHUNK:
            heads += self._btrs_half(BTRS_CHUNK)
            n -= BTRS_CHUNK
        return heads + self._btrs_half(n)

    def _btrs_half(self, n: int) -> int:
        """Hörmann's BTRS (1993) for p = 1/2; see ``rng/binomial.rs`` for the derivation."""
        nf = float(n)
        spq = math.sqrt(nf * 0.25)
        b = 1.15 + 2.53 * spq
        a = -0.0873 + 0.0248 * b + 0.005
        c = nf * 0.5 + 0.5
        v_r = 0.92 - 4.2 / b
        alpha = (2.83 + 5.1 / b) * spq
        m = float((n + 1) // 2)  # the mode, ceil(n / 2)
        log_mode_part = (
            (m + 0.5) * det_ln((m + 1.0) / (nf - m + 1.0))
            + _stirling_tail(m)
            + _stirling_tail(nf - m)
        )
        while True:
            u = self.next_float() - 0.5
            v = self.next_float()
            us = 0.5 - abs(u)
            k = float(math.floor((2.0 * a / us + b) * u + c))
            if k < 0.0 or k > nf:
                continue
            if us >= 0.07 and v <= v_r:
                return int(k)
            log_v = det_ln(v * alpha / (a / (us * us) + b))
            log_bound = (
                log_mode_part
                + (nf + 1.0) * det_ln((nf - m + 1.0) / (nf - k + 1.0))
                + (k + 0.5) * det_ln((nf - k + 1.0) / (k + 1.0))
                - _stirling_tail(k)
                - _stirling_tail(nf - k)
            )
            if log_v <= log_bound:
                return int(k)


_STIRLING_TAIL = (
    0.08106146679532726,
    0.04134069595540929,
    0.02767792568499834,
    0.02079067210376509,
    0.01664469118982119,
    0.01387612882307075,
    0.01189670994589177,
    0.01041126526197209,
    0.009255462182712733,
    0.00833056343336287,
)


def _stirling_tail(k: float) -> float:
    """The Stirling series tail of ln k! (table below 10, three terms above)."""
    if k < 10.0:
        return _STIRLING_TAIL[int(k)]
    kp1 = k + 1.0
    kp1sq = kp1 * kp1
    return (1.0 / 12.0 - (1.0 / 360.0 - 1.0 / 1260.0 / kp1sq) / kp1sq) / kp1


_LN2 = 0.6931471805599453
_SQRT2 = 1.4142135623730951
_ATANH_TERMS = 12


def det_ln(x: float) -> float:
    """ln x from IEEE basic operations only, bit-identical to Rust's ``det_ln``."""
    if x == 0.0:
        return -math.inf
    if math.isnan(x) or x < 0.0:
        return math.nan
    if math.isinf(x):
        return math.inf
    half_mantissa, exponent = math.frexp(x)  # x = half_mantissa * 2**exponent, in [0.5, 1)
    f, e = half_mantissa * 2.0, exponent - 1
    if f > _SQRT2:
        f *= 0.5
        e += 1
    s = (f - 1.0) / (f + 1.0)
    z = s * s
    series = 1.0 / float(2 * _ATANH_TERMS + 1)
    for j in range(_ATANH_TERMS - 1, -1, -1):
        series = series * z + 1.0 / float(2 * j + 1)
    return float(e) * _LN2 + 2.0 * s * series
