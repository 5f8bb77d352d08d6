"""annexation throughput: playouts and MCTS simulations from the first position, Rust engine
against the pure-Python oracle (``stratagem.annexation.oracle``), and the OpenSpiel
comparison (``openspiel_comparison.py``, when it can be imported).

Boards: ``Board.hexagon(R, seed=1)`` with R = 8 (217 cells), R = 18 (1,027 cells) and R = 30
(2,791 cells), and ``Board.voronoi(1000, seed=1)``, 8 colours, two players, flood mode, the
default move limit (four moves per cell); games start from the first position with seed 1.
Both paths play the same playouts (playout ``i`` reads its own stream whatever the path), the
oracle only fewer of them:

- ``random``: uniformly random legal colours to the end of the game (unit: a playout);
- ``light``: the seed's GPU shortcut, a random colour each step, legal or not, up to the move
  limit, stopping once every cell is owned (unit: a playout);
- ``mcts``: one ``choose`` of a fresh UCT agent on the first position of hex:8 (unit: an
  iteration, that is a selection, an expansion, one greedy-biased playout and the backup;
  ``AI.last_iterations`` on the engine), 2,000 iterations per call on the engine; ``2
  trees`` is root parallelism, the two trees shared out over two threads.

Boards, games and the oracle's games are built before any timing.

The table after the cases checks issue 22's targets (random playouts with two threads: 2,000,000/s
on hex:8 and 350,000/s on hex:18) the way the issue states them, ``playouts(Game(Board.hexagon(R,
seed=1), seed=1), n, threads=T)``: the best of 5 calls in wall time, and the playouts per second
of CPU time the process used (on a machine shared with other work, wall time counts the time
the threads waited for a core; CPU time does not, so T threads of a quiet machine give about T
times the one-thread CPU figure).
"""

from __future__ import annotations

import os
import sys
import time
from functools import cache

from harness import Case, Table
from stratagem.annexation import AI, Board, Game, oracle, playouts

_SEED = 1
_COLOURS = 8


@cache
def _board(spec: str) -> Board:
    """``hex:R`` or ``voronoi:N``."""
    kind, _, size = spec.partition(":")
    make = Board.hexagon if kind == "hex" else Board.voronoi
    return make(int(size), colour_count=_COLOURS, seed=_SEED)


@cache
def _game(spec: str) -> Game:
    return Game(_board(spec), _SEED)


@cache
def _oracle_game(spec: str) -> oracle.Game:
    return oracle.Game(_board(spec), _SEED)


def _rust_playouts(spec: str, policy: str, n: int, threads: int) -> int:
    playouts(_game(spec), n, policy=policy, threads=threads)
    return n


def _oracle_playouts(spec: str, policy: str, n: int) -> int:
    oracle.playouts(_oracle_game(spec), n, policy=policy)
    return n


def _rust_mcts(iterations: int, trees: int, threads: int) -> int:
    agent = AI("mcts", seed=_SEED, threads=threads, iterations=iterations, trees=trees)
    agent.choose(_game("hex:8"))
    return agent.last_iterations


def _oracle_mcts(iterations: int, trees: int) -> int:
    oracle.Mcts(iterations, trees=trees, seed=_SEED).choose(_oracle_game("hex:8"))
    return iterations * trees


def _openspiel(quick: bool) -> list[Case]:
    try:
        from openspiel_comparison import cases as openspiel_cases
    except ImportError as error:
        print(f"bench annexation: OpenSpiel comparison skipped ({error})", file=sys.stderr)
        return []
    return list(openspiel_cases(quick))


def cases(quick: bool) -> list[Case]:
    # Playouts per timed call: (engine, oracle).
    counts = {
        ("random", "hex:8"): (2_000, 5) if quick else (100_000, 100),
        ("random", "hex:18"): (500, 2) if quick else (20_000, 20),
        ("random", "hex:30"): (100, 1) if quick else (5_000, 4),
        ("random", "voronoi:1000"): (500, 2) if quick else (20_000, 20),
        ("light", "hex:8"): (2_000, 5) if quick else (100_000, 100),
        ("light", "hex:18"): (500, 2) if quick else (20_000, 20),
    }
    result: list[Case] = []
    for (policy, spec), (n, oracle_n) in counts.items():
        _game(spec)
        _oracle_game(spec)
        for threads in (1, 2):
            result.append(
                Case(
                    f"{policy} {spec}",
                    f"playouts of {_board(spec).cells:,} cells",
                    lambda b=spec, p=policy, k=n, t=threads: _rust_playouts(b, p, k, t),
                    lambda b=spec, p=policy, k=oracle_n: _oracle_playouts(b, p, k),
                    threads,
                )
            )
    iterations, oracle_iterations = (200, 5) if quick else (2_000, 40)
    for trees, threads in ((1, 1), (2, 2)):
        label = "mcts hex:8" if trees == 1 else "mcts hex:8, 2 trees"
        result.append(
            Case(
                label,
                f"MCTS iterations, {iterations:,} per tree and call",
                lambda k=iterations, m=trees, t=threads: _rust_mcts(k, m, t),
                lambda k=oracle_iterations, m=trees: _oracle_mcts(k, m),
                threads,
            )
        )
    return result + _openspiel(quick)


# Issue 22's targets: random playouts per second with two threads.
_TARGETS = {8: 2_000_000, 18: 350_000}


def _target_rates(radius: int, threads: int, n: int) -> tuple[float, float]:
    """(best wall-time rate, best CPU-time rate) of 5 calls of ``n`` random playouts."""
    game = Game(Board.hexagon(radius, seed=_SEED), seed=_SEED)
    playouts(game, n // 10, threads=threads)
    wall, cpu = 0.0, 0.0
    for _ in range(5):
        started, used = time.perf_counter(), time.process_time()
        playouts(game, n, threads=threads)
        wall = max(wall, n / (time.perf_counter() - started))
        cpu = max(cpu, n / (time.process_time() - used))
    return wall, cpu


def tables(quick: bool, min_seconds: float) -> list[Table]:
    rows, records = [], []
    for radius, n in ((8, 20_000 if quick else 400_000), (18, 4_000 if quick else 80_000)):
        for threads in (1, 2):
            wall, cpu = _target_rates(radius, threads, n)
            target = _TARGETS[radius] if threads == 2 else None
            rows.append(
                [
                    f"hex:{radius}",
                    str(threads),
                    f"{wall:,.0f}",
                    f"{cpu:,.0f}",
                    f"{target:,}" if target else "",
                ]
            )
            records.append(
                {
                    "board": f"hex:{radius}",
                    "threads": threads,
                    "wall_per_second": wall,
                    "cpu_per_second": cpu,
                    "target": target,
                }
            )
    return [
        Table(
            "annexation random playouts, the playout targets' measure (best of 5 calls)",
            ["board", "threads", "wall /s", "per CPU-second", "target /s"],
            rows,
            records,
            notes=[f"load average over the last minute at the end: {os.getloadavg()[0]:.2f}"],
        )
    ]
