"""outpost: the engine's speed against the pure-Python oracle (``stratagem.outpost.oracle``).

Ratio rows (:func:`cases`, engine and oracle on the same work):

- ``first turns``: the first turns of a game on the ``lakes`` map, r=7 L=12 W=3, with the four
  built-in players (spread, frontier, random, lookahead), played from the start on each call
  (unit: a turn);
- ``control map``: the control map of a late-game position (every outpost after 1,500 turns
  of the same game), from scratch (unit: a map);
- ``short tournament``: 8 games of 4 turns each on ``lakes`` on 1 and on 2 threads (unit: a
  turn): work below ``_core.outpost.SEQUENTIAL_TURNS`` turns in all runs on the calling
  thread, so 2 threads must keep the speed of 1.

Tables (:func:`tables`):

- whole 4444-turn games, one per shipped map, four built-in players, one thread (a game never
  uses more): wall time of the whole ``Game.run`` (best of ``repeats``), turns per second, and
  the most outposts on the map at once;
- tournament games per minute: the 2014 shape on two maps (4 seatings each) on 1 and 2 threads;
- the thread sweep: 8 games of T turns, T from 1 to 64, on 1 and 2 threads (best of many runs),
  which placed ``SEQUENTIAL_TURNS`` (``docs/outpost.md``, "Threads").

``--quick`` plays 300-turn games and 2-seating tournaments.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import cache

import numpy as np
from numpy.typing import NDArray

from harness import Case, Table
from stratagem import _core
from stratagem.outpost import BUILTIN_PLAYERS, Game, Map, Params, oracle, tournament

_SEED = 1
_PLAYERS = ("spread", "frontier", "random", "lookahead")


def _rust_turns(turns: int) -> int:
    Game("lakes", T=turns, players=_PLAYERS, seed=_SEED).run(progress=False)
    return turns


def _oracle_turns(turns: int) -> int:
    oracle.OracleGame(Map.named("lakes").water, T=turns, players=_PLAYERS, seed=_SEED).run()
    return turns


@cache
def _late_position() -> NDArray[np.int64]:
    game = Game("lakes", T=1500, players=_PLAYERS, seed=_SEED)
    game.run(progress=False)
    return game.outposts.astype(np.int64)


def _rust_control(repeats: int) -> int:
    water, rows = Map.named("lakes").water, _late_position()
    for _ in range(repeats):
        _core.outpost.control(water, rows, 7)
    return repeats


def _oracle_control() -> int:
    rows = [oracle.Outpost(*map(int, row)) for row in _late_position()]
    oracle.control(Map.named("lakes").water, rows, 7)
    return 1


def _rust_tournament(games: int, turns: int, threads: int) -> int:
    table = np.array([[0, 7, 12, 3, turns, 0, 0, 0]] * games, dtype=np.int64)
    players = [list(_PLAYERS)] * games
    seeds = np.arange(games, dtype=np.uint64)
    _core.outpost.tournament([Map.named("lakes").water], table, players, seeds, threads, None)
    return games * turns


def _oracle_tournament(games: int, turns: int) -> int:
    water = Map.named("lakes").water
    for seed in range(games):
        oracle.OracleGame(water, T=turns, players=_PLAYERS, seed=seed).run()
    return games * turns


def cases(quick: bool) -> list[Case]:
    turns = 5 if quick else 30
    outposts = len(_late_position())
    return [
        Case(
            f"first {turns} turns",
            "turns (lakes, r=7 L=12 W=3, four built-in players)",
            lambda: _rust_turns(turns),
            lambda: _oracle_turns(turns),
        ),
        Case(
            "control map",
            f"maps of {outposts} outposts (lakes, turn 1500)",
            lambda: _rust_control(20),
            _oracle_control,
        ),
        *(
            Case(
                "short tournament",
                "turns (8 games of 4 turns, lakes)",
                lambda threads=threads: _rust_tournament(8, 4, threads),
                lambda: _oracle_tournament(8, 4),
                threads=threads,
            )
            for threads in (1, 2)
        ),
    ]


def _whole_games(quick: bool, repeats: int) -> Table:
    turns = 300 if quick else 4444
    rows, records = [], []
    for name in Map.names():
        best = float("inf")
        for _ in range(repeats):
            game = Game(name, T=turns, players=_PLAYERS, seed=_SEED)
            started = time.perf_counter()
            result = game.run(progress=False)
            best = min(best, time.perf_counter() - started)
        most = int(game.history.outposts.sum(axis=1).max())
        winner = game.players[result.winners[0]]
        rows.append([name, f"{best:.2f} s", f"{turns / best:,.0f}", str(most), winner])
        records.append(
            {"map": name, "turns": turns, "seconds": best, "max_outposts": most, "winner": winner}
        )
    return Table(
        f"whole games: {turns} turns, r=7 L=12 W=3, {', '.join(_PLAYERS)}, one thread "
        f"(best of {repeats})",
        ["map", "time", "turns/s", "most outposts", "winner"],
        rows,
        records,
    )


def _tournaments(quick: bool) -> Table:
    turns = 300 if quick else 4444
    maps = ("lakes", "rivers")
    params = [Params(7, 12, 3, turns), Params(7, 40, 10, turns)]
    rows, records = [], []
    for threads in (1, 2):
        started = time.perf_counter()
        result = tournament(
            maps=maps, params=params, players=BUILTIN_PLAYERS, threads=threads, progress=False
        )
        seconds = time.perf_counter() - started
        per_minute = 60 * len(result) / seconds
        rows.append([str(threads), str(len(result)), f"{seconds:.1f} s", f"{per_minute:.1f}"])
        records.append({"threads": threads, "games": len(result), "seconds": seconds})
    return Table(
        f"tournament games per minute: maps {', '.join(maps)}, (L, W) in (12, 3) and (40, 10), "
        f"r=7, T={turns}, 4 seatings each",
        ["threads", "games", "time", "games/min"],
        rows,
        records,
    )


def _best_seconds(work: Callable[[], object], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


def _thread_sweep(quick: bool) -> Table:
    games, repeats = 8, 10 if quick else 40
    rows, records = [], []
    for turns in (1, 2, 4, 8, 16, 32, 64):
        one, two = (
            _best_seconds(lambda t=threads, n=turns: _rust_tournament(games, n, t), repeats)
            for threads in (1, 2)
        )
        pooled = games * turns >= _core.outpost.SEQUENTIAL_TURNS
        rows.append(
            [
                str(turns),
                str(games * turns),
                f"{one * 1e3:.3f} ms",
                f"{two * 1e3:.3f} ms",
                f"{one / two:.2f}",
                "pool" if pooled else "calling thread",
            ]
        )
        records.append({"turns": turns, "games": games, "one": one, "two": two, "pool": pooled})
    return Table(
        f"thread sweep: {games} games of T turns (lakes, four built-in players), best of "
        f"{repeats}; below {_core.outpost.SEQUENTIAL_TURNS} turns in all 2 threads run on the "
        "calling thread",
        ["T", "turns", "1 thread", "2 threads", "2 / 1 speed", "2 threads run on"],
        rows,
        records,
    )


def tables(quick: bool, min_seconds: float) -> list[Table]:
    return [_whole_games(quick, 1 if quick else 3), _tournaments(quick), _thread_sweep(quick)]
