"""Soak tests (``-m slow``): long randomised runs of the Rust path against the oracle.

Each runs for ``STRATAGEM_SOAK_SECONDS`` (default 20; ``.ci/run`` keeps it brief) and reports
how many cases it compared. Failures print the seed and parameters to reproduce them.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator

import numpy as np
import pytest

from stratagem import rng
from stratagem.rng import oracle

pytestmark = pytest.mark.slow

SECONDS = float(os.environ.get("STRATAGEM_SOAK_SECONDS", "20"))


def rounds(salt: int) -> Iterator[tuple[random.Random, int]]:
    """For SECONDS, one round after another: the test's random source (seeded by ``salt``,
    so a failure can be replayed) and the round's engine seed."""
    source = random.Random(salt)
    deadline = time.monotonic() + SECONDS
    while time.monotonic() < deadline:
        yield source, source.randrange(1 << 64)


def _trials(source: random.Random) -> int:
    bits = source.choice([4, 8, 9, 16, 32, 52, 53, 60, 64])
    return source.randrange(1 << bits)


def test_binomial_draws_rust_equals_oracle_soak():
    compared = 0
    for source, seed in rounds(0x50A4):
        params = [_trials(source) for _ in range(16)]
        got = rng.draws(seed, "soak", [compared], "binomial_half", params).tolist()
        cursor = oracle.Stream(seed, "soak", compared).cursor()
        expected = [cursor.binomial_half(n) for n in params]
        assert got == expected, f"seed={seed} ids=[{compared}] params={params}"
        compared += len(params)
    print(f"compared {compared} binomial draws")
    assert compared > 0


def test_batched_streams_are_independent_of_threads_soak():
    batches = 0
    for source, seed in rounds(0x7EAD):
        size = source.randrange(1, 50_000)
        ids = np.arange(size, dtype=np.uint64).reshape(-1, 1)
        n = np.array([_trials(source) for _ in range(size)], dtype=np.uint64)
        one = rng.binomial_half(seed, "soak.threads", ids, n, threads=1)
        for threads in (2, 3, 4):
            np.testing.assert_array_equal(
                rng.binomial_half(seed, "soak.threads", ids, n, threads=threads),
                one,
                f"seed={seed}",
            )
        batches += 1
    print(f"compared {batches} batches")
    assert batches > 0
