"""An outpost game: four empires, the turns, the history and the result
(``docs/outpost-rules.md``).

Its players (built-in names or Python objects) and what they see are
:mod:`stratagem.outpost.players`.

>>> game = Game("lakes", T=30, players=("spread", "frontier", "random", "lookahead"), seed=1)
>>> game.run().scores.shape
(4,)
>>> game.turn, game.finished
(30, True)
>>> game.history.land.shape
(31, 4)
"""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from stratagem import _core, _validate
from stratagem._files import cannot_read, read_json, write_json
from stratagem.errors import InvalidBoard, InvalidParameter
from stratagem.outpost.budget import PlayerTimeout, call_within
from stratagem.outpost.map import DEFAULT_MAP, Map, MapWarning, parse_map
from stratagem.outpost.players import (
    Player,
    State,
    _parse_disband,
    _parse_moves,
    _player_name,
    _Refused,
    _seat,
    check_budget,
)
from stratagem.progress import Progress, ProgressOption

__all__ = ["EMPIRES", "HOMES", "Game", "History", "LogEntry", "Result"]

EMPIRES = 4
HOMES = ((0, 0), (99, 0), (99, 99), (0, 99))
"""Home cell ``(x, y)`` of empires 0-3."""

NEUTRAL = -1
DISPUTED = -2
FORMAT = "stratagem.outpost.game"

_NO_ANSWER: list[NDArray[np.uint8] | None] = [None] * EMPIRES


def _readonly(array: NDArray[Any]) -> NDArray[Any]:
    array.flags.writeable = False
    return array


class LogEntry(NamedTuple):
    """One event: ``kind`` is ``build``, ``disband``, ``illegal``, ``cut`` or ``player``;
    ``outpost`` is the outpost's id (-1 for a player's failure)."""

    turn: int
    empire: int
    kind: str
    outpost: int
    message: str


@dataclass(frozen=True)
class History:
    """Land cells, water cells and outposts of each empire after each turn: int64 arrays of
    shape ``(turns + 1, 4)``, row 0 the start."""

    land: NDArray[np.int64]
    water: NDArray[np.int64]
    outposts: NDArray[np.int64]

    @property
    def cells(self) -> NDArray[np.int64]:
        """Land + water: the score each empire would have after each turn."""
        return self.land + self.water


@dataclass(frozen=True)
class Result:
    """Scores (cells controlled), ranks (1 + empires with a higher score) and winners."""

    turn: int
    finished: bool
    scores: NDArray[np.int64]
    land: NDArray[np.int64]
    water: NDArray[np.int64]
    outposts: NDArray[np.int64]
    players: tuple[str, ...]

    @property
    def placings(self) -> NDArray[np.int64]:
        """Each empire's placing: 1 + the empires with a strictly higher score (ties share a
        placing)."""
        return np.array([1 + int(np.sum(self.scores > s)) for s in self.scores], dtype=np.int64)

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(int(e) for e in np.flatnonzero(self.scores == self.scores.max()))

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "finished": self.finished,
            "players": list(self.players),
            "scores": self.scores.tolist(),
            "land": self.land.tolist(),
            "water": self.water.tolist(),
            "outposts": self.outposts.tolist(),
            "placings": self.placings.tolist(),
            "winners": list(self.winners),
        }


def _map(value: Map | str) -> Map:
    if isinstance(value, Map):
        return value
    if isinstance(value, str):
        return parse_map(value)
    raise InvalidParameter(f"map must be a Map or a map name, got {type(value).__name__}")


class Game:
    """A game of outpost on ``map`` (a :class:`Map` or a name, see :func:`parse_map`) with
    radius ``r``, ``L`` land and ``W`` water cells per extra outpost, ``T`` turns, four
    ``players`` (built-in names or :class:`Player` objects, empire 0 first) and a ``seed``.
    ``supply_fringe``, ``sequential_moves`` and ``extra_turn`` switch on the 2014 simulator's
    behaviours; ``time_budget`` (seconds) limits each Python player's time per turn.
    ``max_turns`` is ``T`` by the game-length keyword every stratagem game takes."""

    def __init__(  # noqa: PLR0917 (the rules' order: Game(map, r, L, W, T, players, seed))
        self,
        map: Map | str = DEFAULT_MAP,
        r: int = 7,
        L: int = 12,  # noqa: N803 (the rules' names)
        W: int = 3,  # noqa: N803
        T: int = 4444,  # noqa: N803
        players: Sequence[str | Player] = ("spread", "frontier", "random", "lookahead"),
        seed: int = 0,
        *,
        supply_fringe: bool = False,
        sequential_moves: bool = False,
        extra_turn: bool = False,
        time_budget: float | None = None,
        max_turns: int | None = None,
    ) -> None:
        if max_turns is not None:
            # The game-length keyword every stratagem game takes; T is the rules' name.
            if T not in (4444, max_turns):
                raise InvalidParameter(f"T={T} and max_turns={max_turns} are the same length")
            T = max_turns  # noqa: N806
        self._map = _map(map)
        seats = self._check_players(players)
        params = self._check_params(r, L, W, T, time_budget)
        self._seed = _validate.seed(seed)
        self._flags = {
            "supply_fringe": bool(supply_fringe),
            "sequential_moves": bool(sequential_moves),
            "extra_turn": bool(extra_turn),
        }
        self._core = _core.outpost.Game(
            self._map.water,
            params["r"],
            params["L"],
            params["W"],
            params["T"],
            [p if isinstance(p, str) else None for p in seats],
            self._seed,
            **self._flags,
        )
        self._params = params
        self._players = seats
        self._time_budget = time_budget
        self._log: list[LogEntry] = []

    @staticmethod
    def _check_players(players: Sequence[str | Player]) -> tuple[str | Player, ...]:
        if isinstance(players, str):
            players = players.split(",")
        players = tuple(players)
        if len(players) != EMPIRES:
            raise InvalidParameter(f"players must name 4 players, got {len(players)}")
        return tuple(_seat(p, e) for e, p in enumerate(players))

    @staticmethod
    def _check_params(
        r: int, land: int, water: int, turns: int, time_budget: float | None
    ) -> dict[str, int]:
        check_budget(time_budget)
        return {
            "r": _validate.integer("r", r, 0, 198),
            "L": _validate.integer("L", land, 1, 10_000),
            "W": _validate.integer("W", water, 1, 10_000),
            "T": _validate.integer("T", turns, 0, 1_000_000),
        }

    # --- what the game is -------------------------------------------------------------------

    @property
    def map(self) -> Map:
        return self._map

    @property
    def r(self) -> int:
        return self._params["r"]

    @property
    def L(self) -> int:  # noqa: N802 (the rules' name)
        return self._params["L"]

    @property
    def W(self) -> int:  # noqa: N802
        return self._params["W"]

    @property
    def T(self) -> int:  # noqa: N802
        return self._params["T"]

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def flags(self) -> dict[str, bool]:
        return dict(self._flags)

    @property
    def players(self) -> tuple[str, ...]:
        """Each seat's player: its built-in name or its class name."""
        return tuple(_player_name(p) for p in self._players)

    @property
    def time_budget(self) -> float | None:
        return self._time_budget

    # --- where it stands --------------------------------------------------------------------

    @property
    def turn(self) -> int:
        """Turns played."""
        return int(self._core.turn)

    @property
    def last_turn(self) -> int:
        """``T``, or ``T + 1`` with ``extra_turn``."""
        return int(self._core.last_turn)

    @property
    def finished(self) -> bool:
        return bool(self._core.finished)

    @property
    def control(self) -> NDArray[np.int8]:
        """int8 ``(100, 100)`` ``[y, x]``: the empire holding each cell, -1 neutral, -2
        disputed."""
        return _readonly(self._core.control())

    @property
    def outposts(self) -> NDArray[np.int32]:
        """int32 rows ``[id, empire, x, y]``, in increasing id."""
        return _readonly(self._core.outposts())

    @property
    def next_id(self) -> int:
        return int(self._core.next_id)

    def state(self, empire: int = -1) -> State:
        """What a player of ``empire`` would see now (``turn`` is the next turn's number);
        ``-1``: nobody in particular."""
        empire = _validate.integer("empire", empire, -1, EMPIRES - 1)
        return State(
            map=self._map,
            r=self.r,
            L=self.L,
            W=self.W,
            T=self.T,
            turn=self.turn + (0 if self._core.in_turn else 1),
            empire=empire,
            control=self.control,
            outposts=self.outposts,
        )

    @property
    def history(self) -> History:
        rows = self._core.history().astype(np.int64)
        return History(
            land=_readonly(rows[:, :, 0].copy()),
            water=_readonly(rows[:, :, 1].copy()),
            outposts=_readonly(rows[:, :, 2].copy()),
        )

    @property
    def log(self) -> tuple[LogEntry, ...]:
        return tuple(self._log)

    @property
    def result(self) -> Result:
        """Scores and ranks now (final once ``finished``)."""
        last = self._core.history()[-1].astype(np.int64)
        return Result(
            turn=self.turn,
            finished=self.finished,
            scores=last[:, 0] + last[:, 1],
            land=last[:, 0],
            water=last[:, 1],
            outposts=last[:, 2],
            players=self.players,
        )

    # --- playing ----------------------------------------------------------------------------

    def _all_builtin(self) -> bool:
        return all(isinstance(p, str) for p in self._players)

    def step(self) -> None:
        """Plays one turn; refused once the game is over."""
        if self.finished:
            raise InvalidParameter(f"the game is over: it ended after turn {self.last_turn}")
        if self._all_builtin():
            self._core.run(1)
            self._log.extend(LogEntry(*event) for event in self._core.take_log())
            return
        entries: list[LogEntry] = []
        try:
            self._step_with_python_players(entries)
        except BaseException:
            self._core.abort_turn()
            self._core.take_log()
            raise
        self._log.extend(entries)

    def _step_with_python_players(self, entries: list[LogEntry]) -> None:
        turn = self.turn + 1
        spent = [0.0] * EMPIRES
        demands = self._core.season_demands()
        disbands: list[int | None] = [None] * EMPIRES
        for empire, player in enumerate(self._players):
            if isinstance(player, str) or demands[empire] != 2:
                continue
            disbands[empire] = self._ask(
                player,
                "disband",
                empire,
                turn=turn,
                spent=spent,
                entries=entries,
                parse=_parse_disband,
            )
        self._core.begin_turn(disbands)
        entries.extend(LogEntry(*event) for event in self._core.take_log())
        groups = (
            [[e] for e in range(EMPIRES)]
            if self._flags["sequential_moves"]
            else [list(range(EMPIRES))]
        )
        for group in groups:
            answers = list(_NO_ANSWER)
            for empire in group:
                player = self._players[empire]
                if not isinstance(player, str):
                    answers[empire] = self._ask(
                        player,
                        "move",
                        empire,
                        turn=turn,
                        spent=spent,
                        entries=entries,
                        parse=_parse_moves,
                    )
            self._core.apply_moves(group, answers)
            entries.extend(LogEntry(*event) for event in self._core.take_log())
        self._core.end_turn()
        entries.extend(LogEntry(*event) for event in self._core.take_log())

    def _ask(
        self,
        player: Player,
        question: str,
        empire: int,
        *,
        turn: int,
        spent: list[float],
        entries: list[LogEntry],
        parse: Callable[[object, Sequence[int]], Any],
    ) -> Any:
        """A Python player's checked answer, or None (logged) when it cannot be used."""
        state = self.state(empire)
        own_ids = [int(i) for i in state.mine()[:, 0]]
        budget = self._time_budget
        started = time.perf_counter()
        try:
            ask = getattr(player, question)
            if budget is None:
                answer = ask(state)
            else:
                answer = call_within(budget - spent[empire], lambda: ask(state))
            spent[empire] += time.perf_counter() - started
            if budget is not None and spent[empire] > budget:
                raise _Refused(
                    f"took {spent[empire]:.3f} s this turn, over the budget of {budget:g} s"
                )
            return parse(answer, own_ids)
        except (Exception, PlayerTimeout) as error:  # a player's bug must not stop the game
            if isinstance(error, PlayerTimeout):
                spent[empire] += time.perf_counter() - started
                reason = (
                    f"was cut off after {spent[empire]:.3f} s this turn, at the budget of "
                    f"{budget:g} s"
                )
            elif isinstance(error, _Refused):
                reason = str(error)
            else:
                reason = f"raised {type(error).__name__}: {error}"
            lost = "its outposts stay" if question == "move" else "its newest outpost goes"
            entries.append(
                LogEntry(
                    turn,
                    empire,
                    "player",
                    -1,
                    f"player {_player_name(player)} ({question}) {reason}; {lost}",
                )
            )
            return None

    def run(
        self,
        turns: int | None = None,
        *,
        progress: ProgressOption = None,
        checkpoint: str | os.PathLike[str] | None = None,
        checkpoint_every: int | None = None,
    ) -> Result:
        """Plays ``turns`` more turns (default: to the end) and returns the result. With only
        built-in players each stretch is one engine call (Ctrl-C stops it between turns). With
        ``checkpoint`` the game is saved there at the turns divisible by ``checkpoint_every``
        and when the run ends; a game loaded from it goes on exactly as this one would."""
        remaining = self.last_turn - self.turn
        count = remaining if turns is None else min(_validate.integer("turns", turns, 0), remaining)
        every = _validate.checkpoint_every(checkpoint, checkpoint_every)
        start = self.turn
        title = f"outpost turns {start + 1}..{self.last_turn}"
        with Progress(count, title, enabled=progress) as bar:
            while (left := count - (self.turn - start)) > 0:
                stretch = left if every is None else min(left, every - self.turn % every)
                self._play(stretch, bar, self.turn - start)
                if checkpoint is not None and every is not None and self.turn % every == 0:
                    self.save(checkpoint)
            if checkpoint is not None:
                self.save(checkpoint)
        return self.result

    def _play(self, turns: int, bar: Progress, done: int) -> None:
        """Plays ``turns`` turns, the bar counting on from ``done``."""
        start = self.turn
        if self._all_builtin():
            try:
                self._core.run(turns, lambda played: bar.reach(done + played))
            finally:
                self._log.extend(LogEntry(*event) for event in self._core.take_log())
        else:
            for _ in range(turns):
                self.step()
                bar.advance()
        bar.reach(done + self.turn - start)

    # --- saving -----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Everything needed to continue the game (Python players by class name only)."""
        return {
            "format": FORMAT,
            "version": 1,
            "map": {"name": self._map.name, "water": self._map.water_cells.tolist()},
            "params": dict(self._params),
            "flags": dict(self._flags),
            "players": [p if isinstance(p, str) else None for p in self._players],
            "player_names": list(self.players),
            "time_budget": self._time_budget,
            "seed": self._seed,
            "turn": self.turn,
            "next_id": self.next_id,
            "outposts": self.outposts.tolist(),
            "history": self._core.history().reshape(-1, 3 * EMPIRES).tolist(),
            "log": [list(entry) for entry in self._log],
        }

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the game as JSON to ``path`` (written whole, then renamed into place)."""
        write_json(path, self.to_dict())

    @classmethod
    def load(
        cls,
        path: str | os.PathLike[str],
        *,
        players: Mapping[int, Player] | Sequence[str | Player] | None = None,
    ) -> Game:
        """A saved game, continuing exactly where it stopped. Seats that a Python player held
        need ``players`` (a mapping seat -> player, or all four seats)."""
        data = read_json(path, cannot_read(path, "a saved outpost game", InvalidBoard))
        return cls.from_dict(data, players=players, source=str(path))

    @classmethod
    def from_dict(
        cls,
        data: Mapping[str, Any],
        *,
        players: Mapping[int, Player] | Sequence[str | Player] | None = None,
        source: str = "saved game",
    ) -> Game:
        """A game from :meth:`to_dict`'s form. A broken save raises ``InvalidBoard`` naming
        ``source``; a bad ``players`` argument raises ``InvalidParameter``."""
        try:
            if not isinstance(data, Mapping) or data.get("format") != FORMAT:
                raise InvalidBoard(f"{source}: not a saved outpost game (format {FORMAT!r})")
            if data.get("version") != 1:
                raise InvalidBoard(
                    f"{source}: saved game version {data.get('version')!r}; this version reads 1"
                )
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", MapWarning)
                board = Map.from_cells(
                    np.array(data["map"]["water"], dtype=np.int64).reshape(-1, 2),
                    name=str(data["map"]["name"]),
                    lenient=True,
                )
            saved_seats = [None if p is None else str(p) for p in data["players"]]
            params = data["params"]
            checked = cls._check_params(
                params["r"], params["L"], params["W"], params["T"], data.get("time_budget")
            )
            flags = {
                k: bool(data["flags"][k])
                for k in ("supply_fringe", "sequential_moves", "extra_turn")
            }
            seed = _validate.seed(data["seed"])
            turn, next_id = int(data["turn"]), int(data["next_id"])
            outposts = np.array(data["outposts"], dtype=np.int64).reshape(-1, 4)
            history = np.array(data["history"], dtype=np.uint32).reshape(-1, 3 * EMPIRES)
            log = [LogEntry(*entry) for entry in data["log"]]
        except InvalidBoard:
            raise
        except (KeyError, TypeError, ValueError, OverflowError, AttributeError) as error:
            raise InvalidBoard(f"{source}: {type(error).__name__}: {error}") from error
        seats = cls._check_players(cls._seats_for_load(saved_seats, players, source))
        try:
            engine = _core.outpost.Game(
                board.water,
                checked["r"],
                checked["L"],
                checked["W"],
                checked["T"],
                [p if isinstance(p, str) else None for p in seats],
                seed,
                **flags,
            )
            engine.resume(turn, outposts, next_id, history)
        except (ValueError, OverflowError) as error:
            raise InvalidBoard(f"{source}: {error}") from error
        game = cls.__new__(cls)
        game._map = board
        game._players = seats
        game._params = checked
        game._seed = seed
        game._flags = flags
        game._time_budget = data.get("time_budget")
        game._core = engine
        game._log = log
        return game

    @staticmethod
    def _seats_for_load(
        saved: list[str | None],
        players: Mapping[int, Player] | Sequence[str | Player] | None,
        source: str,
    ) -> list[str | Player]:
        """The saved seats with the Python players given back; a built-in seat stays as saved."""
        if players is None:
            given: dict[int, str | Player] = {}
        elif isinstance(players, Mapping):
            given = dict(players)
        else:
            given = dict(enumerate(players))
        for seat, player in given.items():
            if not (isinstance(seat, int) and 0 <= seat < EMPIRES):
                raise InvalidParameter(f"players: seat {seat!r} is not 0..3")
            if saved[seat] is not None and player != saved[seat]:
                raise InvalidParameter(
                    f"players: seat {seat} was the built-in player {saved[seat]!r} in "
                    f"{source}; it cannot be replaced"
                )
        seats: list[str | Player] = []
        for empire, name in enumerate(saved):
            if name is not None:
                seats.append(name)
            elif empire in given:
                seats.append(given[empire])
            else:
                raise InvalidParameter(
                    f"{source}: seat {empire} was a Python player; pass it back with "
                    f"players={{{empire}: player}}"
                )
        return seats

    def __repr__(self) -> str:
        return (
            f"Game(map={self._map.name!r}, r={self.r}, L={self.L}, W={self.W}, T={self.T}, "
            f"players={self.players!r}, seed={self._seed}, turn={self.turn})"
        )
