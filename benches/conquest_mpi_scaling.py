"""conquest over MPI: how one game spread over ranks scales, and what its messages cost.

Run ``python benches/conquest_mpi_scaling.py [--quick] [--json FILE] [--plot PNG] [--turns T]``.
The driver launches every run as its own job, ``mpiexec -n R python <this file> --worker
CASE``, with ``HYDRA_LAUNCHER=fork``, ``MPIEXEC_TIMEOUT=600`` and ``STRATAGEM_NUM_THREADS=1``
(and ``threads=1``), so each rank is one thread and R ranks use R cores. It prints markdown
tables on stdout (progress goes to stderr), writes every figure as JSON with ``--json`` and
a two-panel figure with ``--plot``. ``--quick`` plays the same study on small boards (grid:60x60,
rgg:5000, complete:200, star:5000; 3 turns): a smoke test of well under a minute, with the
fingerprints checked all the same.

Every run plays the same game as ``benches/bench_conquest.py``: seed 1, four teams with the
policies aggressive, balanced, opportunist and random, 10 troops per territory; grids and
random geometric graphs start from four regions, complete graphs and stars from a random
deal. A worker builds the board and start (timed on its own), makes the game, plays 2
warm-up turns, then times T turns between two barriers, on rank 0. On a grid in the natural
order the distributed engine is made by ``DistributedGame.from_spec``: each rank builds only
its part and its start (timed with the game). The engine is the
:class:`~stratagem.conquest.distributed.DistributedGame` on R ranks, or, as the reference
figure, the single-process :class:`~stratagem.conquest.Game` with one thread. Bytes per turn
(the traffic summary, all ranks together) count the timed turns only.

1. Strong scaling: grid:1000x1000 and rgg:1000000 on 1 to 4 ranks. On the 2-core machine
   this is written for, 3 and 4 ranks are oversubscribed: they check that the game stays the
   same and say nothing about speed.
2. Topologies, as in the seed paper: complete:2000, star:1000000 and grid:1000x1000 on 1 and
   2 ranks. A complete graph or a star cut in two halves has O(n^2) or O(n) cut borders.
3. Partition quality: cut borders of the natural block partition and of reverse
   Cuthill-McKee (``order="rcm"``) at 2 and 4 ranks, on the grid, the rgg and the same rgg
   with its territory ids shuffled (where natural blocks cut most borders), and the bytes per
   turn of both orders at 2 ranks on both rggs. Every phase sends O(cut borders) bytes, but
   the frontier distances repeat their halo exchange once per round until no rank lowers
   one, so a partition that needs many rounds sends more per cut border.

Every run ends with a fingerprint: crc32 of the final team and troops of every territory and
of the history. All runs on a board (any engine, rank count or order) must give the same
fingerprint as its 1-rank run, or the script exits with status 1.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import sysconfig
import time
import zlib
from dataclasses import asdict, dataclass
from functools import cache
from itertools import cycle
from pathlib import Path
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from bench_conquest import POLICIES, SEED, TROOPS, Start, benchmark_start
from stratagem.conquest.board import Board, troops_uniform
from stratagem.conquest.distributed import DistributedGame, PartitionSummary, Traffic
from stratagem.conquest.game import Game
from stratagem.mpi import allgather_blocks, world

_WARMUP = 2
_SHUFFLE_SEED = 7  # the permutation of the shuffled rgg's ids
_RESULT = "RESULT\t"  # marks the worker's JSON line among anything else MPI may print
_CORES = len(os.sched_getaffinity(0))
_CORES_NOTE = f"{_CORES} cores, 1 thread per rank"

Engine = Literal["distributed", "single"]
Order = Literal["natural", "rcm"]
_ORDERS: tuple[Order, ...] = ("natural", "rcm")


@dataclass(frozen=True)
class Case:
    """One run: a board (``shuffled``: its ids permuted), an engine, ranks and order."""

    board: str
    shuffled: bool
    engine: Engine
    ranks: int
    order: Order
    turns: int

    @property
    def label(self) -> str:
        return f"{self.board} shuffled" if self.shuffled else self.board


@dataclass(frozen=True)
class Sizes:
    grid: str
    rgg: str
    complete: str
    star: str
    turns: int
    #: The large board of the strong scaling of the whole command.
    big: str
    #: Weak scaling: the board of 1, 2, 3 and 4 ranks (the same rows per rank).
    weak: tuple[str, ...]


_QUICK = Sizes(
    "grid:60x60",
    "rgg:5000",
    "complete:200",
    "star:5000",
    3,
    "grid:120x120",
    tuple(f"grid:{60 * r}x60" for r in (1, 2, 3, 4)),
)
_FULL = Sizes(
    "grid:1000x1000",
    "rgg:1000000",
    "complete:2000",
    "star:1000000",
    10,
    "grid:3200x3200",
    tuple(f"grid:{1000 * r}x1000" for r in (1, 2, 3, 4)),
)


# -- boards and starts ------------------------------------------------------------------------


@cache
def _start(spec: str, shuffled: bool) -> Start:
    if shuffled:
        # Territory i becomes perm[i] and keeps its team: the same start, relabelled.
        base = _start(spec, False)
        perm = np.random.default_rng(_SHUFFLE_SEED).permutation(base.board.n)
        board = Board.from_edges(perm[base.board.edges()], base.board.n)
        team = np.empty_like(base.team)
        team[perm] = base.team
        return Start(board, team, troops_uniform(board, TROOPS))
    # Regions grown by breadth-first search on a complete graph or a star give one team all
    # but a few territories (see bench_conquest.py), so those get a random deal.
    regions = spec.split(":", maxsplit=1)[0] not in ("complete", "star")
    return benchmark_start(spec, regions)


def _crc(*arrays: NDArray[Any]) -> int:
    value = 0
    for array in arrays:
        value = zlib.crc32(np.ascontiguousarray(array, dtype=np.int64).tobytes(), value)
    return value


# -- worker (under mpiexec) -------------------------------------------------------------------


def _rank_local(case: Case) -> bool:
    """Whether each rank builds only its part of the board (a grid or an rgg in the natural
    order, started from regions: ``DistributedGame.from_spec``)."""
    by_parts = case.board.startswith(("grid:", "rgg:")) and not case.shuffled
    return case.engine == "distributed" and case.order == "natural" and by_parts


def worker(case: Case) -> None:
    comm = world()
    options: dict[str, Any] = {"seed": SEED, "max_turns": None, "threads": 1}
    game: Game | DistributedGame
    began = started = time.perf_counter()
    if _rank_local(case):
        # The board and start are built by parts, with the game (timed as its setup).
        build_seconds = 0.0
        game = DistributedGame.from_spec(
            case.board, len(POLICIES), TROOPS, POLICIES, **options, order=case.order
        )
    else:
        start = _start(case.board, case.shuffled)
        build_seconds = time.perf_counter() - started
        args = (start.board, start.team, start.troops, POLICIES)
        started = time.perf_counter()
        if case.engine == "single":
            if comm.size != 1:
                raise SystemExit("the single-process engine runs on 1 rank")
            game = Game(*args, **options)
        else:
            game = DistributedGame(*args, **options, order=case.order)
    setup_seconds = time.perf_counter() - started
    game.run(_WARMUP, progress=False)
    if isinstance(game, DistributedGame):
        game.traffic = Traffic()  # count the timed turns only
    comm.barrier()
    started = time.perf_counter()
    game.run(case.turns, progress=False)
    comm.barrier()
    seconds = time.perf_counter() - started
    whole_seconds = time.perf_counter() - began
    timed = game.turn - _WARMUP
    result: dict[str, Any] = {
        "case": asdict(case),
        "build_seconds": build_seconds,
        "setup_seconds": setup_seconds,
        "turns_timed": timed,
        "seconds_per_turn": seconds / max(timed, 1),
        # Board and start, the game, the warm-up and the timed turns: the command's work.
        "whole_seconds": whole_seconds,
        "final_turn": game.turn,
        "status": game.status,
        "n": game.board_shape.n if isinstance(game, DistributedGame) else game.board.n,
        "borders": (
            game.board_shape.n_borders
            if isinstance(game, DistributedGame)
            else game.board.n_borders
        ),
    }
    if isinstance(game, DistributedGame):
        team, troops = game.gather_state()
        result["traffic"] = game.traffic_summary()
        mine = [game.owned_ids.shape[0], game.n_ghosts, game.n_cut_borders, len(game.neighbours)]
        per_rank = allgather_blocks(np.array([mine], dtype=np.int64), comm=comm)
        for column, name in enumerate(("territories", "ghosts", "cut_borders", "neighbours")):
            result[f"{name}_per_rank"] = per_rank[:, column].tolist()
    else:
        team, troops = game.team, game.troops
    history = game.history
    result["state_crc"] = _crc(team, troops)
    result["history_crc"] = _crc(history.territories, history.troops)
    if comm.rank == 0:
        print(_RESULT + json.dumps(result), flush=True)


# -- driver -----------------------------------------------------------------------------------


def _mpiexec() -> str:
    return str(Path(sysconfig.get_path("scripts")) / "mpiexec")


def _launch(case: Case) -> dict[str, Any]:
    env = {
        **os.environ,
        "HYDRA_LAUNCHER": "fork",
        "MPIEXEC_TIMEOUT": "600",
        "STRATAGEM_NUM_THREADS": "1",
    }
    command = [_mpiexec(), "-n", str(case.ranks), sys.executable, str(Path(__file__).resolve())]
    command += ["--worker", json.dumps(asdict(case))]
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    launch_seconds = time.perf_counter() - started
    lines = [line for line in done.stdout.splitlines() if line.startswith(_RESULT)]
    if done.returncode != 0 or len(lines) != 1:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"worker failed (exit {done.returncode}): {' '.join(command)}")
    result: dict[str, Any] = json.loads(lines[0].removeprefix(_RESULT))
    result["oversubscribed"] = case.ranks > _CORES
    # The whole job as the shell sees it (Python start-up and the fingerprints included).
    result["launch_seconds"] = launch_seconds
    return result


def _cases(sizes: Sizes, turns: int) -> list[Case]:
    def run(
        board: str, engine: Engine, ranks: int, order: Order = "natural", shuffled: bool = False
    ) -> Case:
        return Case(board, shuffled, engine, ranks, order, turns)

    cases: list[Case] = []
    for board in (sizes.grid, sizes.rgg):
        cases.append(run(board, "single", 1))
        cases += [run(board, "distributed", ranks) for ranks in (1, 2, 3, 4)]
    for board in (sizes.complete, sizes.star):
        cases.append(run(board, "single", 1))
        cases += [run(board, "distributed", ranks) for ranks in (1, 2)]
    cases.append(run(sizes.rgg, "distributed", 2, "rcm"))
    cases.append(run(sizes.big, "single", 1))
    cases += [run(sizes.big, "distributed", ranks) for ranks in (1, 2, 4)]
    # Each weak-scaling board also on 1 rank: its fingerprint reference.
    for ranks, board in enumerate(sizes.weak[1:], 2):
        cases += [run(board, "distributed", 1), run(board, "distributed", ranks)]
    # The 1-rank run is the shuffled board's fingerprint reference.
    shuffled: tuple[tuple[int, Order], ...] = ((1, "natural"), (2, "natural"), (2, "rcm"))
    cases += [run(sizes.rgg, "distributed", r, order, shuffled=True) for r, order in shuffled]
    return cases


def _partitions(sizes: Sizes) -> list[dict[str, Any]]:
    rows = []
    for board, shuffled in ((sizes.grid, False), (sizes.rgg, False), (sizes.rgg, True)):
        graph = _start(board, shuffled).board
        for ranks in (2, 4):
            row: dict[str, Any] = {
                "board": f"{board} shuffled" if shuffled else board,
                "ranks": ranks,
                "borders": graph.n_borders,
            }
            for order in _ORDERS:
                summary = PartitionSummary.of(graph, ranks, order)
                row[order] = {
                    "cut_borders": summary.cut_borders,
                    "ghosts_per_rank": summary.ghosts.tolist(),
                    "neighbours_per_rank": summary.neighbours.tolist(),
                }
            rows.append(row)
    return rows


def _fingerprints(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per board: does every run end as its 1-rank natural run does?"""
    checks = []
    for label in dict.fromkeys(_label(run) for run in runs):
        mine = [run for run in runs if _label(run) == label]
        reference = next(
            run
            for run in mine
            if run["case"]["engine"] == "distributed" and run["case"]["ranks"] == 1
        )

        def key(run: dict[str, Any]) -> tuple[int, int, int]:
            return run["state_crc"], run["history_crc"], run["final_turn"]

        differ = [_describe(run) for run in mine if key(run) != key(reference)]
        checks.append(
            {
                "board": label,
                "runs": len(mine),
                "state_crc": reference["state_crc"],
                "history_crc": reference["history_crc"],
                "final_turn": reference["final_turn"],
                "differ": differ,
            }
        )
    return checks


def _label(run: dict[str, Any]) -> str:
    case = run["case"]
    return f"{case['board']} shuffled" if case["shuffled"] else str(case["board"])


def _describe(run: dict[str, Any]) -> str:
    case = run["case"]
    if case["engine"] == "single":
        return "single-process Game"
    return f"{case['ranks']} rank{'s' * (case['ranks'] > 1)}, {case['order']}"


def _find(
    runs: list[dict[str, Any]], label: str, engine: str, ranks: int, order: str = "natural"
) -> dict[str, Any]:
    return next(
        run
        for run in runs
        if _label(run) == label
        and run["case"]["engine"] == engine
        and run["case"]["ranks"] == ranks
        and run["case"]["order"] == order
    )


# -- tables -----------------------------------------------------------------------------------


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _bytes(value: float) -> str:
    for unit, size in (("MB", 1e6), ("kB", 1e3)):
        if value >= size:
            return f"{value / size:,.1f} {unit}"
    return f"{value:,.0f} B"


def _report(
    runs: list[dict[str, Any]],
    partitions: list[dict[str, Any]],
    checks: list[dict[str, Any]],
    sizes: Sizes,
    turns: int,
) -> str:
    out = [
        f"conquest over MPI: {turns} timed turns after {_WARMUP} warm-up turns; "
        f"machine: {_CORES_NOTE}, {platform.processor() or platform.machine()}. "
        "Seconds per turn are wall time on rank 0 between barriers.",
        "",
        f"### Strong scaling ({_CORES_NOTE}; ranks above {_CORES} oversubscribed, "
        "shown for correctness only)",
        "",
    ]
    rows = []
    for label in (sizes.grid, sizes.rgg):
        single = _find(runs, label, "single", 1)
        one = _find(runs, label, "distributed", 1)
        rows.append(
            [
                label,
                "single-process Game",
                "1",
                f"{single['seconds_per_turn']:.4f}",
                "",
                "1.00",
                "",
                "",
                "",
                "",
                "",
            ]
        )
        for ranks in (1, 2, 3, 4):
            run = _find(runs, label, "distributed", ranks)
            traffic = run["traffic"]
            rows.append(
                [
                    label,
                    "DistributedGame",
                    str(ranks),
                    f"{run['seconds_per_turn']:.4f}",
                    f"{one['seconds_per_turn'] / run['seconds_per_turn']:.2f}",
                    f"{single['seconds_per_turn'] / run['seconds_per_turn']:.2f}",
                    f"{traffic['cut_borders']:,}",
                    f"{traffic['ghosts']:,}",
                    _bytes(traffic["bytes_per_turn"]),
                    f"{traffic['distance_rounds_per_turn']:.1f}",
                    "oversubscribed" if run["oversubscribed"] else "",
                ]
            )
    header = ["board", "engine", "ranks", "s/turn", "speedup vs 1 rank", "speedup vs Game"]
    header += ["cut borders", "ghosts", "bytes/turn", "distance rounds/turn", "note"]
    out += [_table(header, rows), ""]

    out += _whole_and_weak(runs, sizes)
    out += [f"### Topologies ({_CORES_NOTE})", ""]
    rows = []
    for label in (sizes.complete, sizes.star, sizes.grid):
        single = _find(runs, label, "single", 1)
        one, two = (_find(runs, label, "distributed", ranks) for ranks in (1, 2))
        traffic = two["traffic"]
        rows.append(
            [
                label,
                f"{two['n']:,}",
                f"{two['borders']:,}",
                f"{single['seconds_per_turn']:.4f}",
                f"{one['seconds_per_turn']:.4f}",
                f"{two['seconds_per_turn']:.4f}",
                f"{one['seconds_per_turn'] / two['seconds_per_turn']:.2f}",
                f"{traffic['cut_borders']:,}",
                _bytes(traffic["bytes_per_turn"]),
                f"{traffic['bytes_per_turn'] / max(traffic['cut_borders'], 1):.1f}",
            ]
        )
    header = ["board", "territories", "borders", "Game s/turn", "1 rank s/turn", "2 ranks s/turn"]
    header += [
        "speedup 2 vs 1",
        "cut borders (2 ranks)",
        "bytes/turn (2 ranks)",
        "bytes per cut border",
    ]
    out += [_table(header, rows), ""]

    out += ["### Partition quality: cut borders, natural blocks vs reverse Cuthill-McKee", ""]
    rows = [
        [
            row["board"],
            str(row["ranks"]),
            f"{row['borders']:,}",
            f"{row['natural']['cut_borders']:,}",
            f"{row['rcm']['cut_borders']:,}",
            f"{max(row['natural']['ghosts_per_rank']):,}",
            f"{max(row['rcm']['ghosts_per_rank']):,}",
        ]
        for row in partitions
    ]
    header = ["board", "ranks", "borders", "cut natural", "cut rcm"]
    header += ["max ghosts/rank natural", "max ghosts/rank rcm"]
    out += [_table(header, rows), ""]

    out += [f"### Traffic by partition order, 2 ranks ({_CORES_NOTE})", ""]
    rows = []
    for label in (sizes.rgg, f"{sizes.rgg} shuffled"):
        for order in _ORDERS:
            run = _find(runs, label, "distributed", 2, order)
            traffic = run["traffic"]
            rows.append(
                [
                    label,
                    order,
                    f"{traffic['cut_borders']:,}",
                    _bytes(traffic["bytes_per_turn"]),
                    f"{traffic['bytes_per_turn'] / max(traffic['cut_borders'], 1):.1f}",
                    f"{traffic['distance_rounds_per_turn']:.1f}",
                    f"{run['seconds_per_turn']:.4f}",
                    f"{run['setup_seconds']:.2f}",
                ]
            )
    header = ["board", "order", "cut borders", "bytes/turn", "bytes per cut border"]
    header += ["distance rounds/turn", "s/turn", "setup s"]
    out += [_table(header, rows), ""]

    out += ["### Fingerprints (final state and history, crc32; reference: the 1-rank run)", ""]
    rows = [
        [
            check["board"],
            str(check["runs"]),
            str(check["final_turn"]),
            f"{check['state_crc']:08x}",
            f"{check['history_crc']:08x}",
            "all match" if not check["differ"] else "DIFFER: " + "; ".join(check["differ"]),
        ]
        for check in checks
    ]
    out += [_table(["board", "runs", "final turn", "state", "history", "result"], rows)]
    return "\n".join(out)


def _whole_and_weak(runs: list[dict[str, Any]], sizes: Sizes) -> list[str]:
    """The tables of strong scaling of the whole command and of play alone, and of weak
    scaling."""
    out = [
        f"### Strong scaling: the whole command and play alone ({_CORES_NOTE})",
        "",
        "Whole: the job's wall time as the shell sees it (Python start-up, every rank building "
        "its part of the grid and its start, the game, 2 warm-up and the timed turns, "
        "fingerprints); build + setup: rank 0's board, start and game; play: seconds per timed "
        "turn.",
        "",
    ]
    rows = []
    for label in (sizes.grid, sizes.big):
        one = _find(runs, label, "distributed", 1)
        for ranks in (1, 2, 3, 4):
            found = [r for r in runs if _label(r) == label and r["case"]["ranks"] == ranks]
            run = next((r for r in found if r["case"]["engine"] == "distributed"), None)
            if run is None:
                continue
            rows.append(
                [
                    label,
                    str(ranks),
                    f"{run['launch_seconds']:.2f}",
                    f"{run['build_seconds'] + run['setup_seconds']:.2f}",
                    f"{run['seconds_per_turn']:.4f}",
                    f"{one['launch_seconds'] / run['launch_seconds']:.2f}",
                    f"{one['seconds_per_turn'] / run['seconds_per_turn']:.2f}",
                    "oversubscribed" if run["oversubscribed"] else "",
                ]
            )
        single = _find(runs, label, "single", 1)
        rows.append(
            [
                label,
                "1 (Game)",
                f"{single['launch_seconds']:.2f}",
                f"{single['build_seconds'] + single['setup_seconds']:.2f}",
                f"{single['seconds_per_turn']:.4f}",
                "",
                "",
                "single-process engine, 1 thread",
            ]
        )
    header = ["board", "ranks", "whole s", "build + setup s", "play s/turn"]
    header += ["whole speedup", "play speedup", "note"]
    out += [_table(header, rows), ""]
    out += [f"### Weak scaling: the same rows per rank ({_CORES_NOTE})", ""]
    rows = []
    base = _find(runs, sizes.weak[0], "distributed", 1)
    for ranks, label in enumerate(sizes.weak, 1):
        run = _find(runs, label, "distributed", ranks)
        rows.append(
            [
                label,
                str(ranks),
                f"{run['n']:,}",
                f"{run['seconds_per_turn']:.4f}",
                f"{base['seconds_per_turn'] / run['seconds_per_turn']:.2f}",
                f"{run['launch_seconds']:.2f}",
                "oversubscribed" if run["oversubscribed"] else "",
            ]
        )
    header = ["board", "ranks", "territories", "play s/turn", "efficiency", "whole s", "note"]
    out += [_table(header, rows), ""]
    return out


# -- plot -------------------------------------------------------------------------------------


_OVERSUBSCRIBED = f"oversubscribed, {_CORES} cores"


def _oversubscribed_handle(line_style: str) -> Any:
    """The legend entry of the oversubscribed runs: hollow markers."""
    from matplotlib.lines import Line2D

    return Line2D(
        [], [], ls=line_style, marker="o", mfc="white", color="0.4", label=_OVERSUBSCRIBED
    )


def _plot(runs: list[dict[str, Any]], sizes: Sizes, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    figure, (left, right) = plt.subplots(1, 2, figsize=(13, 5.2))
    # One colour a board, for every board of the study (the 10M grid and the weak-scaling
    # boards included: their runs are points on the traffic panel too).
    labels = dict.fromkeys(_label(run) for run in runs)
    palette = cycle(plt.rcParams["axes.prop_cycle"].by_key()["color"])
    colours = dict(zip(labels, palette, strict=False))

    for label in (sizes.grid, sizes.rgg):
        colour = colours[label]
        points = [
            (r, _find(runs, label, "distributed", r)["seconds_per_turn"]) for r in (1, 2, 3, 4)
        ]
        real = [p for p in points if p[0] <= _CORES]
        over = [p for p in points if p[0] > _CORES]
        left.plot(*zip(*real, strict=True), "o-", color=colour, label=f"{label}, DistributedGame")
        if over:
            left.plot(*zip(real[-1], *over, strict=True), "--", color=colour)
            left.plot(*zip(*over, strict=True), "o", mfc="white", color=colour)
        left.axhline(
            _find(runs, label, "single", 1)["seconds_per_turn"],
            ls=":",
            color=colour,
            label=f"{label}, single-process Game",
        )
    left.set_xticks([1, 2, 3, 4])
    left.set_xlabel("MPI ranks (1 thread each)")
    left.set_ylabel("seconds per turn")
    top = max(run["seconds_per_turn"] for run in runs if _label(run) in (sizes.grid, sizes.rgg))
    left.set_ylim(0, 1.6 * top)  # room for the legend above the lines
    handles, _ = left.get_legend_handles_labels()
    if _CORES < 4:
        left.axvspan(_CORES + 0.5, 4.5, color="0.93")
        left.text(
            4.45,
            0.97,
            _OVERSUBSCRIBED,
            transform=left.get_xaxis_transform(),
            ha="right",
            va="top",
            fontsize=9,
            color="0.4",
        )
        handles.append(_oversubscribed_handle("--"))
    left.legend(handles=handles, fontsize=8, loc="upper left")
    left.set_title(f"strong scaling ({_CORES} cores)")

    spread = [
        run for run in runs if run["case"]["engine"] == "distributed" and run["case"]["ranks"] > 1
    ]
    for run in spread:
        traffic = run["traffic"]
        right.loglog(
            traffic["cut_borders"],
            traffic["bytes_per_turn"],
            "s" if run["case"]["order"] == "rcm" else "o",
            color=colours[_label(run)],
            mfc="white" if run["oversubscribed"] else None,
        )
    cuts = np.array([run["traffic"]["cut_borders"] for run in spread], dtype=float)
    sent = np.array([run["traffic"]["bytes_per_turn"] for run in spread], dtype=float)
    # A line of slope 1 through the median bytes per cut border: traffic proportional to cut.
    ratio = float(np.median(sent / cuts))
    for run, cut, bytes_sent in zip(spread, cuts, sent, strict=True):
        # The distance phase repeats its halo exchange every round, so points far above the
        # line are runs that needed many rounds.
        if bytes_sent > 2 * ratio * cut:
            rounds = run["traffic"]["distance_rounds_per_turn"]
            right.annotate(
                f"{_label(run)}, {run['case']['order']}:\n{rounds:.0f} distance rounds/turn",
                (cut, bytes_sent),
                xytext=(-8, 0),
                textcoords="offset points",
                ha="right",
                va="center",
                fontsize=8,
            )
    span = np.array([cuts.min() / 2, cuts.max() * 2])
    right.loglog(
        span, ratio * span, ":", color="0.5", label=f"slope 1: {ratio:.0f} bytes per cut border"
    )
    handles, _ = right.get_legend_handles_labels()
    handles += [
        Line2D([], [], ls="", marker="o", color=colours[label], label=label) for label in colours
    ]
    handles += [
        Line2D([], [], ls="", marker="s", color="0.4", label="rcm order"),
        _oversubscribed_handle(""),
    ]
    right.legend(handles=handles, fontsize=8, loc="upper left")
    right.set_xlabel("cut borders")
    right.set_ylabel("bytes sent per turn, all ranks")
    right.set_title(f"traffic vs cut borders, 2 to 4 ranks ({_CORES} cores)")
    figure.tight_layout()
    figure.savefig(path, dpi=130)
    plt.close(figure)


# -- main -------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="small boards (a smoke test)")
    parser.add_argument("--turns", type=int, help="timed turns per run (default 10, quick 3)")
    parser.add_argument("--json", metavar="FILE", help="write every figure to FILE")
    parser.add_argument("--plot", metavar="PNG", help="draw the two-panel figure to PNG")
    parser.add_argument("--worker", metavar="CASE", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker is not None:
        worker(Case(**json.loads(args.worker)))
        return 0

    sizes = _QUICK if args.quick else _FULL
    turns = sizes.turns if args.turns is None else args.turns
    if turns < 1:
        parser.error("--turns must be at least 1")
    cases = _cases(sizes, turns)
    runs = []
    started = time.perf_counter()
    for index, case in enumerate(cases, 1):
        run = _launch(case)
        runs.append(run)
        print(
            f"[{index}/{len(cases)}] {case.label}, {_describe(run)}: "
            f"{run['seconds_per_turn']:.4f} s/turn, build {run['build_seconds']:.1f} s "
            f"({time.perf_counter() - started:.0f} s so far)",
            file=sys.stderr,
            flush=True,
        )
    partitions = _partitions(sizes)
    checks = _fingerprints(runs)
    print(_report(runs, partitions, checks, sizes, turns))
    matched = not any(check["differ"] for check in checks)
    if args.json:
        figures = {
            "machine": {
                "cores": _CORES,
                "platform": platform.platform(),
                "python": platform.python_version(),
            },
            "settings": {
                "quick": args.quick,
                "turns": turns,
                "warmup": _WARMUP,
                "threads_per_rank": 1,
                "seed": SEED,
                "policies": POLICIES,
                "troops": TROOPS,
            },
            "runs": runs,
            "partitions": partitions,
            "fingerprints": checks,
            "fingerprints_match": matched,
        }
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n")
    if args.plot:
        _plot(runs, sizes, args.plot)
    if not matched:
        print(
            "FINGERPRINTS DIFFER: the distributed game is not the same game on every rank count",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
