"""The consistent-code search over the ranks of the MPI world against the single-process search
in the same process: the seed's games played to the end (every guess), hypothesis' searches on
small and medium spaces (inconsistent histories and shuffled orders among them), the queue's
statistics, and bad input on one rank or on all.

Every rank runs the same code and makes the same assertions (see conftest.py). Under
``mpiexec -n 1`` (marker ``any_world_size``) the single-process search runs, and the tests
that need ranks to disagree skip.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from collective_errors import raised
from mastermind_spread import MEDIUM, SEED_GAMES, Search, as_list, game_id, played, searches
from stratagem import _core
from stratagem.errors import InconsistentInput, InvalidParameter, StratagemError
from stratagem.mastermind import distributed as spread
from stratagem.mastermind import first_consistent, solve
from stratagem.mastermind.distributed import SearchStats
from stratagem.mpi import Communicator, world

pytestmark = pytest.mark.any_world_size

SIZE = world().size


def agreed(comm: Communicator, value: Any) -> list[Any]:
    """Every rank's ``value`` (the same list on every rank, so every rank asserts alike)."""
    return comm.allgather_object(value)


# -- the seed's games -------------------------------------------------------------------------


@pytest.mark.parametrize("order", ["lex", "shuffled"])
@pytest.mark.parametrize("game", SEED_GAMES, ids=game_id)
def test_seed_games_equal_solve_every_guess(
    comm: Communicator, game: tuple[int, int, tuple[int, ...]], order: str
) -> None:
    _, colours, secret = game
    stats = SearchStats()
    # Threads differ between the ranks and from the single game: they must not matter.
    threads = 1 + comm.rank % 2
    got = spread.solve(
        list(secret), colours, comm=comm, order=order, seed=9, threads=threads, stats=stats
    )
    want = solve(list(secret), colours, "first", 9, order=order, threads=1)
    everyone = agreed(comm, (got.guesses.tolist(), got.feedback.tolist()))

    assert everyone == [(want.guesses.tolist(), want.feedback.tolist())] * comm.size
    assert (got.turns, got.strategy, got.colours, got.seed) == (want.turns, "first", colours, 9)
    assert got.guesses[-1].tolist() == list(secret)
    assert (stats.ranks, stats.searches, len(stats.prefixes)) == (comm.size, want.turns, comm.size)


@pytest.mark.parametrize("game", SEED_GAMES, ids=game_id)
def test_every_turn_of_the_seed_games_equals_first_consistent(
    comm: Communicator, game: tuple[int, int, tuple[int, ...]]
) -> None:
    spots, colours, secret = game
    want = solve(list(secret), colours, "first", threads=1)
    # Each turn's search on its own (default threads: the host's cores shared by its ranks).
    turns = [
        as_list(
            spread.first_consistent(spots, colours, want.guesses[:k], want.feedback[:k], comm=comm)
        )
        for k in range(want.turns)
    ]
    singles = [
        as_list(first_consistent(spots, colours, want.guesses[:k], want.feedback[:k], threads=1))
        for k in range(want.turns)
    ]
    everyone = agreed(comm, turns)

    assert singles == want.guesses.tolist()
    assert everyone == [want.guesses.tolist()] * comm.size


# -- hypothesis' searches ---------------------------------------------------------------------


def same_examples_everywhere(max_examples: int) -> settings:
    """A fixed number of examples, drawn alike on every rank."""
    return settings(
        max_examples=max_examples,
        derandomize=True,  # every rank draws the same examples...
        database=None,  # ...and none replays a failure that only it has stored
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )


def check_search(comm: Communicator, search: Search) -> None:
    drawn = agreed(comm, search.describe())
    got = agreed(comm, as_list(search.spread(comm, threads=1 + comm.rank % 2)))
    assert all(example == drawn[0] for example in drawn), "the ranks drew different examples"
    assert got == [as_list(search.single())] * comm.size


@same_examples_everywhere(60)
@given(search=searches())
def test_hypothesis_searches_on_small_spaces(comm: Communicator, search: Search) -> None:
    check_search(comm, search)


@same_examples_everywhere(30)
@given(search=searches(MEDIUM))
def test_hypothesis_searches_on_medium_spaces(comm: Communicator, search: Search) -> None:
    check_search(comm, search)


@same_examples_everywhere(20)
@given(
    spaces=st.sampled_from([(4, 6), (6, 8), (8, 5), (12, 2)]),
    secret_seed=st.integers(0, 2**32),
    turns=st.integers(1, 6),
    order_seed=st.integers(0, 2**64 - 1),
)
def test_hypothesis_games_in_shuffled_orders(
    comm: Communicator, spaces: tuple[int, int], secret_seed: int, turns: int, order_seed: int
) -> None:
    spots, colours = spaces
    secret = np.random.default_rng(secret_seed).integers(0, colours, spots).astype(np.uint8)
    order = _core.mastermind.shuffled_order(spots, colours, order_seed)
    check_search(comm, played(spots, colours, secret, turns, order))


def inconsistent(spots: int, colours: int) -> list[Search]:
    """Histories no code fits: an impossible feedback, and two feedbacks that contradict."""
    guess = np.arange(spots, dtype=np.uint8) % colours
    other = (guess + 1) % colours
    return [
        Search(spots, colours, guess[None, :], np.array([[spots - 1, 1]], np.uint8)),
        Search(
            spots,
            colours,
            np.stack([guess, guess, other]),
            np.array([[0, 0], [1, 0], [0, 0]], np.uint8),
        ),
    ]


@pytest.mark.parametrize("space", [(4, 6), (7, 9), (10, 10)], ids=str)
def test_inconsistent_histories_give_none_on_every_rank(
    comm: Communicator, space: tuple[int, int]
) -> None:
    cases = inconsistent(*space)
    got = agreed(comm, [as_list(case.spread(comm)) for case in cases])
    assert [case.single() for case in cases] == [None, None]
    assert got == [[None, None]] * comm.size


def test_statistics_are_the_same_on_every_rank(comm: Communicator) -> None:
    # Two colours on 12 spots: two one-spot prefixes, fewer than the ranks from -n 3 on.
    stats = SearchStats()
    for turns in range(6):
        played(12, 2, np.array([0, 1] * 6, np.uint8), turns, None).spread(comm, stats=stats)
    everyone = agreed(comm, dataclasses.replace(stats, seconds=0.0))

    assert everyone == [everyone[0]] * comm.size
    assert (stats.ranks, stats.searches, len(stats.prefixes)) == (comm.size, 6, comm.size)
    if comm.size > 1:
        # In each search, each worker asks once more than the prefixes it searched (the
        # request answered with "stop"), every request is answered, and each worker sends a
        # last report.
        workers = comm.size - 1
        assert stats.messages == 2 * (sum(stats.prefixes[1:]) + 6 * workers) + 6 * workers
        assert sum(stats.prefixes) >= 6
    if comm.size > 2:
        assert stats.splits >= 6
    if comm.size == 1:
        assert (stats.prefixes, stats.messages, stats.splits) == ([0], 0, 0)


# -- bad input ----------------------------------------------------------------------------------

ODD = 1 if SIZE > 1 else 0  # the rank given other arguments
GOOD: dict[str, Any] = {"spots": 4, "colours": 6, "guesses": ["0011"], "feedback": [(1, 1)]}


# (what rank ODD is given instead, the error, what it says, whether it needs another rank)
BAD: dict[str, tuple[dict[str, Any], type[StratagemError], str, bool]] = {
    "one colour": ({"colours": 1}, InvalidParameter, "colours must be at least 2", False),
    "bad guess": ({"guesses": ["0019"]}, InvalidParameter, "spot 3 has colour 9", False),
    "bad feedback": ({"feedback": [(2, 3)]}, InvalidParameter, "2 black + 3 white", False),
    "bad order": ({"order": [[0] * 6] * 4}, InvalidParameter, "not a permutation", False),
    "bad threads": ({"threads": 0}, InvalidParameter, "threads must be at least 1", False),
    "other feedback": ({"feedback": [(0, 2)]}, InconsistentInput, "another space", True),
    "other order": ({"order": [list(range(5, -1, -1))] * 4}, InconsistentInput, "order", True),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_on_one_rank_raises_on_every_rank(comm: Communicator, case: str) -> None:
    changes, error, message, needs_peer = BAD[case]
    if needs_peer and comm.size == 1:
        pytest.skip("one rank cannot disagree with itself")
    args = GOOD | (changes if comm.rank == ODD else {})
    caught = raised(lambda: spread.first_consistent(**args, comm=comm))
    # The ranks are still in step: the next collectives pair up and a search runs on.
    ranks = agreed(comm, comm.rank)
    answer = as_list(spread.first_consistent(**GOOD, comm=comm, threads=1))

    assert isinstance(caught, error), repr(caught)
    assert message in str(caught)
    if comm.size > 1:
        assert f"rank {ODD}" in str(caught)
    assert ranks == list(range(comm.size))
    assert answer == [0, 1, 2, 2]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"secret": "01234", "colours": 4}, "spot 4 has colour 4"),
        ({"secret": "0123", "colours": 6, "order": "random"}, "order must be one of"),
        ({"secret": "0123", "colours": 6, "seed": -1}, "seed must be at least 0"),
    ],
    ids=["bad secret", "bad order", "bad seed"],
)
def test_bad_input_on_every_rank_raises_on_every_rank(
    comm: Communicator, arguments: dict[str, Any], message: str
) -> None:
    caught = raised(lambda: spread.solve(**arguments, comm=comm, threads=1))
    ranks = agreed(comm, comm.rank)

    assert isinstance(caught, InvalidParameter), repr(caught)
    # Every rank's own error, each rank named.
    assert str(caught).count(message) == comm.size
    if comm.size > 1:
        assert all(f"rank {rank}: " in str(caught) for rank in range(comm.size))
    assert ranks == list(range(comm.size))


def test_a_bad_secret_on_one_rank_raises_on_every_rank(comm: Communicator) -> None:
    secret = "0129" if comm.rank == ODD else "0123"
    caught = raised(lambda: spread.solve(secret, 6, comm=comm, threads=1))
    other = "0124" if comm.rank == ODD else "0123"
    differs = raised(lambda: spread.solve(other, 6, comm=comm, threads=1))
    ranks = agreed(comm, comm.rank)

    assert isinstance(caught, InvalidParameter), repr(caught)
    assert "spot 3 has colour 9" in str(caught)
    if comm.size > 1:
        assert str(caught).startswith(f"rank {ODD}: ")
        assert isinstance(differs, InconsistentInput), repr(differs)
        assert f"rank {ODD} was given another secret or order" in str(differs)
    else:
        assert differs is None
    assert ranks == list(range(comm.size))
