"""The conquest Game API: the shared conformance test, history, read-only state, custom
policies, saving, batches of games and battle odds (Rust against the exact oracle)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import stratagem
from interrupts import seconds_to_stop_after_ctrl_c
from stratagem import testing
from stratagem.conquest import (
    POLICIES,
    Board,
    Game,
    PolicyView,
    assign_random,
    assign_regions,
    battle_odds,
    battle_odds_fractions,
    game_seed,
    oracle,
    simulate_battle,
    simulate_many,
)
from stratagem.conquest.conformance import ConquestAdapter

# -- the shared conformance test -----------------------------------------------------------

ADAPTER = ConquestAdapter()


@settings(deadline=None)
@given(case=ADAPTER.cases(), seed=testing.seeds())
def test_conquest_passes_the_conformance_test(case, seed, tmp_path_factory):
    testing.check_conformance(ADAPTER, case, seed, tmp_path_factory.mktemp("conformance"), turns=4)


# -- Game API ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def grid_game_args():
    board = Board.grid(40, 40)
    return (
        board,
        assign_regions(board, 4, seed=5),
        12,
        ["aggressive", "balanced", "opportunist", "random"],
    )


def test_same_seed_same_game_for_one_and_two_threads(grid_game_args):
    board, team, troops, policies = grid_game_args
    games = [Game(board, team, troops, policies, seed=77, max_turns=60, threads=t) for t in (1, 2)]
    for game in games:
        game.run()
    one, two = games
    np.testing.assert_array_equal(one.team, two.team)
    np.testing.assert_array_equal(one.troops, two.troops)
    np.testing.assert_array_equal(one.history.territories, two.history.territories)
    np.testing.assert_array_equal(one.history.troops, two.history.troops)
    assert one.result.status == two.result.status


def test_history_state_and_result(grid_game_args):
    board, team, troops, policies = grid_game_args
    game = Game(board, team, troops, policies, seed=3, max_turns=25)
    assert game.status == "running"
    assert game.history.territories.shape == (1, 4)
    game.step()
    game.run(5)
    assert game.turn == 6
    history = game.history
    assert history.territories.shape == history.troops.shape == (7, 4)
    assert (history.territories.sum(axis=1) == board.n).all()
    np.testing.assert_array_equal(
        history.troops[-1], np.bincount(game.team, weights=game.troops, minlength=4)
    )
    with pytest.raises(ValueError, match="read-only"):
        game.team[0] = 1
    with pytest.raises(ValueError, match="read-only"):
        game.troops[0] = 1
    result = game.run()
    assert result.turns == game.turn <= 25
    assert result.status in ("won", "draw", "unfinished")
    if result.status == "unfinished":
        assert game.turn == 25
        assert result.winner is None
    if result.status == "won":
        assert (game.team == result.winner).all() or (
            game.troops[game.team != result.winner] == 0
        ).all()
    assert not game.step()


def test_run_and_step_give_the_same_game(grid_game_args):
    board, team, troops, policies = grid_game_args
    stepped = Game(board, team, troops, policies, seed=11, max_turns=30)
    while stepped.step():
        pass
    ran = Game(board, team, troops, policies, seed=11, max_turns=30)
    ran.run()
    np.testing.assert_array_equal(stepped.history.troops, ran.history.troops)
    np.testing.assert_array_equal(stepped.troops, ran.troops)


def test_custom_policy_sees_the_state_and_plays_like_the_oracle():
    board = Board.grid(6, 6)
    team = assign_regions(board, 2, seed=1)
    seen: list[int] = []

    def half_on_weakest(view: PolicyView) -> np.ndarray:
        seen.append(view.turn)
        placement = np.zeros(view.indices.shape[0], dtype=np.int64)
        source = view.source
        mine_to_enemy = (view.team[source] == view.team_id) & (
            view.team[view.indices] != view.team_id
        )
        for x in np.unique(source[mine_to_enemy]):
            edges = np.flatnonzero(mine_to_enemy & (source == x))
            weakest = edges[np.argmin(view.troops[view.indices[edges]])]
            placement[weakest] = view.troops[x] // 2
        return placement

    game = Game(board, team, 9, [half_on_weakest, "balanced"], seed=8, max_turns=12)
    reference = oracle.OracleGame(
        board.indptr, board.indices, team, [9] * board.n, ["custom", "balanced"], 8, max_turns=12
    )
    while not game.finished:
        view = PolicyView(0, game.turn, board.indptr, board.indices, game.team, game.troops)
        custom = half_on_weakest(view).tolist()
        game.step()
        reference.step(custom)
        assert game.team.tolist() == reference.team
        assert game.troops.tolist() == reference.troops
    assert seen[0] == 0
    assert seen[-1] == game.turn - 1


def test_saved_game_with_custom_policy_needs_its_policy_again(tmp_path):
    board = Board.ring(8)

    def idle(view: PolicyView) -> np.ndarray:
        return np.zeros(view.indices.shape[0], dtype=np.int64)

    game = Game(board, [0, 1] * 4, 5, [idle, "aggressive"], seed=2, max_turns=20)
    game.run(3)
    path = tmp_path / "custom.npz"
    game.save(path)
    with pytest.raises(stratagem.InvalidParameter, match="pass policies="):
        Game.load(path)
    loaded = Game.load(path, policies=[idle, "aggressive"])
    assert loaded.turn == 3
    game.run()
    loaded.run()
    np.testing.assert_array_equal(game.troops, loaded.troops)
    np.testing.assert_array_equal(game.history.troops, loaded.history.troops)


def test_save_keeps_seeds_above_2_63(tmp_path):
    board = Board.ring(6)
    game = Game(board, [0, 1] * 3, 4, ["random", "random"], seed=2**64 - 5, max_turns=10)
    game.save(tmp_path / "g.npz")
    assert Game.load(tmp_path / "g.npz").seed == 2**64 - 5


# -- batches ---------------------------------------------------------------------------------


def test_simulate_many_is_deterministic_and_consistent():
    board = Board.grid(8, 8)
    team, troops, policies = assign_regions(board, 2, seed=2), 6, ["opportunist", "random"]
    kwargs = {"games": 40, "seed": 9, "max_turns": 150}
    one = simulate_many(board, team, troops, policies, threads=1, **kwargs)
    two = simulate_many(board, team, troops, policies, threads=2, **kwargs)
    np.testing.assert_array_equal(one.wins, two.wins)
    np.testing.assert_array_equal(one.turns, two.turns)
    assert one.wins.sum() + one.draws + one.unfinished == 40
    assert one.wins.sum() > 0
    assert ((one.interval_low <= one.win_rate) & (one.win_rate <= one.interval_high)).all()
    # Game g of the batch is the single game played with game_seed(seed, g).
    single = Game(board, team, troops, policies, seed=game_seed(9, 3), max_turns=150)
    single.run()
    assert single.turn == one.turns[3]


def test_simulate_many_refuses_custom_policies():
    board = Board.ring(4)
    with pytest.raises(stratagem.InvalidParameter, match="built-in policies only"):
        simulate_many(board, [0, 1, 0, 1], 3, [lambda v: v, "random"], games=2)


# -- battle odds -------------------------------------------------------------------------------


def test_battle_odds_of_one_against_one():
    odds = battle_odds(1, 1)
    assert (odds.attacker, odds.defender, odds.both) == pytest.approx(
        (1 / 7, 3 / 7, 3 / 7), abs=1e-15
    )
    assert oracle.battle_odds_exact(1, 1) == (Fraction(1, 7), Fraction(3, 7), Fraction(3, 7))


@pytest.mark.parametrize(
    "modes",
    [("attack", "defend"), ("attack", "attack"), ("defend", "defend"), ("defend", "attack")],
)
@pytest.mark.parametrize(
    ("a", "d"), [(1, 1), (2, 1), (1, 3), (4, 4), (6, 2), (3, 7), (0, 2), (5, 0)]
)
def test_rust_odds_equal_the_exact_oracle(a, d, modes):
    rust = battle_odds(a, d, *modes)
    exact = oracle.battle_odds_exact(a, d, *modes)
    assert (rust.attacker, rust.defender, rust.both) == pytest.approx(
        [float(p) for p in exact], abs=1e-13
    )


@given(
    a=st.integers(0, 16),
    d=st.integers(0, 16),
    modes=st.tuples(st.sampled_from(["attack", "defend"]), st.sampled_from(["attack", "defend"])),
)
def test_engine_fractions_equal_the_oracle_fractions(a, d, modes):
    """The engine's 128-bit fractions against the oracle's unbounded ones: equal whenever the
    engine has them, and the engine has every one the command line shows (up to 32 digits)."""
    engine = battle_odds_fractions(a, d, *modes)
    exact = oracle.battle_odds_exact(a, d, *modes)
    if engine is None:
        assert a + d > 16 or max(len(str(p)) for p in exact) > 32
    else:
        assert engine == exact


def test_fractions_beyond_128_bits_are_none():
    assert battle_odds_fractions(40, 40) is None
    with pytest.raises(stratagem.InvalidParameter, match="a must be"):
        battle_odds_fractions(-1, 1)


@pytest.mark.parametrize(("a", "d"), [(1, 1), (3, 2), (10, 5), (40, 30)])
def test_monte_carlo_battles_agree_with_the_odds(a, d):
    n = 60_000
    counts = np.array(simulate_battle(a, d, n, seed=a * 100 + d))
    odds = battle_odds(a, d)
    expected = n * np.array([odds.attacker, odds.defender, odds.both])
    keep = expected > 0
    assert counts[~keep].sum() == 0
    statistic = float(((counts[keep] - expected[keep]) ** 2 / expected[keep]).sum())
    assert stats.chi2.sf(statistic, keep.sum() - 1) > 1e-4


def test_engine_battles_equal_the_oracle_sampler():
    for a, d in ((1, 1), (7, 3), (25, 40)):
        assert simulate_battle(a, d, 2000, seed=5) == oracle.simulate_battle_counts(a, d, 2000, 5)


def test_battle_odds_refuses_sides_beyond_the_dynamic_programme():
    with pytest.raises(stratagem.InvalidParameter, match="simulate_battle beyond"):
        battle_odds(500, 500)


def test_assignments_feed_games():
    board = Board.risk_world()
    team = assign_random(board, 3, seed=1)
    game = Game(board, team, 3, ["opportunist", "balanced", "aggressive"], seed=4, max_turns=100)
    result = game.run()
    assert result.turns >= 1
    assert board.names is not None
    assert len(board.names) == 42


def test_a_game_loaded_with_a_higher_limit_plays_on(tmp_path):
    board = Board.grid(12, 12)
    team = assign_regions(board, 2, seed=4)
    policies = ["balanced", "balanced"]
    short = Game(board, team, 10, policies, seed=6, max_turns=5)
    assert short.run().status == "unfinished"
    short.save(tmp_path / "short.npz")
    assert Game.load(tmp_path / "short.npz").status == "unfinished"
    longer = Game.load(tmp_path / "short.npz", max_turns=40)
    assert longer.status == "running"
    longer.run()
    straight = Game(board, team, 10, policies, seed=6, max_turns=40)
    straight.run()
    np.testing.assert_array_equal(longer.troops, straight.troops)
    assert (longer.status, longer.winner, longer.turn) == (
        straight.status,
        straight.winner,
        straight.turn,
    )
    np.testing.assert_array_equal(longer.history.troops, straight.history.troops)


def test_ctrl_c_stops_a_long_game_cleanly():
    board = Board.grid(300, 300)
    game = Game(
        board, assign_regions(board, 4, seed=1), 10, list(POLICIES[:4]), seed=1, max_turns=None
    )
    assert seconds_to_stop_after_ctrl_c(lambda: game.run(10**6)) < 0.2
    # Whole turns only: the history matches the turn counter and the game plays on.
    assert game.history.territories.shape[0] == game.turn + 1
    turn = game.turn
    game.step()
    assert game.turn == turn + 1
