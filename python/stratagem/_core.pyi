"""Type stubs of the Rust extension ``stratagem._core`` (checked by ``mypy.stubtest``)."""

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "BINOMIAL_POPCOUNT_LIMIT",
    "BTRS_CHUNK",
    "BUILD_PROFILE",
    "MAX_IDS",
    "MAX_THREADS",
    "__version__",
    "binomial_half_streams",
    "coin_flip_heads",
    "default_threads",
    "philox4x64_10",
    "purpose_tag",
    "resolve_threads",
    "stream_blocks",
    "stream_draws",
]

__version__: str
BUILD_PROFILE: str
MAX_THREADS: int
MAX_IDS: int
BINOMIAL_POPCOUNT_LIMIT: int
BTRS_CHUNK: int

def resolve_threads(threads: int | None = None) -> int: ...
def default_threads() -> int: ...
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
