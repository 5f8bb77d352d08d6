"""Soak tests (``-m slow``): long randomised runs of the Rust path against the oracle.

Each runs for ``STRATAGEM_SOAK_SECONDS`` (default 20; ``.ci/run`` keeps it brief) and reports
how many cases it compared. Failures print the seed and parameters to reproduce them.
"""

from __future__ import annotations

import os
import random
import time

import numpy as np
import pytest

from stratagem import rng
from stratagem.rng import oracle

pytestmark = pytest.mark.slow

SECONDS = float(os.environ.get("STRATAGEM_SOAK_SECONDS", "20"))


def _trials(source: random.Random) -> int:
    bits = source.choice([4, 8, 9, 16, 32, 52, 53, 60, 64])
    return source.randrange(1 << bits)


def test_binomial_draws_rust_equals_oracle_soak():
    source = random.Random(0x50A4)
    deadline = time.monotonic() + SECONDS
    compared = 0
    while time.monotonic() < deadline:
        seed = source.randrange(1 << 64)
        params = [_trials(source) for _ in range(16)]
        got = rng.draws(seed, "soak", [compared], "binomial_half", params).tolist()
        cursor = oracle.Stream(seed, "soak", compared).cursor()
        expected = [cursor.binomial_half(n) for n in params]
        assert got == expected, f"seed={seed} ids=[{compared}] params={params}"
        compared += len(params)
    print(f"compared {compared} binomial draws")
    assert compared > 0


def test_batched_streams_are_independent_of_threads_soak():
    source = random.Random(0x7EAD)
    deadline = time.monotonic() + SECONDS
    batches = 0
    while time.monotonic() < deadline:
        seed = source.randrange(1 << 64)
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
