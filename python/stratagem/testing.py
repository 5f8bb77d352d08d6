"""The conformance test every stratagem game passes, in the spirit of Pgx's ``api_test``.

A game plugs in by writing a :class:`GameAdapter`: how to make a small random case, start a
game on the fast (Rust) path and on the pure-Python oracle, advance it, take a snapshot of its
state, save and load it, and which bad inputs it refuses. The check functions then demand the
contracts of ``overview.md``:

- :func:`check_thread_determinism` -- the same seed gives bit-identical snapshots after every
  turn for any number of threads;
- :func:`check_turn_batching` -- advancing ``k`` turns in one call equals ``k`` calls of one turn;
- :func:`check_oracle_equivalence` -- the fast path and the oracle agree after every turn;
- :func:`check_bad_input` -- every bad input raises the declared
  :class:`~stratagem.errors.StratagemError` subclass with a message naming the offending item,
  and leaves the game it was given untouched;
- :func:`check_save_load` -- a saved and loaded game continues bit-identically;
- :func:`check_conformance` -- all of the above.

Each check raises ``AssertionError`` with a message naming the check, the turn, the snapshot key,
the first differing index and the two runs compared (thread counts, oracle or fast path).

This module imports neither pytest nor hypothesis; :func:`cases_from_random` and :func:`seeds`
import hypothesis when called. See ``docs/conformance.md``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeAlias, TypeVar

import numpy as np
from numpy.typing import NDArray

from stratagem.errors import StratagemError

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = [
    "BadInput",
    "GameAdapter",
    "Snapshot",
    "SnapshotValue",
    "assert_snapshots_equal",
    "cases_from_random",
    "check_bad_input",
    "check_conformance",
    "check_oracle_equivalence",
    "check_save_load",
    "check_thread_determinism",
    "check_turn_batching",
    "seeds",
]

SnapshotValue: TypeAlias = "NDArray[Any] | np.generic | int | float | str"
"""A numpy array or scalar (compared by dtype, shape and bits) or a Python int, float or str."""

Snapshot: TypeAlias = Mapping[str, SnapshotValue]
"""The state of a game by name; two runs that must agree have equal snapshots."""

CaseT = TypeVar("CaseT")
GameT = TypeVar("GameT")


@dataclass(frozen=True)
class BadInput(Generic[GameT]):
    """A call a game must refuse.

    ``call`` receives a game started on the fast path and advanced ``turns_before`` turns (see
    :func:`check_bad_input`); it must raise ``error`` (a
    :class:`~stratagem.errors.StratagemError` subclass) with ``fragment`` in the message, and
    leave that game as it was.
    """

    label: str
    call: Callable[[GameT], object]
    error: type[StratagemError]
    fragment: str


class GameAdapter(Protocol[CaseT, GameT]):
    """What a game implements to be checked. ``CaseT`` is a small problem (a board, teams,
    parameters) and should be immutable; ``GameT`` is a running game, mutable or not."""

    name: str
    """Names the game in failure messages."""

    def random_case(self, rng: random.Random) -> CaseT:
        """A small random case drawn from ``rng`` only (for loops without hypothesis)."""
        ...

    def cases(self) -> SearchStrategy[CaseT]:
        """A hypothesis strategy of small cases; import hypothesis inside this method.
        :func:`cases_from_random` turns :meth:`random_case` into one."""
        ...

    def start(self, case: CaseT, seed: int, *, threads: int | None) -> GameT:
        """A new game of ``case`` on the fast path with ``threads`` threads."""
        ...

    def start_oracle(self, case: CaseT, seed: int) -> GameT:
        """A new game of ``case`` played by the pure-Python oracle."""
        ...

    def advance(self, game: GameT, turns: int) -> GameT:
        """``game`` after ``turns`` more turns (the same object for a mutable game). A finished
        game must stay as it is rather than raise, as the checks play a fixed number of turns."""
        ...

    def snapshot(self, game: GameT) -> Snapshot:
        """Everything observable about ``game``: the harness copies it at once."""
        ...

    def save(self, game: GameT, path: Path) -> None:
        """Write ``game`` to exactly ``path`` (beware ``numpy.savez`` adding ``.npz`` to names)."""
        ...

    def load(self, path: Path, *, threads: int | None) -> GameT:
        """The game saved at ``path``, continuing on the fast path with ``threads`` threads."""
        ...

    def bad_inputs(self, case: CaseT) -> Sequence[BadInput[GameT]]:
        """The calls the game must refuse, built for ``case`` (so they can name a territory)."""
        ...


def cases_from_random(random_case: Callable[[random.Random], CaseT]) -> SearchStrategy[CaseT]:
    """A hypothesis strategy from a ``random_case(rng)`` function (shrinks only the rng seed)."""
    from hypothesis import strategies as st

    return st.randoms(use_true_random=False).map(random_case)


def seeds() -> SearchStrategy[int]:
    """A hypothesis strategy of game seeds: any integer in ``[0, 2**64)``."""
    from hypothesis import strategies as st

    return st.integers(min_value=0, max_value=(1 << 64) - 1)


def _when(turn: int) -> str:
    """Where a check stands: turn 0 is the game as started."""
    return "at the start" if turn == 0 else f"after turn {turn}"


def _take_snapshot(adapter: GameAdapter[Any, GameT], game: GameT, context: str) -> Snapshot:
    """A private copy of the game's snapshot: a view of live state would change under us."""
    taken: dict[str, SnapshotValue] = {}
    for key, value in adapter.snapshot(game).items():
        if isinstance(value, np.ndarray | np.generic):
            array = np.array(value, copy=True)
            if array.dtype.hasobject:
                raise AssertionError(
                    f"{context}: snapshot key {key!r} has dtype {array.dtype}; object arrays "
                    "cannot be compared bit for bit"
                )
            taken[key] = array
        elif isinstance(value, int | float | str):
            taken[key] = value
        else:
            raise AssertionError(
                f"{context}: snapshot key {key!r} is a {type(value).__name__}; snapshots hold "
                "numpy arrays or scalars, int, float or str"
            )
    return taken


def _array_difference(left: NDArray[Any], right: NDArray[Any]) -> str | None:
    if left.dtype != right.dtype:
        return f"dtype {left.dtype} != {right.dtype}"
    if left.shape != right.shape:
        return f"shape {left.shape} != {right.shape}"
    # Bytes, not ==: bit-identity tells -0.0 from 0.0 and matches NaN with itself.
    width = left.dtype.itemsize
    left_bytes = np.ascontiguousarray(left).reshape(-1).view(np.uint8).reshape(-1, width)
    right_bytes = np.ascontiguousarray(right).reshape(-1).view(np.uint8).reshape(-1, width)
    differs = np.flatnonzero((left_bytes != right_bytes).any(axis=1))
    if differs.size == 0:
        return None
    flat = int(differs[0])
    index = tuple(int(i) for i in np.unravel_index(flat, left.shape))
    count = int(differs.size)
    return (
        f"first difference at index {index}: {left.reshape(-1)[flat].item()!r} != "
        f"{right.reshape(-1)[flat].item()!r} ({count} of {left.size} elements differ)"
    )


def _value_difference(left: SnapshotValue, right: SnapshotValue) -> str | None:
    if isinstance(left, np.ndarray | np.generic) and isinstance(right, np.ndarray | np.generic):
        return _array_difference(np.asarray(left), np.asarray(right))
    if type(left) is not type(right):
        return f"type {type(left).__name__} != {type(right).__name__}"
    if isinstance(left, float) and isinstance(right, float):
        return None if left.hex() == right.hex() else f"{left!r} != {right!r}"
    return None if left == right else f"{left!r} != {right!r}"


def assert_snapshots_equal(
    left: Snapshot,
    right: Snapshot,
    *,
    context: str,
    labels: tuple[str, str] = ("expected", "actual"),
) -> None:
    """Raise ``AssertionError`` unless both snapshots have the same keys and bit-identical
    values: arrays of equal dtype and shape and every element equal (the first differing
    index is reported). ``context`` and ``labels`` name the comparison in the message."""
    left_label, right_label = labels
    only_left = sorted(left.keys() - right.keys())
    only_right = sorted(right.keys() - left.keys())
    if only_left or only_right:
        raise AssertionError(
            f"{context}: snapshot keys differ: {only_left} only in {left_label}, "
            f"{only_right} only in {right_label}"
        )
    for key in left:
        difference = _value_difference(left[key], right[key])
        if difference is not None:
            raise AssertionError(
                f"{context}: snapshot key {key!r} differs between {left_label} and "
                f"{right_label}: {difference}"
            )


def check_thread_determinism(
    adapter: GameAdapter[CaseT, GameT],
    case: CaseT,
    seed: int,
    *,
    thread_counts: Sequence[int] = (1, 2, 3),
    turns: int = 4,
) -> None:
    """The game started with each thread count agrees with the first one after every turn."""
    games = [adapter.start(case, seed, threads=threads) for threads in thread_counts]
    reference_label = f"threads={thread_counts[0]}"
    for turn in range(turns + 1):
        if turn > 0:
            games = [adapter.advance(game, 1) for game in games]
        context = f"{adapter.name}: thread determinism {_when(turn)} (seed {seed})"
        reference = _take_snapshot(adapter, games[0], context)
        for threads, game in zip(thread_counts[1:], games[1:], strict=True):
            assert_snapshots_equal(
                reference,
                _take_snapshot(adapter, game, context),
                context=context,
                labels=(reference_label, f"threads={threads}"),
            )


def check_turn_batching(
    adapter: GameAdapter[CaseT, GameT],
    case: CaseT,
    seed: int,
    *,
    turns: int = 4,
    threads: int | None = None,
) -> None:
    """Advancing ``turns`` turns in one call equals ``turns`` calls of one turn each."""
    stepwise = adapter.start(case, seed, threads=threads)
    for _ in range(turns):
        stepwise = adapter.advance(stepwise, 1)
    at_once = adapter.advance(adapter.start(case, seed, threads=threads), turns)
    context = f"{adapter.name}: turn batching over {turns} turns (seed {seed})"
    assert_snapshots_equal(
        _take_snapshot(adapter, stepwise, context),
        _take_snapshot(adapter, at_once, context),
        context=context,
        labels=(f"{turns} advances of 1 turn", f"one advance of {turns} turns"),
    )


def check_oracle_equivalence(
    adapter: GameAdapter[CaseT, GameT],
    case: CaseT,
    seed: int,
    *,
    turns: int = 4,
    threads: int | None = None,
) -> None:
    """The fast path and the oracle agree at the start and after every turn."""
    oracle = adapter.start_oracle(case, seed)
    fast = adapter.start(case, seed, threads=threads)
    for turn in range(turns + 1):
        if turn > 0:
            oracle = adapter.advance(oracle, 1)
            fast = adapter.advance(fast, 1)
        context = f"{adapter.name}: oracle equivalence {_when(turn)} (seed {seed})"
        assert_snapshots_equal(
            _take_snapshot(adapter, oracle, context),
            _take_snapshot(adapter, fast, context),
            context=context,
            labels=("oracle", f"fast path (threads={threads})"),
        )


def check_bad_input(
    adapter: GameAdapter[CaseT, GameT],
    case: CaseT,
    seed: int = 0,
    *,
    turns_before: int = 1,
) -> None:
    """Every bad input of ``case`` raises its declared error with its message fragment, and the
    game it was given keeps its snapshot and plays on exactly like an untouched game."""
    bad_inputs = adapter.bad_inputs(case)
    if not bad_inputs:
        raise AssertionError(f"{adapter.name}: bad_inputs() is empty; list the inputs it refuses")
    for bad in bad_inputs:
        context = f"{adapter.name}: bad input {bad.label!r}"
        # Checked at run time too: adapters written without a type checker slip ValueError in.
        if not (isinstance(bad.error, type) and issubclass(bad.error, StratagemError)):
            raise AssertionError(
                f"{context}: declares {bad.error!r}, which is not a StratagemError subclass"
            )
        game = adapter.advance(adapter.start(case, seed, threads=None), turns_before)
        before = _take_snapshot(adapter, game, context)
        try:
            bad.call(game)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as raised:  # a Rust panic is a BaseException: report it as one
            if not isinstance(raised, bad.error):
                raise AssertionError(
                    f"{context}: raised {type(raised).__name__}({raised}), expected "
                    f"{bad.error.__name__}"
                ) from raised
            if bad.fragment not in str(raised):
                raise AssertionError(
                    f"{context}: message {str(raised)!r} does not contain {bad.fragment!r}"
                ) from raised
        else:
            raise AssertionError(f"{context}: did not raise (expected {bad.error.__name__})")
        assert_snapshots_equal(
            before,
            _take_snapshot(adapter, game, context),
            context=f"{context}: the failing call changed the game",
            labels=("before the call", "after the call"),
        )
        # Hidden state (seed, counters) left half-modified shows up one turn later.
        untouched = adapter.advance(adapter.start(case, seed, threads=None), turns_before + 1)
        continued = adapter.advance(game, 1)
        continued_context = f"{context}: the game played on differently after the failing call"
        assert_snapshots_equal(
            _take_snapshot(adapter, untouched, continued_context),
            _take_snapshot(adapter, continued, continued_context),
            context=continued_context,
            labels=("an untouched game", "the game given to the call"),
        )


def check_save_load(
    adapter: GameAdapter[CaseT, GameT],
    case: CaseT,
    seed: int,
    tmp_path: Path,
    *,
    turns_before: int = 2,
    turns_after: int = 2,
    threads: int | None = None,
) -> None:
    """A game saved after ``turns_before`` turns and loaded again, and the game that was saved,
    both agree with an uninterrupted game right after loading and after every later turn."""
    context = f"{adapter.name}: save/load of the game saved {_when(turns_before)} (seed {seed})"
    uninterrupted = adapter.advance(adapter.start(case, seed, threads=threads), turns_before)
    saved = adapter.advance(adapter.start(case, seed, threads=threads), turns_before)
    path = Path(tmp_path) / f"{adapter.name}-conformance.save"
    adapter.save(saved, path)
    try:
        loaded = adapter.load(path, threads=threads)
    except Exception as error:
        raise AssertionError(
            f"{context}: loading the saved game raised {type(error).__name__}({error})"
        ) from error
    for step in range(turns_after + 1):
        if step > 0:
            uninterrupted = adapter.advance(uninterrupted, 1)
            saved = adapter.advance(saved, 1)
            loaded = adapter.advance(loaded, 1)
        turn_context = f"{context}, {_when(turns_before + step)}"
        reference = _take_snapshot(adapter, uninterrupted, turn_context)
        for label, game in (("loaded game", loaded), ("game that was saved", saved)):
            assert_snapshots_equal(
                reference,
                _take_snapshot(adapter, game, turn_context),
                context=turn_context,
                labels=("uninterrupted game", label),
            )


def check_conformance(
    adapter: GameAdapter[CaseT, GameT],
    case: CaseT,
    seed: int,
    tmp_path: Path,
    *,
    turns: int = 4,
    thread_counts: Sequence[int] = (1, 2, 3),
) -> None:
    """Every check above on one case and seed; ``tmp_path`` is a directory for the save file."""
    check_thread_determinism(adapter, case, seed, thread_counts=thread_counts, turns=turns)
    check_turn_batching(adapter, case, seed, turns=turns)
    check_oracle_equivalence(adapter, case, seed, turns=turns)
    check_bad_input(adapter, case, seed)
    turns_before = turns // 2
    check_save_load(
        adapter, case, seed, tmp_path, turns_before=turns_before, turns_after=turns - turns_before
    )
