"""The determinism contract: Philox4x64-10 known answers, equality with numpy's Philox,
Rust == oracle on hypothesis-drawn streams and draws, independence of the thread count, and a
chi-square check of the Binomial(n, 1/2) sampler."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

import stratagem
from stratagem import rng
from stratagem.rng import oracle

U64 = st.integers(0, 2**64 - 1)
PURPOSES = st.text(min_size=1, max_size=12)
IDS = st.lists(U64, max_size=rng.MAX_IDS)

# Random123's kat_vectors for philox4x64_10: (counter, key, expected block).
RANDOM123_VECTORS = [
    (
        (0, 0, 0, 0),
        (0, 0),
        (0x16554D9ECA36314C, 0xDB20FE9D672D0FDC, 0xD7E772CEE186176B, 0x7E68B68AEC7BA23B),
    ),
    (
        (2**64 - 1,) * 4,
        (2**64 - 1,) * 2,
        (0x87B092C3013FE90B, 0x438C3C67BE8D0224, 0x9CC7D7C69CD777B6, 0xA09CAEBF594F0BA0),
    ),
    (
        (0x243F6A8885A308D3, 0x13198A2E03707344, 0xA4093822299F31D0, 0x082EFA98EC4E6C89),
        (0x452821E638D01377, 0xBE5466CF34E90C6C),
        (0xA528F45403E61D95, 0x38C72DBD566E9788, 0xA5A1610E72FD18B5, 0x57BD43B5E52B7FE6),
    ),
]


@pytest.mark.parametrize(("counter", "key", "expected"), RANDOM123_VECTORS)
def test_random123_known_answers(counter, key, expected):
    assert oracle.philox4x64_10(counter, key) == expected
    rust = rng.philox4x64_10(np.array([counter], dtype=np.uint64), np.array([key], dtype=np.uint64))
    assert tuple(int(w) for w in rust[0]) == expected


def _words_to_int(words):
    return sum(int(w) << (64 * i) for i, w in enumerate(words))


def _int_to_words(value):
    value %= 1 << 256
    return [(value >> (64 * i)) & (2**64 - 1) for i in range(4)]


def test_equals_numpy_philox_for_1000_random_keys_and_counters():
    # numpy increments the 256-bit counter before generating, so counter c-1 yields block c;
    # three blocks per generator also check its carry into the next word.
    source = np.random.default_rng(20261121)
    keys = source.integers(0, 2**64, size=(1000, 2), dtype=np.uint64)
    counters = source.integers(0, 2**64, size=(1000, 4), dtype=np.uint64)
    counters[:10, 0] = 2**64 - 1  # force carries across words
    counters[:5, 1] = 2**64 - 1
    counters[990:] = 0  # and the wrap of c - 1 below zero
    ours_counters, ours_keys, theirs = [], [], []
    for key, counter in zip(keys, counters, strict=True):
        start = _words_to_int(counter)
        generator = np.random.Philox(
            key=key, counter=np.array(_int_to_words(start - 1), dtype=np.uint64)
        )
        theirs.append(generator.random_raw(12).reshape(3, 4))
        for step in range(3):
            ours_counters.append(_int_to_words(start + step))
            ours_keys.append(key)
    expected = np.concatenate(theirs)
    rust = rng.philox4x64_10(
        np.array(ours_counters, dtype=np.uint64), np.array(ours_keys, dtype=np.uint64)
    )
    np.testing.assert_array_equal(rust, expected)
    python = [
        oracle.philox4x64_10(tuple(c), (int(k[0]), int(k[1])))
        for c, k in zip(ours_counters[::7], ours_keys[::7], strict=True)
    ]
    np.testing.assert_array_equal(np.array(python, dtype=np.uint64), expected[::7])


def test_purpose_tags_agree_and_follow_fnv1a():
    assert rng.purpose_tag("a") == oracle.purpose_tag("a") == 0xAF63DC4C8601EC8C
    assert rng.purpose_tag("conquest.battle") == oracle.purpose_tag("conquest.battle")


@given(
    seed=U64,
    purpose=PURPOSES,
    ids=IDS,
    start=st.one_of(st.integers(0, 2**64 - 7), st.just(2**64 - 7)),
    count=st.integers(0, 7),
)
def test_stream_blocks_rust_equals_oracle(seed, purpose, ids, start, count):
    assert rng.purpose_tag(purpose) == oracle.purpose_tag(purpose)
    stream = oracle.Stream(seed, purpose, *ids)
    expected = np.array([stream.block(start + i) for i in range(count)], dtype=np.uint64).reshape(
        count, 4
    )
    np.testing.assert_array_equal(rng.blocks(seed, purpose, ids, start, count), expected)


def _oracle_draws(seed, purpose, ids, kind, params):
    cursor = oracle.Stream(seed, purpose, *ids).cursor()
    draw = {
        "u64": lambda _: cursor.next_u64(),
        "uniform_below": cursor.uniform_below,
        "below": cursor.below,
        "below_half": cursor.halves().below,
        "coin_flips": cursor.coin_flips,
        "binomial_half": cursor.binomial_half,
    }[kind]
    return [draw(p) for p in params]


# Each bounded draw with the bounds that reach its edge cases: small n, and n up to its limit.
BOUNDED = {
    "uniform_below": st.integers(1, 2**64 - 1),
    "below": st.integers(1, 16) | st.integers(1, 2**64 - 1),
    "below_half": st.integers(1, 16) | st.integers(1, 2**32 - 1),
}


@pytest.mark.parametrize("kind", sorted(BOUNDED))
@given(data=st.data(), seed=U64, purpose=PURPOSES, ids=IDS)
def test_bounded_draws_rust_equal_oracle(kind, data, seed, purpose, ids):
    params = data.draw(st.lists(BOUNDED[kind], max_size=21))
    got = rng.draws(seed, purpose, ids, kind, params)
    assert got.tolist() == _oracle_draws(seed, purpose, ids, kind, params)
    assert all(v < n for v, n in zip(got.tolist(), params, strict=True))


DRAWS = st.lists(
    st.tuples(
        st.sampled_from(["u64", "float", "uniform_below", "below"]), st.integers(0, 2**64 - 1)
    ),
    max_size=600,
)


@given(
    seed=U64,
    purpose=PURPOSES,
    ids=IDS,
    start=st.one_of(U64, st.integers(2**64 - 3, 2**64 - 1)),
    draws=DRAWS,
)
def test_cursor_reads_the_stream_as_the_oracle_cursor_does(seed, purpose, ids, start, draws):
    """The product cursor (Rust blocks, fetched in batches) against the oracle's, draw for draw,
    across batch boundaries and the wrap after block 2**64 - 1."""
    ours, theirs = (
        rng.Cursor(seed, purpose, *ids, start=start),
        oracle.Stream(seed, purpose, *ids).cursor(start),
    )
    for kind, n in draws:
        if kind == "u64":
            assert ours.next_u64() == theirs.next_u64()
        elif kind == "float":
            assert ours.next_float() == theirs.next_float()
        else:
            assert getattr(ours, kind)(n) == getattr(theirs, kind)(n)


def test_cursor_refuses_bad_names():
    with pytest.raises(stratagem.InvalidParameter, match="seed"):
        rng.Cursor(-1, "x")
    with pytest.raises(stratagem.InvalidParameter, match="purpose"):
        rng.Cursor(1, 7)  # type: ignore[arg-type]
    with pytest.raises(stratagem.InvalidParameter, match="ids"):
        rng.Cursor(1, "x", 1, 2, 3, 4)
    with pytest.raises(stratagem.InvalidParameter, match="start"):
        rng.Cursor(1, "x", start=2**64)


@pytest.mark.parametrize("draw", ["uniform_below", "below"])
@pytest.mark.parametrize("n", [-1, 2**64, 2.5, "3"])
def test_cursor_refuses_bad_bounds_without_drawing(draw, n):
    cursor, fresh = rng.Cursor(3, "bounds"), rng.Cursor(3, "bounds")
    with pytest.raises(stratagem.InvalidParameter, match="bound n must be an integer"):
        getattr(cursor, draw)(n)
    assert cursor.next_u64() == fresh.next_u64()


def test_below_rejects_the_low_words_it_must():
    # n = 3 * 2**62: 2**64 mod n = 2**62, so a word w is kept only when (w * n) mod 2**64 >= 2**62.
    n = 3 << 62
    got = rng.draws(5, "below-reject", [], "below", [n] * 200).tolist()
    assert got == _oracle_draws(5, "below-reject", [], "below", [n] * 200)
    counts = [sum(1 for v in got if v // (1 << 62) == third) for third in range(3)]
    assert min(counts) > 40


@given(seed=U64, purpose=PURPOSES, ids=IDS, params=st.lists(st.integers(0, 5000), max_size=20))
def test_coin_flips_rust_equals_oracle(seed, purpose, ids, params):
    got = rng.draws(seed, purpose, ids, "coin_flips", params)
    assert got.tolist() == _oracle_draws(seed, purpose, ids, "coin_flips", params)


TRIALS = st.one_of(
    st.integers(0, 300),  # popcount region and its edge at 256
    st.integers(257, 10**6),
    st.integers(10**6, 2**52),
    st.integers(2**52, 2**56),  # several BTRS chunks
    st.sampled_from([2**64 - 1]),
)


@given(seed=U64, purpose=PURPOSES, ids=IDS, params=st.lists(TRIALS, max_size=12))
def test_binomial_half_rust_equals_oracle(seed, purpose, ids, params):
    got = rng.draws(seed, purpose, ids, "binomial_half", params)
    assert got.tolist() == _oracle_draws(seed, purpose, ids, "binomial_half", params)
    assert all(v <= n for v, n in zip(got.tolist(), params, strict=True))


@given(seed=U64, n=st.lists(TRIALS, min_size=1, max_size=40), width=st.integers(0, 3))
def test_binomial_streams_equal_oracle_for_any_thread_count(seed, n, width):
    ids = np.arange(len(n) * width, dtype=np.uint64).reshape(len(n), width) * 7919
    expected = [
        oracle.Stream(seed, "rows", *(int(i) for i in row)).cursor().binomial_half(trials)
        for row, trials in zip(ids, n, strict=True)
    ]
    for threads in (1, 2, 3):
        assert rng.binomial_half(seed, "rows", ids, n, threads=threads).tolist() == expected


@given(seed=U64, ids=IDS, k=st.integers(0, 300_000))
def test_parallel_coin_count_equals_sequential_flips(seed, ids, k):
    expected = oracle.Stream(seed, "heads", *ids).cursor().coin_flips(k)
    for threads in (1, 2):
        assert rng.coin_flip_heads(seed, "heads", ids, k, threads=threads) == expected


def test_blocks_do_not_depend_on_thread_count():
    one = rng.blocks(99, "threads", [3], start=2**40, count=200_000, threads=1)
    for threads in (2, 3, 5):
        np.testing.assert_array_equal(
            rng.blocks(99, "threads", [3], start=2**40, count=200_000, threads=threads), one
        )


def test_streams_with_different_names_differ():
    base = rng.blocks(1, "p", [1, 2], count=4)
    for other in ((2, "p", [1, 2]), (1, "q", [1, 2]), (1, "p", [1, 3]), (1, "p", [1, 2, 0])):
        if other == (1, "p", [1, 2, 0]):
            # Missing ids are zero by definition: [1, 2] and [1, 2, 0] name the same stream.
            np.testing.assert_array_equal(rng.blocks(*other, count=4), base)
        else:
            assert not np.array_equal(rng.blocks(*other, count=4), base)


def _chi_square_p_value(samples: np.ndarray, n: int, p: float = 0.5, bins: int = 60) -> float:
    """Chi-square goodness of fit of integer samples against Binomial(n, p), with bins of
    roughly equal probability (so every expected count is large)."""
    edges = np.unique(stats.binom.ppf(np.linspace(0, 1, bins + 1)[1:-1], n, p).astype(np.int64))
    # Bin i holds values in (edges[i-1], edges[i]]; the first and last bins are open tails.
    bounds = np.concatenate(([-1], edges, [n]))
    expected = np.diff(stats.binom.cdf(bounds, n, p)) * samples.size
    observed = np.bincount(np.searchsorted(edges, samples, side="left"), minlength=expected.size)
    keep = expected > 0
    statistic = float(np.sum((observed[keep] - expected[keep]) ** 2 / expected[keep]))
    return float(stats.chi2.sf(statistic, keep.sum() - 1))


@pytest.mark.parametrize("n", [7, 64, 256, 257, 1000, 100_003, 10**9, 10**15])
def test_binomial_sampler_passes_chi_square(n):
    samples = rng.binomial_half(
        2026, "chi-square", np.arange(200_000).reshape(-1, 1), np.full(200_000, n)
    )
    assert _chi_square_p_value(samples.astype(np.int64), n) > 1e-4


def test_chi_square_check_detects_a_biased_sampler():
    # The same check must reject a sampler only slightly off: Binomial(1000, 0.51).
    biased = np.random.default_rng(1).binomial(1000, 0.51, size=200_000)
    assert _chi_square_p_value(biased, 1000) < 1e-6


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: rng.blocks(-1, "p"), "seed must be at least 0"),
        (lambda: rng.blocks(2**64, "p"), "seed must be at most"),
        (lambda: rng.blocks(True, "p"), "seed must be an integer"),
        (lambda: rng.blocks(1.5, "p"), "seed must be an integer"),
        (lambda: rng.blocks(1, ""), "purpose must be a non-empty string"),
        (lambda: rng.blocks(1, "p", [1, 2, 3, 4]), "at most 3 ids, got 4"),
        (lambda: rng.blocks(1, "p", [1, -2]), "ids[1] must be at least 0"),
        (lambda: rng.blocks(1, "p", start=2**64 - 2, count=5), "count must be at most 2"),
        (lambda: rng.blocks(1, "p", threads=0), "threads must be at least 1"),
        (lambda: rng.blocks(1, "p", count=2**40), "blocks do not fit in memory"),
        (lambda: rng.draws(1, "p", [], "gaussian", [1]), "kind must be one of"),
        (lambda: rng.draws(1, "p", [], "uniform_below", [3, 0]), "params[1] is 0"),
        (lambda: rng.draws(1, "p", [], "coin_flips", [3, -1]), "params[1] is negative"),
        (lambda: rng.draws(1, "p", [], "coin_flips", [1.5]), "params[0] must be an integer"),
        (lambda: rng.draws(1, "p", [], "coin_flips", np.array([1.5])), "dtype float64"),
        (lambda: rng.draws(1, "p", [], "coin_flips", [[1]]), "1 dimension(s)"),
        (lambda: rng.binomial_half(1, "p", np.zeros((3, 4)), [1, 2, 3]), "dtype float64"),
        (lambda: rng.binomial_half(1, "p", np.zeros((3, 4), np.uint64), [1, 2, 3]), "j <= 3"),
        (lambda: rng.binomial_half(1, "p", np.zeros((2, 1), np.uint64), [1, 2, 3]), "for 3 values"),
        (lambda: rng.philox4x64_10(np.zeros((2, 3)), np.zeros((2, 2))), "dtype float64"),
        (
            lambda: rng.philox4x64_10(np.zeros((2, 3), np.uint64), np.zeros((2, 2), np.uint64)),
            "4 columns",
        ),
        (lambda: rng.coin_flip_heads(1, "p", [], -5), "k must be at least 0"),
    ],
)
def test_bad_input_raises_invalid_parameter_naming_it(call, fragment):
    with pytest.raises(stratagem.InvalidParameter) as caught:
        call()
    assert fragment in str(caught.value)
    assert isinstance(caught.value, stratagem.StratagemError)
    assert isinstance(caught.value, ValueError)


def test_oracle_refuses_too_many_ids():
    with pytest.raises(stratagem.InvalidParameter, match="at most 3 ids"):
        oracle.Stream(1, "p", 1, 2, 3, 4)


@given(x=st.floats(min_value=5e-324, max_value=1e308, allow_nan=False))
def test_det_ln_is_close_to_the_c_library(x):
    import math

    assert oracle.det_ln(x) == pytest.approx(math.log(x), rel=1e-15, abs=1e-15)
