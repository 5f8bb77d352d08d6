"""The annexation AIs' strength table: ``python benches/annexation_strength.py [--games G]
[--board SPEC] [--seed N] [--write]``.

A round robin of every AI at its defaults (``stratagem.annexation.play_match`` for each pair,
first move alternating, boards recoloured per pair of games). Each row is one pairing: A's
score with its Wilson 95% interval, the Elo difference, the mean moves of a game and A's mean
margin in cells. Below it each AI's rating: a least-squares fit of the pairwise Elo
differences (scores held half a game away from 0 and 1, so that a clean sweep stays finite),
random at 0. ``--write`` puts the tables into ``docs/annexation.md`` between the
``strength-table`` markers.
"""

from __future__ import annotations

import argparse
import itertools
import math
import time
from pathlib import Path

from stratagem.annexation import AIS, Board, play_match
from stratagem.annexation.match import MatchResult
from strength import fit_elo, write_table

DOCS = Path(__file__).resolve().parent.parent / "docs" / "annexation.md"


def board_of(spec: str) -> Board:
    kind, _, size = spec.partition(":")
    if kind != "hex":
        raise SystemExit(f"--board takes hex:R, got {spec!r}")
    return Board.hexagon(int(size))


def round_robin(agents: list[str], board: Board, games: int, seed: int) -> list[MatchResult]:
    return [
        play_match(a, b, board=board, games=games, seed=seed, progress=False)
        for a, b in itertools.combinations(agents, 2)
    ]


def ratings(agents: list[str], results: list[MatchResult], games: int) -> dict[str, float]:
    """Least-squares Elo from the pairwise differences, the first agent at 0."""
    pairs = itertools.combinations(range(len(agents)), 2)  # the order of round_robin
    scores = [(a, b, r.score, games) for (a, b), r in zip(pairs, results, strict=True)]
    return fit_elo(agents, scores)


def elo_text(x: float | None) -> str:
    if x is None or not math.isfinite(x):
        return "inf" if x is None or x > 0 else "-inf"
    return f"{x:+.0f}"


def markdown(agents: list[str], results: list[MatchResult], games: int, command: str) -> str:
    lines = [
        f"`{command}`",
        "",
        "| A | B | A's score (95% interval) | Elo A - B | mean moves | A's mean margin |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        low, high = r.interval
        lines.append(
            f"| {r.a} | {r.b} | {r.score:.3f} ({low:.3f}-{high:.3f}) | {elo_text(r.elo)} | "
            f"{r.mean_moves:.1f} | {r.mean_cells_a - r.mean_cells_b:+.1f} |"
        )
    rating = ratings(agents, results, games)
    lines += ["", "| AI | Elo (fit, random = 0) |", "|---|---|"]
    for name in sorted(agents, key=lambda n: -rating[n]):
        lines.append(f"| {name} | {round(rating[name]) + 0:+d} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument("--board", default="hex:8", help="hex:R (default hex:8)")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--write", action="store_true", help="update docs/annexation.md")
    args = parser.parse_args(argv)
    agents = list(AIS)
    started = time.perf_counter()
    results = round_robin(agents, board_of(args.board), args.games, args.seed)
    command = "python benches/annexation_strength.py" + (
        f" --games {args.games} --board {args.board} --seed {args.seed}"
    )
    table = markdown(agents, results, args.games, command)
    print(table)
    print(f"\n({time.perf_counter() - started:.0f} s)")
    if args.write:
        write_table(DOCS, table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
