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
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stratagem import _core, _validate, rng
from stratagem.annexation.board import Board
from stratagem.annexation.game import Rules
from stratagem.annexation.players import AI
from stratagem.errors import InvalidParameter
from stratagem.mpi import Communicator, SerialCommunicator
from stratagem.progress import ProgressOption
from stratagem.stats import elo_difference, wilson_interval
from stratagem.tournament import check_counts, run, run_pairs

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


_COLUMNS = ("wins_a", "wins_b", "draws", "moves", "cells_a", "cells_b")


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
    progress: ProgressOption = None,
) -> MatchResult:
    """Plays ``games`` games of ``a`` against ``b`` (agents or spec strings such as
    ``"mcts:iterations=2000"``) on recolourings of ``board`` (two players), alternating who
    moves first. Each game gets fresh agents seeded from ``seed``."""
    first, second = _agent(a), _agent(b)
    count = _validate.integer("games", games, 1, 1 << 24)
    row = _match_row(
        first,
        second,
        board=board,
        count=count,
        seed=_validate.seed(seed),
        rules=Rules(mode, allow_opponent_colours, max_moves),
        threads=threads,
        progress=progress,
    )
    return _match_result(first.spec, second.spec, count, row)


def _match_row(
    first: AI,
    second: AI,
    *,
    board: Board,
    count: int,
    seed: int,
    rules: Rules,
    threads: int | None,
    progress: ProgressOption,
) -> NDArray[np.int64]:
    """A match's row: its games' rows (one-hot winner, moves, each side's cells) summed."""
    if not isinstance(board, Board):
        raise InvalidParameter(f"board must be an annexation Board, got {type(board).__name__}")
    if board.players != 2:
        raise InvalidParameter(f"a match is between two players; the board has {board.players}")
    engine = rules.compile(board)

    def play(games: range, threads: int | None, report: object) -> NDArray[np.int64]:
        pair_seeds = {
            j: int(rng.blocks(seed, _BOARD_PURPOSE, [j])[0, 0]) for j in {g // 2 for g in games}
        }
        colours = np.array([board.recoloured(pair_seeds[g // 2]).colours for g in games])
        seeds = np.array(
            [
                [int(rng.blocks(seed, _AI_PURPOSE, [g, side])[0, 0]) for side in (0, 1)]
                for g in games
            ],
            dtype=np.uint64,
        )
        first_side = (np.arange(games.start, games.stop) % 2).astype(np.uint8)
        winner, cells, moves = _core.annexation.play_fixtures(
            engine,
            colours.astype(np.uint8),
            first_side,
            seeds,
            first._agent,
            second._agent,
            threads,
        )
        outcome = np.stack([winner == 0, winner == 1, winner == -1], axis=1)
        return np.column_stack([outcome, moves, cells[:, 0], cells[:, 1]]).astype(np.int64)

    table = run(
        count,
        play,
        columns=len(_COLUMNS),
        comm=SerialCommunicator(),
        threads=threads,
        batch=max(2, 4 * _core.resolve_threads(threads)),
        progress=progress,
        label=f"{first.spec} vs {second.spec}",
    )
    return np.asarray(table.sum(axis=0), dtype=np.int64)


def _match_result(a: str, b: str, games: int, row: NDArray[np.int64]) -> MatchResult:
    """The match of a row (the means exactly those of the games)."""
    wins_a, wins_b, draws, moves, cells_a, cells_b = (int(x) for x in row)
    return MatchResult(
        a=a,
        b=b,
        games=games,
        wins_a=wins_a,
        wins_b=wins_b,
        draws=draws,
        mean_moves=moves / games,
        mean_cells_a=cells_a / games,
        mean_cells_b=cells_b / games,
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
    progress: ProgressOption = None,
    checkpoint: str | os.PathLike[str] | None = None,
    comm: Communicator | None = None,
    **rules: Any,
) -> RoundRobin:
    """A match for every pair of ``agents``. With ``checkpoint``, each finished match is
    written to that JSON file and a run started again with the same file and settings plays
    only the missing ones (same result as an uninterrupted run). Pair ``(i, j)`` plays with
    seed word 0 of ``(seed, "annexation.round_robin", i, j)``. Under MPI (``comm``, default
    :func:`stratagem.mpi.world`) the matches are spread over the ranks and every rank returns
    the whole result (see :func:`stratagem.tournament.run`)."""
    players = [_agent(agent) for agent in agents]
    names = tuple(agent.spec for agent in players)
    if len(set(names)) != len(names) or len(names) < 2:
        raise InvalidParameter(f"a round robin needs at least two different agents, got {names}")
    count = _validate.integer("games", games, 1, 1 << 24)
    checked_seed = _validate.seed(seed)
    checked_rules = Rules(**rules)
    setup = {
        "agents": list(names),
        "board": board.to_dict(),
        "games": games,
        "seed": seed,
        "rules": checked_rules.to_dict(),
    }

    def play_pair(i: int, j: int, threads: int | None) -> NDArray[np.int64]:
        pair_seed = int(rng.blocks(checked_seed, "annexation.round_robin", [i, j])[0, 0])
        return _match_row(
            players[i],
            players[j],
            board=board,
            count=count,
            seed=pair_seed,
            rules=checked_rules,
            threads=threads,
            progress=progress,
        )

    fixtures, table = run_pairs(
        len(players),
        play_pair,
        game="annexation",
        setup=setup,
        columns=_COLUMNS,
        check=_check_match(count, board.cells),
        checkpoint=checkpoint,
        comm=comm,
        threads=threads,
        progress=False,
    )
    matches = [
        _match_result(names[i], names[j], count, row)
        for (i, j), row in zip(fixtures, table, strict=True)
    ]
    return RoundRobin(names, tuple(matches))


def _check_match(games: int, cells: int) -> Callable[[int, NDArray[np.int64]], None]:
    """Refuses a saved match's row that cannot be: wins and draws not adding up to the
    games, or more cells than the boards hold."""

    def check(index: int, row: NDArray[np.int64]) -> None:
        check_counts(row[:3], games, "wins and draws")
        if row[4] + row[5] > games * cells:
            raise ValueError(f"{row[4]} and {row[5]} cells in {games} games on {cells} cells")

    return check
