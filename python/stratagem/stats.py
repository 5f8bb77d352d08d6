"""Statistics shared by the match runners and tournaments of every game."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["Z95", "elo_difference", "wilson_interval"]

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


def wilson_interval(
    successes: ArrayLike, trials: int, z: float = Z95
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The Wilson score interval of a binomial proportion (95% by default). ``successes`` may
    count a draw as half a success.

    >>> low, high = wilson_interval([0, 10], 10)
    >>> low.round(3).tolist(), high.round(3).tolist()
    ([0.0, 0.722], [0.278, 1.0])
    """
    wins = np.asarray(successes, dtype=np.float64)
    if trials == 0:
        return np.zeros(wins.shape), np.ones(wins.shape)
    p = wins / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * np.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0 and at all successes the bounds are exactly 0 and 1; rounding would miss them.
    low = np.where(wins == 0, 0.0, np.clip(centre - half, 0, 1))
    high = np.where(wins == trials, 1.0, np.clip(centre + half, 0, 1))
    return low, high


def elo_difference(score: float) -> float:
    """The Elo difference that predicts an expected ``score`` (in [0, 1]):
    ``-400 log10(1 / score - 1)``, infinite at 0 and 1.

    >>> round(elo_difference(0.75), 1), elo_difference(0.5), elo_difference(1.0)
    (190.8, 0.0, inf)
    """
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))
