"""The mastermind API as a user meets it: a Codebreaker answered turn by turn (its guess kept
until feedback, feedback checked and refused with the turn named, contradictions named and the
history kept), ``solve`` on the seed's instances, the known totals of the strategies on 4 x 6,
the written form, the estimator's interface, bad input refused with a named problem, and Ctrl-C
stopping long calls (``docs/mastermind-rules.md``)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from interrupts import seconds_to_stop_after_ctrl_c
from property_settings import SEEDS, fewer_examples
from stratagem.errors import (
    InconsistentFeedback,
    InvalidMove,
    InvalidParameter,
    StratagemError,
)
from stratagem.mastermind import (
    STRATEGIES,
    Codebreaker,
    consistent_codes,
    count_consistent,
    estimate_consistent,
    evaluate,
    first_consistent,
    format_code,
    next_guess,
    oracle,
    parse_code,
    sample_secrets,
    score,
    smallest_contradiction,
    solve,
)

FEWER = fewer_examples(20)


# -- Codebreaker -----------------------------------------------------------------------------


def test_the_guess_is_kept_until_feedback_and_returned_as_a_copy():
    breaker = Codebreaker(4, 6, "knuth")
    first = breaker.next_guess()
    assert first.dtype == np.uint8
    assert first.tolist() == [0, 0, 1, 1]
    first[:] = 5  # the caller's copy only
    assert breaker.next_guess().tolist() == [0, 0, 1, 1]
    assert breaker.next_guess().tolist() == [0, 0, 1, 1]
    assert breaker.turns == 0
    assert breaker.guesses.shape == (0, 4)
    assert breaker.feedbacks.shape == (0, 2)
    breaker.feedback(1, 1)
    assert breaker.turns == 1
    assert breaker.guesses.tolist() == [[0, 0, 1, 1]]
    assert breaker.feedbacks.tolist() == [[1, 1]]
    second = breaker.next_guess()
    assert second.tolist() == [0, 0, 2, 3]
    assert breaker.next_guess().tolist() == second.tolist()
    # The properties are copies too.
    breaker.guesses[:] = 3
    breaker.feedbacks[:] = 0
    assert breaker.guesses.tolist() == [[0, 0, 1, 1]]
    assert breaker.feedbacks.tolist() == [[1, 1]]


def test_turns_remaining_and_solved_through_a_game():
    secret = (2, 1, 0, 0)
    breaker = Codebreaker(4, 6)
    assert breaker.remaining() == 6**4
    assert not breaker.solved
    history = []
    while not breaker.solved:
        guess = breaker.next_guess()
        feedback = oracle.score(tuple(guess.tolist()), secret)
        breaker.feedback(*feedback)
        history.append((tuple(guess.tolist()), feedback))
        assert breaker.turns == len(history)
        assert breaker.remaining() == len(oracle.consistent_codes(4, 6, history))
    assert breaker.guesses[-1].tolist() == list(secret)
    assert breaker.feedbacks[-1].tolist() == [4, 0]
    assert breaker.remaining() == 1
    with pytest.raises(InvalidMove, match="already found"):
        breaker.next_guess()
    with pytest.raises(InvalidMove, match="already found"):
        breaker.feedback(4, 0)
    assert breaker.turns == len(history)


@pytest.mark.parametrize(
    ("black", "white", "fragment"),
    [
        (3, 2, r"feedback 2: 3 black \+ 2 white is more than 4 spots"),
        (5, 0, r"feedback 2 black must be at most 4, got 5"),
        (-1, 0, r"feedback 2 black must be at least 0, got -1"),
        (0, -2, r"feedback 2 white must be at least 0, got -2"),
        (1.5, 0, r"feedback 2 black must be an integer, got 1\.5"),
        (1, "2", r"feedback 2 white must be an integer, got '2'"),
        (True, 0, r"feedback 2 black must be an integer, got True"),
        (None, 0, r"feedback 2 black must be an integer, got None"),
    ],
)
def test_feedback_errors_name_the_turn_and_change_nothing(black, white, fragment):
    secret = (1, 4, 3, 5)
    breaker = Codebreaker(4, 6, "knuth")
    for _ in range(2):
        breaker.feedback(*oracle.score(tuple(breaker.next_guess().tolist()), secret))
    answered = breaker.feedbacks.tolist()
    pending = breaker.next_guess().tolist()
    with pytest.raises(InvalidParameter, match=fragment):
        breaker.feedback(black, white)
    assert breaker.turns == 2
    assert breaker.feedbacks.tolist() == answered
    assert breaker.next_guess().tolist() == pending
    honest = oracle.score(tuple(pending), secret)
    breaker.feedback(np.int64(honest[0]), np.uint8(honest[1]))  # numpy integers are fine
    assert breaker.turns == 3


def test_inconsistent_feedback_is_refused_naming_the_turns():
    breaker = Codebreaker(4, 6, "knuth")
    breaker.next_guess()  # 0011
    breaker.feedback(1, 1)
    assert breaker.next_guess().tolist() == [0, 0, 2, 3]
    # 3 blacks and 1 white: no code gives that, whatever the other turns say.
    with pytest.raises(InconsistentFeedback) as caught:
        breaker.feedback(3, 1)
    assert caught.value.feedbacks == (1,)
    assert str(caught.value) == "no code fits this feedback: turn 1: 0023 got 3 black 1 white"
    # 0 blacks 4 whites makes the secret a derangement of 0023, which 0011 answers with
    # 0 blacks and 2 whites: turns 0 and 1 together.
    with pytest.raises(InconsistentFeedback) as caught:
        breaker.feedback(0, 4)
    assert caught.value.feedbacks == (0, 1)
    message = str(caught.value)
    assert message.startswith("no code fits these 2 feedbacks together: ")
    assert "turn 0: 0011 got 1 black 1 white" in message
    assert "turn 1: 0023 got 0 black 4 white" in message
    # 0023 is not consistent with turn 0 (it would get 2 blacks), so "4 blacks" is refused too.
    with pytest.raises(InconsistentFeedback) as caught:
        breaker.feedback(4, 0)
    assert caught.value.feedbacks == (0, 1)
    assert isinstance(caught.value, StratagemError)
    assert isinstance(caught.value, ValueError)
    # Nothing was recorded: the same pending guess, the same count, and the game goes on.
    assert breaker.turns == 1
    assert breaker.feedbacks.tolist() == [[1, 1]]
    assert not breaker.solved
    assert breaker.next_guess().tolist() == [0, 0, 2, 3]
    assert breaker.remaining() == len(oracle.consistent_codes(4, 6, [((0, 0, 1, 1), (1, 1))]))
    breaker.feedback(0, 2)
    assert breaker.turns == 2


def test_a_long_contradiction_names_every_turn():
    # No 0, no 1, no 2: nothing is left on 2 x 3, and only all three turns together say so.
    breaker = Codebreaker(2, 3)
    for colour in (0, 1):
        assert breaker.next_guess().tolist() == [colour, colour]
        breaker.feedback(0, 0)
    assert breaker.next_guess().tolist() == [2, 2]
    with pytest.raises(InconsistentFeedback, match="these 3 feedbacks together") as caught:
        breaker.feedback(0, 0)
    assert caught.value.feedbacks == (0, 1, 2)
    assert breaker.turns == 2
    breaker.feedback(2, 0)
    assert breaker.solved


@FEWER
@given(
    st.sampled_from([(2, 3), (3, 3), (2, 4), (4, 2), (2, 5)]),
    st.sampled_from(STRATEGIES),
    SEEDS,
    st.data(),
)
def test_any_feedback_is_recorded_or_refused_as_the_rules_say(space, strategy, seed, data):
    # A codemaker who sometimes answers at random: a feedback is recorded exactly when some
    # code still fits, and refused naming the oracle's smallest contradiction otherwise.
    spots, colours = space
    secret = data.draw(st.tuples(*[st.integers(0, colours - 1)] * spots), label="secret")
    breaker = Codebreaker(spots, colours, strategy, seed)
    history: list = []
    while not breaker.solved:
        assert len(history) < 12
        guess = tuple(breaker.next_guess().tolist())
        assert guess == oracle.next_guess(spots, colours, history, strategy, seed)
        black = data.draw(st.integers(0, spots), label="black")
        made_up = (black, data.draw(st.integers(0, spots - black), label="white"))
        contradiction = oracle.smallest_contradiction(spots, colours, [*history, (guess, made_up)])
        if contradiction is None:
            breaker.feedback(*made_up)
            history.append((guess, made_up))
            # The codemaker now keeps to a code that fits everything said so far.
            if not oracle.is_consistent(secret, history):
                secret = oracle.consistent_codes(spots, colours, history)[0]
        else:
            with pytest.raises(InconsistentFeedback) as caught:
                breaker.feedback(*made_up)
            assert caught.value.feedbacks == contradiction
            assert breaker.turns == len(history)
            assert tuple(breaker.next_guess().tolist()) == guess
            honest = oracle.score(guess, secret)
            breaker.feedback(*honest)
            history.append((guess, honest))
        assert breaker.feedbacks.tolist() == [list(f) for _, f in history]
        assert breaker.remaining() == len(oracle.consistent_codes(spots, colours, history))
    assert history[-1][1] == (spots, 0)


def test_the_shuffled_order_and_the_seed_of_a_codebreaker():
    order = oracle.shuffled_order(5, 8, 42)
    breaker = Codebreaker(5, 8, "first", 42, order="shuffled")
    assert breaker.next_guess().tolist() == [row[0] for row in order]
    assert Codebreaker(5, 8, "random", 3).next_guess().tolist() == list(
        oracle.next_guess(5, 8, [], "random", 3)
    )


# -- solving the seed's instances -------------------------------------------------------------

INSTANCES = [
    (6, "2100", 4),
    (6, "4412", 7),
    (6, "42152", 6),
    (9, "08278", 10),
    (9, "233655", 9),
    (8, "7030521", 9),
    (10, "7735427368", 13),
]


@pytest.mark.parametrize(
    ("colours", "secret", "turns"), INSTANCES, ids=[s for _, s, _ in INSTANCES]
)
def test_first_solves_the_seed_instances_with_consistent_guesses(colours, secret, turns):
    code = parse_code(secret, colours)
    for given_as in (secret, code, code.tolist()):
        result = solve(given_as, colours, "first")
        assert result.secret.tolist() == code.tolist()
        assert result.turns == len(result.guesses) == len(result.feedback) == turns
        assert result.guesses.dtype == np.uint8
        history: list = []
        for guess, feedback in zip(result.guesses.tolist(), result.feedback.tolist(), strict=True):
            # Every guess fits everything answered before it, so none is repeated.
            assert oracle.is_consistent(guess, history), (guess, history)
            assert tuple(feedback) == oracle.score(guess, tuple(code.tolist()))
            history.append((tuple(guess), tuple(feedback)))
        assert result.guesses[-1].tolist() == code.tolist()
        assert result.feedback[-1].tolist() == [len(secret), 0]
        assert result.feedback[:-1, 0].max(initial=0) < len(secret)
    summary = result.to_dict()
    assert summary["secret"] == secret
    assert summary["turns"] == turns
    assert summary["guesses"][-1] == secret
    assert summary["strategy"] == "first"


def test_solve_agrees_with_the_oracle_game_for_every_strategy():
    for strategy in STRATEGIES:
        for secret in [(0, 0, 0), (2, 1, 2), (1, 2, 0)]:
            result = solve(secret, 3, strategy, seed=9)
            played = oracle.play(secret, 3, strategy, 9)
            assert [tuple(g) for g in result.guesses.tolist()] == [g for g, _ in played]


# -- the known totals on 4 x 6 ---------------------------------------------------------------


def test_knuth_plays_5801_guesses_with_at_most_5_on_4x6():
    result = evaluate(4, 6, "knuth", progress=False)
    assert (result.total, result.worst) == (5801, 5)
    assert result.average == Fraction(5801, 1296)
    assert not result.sampled
    assert result.secrets.shape == (1296, 4)
    assert result.guesses.shape == (1296,)
    assert result.histogram.sum() == 1296
    assert result.histogram[0] == 0
    assert result.histogram[1] == 1  # 0011 itself
    hardest = result.hardest(3)
    assert len(hardest) == 3
    for written in hardest:
        index = int(np.flatnonzero((result.secrets == parse_code(written, 6)).all(axis=1))[0])
        assert result.guesses[index] == 5
    summary = result.to_dict()
    assert summary["total"] == 5801
    assert summary["average_fraction"] == "5801/1296"
    assert summary["worst"] == 5
    assert sum(summary["histogram"].values()) == 1296


@pytest.mark.parametrize(
    ("strategy", "total"),
    [("knuth", 5801), ("irving", 5696), ("entropy", 5722), ("most_parts", 5668)],
)
def test_heuristic_totals_on_4x6(strategy, total):
    results = [evaluate(4, 6, strategy, threads=t, progress=False) for t in (1, 2)]
    assert results[0].total == total
    assert results[0].guesses.tolist() == results[1].guesses.tolist()


@pytest.mark.parametrize(
    ("strategy", "order"), [("first", "lex"), ("first", "shuffled"), ("random", "lex")]
)
def test_evaluation_is_the_same_for_one_and_two_threads(strategy, order):
    results = [
        evaluate(4, 6, strategy, seed=4, order=order, threads=t, progress=False) for t in (1, 2)
    ]
    assert results[0].guesses.tolist() == results[1].guesses.tolist()
    sampled = [
        evaluate(8, 8, strategy, sample=40, seed=4, order=order, threads=t, progress=False)
        for t in (1, 2)
    ]
    assert sampled[0].sampled
    assert sampled[0].secrets.tolist() == sample_secrets(8, 8, 40, 4).tolist()
    assert sampled[0].guesses.tolist() == sampled[1].guesses.tolist()
    assert sampled[0].guesses.min() >= 1


@pytest.mark.slow
def test_the_optimal_strategy_plays_5625_guesses_on_4x6():
    # About 25 s on two cores.
    result = evaluate(4, 6, "optimal", progress=False)
    assert result.total == 5625
    assert result.worst == 6


# -- searching and counting from the public API ----------------------------------------------


def test_search_functions_accept_written_codes_and_lists():
    guesses, feedback = ["0011", "0123"], [(1, 1), (0, 2)]
    assert first_consistent(4, 6, guesses, feedback).tolist() == [1, 0, 4, 4]
    assert first_consistent(4, 6, guesses, feedback, prefix=[2]).tolist() == [2, 0, 0, 0]
    assert first_consistent(4, 6, guesses, feedback, prefix=(1, 0, 3)) is None
    count = count_consistent(4, 6, guesses, feedback)
    listed = consistent_codes(4, 6, guesses, feedback)
    assert (
        count
        == len(listed)
        == len(oracle.consistent_codes(4, 6, [((0, 0, 1, 1), (1, 1)), ((0, 1, 2, 3), (0, 2))]))
    )
    assert listed[0].tolist() == [1, 0, 4, 4]
    assert smallest_contradiction(4, 6, guesses, feedback) is None
    assert smallest_contradiction(4, 6, ["0011", "0011"], [(1, 1), (2, 0)]) == (0, 1)
    black, white = score("0011", ["0123", "1100", "0011"], colours=6)
    assert black.tolist() == [1, 0, 4]
    assert white.tolist() == [1, 4, 0]


def test_counts_are_python_ints_beyond_64_bits():
    assert count_consistent(16, 36) == 36**16
    found = count_consistent(16, 36, [[0] * 16], [(15, 0)])
    assert type(found) is int
    assert found == 16 * 35


def test_estimate_returns_mean_and_standard_error():
    exact = count_consistent(5, 7, ["01234"], [(1, 2)])
    mean, stderr = estimate_consistent(5, 7, ["01234"], [(1, 2)], probes=4000, seed=8)
    assert isinstance(mean, float)
    assert isinstance(stderr, float)
    assert stderr > 0
    assert abs(mean - exact) <= 4 * stderr
    assert estimate_consistent(5, 7, ["01234"], [(1, 2)], probes=4000, seed=8) == (mean, stderr)
    assert estimate_consistent(4, 6, probes=2) == (1296.0, 0.0)
    for probes, fragment in [
        (1, "probes must be at least 2, got 1"),
        (0, "probes must be at least 2, got 0"),
        (-5, "probes must be at least 2, got -5"),
        (2.5, r"probes must be an integer, got 2\.5"),
    ]:
        with pytest.raises(InvalidParameter, match=fragment):
            estimate_consistent(4, 6, probes=probes)


# -- the written form ------------------------------------------------------------------------


@given(st.integers(1, 16).flatmap(lambda s: st.tuples(st.just(s), st.integers(2, 36))), st.data())
def test_written_form_round_trips(space, data):
    spots, colours = space
    code = data.draw(st.lists(st.integers(0, colours - 1), min_size=spots, max_size=spots))
    text = format_code(code)
    assert text == oracle.format_code(code)
    assert len(text) == spots
    assert parse_code(text, colours).tolist() == code
    assert parse_code(text.upper(), colours, spots).tolist() == code
    # A separator makes the integer form (a one-spot "10" is written "10,").
    assert parse_code(",".join(map(str, code)) + ",", colours).tolist() == code
    if spots > 1:  # leading and trailing spaces are not separators
        assert parse_code(" ".join(map(str, code)) + " ", colours, spots).tolist() == code
    assert parse_code(text, colours).dtype == np.uint8
    assert format_code(np.array(code, dtype=np.uint8)) == text


def test_written_form_by_hand():
    assert parse_code("7735427368", 10).tolist() == [7, 7, 3, 5, 4, 2, 7, 3, 6, 8]
    assert parse_code("a0z", 36).tolist() == [10, 0, 35]
    assert parse_code("3,10,35", 36).tolist() == [3, 10, 35]
    assert parse_code("7 7 3 5", 8).tolist() == [7, 7, 3, 5]
    assert format_code(parse_code("3,10,35", 36)) == "3az"
    assert format_code([7, 7, 3, 5]) == "7735"


@pytest.mark.parametrize(
    ("text", "colours", "spots", "fragment"),
    [
        ("01#3", 6, None, r"'#' at spot 2"),
        ("01x3", 6, None, r"spot 2 has colour 33; colours are 0 to 5"),
        ("1,2,x", 6, None, r"spot 2 is 'x', not a number"),
        ("1,-2", 6, None, r"spot 1 is '-2', not a number"),
        ("1,2,7", 6, None, r"spot 2 has colour 7; colours are 0 to 5"),
        ("0123", 6, 5, r"has 4 spots, expected 5"),
        ("", 6, None, r"at least one spot"),
        ("0" * 17, 6, None, r"17 spots; at most 16"),
        ("01", 1, None, r"colours must be at least 2, got 1"),
        ("01", 37, None, r"colours must be at most 36, got 37"),
    ],
)
def test_parse_errors_name_the_character_and_spot(text, colours, spots, fragment):
    with pytest.raises(InvalidParameter, match=fragment):
        parse_code(text, colours, spots)


@pytest.mark.parametrize(
    "code", [[36], [0, -1], [], [0.5]], ids=["colour 36", "negative", "empty", "fraction"]
)
def test_format_refuses_what_is_not_a_code(code):
    with pytest.raises(InvalidParameter):
        format_code(code)


# -- bad input everywhere --------------------------------------------------------------------

E = np.zeros((0, 2), dtype=np.uint8)

BAD_INPUT = [
    # spots and colours, for every entry point
    (lambda: Codebreaker(0, 6), "spots must be at least 1, got 0"),
    (lambda: Codebreaker(17, 6), "spots must be at most 16, got 17"),
    (lambda: Codebreaker(4, 1), "colours must be at least 2, got 1"),
    (lambda: Codebreaker(4, 37), "colours must be at most 36, got 37"),
    (lambda: Codebreaker(4.0, 6), r"spots must be an integer, got 4\.0"),
    (lambda: first_consistent(0, 6), "spots must be at least 1, got 0"),
    (lambda: count_consistent(17, 6), "spots must be at most 16, got 17"),
    (lambda: consistent_codes(4, 1), "colours must be at least 2, got 1"),
    (lambda: estimate_consistent(4, 37), "colours must be at most 36, got 37"),
    (lambda: next_guess(0, 6), "spots must be at least 1, got 0"),
    (lambda: smallest_contradiction(17, 6, [], []), "spots must be at most 16, got 17"),
    (lambda: evaluate(4, 1, "first"), "colours must be at least 2, got 1"),
    (lambda: evaluate(17, 6, "first"), "spots must be at most 16, got 17"),
    (lambda: sample_secrets(4, 37, 5), "colours must be at most 36, got 37"),
    (lambda: score([0, 1], [0, 1], colours=1), "colours must be at least 2, got 1"),
    (lambda: score([0] * 17, [0] * 17, colours=6), "spots must be at most 16, got 17"),
    (lambda: solve([0] * 17, 6), "spots must be at most 16, got 17"),
    (lambda: solve([0, 1], 37), "colours must be at most 36, got 37"),
    # codes: wrong length, dtype, sign, fractions, colours out of range
    (lambda: score([0, 1, 2], [0, 1], colours=6), "secrets must have 3 colours per code"),
    (
        lambda: first_consistent(4, 6, [[0, 1, 2]], [(0, 0)]),
        r"guesses must have 4 colours per code, got shape \(1, 3\)",
    ),
    (lambda: score([0, 1.5], [0, 1], colours=6), "guesses must hold whole colour numbers"),
    (lambda: score([0, 1], [0, np.nan], colours=6), "secrets must hold whole colour numbers"),
    (lambda: score(np.array([True, False]), [0, 1], colours=6), "whole colour numbers, got bool"),
    (lambda: score(["a", 0], [0, 1], colours=6), "whole colour numbers"),
    (lambda: score([2**70, 0], [0, 1], colours=6), "whole colour numbers"),
    (lambda: score([0, -1], [0, 1], colours=6), "spot 1 has colour -1; colours are 0 to 5"),
    (lambda: score([0, 6], [0, 1], colours=6), "spot 1 has colour 6; colours are 0 to 5"),
    (
        lambda: next_guess(4, 6, [[0, 0, 1, 1], [0, 0, 9, 1]], [(1, 1), (0, 0)]),
        "code 1 spot 2 has colour 9; colours are 0 to 5",
    ),
    (lambda: solve([0, 6], 6), "secret: .*spot 1 has colour 6"),
    (lambda: solve([0.5, 1], 6), "secret must hold whole colour numbers"),
    (lambda: solve([[0, 1]], 6), r"secret must be one code"),
    (lambda: solve("01#3", 6), "'#' at spot 2"),
    (lambda: first_consistent(2, 3, prefix=[0, 1, 2]), "prefix has at most 2 spots, got 3"),
    (lambda: first_consistent(2, 3, prefix=[3]), "has colour 3; colours are 0 to 2"),
    (lambda: first_consistent(2, 3, order=[[0, 1, 1], [0, 1, 2]]), "not a permutation"),
    (lambda: first_consistent(2, 3, order=[[0, 1, 2]]), r"\(2, 3\)"),
    # feedback
    (
        lambda: next_guess(4, 6, ["0011"], [(3, 2)]),
        r"feedback 0: 3 black \+ 2 white is more than 4 spots",
    ),
    (
        lambda: count_consistent(4, 6, ["0011", "0012"], [(1, 0), (4, 1)]),
        r"feedback 1: 4 black \+ 1 white is more than 4 spots",
    ),
    (
        lambda: first_consistent(4, 6, ["0011"], [(-1, 0)]),
        "feedback 0 black must be at least 0, got -1",
    ),
    (lambda: first_consistent(4, 6, ["0011"], [(1, 0, 0)]), r"feedback must have shape \(1, 2\)"),
    (
        lambda: first_consistent(4, 6, ["0011", "0022"], [(1, 0)]),
        r"feedback must have shape \(2, 2\)",
    ),
    # strategies and orders
    (lambda: Codebreaker(4, 6, "fast"), "unknown strategy 'fast'; strategies are first, random"),
    (lambda: next_guess(4, 6, strategy="fast"), "unknown strategy 'fast'"),
    (lambda: evaluate(4, 6, "fast"), "unknown strategy 'fast'"),
    (lambda: solve("0011", 6, "fast"), "unknown strategy 'fast'"),
    (lambda: Codebreaker(4, 6, order="random"), "order must be one of lex, shuffled, got 'random'"),
    (lambda: next_guess(4, 6, order="sorted"), "order must be one of lex, shuffled"),
    (lambda: evaluate(4, 6, "first", order="sorted"), "order must be one of lex, shuffled"),
    (lambda: Codebreaker(10, 10, "knuth"), "'knuth'.* at most 2097152 codes; 10 .*has 10000000000"),
    (lambda: next_guess(10, 10, strategy="knuth"), "at most 2097152 codes; 10 .*has 10000000000"),
    (lambda: evaluate(10, 10, "knuth"), "'knuth'.* at most 2097152 codes; 10 .*has 10000000000"),
    (lambda: evaluate(10, 10, "entropy", sample=3), "at most 2097152 codes"),
    (lambda: solve("0123456789", 10, "irving"), "'irving'.* at most 2097152 codes"),
    (lambda: Codebreaker(5, 6, "optimal"), "optimal .*at most 4096 codes; 5 .*has 7776"),
    (lambda: next_guess(5, 6, strategy="optimal"), "optimal .*at most 4096 codes; 5 .*has 7776"),
    (lambda: evaluate(5, 6, "optimal"), "optimal .*at most 4096 codes; 5 .*has 7776"),
    (lambda: evaluate(5, 6, "optimal", sample=2), "optimal .*at most 4096 codes"),
    (lambda: consistent_codes(8, 8), "at most 2097152 codes; 8 spots x 8 colours has 16777216"),
    # other parameters
    (lambda: evaluate(4, 6, "first", sample=0), "sample must be at least 1, got 0"),
    (lambda: evaluate(4, 6, "first", sample=2.0), r"sample must be an integer, got 2\.0"),
    (lambda: sample_secrets(4, 6, -1), "sample must be at least 1, got -1"),
    (lambda: Codebreaker(4, 6, seed=-1), "seed must be at least 0, got -1"),
    (lambda: Codebreaker(4, 6, seed=2**64), "seed must be at most"),
    (lambda: evaluate(4, 6, "random", seed=1.5), r"seed must be an integer, got 1\.5"),
    (lambda: count_consistent(4, 6, ["0011"], [(1, 0)], threads=0), "threads must be at least 1"),
    (lambda: score([0], [1], colours=2, threads=-1), "threads must be at least 1"),
]


@pytest.mark.parametrize(
    ("call", "fragment"), BAD_INPUT, ids=[f"case{i}" for i in range(len(BAD_INPUT))]
)
def test_bad_input_is_refused_naming_the_problem(call, fragment):
    with pytest.raises(InvalidParameter, match=fragment) as caught:
        call()
    assert type(caught.value) is InvalidParameter
    assert isinstance(caught.value, ValueError)


def test_contradictions_are_their_own_error_from_every_entry_point():
    guesses, feedback = ["00", "11", "22"], [(0, 0)] * 3
    for strategy in STRATEGIES:
        with pytest.raises(InconsistentFeedback, match="these 3 feedbacks together") as caught:
            next_guess(2, 3, guesses, feedback, strategy=strategy)
        assert caught.value.feedbacks == (0, 1, 2)
    # The search functions answer "nothing" instead.
    assert first_consistent(2, 3, guesses, feedback) is None
    assert count_consistent(2, 3, guesses, feedback) == 0
    assert consistent_codes(2, 3, guesses, feedback).shape == (0, 2)
    assert smallest_contradiction(2, 3, guesses, feedback) == (0, 1, 2)
    # An in-range feedback no code can give is accepted, then found inconsistent.
    assert first_consistent(4, 6, ["0011"], [(3, 1)]) is None
    assert smallest_contradiction(4, 6, ["0011"], [(3, 1)]) == (0,)


# -- Ctrl-C ----------------------------------------------------------------------------------


def test_ctrl_c_stops_a_long_count_within_a_second():
    guess = np.array([[0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]], dtype=np.uint8)
    stopping = seconds_to_stop_after_ctrl_c(
        lambda: count_consistent(14, 14, guess, [(2, 3)], threads=2)
    )
    assert stopping < 1.0
    # The engine is intact afterwards.
    assert count_consistent(4, 6, ["0011"], [(1, 1)], threads=2) == 208


def test_ctrl_c_stops_a_long_evaluation_within_a_second():
    stopping = seconds_to_stop_after_ctrl_c(
        lambda: evaluate(5, 8, "entropy", threads=2, progress=False)
    )
    assert stopping < 1.0
    assert evaluate(3, 3, "entropy", threads=2, progress=False).total == 73


def test_ctrl_c_stops_a_long_guess_within_a_second():
    # Entropy's first guess on 7 x 8 scores 2^21 codes (seconds).
    breaker = Codebreaker(7, 8, "entropy")
    assert seconds_to_stop_after_ctrl_c(breaker.next_guess) < 1.0
    assert breaker.turns == 0
