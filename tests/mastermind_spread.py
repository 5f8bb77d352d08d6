"""Shared pieces of the distributed mastermind tests (single process and under mpiexec): the
seed's games, hypothesis' searches (space, history, order) and how to run one both ways."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st
from numpy.typing import NDArray

from stratagem import _core
from stratagem.mastermind import first_consistent, score
from stratagem.mastermind.distributed import SearchStats
from stratagem.mastermind.distributed import first_consistent as spread_first
from stratagem.mpi import Communicator

Code = NDArray[np.uint8]

# The seed's instances (spots, colours, secret), played to the end with the first strategy.
SEED_GAMES: list[tuple[int, int, tuple[int, ...]]] = [
    (4, 6, (2, 1, 0, 0)),
    (4, 6, (4, 4, 1, 2)),
    (5, 6, (4, 2, 1, 5, 2)),
    (5, 9, (0, 8, 2, 7, 8)),
    (6, 9, (2, 3, 3, 6, 5, 5)),
    (7, 8, (7, 0, 3, 0, 5, 2, 1)),
    (10, 10, (7, 7, 3, 5, 4, 2, 7, 3, 6, 8)),
]


def game_id(game: tuple[int, int, tuple[int, ...]]) -> str:
    spots, colours, secret = game
    return f"{spots}x{colours}-{''.join(map(str, secret))}"


@dataclass(frozen=True)
class Search:
    """One consistent-code search: a space, a history and an order (``None``: lexicographic)."""

    spots: int
    colours: int
    guesses: Code
    feedback: Code
    order: Code | None = None

    def _space_and_history(self) -> tuple[int, int, Code, Code]:
        """The positional arguments of both searches."""
        return self.spots, self.colours, self.guesses, self.feedback

    def single(self) -> Code | None:
        """The answer of the single-process search."""
        return first_consistent(*self._space_and_history(), order=self.order, threads=1)

    def spread(
        self, comm: Communicator, threads: int | None = 1, stats: SearchStats | None = None
    ) -> Code | None:
        """The answer of the distributed search over ``comm``."""
        return spread_first(
            *self._space_and_history(), comm=comm, order=self.order, threads=threads, stats=stats
        )

    def describe(self) -> dict[str, Any]:
        """The search's identity, to compare between ranks."""
        return {
            "space": (self.spots, self.colours),
            "guesses": self.guesses.tolist(),
            "feedback": self.feedback.tolist(),
            "order": None if self.order is None else self.order.tolist(),
        }


def as_list(code: Code | None) -> list[int] | None:
    return None if code is None else [int(c) for c in code]


def played(spots: int, colours: int, secret: Code, turns: int, order: Code | None) -> Search:
    """The history of ``turns`` guesses of the first strategy against ``secret``."""
    guesses = np.zeros((0, spots), dtype=np.uint8)
    feedback = np.zeros((0, 2), dtype=np.uint8)
    for _ in range(turns):
        guess = first_consistent(spots, colours, guesses, feedback, order=order, threads=1)
        if guess is None:
            break
        black, white = score(guess, secret, colours=colours, threads=1)
        guesses = np.vstack([guesses, guess[None, :]])
        feedback = np.vstack([feedback, np.array([[black[0], white[0]]], dtype=np.uint8)])
        if black[0] == spots:
            break
    return Search(spots, colours, guesses, feedback, order)


SMALL = st.tuples(st.integers(1, 5), st.integers(2, 7))  # at most 7^5 codes
MEDIUM = st.tuples(st.integers(6, 9), st.integers(6, 12))


@st.composite
def searches(draw: st.DrawFn, spaces: st.SearchStrategy[tuple[int, int]] = SMALL) -> Search:
    """A search on a space drawn from ``spaces``: a history of random guesses or of the first
    strategy's guesses, its feedbacks the secret's, some replaced by any in-range feedback
    (often making the history inconsistent: answer ``None``); the order lexicographic, the
    first strategy's shuffled order of a seed, or any per-spot permutations."""
    spots, colours = draw(spaces)
    secret = np.array(
        draw(st.lists(st.integers(0, colours - 1), min_size=spots, max_size=spots)), np.uint8
    )
    kind = draw(st.sampled_from(["lex", "shuffled", "permutations"]))
    order: Code | None = None
    if kind == "shuffled":
        order = _core.mastermind.shuffled_order(spots, colours, draw(st.integers(0, 2**64 - 1)))
    elif kind == "permutations":
        rows = [draw(st.permutations(range(colours))) for _ in range(spots)]
        order = np.array(rows, dtype=np.uint8)
    turns = draw(st.integers(0, 6))
    if draw(st.booleans()):
        search = played(spots, colours, secret, turns, order)
        guesses, feedback = search.guesses, search.feedback.copy()
    else:
        guesses = np.array(
            [
                draw(st.lists(st.integers(0, colours - 1), min_size=spots, max_size=spots))
                for _ in range(turns)
            ],
            dtype=np.uint8,
        ).reshape(turns, spots)
        black, white = score(guesses, secret, colours=colours, threads=1)
        feedback = np.stack([black, white], axis=1).astype(np.uint8).reshape(turns, 2)
    for turn in range(len(guesses)):
        if draw(st.integers(0, 4)) == 0:  # made up
            black_made = draw(st.integers(0, spots))
            feedback[turn] = (black_made, draw(st.integers(0, spots - black_made)))
    return Search(spots, colours, guesses, feedback, order)
