"""The OpenSpiel adapter (``stratagem.annexation.openspiel``): the registered game, its
agreement with the Rust engine played directly, the observer, cloning, serialization, and
OpenSpiel's own tools (the API conformance test, MCTSBot) running on it."""

from __future__ import annotations

import importlib
import pickle
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import mcts  # noqa: E402

from stratagem.annexation import Board, Game, batch, parse_board  # noqa: E402
from stratagem.annexation import openspiel as adapter  # noqa: E402
from stratagem.errors import InvalidParameter  # noqa: E402


def _replayed(board: Board, history: list[int], **rules: Any) -> Game:
    game = Game(board, **rules)
    for colour in history:
        game.play(colour)
    return game


def test_registered_and_loads_with_parameters() -> None:
    adapter.register()
    adapter.register()  # idempotent
    assert adapter.SHORT_NAME in pyspiel.registered_names()
    game = adapter.load_game(
        "hex:3", colours=5, seed=7, mode="adjacent", allow_opponent_colours=True, max_moves=20
    )
    assert game.get_parameters() == {
        "board": "hex:3",
        "colours": 5,
        "players": 2,
        "seed": 7,
        "mode": "adjacent",
        "allow_opponent_colours": True,
        "max_moves": 20,
    }
    assert game.num_distinct_actions() == 5
    assert game.max_game_length() == 20
    assert game.num_players() == 2
    kind = game.get_type()
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert game.board == Board.hexagon(3, colour_count=5, seed=7)
    # The default move limit is four moves per cell; OpenSpiel's own loaders work too.
    by_name = pyspiel.load_game("python_annexation(board=hex:2,seed=3)")
    assert by_name.max_game_length() == 4 * 19
    assert by_name.board == Board.hexagon(2, seed=3)
    by_dict = pyspiel.load_game(adapter.SHORT_NAME, {"board": "grid:4x3", "players": 3})
    assert by_dict.num_players() == 3
    assert by_dict.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert adapter.load_game().board == Board.hexagon(8)


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"colour": 5}, "unknown annexation parameter"),
        ({"colours": "5"}, "colours must be a int"),
        ({"allow_opponent_colours": 1}, "allow_opponent_colours must be a bool"),
        ({"seed": 1 << 40}, "seed must be in 0..2147483647"),
        ({"mode": "diagonal"}, "mode must be one of"),
        ({"board": "hex:x"}, "not understood"),
        ({"colours": 2}, "colour_count must be at least 3"),
    ],
)
def test_bad_parameters_raise_invalid_parameter(params: dict[str, Any], match: str) -> None:
    with pytest.raises(InvalidParameter, match=match):
        adapter.load_game(**params)


@pytest.mark.parametrize(
    ("spec", "params"),
    [
        ("hex:4", {"seed": 1}),
        ("hex:4", {"seed": 2, "mode": "adjacent", "max_moves": 15}),
        ("grid:5x4", {"players": 3, "colours": 5, "allow_opponent_colours": True}),
        ("hexrect:5x4", {"players": 4, "colours": 6, "seed": 3}),
    ],
)
def test_random_games_match_the_engine(spec: str, params: dict[str, Any]) -> None:
    game = adapter.load_game(spec, **params)
    players = params.get("players", 2)
    board = parse_board(
        spec, colour_count=params.get("colours", 8), players=players, seed=params.get("seed", 0)
    )
    rules = {
        "mode": params.get("mode", "flood"),
        "allow_opponent_colours": params.get("allow_opponent_colours", False),
        "max_moves": params.get("max_moves") or None,
    }
    rng = np.random.default_rng(5)
    for _ in range(3):
        state = game.new_initial_state()
        direct = Game(board, **rules)
        while not state.is_terminal():
            assert state.current_player() == direct.to_move
            assert state.legal_actions() == direct.legal_moves()
            assert state.legal_actions(direct.to_move) == direct.legal_moves()
            mask = state.legal_actions_mask()
            assert [a for a, on in enumerate(mask) if on] == direct.legal_moves()
            action = int(rng.choice(state.legal_actions()))
            state.apply_action(action)
            direct.play(action)
            assert state.game.scores.tolist() == direct.scores.tolist()
        assert direct.is_over
        assert state.current_player() == pyspiel.PlayerId.TERMINAL
        assert state.history() == direct.history
        assert state.game.owner.tolist() == direct.owner.tolist()
        winner = direct.winner
        expected = [0.0] * players if winner is None else [-1.0] * players
        if winner is not None:
            expected[winner] = 1.0
        assert state.returns() == expected
        assert state.rewards() == expected
        assert state.legal_actions() == []
        assert _replayed(board, state.history(), **rules).scores.tolist() == (
            direct.scores.tolist()
        )


def test_openspiel_conformance_test_passes() -> None:
    for game in (
        adapter.load_game("hex:3", seed=4),
        adapter.load_game("grid:4x4", players=3, colours=5, mode="adjacent"),
    ):
        pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_observer_tensor_shape_and_content() -> None:
    game = adapter.load_game("hex:2", seed=2)
    board = game.board
    n, k, p = board.cells, board.colour_count, board.players
    state = game.new_initial_state()
    for action in state.legal_actions()[:1]:
        state.apply_action(action)
    state.apply_action(state.legal_actions()[-1])
    state.apply_action(state.legal_actions()[0])  # player 1 to move
    assert state.current_player() == 1
    assert game.observation_tensor_shape() == [n, k + p]
    assert game.observation_tensor_size() == n * (k + p)

    observer = game.make_py_observer()
    assert observer.tensor.shape == (n * (k + p),)
    assert observer.dict["observation"].shape == (n, k + p)
    engine = state.game
    for player in range(p):
        observer.set_from(state, player)
        planes = observer.dict["observation"]
        assert np.shares_memory(planes, observer.tensor)
        assert planes.dtype == np.float32
        assert set(np.unique(planes).tolist()) <= {0.0, 1.0}
        # One colour per cell: the colour it shows.
        assert planes[:, :k].sum(axis=1).tolist() == [1.0] * n
        assert planes[:, :k].argmax(axis=1).tolist() == engine.cell_colours.tolist()
        # Ownership relative to the observing player: plane k is its own cells.
        owner = engine.owner
        for offset in range(p):
            owned_by = (player + offset) % p
            assert planes[:, k + offset].astype(bool).tolist() == (owner == owned_by).tolist()
        assert planes[:, k:].sum() == engine.scores.sum()
        # OpenSpiel's C++ side reads the same tensor.
        assert state.observation_tensor(player) == observer.tensor.tolist()
        assert str(state) in observer.string_from(state, player)
    # Seen by the player to move it is the batch API's observation.
    rows = batch.init(board, 1)
    for action in state.history():
        rows = batch.step(rows, np.array([action]))
    observer.set_from(state, state.current_player())
    assert (observer.dict["observation"] == rows.observation[0]).all()


def test_state_string_is_compact() -> None:
    game = adapter.load_game("hex:2", seed=2)
    state = game.new_initial_state()
    lines = str(state).splitlines()
    assert lines[0].startswith("hex:2 moves=0 scores=1,1")
    assert lines[0].endswith("A to move")
    assert [len(line.split()) for line in lines[1:]] == [3, 4, 5, 4, 3]
    assert lines[1].split()[0] == "A"
    assert lines[-1].split()[-1] == "B"
    assert state.action_to_string(0, 3) == "A:colour 3"
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert "won by" in str(state) or "drawn" in str(state)


def test_clone_is_independent() -> None:
    game = adapter.load_game("hex:3", seed=1)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    before = str(state)
    twin = state.clone()
    assert str(twin) == before
    assert twin.history() == state.history()
    assert twin.game is not state.game
    twin.apply_action(twin.legal_actions()[0])
    twin.apply_action(twin.legal_actions()[0])
    assert str(state) == before
    assert state.history() == twin.history()[:1]
    assert state.game.moves == 1
    assert twin.game.moves == 3
    state.apply_action(state.legal_actions()[-1])
    assert twin.game.moves == 3
    assert twin.game.history[:1] == state.game.history[:1]


def test_pickle_and_serialize_round_trip() -> None:
    game = adapter.load_game("hex:3", seed=1, mode="adjacent")
    state = game.new_initial_state()
    for _ in range(3):
        state.apply_action(state.legal_actions()[1])
    restored = pickle.loads(pickle.dumps(state))
    assert str(restored) == str(state)
    assert restored.history() == state.history()
    text = pyspiel.serialize_game_and_state(game, state)
    game_back, state_back = pyspiel.deserialize_game_and_state(text)
    assert str(game_back) == str(game)
    assert str(state_back) == str(state)
    assert state_back.game.rules == state.game.rules
    assert str(pickle.loads(pickle.dumps(game))) == str(game)


def test_mcts_bot_plays_a_legal_full_game() -> None:
    game = adapter.load_game("hex:3", seed=6)
    bots = [
        mcts.MCTSBot(
            game,
            1.4,
            40,
            mcts.RandomRolloutEvaluator(1, np.random.RandomState(side)),
            random_state=np.random.RandomState(10 + side),
        )
        for side in range(2)
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    direct = _replayed(game.board, state.history())
    assert direct.is_over
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_missing_open_spiel_raises_invalid_parameter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # makes `import pyspiel` fail
    monkeypatch.delitem(sys.modules, "stratagem.annexation.openspiel")
    with pytest.raises(InvalidParameter, match=r"pip install 'stratagem\[openspiel\]'") as info:
        importlib.import_module("stratagem.annexation.openspiel")
    assert isinstance(info.value, ImportError)


def test_the_package_does_not_need_open_spiel() -> None:
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "import stratagem.annexation as a\n"
        "assert 'stratagem.annexation.openspiel' not in sys.modules\n"
        "a.Game(a.Board.hexagon(2)).play(a.Game(a.Board.hexagon(2)).legal_moves()[0])\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
