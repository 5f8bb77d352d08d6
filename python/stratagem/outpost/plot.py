"""Pictures of outpost maps and games: :func:`render_map` draws the 100 x 100 grid (water
blue, land light green) with each empire's home marked in its colour (:data:`EMPIRE_COLOURS`,
shared by every outpost picture); :func:`render_game` draws who controls what and where the
outposts stand; :func:`render_history` plots the cells and outposts of each empire turn by turn;
:func:`record_gif` (or a :class:`GifRecorder` fed by hand) plays a game and writes an animated
GIF of it.

In a game picture, land an empire controls is a light shade of its colour and water it
controls a blue turned towards that colour; disputed cells are grey, neutral land pale green
and neutral water pale blue. Outposts are dots in a dark shade of their empire's colour (one
dot per cell however many outposts share it), homes are stars, and the legend gives each
empire's colour (its land and its water), player, cells and outposts, then the neutral and
disputed cells, the outposts and the homes.

matplotlib (``pip install 'stratagem[plot]'``) is imported when a picture is drawn, so the
rest of the package works without it; pictures are drawn on a figure of their own with the Agg
renderer, whatever pyplot's backend.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from stratagem._files import written
from stratagem._plotting import legend_below, matplotlib, save_figure
from stratagem.errors import InvalidParameter
from stratagem.progress import ProgressOption

if TYPE_CHECKING:
    from stratagem.outpost.game import Game, History, Result
    from stratagem.outpost.map import Map
    from stratagem.outpost.players import State

__all__ = [
    "CONTROLLED_WATER_COLOURS",
    "DISPUTED_COLOUR",
    "EMPIRE_COLOURS",
    "EMPIRE_COLOUR_NAMES",
    "LAND_COLOUR",
    "NEUTRAL_LAND_COLOUR",
    "WATER_COLOUR",
    "GifRecorder",
    "control_image",
    "record_gif",
    "render_game",
    "render_history",
    "render_map",
]

#: The colour of each empire 0..3 (red, amber, violet, magenta: apart from each other and from
#: the water and land colours; a brown read as bare ground once lightened).
EMPIRE_COLOURS = ("#d62728", "#ff9f1c", "#7b2cbf", "#e7298a")
#: Their names, as the legends give them.
EMPIRE_COLOUR_NAMES = ("red", "amber", "violet", "magenta")
#: The colour of water cells ...
WATER_COLOUR = "#3a7bd5"
#: ... and of land cells.
LAND_COLOUR = "#cfe8b4"


def render_map(map: Map, path: str | os.PathLike[str]) -> None:
    """Write a PNG of ``map``'s 100 x 100 grid to ``path``: cell ``(x, y)`` drawn at column
    ``x``, row ``y`` from the top (as the arrays are indexed), water blue, land light green,
    and a star in the empire's colour on each home."""
    from stratagem.outpost.map import GRID, HOMES, Map

    if not isinstance(map, Map):
        raise InvalidParameter(f"expected an outpost Map, got {type(map).__name__}")
    matplotlib()
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
    legend_below(ax, handles, len(HOMES), gap=0.02)
    ax.set_title(
        f"outpost map {map.name!r}: {map.water_count} water cells per quarter"
        f" ({int(map.water.sum())} of {GRID * GRID})"
    )
    ax.set_xlim(-0.5, GRID - 0.5)
    ax.set_ylim(GRID - 0.5, -0.5)
    ax.set_aspect("equal")
    ax.set_xticks([0, 49, 99])
    ax.set_yticks([0, 49, 99])
    save_figure(figure, path, dpi=120, bbox_inches="tight")


# -- games ---------------------------------------------------------------------------------

#: Disputed land, and the colour disputed water is mixed with.
DISPUTED_COLOUR = "#9a9a9a"
#: Neutral land (neutral water is :data:`WATER_COLOUR` lightened).
NEUTRAL_LAND_COLOUR = "#eef4e4"
#: Water each empire controls: a blue turned towards the empire's colour (mixing the colours
#: themselves would turn the amber empire's water grey).
CONTROLLED_WATER_COLOURS = ("#7466d6", "#2f9fb8", "#3c35a0", "#a04fb8")
_SIZE_INCHES = (5.0, 5.0)
_DPI = 100
_GIF_DPI = 80
_EMPIRES = 4


def _rgb(colour: str) -> NDArray[np.float64]:
    text = colour.lstrip("#")
    return np.array([int(text[i : i + 2], 16) / 255.0 for i in (0, 2, 4)], dtype=np.float64)


def _mix(colour: str, other: str, share: float) -> NDArray[np.float64]:
    """``colour`` with ``share`` of ``other`` mixed in."""
    return (1.0 - share) * _rgb(colour) + share * _rgb(other)


def _palette() -> NDArray[np.float64]:
    """RGB of each (control, water) pair: row ``2 * (control + 2) + water``."""
    rows = [
        _rgb(DISPUTED_COLOUR),  # disputed land
        _mix(WATER_COLOUR, DISPUTED_COLOUR, 0.6),  # disputed water
        _rgb(NEUTRAL_LAND_COLOUR),  # neutral land
        _mix(WATER_COLOUR, "#ffffff", 0.45),  # neutral water
    ]
    for colour, water in zip(EMPIRE_COLOURS, CONTROLLED_WATER_COLOURS, strict=True):
        rows.append(_mix(colour, "#ffffff", 0.55))  # land the empire controls
        rows.append(_rgb(water))  # water it controls
    return np.array(rows, dtype=np.float64)


_PALETTE = _palette()
_OUTPOST_COLOURS = tuple(_mix(colour, "#000000", 0.45) for colour in EMPIRE_COLOURS)


def control_image(control: NDArray[Any], water: NDArray[Any]) -> NDArray[np.float64]:
    """The ``(h, w, 3)`` RGB picture of a control map (``[y, x]``: -2 disputed, -1 neutral,
    else the empire) over a water mask of the same shape, in the colours of
    :func:`render_game`."""
    codes = np.asarray(control, dtype=np.int64)
    if codes.shape != np.shape(water) or codes.ndim != 2:
        raise InvalidParameter(
            f"control {codes.shape} and water {np.shape(water)} must be two arrays of one shape"
        )
    if codes.size and (codes.min() < -2 or codes.max() >= _EMPIRES):
        raise InvalidParameter("control holds values outside -2..3")
    return _PALETTE[2 * (codes + 2) + np.asarray(water, dtype=np.int64)]


@dataclass(kw_only=True, eq=False)  # frames hold arrays: compared by identity
class _Frame:
    """What one picture of a game shows (its own copies of the control and outposts)."""

    water: NDArray[np.bool_]
    control: NDArray[np.int8]
    outposts: NDArray[np.int32]
    turn: int
    last_turn: int | None
    names: Sequence[str]
    title: str | None
    when: str = "turn"

    def __post_init__(self) -> None:
        self.control = np.array(self.control, dtype=np.int8)
        self.outposts = np.array(self.outposts, dtype=np.int32).reshape(-1, 4)
        self.names = tuple(self.names)

    def scores(self) -> list[int]:
        return [int(np.count_nonzero(self.control == e)) for e in range(_EMPIRES)]

    def counts(self) -> list[int]:
        return [int(np.count_nonzero(self.outposts[:, 1] == e)) for e in range(_EMPIRES)]

    def heading(self) -> str:
        if self.title is not None:
            return self.title
        of = "" if self.last_turn is None else f" of {self.last_turn}"
        return f"outpost, {self.when} {self.turn}{of}"

    def labels(self) -> list[str]:
        return [
            f"{name} ({EMPIRE_COLOUR_NAMES[empire]}): {score} cells, "
            f"{count} outpost{'' if count == 1 else 's'}"
            for empire, (name, score, count) in enumerate(
                zip(self.names, self.scores(), self.counts(), strict=True)
            )
        ]


def _frame(source: Game | State, title: str | None) -> _Frame:
    from stratagem.outpost.game import Game
    from stratagem.outpost.players import State

    details: dict[str, Any]
    if isinstance(source, Game):
        names = [f"{e} {name}" for e, name in enumerate(source.players)]
        details = {"last_turn": source.last_turn, "names": names}
    elif isinstance(source, State):
        names = [f"empire {e}" for e in range(_EMPIRES)]
        # A state's turn is the turn about to be played.
        details = {"last_turn": source.T, "names": names, "when": "before turn"}
    else:
        raise InvalidParameter(f"expected an outpost Game or State, got {type(source).__name__}")
    return _Frame(
        water=source.map.water,
        control=source.control,
        outposts=source.outposts,
        turn=source.turn,
        title=title,
        **details,
    )


class _Scene:
    """One figure of a game whose changing artists (the control picture, the outposts, the
    stars, the title and the legend's lines) are updated frame by frame. With
    ``animated=True`` they are left out of the figure's own drawing, so that a GIF draws the
    rest once and only them for each frame."""

    def __init__(self, first: _Frame, *, animated: bool = False) -> None:
        from stratagem.outpost.map import GRID, HOMES

        matplotlib()
        from matplotlib.figure import Figure
        from matplotlib.patches import Rectangle

        self.figure = Figure(figsize=_SIZE_INCHES)
        ax = self.figure.add_axes((0.07, 0.23, 0.86, 0.7))
        self.image = ax.imshow(
            control_image(first.control, first.water),
            interpolation="nearest",
            origin="upper",
            extent=(-0.5, GRID - 0.5, GRID - 0.5, -0.5),
            animated=animated,
        )
        self.dots = [
            ax.scatter(
                np.zeros(0),
                np.zeros(0),
                s=7,
                marker="o",
                color=[_OUTPOST_COLOURS[e]],
                linewidths=0,
                zorder=3,
                animated=animated,
            )
            for e in range(_EMPIRES)
        ]
        stars = ax.scatter(
            [x for x, _ in HOMES],
            [y for _, y in HOMES],
            s=150,
            marker="*",
            c=list(EMPIRE_COLOURS),
            edgecolors="black",
            linewidths=0.7,
            zorder=4,
            clip_on=False,
            animated=animated,
        )
        ax.set_xlim(-0.5, GRID - 0.5)
        ax.set_ylim(GRID - 0.5, -0.5)
        ax.set_aspect("equal")
        ax.set_xticks([0, 49, 99])
        ax.set_yticks([0, 49, 99])
        ax.tick_params(labelsize=7, length=2)
        self.heading = self.figure.text(
            0.5, 0.955, "", ha="center", va="center", fontsize=9, animated=animated
        )

        # The legend: per empire, two swatches (its land and its water, edged in its
        # outposts' shade) and a line; then a row for the rest.
        def swatch(x: float, y: float, colour: Any, edge: Any) -> None:
            self.figure.add_artist(
                Rectangle(
                    (x, y - 0.012),
                    0.024,
                    0.024,
                    transform=self.figure.transFigure,
                    facecolor=colour,
                    edgecolor=edge,
                    linewidth=1.0,
                )
            )

        self.labels = []
        for empire in range(_EMPIRES):
            x = 0.2
            y = 0.165 - 0.031 * empire
            swatch(x, y, _PALETTE[2 * (empire + 2)], _OUTPOST_COLOURS[empire])
            swatch(x + 0.028, y, _PALETTE[2 * (empire + 2) + 1], _OUTPOST_COLOURS[empire])
            self.labels.append(
                self.figure.text(x + 0.062, y, "", va="center", fontsize=6.5, animated=animated)
            )
        key = [
            (_PALETTE[2], "neutral land"),
            (_PALETTE[3], "neutral water"),
            (_PALETTE[0], "disputed land"),
            (_PALETTE[1], "disputed water"),
        ]
        for at, (colour, text) in enumerate(key):
            x = 0.03 + 0.18 * at
            swatch(x, 0.03, colour, "0.5")
            self.figure.text(x + 0.032, 0.03, text, va="center", fontsize=6.5)
        self.figure.text(0.76, 0.03, "\u2022 outpost  \u2605 home", va="center", fontsize=6.5)
        # Drawn by hand for each frame of a GIF: the texts are drawn there by Pillow, some
        # twenty times faster than by matplotlib.
        self.changing = [self.image, *self.dots, stars]
        self.texts = [self.heading, *self.labels]
        self.show(first)

    def show(self, frame: _Frame) -> None:
        self.image.set_data(control_image(frame.control, frame.water))
        for empire, dots in enumerate(self.dots):
            mine = frame.outposts[frame.outposts[:, 1] == empire]
            cells = np.unique(mine[:, 2:4], axis=0) if mine.size else np.zeros((0, 2))
            dots.set_offsets(cells.astype(np.float64))
        self.heading.set_text(frame.heading())
        for text, label in zip(self.labels, frame.labels(), strict=True):
            text.set_text(label)


def _png(path: str | os.PathLike[str]) -> Path:
    target = Path(path)
    if target.is_dir():
        raise InvalidParameter(f"{target} is a folder; give the path of the picture to write")
    return target


def render_game(
    game_or_state: Game | State, path: str | os.PathLike[str], *, title: str | None = None
) -> Path:
    """Write a PNG (500 x 500 pixels) of who controls each cell of a :class:`Game` (now) or a
    :class:`State`, the outposts and the homes, with a legend of each empire's player (for a
    game), cells and outposts; returns the path."""
    target = _png(path)
    scene = _Scene(_frame(game_or_state, title))
    save_figure(scene.figure, target, dpi=_DPI)
    return target


def render_history(
    history: History,
    players: Sequence[str] | None,
    path: str | os.PathLike[str],
    *,
    title: str | None = None,
) -> Path:
    """Write a PNG of each empire's cells (above) and outposts (below) after every turn of
    ``history`` (:attr:`Game.history`), labelled with ``players`` (one name per empire, or
    None); returns the path."""
    from stratagem.outpost.game import History

    if not isinstance(history, History):
        raise InvalidParameter(f"expected an outpost History, got {type(history).__name__}")
    names = [f"empire {e}" for e in range(_EMPIRES)] if players is None else list(players)
    if len(names) != _EMPIRES:
        raise InvalidParameter(f"players must name {_EMPIRES} players, got {len(names)}")
    target = _png(path)
    matplotlib()
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.0, 5.0))
    cells_ax, outposts_ax = figure.subplots(
        2, 1, sharex=True, gridspec_kw={"height_ratios": (2, 1)}
    )
    turns = np.arange(history.cells.shape[0])
    for empire in range(_EMPIRES):
        colour = EMPIRE_COLOURS[empire]
        label = f"{empire} {names[empire]}"
        cells_ax.plot(turns, history.cells[:, empire], color=colour, linewidth=1.2, label=label)
        outposts_ax.plot(turns, history.outposts[:, empire], color=colour, linewidth=1.0)
    cells_ax.set_ylabel("cells controlled")
    outposts_ax.set_ylabel("outposts")
    outposts_ax.set_xlabel("turn")
    cells_ax.set_ylim(bottom=0)
    outposts_ax.set_ylim(bottom=0)
    cells_ax.grid(alpha=0.3)
    outposts_ax.grid(alpha=0.3)
    cells_ax.legend(fontsize=7, loc="upper left", frameon=False)
    cells_ax.set_title(title or f"outpost: cells and outposts over {turns.size - 1} turns")
    figure.tight_layout()
    save_figure(figure, target, dpi=_DPI)
    return target


class GifRecorder:
    """Collects pictures of a game (:meth:`capture`, any number of times) and writes them as
    an animated GIF (:meth:`save`: matplotlib draws what stays the same once and the
    changing parts per frame, Pillow writes the frames; some 25 ms a frame). Each capture
    copies the control map and the outposts, so the game can go on meanwhile.

    >>> from stratagem.outpost import Game
    >>> game = Game(T=20)
    >>> recorder = GifRecorder()
    >>> recorder.capture(game)
    >>> _ = game.run(10)
    >>> recorder.capture(game)
    >>> len(recorder)
    2
    """

    def __init__(self, *, title: str | None = None) -> None:
        self._frames: list[_Frame] = []
        self._title = title

    def __len__(self) -> int:
        return len(self._frames)

    def capture(self, game_or_state: Game | State) -> None:
        """Adds a picture of the game (or state) as it stands."""
        self._frames.append(_frame(game_or_state, self._title))

    def save(self, path: str | os.PathLike[str], *, fps: float = 10.0, hold: int = 10) -> Path:
        """Writes the GIF (400 x 400 pixels, ``fps`` frames a second, the last picture shown
        ``hold`` frames longer, one palette for every frame) and returns its path."""
        if not self._frames:
            raise InvalidParameter("no picture captured: call capture(game) first")
        if not (isinstance(fps, int | float) and fps > 0):
            raise InvalidParameter(f"fps must be a positive number, got {fps!r}")
        target = _png(path)
        matplotlib()
        from matplotlib import font_manager
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from PIL import Image, ImageDraw, ImageFont

        scene = _Scene(self._frames[0], animated=True)
        scene.figure.set_dpi(_GIF_DPI)
        canvas: Any = FigureCanvasAgg(scene.figure)
        canvas.draw()  # everything but the changing artists, once
        background = canvas.copy_from_bbox(scene.figure.bbox)
        width, height = canvas.get_width_height()
        fonts: dict[float, Any] = {}
        pictures = []
        for frame in self._frames:
            canvas.restore_region(background)
            scene.show(frame)
            for artist in scene.changing:
                scene.figure.draw_artist(artist)
            rgba = np.asarray(canvas.buffer_rgba())
            picture = Image.fromarray(np.ascontiguousarray(rgba[:, :, :3]))
            pen = ImageDraw.Draw(picture)
            for text in scene.texts:
                size = float(text.get_fontsize()) * _GIF_DPI / 72.0
                if size not in fonts:
                    fonts[size] = ImageFont.truetype(
                        font_manager.findfont(text.get_fontproperties()), size
                    )
                x, y = text.get_position()
                anchor = "mm" if text.get_horizontalalignment() == "center" else "lm"
                pen.text(
                    (x * width, (1.0 - y) * height),
                    text.get_text(),
                    font=fonts[size],
                    fill=(0, 0, 0),
                    anchor=anchor,
                )
            pictures.append(picture)
        # One palette for all frames, from the first and last pictures and the map colours.
        swatch = Image.fromarray(
            np.repeat((_PALETTE * 255).round().astype(np.uint8)[None, :, :], 4, axis=0)
        )
        sample = Image.new("RGB", (pictures[0].width, 2 * pictures[0].height + 4))
        sample.paste(pictures[0], (0, 0))
        sample.paste(pictures[-1], (0, pictures[0].height))
        sample.paste(swatch, (0, 2 * pictures[0].height))
        palette = sample.quantize(colors=128, method=Image.Quantize.MEDIANCUT)
        frames = [
            picture.quantize(palette=palette, dither=Image.Dither.NONE) for picture in pictures
        ]
        durations = [round(1000 / fps)] * len(frames)
        durations[-1] += round(1000 / fps) * max(int(hold), 0)
        with written(target) as partial:
            frames[0].save(
                partial,
                format="GIF",
                save_all=True,
                append_images=frames[1:],
                duration=durations,
                loop=0,
                optimize=False,
            )
        return target


def record_gif(
    game: Game,
    path: str | os.PathLike[str],
    *,
    frames: int = 80,
    turns: int | None = None,
    fps: float = 10.0,
    title: str | None = None,
    progress: ProgressOption = None,
) -> Result:
    """Plays ``game`` on (``turns`` more turns, default to the end) in ``frames - 1`` chunks
    of about equal length, captures the picture before the first and after each chunk, writes
    them as an animated GIF to ``path`` and returns the game's result. Ctrl-C stops the game
    between turns (no GIF is written; the game stays consistent and can be saved)."""
    from stratagem import _validate
    from stratagem.outpost.game import Game
    from stratagem.progress import Progress

    if not isinstance(game, Game):
        raise InvalidParameter(f"expected an outpost Game, got {type(game).__name__}")
    frames = _validate.integer("frames", frames, 2, 10_000)
    remaining = game.last_turn - game.turn
    count = remaining if turns is None else min(_validate.integer("turns", turns, 0), remaining)
    recorder = GifRecorder(title=title)
    recorder.capture(game)
    chunks = min(frames - 1, count)
    start = game.turn
    with Progress(count, f"outpost turns {start + 1}..{game.last_turn}", enabled=progress) as bar:
        for chunk in range(1, chunks + 1):
            target = start + count * chunk // chunks
            game.run(target - game.turn, progress=False)
            bar.reach(target - start)
            recorder.capture(game)
    recorder.save(path, fps=fps)
    return game.result
