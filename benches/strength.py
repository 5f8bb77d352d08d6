"""What the strength benches share: the least-squares Elo fit of a round robin and the table
they write between the markers of a block of a game's doc page."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from pathlib import Path

import numpy as np


def elo_difference(score: float, games: int) -> float:
    """The Elo difference a score (wins 1, draws 1/2, over ``games``) stands for; a clean
    sweep is held half a game short of it, so it stays finite."""
    held = min(max(score, 0.5 / games), 1 - 0.5 / games)
    return -400 * math.log10(1 / held - 1)


def fit_elo(
    players: list[str], scores: Iterable[tuple[int, int, float, int]], anchor: int = 0
) -> dict[str, float]:
    """Least-squares Elo from the pairwise differences: ``scores`` holds ``(a, b, score,
    games)``, a's score against b over ``games``; player ``anchor`` stands at 0."""
    rows, targets = [], []
    for a, b, score, games in scores:
        row = np.zeros(len(players))
        row[a], row[b] = 1.0, -1.0
        rows.append(row)
        targets.append(elo_difference(score, games))
    fixed = np.zeros(len(players))
    fixed[anchor] = 1.0
    solution, *_ = np.linalg.lstsq(np.array([*rows, fixed]), np.array([*targets, 0.0]))
    return {name: float(value) for name, value in zip(players, solution, strict=True)}


def write_table(page: Path, table: str, block: str = "strength-table") -> None:
    """Puts ``table`` between the page's ``block`` markers (``<!-- block: begin -->`` and
    ``<!-- block: end -->``), in place of what stood there."""
    begin, end = f"<!-- {block}: begin -->", f"<!-- {block}: end -->"
    text = page.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(begin) + ".*?" + re.escape(end), re.DOTALL)
    if not pattern.search(text):
        raise SystemExit(f"{page} has no {begin} ... {end} block")
    page.write_text(pattern.sub(lambda _: f"{begin}\n{table}\n{end}", text), encoding="utf-8")
