"""An mkdocs hook: the front page's picture of each game, drawn by stratagem itself at every
build (so they always show what the code draws now) and added to the site as
``img/front/<game>.png``.

Each is a short game of built-in players through the protocol every game shows
(``stratagem.games.make``, ``suggest``, ``step``, ``picture``), with a fixed seed; Mastermind,
a one-player game of no board, shows the guesses two strategies need over every secret
instead. Together they take a few seconds.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

from stratagem import games
from stratagem.mastermind import evaluate
from stratagem.mastermind.plot import plot_evaluations

FOLDER = "img/front"


def _played(name: str, players: Sequence[str], turns: int, **config: Any) -> Callable[[Path], None]:
    """Draws game ``name`` (``config``, seed 1) after at most ``turns`` turns of ``players``
    (seat ``q`` plays ``players[q % len(players)]``)."""

    def draw(path: Path) -> None:
        game = games.make(name, seed=1, **config)
        while not game.is_over and game.turn < turns:
            game.step(
                {seat: game.suggest(seat, players[seat % len(players)]) for seat in game.to_move()}
            )
        game.picture(str(path))

    return draw


def _mastermind(path: Path) -> None:
    plot_evaluations([evaluate(4, 6, name) for name in ("knuth", "first")], path)


PICTURES: dict[str, Callable[[Path], None]] = {
    "conquest": _played(
        "conquest",
        ["aggressive", "balanced", "opportunist", "random"],
        8,
        board="grid:14x14",
        teams=4,
    ),
    "annexation": _played("annexation", ["greedy", "random"], 30, board="hex:8"),
    "outpost": _played("outpost", ["spread", "frontier", "random", "lookahead"], 200),
    "mastermind": _mastermind,
    "diplomacy": _played("diplomacy", ["combined"], 0),
}


def on_files(files: Files, config: MkDocsConfig) -> Files:
    with tempfile.TemporaryDirectory() as folder:
        for game, draw in PICTURES.items():
            path = Path(folder) / f"{game}.png"
            draw(path)
            files.append(File.generated(config, f"{FOLDER}/{game}.png", content=path.read_bytes()))
    return files
