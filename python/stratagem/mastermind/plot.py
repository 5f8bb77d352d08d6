"""A PNG picture of how many guesses strategies need: :func:`plot_evaluations`.

One group of bars per number of guesses, one bar per evaluation (strategy) in each group; the
legend gives each strategy's average and worst case. Evaluations of the same number of secrets
are drawn as counts, otherwise as the percentage of each one's secrets.

matplotlib (``pip install 'stratagem[plot]'``) is imported when a picture is drawn, so the rest
of the package works without it. The picture is drawn on a figure of its own with the Agg
renderer, whatever pyplot's backend.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from stratagem._plotting import legend_below, matplotlib, png_path, save_figure
from stratagem.errors import InvalidParameter
from stratagem.mastermind.evaluate import Evaluation

__all__ = ["plot_evaluations", "png_path"]

# Bars get their counts written on them while there are this few evaluations side by side.
_LABELLED_BARS = 2


def _evaluations(evaluations: Evaluation | Iterable[Evaluation]) -> list[Evaluation]:
    items = [evaluations] if isinstance(evaluations, Evaluation) else list(evaluations)
    if not items:
        raise InvalidParameter("plot_evaluations needs at least one Evaluation")
    for position, item in enumerate(items):
        if not isinstance(item, Evaluation):
            raise InvalidParameter(
                f"evaluation {position} is a {type(item).__name__}, not an Evaluation"
            )
        if not len(item.guesses):
            raise InvalidParameter(f"evaluation {position} ({item.strategy}) has no secrets")
    return items


def _default_title(items: list[Evaluation]) -> str:
    spaces = sorted({(e.spots, e.colours) for e in items})
    space = ", ".join(f"{s} spots x {c} colours" for s, c in spaces)
    sizes = {len(e.guesses) for e in items}
    if len(sizes) == 1:
        n = sizes.pop()
        secrets = "a sample of" if all(e.sampled for e in items) else "all"
        what = f"{secrets} {n:,} secrets"
    else:
        what = "samples of different sizes"
    return f"Mastermind {space}: guesses needed over {what}"


def plot_evaluations(
    evaluations: Evaluation | Iterable[Evaluation],
    path: str | os.PathLike[str],
    *,
    title: str | None = None,
) -> Path:
    """A grouped bar chart of the guess histograms of one or several evaluations (one bar per
    evaluation for each number of guesses), written as a PNG to ``path``; returns the path.

    >>> import tempfile
    >>> from pathlib import Path
    >>> from stratagem.mastermind import evaluate
    >>> picture = Path(tempfile.mkdtemp()) / "bars.png"
    >>> runs = [evaluate(3, 4, name) for name in ("first", "knuth")]
    >>> plot_evaluations(runs, picture).read_bytes()[:4]
    b'\\x89PNG'
    """
    items = _evaluations(evaluations)
    target = png_path(path)
    matplotlib()
    from matplotlib.figure import Figure

    worst = max(e.worst for e in items)
    turns = np.arange(1, worst + 1)
    same_size = len({len(e.guesses) for e in items}) == 1
    width = 0.8 / len(items)
    figure = Figure(figsize=(max(6.0, 1.0 + 0.9 * worst * max(1.0, len(items) / 3)), 4.5))
    ax = figure.add_subplot()
    palette = matplotlib().colormaps["tab10"]
    for k, item in enumerate(items):
        counts = np.zeros(worst, dtype=np.float64)
        histogram = item.histogram[1:]
        counts[: histogram.size] = histogram
        heights = counts if same_size else 100.0 * counts / len(item.guesses)
        label = (
            f"{item.strategy}: average {float(item.average):.3f} "
            f"({item.total}/{len(item.guesses)}), worst {item.worst}"
        )
        bars = ax.bar(
            turns + (k - (len(items) - 1) / 2) * width,
            heights,
            width=width,
            color=palette(k % palette.N),
            edgecolor="0.25",
            linewidth=0.5,
            label=label,
        )
        if len(items) <= _LABELLED_BARS:
            ax.bar_label(
                bars,
                labels=[f"{int(c):,}" if c else "" for c in counts],
                fontsize="x-small",
                padding=1,
            )
    ax.set_xticks(turns)
    if same_size:
        from matplotlib.ticker import MaxNLocator

        ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # counts of secrets
    ax.set_xlabel("guesses needed (the last one is the code)")
    ax.set_ylabel("secrets" if same_size else "share of the secrets (%)")
    ax.set_title(title if title is not None else _default_title(items))
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    # Under the axes, where no bar or bar label can be: one strategy a line.
    handles, _ = ax.get_legend_handles_labels()
    legend_below(ax, handles, 1, gap=0.14)
    return save_figure(figure, target, dpi=120, bbox_inches="tight")
