"""Pictures of annexation boards and games (PNG files or matplotlib figures).

:func:`render` draws the cells of a board (hexagons, squares or Voronoi polygons) filled with
the fixed 16-colour :data:`PALETTE` by the colour each cell shows, the outline of each
player's territory as a thick line in the player's colour (:data:`PLAYER_COLOURS`, over a
contrasting halo so that it stands out on any cell colour), and a star on every start cell.
Custom boards without polygons are drawn as coloured discs joined by their edges, at their
centres, else at networkx ``spring_layout(seed=0)`` positions, else on a circle; an owned
disc gets a thick ring in its player's colour. :func:`render_scores` plots each player's
cell count per move.

matplotlib (``pip install 'stratagem[plot]'``) is imported when a picture is drawn, so the
rest of the package works without it. Pictures written to a file are drawn on a figure of
their own with the Agg renderer, whatever pyplot's backend; without ``path`` (and without
``ax``), the figure comes from pyplot, for interactive use.
"""

from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from stratagem._plotting import legend_below, matplotlib, save_figure
from stratagem.errors import InvalidParameter

if TYPE_CHECKING:
    from stratagem.annexation.board import Board

__all__ = ["COLOUR_NAMES", "HALO_COLOURS", "PALETTE", "PLAYER_COLOURS", "render", "render_scores"]

#: The colour of each of the 16 board colours (colour ``c`` is ``PALETTE[c]``).
PALETTE = (
    "#e6194b",  # red
    "#3cb44b",  # green
    "#ffe119",  # yellow
    "#4363d8",  # blue
    "#f58231",  # orange
    "#911eb4",  # purple
    "#42d4f4",  # cyan
    "#f032e6",  # magenta
    "#bfef45",  # lime
    "#fabed4",  # pink
    "#469990",  # teal
    "#dcbeff",  # lavender
    "#9a6324",  # brown
    "#fffac8",  # beige
    "#800000",  # maroon
    "#000075",  # navy
)
#: The name of each colour of :data:`PALETTE`, as the legends give it.
COLOUR_NAMES = (
    "red",
    "green",
    "yellow",
    "blue",
    "orange",
    "purple",
    "cyan",
    "magenta",
    "lime",
    "pink",
    "teal",
    "lavender",
    "brown",
    "beige",
    "maroon",
    "navy",
)
#: The line colour of each player (0 to 3) ...
PLAYER_COLOURS = ("#ffffff", "#000000", "#ff2020", "#20c0ff")
#: ... and of the halo drawn under it.
HALO_COLOURS = ("#000000", "#ffffff", "#000000", "#000000")

# Vertices closer than 2**-20 of the board's extent are the same point (shared polygon edges
# are computed from different centres, so they agree only to rounding).
_GRID = float(1 << 20)


def _new_figure(path: object, figsize: tuple[float, float]) -> Any:
    """A figure of its own (Agg renderer) when writing a file, else one from pyplot."""
    matplotlib()
    if path is not None:
        from matplotlib.figure import Figure

        return Figure(figsize=figsize)
    import matplotlib.pyplot as plt

    return plt.figure(figsize=figsize)


def _write(figure: Any, path: str | os.PathLike[str] | None) -> None:
    if path is not None:
        save_figure(figure, path, dpi=120, bbox_inches="tight")


def _cell_vector(name: str, value: ArrayLike, n: int, low: int, high: int) -> NDArray[np.int64]:
    array = np.asarray(value)
    if array.shape != (n,):
        raise InvalidParameter(
            f"{name} must have one entry per cell ({n}), got shape {array.shape}"
        )
    if array.dtype.kind not in "iu":
        raise InvalidParameter(f"{name} must hold integers, got dtype {array.dtype}")
    bad = np.flatnonzero((array < low) | (array > high))
    if bad.size:
        cell = int(bad[0])
        raise InvalidParameter(f"{name}[{cell}] is {array[cell]}, outside {low}..{high}")
    return array.astype(np.int64)


def _positions(board: Board) -> NDArray[np.float64]:
    """Where to draw the cells of a board: its centres, a spring layout, or a circle."""
    if board.centres is not None:
        return np.asarray(board.centres, dtype=np.float64)
    try:
        import networkx as nx
    except ImportError:
        angles = np.arange(board.cells) * (2.0 * math.pi / board.cells)
        return np.stack((np.cos(angles), np.sin(angles)), axis=1)
    graph = nx.Graph()
    graph.add_nodes_from(range(board.cells))
    graph.add_edges_from(board.edges().tolist())
    placed = nx.spring_layout(graph, seed=0)
    return np.array([placed[cell] for cell in range(board.cells)], dtype=np.float64)


def _outline(
    vertices: NDArray[np.float64],
    starts: NDArray[np.int64],
    ends: NDArray[np.int64],
    keys: NDArray[np.int64],
    mine: NDArray[np.bool_],
) -> NDArray[np.float64]:
    """The polygon edges of the cells in ``mine`` that no other cell in ``mine`` shares:
    the outline of a territory, as ``(s, 2, 2)`` segments."""
    if not mine.any():
        return np.zeros((0, 2, 2))
    pairs = np.sort(keys[mine], axis=1)
    _, first, counts = np.unique(pairs, axis=0, return_index=True, return_counts=True)
    chosen = first[counts == 1]
    return np.stack((vertices[starts[mine][chosen]], vertices[ends[mine][chosen]]), axis=1)


def _halo(width: float, halo: str) -> list[Any]:
    from matplotlib import patheffects

    return [patheffects.Stroke(linewidth=width * 2.0, foreground=halo), patheffects.Normal()]


def render(
    board: Board,
    *,
    owner: ArrayLike | None = None,
    cell_colours: ArrayLike | None = None,
    path: str | os.PathLike[str] | None = None,
    title: str | None = None,
    ax: Any = None,
) -> Any:
    """Draw ``board`` and return the matplotlib Figure; with ``path``, also write a PNG.

    ``cell_colours`` (the colour each cell shows, e.g. a game state's) defaults to the
    board's colours; ``owner[i]`` is the player owning cell ``i`` or -1. Each player's
    territory is outlined; the legend shows each player's outline around the colour its
    territory shows now, with its letter and cell count, then every colour of the board by its
    number and name (a move is a colour's number). ``ax`` draws into existing axes (their
    figure is returned).
    """
    from stratagem.annexation.board import Board

    if not isinstance(board, Board):
        raise InvalidParameter(f"expected an annexation Board, got {type(board).__name__}")
    n, players = board.cells, board.players
    shown = _cell_vector(
        "cell_colours",
        board.colours if cell_colours is None else cell_colours,
        n,
        0,
        board.colour_count - 1,
    )
    owners = None if owner is None else _cell_vector("owner", owner, n, -1, players - 1)
    matplotlib()
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    xy = _positions(board)
    if ax is None:
        extent = np.ptp(xy, axis=0) if n > 1 else np.ones(2)
        ratio = float(extent[1] / extent[0]) if extent[0] > 0 else 1.0
        ratio = min(max(ratio, 0.6), 1.6)
        figure = _new_figure(path, (8.0, 8.0 * ratio + 0.8))
        ax = figure.add_subplot()
    else:
        figure = ax.figure
    # Lines thin out as cells multiply (about 2.6 points at 217 cells, 1.6 at 1027).
    width = min(3.0, max(0.8, 38.0 / math.sqrt(n)))
    fills = [PALETTE[c] for c in shown.tolist()]
    polygons = board.polygons
    if polygons is not None:
        marker_size = _draw_cells(
            ax, polygons=polygons, fills=fills, owners=owners, players=players, width=width
        )
    else:
        marker_size = _draw_graph(ax, board=board, xy=xy, fills=fills, owners=owners, width=width)
    for q, cell in enumerate(board.starts.tolist()):
        ax.scatter(
            [xy[cell, 0]],
            [xy[cell, 1]],
            s=marker_size,
            marker="*",
            c=[PLAYER_COLOURS[q]],
            edgecolors=HALO_COLOURS[q],
            linewidths=0.5 * width,
            zorder=4,
        )
    handles: list[Any] = []
    for q in range(players):
        # A player's cells all show its current colour: the one its start cell shows.
        colour = int(shown[int(board.starts[q])])
        owned = owners is not None and owners[int(board.starts[q])] == q
        label = f"player {q} ({'ABCD'[q]})"
        if owners is not None:
            cells = int(np.count_nonzero(owners == q))
            label += f": {cells} cell{'s' if cells != 1 else ''}"
        if owned:
            label += f", {COLOUR_NAMES[colour]}"
        handles.append(
            Patch(
                facecolor=PALETTE[colour] if owned else "none",
                edgecolor=PLAYER_COLOURS[q],
                linewidth=2.0,
                path_effects=_halo(2.0, HALO_COLOURS[q]),
                label=label,
            )
        )
    handles.append(
        Line2D([], [], linestyle="", marker="*", markersize=11, color="0.2", label="start cell")
    )
    legend_below(ax, handles, players + 1)
    # The board's colours, by number (a move is a colour's number), in rows of 8 below.
    ax.add_artist(ax.get_legend())
    colours = [
        Patch(facecolor=PALETTE[c], edgecolor="0.4", label=f"{c} {COLOUR_NAMES[c]}")
        for c in range(board.colour_count)
    ]
    legend_below(ax, colours, min(8, board.colour_count), gap=0.055)
    ax.set_title(
        title
        if title is not None
        else f"Annexation board {board.kind}: {n:,} cells, {board.colour_count} colours"
    )
    ax.set_aspect("equal")
    ax.autoscale_view()
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)
    _write(figure, path)
    return figure


def _draw_cells(
    ax: Any,
    *,
    polygons: tuple[NDArray[np.float64], ...],
    fills: list[Any],
    owners: NDArray[np.int64] | None,
    players: int,
    width: float,
) -> float:
    """The board as filled polygons, each player's territory outlined; the start marker size."""
    from matplotlib.collections import LineCollection, PolyCollection

    n = len(polygons)
    ax.add_collection(
        PolyCollection(
            list(polygons),
            facecolors=fills,
            edgecolors=(0.0, 0.0, 0.0, 0.3),
            linewidths=0.25 * width,
            zorder=1,
        )
    )
    if owners is not None:
        vertices = np.concatenate(polygons)
        counts = np.array([len(shape) for shape in polygons], dtype=np.int64)
        firsts = np.cumsum(counts) - counts
        starts = np.arange(vertices.shape[0], dtype=np.int64)
        ends = starts + 1
        lasts = firsts + counts - 1
        ends[lasts] = firsts
        low = vertices.min(axis=0)
        scale = max(float(np.ptp(vertices, axis=0).max()), 1e-300)
        grid = np.rint((vertices - low) / scale * _GRID).astype(np.int64)
        point = grid[:, 0] * (int(_GRID) + 1) + grid[:, 1]
        keys = np.stack((point[starts], point[ends]), axis=1)
        cell_of = np.repeat(np.arange(n), counts)
        for q in range(players):
            segments = _outline(vertices, starts, ends, keys, owners[cell_of] == q)
            ax.add_collection(
                LineCollection(
                    list(segments),
                    colors=PLAYER_COLOURS[q],
                    linewidths=width,
                    capstyle="round",
                    joinstyle="round",
                    path_effects=_halo(width, HALO_COLOURS[q]),
                    zorder=3,
                )
            )
    return (4.0 * width) ** 2


def _draw_graph(
    ax: Any,
    *,
    board: Board,
    xy: NDArray[np.float64],
    fills: list[Any],
    owners: NDArray[np.int64] | None,
    width: float,
) -> float:
    """The board as discs on its edges, owned discs ringed; the start marker size."""
    from matplotlib.collections import LineCollection

    n = board.cells
    edges = board.edges()
    ax.add_collection(
        LineCollection(
            list(np.stack((xy[edges[:, 0]], xy[edges[:, 1]]), axis=1)),
            colors="0.55",
            linewidths=0.4 * width,
            zorder=1,
        )
    )
    disc = min(400.0, (500.0 / math.sqrt(n)) ** 2)
    rings = ["0.3"] * n
    ring_widths = [0.3 * width] * n
    if owners is not None:
        owned = np.flatnonzero(owners >= 0)
        for cell in owned.tolist():
            rings[cell] = PLAYER_COLOURS[owners[cell]]
            ring_widths[cell] = 1.5 * width
        # A disc in the halo colour behind each owned disc sets its ring off.
        ax.scatter(
            xy[owned, 0],
            xy[owned, 1],
            s=disc * 2.2,
            c=[HALO_COLOURS[q] for q in owners[owned].tolist()],
            edgecolors="none",
            zorder=2,
        )
    ax.scatter(
        xy[:, 0],
        xy[:, 1],
        s=disc,
        c=fills,
        edgecolors=rings,
        linewidths=ring_widths,
        zorder=2.5,
    )
    return disc * 0.6


def render_scores(
    history_scores: ArrayLike,
    path: str | os.PathLike[str] | None = None,
    *,
    title: str | None = None,
    cells: int | None = None,
) -> Any:
    """A line plot of each player's cell count after each move: ``history_scores`` is an
    ``(moves + 1, p)`` integer array (row 0: after the setup). With ``cells`` (the board's
    size), a dashed line marks the majority that wins. Returns the Figure; with ``path``,
    also writes a PNG."""
    scores = np.asarray(history_scores)
    if scores.ndim != 2 or scores.shape[0] < 1 or not 1 <= scores.shape[1] <= len(PLAYER_COLOURS):
        raise InvalidParameter(
            f"history_scores must have shape (moves + 1, players) with 1 to "
            f"{len(PLAYER_COLOURS)} players, got {scores.shape}"
        )
    if scores.dtype.kind not in "iu":
        raise InvalidParameter(f"history_scores must hold integers, got dtype {scores.dtype}")
    matplotlib()
    figure = _new_figure(path, (8.0, 4.5))
    ax = figure.add_subplot()
    moves = np.arange(scores.shape[0])
    for q in range(scores.shape[1]):
        ax.plot(
            moves,
            scores[:, q],
            color=PLAYER_COLOURS[q],
            linewidth=2.0,
            path_effects=_halo(2.0, HALO_COLOURS[q]),
            label=f"player {q}",
        )
    if cells is not None:
        ax.axhline(cells / 2.0, color="0.5", linestyle="--", linewidth=1.0, label="half the board")
    ax.set_xlabel("moves played")
    ax.set_ylabel("cells owned")
    ax.set_title(title if title is not None else "Annexation: cells per player")
    ax.grid(alpha=0.3)
    ax.set_facecolor("0.85")
    ax.legend(loc="best", fontsize="small")
    _write(figure, path)
    return figure
