"""The outpost built-in players' strength table: ``python benches/outpost_strength.py
[--turns T] [--rotations cyclic|all] [--seed N] [--threads N] [--write]``.

Every built-in player in every seating of the 2014 preset (maps lakes, rivers, mixed; r=7 with
L, W = 12, 3 and 40, 10), all four at the same table. Two tables: each player's mean score
per setting (map and parameters), and the pairwise matrix: how often the row's player ends
with more cells than the column's in the same game (a tie counts half). Below them each
player's rating: a least-squares fit of the pairwise Elo differences (scores held half a game
away from 0 and 1, so that a clean sweep stays finite), random at 0. ``--write`` puts the
tables into ``docs/outpost.md`` between the ``strength-table`` markers and the matrix as a
picture into ``docs/img/outpost-strength.png``.
"""

from __future__ import annotations

import argparse
import itertools
import time
from pathlib import Path

import matplotlib as mpl

mpl.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from numpy.typing import NDArray

from stratagem.outpost import BUILTIN_PLAYERS, TOURNAMENT_2014, Params, tournament
from stratagem.outpost.tournament import TournamentResult
from strength import fit_elo, write_table

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGE, PICTURE = DOCS / "outpost.md", DOCS / "img" / "outpost-strength.png"


def pairwise(result: TournamentResult) -> NDArray[np.float64]:
    """``share[a, b]``: the games in which player a ends with more cells than b (ties half),
    over the games both played."""
    n = len(result.players)
    points, games = np.zeros((n, n)), np.zeros((n, n))
    for fixture, scores in zip(result.fixtures, result.scores, strict=True):
        for (i, a), (j, b) in itertools.permutations(enumerate(fixture.seats), 2):
            games[a, b] += 1
            points[a, b] += 1.0 if scores[i] > scores[j] else 0.5 if scores[i] == scores[j] else 0
    share: NDArray[np.float64] = np.full((n, n), np.nan)
    np.divide(points, games, out=share, where=games > 0)
    return share


def ratings(players: list[str], share: NDArray[np.float64], games: int) -> dict[str, float]:
    """Least-squares Elo from the pairwise differences, the first player at 0."""
    pairs = itertools.combinations(range(len(players)), 2)
    return fit_elo(players, [(a, b, float(share[a, b]), games) for a, b in pairs])


def markdown(result: TournamentResult, share: NDArray[np.float64], command: str) -> str:
    players = list(result.players)
    games = len(result.fixtures)
    lines = [f"`{command}` ({games} games)", ""]
    lines += ["| map | L, W | " + " | ".join(players) + " |", "|---|---|" + "---|" * len(players)]
    settings: dict[tuple[str | None, Params | None], dict[str, float]] = {}
    for row in result.table(by=("map", "params")):
        settings.setdefault((row.map, row.params), {})[row.player] = row.mean_score
    for (map_name, params), means in settings.items():
        best = max(means.values())
        cells = [f"**{means[p]:.0f}**" if means[p] == best else f"{means[p]:.0f}" for p in players]
        costs = f"{params.L}, {params.W}" if params is not None else ""
        lines.append(f"| {map_name} | {costs} | " + " | ".join(cells) + " |")
    overall = {row.player: row.mean_score for row in result.table()}
    lines.append("| all | | " + " | ".join(f"{overall[p]:.0f}" for p in players) + " |")
    lines += ["", "| row outscores column | " + " | ".join(players) + " |"]
    lines.append("|---|" + "---|" * len(players))
    for a, name in enumerate(players):
        cells = ["" if a == b else f"{share[a, b]:.2f}" for b in range(len(players))]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    rating = ratings(players, share, games)
    lines += ["", "| player | Elo (fit, random = 0) |", "|---|---|"]
    for name in sorted(players, key=lambda n: -rating[n]):
        lines.append(f"| {name} | {round(rating[name]) + 0:+d} |")
    return "\n".join(lines)


def picture(players: list[str], share: NDArray[np.float64], title: str, path: Path) -> None:
    figure, axes = plt.subplots(figsize=(5.2, 4.4), dpi=120)
    image = axes.imshow(share, cmap="RdBu", vmin=0, vmax=1)
    axes.set_xticks(range(len(players)), players)
    axes.set_yticks(range(len(players)), players)
    axes.set_xlabel("opponent")
    axes.set_ylabel("player")
    for a, b in itertools.product(range(len(players)), repeat=2):
        if a != b:
            axes.text(b, a, f"{share[a, b]:.2f}", ha="center", va="center", fontsize=10)
    figure.colorbar(image, ax=axes, label="share of games the player outscores the opponent")
    axes.set_title(title, fontsize=9)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=4444, help="T of every game (default 4444)")
    parser.add_argument("--rotations", choices=("cyclic", "all"), default="all")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--write", action="store_true", help="update docs/outpost.md")
    args = parser.parse_args(argv)
    params = [p._replace(T=args.turns) for p in TOURNAMENT_2014["params"]]
    started = time.perf_counter()
    result = tournament(
        maps=TOURNAMENT_2014["maps"],
        params=params,
        players=BUILTIN_PLAYERS,
        rotations=args.rotations,
        seed=args.seed,
        threads=args.threads,
    )
    share = pairwise(result)
    command = (
        f"python benches/outpost_strength.py --turns {args.turns} "
        f"--rotations {args.rotations} --seed {args.seed}"
    )
    table = markdown(result, share, command)
    print(table)
    print(f"\n({time.perf_counter() - started:.0f} s)")
    if args.write:
        write_table(PAGE, table)
        title = f"2014 preset, T={args.turns}, {len(result.fixtures)} games"
        picture(list(result.players), share, title, PICTURE)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
