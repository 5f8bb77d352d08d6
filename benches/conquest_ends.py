"""How often the default conquest game ends, for every pair of built-in players:
``python benches/conquest_ends.py [--seeds N] [--first S] [--turns T] [--write]``.

Each pair (a player against itself too) plays the default game (``stratagem conquest play
--players A,B --seed S``: the board, start, troops and rate of ``stratagem.conquest.defaults``)
for the seeds ``first .. first + N - 1`` with the turn limit ``T`` (default: the default
limit). A row gives the games won or drawn within the limit, those within 500 turns, and the
median and longest length of the games that ended. ``--write`` puts the table into
``docs/conquest.md`` between the ``ends-table`` markers.
"""

from __future__ import annotations

import argparse
import itertools
import time
from pathlib import Path

import numpy as np

from stratagem.conquest import POLICIES, Board, Game, defaults
from stratagem.conquest.game import start
from stratagem.progress import Progress
from strength import write_table

DOCS = Path(__file__).resolve().parent.parent / "docs" / "conquest.md"
#: The default limit before the siege (docs/conquest-rules.md), for comparison.
SHORT = 500


def lengths(players: tuple[str, str], seeds: range, turns: int) -> list[int | None]:
    """The length of each seed's default game between ``players``, None if undecided."""
    board = Board.from_spec(defaults.BOARD)
    ends: list[int | None] = []
    for seed in seeds:
        team, troops = start(board, 2, defaults.TROOPS, defaults.ASSIGN, seed, progress=False)
        game = Game(board, team, troops, list(players), seed=seed, max_turns=turns)
        result = game.run()
        ends.append(None if result.status == "unfinished" else result.turns)
    return ends


def markdown(rows: dict[tuple[str, str], list[int | None]], command: str, turns: int) -> str:
    lines = [
        f"`{command}`",
        "",
        f"| A | B | ended within {turns} | within {SHORT} | median turns | longest |",
        "|---|---|---|---|---|---|",
    ]
    for (a, b), ends in rows.items():
        done = [t for t in ends if t is not None]
        short = sum(t <= SHORT for t in done)
        median = f"{np.median(done):.0f}" if done else "-"
        longest = max(done) if done else "-"
        lines.append(f"| {a} | {b} | {len(done)} of {len(ends)} | {short} | {median} | {longest} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=400, help="seeds a pair (default 400)")
    parser.add_argument("--first", type=int, default=0, help="first seed (default 0)")
    parser.add_argument(
        "--turns", type=int, default=defaults.TURNS, help=f"limit (default {defaults.TURNS})"
    )
    parser.add_argument("--write", action="store_true", help="write the table into the docs")
    args = parser.parse_args()
    if args.seeds < 1 or args.turns < 1:
        parser.error("--seeds and --turns must be at least 1")
    seeds = range(args.first, args.first + args.seeds)
    pairs = list(itertools.combinations_with_replacement(POLICIES, 2))
    started = time.perf_counter()
    rows = {}
    with Progress(len(pairs), "pairs", enabled=True) as bar:
        for pair in pairs:
            rows[pair] = lengths(pair, seeds, args.turns)
            bar.advance()
    command = (
        f"python benches/conquest_ends.py --seeds {args.seeds} --first {args.first} "
        f"--turns {args.turns}"
    )
    table = markdown(rows, command, args.turns)
    print(table)
    print(f"\n{time.perf_counter() - started:.0f} s")
    if args.write:
        write_table(DOCS, table, block="ends-table")
        print(f"wrote {DOCS}")


if __name__ == "__main__":
    main()
