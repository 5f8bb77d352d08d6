"""``stratagem._core.graph``: the CSR graph check and the CSR pair of an edge list
(rust/python/src/graph.rs)."""

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "check",
    "csr",
]

def check(
    offsets: NDArray[np.int64],
    neighbours: NDArray[np.int64],
    node: str,
    offsets_name: str,
    neighbours_name: str,
    min_nodes: int,
    max_nodes: int,
    isolated_ok: bool,
    connected: bool,
) -> int: ...
def csr(
    u: NDArray[np.int64], v: NDArray[np.int64], n: int, threads: int | None = None
) -> tuple[NDArray[np.int64], NDArray[np.int64]]: ...
