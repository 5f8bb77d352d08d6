"""The Rust conquest engine against the oracle: identical placements and states after every
turn, on hypothesis-drawn boards, teams, troops, policies, parameters and seeds, for one and
two threads."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from stratagem import _core
from stratagem.conquest import oracle

POLICIES = oracle.POLICIES
# The CI profile runs a few dozen examples per test; this contract gets hundreds.
MANY = settings(max_examples=max(300, settings().max_examples), deadline=None)


@st.composite
def games(draw: st.DrawFn) -> dict:
    n = draw(st.integers(2, 12))
    pairs = [(x, y) for x in range(n) for y in range(x + 1, n)]
    edges = draw(
        st.lists(st.sampled_from(pairs), unique=True, min_size=1, max_size=min(len(pairs), 3 * n))
    )
    k = draw(st.integers(2, 4))
    big = st.integers(0, _core.conquest.TROOP_LIMIT)
    # Stacks either side of FULL: a full stack that cannot strike lays siege.
    full = st.sampled_from([oracle.FULL - 1, oracle.FULL, _core.conquest.TROOP_LIMIT])
    return {
        "n": n,
        "edges": edges,
        "team": draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)),
        "troops": draw(
            st.lists(
                st.one_of(st.integers(0, 30), st.integers(0, 10**6), big, full),
                min_size=n,
                max_size=n,
            )
        ),
        "policies": draw(st.lists(st.sampled_from(POLICIES), min_size=k, max_size=k)),
        "seed": draw(st.integers(0, 2**64 - 1)),
        "rate": draw(st.sampled_from([0.0, 0.2, 0.5, 1.5])),
        "cap": draw(
            st.one_of(st.none(), st.integers(1, 200), st.integers(1, _core.conquest.TROOP_LIMIT))
        ),
        "max_turns": draw(st.integers(1, 8)),
    }


def csr(n: int, edges: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    both = np.array(edges + [(y, x) for x, y in edges], dtype=np.int64)
    both = both[np.lexsort((both[:, 1], both[:, 0]))]
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.add.at(indptr, both[:, 0] + 1, 1)
    return np.cumsum(indptr), both[:, 1].copy()


def start(case: dict, threads: int) -> tuple[_core.conquest.Game, oracle.OracleGame]:
    indptr, indices = csr(case["n"], case["edges"])
    cap = _core.conquest.TROOP_LIMIT if case["cap"] is None else case["cap"]
    rate_ppm = round(case["rate"] * 1_000_000)
    rust = _core.conquest.Game(
        _core.conquest.Board(indptr, indices),
        np.array(case["team"], dtype=np.int64),
        np.array(case["troops"], dtype=np.int64),
        case["policies"],
        (case["seed"], rate_ppm, cap, case["max_turns"]),
        threads,
    )
    python = oracle.OracleGame(
        indptr, indices, case["team"], case["troops"], case["policies"], case["seed"],
        rate=case["rate"], cap=case["cap"], max_turns=case["max_turns"],
    )  # fmt: skip
    return rust, python


def assert_same(rust: _core.conquest.Game, python: oracle.OracleGame, when: str) -> None:
    assert rust.team.tolist() == python.team, f"team differs {when}"
    assert rust.troops.tolist() == python.troops, f"troops differ {when}"
    standing = rust.standing
    rust_standing = (standing.turn, standing.status, standing.winner)
    assert rust_standing == (python.turn, python.status, python.winner), when


@MANY
@given(case=games())
def test_engine_equals_oracle_after_every_turn(case):
    for threads in (1, 2):
        rust, python = start(case, threads)
        for turn in range(case["max_turns"] + 1):
            when = f"at turn {turn} with {threads} thread(s)"
            assert_same(rust, python, when)
            if python.status == "running":
                assert rust.placement().tolist() == python.placement(), f"placement differs {when}"
            assert rust.step() == python.step(), when
        assert_same(rust, python, "at the end")


def test_moves_to_the_front_stop_at_the_troop_limit():
    # Path 0 - 1 - 2 - 3, team 0 on 0..2: 0 (distance 2) may send 1 only the 3 troops 1 can
    # still hold below 2^40; 1 (distance 1) sends nothing to 2, which is at the limit.
    limit = oracle.TROOP_LIMIT
    case = {
        "n": 4, "edges": [(0, 1), (1, 2), (2, 3)], "team": [0, 0, 0, 1],
        "troops": [limit, limit - 3, limit, 5], "policies": ["balanced", "balanced"],
        "seed": 2, "rate": 0.2, "cap": None, "max_turns": 3,
    }  # fmt: skip
    for threads in (1, 2):
        rust, python = start(case, threads)
        # Edges: 0->1, 1->0, 1->2, 2->1, 2->3, 3->2.
        assert python.placement()[:3] == [3, 0, 0]
        for turn in range(case["max_turns"]):
            assert rust.placement().tolist() == python.placement(), f"turn {turn}"
            assert rust.step() == python.step()
            assert_same(rust, python, f"after turn {turn} with {threads} thread(s)")


def test_a_full_stack_that_cannot_strike_lays_siege():
    # Path 0 - 1 - 2, team 0 on 0 and 1, team 1 on 2. Territory 1 (full) faces 2 alone with
    # no force to spare against it: it attacks 2 with everything; one troop fewer and it
    # defends instead. Territory 2 (full) attacks 1 with everything too.
    full = oracle.FULL
    for policy in ("aggressive", "balanced", "opportunist"):
        for held, expected in ((full, [full, -(full - 1)]), (full - 1, [0, -(full - 1)])):
            case = {
                "n": 3, "edges": [(0, 1), (1, 2)], "team": [0, 0, 1],
                "troops": [5, held, full - 1], "policies": [policy, policy],
                "seed": 4, "rate": 0.2, "cap": None, "max_turns": 2,
            }  # fmt: skip
            rust, python = start(case, threads=2)
            # Edges: 0->1, 1->0, 1->2, 2->1; 2 holds full - 1 and defends against 1.
            placement = python.placement()
            assert placement[2:] == [held if held >= full else -held, expected[1]], policy
            assert rust.placement().tolist() == placement, policy
            rust.step()
            python.step()
            assert_same(rust, python, f"after the siege of {policy}")


def test_a_full_stack_of_search_never_waits():
    # The same path with `search` for team 0: a turn-long future prefers the defence of 1,
    # which spends nothing, but a full territory whose chosen row attacks nothing plays
    # `balanced`'s row, the siege.
    full = oracle.FULL
    case = {
        "n": 3, "edges": [(0, 1), (1, 2)], "team": [0, 0, 1],
        "troops": [5, full, full], "policies": ["search", "balanced"],
        "seed": 4, "rate": 0.2, "cap": None, "max_turns": 2,
    }  # fmt: skip
    rust, python = start(case, threads=2)
    placement = python.placement()
    assert placement == [4, 0, full, full]  # 0 moves to the front, 1 and 2 lay siege
    assert rust.placement().tolist() == placement
    for turn in range(case["max_turns"]):
        assert rust.step() == python.step()
        assert_same(rust, python, f"after turn {turn}")


def _half_attack_policy(team_id: int, indptr, indices, team, troops) -> list[int]:
    """A simple custom policy: each territory of the team attacks its first enemy neighbour
    with half its troops and defends its last one with a quarter."""
    placement = [0] * len(indices)
    for x in range(len(team)):
        if team[x] != team_id:
            continue
        enemies = [e for e in range(indptr[x], indptr[x + 1]) if team[indices[e]] != team_id]
        if enemies:
            placement[enemies[0]] = troops[x] // 2
            if len(enemies) > 1:
                placement[enemies[-1]] = -(troops[x] // 4)
    return placement


@MANY
@given(case=games())
def test_custom_policies_play_identically(case):
    policies = ["custom", *case["policies"][1:]]
    case = {**case, "policies": policies}
    rust, python = start(case, threads=2)
    indptr, indices = csr(case["n"], case["edges"])
    for turn in range(case["max_turns"]):
        custom = _half_attack_policy(
            0, indptr.tolist(), indices.tolist(), python.team, python.troops
        )
        array = np.array(custom, dtype=np.int64)
        assert rust.placement(array).tolist() == python.placement(custom), f"turn {turn}"
        assert rust.step(array) == python.step(custom)
        assert_same(rust, python, f"after custom turn {turn}")


@st.composite
def searches(draw: st.DrawFn) -> dict:
    """A game with a searching team 0 (its budget drawn) among built-in or custom teams, on
    small troop counts where the candidates differ."""
    case = draw(games())
    rollouts, depth = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    policies = [f"search:rollouts={rollouts}:depth={depth}", *case["policies"][1:]]
    troops = draw(st.lists(st.integers(0, 40), min_size=case["n"], max_size=case["n"]))
    return {**case, "policies": policies, "troops": troops}


@MANY
@given(case=searches())
def test_the_search_places_as_the_oracle_says(case):
    for threads in (1, 2):
        rust, python = start(case, threads)
        for turn in range(case["max_turns"]):
            when = f"at turn {turn} with {threads} thread(s)"
            if python.status == "running":
                assert rust.placement().tolist() == python.placement(), f"placement differs {when}"
            assert rust.step() == python.step(), when
            assert_same(rust, python, when)
