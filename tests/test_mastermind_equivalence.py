"""The Rust mastermind engine against the oracle (``stratagem.mastermind.oracle``): the same
codes, histories, orders and seeds give identical feedback, the same first consistent code in
lexicographic and shuffled orders (with prefixes), the same counts and lists of consistent
codes, the same guess for every strategy, the same evaluations and seeded samples and the same
smallest contradiction, for one thread or two (``docs/mastermind-rules.md``). The estimator,
which the oracle does not reproduce, is checked for unbiasedness."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from property_settings import SEEDS, fewer_examples
from stratagem import _core
from stratagem.errors import InconsistentFeedback
from stratagem.mastermind import (
    consistent_codes,
    count_consistent,
    estimate_consistent,
    evaluate,
    first_consistent,
    next_guess,
    oracle,
    sample_secrets,
    score,
    smallest_contradiction,
)

# Tests whose oracle side scans every code many times run fewer examples than the profile.
FEWER = fewer_examples(20)

# Spaces the oracle scans in a moment (at most 256 codes).
SMALL_SPACES = [
    (1, 2),
    (1, 7),
    (2, 2),
    (2, 3),
    (2, 6),
    (3, 2),
    (3, 3),
    (3, 5),
    (3, 6),
    (4, 2),
    (4, 3),
    (4, 4),
    (5, 3),
    (6, 2),
]
# Spaces where every strategy but ``optimal`` is quick in the oracle.
STRATEGY_SPACES = [(2, 3), (2, 4), (3, 3), (3, 4), (2, 5), (4, 3)]
# Spaces where ``optimal`` is quick in the oracle (3 x 4 only once a guess has been made: its
# empty history alone costs the oracle about 15 s).
OPTIMAL_SPACES = [(2, 3), (2, 4), (3, 3), (3, 4)]
# Spaces too large to scan, where the engine searches in parallel prefixes; the oracle's own
# depth-first search is still quick on honest histories.
MID_SPACES = [(5, 8), (6, 6), (6, 8), (7, 5), (7, 7), (8, 4), (8, 6)]


@dataclass
class History:
    """A space, the secret the feedbacks were computed from, and the history (some feedbacks
    possibly made up, so that nothing fits)."""

    spots: int
    colours: int
    secret: tuple[int, ...]
    turns: list[tuple[tuple[int, ...], tuple[int, int]]]

    @property
    def guesses(self) -> np.ndarray:
        return np.array([g for g, _ in self.turns], dtype=np.uint8).reshape(-1, self.spots)

    @property
    def feedback(self) -> np.ndarray:
        return np.array([f for _, f in self.turns], dtype=np.uint8).reshape(-1, 2)

    @property
    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        return self.guesses, self.feedback

    @property
    def engine(self) -> _core.mastermind.History:
        """The history as the engine's searches take it."""
        return _core.mastermind.History(self.spots, self.colours, *self.arrays)


@st.composite
def codes(draw: st.DrawFn, spots: int, colours: int) -> tuple[int, ...]:
    return tuple(draw(st.integers(0, colours - 1)) for _ in range(spots))


@st.composite
def histories(
    draw: st.DrawFn,
    spaces: list[tuple[int, int]],
    max_turns: int = 4,
    corrupt: bool = True,
    min_turns: int = 0,
) -> History:
    """A random secret and random guesses answered with the secret's feedback, one time in four
    (when ``corrupt``) replaced by any in-range feedback (``(S-1, 1)`` included)."""
    spots, colours = draw(st.sampled_from(spaces), label="space")
    secret = draw(codes(spots, colours), label="secret")
    turns = []
    for _ in range(draw(st.integers(min_turns, max_turns), label="turns")):
        guess = draw(codes(spots, colours), label="guess")
        if corrupt and draw(st.integers(0, 3), label="made up") == 0:
            black = draw(st.integers(0, spots), label="black")
            feedback = (black, draw(st.integers(0, spots - black), label="white"))
        else:
            feedback = oracle.score(guess, secret)
        turns.append((guess, feedback))
    return History(spots, colours, secret, turns)


def as_tuple(code: np.ndarray | None) -> tuple[int, ...] | None:
    if code is None:
        return None
    assert code.dtype == np.uint8
    return tuple(int(c) for c in code)


def position_key(order: list[tuple[int, ...]]):
    """The search order's key of a code: the position of each colour in its spot's row."""
    return lambda code: tuple(order[p].index(colour) for p, colour in enumerate(code))


def engine_order(spots: int, colours: int, seed: int) -> list[tuple[int, ...]]:
    """The engine's shuffled order of ``seed``, checked against the oracle's."""
    rows = _core.mastermind.shuffled_order(spots, colours, seed)
    assert rows.shape == (spots, colours)
    listed = [tuple(int(c) for c in row) for row in rows]
    assert listed == oracle.shuffled_order(spots, colours, seed), f"shuffled order of {seed}"
    return listed


# -- scoring ---------------------------------------------------------------------------------


@st.composite
def code_batches(draw: st.DrawFn) -> tuple[int, int, np.ndarray, np.ndarray]:
    """Guesses and secrets on a space up to 16 x 36: as many rows on each side, or a single
    code on one or both sides (broadcast). Colours come from a random subset of the colours,
    sometimes small, so that blacks and whites are common even with 36 colours."""
    spots = draw(st.integers(1, 16), label="spots")
    colours = draw(st.integers(2, 36), label="colours")
    used = draw(st.integers(1, colours), label="colours used")
    rng = np.random.default_rng(draw(SEEDS, label="numpy seed"))
    palette = rng.permutation(colours)[:used]
    rows = draw(st.integers(0, 40), label="rows")
    shape = draw(st.sampled_from(["pairs", "one guess", "one secret", "one each"]), label="shape")
    guess_rows = 1 if shape in ("one guess", "one each") else rows
    secret_rows = 1 if shape in ("one secret", "one each") else rows
    guesses = palette[rng.integers(0, used, size=(guess_rows, spots))].astype(np.uint8)
    secrets = palette[rng.integers(0, used, size=(secret_rows, spots))].astype(np.uint8)
    event(f"{shape}")
    if shape == "one guess" and draw(st.booleans(), label="1-d guess"):
        return spots, colours, guesses[0], secrets
    if shape == "one secret" and draw(st.booleans(), label="1-d secret"):
        return spots, colours, guesses, secrets[0]
    return spots, colours, guesses, secrets


@given(code_batches(), st.sampled_from([None, 1, 2]))
def test_score_agrees_on_batches_with_broadcasting(batch, threads):
    spots, colours, guesses, secrets = batch
    black, white = score(guesses, secrets, colours=colours, threads=threads)
    guess_rows = np.atleast_2d(guesses)
    secret_rows = np.atleast_2d(secrets)
    assert guess_rows.shape[1] == secret_rows.shape[1] == spots
    n = max(len(guess_rows), len(secret_rows))
    if min(len(guess_rows), len(secret_rows)) == 0:
        n = 0
    assert black.dtype == white.dtype == np.uint8
    assert black.shape == white.shape == (n,)
    for i in range(n):
        guess = guess_rows[0 if len(guess_rows) == 1 else i].tolist()
        secret = secret_rows[0 if len(secret_rows) == 1 else i].tolist()
        assert (int(black[i]), int(white[i])) == oracle.score(guess, secret), (guess, secret)
    # The core itself, with the arrays as the wrapper passes them.
    direct = _core.mastermind.score(guess_rows, secret_rows, colours, 1)
    assert direct[0].tolist() == black.tolist()
    assert direct[1].tolist() == white.tolist()


def test_score_of_every_pair_of_a_small_space():
    everything = np.array(oracle.all_codes(3, 4), dtype=np.uint8)
    for guess in everything:
        black, white = score(guess, everything, colours=4)
        expected = [oracle.score(tuple(guess), tuple(secret)) for secret in everything]
        assert list(zip(black.tolist(), white.tolist(), strict=True)) == expected


# -- the consistent-code search --------------------------------------------------------------


@given(histories(SMALL_SPACES), SEEDS, st.data())
def test_first_consistent_agrees_with_the_oracle_and_a_scan(history, seed, data):
    spots, colours = history.spots, history.colours
    consistent = oracle.consistent_codes(spots, colours, history.turns)
    event("nothing fits" if not consistent else "some code fits")
    for order in (None, engine_order(spots, colours, seed)):
        rows = order or [tuple(range(colours))] * spots
        key = position_key(rows)
        expected = min(consistent, key=key) if consistent else None
        assert oracle.first_consistent(spots, colours, history.turns, order) == expected
        for threads in (1, 2):
            got = first_consistent(spots, colours, *history.arrays, order=order, threads=threads)
            assert as_tuple(got) == expected, f"order {order}, {threads} thread(s)"
        # With a prefix: the prefix of a consistent code, or any colours.
        length = data.draw(st.integers(0, spots), label="prefix length")
        if consistent and data.draw(st.booleans(), label="prefix of a consistent code"):
            prefix = data.draw(st.sampled_from(consistent), label="code")[:length]
        else:
            prefix = data.draw(codes(length, colours), label="prefix")
        below = [code for code in consistent if code[:length] == prefix]
        expected = min(below, key=key) if below else None
        assert oracle.first_consistent(spots, colours, history.turns, order, prefix) == expected
        for threads in (1, 2):
            got = first_consistent(
                spots, colours, *history.arrays, prefix=prefix, order=order, threads=threads
            )
            assert as_tuple(got) == expected, f"prefix {prefix}, order {order}, {threads}"


@given(histories(MID_SPACES, max_turns=3, corrupt=False), SEEDS, st.data())
def test_first_consistent_agrees_on_spaces_too_large_to_scan(history, seed, data):
    spots, colours = history.spots, history.colours
    for order in (None, engine_order(spots, colours, seed)):
        expected = oracle.first_consistent(spots, colours, history.turns, order)
        assert expected is not None
        assert oracle.is_consistent(expected, history.turns)
        for threads in (1, 2):
            got = first_consistent(spots, colours, *history.arrays, order=order, threads=threads)
            assert as_tuple(got) == expected, f"order {order}, {threads} thread(s)"
        length = data.draw(st.integers(1, 2), label="prefix length")
        prefix = data.draw(
            st.sampled_from([history.secret[:length], expected[:length]]), label="prefix"
        )
        expected = oracle.first_consistent(spots, colours, history.turns, order, prefix)
        assert expected is not None
        got = first_consistent(spots, colours, *history.arrays, prefix=prefix, order=order)
        assert as_tuple(got) == expected, f"prefix {prefix}, order {order}"


@pytest.mark.parametrize(("spots", "colours"), [(10, 10), (12, 12), (16, 36)])
def test_first_consistent_agrees_on_the_largest_spaces(spots, colours):
    # The secret rotated by one spot, then reversed: honest feedbacks that the depth-first
    # searches of both sides settle quickly.
    rng = np.random.default_rng(spots * colours)
    secret = tuple(int(c) for c in rng.integers(0, colours, spots))
    turns = []
    for guess in (secret[1:] + secret[:1], secret[::-1]):
        turns.append((guess, oracle.score(guess, secret)))
    history = History(spots, colours, secret, turns)
    for order in (None, engine_order(spots, colours, 17)):
        expected = oracle.first_consistent(spots, colours, turns, order)
        for threads in (1, 2):
            got = first_consistent(spots, colours, *history.arrays, order=order, threads=threads)
            assert as_tuple(got) == expected


@given(histories(SMALL_SPACES, max_turns=5))
def test_count_and_list_of_consistent_codes_agree(history):
    spots, colours = history.spots, history.colours
    expected = oracle.consistent_codes(spots, colours, history.turns)
    assert oracle.count_consistent(spots, colours, history.turns) == len(expected)
    for threads in (1, 2):
        count = count_consistent(spots, colours, *history.arrays, threads=threads)
        assert type(count) is int
        assert count == len(expected)
        listed = consistent_codes(spots, colours, *history.arrays, threads=threads)
        assert listed.dtype == np.uint8
        assert listed.shape == (len(expected), spots)
        assert [tuple(row) for row in listed.tolist()] == expected


@FEWER
@given(histories([(5, 5), (6, 4), (4, 8)], max_turns=3))
def test_count_agrees_with_the_oracle_search_on_larger_spaces(history):
    spots, colours = history.spots, history.colours
    expected = oracle.count_consistent(spots, colours, history.turns)
    assert count_consistent(spots, colours, *history.arrays) == expected
    assert len(consistent_codes(spots, colours, *history.arrays)) == expected


@given(histories(MID_SPACES, max_turns=3), SEEDS)
def test_count_and_first_are_the_same_for_one_and_two_threads(history, seed):
    # Made-up feedbacks included: the engine's own answers, beyond what the oracle can check.
    spots, colours = history.spots, history.colours
    guesses, feedback = history.arrays
    counts = [count_consistent(spots, colours, guesses, feedback, threads=t) for t in (1, 2)]
    assert counts[0] == counts[1]
    if not history.turns:
        assert counts[0] == colours**spots
    event("nothing fits" if not counts[0] else "some code fits")
    for order in (None, engine_order(spots, colours, seed)):
        found = [
            as_tuple(first_consistent(spots, colours, guesses, feedback, order=order, threads=t))
            for t in (1, 2)
        ]
        assert found[0] == found[1]
        assert (found[0] is None) == (counts[0] == 0)
        if found[0] is not None:
            assert oracle.is_consistent(found[0], history.turns)
    # The engine's count below a prefix adds up to the whole count.
    below = [
        int(_core.mastermind.count(history.engine, np.array([c], dtype=np.uint8), 2))
        for c in range(colours)
    ]
    assert sum(below) == counts[0]


# -- strategies ------------------------------------------------------------------------------


def check_next_guess(history: History, strategy: str, seed: int, order: str = "lex") -> None:
    """The engine's guess (1 and 2 threads) is the oracle's; when nothing fits, both say so
    and the engine names the oracle's smallest contradiction."""
    spots, colours = history.spots, history.colours
    expected = oracle.next_guess(spots, colours, history.turns, strategy, seed, order=order)
    for threads in (1, 2):
        options = {"strategy": strategy, "seed": seed, "order": order, "threads": threads}
        if expected is None:
            with pytest.raises(InconsistentFeedback) as caught:
                next_guess(spots, colours, *history.arrays, **options)
            contradiction = oracle.smallest_contradiction(spots, colours, history.turns)
            assert caught.value.feedbacks == contradiction
        else:
            got = next_guess(spots, colours, *history.arrays, **options)
            assert as_tuple(got) == expected, f"{strategy} seed {seed} {order} {threads}"
        direct = _core.mastermind.next_guess(history.engine, strategy, seed, order, threads)
        assert as_tuple(direct) == expected


@given(histories(STRATEGY_SPACES), SEEDS)
def test_next_guess_of_first_agrees_in_both_orders(history, seed):
    check_next_guess(history, "first", seed)
    check_next_guess(history, "first", seed, "shuffled")


@given(histories(STRATEGY_SPACES), st.lists(SEEDS, min_size=3, max_size=3))
def test_next_guess_of_random_agrees_for_several_seeds(history, seeds):
    for seed in [0, 1, *seeds]:
        check_next_guess(history, "random", seed)


@given(histories([(8, 7), (5, 20), (10, 10)], max_turns=2, corrupt=False), SEEDS)
def test_next_guess_of_random_agrees_beyond_the_enumerable_spaces(history, seed):
    # Beyond 2^21 codes: the first consistent code in the order of stream
    # (seed, "mastermind.random.order", turn, p).
    check_next_guess(history, "random", seed)


@FEWER
@pytest.mark.parametrize("strategy", oracle.HEURISTICS)
@given(history=histories(STRATEGY_SPACES), seed=SEEDS)
def test_next_guess_of_the_heuristics_agrees(strategy, history, seed):
    check_next_guess(history, strategy, seed)


@FEWER
@given(histories([(4, 4), (3, 6), (5, 3)], max_turns=3, min_turns=1))
def test_next_guess_of_the_heuristics_agrees_on_256_codes(history):
    for strategy in oracle.HEURISTICS:
        check_next_guess(history, strategy, 0)


@FEWER
@given(histories([(4, 6), (5, 5), (6, 4)], max_turns=2, min_turns=1), SEEDS)
def test_next_guess_is_the_same_for_one_and_two_threads(history, seed):
    # Larger spaces than the oracle scores quickly: the engine against itself.
    spots, colours = history.spots, history.colours
    for strategy in ("first", "random", *oracle.HEURISTICS):
        guesses = []
        for threads in (1, 2):
            try:
                guess = as_tuple(
                    next_guess(
                        spots,
                        colours,
                        *history.arrays,
                        strategy=strategy,
                        seed=seed,
                        threads=threads,
                    )
                )
            except InconsistentFeedback as error:
                guess = error.feedbacks
            guesses.append(guess)
        assert guesses[0] == guesses[1], strategy


@FEWER
@given(histories(OPTIMAL_SPACES, max_turns=3), SEEDS)
def test_next_guess_of_optimal_agrees(history, seed):
    if history.colours**history.spots > 27 and not history.turns:
        history.turns.append(((0, 1, 2), oracle.score((0, 1, 2), history.secret)))
    check_next_guess(history, "optimal", seed)


@FEWER
@given(histories(OPTIMAL_SPACES, max_turns=3, corrupt=False))
def test_optimal_cost_agrees(history):
    # cost(S) of the rules is defined for a non-empty S only: honest histories. (On an empty
    # S the oracle returns 0 and the engine refuses with "no candidate codes".)
    spots, colours = history.spots, history.colours
    if colours**spots > 27 and not history.turns:
        history.turns.append(((0, 0, 1), oracle.score((0, 0, 1), history.secret)))
    expected = oracle.optimal_cost(spots, colours, history.turns)
    for threads in (1, 2):
        got = _core.mastermind.optimal_cost(history.engine, threads)
        assert int(got) == expected


# -- evaluation ------------------------------------------------------------------------------

EVALUATED = [
    (spots, colours, strategy, seed, order)
    for spots, colours in [(3, 3), (2, 5), (3, 4)]
    for strategy, seed, order in [
        ("first", 0, "lex"),
        ("first", 5, "shuffled"),
        ("random", 0, "lex"),
        ("random", 7, "lex"),
        ("random", 2**64 - 1, "lex"),
        *((heuristic, 0, "lex") for heuristic in oracle.HEURISTICS),
    ]
] + [(spots, colours, "optimal", 0, "lex") for spots, colours in [(2, 3), (2, 4), (3, 3), (2, 5)]]


@pytest.mark.parametrize(
    ("spots", "colours", "strategy", "seed", "order"),
    EVALUATED,
    ids=[f"{s}x{c}-{name}-{seed % 1000}-{order}" for s, c, name, seed, order in EVALUATED],
)
def test_evaluate_agrees_secret_by_secret(spots, colours, strategy, seed, order):
    expected = oracle.evaluate(spots, colours, strategy, seed, order=order)
    results = [
        evaluate(spots, colours, strategy, seed=seed, order=order, threads=threads, progress=False)
        for threads in (1, 2)
    ]
    for result in results:
        assert not result.sampled
        assert [tuple(code) for code in result.secrets.tolist()] == oracle.all_codes(spots, colours)
        assert result.guesses.tolist() == expected
        assert result.total == sum(expected)
        assert result.worst == max(expected)
        assert result.histogram.tolist() == [expected.count(k) for k in range(max(expected) + 1)]
        assert result.average == Fraction(sum(expected), len(expected))


@pytest.mark.parametrize(
    ("spots", "colours", "strategy", "count"),
    [
        (5, 5, "first", 25),
        (5, 5, "random", 25),
        (3, 5, "most_parts", 10),
        (4, 4, "knuth", 3),
        (8, 7, "random", 5),
    ],
)
@pytest.mark.parametrize("seed", [3, 2**63 + 1])
def test_sampled_evaluation_agrees(spots, colours, strategy, count, seed):
    secrets = oracle.sample_secrets(spots, colours, count, seed)
    expected = oracle.evaluate(spots, colours, strategy, seed, secrets)
    for threads in (1, 2):
        result = evaluate(
            spots, colours, strategy, sample=count, seed=seed, threads=threads, progress=False
        )
        assert result.sampled
        assert [tuple(code) for code in result.secrets.tolist()] == secrets
        assert result.guesses.tolist() == expected


@given(
    st.integers(1, 16),
    st.integers(2, 36),
    st.integers(1, 60),
    SEEDS,
)
def test_sample_secrets_agrees(spots, colours, count, seed):
    got = sample_secrets(spots, colours, count, seed)
    assert got.dtype == np.uint8
    assert got.shape == (count, spots)
    assert [tuple(code) for code in got.tolist()] == oracle.sample_secrets(
        spots, colours, count, seed
    )
    # Secret i only depends on its own stream.
    assert sample_secrets(spots, colours, 1, seed).tolist() == got[:1].tolist()


# -- inconsistent feedback -------------------------------------------------------------------


@given(histories(SMALL_SPACES, max_turns=6, corrupt=False), st.data())
def test_smallest_contradiction_agrees(history, data):
    spots, colours = history.spots, history.colours
    assert smallest_contradiction(spots, colours, *history.arrays) is None
    if history.turns:
        # Made-up feedbacks for one to three turns (the same guess may also come back).
        turns = data.draw(
            st.sets(st.integers(0, len(history.turns) - 1), min_size=1, max_size=3),
            label="made-up turns",
        )
        for t in turns:
            black = data.draw(st.integers(0, spots), label="black")
            white = data.draw(st.integers(0, spots - black), label="white")
            history.turns[t] = (history.turns[t][0], (black, white))
    expected = oracle.smallest_contradiction(spots, colours, history.turns)
    event(f"contradiction of {len(expected)} turns" if expected else "consistent")
    for threads in (1, 2):
        got = smallest_contradiction(spots, colours, *history.arrays, threads=threads)
        assert got == expected, f"{threads} thread(s)"


def test_smallest_contradiction_agrees_on_known_cases():
    digits = tuple(range(10))
    cases = [
        (2, 3, [((0, 0), (0, 0)), ((1, 1), (0, 0)), ((2, 2), (0, 0))]),
        (2, 3, [((0, 1), (0, 1)), ((2, 2), (0, 1))]),
        (2, 3, [((0, 1), (0, 1)), ((0, 0), (2, 0)), ((1, 1), (1, 0)), ((2, 2), (1, 0))]),
        (3, 3, [((0, 1, 2), (1, 1)), ((0, 1, 2), (2, 1))]),
        (4, 6, [((0, 0, 1, 1), (3, 1))]),
        (10, 10, [((0,) * 10, (1, 0)), (digits, (10, 0)), ((9,) * 10, (0, 0))]),
    ]
    for spots, colours, turns in cases:
        expected = oracle.smallest_contradiction(spots, colours, turns)
        history = History(spots, colours, (), turns)
        assert smallest_contradiction(spots, colours, *history.arrays) == expected


# -- the estimator ---------------------------------------------------------------------------


@pytest.mark.parametrize("secret", [(0, 1, 2, 3, 4, 5), (5, 5, 2, 0, 2, 1), (3, 3, 3, 3, 1, 0)])
def test_estimate_is_within_a_few_standard_errors_of_the_count(secret):
    # 6 x 6 after two guesses: thousands of consistent codes, the estimator's probes walk
    # random branches. Knuth's estimator is unbiased, so the mean over many probes falls
    # within a few standard errors of the exact count (fixed seeds: deterministic).
    turns = [
        (guess, oracle.score(guess, secret)) for guess in [(0, 0, 1, 1, 2, 2), (1, 2, 3, 4, 5, 0)]
    ]
    history = History(6, 6, secret, turns)
    exact = count_consistent(6, 6, *history.arrays)
    assert exact == oracle.count_consistent(6, 6, turns)
    for seed in (1, 2, 3):
        mean, stderr = estimate_consistent(6, 6, *history.arrays, probes=20_000, seed=seed)
        assert 0 < stderr < exact
        assert abs(mean - exact) <= 4 * stderr, (mean, stderr, exact)
        # The same seed gives the same estimate, for any thread count.
        for threads in (1, 2):
            again = estimate_consistent(
                6, 6, *history.arrays, probes=20_000, seed=seed, threads=threads
            )
            assert again == (mean, stderr)


@FEWER
@given(histories(SMALL_SPACES, max_turns=4), SEEDS)
def test_estimate_is_exact_when_nothing_or_everything_fits(history, seed):
    spots, colours = history.spots, history.colours
    mean, stderr = estimate_consistent(spots, colours, *history.arrays, probes=50, seed=seed)
    assert math.isfinite(mean)
    assert math.isfinite(stderr)
    exact = len(oracle.consistent_codes(spots, colours, history.turns))
    if exact == 0:
        # Every probe ends in a dead end.
        assert (mean, stderr) == (0.0, 0.0)
    if not history.turns:
        assert (mean, stderr) == (float(colours**spots), 0.0)
    assert mean >= 0
    assert mean <= colours**spots
