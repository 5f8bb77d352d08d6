"""A human codebreaker: the machine holds a secret (drawn from a seed, or given) and a person
guesses it (``stratagem mastermind play --human``, docs/mastermind.md).

:class:`HumanGame` is the game (scoring, the history, what the person may ask for, saving and
resuming); :func:`converse` reads the person's lines and answers them, as text for a terminal
or as one JSON object per line for scripted play.

>>> game = HumanGame.new(4, 6, secret="0123")
>>> game.guess("0011")
(1, 1)
>>> game.remaining()
208
>>> game.could_have_been()
True
>>> game.guess("0123"), game.won
((4, 0), True)
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import numpy as np
from numpy.typing import NDArray

from stratagem import _files, _validate
from stratagem.errors import InvalidBoard, InvalidMove, InvalidParameter, StratagemError
from stratagem.mastermind.code import check_space, format_code, parse_code
from stratagem.mastermind.evaluate import sample_secrets
from stratagem.mastermind.game import ENUMERABLE_LIMIT, count_consistent, score
from stratagem.mastermind.players import STRATEGIES, next_guess

__all__ = ["SAVE_KIND", "HumanGame", "converse"]

#: The ``kind`` of a saved human game's JSON.
SAVE_KIND = "stratagem.mastermind.human"

_HELP = (
    "type a code to guess it, or one of: history, count (codes still possible), hint (a "
    "strategy's suggestion), could (could the last guess have been the secret?), save [FILE], "
    "quit, help"
)


@dataclass
class HumanGame:
    """One game: the secret, how it was chosen, the strategy that gives hints, the rows of
    the board (the guesses allowed; None: no limit), the guesses and their feedback so far."""

    spots: int
    colours: int
    secret: NDArray[np.uint8]
    seed: int = 0
    drawn: bool = True
    hint_strategy: str = "knuth"
    threads: int | None = None
    rows: int | None = None
    guesses: list[str] = field(default_factory=list)
    feedback: list[tuple[int, int]] = field(default_factory=list)

    @classmethod
    def new(
        cls,
        spots: int,
        colours: int,
        *,
        secret: str | None = None,
        seed: int = 0,
        hint_strategy: str | None = None,
        threads: int | None = None,
        rows: int | None = None,
    ) -> HumanGame:
        """A game on ``spots`` x ``colours`` with ``secret`` (its written form), or a secret
        drawn from ``seed`` (the same draw as ``sample_secrets(spots, colours, 1, seed)``).
        Hints come from ``hint_strategy`` (default knuth, or first on spaces of more than
        ``ENUMERABLE_LIMIT`` codes). With ``rows`` the codebreaker loses when that many guesses
        have not found the code."""
        spots, colours = check_space(spots, colours)
        if rows is not None:
            rows = _validate.integer("rows", rows, 1)
        seed = _validate.seed(seed)
        if hint_strategy is None:
            hint_strategy = "knuth" if colours**spots <= ENUMERABLE_LIMIT else "first"
        if hint_strategy not in STRATEGIES:
            raise InvalidParameter(
                f"the hint strategy must be one of {', '.join(STRATEGIES)}, got {hint_strategy!r}"
            )
        if secret is None:
            code = sample_secrets(spots, colours, 1, seed)[0]
        else:
            code = parse_code(secret, colours, spots)
        return cls(spots, colours, code, seed, secret is None, hint_strategy, threads, rows)

    @property
    def won(self) -> bool:
        return bool(self.feedback) and self.feedback[-1] == (self.spots, 0)

    @property
    def lost(self) -> bool:
        """Whether every row of the board holds a guess and none found the code."""
        return self.rows is not None and self.turns >= self.rows and not self.won

    @property
    def turns(self) -> int:
        return len(self.guesses)

    def guess(self, text: str) -> tuple[int, int]:
        """Scores the guess ``text`` against the secret and records it."""
        if self.won:
            raise InvalidMove(f"the game is over: the secret was found on turn {self.turns}")
        if self.lost:
            raise InvalidMove(f"the game is over: the {self.rows} rows are used up")
        code = parse_code(text, self.colours, self.spots)
        black, white = (int(a[0]) for a in score(code, self.secret, colours=self.colours))
        self.guesses.append(format_code(code))
        self.feedback.append((black, white))
        return black, white

    def _history(self, turns: int | None = None) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
        turns = self.turns if turns is None else turns
        guesses = np.array(
            [parse_code(g, self.colours, self.spots) for g in self.guesses[:turns]], np.uint8
        ).reshape(turns, self.spots)
        feedback = np.array(self.feedback[:turns], np.uint8).reshape(turns, 2)
        return guesses, feedback

    def remaining(self) -> int:
        """The number of codes consistent with every feedback so far."""
        return count_consistent(self.spots, self.colours, *self._history(), threads=self.threads)

    def suggestion(self) -> str:
        """The hint strategy's guess after the history so far."""
        guess = next_guess(
            self.spots,
            self.colours,
            *self._history(),
            strategy=self.hint_strategy,
            seed=self.seed,
            threads=self.threads,
        )
        return format_code(guess)

    def could_have_been(self) -> bool:
        """Whether the last guess fitted every feedback before it (could have been the
        secret when it was played)."""
        if not self.guesses:
            raise InvalidMove("no guess yet: 'could' asks about the last guess")
        guesses, feedback = self._history(self.turns - 1)
        if not len(guesses):
            return True
        last = parse_code(self.guesses[-1], self.colours, self.spots)
        black, white = score(guesses, last, colours=self.colours)
        return bool(np.array_equal(black, feedback[:, 0]) and np.array_equal(white, feedback[:, 1]))

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": SAVE_KIND,
            "spots": self.spots,
            "colours": self.colours,
            "secret": format_code(self.secret),
            "seed": self.seed,
            "drawn": self.drawn,
            "hint_strategy": self.hint_strategy,
            "rows": self.rows,
            "guesses": list(self.guesses),
            "feedback": [list(f) for f in self.feedback],
        }

    def save(self, path: str | Path) -> None:
        """Writes the game to ``path`` (JSON, whole or not at all). The file holds the
        secret: a resumed game goes on against the same code."""
        _files.write_json(path, self.to_dict())

    @classmethod
    def from_dict(cls, data: Any, *, threads: int | None = None) -> HumanGame:
        """A saved game, checked: every recorded feedback must be the secret's score."""
        if not isinstance(data, dict) or data.get("kind") != SAVE_KIND:
            raise InvalidBoard(f"not a saved human mastermind game (kind {SAVE_KIND!r})")
        try:
            game = cls.new(
                data["spots"],
                data["colours"],
                secret=data["secret"],
                seed=data["seed"],
                hint_strategy=data["hint_strategy"],
                threads=threads,
                rows=data.get("rows"),
            )
            game.drawn = bool(data["drawn"])
            pairs = list(zip(data["guesses"], data["feedback"], strict=True))
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidBoard(f"a saved human mastermind game is damaged: {error}") from error
        for turn, (guess, recorded) in enumerate(pairs, 1):
            try:
                scored = game.guess(guess)
            except StratagemError as error:
                raise InvalidBoard(f"saved turn {turn}: {error}") from error
            if list(scored) != list(recorded):
                raise InvalidBoard(
                    f"saved turn {turn}: {guess} scores {scored[0]} black {scored[1]} white "
                    f"against the saved secret, not {recorded}"
                )
        return game

    @classmethod
    def load(cls, path: str | Path, *, threads: int | None = None) -> HumanGame:
        data = _files.read_json(
            path, lambda reason: InvalidBoard(f"{path}: not a saved game ({reason})")
        )
        return cls.from_dict(data, threads=threads)


def converse(
    game: HumanGame,
    lines: Iterable[str],
    out: TextIO,
    *,
    json_lines: bool = False,
    save: Path | None = None,
    echo: bool = False,
) -> str:
    """Answers the person's ``lines`` until the code is found, ``quit`` or the end of the
    input; returns how it ended (``won``, ``lost`` when the rows run out, ``quit`` or
    ``unfinished``). With ``save`` the game
    is saved there after every guess. With ``json_lines`` every answer is one JSON object on a
    line of ``out`` (``event``: ``start``, ``guess``, ``won``, ``history``, ``count``,
    ``hint``, ``could``, ``saved``, ``help``, ``error``); otherwise text with prompts, and
    with ``echo`` each line read is written after its prompt (input from a pipe, which no
    terminal echoes)."""
    dialogue = _Dialogue(game, out, json_lines, save)
    dialogue.start()
    if game.won or game.lost:
        return "won" if game.won else "lost"
    dialogue.prompt()
    for line in lines:
        if echo and not json_lines:
            out.write(line if line.endswith("\n") else line + "\n")
        try:
            ended = dialogue.answer(line.strip())
        except StratagemError as error:
            dialogue.say("error", f"  {error}", message=str(error))
            ended = None
        if ended is not None:
            return ended
        dialogue.prompt()
    if not json_lines:
        out.write("\n")
    return "unfinished"


class _Dialogue:
    """The answers of :func:`converse`, one method per request."""

    def __init__(self, game: HumanGame, out: TextIO, json_lines: bool, save: Path | None):
        self.game, self.out, self.json_lines, self.save_to = game, out, json_lines, save
        self.requests = {
            **dict.fromkeys(("quit", "exit", "q"), self.quit),
            **dict.fromkeys(("help", "?"), self.help),
            **dict.fromkeys(("history", "h"), self.history),
            **dict.fromkeys(("count", "left"), self.count),
            **dict.fromkeys(("hint", "suggest"), self.hint),
            **dict.fromkeys(("could", "check"), self.could),
            "save": self.save,
        }

    def say(self, event: str, text: str, /, **fields: Any) -> None:
        if self.json_lines:
            self.out.write(json.dumps({"event": event, **fields}) + "\n")
        else:
            self.out.write(text + "\n")
        self.out.flush()

    def prompt(self) -> None:
        if not self.json_lines:
            rows = "" if self.game.rows is None else f" of {self.game.rows}"
            self.out.write(f"guess {self.game.turns + 1}{rows}? ")
            self.out.flush()

    def start(self) -> None:
        game = self.game
        highest = format_code([game.colours - 1])
        origin = f"drawn from seed {game.seed}" if game.drawn else "given"
        self.say(
            "start",
            f"mastermind on {game.spots} spots x {game.colours} colours: I hold a secret code "
            f"({origin}) of colours 0 to {highest}. {_HELP}.",
            spots=game.spots,
            colours=game.colours,
            turn=game.turns,
            hint_strategy=game.hint_strategy,
            rows=game.rows,
        )
        if game.turns:
            self.history("")

    def answer(self, line: str) -> str | None:
        """Answers one line; ``won``, ``lost`` or ``quit`` when the game ends."""
        if not line:
            return None
        word, _, rest = line.partition(" ")
        request = self.requests.get(word.lower())
        if request is not None:
            return request(rest.strip())
        return self.guess(line)

    def guess(self, line: str) -> str | None:
        game = self.game
        black, white = game.guess(line)
        self.say(
            "guess",
            f"  {game.guesses[-1]}  {black} black {white} white",
            turn=game.turns,
            guess=game.guesses[-1],
            black=black,
            white=white,
            won=game.won,
        )
        if self.save_to is not None:
            game.save(self.save_to)
        if game.lost:
            secret = format_code(game.secret)
            self.say(
                "lost",
                f"the {game.rows} rows are used up: the secret was {secret}",
                turns=game.turns,
                secret=secret,
            )
            return "lost"
        if not game.won:
            return None
        guesses = "guess" if game.turns == 1 else "guesses"
        self.say("won", f"found in {game.turns} {guesses}", turns=game.turns)
        return "won"

    def quit(self, rest: str) -> str:
        return "quit"

    def help(self, rest: str) -> None:
        self.say("help", _HELP, text=_HELP)

    def history(self, rest: str) -> None:
        game = self.game
        width = len(str(max(game.turns, 1)))
        text = "\n".join(
            f"  {turn:>{width}}. {guess}  {black} black {white} white"
            for turn, (guess, (black, white)) in enumerate(
                zip(game.guesses, game.feedback, strict=True), 1
            )
        )
        self.say(
            "history",
            text or "  no guesses yet",
            guesses=list(game.guesses),
            feedback=[list(f) for f in game.feedback],
        )

    def count(self, rest: str) -> None:
        left = self.game.remaining()
        self.say("count", f"  {left:,} code{'s' if left != 1 else ''} still fit", codes=left)

    def hint(self, rest: str) -> None:
        hint = self.game.suggestion()
        strategy = self.game.hint_strategy
        self.say("hint", f"  {strategy} would guess {hint}", guess=hint, strategy=strategy)

    def could(self, rest: str) -> None:
        could = self.game.could_have_been()
        last = self.game.guesses[-1]
        verdict = "could" if could else "could not"
        self.say(
            "could",
            f"  {last} {verdict} have been the secret",
            guess=last,
            could_have_been=could,
        )

    def save(self, rest: str) -> None:
        target = Path(rest) if rest else self.save_to
        if target is None:
            raise InvalidParameter("save where? 'save FILE', or start with --save FILE")
        self.game.save(target)
        self.say("saved", f"  saved to {target}", file=str(target))
