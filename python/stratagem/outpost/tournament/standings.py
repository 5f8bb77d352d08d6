"""The results of an outpost tournament: each seat's final counts per game, and the table
of the players' standings (:mod:`stratagem.outpost.tournament.play` plays the games)."""

from __future__ import annotations

import csv
import io
import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Final

import numpy as np
from numpy.typing import ArrayLike, NDArray

from stratagem._files import JSON_LIMIT, Refusal, cannot_read, parse_json, read_text, write_text
from stratagem._plotting import matplotlib, save_figure
from stratagem.errors import InvalidBoard, InvalidParameter
from stratagem.outpost.game import EMPIRES
from stratagem.outpost.tournament.fixtures import _COUNTS, _FLAGS, _GROUPS, FORMAT, Fixture, Params
from stratagem.stats import Z95, wilson_interval

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
    ``mean_placing`` is the mean of its placings (1 + the empires with a strictly higher score).
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
    mean_placing: float
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
            (field.name, getattr(self, field.name))
            for field in fields(self)
            if field.name not in _GROUPS
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
    def placings(self) -> NDArray[np.int64]:
        """Each seat's placing, ``(games, 4)``: 1 + the seats with a strictly higher score."""
        scores = self.scores
        placings: NDArray[np.int64] = 1 + (scores[:, None, :] > scores[:, :, None]).sum(axis=2)
        return placings

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
        scores, placings, shares = self.scores, self.placings, self.win_shares
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
                        mean_placing=float(placings[picked][mine].mean()),
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
            "mean placing",
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
                    f"{row.mean_placing:.2f}",
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
            write_text(path, text + "\n")
        return text

    @classmethod
    def from_json(cls, text: str) -> TournamentResult:
        data = parse_json(
            text, lambda reason: InvalidBoard(f"not an outpost tournament result ({reason})")
        )
        if not isinstance(data, Mapping):
            raise InvalidBoard("not an outpost tournament result (not a JSON object)")
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> TournamentResult:
        """A result written by :meth:`to_json` (``.json``) or :meth:`to_csv` (any other
        name)."""
        target = Path(path)
        if target.suffix.lower() == ".json":
            return cls.from_json(read_text(target, _unreadable(target), limit=JSON_LIMIT))
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
            write_text(path, text)
        return text

    @classmethod
    def from_csv(cls, source: str | os.PathLike[str] | io.TextIOBase) -> TournamentResult:
        """A result from :meth:`to_csv`'s file (a path or an open text file). The players and
        maps are listed in the order the games meet them first, which is the tournament's
        order for every result of :func:`tournament`."""
        if isinstance(source, io.TextIOBase):
            text = source.read()
        else:
            text = read_text(source, _unreadable(source))
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
        save_figure(figure, path, dpi=120, bbox_inches="tight")


def _unreadable(path: str | os.PathLike[str]) -> Refusal:
    return cannot_read(path, "an outpost tournament result", InvalidBoard)
