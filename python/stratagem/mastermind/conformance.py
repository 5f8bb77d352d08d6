"""The mastermind adapter of the shared conformance test (:mod:`stratagem.testing`): a turn is
one guess of a codebreaker strategy against a secret, played by the Rust engine
(:class:`~stratagem.mastermind.Codebreaker`) on the fast path and by
:mod:`stratagem.mastermind.oracle` on the other. Imports hypothesis only inside
:meth:`MastermindAdapter.cases`."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from stratagem import testing
from stratagem.errors import InvalidBoard, InvalidMove, InvalidParameter
from stratagem.mastermind import oracle
from stratagem.mastermind.game import score
from stratagem.mastermind.players import Codebreaker

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = ["Case", "MastermindAdapter", "Match"]

_SAVE_FORMAT = "stratagem.mastermind.match"
# Small spaces, so the heuristic strategies (which score every code) stay fast.
_SPACES = ((2, 3), (3, 3), (3, 4), (4, 4))
_STRATEGIES = ("first", "random", "knuth", "irving", "entropy", "most_parts")


@dataclass(frozen=True)
class Case:
    """A space, a strategy and the secret."""

    spots: int
    colours: int
    strategy: str
    secret: tuple[int, ...]


@dataclass
class Match:
    """A codebreaker strategy playing against a known secret, on the engine or the oracle."""

    case: Case
    seed: int
    threads: int | None = None
    history: list[tuple[tuple[int, ...], tuple[int, int]]] = field(default_factory=list)
    breaker: Codebreaker | None = None

    @property
    def solved(self) -> bool:
        return bool(self.history) and self.history[-1][1][0] == self.case.spots

    def guess(self) -> None:
        """One more guess, scored against the secret (nothing once solved)."""
        if self.solved:
            return
        case = self.case
        if self.breaker is not None:
            guess = tuple(int(c) for c in self.breaker.next_guess())
            black, white = score(np.array(guess), np.array(case.secret), colours=case.colours)
            feedback = (int(black[0]), int(white[0]))
            self.breaker.feedback(*feedback)
        else:
            found = oracle.next_guess(
                case.spots, case.colours, self.history, case.strategy, self.seed
            )
            assert found is not None  # the secret fits every history of its own game
            guess = found
            feedback = oracle.score(guess, case.secret)
        self.history.append((guess, feedback))


def _engine_match(case: Case, seed: int, threads: int | None) -> Match:
    breaker = Codebreaker(case.spots, case.colours, case.strategy, seed, threads=threads)
    return Match(case, seed, threads, breaker=breaker)


class MastermindAdapter:
    name = "mastermind"

    def random_case(self, rng: random.Random) -> Case:
        spots, colours = rng.choice(_SPACES)
        secret = tuple(rng.randrange(colours) for _ in range(spots))
        return Case(spots, colours, rng.choice(_STRATEGIES), secret)

    def cases(self) -> SearchStrategy[Case]:
        from hypothesis import strategies as st

        @st.composite
        def draw_case(draw: st.DrawFn) -> Case:
            spots, colours = draw(st.sampled_from(_SPACES))
            secret = draw(st.tuples(*[st.integers(0, colours - 1)] * spots))
            return Case(spots, colours, draw(st.sampled_from(_STRATEGIES)), secret)

        return draw_case()

    def start(self, case: Case, seed: int, *, threads: int | None) -> Match:
        return _engine_match(case, seed, threads)

    def start_oracle(self, case: Case, seed: int) -> Match:
        return Match(case, seed)

    def advance(self, game: Match, turns: int) -> Match:
        for _ in range(turns):
            game.guess()
        return game

    def snapshot(self, game: Match) -> testing.Snapshot:
        spots = game.case.spots
        guesses: NDArray[np.int64] = np.array(
            [guess for guess, _ in game.history], dtype=np.int64
        ).reshape(-1, spots)
        feedback = np.array([fb for _, fb in game.history], dtype=np.int64).reshape(-1, 2)
        return {"guesses": guesses, "feedback": feedback, "solved": int(game.solved)}

    def save(self, game: Match, path: Path) -> None:
        case = game.case
        data = {
            "format": _SAVE_FORMAT,
            "spots": case.spots,
            "colours": case.colours,
            "strategy": case.strategy,
            "secret": list(case.secret),
            "seed": game.seed,
            "feedback": [list(feedback) for _, feedback in game.history],
        }
        path.write_text(json.dumps(data), encoding="utf-8")

    def load(self, path: Path, *, threads: int | None) -> Match:
        """Replays the saved feedbacks into a new codebreaker (its guesses are the strategy's,
        so only the answers need saving; an answer that does not fit is refused)."""
        try:
            data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
            fields = [data["spots"], data["colours"], data["strategy"], tuple(data["secret"])]
            answers = [(int(black), int(white)) for black, white in data["feedback"]]
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise InvalidBoard(f"{path}: not a saved mastermind match ({error})") from None
        if data.get("format") != _SAVE_FORMAT:
            raise InvalidBoard(f"{path}: not a saved mastermind match")
        game = _engine_match(Case(*fields), data["seed"], threads)
        assert game.breaker is not None
        for black, white in answers:
            guess = tuple(int(c) for c in game.breaker.next_guess())
            game.breaker.feedback(black, white)
            game.history.append((guess, (black, white)))
        return game

    def bad_inputs(self, case: Case) -> list[testing.BadInput[Match]]:
        s, c = case.spots, case.colours

        def feedback(black: int, white: int) -> Any:
            def call(game: Match) -> None:
                # A solved game takes no feedback at all: a new codebreaker's answer is checked.
                breaker = game.breaker
                if breaker is None or game.solved:
                    breaker = Codebreaker(s, c, case.strategy, game.seed)
                breaker.feedback(black, white)

            return call

        return [
            testing.BadInput(
                "too many blacks",
                feedback(s + 1, 0),
                InvalidParameter,
                f"black must be at most {s}",
            ),
            testing.BadInput(
                "negative white", feedback(0, -1), InvalidParameter, "white must be at least 0"
            ),
            testing.BadInput(
                "black + white over the spots",
                feedback(s, 1) if s > 1 else feedback(1, 1),
                InvalidParameter,
                "more than",
            ),
            testing.BadInput(
                "a colour out of range",
                lambda game: score(np.array([c] * s), np.array(case.secret), colours=c),
                InvalidParameter,
                str(c),
            ),
            testing.BadInput(
                "an unknown strategy",
                lambda game: Codebreaker(s, c, "psychic"),
                InvalidParameter,
                "psychic",
            ),
            testing.BadInput(
                "a guess after the code is found",
                lambda game: _solved_breaker(case).next_guess(),
                InvalidMove,
                "already found",
            ),
        ]


def _solved_breaker(case: Case) -> Codebreaker:
    breaker = Codebreaker(case.spots, case.colours, "first")
    breaker.next_guess()
    breaker.feedback(case.spots, 0)
    return breaker
