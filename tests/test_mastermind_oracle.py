"""The mastermind oracle against docs/mastermind-rules.md: feedback by hand and by its
symmetries, ranks, the depth-first search against a scan of every code (plain and shuffled
orders, with prefixes, on honest and made-up histories), every strategy's game tree on small
spaces (the tie rules re-derived at every node), the known first guesses and Knuth's 5801 on
4 x 6, the optimal strategy's totals, the smallest contradiction, and the written form."""

from __future__ import annotations

import functools
import itertools
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stratagem.errors import InvalidParameter
from stratagem.mastermind import oracle
from stratagem.mastermind.oracle import (
    all_codes,
    consistent_codes,
    first_consistent,
    format_code,
    is_consistent,
    next_guess,
    parse_code,
    rank,
    score,
    shuffled_order,
    smallest_contradiction,
)
from stratagem.rng.oracle import Stream, det_ln

# Spaces small enough to scan (at most 81 codes).
SMALL_SPACES = [(1, 2), (1, 5), (2, 2), (2, 3), (2, 5), (3, 2), (3, 3), (3, 4), (4, 2), (4, 3)]


@st.composite
def codes(draw, spots, colours):
    return tuple(draw(st.integers(0, colours - 1)) for _ in range(spots))


@st.composite
def games(draw, max_turns=4, made_up=True):
    """``(spots, colours, secret, history)``: a small space and a history whose feedbacks are
    the secret's, some of them (when ``made_up``) replaced by any in-range feedback."""
    spots, colours = draw(st.sampled_from(SMALL_SPACES))
    secret = draw(codes(spots, colours))
    history = []
    for _ in range(draw(st.integers(0, max_turns))):
        guess = draw(codes(spots, colours))
        if made_up and draw(st.integers(0, 3)) == 0:
            black = draw(st.integers(0, spots))
            feedback = (black, draw(st.integers(0, spots - black)))
        else:
            feedback = score(guess, secret)
        history.append((guess, feedback))
    return spots, colours, secret, history


def position_key(order):
    """The search order's key of a code: the position of each colour in its spot's row."""
    return lambda code: tuple(order[p].index(colour) for p, colour in enumerate(code))


# --- Feedback ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("guess", "secret", "feedback"),
    [
        ((0, 0, 1, 1), (0, 1, 2, 3), (1, 1)),
        ((1, 1, 2, 2), (2, 2, 1, 1), (0, 4)),
        ((1, 1, 1, 1), (1, 2, 2, 2), (1, 0)),
        ((1, 2, 3, 4), (4, 3, 2, 1), (0, 4)),
        ((1, 1, 2, 3), (3, 2, 1, 1), (0, 4)),
        ((1, 1, 2, 3), (1, 3, 2, 5), (2, 1)),
        ((0, 0, 0, 5), (5, 0, 0, 0), (2, 2)),
        ((2, 2, 2, 2), (0, 1, 3, 4), (0, 0)),
        ((0,), (1,), (0, 0)),
        ((7, 7, 3, 5, 4, 2, 7, 3, 6, 8), (7, 7, 3, 5, 4, 2, 7, 3, 6, 8), (10, 0)),
        ((0, 1, 2, 3, 4, 5, 6, 7, 8, 9), (9, 8, 7, 6, 5, 4, 3, 2, 1, 0), (0, 10)),
        ((7, 7, 3, 5), (3, 7, 7, 7), (1, 2)),
    ],
)
def test_score_by_hand(guess, secret, feedback):
    assert score(guess, secret) == feedback


@st.composite
def code_pairs(draw):
    spots = draw(st.integers(1, 8))
    colours = draw(st.integers(2, 36))
    return spots, colours, draw(codes(spots, colours)), draw(codes(spots, colours))


@given(code_pairs(), st.randoms(use_true_random=False))
def test_score_properties(pair, source):
    spots, colours, guess, secret = pair
    black, white = score(guess, secret)
    assert black >= 0
    assert white >= 0
    assert black + white <= spots
    assert (black, white) != (spots - 1, 1)  # the last spot cannot be misplaced alone
    assert score(secret, guess) == (black, white)
    assert score(guess, guess) == (spots, 0)
    assert (black == spots) == (guess == secret)
    renaming = list(range(colours))
    source.shuffle(renaming)
    assert score([renaming[c] for c in guess], [renaming[c] for c in secret]) == (black, white)
    spots_order = list(range(spots))
    source.shuffle(spots_order)
    assert score([guess[p] for p in spots_order], [secret[p] for p in spots_order]) == (
        black,
        white,
    )


def test_feedback_index_orders_black_then_white():
    indices = [oracle.feedback_index((b, w), 4) for b in range(5) for w in range(5 - b)]
    assert indices == sorted(indices)
    assert oracle.feedback_index((1, 2), 4) == 7
    assert oracle.feedback_index((4, 0), 4) == 20


# --- Codes and ranks --------------------------------------------------------------------------


def test_all_codes_in_rank_order():
    assert all_codes(2, 3) == [(a, b) for a in range(3) for b in range(3)]
    everything = all_codes(3, 4)
    assert everything == sorted(everything)
    assert [rank(code, 4) for code in everything] == list(range(64))
    assert rank((2, 0, 3), 4) == 2 * 16 + 3
    assert oracle.code_at(35, 3, 4) == (2, 0, 3)
    assert rank((35,) * 16, 36) == 36**16 - 1


def test_listing_needs_an_enumerable_space():
    assert oracle._require_enumerable("x", 7, 8) == 8**7 == 1 << 21  # the limit is enumerable
    with pytest.raises(InvalidParameter, match="at most 2097152 codes; 5 spots x 20 colours"):
        all_codes(5, 20)


# --- The consistent-code search ---------------------------------------------------------------


@given(games(), st.integers(0, 2**64 - 1), st.booleans())
def test_first_consistent_is_the_smallest_consistent_code(game, seed, shuffled):
    spots, colours, _, history = game
    order = shuffled_order(spots, colours, seed) if shuffled else [range(colours)] * spots
    key = position_key([list(row) for row in order])
    consistent = [code for code in all_codes(spots, colours) if is_consistent(code, history)]
    expected = min(consistent, key=key) if consistent else None
    got = first_consistent(spots, colours, history, order if shuffled else None)
    assert got == expected
    assert oracle.count_consistent(spots, colours, history) == len(consistent)
    assert consistent_codes(spots, colours, history) == consistent
    for length in range(spots + 1):
        prefix = consistent[0][:length] if consistent else (0,) * length
        below = [code for code in consistent if code[:length] == prefix]
        expected = min(below, key=key) if below else None
        assert first_consistent(spots, colours, history, order, prefix) == expected


def test_first_consistent_by_hand():
    history = [((0, 0, 1, 1), (1, 1)), ((0, 1, 2, 3), (0, 2))]
    # No code starts with 0 (0123 got no black); 1000-1043 all fail one feedback or the other
    # (1033 puts a black on 0123's last spot, 1034 has three colours of 0123).
    assert first_consistent(4, 6, history) == (1, 0, 4, 4)
    assert first_consistent(4, 6, history, prefix=(2,)) == (2, 0, 0, 0)
    assert first_consistent(4, 6, history, prefix=(1, 0, 3)) is None
    assert first_consistent(4, 6, history, prefix=(0,)) is None
    assert first_consistent(2, 3, [((0, 0), (1, 1))]) is None  # S-1 blacks and 1 white
    assert first_consistent(3, 2, []) == (0, 0, 0)


def test_first_consistent_on_a_large_space():
    # 10 x 10, the seed's size: depth first, no scan. No 0, no 1, three 7s.
    secret = (7, 7, 3, 5, 4, 2, 7, 3, 6, 8)
    history = [(guess, score(guess, secret)) for guess in [(0,) * 10, (1,) * 10, (7,) * 10]]
    assert [feedback for _, feedback in history] == [(0, 0), (0, 0), (3, 0)]
    found = first_consistent(10, 10, history)
    assert found == (2, 2, 2, 2, 2, 2, 2, 7, 7, 7)
    assert is_consistent(found, history)


def test_shuffled_order_follows_fisher_yates():
    seed = 12345
    rows = shuffled_order(4, 6, seed)
    assert all(sorted(row) == list(range(6)) for row in rows)
    assert rows[:2] == shuffled_order(2, 6, seed)  # row p only depends on its own stream
    # Two colours: one draw j = uniform_below(2); position 1 is swapped with j (j = 0 swaps).
    for p, row in enumerate(shuffled_order(16, 2, seed)):
        swapped = Stream(seed, "mastermind.order", p).cursor().uniform_below(2) == 0
        assert row == ((1, 0) if swapped else (0, 1))
    # Three colours: i = 2 first, then i = 1, from one cursor.
    cursor = Stream(seed, "mastermind.random.order", 5, 1).cursor()
    expected = [0, 1, 2]
    for i in (2, 1):
        j = cursor.uniform_below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    row = shuffled_order(2, 3, seed, "mastermind.random.order", turn=5)[1]
    assert list(row) == expected
    orders = {tuple(shuffled_order(3, 8, s)) for s in range(20)}
    assert len(orders) == 20


def test_bad_orders_and_prefixes_are_refused():
    with pytest.raises(InvalidParameter, match="one row per spot"):
        first_consistent(2, 3, [], [(0, 1, 2)])
    with pytest.raises(InvalidParameter, match=r"order\[1\] must be a permutation"):
        first_consistent(2, 3, [], [(0, 1, 2), (0, 1, 1)])
    with pytest.raises(InvalidParameter, match="prefix: spot 1 has colour 3"):
        first_consistent(2, 3, [], prefix=(0, 3))
    with pytest.raises(InvalidParameter, match="prefix must be at most 2 colours"):
        first_consistent(2, 3, [], prefix=(0, 1, 2))


# --- Strategies: known numbers on 4 x 6 -------------------------------------------------------


@pytest.mark.parametrize(
    ("strategy", "expected"),
    [
        ("knuth", (0, 0, 1, 1)),  # Knuth 1976: 1122
        ("irving", (0, 0, 1, 2)),  # Irving 1979: 1123
        ("entropy", (0, 1, 2, 3)),  # Neuwirth 1982: 1234
        ("most_parts", (0, 0, 1, 2)),  # Kooi 2005: 1123
    ],
)
def test_first_guesses_on_4x6_match_the_literature(strategy, expected):
    assert next_guess(4, 6, [], strategy) == expected


def test_split_of_knuths_first_guess():
    sizes = oracle.split_sizes((0, 0, 1, 1), all_codes(4, 6), 4)
    assert sum(sizes) == 1296
    assert max(sizes) == 256  # Knuth's worst class after 1122
    assert sizes[oracle.feedback_index((3, 1), 4)] == 0
    assert oracle.heuristic_key("knuth", sizes) == 256
    assert oracle.heuristic_key("most_parts", sizes) == -sum(1 for n in sizes if n)


def test_heuristic_keys_by_hand():
    sizes = [0, 3, 0, 1, 2]
    assert oracle.heuristic_key("knuth", sizes) == 3
    assert oracle.heuristic_key("irving", sizes) == 9 + 1 + 4
    assert oracle.heuristic_key("most_parts", sizes) == -3
    assert det_ln(1.0) == 0.0
    entropy = 0.0
    for n in (3, 1, 2):  # increasing feedback index
        entropy += n * det_ln(float(n))
    assert oracle.heuristic_key("entropy", sizes) == entropy
    assert oracle.heuristic_key("entropy", [1, 1, 1]) == 0.0


@pytest.mark.slow
def test_knuth_plays_5801_guesses_on_4x6():
    # Pure Python: about 15 s (1378 histories asked).
    counts = strategy_counts(4, 6, "knuth", check=False)
    assert sum(counts) == 5801
    assert max(counts) == 5


# --- Strategies: whole game trees on small spaces ---------------------------------------------

GAME_SPACES = [(2, 3), (3, 3), (2, 4), (3, 4)]
OPTIMAL_SPACES = [(2, 3), (3, 3), (2, 4)]


def check_guess(spots, colours, history, strategy, *, seed, guess):
    """The rule of ``strategy`` at one history, re-derived from the consistent codes."""
    consistent = consistent_codes(spots, colours, history)
    assert guess is not None
    assert guess not in [g for g, _ in history]  # no strategy repeats a guess
    if strategy in ("first", "random", "optimal"):
        assert guess in consistent
    if strategy == "first":
        assert guess == consistent[0]
    elif strategy == "random":
        cursor = Stream(seed, "mastermind.random", len(history)).cursor()
        assert guess == consistent[cursor.uniform_below(len(consistent))]
    elif strategy in oracle.HEURISTICS:
        if len(consistent) == 1:
            assert guess == consistent[0]
            return
        keys = {
            g: oracle.heuristic_key(strategy, oracle.split_sizes(g, consistent, spots))
            for g in all_codes(spots, colours)
        }
        best = min(keys.values())
        winners = [g for g in all_codes(spots, colours) if keys[g] == best]
        assert keys[guess] == best
        inside = [g for g in winners if g in consistent]
        # A best guess in S is played whenever there is one; then the smallest rank.
        assert guess == (inside or winners)[0]


@functools.cache
def strategy_counts(spots, colours, strategy, seed=0, *, check=True):
    """Guesses per secret (rank order) by walking the strategy's game tree: a guess depends
    only on the history, so each history is asked once; with ``check``, the strategy's rule is
    checked at every node."""
    counts = {}

    def walk(history, secrets):
        guess = next_guess(spots, colours, history, strategy, seed)
        if check:
            check_guess(spots, colours, history, strategy, seed=seed, guess=guess)
        classes = {}
        for secret in secrets:
            classes.setdefault(score(guess, secret), []).append(secret)
        for feedback, members in classes.items():
            if feedback == (spots, 0):
                counts[guess] = len(history) + 1
            else:
                walk([*history, (guess, feedback)], members)

    walk([], all_codes(spots, colours))
    return tuple(counts[code] for code in all_codes(spots, colours))


@pytest.mark.parametrize(("spots", "colours"), GAME_SPACES)
@pytest.mark.parametrize("strategy", ["first", "random", *oracle.HEURISTICS])
def test_every_game_follows_the_strategy_rule(spots, colours, strategy):
    counts = strategy_counts(spots, colours, strategy, 7)
    assert len(counts) == colours**spots
    assert min(counts) >= 1
    assert max(counts) <= colours**spots


@pytest.mark.parametrize(("spots", "colours"), OPTIMAL_SPACES)
def test_optimal_is_optimal(spots, colours):
    counts = strategy_counts(spots, colours, "optimal")
    total = oracle.optimal_cost(spots, colours)
    assert sum(counts) == total
    for strategy in ["first", "random", *oracle.HEURISTICS]:
        assert total <= sum(strategy_counts(spots, colours, strategy, 7))
    assert total <= sum(strategy_counts(spots, colours, "random", 0))


def test_known_totals_on_small_spaces():
    assert oracle.optimal_cost(2, 3) == 21
    assert oracle.optimal_cost(3, 3) == 73
    assert oracle.optimal_cost(2, 4) == 45
    assert sum(strategy_counts(3, 3, "first", 7)) == 89
    assert sum(strategy_counts(3, 4, "knuth", 7)) == 216


def test_optimal_by_hand():
    # 2 x 2: four codes. Guess 00 splits them into {00}, {01, 10} (1 black) and {11}:
    # cost 4 + 3 + 1 = 8. 01 splits them into {01}, {00, 11} and {10}: also 8, and so do 10
    # and 11; 7 would need a guess splitting the other three codes apart. 00 has the
    # smallest rank.
    assert oracle.optimal_cost(2, 2) == 8
    assert next_guess(2, 2, [], "optimal") == (0, 0)
    assert oracle.optimal_cost(2, 2, [((0, 0), (1, 0))]) == 3
    assert oracle.optimal_cost(2, 2, [((0, 0), (0, 2))]) == 0  # nothing is consistent


def test_optimal_with_a_history_finishes_at_its_cost():
    history = [((0, 1, 2), (1, 0))]
    remaining = consistent_codes(3, 3, history)
    total = 0
    for secret in remaining:
        played = list(history)
        while played[-1][1] != (3, 0):
            guess = next_guess(3, 3, played, "optimal")
            played.append((guess, score(guess, secret)))
        total += len(played) - len(history)
    assert total == oracle.optimal_cost(3, 3, history)


def test_play_and_evaluate_agree_with_the_game_trees():
    for strategy in oracle.STRATEGIES:
        assert oracle.evaluate(2, 4, strategy, 7) == list(strategy_counts(2, 4, strategy, 7))
    # 000 (1, 0): one 0. 011 (1, 1): 012, 021 (2 blacks), 101, 102, 110 fail; 201 wins.
    game = oracle.play((2, 0, 1), 3, "first")
    assert game == [((0, 0, 0), (1, 0)), ((0, 1, 1), (1, 1)), ((2, 0, 1), (3, 0))]


def test_first_with_the_shuffled_order():
    seed = 99
    order = shuffled_order(3, 4, seed)
    key = position_key(order)
    for secret in [(0, 0, 0), (3, 1, 2), (2, 2, 1)]:
        history = oracle.play(secret, 4, "first", seed, order="shuffled")
        assert history[0][0] == tuple(row[0] for row in order)
        for turn, (guess, _) in enumerate(history):
            consistent = consistent_codes(3, 4, history[:turn])
            assert guess == min(consistent, key=key)


def test_random_strategy_streams():
    # Enumerable: code number uniform_below(count) of stream (seed, "mastermind.random", turn).
    seed = 5
    draw = Stream(seed, "mastermind.random", 0).cursor().uniform_below(6**4)
    assert next_guess(4, 6, [], "random", seed) == oracle.code_at(draw, 4, 6)
    assert next_guess(4, 6, [], "random", seed) == next_guess(4, 6, [], "random", seed)
    assert len({next_guess(4, 6, [], "random", s) for s in range(8)}) > 1
    # Larger spaces: the first consistent code in the order of (seed, purpose, turn, p).
    order = shuffled_order(5, 20, seed, "mastermind.random.order", turn=0)
    assert next_guess(5, 20, [], "random", seed) == tuple(row[0] for row in order)
    history = [((0, 1, 2, 3, 4), (1, 2))]
    order = shuffled_order(5, 20, seed, "mastermind.random.order", turn=1)
    guess = next_guess(5, 20, history, "random", seed)
    assert guess == first_consistent(5, 20, history, order)
    assert guess is not None
    assert is_consistent(guess, history)


def test_strategies_on_inconsistent_histories_return_none():
    history = [((0, 0), (0, 0)), ((1, 1), (0, 0)), ((2, 2), (0, 0))]
    for strategy in oracle.STRATEGIES:
        assert next_guess(2, 3, history, strategy) is None


def test_strategies_refuse_spaces_they_cannot_score():
    for strategy in oracle.HEURISTICS:
        with pytest.raises(InvalidParameter, match=f"the {strategy} strategy scores every code"):
            next_guess(5, 20, [], strategy)
    with pytest.raises(InvalidParameter, match="at most 4096 codes; 3 spots x 17 colours"):
        next_guess(3, 17, [], "optimal")
    with pytest.raises(InvalidParameter, match="unknown strategy 'fast'"):
        next_guess(2, 3, [], "fast")
    with pytest.raises(InvalidParameter, match="order must be 'lex' or 'shuffled'"):
        next_guess(2, 3, [], "first", order="random")


def test_sample_secrets_and_evaluate_them():
    secrets = oracle.sample_secrets(4, 6, 5, 11)
    for i, secret in enumerate(secrets):
        cursor = Stream(11, "mastermind.secrets", i).cursor()
        assert secret == tuple(cursor.uniform_below(6) for _ in range(4))
    assert secrets == oracle.sample_secrets(4, 6, 5, 11)
    assert oracle.sample_secrets(4, 6, 0, 11) == []
    counts = oracle.evaluate(4, 6, "first", 3, secrets)
    assert counts == [len(oracle.play(secret, 6, "first", 3)) for secret in secrets]
    # Beyond the enumerable spaces secrets must be given (or sampled).
    assert oracle.evaluate(8, 8, "first", 0, [(0, 0, 0, 0, 0, 0, 0, 1)]) == [2]
    with pytest.raises(InvalidParameter, match="listing every code"):
        oracle.evaluate(8, 8, "first")


# --- Inconsistent feedback --------------------------------------------------------------------


def satisfiable(spots, colours, history):
    """Whether some code is consistent: a scan of every code, not the search."""
    return any(is_consistent(code, history) for code in all_codes(spots, colours))


@given(games(max_turns=5, made_up=False), st.data())
def test_smallest_contradiction(game, data):
    spots, colours, _, history = game
    assert smallest_contradiction(spots, colours, history) is None
    if not history:
        return
    for t in data.draw(st.sets(st.integers(0, len(history) - 1), min_size=1, max_size=2)):
        black = data.draw(st.integers(0, spots))
        history[t] = (history[t][0], (black, data.draw(st.integers(0, spots - black))))
    found = smallest_contradiction(spots, colours, history)
    if satisfiable(spots, colours, history):
        assert found is None
        return
    assert found is not None
    assert list(found) == sorted(set(found))
    assert not satisfiable(spots, colours, [history[t] for t in found])
    # Fewest turns, and the first such set in lexicographic order.
    for size in range(1, len(found) + 1):
        for turns in itertools.combinations(range(len(history)), size):
            if size < len(found) or turns < found:
                assert satisfiable(spots, colours, [history[t] for t in turns]), turns


def test_smallest_contradiction_by_hand():
    no_colour_left = [((0, 0), (0, 0)), ((1, 1), (0, 0)), ((2, 2), (0, 0))]
    assert smallest_contradiction(2, 3, no_colour_left) == (0, 1, 2)
    # 22 cannot get a white (every 2 of the secret is under a 2 of the guess).
    assert smallest_contradiction(2, 3, [((0, 1), (0, 1)), ((2, 2), (0, 1))]) == (1,)
    history = [((0, 1), (0, 1)), ((0, 0), (2, 0)), ((1, 1), (1, 0)), ((2, 2), (1, 0))]
    # 00 answered 2 blacks makes the secret 00, which would answer 01 with 1 black (and 11
    # with none); every turn alone is satisfiable.
    assert smallest_contradiction(2, 3, history) == (0, 1)
    impossible = [((0, 1, 2), (1, 1)), ((0, 1, 2), (2, 1))]
    assert smallest_contradiction(3, 3, impossible) == (1,)
    # A large space: found by the search, not a scan. Turn 1 makes the secret 0123456789,
    # which has a 9; turns 0 and 2 agree (one 0, no 9).
    digits = tuple(range(10))
    big = [((0,) * 10, (1, 0)), (digits, (10, 0)), ((9,) * 10, (0, 0))]
    assert smallest_contradiction(10, 10, big) == (1, 2)


# --- Written form -----------------------------------------------------------------------------


@given(code_pairs())
def test_written_form_round_trips(pair):
    spots, colours, code, _ = pair
    text = format_code(code)
    assert len(text) == spots
    assert parse_code(text, colours) == code
    assert parse_code(text, colours, spots) == code
    assert parse_code(format_code(code).upper(), colours) == code
    # A trailing separator makes one spot an integer: "10" is two spots, "10," one.
    assert parse_code(",".join(str(c) for c in code) + ", ", colours) == code
    assert parse_code(" ".join(str(c) for c in code), colours) == code


def test_written_form_by_hand():
    assert parse_code("7735427368", 10) == (7, 7, 3, 5, 4, 2, 7, 3, 6, 8)
    assert parse_code("a0z", 36) == (10, 0, 35)
    assert parse_code("7,7,3,5", 8) == (7, 7, 3, 5)
    assert parse_code("7, 7, 3, 5", 8, 4) == (7, 7, 3, 5)
    assert parse_code("10 35", 36) == (10, 35)
    assert parse_code("A0Z", 36) == (10, 0, 35)
    assert parse_code(" 12, ", 36) == (12,)
    assert parse_code("1,,2", 3) == (1, 2)
    assert format_code((10, 0, 35)) == "a0z"
    assert format_code([7, 7, 3, 5]) == "7735"


@pytest.mark.parametrize(
    ("text", "colours", "spots", "message"),
    [
        ("01#3", 6, None, r"bad character '#' at spot 2 of '01#3'"),
        ("01x3", 6, None, r"character 'x' at spot 2 of '01x3' is colour 33: colours are 0 to 5"),
        ("0193", 6, None, r"character '9' at spot 2 of '0193' is colour 9: colours are 0 to 5"),
        ("01?3", 36, None, r"bad character '\?' at spot 2"),
        ("01Z3", 6, None, r"character 'Z' at spot 2 of '01Z3' is colour 35"),
        ("1,2,x", 6, None, r"bad colour 'x' at spot 2 of '1,2,x'"),
        ("1,-2", 6, None, r"bad colour '-2' at spot 1"),
        ("1 2.5", 6, None, r"bad colour '2.5' at spot 1"),
        ("1,2,7", 6, None, r"colour 7 at spot 2 of '1,2,7' is out of range: colours are 0 to 5"),
        ("0123", 6, 5, r"a code has 5 spots, got 4 colours"),
        ("   ", 6, None, r"empty code"),
        (" , ", 6, None, r"empty code"),
        ("0" * 17, 6, None, r"a code has 1 to 16 spots, got 17"),
        ("01", 1, None, r"colours must be between 2 and 36, got 1"),
    ],
)
def test_written_form_errors(text, colours, spots, message):
    with pytest.raises(InvalidParameter, match=message):
        parse_code(text, colours, spots)


def test_format_refuses_bad_codes():
    with pytest.raises(InvalidParameter, match="spot 1 has colour 36"):
        format_code((0, 36))
    with pytest.raises(InvalidParameter, match="non-empty sequence"):
        format_code(())


# --- Checked input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: all_codes(0, 6), "spots must be between 1 and 16, got 0"),
        (lambda: first_consistent(17, 6, []), "spots must be between 1 and 16, got 17"),
        (lambda: all_codes(2, 1), "colours must be between 2 and 36, got 1"),
        (lambda: all_codes(2, 37), "colours must be between 2 and 36, got 37"),
        (lambda: all_codes(True, 6), "spots must be an integer, got True"),
        (
            lambda: first_consistent(4, 6, [((0, 1, 2, 6), (0, 0))]),
            "guess 0: spot 3 has colour 6; colours are 0 to 5",
        ),
        (
            lambda: first_consistent(4, 6, [((0, 1, 2), (0, 0))]),
            "guess 0: a code has 4 spots, got 3 colours",
        ),
        (
            lambda: next_guess(4, 6, [((0, 0, 1, 1), (3, 2))], "knuth"),
            "feedback 0: 3 black 2 white: black \\+ white must be at most 4",
        ),
        (
            lambda: first_consistent(4, 6, [((0, 0, 1, 1), (1, 0)), ((0, 0, 1, 1), (-1, 0))]),
            "feedback 1 black must be at least 0, got -1",
        ),
        (
            lambda: oracle.count_consistent(4, 6, [((0, 0, 1, 1), (1,))]),
            r"feedback 0 must be a \(black, white\) pair",
        ),
        (lambda: oracle.play((0, 6), 6, "first"), "secret: spot 1 has colour 6"),
        (lambda: oracle.sample_secrets(4, 6, -1, 0), "count must be at least 0, got -1"),
        (lambda: next_guess(2, 3, [], "random", seed=-1), "seed must be at least 0, got -1"),
        (lambda: score((0, 1), (0, 1, 2)), "as many spots, got 2 and 3"),
    ],
)
def test_bad_input_is_named(call, message):
    with pytest.raises(InvalidParameter, match=message):
        call()


def test_count_consistent_on_a_large_space():
    start = time.monotonic()
    history = [((0,) * 10, (9, 0))]
    # Nine spots of colour 0 and one of the nine other colours: 10 * 9 codes.
    assert oracle.count_consistent(10, 10, history) == 90
    assert time.monotonic() - start < 10


def test_numpy_codes_are_accepted():
    import numpy as np

    guess = np.array([0, 0, 1, 1], dtype=np.uint8)
    secret = np.array([0, 1, 2, 3], dtype=np.uint8)
    assert score(guess, secret) == (1, 1)
    history = [(guess, np.array([1, 1]))]
    assert first_consistent(4, 6, history) == (0, 1, 2, 2)  # 0100-0121: 2 blacks or 3 colours
    assert first_consistent(4, 6, history, shuffled_order(4, 6, 1), np.array([1], np.uint8))
    assert format_code(secret) == "0123"
    assert oracle.play(secret, 6, "first")[-1] == ((0, 1, 2, 3), (4, 0))
