"""conquest throughput: whole turns of four-team games (placement by the built-in policies,
battles, occupation, recruitment), Rust engine against the pure-Python oracle.

Every case plays the same game from its start on both paths: seed 1, four teams with the
policies aggressive, balanced, opportunist and random, 10 troops per territory. Grids and
random geometric graphs start from four compact regions (``assign_regions``); complete graphs
and stars start from a random deal (``assign_random``), because regions grown by
breadth-first search there give one team all but a few territories.

The unit is a turn. Each case's unit text also gives the battles per turn of the Rust
workload: borders between two teams where at least one side attacks, counted once from the
placements of the same game (outside the timing), so battles per second is turns per second
times that figure. On the million-territory boards the oracle plays the first turn only (a
turn takes it some 10 s); the 30x30 grid has both paths play the same 50 turns. Boards, starts
and the oracle's checked board are built once, before any timing; the Rust timing includes
setting up the game from the start arrays (a few milliseconds, under 5% of a call).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import cache

import numpy as np
from numpy.typing import NDArray

from harness import Case
from stratagem import _core
from stratagem.conquest.board import Board, assign_random, assign_regions, troops_uniform
from stratagem.conquest.game import Game
from stratagem.conquest.oracle import OracleGame

# The benchmark game, which conquest_mpi_scaling.py plays too.
POLICIES = ("aggressive", "balanced", "opportunist", "random")
SEED = 1
TROOPS = 10


@dataclass(frozen=True)
class _Workload:
    name: str
    spec: str
    regions: bool
    turns: int  # turns per timed call on the Rust path
    oracle_turns: int  # turns per timed call on the oracle


@dataclass(frozen=True)
class Start:
    """A board and the benchmark game's first position on it."""

    board: Board
    team: NDArray[np.int64]
    troops: NDArray[np.int64]


@cache
def benchmark_start(spec: str, regions: bool) -> Start:
    """The board ``spec`` dealt to the four teams in regions (``regions``) or at random."""
    board = Board.from_spec(spec)
    team = (assign_regions if regions else assign_random)(board, len(POLICIES), SEED)
    return Start(board, team, troops_uniform(board, TROOPS))


def _game(start: Start, threads: int | None) -> Game:
    return Game(
        start.board,
        start.team,
        start.troops,
        POLICIES,
        seed=SEED,
        max_turns=None,
        threads=threads,
    )


@cache
def _battles_per_turn(spec: str, regions: bool, turns: int) -> float:
    """Mean battles per turn over the first ``turns`` turns of the benchmark game."""
    start = benchmark_start(spec, regions)
    board = start.board
    source = np.repeat(np.arange(board.n, dtype=np.int64), np.diff(board.indptr))
    target = board.indices
    # CSR rows are sorted, so the keys source * n + target are sorted and the opposite
    # direction of each edge is found by binary search.
    reverse = np.searchsorted(source * board.n + target, target * board.n + source)
    game = _game(start, None)
    battles = 0
    while game.turn < turns and not game.finished:
        placement = game.placement()
        owner = game.team
        attacks = placement > 0
        contested = (owner[source] != owner[target]) & (attacks | attacks[reverse])
        battles += int(np.count_nonzero(contested & (source < target)))
        game.step()
    return battles / game.turn


@cache
def _oracle_start(spec: str, regions: bool) -> OracleGame:
    start = benchmark_start(spec, regions)
    return OracleGame(
        start.board.indptr, start.board.indices, start.team, start.troops, POLICIES, SEED
    )


def _rust(work: _Workload, threads: int) -> int:
    game = _game(benchmark_start(work.spec, work.regions), threads)
    game.run(work.turns, progress=False)
    return game.turn


def _oracle(work: _Workload) -> int:
    # A shallow copy shares the checked board (read only); the state lists are copied.
    game = copy.copy(_oracle_start(work.spec, work.regions))
    game.team, game.troops = list(game.team), list(game.troops)
    played = 0
    while played < work.oracle_turns and game.step():
        played += 1
    return played


def _workloads(quick: bool) -> list[_Workload]:
    if quick:
        big = [
            _Workload("grid 100x100", "grid:100x100", True, 10, 1),
            _Workload("rgg 10k, degree 8", "rgg:10000", True, 5, 1),
            _Workload("complete K_200", "complete:200", False, 10, 1),
            _Workload("star 10k", "star:10000", False, 10, 1),
        ]
    else:
        big = [
            _Workload("grid 1000x1000", "grid:1000x1000", True, 10, 1),
            _Workload("rgg 1M, degree 8", "rgg:1000000", True, 5, 1),
            _Workload("complete K_2000", "complete:2000", False, 10, 1),
            _Workload("star 1M", "star:1000000", False, 10, 1),
        ]
    same = 10 if quick else 50
    return [_Workload("grid 30x30, same turns", "grid:30x30", True, same, same), *big]


def cases(quick: bool) -> list[Case]:
    result: list[Case] = []
    for work in _workloads(quick):
        # Everything is built here, before the runner times anything: the board, the engine's
        # checked board (cached on the board by the first game, the one counting battles)
        # and the oracle's.
        per_turn = _battles_per_turn(work.spec, work.regions, work.turns)
        _oracle_start(work.spec, work.regions)
        oracle_note = "" if work.oracle_turns == work.turns else ", oracle: turn 1 only"
        unit = f"turns, {per_turn:,.0f} battles/turn{oracle_note}"
        for threads in sorted({1, 2, _core.default_threads()}):
            result.append(
                Case(
                    work.name,
                    unit,
                    lambda w=work, t=threads: _rust(w, t),
                    lambda w=work: _oracle(w),
                    threads,
                )
            )
    return result
