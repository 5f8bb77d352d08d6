"""The conquest players' strength table: ``python benches/conquest_strength.py [--games G]
[--deals K] [--board SPEC] [--assign random|regions] [--turns N] [--seed N] [--write]``.

A round robin of every built-in player at its defaults (``stratagem.conquest.tournament``:
two teams, seats swapped halfway), played ``K`` times from seeds ``seed .. seed + K - 1`` with
``G / K`` games a pair each: a tournament deals one start per pair, and one deal can favour a
style, so the table averages over ``K`` deals a pair. Each row is one pairing: A's wins,
B's wins, the games still undecided at the turn limit, A's score (a win 1, an undecided game
1/2) with its Wilson 95% interval and the Elo difference. Below it each player's rating: a
least-squares fit of the pairwise Elo differences (scores held half a game away from 0 and 1,
so that a clean sweep stays finite), random at 0; and a picture of the win rates, row against
column. ``--cost SPEC`` instead measures what a decision of ``search`` costs on that board:
the time of its turns less that of the same turns with ``balanced`` in its place.
``--write`` puts the tables into ``docs/conquest.md`` between the ``strength-table``
markers and the picture into ``docs/img/conquest-strength.png``.
"""

from __future__ import annotations

import argparse
import itertools
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from stratagem.conquest import POLICIES, Board, Game
from stratagem.conquest.game import wilson_interval
from stratagem.conquest.tournament import PairResult, round_robin
from strength import elo_difference, fit_elo, write_table

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "conquest.md"
PICTURE = ROOT / "docs" / "img" / "conquest-strength.png"


def score(pair: PairResult) -> float:
    """The first player's score: a win 1, a draw or an undecided game 1/2."""
    return (pair.first_wins + 0.5 * (pair.games - pair.first_wins - pair.second_wins)) / pair.games


def combined(pairs: list[PairResult]) -> PairResult:
    """One pairing's games over several deals, as one record."""
    games = sum(p.games for p in pairs)
    return PairResult(
        first=pairs[0].first,
        second=pairs[0].second,
        games=games,
        first_wins=sum(p.first_wins for p in pairs),
        second_wins=sum(p.second_wins for p in pairs),
        draws=sum(p.draws for p in pairs),
        unfinished=sum(p.unfinished for p in pairs),
        mean_turns=sum(p.mean_turns * p.games for p in pairs) / games,
    )


def ratings(players: list[str], pairs: list[PairResult]) -> dict[str, float]:
    """Least-squares Elo from the pairwise differences, random at 0."""
    scores = [(players.index(p.first), players.index(p.second), score(p), p.games) for p in pairs]
    return fit_elo(players, scores, anchor=players.index("random"))


def markdown(players: list[str], pairs: list[PairResult], command: str) -> str:
    lines = [
        f"`{command}`",
        "",
        "| A | B | A wins | B wins | undecided | A's score (95% interval) | Elo A - B |",
        "|---|---|---|---|---|---|---|",
    ]
    for pair in pairs:
        points = 2 * pair.first_wins + (pair.games - pair.first_wins - pair.second_wins)
        low, high = wilson_interval(np.array([points]), 2 * pair.games)
        value = score(pair)
        lines.append(
            f"| {pair.first} | {pair.second} | {pair.first_wins} | {pair.second_wins} | "
            f"{pair.unfinished + pair.draws} | {value:.3f} ({low[0]:.3f}-{high[0]:.3f}) | "
            f"{elo_difference(value, pair.games):+.0f} |"
        )
    rating = ratings(players, pairs)
    lines += ["", "| player | Elo (random = 0) |", "|---|---|"]
    for name in sorted(players, key=lambda p: -rating[p]):
        lines.append(f"| {name} | {rating[name]:+.0f} |")
    return "\n".join(lines)


def picture(players: list[str], pairs: list[PairResult], title: str, path: Path) -> None:
    """The win rate of each row's player against each column's."""
    k = len(players)
    rates = np.full((k, k), np.nan)
    for pair in pairs:
        a, b = players.index(pair.first), players.index(pair.second)
        rates[a, b] = pair.first_wins / pair.games
        rates[b, a] = pair.second_wins / pair.games
    figure, axes = plt.subplots(figsize=(1.3 * k + 2, 1.1 * k + 1.5))
    image = axes.imshow(rates, cmap="RdYlGn", vmin=0, vmax=1)
    for a, b in itertools.product(range(k), range(k)):
        if a != b:
            axes.text(b, a, f"{rates[a, b]:.2f}", ha="center", va="center", fontsize=9)
    axes.set_xticks(range(k), players, rotation=30, ha="right")
    axes.set_yticks(range(k), players)
    axes.set_xlabel("against")
    axes.set_ylabel("player")
    axes.set_title(title, fontsize=10)
    figure.colorbar(image, ax=axes, label="games won")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def decision_cost(spec: str, search: str, turns: int) -> float:
    """Seconds a decision of ``search`` costs on the board ``spec`` (two regions, against
    ``balanced``): its game's turns less those of the same game with ``balanced`` for it."""
    seconds = []
    for player in (search, "balanced"):
        game = Game.from_spec(spec, 2, 10, [player, "balanced"], seed=1, max_turns=None)
        started = time.perf_counter()
        game.run(turns)
        seconds.append((time.perf_counter() - started) / game.turn)
    return seconds[0] - seconds[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60, help="games per pair (default 60)")
    parser.add_argument("--deals", type=int, default=30, help="starts a pair (default 30)")
    parser.add_argument("--board", default="er:600:degree=8", help="board spec")
    parser.add_argument("--assign", default="random", choices=("random", "regions"))
    parser.add_argument("--turns", type=int, default=300, help="turn limit (default 300)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--write", action="store_true", help="write the docs and picture")
    parser.add_argument("--cost", metavar="SPEC", help="measure a search decision on SPEC")
    parser.add_argument("--search", default="search", help="the search of --cost")
    args = parser.parse_args()
    if args.cost:
        seconds = decision_cost(args.cost, args.search, args.turns)
        print(f"{args.search} on {args.cost}: {1000 * seconds:.1f} ms a decision")
        return
    board = Board.from_spec(args.board)
    players = list(POLICIES)
    if args.deals < 1 or args.games % args.deals or args.games // args.deals < 2:
        parser.error("--games must be a multiple of --deals with at least 2 games a deal")
    started = time.perf_counter()
    results = [
        round_robin(
            board,
            players,
            games=args.games // args.deals,
            seed=args.seed + deal,
            max_turns=args.turns,
            assign=args.assign,
            progress=True,
        )
        for deal in range(args.deals)
    ]
    pairs = [combined(list(same)) for same in zip(*(r.pairs for r in results), strict=True)]
    seconds = time.perf_counter() - started
    command = (
        f"python benches/conquest_strength.py --games {args.games} --deals {args.deals} "
        f"--board {args.board} --assign {args.assign} --turns {args.turns} --seed {args.seed}"
    )
    table = markdown(players, pairs, command)
    print(table)
    print(f"\n{seconds:.0f} s")
    if args.write:
        title = f"{board.kind}, {args.deals} {args.assign} deals, {args.games} games a pair"
        picture(players, pairs, title, PICTURE)
        write_table(DOCS, table)
        print(f"wrote {DOCS} and {PICTURE}")


if __name__ == "__main__":
    main()
