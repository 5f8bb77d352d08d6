"""The conquest oracle against docs/conquest-rules.md: hand-worked scenarios for every rule and
policy, properties on hypothesis-drawn boards, exact battle odds, and a chi-square check that
the battle loop agrees with them."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from edge_lists import csr_lists
from stratagem.conquest import oracle
from stratagem.conquest.oracle import (
    POLICIES,
    TROOP_LIMIT,
    OracleGame,
    battle,
    battle_odds_exact,
    border_ids,
    end_status,
    frontier_distance,
    play_turn,
    policy_placement,
    reverse_edges,
    simulate_battle_counts,
    validate_placement,
)
from stratagem.errors import InvalidBoard, InvalidMove, InvalidParameter
from stratagem.rng.oracle import Stream

U64 = st.integers(0, 2**64 - 1)


def csr(n, edges):
    """CSR arrays of an undirected graph, rows sorted by neighbour id."""
    return csr_lists(n, edges)


def edge(indptr, indices, x, y):
    """The position of the directed edge x -> y."""
    return indptr[x] + indices[indptr[x] : indptr[x + 1]].index(y)


def grid(rows, cols):
    ids = [[r * cols + c for c in range(cols)] for r in range(rows)]
    edges = [(ids[r][c], ids[r][c + 1]) for r in range(rows) for c in range(cols - 1)]
    edges += [(ids[r][c], ids[r + 1][c]) for r in range(rows - 1) for c in range(cols)]
    return csr(rows * cols, edges)


class NoDraws:
    """A stand-in for Stream whose cursor refuses to draw: the rules say "no draw" here."""

    def __init__(self, *name):
        self.name = name

    def cursor(self):
        return self

    def uniform_below(self, n):
        raise AssertionError(f"unexpected draw from stream {self.name}")

    binomial_half = uniform_below


# Path 0 - 1 - 2: edges e0 = 0->1, e1 = 1->0, e2 = 1->2, e3 = 2->1; border {1, 2} has id 2.
PATH = csr(3, [(0, 1), (1, 2)])
# Star: centre 0, leaves 1, 2, 3: e0 = 0->1, e1 = 0->2, e2 = 0->3, e3 = 1->0, e4 = 2->0, e5 = 3->0.
STAR = csr(4, [(0, 1), (0, 2), (0, 3)])
# Hand graph: 0 (team 0) borders enemies 1, 2, 3 (team 1) and friend 4; 4 - 5 inland; 1 - 2.
# Rows: 0: [1, 2, 3, 4] e0-e3; 1: [0, 2] e4-e5; 2: [0, 1] e6-e7; 3: [0] e8; 4: [0, 5] e9-e10;
# 5: [4] e11.
HAND = csr(6, [(0, 1), (0, 2), (0, 3), (0, 4), (4, 5), (1, 2)])
HAND_TEAM = [0, 1, 1, 1, 0, 0]


def turn(board, team, troops, placement, *, seed=1, t=0, rate_ppm=0, cap=None):
    return play_turn(*board, team, troops, placement, seed, t, rate_ppm, cap)


# --- board helpers ---------------------------------------------------------------------------


def test_reverse_edges_and_border_ids_on_the_hand_graph():
    assert HAND == ([0, 4, 6, 8, 9, 11, 12], [1, 2, 3, 4, 0, 2, 0, 1, 0, 0, 5, 4])
    assert reverse_edges(*HAND) == [4, 6, 8, 9, 0, 7, 1, 5, 2, 3, 11, 10]
    assert border_ids(*HAND) == [0, 1, 2, 3, 0, 5, 1, 5, 2, 3, 10, 10]


@st.composite
def boards(draw, max_n=9, max_teams=4, max_troops=40):
    """A random board with teams and troops: (indptr, indices, team, troops, n_teams)."""
    n = draw(st.integers(2, max_n))
    pairs = [(x, y) for x in range(n) for y in range(x + 1, n)]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=2 * n))
    n_teams = draw(st.integers(2, max_teams))
    team = draw(st.lists(st.integers(0, n_teams - 1), min_size=n, max_size=n))
    troops = draw(st.lists(st.integers(0, max_troops), min_size=n, max_size=n))
    return (*csr(n, edges), team, troops, n_teams)


@given(boards())
def test_reverse_edges_and_border_ids_pair_the_two_directions(case):
    indptr, indices, *_ = case
    reverse = reverse_edges(indptr, indices)
    ids = border_ids(indptr, indices)
    for x in range(len(indptr) - 1):
        for e in range(indptr[x], indptr[x + 1]):
            y = indices[e]
            assert indices[reverse[e]] == x
            assert indptr[y] <= reverse[e] < indptr[y + 1]
            assert reverse[reverse[e]] == e
            assert ids[e] == ids[reverse[e]] == (e if x < y else reverse[e])


@pytest.mark.parametrize(
    ("indptr", "indices", "message"),
    [
        ([1, 1], [], "start with 0"),
        ([0, 1, 3], [1, 0], "indptr ends with 3"),
        ([0, 2, 1, 2], [1, 2], "decreases at territory 1"),
        ([0, 1, 2], [1, 5], "territory 1 borders 5, out of range"),
        ([0, 1, 2], [0, 0], "territory 0 borders itself"),
        ([0, 2, 4], [1, 1, 0, 0], "territory 0 borders 1 twice"),
        ([0, 2, 3, 4], [2, 1, 0, 0], "neighbours of territory 0 are not sorted"),
        ([0, 1, 1], [1], "territory 0 borders 1 but 1 does not border 0"),
    ],
)
def test_bad_boards_are_refused_naming_the_territory(indptr, indices, message):
    with pytest.raises(InvalidBoard, match=message):
        reverse_edges(indptr, indices)


# --- phases 2 and 3: hand-worked turns on the path and the star ------------------------------


def test_transfer_between_friends_and_keeping_troops_home(monkeypatch):
    monkeypatch.setattr(oracle, "Stream", NoDraws)
    # 0 sends 6 to 1; 1 keeps 2 home on its friendly border (p < 0) and 3 as garrison.
    assert turn(PATH, [0, 0, 1], [10, 5, 4], [6, -2, 0, 0]) == ([0, 0, 1], [4, 11, 4])


def test_both_defend_is_no_battle(monkeypatch):
    monkeypatch.setattr(oracle, "Stream", NoDraws)
    assert turn(PATH, [0, 0, 1], [0, 8, 4], [0, 0, -3, -4]) == ([0, 0, 1], [0, 8, 4])


def test_attack_against_nobody_advances_intact(monkeypatch):
    monkeypatch.setattr(oracle, "Stream", NoDraws)
    # 1 attacks 2 with 5; 2 placed nothing there: no rounds, all 5 advance and beat 2's 2.
    assert turn(PATH, [0, 0, 1], [0, 8, 2], [0, 0, 5, 0]) == ([0, 0, 0], [0, 3, 5])
    # Into an empty territory.
    assert turn(PATH, [0, 0, 1], [0, 8, 0], [0, 0, 5, 0]) == ([0, 0, 0], [0, 3, 5])


def test_attack_against_defence():
    # 1 attacks 2 with 5 soldiers (1 coin each), 2 defends with 3 (2 coins each) on border 2.
    assert battle(0, 3, 2, 5, 1, 3, 2) == (4, 0)
    # Attackers win: 4 advance into 2 and beat its garrison of 1; 1 keeps its garrison of 3.
    assert turn(PATH, [0, 0, 1], [0, 8, 4], [0, 0, 5, -3], seed=0, t=3) == ([0, 0, 0], [0, 3, 4])
    assert battle(26, 3, 2, 5, 1, 3, 2) == (0, 2)
    # Defenders win: their 2 survivors go home to the garrison of 1.
    assert turn(PATH, [0, 0, 1], [0, 8, 4], [0, 0, 5, -3], seed=26, t=3) == ([0, 0, 1], [0, 3, 3])


def test_both_attack_only_the_winner_advances():
    # 1 attacks 2 with 4, 2 attacks 1 with 3: both flip 1 coin per soldier.
    assert battle(0, 3, 2, 4, 1, 3, 1) == (3, 0)
    assert turn(PATH, [0, 0, 1], [0, 8, 4], [0, 0, 4, 3], seed=0, t=3) == ([0, 0, 0], [0, 4, 3])
    assert battle(38, 3, 2, 4, 1, 3, 1) == (0, 2)
    # Y's 2 survivors advance into 1: against a garrison of 4 they are killed...
    assert turn(PATH, [0, 0, 1], [0, 8, 4], [0, 0, 4, 3], seed=38, t=3) == ([0, 0, 1], [0, 4, 1])
    # ...against a garrison of 1 they take it.
    assert turn(PATH, [0, 0, 1], [0, 5, 4], [0, 0, 4, 3], seed=38, t=3) == ([0, 1, 1], [0, 2, 1])


def test_occupation_by_the_largest_team_and_empty_territories_keep_their_owner(monkeypatch):
    monkeypatch.setattr(oracle, "Stream", NoDraws)
    # Every leaf attacks the centre with everything; the centre places nothing: no battles.
    # At 0: team 0 has 2, team 1 has 5, team 2 has 6, team 3 has 1. The emptied leaves keep
    # their owners with 0 troops.
    got = turn(STAR, [0, 1, 2, 3], [2, 5, 6, 1], [0, 0, 0, 5, 6, 1])
    assert got == ([2, 1, 2, 3], [6, 0, 0, 0])


def test_a_tie_keeps_the_owner(monkeypatch):
    monkeypatch.setattr(oracle, "Stream", NoDraws)
    got = turn(STAR, [0, 1, 2, 3], [5, 5, 5, 2], [0, 0, 0, 5, 5, 2])
    assert got == ([0, 1, 2, 3], [5, 0, 0, 0])


def test_a_tie_among_other_teams_is_drawn_from_the_tie_stream():
    owners = set()
    for seed in range(12):
        got = turn(STAR, [0, 1, 2, 3], [0, 4, 4, 3], [0, 0, 0, 4, 4, 3], seed=seed, t=5)
        u = Stream(seed, "conquest.tie", 5, 0).cursor().uniform_below(2)
        assert got == ([[1, 2][u], 1, 2, 3], [4, 0, 0, 0])
        owners.add(got[0][0])
    assert owners == {1, 2}


def test_transfers_count_for_the_receiving_team(monkeypatch):
    monkeypatch.setattr(oracle, "Stream", NoDraws)
    # 0 reinforces 1 with 6 while 2 attacks the undefended 1 with 4: team 0 has 5 + 6 there.
    assert turn(PATH, [0, 0, 1], [6, 5, 4], [6, 0, 0, 4]) == ([0, 0, 1], [0, 11, 0])


def test_occupation_is_clamped_to_the_troop_limit():
    line = csr(2, [(0, 1)])
    got = turn(line, [0, 0], [TROOP_LIMIT, TROOP_LIMIT], [TROOP_LIMIT, 0])
    assert got == ([0, 0], [0, TROOP_LIMIT])


# --- phase 4: recruitment --------------------------------------------------------------------


def test_recruitment_floors_with_rate_ppm_and_cap():
    islands = ([0, 0, 0, 0, 0], [])
    troops = [10, 7, 0, 1_000_003]
    # 7 * 0.2 = 1.4 -> 1; 1_000_003 * 0.2 = 200_000.6 -> 200_000.
    assert turn(islands, [0, 1, 0, 1], troops, [], rate_ppm=200_000)[1] == [12, 8, 0, 1_200_003]
    assert turn(islands, [0, 1, 0, 1], troops, [], rate_ppm=200_000, cap=11)[1] == [11, 8, 0, 11]
    # The cap also lowers a territory that already holds more.
    assert turn(islands, [0, 1, 0, 1], troops, [], rate_ppm=0, cap=9)[1] == [9, 7, 0, 9]


def test_recruitment_is_exact_and_clamped_to_the_troop_limit():
    islands = ([0, 0, 0, 0], [])
    troops = [2**36, 2**38, 2**40 - 1]
    got = turn(islands, [0, 1, 0], troops, [], rate_ppm=10_000_000)[1]
    assert got == [11 * 2**36, TROOP_LIMIT, TROOP_LIMIT]
    assert turn(islands, [0, 1, 0], troops, [], rate_ppm=1)[1] == [
        2**36 + 2**36 // 1_000_000,
        2**38 + 2**38 // 1_000_000,
        min(2**40 - 1 + (2**40 - 1) // 1_000_000, TROOP_LIMIT),
    ]


def test_rate_is_stored_in_parts_per_million_with_python_round():
    def game(rate):
        return OracleGame(*PATH, [0, 0, 1], [1, 1, 1], ["random", "random"], 0, rate=rate)

    assert game(0.2).rate_ppm == 200_000
    assert game(0.1234567).rate_ppm == 123_457
    assert game(10).rate_ppm == 10_000_000
    # round() rounds halves to even: 5e-7 * 1e6 == 0.5 exactly gives 0, 2.5e-6 gives 2.
    assert (game(5e-7).rate_ppm, game(2.5e-6).rate_ppm) == (0, 2)


# --- phase 5: end ------------------------------------------------------------------------


def test_end_conditions_and_their_order():
    # (a) one team everywhere wins, even with no troops left and at the turn limit.
    assert end_status([1, 1, 1], [0, 0, 0], 3, 3) == ("won", 1)
    # (b) exactly one team has troops, before (d).
    assert end_status([0, 1, 1], [0, 5, 0], 3, 3) == ("won", 1)
    # (c) no troops anywhere: a draw, before (d).
    assert end_status([0, 1, 2], [0, 0, 0], 3, 3) == ("draw", None)
    # (d) the turn limit.
    assert end_status([0, 1, 2], [1, 0, 2], 3, 3) == ("unfinished", None)
    assert end_status([0, 1, 2], [1, 0, 2], 2, 3) == ("running", None)
    assert end_status([0, 1, 2], [1, 0, 2], 3, None) == ("running", None)


def test_a_finished_game_plays_no_more_turns():
    line = csr(2, [(0, 1)])
    game = OracleGame(*line, [0, 1], [10, 0], ["aggressive", "aggressive"], 7)
    assert (game.status, game.winner, game.turn) == ("running", None, 0)
    # 0 attacks the empty 1 with 0 + 1 = 1, its only enemy border, so 9 // 2 = 4 of the 9
    # left press: 5 take 1 and 5 stay home (6 each after recruiting).
    assert game.step()
    assert (game.team, game.troops, game.turn) == ([0, 0], [6, 6], 1)
    assert (game.status, game.winner) == ("won", 0)
    assert not game.step()
    assert (game.team, game.troops, game.turn) == ([0, 0], [6, 6], 1)


def test_the_turn_limit_ends_a_game():
    game = OracleGame(*PATH, [0, 0, 1], [5, 5, 5], ["balanced"] * 2, 3, max_turns=2)
    assert game.step()
    assert game.status == "running"
    assert game.step()
    assert (game.status, game.winner, game.turn) == ("unfinished", None, 2)
    assert not game.step()


def test_a_turn_limit_of_zero_is_refused():
    # The limit is checked after each turn, so it must allow at least one.
    with pytest.raises(InvalidParameter, match="max_turns must be at least 1"):
        OracleGame(*PATH, [0, 0, 1], [5, 5, 5], ["balanced"] * 2, 3, max_turns=0)


# --- policies --------------------------------------------------------------------------------


def test_frontier_distance_on_a_path_and_a_grid():
    path = csr(6, [(i, i + 1) for i in range(5)])
    assert frontier_distance(*path, [0, 0, 0, 1, 1, 1]) == [2, 1, 0, 0, 1, 2]
    # 3x3 grid, team 1 holds the corner 8 only: team 0 measures to 5 and 7.
    assert frontier_distance(*grid(3, 3), [0] * 8 + [1]) == [3, 2, 1, 2, 1, 0, 1, 0, 0]
    # A component without enemies has no distance; so has a one-team board.
    two_parts = csr(5, [(0, 1), (2, 3), (3, 4)])
    assert frontier_distance(*two_parts, [0, 0, 0, 1, 1]) == [None, None, 0, 0, 1]
    assert frontier_distance(*path, [0] * 6) == [None] * 6


@given(boards())
def test_frontier_distance_properties(case):
    indptr, indices, team, _, _ = case
    dist = frontier_distance(indptr, indices, team)
    for x in range(len(team)):
        row = indices[indptr[x] : indptr[x + 1]]
        if any(team[y] != team[x] for y in row):
            assert dist[x] == 0
        elif dist[x] is None:
            assert all(dist[y] is None for y in row)
        else:
            assert dist[x] > 0
            assert min(dist[y] for y in row) == dist[x] - 1


def test_aggressive_on_the_grid_moves_to_the_front_and_attacks():
    board = grid(3, 3)
    got = policy_placement("aggressive", *board, [0] * 8 + [1], [5] * 9, 1, 0, {0})
    want = [0] * len(board[1])
    for x, y, amount in [
        (0, 1, 4),  # distance 3: first neighbour at distance 2 (1 before 3)
        (1, 2, 4),  # distance 2: 2 and 4 are at distance 1, 2 comes first
        (2, 5, 4),
        (3, 4, 4),  # 4 before 6
        (4, 5, 4),  # 5 and 7 are frontier, 5 comes first
        (6, 7, 4),
    ]:
        want[edge(*board, x, y)] = amount
    # 5 and 7 border the enemy 8: P(8) = 10, the share of each ceil(5 * 5 / 10) = 3, and the
    # attack ceil(7 * 3 / 4) + 1 = 7 is more than 5 holds: they defend with all 5 instead.
    want[edge(*board, 5, 8)] = want[edge(*board, 7, 8)] = -5
    assert got == want


def test_aggressive_on_the_hand_graph():
    troops = [20, 3, 0, 5, 7, 4]
    # 0 (t = 20): team 0's pressure on 1, 2 and 3 is 20 each, so each share is the target's
    # own troops and each attack ceil(7 * share / 4) + 1; weakest first: 2 with 1, 1 with 7,
    # 3 with 10 (18 in all). Every enemy border is attacked, so half the 2 left presses:
    # 1 // 3 = 0 each and the rest, 1, to the first attack made (2's). Team 1's pressure on
    # 0 is 8: 1's attack would be ceil(7 * ceil(20 * 3 / 8) / 4) + 1 = 15 > 3, so 1 and 3
    # defend with everything; 4 and 5 move to the front.
    got = policy_placement("aggressive", *HAND, HAND_TEAM, troops, 1, 0, {0, 1})
    assert got == [7, 2, 10, 0, -3, 0, 0, 0, -5, 6, 0, 3]
    # Ties go to the first in CSR order (1 before 2): 7 each, then 3's 10 is more than the 6
    # left, which defend 3.
    troops = [20, 3, 3, 5, 1, 4]
    got = policy_placement("aggressive", *HAND, HAND_TEAM, troops, 1, 0, {0, 1})
    # 4 holds 1 troop and does not move; 5 moves 3 towards the front.
    assert got == [7, 7, -6, 0, -3, 0, -3, 0, -5, 0, 0, 3]
    # Only the teams asked for get a row.
    got = policy_placement("aggressive", *HAND, HAND_TEAM, troops, 1, 0, {1})
    assert got == [0, 0, 0, 0, -3, 0, -3, 0, -5, 0, 0, 0]


def test_balanced_on_the_hand_graph():
    troops = [20, 3, 0, 5, 7, 4]
    got = policy_placement("balanced", *HAND, HAND_TEAM, troops, 1, 0, {0, 1})
    # 0: t = 20 and pressure 20 on each of 1, 2, 3: the attacks 2 * share + 1 are 7, 1 and
    # 11, 19 in all (half the 1 left is 0: nothing presses). 1: pressure 8 on 0, attack
    # 2 * ceil(20 * 3 / 8) + 1 = 17 > 3: defends 0 with all 3. 2: nothing to defend with.
    # 3: defends with 5. 4, 5: move to the front.
    assert got == [7, 1, 11, 0, -3, 0, 0, 0, -5, 6, 0, 3]
    # With 6 no attack fits (7, 19, 11) and 0 defends all three with r = 6 against 3, 9, 5
    # (T = 17): 18 // 17 = 1, 54 // 17 = 3, 30 // 17 = 1.
    troops = [6, 3, 9, 5, 7, 4]
    got = policy_placement("balanced", *HAND, HAND_TEAM, troops, 1, 0, {0})
    assert got == [-1, -3, -1, 0, 0, 0, 0, 0, 0, 6, 0, 3]


def test_opportunist_on_the_hand_graph():
    troops = [20, 3, 0, 5, 7, 4]
    got = policy_placement("opportunist", *HAND, HAND_TEAM, troops, 1, 0, {0, 1})
    # 0 (t = 20): the pressure of team 0 on 1, 2 and 3 is 20 each; cheapest first: 2
    # (attack 1), 1 (7), 3 (11), 19 in all. 1, 2, 3: team 1's pressure on 0 is 8, the
    # attacks (17 from 1, 27 from 3) do not fit: they defend with everything.
    # 4, 5: move to the front.
    assert got == [7, 1, 11, 0, -3, 0, 0, 0, -5, 6, 0, 3]
    troops = [1, 0, 0, 5, 7, 4]
    got = policy_placement("opportunist", *HAND, HAND_TEAM, troops, 1, 0, {0, 1})
    # 0 (t = 1): 1 and 2 (no troops) cost 1 each, the first is 1's; 3's 11 does not fit.
    # Team 1's pressure on 0 is 5: 1 and 2 have no troops to attack with, 3 attacks
    # with 2 * ceil(1 * 5 / 5) + 1 = 3; that attacks its only enemy border, so it presses: half
    # of the 2 left join the attack (4) and 1 stays home.
    assert got == [1, 0, 0, 0, 0, 0, 0, 0, 4, 6, 0, 3]
    # With 20 troops 0 attacks all three borders with 19: half of the 1 left is 0, nothing
    # presses. With 40 (pressure 40 on each) the attacks are again 7, 1 and 11; of the 21
    # left, 10 press: 3 each and the rest, 1, to the first attack made (2's, the cheapest).
    troops = [40, 3, 0, 5, 7, 4]
    got = policy_placement("opportunist", *HAND, HAND_TEAM, troops, 1, 0, {0})
    assert got[:3] == [10, 5, 14]


def test_every_strike_presses_when_it_attacks_every_enemy_border():
    line = csr(2, [(0, 1)])
    # 0 (t = 21) alone around 1 (4 troops): the share is 4, the attack ceil(7 * 4 / 4) + 1 = 8
    # for aggressive and 2 * 4 + 1 = 9 for the others; it is 0's only enemy border, so half
    # of what is left (13 // 2 = 6, 12 // 2 = 6) joins it. 1 (t = 4) would need 2 * 21 + 1:
    # it defends with everything.
    for name, attack in [("aggressive", 8 + 6), ("balanced", 9 + 6), ("opportunist", 9 + 6)]:
        assert policy_placement(name, *line, [0, 1], [21, 4], 1, 0, {0, 1}) == [attack, -4]
    # With a second enemy border it cannot afford, 0 keeps what is left to defend it.
    got = policy_placement("balanced", *PATH, [1, 0, 1], [4, 21, 30], 1, 0, {0})
    assert got == [0, 9, -12, 0]


def test_random_policy_follows_its_stream():
    troops = [20, 3, 0, 5, 7, 4]
    indptr, indices = HAND
    for seed in range(5):
        got = policy_placement("random", *HAND, HAND_TEAM, troops, seed, 9, {0, 1})
        want = [0] * len(indices)
        for x in range(4):  # 4 and 5 have no enemy neighbour: no draws, zero rows
            cursor = Stream(seed, "conquest.random", 9, x).cursor()
            remaining = troops[x]
            for e in range(indptr[x], indptr[x + 1]):
                if HAND_TEAM[indices[e]] == HAND_TEAM[x]:
                    continue
                choice = cursor.uniform_below(3)
                if choice > 0:
                    amount = cursor.uniform_below(remaining + 1)
                    want[e] = amount if choice == 1 else -amount
                    remaining -= amount
        assert got == want
        assert got[3] == got[5] == got[7] == 0  # friendly borders get 0


@given(boards(), st.sampled_from(POLICIES[:4]), U64)
def test_builtin_placements_are_valid(case, name, seed):
    indptr, indices, team, troops, _ = case
    got = policy_placement(name, indptr, indices, team, troops, seed, 4, {0})
    validate_placement(indptr, indices, team, troops, got, {0})


# --- placement checks ------------------------------------------------------------------------


def test_over_committed_placement_names_the_territory():
    board = csr(20, [(i, i + 1) for i in range(19)])
    team, troops = [0] * 20, [10] * 20
    placement = [0] * len(board[1])
    placement[edge(*board, 17, 16)] = 5
    placement[edge(*board, 17, 18)] = -7
    with pytest.raises(InvalidMove, match="territory 17 places 12 troops but holds 10"):
        validate_placement(*board, team, troops, placement, {0})
    with pytest.raises(InvalidMove, match="territory 17 places 12 troops but holds 10"):
        play_turn(*board, team, troops, placement, 0, 0, 0, None)


def test_placement_on_rows_of_other_teams_is_refused():
    with pytest.raises(InvalidMove, match="territory 2 belongs to team 1"):
        validate_placement(*PATH, [0, 0, 1], [5, 5, 5], [1, 0, 0, -1], {0})
    validate_placement(*PATH, [0, 0, 1], [5, 5, 5], [1, 0, 0, -1], {0, 1})


@pytest.mark.parametrize(
    ("placement", "message"),
    [([0, 0, 0], "placement has 3 entries"), ([0, 0, 0.5, 0], r"placement\[2\] must be")],
)
def test_placement_of_the_wrong_shape_or_type_is_refused(placement, message):
    with pytest.raises(InvalidParameter, match=message):
        validate_placement(*PATH, [0, 0, 1], [5, 5, 5], placement, {0, 1})


# --- whole games -----------------------------------------------------------------------------


def test_custom_teams_play_the_given_placement():
    game = OracleGame(*PATH, [0, 0, 1], [6, 5, 4], ["custom", "aggressive"], 5, rate=0)
    with pytest.raises(InvalidParameter, match="team 0 plays 'custom'"):
        game.step()
    # A bad custom placement changes nothing.
    with pytest.raises(InvalidMove, match="territory 0 places 7 troops but holds 6"):
        game.step([7, 0, 0, 0])
    with pytest.raises(InvalidMove, match="territory 2 belongs to team 1"):
        game.step([0, 0, 0, 1])
    assert (game.team, game.troops, game.turn) == ([0, 0, 1], [6, 5, 4], 0)
    # Team 0 sends 6 to 1; team 1 (aggressive) does not outnumber 1 (4 against 5): it defends.
    assert game.placement([6, 0, 0, 0]) == [6, 0, 0, -4]
    assert game.step([6, 0, 0, 0])
    assert (game.team, game.troops, game.turn) == ([0, 0, 1], [0, 11, 4], 1)
    assert game.history_counts() == ([2, 1], [11, 4])


def test_a_custom_placement_without_custom_teams_must_be_empty():
    game = OracleGame(*PATH, [0, 0, 1], [6, 5, 4], ["balanced", "aggressive"], 5)
    with pytest.raises(InvalidMove, match="territory 0 belongs to team 0"):
        game.step([1, 0, 0, 0])
    assert game.step([0, 0, 0, 0])


def test_history_counts_cover_every_team():
    game = OracleGame(*PATH, [0, 0, 2], [6, 5, 4], ["random"] * 4, 5)
    assert game.history_counts() == ([2, 0, 1, 0], [11, 0, 4, 0])


@given(boards(), st.lists(st.sampled_from(POLICIES), min_size=4, max_size=4), st.integers(0, 99))
def test_games_are_reproducible_and_accept_numpy(case, names, seed):
    indptr, indices, team, troops, n_teams = case
    policies = names[:n_teams]
    game = OracleGame(indptr, indices, team, troops, policies, seed, cap=50, max_turns=6)
    twin = OracleGame(
        np.array(indptr, dtype=np.int64),
        np.array(indices, dtype=np.int64),
        np.array(team, dtype=np.int64),
        np.array(troops, dtype=np.int64),
        policies,
        seed,
        cap=50,
        max_turns=6,
    )
    while game.step():
        assert twin.step()
        assert (game.team, game.troops) == (twin.team, twin.troops)
        assert all(0 <= k < n_teams for k in game.team)
        assert all(0 <= n <= 50 for n in game.troops)
        assert all(type(n) is int for n in game.troops)
    assert not twin.step()
    assert game.status in {"won", "draw", "unfinished"}
    assert (game.status == "won") == (game.winner is not None)


@given(boards(), U64, U64)
def test_a_turn_without_recruitment_never_adds_troops(case, seed, t):
    indptr, indices, team, troops, _ = case
    placement = policy_placement("random", indptr, indices, team, troops, seed, t, set(team))
    new_team, new_troops = play_turn(indptr, indices, team, troops, placement, seed, t, 0, None)
    assert sum(new_troops) <= sum(troops)
    for x, owner in enumerate(new_team):
        # A territory changes hands only to a neighbour's team, and only when troops are there.
        row = indices[indptr[x] : indptr[x + 1]]
        assert owner == team[x] or (owner in {team[y] for y in row} and new_troops[x] > 0)
    if len(set(team)) == 1:  # only transfers: nobody dies
        assert sum(new_troops) == sum(troops)


# --- constructor checks ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        ({"team": [0, 0, 2]}, InvalidParameter, "territory 2 has team 2, out of range for 2"),
        ({"team": [0, 0]}, InvalidParameter, "team has 2 entries for 3 territories"),
        ({"troops": [1, -1, 1]}, InvalidParameter, r"troops\[1\] must be at least 0"),
        ({"troops": [1, 1, 2**40 + 1]}, InvalidParameter, r"troops\[2\] must be at most"),
        ({"policies": ["random"]}, InvalidParameter, "n_teams must be at least 2"),
        ({"policies": ["random"] * 65}, InvalidParameter, "n_teams must be at most 64"),
        ({"policies": ["random", "clever"]}, InvalidParameter, "team 1 has unknown policy"),
        ({"n_teams": 3}, InvalidParameter, "policies names 2 teams but n_teams is 3"),
        ({"seed": -1}, InvalidParameter, "seed must be at least 0"),
        ({"seed": 2**64}, InvalidParameter, "seed must be at most"),
        ({"rate": 10.5}, InvalidParameter, r"rate must be in \[0, 10\]"),
        ({"rate": -0.1}, InvalidParameter, r"rate must be in \[0, 10\]"),
        ({"rate": math.nan}, InvalidParameter, r"rate must be in \[0, 10\]"),
        ({"rate": "0.2"}, InvalidParameter, "rate must be a number"),
        ({"cap": 0}, InvalidParameter, "cap must be at least 1"),
        ({"cap": 2**40 + 1}, InvalidParameter, "cap must be at most"),
        ({"max_turns": -1}, InvalidParameter, "max_turns must be at least 1"),
        ({"indices": [1, 0, 2, 2]}, InvalidBoard, "territory 2 borders itself"),
        ({"indptr": [0], "indices": [], "team": [], "troops": []}, InvalidBoard, "at least one"),
    ],
)
def test_bad_game_arguments_are_refused_naming_the_item(change, error, message):
    arguments = {
        "indptr": PATH[0],
        "indices": PATH[1],
        "team": [0, 0, 1],
        "troops": [1, 1, 1],
        "policies": ["random", "balanced"],
        "seed": 0,
    }
    arguments.update(change)
    with pytest.raises(error, match=message):
        OracleGame(**arguments)


def test_bad_function_arguments_are_refused():
    with pytest.raises(InvalidParameter, match="unknown policy 'custom'"):
        policy_placement("custom", *PATH, [0, 0, 1], [1, 1, 1], 0, 0, {0})
    with pytest.raises(InvalidParameter, match="coins_x must be at most 2"):
        battle(0, 0, 0, 1, 3, 1, 1)
    with pytest.raises(InvalidParameter, match="rate_ppm must be at most"):
        play_turn(*PATH, [0, 0, 1], [1, 1, 1], [0] * 4, 0, 0, 10_000_001, None)
    with pytest.raises(InvalidParameter, match="defender_mode must be 'attack' or 'defend'"):
        battle_odds_exact(1, 1, "attack", "hide")
    with pytest.raises(InvalidParameter, match="a must be at least 0"):
        simulate_battle_counts(-1, 1, 10, 0)


# --- battles ---------------------------------------------------------------------------------


def words(seed, t, b):
    """The words of stream (seed, "conquest.battle", t, b), straight from its blocks."""
    stream = Stream(seed, "conquest.battle", t, b)
    index = 0
    while True:
        yield from stream.block(index)
        index += 1


SIDES = st.tuples(st.integers(0, 32), st.sampled_from([1, 2]))


@given(st.tuples(U64, U64, U64), SIDES, SIDES)
def test_battle_draws_x_then_y_from_one_cursor(stream, side_x, side_y):
    (seed, t, b), (sx, cx), (sy, cy) = stream, side_x, side_y
    # Up to 64 coins a draw is the popcount of the low bits of one word: X's word, then Y's.
    source = words(seed, t, b)
    x, y = sx, sy
    while x > 0 and y > 0:
        hx = (next(source) & ((1 << (x * cx)) - 1)).bit_count()
        hy = (next(source) & ((1 << (y * cy)) - 1)).bit_count()
        x, y = max(x - hy, 0), max(y - hx, 0)
    assert battle(seed, t, b, sx, cx, sy, cy) == (x, y)


@given(st.integers(0, 2**40), st.integers(0, 2**40), U64)
def test_battle_leaves_at_most_one_side_and_never_adds_soldiers(sx, sy, seed):
    x, y = battle(seed, 1, 2, sx, 1, sy, 2)
    assert 0 <= x <= sx
    assert 0 <= y <= sy
    if sx == 0 or sy == 0:
        assert (x, y) == (sx, sy)
    else:
        assert x == 0 or y == 0


# --- exact battle odds -----------------------------------------------------------------------

MODES = st.sampled_from(["attack", "defend"])


def test_battle_odds_of_one_against_one():
    assert battle_odds_exact(1, 1) == (Fraction(1, 7), Fraction(3, 7), Fraction(3, 7))
    # Both attack: each kills with probability 1/2 per round; (1, 1) ends in a round that
    # changes something: X only, Y only or both die, each with 1/3.
    assert battle_odds_exact(1, 1, "attack", "attack") == (Fraction(1, 3),) * 3
    assert battle_odds_exact(0, 0) == (0, 0, 1)
    assert battle_odds_exact(3, 0) == (1, 0, 0)
    assert battle_odds_exact(0, 3) == (0, 1, 0)


@given(st.integers(0, 6), st.integers(0, 6), MODES, MODES)
def test_battle_odds_sum_to_one_and_swap_with_the_sides(a, d, ma, md):
    odds = battle_odds_exact(a, d, ma, md)
    assert sum(odds) == 1
    assert all(p >= 0 for p in odds)
    swapped = battle_odds_exact(d, a, md, ma)
    assert odds == (swapped[1], swapped[0], swapped[2])


@given(st.integers(1, 5), st.integers(1, 5), MODES, MODES)
def test_battle_odds_are_monotone(a, d, ma, md):
    win, lose, _ = battle_odds_exact(a, d, ma, md)
    more_attackers = battle_odds_exact(a + 1, d, ma, md)
    more_defenders = battle_odds_exact(a, d + 1, ma, md)
    assert more_attackers[0] >= win
    assert more_attackers[1] <= lose
    assert more_defenders[0] <= win
    assert more_defenders[1] >= lose
    # Two coins a soldier are worth more than one.
    assert battle_odds_exact(a, d, ma, "defend")[1] >= battle_odds_exact(a, d, ma, "attack")[1]


@pytest.mark.parametrize(
    ("a", "d", "ma", "md"),
    [(1, 1, "attack", "defend"), (3, 2, "attack", "defend"), (4, 4, "attack", "attack")],
)
def test_simulated_battles_agree_with_the_exact_odds(a, d, ma, md):
    n = 20_000
    counts = simulate_battle_counts(a, d, n, 2024, ma, md)
    assert sum(counts) == n
    expected = [float(p) * n for p in battle_odds_exact(a, d, ma, md)]
    statistic = sum((c - e) ** 2 / e for c, e in zip(counts, expected, strict=True))
    assert stats.chi2.sf(statistic, df=2) > 1e-4
