"""Every registered game as an OpenSpiel game, written once against :mod:`stratagem.protocol`,
so that OpenSpiel's algorithms (MCTS, CFR on small games, its tests) play on the engines.

:func:`register` registers ``stratagem_<name>`` for every game of the registry (done on
import); :func:`load_game` loads one with a seed and the game's configuration. The OpenSpiel
parameters are ``seed`` (an OpenSpiel int: at most ``2**31 - 1``) and ``config`` (the game's
configuration as a JSON object, in URL-safe base64 without padding: OpenSpiel writes a game's
parameters as ``name(key=value,...)``, where a JSON object's commas and quotes cannot stand),
so any configuration of any game passes through.

Each game declares itself as it is:

- dynamics: ``SEQUENTIAL`` for alternating and single-agent games, ``SIMULTANEOUS`` for
  simultaneous and one-shot ones (a seat that does not move at a simultaneous node has the
  single action 0, which is ignored);
- chance: ``DETERMINISTIC`` for every game. The games that draw random numbers (conquest's
  battles, outpost's random player, Mastermind's secret) draw them from streams named by the
  ``seed`` parameter, so a game's whole course is a function of its parameters and the
  actions: each OpenSpiel game (one seed) is deterministic, and its states hold no random
  generator to save (OpenSpiel's ``SAMPLED_STOCHASTIC`` mode asks for one);
- information: ``PERFECT_INFORMATION``, but ``IMPERFECT_INFORMATION`` for Mastermind, whose
  secret no observation shows;
- utility: ``ZERO_SUM`` where the game's spec says so for its seat count
  (``GameSpec.zero_sum_seats``), else ``GENERAL_SUM``;
- rewards: ``TERMINAL`` (what OpenSpiel's MCTS asks for): a state's returns are the protocol's
  returns once the game is over and 0 before; a game whose rewards come during play
  (Mastermind's -1 per guess) delivers their sum at the end;
- the observation tensor is the protocol's observation (float32, flattened); the observation
  string the game's ``render()``;
- an action applied to a finished game, or ``apply_actions`` given a list that is not one
  action per player, raises :class:`InvalidAction`: both OpenSpiel's own error
  (``pyspiel.SpielError``) and stratagem's :class:`~stratagem.errors.InvalidMove`.

States clone by copying the engine's state and serialise as the game's seed, configuration
and actions (replayed on load).

>>> from stratagem.envs.openspiel import load_game
>>> game = load_game("diplomacy", seed=3)
>>> game.get_type().dynamics.name, game.num_players()
('SIMULTANEOUS', 7)
>>> state = game.new_initial_state()
>>> state.apply_actions([int(state.legal_actions(p)[0]) for p in range(7)])
>>> state.is_terminal(), len(state.returns())
(True, 7)
"""

from __future__ import annotations

import base64
import json
from typing import Any

import numpy as np

from stratagem import games
from stratagem.errors import InvalidMove, InvalidParameter, MissingDependency
from stratagem.protocol import Game, PlaysMoves

try:
    import pyspiel
except ImportError:
    raise MissingDependency.of("open_spiel", "openspiel") from None

__all__ = ["InvalidAction", "load_game", "register", "short_name"]

_INT_MAX = (1 << 31) - 1
_DEFAULT_PARAMETERS: dict[str, Any] = {"seed": 0, "config": ""}
_SIMULTANEOUS = ("simultaneous", "one-shot")


class InvalidAction(InvalidMove, pyspiel.SpielError):  # type: ignore[misc]
    """An action OpenSpiel's state cannot take (the game is over, or a simultaneous node's
    list is not one action per player): ``except pyspiel.SpielError`` (what OpenSpiel's own
    games raise) and ``except InvalidMove`` both catch it."""


def short_name(name: str) -> str:
    """The OpenSpiel name of game ``name``: ``stratagem_annexation``."""
    return f"stratagem_{name}"


def _game_type(spec: games.GameSpec, probe: Game) -> Any:
    kind = pyspiel.GameType
    simultaneous = spec.dynamics in _SIMULTANEOUS
    hidden = spec.name == "mastermind"
    return kind(
        short_name=short_name(spec.name),
        long_name=f"stratagem {spec.name}",
        dynamics=kind.Dynamics.SIMULTANEOUS if simultaneous else kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.DETERMINISTIC,
        information=(
            kind.Information.IMPERFECT_INFORMATION
            if hidden
            else kind.Information.PERFECT_INFORMATION
        ),
        utility=(
            kind.Utility.ZERO_SUM
            if probe.seats in spec.zero_sum_seats
            else kind.Utility.GENERAL_SUM
        ),
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=spec.seats[1],
        min_num_players=spec.seats[0],
        provides_information_state_string=not hidden and not simultaneous,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_DEFAULT_PARAMETERS),
    )


class _Engine:
    """The protocol game of a state. OpenSpiel clones a Python state by deep-copying its
    attributes and serialises it by pickling them: this holder makes the copy a ``clone()``
    and the pickle the game's name, seed, configuration and actions (replayed on load)."""

    __slots__ = ("game",)

    def __init__(self, game: Game) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.game.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        game = self.game
        steps = [sorted(step.items()) for step in getattr(game, "actions_played", ())]
        return (_replay, (game.spec.name, game.seed, dict(game.config), steps))


def _replay(name: str, seed: int, config: dict[str, Any], steps: list[Any]) -> _Engine:
    game = games.make(name, seed=seed, **config)
    for step in steps:
        game.step(dict(step))
    return _Engine(game)


class StratagemGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game of a registered game (one subclass per name, see :func:`register`)."""

    game_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**_DEFAULT_PARAMETERS, **(params or {})}
        spec = games.spec(self.game_name)
        config = _decode(values["config"])
        self.template = spec.make(seed=values["seed"], **config)
        template = self.template
        if isinstance(template, PlaysMoves) and template.move_nvec is not None:
            raise InvalidParameter(
                f"actions='moves' makes a {spec.name} action a vector; OpenSpiel's actions are "
                "integers: load it with actions='players' (PettingZoo and Gymnasium take moves)"
            )
        low, high = template.return_bounds
        zero_sum = template.seats in spec.zero_sum_seats
        info = pyspiel.GameInfo(
            num_distinct_actions=template.num_actions,
            max_chance_outcomes=0,
            num_players=template.seats,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=template.max_steps,
        )
        super().__init__(_game_type(spec, template), info, values)

    def new_initial_state(self) -> StratagemState:
        return StratagemState(self, _Engine(self.template.clone()))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Any:
        perfect = self.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
        sequential = self.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        if (
            iig_obs_type is None
            or not perfect
            or not sequential
            or (iig_obs_type.public_info and not iig_obs_type.perfect_recall)
        ):
            return StratagemObserver(self.template, params)
        from open_spiel.python.observation import IIGObserverForPublicInfoGame

        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class StratagemState(pyspiel.State):  # type: ignore[misc]
    """A position: ``game`` is the protocol game underneath (OpenSpiel keeps its own history,
    so play through the state, not on it)."""

    def __init__(self, game: StratagemGame, engine: _Engine) -> None:
        super().__init__(game)
        self._engine = engine
        self._simultaneous = game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS

    @property
    def game(self) -> Game:
        return self._engine.game

    def current_player(self) -> int:
        game = self._engine.game
        if game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self._simultaneous:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return game.to_move()[0]

    def _legal_actions(self, player: int) -> list[int]:
        game = self._engine.game
        if game.is_over:
            return []
        if player in game.to_move():
            return [int(a) for a in game.legal_actions(player)]
        return [0] if self._simultaneous else []

    def _playing(self) -> Game:
        game = self._engine.game
        if game.is_over:
            raise InvalidAction(
                f"the {game.spec.name} game is over ({game.outcome}): no action applies"
            )
        return game

    def _apply_action(self, action: int) -> None:
        game = self._playing()
        game.step({game.to_move()[0]: int(action)})

    def _apply_actions(self, actions: list[int]) -> None:
        game = self._playing()
        if len(actions) != game.seats:
            raise InvalidAction(
                f"apply_actions takes one action per player ({game.seats}), got {len(actions)}"
            )
        game.step({seat: int(actions[seat]) for seat in game.to_move()})

    def _action_to_string(self, player: int, action: int) -> str:
        return f"seat {player}: action {action}"

    def is_terminal(self) -> bool:
        return self._engine.game.is_over

    def rewards(self) -> list[float]:
        return self.returns()

    def returns(self) -> list[float]:
        game = self._engine.game
        return [float(r) for r in game.returns()] if game.is_over else [0.0] * game.seats

    def __str__(self) -> str:
        return self._engine.game.render()


class StratagemObserver:
    """OpenSpiel's PyObserver: ``tensor`` is the protocol observation of the player (float32,
    flat), ``dict["observation"]`` the same memory in its shape; the string is ``render()``."""

    def __init__(self, template: Game, params: dict[str, Any] | None = None) -> None:
        if params:
            raise InvalidParameter(f"the stratagem observer takes no parameters, got {params}")
        shape = template.observation_shape
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: StratagemState, player: int) -> None:
        self.dict["observation"][...] = state.game.observation(player)

    def string_from(self, state: StratagemState, player: int) -> str:
        return f"seat {player} observing\n{state.game.render()}"


def register() -> None:
    """Registers ``stratagem_<name>`` for every game of the registry (done on import; calling
    it again registers games added since)."""
    known = set(pyspiel.registered_names())
    for spec in games.available():
        name = short_name(spec.name)
        if name in known:
            continue
        cls = type(
            f"Stratagem{spec.name.capitalize()}Game", (StratagemGame,), {"game_name": spec.name}
        )
        probe = spec.make(seed=0, **spec.quick)
        pyspiel.register_game(_game_type(spec, probe), cls)


def load_game(name: str, *, seed: int = 0, **config: Any) -> Any:
    """The OpenSpiel game of ``name`` with ``seed`` and the game's configuration keys."""
    spec = games.spec(name)
    unknown = sorted(set(config) - set(spec.defaults))
    if unknown:
        raise InvalidParameter(
            f"unknown {name} config key(s) {', '.join(unknown)}; accepted: "
            f"{', '.join(spec.defaults)}"
        )
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _INT_MAX:
        raise InvalidParameter(f"seed must be in 0..{_INT_MAX} (an OpenSpiel int), got {seed!r}")
    register()
    return pyspiel.load_game(short_name(name), {"seed": seed, "config": _encode(config)})


def _encode(config: dict[str, Any]) -> str:
    text = base64.urlsafe_b64encode(json.dumps(config, sort_keys=True).encode()).decode()
    return text.rstrip("=")


def _decode(text: object) -> dict[str, Any]:
    if not isinstance(text, str):
        raise InvalidParameter(f"config must be a string, got {text!r}")
    if not text:
        return {}
    try:
        padded = text + "=" * (-len(text) % 4)
        config = json.loads(base64.urlsafe_b64decode(padded.encode()))
    except (ValueError, UnicodeDecodeError):
        config = None
    if not isinstance(config, dict):
        raise InvalidParameter(
            f"config {text!r} is not a JSON object in URL-safe base64 (load_game writes it)"
        )
    return config


register()
