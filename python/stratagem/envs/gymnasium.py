"""Every registered game as a Gymnasium environment, written once against
:mod:`stratagem.protocol`. Importing this module registers ``stratagem/<Name>-v0`` for every
game of :func:`stratagem.games.available` (``stratagem/Annexation-v0``,
``stratagem/Conquest-v0``, ...).

The agent plays seat ``seat`` (default 0; any seat can learn). A single-agent game
(Mastermind) is the game itself; in a game of several seats the other seats are played by
``opponent``: ``"random"`` (a uniformly random legal action, drawn from the episode's seed), a
name of the game's ``GameSpec.opponents`` (its ``suggest``: annexation's ``greedy``, a
conquest policy, an outpost player, a Diplomacy search), or a callable
``(observation, mask) -> action`` called for each other seat with that seat's observation and
int8 mask (self-play against an earlier copy of the agent;
``stratagem.envs.sb3.policy_opponent`` makes one of a saved SB3 policy). In an alternating
game the opponents move after the agent until it is the agent's turn again; in a simultaneous
game they choose in the same step as the agent, without seeing its action.

- ``observation``: the game's observation of the agent's seat (its fixed shape and dtype; a
  ``Box`` over the dtype's whole range); ``action``: ``Discrete(num_actions)``;
- ``info["action_mask"]``: int8 mask of the agent's legal actions, at reset and every step;
  ``env.action_masks()`` gives it as bool (sb3-contrib's ``MaskablePPO`` convention);
- ``reward``: the agent's protocol reward summed over the steps the env played;
- ``terminated`` when the game is won or drawn, ``truncated`` when it stopped at a limit with
  no result (outcome ``"unfinished"``);
- an illegal action (``illegal_action="lose"``, the default, as in Pgx) ends the episode at
  once with reward -1 and ``info["illegal_action"]``; ``"raise"`` raises
  :class:`~stratagem.errors.InvalidMove` instead.

``gymnasium.make`` builds a game's native env (``NATIVE_ENTRY_POINTS``: annexation's, played in
Rust, the same task step for step) whenever that env can play the configuration, else
:class:`StratagemEnv`.

>>> import gymnasium
>>> import stratagem.envs.gymnasium
>>> env = gymnasium.make("stratagem/Mastermind-v0", secret="0123")
>>> observation, info = env.reset(seed=1)
>>> observation.shape, info["action_mask"].tolist()
((13, 6), [1, 1, 1, 1, 1, 1])
>>> for peg in (0, 1, 2, 3):
...     observation, reward, terminated, truncated, info = env.step(peg)
>>> reward, terminated, truncated
(-1.0, True, False)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, SupportsFloat

import numpy as np
from numpy.typing import NDArray

from stratagem import games, rng
from stratagem.envs._shared import (
    ILLEGAL_PENALTY,
    Bridge,
    action_space,
    as_action,
    is_legal,
    mask,
    observation_box,
)
from stratagem.errors import InvalidMove, InvalidParameter, MissingDependency
from stratagem.protocol import Game, Suggests

try:
    import gymnasium
    from gymnasium.envs.registration import load_env_creator
except ImportError:
    raise MissingDependency.of("gymnasium", "envs") from None

__all__ = [
    "StratagemEnv",
    "env_id",
    "make_env",
    "random_opponent_action",
    "register",
]

_OPPONENT_PURPOSE = "envs.opponent"
#: An opponent: a built-in one by name, or a callable ``(observation, mask) -> action`` that
#: plays every other seat (its observation and int8 mask of legal actions).
#: A callable opponent gets the seat's observation and its mask (a tuple of per-component
#: masks when the game acts by moves) and returns an action of the env's action space.
Opponent = str | Callable[[NDArray[Any], Any], Any] | None
#: Games with a native batched env for ``gymnasium.make_vec(..., "vector_entry_point")``.
VECTOR_ENTRY_POINTS = {"annexation": "stratagem.annexation.vector:AnnexationVectorEnv"}
#: Games with a native single env, and the test of the configurations it plays.
NATIVE_ENTRY_POINTS = {
    "annexation": (
        "stratagem.annexation.vector:AnnexationEnv",
        "stratagem.annexation.vector:plays_natively",
    )
}


def env_id(name: str) -> str:
    """The Gymnasium id of game ``name``: ``stratagem/Annexation-v0``."""
    return f"stratagem/{name.capitalize()}-v0"


def random_opponent_action(game: Game, seat: int, seed: int) -> int:
    """The random opponent's action: legal action number ``uniform_below(legal count)`` of
    stream ``(seed, "envs.opponent", turn, seat)`` (the game's seed for the episode)."""
    legal = game.legal_actions(seat)
    index = rng.draws(seed, _OPPONENT_PURPOSE, [game.turn, seat], "uniform_below", [legal.size])
    return int(legal[int(index[0])])


class StratagemEnv(Bridge, gymnasium.Env[NDArray[Any], np.int64]):
    """Seat ``seat`` (default 0) of a registered game against built-in opponents (see the
    module's docstring)."""

    def __init__(
        self,
        name: str,
        *,
        opponent: Opponent = None,
        seed: int = 0,
        seat: int = 0,
        render_mode: str | None = None,
        illegal_action: str = "lose",
        **config: Any,
    ) -> None:
        self.spec_ = games.spec(name)
        self._set_up(name, seed, render_mode, illegal_action, config)
        self.metadata = {"render_modes": ["ansi"]}
        seats = self.game.seats
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
            raise InvalidParameter(f"seat must be from 0 to {seats - 1}, got {seat!r}")
        self.seat = seat
        self.opponent = self._check_opponent(opponent)
        self.observation_space = observation_box(self.game)
        self.action_space = action_space(self.game)
        self._game_seed = self._episodes.seed
        self._ended = False

    def _check_opponent(self, opponent: Opponent) -> Opponent:
        if self.game.seats == 1:
            if opponent is not None:
                raise InvalidParameter(f"{self.spec_.name} has one seat: it takes no opponent")
            return None
        if callable(opponent):
            return opponent
        chosen = "random" if opponent is None else opponent
        if chosen not in self.spec_.opponents or (
            chosen != "random" and not isinstance(self.game, Suggests)
        ):
            raise InvalidParameter(
                f"unknown {self.spec_.name} opponent {chosen!r}; choose one of "
                f"{', '.join(self.spec_.opponents)}"
            )
        return chosen

    def _opponent_action(self, seat: int) -> Any:
        if callable(self.opponent):
            game = self.game
            action = self.opponent(game.observation(seat), mask(game, seat))
            if not is_legal(game, seat, action):
                raise InvalidMove(f"the opponent's action {action!r} for seat {seat} is not legal")
            return as_action(game, action)
        if self.opponent == "random":
            return random_opponent_action(self.game, seat, self._game_seed)
        assert isinstance(self.game, Suggests)
        return int(self.game.suggest(seat, str(self.opponent)))

    def _info(self) -> dict[str, Any]:
        return {"action_mask": mask(self.game, self.seat)}

    def action_masks(self) -> NDArray[np.bool_]:
        """The agent's legal actions now (sb3-contrib's ``MaskablePPO`` reads this): one flat
        mask, the components' masks side by side when the game acts by moves."""
        legal = mask(self.game, self.seat)
        flat = np.concatenate(legal) if isinstance(legal, tuple) else legal
        return flat.astype(np.bool_)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[Any], dict[str, Any]]:
        super().reset(seed=seed)
        self._game_seed = self._new_episode(seed)
        self._ended = False
        reward = self._play_opponents()
        del reward  # the opponents of a new game move before the agent has acted
        return self.game.observation(self.seat), self._info()

    def _play_opponents(self) -> float:
        """Opponents' steps until the agent acts or the game is over; its reward of them."""
        total = 0.0
        while not self.game.is_over and self.seat not in self.game.to_move():
            self.game.step({s: self._opponent_action(s) for s in self.game.to_move()})
            total += float(self.game.rewards()[self.seat])
        return total

    def step(
        self, action: np.int64 | int
    ) -> tuple[NDArray[Any], SupportsFloat, bool, bool, dict[str, Any]]:
        game, seat = self.game, self.seat
        if game.is_over or self._ended:
            raise InvalidMove("the episode is over: call reset()")
        if not is_legal(game, seat, action):
            if self._illegal == "raise":
                raise InvalidMove(f"seat {seat}: action {action!r} is not legal now")
            info = {**self._info(), "illegal_action": True}
            self._ended = True
            return game.observation(seat), ILLEGAL_PENALTY, True, False, info
        actions: dict[int, Any] = {s: self._opponent_action(s) for s in game.to_move() if s != seat}
        actions[seat] = as_action(game, action)
        game.step(actions)
        reward = float(game.rewards()[seat]) + self._play_opponents()
        # Read again through self: the check above made a type checker think `game` never ends.
        over = self.game.is_over
        truncated = over and self.game.outcome == "unfinished"
        return game.observation(seat), reward, over and not truncated, truncated, self._info()


def make_env(name: str, **config: Any) -> gymnasium.Env[Any, Any]:
    """The single env of game ``name``: its native env when it has one that plays ``config``,
    else :class:`StratagemEnv` (what ``gymnasium.make`` calls)."""
    native = NATIVE_ENTRY_POINTS.get(name)
    if native is not None and load_env_creator(native[1])(**config):
        # The native envs play the raw observation only (their test says so), so the key
        # that names it is not theirs to take.
        native_config = {key: value for key, value in config.items() if key != "observation"}
        env = load_env_creator(native[0])(name=name, **native_config)
        assert isinstance(env, gymnasium.Env)
        return env
    return StratagemEnv(name, **config)


def register() -> None:
    """Registers ``stratagem/<Name>-v0`` for every game of the registry (done on import;
    calling it again registers games added since)."""
    for spec in games.available():
        identifier = env_id(spec.name)
        if identifier in gymnasium.registry:
            continue
        gymnasium.register(
            identifier,
            entry_point=make_env,  # type: ignore[arg-type]
            vector_entry_point=VECTOR_ENTRY_POINTS.get(spec.name),
            kwargs={"name": spec.name},
        )


register()
