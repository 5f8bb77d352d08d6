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
:class:`~stratagem.outpost.players.Player` object) are played one by one with
:meth:`Game.run <stratagem.outpost.game.Game.run>`. Consecutive built-in games form *tasks*
(batches of ``batch`` games), each game with a Python player is a task of its own. The
tasks, the checkpoint and the ranks are the shared tournament engine's
(:func:`stratagem.tournament.run`, ``docs/tournaments.md``), a game's row being each seat's
land, water and outposts: with a ``checkpoint`` file the results so far are written after
each task (each round of tasks under MPI), and a tournament started again with the same
arguments plays only the games still missing; a checkpoint of other arguments is refused.

**MPI.** Under ``mpiexec -n N`` (``comm``, by default :func:`stratagem.mpi.world`,
with more than one rank) every rank calls :func:`tournament` with the same arguments (the
same script; each rank constructs its own Python players) and the tasks are spread over the
ranks by the dynamic queue :func:`stratagem.mpi.run_queue`; the per-game results
(uint32 arrays) are gathered on every rank in fixture order, so every rank returns the
result of a one-process run. Python players must therefore answer from the state they are
shown only (no memory from one game to the next). See :func:`tournament` for the details.

**Results** (:class:`TournamentResult`): the fixtures and each seat's final score (cells),
land, water and outposts; :meth:`~TournamentResult.table` scores each player (mean score
with a 95% interval, wins shared on ties with a Wilson interval, mean placing), overall or per
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

import hashlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stratagem import _core, _validate
from stratagem.errors import InvalidParameter
from stratagem.mpi import Communicator, checked_together, world
from stratagem.outpost.game import EMPIRES, Game
from stratagem.outpost.geometry import GRID
from stratagem.outpost.map import Map, parse_map
from stratagem.outpost.players import BUILTIN_PLAYERS, Player, check_budget
from stratagem.outpost.tournament.fixtures import (
    _COUNTS,
    _FLAGS,
    PURPOSE,
    ROTATIONS,
    TOURNAMENT_2014,
    Fixture,
    Params,
    TournamentSetup,
    _Draw,
    _draw,
    _flags,
    fixtures,
)
from stratagem.outpost.tournament.standings import Standing, TournamentResult
from stratagem.progress import ProgressOption
from stratagem.tournament import Checkpoint, run

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

# -- playing ----------------------------------------------------------------------------------

_COLUMNS = tuple(f"{count}{seat}" for seat in range(EMPIRES) for count in _COUNTS)


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
    threads: int | None
    batch: int | None
    checkpoint: Checkpoint | None
    time_budget: float | None


def _map_digest(board: Map) -> str:
    return hashlib.sha256(np.packbits(board.region).tobytes()).hexdigest()[:16]


def _plan(
    draw: _Draw,
    *,
    threads: object,
    batch: object,
    checkpoint: str | os.PathLike[str] | None,
    time_budget: object = None,
) -> _Plan:
    """The tournament of ``draw`` (the checked fixtures) with its other arguments checked."""
    boards = tuple(entry if isinstance(entry, Map) else parse_map(entry) for entry in draw.maps)
    checked_threads = _validate.threads(threads)
    checked_batch = None if batch is None else _validate.integer("batch", batch, 1)
    checked_budget = check_budget(time_budget)
    if checkpoint is not None and not isinstance(checkpoint, str | os.PathLike):
        raise InvalidParameter(f"checkpoint must be a path or None, got {checkpoint!r}")
    setup: dict[str, Any] = {
        "maps": [[label, _map_digest(b)] for label, b in zip(draw.map_labels, boards, strict=True)],
        "params": [list(p) for p in draw.param_sets],
        "players": [
            [label, "builtin" if isinstance(p, str) else "python"]
            for label, p in zip(draw.labels, draw.entrants, strict=True)
        ],
        "rotations": draw.rotations,
        "repeats": draw.repeats,
        "seed": draw.seed,
        "flags": dict(draw.flags),
        "games": len(draw.games),
    }
    if checked_budget is not None:
        setup["time_budget"] = checked_budget
    saved = None
    if checkpoint is not None:
        saved = Checkpoint(Path(checkpoint), "outpost", setup, _COLUMNS, check=_check_game)
    return _Plan(
        entrants=draw.entrants,
        labels=draw.labels,
        maps=boards,
        map_labels=draw.map_labels,
        fixtures=draw.games,
        builtin=tuple(all(isinstance(draw.entrants[s], str) for s in f.seats) for f in draw.games),
        setup=setup,
        threads=checked_threads,
        batch=checked_batch,
        checkpoint=saved,
        time_budget=checked_budget,
    )


def _check_game(index: int, row: NDArray[np.int64]) -> None:
    """Refuses a saved game's final counts (land, water, outposts per seat) that cannot be:
    more cells than the grid holds."""
    if row.max() > GRID * GRID:
        counts = row.reshape(EMPIRES, len(_COUNTS)).tolist()
        raise ValueError(f"counts {counts} outside 0..{GRID * GRID}")


def _play_builtin(
    plan: _Plan, games: range, threads: int | None, report: Callable[[int], None] | None
) -> NDArray[np.uint32]:
    """The ``games`` (every seat built in) in one engine call: ``(n, 4, 3)``."""
    chosen = plan.fixtures[games.start : games.stop]
    table = np.array(
        [[f.map_index, *f.params, *(int(getattr(f, flag)) for flag in _FLAGS)] for f in chosen],
        dtype=np.int64,
    )
    players = [[str(plan.entrants[s]) for s in f.seats] for f in chosen]
    seeds = np.array([f.seed for f in chosen], dtype=np.uint64)
    waters = [board.water for board in plan.maps]
    return np.ascontiguousarray(
        _core.outpost.tournament(waters, table, players, seeds, threads, report)
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
        time_budget=plan.time_budget,
    )
    result = game.run(progress=False)
    counts = np.stack([result.land, result.water, result.outposts], axis=-1)
    return counts.astype(np.uint32).reshape(1, EMPIRES, 3)


def _play(
    plan: _Plan, games: range, threads: int | None, report: Callable[[int], None] | None
) -> NDArray[np.uint32]:
    """A task of the engine: one game with a Python player, or a run of built-in games."""
    if plan.builtin[games.start]:
        return _play_builtin(plan, games, threads, report)
    return _play_python(plan, games.start)


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
    progress: ProgressOption = None,
    checkpoint: str | os.PathLike[str] | None = None,
    batch: int | None = None,
    supply_fringe: bool = False,
    sequential_moves: bool = False,
    extra_turn: bool = False,
    time_budget: float | None = None,
) -> TournamentResult:
    """Plays every game of :func:`fixtures` (same arguments) and returns the results.

    Games whose seats are all built-in players run in Rust over ``threads`` threads (default:
    ``STRATAGEM_NUM_THREADS``, else every core), ``batch`` games per engine call (default:
    every consecutive built-in game at once, or 8 games per thread with a ``checkpoint``);
    games with a Python player are played one by one with :meth:`Game.run
    <stratagem.outpost.game.Game.run>`. The result depends on neither ``threads`` nor
    ``batch`` nor the number of ranks. ``time_budget`` (seconds per turn) holds every Python
    player to its budget as in :class:`~stratagem.outpost.game.Game`, on every rank.
    ``progress`` shows a bar on stderr (default: when stderr is a terminal; on rank 0 only).

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
            _draw(
                maps, params, players, rotations=rotations, repeats=repeats, seed=seed, flags=flags
            ),
            threads=threads,
            batch=batch,
            checkpoint=checkpoint,
            time_budget=time_budget,
        ),
    )
    table = run(
        len(plan.fixtures),
        lambda games, threads, report: _play(plan, games, threads, report),
        columns=len(_COLUMNS),
        checkpoint=plan.checkpoint,
        setup=plan.setup,
        comm=comm,
        threads=plan.threads,
        batch=plan.batch,
        alone=lambda index: not plan.builtin[index],
        progress=progress,
        label="outpost tournament",
    )
    results = table.reshape(-1, EMPIRES, len(_COUNTS))
    return TournamentResult(
        players=plan.labels,
        maps=plan.map_labels,
        fixtures=plan.fixtures,
        land=results[:, :, 0],
        water=results[:, :, 1],
        outposts=results[:, :, 2],
    )
