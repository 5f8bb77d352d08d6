"""The registry of games: :func:`available`, :func:`make`, :class:`GameSpec`, and the face
every game it hands out shows, :class:`Game` (a ``typing.Protocol``; :mod:`stratagem.protocol`
holds the shared implementation, ``docs/games.md``).

>>> from stratagem import games
>>> names = [spec.name for spec in games.available()]
>>> names[:5]
['annexation', 'conquest', 'outpost', 'mastermind', 'diplomacy']
>>> games.spec("mastermind").dynamics
'single-agent'
>>> games.make("mastermind", seed=1, spots=4, colours=6).num_actions
6
>>> games.make("chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
stratagem.errors.InvalidParameter: unknown game 'chess'; available: annexation, conquest, ...

Third-party games register through the entry-point group ``stratagem.games``: an entry point
whose object is a :class:`GameSpec` (or a function returning one). They then appear in
:func:`available`, the command line, the bridges and the conformance test like the built-ins.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from types import MappingProxyType
from typing import Any, Literal, Protocol, Self, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from stratagem.errors import InvalidParameter

__all__ = [
    "ENTRY_POINT_GROUP",
    "Actions",
    "ConfigKey",
    "Game",
    "GameSpec",
    "Outcome",
    "PlaysMoves",
    "Suggests",
    "available",
    "make",
    "register",
    "spec",
]

ENTRY_POINT_GROUP = "stratagem.games"
Outcome = Literal["won", "drawn", "unfinished"]
Actions = Mapping[int, int | Sequence[int]] | Sequence[int | Sequence[int]]
Dynamics = Literal["alternating", "simultaneous", "single-agent", "one-shot"]
Chance = Literal["deterministic", "seeded"]


@dataclass(frozen=True)
class ConfigKey:
    """One configuration key of a game: its default and what it means."""

    default: Any
    meaning: str


def _resolve(reference: str) -> Any:
    """The object named ``"package.module:Name"``."""
    module_name, _, attribute = reference.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


@dataclass(frozen=True)
class GameSpec:
    """A registered game. ``factory`` and ``adapter`` name ``"module:Name"`` objects imported
    on first use, so listing games imports no game."""

    name: str
    summary: str
    seats: tuple[int, int]
    """The fewest and most seats the game can have."""
    dynamics: Dynamics
    chance: Chance
    defaults: Mapping[str, ConfigKey]
    factory: str
    """The protocol class, called as ``factory(seed=..., **config)``."""
    adapter: str
    """The game's :class:`~stratagem.testing.GameAdapter` class."""
    docs: str
    """The game's page, relative to the repository."""
    opponents: tuple[str, ...] = ("random",)
    """Built-in opponents the Gymnasium bridge can seat (``"random"`` in every game; others
    through the game's ``suggest(seat, name)``)."""
    zero_sum_seats: tuple[int, ...] = ()
    """The seat counts at which every game's returns sum to zero (win/loss games of two)."""
    quick: Mapping[str, Any] = field(default_factory=dict)
    """A small configuration for quick checks (tests, the bridges' checkers, the demo)."""
    cli: str | None = None
    """The ``register(commands, common)`` function that adds the game's command group."""
    _cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def cls(self) -> Callable[..., Game]:
        """The game's protocol class."""
        if "cls" not in self._cache:
            self._cache["cls"] = _resolve(self.factory)
        cls: Callable[..., Game] = self._cache["cls"]
        return cls

    @property
    def conformance(self) -> Any:
        """A fresh instance of the game's conformance adapter (a
        :class:`~stratagem.testing.GameAdapter`)."""
        return _resolve(self.adapter)()

    parallel: bool = False
    """Whether the game's work runs over threads (then ``make`` takes ``threads``)."""

    def make(self, *, seed: int = 0, threads: int | None = None, **config: Any) -> Game:
        """A new game; unknown keys raise :class:`~stratagem.errors.InvalidParameter`.
        ``threads`` (not part of the configuration: it changes no result) goes to the games
        whose work runs over threads."""
        unknown = sorted(set(config) - set(self.defaults))
        if unknown:
            raise InvalidParameter(
                f"unknown {self.name} config key(s) {', '.join(unknown)}; "
                f"accepted: {', '.join(self.defaults)}"
            )
        if self.parallel:
            return self.cls(seed=seed, threads=threads, **config)
        if threads is not None:
            raise InvalidParameter(f"{self.name} plays on one thread; it takes no threads")
        return self.cls(seed=seed, **config)

    def register_cli(self, commands: Any, common: Callable[[], Any]) -> None:
        """Adds the game's command group to the ``stratagem`` parser."""
        if self.cli is not None:
            _resolve(self.cli)(commands, common)

    def defaults_dict(self) -> dict[str, Any]:
        return {key: entry.default for key, entry in self.defaults.items()}


@runtime_checkable
class Game(Protocol):
    """What every game satisfies (``docs/games.md``, "The protocol")."""

    @property
    def spec(self) -> GameSpec:
        """The game's registry entry."""
        ...

    @property
    def config(self) -> Mapping[str, Any]:
        """The configuration the game was made with, every key filled in."""
        ...

    @property
    def seed(self) -> int: ...

    @property
    def seats(self) -> int: ...

    @property
    def turn(self) -> int:
        """Steps taken so far."""
        ...

    @property
    def is_over(self) -> bool: ...

    @property
    def outcome(self) -> Outcome:
        """``"won"`` (``winners`` holds the winner), ``"drawn"`` (``winners`` holds the seats
        that share the top) or ``"unfinished"`` (still going, or stopped at a limit with no
        result; ``winners`` is empty)."""
        ...

    @property
    def winners(self) -> tuple[int, ...]: ...

    @property
    def num_actions(self) -> int: ...

    @property
    def observation_shape(self) -> tuple[int, ...]: ...

    @property
    def observation_dtype(self) -> np.dtype[Any]: ...

    @property
    def observation_bounds(self) -> tuple[NDArray[Any], NDArray[Any]]:
        """The least and the most value of each entry of an observation (two arrays of
        ``observation_shape`` and ``observation_dtype``): the bridges' ``Box`` bounds."""
        ...

    def to_move(self) -> tuple[int, ...]:
        """The seats that act in the next step (empty once the game is over)."""
        ...

    def legal_actions(self, seat: int) -> NDArray[np.int64]:
        """The legal actions of ``seat``, ascending (empty when it does not act now)."""
        ...

    def action_mask(self, seat: int) -> NDArray[np.bool_]: ...

    def step(self, actions: Actions) -> None: ...

    def rewards(self) -> NDArray[np.float64]:
        """The reward of each seat from the last step."""
        ...

    def returns(self) -> NDArray[np.float64]:
        """The summed rewards of each seat since the start."""
        ...

    @property
    def return_bounds(self) -> tuple[float, float]:
        """The least and the most any seat's return can be in a game of this configuration."""
        ...

    @property
    def max_steps(self) -> int:
        """The most steps a game of this configuration can take."""
        ...

    def observation(self, seat: int) -> NDArray[Any]: ...

    def clone(self) -> Self: ...

    def save(self, path: str | os.PathLike[str]) -> None: ...

    def render(self) -> str: ...


@runtime_checkable
class Suggests(Protocol):
    """A game whose built-in players can be asked for a move: the opponents of the bridges
    (``GameSpec.opponents``)."""

    def suggest(self, seat: int, name: str) -> int:
        """The action the built-in player ``name`` would take for ``seat`` now."""
        ...


@runtime_checkable
class PlaysMoves(Protocol):
    """A game whose seats may act by the game's own moves (``actions="moves"``): a seat's
    action is a vector of ``len(move_nvec)`` integers, component ``i`` in
    ``0..move_nvec[i] - 1`` (a Gymnasium ``MultiDiscrete``), or an integer, which lets the
    built-in player of that number play the seat's turn (as in ``actions="players"``: what
    the bridges' opponents do). ``move_nvec`` is None in ``actions="players"``."""

    @property
    def move_nvec(self) -> tuple[int, ...] | None: ...

    def move_mask(self, seat: int) -> NDArray[np.bool_]:
        """``(components, max(move_nvec))``: which choices of each component are legal now
        (all False for a seat that does not act)."""
        ...


def _config(**keys: tuple[Any, str]) -> Mapping[str, ConfigKey]:
    return MappingProxyType({key: ConfigKey(*entry) for key, entry in keys.items()})


#: The observation key of every built-in game (each offers both modes: ``protocol.RawOrPlanes``).
_OBSERVATION = ("raw", "observation: raw (compact integers) or planes (float32 0/1)")


def _builtin(name: str, class_name: str, **fields: Any) -> GameSpec:
    """A built-in game: its protocol class ``class_name``, its ``<class_name>Adapter``, its page
    and its command group stand at the same places in every built-in game's package."""
    return GameSpec(
        name=name,
        factory=f"stratagem.{name}.protocol:{class_name}",
        adapter=f"stratagem.{name}.conformance:{class_name}Adapter",
        docs=f"docs/{name}.md",
        cli=f"stratagem.{name}.cli:register",
        **fields,
    )


_BUILTIN = (
    _builtin(
        "annexation",
        "Annexation",
        summary="Filler-style colour annexation: grow by choosing colours; more than half wins",
        seats=(2, 4),
        dynamics="alternating",
        chance="deterministic",
        defaults=_config(
            board=("hex:8", "board spec (hex:R, hexrect:RxC, grid:RxC, voronoi:N, or a file)"),
            colours=(8, "colour count, 3..16"),
            players=(2, "seats, 2..4"),
            mode=("flood", "annexation rule: flood or adjacent"),
            allow_opponent_colours=(False, "may a player take an opponent's current colour"),
            max_turns=(None, "move limit (None: four moves per cell)"),
            board_seed=(None, "seed of a generated board's colours (None: the game's seed)"),
            observation=_OBSERVATION,
        ),
        opponents=("random", "greedy", "fractal", "mcts"),
        zero_sum_seats=(2,),
        quick={"board": "hex:3"},
    ),
    _builtin(
        "conquest",
        "Conquest",
        summary="RISK-like war on a graph: each turn each team picks its placement policy",
        seats=(2, 64),
        dynamics="simultaneous",
        chance="seeded",
        defaults=_config(
            board=("grid:8x8", "board spec (grid:RxC, ring:N, complete:N, risk, rgg:N, ...)"),
            teams=(2, "seats (teams), 2..64"),
            troops=(10, "starting troops per territory"),
            rate=(0.2, "recruitment rate per turn"),
            max_turns=(200, "turn limit"),
            observation=_OBSERVATION,
            actions=("players", "actions: players (a built-in per turn) or moves (per territory)"),
        ),
        parallel=True,
        opponents=("random", "aggressive", "balanced", "opportunist"),
        zero_sum_seats=(2,),
        quick={"board": "grid:6x6", "max_turns": 30},
    ),
    _builtin(
        "outpost",
        "Outpost",
        summary="Four empires on a 100x100 grid: each turn each empire picks a player's moves",
        seats=(4, 4),
        dynamics="simultaneous",
        chance="seeded",
        defaults=_config(
            map=("rivers", "map name or file"),
            r=(7, "radius of influence"),
            L=(12, "land cells per extra outpost"),
            W=(3, "water cells per extra outpost"),
            max_turns=(200, "turn limit T"),
            observation=_OBSERVATION,
            actions=("players", "actions: players (a built-in per turn) or moves (per outpost)"),
        ),
        opponents=("random", "spread", "frontier", "lookahead"),
        quick={"max_turns": 30},
    ),
    _builtin(
        "mastermind",
        "Mastermind",
        summary="Break a hidden code: a guess is entered peg by peg, feedback after the last",
        seats=(1, 1),
        dynamics="single-agent",
        chance="seeded",
        defaults=_config(
            spots=(4, "pegs in a code, 1..16"),
            colours=(6, "colours, 2..36"),
            max_guesses=(12, "guess limit"),
            secret=(None, "the secret code (None: drawn from the seed)"),
            observation=_OBSERVATION,
        ),
        parallel=True,
        opponents=(),
    ),
    _builtin(
        "diplomacy",
        "Diplomacy",
        summary="Diplomacy winter adjustments: seven powers choose builds and removals at once",
        seats=(7, 7),
        dynamics="one-shot",
        chance="deterministic",
        defaults=_config(
            position=(None, "a position in Position.parse form (None: drawn from the seed)"),
            convention=("exact", "counting convention: exact, waives or article"),
            max_actions=(4096, "the action space's size; a power with more options is refused"),
            observation=_OBSERVATION,
            reward=("values", "reward: values (the evaluator's), scaled (in [-1, 1]) or outcome"),
        ),
        parallel=True,
        opponents=("random", "preliminary", "anneal", "combined"),
    ),
)

_registry: dict[str, GameSpec] | None = None


def _entry_point_specs() -> list[GameSpec]:
    found = []
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        loaded = entry.load()
        candidate = loaded() if callable(loaded) and not isinstance(loaded, GameSpec) else loaded
        if not isinstance(candidate, GameSpec):
            raise InvalidParameter(
                f"entry point {entry.name!r} of group {ENTRY_POINT_GROUP!r} gave "
                f"{type(candidate).__name__}, not a stratagem.games.GameSpec"
            )
        found.append(candidate)
    return found


def _games() -> dict[str, GameSpec]:
    global _registry  # noqa: PLW0603 (built once, on first use)
    if _registry is None:
        table = {spec.name: spec for spec in _BUILTIN}
        for extra in _entry_point_specs():
            if extra.name in table:
                raise InvalidParameter(
                    f"entry point game {extra.name!r} clashes with a registered game"
                )
            table[extra.name] = extra
        _registry = table
    return _registry


def register(spec: GameSpec) -> None:
    """Adds ``spec`` for this process (entry points make it permanent)."""
    if not isinstance(spec, GameSpec):
        raise InvalidParameter(f"register takes a GameSpec, got {type(spec).__name__}")
    table = _games()
    if spec.name in table:
        raise InvalidParameter(f"a game named {spec.name!r} is already registered")
    table[spec.name] = spec


def available() -> tuple[GameSpec, ...]:
    """Every registered game, the five built-ins first."""
    return tuple(_games().values())


def spec(name: str) -> GameSpec:
    """The registry entry of ``name``."""
    table = _games()
    if not isinstance(name, str) or name not in table:
        raise InvalidParameter(f"unknown game {name!r}; available: {', '.join(table)}")
    return table[name]


def make(name: str, *, seed: int = 0, threads: int | None = None, **config: Any) -> Game:
    """A new game of ``name`` with ``seed`` and configuration keys (see ``spec(name).defaults``);
    ``threads`` for the games whose work runs over threads (``spec(name).parallel``)."""
    return spec(name).make(seed=seed, threads=threads, **config)
