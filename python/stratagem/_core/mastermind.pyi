"""``stratagem._core.mastermind`` (rust/python/src/mastermind.rs)."""

from collections.abc import Callable
from typing import final

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "COUNT_PROGRESS",
    "ENUMERABLE_LIMIT",
    "OPTIMAL_LIMIT",
    "STRATEGIES",
    "History",
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
COUNT_PROGRESS: int

@final
class History:
    """A checked space and history, built once and handed to every search."""

    def __new__(
        cls,
        spots: int,
        colours: int,
        guesses: NDArray[np.uint8],
        feedback: NDArray[np.uint8],
    ) -> History: ...
    @property
    def spots(self) -> int: ...
    @property
    def colours(self) -> int: ...
    @property
    def guesses(self) -> NDArray[np.uint8]: ...
    @property
    def feedback(self) -> NDArray[np.uint8]: ...
    def __len__(self) -> int: ...

def score(
    guesses: NDArray[np.uint8],
    secrets: NDArray[np.uint8],
    colours: int,
    threads: int | None = None,
) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]: ...
def first(
    history: History,
    prefix: NDArray[np.uint8] | None = None,
    order: NDArray[np.uint8] | None = None,
    threads: int | None = None,
) -> NDArray[np.uint8] | None: ...
def children(
    history: History,
    prefix: NDArray[np.uint8],
    order: NDArray[np.uint8] | None = None,
) -> NDArray[np.uint8]: ...
def count(
    history: History,
    prefix: NDArray[np.uint8] | None = None,
    threads: int | None = None,
    progress: Callable[[int], object] | None = None,
) -> int: ...
def estimate(
    history: History,
    probes: int,
    seed: int,
    threads: int | None = None,
) -> tuple[float, float]: ...
def consistent(
    history: History,
    threads: int | None = None,
) -> NDArray[np.uint8]: ...
def shuffled_order(spots: int, colours: int, seed: int) -> NDArray[np.uint8]: ...
def next_guess(
    history: History,
    strategy: str,
    seed: int = 0,
    order: str = "lex",
    threads: int | None = None,
) -> NDArray[np.uint8] | None: ...
def contradiction(
    history: History,
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
    history: History,
    threads: int | None = None,
) -> int: ...
def solve(
    secret: NDArray[np.uint8],
    colours: int,
    strategy: str,
    seed: int = 0,
    order: str = "lex",
    threads: int | None = None,
    progress: Callable[[int], object] | None = None,
) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]: ...
