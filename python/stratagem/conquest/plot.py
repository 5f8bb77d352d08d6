"""PNG pictures of conquest games: standings over time, the board, tournament scores.

matplotlib (``pip install 'stratagem[plot]'``) is imported when a picture is drawn, so the
rest of the package works without it; drawing a board without positions also needs networkx
(``stratagem[graph]``) for its layout.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from stratagem._plotting import legend_below, matplotlib, save_figure
from stratagem.errors import InvalidParameter

if TYPE_CHECKING:
    from stratagem.conquest.board import Board
    from stratagem.conquest.game import History
    from stratagem.conquest.tournament import Score, TournamentResult

__all__ = ["DRAW_LIMIT", "LAYOUT_LIMIT", "draw_board", "plot_history", "plot_tournament"]

DRAW_LIMIT = 10_000
"""The largest board :func:`draw_board` draws (beyond it the dots are a blur)."""
LAYOUT_LIMIT = 2_000
"""The largest board without positions :func:`draw_board` lays out (the spring layout is
quadratic in the number of territories)."""
# Territory names (the RISK map's) are written next to the dots on boards up to this size.
_NAMES_LIMIT = 100


def _pyplot() -> Any:
    # Agg draws PNG files without a display, also on headless machines.
    matplotlib().use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _team_colours(n_teams: int) -> list[Any]:
    plt = _pyplot()
    palette = plt.get_cmap("tab10" if n_teams <= 10 else "tab20")
    return [palette(k % palette.N) for k in range(n_teams)]


def _count(value: int, one: str, many: str) -> str:
    amount = f"{value:,}" if value < 10**7 else f"{value:.3g}"
    return f"{amount} {one if value == 1 else many}"


def _save(figure: Any, path: str | Path) -> Path:
    target = Path(path)
    save_figure(figure, target, dpi=120, bbox_inches="tight")
    _pyplot().close(figure)
    return target


def plot_history(history: History, path: str | Path, labels: Sequence[str] | None = None) -> Path:
    """Territory share and troops per team over the turns (two panels, troops on a log
    scale), written as a PNG to ``path``."""
    plt = _pyplot()
    territories = np.asarray(history.territories, dtype=np.float64)
    troops = np.asarray(history.troops, dtype=np.float64)
    n_teams = territories.shape[1]
    names = list(labels) if labels is not None else [f"team {k}" for k in range(n_teams)]
    if len(names) != n_teams:
        raise InvalidParameter(f"labels names {len(names)} teams but the history has {n_teams}")
    turns = np.arange(territories.shape[0])
    share = territories / territories[0].sum()
    colours = _team_colours(n_teams)
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(9, 7), sharex=True)
    for k in range(n_teams):
        top.plot(turns, share[:, k], color=colours[k], label=names[k])
        # A team with no troops left has nothing to show on a log scale.
        alive = np.where(troops[:, k] > 0, troops[:, k], np.nan)
        bottom.plot(turns, alive, color=colours[k], label=names[k])
    top.set_ylabel("share of territories")
    top.set_ylim(0, 1)
    top.set_title("Conquest: territories and troops per team")
    top.legend(loc="best", fontsize="small")
    top.grid(alpha=0.3)
    bottom.set_yscale("log")
    bottom.set_ylabel("troops (log scale)")
    bottom.set_xlabel("turn")
    bottom.grid(alpha=0.3, which="both")
    figure.tight_layout()
    return _save(figure, path)


def _layout(board: Board) -> NDArray[np.float64]:
    if board.positions is not None:
        return np.asarray(board.positions, dtype=np.float64)
    if board.n > LAYOUT_LIMIT:
        raise InvalidParameter(
            f"the board has {board.n} territories and no positions; a picture lays out at most "
            f"{LAYOUT_LIMIT} territories without positions"
        )
    try:
        import networkx as nx
    except ImportError as error:
        raise InvalidParameter(
            "drawing a board without positions needs networkx: pip install 'stratagem[graph]'"
        ) from error
    graph = nx.Graph()
    graph.add_nodes_from(range(board.n))
    source = np.repeat(np.arange(board.n), np.diff(board.indptr))
    graph.add_edges_from(zip(source.tolist(), board.indices.tolist(), strict=True))
    # A fixed seed: the same board is drawn the same way every time.
    placed = nx.spring_layout(graph, seed=0)
    return np.array([placed[x] for x in range(board.n)], dtype=np.float64)


def draw_board(
    board: Board,
    team: ArrayLike,
    troops: ArrayLike,
    path: str | Path,
    *,
    title: str | None = None,
    labels: Sequence[str] | None = None,
) -> Path:
    """The board with each territory coloured by team, its dot sized by its troops, written
    as a PNG to ``path``. Boards of more than :data:`DRAW_LIMIT` territories are refused."""
    if board.n > DRAW_LIMIT:
        raise InvalidParameter(
            f"the board has {board.n} territories; a picture shows at most {DRAW_LIMIT}"
        )
    owners = np.asarray(team, dtype=np.int64)
    counts = np.asarray(troops, dtype=np.int64)
    if owners.shape != (board.n,) or counts.shape != (board.n,):
        raise InvalidParameter(
            f"team and troops need shape ({board.n},), got {owners.shape} and {counts.shape}"
        )
    names = list(labels) if labels is not None else [f"team {k}" for k in range(owners.max() + 1)]
    if owners.min() < 0 or owners.max() >= len(names):
        raise InvalidParameter(
            f"team ids must be in 0..{len(names) - 1} (one label each), got {int(owners.max())}"
        )
    plt = _pyplot()
    from matplotlib.collections import LineCollection
    from matplotlib.lines import Line2D

    xy = _layout(board)
    colours = _team_colours(len(names))
    figure, axes = plt.subplots(figsize=(8, 8))
    source = np.repeat(np.arange(board.n), np.diff(board.indptr))
    forward = source < board.indices
    segments = np.stack([xy[source[forward]], xy[board.indices[forward]]], axis=1)
    # Thinner, fainter lines as borders multiply, so that dense boards do not turn grey.
    crowding = max(board.n_borders, 1)
    axes.add_collection(
        LineCollection(
            list(segments),
            colors="0.6",
            linewidths=max(0.2, min(0.8, 1000 / crowding)),
            alpha=max(0.15, min(1.0, 500 / crowding)),
            zorder=1,
        )
    )
    # A dot fills about its share of the ~450-point-wide axes, so colours stay visible on big
    # boards; troops span orders of magnitude, so the area follows their logarithm.
    spacing = 450.0 / math.sqrt(board.n)
    full = min(spacing * spacing, 400.0)
    biggest = math.log1p(float(counts.max()))
    weight = np.log1p(counts) / biggest if biggest > 0 else np.zeros(board.n)
    axes.scatter(
        xy[:, 0],
        xy[:, 1],
        s=full * (0.25 + 0.75 * weight),
        c=[colours[k] for k in owners],
        edgecolors="none",
        zorder=2,
    )
    handles = [
        Line2D(
            [],
            [],
            marker="o",
            linestyle="",
            color=colours[k],
            label=f"{names[k]}: {_count(int(np.sum(owners == k)), 'territory', 'territories')}, "
            f"{_count(int(counts[owners == k].sum()), 'troop', 'troops')}",
        )
        for k in range(len(names))
    ]
    legend_below(axes, handles, 2, title="dot area grows with log(troops)", title_fontsize="small")
    if board.names is not None and board.n <= _NAMES_LIMIT:
        for x, name in enumerate(board.names):
            axes.annotate(
                name,
                xy[x],
                xytext=(0, 7),
                textcoords="offset points",
                ha="center",
                fontsize=6,
                color="0.25",
                zorder=3,
            )
    axes.set_title(title or f"Conquest board: {board.n:,} territories")
    axes.set_aspect("equal")
    axes.autoscale_view()
    axes.set_xticks([])
    axes.set_yticks([])
    figure.tight_layout()
    return _save(figure, path)


def _error_bars(scores: Sequence[Score]) -> list[list[float]]:
    """Distances from each win rate down and up to the ends of its 95% interval."""
    return [
        [score.win_rate - score.interval[0] for score in scores],
        [score.interval[1] - score.win_rate for score in scores],
    ]


def plot_tournament(result: TournamentResult, path: str | Path) -> Path:
    """Win rates with their 95% Wilson intervals, written as a PNG to ``path``: each policy
    overall (left) and each policy against each opponent (right, with the games it lost and
    those that ended in a draw or unfinished)."""
    plt = _pyplot()
    names = list(result.policies)
    pairs = [score for score in result.scores() if score.opponent != "all"]
    figure, (left, right) = plt.subplots(
        1, 2, figsize=(13, max(4.5, 0.4 * len(pairs) + 1.5)), gridspec_kw={"width_ratios": [2, 3]}
    )
    rates = [score.win_rate for score in result.overall]
    left.bar(
        range(len(names)),
        rates,
        yerr=_error_bars(result.overall),
        capsize=4,
        color="tab:blue",
    )
    for position, rate in enumerate(rates):
        left.annotate(f"{rate:.2f}", (position, rate), xytext=(8, 3), textcoords="offset points")
    left.set_xticks(range(len(names)), names, rotation=20)
    left.set_ylabel("win rate (bars: 95% Wilson interval)")
    left.set_ylim(0, 1.05)
    left.set_title(f"Overall: {result.games_per_pair} games per pair, {result.assign} start")
    left.grid(axis="y", alpha=0.3)

    # One stacked bar per policy and opponent: wins, then draws and unfinished, then losses.
    ys = np.arange(len(pairs))[::-1]
    games = np.array([score.games for score in pairs], dtype=np.float64)
    wins = np.array([score.wins for score in pairs]) / games
    undecided = np.array([score.draws + score.unfinished for score in pairs]) / games
    losses = np.array([score.losses for score in pairs]) / games
    right.barh(ys, wins, color="tab:green", label="won")
    right.barh(ys, undecided, left=wins, color="0.75", label="draw or unfinished")
    right.barh(ys, losses, left=wins + undecided, color="tab:red", label="lost")
    right.errorbar(wins, ys, xerr=_error_bars(pairs), fmt="none", ecolor="black", capsize=3)
    right.set_yticks(ys, [f"{score.policy} vs {score.opponent}" for score in pairs])
    right.set_xlim(0, 1)
    right.set_xlabel("share of games (black: 95% Wilson interval of the win rate)")
    right.set_title("Each policy against each opponent")
    right.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=3, frameon=False)
    right.grid(axis="x", alpha=0.3)
    figure.tight_layout()
    return _save(figure, path)
