"""Mastermind through the protocol: a guess entered peg by peg is the native game's guess, the
secret stays out of the observation, -1 per guess, and the guess limit."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from stratagem import games
from stratagem.errors import InvalidMove, InvalidParameter
from stratagem.mastermind import format_code, solve
from stratagem.mastermind.protocol import Mastermind


@given(
    strategy=st.sampled_from(["first", "knuth", "entropy", "random"]),
    secret=st.tuples(*[st.integers(0, 5)] * 4),
    seed=st.integers(0, 2**64 - 1),
)
def test_suggested_pegs_play_the_native_strategy(strategy, secret, seed):
    written = format_code(np.array(secret, dtype=np.uint8))
    game = Mastermind(seed=seed, spots=4, colours=6, max_guesses=20, secret=written)
    while not game.is_over:
        game.step([game.suggest(0, strategy)])
    native = solve(written, colours=6, strategy=strategy, seed=seed)
    assert game.guesses.tolist() == native.guesses.tolist()
    assert game.feedback.tolist() == native.feedback.tolist()
    assert (game.outcome, game.winners) == ("won", (0,))
    assert game.returns().tolist() == [-float(native.turns)]
    assert game.turn == 4 * native.turns


def test_the_secret_never_shows_in_the_observation():
    pegs = [0, 1, 2, 3, 0, 0, 1]
    games_ = [Mastermind(seed=1, secret=s) for s in ("5432", "0132", "1111")]
    for game in games_:
        for peg in pegs:
            game.step([peg])
    # Guess 1 is scored, guess 2 is being entered: the rows differ only by the feedback.
    rows = [game.observation(0) for game in games_]
    for row in rows:
        assert row.shape == (13, 6)
        assert row.dtype == np.int16
        assert row[0, :4].tolist() == [0, 1, 2, 3]
        assert row[-1].tolist() == [0, 0, 1, -1, -1, -1]
        assert (row[1:-1] == -1).all()
    assert [row[0, 4:].tolist() for row in rows] == [[0, 2], [2, 2], [1, 0]]


def test_a_solved_game_stops_and_returns_minus_the_guesses():
    game = Mastermind(seed=0, secret="0123")
    for peg in [0, 0, 1, 1, 0, 1, 2, 3]:
        if game.is_over:
            break
        game.step([peg])
    assert (game.outcome, game.winners, game.turn) == ("won", (0,), 8)
    assert game.rewards().tolist() == [-1.0]
    assert game.returns().tolist() == [-2.0]
    with pytest.raises(InvalidMove, match="over"):
        game.step([0])


def test_the_guess_limit_ends_the_game_unfinished():
    game = games.make("mastermind", seed=3, spots=2, colours=3, max_guesses=2, secret="22")
    for peg in [0, 0, 1, 1]:
        game.step([peg])
    assert game.is_over
    assert (game.outcome, game.winners, game.returns().tolist()) == ("unfinished", (), [-2.0])
    assert game.to_move() == ()


def test_the_secret_comes_from_the_seed():
    first = [Mastermind(seed=s).secret.tolist() for s in range(6)]
    assert first == [Mastermind(seed=s).secret.tolist() for s in range(6)]
    assert len({tuple(code) for code in first}) > 1


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"spots": 0}, "spots"),
        ({"colours": 1}, "colours"),
        ({"max_guesses": 0}, "max_guesses must be at least 1"),
        ({"secret": "01234"}, "secret"),
        ({"secret": 123}, "a written code"),
        ({"secret": "0129", "colours": 6}, "9"),
    ],
)
def test_bad_config_is_named(config, message):
    with pytest.raises(InvalidParameter, match=message):
        Mastermind(**config)


def test_suggest_names_an_unknown_strategy():
    with pytest.raises(InvalidParameter, match="unknown strategy 'psychic'"):
        Mastermind().suggest(0, "psychic")


def test_a_number_is_not_taken_for_a_code():
    from stratagem.mastermind import solve

    with pytest.raises(InvalidParameter, match=r"a string such as '0123'.*single number 1234"):
        solve(1234, colours=6)  # type: ignore[arg-type]
