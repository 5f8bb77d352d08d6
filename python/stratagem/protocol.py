"""The one face every stratagem game shows: :class:`Game`, a ``typing.Protocol``.

A user who can drive one game can drive all five (``docs/games.md``)::

    >>> import numpy as np
    >>> from stratagem import games
    >>> game = games.make("annexation", seed=3, board="hex:4")
    >>> game.seats, game.to_move(), game.num_actions
    (2, (0,), 8)
    >>> while not game.is_over:
    ...     game.step([int(game.legal_actions(seat)[0]) for seat in game.to_move()])
    >>> game.outcome in ("won", "drawn"), float(game.returns().sum())
    (True, 0.0)

Actions are integers ``0..num_actions-1``, as in OpenSpiel; ``step`` takes one action for every
seat in :meth:`Game.to_move` (a mapping seat -> action, or a sequence in ``to_move()`` order).
An illegal, missing or extra action raises :class:`~stratagem.errors.InvalidMove` naming the
seat and the action, and changes nothing.

:class:`TurnGame` is the shared implementation the five games build on: it checks actions,
keeps the action log, the rewards and the returns, and saves a game as its configuration and
action log in one JSON format (``stratagem.game``, version 1), which :func:`load` replays.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar, Literal, Self

import numpy as np
from numpy.typing import NDArray

from stratagem import games
from stratagem._files import read_json, write_json
from stratagem.errors import InvalidBoard, InvalidMove, InvalidParameter

# The face every game shows lives with the registry that hands games out; named here too.
from stratagem.games import Actions, Game, GameSpec, Outcome, PlaysMoves, Suggests

__all__ = [
    "ACTION_MODES",
    "OBSERVATIONS",
    "OUTCOMES",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "ActionMode",
    "Actions",
    "Game",
    "Move",
    "ObservationMode",
    "Outcome",
    "PlaysMoves",
    "RawOrPlanes",
    "Suggests",
    "TurnGame",
    "check_action_mode",
    "check_observation",
    "flat",
    "load",
    "one_hot",
    "plane_bounds",
    "row_bounds",
]

#: The three words every game, the command line and JSON use for how a game stands.
OUTCOMES: tuple[Outcome, ...] = ("won", "drawn", "unfinished")
#: A seat's move in ``actions="moves"``: one choice per component (``PlaysMoves``).
Move = tuple[int, ...]
ActionMode = Literal["players", "moves"]
#: What a seat's action is in the games whose turn is many decisions (conquest, outpost): the
#: choice of a built-in player for the turn, or the game's own moves (``PlaysMoves``).
ACTION_MODES: tuple[ActionMode, ...] = ("players", "moves")
ObservationMode = Literal["raw", "planes"]
#: The observation modes every game offers (its ``observation`` configuration key): ``"raw"``
#: the game's compact integer arrays; ``"planes"`` one-hot/feature planes in [0, 1] as one
#: float32 vector, the planes (the game's ``planes_shape``) flattened in C order: float32
#: because learners feed floats (SB3 would divide a uint8 image by 255), flat because an MLP
#: policy takes a vector (SB3 warns on any other float shape); ``reshape(planes_shape)`` gives
#: the planes back for a convolution.
OBSERVATIONS: tuple[ObservationMode, ...] = ("raw", "planes")

SAVE_FORMAT = "stratagem.game"
SAVE_VERSION = 1


class TurnGame(ABC):
    """The shared half of every game's protocol class.

    A subclass sets ``name``, accepts ``seed`` and its configuration keys as keywords (calling
    ``super().__init__(seed, config)``, with every key filled in, once its engine state is set
    up: the base asks for ``seats``), and writes the rules-facing
    part: ``seats``, ``is_over``, ``outcome``, ``winners``, ``num_actions``,
    ``observation_shape``/``observation_dtype``, ``to_move``, ``legal_actions``, ``_apply``
    (one checked step, returning each seat's reward), ``observation``, ``_copy_state``
    (``clone``'s deep copy of the engine state) and ``render``.
    """

    name: ClassVar[str]

    def __init__(self, seed: int, config: Mapping[str, Any]) -> None:
        from stratagem import _validate

        self._seed = _validate.seed(seed)
        self._config = dict(config)
        self._log: list[dict[int, Any]] = []
        self._last_rewards = np.zeros(self.seats, dtype=np.float64)
        self._returns = np.zeros(self.seats, dtype=np.float64)

    # -- what every game shares ------------------------------------------------------------

    @property
    def spec(self) -> GameSpec:
        return games.spec(self.name)

    @property
    def config(self) -> Mapping[str, Any]:
        return dict(self._config)

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def turn(self) -> int:
        return len(self._log)

    @property
    def actions_played(self) -> tuple[dict[int, Any], ...]:
        """Every step's actions (seat -> action), in order."""
        return tuple(dict(step) for step in self._log)

    @property
    def observation_bounds(self) -> tuple[NDArray[Any], NDArray[Any]]:
        """The dtype's whole range; the built-in games declare the values they produce."""
        dtype = self.observation_dtype
        low: float
        high: float
        if np.issubdtype(dtype, np.integer):
            low, high = np.iinfo(dtype).min, np.iinfo(dtype).max
        elif dtype == np.bool_:
            low, high = 0, 1
        else:
            low, high = -np.inf, np.inf
        shape = self.observation_shape
        return np.full(shape, low, dtype=dtype), np.full(shape, high, dtype=dtype)

    def action_mask(self, seat: int) -> NDArray[np.bool_]:
        mask = np.zeros(self.num_actions, dtype=np.bool_)
        mask[self.legal_actions(seat)] = True
        return mask

    def rewards(self) -> NDArray[np.float64]:
        return self._last_rewards.copy()

    @property
    def return_bounds(self) -> tuple[float, float]:
        """-1 and +1: the win/loss rewards (:func:`terminal_rewards`); games whose rewards are
        others say so."""
        return (-1.0, 1.0)

    def returns(self) -> NDArray[np.float64]:
        return self._returns.copy()

    def step(self, actions: Actions) -> None:
        """Applies one action for every seat in :meth:`to_move`; checks them all first."""
        chosen = self._checked_actions(actions)
        rewards = np.asarray(self._apply(chosen), dtype=np.float64)
        self._log.append(chosen)
        self._last_rewards = rewards
        self._returns = self._returns + rewards

    def clone(self) -> Self:
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._config = dict(self._config)
        twin._log = [dict(step) for step in self._log]
        twin._last_rewards = self._last_rewards.copy()
        twin._returns = self._returns.copy()
        self._copy_state(twin)
        return twin

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the game as its name, seed, configuration and action log (JSON, format
        ``stratagem.game`` version 1); :func:`load` replays it."""
        data = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.name,
            "seed": self._seed,
            "config": self._config,
            "actions": [
                [
                    [seat, list(action) if isinstance(action, tuple) else action]
                    for seat, action in step.items()
                ]
                for step in self._log
            ],
        }
        write_json(Path(path), data)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Self:
        """The game saved at ``path`` by :meth:`save` (it must be a game of this class)."""
        game = load(path)
        if not isinstance(game, cls):
            raise InvalidBoard(f"{path}: a saved {game.name} game, not {cls.name}")
        return game

    def __repr__(self) -> str:
        state = self.outcome if self.is_over else f"seats {list(self.to_move())} to move"
        return f"<{self.name} game, seed {self._seed}, turn {self.turn}, {state}>"

    # -- checking actions ------------------------------------------------------------------

    def _seat(self, seat: object) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int | np.integer):
            raise InvalidParameter(f"a seat is an integer, got {seat!r}")
        if not 0 <= seat < self.seats:
            raise InvalidParameter(f"seat {seat} is outside 0..{self.seats - 1}")
        return int(seat)

    def _checked_actions(self, actions: Actions) -> dict[int, Any]:
        if self.is_over:
            raise InvalidMove(f"the {self.name} game is over ({self.outcome}); no seat acts")
        movers = self.to_move()
        if isinstance(actions, Mapping):
            given = dict(actions.items())
        elif isinstance(actions, Sequence | np.ndarray):
            if len(actions) != len(movers):
                raise InvalidMove(
                    f"{len(actions)} action(s) given for the {len(movers)} seat(s) to move "
                    f"{list(movers)}"
                )
            given = dict(zip(movers, actions, strict=True))
        else:
            raise InvalidMove(
                f"actions are a mapping seat -> action or a sequence in to_move() order, "
                f"got {type(actions).__name__}"
            )
        for seat in given:
            if isinstance(seat, bool) or not isinstance(seat, int | np.integer):
                raise InvalidMove(f"a seat is an integer, got {seat!r}")
            if int(seat) not in movers:
                raise InvalidMove(f"seat {seat} does not act now; the seats to move are {movers}")
        chosen: dict[int, Any] = {}
        for seat in movers:
            if seat not in given:
                raise InvalidMove(f"seat {seat} has no action; the seats to move are {movers}")
            chosen[seat] = self._checked_action(seat, given[seat])
        return chosen

    def _checked_action(self, seat: int, action: object) -> Any:
        """One seat's action, checked: an integer of ``legal_actions(seat)``."""
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise InvalidMove(f"seat {seat}: an action is an integer, got {action!r}")
        legal = self.legal_actions(seat)
        index = int(np.searchsorted(legal, action))
        if index == legal.size or legal[index] != action:
            raise InvalidMove(
                f"seat {seat}: action {action} is not legal now; legal: {_summary(legal)}"
            )
        return int(action)

    def _end_rewards(self) -> NDArray[np.float64]:
        """A step's rewards in a game scored only when it ends: 0 until then, then
        :func:`terminal_rewards`."""
        if not self.is_over:
            return np.zeros(self.seats, dtype=np.float64)
        return terminal_rewards(self.seats, self.outcome, self.winners)

    # -- what each game writes -------------------------------------------------------------

    @property
    @abstractmethod
    def seats(self) -> int: ...

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @property
    @abstractmethod
    def outcome(self) -> Outcome: ...

    @property
    @abstractmethod
    def winners(self) -> tuple[int, ...]: ...

    @property
    @abstractmethod
    def num_actions(self) -> int: ...

    @property
    @abstractmethod
    def max_steps(self) -> int: ...

    @property
    @abstractmethod
    def observation_shape(self) -> tuple[int, ...]: ...

    @property
    @abstractmethod
    def observation_dtype(self) -> np.dtype[Any]: ...

    @abstractmethod
    def to_move(self) -> tuple[int, ...]: ...

    @abstractmethod
    def legal_actions(self, seat: int) -> NDArray[np.int64]: ...

    @abstractmethod
    def _apply(self, actions: dict[int, Any]) -> Sequence[float] | NDArray[np.float64]:
        """Plays checked actions; returns the step's reward of every seat."""

    @abstractmethod
    def observation(self, seat: int) -> NDArray[Any]: ...

    @abstractmethod
    def _copy_state(self, twin: Self) -> None:
        """Gives ``twin`` (a shallow copy of this game) its own copy of the engine state."""

    @abstractmethod
    def render(self) -> str: ...


class RawOrPlanes(ABC):
    """The two observation modes of :data:`OBSERVATIONS`, written once for the built-in games
    (put it before :class:`TurnGame` among a game's bases): the game sets
    ``observation_mode`` (:func:`check_observation`) and gives its planes' layout
    (``planes_shape``) and its raw arrays' shape, dtype and bounds (``raw_shape``,
    ``raw_dtype``, ``raw_bounds``)."""

    observation_mode: ObservationMode
    raw_dtype: ClassVar[type[np.signedinteger[Any]]]

    @property
    @abstractmethod
    def planes_shape(self) -> tuple[int, ...]:
        """The layout of ``observation="planes"`` before it is flattened."""

    @property
    @abstractmethod
    def raw_shape(self) -> tuple[int, ...]: ...

    @property
    @abstractmethod
    def raw_bounds(self) -> tuple[NDArray[Any], NDArray[Any]]: ...

    @property
    def observation_shape(self) -> tuple[int, ...]:
        if self.observation_mode == "planes":
            return flat(self.planes_shape)
        return self.raw_shape

    @property
    def observation_dtype(self) -> np.dtype[Any]:
        return np.dtype(np.float32 if self.observation_mode == "planes" else self.raw_dtype)

    @property
    def observation_bounds(self) -> tuple[NDArray[Any], NDArray[Any]]:
        if self.observation_mode == "planes":
            return plane_bounds(self.observation_shape)
        return self.raw_bounds


class BuiltinChoiceGame(TurnGame):
    """A :class:`TurnGame` whose turn is too many decisions for one action (conquest,
    outpost): action ``i`` lets the built-in ``choices[i]`` (a ``choice_kind``, such as
    ``"policy"``) play the seat's whole turn. ``_chosen`` holds each seat's latest choice; a
    subclass writes ``_play_turn``, which plays one turn of its engine with them.

    With ``action_mode="moves"`` a seat may instead give its own moves (:class:`PlaysMoves`):
    ``_moves`` holds this turn's checked move of each such seat (the others play their
    built-in); the subclass writes ``_move_sizes`` and ``_move_mask``."""

    choices: ClassVar[tuple[str, ...]]
    choice_kind: ClassVar[str]
    _chosen: list[str]
    action_mode: ActionMode = "players"
    _moves: dict[int, Move]

    @property
    def move_nvec(self) -> tuple[int, ...] | None:
        return self._move_sizes() if self.action_mode == "moves" else None

    def move_mask(self, seat: int) -> NDArray[np.bool_]:
        if self.action_mode != "moves":
            raise InvalidParameter(
                f"this {self.name} game plays actions='players': it has no move mask "
                "(make it with actions='moves')"
            )
        seat = self._seat(seat)
        if seat not in self.to_move():
            sizes = self._move_sizes()
            return np.zeros((len(sizes), max(sizes, default=1)), dtype=np.bool_)
        return self._move_mask(seat)

    @abstractmethod
    def _move_sizes(self) -> tuple[int, ...]:
        """The sizes of a move's components (the same all game long)."""

    @abstractmethod
    def _move_mask(self, seat: int) -> NDArray[np.bool_]:
        """The legal choices of each component of ``seat``'s move now (it acts now)."""

    def _checked_action(self, seat: int, action: object) -> Any:
        if self.action_mode != "moves" or isinstance(action, int | np.integer):
            return super()._checked_action(seat, action)
        sizes = self._move_sizes()
        if isinstance(action, str | bytes) or not isinstance(action, Sequence | np.ndarray):
            raise InvalidMove(
                f"seat {seat}: a move is a vector of {len(sizes)} integers (or an integer, a "
                f"built-in {self.choice_kind}), got {type(action).__name__} {action!r:.60}"
            )
        vector = np.asarray(action)
        if vector.shape != (len(sizes),) or not (
            vector.size == 0 or np.issubdtype(vector.dtype, np.integer)
        ):
            raise InvalidMove(
                f"seat {seat}: a move is a vector of {len(sizes)} integers, got shape "
                f"{vector.shape} of {vector.dtype}"
            )
        mask = self._move_mask(seat)
        for component, choice in enumerate(vector.tolist()):
            if not 0 <= choice < sizes[component] or not mask[component, choice]:
                legal = np.flatnonzero(mask[component])
                raise InvalidMove(
                    f"seat {seat}: component {component} of the move is {choice}, not legal "
                    f"now; legal: {_summary(legal)}"
                )
        return tuple(int(choice) for choice in vector.tolist())

    @property
    def num_actions(self) -> int:
        return len(self.choices)

    def legal_actions(self, seat: int) -> NDArray[np.int64]:
        if self._seat(seat) not in self.to_move():
            return np.zeros(0, dtype=np.int64)
        return np.arange(len(self.choices), dtype=np.int64)

    def _apply(self, actions: dict[int, Any]) -> NDArray[np.float64]:
        self._moves = {}
        for seat, action in actions.items():
            if isinstance(action, tuple):
                self._moves[seat] = action
            else:
                self._chosen[seat] = self.choices[action]
        self._play_turn()
        return self._end_rewards()

    @abstractmethod
    def _play_turn(self) -> None:
        """Plays one turn of the engine: the seats of ``_moves`` by their moves, the others
        by their built-in of ``_chosen``."""

    def suggest(self, seat: int, name: str) -> int:
        """The action that lets the built-in ``name`` play ``seat``'s turn."""
        self._seat(seat)
        if name not in self.choices:
            raise InvalidParameter(
                f"unknown {self.choice_kind} {name!r}; choose one of {self.choices}"
            )
        return self.choices.index(name)


def check_action_mode(mode: object) -> ActionMode:
    """An action mode of :data:`ACTION_MODES`, or :class:`InvalidParameter` naming it."""
    if mode not in ACTION_MODES:
        raise InvalidParameter(
            f"actions must be one of {', '.join(map(repr, ACTION_MODES))}, got {mode!r}"
        )
    return mode


def check_observation(mode: object) -> ObservationMode:
    """An observation mode of :data:`OBSERVATIONS`, or :class:`InvalidParameter` naming it."""
    if mode not in OBSERVATIONS:
        raise InvalidParameter(
            f"observation must be one of {', '.join(map(repr, OBSERVATIONS))}, got {mode!r}"
        )
    return mode


def flat(shape: tuple[int, ...]) -> tuple[int]:
    """The shape of ``shape`` flattened."""
    return (int(np.prod(shape)),)


def one_hot(values: NDArray[Any], count: int, low: int = 0) -> NDArray[np.float32]:
    """Planes ``(count, *values.shape)``: plane ``k`` is 1.0 where ``values == low + k``."""
    kinds = np.arange(low, low + count).reshape((count,) + (1,) * values.ndim)
    planes: NDArray[np.float32] = (values[np.newaxis] == kinds).astype(np.float32)
    return planes


def plane_bounds(shape: tuple[int, ...]) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """The bounds of planes: 0 and 1 everywhere."""
    return np.zeros(shape, dtype=np.float32), np.ones(shape, dtype=np.float32)


def row_bounds(
    lows: Sequence[int], highs: Sequence[int], width: int, dtype: np.dtype[Any]
) -> tuple[NDArray[Any], NDArray[Any]]:
    """The bounds of a ``(rows, width)`` observation whose row ``i`` holds values in
    ``lows[i]..highs[i]``."""
    low = np.repeat(np.asarray(lows, dtype=dtype)[:, np.newaxis], width, axis=1)
    high = np.repeat(np.asarray(highs, dtype=dtype)[:, np.newaxis], width, axis=1)
    return low, high


def _summary(legal: NDArray[np.int64]) -> str:
    if legal.size == 0:
        return "none"
    if legal.size <= 12:
        return ", ".join(str(int(a)) for a in legal)
    return f"{legal.size} actions in {int(legal[0])}..{int(legal[-1])}"


def terminal_rewards(seats: int, outcome: Outcome, winners: Sequence[int]) -> NDArray[np.float64]:
    """The win/loss rewards several games share: a win +1 to the winner and -1 to every other
    seat; a draw 0 to the seats sharing the top and -1 to the rest; unfinished 0 to all."""
    rewards = np.zeros(seats, dtype=np.float64)
    if outcome == "won":
        rewards[:] = -1.0
        rewards[list(winners)] = 1.0
    elif outcome == "drawn":
        rewards[:] = -1.0
        rewards[list(winners)] = 0.0
    return rewards


def load(path: str | os.PathLike[str]) -> TurnGame:
    """Any game saved by :meth:`TurnGame.save`, rebuilt from the registry and replayed step by
    step (so a tampered file is refused by the rules, naming the step)."""

    if not Path(path).exists():
        raise InvalidParameter(f"{path}: no such file")  # what is no regular file: read_json
    data = read_json(
        path, lambda reason: InvalidBoard(f"{path}: not a saved stratagem game ({reason})")
    )
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise InvalidBoard(f"{path}: not a saved stratagem game (no format {SAVE_FORMAT!r})")
    if data.get("version") != SAVE_VERSION:
        raise InvalidBoard(
            f"{path}: saved-game version {data.get('version')!r} is not known; "
            f"this stratagem reads version {SAVE_VERSION}"
        )
    try:
        name, seed, config, steps = data["game"], data["seed"], data["config"], data["actions"]
    except KeyError as error:
        raise InvalidBoard(f"{path}: the save has no {error.args[0]!r} field") from None
    if not isinstance(config, dict) or not isinstance(steps, list):
        raise InvalidBoard(f"{path}: 'config' must be an object and 'actions' a list")
    try:
        game = games.make(name, seed=seed, **config)
    except InvalidParameter as error:
        raise InvalidBoard(f"{path}: {error}") from None
    if not isinstance(game, TurnGame):
        raise InvalidBoard(f"{path}: game {name!r} does not save through stratagem.protocol")
    for index, step in enumerate(steps):
        try:
            actions = {int(seat): action for seat, action in step}
            game.step(actions)
        except (TypeError, ValueError) as error:
            raise InvalidBoard(f"{path}: step {index}: {error}") from None
    return game
