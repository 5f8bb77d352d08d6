"""The annexation fast path on its own: the shared conformance test, error messages (the state
untouched after every failing call), thread determinism of playouts, MCTS and matches, saved
games, Ctrl-C and MCTS time budgets."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given

from interrupts import seconds_to_stop_after_ctrl_c
from stratagem import _core, testing
from stratagem.annexation import AI, Board, Game, Rules, batch, oracle, play_match, playouts

# -- the shared conformance test -----------------------------------------------------------
from stratagem.annexation.conformance import AnnexationAdapter
from stratagem.errors import InvalidBoard, InvalidMove, InvalidParameter

GREEDY = AI("greedy")

ADAPTER = AnnexationAdapter()


@pytest.fixture(scope="module")
def save_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("conformance")


@given(case=ADAPTER.cases(), seed=testing.seeds())
def test_annexation_passes_the_conformance_test(save_dir, case, seed):
    testing.check_conformance(ADAPTER, case, seed, save_dir)


def test_random_cases_are_valid():
    rng = random.Random(5)
    for _ in range(10):
        case = ADAPTER.random_case(rng)
        testing.check_oracle_equivalence(ADAPTER, case, rng.randrange(2**64), turns=6)


# -- helpers ---------------------------------------------------------------------------------


def state_of(game: Game) -> dict:
    return {key: np.array(value, copy=True) for key, value in ADAPTER.snapshot(game).items()}


def assert_state(game: Game, before: dict, context: str = "") -> None:
    testing.assert_snapshots_equal(
        before, state_of(game), context=context or "the failing call changed the game"
    )


def tally(result) -> tuple:
    return (result.playouts, result.wins.tolist(), result.draws, result.margin_sum, result.player)


def path_board(colours: list[int], k: int = 4) -> Board:
    n = len(colours)
    edges = np.array([(i, i + 1) for i in range(n - 1)], dtype=np.int64)
    return Board.from_edges(edges, colours=colours, colour_count=k, starts=[0, n - 1])


# Path 0-1-...-7 coloured 0 1 1 2 3 2 1 3, k = 4: player 0 owns {0}, player 1 owns {7}.
PATH = path_board([0, 1, 1, 2, 3, 2, 1, 3])


def finished_game() -> Game:
    game = Game(Board.hexagon(2, seed=4))
    while not game.is_over:
        game.play(GREEDY.choose(game))
    return game


# -- bad input messages ----------------------------------------------------------------------


def test_a_move_after_the_end_is_refused():
    game = finished_game()
    before = state_of(game)
    for colour in range(game.board.colour_count):
        with pytest.raises(InvalidMove, match="the game is over"):
            game.play(colour)
    assert game.legal_moves() == []
    assert_state(game, before)


def test_illegal_colours_name_the_colour_and_the_player():
    game = Game(PATH)
    game.play(1)  # player 0 takes {1, 2}: colours [1, 3]
    before = state_of(game)
    cases = [
        (3, "colour 3 is player 1's own colour"),
        (1, "colour 1 is player 0's colour"),
        (4, "colour 4 is out of range 0..3"),
        (-1, "colour -1 is out of range 0..3"),
        (255, "colour 255 is out of range 0..3"),
    ]
    for colour, fragment in cases:
        with pytest.raises(InvalidMove, match=fragment):
            game.play(colour)
        assert_state(game, before, f"colour {colour} changed the game")
    # With opponent colours allowed, player 1 may take player 0's colour.
    allowed = Game(PATH, allow_opponent_colours=True)
    allowed.play(1)
    assert allowed.legal_moves() == [0, 1, 2]
    allowed.play(1)
    assert allowed.player_colours.tolist() == [1, 1]


def test_numpy_integer_colours_are_moves():
    game = Game(PATH)
    game.play(np.uint8(1))
    game.play(np.int64(2))
    assert game.history == [1, 2]
    assert all(type(c) is int for c in game.history)


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"mode": "diagonal"}, "mode must be one of ('flood', 'adjacent'), got 'diagonal'"),
        ({"mode": None}, "mode must be one of"),
        ({"allow_opponent_colours": "yes"}, "allow_opponent_colours must be True or False"),
        ({"allow_opponent_colours": 1}, "allow_opponent_colours must be True or False"),
        ({"max_moves": 0}, "max_moves must be at least 1, got 0"),
        ({"max_moves": -3}, "max_moves must be at least 1, got -3"),
        ({"max_moves": 2**32}, "max_moves must be at most"),
        ({"max_moves": 1.5}, "max_moves must be an integer"),
        ({"max_moves": True}, "max_moves must be an integer"),
    ],
)
def test_rules_errors(options, fragment):
    with pytest.raises(InvalidParameter, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        Rules(**options)
    with pytest.raises(InvalidParameter, match="|".join(["mode", "allow_opponent", "max_moves"])):
        Game(PATH, **options)


def test_game_argument_errors():
    with pytest.raises(InvalidParameter, match=r"board must be a stratagem\.annexation\.Board"):
        Game(3)  # type: ignore[arg-type]
    # A board spec string is generated with the game's seed.
    assert Game("hex:3", seed=4).board == Board.hexagon(3, seed=4)
    with pytest.raises(InvalidParameter, match="board spec 'hex:x' not understood"):
        Game("hex:x")
    with pytest.raises(InvalidParameter, match="seed must be at least 0, got -1"):
        Game(PATH, seed=-1)
    with pytest.raises(InvalidParameter, match="seed must be at most"):
        Game(PATH, seed=2**64)
    assert Game(PATH, seed=2**64 - 1).seed == 2**64 - 1


@pytest.mark.parametrize(
    ("player", "colour", "fragment"),
    [(2, 0, "player 2"), (0, 4, "colour 4"), (-1, 0, "player -1"), (0, -1, "colour -1")],
)
def test_gain_reach_and_margin_refuse_bad_players_and_colours(player, colour, fragment):
    game = Game(PATH)
    before = state_of(game)
    with pytest.raises(InvalidParameter, match=fragment):
        game.gain(player, colour)
    if fragment.startswith("player"):
        with pytest.raises(InvalidParameter, match=fragment):
            game.reach(player)
        with pytest.raises(InvalidParameter, match=fragment):
            game.margin(player)
    assert_state(game, before)


def _board_dict_cases() -> list[tuple[str, object, str]]:
    def isolated(d):
        d["offsets"].append(d["offsets"][-1])
        d["colours"].append(0)

    def duplicate(d):
        row = d["offsets"][1]  # the row of cell 1 lists 0, 2: list 2 twice
        d["neighbours"].insert(row + 1, 2)
        d["offsets"][2:] = [o + 1 for o in d["offsets"][2:]]

    def colour_out_of_range(d):
        d["colours"][3] = 4

    def equal_starts(d):
        d["starts"] = [0, 0]

    return [
        ("isolated cell", isolated, "cell 8 has no neighbours"),
        ("duplicate edge", duplicate, "edge (1, 2) is listed twice"),
        ("colour out of range", colour_out_of_range, "cell 3 has colour 4, outside 0..3"),
        ("equal start cells", equal_starts, "start cells of players 0 and 1 are both cell 0"),
    ]


@pytest.mark.parametrize(("label", "tamper", "fragment"), _board_dict_cases())
def test_board_errors_reach_a_loaded_game(tmp_path, label, tamper, fragment):
    game = Game(PATH)
    game.play(1)
    path = tmp_path / "game.json"
    game.save(path)
    data = json.loads(path.read_text())
    tamper(data["board"])
    path.write_text(json.dumps(data))
    with pytest.raises(InvalidBoard, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        Game.load(path)


def _engine_board(offsets, neighbours, colours, k, starts):
    """The engine's own board check (what Rules.compile hands the game)."""
    return _core.annexation.Board(
        np.array(offsets, dtype=np.int64),
        np.array(neighbours, dtype=np.int64),
        np.array(colours, dtype=np.uint8),
        k,
        np.array(starts, dtype=np.int64),
    )


@pytest.mark.parametrize(
    ("offsets", "neighbours", "colours", "starts", "fragment"),
    [
        ([0, 1, 3, 4, 4], [1, 0, 2, 1], [0, 1, 2, 0], [0, 2], "cell 3 has no neighbours"),
        ([0, 1, 4, 5], [1, 0, 2, 2, 1], [0, 1, 2], [0, 2], "edge (1, 2) is listed twice"),
        ([0, 1, 3, 4], [1, 0, 2, 1], [0, 1, 5], [0, 2], "cell 2 has colour 5, outside 0..2"),
        ([0, 1, 3, 4], [1, 0, 2, 1], [0, 1, 2], [1, 1], "are both cell 1"),
        ([0, 1, 3, 4], [1, 0, 2, 1], [0, 0, 2], [0, 1], "lie in one region of colour 0"),
        ([0, 1, 2, 3, 4], [1, 0, 3, 2], [0, 1, 2, 0], [0, 3], "cannot be reached"),
    ],
)
def test_the_engine_refuses_bad_boards_too(offsets, neighbours, colours, starts, fragment):
    with pytest.raises(InvalidBoard, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        _engine_board(offsets, neighbours, colours, 3, starts)


@pytest.mark.parametrize(
    ("make", "fragment"),
    [
        (lambda: Board.from_edges([[0, 1], [1, 2]], cells=4), "cell 3 has no neighbours"),
        (lambda: Board.from_edges([[0, 1], [1, 2], [2, 1]]), r"edge \(1, 2\) is listed twice"),
        (lambda: Board.from_edges([[0, 1], [1, 1]]), r"edge \(1, 1\) is a self-loop"),
        (
            lambda: Board.from_edges([[0, 1], [1, 2]], colours=[0, 1, 3], colour_count=3),
            "cell 2 has colour 3, outside 0..2",
        ),
        (
            lambda: Board.from_edges([[0, 1], [1, 2]], colours=[0, 1, 2], starts=[2, 2]),
            "start cells of players 0 and 1 are both cell 2",
        ),
    ],
)
def test_board_errors_name_the_cell_or_edge(make, fragment):
    with pytest.raises(InvalidBoard, match=fragment):
        make()


@pytest.mark.parametrize(
    ("make", "fragment"),
    [
        (lambda: AI("alphazero"), "unknown AI 'alphazero'"),
        (lambda: AI("greedy", depth=2), "greedy takes no options; got 'depth'"),
        (lambda: AI("minimax", iterations=5), "minimax takes depth, heuristic; got 'iterations'"),
        (lambda: AI("mcts", iterations=10, time=1.0), "either iterations or time, not both"),
        (lambda: AI("minimax", depth=0), "depth must be at least 1, got 0"),
        (lambda: AI("minimax", depth=13), "depth must be from 1 to 12"),
        (lambda: AI("minimax", heuristic="territory"), "heuristic must be 'cells' or 'reach'"),
        (lambda: AI("mcts", iterations=0), "iterations must be at least 1"),
        (lambda: AI("mcts", time=0.0), "time must be a positive number of seconds"),
        (lambda: AI("mcts", time=float("inf")), "time must be a positive number of seconds"),
        (lambda: AI("mcts", iterations=5, c=-0.5), "exploration constant c"),
        (lambda: AI("mcts", iterations=5, c=float("nan")), "exploration constant c"),
        (lambda: AI("mcts", iterations=5, playouts=0), "playouts must be at least 1"),
        (lambda: AI("mcts", iterations=5, trees=0), "trees must be at least 1"),
        (lambda: AI("random", seed=-1), "seed must be at least 0"),
        (lambda: AI("mcts", threads=0), "threads must be at least 1"),
        (lambda: AI.parse("mcts:iterations=many"), "iterations must be an integer, got 'many'"),
        (lambda: AI.parse("mcts:depth=3"), "mcts takes iterations, time, c, playouts"),
        (lambda: AI.parse("negamax"), "unknown AI 'negamax'"),
    ],
)
def test_ai_option_errors(make, fragment):
    with pytest.raises(InvalidParameter, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        make()


def test_ais_refuse_a_finished_game_and_other_objects():
    game = finished_game()
    before = state_of(game)
    agents = [AI(name) for name in ("random", "greedy", "fractal", "minimax")]
    agents.append(AI("mcts", iterations=5))
    for agent in agents:
        with pytest.raises(InvalidMove, match="the game is over"):
            agent.choose(game)
        with pytest.raises(InvalidParameter, match="game must be an annexation Game"):
            agent.choose(oracle.Game(PATH))  # type: ignore[arg-type]
    assert_state(game, before)


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"n": -1}, "n must be at least 0, got -1"),
        ({"n": 2.0}, "n must be an integer"),
        ({"policy": "heavy"}, "policy must be one of ('random', 'light'), got 'heavy'"),
        ({"steps": 4}, "steps only applies to the 'light' policy"),
        ({"policy": "light", "steps": -1}, "steps must be at least 0"),
        ({"seed": -5}, "seed must be at least 0"),
        ({"seed": 2**64}, "seed must be at most"),
        ({"threads": 0}, "threads must be at least 1"),
    ],
)
def test_playout_errors_leave_the_game_untouched(options, fragment):
    game = Game(PATH)
    game.play(1)
    before = state_of(game)
    arguments = {"n": 10, **options}
    with pytest.raises(InvalidParameter, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        playouts(game, **arguments)
    assert_state(game, before)
    with pytest.raises(InvalidParameter, match="game must be an annexation Game"):
        playouts(oracle.Game(PATH), 3)  # type: ignore[arg-type]


def _batch_copy(state: batch.BatchState) -> list[np.ndarray]:
    names = ("owner", "player_colours", "current_player", "moves", "winner", "terminated")
    arrays = [np.array(getattr(state, name), copy=True) for name in names]
    return [*arrays, state.rewards.copy(), state.legal_action_mask.copy()]


def test_batch_step_errors_name_the_problem_and_leave_the_state_untouched():
    state = batch.init(PATH, 3)
    state = batch.step(state, np.array([1, 1, 2]))
    copies = _batch_copy(state)
    bad_shapes = [
        (np.array([1, 2]), "actions must be 3 integers (one per row), got shape (2,)"),
        (np.array([[1, 2, 1]]), "got shape (1, 3)"),
        (np.array([1.0, 2.0, 1.0]), "dtype float64"),
        (np.array([True, False, True]), "dtype bool"),
        (np.array(["1", "2", "1"]), "dtype <U1"),
        (5, "got shape ()"),
    ]
    for actions, fragment in bad_shapes:
        with pytest.raises(
            InvalidParameter, match=fragment.replace("(", r"\(").replace(")", r"\)")
        ):
            batch.step(state, actions)
    # Player 1 to move in every row, colours [1, 3] in row 0 and 1, [2, 3] in row 2.
    illegal = [
        ([0, 3, 0], InvalidMove, "row 1: colour 3 is player 1's own colour"),
        ([0, 0, 2], InvalidMove, "row 2: colour 2 is player 0's colour"),
        ([9, 0, 0], InvalidMove, "row 0: colour 9 is out of range 0..3"),
        ([0, 0, -1], InvalidMove, "row 2: colour -1 is out of range 0..3"),
    ]
    for actions, error, fragment in illegal:
        with pytest.raises(error, match=fragment):
            batch.step(state, np.array(actions))
    with pytest.raises(InvalidParameter, match="state must be a BatchState"):
        batch.step(Game(PATH), np.array([0, 0, 0]))  # type: ignore[arg-type]
    with pytest.raises(InvalidParameter, match="threads must be at least 1"):
        batch.step(state, np.array([0, 0, 0]), threads=0)
    for copy, now in zip(copies, _batch_copy(state), strict=True):
        np.testing.assert_array_equal(copy, now)
    with pytest.raises(ValueError, match="read-only"):
        state.owner[0, 0] = 1
    # The state still steps as before.
    stepped = batch.step(state, np.array([0, 0, 0]))
    assert stepped.moves.tolist() == [2, 2, 2]
    with pytest.raises(InvalidParameter, match="batch must be at least 1"):
        batch.init(PATH, 0)


# -- determinism -----------------------------------------------------------------------------


@pytest.mark.parametrize("policy", ["random", "light"])
def test_playouts_are_the_same_for_one_two_and_three_threads(policy):
    game = Game(Board.hexagon(5, seed=3, players=3), seed=17)
    for colour in (1, 2, 3):
        if colour in game.legal_moves():
            game.play(colour)
    results = [playouts(game, 2500, policy=policy, threads=t) for t in (1, 2, 3)]
    for result in results:
        assert int(result.wins.sum() + result.draws) == 2500
        np.testing.assert_array_equal(result.wins, results[0].wins)
        assert (result.draws, result.margin_sum) == (results[0].draws, results[0].margin_sum)
    # The game's seed is the default seed; another seed gives other playouts.
    assert tally(playouts(game, 2500, policy=policy, seed=17, threads=2)) == tally(results[0])
    assert tally(playouts(game, 2500, policy=policy, seed=18, threads=2)) != tally(results[0])


def test_mcts_with_three_trees_is_the_same_for_one_and_two_threads():
    # plan=0: every move is searched (the agent plays both sides, often the greedy colour).
    options = {"iterations": 150, "trees": 3, "playouts": 2, "c": 0.8, "plan": 0}
    games = [Game(Board.hexagon(3, seed=8)) for _ in range(2)]
    agents = [AI("mcts", seed=21, threads=t, **options) for t in (1, 2)]
    for _ in range(6):
        if games[0].is_over:
            break
        chosen = [agent.choose(game) for agent, game in zip(agents, games, strict=True)]
        assert chosen[0] == chosen[1]
        assert agents[0].root_visits() == agents[1].root_visits()
        assert agents[0].last_iterations == agents[1].last_iterations == 450
        for game in games:
            game.play(chosen[0])


def test_play_match_is_the_same_for_one_and_two_threads():
    board = Board.hexagon(3, seed=2)
    results = [
        play_match(
            "mcts:iterations=20", "random", board=board, games=9, seed=5, threads=t, progress=False
        )
        for t in (1, 2)
    ]
    assert results[0] == results[1]
    assert results[0].wins_a + results[0].wins_b + results[0].draws == 9


# -- saved games -----------------------------------------------------------------------------


def test_a_saved_game_loads_and_continues_identically(tmp_path):
    board = Board.hexagon(3, seed=6, players=3, colour_count=6)
    game = Game(board, seed=2**64 - 9, mode="adjacent", allow_opponent_colours=True, max_moves=80)
    for _ in range(5):
        game.play(GREEDY.choose(game))
    path = tmp_path / "game.json"
    game.save(path)
    assert not path.with_name("game.json.partial").exists()
    loaded = Game.load(path)
    assert (loaded.seed, loaded.rules, loaded.board) == (game.seed, game.rules, game.board)
    assert_state(loaded, state_of(game), "the loaded game differs")
    assert tally(playouts(loaded, 50, threads=1)) == tally(playouts(game, 50, threads=1))
    while not game.is_over:
        colour = GREEDY.choose(game)
        assert GREEDY.choose(loaded) == colour
        game.play(colour)
        loaded.play(colour)
        assert_state(loaded, state_of(game), "the loaded game played on differently")


def test_a_tampered_history_is_refused_naming_the_move(tmp_path):
    game = Game(PATH)
    game.play(1)
    game.play(2)
    game.play(3)
    path = tmp_path / "game.json"
    game.save(path)
    data = json.loads(path.read_text())
    for index, colour, why in [
        (1, 3, "own colour"),  # player 1 is coloured 3
        (2, 7, "out of range"),
        (2, 2, "player 1's colour"),
    ]:
        tampered = {
            **data,
            "history": [*data["history"][:index], colour, *data["history"][index + 1 :]],
        }
        path.write_text(json.dumps(tampered))
        with pytest.raises(InvalidBoard, match=f"move {index}: .*{why}"):
            Game.load(path)
    tampered = {**data, "history": [*data["history"], "red"]}
    path.write_text(json.dumps(tampered))
    with pytest.raises(InvalidBoard, match="move 3"):
        Game.load(path)


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b"\x00\x01garbage\xff", "not a saved annexation game"),
        (b'{"format": "stratagem.annexation.game", "version": 1, "board"', "not a saved"),
        (b"[1, 2, 3]", "not a saved annexation game"),
        (b'{"format": "stratagem.conquest.game", "version": 1}', "not a saved annexation game"),
        (b'{"format": "stratagem.annexation.game", "version": 99}', "unknown saved-game version"),
        (b'{"format": "stratagem.annexation.game", "version": 1}', "missing or malformed field"),
    ],
)
def test_a_corrupt_saved_game_is_refused(tmp_path, content, fragment):
    path = tmp_path / "corrupt.json"
    path.write_bytes(content)
    with pytest.raises(InvalidBoard, match=fragment):
        Game.load(path)


@pytest.fixture
def saved(tmp_path: Path) -> tuple[Path, dict]:
    """A new game saved as JSON: the file, and its data to spoil and write back."""
    path = tmp_path / "game.json"
    Game(PATH).save(path)
    return path, json.loads(path.read_text())


@pytest.mark.parametrize(
    ("field", "value", "fragment"),
    [
        ("rules", [1], "missing or malformed field"),
        ("rules", "x", "missing or malformed field"),
        ("history", 5, "missing or malformed field"),
        ("history", [1.0], "move 0"),
        ("history", [2**70], "move 0"),
        ("board", None, "not the dictionary of an annexation board"),
        ("seed", "abc", "seed must be"),
        ("seed", -1, "seed must be"),
        ("seed", 2**64, "seed must be"),
        # Everything wrong inside a saved file is InvalidBoard, naming the file and the cause.
        ("rules", {"mode": "sideways"}, r"game\.json: .*mode must be one of"),
    ],
    ids=[
        "rules-list",
        "rules-str",
        "history-int",
        "history-float",
        "history-huge",
        "board-none",
        "seed-str",
        "seed-negative",
        "seed-huge",
        "rules-unknown-mode",
    ],
)
def test_a_saved_game_with_a_malformed_field_is_refused(saved, field, value, fragment):
    path, data = saved
    data[field] = value
    path.write_text(json.dumps(data))
    with pytest.raises(InvalidBoard, match=fragment):
        Game.load(path)


def test_a_saved_game_with_unknown_rules_is_refused(saved):
    path, data = saved
    data["rules"]["gravity"] = True
    path.write_text(json.dumps(data))
    with pytest.raises(InvalidBoard, match="missing or malformed field"):
        Game.load(path)


# -- Ctrl-C and time budgets -----------------------------------------------------------------


def test_ctrl_c_stops_long_playouts_quickly():
    game = Game(Board.hexagon(8, seed=1), seed=3)
    game.play(game.legal_moves()[0])
    before = state_of(game)
    assert seconds_to_stop_after_ctrl_c(lambda: playouts(game, 10**9, threads=2)) < 0.5
    assert_state(game, before, "the interrupted playouts changed the game")
    assert playouts(game, 10, threads=1).playouts == 10


def test_mcts_with_a_time_budget_returns_a_legal_move():
    game = Game(Board.hexagon(4, seed=9))
    agent = AI("mcts", time=0.05, seed=4, trees=2, plan=0)  # plan=0: every move is searched
    colour = agent.choose(game)
    assert colour in game.legal_moves()
    assert agent.last_iterations > 0
    # A fresh tree: every iteration passes through one root child, once per playout.
    assert sum(agent.root_visits()) == agent.last_iterations
    game.play(colour)
    assert agent.choose(game) in game.legal_moves()
    assert agent.last_iterations > 0
