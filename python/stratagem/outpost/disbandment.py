"""When would mutual disbandment not happen? The seed's question, answered by construction
(``docs/outpost.md``, "Mutual disbandment").

Outposts of two empires on one cell ``c`` are both at distance 0 from it, so ``c`` is disputed
and passable for neither. At the supply check (step 4 of a turn):

- by default an outpost survives only on a passable cell: every outpost on ``c`` is cut off,
  always. Mutual disbandment is avoided only if the sharing ends before the check: a season
  builds an empire's outpost on its home while an enemy outpost stands there (the only way
  two empires start a move phase on one cell, since a shared cell never outlives a check),
  and one of the two steps off;
- with ``supply_fringe`` (the 2014 simulator) the outpost of empire ``e`` on ``c`` survives
  when ``c`` is ``e``'s home, or when ``c`` touches a cell reached from ``e``'s home through
  passable cells; ``c``'s neighbours are disputed too unless an outpost of ``e`` stands on one.
  So ``e`` keeps its outpost on its own home, or with a second outpost beside ``c`` on a
  supplied cell; both empires keep theirs when each has one beside ``c``.

:data:`CONFIGURATIONS` are the cases, each a position at the supply check on an all-land map
with r = 3, and ``python -m stratagem.outpost.disbandment DIRECTORY`` draws them
(``docs/img/outpost-disbandment-*.png``). The tests check every one with the engine and the
oracle.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stratagem import _core
from stratagem._plotting import matplotlib, save_figure
from stratagem.outpost.geometry import GRID

__all__ = ["CONFIGURATIONS", "Configuration", "checked", "draw"]

R = 3
# The cell two empires share, away from every home (except in the cases that use a home).
SHARED = (8, 3)


@dataclass(frozen=True)
class Configuration:
    """A position at the supply check: ``outposts`` rows ``[id, empire, x, y]``; ``before``,
    when the sharing began in the same turn, the position at the start of its move phase.
    ``cut`` are the ids the rules cut off."""

    name: str
    title: str
    fringe: bool
    outposts: tuple[tuple[int, int, int, int], ...]
    cut: tuple[int, ...]
    before: tuple[tuple[int, int, int, int], ...] = ()


# Empires 1, 2 and 3 keep an outpost on their homes (ids 1..3); empire 0 on its own (id 0)
# unless said otherwise.
_HOMES = ((1, 1, 99, 0), (2, 2, 99, 99), (3, 3, 0, 99))
_X, _Y = SHARED

CONFIGURATIONS: tuple[Configuration, ...] = (
    Configuration(
        "default",
        "default rules: both outposts on the shared cell are cut off",
        fringe=False,
        outposts=((0, 0, 0, 0), *_HOMES, (4, 0, _X, _Y), (5, 1, _X, _Y)),
        cut=(4, 5),
    ),
    Configuration(
        "season",
        "default rules: a season builds on a home an enemy holds; the enemy steps off",
        fringe=False,
        before=(*_HOMES, (4, 1, 0, 0), (5, 0, 0, 0)),
        outposts=(*_HOMES, (4, 1, 1, 0), (5, 0, 0, 0)),
        cut=(),
    ),
    Configuration(
        "fringe-home",
        "supply_fringe: the shared cell is empire 0's home; empire 0 keeps its outpost",
        fringe=True,
        outposts=((0, 0, 0, 0), *_HOMES, (4, 1, 0, 0)),
        cut=(4,),
    ),
    Configuration(
        "fringe-one-side",
        "supply_fringe: empire 0 has an outpost beside the shared cell and keeps its own",
        fringe=True,
        outposts=((0, 0, 0, 0), *_HOMES, (4, 0, _X - 1, _Y), (5, 0, _X, _Y), (6, 1, _X, _Y)),
        cut=(6,),
    ),
    Configuration(
        "fringe-both-sides",
        "supply_fringe: each empire has an outpost beside the shared cell; both keep theirs",
        fringe=True,
        outposts=(
            (0, 0, 0, 0),
            *_HOMES,
            (4, 0, _X - 1, _Y),
            (5, 0, _X, _Y),
            (6, 1, _X, _Y),
            (7, 1, _X + 1, _Y),
        ),
        cut=(),
    ),
)


def land() -> NDArray[np.bool_]:
    """The map of every configuration: no water."""
    return np.zeros((GRID, GRID), dtype=np.bool_)


def rows(outposts: tuple[tuple[int, int, int, int], ...]) -> NDArray[np.int64]:
    """Outposts as the engine takes them, in increasing id."""
    return np.array(sorted(outposts), dtype=np.int64).reshape(-1, 4)


def checked(configuration: Configuration) -> tuple[NDArray[np.int8], list[int]]:
    """The engine's control map and cut-off ids of ``configuration``'s position."""
    water, position = land(), rows(configuration.outposts)
    control = _core.outpost.control(water, position, R)
    return control, sorted(_core.outpost.cut_off(water, control, position, configuration.fringe))


def _panel(axes: Any, outposts: NDArray[np.int64], cut: list[int], title: str) -> None:
    from stratagem.outpost.plot import control_image

    width, height = 18, 8
    control = _core.outpost.control(land(), outposts, R)
    axes.imshow(
        control_image(control, land())[:height, :width], origin="upper", interpolation="nearest"
    )
    shared: dict[tuple[int, int], list[int]] = {}
    for outpost, _, x, y in outposts.tolist():
        if x < width and y < height:
            shared.setdefault((x, y), []).append(outpost)
    for (x, y), ids in shared.items():
        label = ",".join(str(i) for i in ids)
        gone = any(i in cut for i in ids)
        axes.annotate(
            label + (" cut" if gone else ""),
            (x, y),
            ha="center",
            va="center",
            fontsize=7,
            color="black",
            bbox={"boxstyle": "round,pad=0.15", "fc": "white", "alpha": 0.8},
        )
    axes.set_title(title, fontsize=8)
    axes.set_xticks(range(0, width, 2))
    axes.set_yticks(range(0, height, 2))


def draw(configuration: Configuration, path: str | os.PathLike[str]) -> Path:
    """A picture of ``configuration``: the corner of the grid with who controls each cell
    and each outpost's id ("cut" when the check cuts it off); with the move phase's start
    beside it when the sharing began in the same turn."""
    matplotlib()
    from matplotlib.figure import Figure

    _, cut = checked(configuration)
    panels = [(rows(configuration.outposts), cut, "at the supply check")]
    if configuration.before:
        panels.insert(0, (rows(configuration.before), [], "after the season's build"))
    figure = Figure(figsize=(max(6.0, 4.2 * len(panels)), 2.6))
    axes = figure.subplots(1, len(panels), squeeze=False)
    for ax, (outposts, gone, title) in zip(axes[0], panels, strict=True):
        _panel(ax, outposts, gone, title)
    figure.suptitle(configuration.title, fontsize=9)
    figure.tight_layout()
    target = Path(path)
    save_figure(figure, target, dpi=110)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Draw the mutual-disbandment configurations.")
    parser.add_argument("directory", type=Path, help="where outpost-disbandment-*.png go")
    args = parser.parse_args(argv)
    args.directory.mkdir(parents=True, exist_ok=True)
    for configuration in CONFIGURATIONS:
        print(draw(configuration, args.directory / f"outpost-disbandment-{configuration.name}.png"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
