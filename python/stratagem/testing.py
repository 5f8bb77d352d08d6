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
- :func:`check_conformance` -- all of the above;
- :func:`check_protocol` -- random play through :mod:`stratagem.protocol` alone, for any
  registered game: same seed same trajectory, clone and save/load continue identically, bad
  actions refused without change, outcome/winners/returns agree.

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

    from stratagem.protocol import Game as ProtocolGame

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
    "check_protocol",
    "check_save_load",
    "check_thread_determinism",
    "check_turn_batching",
    "random_action",
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


def _assert_games_agree(
    adapter: GameAdapter[Any, GameT],
    games: tuple[GameT, GameT],
    *,
    context: str,
    labels: tuple[str, str],
) -> None:
    """:func:`assert_snapshots_equal` on the snapshots of two games."""
    left, right = games
    assert_snapshots_equal(
        _take_snapshot(adapter, left, context),
        _take_snapshot(adapter, right, context),
        context=context,
        labels=labels,
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
    _assert_games_agree(
        adapter,
        (stepwise, at_once),
        context=f"{adapter.name}: turn batching over {turns} turns (seed {seed})",
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
        _assert_games_agree(
            adapter,
            (oracle, fast),
            context=f"{adapter.name}: oracle equivalence {_when(turn)} (seed {seed})",
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
        _assert_games_agree(
            adapter,
            (untouched, adapter.advance(game, 1)),
            context=f"{context}: the game played on differently after the failing call",
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


# --- the protocol-level check: any registered game, through stratagem.protocol only -----------


def random_action(seed: int, game: ProtocolGame, seat: int) -> int:
    """A uniformly random legal action of ``seat``, a pure function of the seed, the turn and
    the seat (the project's counter-based generator)."""
    from stratagem import rng

    legal = game.legal_actions(seat)
    index = rng.draws(seed, "testing.protocol", [game.turn, seat], "uniform_below", [legal.size])
    return int(legal[int(index[0])])


def _random_step(seed: int, game: ProtocolGame) -> dict[int, int]:
    return {seat: random_action(seed, game, seat) for seat in game.to_move()}


def _protocol_state(game: ProtocolGame) -> dict[str, SnapshotValue]:
    """What the protocol shows of a game, by name (observations of every seat included)."""
    state: dict[str, SnapshotValue] = {
        "turn": game.turn,
        "is_over": int(game.is_over),
        "outcome": game.outcome,
        "winners": np.asarray(game.winners, dtype=np.int64),
        "to_move": np.asarray(game.to_move(), dtype=np.int64),
        "rewards": game.rewards(),
        "returns": game.returns(),
    }
    for seat in range(game.seats):
        state[f"observation[{seat}]"] = np.array(game.observation(seat), copy=True)
        state[f"legal[{seat}]"] = np.array(game.legal_actions(seat), copy=True)
    return state


def _check_state_shape(game: ProtocolGame, where: str) -> None:
    name = f"{type(game).__name__} {where}"
    movers = game.to_move()
    assert game.is_over == (len(movers) == 0), f"{name}: is_over disagrees with to_move()"
    assert all(0 <= seat < game.seats for seat in movers), f"{name}: to_move() {movers}"
    for seat in range(game.seats):
        observation = game.observation(seat)
        assert observation.shape == game.observation_shape, (
            f"{name}: observation({seat}) has shape {observation.shape}, "
            f"observation_shape says {game.observation_shape}"
        )
        assert observation.dtype == game.observation_dtype, (
            f"{name}: observation({seat}) has dtype {observation.dtype}, "
            f"observation_dtype says {game.observation_dtype}"
        )
        legal = game.legal_actions(seat)
        assert legal.dtype == np.int64, f"{name}: legal_actions({seat}) dtype {legal.dtype}"
        assert np.all(np.diff(legal) > 0), f"{name}: legal_actions({seat}) not sorted and unique"
        assert legal.size == 0 or (legal[0] >= 0 and legal[-1] < game.num_actions), (
            f"{name}: legal_actions({seat}) outside 0..{game.num_actions - 1}"
        )
        assert (seat in movers) == (legal.size > 0), (
            f"{name}: seat {seat} {'moves' if seat in movers else 'does not move'} but has "
            f"{legal.size} legal actions"
        )
        mask = game.action_mask(seat)
        assert mask.shape == (game.num_actions,), f"{name}: action_mask({seat}) {mask.shape}"
        assert mask.dtype == np.bool_, f"{name}: action_mask({seat}) has dtype {mask.dtype}"
        assert np.array_equal(np.flatnonzero(mask), legal), (
            f"{name}: action_mask({seat}) disagrees with legal_actions({seat})"
        )


def _check_result(game: ProtocolGame) -> None:
    name = type(game).__name__
    returns = game.returns()
    assert returns.shape == (game.seats,), f"{name}: returns() has shape {returns.shape}"
    low, high = game.return_bounds
    if game.is_over:
        assert ((low <= returns) & (returns <= high)).all(), (
            f"{name}: returns {returns.tolist()} outside return_bounds ({low}, {high})"
        )
    if not game.is_over or game.outcome == "unfinished":
        assert game.outcome == "unfinished" or game.is_over, f"{name}: {game.outcome} yet going"
        assert game.winners == (), f"{name}: outcome unfinished but winners {game.winners}"
        return
    top = tuple(int(seat) for seat in np.flatnonzero(returns == returns.max()))
    assert tuple(sorted(game.winners)) == top, (
        f"{name}: outcome {game.outcome} with winners {game.winners}, but the seats with the "
        f"highest return {returns.tolist()} are {top}"
    )
    if game.outcome == "won":
        assert len(game.winners) == 1, f"{name}: won by {game.winners}"


def _refusal(game: ProtocolGame, actions: object) -> str | None:
    """The message of the InvalidMove that ``game.step(actions)`` raises (None: accepted)."""
    from stratagem.errors import InvalidMove

    try:
        game.step(actions)  # type: ignore[arg-type]
    except InvalidMove as error:
        return str(error)
    return None


def _check_refusals(game: ProtocolGame, where: str) -> None:
    """Illegal, missing and extra actions raise InvalidMove naming seat and action, and leave
    the game as it was."""
    before = _protocol_state(game)
    movers = game.to_move()
    attempts: list[tuple[str, object, str]] = [
        ("no action at all", {}, f"seat {movers[0]}"),
        ("an action out of range", dict.fromkeys(movers, game.num_actions), str(game.num_actions)),
        ("a negative action", dict.fromkeys(movers, -1), "-1"),
        ("a non-integer action", dict.fromkeys(movers, 0.5), "0.5"),
    ]
    illegal = np.flatnonzero(~game.action_mask(movers[0]))
    if illegal.size:
        action = int(illegal[0])
        chosen: dict[int, int] = {s: int(game.legal_actions(s)[0]) for s in movers}
        chosen[movers[0]] = action
        attempts.append(("an illegal action", chosen, f"action {action}"))
    idle = [seat for seat in range(game.seats) if seat not in movers]
    if idle:
        extra = {s: int(game.legal_actions(s)[0]) for s in movers}
        extra[idle[0]] = 0
        attempts.append(("a seat that does not move", extra, f"seat {idle[0]}"))
    for label, actions, fragment in attempts:
        message = _refusal(game, actions)
        if message is None:
            raise AssertionError(f"{type(game).__name__} {where}: {label} was accepted")
        assert fragment in message, (
            f"{type(game).__name__} {where}: {label} raised {message!r}, which does not "
            f"name {fragment!r}"
        )
        assert_snapshots_equal(
            before, _protocol_state(game), context=f"{where}: {label} changed the game"
        )


def check_protocol(
    make: Callable[[], ProtocolGame],
    seed: int,
    tmp_path: Path,
    *,
    max_steps: int = 400,
    refuse_every: int = 7,
) -> ProtocolGame:
    """Random play through :mod:`stratagem.protocol` only, for any game ``make()`` returns
    (two calls must give the same new game):

    - the same seed gives the same trajectory (two games step by step, every observation);
    - the state is well formed after every step (shapes, dtypes, masks, ``to_move``);
    - illegal, missing and extra actions are refused by name and change nothing (every
      ``refuse_every`` steps);
    - a ``clone()`` and a saved-and-loaded copy taken half-way continue identically;
    - ``outcome``, ``winners`` and ``returns`` agree at the end.

    Returns the game as played."""
    from stratagem import protocol

    first, second = make(), make()
    assert_snapshots_equal(
        _protocol_state(first), _protocol_state(second), context="two new games differ"
    )
    copies: list[tuple[str, ProtocolGame]] = []
    for step in range(max_steps):
        where = f"at step {step}"
        assert first.turn <= first.max_steps, f"{where}: more steps than max_steps"
        _check_state_shape(first, where)
        if first.is_over:
            break
        if step % refuse_every == 0:
            _check_refusals(first, where)
        if step == max_steps // 4 or (step == 1 and not copies):
            path = tmp_path / f"{type(first).__name__.lower()}-protocol.json"
            first.save(path)
            copies = [("clone", first.clone()), ("save/load", protocol.load(path))]
        actions = _random_step(seed, first)
        first.step(actions)
        second.step(dict(actions))
        state = _protocol_state(first)
        assert_snapshots_equal(state, _protocol_state(second), context=f"same seed, {where}")
        for label, copy in copies:
            try:
                copy.step(dict(actions))
            except StratagemError as error:
                raise AssertionError(
                    f"the {label} refused the original's actions {actions} {where}: {error}"
                ) from error
            assert_snapshots_equal(state, _protocol_state(copy), context=f"{label}, {where}")
    _check_result(first)
    return first
