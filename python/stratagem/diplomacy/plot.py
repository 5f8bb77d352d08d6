"""A schematic picture of a Diplomacy position (a PNG file or a matplotlib figure).

:func:`plot_position` draws each province as a node at its plotting coordinates
(``Map.xy``, x to the east and y to the south): land and coastal provinces sand-coloured, seas
blue. Light grey lines join provinces an army can move between, light blue lines the further
pairs only a fleet can (a named coast's line starts at the coast's own coordinates). A supply
centre is a larger node ringed in its owner's colour (:data:`POWER_COLOURS`, light grey when
nobody owns it) and filled with a light shade of it; a home centre's ring is dashed when its
power does not own it. Units are ``A`` and ``F`` tags in their power's colour, a fleet on a
named coast at the coast's coordinates. The legend gives each power's colour, units and
centres, and what the land, sea, neutral centre and unit marks are.

matplotlib (``pip install 'stratagem[plot]'``) is imported when a picture is drawn. With
``path`` the picture is drawn on a figure of its own (Agg renderer, whatever pyplot's backend)
and written as a PNG; without it the figure comes from pyplot, for interactive use.

>>> import tempfile
>>> from pathlib import Path
>>> from stratagem.diplomacy.position import Position
>>> picture = Path(tempfile.mkdtemp()) / "position.png"
>>> position = Position.parse("RUS: F STP/SC, A MOS / STP MOS SEV; TUR: F ANK / ANK")
>>> _ = plot_position(position, picture)
>>> picture.read_bytes()[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from stratagem._plotting import legend_below, matplotlib, png_path, save_figure
from stratagem.errors import InvalidParameter

if TYPE_CHECKING:
    from stratagem.diplomacy.map import Map
    from stratagem.diplomacy.position import Position

__all__ = ["LAND_COLOUR", "POWER_COLOURS", "SEA_COLOUR", "plot_position", "power_colour"]

#: The colour of each power, by its place in ``Map.powers`` (the standard map's AUS red, ENG
#: pink, FRA blue, GER dark grey, ITA green, RUS purple, TUR amber), then three more for
#: variant maps; a map with more powers cycles through them.
POWER_COLOURS = (
    "#d62728",
    "#e377c2",
    "#1f77b4",
    "#4d4d4d",
    "#2ca02c",
    "#9467bd",
    "#e6a700",
    "#17becf",
    "#bcbd22",
    "#ff7f0e",
)
#: The fill of land and coastal provinces ...
LAND_COLOUR = "#ede3c4"
#: ... and of seas.
SEA_COLOUR = "#9ecae1"
# Light enough not to be read as Germany's dark grey.
_NEUTRAL = "#a3a3a3"
_ARMY_EDGE = "#c8c8c8"
_FLEET_EDGE = "#b9d7ea"


def power_colour(game_map: Map, power: str) -> str:
    """The colour of ``power`` (a code of ``game_map.powers``) in every picture."""
    return POWER_COLOURS[game_map.powers.index(power) % len(POWER_COLOURS)]


def _light(colour: str, share: float = 0.55) -> tuple[float, float, float]:
    """``colour`` with ``share`` of white mixed in."""
    text = colour.lstrip("#")
    red, green, blue = (int(text[i : i + 2], 16) / 255.0 for i in (0, 2, 4))
    return (
        red + (1 - red) * share,
        green + (1 - green) * share,
        blue + (1 - blue) * share,
    )


def _edges(game_map: Map) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    """Province pairs joined for armies, and the location pairs (a named coast drawn at its
    own coordinates) joined only for fleets."""
    army: set[tuple[str, str]] = set()
    for location in game_map.army_locations():
        for other in game_map.army_neighbours(location):
            army.add((min(location, other), max(location, other)))
    fleet: set[tuple[str, str]] = set()
    for location in game_map.fleet_locations():
        here = game_map.province_of(location)
        for other in game_map.fleet_neighbours(location):
            there = game_map.province_of(other)
            if (min(here, there), max(here, there)) not in army:
                fleet.add((min(location, other), max(location, other)))
    return army, fleet


def _label_below(
    ax: Any, text: str, x: float, y: float, *, points: float, size: float, colour: str
) -> None:
    """``text`` centred ``points`` below the point ``(x, y)``."""
    ax.annotate(
        text,
        (x, y),
        xytext=(0, -points),
        textcoords="offset points",
        ha="center",
        va="top",
        fontsize=size,
        color=colour,
        zorder=3,
    )


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _draw_provinces(ax: Any, position: Position) -> None:
    """Each province as a disc: centres ringed in their owner's colour (dashed when a power
    holds another's home), the others plain."""
    game_map = position.map
    xy = game_map.xy
    centres = set(game_map.centres)
    for province, kind in zip(game_map.provinces, game_map.kind, strict=True):
        x, y = xy[province]
        fill: Any = SEA_COLOUR if kind == "sea" else LAND_COLOUR
        if province in centres:
            owner = position.owners.get(province)
            ring = _NEUTRAL if owner is None else power_colour(game_map, owner)
            if owner is not None:
                fill = _light(ring)
            home = game_map.home_of[province]
            style = "--" if home is not None and owner != home else "-"
            ax.scatter(
                [x],
                [y],
                s=330,
                c=[fill],
                edgecolors=ring,
                linewidths=2.6,
                linestyle=style,
                zorder=2,
            )
        else:
            ax.scatter([x], [y], s=120, c=[fill], edgecolors="#8a8a8a", linewidths=0.6, zorder=2)
        _label_below(ax, province, x, y, points=11, size=6, colour="#333333")


def plot_position(
    position: Position, path: str | os.PathLike[str] | None = None, *, title: str | None = None
) -> Any:
    """Draw ``position`` on its map and return the matplotlib figure; with ``path``, also
    write it there as a PNG. ``title`` replaces the default title (the units and centres on
    the board)."""
    from stratagem.diplomacy.position import Position

    if not isinstance(position, Position):
        raise InvalidParameter(f"expected a diplomacy Position, got {type(position).__name__}")
    target = None if path is None else png_path(path)
    matplotlib()
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    if target is not None:
        from matplotlib.figure import Figure

        figure = Figure(figsize=(11.0, 9.5))
    else:
        import matplotlib.pyplot as plt

        figure = plt.figure(figsize=(11.0, 9.5))
    ax = figure.add_subplot()
    game_map = position.map
    xy = game_map.xy
    army, fleet = _edges(game_map)
    for pairs, colour in ((fleet, _FLEET_EDGE), (army, _ARMY_EDGE)):
        for a, b in sorted(pairs):
            ax.plot(
                [xy[a][0], xy[b][0]], [xy[a][1], xy[b][1]], color=colour, linewidth=0.8, zorder=1
            )
    _draw_provinces(ax, position)
    for coast, (x, y) in xy.items():
        if "/" in coast:
            ax.scatter([x], [y], s=18, c=[SEA_COLOUR], edgecolors="#8a8a8a", linewidths=0.5)
            _label_below(ax, coast.partition("/")[2], x, y, points=6, size=5, colour="#555555")
    for unit in position.units:
        x, y = xy[unit.location]
        ax.text(
            x,
            y,
            unit.kind,
            ha="center",
            va="center",
            fontsize=8,
            fontweight="bold",
            color="white",
            zorder=5,
            bbox={
                "boxstyle": "round,pad=0.25",
                "facecolor": power_colour(game_map, unit.power),
                "edgecolor": "black",
                "linewidth": 0.7,
            },
        )
    handles: list[Any] = [
        Patch(
            facecolor=power_colour(game_map, power),
            edgecolor="black",
            label=f"{power}: {_plural(len(position.units_of(power)), 'unit')}, "
            f"{_plural(len(position.centres_of(power)), 'centre')}",
        )
        for power in game_map.powers
    ]
    handles.append(
        Line2D(
            [],
            [],
            linestyle="",
            marker="o",
            markersize=11,
            markerfacecolor="white",
            markeredgecolor=_NEUTRAL,
            markeredgewidth=2,
            label="neutral supply centre",
        )
    )
    handles.extend(
        Line2D(
            [],
            [],
            linestyle="",
            marker="o",
            markersize=7,
            markerfacecolor=fill,
            markeredgecolor="#8a8a8a",
            label=label,
        )
        for fill, label in ((LAND_COLOUR, "land province"), (SEA_COLOUR, "sea"))
    )
    handles.append(
        Line2D(
            [], [], linestyle="", marker="$A$", markersize=8, color="0.2", label="army (F: fleet)"
        )
    )
    legend_below(ax, handles, 4)
    if title is None:
        title = (
            f"{game_map.name} map: {_plural(len(position.units), 'unit')}, "
            f"{len(position.owners)} of {len(game_map.centres)} centres owned"
        )
    ax.set_title(title)
    ax.set_xlim(-0.03, 1.03)
    ax.set_ylim(1.03, -0.03)
    ax.set_aspect("equal")
    ax.set_axis_off()
    if target is not None:
        save_figure(figure, target, dpi=110, bbox_inches="tight")
    return figure
