"""Matches between two agents and round-robin tables (``docs/annexation-rules.md``,
"Matches").

Games ``2j`` and ``2j + 1`` are played on the board recoloured with a seed drawn for pair
``j``, with the first move swapped, so each agent meets each colouring from both seats. Games
run in parallel in the Rust engine; the result does not depend on the thread count.

>>> from stratagem.annexation import Board, play_match
>>> result = play_match("greedy", "random", board=Board.hexagon(5), games=20, seed=1)
>>> result.wins_a > result.wins_b
True
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stratagem import _core, _validate, rng
from stratagem.annexation.ai import AI
from stratagem.annexation.board import Board
from stratagem.annexation.game import Rules
from stratagem.errors import InvalidParameter
from stratagem.progress import Progress
from stratagem.stats import elo_difference, wilson_interval
from stratagem.tournament import Checkpoint, check_result, play

__all__ = ["MatchResult", "RoundRobin", "play_match", "round_robin"]

_BOARD_PURPOSE = "annexation.match.board"
_AI_PURPOSE = "annexation.match.ai"


@dataclass(frozen=True)
class MatchResult:
    """A against B: wins, draws, A's score (a draw counts half) with its Wilson 95% interval,
    and the Elo difference of A over B with the interval's Elo bounds."""

    a: str
    b: str
    games: int
    wins_a: int
    wins_b: int
    draws: int
    mean_moves: float
    mean_cells_a: float
    mean_cells_b: float

    @property
    def score(self) -> float:
        return (self.wins_a + 0.5 * self.draws) / self.games

    @property
    def interval(self) -> tuple[float, float]:
        low, high = wilson_interval([self.wins_a + 0.5 * self.draws], self.games)
        return float(low[0]), float(high[0])

    @property
    def elo(self) -> float:
        return elo_difference(self.score)

    @property
    def elo_interval(self) -> tuple[float, float]:
        low, high = self.interval
        return elo_difference(low), elo_difference(high)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values (infinite Elo becomes None)."""

        def finite(x: float) -> float | None:
            return x if math.isfinite(x) else None

        return {
            **asdict(self),
            "score": self.score,
            "interval": list(self.interval),
            "elo": finite(self.elo),
            "elo_interval": [finite(x) for x in self.elo_interval],
        }


def _agent(value: str | AI) -> AI:
    if isinstance(value, AI):
        return value
    if isinstance(value, str):
        return AI.parse(value)
    raise InvalidParameter(f"an agent is an AI or a spec string, got {value!r}")


def play_match(
    a: str | AI,
    b: str | AI,
    *,
    board: Board,
    games: int = 200,
    seed: int = 0,
    mode: str = "flood",
    allow_opponent_colours: bool = False,
    max_moves: int | None = None,
    threads: int | None = None,
    progress: bool | None = None,
) -> MatchResult:
    """Plays ``games`` games of ``a`` against ``b`` (agents or spec strings such as
    ``"mcts:iterations=2000"``) on recolourings of ``board`` (two players), alternating who
    moves first. Each game gets fresh agents seeded from ``seed``."""
    first, second = _agent(a), _agent(b)
    count = _validate.integer("games", games, 1, 1 << 24)
    checked_seed = _validate.seed(seed)
    if not isinstance(board, Board):
        raise InvalidParameter(f"board must be an annexation Board, got {type(board).__name__}")
    if board.players != 2:
        raise InvalidParameter(f"a match is between two players; the board has {board.players}")
    engine = Rules(mode, allow_opponent_colours, max_moves).compile(board)
    pairs = (count + 1) // 2
    with Progress(count, f"{first.spec} vs {second.spec}", enabled=progress) as bar:
        colours = np.empty((count, board.cells), dtype=np.uint8)
        for j in range(pairs):
            pair_seed = int(rng.blocks(checked_seed, _BOARD_PURPOSE, [j])[0, 0])
            recoloured = board.recoloured(pair_seed).colours
            colours[2 * j : 2 * j + 2] = recoloured
        first_side = (np.arange(count) % 2).astype(np.uint8)
        seeds = np.array(
            [
                [int(rng.blocks(checked_seed, _AI_PURPOSE, [g, side])[0, 0]) for side in (0, 1)]
                for g in range(count)
            ],
            dtype=np.uint64,
        )
        chunk = max(2, 4 * (_core.resolve_threads(threads)))
        winners, cells, moves = [], [], []
        for start in range(0, count, chunk):
            stop = min(count, start + chunk)
            w, c, m = _core.annexation.play_fixtures(
                engine,
                colours[start:stop],
                first_side[start:stop],
                seeds[start:stop],
                first._agent,
                second._agent,
                threads,
            )
            winners.append(w)
            cells.append(c)
            moves.append(m)
            bar.advance(stop - start)
    winner = np.concatenate(winners)
    cell_counts = np.concatenate(cells)
    return MatchResult(
        a=first.spec,
        b=second.spec,
        games=count,
        wins_a=int((winner == 0).sum()),
        wins_b=int((winner == 1).sum()),
        draws=int((winner == -1).sum()),
        mean_moves=float(np.concatenate(moves).mean()),
        mean_cells_a=float(cell_counts[:, 0].mean()),
        mean_cells_b=float(cell_counts[:, 1].mean()),
    )


@dataclass(frozen=True)
class RoundRobin:
    """Every pair's match; ``table()`` gives each agent's score against each other one."""

    agents: tuple[str, ...]
    matches: tuple[MatchResult, ...]

    def match(self, a: str, b: str) -> MatchResult:
        for result in self.matches:
            if (result.a, result.b) == (a, b):
                return result
        raise InvalidParameter(f"no match {a} vs {b} in this round robin")

    def table(self) -> NDArray[np.float64]:
        """``table[i, j]``: agent i's score against agent j (NaN on the diagonal)."""
        size = len(self.agents)
        table = np.full((size, size), np.nan)
        index = {name: i for i, name in enumerate(self.agents)}
        for result in self.matches:
            i, j = index[result.a], index[result.b]
            table[i, j] = result.score
            table[j, i] = 1.0 - result.score
        return table

    def overall(self) -> NDArray[np.float64]:
        """Each agent's mean score against all the others."""
        return np.asarray(np.nanmean(self.table(), axis=1), dtype=np.float64)

    def to_dict(self) -> dict[str, Any]:
        return {
            "agents": list(self.agents),
            "matches": [m.to_dict() for m in self.matches],
            "overall": self.overall().tolist(),
        }


def round_robin(
    agents: Sequence[str | AI],
    *,
    board: Board,
    games: int = 100,
    seed: int = 0,
    threads: int | None = None,
    progress: bool | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    **rules: Any,
) -> RoundRobin:
    """A match for every pair of ``agents``. With ``checkpoint``, each finished match is
    written to that JSON file and a run started again with the same file and settings plays
    only the missing ones (same result as an uninterrupted run). Pair ``(i, j)`` plays with
    seed word 0 of ``(seed, "annexation.round_robin", i, j)``."""
    players = [_agent(agent) for agent in agents]
    names = tuple(agent.spec for agent in players)
    if len(set(names)) != len(names) or len(names) < 2:
        raise InvalidParameter(f"a round robin needs at least two different agents, got {names}")
    setup = {
        "agents": list(names),
        "board": board.to_dict(),
        "games": games,
        "seed": seed,
        "rules": Rules(**rules).to_dict(),
    }
    fixtures = list(combinations(range(len(players)), 2))

    def play_pair(index: int) -> MatchResult:
        i, j = fixtures[index]
        pair_seed = int(rng.blocks(_validate.seed(seed), "annexation.round_robin", [i, j])[0, 0])
        return play_match(
            players[i],
            players[j],
            board=board,
            games=games,
            seed=pair_seed,
            threads=threads,
            progress=progress,
            **rules,
        )

    saved = None
    if checkpoint is not None:
        saved = Checkpoint(
            Path(checkpoint),
            "annexation",
            setup,
            encode=asdict,
            decode=lambda index, data: _saved_match(
                (names[fixtures[index][0]], names[fixtures[index][1]]), games, data
            ),
        )
    results = play(len(fixtures), play_pair, checkpoint=saved, progress=False)
    return RoundRobin(names, tuple(results))


def _saved_match(pair: tuple[str, str], games: int, data: Any) -> MatchResult:
    """A saved match's result, refused when it cannot be the result of ``pair``."""
    result = MatchResult(**data)
    check_result(
        (result.a, result.b),
        result.games,
        (result.wins_a, result.wins_b, result.draws),
        expected=pair,
        expected_games=games,
        counted="wins and draws",
    )
    return result
