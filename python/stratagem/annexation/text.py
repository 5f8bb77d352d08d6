"""An annexation position as text: a header line, then one character per cell."""

from __future__ import annotations

import itertools

import numpy as np

from stratagem.annexation.game import Game

__all__ = ["PLAYER_MARKS", "render_text"]

PLAYER_MARKS = "ABCD"
_COLOUR_MARKS = "0123456789abcdef"
_LATTICES = ("hex", "hexrect", "grid")


def render_text(game: Game) -> str:
    """The position: a header line, then a colour as a hex digit or an owned cell as its
    owner's letter, in rows for lattice boards (40 to a line otherwise)."""
    board = game.board
    if game.is_over:
        status = "drawn" if game.winner is None else f"won by {PLAYER_MARKS[game.winner]}"
    else:
        status = f"{PLAYER_MARKS[game.to_move]} to move"
    colours = ",".join(str(int(c)) for c in game.player_colours)
    scores = ",".join(str(int(s)) for s in game.scores)
    header = f"{board.kind} moves={game.moves} scores={scores} colours={colours} {status}"
    owner = game.owner.tolist()
    shown = game.cell_colours.tolist()
    marks = [
        PLAYER_MARKS[who] if who >= 0 else _COLOUR_MARKS[colour]
        for who, colour in zip(owner, shown, strict=True)
    ]
    lattice = board.kind.split(":")[0]
    if lattice not in _LATTICES or board.centres is None:
        return "\n".join([header] + ["".join(marks[i : i + 40]) for i in range(0, len(marks), 40)])
    ys = board.centres[:, 1]
    breaks = [0, *(np.flatnonzero(ys[1:] != ys[:-1]) + 1).tolist(), board.cells]
    rows = [marks[a:b] for a, b in itertools.pairwise(breaks)]
    widest = max(len(row) for row in rows)
    lines = [header]
    for index, row in enumerate(rows):
        if lattice == "hex":
            indent = widest - len(row)
        elif lattice == "hexrect":
            indent = index % 2
        else:
            indent = 0
        lines.append(" " * indent + " ".join(row))
    return "\n".join(lines)
