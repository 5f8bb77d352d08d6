"""Mastermind through :mod:`stratagem.protocol`: :class:`Mastermind`.

One seat, the codebreaker (``dynamics="single-agent"``); the codemaker is the game, holding a
secret drawn from the seed (``sample_secrets(spots, colours, 1, seed)``) or given. A guess is
entered peg by peg: an action is the colour of the next peg (``num_actions`` is the colour
count, every colour legal at every peg), and the guess is scored on the step that places its
last peg. So an agent can play any guess of any space, the seed's 10 spots x 10 colours
(10^10 codes) included, with 10 actions a step; what it cannot do is take back a peg, or see
a feedback before its guess is complete.

Reward -1 on each step that completes a guess (0 on the others), so the return is minus the
number of guesses. The game is won when a guess gets ``spots`` blacks; after ``max_guesses``
guesses without it the game is over with outcome ``"unfinished"`` (no winner).

The observation is an ``int16`` array of shape ``(max_guesses + 1, spots + 2)``: row ``i`` is
guess ``i`` (its pegs, then black and white), the last row the guess being entered (its pegs
so far; black and white -1); -1 wherever nothing is yet. The secret never appears in it.
With ``observation="planes"`` it is one float32 vector, the rows of ``planes_shape``
``(max_guesses + 1, spots * colours + 2 * (spots + 1))`` flattened, the same rows one-hot:
for each spot ``i`` the ``colours`` entries from ``i * colours`` (1 at the peg's colour), then
``spots + 1`` entries for black (1 at the count) and ``spots + 1`` for white; all 0 where
nothing is yet.

>>> from stratagem.mastermind.protocol import Mastermind
>>> game = Mastermind(seed=0, spots=4, colours=6, secret="0123")
>>> game.step([0]); game.step([0]); game.step([1]); game.step([1])
>>> game.observation(0)[0].tolist(), game.returns().tolist()
([0, 0, 1, 1, 1, 1], [-1.0])
>>> for peg in (0, 1, 2, 3):
...     game.step([peg])
>>> game.outcome, game.winners, game.returns().tolist()
('won', (0,), [-2.0])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from stratagem import _validate, protocol
from stratagem.errors import InvalidParameter
from stratagem.mastermind.code import as_code, check_space, format_code, parse_code
from stratagem.mastermind.evaluate import sample_secrets
from stratagem.mastermind.game import score
from stratagem.mastermind.players import STRATEGIES, AnsweredGuesses

__all__ = ["Mastermind"]

_MAX_GUESS_LIMIT = 10_000


class Mastermind(AnsweredGuesses, protocol.RawOrPlanes, protocol.TurnGame):
    """A Mastermind game behind the protocol; ``secret`` is the codemaker's code (for the
    referee: never shown to the codebreaker's observation)."""

    name = "mastermind"
    raw_dtype = np.int16

    def __init__(
        self,
        *,
        seed: int = 0,
        spots: int = 4,
        colours: int = 6,
        max_guesses: int = 12,
        secret: str | None = None,
        threads: int | None = None,
        observation: str = "raw",
    ) -> None:
        self.observation_mode = protocol.check_observation(observation)
        self.threads = _validate.threads(threads)
        self.spots, self.colours = check_space(spots, colours)
        self.max_guesses = _validate.integer("max_guesses", max_guesses, 1, _MAX_GUESS_LIMIT)
        seed = _validate.seed(seed)
        if secret is None:
            self.secret = sample_secrets(self.spots, self.colours, 1, seed)[0]
        elif isinstance(secret, str):
            self.secret = as_code(
                "secret", parse_code(secret, self.colours), self.spots, self.colours
            )
        else:
            raise InvalidParameter(f"secret must be a written code such as '0123', got {secret!r}")
        self._clear_answers()
        self._pegs: list[int] = []
        super().__init__(
            seed,
            {
                "spots": spots,
                "colours": colours,
                "max_guesses": max_guesses,
                "secret": secret,
                "observation": observation,
            },
        )

    @property
    def feedback(self) -> NDArray[np.uint8]:
        """Their (black, white), ``(k, 2)``."""
        return self._feedback.copy()

    @property
    def seats(self) -> int:
        return 1

    @property
    def is_over(self) -> bool:
        return self.solved or len(self._guesses) >= self.max_guesses

    @property
    def outcome(self) -> protocol.Outcome:
        return "won" if self.solved else "unfinished"

    @property
    def winners(self) -> tuple[int, ...]:
        return (0,) if self.solved else ()

    @property
    def num_actions(self) -> int:
        return self.colours

    @property
    def return_bounds(self) -> tuple[float, float]:
        return (-float(self.max_guesses), -1.0)

    @property
    def max_steps(self) -> int:
        return self.max_guesses * self.spots

    @property
    def planes_shape(self) -> tuple[int, int]:
        """The layout of ``observation="planes"``: (rows, one-hot entries of a row)."""
        return (self.max_guesses + 1, self.spots * self.colours + 2 * (self.spots + 1))

    @property
    def raw_shape(self) -> tuple[int, ...]:
        return (self.max_guesses + 1, self.spots + 2)

    @property
    def raw_bounds(self) -> tuple[NDArray[Any], NDArray[Any]]:
        low = np.full(self.raw_shape, -1, dtype=self.raw_dtype)
        high = np.full(self.raw_shape, self.spots, dtype=self.raw_dtype)
        high[:, : self.spots] = self.colours - 1
        return low, high

    def to_move(self) -> tuple[int, ...]:
        return () if self.is_over else (0,)

    def legal_actions(self, seat: int) -> NDArray[np.int64]:
        if self._seat(seat) not in self.to_move():
            return np.zeros(0, dtype=np.int64)
        return np.arange(self.colours, dtype=np.int64)

    def _apply(self, actions: dict[int, int]) -> list[float]:
        self._pegs.append(actions[0])
        if len(self._pegs) < self.spots:
            return [0.0]
        guess = np.array(self._pegs, dtype=np.uint8)
        black, white = score(guess, self.secret, colours=self.colours)
        self._guesses, self._feedback = self._answered(guess, int(black[0]), int(white[0]))
        self._pegs = []
        return [-1.0]

    def observation(self, seat: int) -> NDArray[Any]:
        self._seat(seat)
        board = np.full(self.raw_shape, -1, dtype=self.raw_dtype)
        played = len(self._guesses)
        board[:played, : self.spots] = self._guesses
        board[:played, self.spots :] = self._feedback
        board[-1, : len(self._pegs)] = self._pegs
        if self.observation_mode == "raw":
            return board
        rows = board.shape[0]
        pegs = protocol.one_hot(board[:, : self.spots], self.colours)  # (colours, rows, spots)
        counts = protocol.one_hot(board[:, self.spots :], self.spots + 1)  # (spots + 1, rows, 2)
        return np.concatenate(
            [
                pegs.transpose(1, 2, 0).reshape(rows, -1),
                counts.transpose(1, 2, 0).reshape(rows, -1),
            ],
            axis=1,
        ).ravel()

    def _copy_state(self, twin: Mastermind) -> None:
        twin._guesses = self._guesses.copy()
        twin._feedback = self._feedback.copy()
        twin._pegs = list(self._pegs)

    def render(self) -> str:
        lines = [
            f"mastermind {self.spots} spots x {self.colours} colours, guess "
            f"{len(self._guesses) + (not self.is_over)} of {self.max_guesses}"
        ]
        for guess, (black, white) in zip(self._guesses, self._feedback.tolist(), strict=True):
            lines.append(f"  {format_code(guess)}  {black} black {white} white")
        if self._pegs:
            lines.append(f"  {''.join(format_code(np.array(self._pegs, np.uint8)))}...")
        if self.is_over:
            lines.append("  solved" if self.solved else "  not solved: the guesses ran out")
        return "\n".join(lines)

    def suggest(self, seat: int, name: str) -> int:
        """The next peg of strategy ``name``'s next guess (a strategy of
        :data:`~stratagem.mastermind.STRATEGIES`) after the scored guesses; with pegs already
        placed that differ from its guess, the strategy's peg for the next spot all the same."""
        if self._seat(seat) not in self.to_move():
            raise InvalidParameter("the game is over; nothing to suggest")
        if name not in STRATEGIES:
            raise InvalidParameter(f"unknown strategy {name!r}; choose one of {STRATEGIES}")
        return int(self._strategy_guess(name)[len(self._pegs)])


if TYPE_CHECKING:  # mypy checks that the class satisfies the protocol
    _satisfies: type[protocol.Game] = Mastermind
