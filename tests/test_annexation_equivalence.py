"""The Rust annexation engine against the oracle (``stratagem.annexation.oracle``): the same
boards, rules, moves and seeds give identical states after every move, identical playout
tallies, identical AI choices (MCTS root visits included, over a game with tree reuse),
identical batch steps and identical matches (``docs/annexation-rules.md``)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, event, given
from hypothesis import strategies as st

from property_settings import SEEDS, fewer_examples
from stratagem.annexation import AI, MODES, Board, Game, batch, oracle, play_match, playouts
from stratagem.errors import InvalidBoard, InvalidMove, InvalidParameter
from stratagem.rng.oracle import Stream

# Slow tests (the oracle plays whole games per example) run fewer examples than the profile.
FEWER = fewer_examples(15)


# -- boards and rules ------------------------------------------------------------------------


def _edge_board(draw: st.DrawFn, k: int, p: int, seed: int) -> Board:
    """A random connected graph: a random spanning tree plus a few extra edges, on shuffled
    labels, with hypothesis-drawn colours and starts when the board accepts them."""
    n = draw(st.integers(max(2, p), 12))
    labels = draw(st.permutations(range(n)))
    edges = {tuple(sorted((labels[i], labels[draw(st.integers(0, i - 1))]))) for i in range(1, n)}
    pairs = [(x, y) for x in range(n) for y in range(x + 1, n)]
    edges |= set(draw(st.lists(st.sampled_from(pairs), max_size=n)))
    edge_array = np.array(sorted(edges), dtype=np.int64)
    starts = draw(st.none() | st.permutations(range(n)).map(lambda cells: cells[:p]))
    colours = draw(st.none() | st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    options = {"colour_count": k, "players": p, "seed": seed, "starts": starts}
    try:
        return Board.from_edges(edge_array, cells=n, colours=colours, **options)
    except InvalidBoard:
        # The drawn colours put two starts in one region: draw the colours from the seed.
        return Board.from_edges(edge_array, cells=n, **options)


@st.composite
def boards(draw: st.DrawFn, big: bool = True) -> Board:
    """Small hexagon, grid, hex-rectangle and edge-list boards (sometimes one of more than 64
    cells, so that the engine's masks take several words), k = 3..8 colours, p = 2..4 < k
    players, random colour seeds."""
    k = draw(st.integers(3, 8))
    p = draw(st.integers(2, min(4, k - 1)))
    seed = draw(SEEDS)
    kinds = ["hexagon", "grid", "hex_rectangle", "edges", "edges"] + (["big"] * 2 if big else [])
    kind = draw(st.sampled_from(kinds))
    options = {"colour_count": k, "players": p, "seed": seed}
    try:
        if kind == "hexagon":
            return Board.hexagon(draw(st.integers(1, 3)), **options)
        if kind == "grid":
            return Board.grid(draw(st.integers(1, 6)), draw(st.integers(2, 6)), **options)
        if kind == "hex_rectangle":
            return Board.hex_rectangle(draw(st.integers(2, 6)), draw(st.integers(1, 6)), **options)
        if kind == "big":
            return Board.grid(draw(st.integers(9, 11)), draw(st.integers(8, 9)), **options)
        return _edge_board(draw, k, p, seed)
    except (InvalidBoard, InvalidParameter):
        assume(False)
        raise  # unreachable: assume(False) raises


@st.composite
def rule_sets(draw: st.DrawFn) -> dict:
    return {
        "mode": draw(st.sampled_from(MODES)),
        "allow_opponent_colours": draw(st.booleans()),
        # A small move limit one time in four: games also end by the board filling up.
        "max_moves": draw(st.integers(1, 10)) if draw(st.integers(0, 3)) == 0 else None,
    }


def start(board: Board, seed: int, rules: dict) -> tuple[Game, oracle.Game]:
    return Game(board, seed, **rules), oracle.Game(board, seed, **rules)


def outcome(game: oracle.Game) -> str:
    if not game.is_over:
        return "ongoing"
    return "drawn" if game.winner is None else "won"


def assert_same(fast: Game, slow: oracle.Game, when: str) -> None:
    """Every observable of the two games is identical."""
    board = fast.board
    owner = fast.owner
    assert owner.dtype == np.int8, when
    assert owner.tolist() == slow.owner, f"owner differs {when}"
    assert fast.cell_colours.tolist() == slow.cell_colours, f"cell_colours differ {when}"
    assert fast.player_colours.tolist() == slow.player_colours, f"player_colours differ {when}"
    assert fast.scores.tolist() == slow.scores, f"scores differ {when}"
    assert (fast.to_move, fast.moves, fast.history) == (slow.to_move, slow.moves, slow.history), (
        when
    )
    assert (fast.is_over, fast.winner, fast.outcome) == (
        slow.is_over,
        slow.winner,
        outcome(slow),
    ), when
    assert fast.legal_moves() == slow.legal_moves(), f"legal moves differ {when}"
    for q in range(board.players):
        gains = [fast.gain(q, c) for c in range(board.colour_count)]
        assert gains == [slow.gain(q, c) for c in range(board.colour_count)], (
            f"gains of player {q} differ {when}"
        )
        assert fast.reach(q) == slow.reach(q), f"reach of player {q} differs {when}"
        assert fast.margin(q) == slow.margin(q), f"margin of player {q} differs {when}"


def refuse_on_both(fast: Game, slow: oracle.Game, colour: object, when: str) -> None:
    """``colour`` raises InvalidMove on both sides and changes neither game."""
    fast_before, slow_before = fast.copy(), slow.copy()
    with pytest.raises(InvalidMove):
        slow.play(colour)  # type: ignore[arg-type]
    with pytest.raises(InvalidMove):
        fast.play(colour)  # type: ignore[arg-type]
    assert_same(fast, slow, f"after the refused colour {colour!r} {when}")
    assert_same(fast_before, slow, f"(fast game changed by {colour!r}) {when}")
    assert_same(fast, slow_before, f"(oracle changed by {colour!r}) {when}")


def play_prefix(data: st.DataObject, fast: Game, slow: oracle.Game, most: int) -> None:
    """Up to ``most`` hypothesis-drawn legal moves, played on both games."""
    for _ in range(data.draw(st.integers(0, most), label="prefix length")):
        if slow.is_over:
            break
        colour = data.draw(st.sampled_from(slow.legal_moves()), label="prefix move")
        fast.play(colour)
        slow.play(colour)


# -- states after every move -----------------------------------------------------------------


@given(data=st.data())
def test_states_agree_after_every_move_and_illegal_moves_are_refused_by_both(data):
    board = data.draw(boards(), label="board")
    rules = data.draw(rule_sets(), label="rules")
    fast, slow = start(board, data.draw(SEEDS, label="seed"), rules)
    k = board.colour_count
    assert_same(fast, slow, "at the start")
    event(f"{board.kind.split(':')[0]} board, {'> 64' if board.cells > 64 else '<= 64'} cells")
    for move in range(60):
        when = f"after {move} moves"
        if slow.is_over:
            length = "< 5" if move < 5 else "5 to 19" if move < 20 else ">= 20"
            event(f"game over after {length} moves")
            for colour in (0, k - 1, -1):
                refuse_on_both(fast, slow, colour, f"once the game is over ({when})")
            break
        legal = slow.legal_moves()
        if data.draw(st.integers(0, 3), label="try an illegal colour") == 0:
            illegal = sorted(set(range(-3, k + 4)) - set(legal))
            refuse_on_both(fast, slow, data.draw(st.sampled_from(illegal), label="illegal"), when)
        colour = data.draw(st.sampled_from(legal), label="move")
        numpy_type = data.draw(st.sampled_from([int, np.int64, np.uint8]), label="colour type")
        fast.play(numpy_type(colour))
        slow.play(colour)
        assert_same(fast, slow, f"after move {move + 1} (colour {colour})")


@pytest.mark.parametrize(
    ("board", "mode"),
    [
        # 1,141 cells: masks of 18 words, beyond the engine's unrolled sizes (up to 16).
        (Board.hexagon(19, seed=1, players=4, colour_count=16), "adjacent"),
        (Board.hexagon(19, seed=1, players=4, colour_count=16), "flood"),
        (Board.grid(40, 30, seed=2, players=3, colour_count=4), "flood"),
        (Board.hex_rectangle(30, 20, seed=3, colour_count=16), "adjacent"),
    ],
    ids=["hex19-adjacent", "hex19-flood", "grid40x30-flood", "hexrect30x20-adjacent"],
)
def test_large_boards_with_up_to_sixteen_colours_agree(board, mode):
    rules = {"mode": mode, "allow_opponent_colours": mode == "flood", "max_moves": 10}
    fast, slow = start(board, 99, rules)
    rng = np.random.default_rng(7)
    for move in range(10):
        assert_same(fast, slow, f"after {move} moves")
        if slow.is_over:
            break
        for policy, steps in (("random", None), ("light", 4)):
            expected = oracle.playouts(slow, 2, policy=policy, steps=steps)
            got = playouts(fast, 2, policy=policy, steps=steps, threads=2)
            assert (got.wins.tolist(), got.draws, got.margin_sum) == (
                list(expected.wins),
                expected.draws,
                expected.margin_sum,
            ), f"{policy} playouts after {move} moves"
        assert AI("greedy").choose(fast) == oracle.choose_greedy(slow)
        assert AI("fractal").choose(fast) == oracle.choose_fractal(slow)
        colour = int(rng.choice(slow.legal_moves()))
        fast.play(colour)
        slow.play(colour)


# The rules, "A move", step 1: a colour that is not an integer in 0..k-1 is refused with
# InvalidMove and the state unchanged. Kept apart from the test above so that a failure here
# names the offending value directly.
@pytest.mark.parametrize("colour", [2**63, -(2**63) - 1, 2**64])
def test_a_huge_integer_colour_is_an_invalid_move_on_both_sides(colour):
    fast, slow = start(Board.hexagon(2, seed=3), 0, {})
    refuse_on_both(fast, slow, colour, "at the start")


@pytest.mark.parametrize("colour", [1.0, 2.5, "1", True, None])
def test_a_colour_that_is_not_an_integer_is_an_invalid_move_on_both_sides(colour):
    fast, slow = start(Board.hexagon(2, seed=3), 0, {})
    refuse_on_both(fast, slow, colour, "at the start")


# -- playouts --------------------------------------------------------------------------------


@given(data=st.data())
def test_playout_tallies_agree_for_both_policies_and_one_or_two_threads(data):
    board = data.draw(boards(big=False), label="board")
    rules = data.draw(rule_sets(), label="rules")
    fast, slow = start(board, data.draw(SEEDS, label="game seed"), rules)
    play_prefix(data, fast, slow, 12)
    policy = data.draw(st.sampled_from(oracle.POLICIES), label="policy")
    n = data.draw(st.integers(0, 30), label="n")
    seed = data.draw(st.none() | SEEDS, label="seed")
    steps = data.draw(st.none() | st.integers(0, 15), label="steps") if policy == "light" else None
    expected = oracle.playouts(slow, n, policy=policy, seed=seed, steps=steps)
    for threads in (1, 2):
        got = playouts(fast, n, policy=policy, seed=seed, steps=steps, threads=threads)
        assert (got.playouts, got.player) == (n, slow.to_move)
        assert got.wins.tolist() == list(expected.wins), f"wins with {threads} thread(s)"
        assert (got.draws, got.margin_sum) == (expected.draws, expected.margin_sum), threads
    assert_same(fast, slow, "after the playouts (both games untouched)")


# -- AIs -------------------------------------------------------------------------------------


@given(data=st.data())
def test_stateless_ais_choose_the_oracle_colour(data):
    board = data.draw(boards(big=False), label="board")
    rules = data.draw(rule_sets(), label="rules")
    fast, slow = start(board, 0, rules)
    play_prefix(data, fast, slow, 12)
    if slow.is_over:
        for agent in (AI("random"), AI("greedy"), AI("fractal"), AI("minimax", depth=1)):
            with pytest.raises(InvalidMove):
                agent.choose(fast)
        with pytest.raises(InvalidMove):
            oracle.choose_greedy(slow)
        return
    seed = data.draw(SEEDS, label="random AI seed")
    assert AI("random", seed=seed).choose(fast) == oracle.choose_random(slow, seed)
    assert AI("greedy").choose(fast) == oracle.choose_greedy(slow)
    assert AI("fractal").choose(fast) == oracle.choose_fractal(slow)
    for depth in (1, 2, 3):
        for heuristic in oracle.HEURISTICS:
            chosen = AI("minimax", depth=depth, heuristic=heuristic).choose(fast)
            assert chosen == oracle.choose_minimax(slow, depth, heuristic), (depth, heuristic)
    assert_same(fast, slow, "after the AIs chose (both games untouched)")


@given(data=st.data())
def test_mcts_agrees_move_after_move_with_tree_reuse(data):
    board = data.draw(boards(big=False), label="board")
    assume(board.cells <= 30)
    rules = data.draw(rule_sets(), label="rules")
    fast, slow = start(board, 0, rules)
    play_prefix(data, fast, slow, 3)
    options = {
        "iterations": data.draw(st.integers(5, 60), label="iterations"),
        "c": data.draw(st.sampled_from([0.0, 0.5, 1.0, 1.41]) | st.floats(0.0, 3.0), label="c"),
        "playouts": data.draw(st.integers(1, 3), label="playouts"),
        "trees": data.draw(st.integers(1, 3), label="trees"),
        "reuse": data.draw(st.booleans(), label="reuse"),
        "margin": data.draw(st.sampled_from([0.0, 0.5, 1.0]) | st.floats(0.0, 1.0), label="w"),
        "greedy": data.draw(st.integers(0, 12), label="greedy"),
        "bias": data.draw(st.sampled_from([0.0, 3.0]) | st.floats(0.0, 10.0), label="bias"),
        "plan": data.draw(st.sampled_from([0, 1, 2, 50]), label="plan"),
    }
    seed = data.draw(SEEDS, label="seed")
    threads = data.draw(st.sampled_from([1, 2]), label="threads")
    fast_agent = AI("mcts", seed=seed, threads=threads, **options)
    slow_agent = oracle.Mcts(seed=seed, **options)
    k = board.colour_count
    for move in range(4):
        if slow.is_over:
            break
        decisive = oracle.decisive_move(slow)
        chosen = fast_agent.choose(fast)
        assert chosen == slow_agent.choose(slow), f"choice {move}"
        assert decisive in (None, chosen)
        visits = fast_agent.root_visits()
        assert len(visits) == 16
        assert visits[:k] == slow_agent.root_visits(), f"root visits after choice {move}"
        assert visits[k:] == [0] * (16 - k)
        # No search for a decisive move or a planned one (the oracle then keeps no trees).
        searched = options["iterations"] * options["trees"] if slow_agent.roots else 0
        assert decisive is None or searched == 0
        assert fast_agent.last_iterations == searched
        # Mostly the chosen colour; sometimes another one, so the next search may reuse a
        # less explored subtree (or none).
        colour = data.draw(st.sampled_from([chosen, *slow.legal_moves()]), label="played")
        fast.play(colour)
        slow.play(colour)
        assert_same(fast, slow, f"after move {move}")


@pytest.mark.parametrize(("board_seed", "first"), [(1, 0), (1, 1), (4, 1)])
def test_mcts_plans_against_greedy_replies_like_the_oracle(board_seed, first):
    # Against an opponent that has only played greedy colours, MCTS follows a line that wins
    # against greedy replies without searching; the engine and the oracle find the same lines.
    board = Board.hexagon(3, seed=board_seed)
    fast, slow = Game(board), oracle.Game(board)
    fast_agent = AI("mcts", iterations=20, seed=7, plan=100)
    slow_agent = oracle.Mcts(20, seed=7, plan=100)
    planned = 0
    while not slow.is_over:
        if slow.to_move == first:
            decisive = oracle.decisive_move(slow)
            colour = fast_agent.choose(fast)
            assert colour == slow_agent.choose(slow), f"move {slow.moves}"
            assert fast_agent.root_visits()[: board.colour_count] == slow_agent.root_visits()
            if decisive is None and fast_agent.last_iterations == 0:
                planned += 1
                assert slow_agent.line[slow.moves] == colour
        else:
            colour = oracle.choose_greedy(slow)
        fast.play(colour)
        slow.play(colour)
    assert planned > 0
    assert slow.winner == first


def test_mcts_plans_only_against_greedy_opponents():
    board = Board.hexagon(3, seed=1)
    game = oracle.Game(board)
    assert not oracle.opponents_played_greedy(game)  # no move seen yet
    game.play(oracle.choose_greedy(game))
    assert oracle.opponents_played_greedy(game)
    other = oracle.Game(board)
    other.play(next(c for c in other.legal_moves() if c != oracle.choose_greedy(other)))
    assert not oracle.opponents_played_greedy(other)
    fast = Game(board)
    fast.play(other.history[0])
    searched = AI("mcts", iterations=20, seed=7, plan=100)
    searched.choose(fast)
    assert searched.last_iterations == 20  # no plan against a colour that was not greedy
    assert oracle.winning_line(game, 0) is None
    line = oracle.winning_line(game, 50)
    assert line is not None
    for colour in line:
        if game.to_move == 0:
            assert colour == oracle.choose_greedy(game)
        game.play(colour)
    assert game.winner == 1


# -- the batch API ---------------------------------------------------------------------------


def assert_batch_same(
    state: batch.BatchState, games: list[oracle.Game], rewards: list[list[float]], when: str
) -> None:
    k = state.board.colour_count
    assert state.owner.dtype == np.int8
    assert state.owner.tolist() == [g.owner for g in games], f"owner {when}"
    assert state.player_colours.tolist() == [g.player_colours for g in games], when
    assert state.current_player.tolist() == [g.to_move for g in games], when
    assert state.moves.tolist() == [g.moves for g in games], when
    assert state.terminated.tolist() == [g.is_over for g in games], when
    assert state.winner.tolist() == [-1 if g.winner is None else g.winner for g in games], when
    assert state.rewards.dtype == np.float32
    assert state.rewards.tolist() == rewards, f"rewards {when}"
    legal = [[c in g.legal_moves() for c in range(k)] for g in games]
    assert state.legal_action_mask.tolist() == legal, f"legal_action_mask {when}"
    observation = state.observation
    assert observation.dtype == np.bool_
    assert observation.tolist() == [g.observation() for g in games], f"observation {when}"


@given(data=st.data())
def test_batch_steps_equal_oracle_games(data):
    board = data.draw(boards(big=False), label="board")
    rules = data.draw(rule_sets(), label="rules")
    size = data.draw(st.integers(1, 4), label="batch")
    state = batch.init(board, size, **rules)
    games = [oracle.Game(board, **rules) for _ in range(size)]
    players = board.players
    assert_batch_same(state, games, [[0.0] * players] * size, "at the start")
    for step in range(12):
        was_over = [g.is_over for g in games]
        actions = [
            data.draw(st.integers(-5, 20), label="ignored action")
            if g.is_over
            else data.draw(st.sampled_from(g.legal_moves()), label="action")
            for g in games
        ]
        dtype = data.draw(st.sampled_from([np.int64, np.int32, np.int16]), label="dtype")
        threads = data.draw(st.sampled_from([None, 1, 2]), label="threads")
        state = batch.step(state, np.array(actions, dtype=dtype), threads=threads)
        rewards = []
        for game, action, over in zip(games, actions, was_over, strict=True):
            row = [0.0] * players
            if not over:
                game.play(action)
                if game.winner is not None:
                    row = [1.0 if q == game.winner else -1.0 for q in range(players)]
            rewards.append(row)
        assert_batch_same(state, games, rewards, f"after step {step + 1}")
        if all(was_over):
            break


# -- matches ---------------------------------------------------------------------------------


def oracle_match(
    board: Board,
    *,
    games: int,
    seed: int,
    rules: dict,
    agents: tuple[str, str],
    mcts_iterations: int,
) -> tuple[int, int, int, list[int], list[tuple[int, int]]]:
    """The match played by hand with oracle games per docs/annexation-rules.md, "Matches":
    (wins of A, wins of B, draws, moves per game, cells of A and B per game)."""
    wins, draws, moves, cells = [0, 0], 0, [], []
    for g in range(games):
        pair_seed = Stream(seed, "annexation.match.board", g // 2).block(0)[0]
        game = oracle.Game(board.recoloured(pair_seed), **rules)
        ai_seeds = [Stream(seed, "annexation.match.ai", g, side).block(0)[0] for side in (0, 1)]
        trees = [oracle.Mcts(mcts_iterations, seed=ai_seeds[side]) for side in (0, 1)]
        first = g % 2  # the side that is player 0
        while not game.is_over:
            side = (game.to_move + first) % 2
            name = agents[side]
            if name == "greedy":
                colour = oracle.choose_greedy(game)
            elif name == "fractal":
                colour = oracle.choose_fractal(game)
            elif name == "random":
                colour = oracle.choose_random(game, ai_seeds[side])
            else:
                colour = trees[side].choose(game)
            game.play(colour)
        if game.winner is None:
            draws += 1
        else:
            wins[(game.winner + first) % 2] += 1
        moves.append(game.moves)
        scores = game.scores
        cells.append((scores[first], scores[1 - first]))
    return wins[0], wins[1], draws, moves, cells


@FEWER
@given(
    seed=SEEDS,
    games=st.integers(1, 7),
    rules=rule_sets(),
    agents=st.sampled_from(
        [("greedy", "fractal"), ("fractal", "greedy"), ("random", "mcts"), ("mcts", "greedy")]
    ),
    threads=st.sampled_from([1, 2]),
)
def test_play_match_equals_the_fixtures_played_by_hand(seed, games, rules, agents, threads):
    board = Board.hexagon(2, colour_count=5, seed=11)
    iterations = 8
    specs = [f"mcts:iterations={iterations}" if a == "mcts" else a for a in agents]
    result = play_match(
        specs[0], specs[1], board=board, games=games, seed=seed, threads=threads, **rules
    )
    wins_a, wins_b, draws, moves, cells = oracle_match(
        board, games=games, seed=seed, rules=rules, agents=agents, mcts_iterations=iterations
    )
    assert (result.wins_a, result.wins_b, result.draws) == (wins_a, wins_b, draws)
    assert result.games == games
    assert result.mean_moves == float(np.mean(moves))
    assert result.mean_cells_a == float(np.mean([a for a, _ in cells]))
    assert result.mean_cells_b == float(np.mean([b for _, b in cells]))
