"""``stratagem._core.mastermind`` (rust/python/src/mastermind.rs)."""

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "ENUMERABLE_LIMIT",
    "OPTIMAL_LIMIT",
    "STRATEGIES",
    "children",
    "consistent",
    "contradiction",
    "count",
    "estimate",
    "evaluate",
    "first",
    "next_guess",
    "optimal_cost",
    "sample_secrets",
    "score",
    "shuffled_order",
    "solve",
]

STRATEGIES: list[str]

ENUMERABLE_LIMIT: int
OPTIMAL_LIMIT: int

def score(
    guesses: NDArray[np.uint8],
    secrets: NDArray[np.uint8],
    colours: int,
    threads: int | None = None,
) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]: ...
def first(
    spots: int,
    colours: int,
    guesses: NDArray[np.uint8],
    feedback: NDArray[np.uint8],
    prefix: NDArray[np.uint8] | None = None,
    order: NDArray[np.uint8] | None = None,
    threads: int | None = None,
) -> NDArray[np.uint8] | None: ...
def children(
    spots: int,
    colours: int,
    guesses: NDArray[np.uint8],
    feedback: NDArray[np.uint8],
    prefix: NDArray[np.uint8],
    order: NDArray[np.uint8] | None = None,
) -> NDArray[np.uint8]: ...
def count(
    spots: int,
    colours: int,
    guesses: NDArray[np.uint8],
    feedback: NDArray[np.uint8],
    prefix: NDArray[np.uint8] | None = None,
    threads: int | None = None,
) -> int: ...
def estimate(
    spots: int,
    colours: int,
    guesses: NDArray[np.uint8],
    feedback: NDArray[np.uint8],
    probes: int,
    seed: int,
    threads: int | None = None,
) -> tuple[float, float]: ...
def consistent(
    spots: int,
    colours: int,
    guesses: NDArray[np.uint8],
    feedback: NDArray[np.uint8],
    threads: int | None = None,
) -> NDArray[np.uint8]: ...
def shuffled_order(spots: int, colours: int, seed: int) -> NDArray[np.uint8]: ...
def next_guess(
    spots: int,
    colours: int,
    guesses: NDArray[np.uint8],
    feedback: NDArray[np.uint8],
    strategy: str,
    seed: int = 0,
    order: str = "lex",
    threads: int | None = None,
) -> NDArray[np.uint8] | None: ...
def contradiction(
    spots: int,
    colours: int,
    guesses: NDArray[np.uint8],
    feedback: NDArray[np.uint8],
    threads: int | None = None,
) -> list[int] | None: ...
def sample_secrets(spots: int, colours: int, count: int, seed: int) -> NDArray[np.uint8]: ...
def evaluate(
    spots: int,
    colours: int,
    strategy: str,
    secrets: NDArray[np.uint8],
    seed: int = 0,
    order: str = "lex",
    threads: int | None = None,
    progress: Callable[[int], object] | None = None,
) -> NDArray[np.uint32]: ...
def optimal_cost(
    spots: int,
    colours: int,
    guesses: NDArray[np.uint8],
    feedback: NDArray[np.uint8],
    threads: int | None = None,
) -> int: ...
def solve(
    secret: NDArray[np.uint8],
    colours: int,
    strategy: str,
    seed: int = 0,
    order: str = "lex",
    threads: int | None = None,
) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]: ...
