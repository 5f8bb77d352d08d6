"""The outpost oracle against docs/outpost-rules.md, from first principles: small hand-made
positions on an (almost) empty 100 x 100 map, every expected value worked out by hand in the
comments, then whole games for determinism and invariants."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from outpost_helpers import BAD_PARAMETERS
from stratagem.errors import InvalidParameter
from stratagem.outpost import oracle
from stratagem.outpost.oracle import (
    DISPUTED,
    NEUTRAL,
    LogEntry,
    OracleGame,
    Outpost,
    View,
    afford,
    control,
    cover,
    cut_off,
    disband_choice,
    frontier_moves,
    gain_loss,
    legal_options,
    lookahead_moves,
    lookahead_value,
    random_moves,
    reached,
    season_demand,
    spread_moves,
)
from stratagem.rng.oracle import Stream

EXTERNAL = (None, None, None, None)


def land() -> np.ndarray:
    """A map without water."""
    return np.zeros((100, 100), dtype=bool)


def wet(*cells: tuple[int, int]) -> np.ndarray:
    """A map whose only water cells are ``cells`` given as (x, y)."""
    water = land()
    for x, y in cells:
        water[y, x] = True
    return water


def homes(*empires: int) -> list[Outpost]:
    """An outpost on the home of each of ``empires``, its id the empire's number."""
    return [Outpost(e, e, *oracle.HOMES[e]) for e in empires]


def homes_and(*extra: Outpost) -> list[Outpost]:
    """One outpost per home (ids 0..3) and ``extra``."""
    return [*homes(0, 1, 2, 3), *extra]


def blank_control() -> np.ndarray:
    return np.full((100, 100), NEUTRAL, dtype=np.int8)


def make_view(outposts, *, water=None, r=7, turn=1) -> View:
    water = land() if water is None else water
    return View(water, control(water, outposts, r), tuple(outposts), r, 12, 3, turn)


def lake_map(seed: int = 3) -> np.ndarray:
    """About 20% water in square lakes, homes and their neighbours dry."""
    rng = np.random.default_rng(seed)
    water = land()
    for _ in range(150):
        x, y = rng.integers(0, 97, size=2)
        water[y : y + rng.integers(1, 5), x : x + rng.integers(1, 5)] = True
    for hx, hy in oracle.HOMES:
        water[max(hy - 2, 0) : hy + 3, max(hx - 2, 0) : hx + 3] = False
    return water


# --- Control ------------------------------------------------------------------------------


def test_control_lone_outpost_diamond_and_radius_limit():
    grid = control(land(), [Outpost(0, 0, 50, 50)], 2)
    assert grid.dtype == np.int8
    assert grid.shape == (100, 100)
    # The diamond of radius 2 has 1 + 3 + 5 + 3 + 1 = 13 cells.
    assert (grid == 0).sum() == 13
    assert grid[50, 52] == 0
    assert grid[51, 51] == 0
    assert grid[48, 50] == 0
    assert grid[50, 53] == NEUTRAL
    assert grid[51, 52] == NEUTRAL
    assert (grid == NEUTRAL).sum() == 10_000 - 13


def test_control_corner_is_cut_by_the_grid():
    grid = control(land(), [Outpost(0, 2, 99, 99)], 2)
    # x + y distance <= 2 from the corner: (99,99), (98,99), (97,99), (99,98), (98,98), (99,97).
    assert (grid == 2).sum() == 6
    assert grid[97, 99] == 2
    assert grid[98, 98] == 2
    assert grid[97, 98] == NEUTRAL


def test_control_radius_zero_and_no_outposts():
    assert (control(land(), [], 7) == NEUTRAL).all()
    grid = control(land(), [Outpost(0, 3, 10, 20)], 0)
    assert (grid == 3).sum() == 1
    assert grid[20, 10] == 3


def test_control_ties_are_disputed():
    # Empire 0 at (10, 10), empire 1 at (14, 10), r = 3.
    grid = control(land(), [Outpost(0, 0, 10, 10), Outpost(1, 1, 14, 10)], 3)
    assert grid[10, 12] == DISPUTED  # distance 2 to both
    assert grid[11, 12] == DISPUTED  # distance 3 to both
    assert grid[10, 11] == 0  # 1 against 3
    assert grid[10, 13] == 1  # 3 against 1
    assert grid[12, 12] == NEUTRAL  # distance 4 to both
    # The nearest decides even when a farther outpost ties with another empire.
    grid = control(land(), [Outpost(0, 0, 10, 10), Outpost(1, 1, 12, 10), Outpost(2, 0, 13, 10)], 3)
    assert grid[10, 12] == 1  # distance 0 to empire 1's outpost
    assert grid[10, 11] == DISPUTED  # distance 1 to (10, 10) and to (12, 10)


def test_control_same_empire_at_the_same_distance_is_not_disputed():
    grid = control(land(), [Outpost(0, 0, 10, 10), Outpost(5, 0, 14, 10)], 3)
    assert grid[10, 12] == 0
    assert (grid == DISPUTED).sum() == 0


def test_control_co_located_enemies_dispute_their_whole_diamond():
    grid = control(land(), [Outpost(0, 0, 30, 30), Outpost(1, 2, 30, 30)], 2)
    assert (grid == DISPUTED).sum() == 13
    assert (grid == 0).sum() == 0
    assert (grid == 2).sum() == 0


def test_control_water_cells_are_controlled_and_counted():
    water = wet((51, 50), (50, 52))
    grid = control(water, [Outpost(0, 0, 50, 50)], 2)
    assert grid[50, 51] == 0
    assert grid[52, 50] == 0
    assert oracle._cells_of(water.tolist(), grid.tolist(), 0) == (11, 2)


@given(
    st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 99), st.integers(0, 99)),
        min_size=0,
        max_size=6,
    ),
    st.integers(0, 12),
)
def test_control_definition_holds_cell_by_cell(placed, r):
    outposts = [Outpost(i, e, x, y) for i, (e, x, y) in enumerate(placed)]
    grid = control(land(), outposts, r)
    rng = np.random.default_rng(len(placed) * 100 + r)
    for x, y in rng.integers(0, 100, size=(50, 2)):
        d = [abs(o.x - x) + abs(o.y - y) for o in outposts]
        if not d or min(d) > r:
            assert grid[y, x] == NEUTRAL
        else:
            empires = {o.empire for o, di in zip(outposts, d, strict=True) if di == min(d)}
            assert grid[y, x] == (empires.pop() if len(empires) == 1 else DISPUTED)


# --- Supply lines -------------------------------------------------------------------------


def test_reached_default_stops_at_a_disputed_wall_fringe_steps_onto_it():
    grid = blank_control()
    grid[:, 3] = DISPUTED  # a full column no empire can pass
    default = reached(land(), grid, 0, fringe=False)
    fringe = reached(land(), grid, 0, fringe=True)
    assert default[:, :3].all()
    assert not default[:, 3:].any()
    # Fringe: the land neighbours of reached passable cells are reached, not expanded.
    assert fringe[:, :4].all()
    assert not fringe[:, 4:].any()
    outposts = [Outpost(0, 0, 0, 0), Outpost(4, 0, 3, 0), Outpost(5, 0, 5, 0), Outpost(6, 0, 2, 7)]
    assert cut_off(land(), grid, outposts, fringe=False) == [4, 5]
    assert cut_off(land(), grid, outposts, fringe=True) == [5]


def test_reached_enemy_cells_block_own_cells_pass_water_is_never_reached():
    grid = blank_control()
    grid[:, 3] = 1  # empire 1 controls the column
    grid[5, 3] = 0  # except one own cell: a gap for empire 0
    water = wet((1, 1))
    result = reached(water, grid, 0, fringe=False)
    assert result[5, 3]
    assert result[0, 50]
    assert not result[0, 3]
    assert not result[1, 1]
    # For empire 1 the own column is passable, the own-cell gap of empire 0 is not.
    result = reached(water, grid, 1, fringe=False)
    assert result[0, 3]
    assert not result[5, 3]


def test_home_not_passable_default_reaches_nothing_fringe_keeps_the_home():
    grid = blank_control()
    grid[0, 0] = 1  # empire 0's home is controlled by empire 1
    assert not reached(land(), grid, 0, fringe=False).any()
    fringe = reached(land(), grid, 0, fringe=True)
    assert fringe.sum() == 1
    assert fringe[0, 0]
    outposts = [Outpost(0, 0, 0, 0), Outpost(4, 0, 1, 0), Outpost(1, 1, 99, 0)]
    assert cut_off(land(), grid, outposts, fringe=False) == [0, 4]
    assert cut_off(land(), grid, outposts, fringe=True) == [4]


def test_water_wall_cuts_in_both_rules():
    water = land()
    water[:, 3] = True
    outposts = [Outpost(2, 0, 5, 5), Outpost(0, 0, 0, 0)]
    assert cut_off(water, blank_control(), outposts, fringe=False) == [2]
    assert cut_off(water, blank_control(), outposts, fringe=True) == [2]


@given(st.integers(0, 2**32 - 1), st.booleans())
def test_cut_off_is_the_outposts_not_reached(seed, fringe):
    # Random 10 x 10 blocks of control and water, random outposts: cut_off (which stops its
    # searches once every outpost is found) agrees with the full searches.
    rng = np.random.default_rng(seed)
    grid = np.kron(rng.integers(-2, 4, size=(10, 10)), np.ones((10, 10), dtype=int))
    grid = grid.astype(np.int8)
    water = np.kron(rng.random((10, 10)) < 0.2, np.ones((10, 10), dtype=bool))
    for hx, hy in oracle.HOMES:
        water[hy, hx] = False
    outposts = [
        Outpost(i, int(e), int(x), int(y))
        for i, (e, x, y) in enumerate(rng.integers(0, [4, 100, 100], size=(8, 3)))
    ]
    world, cells = oracle._Map.of(water.tolist()), grid.tolist()
    masks = [oracle._reached(world, cells, e, fringe) for e in range(4)]
    expected = [o.id for o in outposts if not masks[o.empire][o.y][o.x]]
    assert oracle._cut_off(world, cells, outposts, fringe) == expected


# --- Season -------------------------------------------------------------------------------


def test_afford_counts_land_and_water_cells_controlled_alone():
    water = land()
    grid = blank_control()
    # Empire 0: 25 land cells (x 0..4, y 0..4) and 7 water cells (x 10..16, y 0).
    grid[0:5, 0:5] = 0
    water[0, 10:17] = True
    grid[0, 10:17] = 0
    grid[0, 20:30] = DISPUTED  # counts for nobody
    water[0, 20:30] = True
    assert afford(grid, water, 0, 12, 3) == 1 + min(25 // 12, 7 // 3)  # 3
    assert afford(grid, water, 0, 12, 4) == 2  # 1 + min(2, 1)
    assert afford(grid, water, 0, 26, 1) == 1  # 1 + min(0, 7)
    assert afford(grid, water, 1, 1, 1) == 1  # nothing controlled
    outposts = [*homes(0, 1), Outpost(5, 1, 98, 0), *homes(2)]
    # Empire 0: 1 < 3 builds; 1: 2 > 1 disbands; 2: 1 == 1; 3: 0 < 1 builds.
    assert season_demand(grid, water, outposts, 12, 3) == [1, -1, 0, 1]


def home_water_map() -> np.ndarray:
    """Water at (3, 0) and (0, 3): with r = 3 the home diamond of empire 0 (x + y <= 3, 10
    cells) has 8 land and 2 water cells; with L = 6, W = 2 it affords 1 + min(1, 1) = 2."""
    return wet((3, 0), (0, 3))


def test_season_builds_on_home_every_tenth_turn_only():
    game = OracleGame(home_water_map(), r=3, L=6, W=2, T=20, players=EXTERNAL)
    for _ in range(9):
        game.step()
    assert game.log == []
    assert len(game.outposts) == 4
    game.step()  # turn 10: empire 0 affords 2, has 1; the others (10 land, 0 water) afford 1
    assert game.log == [LogEntry(10, 0, "build", 4, "built outpost 4 at home (0, 0)")]
    assert game.outposts[-1] == Outpost(4, 0, 0, 0)
    assert game.next_id == 5
    assert game.history["outposts"][10].tolist() == [2, 1, 1, 1]
    assert game.history["outposts"][9].tolist() == [1, 1, 1, 1]
    while game.step():
        pass
    assert len(game.log) == 1  # turn 20: 2 outposts for 2 affordable, nothing happens
    assert game.turn == 20
    assert game.finished


def test_season_builds_take_ids_in_empire_order_and_an_empty_empire_rebuilds():
    # Water near homes 0 and 2, rotated: (3, 0), (0, 3) and (96, 99), (99, 96).
    water = wet((3, 0), (0, 3), (96, 99), (99, 96))
    start = homes(0, 1, 2)  # empire 3 has nothing
    game = OracleGame.from_position(water, start, r=3, L=6, W=2, T=10, players=EXTERNAL)
    assert game.next_id == 3
    for _ in range(10):
        game.step()
    assert [(e.empire, e.kind, e.outpost) for e in game.log] == [
        (0, "build", 3),
        (2, "build", 4),
        (3, "build", 5),
    ]
    assert game.log[2].message == "built outpost 5 at home (0, 99)"


def test_season_disbands_by_external_answer_or_largest_id():
    # Empire 1 has three outposts on dry land: it controls no water, so it affords 1.
    start = homes_and(Outpost(5, 1, 90, 0), Outpost(6, 1, 80, 0))
    game = OracleGame.from_position(land(), start, r=2, T=40, players=EXTERNAL)
    for _ in range(9):
        game.step()
    game.step(external_disbands={1: 5})
    assert game.log == [LogEntry(10, 1, "disband", 5, "disbanded outpost 5 at (90, 0)")]
    for _ in range(10):
        game.step()  # turn 20, no answer: the largest id goes
    assert game.log[-1] == LogEntry(20, 1, "disband", 6, "disbanded outpost 6 at (80, 0)")
    for _ in range(10):
        game.step()  # turn 30: one outpost, one affordable
    assert len(game.log) == 2
    assert [o.id for o in game.outposts] == [0, 1, 2, 3]


def test_season_bad_disband_answer_is_logged_and_the_largest_id_goes():
    start = homes_and(Outpost(5, 1, 90, 0), Outpost(6, 1, 80, 0))
    game = OracleGame.from_position(land(), start, r=2, T=10, players=EXTERNAL)
    for _ in range(9):
        game.step()
    game.step(external_disbands={1: 0})  # outpost 0 belongs to empire 0
    assert game.log == [
        LogEntry(
            10,
            1,
            "player",
            -1,
            "empire 1 chose outpost 0 to disband, not one of its outposts; "
            "outpost 6 (its largest id) goes",
        ),
        LogEntry(10, 1, "disband", 6, "disbanded outpost 6 at (80, 0)"),
    ]


def test_season_random_player_disbands_by_its_stream():
    start = homes_and(Outpost(5, 1, 90, 0), Outpost(6, 1, 80, 0))
    seed = 11
    index = Stream(seed, "outpost.disband", 1, 10).cursor().below(3)
    expected = [1, 5, 6][index]
    view = make_view(start, r=2, turn=10)
    assert disband_choice("random", view, 1, seed, 10) == expected
    # In a game the random player moves too; only the season's choice is checked here.
    game = OracleGame.from_position(
        land(), start, r=2, T=10, players=(None, "random", None, None), seed=seed
    )
    for _ in range(9):
        game.step()
    ids_before = {o.id for o in game.outposts if o.empire == 1}
    chosen = disband_choice("random", game.view(), 1, seed, 10)
    game.step()
    assert ids_before == {1, 5, 6}
    assert [(e.kind, e.outpost) for e in game.log] == [("disband", chosen)]
    assert chosen == expected  # the draw does not depend on where the outposts went


def test_disband_choice_fewest_alone_cells_ties_to_the_largest_id():
    # r = 2: the home diamond (99, 0) has 6 cells, all covered once. Outposts 5 at (90, 5)
    # and 6 at (90, 6) overlap: each covers 5 cells alone (its far tip row, the two cells of
    # the next row beside the shared one, the two ends of its middle row).
    outposts = [Outpost(1, 1, 99, 0), Outpost(5, 1, 90, 5), Outpost(6, 1, 90, 6)]
    view = make_view(outposts, r=2)
    grid = cover(outposts, 1, 2)
    assert grid[5, 90] == 2
    assert grid[3, 90] == 1
    assert grid[5, 88] == 1
    assert grid[5, 89] == 2
    for kind in ("spread", "frontier", "lookahead"):
        assert disband_choice(kind, view, 1, 0, 10) == 6
    # Move 6 away: now 1 (6 cells) against 5 and 6 with 13 each: outpost 1 goes.
    view = make_view([Outpost(1, 1, 99, 0), Outpost(5, 1, 90, 5), Outpost(6, 1, 50, 50)], r=2)
    assert disband_choice("spread", view, 1, 0, 10) == 1


# --- Moves --------------------------------------------------------------------------------


def test_legal_options_stay_first_then_n_e_s_w():
    water = wet((1, 0))
    assert legal_options(water, 0, 0) == [0, 3]  # N and W off the grid, E water
    assert legal_options(land(), 50, 50) == [0, 1, 2, 3, 4]
    assert legal_options(land(), 99, 99) == [0, 1, 4]


def test_illegal_moves_are_logged_and_the_outpost_stays():
    game = OracleGame(wet((1, 0)), r=2, T=5, players=EXTERNAL)
    game.step({0: [1], 1: [2], 2: [3]})
    assert game.log == [
        LogEntry(1, 0, "illegal", 0, "outpost 0 at (0, 0) cannot move north off the grid"),
        LogEntry(1, 1, "illegal", 1, "outpost 1 at (99, 0) cannot move east off the grid"),
        LogEntry(1, 2, "illegal", 2, "outpost 2 at (99, 99) cannot move south off the grid"),
    ]
    game.step({0: [2], 3: [1]})
    assert game.log[3:] == [
        LogEntry(2, 0, "illegal", 0, "outpost 0 at (0, 0) cannot move east onto water"),
    ]
    assert game.outposts[3] == Outpost(3, 3, 0, 98)  # the legal move north was played
    assert game.outposts[0] == Outpost(0, 0, 0, 0)


def test_bad_external_moves_are_logged_and_every_outpost_stays():
    game = OracleGame(land(), r=2, T=5, players=EXTERNAL)
    game.step({0: [3, 3], 1: [7], 2: "south", 3: [4]})
    assert [entry.message for entry in game.log] == [
        "empire 0 answered 2 directions for 1 outposts; all its outposts stay",
        "empire 1 answered direction 7 for outpost 1, not one of 0..4; all its outposts stay",
        "empire 2 answered 'south', not a list of directions; all its outposts stay",
        "outpost 3 at (0, 99) cannot move west off the grid",
    ]
    assert [(e.kind, e.outpost) for e in game.log] == [
        ("player", -1),
        ("player", -1),
        ("player", -1),
        ("illegal", 3),
    ]
    assert [(o.x, o.y) for o in game.outposts] == list(oracle.HOMES)


def test_answers_for_built_in_players_or_unknown_empires_are_refused():
    game = OracleGame(land(), T=5, players=("spread", None, None, None))
    with pytest.raises(InvalidParameter, match="empire 0 is played by the built-in player"):
        game.step({0: [0]})
    with pytest.raises(InvalidParameter, match="not an empire"):
        game.step({4: [0]})
    assert game.turn == 0


def test_external_moves_in_a_season_turn_cover_the_new_outpost():
    game = OracleGame(home_water_map(), r=3, L=6, W=2, T=10, players=EXTERNAL)
    for _ in range(9):
        game.step()
    game.step({0: [3, 2]})  # outpost 0 south, the new outpost 4 east
    assert game.outposts[0] == Outpost(0, 0, 0, 1)
    assert game.outposts[-1] == Outpost(4, 0, 1, 0)


def test_sequential_moves_let_later_empires_see_earlier_moves():
    # r = 1. Empire 1's frontier outpost at its home (99, 0) weighs S (99, 1) and W (98, 0):
    # both gain 2 cells and lose 1, both are 1 step from a target, so S wins by order.
    # Empire 0's outpost at (99, 4) steps north to (99, 3), within distance 2 of (99, 1):
    # if empire 1 sees that move (sequential), S is in danger and W (still safe) wins.
    start = [Outpost(1, 1, 99, 0), Outpost(4, 0, 99, 4)]
    before = make_view(start, r=1)
    assert frontier_moves(before, 1) == [3]
    after = make_view([Outpost(1, 1, 99, 0), Outpost(4, 0, 99, 3)], r=1)
    assert frontier_moves(after, 1) == [4]
    players = (None, "frontier", None, None)
    for sequential, cell in ((False, (99, 1)), (True, (98, 0))):
        game = OracleGame.from_position(
            land(), start, r=1, T=3, players=players, sequential_moves=sequential
        )
        game.step({0: [1]})
        assert {o.id: (o.x, o.y) for o in game.outposts} == {1: cell, 4: (99, 3)}


# --- Supply lines in a game ---------------------------------------------------------------


def test_supply_cuts_co_located_enemies_by_default_not_with_fringe():
    # r = 0: the shared cell (50, 50) is disputed; its four neighbours are neutral.
    start = [*homes(0, 1), Outpost(4, 0, 50, 50), Outpost(5, 1, 50, 50)]
    game = OracleGame.from_position(land(), start, r=0, T=3, players=EXTERNAL)
    game.step()
    assert game.log == [
        LogEntry(1, 0, "cut", 4, "outpost 4 at (50, 50) cut off from home"),
        LogEntry(1, 1, "cut", 5, "outpost 5 at (50, 50) cut off from home"),
    ]
    assert [o.id for o in game.outposts] == [0, 1]
    assert game.control[50, 50] == NEUTRAL  # recomputed after the cut
    game = OracleGame.from_position(land(), start, r=0, T=3, players=EXTERNAL, supply_fringe=True)
    game.step()
    assert game.log == []
    assert len(game.outposts) == 4


def test_supply_an_enemy_on_the_home_cell():
    # Empire 1's outpost 5 shares empire 0's home (0, 0): the home is disputed (r = 1).
    start = [Outpost(0, 0, 0, 0), Outpost(1, 1, 99, 0), Outpost(5, 1, 0, 0)]
    game = OracleGame.from_position(land(), start, r=1, T=3, players=EXTERNAL)
    game.step()
    assert [(e.kind, e.outpost) for e in game.log] == [("cut", 0), ("cut", 5)]
    game = OracleGame.from_position(land(), start, r=1, T=3, players=EXTERNAL, supply_fringe=True)
    game.step()
    # Fringe: outpost 0 is on its home, always reached. Outpost 5: (0, 0)'s neighbours (1, 0)
    # and (0, 1) are disputed too (distance 1 to both), so no passable cell touches it.
    assert [(e.kind, e.outpost) for e in game.log] == [("cut", 5)]


# --- Shared quantities --------------------------------------------------------------------


def test_gain_and_loss_at_the_corner():
    # r = 1 at (0, 0): E to (1, 0) gains (2, 0) and (1, 1), loses (0, 1).
    grid = cover([Outpost(0, 0, 0, 0)], 0, 1)
    assert gain_loss(grid, (0, 0), (1, 0), 1) == (2, 1)
    assert gain_loss(grid, (0, 0), (0, 0), 1) == (0, 0)
    # A second outpost covering (0, 1) removes the loss; (1, 1) covered removes a gain.
    grid = cover([Outpost(0, 0, 0, 0), Outpost(1, 0, 0, 2)], 0, 1)
    assert gain_loss(grid, (0, 0), (1, 0), 1) == (2, 0)
    grid = cover([Outpost(0, 0, 0, 0), Outpost(1, 0, 1, 2)], 0, 1)
    assert gain_loss(grid, (0, 0), (1, 0), 1) == (1, 1)


def test_walk_over_land_around_water():
    water = land()
    water[0:5, 3] = True  # a wall from (3, 0) to (3, 4)
    targets = np.zeros((100, 100), dtype=bool)
    targets[0, 4] = True
    steps = oracle.walk(water, targets)
    assert steps[0, 4] == 0
    assert steps[0, 5] == 1
    # From (2, 0): down to (2, 5), across, up to (4, 0): 5 + 2 + 5 = 12 steps.
    assert steps[0, 2] == 12
    assert steps[0, 3] == oracle.WALK_INFINITY  # water


def test_danger_within_two():
    outposts = [Outpost(0, 0, 10, 10), Outpost(1, 1, 12, 10)]
    assert oracle.danger(outposts, 0, 10, 10)
    assert not oracle.danger(outposts, 0, 9, 10)  # distance 3
    assert not oracle.danger(outposts, 1, 13, 10)  # own outposts do not count


# --- The built-in players -----------------------------------------------------------------


def test_random_player_draws_one_option_per_outpost_from_one_cursor():
    # Outpost 4 sits on a one-cell island: stay is its only option, yet it draws below(1).
    water = wet((50, 49), (51, 50), (50, 51), (49, 50))
    outposts = [*homes(0), Outpost(4, 0, 50, 50), Outpost(8, 0, 20, 20), *homes(2)]
    view = make_view(outposts, water=water, turn=7)
    cursor = Stream(5, "outpost.random", 0, 7).cursor()
    expected = [[0, 2, 3][cursor.below(3)], [0][cursor.below(1)], [0, 1, 2, 3, 4][cursor.below(5)]]
    assert random_moves(view, 0, 5, 7) == expected
    assert random_moves(view, 0, 5, 7) == expected  # a pure function of the seed
    draws = {tuple(random_moves(view, 0, seed, 7)) for seed in range(30)}
    assert len(draws) > 1
    for moves in draws:
        assert moves[0] in (0, 2, 3)
        assert moves[1] == 0
    assert random_moves(view, 1, 5, 7) == []  # no outposts, no draws


def test_spread_walk_breaks_ties_then_option_order():
    # r = 0: every move gains 1 and loses 1, like staying. Walk decides: staying is 1 step
    # from an uncovered cell, every neighbour is uncovered (walk 0): the first, E, wins.
    assert spread_moves(make_view([Outpost(0, 0, 0, 0)], r=0), 0) == [2]
    view = make_view([Outpost(0, 0, 0, 0)], water=wet((1, 0)), r=0)
    assert spread_moves(view, 0) == [3]


def test_spread_gain_minus_loss_then_walk():
    # r = 1 at the corner: E and S both gain 2, lose 1; walk 1 each; E comes first.
    assert spread_moves(make_view([Outpost(0, 0, 0, 0)], r=1), 0) == [2]
    # Spread ignores enemies: an enemy next to (1, 0) changes nothing.
    assert spread_moves(make_view([Outpost(0, 0, 0, 0), Outpost(1, 1, 2, 0)], r=1), 0) == [2]


def test_spread_updates_cover_within_the_turn():
    # Two outposts of empire 0 on (50, 50), r = 0. The first: each move gains 1 and loses 0
    # (the cell stays covered by the other), N first. Then (50, 49) is covered: for the
    # second, N gains 0 and loses 1; E, S, W gain 1 and lose 1 like staying, and walk
    # decides: staying is 1 step from an uncovered cell, E is one (walk 0).
    view = make_view([Outpost(0, 0, 50, 50), Outpost(1, 0, 50, 50)], r=0)
    assert spread_moves(view, 0) == [1, 2]


def test_frontier_safety_comes_before_gain():
    # r = 1, empire 1 at its home (99, 0); an enemy at (98, 2) is within 2 of S (99, 1) and
    # W (98, 0) but 3 from (99, 0): staying (safe, gain 0) beats S and W (danger, +1).
    outposts = [Outpost(1, 1, 99, 0), Outpost(4, 0, 98, 2)]
    view = make_view(outposts, r=1)
    assert frontier_moves(view, 1) == [0]
    assert spread_moves(view, 1) == [3]


def test_frontier_steps_back_out_of_danger():
    # An enemy at (97, 0) is 2 from (99, 0) and 1 from W (98, 0); S (99, 1) is 3 away.
    view = make_view([Outpost(1, 1, 99, 0), Outpost(4, 0, 97, 0)], r=1)
    assert frontier_moves(view, 1) == [3]


def test_frontier_unsupplied_destinations_are_not_safe():
    # r = 0: every option of outpost 4 at (50, 50) gains as much as it loses, and every
    # neighbour is a target (walk 0; staying: 1), so without safety N would win. The control
    # map gives N (50, 49) and E (51, 50) to empire 1: not passable, not supplied, unsafe.
    # S is the first safe option with walk 0. (Outpost 0 at the corner moves E, as alone.)
    view = make_view([Outpost(0, 0, 0, 0), Outpost(4, 0, 50, 50)], r=0)
    assert frontier_moves(view, 0) == [2, 1]
    grid = view.control.copy()
    grid[49, 50] = 1
    grid[50, 51] = 1
    blocked = View(view.water, grid, view.outposts, 0, 12, 3, 1)
    assert frontier_moves(blocked, 0) == [2, 3]


def test_lookahead_picks_the_best_value():
    # r = 1, one outpost at the corner, nobody else: both greedy plans move E (4 cells,
    # value 12) and staying keeps 3 cells (value 9).
    view = make_view([Outpost(0, 0, 0, 0)], r=1)
    assert lookahead_value(view, 0, [2], fringe=False) == 12
    assert lookahead_value(view, 0, [0], fringe=False) == 9
    assert lookahead_moves(view, 0, fringe=False) == [2]


def test_lookahead_counts_other_empires_against_the_plan():
    # r = 0: empire 0 holds its home cell, empire 1 two cells: 3 * 1 - 2 = 1.
    outposts = [Outpost(0, 0, 0, 0), Outpost(1, 1, 99, 0), Outpost(5, 1, 50, 48)]
    view = make_view(outposts, r=0)
    assert lookahead_value(view, 0, [0], fringe=False) == 1
    # Empire 0's outpost 4 moving onto empire 1's outpost 5 disputes the cell: both are cut
    # (default rule), so empire 1 keeps 1 cell and empire 0 its home: 3 - 1 = 2; with the
    # fringe rule both survive and the disputed cell counts for nobody: 3 * 1 - 1 = 2 too,
    # against 3 * 2 - 2 = 4 for staying.
    outposts = [*homes(0), Outpost(4, 0, 50, 49), *homes(1), Outpost(5, 1, 50, 48)]
    view = make_view(outposts, r=0)
    assert lookahead_value(view, 0, [0, 1], fringe=False) == 2
    assert lookahead_value(view, 0, [0, 1], fringe=True) == 2
    assert lookahead_value(view, 0, [0, 0], fringe=False) == 4


def test_lookahead_repairs_a_plan_that_cuts_its_own_outposts():
    # r = 1. Outpost 4 of empire 0 is on a 3 x 3 island (a ring of water around (50, 50)):
    # cut off whatever it does. Both greedy plans move the home outpost E (4 cells) and
    # outpost 4 N (all its moves gain 3, lose 3; N is 1 step from an uncovered corner of the
    # island, staying 2). Plan [2, 1]: own 4 -> 12; staying: own 3 -> 9. The frontier plan
    # cuts off outpost 4, so three plans compete: [2, 1] (12), [2, 0] (outpost 4 staying, 12
    # too) and [0, 0] (9); the first of the best, the frontier plan, is played.
    ring = [
        (x, y) for x in range(48, 53) for y in range(48, 53) if max(abs(x - 50), abs(y - 50)) == 2
    ]
    water = wet(*ring)
    view = make_view([Outpost(0, 0, 0, 0), Outpost(4, 0, 50, 50)], water=water, r=1)
    assert spread_moves(view, 0) == [2, 1]
    assert frontier_moves(view, 0) == [2, 1]
    assert lookahead_value(view, 0, [2, 1], fringe=False) == 12
    assert lookahead_value(view, 0, [0, 0], fringe=False) == 9
    assert lookahead_value(view, 0, [2, 0], fringe=False) == 12
    assert lookahead_moves(view, 0, fringe=False) == [2, 1]


# --- Whole games --------------------------------------------------------------------------


def test_game_start():
    game = OracleGame(land())
    assert game.outposts == tuple(Outpost(e, e, *oracle.HOMES[e]) for e in range(4))
    assert game.next_id == 4
    assert game.turn == 0
    assert game.last_turn == 4444
    assert not game.finished
    # r = 7 at a corner: the cells with x + y <= 7, 36 of them.
    assert game.scores() == [36, 36, 36, 36]
    assert game.placings() == [1, 1, 1, 1]
    history = game.history
    assert {key: value.shape for key, value in history.items()} == {
        "land": (1, 4),
        "water": (1, 4),
        "outposts": (1, 4),
    }
    assert history["land"][0].tolist() == [36] * 4
    assert (game.control == control(land(), game.outposts, 7)).all()


def test_game_length_extra_turn_and_run():
    game = OracleGame(land(), r=1, T=0, players=("random",) * 4)
    assert game.finished
    assert not game.step()
    game = OracleGame(land(), r=1, T=2, players=("random",) * 4, extra_turn=True)
    assert game.last_turn == 3
    game.run()
    assert game.turn == 3
    assert game.finished
    assert game.history["land"].shape == (4, 4)
    with pytest.raises(InvalidParameter, match="empire 1 is external"):
        OracleGame(land(), T=2, players=("random", None, "spread", "frontier")).run()


def test_ranks_share_ties():
    start = [*homes(0, 1), Outpost(4, 1, 50, 50), *homes(2)]
    game = OracleGame.from_position(land(), start, r=1, players=EXTERNAL)
    # Empire 1: 3 + 5 cells; empires 0 and 2: 3; empire 3: none.
    assert game.scores() == [3, 8, 3, 0]
    assert game.placings() == [2, 1, 2, 4]


def test_random_player_in_a_game_plays_its_stream():
    game = OracleGame(land(), T=3, players=("random", None, None, None), seed=7)
    expected = random_moves(game.view(), 0, 7, 1)
    game.step()
    x, y = oracle._destination(0, 0, expected[0])
    assert game.outposts[0] == Outpost(0, 0, x, y)


def play(water, turns, **kwargs):
    game = OracleGame(water, T=turns, **kwargs)
    game.run()
    return game


def test_games_are_a_pure_function_of_the_seed():
    water = lake_map()
    players = ("random", "random", "frontier", "lookahead")
    one = play(water, 12, players=players, seed=3)
    two = play(water, 12, players=players, seed=3)
    assert one.log == two.log
    assert one.outposts == two.outposts
    for key in ("land", "water", "outposts"):
        assert (one.history[key] == two.history[key]).all()
    assert (one.control == two.control).all()
    other = play(water, 12, players=players, seed=4)
    assert other.outposts != one.outposts


def test_thirty_turn_game_keeps_its_invariants():
    water = lake_map()
    game = OracleGame(water, T=30)
    assert game.players == ("spread", "frontier", "random", "lookahead")
    ids_seen = {o.id for o in game.outposts}
    while game.step():
        ids = [o.id for o in game.outposts]
        assert ids == sorted(set(ids))  # unique, increasing
        assert all(i < game.next_id for i in ids)
        assert all(not water[o.y, o.x] for o in game.outposts)  # on land
        ids_seen |= set(ids)
        history = game.history
        for key in ("land", "water", "outposts"):
            assert history[key].shape == (game.turn + 1, 4)
        assert history["outposts"][-1].tolist() == [
            sum(1 for o in game.outposts if o.empire == e) for e in range(4)
        ]
        assert (history["land"][-1] + history["water"][-1]).tolist() == game.scores()
        assert (game.control == control(water, game.outposts, 7)).all()
    assert game.turn == 30
    # New ids are handed out in order and never reused.
    built = [entry.outpost for entry in game.log if entry.kind == "build"]
    assert built == list(range(4, game.next_id))
    assert ids_seen <= set(range(game.next_id))
    for entry in game.log:
        assert entry.kind in ("build", "disband", "cut")
        if entry.kind == "build":
            assert entry.turn % 10 == 0


# --- Checked input ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        *BAD_PARAMETERS,
        ({"W": 10_001}, "W must be at most 10000"),
        ({"players": ("spread", "frontier", "random")}, "one player per empire"),
        ({"players": ("spread", "greedy", "random", None)}, "'greedy' for empire 1"),
        ({"seed": -1}, "seed"),
        ({"supply_fringe": 1}, "supply_fringe must be True or False"),
    ],
)
def test_game_parameters_are_checked(kwargs, match):
    with pytest.raises(InvalidParameter, match=match):
        OracleGame(land(), **kwargs)


def test_water_is_checked():
    with pytest.raises(InvalidParameter, match="shape"):
        OracleGame(np.zeros((99, 100), dtype=bool))
    with pytest.raises(InvalidParameter, match="bool"):
        OracleGame(np.zeros((100, 100), dtype=np.int8))
    with pytest.raises(InvalidParameter, match=r"home \(99, 0\) of empire 1 is water"):
        OracleGame(wet((99, 0)))
    with pytest.raises(InvalidParameter, match="on water"):
        OracleGame.from_position(wet((5, 5)), [Outpost(0, 0, 5, 5)])
    with pytest.raises(InvalidParameter, match="two outposts have the id 3"):
        control(land(), [Outpost(3, 0, 1, 1), Outpost(3, 1, 2, 2)], 7)
    with pytest.raises(InvalidParameter, match="empire"):
        control(land(), [Outpost(0, 4, 1, 1)], 7)
