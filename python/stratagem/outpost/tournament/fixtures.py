"""The fixtures of an outpost tournament: its parameter sets, its games in order and each
game's seed (:mod:`stratagem.outpost.tournament.play` plays them)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations, permutations
from typing import Any, Final, NamedTuple, TypedDict

from stratagem import _validate, rng
from stratagem.errors import InvalidParameter
from stratagem.outpost.game import EMPIRES
from stratagem.outpost.map import Map
from stratagem.outpost.players import BUILTIN_PLAYERS, Player, _seat

PURPOSE: Final = "outpost.tournament"
"""The purpose of the stream each game's seed is drawn from."""

ROTATIONS: Final = ("cyclic", "all")

FORMAT: Final = "stratagem.outpost.tournament"

_GROUPS: Final = ("map", "params")
_FLAGS: Final = ("supply_fringe", "sequential_moves", "extra_turn")
_COUNTS: Final = ("land", "water", "outposts")


class Params(NamedTuple):
    """One parameter set of the rules: radius ``r``, ``L`` land and ``W`` water cells per
    extra outpost, ``T`` turns (the rules' defaults)."""

    r: int = 7
    L: int = 12
    W: int = 3
    T: int = 4444

    @property
    def label(self) -> str:
        """``r=7 L=12 W=3 T=4444``."""
        return f"r={self.r} L={self.L} W={self.W} T={self.T}"


class TournamentSetup(TypedDict):
    """Maps and parameter sets of a tournament, as :func:`tournament` takes them."""

    maps: tuple[str, ...]
    params: tuple[Params, ...]


TOURNAMENT_2014: Final = TournamentSetup(
    maps=("lakes", "rivers", "mixed"),
    params=(Params(7, 12, 3, 4444), Params(7, 40, 10, 4444)),
)
"""The shape of the course's 2014 tournament: three maps, two parameter sets
(``tournament(**TOURNAMENT_2014)``)."""


class Fixture(NamedTuple):
    """One game of a tournament: its number ``game`` (from 0), the map (``map`` its label,
    ``map_index`` its position in the tournament's maps), the parameters, each seat's player
    (``seats``: positions in the tournament's players, ``players``: their labels), the seed
    and the rules' flags."""

    game: int
    map: str
    map_index: int
    params: Params
    seats: tuple[int, ...]
    players: tuple[str, ...]
    seed: int
    supply_fringe: bool = False
    sequential_moves: bool = False
    extra_turn: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "map": self.map,
            "map_index": self.map_index,
            **self.params._asdict(),
            "seats": list(self.seats),
            "players": list(self.players),
            "seed": self.seed,
            **{flag: getattr(self, flag) for flag in _FLAGS},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Fixture:
        return cls(
            game=int(data["game"]),
            map=str(data["map"]),
            map_index=int(data["map_index"]),
            params=Params(*(int(data[key]) for key in Params._fields)),
            seats=tuple(int(s) for s in data["seats"]),
            players=tuple(str(p) for p in data["players"]),
            seed=int(data["seed"]),
            **{flag: bool(data[flag]) for flag in _FLAGS},
        )


# -- checking the arguments -------------------------------------------------------------------


def _unique(labels: Iterable[str]) -> tuple[str, ...]:
    """Labels made distinct: the second ``x`` becomes ``x#2``, the third ``x#3``..."""
    seen: dict[str, int] = {}
    result = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        result.append(label if seen[label] == 1 else f"{label}#{seen[label]}")
    return tuple(result)


def _entries(name: str, value: object, single: tuple[type, ...]) -> tuple[Any, ...]:
    if isinstance(value, single):
        return (value,)
    if isinstance(value, Mapping) or not isinstance(value, Iterable):
        raise InvalidParameter(f"{name} must be a sequence, got {type(value).__name__}")
    entries = tuple(value)
    if not entries:
        raise InvalidParameter(f"{name} must not be empty")
    return entries


def _map_entries(maps: object) -> tuple[tuple[Map | str | os.PathLike[str], ...], tuple[str, ...]]:
    """The maps and their labels: a Map's name, a spec's text (made distinct)."""
    entries = _entries("maps", maps, (str, Map, os.PathLike))
    labels = []
    for i, entry in enumerate(entries):
        if isinstance(entry, Map):
            labels.append(entry.name)
        elif isinstance(entry, str | os.PathLike):
            labels.append(os.fspath(entry))
        else:
            raise InvalidParameter(
                f"maps[{i}] must be a Map, a map name, random:SEED or a path, got {entry!r}"
            )
    return entries, _unique(labels)


def _param_sets(params: object) -> tuple[Params, ...]:
    entries = _entries("params", params, (Params,))
    checked = []
    for i, entry in enumerate(entries):
        try:
            if isinstance(entry, Mapping):
                values = Params(**entry)
            elif isinstance(entry, Sequence) and not isinstance(entry, str):
                values = Params(*entry)
            else:
                raise TypeError
        except TypeError:
            raise InvalidParameter(
                f"params[{i}] must be a Params (r, L, W, T), a sequence of up to 4 integers or "
                f"a mapping of them, got {entry!r}"
            ) from None
        checked.append(
            Params(
                _validate.integer(f"params[{i}].r", values.r, 0, 198),
                _validate.integer(f"params[{i}].L", values.L, 1, 10_000),
                _validate.integer(f"params[{i}].W", values.W, 1, 10_000),
                _validate.integer(f"params[{i}].T", values.T, 0, 1_000_000),
            )
        )
    return tuple(checked)


def _label(player: str | Player) -> str:
    if isinstance(player, str):
        return player
    name = getattr(player, "name", None)
    return name if isinstance(name, str) and name else type(player).__name__


def _entrants(players: object) -> tuple[tuple[str | Player, ...], tuple[str, ...]]:
    """The checked players and their labels (a built-in name, else the object's ``name``
    attribute or class name; made distinct)."""
    if isinstance(players, str):
        players = [part.strip() for part in players.split(",")]
    if isinstance(players, Mapping) or not isinstance(players, Iterable):
        raise InvalidParameter(f"players must be a sequence, got {type(players).__name__}")
    seats = tuple(_seat(player, i) for i, player in enumerate(players))
    if len(seats) < EMPIRES:
        raise InvalidParameter(
            f"a tournament needs at least {EMPIRES} players (a game seats {EMPIRES}), "
            f"got {len(seats)}"
        )
    return seats, _unique(_label(p) for p in seats)


def _rotations(rotations: object) -> str:
    if rotations not in ROTATIONS:
        raise InvalidParameter(f"rotations must be one of {ROTATIONS}, got {rotations!r}")
    return str(rotations)


def _seatings(players: int, rotations: str) -> list[tuple[int, ...]]:
    """Each seating (the player of seat 0..3) in fixture order."""
    if rotations == "cyclic":
        orders = [tuple((k + seat) % EMPIRES for seat in range(EMPIRES)) for k in range(EMPIRES)]
    else:
        orders = list(permutations(range(EMPIRES)))
    return [
        tuple(group[position] for position in order)
        for group in combinations(range(players), EMPIRES)
        for order in orders
    ]


def _flags(supply_fringe: object, sequential_moves: object, extra_turn: object) -> dict[str, bool]:
    return {
        "supply_fringe": bool(supply_fringe),
        "sequential_moves": bool(sequential_moves),
        "extra_turn": bool(extra_turn),
    }


def _game_seed(seed: int, game: int) -> int:
    return int(rng.blocks(seed, PURPOSE, [game])[0, 0])


class _Draw(NamedTuple):
    """The checked arguments of :func:`fixtures` and the games they make (the tournament's
    plan keeps them all)."""

    maps: tuple[Map | str | os.PathLike[str], ...]
    map_labels: tuple[str, ...]
    param_sets: tuple[Params, ...]
    entrants: tuple[str | Player, ...]
    labels: tuple[str, ...]
    rotations: str
    repeats: int
    seed: int
    flags: dict[str, bool]
    games: tuple[Fixture, ...]


def _draw(
    maps: object,
    params: object,
    players: object,
    *,
    rotations: object,
    repeats: object,
    seed: object,
    flags: dict[str, bool],
) -> _Draw:
    """Checks the arguments of :func:`fixtures` and makes its games."""
    entries, map_labels = _map_entries(maps)
    param_sets = _param_sets(params)
    entrants, labels = _entrants(players)
    checked_rotations = _rotations(rotations)
    checked_repeats = _validate.integer("repeats", repeats, 1)
    checked_seed = _validate.seed(seed)
    seatings = _seatings(len(labels), checked_rotations)
    games: list[Fixture] = []
    for map_index, map_label in enumerate(map_labels):
        for params_set in param_sets:
            for seats in seatings:
                for _ in range(checked_repeats):
                    game = len(games)
                    games.append(
                        Fixture(
                            game=game,
                            map=map_label,
                            map_index=map_index,
                            params=params_set,
                            seats=seats,
                            players=tuple(labels[s] for s in seats),
                            seed=_game_seed(checked_seed, game),
                            **flags,
                        )
                    )
    return _Draw(
        entries,
        map_labels,
        param_sets,
        entrants,
        labels,
        checked_rotations,
        checked_repeats,
        checked_seed,
        flags,
        tuple(games),
    )


def fixtures(
    maps: Sequence[Map | str | os.PathLike[str]] = TOURNAMENT_2014["maps"],
    params: Sequence[Params | Sequence[int]] | Params = TOURNAMENT_2014["params"],
    players: Sequence[str | Player] = BUILTIN_PLAYERS,
    *,
    rotations: str = "cyclic",
    repeats: int = 1,
    seed: int = 0,
    supply_fringe: bool = False,
    sequential_moves: bool = False,
    extra_turn: bool = False,
) -> list[Fixture]:
    """The games of a tournament, in the order of the module's docstring: maps x parameter
    sets x seatings (every 4-player group in :func:`itertools.combinations` order, each in
    its 4 cyclic rotations or, with ``rotations="all"``, its 24 permutations) x ``repeats``,
    game ``i`` with the seed of stream ``(seed, "outpost.tournament", [i])``.

    ``maps`` are :class:`~stratagem.outpost.map.Map` objects or specs of
    :func:`~stratagem.outpost.map.parse_map` (not read here), labelled by their name or
    spec; ``params`` are :class:`Params` (or 4-sequences, or mappings, of ``r, L, W, T``);
    ``players`` at least 4 built-in names or Python players, labelled by name, ``name``
    attribute or class name (a repeated label gets ``#2``, ``#3``...).

    >>> games = fixtures(["lakes"], [Params(T=50)], ["random", "spread", "frontier", "lookahead"])
    >>> [game.players for game in games[:2]]
    [('random', 'spread', 'frontier', 'lookahead'), ('spread', 'frontier', 'lookahead', 'random')]
    >>> len(fixtures(["lakes"], [Params()], BUILTIN_PLAYERS + ("random",), rotations="all"))
    120
    """
    flags = _flags(supply_fringe, sequential_moves, extra_turn)
    draw = _draw(
        maps, params, players, rotations=rotations, repeats=repeats, seed=seed, flags=flags
    )
    return list(draw.games)
