"""RNG throughput: Philox blocks, exact coin flips and Binomial(n, 1/2), Rust against the
pure-Python oracle."""

from __future__ import annotations

import numpy as np

from harness import Case
from stratagem import _core, rng
from stratagem.rng import oracle


def _rust_blocks(count: int, threads: int) -> int:
    rng.blocks(1, "bench.blocks", [7], 0, count, threads=threads)
    return count


def _oracle_blocks(count: int) -> int:
    stream = oracle.Stream(1, "bench.blocks", 7)
    for index in range(count):
        stream.block(index)
    return count


def _rust_binomial(n: int, draws: int, threads: int) -> int:
    ids = np.arange(draws, dtype=np.uint64).reshape(-1, 1)
    rng.binomial_half(1, "bench.binomial", ids, np.full(draws, n, np.uint64), threads=threads)
    return draws


def _oracle_binomial(n: int, draws: int) -> int:
    for i in range(draws):
        oracle.Stream(1, "bench.binomial", i).cursor().binomial_half(n)
    return draws


def _rust_coins(coins: int, threads: int) -> int:
    rng.coin_flip_heads(1, "bench.coins", [], coins, threads=threads)
    return coins


def _oracle_coins(coins: int) -> int:
    oracle.Stream(1, "bench.coins").cursor().coin_flips(coins)
    return coins


def cases(quick: bool) -> list[Case]:
    scale = 1 if quick else 10
    all_threads = _core.default_threads()
    result: list[Case] = []
    for threads in sorted({1, all_threads}):
        result += [
            Case(
                "philox blocks",
                "blocks",
                lambda t=threads: _rust_blocks(1_000_000 * scale, t),
                lambda: _oracle_blocks(5_000 * scale),
                threads,
            ),
            Case(
                "coin flips (popcount)",
                "coins",
                lambda t=threads: _rust_coins(10**9 * scale, t),
                lambda: _oracle_coins(200_000 * scale),
                threads,
            ),
            Case(
                "binomial n=100",
                "draws",
                lambda t=threads: _rust_binomial(100, 200_000 * scale, t),
                lambda: _oracle_binomial(100, 2_000 * scale),
                threads,
            ),
            Case(
                "binomial n=10^12",
                "draws",
                lambda t=threads: _rust_binomial(10**12, 200_000 * scale, t),
                lambda: _oracle_binomial(10**12, 2_000 * scale),
                threads,
            ),
        ]
    return result
