"""Pictures whose legends name every colour and player: annexation (each player's fill and
every board colour), outpost (each empire's colour, its water, the neutral and disputed cells),
Mastermind (the legend clear of the bars and their labels), Diplomacy (neutral centres apart
from Germany's grey), and annexation's protocol ``picture(path)``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from matplotlib.figure import Figure

from stratagem import games
from stratagem.annexation import Game as AnnexationGame
from stratagem.annexation.plot import COLOUR_NAMES, PALETTE

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _texts(figure: Any) -> list[str]:
    """Every legend entry and figure text of ``figure``."""
    found = [text.get_text() for text in figure.texts]
    for ax in figure.axes:
        legends = [child for child in ax.get_children() if type(child).__name__ == "Legend"]
        found += [text.get_text() for legend in legends for text in legend.get_texts()]
    return found


def test_annexation_legend_names_each_player_fill_and_every_colour():
    game = AnnexationGame("hex:4", seed=5)
    for _ in range(6):
        game.play(game.legal_moves()[0])
    figure = game.render()
    texts = _texts(figure)
    for player in range(2):
        colour = int(game.cell_colours[int(game.board.starts[player])])
        cells = int(game.scores[player])
        expected = f"player {player} ({'AB'[player]}): {cells} cells, {COLOUR_NAMES[colour]}"
        assert expected in texts
    for colour in range(game.board.colour_count):
        assert f"{colour} {COLOUR_NAMES[colour]}" in texts
    assert len(COLOUR_NAMES) == len(PALETTE) == 16


def test_annexation_has_the_protocols_picture(tmp_path):
    game = games.make("annexation", seed=1, board="hex:3")
    (seat,) = game.to_move()
    game.step({seat: int(game.legal_actions(seat)[0])})
    target = tmp_path / "annexation.png"
    game.picture(str(target))
    assert target.read_bytes()[:8] == PNG_MAGIC


def test_outpost_legend_names_colours_water_and_the_neutral_cells(tmp_path):
    from stratagem.outpost import Game
    from stratagem.outpost.plot import EMPIRE_COLOUR_NAMES, _frame, _Scene

    game = Game(T=30, seed=3)
    game.run()
    texts = _texts(_Scene(_frame(game, None)).figure)
    for empire, name in enumerate(game.players):
        assert any(
            text.startswith(f"{empire} {name} ({EMPIRE_COLOUR_NAMES[empire]}): ") for text in texts
        )
    for key in ("neutral land", "neutral water", "disputed land", "disputed water"):
        assert key in texts
    assert "brown" not in EMPIRE_COLOUR_NAMES


def test_mastermind_legend_stays_clear_of_the_bars(tmp_path, monkeypatch):
    from stratagem.mastermind import evaluate
    from stratagem.mastermind.plot import plot_evaluations

    drawn: list[Figure] = []
    save = Figure.savefig

    def keep(figure: Figure, *args: Any, **kwargs: Any) -> None:
        drawn.append(figure)
        save(figure, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", keep)
    # most_parts on 3 x 3 puts its tallest bars on the left, where the legend used to stand.
    plot_evaluations([evaluate(3, 3, "most_parts")], tmp_path / "bars.png")
    (figure,) = drawn
    (ax,) = figure.axes
    legend = ax.get_legend().get_window_extent()
    axes = ax.get_window_extent()
    assert legend.y1 < axes.y0, "the legend is under the axes, not over the bars"


def test_diplomacy_neutral_centres_are_not_germanys_grey():
    from stratagem.diplomacy import plot

    assert plot._NEUTRAL not in plot.POWER_COLOURS
    neutral = np.array([int(plot._NEUTRAL[i : i + 2], 16) for i in (1, 3, 5)])
    germany = np.array([int(plot.POWER_COLOURS[3][i : i + 2], 16) for i in (1, 3, 5)])
    assert np.abs(neutral - germany).max() >= 64
