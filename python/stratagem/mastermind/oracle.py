"""The mastermind rules in plain Python: the oracle of the Rust engine in ``rust/mastermind``.

Written for reading, not speed: codes are tuples of Python ints, every code is scored one spot
and one colour at a time, and each function quotes the rule it plays from
``docs/mastermind-rules.md``. The engine prunes, splits work over threads and ranks and skips
guesses that only rename unused colours; the rules say none of that changes an answer, and the
tests demand that the engine reproduce this module exactly: the same consistent codes in the
same search order, the same random streams drawn in the same order, the same tie rules.

Vocabulary (types below): a *code* is a tuple of ``spots`` colours in ``0..colours-1``; a
*feedback* is ``(black, white)``; a *history* is a sequence of ``(guess, feedback)`` pairs,
turn 0 first. Only the standard library and the random number oracle are used; the space is
passed as ``spots`` and ``colours`` to every function that needs it, and checked there.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable, Sequence

from stratagem import _validate
from stratagem.errors import InvalidParameter
from stratagem.rng.oracle import Stream, det_ln

__all__ = [
    "DIGITS",
    "ENUMERABLE_LIMIT",
    "HEURISTICS",
    "MAX_COLOURS",
    "MAX_SPOTS",
    "MIN_COLOURS",
    "MIN_SPOTS",
    "OPTIMAL_LIMIT",
    "ORDERS",
    "STRATEGIES",
    "Code",
    "Feedback",
    "HistoryLike",
    "Order",
    "all_codes",
    "code_at",
    "consistent_codes",
    "count_consistent",
    "evaluate",
    "feedback_index",
    "first_consistent",
    "format_code",
    "heuristic_key",
    "is_consistent",
    "next_guess",
    "optimal_cost",
    "parse_code",
    "play",
    "rank",
    "sample_secrets",
    "score",
    "shuffled_order",
    "smallest_contradiction",
    "split_sizes",
]

Code = tuple[int, ...]
Feedback = tuple[int, int]
HistoryLike = Sequence[tuple[Sequence[int], Sequence[int]]]
Order = Sequence[Sequence[int]]

MIN_SPOTS, MAX_SPOTS = 1, 16
MIN_COLOURS, MAX_COLOURS = 2, 36
# "The enumerable spaces are those with C^S <= 2^21 (2,097,152) codes."
ENUMERABLE_LIMIT = 1 << 21
# "optimal (enumerable spaces up to 4096 codes)".
OPTIMAL_LIMIT = 4096
HEURISTICS: tuple[str, ...] = ("knuth", "irving", "entropy", "most_parts")
STRATEGIES: tuple[str, ...] = ("first", "random", *HEURISTICS, "optimal")
ORDERS: tuple[str, ...] = ("lex", "shuffled")
# "Written form: one character per spot, 0-9 then a-z."
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


# --- Checked input ----------------------------------------------------------------------------


def _space(spots: object, colours: object) -> tuple[int, int]:
    """``(spots, colours)`` checked: "spots S (1 to 16) and colours C (2 to 36)"."""
    s = _validate.integer("spots", spots)
    c = _validate.integer("colours", colours)
    if not MIN_SPOTS <= s <= MAX_SPOTS:
        raise InvalidParameter(f"spots must be between {MIN_SPOTS} and {MAX_SPOTS}, got {s}")
    if not MIN_COLOURS <= c <= MAX_COLOURS:
        raise InvalidParameter(f"colours must be between {MIN_COLOURS} and {MAX_COLOURS}, got {c}")
    return s, c


def _require_enumerable(what: str, spots: int, colours: int, limit: int = ENUMERABLE_LIMIT) -> int:
    """The number of codes ``colours ** spots``, refused above ``limit``."""
    size: int = colours**spots
    if size > limit:
        raise InvalidParameter(
            f"{what} scores every code, so it needs at most {limit} codes; "
            f"{spots} spots x {colours} colours has {size}"
        )
    return size


def _items(name: str, value: object, what: str) -> list[object]:
    """The items of a list, tuple, numpy array or other iterable (not a string)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise InvalidParameter(f"{name} must be {what}, got {value!r}")
    return list(value)


def _code(name: str, code: object, spots: int, colours: int) -> Code:
    """``code`` as a tuple of ``spots`` colours in ``0..colours-1``, naming the first bad
    spot."""
    items = _items(name, code, "a sequence of colours")
    if len(items) != spots:
        raise InvalidParameter(f"{name}: a code has {spots} spots, got {len(items)} colours")
    result = []
    for spot, colour in enumerate(items):
        value = _validate.integer(f"{name} spot {spot}", colour)
        if not 0 <= value < colours:
            raise InvalidParameter(
                f"{name}: spot {spot} has colour {value}; colours are 0 to {colours - 1}"
            )
        result.append(value)
    return tuple(result)


def _feedback(name: str, feedback: object, spots: int) -> Feedback:
    """A feedback "in range": ``black >= 0``, ``white >= 0``, ``black + white <= S``."""
    items = _items(name, feedback, "a (black, white) pair")
    if len(items) != 2:
        raise InvalidParameter(f"{name} must be a (black, white) pair, got {feedback!r}")
    black = _validate.integer(f"{name} black", items[0], 0)
    white = _validate.integer(f"{name} white", items[1], 0)
    if black + white > spots:
        raise InvalidParameter(
            f"{name}: {black} black {white} white: black + white must be at most {spots}"
        )
    return black, white


def _history(history: object, spots: int, colours: int) -> list[tuple[Code, Feedback]]:
    """A checked history: every guess a code of the space, every feedback in range."""
    checked = []
    for turn, entry in enumerate(_items("history", history, "a sequence of (guess, feedback)")):
        pair = _items(f"history[{turn}]", entry, "a (guess, feedback) pair")
        if len(pair) != 2:
            raise InvalidParameter(f"history[{turn}] must be a (guess, feedback) pair")
        guess = _code(f"guess {turn}", pair[0], spots, colours)
        checked.append((guess, _feedback(f"feedback {turn}", pair[1], spots)))
    return checked


def _order(order: Order | None, spots: int, colours: int) -> list[Code]:
    """A search order: one permutation of ``0..colours-1`` per spot (identity by default)."""
    if order is None:
        return [tuple(range(colours)) for _ in range(spots)]
    given = _items("order", order, "one permutation of the colours per spot")
    if len(given) != spots:
        raise InvalidParameter(f"order must have one row per spot ({spots}), got {len(given)}")
    rows = []
    for spot, row in enumerate(given):
        items = _items(f"order[{spot}]", row, "a permutation of the colours")
        values = tuple(_validate.integer(f"order[{spot}]", c) for c in items)
        if sorted(values) != list(range(colours)):
            raise InvalidParameter(
                f"order[{spot}] must be a permutation of the colours 0 to {colours - 1}, "
                f"got {values}"
            )
        rows.append(values)
    return rows


def _strategy(strategy: object, order: object) -> tuple[str, str]:
    if not isinstance(strategy, str) or strategy not in STRATEGIES:
        raise InvalidParameter(
            f"unknown strategy {strategy!r}; strategies are {', '.join(STRATEGIES)}"
        )
    if not isinstance(order, str) or order not in ORDERS:
        raise InvalidParameter(f"order must be 'lex' or 'shuffled', got {order!r}")
    return strategy, order


# --- Codes and feedback -----------------------------------------------------------------------


def score(guess: Sequence[int], secret: Sequence[int]) -> Feedback:
    """The feedback of ``guess`` against ``secret``: "black = number of spots p with
    g[p] == s[p]; white = sum over colours c of min(count of c in g, count of c in s) minus
    black"."""
    if not isinstance(guess, tuple):
        guess = tuple(guess)  # numpy arrays have no count()
    if not isinstance(secret, tuple):
        secret = tuple(secret)
    if len(guess) != len(secret):
        raise InvalidParameter(
            f"guess and secret must have as many spots, got {len(guess)} and {len(secret)}"
        )
    black = 0
    for p in range(len(guess)):
        if guess[p] == secret[p]:
            black += 1
    matches = 0
    for colour in set(guess):
        matches += min(guess.count(colour), secret.count(colour))
    return black, matches - black


def feedback_index(feedback: Feedback, spots: int) -> int:
    """The rule: "the feedback index is black * (S + 1) + white"."""
    black, white = feedback
    return black * (spots + 1) + white


def rank(code: Sequence[int], colours: int) -> int:
    """The rule: "the rank of a code is its value as a base-C number, spot 0 most
    significant"."""
    value = 0
    for colour in code:
        value = value * colours + colour
    return value


def code_at(index: int, spots: int, colours: int) -> Code:
    """The code of rank ``index``: the inverse of :func:`rank`."""
    code = [0] * spots
    for p in range(spots - 1, -1, -1):
        code[p] = index % colours
        index //= colours
    return tuple(code)


def all_codes(spots: int, colours: int) -> list[Code]:
    """Every code of an enumerable space in rank (lexicographic) order."""
    s, c = _space(spots, colours)
    size = _require_enumerable("listing every code", s, c)
    return [code_at(index, s, c) for index in range(size)]


def format_code(code: Sequence[int]) -> str:
    """The written form: "one character per spot, 0-9 then a-z"."""
    items = _items("code", code, "a non-empty sequence of colours")
    if not items:
        raise InvalidParameter(f"code must be a non-empty sequence of colours, got {code!r}")
    characters = []
    for spot, colour in enumerate(items):
        value = _validate.integer(f"spot {spot}", colour)
        if not 0 <= value < MAX_COLOURS:
            raise InvalidParameter(f"spot {spot} has colour {value}; colours are 0 to 35")
        characters.append(DIGITS[value])
    return "".join(characters)


def parse_code(text: str, colours: int, spots: int | None = None) -> Code:
    """A code from its written form: "one character per spot, 0-9 then a-z (so 7735427368, or
    a0z for C = 36), or integers separated by commas or spaces (7,7,3,5). Parsing names the
    bad character/spot."

    Text with a comma or a space in it (leading and trailing spaces aside) is read as integers
    (runs of commas and spaces separate them, so ``"12,"`` is the one-spot code 12); other
    text one character per spot, upper case read as lower case. With ``spots``, the code must
    have exactly that many spots.
    """
    c = _validate.integer("colours", colours)
    if not MIN_COLOURS <= c <= MAX_COLOURS:
        raise InvalidParameter(f"colours must be between {MIN_COLOURS} and {MAX_COLOURS}, got {c}")
    if not isinstance(text, str):
        raise InvalidParameter(f"a code must be written as a string, got {text!r}")
    written = text.strip()
    code = []
    if re.search(r"[,\s]", written):
        tokens = [token for token in re.split(r"[,\s]+", written) if token]
        for spot, token in enumerate(tokens):
            if not token.isascii() or not token.isdigit():
                raise InvalidParameter(
                    f"bad colour {token!r} at spot {spot} of {text!r}: "
                    f"expected an integer from 0 to {c - 1}"
                )
            value = int(token)
            if value >= c:
                raise InvalidParameter(
                    f"colour {value} at spot {spot} of {text!r} is out of range: "
                    f"colours are 0 to {c - 1}"
                )
            code.append(value)
    else:
        for spot, character in enumerate(written):
            value = DIGITS.find(character.lower())
            if value < 0:
                raise InvalidParameter(
                    f"bad character {character!r} at spot {spot} of {text!r}: "
                    "colours are written 0-9 then a-z"
                )
            if value >= c:
                raise InvalidParameter(
                    f"character {character!r} at spot {spot} of {text!r} is colour {value}: "
                    f"colours are 0 to {c - 1}"
                )
            code.append(value)
    if not code:
        raise InvalidParameter(f"empty code {text!r}: write one character per spot (0-9, a-z)")
    if spots is not None:
        s = _validate.integer("spots", spots)
        if len(code) != s:
            raise InvalidParameter(f"a code has {s} spots, got {len(code)} colours in {text!r}")
    if not MIN_SPOTS <= len(code) <= MAX_SPOTS:
        raise InvalidParameter(
            f"a code has {MIN_SPOTS} to {MAX_SPOTS} spots, got {len(code)} in {text!r}"
        )
    return tuple(code)


# --- History and consistency ------------------------------------------------------------------


def is_consistent(code: Sequence[int], history: HistoryLike) -> bool:
    """Whether ``code`` is consistent: "a code is consistent with a history when it would have
    produced every feedback in it"."""
    return all(score(guess, code) == (feedback[0], feedback[1]) for guess, feedback in history)


def consistent_codes(spots: int, colours: int, history: HistoryLike) -> list[Code]:
    """Every consistent code in lexicographic order, by scanning every code of the space
    (enumerable spaces)."""
    s, c = _space(spots, colours)
    checked = _history(history, s, c)
    return [code for code in all_codes(s, c) if is_consistent(code, checked)]


# --- The consistent-code search ---------------------------------------------------------------


def shuffled_order(
    spots: int,
    colours: int,
    seed: int,
    purpose: str = "mastermind.order",
    turn: int | None = None,
) -> list[Code]:
    """The shuffled order of a seed: "row p is the identity permutation shuffled by
    Fisher-Yates from the last position down, position i (i = C-1 ... 1) swapped with
    j = uniform_below(i + 1) drawn from one cursor of stream (seed, "mastermind.order", p)".

    With ``turn``, row p comes from stream ``(seed, purpose, turn, p)``: the order of the
    ``random`` strategy on large spaces (purpose ``"mastermind.random.order"``).
    """
    s, c = _space(spots, colours)
    seed = _validate.seed(seed)
    rows = []
    for p in range(s):
        if turn is None:
            stream = Stream(seed, purpose, p)
        else:
            stream = Stream(seed, purpose, _validate.u64("turn", turn), p)
        cursor = stream.cursor()
        row = list(range(c))
        for i in range(c - 1, 0, -1):
            j = cursor.uniform_below(i + 1)
            row[i], row[j] = row[j], row[i]
        rows.append(tuple(row))
    return rows


def _viable(prefix: Code, spots: int, history: Sequence[tuple[Code, Feedback]]) -> bool:
    """Whether no past guess proves that ``prefix`` has no consistent completion, by the simple
    tests of the rules: "blacks so far above the feedback's, blacks still needed more than the
    spots left can give, colour matches (sum over colours of min(count in the guess, count so
    far)) above black + white or unable to reach it". Each spot added raises the blacks and
    the matches by at most one, so a prefix failing a test has no consistent completion; a
    full code passes every test exactly when it is consistent."""
    left = spots - len(prefix)
    for guess, (black, white) in history:
        blacks = 0
        for p in range(len(prefix)):
            if guess[p] == prefix[p]:
                blacks += 1
        if blacks > black or blacks + left < black:
            return False
        matches = 0
        for colour in set(guess):
            matches += min(guess.count(colour), prefix.count(colour))
        if matches > black + white or matches + left < black + white:
            return False
    return True


def _first_below(
    prefix: Code, spots: int, history: Sequence[tuple[Code, Feedback]], order: list[Code]
) -> Code | None:
    """The smallest consistent code starting with ``prefix`` in the search order: depth first,
    the colours of each spot tried in the order's row."""
    if not _viable(prefix, spots, history):
        return None
    if len(prefix) == spots:
        assert is_consistent(prefix, history)
        return prefix
    for colour in order[len(prefix)]:
        found = _first_below((*prefix, colour), spots, history, order)
        if found is not None:
            return found
    return None


def first_consistent(
    spots: int,
    colours: int,
    history: HistoryLike,
    order: Order | None = None,
    prefix: Sequence[int] = (),
) -> Code | None:
    """The rule: "first_consistent(history, order) = the smallest consistent code in the search
    order, or none. With a prefix (the colours of spots 0..L-1), the smallest consistent code
    starting with that prefix." Works on every space (slowly on large ones)."""
    s, c = _space(spots, colours)
    checked = _history(history, s, c)
    rows = _order(order, s, c)
    colours_of_prefix = _items("prefix", prefix, f"at most {s} colours")
    if len(colours_of_prefix) > s:
        raise InvalidParameter(f"prefix must be at most {s} colours, got {prefix!r}")
    start = _code("prefix", colours_of_prefix, len(colours_of_prefix), c)
    return _first_below(start, s, checked, rows)


def count_consistent(spots: int, colours: int, history: HistoryLike) -> int:
    """The rule: "count_consistent is the exact number of consistent codes": the full codes
    reached by the depth-first search with the simple prunings (on an enumerable space, the
    length of :func:`consistent_codes`). Works on every space (slowly on large ones)."""
    s, c = _space(spots, colours)
    checked = _history(history, s, c)

    def below(prefix: Code) -> int:
        if not _viable(prefix, s, checked):
            return 0
        if len(prefix) == s:
            return 1
        total = 0
        for colour in range(c):
            total += below((*prefix, colour))
        return total

    return below(())


# --- Strategies -------------------------------------------------------------------------------


@functools.cache
def _codes(spots: int, colours: int) -> tuple[Code, ...]:
    """:func:`all_codes` of a checked space, kept (the strategies scan it again and again)."""
    return tuple(all_codes(spots, colours))


def split_sizes(guess: Sequence[int], candidates: Sequence[Sequence[int]], spots: int) -> list[int]:
    """The class sizes of the split of ``candidates`` by their feedback to ``guess``, indexed by
    feedback index (``(spots + 1) ** 2`` entries, zero for the empty classes)."""
    sizes = [0] * (spots + 1) ** 2
    for code in candidates:
        sizes[feedback_index(score(guess, code), spots)] += 1
    return sizes


def heuristic_key(strategy: str, sizes: Sequence[int]) -> int | float:
    """The key a heuristic minimises over the class sizes ``n_i`` of a split (``sizes`` by
    feedback index; empty classes are skipped):

    - ``knuth``: ``max n_i``;
    - ``irving``: ``sum n_i^2``;
    - ``entropy``: ``sum n_i * det_ln(n_i)`` "sum taken over classes in increasing feedback
      index, as a float" (a plain loop: no compensated summation);
    - ``most_parts``: minus the number of classes ("maximise the number of classes").
    """
    classes = [n for n in sizes if n > 0]
    if strategy == "knuth":
        return max(classes)
    if strategy == "irving":
        total = 0
        for n in classes:
            total += n * n
        return total
    if strategy == "entropy":
        entropy_sum = 0.0
        for n in classes:
            entropy_sum += float(n) * det_ln(float(n))
        return entropy_sum
    if strategy == "most_parts":
        return -len(classes)
    raise InvalidParameter(f"unknown heuristic {strategy!r}; heuristics are {HEURISTICS}")


def _heuristic_guess(spots: int, colours: int, candidates: list[Code], strategy: str) -> Code:
    """The heuristic's guess for the consistent codes S (at least two): "every code g of the
    space is a candidate guess ... Ties: a guess in S beats one outside S, then the smaller
    rank wins"; that is the smallest (key, g not in S, rank of g)."""
    members = set(candidates)
    best: tuple[int | float, bool, int] | None = None
    chosen = candidates[0]
    for guess in _codes(spots, colours):
        key = (
            heuristic_key(strategy, split_sizes(guess, candidates, spots)),
            guess not in members,
            rank(guess, colours),
        )
        if best is None or key < best:
            best, chosen = key, guess
    return chosen


@functools.cache
def _optimal(spots: int, colours: int, candidates: tuple[Code, ...]) -> tuple[int, Code]:
    """``(cost(S), the optimal guess)`` for the consistent codes S (lexicographic, at least
    one): "cost(S) = 1 for one code; otherwise cost(S) = |S| + min over guesses g of sum over
    classes other than S blacks of cost(class), over guesses g that split S (a guess outside S
    whose classes are all S is never a candidate). Ties: smaller cost, then g in S, then
    smaller rank." Memoised on S."""
    if len(candidates) == 1:
        return 1, candidates[0]
    members = set(candidates)
    win = feedback_index((spots, 0), spots)
    best: tuple[int, bool, int] | None = None
    chosen = candidates[0]
    for guess in _codes(spots, colours):
        classes: list[list[Code]] = [[] for _ in range((spots + 1) ** 2)]
        for code in candidates:
            classes[feedback_index(score(guess, code), spots)].append(code)
        inside = guess in members
        if not inside and sum(1 for c in classes if c) == 1:
            continue  # it does not split S
        total = len(candidates)
        for index, members_of_class in enumerate(classes):
            if index != win and members_of_class:
                total += _optimal(spots, colours, tuple(members_of_class))[0]
        key = (total, not inside, rank(guess, colours))
        if best is None or key < best:
            best, chosen = key, guess
    assert best is not None  # every code of S splits S
    return best[0], chosen


def _random_guess(
    spots: int, colours: int, history: list[tuple[Code, Feedback]], seed: int, turn: int
) -> Code | None:
    """The ``random`` strategy's guess (see :func:`next_guess`)."""
    if colours**spots <= ENUMERABLE_LIMIT:
        consistent = consistent_codes(spots, colours, history)
        if not consistent:
            return None
        cursor = Stream(seed, "mastermind.random", turn).cursor()
        return consistent[cursor.uniform_below(len(consistent))]
    rows = shuffled_order(spots, colours, seed, "mastermind.random.order", turn)
    return first_consistent(spots, colours, history, rows)


def _check_strategy_space(strategy: str, spots: int, colours: int) -> None:
    """Heuristics need an enumerable space, ``optimal`` one of at most 4096 codes."""
    if strategy in HEURISTICS:
        _require_enumerable(f"the {strategy} strategy", spots, colours)
    elif strategy == "optimal":
        _require_enumerable("the optimal strategy", spots, colours, OPTIMAL_LIMIT)


def next_guess(
    spots: int,
    colours: int,
    history: HistoryLike,
    strategy: str,
    seed: int = 0,
    *,
    order: str = "lex",
) -> Code | None:
    """The strategy's guess after ``history`` ("a function of (history, seed)"), or None when
    no code is consistent with the history. ``order`` ("lex" or "shuffled") is the order of
    the ``first`` strategy; ``turn`` is the number of guesses already made.

    - ``first``: ``first_consistent(history, order)``, lexicographic or "the shuffled order of
      the game's seed";
    - ``random``: on an enumerable space "the consistent codes in lexicographic order are
      listed and code number uniform_below(number of consistent codes) of one cursor of stream
      (seed, "mastermind.random", turn) is played"; on larger spaces the first consistent code
      in the shuffled order of stream ``(seed, "mastermind.random.order", turn, p)``;
    - ``knuth``, ``irving``, ``entropy``, ``most_parts``: see :func:`heuristic_key`; "when S
      has one code it is played";
    - ``optimal``: the guess of the least total cost (see :func:`optimal_cost`).
    """
    s, c = _space(spots, colours)
    checked = _history(history, s, c)
    strategy, order = _strategy(strategy, order)
    seed = _validate.seed(seed)
    _check_strategy_space(strategy, s, c)
    turn = len(checked)
    if strategy == "first":
        rows = shuffled_order(s, c, seed) if order == "shuffled" else None
        return first_consistent(s, c, checked, rows)
    if strategy == "random":
        return _random_guess(s, c, checked, seed, turn)
    candidates = consistent_codes(s, c, checked)
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    if strategy == "optimal":
        return _optimal(s, c, tuple(candidates))[1]
    return _heuristic_guess(s, c, candidates, strategy)


def optimal_cost(spots: int, colours: int, history: HistoryLike = ()) -> int:
    """The least total number of guesses that finishes every code consistent with
    ``history`` (``cost(S)`` of the rules; 0 when no code is consistent). Spaces of at most
    4096 codes; in practice only tiny ones (2 x 3, 2 x 4, 3 x 3, 3 x 4) are quick."""
    s, c = _space(spots, colours)
    checked = _history(history, s, c)
    _check_strategy_space("optimal", s, c)
    candidates = consistent_codes(s, c, checked)
    if not candidates:
        return 0
    return _optimal(s, c, tuple(candidates))[0]


# --- Games and evaluation ---------------------------------------------------------------------


def play(
    secret: Sequence[int], colours: int, strategy: str, seed: int = 0, order: str = "lex"
) -> list[tuple[Code, Feedback]]:
    """``solve(secret, strategy, seed)``: the strategy plays against the secret "until S
    blacks"; the game's history."""
    s, c = _space(len(_items("secret", secret, "a sequence of colours")), colours)
    hidden = _code("secret", secret, s, c)
    _strategy(strategy, order)
    history: list[tuple[Code, Feedback]] = []
    while True:
        guess = next_guess(s, c, history, strategy, seed, order=order)
        assert guess is not None  # the secret is consistent with every history of its game
        feedback = score(guess, hidden)
        history.append((guess, feedback))
        if feedback == (s, 0):
            return history


def sample_secrets(spots: int, colours: int, count: int, seed: int) -> list[Code]:
    """``sample`` secrets: "secret i takes its S colours in spot order from one cursor of stream
    (seed, "mastermind.secrets", i), each uniform_below(C)"."""
    s, c = _space(spots, colours)
    count = _validate.integer("count", count, 0)
    seed = _validate.seed(seed)
    secrets = []
    for i in range(count):
        cursor = Stream(seed, "mastermind.secrets", i).cursor()
        secrets.append(tuple(cursor.uniform_below(c) for _ in range(s)))
    return secrets


def evaluate(
    spots: int,
    colours: int,
    strategy: str,
    seed: int = 0,
    secrets: Sequence[Sequence[int]] | None = None,
    *,
    order: str = "lex",
) -> list[int]:
    """The number of guesses per secret: every code of the space in rank order (``secrets``
    None; enumerable spaces) or the given secrets in order. "Every game uses the same strategy
    seed"."""
    s, c = _space(spots, colours)
    _strategy(strategy, order)
    if secrets is None:
        played: Sequence[Sequence[int]] = all_codes(s, c)
    else:
        played = [_code(f"secrets[{i}]", code, s, c) for i, code in enumerate(secrets)]
    return [len(play(secret, c, strategy, seed, order)) for secret in played]


# --- Inconsistent feedback --------------------------------------------------------------------


def smallest_contradiction(
    spots: int, colours: int, history: HistoryLike
) -> tuple[int, ...] | None:
    """None when some code is consistent with ``history``; otherwise "a smallest set of
    feedbacks that no code satisfies together: the fewest turns; among sets of that size, the
    first in lexicographic order of their sorted turn numbers", as a tuple of turns. Every set
    is tried, smallest first and in lexicographic order within a size."""
    s, c = _space(spots, colours)
    checked = _history(history, s, c)
    lexicographic = _order(None, s, c)
    if _first_below((), s, checked, lexicographic) is not None:
        return None
    for size in range(1, len(checked) + 1):
        for turns in itertools.combinations(range(len(checked)), size):
            subset = [checked[t] for t in turns]
            if _first_below((), s, subset, lexicographic) is None:
                return turns
    raise AssertionError("unreachable: the whole history has no consistent code")
