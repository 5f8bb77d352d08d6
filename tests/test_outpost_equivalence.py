"""The Rust outpost engine against the oracle (``stratagem.outpost.oracle``), bit for bit, on
hypothesis-drawn inputs (``docs/outpost-rules.md``): control maps, supply lines, the built-in
players' moves and disband choices on drawn positions, whole short games after every turn
(outposts, control, history and log, messages included) and games with Python players, whose
answers the oracle gets as external answers."""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from property_settings import SEEDS
from stratagem import _core
from stratagem.outpost import BUILTIN_PLAYERS, HOMES, Game, Map, State, oracle
from stratagem.outpost.game import FORMAT
from stratagem.outpost.oracle import OracleGame, Outpost, View

# The oracle plays a 30-turn game in about a second: the game tests run a quarter of the
# profile's examples, the position tests half (10 and 20 under ``ci``, more under ``dev``).
GAMES = settings(max_examples=max(1, settings().max_examples // 4))
POSITIONS = settings(max_examples=max(1, settings().max_examples // 2))

# -- maps ---------------------------------------------------------------------------------


@cache
def generated(seed: int) -> Map:
    return Map.generate(seed)


def game_maps() -> st.SearchStrategy[Map]:
    """Shipped maps and generated ones (a few seeds, so the cache keeps them)."""
    return st.one_of(
        st.sampled_from(Map.names()).map(Map.named),
        st.integers(0, 15).map(generated),
    )


@st.composite
def waters(draw: st.DrawFn) -> np.ndarray:
    """A (100, 100) water mask with its four homes dry: a map's, scattered noise, square blocks
    (walls and gaps for the supply lines), or no water at all."""
    kind = draw(st.sampled_from(["map", "map", "noise", "blocks", "dry"]), label="water kind")
    event(f"water: {kind}")
    if kind == "map":
        return draw(game_maps()).water
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1), label="water seed"))
    density = draw(st.sampled_from([0.05, 0.2, 0.4, 0.6]), label="water density")
    if kind == "noise":
        water = rng.random((100, 100)) < density
    elif kind == "blocks":
        side = draw(st.sampled_from([4, 5, 10, 20]), label="block side")
        small = rng.random((100 // side, 100 // side)) < density
        water = np.kron(small, np.ones((side, side), dtype=bool))
    else:
        water = np.zeros((100, 100), dtype=bool)
    for x, y in HOMES:
        water[y, x] = False
    return water


# -- outposts -----------------------------------------------------------------------------

CELLS = st.one_of(
    st.tuples(st.integers(0, 99), st.integers(0, 99)),
    st.sampled_from(HOMES),
    st.sampled_from([(49, 49), (50, 50), (49, 50), (0, 50), (50, 0)]),
)


@st.composite
def outpost_sets(draw: st.DrawFn, min_size: int = 0, max_size: int = 60) -> list[Outpost]:
    """Up to ``max_size`` outposts of all four empires (or of a few), clustered around one to
    four centres so that ties, disputes and shared cells are common; distinct ids with gaps,
    listed in no particular order."""
    n = draw(st.integers(min_size, max_size), label="outposts")
    centres = draw(st.lists(CELLS, min_size=1, max_size=4), label="centres")
    spread = draw(st.sampled_from([0, 1, 2, 3, 6, 20]), label="spread")
    empires = draw(
        st.sampled_from([(0, 1, 2, 3), (0, 1), (1, 3), (2,)]),
        label="empires",
    )
    ids = draw(st.lists(st.integers(0, 400), min_size=n, max_size=n, unique=True), label="ids")
    outposts = []
    for i in ids:
        cx, cy = draw(st.sampled_from(centres))
        dx, dy = draw(st.tuples(st.integers(-spread, spread), st.integers(-spread, spread)))
        x, y = min(max(cx + dx, 0), 99), min(max(cy + dy, 0), 99)
        outposts.append(Outpost(i, draw(st.sampled_from(empires)), x, y))
    return outposts


def on_land(outposts: list[Outpost], water: np.ndarray) -> list[Outpost]:
    return sorted(o for o in outposts if not water[o.y, o.x])


def rows(outposts: list[Outpost]) -> np.ndarray:
    """``[id, empire, x, y]`` int64 rows, as the binding takes them."""
    return np.array([tuple(o) for o in outposts], dtype=np.int64).reshape(-1, 4)


RADII = st.one_of(st.integers(0, 12), st.sampled_from([13, 25, 60, 99, 150, 197, 198]))


# -- control and supply lines -------------------------------------------------------------


@given(water=waters(), outposts=outpost_sets(), r=RADII)
def test_control_agrees(water, outposts, r):
    if r > 30:
        outposts = outposts[:15]  # the oracle scans every outpost for every cell
    fast = _core.outpost.control(water, rows(outposts), r)
    slow = oracle.control(water, outposts, r)
    assert fast.dtype == np.int8
    assert fast.shape == (100, 100)
    np.testing.assert_array_equal(fast, slow)
    event("disputed cells" if (slow == oracle.DISPUTED).any() else "no disputed cell")


@given(water=waters(), outposts=outpost_sets(), r=st.integers(0, 12))
def test_cut_off_agrees_on_control_maps_of_the_outposts(water, outposts, r):
    outposts = on_land(outposts, water)
    control = _core.outpost.control(water, rows(outposts), r)
    for fringe in (False, True):
        fast = _core.outpost.cut_off(water, control, rows(outposts), fringe)
        slow = oracle.cut_off(water, control, outposts, fringe=fringe)
        assert fast == slow, f"fringe={fringe}"
        event(f"fringe={fringe}: {'some' if slow else 'no'} outposts cut")


@given(
    water=waters(),
    outposts=outpost_sets(max_size=30),
    seed=st.integers(0, 2**32 - 1),
    side=st.sampled_from([1, 2, 5, 10, 25]),
)
def test_cut_off_agrees_on_arbitrary_control_arrays(water, outposts, seed, side):
    # Control made of random blocks of -2..3, unrelated to the outposts, which may stand on
    # water (never reached) or on another empire's cells.
    rng = np.random.default_rng(seed)
    small = rng.integers(-2, 4, size=(100 // side, 100 // side))
    control = np.kron(small, np.ones((side, side), dtype=np.int64)).astype(np.int8)
    outposts = sorted(outposts)
    for fringe in (False, True):
        fast = _core.outpost.cut_off(water, control, rows(outposts), fringe)
        slow = oracle.cut_off(water, control, outposts, fringe=fringe)
        assert fast == slow, f"fringe={fringe}"


# -- built-in players on drawn positions --------------------------------------------------


def tally(water: np.ndarray, control: np.ndarray, outposts: list[Outpost]) -> list[int]:
    """A history row: land, water and outposts of each empire."""
    row = []
    for e in range(4):
        held = control == e
        row += [int((held & ~water).sum()), int((held & water).sum())]
        row.append(sum(1 for o in outposts if o.empire == e))
    return row


def restore(
    water: np.ndarray,
    outposts: list[Outpost],
    r: int,
    seed: int,
    *,
    fringe: bool,
    L: int = 12,  # noqa: N803 (the rules' name)
    W: int = 3,  # noqa: N803
) -> Any:
    """An engine game standing at turn 0 on ``outposts`` (sorted, on land)."""
    control = oracle.control(water, outposts, r)
    history = np.array([tally(water, control, outposts)], dtype=np.uint32)
    next_id = max((o.id for o in outposts), default=-1) + 1
    game = _core.outpost.Game(water, r, L, W, 4444, [None] * 4, seed, supply_fringe=fringe)
    game.resume(0, rows(outposts), next_id, history)
    return game


@st.composite
def player_positions(draw: st.DrawFn) -> tuple[np.ndarray, list[Outpost], int]:
    """Water, outposts on land, and an empire to play: mostly one with outposts, now and then
    any empire (maybe one with none)."""
    water = draw(waters(), label="water")
    outposts = on_land(draw(outpost_sets(min_size=3, max_size=30), label="outposts"), water)
    owners = sorted({o.empire for o in outposts}) or [0, 1, 2, 3]
    empire = draw(st.sampled_from(owners) | st.integers(0, 3), label="empire")
    return water, outposts, empire


@POSITIONS
@given(
    position=player_positions(),
    r=st.integers(0, 7),
    seed=SEEDS,
    turn=st.one_of(st.integers(1, 40), st.integers(0, 2**32 - 1)),
    # (12, 3) and (40, 10): the 2014 preset's costs; (1, 1): a site everywhere.
    costs=st.sampled_from([(12, 3), (40, 10), (1, 1)]),
)
def test_builtin_players_agree_on_drawn_positions(position, r, seed, turn, costs):
    water, outposts, empire = position
    land_per, water_per = costs
    control = oracle.control(water, outposts, r)
    view = View(water, control, tuple(outposts), r, land_per, water_per, turn)
    own = [o for o in outposts if o.empire == empire]
    event(f"{'some' if own else 'no'} outposts of the empire")
    stranded = len(own) == 1 and oracle.afford(control, water, empire, land_per, water_per) == 1
    event(f"stranded: {stranded}")
    for fringe in (False, True):
        game = restore(water, outposts, r, seed, fringe=fringe, L=land_per, W=water_per)
        np.testing.assert_array_equal(game.control(), view.control)
        expected = {"lookahead": oracle.lookahead_moves(view, empire, fringe=fringe)}
        if not fringe:  # the other players do not read the flag
            expected["random"] = oracle.random_moves(view, empire, seed, turn)
            expected["spread"] = oracle.spread_moves(view, empire)
            expected["frontier"] = oracle.frontier_moves(view, empire)
        for kind, moves in expected.items():
            fast = game.builtin_moves(kind, empire, turn)
            assert fast.dtype == np.uint8
            assert fast.tolist() == moves, f"{kind} moves (fringe={fringe})"
        if own and not fringe:
            for kind in BUILTIN_PLAYERS:
                assert game.builtin_disband(kind, empire, turn) == oracle.disband_choice(
                    kind, view, empire, seed, turn
                ), f"{kind} disband"


# -- whole games --------------------------------------------------------------------------


@st.composite
def positions(draw: st.DrawFn, water: np.ndarray) -> list[Outpost] | None:
    """``None`` (the rules' start: one outpost per home) or a few outposts on land around one or
    two centres, so that they meet, dispute cells, cut each other's supply lines and disband
    in the first seasons; sometimes none at all (the first season rebuilds every empire)."""
    if draw(st.integers(0, 2), label="from the start") == 0:
        return None
    n = draw(st.integers(0, 14), label="outposts")
    centres = draw(st.lists(CELLS, min_size=1, max_size=2), label="centres")
    spread = draw(st.integers(1, 8), label="spread")
    outposts = []
    for i in draw(st.lists(st.integers(0, 40), min_size=n, max_size=n, unique=True)):
        cx, cy = draw(st.sampled_from(centres))
        dx, dy = draw(st.tuples(st.integers(-spread, spread), st.integers(-spread, spread)))
        x, y = min(max(cx + dx, 0), 99), min(max(cy + dy, 0), 99)
        outposts.append(Outpost(i, draw(st.integers(0, 3)), x, y))
    return on_land(outposts, water)


@st.composite
def game_setups(draw: st.DrawFn, max_turns: int = 40) -> dict[str, Any]:
    """A shipped or generated map, small radii and small L, W (so seasons build and disband),
    short games (most of them past the first season), any flags, and a starting position."""
    board = draw(game_maps(), label="map")
    return {
        "map": board,
        "r": draw(st.integers(1, 5), label="r"),
        "L": draw(st.integers(1, 20), label="L"),
        "W": draw(st.integers(1, 6), label="W"),
        "T": draw(
            st.one_of(*[st.integers(10, max_turns)] * 3, st.integers(0, 9)),
            label="T",
        ),
        "seed": draw(SEEDS, label="seed"),
        "supply_fringe": draw(st.booleans(), label="supply_fringe"),
        "sequential_moves": draw(st.booleans(), label="sequential_moves"),
        "extra_turn": draw(st.booleans(), label="extra_turn"),
        "position": draw(positions(board.water), label="position"),
    }


def start_both(setup: dict[str, Any], players: tuple[Any, ...]) -> tuple[Game, OracleGame]:
    """The game on the engine (a new ``Game``, or a saved game standing on the drawn position
    at turn 0) and on the oracle; Python players are external players of the oracle."""
    options = {key: value for key, value in setup.items() if key not in ("map", "position")}
    board, position = setup["map"], setup["position"]
    external = tuple(p if isinstance(p, str) else None for p in players)
    if position is None:
        game = Game(board, players=players, **options)
        return game, OracleGame(board.water, players=external, **options)
    control = oracle.control(board.water, position, setup["r"])
    saved = {
        "format": FORMAT,
        "version": 1,
        "map": {"name": board.name, "water": board.water_cells.tolist()},
        "params": {key: setup[key] for key in ("r", "L", "W", "T")},
        "flags": {key: setup[key] for key in ("supply_fringe", "sequential_moves", "extra_turn")},
        "players": list(external),
        "seed": setup["seed"],
        "turn": 0,
        "next_id": max((o.id for o in position), default=-1) + 1,
        "outposts": [list(o) for o in position],
        "history": [tally(board.water, control, position)],
        "log": [],
    }
    game = Game.from_dict(saved, players=players)
    return game, OracleGame.from_position(board.water, position, players=external, **options)


def assert_same(game: Game, slow: OracleGame, when: str, *, player_messages: bool = True) -> None:
    """Every observable of the two games is identical; with ``player_messages=False`` the
    messages of ``player`` entries (worded by each side for its own kind of player) are left
    out, their place, turn, empire and outpost are not."""
    assert (game.turn, game.finished, game.last_turn) == (
        slow.turn,
        slow.finished,
        slow.last_turn,
    ), when
    assert game.next_id == slow.next_id, f"next id {when}"
    outposts = game.outposts
    assert outposts.dtype == np.int32
    assert outposts.tolist() == [list(o) for o in slow.outposts], f"outposts {when}"
    control = game.control
    assert control.dtype == np.int8
    np.testing.assert_array_equal(control, slow.control, err_msg=f"control {when}")
    history = game.history
    for key in ("land", "water", "outposts"):
        assert getattr(history, key).dtype == np.int64
        np.testing.assert_array_equal(
            getattr(history, key), slow.history[key], err_msg=f"history {key} {when}"
        )
    fast_log = [tuple(entry) for entry in game.log]
    slow_log = [tuple(entry) for entry in slow.log]
    if not player_messages:
        fast_log = [e[:4] if e[2] == "player" else e for e in fast_log]
        slow_log = [e[:4] if e[2] == "player" else e for e in slow_log]
    assert fast_log == slow_log, f"log {when}"
    result = game.result
    assert result.scores.tolist() == slow.scores(), f"scores {when}"
    assert result.placings.tolist() == slow.placings(), f"placings {when}"


def log_events(game: Game) -> None:
    for kind in sorted({entry.kind for entry in game.log}):
        event(f"log has {kind}")


# A crowd in the middle of the lakes map: supply lines cut on turn 3, builds and a disband
# in the seasons of turns 10 and 20 (the drawn cases get there too, less surely).
CROWD = (
    Outpost(0, 0, 45, 45),
    Outpost(1, 1, 50, 45),
    Outpost(2, 2, 50, 50),
    Outpost(3, 3, 45, 50),
    Outpost(4, 0, 47, 47),
    Outpost(5, 1, 52, 47),
    Outpost(6, 0, 30, 30),
    Outpost(8, 3, 1, 98),
)


def crowd(**flags: bool) -> dict[str, Any]:
    lakes = Map.named("lakes")
    assert not any(lakes.water[o.y, o.x] for o in CROWD)
    options = {"r": 4, "L": 3, "W": 1, "T": 21, "seed": 7, "extra_turn": False}
    return {"map": lakes, "position": list(CROWD), **options, **flags}


@GAMES
@example(
    setup=crowd(supply_fringe=False, sequential_moves=True),
    players=("lookahead", "frontier", "random", "spread"),
)
@example(
    setup=crowd(supply_fringe=True, sequential_moves=False),
    players=("random", "lookahead", "spread", "frontier"),
)
@given(setup=game_setups(), players=st.tuples(*[st.sampled_from(BUILTIN_PLAYERS)] * 4))
def test_whole_games_agree_after_every_turn(setup, players):
    game, slow = start_both(setup, players)
    assert_same(game, slow, "at the start")
    while not slow.finished:
        game.step()
        slow.step()
        assert_same(game, slow, f"after turn {slow.turn}")
    assert game.finished
    log_events(game)


# -- games with Python players ------------------------------------------------------------

MOVE_STYLES = (
    "list",
    "words",
    "mapping",
    "array",
    "none items",
    "long",
    "seven",
    "unknown id",
    "string",
    "none",
    "raise",
)
DISBAND_STYLES = ("first", "last", "numpy", "unknown id", "string", "raise")
WORDS = ("stay", "N", "east", "S", "West")


def styled(style: str, ids: list[int], directions: list[int]) -> tuple[object, object]:
    """A move answer in ``style`` and what the oracle must be given to do the same."""
    seven = [7, *directions[1:]] if directions else directions
    stays = [0 if d == 1 else d for d in directions]
    answers: dict[str, tuple[object, object]] = {
        "list": (list(directions), directions),
        "words": ([WORDS[d] for d in directions], directions),
        "mapping": (
            {i: WORDS[d].lower() for i, d in zip(ids, directions, strict=True) if d},
            directions,
        ),
        "array": (np.array(directions, dtype=np.int64), directions),
        "none items": ([None if d == 1 else d for d in directions], stays),  # None stays
        "long": ([*directions, 0], [*directions, 0]),
        "seven": (seven, seven),
        "unknown id": ({max(ids, default=0) + 1000: 1}, "refused"),
        "string": ("N", "refused"),
        "none": (None, "refused"),
    }
    return answers[style]


class Scripted:
    """A deterministic Python player: directions from a hash of the turn and each outpost's id
    and cell, answered in the style of ``script[turn % len(script)]``. For each answer it keeps
    what the oracle must be given to do the same (``answers[turn, question]``): the same
    directions as a list of integers, or an answer the oracle also refuses."""

    def __init__(self, moves: tuple[str, ...], disbands: tuple[str, ...]) -> None:
        self.moves = moves
        self.disbands = disbands
        self.answers: dict[tuple[int, str], object] = {}

    def move(self, state: State) -> object:
        assert state.empire >= 0
        assert not state.control.flags.writeable
        mine = state.mine().tolist()
        ids = [outpost for outpost, _, _, _ in mine]
        directions = [(7 * i + 3 * state.turn + x + 2 * y) % 5 for i, _, x, y in mine]
        style = self.moves[state.turn % len(self.moves)]
        if style == "raise":
            self.answers[state.turn, "move"] = "refused"
            raise RuntimeError("the player broke")
        answer, self.answers[state.turn, "move"] = styled(style, ids, directions)
        return answer

    def disband(self, state: State) -> object:
        ids = [int(i) for i in state.mine()[:, 0]]
        style = self.disbands[state.turn % len(self.disbands)]
        key = (state.turn, "disband")
        if style == "first":
            self.answers[key] = ids[0]
            return ids[0]
        if style == "last":
            self.answers[key] = ids[-1]
            return ids[-1]
        if style == "numpy":
            self.answers[key] = ids[len(ids) // 2]
            return np.int32(ids[len(ids) // 2])
        self.answers[key] = "refused"
        if style == "unknown id":
            return max(ids) + 1000
        if style == "string":
            return str(ids[0])
        raise RuntimeError("the player broke")


@GAMES
@example(  # asked to disband on turn 10 and answering an unknown id
    setup=crowd(supply_fringe=False, sequential_moves=True),
    players=BUILTIN_PLAYERS,
    seats=(0,),
    moves=("list", "seven", "words", "mapping"),
    disbands=("unknown id",),
)
@example(  # from the homes: moves off the grid are illegal
    setup={**crowd(supply_fringe=True, sequential_moves=False), "position": None, "T": 6},
    players=BUILTIN_PLAYERS,
    seats=(0, 2),
    moves=("list", "raise", "array", "none items", "string", "none"),
    disbands=("first",),
)
@given(
    setup=game_setups(max_turns=25),
    players=st.tuples(*[st.sampled_from(BUILTIN_PLAYERS)] * 4),
    seats=st.sampled_from([(0,), (1,), (3,), (0, 2), (1, 2), (2, 3)]),
    moves=st.lists(st.sampled_from(MOVE_STYLES), min_size=1, max_size=5).map(tuple),
    disbands=st.lists(st.sampled_from(DISBAND_STYLES), min_size=1, max_size=3).map(tuple),
)
def test_games_with_python_players_agree_after_every_turn(setup, players, seats, moves, disbands):
    scripted = {e: Scripted(moves, disbands) for e in seats}
    seated = tuple(scripted.get(e, name) for e, name in enumerate(players))
    game, slow = start_both(setup, seated)
    assert_same(game, slow, "at the start")
    while not slow.finished:
        game.step()
        turn = game.turn
        external_moves = {e: player.answers[turn, "move"] for e, player in scripted.items()}
        external_disbands = {
            e: player.answers[turn, "disband"]
            for e, player in scripted.items()
            if (turn, "disband") in player.answers
        }
        slow.step(external_moves=external_moves, external_disbands=external_disbands)
        assert_same(game, slow, f"after turn {turn}", player_messages=False)
    for entry in game.log:
        if entry.kind == "player":
            assert entry.empire in scripted
            assert entry.message.startswith("player Scripted (")
    log_events(game)
