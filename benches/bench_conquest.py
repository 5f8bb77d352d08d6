"""conquest throughput: whole turns of four-team games (placement by the built-in policies,
battles, occupation, recruitment), Rust engine against the pure-Python oracle.

Every case plays the same game from its start on both paths: seed 1, four teams with the
policies aggressive, balanced, opportunist and random, 10 troops per territory. Grids and
random geometric graphs start from four compact regions (``assign_regions``); complete graphs
and stars start from a random deal (``assign_random``), because regions grown by
breadth-first search there give one team all but a few territories.

The unit is a turn, and both paths play the same turns: the first turn of the game on the
larger boards (where a turn takes the oracle 0.2-0.5 s on 10,000 territories and some 10 s on
a million), the first 10 (50 without ``--quick``) on the 30x30 grid. Each case's unit text
also gives the battles per turn: borders between two teams where at least one side attacks,
counted once from the placements of the same game (outside the timing), so battles per second
is turns per second times that figure. Boards, starts and the oracle's checked board are built
once, before any timing; the Rust timing includes setting up the game from the start arrays
(a few milliseconds on a million territories).
"""

from __future__ import annotations

import copy
import sys
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from harness import Case
from stratagem import _core
from stratagem.conquest.board import Board, assign_random, assign_regions, troops_uniform
from stratagem.conquest.game import Game, PolicyView
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
    turns: int  # turns per timed call, on both paths
    note: str = ""  # why the row may stay under the target ratio


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
    while played < work.turns and game.step():
        played += 1
    return played


# Why two small random deals stay near 100x (profiles of the engine's first turn, one thread,
# `rust/conquest/examples/turn_profile.rs` under callgrind, on the quiet machine).
_K200_NOTE = (
    "every territory borders the 199 others and all are on the frontier: the first turn is"
    " 7.4M instructions, 185 per directed border (the random team's two draws per enemy"
    " border, the other policies' scans of 199-border rows, 127-173 battles), and a fresh"
    " game's first turn takes 0.58 ms against 0.19 ms for a later one (its buffers touched"
    " for the first time); the oracle's first turn takes 53 ms: 71-85x"
)
_STAR_NOTE = (
    "a random deal on a star puts 7,501 of 10,000 territories on the frontier and the centre"
    " borders all the others: the first turn is 12.5M instructions, a quarter of them the"
    " frontier's update after the deal (the centre's 9,999 neighbours among the candidates)"
    " and another quarter the opportunist's and random team's draws and looks; 1.78 ms"
    " against 1.05 ms for a later turn, the oracle's first turn 125 ms: 71-103x"
)


def _workloads(quick: bool) -> list[_Workload]:
    if quick:
        big = [
            _Workload("grid 100x100", "grid:100x100", True, 1),
            _Workload("rgg 10k, degree 8", "rgg:10000", True, 1),
            _Workload("complete K_200", "complete:200", False, 1, _K200_NOTE),
            _Workload("star 10k", "star:10000", False, 1, _STAR_NOTE),
        ]
    else:
        big = [
            _Workload("grid 1000x1000", "grid:1000x1000", True, 1),
            _Workload("rgg 1M, degree 8", "rgg:1000000", True, 1),
            _Workload("complete K_2000", "complete:2000", False, 1),
            _Workload("star 1M", "star:1000000", False, 1),
        ]
    small = _Workload("grid 30x30, same turns", "grid:30x30", True, 10 if quick else 50)
    return [small, *big]


def cases(quick: bool) -> list[Case]:
    result: list[Case] = []
    for work in _workloads(quick):
        # Everything is built here, before the runner times anything: the board, the engine's
        # checked board (cached on the board by the first game, the one counting battles)
        # and the oracle's.
        per_turn = _battles_per_turn(work.spec, work.regions, work.turns)
        _oracle_start(work.spec, work.regions)
        unit = f"turns, {per_turn:,.0f} battles/turn"
        for threads in sorted({1, 2, _core.default_threads()}):
            result.append(
                Case(
                    work.name,
                    unit,
                    lambda w=work, t=threads: _rust(w, t),
                    lambda w=work: _oracle(w),
                    threads,
                    note=work.note,
                )
            )
    return result


# -- roofline -------------------------------------------------------------------------------

# Bytes a turn of the benchmark game must move on a board of n territories and E directed
# borders, pass by pass (each array counted once per pass that reads or writes it; the
# engine's arrays are u8 team, u64 troops, u32 indptr / indices / reverse / distances, i64
# placement). A write counts once, as in STREAM's copy.
_PASSES: dict[str, tuple[tuple[str, int, int], ...]] = {
    # name: (array, bytes per territory, bytes per directed border)
    "distances (BFS of 3 teams of 4)": (
        ("distances cleared", 4, 0),
        ("indptr, indices (3/4 of rows)", 3, 3),
        ("distances read and written", 8, 0),
    ),
    "placement": (
        ("team, troops, distances", 13, 0),
        ("indptr, indices", 4, 4),
        ("placement written", 0, 8),
        ("garrisons written", 8, 0),
    ),
    "occupation and recruitment": (
        ("indptr, indices, reverse", 4, 8),
        ("placement (both directions)", 0, 8),
        ("team, garrisons", 9, 0),
        ("team and troops written", 9, 0),
    ),
}


def bytes_per_turn(n: int, directed: int) -> dict[str, int]:
    """The model of ``_PASSES`` for a board: bytes by pass."""
    return {
        name: sum(per_n * n + per_e * directed for _, per_n, per_e in arrays)
        for name, arrays in _PASSES.items()
    }


def copy_bandwidth(threads: int, megabytes: int = 256, repeats: int = 7) -> float:
    """STREAM-like copy: bytes read plus bytes written per second, best of ``repeats``, with
    ``threads`` threads each copying its slice of a ``megabytes`` array (numpy releases the
    GIL while it copies)."""
    from concurrent.futures import ThreadPoolExecutor

    source = np.ones(megabytes << 17, dtype=np.float64)
    target = np.zeros_like(source)
    slices = np.array_split(np.arange(source.shape[0]), threads)
    bounds = [(int(s[0]), int(s[-1]) + 1) for s in slices]

    def copy(bound: tuple[int, int]) -> None:
        np.copyto(target[bound[0] : bound[1]], source[bound[0] : bound[1]])

    best = float("inf")
    with ThreadPoolExecutor(threads) as pool:
        for _ in range(repeats):
            began = time.perf_counter()
            list(pool.map(copy, bounds))
            best = min(best, time.perf_counter() - began)
    return 2 * source.nbytes / best


def turn_seconds(start: Start, threads: int, turns: int = 30) -> float:
    """The fastest of ``turns`` turns of the benchmark game (one Rust call per turn)."""
    game = _game(start, threads)
    best = float("inf")
    for _ in range(turns):
        began = time.perf_counter()
        game.step()
        best = min(best, time.perf_counter() - began)
    return best


def relabelled(start: Start, order: NDArray[np.int64]) -> Start:
    """The same board and start with territory ``order[k]`` renamed ``k``."""
    rename = np.empty_like(order)
    rename[order] = np.arange(order.shape[0], dtype=np.int64)
    edges = start.board.edges()
    board = Board.from_edges(rename[edges], n=start.board.n)
    team = np.empty_like(start.team)
    team[rename] = start.team
    return Start(board, team, troops_uniform(board, TROOPS))


def roofline(specs: list[str], threads: int) -> None:
    """Prints the bandwidth of this machine, then for each board the modelled bytes of a turn,
    the fastest turn and the fraction of the memory floor it reaches, in the natural and the
    reverse Cuthill-McKee order of the territories."""
    from stratagem.conquest.distributed import territory_order

    bandwidth = {t: copy_bandwidth(t) for t in sorted({1, threads})}
    for t, value in bandwidth.items():
        print(f"copy bandwidth, {t} thread(s): {value / 1e9:.1f} GB/s")
    print("| board | order | bytes/turn (model) | floor at copy speed | fastest turn | fraction |")
    print("|---|---|---:|---:|---:|---:|")
    for spec in specs:
        start = benchmark_start(spec, True)
        model = bytes_per_turn(start.board.n, start.board.indices.shape[0])
        total = sum(model.values())
        floor = total / bandwidth[threads]
        for order in ("natural", "rcm"):
            played = (
                start
                if order == "natural"
                else relabelled(start, territory_order(start.board, "rcm"))
            )
            seconds = turn_seconds(played, threads)
            print(
                f"| {spec} | {order} | {total / 1e6:.0f} MB | {floor * 1e3:.1f} ms | "
                f"{seconds * 1e3:.1f} ms | {floor / seconds:.0%} |"
            )
        for name, value in model.items():
            print(f"|   {name} | | {value / 1e6:.0f} MB | | | |")


def dump(spec: str, prefix: str) -> None:
    """Writes the board and start of ``spec`` as raw int64 files ``PREFIX.indptr``,
    ``PREFIX.indices`` and ``PREFIX.team`` for ``rust/conquest/examples/turn_profile.rs``."""
    start = benchmark_start(spec, True)
    start.board.indptr.astype("<i8").tofile(f"{prefix}.indptr")
    start.board.indices.astype("<i8").tofile(f"{prefix}.indices")
    start.team.astype("<i8").tofile(f"{prefix}.team")


def _rss_mib() -> tuple[float, float]:
    """This process's resident set now and at its peak, in MiB (Linux)."""
    import resource

    with open("/proc/self/status", encoding="ascii") as status:
        now = next(int(line.split()[1]) for line in status if line.startswith("VmRSS"))
    return now / 1024, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def memory(spec: str, turns: int = 3, from_spec: bool = False) -> None:
    """RSS after each step of making and playing the benchmark game on ``spec`` (seed 0): with
    the board built in Python first, or by :meth:`Game.from_spec` (``from_spec``; on a grid
    the engine builds its board from the grid's closed forms)."""
    print(f"| step ({spec}) | RSS | peak so far |\n|---|---:|---:|")

    def step(name: str) -> None:
        now, peak = _rss_mib()
        print(f"| {name} | {now:,.0f} MiB | {peak:,.0f} MiB |")

    if from_spec:
        game = Game.from_spec(
            spec, len(POLICIES), TROOPS, POLICIES, seed=0, max_turns=None, threads=2
        )
        step("Game.from_spec")
    else:
        board = Board.from_spec(spec)
        step("Board.from_spec")
        team, troops = assign_regions(board, len(POLICIES), 0), troops_uniform(board, TROOPS)
        step("assign_regions, troops_uniform")
        board.engine  # noqa: B018 (builds the engine's board)
        step("the engine's board")
        game = Game(board, team, troops, POLICIES, seed=0, max_turns=None, threads=2)
        step("Game")
    game.run(turns, progress=False)
    step(f"{turns} turns")


def custom_cost(spec: str, turns: int = 10) -> None:
    """Turn time with team 0 playing a vectorised custom policy (``push_to_weakest`` of
    ``tests/conquest_spread.py``) against the built-in ``aggressive`` in its place, and the
    time of the policy's calls alone (2 threads)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from conquest_spread import push_to_weakest

    start = benchmark_start(spec, True)
    calls: list[float] = []

    def timed(view: PolicyView) -> NDArray[np.int64]:
        began = time.perf_counter()
        placement = push_to_weakest(view)
        calls.append(time.perf_counter() - began)
        return placement

    for name, first in (("built-in aggressive", "aggressive"), ("custom", timed)):
        game = Game(
            start.board, start.team, start.troops, [first, *POLICIES[1:]], seed=SEED, threads=2
        )
        seconds = []
        for _ in range(turns):
            began = time.perf_counter()
            game.step()
            seconds.append(time.perf_counter() - began)
        print(
            f"{spec}, team 0 {name}: turn min {min(seconds) * 1e3:.1f} ms, median "
            f"{float(np.median(seconds)) * 1e3:.1f} ms"
        )
    print(
        f"policy call: min {min(calls) * 1e3:.1f} ms, median {float(np.median(calls)) * 1e3:.1f} ms"
    )


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="conquest roofline: bytes, bandwidth, turn")
    parser.add_argument(
        "--roofline", nargs="*", metavar="SPEC", help="boards (default: 1M grid and rgg)"
    )
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--dump", nargs=2, metavar=("SPEC", "PREFIX"))
    parser.add_argument("--memory", metavar="SPEC", help="RSS while making and playing a game")
    parser.add_argument(
        "--from-spec", action="store_true", help="--memory: the game made by Game.from_spec"
    )
    parser.add_argument("--custom-cost", metavar="SPEC", help="cost of a Python policy's turn")
    options = parser.parse_args()
    if options.memory:
        memory(options.memory, from_spec=options.from_spec)
    if options.custom_cost:
        custom_cost(options.custom_cost)
    if options.dump:
        dump(*options.dump)
    if options.roofline is not None:
        roofline(options.roofline or ["grid:1000x1000", "rgg:1000000"], options.threads)
