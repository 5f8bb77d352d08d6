"""Every registered game as a PettingZoo environment: :func:`env` (AEC) and
:func:`parallel_env` (Parallel), written once against :mod:`stratagem.protocol`.

Agents are ``seat_0``, ``seat_1``, ...; an observation is ``{"observation": the game's
observation, "action_mask": int8 mask of the legal actions}``; an action is an integer of
``Discrete(num_actions)``. A game made with ``actions="moves"`` (conquest, outpost) acts by
its own moves: an action is a vector of ``MultiDiscrete(move_nvec)`` and ``action_mask`` a
tuple of one int8 mask per component (``docs/envs.md``). Rewards are the protocol's rewards of
each step.

- **AEC.** In an alternating game the seat to move is the agent selected. In a simultaneous
  game (and a one-shot one) the seats to move are selected in turn and their actions are held
  until every one of them has chosen; then the game takes them as one step, so no seat sees
  another's choice of the same turn.
- **Parallel.** ``step(actions)`` takes the actions of the seats to move; the actions of the
  other agents (in an alternating game, everyone but the mover, whose masks are all zero) are
  ignored.
- **The end.** A game won or drawn terminates every agent; a game stopped at a limit with no
  result (outcome ``"unfinished"``) truncates them.
- **Illegal actions.** With ``illegal_action="lose"`` (the default, as PettingZoo's
  ``TerminateIllegalWrapper`` and Pgx do) an illegal action ends the game at once: -1 to the
  seat that played it, 0 to the others, ``info["illegal_action"]`` set. With ``"raise"`` it
  raises :class:`~stratagem.errors.InvalidMove` and changes nothing.
- **Past the end.** A step once every agent is done (``agents`` is empty) raises
  :class:`~stratagem.errors.InvalidMove` ("call reset()"), in both APIs; PettingZoo has no
  error of its own for it.

Episodes: ``reset(seed=s)`` plays the game of seed ``s``; a reset without a seed the next
episode of the last seed (``docs/envs.md``).

>>> from stratagem.envs.pettingzoo import env
>>> aec = env("conquest", board="grid:4x4", max_turns=30)
>>> aec.reset(seed=3)
>>> aec.agents, aec.agent_selection
(['seat_0', 'seat_1'], 'seat_0')
>>> sorted(aec.observe("seat_0")), aec.action_space("seat_0")
(['action_mask', 'observation'], Discrete(5))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from stratagem.envs._shared import (
    ILLEGAL_PENALTY,
    Bridge,
    action_space,
    agent_name,
    as_action,
    is_legal,
    mask,
    mask_space,
    observation_box,
)
from stratagem.errors import InvalidMove, InvalidParameter, MissingDependency
from stratagem.protocol import Game

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
except ImportError:
    raise MissingDependency.of("pettingzoo", "envs") from None

__all__ = ["StratagemAEC", "StratagemParallel", "env", "parallel_env"]


class _Spaces:
    """The agents and spaces of a game's configuration (the same objects every call, as
    PettingZoo asks)."""

    def __init__(self, game: Game) -> None:
        self.possible_agents = [agent_name(seat) for seat in range(game.seats)]
        observation = observation_box(game)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": observation, "action_mask": mask_space(game)})
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: action_space(game) for agent in self.possible_agents}

    def seat(self, agent: str) -> int:
        if agent not in self.possible_agents:
            raise InvalidParameter(
                f"unknown agent {agent!r}; the agents are {self.possible_agents}"
            )
        return self.possible_agents.index(agent)

    def observe(self, game: Game, agent: str) -> dict[str, Any]:
        seat = self.seat(agent)
        return {"observation": game.observation(seat), "action_mask": mask(game, seat)}


class _Bridge(Bridge):
    """What the AEC and the Parallel environments share: the constructor and the spaces."""

    def __init__(
        self,
        name: str,
        *,
        seed: int = 0,
        render_mode: str | None = None,
        illegal_action: str = "lose",
        **config: Any,
    ) -> None:
        super().__init__()  # the PettingZoo base class's own set-up
        self._set_up(name, seed, render_mode, illegal_action, config)
        self._spaces = _Spaces(self.game)
        self.metadata = {
            "render_modes": ["ansi"],
            "name": f"stratagem_{name}_v0",
            "is_parallelizable": True,
        }
        self.possible_agents = list(self._spaces.possible_agents)
        self._start()

    def _start(self) -> None:
        """The environment's own state before its first ``reset``."""

    def observation_space(self, agent: str) -> Any:
        return self._spaces.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self._spaces.action_spaces[agent]

    def close(self) -> None:
        """Nothing to release: the game lives in this process."""


class StratagemAEC(_Bridge, AECEnv):  # type: ignore[misc]
    """A registered game as a PettingZoo AEC environment (see the module's docstring)."""

    def _start(self) -> None:
        self.reset()

    def observe(self, agent: str) -> dict[str, Any]:
        return self._spaces.observe(self.game, agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._new_episode(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._held: dict[int, Any] = {}
        self.agent_selection = self._next_agent()

    def _next_agent(self) -> str:
        waiting = [seat for seat in self.game.to_move() if seat not in self._held]
        return agent_name(waiting[0]) if waiting else self.agents[0]

    def _end(self, truncated: bool) -> None:
        for agent in self.agents:
            self.terminations[agent] = not truncated
            self.truncations[agent] = truncated

    def step(self, action: Any) -> None:
        if not self.agents:
            raise InvalidMove("every agent is done: the game is over, call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._spaces.seat(agent)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if not is_legal(self.game, seat, action):
            if self._illegal == "raise":
                raise InvalidMove(f"{agent}: action {action!r} is not legal now")
            self.rewards[agent] = ILLEGAL_PENALTY
            self.infos[agent] = {"illegal_action": True}
            self._end(truncated=False)
            self.agent_selection = self.agents[0]
            self._accumulate_rewards()
            return
        self._held[seat] = as_action(self.game, action)
        if all(mover in self._held for mover in self.game.to_move()):
            self.game.step(self._held)
            self._held = {}
            for other, reward in enumerate(self.game.rewards().tolist()):
                self.rewards[agent_name(other)] = reward
            if self.game.is_over:
                self._end(truncated=self.game.outcome == "unfinished")
        self.agent_selection = self._next_agent()
        self._accumulate_rewards()


class StratagemParallel(_Bridge, ParallelEnv):  # type: ignore[misc]
    """A registered game as a PettingZoo Parallel environment (see the module's docstring)."""

    def _start(self) -> None:
        self.agents: list[str] = []

    def _observations(self) -> dict[str, dict[str, Any]]:
        return {agent: self._spaces.observe(self.game, agent) for agent in self.agents}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self._new_episode(seed)
        self.agents = list(self.possible_agents)
        return self._observations(), {agent: {} for agent in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        if not self.agents:
            raise InvalidMove("the game is over: call reset()")
        agents = list(self.agents)
        rewards = dict.fromkeys(agents, 0.0)
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in agents}
        chosen: dict[int, Any] = {}
        offender = None
        for seat in self.game.to_move():
            agent = agent_name(seat)
            if agent not in actions:
                raise InvalidMove(
                    f"{agent} has no action; the agents to move are "
                    f"{[agent_name(s) for s in self.game.to_move()]}"
                )
            if not is_legal(self.game, seat, actions[agent]):
                if self._illegal == "raise":
                    raise InvalidMove(f"{agent}: action {actions[agent]!r} is not legal now")
                offender = agent
                break
            chosen[seat] = as_action(self.game, actions[agent])
        if offender is not None:
            rewards[offender] = ILLEGAL_PENALTY
            infos[offender] = {"illegal_action": True}
            over, truncated = True, False
        else:
            self.game.step(chosen)
            rewards.update({agent_name(s): r for s, r in enumerate(self.game.rewards().tolist())})
            over, truncated = self.game.is_over, self.game.outcome == "unfinished"
        observations = self._observations()
        terminations = dict.fromkeys(agents, over and not truncated)
        truncations = dict.fromkeys(agents, over and truncated)
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def state(self) -> Any:
        return np.stack([self.game.observation(s) for s in range(self.game.seats)])


def env(name: str, **kwargs: Any) -> StratagemAEC:
    """The AEC environment of game ``name`` (keywords: ``seed``, ``render_mode``,
    ``illegal_action`` and the game's configuration)."""
    return StratagemAEC(name, **kwargs)


def parallel_env(name: str, **kwargs: Any) -> StratagemParallel:
    """The Parallel environment of game ``name`` (the same keywords as :func:`env`)."""
    return StratagemParallel(name, **kwargs)
