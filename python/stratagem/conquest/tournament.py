"""Round-robin tournaments of the built-in conquest policies.

Every pair of policies plays two-team games from a start drawn for that pair (territories
dealt at random by :func:`~stratagem.conquest.board.assign_random`, or two regions of equal
size by :func:`~stratagem.conquest.board.assign_regions`). Half of the games seat the first
policy as team 0, the other half swap the seats on the same start, so an advantage of one seat
(a better frontier) cancels out. Each half is one call of
:func:`~stratagem.conquest.game.simulate_many`, spread over threads.

The default start is the random deal: its fronts are everywhere, and the table tells the
policies apart. From two regions a grid has one long straight front (docs/conquest.md,
"Tournaments", has both starts' tables).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stratagem import _validate, rng
from stratagem.conquest.board import Board, assign_random, assign_regions, troops_uniform
from stratagem.conquest.game import (
    TROOP_LIMIT,
    check_policy_name,
    simulate_many,
    wilson_interval,
)
from stratagem.errors import InvalidParameter
from stratagem.mpi import Communicator
from stratagem.progress import ProgressOption
from stratagem.tournament import check_counts, run_pairs

__all__ = ["PairResult", "Score", "TournamentResult", "round_robin"]

_PURPOSE = "conquest.tournament"
_STARTS = {"random": assign_random, "regions": assign_regions}


@dataclass(frozen=True)
class Score:
    """One policy's record against one opponent, or against ``"all"`` of them."""

    policy: str
    opponent: str
    games: int
    wins: int
    losses: int
    draws: int
    unfinished: int
    mean_turns: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the win rate."""
        low, high = wilson_interval(np.array([self.wins], dtype=np.int64), self.games)
        return float(low[0]), float(high[0])

    def to_row(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "policy": self.policy,
            "opponent": self.opponent,
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "unfinished": self.unfinished,
            "mean_turns": self.mean_turns,
            "win_rate": self.win_rate,
            "interval_low": low,
            "interval_high": high,
        }


@dataclass(frozen=True)
class PairResult:
    """The games of ``first`` against ``second`` (both seatings together)."""

    first: str
    second: str
    games: int
    first_wins: int
    second_wins: int
    draws: int
    unfinished: int
    mean_turns: float

    def score(self, policy: str) -> Score:
        """The record of ``policy`` (``first`` or ``second``) against the other."""
        if policy not in (self.first, self.second):
            raise InvalidParameter(f"{policy!r} did not play in {self.first} against {self.second}")
        mine, theirs = (self.first_wins, self.second_wins)[:: 1 if policy == self.first else -1]
        opponent = self.second if policy == self.first else self.first
        return Score(
            policy, opponent, self.games, mine, theirs, self.draws, self.unfinished, self.mean_turns
        )


@dataclass(frozen=True)
class TournamentResult:
    """Every pair's games and each policy's overall score (against ``"all"``)."""

    policies: tuple[str, ...]
    games_per_pair: int
    max_turns: int
    seed: int
    assign: str
    pairs: tuple[PairResult, ...]
    overall: tuple[Score, ...]

    def pair(self, policy: str, opponent: str) -> PairResult:
        for result in self.pairs:
            if {result.first, result.second} == {policy, opponent}:
                return result
        raise InvalidParameter(f"no games of {policy!r} against {opponent!r} in this tournament")

    def scores(self) -> list[Score]:
        """Each policy against each opponent (both directions), then each against ``"all"``."""
        return [
            self.pair(policy, opponent).score(policy)
            for policy in self.policies
            for opponent in self.policies
            if opponent != policy
        ] + list(self.overall)

    def to_rows(self) -> list[dict[str, Any]]:
        """:meth:`scores` as dictionaries (for CSV and JSON): games, wins, losses, draws,
        unfinished, win rate and its 95% interval."""
        return [score.to_row() for score in self.scores()]


def _policy_list(policies: Sequence[str]) -> tuple[str, ...]:
    if isinstance(policies, str) or not isinstance(policies, Sequence):
        raise InvalidParameter(f"policies must be a sequence of names, got {policies!r}")
    for name in policies:
        check_policy_name(name)
    if len(set(policies)) != len(policies):
        raise InvalidParameter(f"each policy may enter the tournament once, got {list(policies)}")
    if len(policies) < 2:
        raise InvalidParameter(f"a tournament needs at least 2 policies, got {list(policies)}")
    return tuple(policies)


_COLUMNS = ("first_wins", "second_wins", "draws", "unfinished", "turns")


def _check_pair(games: int, max_turns: int) -> Callable[[int, NDArray[np.int64]], None]:
    """Refuses a saved pair's row that cannot be: counts not adding up to the games, or more
    turns than the games could last."""

    def check(index: int, row: NDArray[np.int64]) -> None:
        check_counts(row[:4], games, "wins, draws and unfinished games")
        if row[4] > games * max_turns:
            raise ValueError(f"{row[4]} turns in {games} games of at most {max_turns}")

    return check


def round_robin(
    board: Board,
    policies: Sequence[str],
    *,
    games: int,
    seed: int = 0,
    max_turns: int = 300,
    troops: int = 10,
    rate: float = 0.2,
    assign: str = "random",
    threads: int | None = None,
    progress: ProgressOption = None,
    checkpoint: str | Path | None = None,
    comm: Communicator | None = None,
) -> TournamentResult:
    """Plays ``games`` games for every pair of ``policies`` (two teams, seats swapped for the
    second half) and scores them.

    With ``checkpoint``, every finished pair is written to that JSON file, and a tournament
    started again with the same file and the same settings plays only the pairs still missing
    (the result is the same as an uninterrupted run). Under MPI (``comm``, default
    :func:`stratagem.mpi.world`) the pairs are spread over the ranks and every rank returns
    the whole result (see :func:`stratagem.tournament.run`).

    The pair ``(i, j)`` (positions in ``policies``) draws its start and the seeds of its two
    halves from words 0, 1 and 2 of block 0 of stream ``(seed, "conquest.tournament", i, j)``.
    """
    names = _policy_list(policies)
    if assign not in _STARTS:
        raise InvalidParameter(f"assign must be one of {tuple(_STARTS)}, got {assign!r}")
    count = _validate.integer("games", games, 2)
    checked_seed = _validate.seed(seed)
    limit = _validate.integer("max_turns", max_turns, 1)
    troop_count = _validate.integer("troops", troops, 0, TROOP_LIMIT)
    start_troops = troops_uniform(board, troop_count)
    first_half = count // 2
    setup = {
        "board": board.kind,
        "n": board.n,
        "borders": board.n_borders,
        "policies": list(names),
        "games": count,
        "seed": checked_seed,
        "max_turns": limit,
        "troops": troop_count,
        "rate": rate,
        "assign": assign,
    }

    def play_pair(i: int, j: int, threads: int | None) -> list[int]:
        words = [int(w) for w in rng.blocks(checked_seed, _PURPOSE, [i, j])[0]]
        team = _STARTS[assign](board, 2, words[0])
        straight, swapped = (
            simulate_many(
                board,
                team,
                start_troops,
                seats,
                games=half_games,
                seed=half_seed,
                rate=rate,
                max_turns=limit,
                threads=threads,
            )
            for seats, half_games, half_seed in (
                ((names[i], names[j]), first_half, words[1]),
                ((names[j], names[i]), count - first_half, words[2]),
            )
        )
        return [
            int(straight.wins[0] + swapped.wins[1]),
            int(straight.wins[1] + swapped.wins[0]),
            straight.draws + swapped.draws,
            straight.unfinished + swapped.unfinished,
            int(np.concatenate([straight.turns, swapped.turns]).sum()),
        ]

    fixtures, table = run_pairs(
        len(names),
        play_pair,
        game="conquest",
        setup=setup,
        columns=_COLUMNS,
        check=_check_pair(count, limit),
        checkpoint=checkpoint,
        comm=comm,
        threads=threads,
        progress=progress,
        label="conquest tournament",
        weight=lambda _: 2,
    )
    pairs = [
        PairResult(
            first=names[i],
            second=names[j],
            games=count,
            first_wins=int(row[0]),
            second_wins=int(row[1]),
            draws=int(row[2]),
            unfinished=int(row[3]),
            mean_turns=float(row[4]) / count,  # the mean of the games' turns, exactly
        )
        for (i, j), row in zip(fixtures, table, strict=True)
    ]
    overall = []
    for policy in names:
        mine = [p.score(policy) for p in pairs if policy in (p.first, p.second)]
        played = sum(score.games for score in mine)
        overall.append(
            Score(
                policy,
                "all",
                played,
                sum(score.wins for score in mine),
                sum(score.losses for score in mine),
                sum(score.draws for score in mine),
                sum(score.unfinished for score in mine),
                sum(score.mean_turns * score.games for score in mine) / played,
            )
        )
    return TournamentResult(names, count, limit, checked_seed, assign, tuple(pairs), tuple(overall))
