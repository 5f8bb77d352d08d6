"""Shared pieces of the distributed conquest tests (single process and under mpiexec): how a
game is made for both engines, boards whose ids say nothing about geography, and how two games
are compared."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stratagem.conquest import Board, Game
from stratagem.conquest.distributed import DistributedGame
from stratagem.mpi import Communicator

IntArray = NDArray[np.int64]


@dataclass(frozen=True)
class Setup:
    """Everything a game is made from, the same for Game and DistributedGame."""

    board: Board
    team: IntArray
    troops: IntArray | int
    policies: tuple[str, ...]
    seed: int
    rate: float = 0.2
    cap: int | None = None
    max_turns: int = 20

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        positional = (self.board, self.team, self.troops, list(self.policies))
        keywords = {"seed": self.seed, "rate": self.rate, "cap": self.cap}
        return positional, keywords | {"max_turns": self.max_turns}

    def game(self, threads: int = 1) -> Game:
        positional, keywords = self._arguments()
        return Game(*positional, threads=threads, **keywords)

    def spread(self, comm: Communicator | None = None, **options: Any) -> DistributedGame:
        positional, keywords = self._arguments()
        return DistributedGame(*positional, comm=comm, **keywords, **options)


def shuffled(board: Board, seed: int) -> Board:
    """The same graph with its territory ids permuted: ids then say nothing about geography."""
    perm = np.random.default_rng(seed).permutation(board.n)
    return Board.from_edges(perm[board.edges()], board.n)


def first_difference(spread: DistributedGame, single: Game) -> str | None:
    """What differs between the two games (state, turn, status, winner, history), if anything.
    Collective (gather_state)."""
    team, troops = spread.gather_state()
    checks = {
        "team": np.array_equal(team, single.team),
        "troops": np.array_equal(troops, single.troops),
        "turn": spread.turn == single.turn,
        "status": spread.status == single.status,
        "winner": spread.winner == single.winner,
        "history territories": np.array_equal(
            spread.history.territories, single.history.territories
        ),
        "history troops": np.array_equal(spread.history.troops, single.history.troops),
    }
    wrong = [name for name, same in checks.items() if not same]
    return f"turn {single.turn}: {', '.join(wrong)} differ" if wrong else None


def play_alongside(spread: DistributedGame, single: Game) -> list[str]:
    """Steps both games until they end; the differences seen after each turn (empty when the
    games agree throughout). Collective (first_difference)."""
    seen = [first_difference(spread, single)]
    while True:
        stepped = spread.step()
        if stepped != single.step():
            seen.append(f"turn {single.turn}: step() returned {stepped} only in the spread game")
        seen.append(first_difference(spread, single))
        if not stepped:
            return [difference for difference in seen if difference is not None]
