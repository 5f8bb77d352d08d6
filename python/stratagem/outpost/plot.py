"""Pictures of outpost maps: :func:`render_map` draws the 100 x 100 grid (water blue, land
light green) with each empire's home marked in its colour (:data:`EMPIRE_COLOURS`, shared by
every outpost picture).

matplotlib (``pip install 'stratagem[plot]'``) is imported when a picture is drawn, so the
rest of the package works without it; pictures are drawn on a figure of their own with the Agg
renderer, whatever pyplot's backend.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from stratagem.errors import InvalidParameter

if TYPE_CHECKING:
    from stratagem.outpost.map import Map

__all__ = ["EMPIRE_COLOURS", "LAND_COLOUR", "WATER_COLOUR", "render_map"]

#: The colour of each empire 0..3 (red, amber, violet, brown: apart from each other and from
#: the water and land colours).
EMPIRE_COLOURS = ("#d62728", "#ff9f1c", "#7b2cbf", "#8c564b")
#: The colour of water cells ...
WATER_COLOUR = "#3a7bd5"
#: ... and of land cells.
LAND_COLOUR = "#cfe8b4"


def _matplotlib() -> Any:
    try:
        import matplotlib
    except ImportError as error:
        raise InvalidParameter(
            "pictures need matplotlib: pip install 'stratagem[plot]' (or pip install matplotlib)"
        ) from error
    return matplotlib


def render_map(map: Map, path: str | os.PathLike[str]) -> None:
    """Write a PNG of ``map``'s 100 x 100 grid to ``path``: cell ``(x, y)`` drawn at column
    ``x``, row ``y`` from the top (as the arrays are indexed), water blue, land light green,
    and a star in the empire's colour on each home."""
    from stratagem.outpost.map import GRID, HOMES, Map

    if not isinstance(map, Map):
        raise InvalidParameter(f"expected an outpost Map, got {type(map).__name__}")
    _matplotlib()
    from matplotlib.colors import ListedColormap
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    figure = Figure(figsize=(7.0, 7.6))
    ax = figure.add_subplot()
    ax.imshow(
        map.water.astype("uint8"),
        cmap=ListedColormap([LAND_COLOUR, WATER_COLOUR]),
        vmin=0,
        vmax=1,
        interpolation="nearest",
        origin="upper",
        extent=(-0.5, GRID - 0.5, GRID - 0.5, -0.5),
    )
    handles = []
    for empire, (x, y) in enumerate(HOMES):
        ax.scatter(
            [x],
            [y],
            s=220,
            marker="*",
            c=[EMPIRE_COLOURS[empire]],
            edgecolors="black",
            linewidths=0.8,
            zorder=3,
            clip_on=False,
        )
        handles.append(
            Line2D(
                [],
                [],
                linestyle="",
                marker="*",
                markersize=12,
                markerfacecolor=EMPIRE_COLOURS[empire],
                markeredgecolor="black",
                label=f"empire {empire}",
            )
        )
    ax.legend(
        handles=handles,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.02),
        ncol=len(HOMES),
        fontsize="small",
        frameon=False,
    )
    ax.set_title(
        f"outpost map {map.name!r}: {map.water_count} water cells per quarter"
        f" ({int(map.water.sum())} of {GRID * GRID})"
    )
    ax.set_xlim(-0.5, GRID - 0.5)
    ax.set_ylim(GRID - 0.5, -0.5)
    ax.set_aspect("equal")
    ax.set_xticks([0, 49, 99])
    ax.set_yticks([0, 49, 99])
    figure.savefig(path, dpi=120, format="png", bbox_inches="tight")
