"""``stratagem._core.rng``: the counter-based generator (rust/python/src/rng.rs)."""

from typing import final

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "BINOMIAL_POPCOUNT_LIMIT",
    "BTRS_CHUNK",
    "MAX_IDS",
    "Cursor",
    "binomial_half_streams",
    "coin_flip_heads",
    "philox4x64_10",
    "purpose_tag",
    "stream_blocks",
    "stream_draws",
]

MAX_IDS: int
BINOMIAL_POPCOUNT_LIMIT: int
BTRS_CHUNK: int

@final
class Cursor:
    def __new__(cls, seed: int, purpose: str, ids: list[int], start: int) -> Cursor: ...
    def next_u64(self) -> int: ...
    def next_float(self) -> float: ...
    def uniform_below(self, n: int) -> int: ...
    def below(self, n: int) -> int: ...

def philox4x64_10(counters: NDArray[np.uint64], keys: NDArray[np.uint64]) -> NDArray[np.uint64]: ...
def purpose_tag(purpose: str) -> int: ...
def stream_blocks(
    seed: int,
    purpose: str,
    ids: list[int],
    start: int,
    count: int,
    threads: int | None = None,
) -> NDArray[np.uint64]: ...
def stream_draws(
    seed: int, purpose: str, ids: list[int], kind: str, params: NDArray[np.uint64]
) -> NDArray[np.uint64]: ...
def binomial_half_streams(
    seed: int,
    purpose: str,
    ids: NDArray[np.uint64],
    n: NDArray[np.uint64],
    threads: int | None = None,
) -> NDArray[np.uint64]: ...
def coin_flip_heads(
    seed: int, purpose: str, ids: list[int], k: int, threads: int | None = None
) -> int: ...
