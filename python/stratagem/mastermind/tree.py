"""Saved strategy trees: every decision of a strategy for a whole space, played back against
every secret.

The optimal trees of 4 spots x 6 colours, 4 x 7 and 5 x 5 ship with the package (``data/``); they
were written by the engine's exhaustive search,
``cargo run --release -p stratagem-mastermind --example optimal_tree -- 4 7 1 FILE``
(docs/mastermind.md). A tree file has one line per decision in preorder: the feedbacks that
lead to it (``-`` at the root, else ``black.white`` pairs joined by ``/``) and the guess.

>>> tree = StrategyTree.bundled(4, 6)
>>> tree.guess(())
'0012'
>>> tree.guess(((0, 0),))
'3345'
>>> int(tree.play_all().sum())
5625
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stratagem._files import cannot_read, read_text
from stratagem.errors import InvalidParameter
from stratagem.mastermind.code import check_space, parse_code
from stratagem.mastermind.game import score

__all__ = ["BUNDLED", "FeedbackPath", "StrategyTree"]

#: The spaces whose optimal tree ships with the package.
BUNDLED: tuple[tuple[int, int], ...] = ((4, 6), (4, 7), (5, 5))

#: Feedbacks from the root to a decision, each ``(black, white)``.
FeedbackPath = tuple[tuple[int, int], ...]

Scorer = Callable[[NDArray[np.uint8], NDArray[np.uint8], int], tuple[Any, Any]]


def _engine_score(
    guess: NDArray[np.uint8], secrets: NDArray[np.uint8], colours: int
) -> tuple[Any, Any]:
    return score(guess, secrets, colours=colours)


@dataclass(frozen=True)
class StrategyTree:
    """A strategy as its decisions: the guess to play after each sequence of feedbacks."""

    spots: int
    colours: int
    decisions: Mapping[FeedbackPath, str]

    @classmethod
    def parse(cls, text: str, colours: int) -> StrategyTree:
        """A tree from the text of a tree file, naming the first bad line."""
        decisions: dict[FeedbackPath, str] = {}
        spots = 0
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            fields = line.split()
            if len(fields) != 2:
                raise InvalidParameter(f"tree line {number}: expected 'path guess', got {line!r}")
            path = _parse_path(fields[0], number)
            guess = parse_code(fields[1], colours, spots or None)
            spots = guess.size
            if path in decisions:
                raise InvalidParameter(f"tree line {number}: a second decision for {fields[0]}")
            if path and path[:-1] not in decisions:
                raise InvalidParameter(f"tree line {number}: {fields[0]} has no parent above it")
            decisions[path] = fields[1]
        if () not in decisions:
            raise InvalidParameter("the tree has no first guess (a line '- GUESS')")
        spots, colours = check_space(spots, colours)
        return cls(spots, colours, decisions)

    @classmethod
    def read(cls, path: str | Path, colours: int) -> StrategyTree:
        """A tree from a file (see the module's notes for the format)."""
        return cls.parse(
            read_text(path, cannot_read(path, "a strategy tree", InvalidParameter)), colours
        )

    @classmethod
    def bundled(cls, spots: int, colours: int) -> StrategyTree:
        """The optimal tree shipped for ``spots`` x ``colours`` (one of :data:`BUNDLED`)."""
        if (spots, colours) not in BUNDLED:
            raise InvalidParameter(
                f"no optimal tree ships for {spots} spots x {colours} colours; there are "
                + ", ".join(f"{s}x{c}" for s, c in BUNDLED)
            )
        name = f"optimal_{spots}x{colours}.txt"
        text = resources.files("stratagem.mastermind").joinpath("data", name).read_text("utf-8")
        return cls.parse(text, colours)

    def guess(self, path: FeedbackPath) -> str:
        """The guess played after the feedbacks ``path``."""
        found = self.decisions.get(tuple(path))
        if found is None:
            raise InvalidParameter(f"the tree has no decision after the feedbacks {path}")
        return found

    def play_all(self, scorer: Scorer = _engine_score) -> NDArray[np.int64]:
        """The number of guesses the tree takes for every secret, in lexicographic order of
        the secrets. ``scorer(guess, secrets, colours)`` gives (black, white) arrays; the
        engine's by default. Raises if some secret reaches a feedback the tree has no decision
        for."""
        size = self.colours**self.spots
        ranks = np.arange(size)
        codes = np.stack(
            [(ranks // self.colours**p) % self.colours for p in range(self.spots - 1, -1, -1)],
            axis=1,
        ).astype(np.uint8)
        guesses = np.zeros(size, dtype=np.int64)
        pending: list[tuple[FeedbackPath, NDArray[np.int64]]] = [((), ranks)]
        while pending:
            path, members = pending.pop()
            guess = parse_code(self.guess(path), self.colours, self.spots)
            black, white = (
                np.asarray(a, dtype=np.int64) for a in scorer(guess, codes[members], self.colours)
            )
            won = black == self.spots
            guesses[members[won]] = len(path) + 1
            keys = black[~won] * (self.spots + 1) + white[~won]
            rest = members[~won]
            for key in np.unique(keys):
                feedback = (int(key) // (self.spots + 1), int(key) % (self.spots + 1))
                pending.append(((*path, feedback), rest[keys == key]))
        return guesses


def _parse_path(text: str, number: int) -> FeedbackPath:
    if text == "-":
        return ()
    path = []
    for step in text.split("/"):
        black, dot, white = step.partition(".")
        if not (dot and black.isdigit() and white.isdigit()):
            raise InvalidParameter(f"tree line {number}: feedback {step!r} is not 'black.white'")
        path.append((int(black), int(white)))
    return tuple(path)
