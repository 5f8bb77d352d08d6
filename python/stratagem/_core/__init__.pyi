"""The Rust extension ``stratagem._core``: the runtime at the top, one submodule per area
(checked by ``mypy.stubtest``)."""

from stratagem._core import annexation as annexation
from stratagem._core import conquest as conquest
from stratagem._core import diplomacy as diplomacy
from stratagem._core import graph as graph
from stratagem._core import mastermind as mastermind
from stratagem._core import outpost as outpost
from stratagem._core import rng as rng

__all__ = [
    "BUILD_PROFILE",
    "MAX_THREADS",
    "__version__",
    "annexation",
    "conquest",
    "default_threads",
    "diplomacy",
    "graph",
    "mastermind",
    "outpost",
    "resolve_threads",
    "rng",
    "share_cores",
]

__version__: str
BUILD_PROFILE: str
MAX_THREADS: int

def resolve_threads(threads: int | None = None) -> int: ...
def default_threads() -> int: ...
def share_cores(processes: int) -> int: ...
