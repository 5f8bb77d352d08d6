"""The codebreaker's players: the strategies, the :class:`Codebreaker` that plays one against
a codemaker who answers, and :func:`solve`, a whole game against a known secret
(``docs/mastermind-rules.md``). A person at the keyboard plays through
:mod:`stratagem.mastermind.human`.

>>> from stratagem.mastermind import Codebreaker, parse_code, solve
>>> result = solve("7735427368", colours=10)
>>> result.turns, result.guesses[-1].tolist() == parse_code("7735427368", 10).tolist()
(13, True)
>>> breaker = Codebreaker(4, 6, strategy="knuth")
>>> breaker.next_guess().tolist()
[0, 0, 1, 1]
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from stratagem import _core, _validate
from stratagem.errors import InconsistentFeedback, InvalidMove, InvalidParameter
from stratagem.mastermind.code import as_code, check_space, format_code, parse_code
from stratagem.mastermind.game import (
    ENUMERABLE_LIMIT,
    _check_feedback,
    _history,
    count_consistent,
)
from stratagem.progress import Progress, ProgressOption

__all__ = [
    "OPTIMAL_LIMIT",
    "ORDERS",
    "STRATEGIES",
    "Codebreaker",
    "Solution",
    "check_strategy",
    "next_guess",
    "solve",
]

#: The strategies, as the engine names them.
STRATEGIES: tuple[str, ...] = tuple(_core.mastermind.STRATEGIES)
ORDERS: Final = ("lex", "shuffled")
OPTIMAL_LIMIT: Final[int] = _core.mastermind.OPTIMAL_LIMIT

#: Guesses ``(k, S)`` and their (black, white) feedback ``(k, 2)``.
Answers = tuple[NDArray[np.uint8], NDArray[np.uint8]]


def check_strategy(strategy: object) -> str:
    """``strategy`` if it names one of :data:`STRATEGIES`, else ``InvalidParameter``."""
    if strategy not in STRATEGIES:
        raise InvalidParameter(
            f"unknown strategy {strategy!r}; strategies are {', '.join(STRATEGIES)}"
        )
    return str(strategy)


def _strategy(strategy: object, order: object) -> tuple[str, str]:
    if order not in ORDERS:
        raise InvalidParameter(f"order must be one of {', '.join(ORDERS)}, got {order!r}")
    return check_strategy(strategy), str(order)


def _contradiction_error(
    history: _core.mastermind.History, threads: int | None
) -> InconsistentFeedback:
    turns = _core.mastermind.contradiction(history, threads) or []
    guesses, feedback = history.guesses, history.feedback
    described = "; ".join(
        f"turn {t}: {format_code(guesses[t])} got {feedback[t][0]} black {feedback[t][1]} white"
        for t in turns
    )
    what = "this feedback" if len(turns) == 1 else f"these {len(turns)} feedbacks together"
    return InconsistentFeedback(f"no code fits {what}: {described}", tuple(int(t) for t in turns))


def next_guess(
    spots: int,
    colours: int,
    guesses: Any = (),
    feedback: Any = (),
    *,
    strategy: str = "first",
    seed: int = 0,
    order: str = "lex",
    threads: int | None = None,
) -> NDArray[np.uint8]:
    """The strategy's guess after the history. Raises :class:`InconsistentFeedback` (naming a
    smallest contradicting set of feedbacks) when no code fits the history."""
    spots, colours = check_space(spots, colours)
    strategy, order = _strategy(strategy, order)
    history = _history(spots, colours, guesses, feedback)
    threads = _validate.threads(threads)
    guess = _core.mastermind.next_guess(history, strategy, _validate.seed(seed), order, threads)
    if guess is None:
        raise _contradiction_error(history, threads)
    return guess


class AnsweredGuesses:
    """The guesses answered so far and their (black, white) feedbacks, as a
    :class:`Codebreaker` and the protocol game keep them."""

    spots: int
    colours: int
    seed: int
    threads: int | None

    def _clear_answers(self) -> None:
        self._guesses = np.zeros((0, self.spots), dtype=np.uint8)
        self._feedback = np.zeros((0, 2), dtype=np.uint8)

    def _answered(self, guess: NDArray[np.uint8], black: int, white: int) -> Answers:
        """The guesses and feedbacks with ``guess`` answered too (these left as they are)."""
        return (
            np.vstack([self._guesses, guess[None, :]]),
            np.vstack([self._feedback, np.array([[black, white]], dtype=np.uint8)]),
        )

    def _strategy_guess(self, strategy: str, order: str = "lex") -> NDArray[np.uint8]:
        """:func:`next_guess` of ``strategy`` after the guesses answered so far."""
        return next_guess(
            self.spots,
            self.colours,
            self._guesses,
            self._feedback,
            strategy=strategy,
            seed=self.seed,
            order=order,
            threads=self.threads,
        )

    @property
    def guesses(self) -> NDArray[np.uint8]:
        """The guesses answered so far, ``(turns, spots)``."""
        return self._guesses.copy()

    @property
    def solved(self) -> bool:
        """Whether the last guess answered got a black for every spot."""
        return bool(len(self._feedback) and self._feedback[-1, 0] == self.spots)


class Codebreaker(AnsweredGuesses):
    """A codebreaker playing ``strategy`` against a codemaker who answers each guess.

    >>> breaker = Codebreaker(4, 6, strategy="knuth")
    >>> guess = breaker.next_guess()          # 0011
    >>> breaker.feedback(1, 1)                # the codemaker's answer
    >>> breaker.next_guess().tolist()
    [0, 0, 2, 3]
    >>> breaker.feedback(3, 1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    stratagem.errors.InconsistentFeedback: no code fits this feedback: turn 1: 0023 got 3 black...
    """

    def __init__(
        self,
        spots: int,
        colours: int,
        strategy: str = "first",
        seed: int = 0,
        *,
        order: str = "lex",
        threads: int | None = None,
    ) -> None:
        self.spots, self.colours = check_space(spots, colours)
        self.strategy, self.order = _strategy(strategy, order)
        self.seed = _validate.seed(seed)
        self.threads = _validate.threads(threads)
        if self.strategy in ("knuth", "irving", "entropy", "most_parts") and (
            self.colours**self.spots > ENUMERABLE_LIMIT
        ):
            raise InvalidParameter(
                f"strategy '{self.strategy}' scores every code, so it needs at most "
                f"{ENUMERABLE_LIMIT} codes; {self.spots} spots x {self.colours} colours has "
                f"{self.colours**self.spots}"
            )
        if self.strategy == "optimal" and self.colours**self.spots > OPTIMAL_LIMIT:
            raise InvalidParameter(
                f"the optimal strategy is an exhaustive search, so it needs at most "
                f"{OPTIMAL_LIMIT} codes; {self.spots} spots x {self.colours} colours has "
                f"{self.colours**self.spots}"
            )
        self._clear_answers()
        self._pending: NDArray[np.uint8] | None = None

    @property
    def feedbacks(self) -> NDArray[np.uint8]:
        """Their (black, white) answers, ``(turns, 2)``."""
        return self._feedback.copy()

    @property
    def turns(self) -> int:
        return len(self._guesses)

    def next_guess(self) -> NDArray[np.uint8]:
        """The strategy's next guess (the same one until :meth:`feedback` is called)."""
        if self.solved:
            raise InvalidMove("the code is already found")
        if self._pending is None:
            self._pending = self._strategy_guess(self.strategy, self.order)
        return self._pending.copy()

    def feedback(self, black: int, white: int) -> None:
        """Records the codemaker's answer to the pending guess. A feedback after which no code
        fits is refused with :class:`InconsistentFeedback` and not recorded."""
        guess = self.next_guess()
        black, white = _check_feedback(self.spots, black, white, self.turns)
        guesses, feedback = self._answered(guess, black, white)
        # A win is checked too: the guess must fit the earlier answers to be the secret.
        history = _core.mastermind.History(self.spots, self.colours, guesses, feedback)
        if _core.mastermind.first(history, None, None, self.threads) is None:
            raise _contradiction_error(history, self.threads)
        self._guesses, self._feedback, self._pending = guesses, feedback, None

    def remaining(self) -> int:
        """How many codes are still consistent."""
        return count_consistent(
            self.spots, self.colours, self._guesses, self._feedback, threads=self.threads
        )


@dataclass(frozen=True)
class Solution:
    """A solved game: every guess and its feedback, and the wall time taken."""

    secret: NDArray[np.uint8]
    guesses: NDArray[np.uint8]
    feedback: NDArray[np.uint8]
    seconds: float
    strategy: str
    colours: int
    seed: int = 0

    @property
    def turns(self) -> int:
        return len(self.guesses)

    def to_dict(self) -> dict[str, Any]:
        return {
            "secret": format_code(self.secret),
            "spots": int(self.secret.size),
            "colours": self.colours,
            "strategy": self.strategy,
            "seed": self.seed,
            "turns": self.turns,
            "guesses": [format_code(g) for g in self.guesses],
            "feedback": self.feedback.tolist(),
            "seconds": self.seconds,
        }


def solve(
    secret: Any,
    colours: int,
    strategy: str = "first",
    seed: int = 0,
    *,
    order: str = "lex",
    threads: int | None = None,
    progress: ProgressOption = None,
) -> Solution:
    """Plays ``strategy`` against ``secret`` (a code or its written form) until it is found,
    in one call to the engine (the same guesses as a :class:`Codebreaker` fed the true
    feedbacks). ``progress`` (:mod:`stratagem.progress`) follows the most black pegs a guess
    has had, which reaches the number of spots when the code is broken."""
    secret_array = parse_code(secret, colours) if isinstance(secret, str) else np.asarray(secret)
    spots, colours = check_space(secret_array.size, colours)
    secret_array = as_code("secret", secret_array, spots, colours)
    strategy, order = _strategy(strategy, order)
    seed = _validate.seed(seed)
    started = time.perf_counter()
    with Progress(spots, f"mastermind {strategy} (blacks)", enabled=progress) as bar:
        guesses, feedback = _core.mastermind.solve(
            secret_array,
            colours,
            strategy,
            seed,
            order,
            _validate.threads(threads),
            bar.reach,
        )
        bar.reach(spots)
    return Solution(
        secret=secret_array,
        guesses=guesses,
        feedback=feedback,
        seconds=time.perf_counter() - started,
        strategy=strategy,
        colours=colours,
        seed=seed,
    )
