"""Outpost through the protocol: a player chosen turn by turn plays the native game, the
observation is the map seen from each empire, and the end is scored by the scores."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stratagem import games
from stratagem.errors import InvalidParameter
from stratagem.outpost import BUILTIN_PLAYERS, Game
from stratagem.outpost.protocol import Outpost


@settings(max_examples=10)
@given(
    players=st.lists(st.sampled_from(BUILTIN_PLAYERS), min_size=4, max_size=4),
    seed=st.integers(0, 2**64 - 1),
)
def test_fixed_choices_play_the_native_game(players, seed):
    game = Outpost(seed=seed, map="lakes", max_turns=25)
    native = Game("lakes", 7, 12, 3, 25, players, seed)
    while not game.is_over:
        game.step([BUILTIN_PLAYERS.index(name) for name in players])
        native.step()
        assert np.array_equal(game.native.control, native.control)
        assert np.array_equal(game.native.outposts, native.outposts)
    assert native.finished
    assert game.winners == native.result.winners


def test_switching_players_is_deterministic():
    def play() -> Outpost:
        game = Outpost(seed=9, map="mixed", max_turns=30)
        while not game.is_over:
            game.step([(game.turn + seat) % 4 for seat in range(4)])
        return game

    first, second = play(), play()
    assert np.array_equal(first.native.control, second.native.control)
    assert first.returns().tolist() == second.returns().tolist()


def test_the_observation_is_relative_to_the_seat():
    game = games.make("outpost", seed=2, map="rivers", max_turns=15)
    for _ in range(12):
        game.step([1, 2, 3, 0])
    control = game.native.control
    rows = game.native.outposts
    for seat in range(4):
        planes = game.observation(seat)
        assert planes.shape == (6, 100, 100)
        assert planes.dtype == np.int8
        assert np.array_equal(planes[0], game.native.map.water)
        owned = control >= 0
        assert np.array_equal(planes[1][owned], (control[owned] - seat) % 4)
        assert np.array_equal(planes[1][~owned], control[~owned])
        for empire in range(4):
            mine = rows[rows[:, 1] == empire]
            plane = planes[2 + (empire - seat) % 4]
            assert plane.sum() == len(mine)
            for _, _, x, y in mine:
                assert plane[y, x] >= 1


def test_the_end_is_scored_by_the_scores():
    game = games.make("outpost", seed=1, map="rivers", max_turns=60)
    players = ["spread", "frontier", "random", "lookahead"]
    while not game.is_over:
        game.step([BUILTIN_PLAYERS.index(name) for name in players])
    scores = game.native.result.scores
    assert game.winners == tuple(np.flatnonzero(scores == scores.max()).tolist())
    assert game.outcome == ("won" if len(game.winners) == 1 else "drawn")
    expected = [1.0 if seat in game.winners else -1.0 for seat in range(4)]
    if game.outcome == "drawn":
        expected = [0.0 if seat in game.winners else -1.0 for seat in range(4)]
    assert game.returns().tolist() == expected


def test_bad_config_is_named():
    with pytest.raises(InvalidParameter, match="map"):
        Outpost(map="atlantis")
    with pytest.raises(InvalidParameter, match="T must be at most"):
        Outpost(max_turns=10**7)
    with pytest.raises(InvalidParameter, match="unknown player 'sleepy'"):
        Outpost().suggest(0, "sleepy")
