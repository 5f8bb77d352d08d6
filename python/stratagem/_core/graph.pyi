"""``stratagem._core.graph``: the CSR graph check (rust/python/src/graph.rs)."""

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "check",
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
