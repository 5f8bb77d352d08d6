"""The cost of one move of a random playout against the board size:
``python benches/annexation_ply_cost.py [--threads T] [--repeats N] [--png PATH]``.

For hexagon boards of radius 4 to 30 (61 to 2,791 cells) and Voronoi boards of 250 to 2,000
cells (8 colours, seed 1), it times random playouts from the first position on the engine
(the best of ``--repeats`` runs, about 0.3 s each) and counts the moves of a random game (the
mean of 40 games played through the engine's ``Game``), then divides: nanoseconds per move.
The figure (``docs/img/annexation-ply-cost.png`` by default) plots that cost against the
cells on log-log axes with n^0.5 and n^1 guides, so the growth is visible.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from stratagem.annexation import Board, Game, playouts

PNG = Path(__file__).resolve().parent.parent / "docs" / "img" / "annexation-ply-cost.png"
HEX_RADII = (4, 6, 8, 12, 18, 24, 30)
VORONOI_CELLS = (250, 500, 1000, 2000)


def mean_moves(board: Board, games: int = 40) -> float:
    """The mean length of a game of uniformly random legal moves."""
    draw = np.random.default_rng(1)
    total = 0
    for g in range(games):
        game = Game(board, g)
        while not game.is_over:
            legal = game.legal_moves()
            game.play(legal[int(draw.integers(len(legal)))])
        total += game.moves
    return total / games


def playouts_per_second(board: Board, threads: int, repeats: int) -> float:
    game = Game(board, 1)
    n = 1000
    while True:  # size a run to about 0.3 s
        started = time.perf_counter()
        playouts(game, n, threads=threads)
        if time.perf_counter() - started > 0.1:
            break
        n *= 4
    n = max(1, int(n * 0.3 / (time.perf_counter() - started)))
    best = 0.0
    for _ in range(repeats):
        started = time.perf_counter()
        playouts(game, n, threads=threads)
        best = max(best, n / (time.perf_counter() - started))
    return best


def measure(threads: int, repeats: int) -> list[tuple[str, int, float, float]]:
    """(kind, cells, playouts/s, ns per move) for every board."""
    boards = [("hex", Board.hexagon(r, seed=1)) for r in HEX_RADII]
    boards += [("voronoi", Board.voronoi(n, seed=1)) for n in VORONOI_CELLS]
    rows = []
    for kind, board in boards:
        rate = playouts_per_second(board, threads, repeats)
        moves = mean_moves(board)
        rows.append((kind, board.cells, rate, 1e9 / (rate * moves)))
        print(
            f"{kind:8} {board.cells:6,} cells  {rate:12,.0f} playouts/s  "
            f"{moves:6.1f} moves  {rows[-1][3]:8.1f} ns/move",
            flush=True,
        )
    return rows


def plot(rows: list[tuple[str, int, float, float]], threads: int, path: Path) -> None:
    from stratagem._plotting import matplotlib

    matplotlib()  # a clear message when matplotlib is missing
    from matplotlib.figure import Figure  # draws with Agg, whatever pyplot's backend

    figure = Figure(figsize=(6.4, 4.2), dpi=120)
    axes = figure.add_subplot()
    for kind, marker in (("hex", "o"), ("voronoi", "s")):
        cells = [r[1] for r in rows if r[0] == kind]
        cost = [r[3] for r in rows if r[0] == kind]
        axes.plot(cells, cost, marker=marker, label=f"{kind} boards")
    first = rows[0]
    span = np.array([min(r[1] for r in rows), max(r[1] for r in rows)], dtype=float)
    for power, style in ((0.5, ":"), (1.0, "--")):
        axes.plot(
            span, first[3] * (span / first[1]) ** power, style, color="grey", label=f"n^{power:g}"
        )
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("cells")
    axes.set_ylabel("ns per move of a random playout")
    axes.set_title(f"annexation engine, {threads} thread{'s' if threads > 1 else ''}")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend()
    figure.tight_layout()
    figure.savefig(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--png", type=Path, default=PNG)
    args = parser.parse_args(argv)
    rows = measure(args.threads, args.repeats)
    plot(rows, args.threads, args.png)
    print(f"wrote {args.png}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
