"""Outpost tournaments: every seating of the players on every map and parameter set, played
over threads (built-in players, in Rust) or over the ranks of an MPI job (any players), and
the table of the results.

**Fixtures** (:func:`fixtures`). A tournament has maps, parameter sets (:class:`Params`),
players (at least 4), a rotation scheme, a repeat count, a seed and the rules' flags. Its
games are, in this order (the first varies slowest)::

    for map in maps:
        for params in parameter sets:
            for group in itertools.combinations(players, 4):   # one group with 4 players
                for seating in the rotations of group:
                    for repeat in range(repeats):
                        the next game

The seatings of a group ``(a, b, c, d)`` (seat = empire 0..3) are its 4 cyclic rotations
``abcd, bcda, cdab, dabc`` (``rotations="cyclic"``, so every player sits once in every seat)
or its 24 permutations in lexicographic order of positions (``rotations="all"``). Game ``i``
(counted from 0 over the whole list) is played with the seed word 0 of block 0 of stream
``(seed, "outpost.tournament", [i])`` (``docs/outpost-rules.md``, "Random streams"), so a
fixture's game never depends on how, where or in which order the games are played.

**Playing** (:func:`tournament`). Games whose four seats are built-in players run in Rust,
many at a time over threads (``_core.outpost.tournament``); games with a Python player (a
:class:`~stratagem.outpost.game.Player` object) are played one by one with
:meth:`Game.run <stratagem.outpost.game.Game.run>`. Consecutive built-in games form *tasks*
(batches of ``batch`` games), each game with a Python player is a task of its own. With a
``checkpoint`` file the results so far are written after each task (each round of tasks
under MPI), and a tournament started again with the same arguments plays only the games
still missing; a checkpoint of other arguments is refused.

**MPI.** Under ``mpiexec -n N`` (``comm``, by default :func:`stratagem.mpi.world`,
with more than one rank) every rank calls :func:`tournament` with the same arguments (the
same script; each rank constructs its own Python players) and the tasks are spread over the
ranks by the dynamic queue :func:`stratagem.mpi.run_queue`; the per-game results
(uint32 arrays) are gathered on every rank in fixture order, so every rank returns the
result of a one-process run. Python players must therefore answer from the state they are
shown only (no memory from one game to the next). See :func:`tournament` for the details.

**Results** (:class:`TournamentResult`): the fixtures and each seat's final score (cells),
land, water and outposts; :meth:`~TournamentResult.table` scores each player (mean score
with a 95% interval, wins shared on ties with a Wilson interval, mean rank), overall or per
map and/or parameter set; CSV, JSON and a bar chart.

>>> len(fixtures(("lakes", "rivers"), [Params(T=20)], BUILTIN_PLAYERS, repeats=2))
16
>>> result = tournament(maps=["lakes"], params=[Params(T=10)], threads=1)
>>> [(row.player, row.games) for row in result.table()]
[('random', 4), ('spread', 4), ('frontier', 4), ('lookahead', 4)]
>>> result.scores.shape
(4, 4)
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import os
import socket
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations
from pathlib import Path
from typing import Any, Final, NamedTuple, TypedDict

import numpy as np
from numpy.typing import ArrayLike, NDArray

from stratagem import _core, _validate, rng
from stratagem._files import write_json
from stratagem._plotting import matplotlib
from stratagem.errors import InconsistentInput, InvalidBoard, InvalidParameter
from stratagem.mpi import (
    Communicator,
    bcast_array,
    checked_together,
    run_queue,
    world,
)
from stratagem.outpost.game import BUILTIN_PLAYERS, EMPIRES, Game, Player, _seat
from stratagem.outpost.map import Map, parse_map
from stratagem.progress import Progress
from stratagem.stats import Z95, wilson_interval

__all__ = [
    "PURPOSE",
    "ROTATIONS",
    "TOURNAMENT_2014",
    "Fixture",
    "Params",
    "Standing",
    "TournamentResult",
    "TournamentSetup",
    "fixtures",
    "tournament",
]

PURPOSE: Final = "outpost.tournament"
"""The purpose of the stream each game's seed is drawn from."""

ROTATIONS: Final = ("cyclic", "all")

FORMAT: Final = "stratagem.outpost.tournament"
CHECKPOINT_FORMAT: Final = "stratagem.outpost.tournament.checkpoint"

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


def _make_fixtures(
    *,
    map_labels: tuple[str, ...],
    param_sets: tuple[Params, ...],
    labels: tuple[str, ...],
    rotations: str,
    repeats: int,
    seed: int,
    flags: Mapping[str, bool],
) -> list[Fixture]:
    seatings = _seatings(len(labels), rotations)
    result: list[Fixture] = []
    for map_index, map_label in enumerate(map_labels):
        for params in param_sets:
            for seats in seatings:
                for _ in range(repeats):
                    game = len(result)
                    result.append(
                        Fixture(
                            game=game,
                            map=map_label,
                            map_index=map_index,
                            params=params,
                            seats=seats,
                            players=tuple(labels[s] for s in seats),
                            seed=_game_seed(seed, game),
                            **flags,
                        )
                    )
    return result


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
    _, map_labels = _map_entries(maps)
    param_sets = _param_sets(params)
    _, labels = _entrants(players)
    return _make_fixtures(
        map_labels=map_labels,
        param_sets=param_sets,
        labels=labels,
        rotations=_rotations(rotations),
        repeats=_validate.integer("repeats", repeats, 1),
        seed=_validate.seed(seed),
        flags=_flags(supply_fringe, sequential_moves, extra_turn),
    )


# -- results ----------------------------------------------------------------------------------


def _mean_interval(values: NDArray[np.float64]) -> tuple[float, float, float]:
    """The mean and its 95% interval ``mean -+ Z95 * s / sqrt(n)`` (``s`` the sample standard
    deviation); NaN bounds with fewer than 2 values."""
    n = len(values)
    mean = float(values.mean())
    if n < 2:
        return mean, math.nan, math.nan
    half = Z95 * float(values.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


@dataclass(frozen=True)
class Standing:
    """One player's record over a tournament's games (or over the games of one ``map`` and/or
    one ``params`` of :meth:`TournamentResult.table`'s ``by``).

    ``mean_score`` is the mean of its final scores (cells controlled), with the 95% interval
    ``score_low..score_high`` of the normal approximation, ``mean -+ 1.96 s / sqrt(games)``
    with ``s`` the sample standard deviation (NaN for a single game). ``wins`` counts a game
    won alone as 1 and a game whose top score ``k`` empires share as ``1 / k`` each;
    ``win_rate = wins / games`` with its 95% Wilson interval ``win_low..win_high``.
    ``mean_rank`` is the mean of its ranks (1 + the empires with a strictly higher score).
    """

    player: str
    games: int
    mean_score: float
    score_low: float
    score_high: float
    wins: float
    win_rate: float
    win_low: float
    win_high: float
    mean_rank: float
    map: str | None = None
    params: Params | None = None

    def to_row(self) -> dict[str, Any]:
        """A flat dictionary (``r, L, W, T`` for ``params``; the groups only when set)."""
        row: dict[str, Any] = {}
        if self.map is not None:
            row["map"] = self.map
        if self.params is not None:
            row.update(self.params._asdict())
        row.update(
            player=self.player,
            games=self.games,
            mean_score=self.mean_score,
            score_low=self.score_low,
            score_high=self.score_high,
            wins=self.wins,
            win_rate=self.win_rate,
            win_low=self.win_low,
            win_high=self.win_high,
            mean_rank=self.mean_rank,
        )
        return row


def _counts_array(name: str, values: ArrayLike, games: int) -> NDArray[np.int64]:
    array = np.array(values, dtype=np.int64)
    if array.size == 0:
        array = array.reshape(0, EMPIRES)
    if array.shape != (games, EMPIRES):
        raise InvalidParameter(
            f"{name} must have shape ({games}, {EMPIRES}) (one row per fixture), got {array.shape}"
        )
    array.flags.writeable = False
    return array


def _table_of(name: str, rows: list[Any]) -> NDArray[np.int64]:
    """A JSON or CSV column of per-seat counts as an int64 ``(games, 4)`` array."""
    try:
        return np.array(rows, dtype=np.int64).reshape(len(rows), EMPIRES)
    except (TypeError, ValueError, OverflowError) as error:
        raise InvalidBoard(f"{name}: expected {EMPIRES} integers per game ({error})") from error


def _by(by: str | Sequence[str]) -> tuple[str, ...]:
    keys = (by,) if isinstance(by, str) else tuple(by)
    for key in keys:
        if key not in _GROUPS:
            raise InvalidParameter(f"by must name groups among {_GROUPS}, got {key!r}")
    return tuple(key for key in _GROUPS if key in keys)


def _format_number(value: float, digits: int) -> str:
    return "-" if math.isnan(value) else f"{value:.{digits}f}"


_CSV_HEAD: Final = (
    "game",
    "map",
    *Params._fields,
    *_FLAGS,
    "seed",
    *(f"player{e}" for e in range(EMPIRES)),
    *(f"score{e}" for e in range(EMPIRES)),
    *(f"{count}{e}" for count in _COUNTS for e in range(EMPIRES)),
)


@dataclass(frozen=True, eq=False)
class TournamentResult:
    """The games of a tournament and how they ended.

    ``players`` and ``maps`` are the labels of the tournament's players and maps (the
    fixtures' ``seats`` and ``map_index`` index them); ``land``, ``water`` and ``outposts``
    are int64 ``(games, 4)`` arrays, row ``i`` for ``fixtures[i]``, column ``e`` for seat
    (empire) ``e``. Two results are equal when all of these are.
    """

    players: tuple[str, ...]
    maps: tuple[str, ...]
    fixtures: tuple[Fixture, ...]
    land: NDArray[np.int64]
    water: NDArray[np.int64]
    outposts: NDArray[np.int64]

    def __post_init__(self) -> None:
        games = len(self.fixtures)
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "maps", tuple(self.maps))
        object.__setattr__(self, "fixtures", tuple(self.fixtures))
        for name in _COUNTS:
            object.__setattr__(self, name, _counts_array(name, getattr(self, name), games))
        for fixture in self.fixtures:
            if len(fixture.seats) != EMPIRES or not all(
                0 <= s < len(self.players) for s in fixture.seats
            ):
                raise InvalidParameter(
                    f"game {fixture.game}: seats {fixture.seats} are not {EMPIRES} positions in "
                    f"the {len(self.players)} players"
                )
            if not 0 <= fixture.map_index < len(self.maps):
                raise InvalidParameter(
                    f"game {fixture.game}: map index {fixture.map_index} is not one of the "
                    f"{len(self.maps)} maps"
                )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TournamentResult):
            return NotImplemented
        return (
            self.players == other.players
            and self.maps == other.maps
            and self.fixtures == other.fixtures
            and all(np.array_equal(getattr(self, n), getattr(other, n)) for n in _COUNTS)
        )

    __hash__ = None  # type: ignore[assignment]

    def __len__(self) -> int:
        return len(self.fixtures)

    # -- per game ------------------------------------------------------------------------------

    @property
    def scores(self) -> NDArray[np.int64]:
        """Final scores (cells controlled: land + water), ``(games, 4)``."""
        return self.land + self.water

    @property
    def ranks(self) -> NDArray[np.int64]:
        """Each seat's rank, ``(games, 4)``: 1 + the seats with a strictly higher score."""
        scores = self.scores
        ranks: NDArray[np.int64] = 1 + (scores[:, None, :] > scores[:, :, None]).sum(axis=2)
        return ranks

    @property
    def win_shares(self) -> NDArray[np.float64]:
        """Each seat's share of the win, ``(games, 4)``: ``1 / k`` for each of the ``k`` seats
        with the top score, 0 for the others."""
        scores = self.scores
        top = scores == scores.max(axis=1, initial=0, keepdims=True)
        shares: NDArray[np.float64] = top / np.maximum(top.sum(axis=1, keepdims=True), 1)
        return shares

    @property
    def params(self) -> tuple[Params, ...]:
        """The distinct parameter sets, in the order the fixtures meet them."""
        return tuple(dict.fromkeys(f.params for f in self.fixtures))

    # -- tables ----------------------------------------------------------------------------

    def table(self, by: str | Sequence[str] = ()) -> list[Standing]:
        """One :class:`Standing` per player, in the order of ``players``; with ``by`` (any of
        ``"map"``, ``"params"``) one per player and group, groups in the order the fixtures
        meet them. Players without a game in a group have no row there."""
        keys = _by(by)
        groups: dict[tuple[Any, ...], list[int]] = {}
        for i, fixture in enumerate(self.fixtures):
            key = tuple(fixture.map if k == "map" else fixture.params for k in keys)
            groups.setdefault(key, []).append(i)
        seats = np.array([f.seats for f in self.fixtures], dtype=np.int64).reshape(-1, EMPIRES)
        scores, ranks, shares = self.scores, self.ranks, self.win_shares
        rows = []
        for key, members in groups.items():
            group = dict(zip(keys, key, strict=True))
            group_map = group.get("map")
            group_params = group.get("params")
            picked = np.array(members, dtype=np.int64)
            for player, label in enumerate(self.players):
                mine = seats[picked] == player  # at most one seat per game, in game order
                games = int(mine.sum())
                if games == 0:
                    continue
                mean, low, high = _mean_interval(scores[picked][mine].astype(np.float64))
                wins = float(shares[picked][mine].sum())
                win_low, win_high = wilson_interval([wins], games)
                rows.append(
                    Standing(
                        player=label,
                        games=games,
                        mean_score=mean,
                        score_low=low,
                        score_high=high,
                        wins=wins,
                        win_rate=wins / games,
                        win_low=float(win_low[0]),
                        win_high=float(win_high[0]),
                        mean_rank=float(ranks[picked][mine].mean()),
                        map=group_map if isinstance(group_map, str) else None,
                        params=group_params if isinstance(group_params, Params) else None,
                    )
                )
        return rows

    def format_table(self, by: str | Sequence[str] = ()) -> str:
        """:meth:`table` as a plain text table (one line per row, columns aligned)."""
        keys = _by(by)
        head = [
            *(("map",) if "map" in keys else ()),
            *(("params",) if "params" in keys else ()),
            "player",
            "games",
            "mean score",
            "95% interval",
            "wins",
            "win rate",
            "95% interval",
            "mean rank",
        ]
        lines = [head]
        for row in self.table(keys):
            wins = f"{row.wins:.0f}" if row.wins == int(row.wins) else f"{row.wins:.2f}"
            lines.append(
                [
                    *((row.map or "",) if "map" in keys else ()),
                    *((row.params.label if row.params else "",) if "params" in keys else ()),
                    row.player,
                    str(row.games),
                    f"{row.mean_score:.1f}",
                    f"{_format_number(row.score_low, 1)} .. {_format_number(row.score_high, 1)}",
                    wins,
                    f"{row.win_rate:.3f}",
                    f"{row.win_low:.3f} .. {row.win_high:.3f}",
                    f"{row.mean_rank:.2f}",
                ]
            )
        widths = [max(len(line[c]) for line in lines) for c in range(len(head))]
        text_columns = len(head) - 7  # the groups and the player, left-aligned
        return "\n".join(
            "  ".join(
                cell.ljust(width) if c < text_columns else cell.rjust(width)
                for c, (cell, width) in enumerate(zip(line, widths, strict=True))
            ).rstrip()
            for line in lines
        )

    def __str__(self) -> str:
        return self.format_table()

    # -- files ---------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Everything, JSON-ready: the labels, every game (its fixture, scores and counts)
        and, for convenience, :meth:`table`'s rows (not read back)."""
        scores = self.scores
        return {
            "format": FORMAT,
            "version": 1,
            "players": list(self.players),
            "maps": list(self.maps),
            "games": [
                {
                    **fixture.to_dict(),
                    "scores": scores[i].tolist(),
                    **{name: getattr(self, name)[i].tolist() for name in _COUNTS},
                }
                for i, fixture in enumerate(self.fixtures)
            ],
            "table": [row.to_row() for row in self.table()],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TournamentResult:
        try:
            if data.get("format") != FORMAT or data.get("version") != 1:
                raise ValueError(f"format {data.get('format')!r}, version {data.get('version')!r}")
            games = list(data["games"])
            return cls(
                players=tuple(str(p) for p in data["players"]),
                maps=tuple(str(m) for m in data["maps"]),
                fixtures=tuple(Fixture.from_dict(game) for game in games),
                **{name: _table_of(name, [game[name] for game in games]) for name in _COUNTS},
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            if isinstance(error, InvalidParameter):
                raise
            raise InvalidBoard(f"not an outpost tournament result ({error})") from error

    def to_json(
        self, path: str | os.PathLike[str] | None = None, *, indent: int | None = None
    ) -> str:
        """:meth:`to_dict` as JSON text, also written to ``path`` when given."""
        text = json.dumps(self.to_dict(), indent=indent)
        if path is not None:
            Path(path).write_text(text + "\n", encoding="utf-8")
        return text

    @classmethod
    def from_json(cls, text: str) -> TournamentResult:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise InvalidBoard(f"not an outpost tournament result ({error})") from error
        if not isinstance(data, Mapping):
            raise InvalidBoard("not an outpost tournament result (not a JSON object)")
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> TournamentResult:
        """A result written by :meth:`to_json` (``.json``) or :meth:`to_csv` (any other
        name)."""
        target = Path(path)
        if target.suffix.lower() == ".json":
            return cls.from_json(target.read_text(encoding="utf-8"))
        return cls.from_csv(target)

    def to_csv(self, path: str | os.PathLike[str] | None = None) -> str:
        """One row per game: ``game, map, r, L, W, T``, the flags (0/1), ``seed``, the seats'
        players ``player0..player3``, their scores ``score0..score3``, then ``land0..3``,
        ``water0..3``, ``outposts0..3``. Returns the text, also written to ``path`` when
        given."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(_CSV_HEAD)
        scores = self.scores
        for i, f in enumerate(self.fixtures):
            writer.writerow(
                [
                    f.game,
                    f.map,
                    *f.params,
                    *(int(getattr(f, flag)) for flag in _FLAGS),
                    f.seed,
                    *f.players,
                    *scores[i].tolist(),
                    *(v for name in _COUNTS for v in getattr(self, name)[i].tolist()),
                ]
            )
        text = buffer.getvalue()
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    @classmethod
    def from_csv(cls, source: str | os.PathLike[str] | io.TextIOBase) -> TournamentResult:
        """A result from :meth:`to_csv`'s file (a path or an open text file). The players and
        maps are listed in the order the games meet them first, which is the tournament's
        order for every result of :func:`tournament`."""
        if isinstance(source, io.TextIOBase):
            text = source.read()
        else:
            text = Path(source).read_text(encoding="utf-8")
        rows = list(csv.DictReader(io.StringIO(text)))
        players: dict[str, int] = {}
        maps: dict[str, int] = {}
        games: list[Fixture] = []
        counts: dict[str, list[list[int]]] = {name: [] for name in _COUNTS}
        try:
            for row in rows:
                labels = tuple(row[f"player{e}"] for e in range(EMPIRES))
                for label in labels:
                    players.setdefault(label, len(players))
                maps.setdefault(row["map"], len(maps))
                games.append(
                    Fixture(
                        game=int(row["game"]),
                        map=row["map"],
                        map_index=maps[row["map"]],
                        params=Params(*(int(row[key]) for key in Params._fields)),
                        seats=tuple(players[label] for label in labels),
                        players=labels,
                        seed=int(row["seed"]),
                        **{flag: row[flag].strip() not in ("0", "", "False") for flag in _FLAGS},
                    )
                )
                for name in _COUNTS:
                    counts[name].append([int(row[f"{name}{e}"]) for e in range(EMPIRES)])
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidBoard(f"not an outpost tournament CSV ({error!r})") from error
        return cls(
            tuple(players),
            tuple(maps),
            tuple(games),
            **{name: _table_of(name, counts[name]) for name in _COUNTS},
        )

    def plot(self, path: str | os.PathLike[str]) -> None:
        """Writes a PNG bar chart to ``path``: each player's mean score with its 95% interval
        as an error bar, one group of bars per parameter set (every map together)."""
        matplotlib()
        from matplotlib.figure import Figure

        param_sets = self.params
        rows = {(row.params, row.player): row for row in self.table("params")}
        figure = Figure(figsize=(max(6.0, 1.2 + 0.5 * len(self.players) * len(param_sets)), 4.8))
        ax = figure.add_subplot()
        width = 0.8 / len(self.players)
        centres = np.arange(len(param_sets), dtype=np.float64)
        for j, player in enumerate(self.players):
            found = [rows.get((p, player)) for p in param_sets]
            means = [row.mean_score if row else math.nan for row in found]
            errors = np.array(
                [
                    [row.mean_score - row.score_low, row.score_high - row.mean_score]
                    if row and not math.isnan(row.score_low)
                    else [0.0, 0.0]
                    for row in found
                ]
            ).T
            ax.bar(
                centres + (j - (len(self.players) - 1) / 2) * width,
                means,
                width,
                yerr=errors,
                capsize=3,
                label=player,
                color=f"C{j % 10}",
            )
        ax.set_xticks(centres)
        ax.set_xticklabels([p.label for p in param_sets])
        ax.set_ylabel("mean score (cells)")
        ax.set_title(
            f"outpost tournament: {len(self.fixtures)} games on {len(self.maps)} map(s); "
            "95% intervals"
        )
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", title="player")
        figure.savefig(path, dpi=120, format="png", bbox_inches="tight")


# -- playing ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Plan:
    """A checked tournament: what to play, and what identifies it."""

    entrants: tuple[str | Player, ...]
    labels: tuple[str, ...]
    maps: tuple[Map, ...]
    map_labels: tuple[str, ...]
    fixtures: tuple[Fixture, ...]
    builtin: tuple[bool, ...]
    setup: dict[str, Any]
    fingerprint: str
    threads: int | None
    batch: int | None
    checkpoint: Path | None


def _map_digest(board: Map) -> str:
    return hashlib.sha256(np.packbits(board.region).tobytes()).hexdigest()[:16]


def _plan(
    *,
    maps: object,
    params: object,
    players: object,
    rotations: object,
    repeats: object,
    seed: object,
    flags: dict[str, bool],
    threads: object,
    batch: object,
    checkpoint: str | os.PathLike[str] | None,
) -> _Plan:
    entries, map_labels = _map_entries(maps)
    boards = tuple(entry if isinstance(entry, Map) else parse_map(entry) for entry in entries)
    param_sets = _param_sets(params)
    entrants, labels = _entrants(players)
    checked_rotations = _rotations(rotations)
    checked_repeats = _validate.integer("repeats", repeats, 1)
    checked_seed = _validate.seed(seed)
    checked_threads = _validate.threads(threads)
    checked_batch = None if batch is None else _validate.integer("batch", batch, 1)
    if checkpoint is not None and not isinstance(checkpoint, str | os.PathLike):
        raise InvalidParameter(f"checkpoint must be a path or None, got {checkpoint!r}")
    games = _make_fixtures(
        map_labels=map_labels,
        param_sets=param_sets,
        labels=labels,
        rotations=checked_rotations,
        repeats=checked_repeats,
        seed=checked_seed,
        flags=flags,
    )
    setup: dict[str, Any] = {
        "maps": [[label, _map_digest(b)] for label, b in zip(map_labels, boards, strict=True)],
        "params": [list(p) for p in param_sets],
        "players": [
            [label, "builtin" if isinstance(p, str) else "python"]
            for label, p in zip(labels, entrants, strict=True)
        ],
        "rotations": checked_rotations,
        "repeats": checked_repeats,
        "seed": checked_seed,
        "flags": dict(flags),
        "games": len(games),
    }
    return _Plan(
        entrants=entrants,
        labels=labels,
        maps=boards,
        map_labels=map_labels,
        fixtures=tuple(games),
        builtin=tuple(all(isinstance(entrants[s], str) for s in f.seats) for f in games),
        setup=setup,
        fingerprint=hashlib.sha256(json.dumps(setup, sort_keys=True).encode()).hexdigest(),
        threads=checked_threads,
        batch=checked_batch,
        checkpoint=None if checkpoint is None else Path(checkpoint),
    )


def _differences(saved: Mapping[str, Any], setup: Mapping[str, Any]) -> str:
    keys = [key for key in setup if saved.get(key) != setup[key]]
    keys += [key for key in saved if key not in setup]
    return "; ".join(f"{key}: {saved.get(key)!r} there, {setup.get(key)!r} here" for key in keys)


def _load_checkpoint(path: Path, setup: dict[str, Any]) -> NDArray[np.uint32]:
    """The results of the games a checkpoint of this very tournament holds, ``(done, 4, 3)``
    (none when the file does not exist yet)."""
    if not path.parent.is_dir():
        raise InvalidParameter(f"checkpoint {path}: the folder {path.parent} does not exist")
    if not path.exists():
        return np.zeros((0, EMPIRES, 3), dtype=np.uint32)
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
        if saved.get("format") != CHECKPOINT_FORMAT or saved.get("version") != 1:
            raise ValueError(f"format {saved.get('format')!r}, version {saved.get('version')!r}")
        other = saved["setup"]
        results = np.array(saved["results"], dtype=np.int64).reshape(-1, EMPIRES, 3)
        if not isinstance(other, dict):
            raise TypeError("setup is not an object")
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise InvalidParameter(
            f"{path}: not an outpost tournament checkpoint ({type(error).__name__}: {error})"
        ) from error
    if other != setup:
        raise InvalidParameter(
            f"{path} is the checkpoint of another tournament ({_differences(other, setup)}): "
            "remove it or choose another file"
        )
    if len(results) > setup["games"] or results.min(initial=0) < 0:
        raise InvalidParameter(f"{path}: the checkpoint holds results it cannot hold")
    return results.astype(np.uint32)


def _save_checkpoint(path: Path, setup: dict[str, Any], results: NDArray[np.uint32]) -> None:
    """Writes the results so far (written whole, then renamed into place)."""
    record = {
        "format": CHECKPOINT_FORMAT,
        "version": 1,
        "setup": setup,
        "done": len(results),
        "results": results.reshape(len(results), -1).tolist(),
    }
    try:
        write_json(path, record)
    except OSError as error:
        raise InvalidParameter(f"cannot write the checkpoint {path}: {error}") from error


def _save_on_rank_0(
    comm: Communicator, path: Path, setup: dict[str, Any], results: NDArray[np.uint32]
) -> None:
    """Collective: rank 0 writes the checkpoint; a failure raises on every rank."""

    def save() -> None:
        if comm.rank == 0:
            _save_checkpoint(path, setup, results)

    checked_together(comm, save)


def _play_builtin(
    plan: _Plan,
    start: int,
    stop: int,
    threads: int | None,
    report: Callable[[int], None] | None,
) -> NDArray[np.uint32]:
    """Games ``start..stop-1`` (every seat built in) in one engine call: ``(n, 4, 3)``."""
    chosen = plan.fixtures[start:stop]
    games = np.array(
        [[f.map_index, *f.params, *(int(getattr(f, flag)) for flag in _FLAGS)] for f in chosen],
        dtype=np.int64,
    )
    players = [[str(plan.entrants[s]) for s in f.seats] for f in chosen]
    seeds = np.array([f.seed for f in chosen], dtype=np.uint64)
    waters = [board.water for board in plan.maps]
    return np.ascontiguousarray(
        _core.outpost.tournament(waters, games, players, seeds, threads, report)
    )


def _play_python(plan: _Plan, index: int) -> NDArray[np.uint32]:
    """Game ``index`` (a Python player in it) with :meth:`Game.run`: ``(1, 4, 3)``."""
    f = plan.fixtures[index]
    game = Game(
        plan.maps[f.map_index],
        *f.params,
        players=[plan.entrants[s] for s in f.seats],
        seed=f.seed,
        supply_fringe=f.supply_fringe,
        sequential_moves=f.sequential_moves,
        extra_turn=f.extra_turn,
    )
    result = game.run(progress=False)
    counts = np.stack([result.land, result.water, result.outposts], axis=-1)
    return counts.astype(np.uint32).reshape(1, EMPIRES, 3)


def _threads_here(comm: Communicator, plan: _Plan) -> int | None:
    """Collective: check that every rank plays the same tournament, and choose this rank's
    threads: ``threads`` if given, else its host's cores shared among the ranks there (unless
    ``STRATAGEM_NUM_THREADS`` decides)."""
    host = socket.gethostname()
    everyone = comm.allgather_object((plan.fingerprint, plan.checkpoint is not None, host))
    for rank, (fingerprint, checkpointed, _) in enumerate(everyone):
        if fingerprint != everyone[0][0]:
            raise InconsistentInput(
                f"rank {rank} was given another tournament (maps, parameters, players, "
                "rotations, repeats, seed or flags) than rank 0; every rank must pass the same "
                "arguments"
            )
        if checkpointed != everyone[0][1]:
            raise InconsistentInput(
                f"rank {rank} {'has' if checkpointed else 'has no'} checkpoint and rank 0 "
                f"{'has' if everyone[0][1] else 'has none'}; every rank must pass the same "
                "arguments"
            )
    if plan.threads is not None or os.environ.get("STRATAGEM_NUM_THREADS") is not None:
        return plan.threads
    here = sum(1 for _, _, other in everyone if other == host)
    return max(1, _core.default_threads() // here)


def _tasks(plan: _Plan, start: int, batch: int | None) -> list[tuple[int, int]]:
    """``(first, stop)`` game ranges from ``start`` on: runs of built-in games cut into
    batches of ``batch`` (whole runs for None), each game with a Python player alone."""
    tasks: list[tuple[int, int]] = []
    i, n = start, len(plan.fixtures)
    while i < n:
        if not plan.builtin[i]:
            tasks.append((i, i + 1))
            i += 1
            continue
        stop = i
        while stop < n and plan.builtin[stop] and (batch is None or stop - i < batch):
            stop += 1
        tasks.append((i, stop))
        i = stop
    return tasks


def tournament(
    maps: Sequence[Map | str | os.PathLike[str]] = TOURNAMENT_2014["maps"],
    params: Sequence[Params | Sequence[int]] | Params = TOURNAMENT_2014["params"],
    players: Sequence[str | Player] = BUILTIN_PLAYERS,
    *,
    rotations: str = "cyclic",
    repeats: int = 1,
    seed: int = 0,
    threads: int | None = None,
    comm: Communicator | None = None,
    progress: bool | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    batch: int | None = None,
    supply_fringe: bool = False,
    sequential_moves: bool = False,
    extra_turn: bool = False,
) -> TournamentResult:
    """Plays every game of :func:`fixtures` (same arguments) and returns the results.

    Games whose seats are all built-in players run in Rust over ``threads`` threads (default:
    ``STRATAGEM_NUM_THREADS``, else every core), ``batch`` games per engine call (default:
    every consecutive built-in game at once, or 8 games per thread with a ``checkpoint``);
    games with a Python player are played one by one with :meth:`Game.run
    <stratagem.outpost.game.Game.run>`. The result depends on neither ``threads`` nor
    ``batch`` nor the number of ranks. ``progress`` shows a bar on stderr (default: when
    stderr is a terminal; on rank 0 only).

    ``checkpoint``: a JSON file that receives the results so far after every task (see the
    module's docstring); when it exists already, its games are not played again, and a
    checkpoint of a tournament with other maps, parameters, players, rotations, repeats, seed
    or flags raises :class:`~stratagem.errors.InvalidParameter`. The file is left in place
    at the end (running the same tournament again reads every game from it).

    Under MPI (``comm``, default :func:`stratagem.mpi.world`, with more than one rank)
    this is collective: every rank passes the same arguments (checked: a rank with other
    ones, or with bad input, makes every rank raise) and gets the same result, equal to a
    one-process run's. The tasks (batches of at most 8 games per thread, fewer so that each
    rank gets about 4 tasks; each Python game alone) go out through the dynamic queue of
    :func:`stratagem.mpi.run_queue`, one round for the whole tournament or, with a
    ``checkpoint``, rounds of ``2 x ranks`` tasks after each of which rank 0 writes the file.
    Each rank runs ``threads`` threads (default: its host's cores shared among the ranks on
    that host).
    """
    comm = world() if comm is None else comm
    flags = _flags(supply_fringe, sequential_moves, extra_turn)
    plan = checked_together(
        comm,
        lambda: _plan(
            maps=maps,
            params=params,
            players=players,
            rotations=rotations,
            repeats=repeats,
            seed=seed,
            flags=flags,
            threads=threads,
            batch=batch,
            checkpoint=checkpoint,
        ),
    )
    threads_here = _threads_here(comm, plan) if comm.size > 1 else plan.threads
    path = plan.checkpoint
    done = checked_together(
        comm,
        lambda: (
            _load_checkpoint(path, plan.setup)
            if comm.rank == 0 and path is not None
            else np.zeros((0, EMPIRES, 3), dtype=np.uint32)
        ),
    )
    if comm.size > 1:
        done = bcast_array(done, 0, comm=comm)
    total = len(plan.fixtures)
    remaining = total - len(done)
    # Rank 0 chooses the batches (ranks may run different thread counts).
    batch_size = plan.batch
    if batch_size is None and (comm.size > 1 or path is not None):
        batch_size = 8 * _core.resolve_threads(threads_here)
        if comm.size > 1:
            batch_size = max(1, min(batch_size, math.ceil(remaining / (4 * comm.size))))
    if comm.size > 1:
        batch_size = comm.bcast_object(batch_size, 0)
    tasks = _tasks(plan, len(done), batch_size)
    per_round = len(tasks) if path is None else (1 if comm.size == 1 else 2 * comm.size)
    collected = [done]
    played = len(done)
    with Progress(
        total, "outpost tournament", enabled=progress if comm.rank == 0 else False
    ) as bar:
        bar.advance(played)

        def play(task: tuple[int, int]) -> NDArray[np.uint32]:
            start, stop = task
            if not plan.builtin[start]:
                result = _play_python(plan, start)
                bar.advance(1)
                return result
            base = bar.done

            def report(finished: int) -> None:
                bar.advance(base + finished - bar.done)

            result = _play_builtin(plan, start, stop, threads_here, report if bar.enabled else None)
            bar.advance(base + (stop - start) - bar.done)
            return result

        for first in range(0, len(tasks), max(per_round, 1)):
            chunk = tasks[first : first + per_round]
            collected.extend(run_queue(chunk, play, comm=comm))
            played = chunk[-1][1]
            if path is not None:
                so_far = np.concatenate(collected)
                collected = [so_far]
                _save_on_rank_0(comm, path, plan.setup, so_far)
            bar.advance(played - bar.done)
    results = np.concatenate(collected).astype(np.int64)
    return TournamentResult(
        players=plan.labels,
        maps=plan.map_labels,
        fixtures=plan.fixtures,
        land=results[:, :, 0],
        water=results[:, :, 1],
        outposts=results[:, :, 2],
    )
