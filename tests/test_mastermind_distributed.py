"""The distributed consistent-code search without mpiexec: the serial path against
``stratagem.mastermind.first_consistent`` and ``solve``, input checks, and the prefix queue on
ranks emulated by threads (``ThreadWorld`` of ``tests/test_conquest_distributed.py``): the
seed's games, hypothesis' searches, the queue's statistics, and bad input on one rank.

The collective tests proper are in ``tests/mpi/test_mastermind_mpi.py``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mastermind_spread import (
    MEDIUM,
    SEED_GAMES,
    Search,
    as_list,
    game_id,
    played,
    searches,
)
from stratagem import _core
from stratagem.errors import InconsistentInput, InvalidParameter, StratagemError
from stratagem.mastermind import distributed as spread
from stratagem.mastermind import first_consistent, solve
from stratagem.mastermind.distributed import SearchStats
from stratagem.mpi import Communicator, SerialCommunicator
from test_conquest_distributed import ThreadWorld, outcomes_or_raise

# -- one process ------------------------------------------------------------------------------


@given(search=st.one_of(searches(), searches(MEDIUM)))
def test_serial_path_equals_first_consistent(search: Search) -> None:
    want = as_list(search.single())
    assert as_list(search.spread(SerialCommunicator())) == want
    # Without comm: the world of a plain run is one process.
    assert as_list(search.spread(None, threads=None)) == want


@pytest.mark.parametrize("order", ["lex", "shuffled"])
@pytest.mark.parametrize("game", SEED_GAMES, ids=game_id)
def test_serial_solve_equals_solve(game: tuple[int, int, tuple[int, ...]], order: str) -> None:
    _, colours, secret = game
    stats = SearchStats()
    got = spread.solve(list(secret), colours, order=order, seed=5, stats=stats)
    want = solve(list(secret), colours, "first", 5, order=order)
    assert got.guesses.tolist() == want.guesses.tolist()
    assert got.feedback.tolist() == want.feedback.tolist()
    assert (got.turns, got.strategy, got.colours, got.seed) == (want.turns, "first", colours, 5)
    assert got.secret.tolist() == list(secret)
    assert (stats.ranks, stats.searches, stats.prefixes, stats.messages) == (1, got.turns, [0], 0)


def test_serial_solve_takes_the_written_form() -> None:
    got, want = spread.solve("7735427368", 10), solve("7735427368", 10)
    assert got.guesses.tolist() == want.guesses.tolist()


BAD_SEARCHES: list[tuple[dict[str, Any], str]] = [
    ({"spots": 0}, "spots must be at least 1"),
    ({"colours": 37}, "colours must be at most 36"),
    ({"guesses": [[0, 1, 2, 9]]}, "colours are 0 to 5"),
    ({"feedback": [(3, 2)]}, "is more than 4 spots"),
    ({"feedback": [(1, 1), (0, 0)]}, "feedback must have shape (1, 2)"),
    ({"order": np.zeros((4, 6), dtype=np.uint8)}, "is not a permutation"),
    ({"order": [[0, 1]]}, "a search order has shape (4, 6)"),
    ({"threads": 0}, "threads must be at least 1"),
]
GOOD_SEARCH: dict[str, Any] = {"spots": 4, "colours": 6, "guesses": ["0011"], "feedback": [(1, 1)]}


def raised(make: Any) -> StratagemError | None:
    try:
        make()
    except StratagemError as error:
        return error
    return None


@pytest.mark.parametrize(("change", "message"), BAD_SEARCHES, ids=[m for _, m in BAD_SEARCHES])
def test_serial_bad_input_raises_what_first_consistent_raises(
    change: dict[str, Any], message: str
) -> None:
    args = GOOD_SEARCH | change
    want = raised(lambda: first_consistent(**args))
    got = raised(lambda: spread.first_consistent(**args, comm=SerialCommunicator()))
    assert isinstance(want, InvalidParameter)
    assert type(got) is type(want)
    assert str(got) == str(want)
    assert message in str(got)


def test_serial_solve_refuses_bad_input() -> None:
    with pytest.raises(InvalidParameter, match="order must be one of"):
        spread.solve("0123", 6, order="random")
    with pytest.raises(InvalidParameter, match="spot 1 has colour 7"):
        spread.solve("0723", 6)
    with pytest.raises(InvalidParameter, match="seed must be at least 0"):
        spread.solve("0123", 6, seed=-1)


# -- ranks emulated by threads ------------------------------------------------------------------


def on_ranks(ranks: int, play: Any) -> list[Any]:
    return outcomes_or_raise(ThreadWorld(ranks).run(play))


@pytest.mark.parametrize("ranks", [2, 3, 4])
@pytest.mark.parametrize("game", SEED_GAMES, ids=game_id)
def test_seed_games_on_ranks_of_threads(game: tuple[int, int, tuple[int, ...]], ranks: int) -> None:
    spots, colours, secret = game
    want = solve(list(secret), colours, "first")

    def play(comm: Communicator) -> tuple[list[list[int]], list[Any], SearchStats]:
        stats = SearchStats()
        got = spread.solve(list(secret), colours, comm=comm, threads=1, stats=stats)
        # Every turn's search on its own, from the single-process game's history.
        turns = [
            as_list(
                spread.first_consistent(
                    spots, colours, want.guesses[:k], want.feedback[:k], comm=comm, threads=1
                )
            )
            for k in range(want.turns)
        ]
        return got.guesses.tolist(), turns, stats

    for guesses, turns, stats in on_ranks(ranks, play):
        assert guesses == want.guesses.tolist()
        assert turns == want.guesses.tolist()
        assert stats.ranks == ranks
        assert stats.searches == want.turns
        assert len(stats.prefixes) == ranks
        assert sum(stats.prefixes) >= want.turns  # at least the answer's prefix each time


@settings(max_examples=30)
@given(search=st.one_of(searches(), searches(MEDIUM)), ranks=st.integers(2, 4))
def test_searches_on_ranks_of_threads(search: Search, ranks: int) -> None:
    want = as_list(search.single())

    def play(comm: Communicator) -> list[int] | None:
        return as_list(search.spread(comm, threads=1 + comm.rank % 2))

    assert on_ranks(ranks, play) == [want] * ranks


@pytest.mark.parametrize("ranks", [2, 3, 4])
def test_an_inconsistent_history_gives_none_on_every_rank(ranks: int) -> None:
    # (S - 1 black, 1 white) is in range but no code gives it.
    search = Search(5, 7, np.array([[0, 1, 2, 3, 4]], np.uint8), np.array([[4, 1]], np.uint8))
    assert search.single() is None
    assert on_ranks(ranks, lambda comm: as_list(search.spread(comm))) == [None] * ranks


def test_few_roots_are_split_and_later_prefixes_dropped() -> None:
    # Two colours: two one-spot prefixes for three ranks, so the first is split at once; the
    # answer lies below the first prefix, so the prefixes after it are never all searched.
    search = played(12, 2, np.array([0, 1] * 6, np.uint8), 3, None)

    def play(comm: Communicator) -> tuple[list[int] | None, SearchStats]:
        stats = SearchStats()
        return as_list(search.spread(comm, stats=stats)), stats

    outcomes = on_ranks(3, play)
    want = as_list(search.single())
    assert [answer for answer, _ in outcomes] == [want] * 3
    stats = dataclasses.replace(outcomes[0][1], seconds=0.0)
    # The same figures on every rank (but the time each took).
    assert all(dataclasses.replace(other, seconds=0.0) == stats for _, other in outcomes)
    assert stats.splits >= 1
    # Each worker asks once more than the prefixes it searched (the request answered with
    # "stop"), every request is answered, and each worker sends a last report.
    assert stats.messages == 2 * (sum(stats.prefixes[1:]) + 2) + 2


def test_the_search_does_not_depend_on_rank_count_or_threads() -> None:
    search = played(8, 8, np.array([7, 6, 5, 4, 3, 2, 1, 0], np.uint8), 4, None)
    order = _core.mastermind.shuffled_order(8, 8, 3)
    shuffled = Search(8, 8, search.guesses, search.feedback, order)
    for case in (search, shuffled):
        want = as_list(case.single())
        for ranks in (2, 3, 4):
            got = on_ranks(ranks, lambda comm, c=case: as_list(c.spread(comm, threads=None)))
            assert got == [want] * ranks


BAD_ON_ONE_RANK: list[tuple[dict[str, Any], type[StratagemError], str]] = [
    ({"colours": 1}, InvalidParameter, "rank 2: colours must be at least 2"),
    ({"guesses": [[0, 1, 2, 9]]}, InvalidParameter, "rank 2: guesses: code 0 spot 3"),
    ({"feedback": [(5, 0)]}, InvalidParameter, "rank 2: feedback 0 black must be at most 4"),
    ({"order": np.zeros((4, 6), np.uint8)}, InvalidParameter, "rank 2: search order row 0"),
    ({"threads": -1}, InvalidParameter, "rank 2: threads must be at least 1"),
    ({"feedback": [(1, 2)]}, InconsistentInput, "rank 2 was given another space, history"),
    ({"order": np.tile(np.arange(6)[::-1], (4, 1))}, InconsistentInput, "history or order"),
]


@pytest.mark.parametrize(
    ("change", "error", "message"), BAD_ON_ONE_RANK, ids=[m for *_, m in BAD_ON_ONE_RANK]
)
def test_bad_input_on_one_threaded_rank_raises_on_every_rank(
    change: dict[str, Any], error: type[StratagemError], message: str
) -> None:
    def play(comm: Communicator) -> object:
        args = GOOD_SEARCH | (change if comm.rank == 2 else {})
        return spread.first_consistent(**args, comm=comm)

    outcomes = ThreadWorld(3).run(play)
    for outcome in outcomes:
        assert isinstance(outcome, error), repr(outcome)
        assert message in str(outcome)
    # The ranks are still in step: a search runs on.
    assert (
        on_ranks(3, lambda comm: as_list(spread.first_consistent(**GOOD_SEARCH, comm=comm)))
        == [[0, 1, 2, 2]] * 3
    )


def test_bad_input_on_every_threaded_rank_raises_on_every_rank() -> None:
    def play(comm: Communicator) -> object:
        return spread.solve("0123", 6, comm=comm, order="random")

    for outcome in ThreadWorld(3).run(play):
        assert isinstance(outcome, InvalidParameter), repr(outcome)
        assert str(outcome).count("order must be one of") == 3  # each rank named


def test_ranks_playing_other_secrets_raise_inconsistent_input() -> None:
    def play(comm: Communicator) -> object:
        return spread.solve("0123" if comm.rank else "0124", 6, comm=comm, threads=1)

    for outcome in ThreadWorld(2).run(play):
        assert isinstance(outcome, InconsistentInput), repr(outcome)
        assert "rank 1 was given another secret or order" in str(outcome)
