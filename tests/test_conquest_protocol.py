"""Conquest through the protocol: a policy chosen turn by turn plays the native game, the
switch is deterministic, and the observation is the board seen from each team."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from stratagem import games
from stratagem.conquest import POLICIES, Board, Game, assign_regions, troops_uniform
from stratagem.conquest.protocol import Conquest
from stratagem.errors import InvalidParameter


@given(
    policies=st.tuples(st.sampled_from(POLICIES), st.sampled_from(POLICIES)),
    seed=st.integers(0, 2**64 - 1),
)
def test_fixed_choices_play_the_native_game(policies, seed):
    game = Conquest(seed=seed, board="grid:5x5", max_turns=25)
    board = Board.from_spec("grid:5x5")
    native = Game(
        board,
        assign_regions(board, 2, seed),
        troops_uniform(board, 10),
        list(policies),
        seed=seed,
        max_turns=25,
        threads=1,
    )
    while not game.is_over:
        game.step({team: POLICIES.index(policies[team]) for team in game.to_move()})
        native.step()
        assert np.array_equal(game.native.team, native.team)
        assert np.array_equal(game.native.troops, native.troops)
    assert native.finished
    assert game.turn == native.turn


@given(seed=st.integers(0, 2**64 - 1), choices=st.lists(st.integers(0, 3), min_size=8))
def test_switching_policies_is_deterministic_for_any_thread_count(seed, choices):
    runs = []
    for threads in (1, 2):
        game = Conquest(seed=seed, board="grid:6x6", teams=3, max_turns=20)
        game.native.threads = threads
        for turn, choice in enumerate(choices):
            if game.is_over:
                break
            game.step({team: (choice + team + turn) % 4 for team in game.to_move()})
        runs.append((game.native.team.copy(), game.native.troops.copy(), game.turn))
    assert np.array_equal(runs[0][0], runs[1][0])
    assert np.array_equal(runs[0][1], runs[1][1])
    assert runs[0][2] == runs[1][2]


def test_the_observation_is_relative_to_the_seat():
    game = Conquest(seed=2, board="grid:4x4", teams=3)
    team = game.native.team
    for seat in range(3):
        observation = game.observation(seat)
        assert observation.shape == (2, 16)
        assert observation.dtype == np.int64
        assert np.array_equal(observation[0], (team - seat) % 3)
        assert np.array_equal(observation[1], game.native.troops)
        assert (observation[0] == 0).sum() == (team == seat).sum()


def test_no_troops_left_is_a_draw_shared_by_every_team():
    game = games.make("conquest", seed=5, board="ring:6", teams=3, troops=0, max_turns=3)
    assert game.to_move() == (0, 1, 2)
    game.step([0, 0, 0])
    assert (game.outcome, game.winners, game.turn) == ("drawn", (0, 1, 2), 1)
    assert game.returns().tolist() == [0.0, 0.0, 0.0]


def test_the_turn_limit_ends_the_game_unfinished():
    game = games.make("conquest", seed=5, board="grid:10x10", teams=2, max_turns=2)
    game.step([2, 2])
    game.step([2, 2])
    assert game.is_over
    assert (game.outcome, game.winners, game.to_move()) == ("unfinished", (), ())
    assert game.returns().tolist() == [0.0, 0.0]


def test_a_team_without_territories_does_not_move():
    game = games.make("conquest", seed=3, board="grid:5x5", teams=2, max_turns=50)
    while not game.is_over:
        movers = game.to_move()
        assert set(movers) == {int(t) for t in set(game.native.team.tolist())}
        game.step([0] * len(movers))


def test_bad_config_is_named():
    with pytest.raises(InvalidParameter, match="teams must be at most 8"):
        Conquest(teams=9)
    with pytest.raises(InvalidParameter, match="board spec"):
        Conquest(board="hexagon:5")
    with pytest.raises(InvalidParameter, match="unknown policy 'sneaky'"):
        Conquest().suggest(0, "sneaky")
