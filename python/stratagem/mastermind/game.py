"""The game of the codebreaker: scoring and the consistent-code search.

Everything here calls the Rust engine (``stratagem._core``); ``oracle.py`` holds the same rules
in plain Python. ``docs/mastermind-rules.md`` states every order, tie-break and random stream.
The strategies that play it are :mod:`stratagem.mastermind.players`.

>>> from stratagem.mastermind import parse_code, score
>>> black, white = score(parse_code("0011", 6), parse_code("0123", 6), colours=6)
>>> int(black[0]), int(white[0])
(1, 1)
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from stratagem import _core, _validate
from stratagem.errors import InvalidParameter
from stratagem.mastermind.code import (
    MAX_COLOURS,
    MIN_COLOURS,
    as_codes,
    check_space,
    parse_code,
)
from stratagem.progress import Progress, ProgressOption

__all__ = [
    "ENUMERABLE_LIMIT",
    "MAX_PROBES",
    "consistent_codes",
    "count_consistent",
    "estimate_consistent",
    "first_consistent",
    "score",
    "smallest_contradiction",
]

ENUMERABLE_LIMIT: Final[int] = _core.mastermind.ENUMERABLE_LIMIT
#: The most probes of one estimate: about 1-5 microseconds each on one core, so up to an hour;
#: a tighter estimate averages runs with different seeds.
MAX_PROBES: Final[int] = 10**9


def score(
    guesses: Any, secrets: Any, *, colours: int, threads: int | None = None
) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    """Black and white of each guess against the secret in the same row.

    ``guesses`` and ``secrets`` are codes ``(S,)`` or arrays of codes ``(n, S)``; a single code
    on either side is scored against every row of the other. Returns two uint8 arrays of
    length n.
    """
    colours = _validate.integer("colours", colours, MIN_COLOURS, MAX_COLOURS)
    guesses, secrets = _written(guesses, colours), _written(secrets, colours)
    guesses_array = np.asarray(guesses)
    spots, colours = check_space(guesses_array.shape[-1] if guesses_array.ndim else 0, colours)
    return _core.mastermind.score(
        as_codes("guesses", guesses, spots, colours),
        as_codes("secrets", secrets, spots, colours),
        colours,
        _validate.threads(threads),
    )


def _written(codes: Any, colours: int) -> Any:
    """Codes given in their written form (a string, or a list of strings) as arrays."""
    if isinstance(codes, str):
        return parse_code(codes, colours)
    if isinstance(codes, (list, tuple)) and codes and all(isinstance(c, str) for c in codes):
        return np.array([parse_code(c, colours) for c in codes])
    return codes


def _history(spots: int, colours: int, guesses: Any, feedback: Any) -> _core.mastermind.History:
    """The history checked once, as the engine's searches take it."""
    guess_array = as_codes("guesses", guesses, spots, colours)
    feedback_array = np.asarray(feedback if len(guess_array) else np.zeros((0, 2)))
    if feedback_array.ndim == 1 and feedback_array.size == 2:
        feedback_array = feedback_array.reshape(1, 2)
    if feedback_array.shape != (len(guess_array), 2):
        raise InvalidParameter(
            f"feedback must have shape ({len(guess_array)}, 2) (black, white per guess), "
            f"got {feedback_array.shape}"
        )
    for turn, (black, white) in enumerate(feedback_array.tolist()):
        _check_feedback(spots, black, white, turn)
    return _core.mastermind.History(
        spots, colours, guess_array, np.ascontiguousarray(feedback_array, dtype=np.uint8)
    )


def _check_feedback(spots: int, black: object, white: object, turn: int) -> tuple[int, int]:
    black = _validate.integer(f"feedback {turn} black", black, 0, spots)
    white = _validate.integer(f"feedback {turn} white", white, 0, spots)
    if black + white > spots:
        raise InvalidParameter(
            f"feedback {turn}: {black} black + {white} white is more than {spots} spots"
        )
    return black, white


def first_consistent(
    spots: int,
    colours: int,
    guesses: Any = (),
    feedback: Any = (),
    *,
    prefix: Any = None,
    order: Any = None,
    threads: int | None = None,
) -> NDArray[np.uint8] | None:
    """The first code consistent with the history in the search order (lexicographic unless
    ``order``, a ``(S, C)`` array of per-spot colour permutations, says otherwise), starting with
    ``prefix`` if given; ``None`` when no code fits. The same answer for any thread count."""
    spots, colours = check_space(spots, colours)
    history = _history(spots, colours, guesses, feedback)
    prefix_array = None
    prefix = _written(prefix, colours)
    if prefix is not None and np.size(prefix):
        prefix_array = as_codes("prefix", prefix, len(np.ravel(prefix)), colours)[0]
        if len(prefix_array) > spots:
            raise InvalidParameter(f"a prefix has at most {spots} spots, got {len(prefix_array)}")
    order_array = None
    if order is not None:
        if np.shape(order) != (spots, colours):
            raise InvalidParameter(
                f"a search order has shape ({spots}, {colours}) (a permutation of the colours "
                f"per spot), got {np.shape(order)}"
            )
        order_array = as_codes("search order", order, colours, colours)
    return _core.mastermind.first(history, prefix_array, order_array, _validate.threads(threads))


def count_consistent(
    spots: int,
    colours: int,
    guesses: Any = (),
    feedback: Any = (),
    *,
    threads: int | None = None,
    progress: ProgressOption = None,
) -> int:
    """The exact number of codes consistent with the history (a depth-first count: use
    :func:`estimate_consistent` early in a game on a huge space). ``progress``: see
    :mod:`stratagem.progress` (the bar counts the subtrees finished, which differ in size)."""
    spots, colours = check_space(spots, colours)
    history = _history(spots, colours, guesses, feedback)
    if not len(history):
        return int(colours**spots)
    total = _core.mastermind.COUNT_PROGRESS
    with Progress(total, "mastermind count", enabled=progress, counts=False) as bar:
        count = _core.mastermind.count(
            history,
            None,
            _validate.threads(threads),
            bar.reach,
        )
        bar.reach(total)
    return int(count)


def estimate_consistent(
    spots: int,
    colours: int,
    guesses: Any = (),
    feedback: Any = (),
    *,
    probes: int = 10_000,
    seed: int = 0,
    threads: int | None = None,
) -> tuple[float, float]:
    """Knuth's unbiased estimate of the number of consistent codes: (mean, standard error)."""
    spots, colours = check_space(spots, colours)
    history = _history(spots, colours, guesses, feedback)
    probes = _validate.integer("probes", probes, 2, MAX_PROBES)
    return _core.mastermind.estimate(
        history, probes, _validate.seed(seed), _validate.threads(threads)
    )


def consistent_codes(
    spots: int,
    colours: int,
    guesses: Any = (),
    feedback: Any = (),
    *,
    threads: int | None = None,
) -> NDArray[np.uint8]:
    """Every consistent code, lexicographic, as an ``(n, S)`` array (spaces of at most
    ``ENUMERABLE_LIMIT`` codes)."""
    spots, colours = check_space(spots, colours)
    history = _history(spots, colours, guesses, feedback)
    return _core.mastermind.consistent(history, _validate.threads(threads))


def smallest_contradiction(
    spots: int,
    colours: int,
    guesses: Any,
    feedback: Any,
    *,
    threads: int | None = None,
) -> tuple[int, ...] | None:
    """The turns of a smallest set of feedbacks no code satisfies together (the first in
    lexicographic order among the smallest), or ``None`` when some code fits."""
    spots, colours = check_space(spots, colours)
    history = _history(spots, colours, guesses, feedback)
    found = _core.mastermind.contradiction(history, _validate.threads(threads))
    return None if found is None else tuple(found)
