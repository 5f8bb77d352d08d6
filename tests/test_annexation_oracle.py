"""The annexation oracle against docs/annexation-rules.md: hand-worked positions for every rule
(setup, flood and adjacent annexing, walls, legality, each end rule), refused moves, the AIs'
tie rules, minimax against a plain minimax without pruning, playout tallies and their random
streams, and MCTS (its first iterations by hand, determinism and tree reuse)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from edge_lists import csr_lists
from stratagem.annexation import oracle
from stratagem.annexation.oracle import WIN, Game, Mcts, PlayoutTally, playouts
from stratagem.errors import InvalidBoard, InvalidMove, InvalidParameter
from stratagem.rng.oracle import Stream, det_ln


@dataclass(frozen=True)
class TestBoard:
    """A stand-in for stratagem.annexation.board.Board with the attributes the oracle reads."""

    __test__ = False  # not a test class, whatever its name

    cells: int
    offsets: tuple[int, ...]
    neighbours: tuple[int, ...]
    colours: tuple[int, ...]
    colour_count: int
    players: int
    starts: tuple[int, ...]


def board(n, edges, colours, k, starts):
    """A board from an undirected edge list, CSR rows sorted ascending."""
    offsets, neighbours = csr_lists(n, edges)
    return TestBoard(n, tuple(offsets), tuple(neighbours), tuple(colours), k, len(starts), starts)


def path_edges(n):
    return [(i, i + 1) for i in range(n - 1)]


def grid_edges(rows, cols):
    edges = [(r * cols + c, r * cols + c + 1) for r in range(rows) for c in range(cols - 1)]
    return edges + [
        (r * cols + c, (r + 1) * cols + c) for r in range(rows - 1) for c in range(cols)
    ]


def neighbours(b, i):
    return b.neighbours[b.offsets[i] : b.offsets[i + 1]]


def region(b, cell):
    seen, stack = {cell}, [cell]
    while stack:
        i = stack.pop()
        for j in neighbours(b, i):
            if j not in seen and b.colours[j] == b.colours[cell]:
                seen.add(j)
                stack.append(j)
    return seen


def generated(n, edges, k, starts, seed):
    """The rules' colour draw: colours[i] is draw i of Cursor(Stream(seed,
    "annexation.colours", attempt)).uniform_below(k); the first attempt whose start cells lie
    in different regions is kept."""
    for attempt in range(1000):
        cursor = Stream(seed, "annexation.colours", attempt).cursor()
        b = board(n, edges, [cursor.uniform_below(k) for _ in range(n)], k, starts)
        if all(b.starts[r] not in region(b, s) for q, s in enumerate(starts) for r in range(q)):
            return b
    raise AssertionError("no colouring found")  # pragma: no cover


def snapshot(game):
    return (
        list(game.owner),
        list(game.player_colours),
        game.to_move,
        game.moves,
        list(game.history),
        game.is_over,
        game.winner,
    )


# Path 0-1-2-3-4-5, colours 0 1 1 1 2 3, k = 4; player 0 at cell 0, player 1 at cell 5.
PATH6 = board(6, path_edges(6), (0, 1, 1, 1, 2, 3), 4, (0, 5))
# The 2x3 grid   0 1 2   with colours   0 1 2   k = 4; player 0 at 0, player 1 at 5.
#                3 4 5                  1 2 3
GRID = board(6, grid_edges(2, 3), (0, 1, 2, 1, 2, 3), 4, (0, 5))


# --- setup ----------------------------------------------------------------------------------


def test_setup_grows_each_start_by_its_own_colour():
    # Path 0-1-2-3-4 coloured 0 0 2 1 1, k = 3, starts 0 and 4. Flood: player 0 takes its
    # region {0, 1}; player 1 takes {3, 4}. Scores 2 and 2 of 5: nobody has more than half,
    # and cell 2 can still be annexed, so the game runs.
    b = board(5, path_edges(5), (0, 0, 2, 1, 1), 3, (0, 4))
    game = Game(b)
    assert game.owner == [0, 0, -1, 1, 1]
    assert game.player_colours == [0, 1]
    assert game.scores == [2, 2]
    assert game.cell_colours == [0, 0, 2, 1, 1]
    assert (game.to_move, game.moves, game.history) == (0, 0, [])
    assert not game.is_over
    assert game.max_moves == 4 * 5


def test_setup_in_adjacent_mode_takes_one_step_only():
    # Path 0-1-2-3-4 coloured 0 0 0 1 2, starts 0 and 4. Flood: player 0 takes {0, 1, 2},
    # 3 of 5 cells, and wins before the first move. Adjacent: only cell 1 (one step).
    b = board(5, path_edges(5), (0, 0, 0, 1, 2), 3, (0, 4))
    flood = Game(b)
    assert flood.owner == [0, 0, 0, -1, 1]
    assert flood.is_over
    assert flood.winner == 0
    assert not flood.is_draw
    assert flood.legal_moves() == []
    adjacent = Game(b, mode="adjacent")
    assert adjacent.owner == [0, 0, -1, -1, 1]
    assert adjacent.scores == [2, 1]
    assert not adjacent.is_over


def test_starts_need_not_be_in_cell_order():
    # Path 0-1-2 coloured 0 1 2 with k = 3, starts 1 and 0: player 0 (cell 1, colour 1) owns
    # nothing more; player 1 owns cell 0. Cell 2 is unowned with an owned neighbour.
    game = Game(board(3, path_edges(3), (0, 1, 2), 3, (1, 0)))
    assert game.owner == [1, 0, -1]
    assert game.player_colours == [1, 0]
    assert game.legal_moves() == [2]


# --- moves: flood, adjacent, walls ----------------------------------------------------------


def test_flood_takes_the_whole_connected_colour_and_wins_with_more_than_half():
    # Player 0 plays 1: cells 1, 2 and 3 (colour 1, connected through colour 1) -> 4 of 6.
    game = Game(PATH6)
    assert game.legal_moves() == [1, 2]  # not 0 (own), not 3 (player 1's)
    assert game.gain(0, 1) == 3
    game.play(1)
    assert game.owner == [0, 0, 0, 0, -1, 1]
    assert game.cell_colours == [1, 1, 1, 1, 2, 3]
    assert game.scores == [4, 1]
    assert (game.history, game.moves, game.to_move) == ([1], 1, 1)
    assert game.is_over
    assert game.winner == 0


def test_adjacent_takes_one_step_and_can_draw():
    # Adjacent mode on the same path, opponent colours allowed.
    game = Game(PATH6, mode="adjacent", allow_opponent_colours=True)
    game.play(1)  # player 0: only cell 1 (cell 2 is two steps away) -> scores 2, 1
    assert game.owner == [0, 0, -1, -1, -1, 1]
    assert game.gain(0, 1) == 1  # cell 2 is now next to the territory
    game.play(2)  # player 1: cell 4 -> 2, 2
    assert game.owner == [0, 0, -1, -1, 1, 1]
    game.play(0)  # player 0 must leave colour 1 (its own): colour 0 takes nothing
    assert game.owner == [0, 0, -1, -1, 1, 1]
    game.play(1)  # player 1: cell 3 -> 2, 3 (player 0 shows 0 now)
    assert game.owner == [0, 0, -1, 1, 1, 1]
    assert game.player_colours == [0, 1]
    assert game.legal_moves() == [1, 2, 3]  # player 1's colour 1 allowed
    game.play(1)  # player 0 takes cell 2 -> 3, 3; every cell owned: a draw
    assert game.owner == [0, 0, 0, 1, 1, 1]
    assert game.is_over
    assert game.is_draw
    assert game.winner is None
    assert game.margin(0) == game.margin(1) == 0


def test_adjacent_without_opponent_colours_is_blocked_from_the_colour_it_needs():
    # As above without allow_opponent_colours: after 1, 2, 0, 1 player 1 shows colour 1, so
    # player 0 may not play it: cell 2 stays out of reach for now.
    game = Game(PATH6, mode="adjacent")
    for colour in (1, 2, 0, 1):
        game.play(colour)
    assert game.player_colours == [0, 1]
    assert game.legal_moves() == [2, 3]
    with pytest.raises(InvalidMove, match="colour 1 is player 1's colour"):
        game.play(1)


def test_opponent_cells_are_walls():
    # Path 0-1-2-3 coloured 0 1 2 2, k = 4, starts 0 and 1: colour 2 lies behind player 1.
    game = Game(board(4, path_edges(4), (0, 1, 2, 2), 4, (0, 1)))
    assert game.gain(0, 2) == 0
    assert game.reach(0) == 0
    game.play(3)  # player 0 takes nothing (no colour 3 cell next to it)
    assert game.owner == [0, 1, -1, -1]
    game.play(2)  # player 1 takes cells 2 and 3: 3 of 4
    assert game.owner == [0, 1, 1, 1]
    assert game.winner == 1


def test_owned_cells_are_never_taken():
    # The grid with opponent colours allowed: player 0 plays 1 (cells 1 and 3), then player 1
    # plays 1 too: the cells showing 1 are player 0's, so player 1 takes nothing.
    game = Game(GRID, allow_opponent_colours=True)
    game.play(1)
    assert game.owner == [0, 0, -1, 0, -1, 1]
    assert game.gain(1, 1) == 0
    game.play(1)
    assert game.owner == [0, 0, -1, 0, -1, 1]
    assert game.player_colours == [1, 1]
    assert game.cell_colours == [1, 1, 2, 1, 2, 1]


def test_legal_moves_with_and_without_opponent_colours():
    assert Game(GRID).legal_moves() == [1, 2]  # not 0 (own) nor 3 (player 1's)
    assert Game(GRID, allow_opponent_colours=True).legal_moves() == [1, 2, 3]
    # Three players on k = 5: player 0 at colour 0 may not play 1 or 2 unless allowed.
    b = board(5, path_edges(5), (1, 0, 3, 4, 2), 5, (1, 0, 4))
    assert Game(b).legal_moves() == [3, 4]
    assert Game(b, allow_opponent_colours=True).legal_moves() == [1, 2, 3, 4]


# --- end rules ------------------------------------------------------------------------------


def test_every_cell_owned_draw():
    # Grid: player 0 plays 1 (cells 1, 3: 3 of 6, not more than half); player 1 plays 2
    # (cells 2, 4): 3 and 3, every cell owned -> drawn.
    game = Game(GRID)
    game.play(1)
    assert not game.is_over
    assert game.scores == [3, 1]
    game.play(2)
    assert game.owner == [0, 0, 1, 0, 1, 1]
    assert game.is_over
    assert game.is_draw
    assert game.legal_moves() == []


def test_every_cell_owned_unique_most_cells_wins_without_half():
    # Three players on path 0-1-2-3 coloured 0 1 2 3, k = 4, starts 0, 2, 3. Player 0 may only
    # play 1 (2 and 3 are the others'): 2, 1, 1 of 4 -- not more than half, but every cell is
    # owned and player 0 has the unique most.
    game = Game(board(4, path_edges(4), (0, 1, 2, 3), 4, (0, 2, 3)))
    assert game.legal_moves() == [1]
    game.play(1)
    assert game.scores == [2, 1, 1]
    assert game.is_over
    assert game.winner == 0
    assert game.margin(0) == 1
    assert game.margin(1) == -1


def test_move_limit_win_and_draw():
    # max_moves = 1 on the grid: 1 gives 3 against 1 (not more than half): player 0 wins at
    # the limit; 2 takes nothing: 1 against 1, drawn.
    won = Game(GRID, max_moves=1)
    won.play(1)
    assert won.is_over
    assert won.winner == 0
    drawn = Game(GRID, max_moves=1)
    drawn.play(2)
    assert drawn.scores == [1, 1]
    assert drawn.is_over
    assert drawn.is_draw
    running = Game(GRID, max_moves=2)
    running.play(2)
    assert not running.is_over


# --- refused moves and parameters -----------------------------------------------------------


@pytest.mark.parametrize(
    ("colour", "fragment"),
    [
        (0, "colour 0 is player 0's own colour"),
        (3, "colour 3 is player 1's colour"),
        (4, "colour 4 is out of range 0..3"),
        (-1, "colour -1 is out of range 0..3"),
        (1.0, "not an integer"),
        (True, "not an integer"),
        ("1", "not an integer"),
    ],
)
def test_bad_moves_are_refused_and_change_nothing(colour, fragment):
    # Grid: player 0 shows 0, player 1 shows 3.
    game = Game(GRID)
    before = snapshot(game)
    with pytest.raises(InvalidMove, match=fragment):
        game.play(colour)
    assert snapshot(game) == before
    game.play(1)  # the game goes on normally after a refusal
    assert game.owner == [0, 0, -1, 0, -1, 1]


def test_a_move_after_the_end_is_refused():
    game = Game(PATH6)
    game.play(1)
    before = snapshot(game)
    with pytest.raises(InvalidMove, match="colour 2 cannot be played: the game is over"):
        game.play(2)
    assert snapshot(game) == before
    for choose in (oracle.choose_greedy, oracle.choose_fractal, Mcts(5).choose):
        with pytest.raises(InvalidMove, match="game is over"):
            choose(game)
    with pytest.raises(InvalidMove, match="game is over"):
        oracle.choose_random(game, 1)
    with pytest.raises(InvalidMove, match="game is over"):
        oracle.choose_minimax(game, 2)


def test_numpy_colours_are_accepted():
    np = pytest.importorskip("numpy")
    game = Game(
        TestBoard(
            6,
            np.array(GRID.offsets, dtype=np.int64),
            np.array(GRID.neighbours, dtype=np.int64),
            np.array(GRID.colours, dtype=np.uint8),
            np.int64(4),
            2,
            np.array(GRID.starts, dtype=np.int64),
        )
    )
    game.play(np.uint8(1))
    assert game.owner == [0, 0, -1, 0, -1, 1]
    assert type(game.history[0]) is int


def test_bad_parameters_and_boards():
    with pytest.raises(InvalidParameter, match="mode"):
        Game(GRID, mode="chain")
    with pytest.raises(InvalidParameter, match="max_moves must be at least 1"):
        Game(GRID, max_moves=0)
    with pytest.raises(InvalidParameter, match="max_moves must be an integer"):
        Game(GRID, max_moves=2.0)
    with pytest.raises(InvalidParameter, match="seed"):
        Game(GRID, seed=-1)
    # Starts 0 and 2 in the same region (path 0-1-2 all colour 0).
    with pytest.raises(InvalidBoard, match="same region"):
        Game(board(4, path_edges(4), (0, 0, 0, 1), 3, (0, 2)))
    with pytest.raises(InvalidBoard, match="not connected"):
        Game(board(4, [(0, 1), (2, 3)], (0, 1, 2, 0), 3, (0, 3)))
    with pytest.raises(InvalidBoard, match="must exceed players"):
        Game(board(3, path_edges(3), (0, 1, 0), 3, (0, 1, 2)))
    with pytest.raises(InvalidParameter, match="colour"):
        Game(GRID).gain(0, 4)
    with pytest.raises(InvalidParameter, match="player"):
        Game(GRID).reach(2)
    with pytest.raises(InvalidParameter, match="depth"):
        oracle.choose_minimax(Game(GRID), 0)
    with pytest.raises(InvalidParameter, match="heuristic"):
        oracle.choose_minimax(Game(GRID), 1, "area")
    with pytest.raises(InvalidParameter, match="policy"):
        playouts(Game(GRID), 1, policy="heavy")
    with pytest.raises(InvalidParameter, match="steps"):
        playouts(Game(GRID), 1, steps=3)
    with pytest.raises(InvalidParameter, match="iterations"):
        Mcts(0)
    with pytest.raises(InvalidParameter, match="c must be finite"):
        Mcts(1, c=math.inf)


# --- margins, reach, observation ------------------------------------------------------------


def test_gain_reach_margin_by_hand():
    # Grid at the start: player 0 (cell 0) borders cells 1 and 3, both colour 1.
    game = Game(GRID)
    assert [game.gain(0, c) for c in range(4)] == [0, 2, 0, 0]
    assert [game.gain(1, c) for c in range(4)] == [0, 0, 2, 0]
    assert game.reach(0) == game.reach(1) == 2
    assert game.margin(0) == 0
    game.play(1)
    assert [game.gain(0, c) for c in range(4)] == [0, 0, 2, 0]  # cells 2 and 4
    assert game.margin(0) == 2
    assert game.margin(1) == -2


def test_adjacent_reach_counts_the_unowned_cells_next_to_the_territory():
    # Adjacent: a 4-cycle 0-1-2-3-0 plus 1-4, colours 0 1 1 2 3: player 0 (cell 0) borders
    # 1 and 3; flood would reach 2 through 1 as well, adjacent does not.
    b = board(5, [(0, 1), (1, 2), (2, 3), (3, 0), (1, 4)], (0, 1, 1, 2, 3), 4, (0, 4))
    assert Game(b, mode="adjacent").reach(0) == 2
    assert Game(b).reach(0) == 3


def test_observation_rotates_ownership_planes():
    game = Game(GRID)
    game.play(1)  # owner 0 0 -1 0 -1 1, player 1 to move
    obs = game.observation()
    assert len(obs) == 6
    assert all(len(row) == 4 + 2 for row in obs)
    # Colours shown: 1 1 2 1 2 3.
    assert [row[:4].index(True) for row in obs] == [1, 1, 2, 1, 2, 3]
    assert all(sum(row[:4]) == 1 for row in obs)
    # Plane 4 is the player to move (1), plane 5 the next (0).
    assert [row[4] for row in obs] == [False, False, False, False, False, True]
    assert [row[5] for row in obs] == [True, True, False, True, False, False]


# --- the simple AIs -------------------------------------------------------------------------

# A star-like board: 0 borders 1 (colour 1) and 2 (colour 2); 2 borders 3 (player 1) and
# 4 (colour 1). Player 0 at 0 may play 1 or 2, each taking one cell.
FORK = board(5, [(0, 1), (0, 2), (2, 3), (2, 4)], (0, 1, 2, 3, 1), 4, (0, 3))


def test_greedy_takes_the_largest_gain_lowest_colour_on_ties():
    assert oracle.choose_greedy(Game(GRID)) == 1  # gains: 1 -> 2, 2 -> 0
    game = Game(FORK)
    assert [game.gain(0, c) for c in game.legal_moves()] == [1, 1]
    assert oracle.choose_greedy(game) == 1


def test_fractal_takes_the_largest_reach_after_the_move():
    # After 1: territory {0, 1}, unowned neighbour 2 only -> reach 1. After 2: territory
    # {0, 2}, unowned neighbours 1 and 4, both colour 1 -> reach 2. Fractal plays 2.
    assert oracle.choose_fractal(Game(FORK)) == 2


def test_fractal_ties_go_to_the_larger_gain_then_the_lowest_colour():
    # Grid: after 1 the reach of player 0 is 2 (cells 2, 4 of colour 2); after 2 it is 2
    # (cells 1, 3). Reach ties; gain 2 against 0 -> 1.
    assert oracle.choose_fractal(Game(GRID)) == 1
    # Cell 0 (player 0) borders 1 (colour 1) and 2 (colour 2); player 1 sits at 3 beyond 1.
    # Playing 1 or 2 takes one cell and leaves reach 1 (1 -> cell 2; 2 -> cell 1): gains tie
    # too, so the lowest colour, 1.
    b = board(4, [(0, 1), (0, 2), (1, 3)], (0, 1, 2, 3), 4, (0, 3))
    game = Game(b)
    assert [game.gain(0, c) for c in (1, 2)] == [1, 1]
    assert oracle.choose_fractal(game) == 1


def test_fractal_gain_tie_break_can_pick_a_higher_colour():
    # The grid with colours 0 2 1 / 2 1 3: 2 takes cells 1 and 3 (gain 2) and leaves reach 2
    # (cells 2 and 4, colour 1); 1 takes nothing and leaves reach 2 (cells 1 and 3). Reach
    # ties, the larger gain wins: 2.
    b = board(6, grid_edges(2, 3), (0, 2, 1, 2, 1, 3), 4, (0, 5))
    assert oracle.choose_fractal(Game(b)) == 2
    assert oracle.choose_greedy(Game(b)) == 2


def test_random_ai_draws_from_its_stream():
    game = Game(GRID, allow_opponent_colours=True)
    legal = game.legal_moves()
    chosen = set()
    for seed in range(30):
        expected = legal[Stream(seed, "annexation.ai.random", 0).cursor().halves().below(3)]
        assert oracle.choose_random(game, seed) == expected
        chosen.add(expected)
    assert chosen == set(legal)
    game.play(1)
    expected = [0, 1, 2][Stream(7, "annexation.ai.random", 1).cursor().halves().below(3)]
    assert oracle.choose_random(game, 7) == expected


# --- minimax --------------------------------------------------------------------------------


def plain_value(state, r, heuristic):
    if state.is_over:
        if state.winner is None:
            return state.margin(r)
        if state.winner == r:  # the quicker win, the later loss
            return WIN - state.moves + state.margin(r)
        return -WIN + state.moves + state.margin(r)
    if heuristic == "cells":
        return state.margin(r)
    h = [state.scores[s] + state.reach(s) for s in range(len(state.scores))]
    return h[r] - max(h[s] for s in range(len(h)) if s != r)


def plain_minimax(state, depth, r, heuristic):
    """Paranoid minimax without pruning."""
    if state.is_over or depth == 0:
        return plain_value(state, r, heuristic)
    values = []
    for c in state.legal_moves():
        child = state.copy()
        child.play(c)
        values.append(plain_minimax(child, depth - 1, r, heuristic))
    return max(values) if state.to_move == r else min(values)


@st.composite
def small_games(draw, max_cells=10):
    """A small connected board (a random tree plus extra edges) coloured by the rules'
    generator, with a few random moves played."""
    n = draw(st.integers(4, max_cells))
    edges = {(draw(st.integers(0, i - 1)), i) for i in range(1, n)}
    extra = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=n))
    edges |= {(min(x, y), max(x, y)) for x, y in extra if x != y}
    p = draw(st.integers(2, 3))
    k = draw(st.integers(p + 1, 5))
    starts = tuple(draw(st.permutations(range(n)))[:p])
    b = generated(n, sorted(edges), k, starts, draw(st.integers(0, 2**64 - 1)))
    game = Game(
        b,
        seed=draw(st.integers(0, 2**64 - 1)),
        mode=draw(st.sampled_from(oracle.MODES)),
        allow_opponent_colours=draw(st.booleans()),
        max_moves=draw(st.one_of(st.none(), st.integers(1, 12))),
    )
    for _ in range(draw(st.integers(0, 2))):
        if game.is_over:
            break
        game.play(draw(st.sampled_from(game.legal_moves())))
    return game


@given(small_games(), st.integers(1, 4), st.sampled_from(oracle.HEURISTICS))
def test_alpha_beta_equals_plain_minimax(game, depth, heuristic):
    if game.is_over:
        return
    r = game.to_move
    values = []
    for c in game.legal_moves():
        child = game.copy()
        child.play(c)
        values.append(plain_minimax(child, depth - 1, r, heuristic))
    best = max(values)
    colour, value = oracle.minimax(game, depth, heuristic)
    assert value == best
    assert colour == game.legal_moves()[values.index(best)]  # the first of the best
    assert oracle.choose_minimax(game, depth, heuristic) == colour


def test_minimax_by_hand():
    # PATH6: 1 wins at once (4 of 6 cells, margin 3, after 1 move): WIN + 3 - 1; 2 takes
    # nothing.
    assert oracle.minimax(Game(PATH6), 1) == (1, WIN + 3 - 1)
    # Grid, depth 1, "cells": 1 -> margin 2, 2 -> margin 0. "reach": after 1, h(0) = 3 + 2
    # (cells 2, 4), h(1) = 1 + 2 (cells 2, 4 of colour 2 next to 5) -> 2.
    assert oracle.minimax(Game(GRID), 1, "cells") == (1, 2)
    assert oracle.minimax(Game(GRID), 1, "reach") == (1, 2)
    # Depth 2 on the grid: after 1, player 1 answers 0 (margin 2 for player 0) or 2 (cells 2
    # and 4: a draw, value 0): min 0. After 2 (nothing taken), player 1 may play 0 or 1, which
    # take nothing: margin 0. Both are 0: the first, 1.
    assert oracle.minimax(Game(GRID), 2) == (1, 0)


# --- whole games: invariants of every rule --------------------------------------------------


@given(small_games(), st.lists(st.integers(0, 15), max_size=60))
def test_invariants_along_a_game(game, picks):
    b = game.board
    regions = [frozenset(region(b, i)) for i in range(b.cells)]
    for pick in picks:
        if game.is_over:
            assert game.legal_moves() == []
            break
        legal = game.legal_moves()
        assert legal == sorted(legal)
        assert game.player_colours[game.to_move] not in legal
        q, c = game.to_move, legal[pick % len(legal)]
        before = list(game.owner)
        expected_gain = game.gain(q, c)
        game.play(c)
        taken = [i for i in range(b.cells) if before[i] != game.owner[i]]
        assert len(taken) == expected_gain
        for i in taken:
            # Only unowned cells of colour c change hands, and only to the mover.
            assert before[i] == -1
            assert game.owner[i] == q
            assert b.colours[i] == c
            if game.mode == "adjacent":
                assert any(before[j] == q for j in neighbours(b, i))
        if game.mode == "flood":
            # Flood takes whole connected colour sets: no unowned cell of colour c is left next
            # to the mover, and every region is unowned or wholly one player's.
            for i in range(b.cells):
                if game.owner[i] == q:
                    assert all(game.owner[j] != -1 or b.colours[j] != c for j in neighbours(b, i))
            for cells in regions:
                assert len({game.owner[i] for i in cells}) == 1
        shown = game.cell_colours
        assert all(shown[i] == game.player_colours[o] for i, o in enumerate(game.owner) if o >= 0)
        assert sum(game.scores) == sum(o != -1 for o in game.owner)
        assert game.moves == len(game.history) <= game.max_moves
        if game.is_over:
            scores = game.scores
            if game.winner is not None:
                others = [s for r, s in enumerate(scores) if r != game.winner]
                assert scores[game.winner] > max(others)
            else:
                assert scores.count(max(scores)) > 1
        else:
            assert game.moves < game.max_moves
            assert all(2 * s <= b.cells for s in game.scores)
            assert -1 in game.owner


# --- playouts -------------------------------------------------------------------------------


def reference_random_tally(game, n, seed):
    """The random playouts written out again from the document's stream names."""
    wins, draws, margin_sum = [0] * len(game.scores), 0, 0
    for i in range(n):
        cursor = Stream(seed, "annexation.playout", game.moves, i).cursor().halves()
        state = game.copy()
        while not state.is_over:
            legal = state.legal_moves()
            state.play(legal[cursor.below(len(legal))])
        if state.winner is None:
            draws += 1
        else:
            wins[state.winner] += 1
        margin_sum += state.margin(game.to_move)
    return PlayoutTally(tuple(wins), draws, margin_sum, n)


@given(small_games(), st.integers(0, 6), st.integers(0, 2**64 - 1))
def test_random_playouts_are_consistent(game, n, seed):
    before = snapshot(game)
    tally = playouts(game, n, seed=seed)
    assert snapshot(game) == before  # played on a copy
    assert sum(tally.wins) + tally.draws == tally.n == n
    assert len(tally.wins) == len(game.scores)
    assert tally == playouts(game, n, seed=seed)
    assert tally == reference_random_tally(game, n, seed)
    assert playouts(game, n) == playouts(game, n, seed=game.seed)
    light = playouts(game, n, policy="light", seed=seed)
    assert sum(light.wins) + light.draws == n
    assert light == playouts(game, n, policy="light", seed=seed)


def test_light_playouts_with_no_steps_count_the_current_state():
    game = Game(GRID)
    game.play(1)  # 3 against 1, player 1 to move
    tally = playouts(game, 5, policy="light", steps=0)
    assert tally == PlayoutTally((5, 0), 0, 5 * -2, 5)
    assert tally.mean_margin == -2.0
    start = playouts(Game(GRID), 4, policy="light", steps=0)
    assert start == PlayoutTally((0, 0), 4, 0, 4)


def test_light_playouts_one_step_by_hand():
    # Grid, player 0 to move: colour 1 takes cells 1 and 3 (3 against 1: a win, margin 2);
    # 0, 2 and 3 take nothing (a draw, margin 0).
    n, seed = 40, 11
    draws = [Stream(seed, "annexation.light", 0, i).cursor().halves().below(4) for i in range(n)]
    won = draws.count(1)
    assert 0 < won < n
    tally = playouts(Game(GRID), n, policy="light", seed=seed, steps=1)
    assert tally == PlayoutTally((won, 0), n - won, 2 * won, n)


def test_light_playouts_stop_once_every_cell_is_owned():
    # Default steps = max_moves - m0 (24 here, 1 with max_moves = 1).
    tally = playouts(Game(GRID), 20, policy="light", seed=3)
    assert sum(tally.wins) + tally.draws == 20
    assert tally == playouts(Game(GRID), 20, policy="light", seed=3, steps=24)
    assert playouts(Game(GRID), 20, policy="light", seed=3, steps=10**6) == playouts(
        Game(GRID), 20, policy="light", seed=3, steps=500
    )
    limited = Game(GRID, max_moves=1)
    one_step = playouts(limited, 20, policy="light", seed=3)
    assert one_step == playouts(Game(GRID), 20, policy="light", seed=3, steps=1)


def test_playouts_from_a_finished_game_count_its_result():
    won = Game(PATH6)
    won.play(1)
    assert playouts(won, 3) == PlayoutTally((3, 0), 0, 3 * -3, 3)  # player 1 to move
    assert playouts(won, 3, policy="light") == PlayoutTally((3, 0), 0, 3 * -3, 3)
    drawn = Game(GRID)
    drawn.play(1)
    drawn.play(2)
    assert playouts(drawn, 4) == PlayoutTally((0, 0), 4, 0, 4)
    assert playouts(drawn, 4, policy="light", steps=9) == PlayoutTally((0, 0), 4, 0, 4)


# --- MCTS -----------------------------------------------------------------------------------

# A 4x4 grid coloured by the rules' generator, starts in opposite corners; no colour wins at
# once in its first moves, so MCTS searches (a decisive move skips the search).
GRID16 = generated(16, grid_edges(4, 4), 4, (0, 15), 2)


def test_mcts_first_iterations_visit_every_child_then_follow_uct():
    game = Game(GRID16, allow_opponent_colours=True)
    legal = game.legal_moves()
    assert len(legal) == 3
    for count in (1, 2):
        # len(legal) iterations: the first expands the root and visits the first child, the
        # others visit the unvisited children (score inf) in colour order.
        first = Mcts(len(legal), playouts=count, bias=0.0, seed=4)
        first.choose(game)
        root = first.roots[0]
        assert root.mover is None
        visits = root.N
        assert visits == len(legal) * count
        assert [child.colour for child in root.children] == legal
        assert [child.N for child in root.children] == [count] * len(legal)
        assert all(child.mover == 0 for child in root.children)
        assert all(0 <= child.W <= count for child in root.children)
        # One more iteration (the same streams for the first ones): without progressive bias
        # the scores share the exploration term, so the largest W wins, the first in colour
        # order on ties.
        more = Mcts(len(legal) + 1, playouts=count, bias=0.0, seed=4)
        more.choose(game)
        ws = [child.W for child in root.children]
        favourite = ws.index(max(ws))
        again = more.roots[0].children
        assert [child.N for child in again] == [
            2 * count if j == favourite else count for j in range(len(legal))
        ]
        assert [child.W for j, child in enumerate(again) if j != favourite] == [
            w for j, w in enumerate(ws) if j != favourite
        ]


def playout_value_sum(state, cursor, count, player, *, greedy=6, w=0.5):
    """The summed values for ``player`` of ``count`` greedy-biased playouts from ``state``,
    all reading ``cursor`` in turn, rebuilt from the document's words."""
    total = 0.0
    cells = len(state.owner)
    for _ in range(count):
        playout = state.copy()
        while not playout.is_over:
            legal = playout.legal_moves()
            j = cursor.below(len(legal) + greedy)
            playout.play(legal[j] if j < len(legal) else oracle.choose_greedy(playout))
        won = playout.winner
        result = 0.5 if won is None else 1.0 if won == player else 0.0
        total += (1.0 - w) * result + w * ((cells + playout.margin(player)) / (2.0 * cells))
    return total


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_mcts_first_iteration_reads_its_stream(seed):
    # One iteration per tree: expand the root, play its first child, then the playouts of
    # Stream(seed, "annexation.mcts", moves, t, 0), one cursor shared by the playouts.
    game = Game(GRID16)
    game.play(game.legal_moves()[0])
    mcts = Mcts(1, playouts=3, trees=2, seed=seed)
    mcts.choose(game)
    first = game.legal_moves()[0]
    after = game.copy()
    after.play(first)
    for t, root in enumerate(mcts.roots):
        cursor = Stream(seed, "annexation.mcts", 1, t, 0).cursor().halves()
        value = playout_value_sum(after, cursor, 3, 1)
        child = root.children[0]
        assert (child.colour, child.mover, child.N, child.W) == (first, 1, 3, value)
        assert child.gain == game.gain(1, first)
        assert (root.N, root.W) == (3, 0)
        assert [c.N for c in root.children[1:]] == [0] * (len(root.children) - 1)


def test_mcts_uct_score_by_hand():
    # Rebuild the selection rule from the children's statistics and check the next visit.
    game = Game(GRID16)
    mcts = Mcts(9, c=1.4, seed=2)
    mcts.choose(game)
    children = mcts.roots[0].children
    n_root = mcts.roots[0].N
    assert [ch.gain for ch in children] == [game.gain(0, ch.colour) for ch in children]
    scores = [
        ch.W / ch.N + 1.4 * math.sqrt(det_ln(float(n_root)) / ch.N) + 3.0 * ch.gain / (16.0 * ch.N)
        for ch in children
    ]
    expected = scores.index(max(scores))
    bigger = Mcts(10, c=1.4, seed=2)
    bigger.choose(game)
    grew = [
        b.N - a.N for a, b in zip(children, bigger.roots[0].children, strict=True) if b.N != a.N
    ]
    assert grew == [1]
    assert bigger.roots[0].children[expected].N == children[expected].N + 1


def test_mcts_is_deterministic_and_counts_every_visit():
    game = Game(GRID16)
    one = Mcts(30, playouts=2, trees=2, seed=9)
    two = Mcts(30, playouts=2, trees=2, seed=9)
    assert one.choose(game) == two.choose(game)
    assert one.root_visits() == two.root_visits()
    visits = one.root_visits()
    assert sum(visits) == 30 * 2 * 2
    assert all(visits[c] == 0 for c in range(4) if c not in game.legal_moves())
    # Tree 0 of a 2-tree search is the 1-tree search: each tree reads its own streams.
    alone = Mcts(30, playouts=2, trees=1, seed=9)
    alone.choose(game)
    fresh = Mcts(30, playouts=2, trees=2, seed=9, reuse=False)
    fresh.choose(game)
    assert [c.N for c in fresh.roots[0].children] == [c.N for c in alone.roots[0].children]


def test_mcts_choice_is_the_most_visited_lowest_on_ties():
    game = Game(GRID16, allow_opponent_colours=True)
    for seed in range(3):
        mcts = Mcts(7, seed=seed, reuse=False)
        chosen = mcts.choose(game)
        visits = mcts.root_visits()
        assert chosen == visits.index(max(visits))


def test_mcts_picks_an_immediate_win():
    # PATH6: colour 1 wins at once; colour 2 does not.
    assert Mcts(20, seed=1).choose(Game(PATH6)) == 1
    mcts = Mcts(20, seed=1, trees=3, playouts=2)
    assert mcts.choose(Game(PATH6)) == 1
    assert mcts.roots == []  # a decisive move is played without a search
    assert mcts.root_visits() == [0] * 4


def test_mcts_reuses_an_expanded_path():
    game = Game(GRID16)
    mcts = Mcts(60, seed=3)
    colour = mcts.choose(game)
    old_root = mcts.roots[0]
    child = old_root.child(colour)
    assert child is not None
    assert child.children is not None
    game.play(colour)
    reply = max(child.children, key=lambda node: node.N)
    assert reply.children is not None  # visited often enough to be expanded
    game.play(reply.colour)
    kept = reply.N
    mcts.choose(game)
    assert mcts.roots[0] is reply
    visits = mcts.roots[0].N
    assert visits == kept + 60
    assert kept > 0
    assert mcts.histories[0] == game.history
    # Without reuse, or from another history, a fresh tree: exactly 60 visits.
    fresh = Mcts(60, seed=3, reuse=False)
    fresh.choose(Game(GRID16))
    fresh.choose(Game(GRID16))
    assert fresh.roots[0].N == 60
    other = Game(GRID16)
    other.play(next(c for c in other.legal_moves() if c != colour))
    mcts.choose(other)
    assert mcts.roots[0].N == 60


def test_mcts_reuse_with_the_same_state_keeps_the_tree():
    game = Game(GRID16)
    mcts = Mcts(10, seed=6)
    mcts.choose(game)
    root = mcts.roots[0]
    mcts.choose(game)
    assert mcts.roots[0] is root
    assert root.N == 20


def test_mcts_unexpanded_descendant_is_reused():
    # After len(legal) iterations every root child has been visited once and none expanded:
    # a move to one of them is still "a child in the tree", so its one visit is kept.
    game = Game(GRID16)
    iterations = len(game.legal_moves())
    mcts = Mcts(iterations, seed=6, plan=0)  # plan=0: searched whatever the reply
    mcts.choose(game)
    game.play(game.legal_moves()[-1])
    mcts.choose(game)
    assert mcts.roots[0].N - iterations == 1
