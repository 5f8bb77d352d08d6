"""Evaluating a strategy: every secret of the space (or a seeded sample) played in parallel.

>>> from stratagem.mastermind import evaluate
>>> result = evaluate(4, 6, "knuth")
>>> result.total, result.worst, round(float(result.average), 3)
(5801, 5, 4.476)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stratagem import _core, _validate
from stratagem.mastermind.code import check_space, format_code
from stratagem.mastermind.game import ENUMERABLE_LIMIT, _history
from stratagem.mastermind.players import _strategy
from stratagem.progress import Progress, ProgressOption

__all__ = ["DEFAULT_SAMPLE", "Evaluation", "evaluate", "sample_secrets"]

#: Secrets played on a space too large to play every code, when no sample size is given.
DEFAULT_SAMPLE = 1000


@dataclass(frozen=True)
class Evaluation:
    """How many guesses a strategy took for each secret."""

    spots: int
    colours: int
    strategy: str
    seed: int
    secrets: NDArray[np.uint8]
    guesses: NDArray[np.uint32]
    seconds: float
    sampled: bool

    @property
    def total(self) -> int:
        return int(self.guesses.sum(dtype=np.int64))

    @property
    def average(self) -> Fraction:
        """The exact mean number of guesses."""
        return Fraction(self.total, max(len(self.guesses), 1))

    @property
    def worst(self) -> int:
        return int(self.guesses.max()) if len(self.guesses) else 0

    @property
    def histogram(self) -> NDArray[np.int64]:
        """``histogram[k]``: how many secrets took k guesses."""
        return np.bincount(self.guesses.astype(np.int64), minlength=self.worst + 1)

    def hardest(self, count: int = 5) -> list[str]:
        """The secrets that took the most guesses (ties in secret order)."""
        order = np.argsort(-self.guesses.astype(np.int64), kind="stable")[:count]
        return [format_code(self.secrets[i]) for i in order]

    def to_dict(self) -> dict[str, Any]:
        return {
            "spots": self.spots,
            "colours": self.colours,
            "strategy": self.strategy,
            "seed": self.seed,
            "secrets": len(self.guesses),
            "sampled": self.sampled,
            "total": self.total,
            "average": float(self.average),
            "average_fraction": f"{self.average.numerator}/{self.average.denominator}",
            "worst": self.worst,
            "histogram": {str(k): int(n) for k, n in enumerate(self.histogram) if n},
            "hardest": self.hardest(),
            "seconds": self.seconds,
        }


def sample_secrets(spots: int, colours: int, count: int, seed: int = 0) -> NDArray[np.uint8]:
    """``count`` secrets drawn from ``seed`` (secret i from stream
    ``(seed, "mastermind.secrets", i)``)."""
    spots, colours = check_space(spots, colours)
    count = _validate.integer("sample", count, 1, 1 << 26)
    return _core.mastermind.sample_secrets(spots, colours, count, _validate.seed(seed))


def evaluate(
    spots: int,
    colours: int,
    strategy: str = "knuth",
    *,
    sample: int | None = None,
    seed: int = 0,
    order: str = "lex",
    threads: int | None = None,
    progress: ProgressOption = None,
) -> Evaluation:
    """Plays ``strategy`` against every code of the space (``sample=None`` on spaces of at
    most ``ENUMERABLE_LIMIT`` codes) or against ``sample`` seeded secrets (``DEFAULT_SAMPLE``
    if the space is larger and no size is given), in parallel, with a progress bar on stderr
    for long runs. Every game uses the same strategy seed."""
    spots, colours = check_space(spots, colours)
    strategy, order = _strategy(strategy, order)
    seed = _validate.seed(seed)
    threads = _validate.threads(threads)
    size = colours**spots
    if sample is None and size <= ENUMERABLE_LIMIT:
        secrets = _core.mastermind.consistent(_history(spots, colours, (), ()), threads)
        sampled = False
    else:
        # The engine refuses strategies the space is too large for, naming the limit.
        secrets = sample_secrets(spots, colours, DEFAULT_SAMPLE if sample is None else sample, seed)
        sampled = True
    started = time.perf_counter()
    with Progress(
        len(secrets), f"mastermind {strategy} {spots}x{colours}", enabled=progress
    ) as bar:
        guesses = _core.mastermind.evaluate(
            spots, colours, strategy, secrets, seed, order, threads, bar.reach
        )
        bar.reach(len(secrets))
    return Evaluation(
        spots=spots,
        colours=colours,
        strategy=strategy,
        seed=seed,
        secrets=secrets,
        guesses=guesses,
        seconds=time.perf_counter() - started,
        sampled=sampled,
    )
