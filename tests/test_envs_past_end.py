"""The bridges past the end of a game: a step after every agent is done, or an action applied
to a finished OpenSpiel state, raises a clear error (PettingZoo: InvalidMove; OpenSpiel: its
own SpielError, which is an InvalidMove too) and changes nothing."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from stratagem import games
from stratagem.errors import InvalidMove

NAMES = [spec.name for spec in games.available()]


def quick(name: str) -> dict[str, Any]:
    return dict(games.spec(name).quick)


@pytest.mark.parametrize("name", NAMES)
def test_pettingzoo_aec_step_after_every_agent_is_done(name: str) -> None:
    pytest.importorskip("pettingzoo")
    from stratagem.envs.pettingzoo import env

    aec = env(name, **quick(name))
    aec.reset(seed=2)
    for _agent in aec.agent_iter():
        observation, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            aec.step(None)
            continue
        aec.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert aec.agents == []
    turn = aec.game.turn
    with pytest.raises(InvalidMove, match="every agent is done: the game is over, call reset"):
        aec.step(0)
    with pytest.raises(InvalidMove, match="call reset"):
        aec.step(None)
    assert aec.game.turn == turn
    assert aec.agents == []
    aec.reset(seed=2)
    assert aec.agents == aec.possible_agents


@pytest.mark.parametrize("name", NAMES)
def test_pettingzoo_parallel_step_after_the_end(name: str) -> None:
    pytest.importorskip("pettingzoo")
    from stratagem.envs.pettingzoo import parallel_env

    par = parallel_env(name, **quick(name))
    observations, _ = par.reset(seed=2)
    while par.agents:
        actions = {
            agent: int(np.flatnonzero(observations[agent]["action_mask"])[0])
            if observations[agent]["action_mask"].any()
            else 0
            for agent in par.agents
        }
        observations, *_ = par.step(actions)
    turn = par.game.turn
    with pytest.raises(InvalidMove, match="the game is over: call reset"):
        par.step(dict.fromkeys(par.possible_agents, 0))
    assert par.game.turn == turn


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_action_on_a_finished_game(name: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from stratagem.envs.openspiel import InvalidAction, load_game

    game = load_game(name, seed=2, **quick(name))
    state = game.new_initial_state()
    simultaneous = game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    while not state.is_terminal():
        if simultaneous:
            state.apply_actions([state.legal_actions(p)[0] for p in range(game.num_players())])
        else:
            state.apply_action(state.legal_actions()[0])
    history = state.history()
    for apply in (
        lambda: state.apply_action(0),
        lambda: state.apply_actions([0] * game.num_players()),
    ):
        with pytest.raises(InvalidAction, match=f"the {name} game is over") as caught:
            apply()
        assert isinstance(caught.value, pyspiel.SpielError)
        assert isinstance(caught.value, InvalidMove)
    assert state.history() == history
    assert state.is_terminal()


def test_openspiel_apply_actions_needs_one_action_per_player() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from stratagem.envs.openspiel import load_game

    state = load_game("conquest", seed=1, board="grid:4x4", max_turns=5).new_initial_state()
    with pytest.raises(pyspiel.SpielError):
        state.apply_actions([0])
    assert state.history() == []
    assert state.game.turn == 0
