"""Game.from_spec: on a grid the engine builds its board from the grid's closed forms and
grows the regions on it, and the game is the one ``Game(Board.from_spec(spec), start, ...)``
plays, turn by turn; the Python board is built only when asked for (saving, drawing, custom
policies). Bad input raises what DistributedGame.from_spec raises."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli_helpers import Command
from conquest_spread import first_difference, play_alongside, policies_of, whole_game
from stratagem import _core
from stratagem.conquest import Board, Game, oracle
from stratagem.conquest.board import regions_first
from stratagem.conquest.distributed import DistributedGame
from stratagem.conquest.game import PolicyView
from stratagem.errors import StratagemError


def spec_game(
    spec: str, teams: int, troops: int, seed: int, assign: str = "regions", **options: Any
) -> Game:
    policies = options.pop("policies", policies_of(teams))
    return Game.from_spec(spec, teams, troops, policies, assign=assign, seed=seed, **options)  # type: ignore[arg-type]


def grid_specs() -> st.SearchStrategy[str]:
    plain = st.builds(lambda r, c: f"grid:{r}x{c}", st.integers(1, 12), st.integers(1, 12))
    torus = st.builds(lambda r, c: f"grid:{r}x{c}:torus", st.integers(3, 12), st.integers(3, 12))
    return plain | torus


@settings(max_examples=80, deadline=None)
@given(
    spec=grid_specs(),
    teams=st.integers(2, 5),
    assign=st.sampled_from(["regions", "random"]),
    seed=st.integers(0, 2**64 - 1),
    troops=st.integers(0, 6),
)
def test_from_spec_plays_the_game_of_the_whole_board(
    spec: str, teams: int, assign: str, seed: int, troops: int
) -> None:
    board = Board.from_spec(spec)
    if teams > board.n:
        with pytest.raises(StratagemError, match=f"exceeds the {board.n} territories"):
            spec_game(spec, teams, troops, seed, assign)
        return
    game = spec_game(spec, teams, troops, seed, assign, max_turns=25, threads=1)
    assert game._board is None
    assert tuple(game.board_shape) == (board.kind, board.n, board.n_borders)
    assert play_alongside(game, whole_game(spec, teams, troops, seed, assign, max_turns=25)) == []
    assert game._board is None  # playing never needed it
    assert game.board == board


@pytest.mark.parametrize(
    ("spec", "teams", "assign"),
    [
        ("grid:1x2", 2, "regions"),
        ("grid:2x1", 2, "random"),
        ("grid:1x60", 3, "regions"),
        ("grid:60x1", 4, "random"),
        ("grid:3x3:torus", 9, "regions"),
        ("grid:30x40", 4, "regions"),
        ("grid:30x40", 4, "random"),
        ("grid:17x23:torus", 5, "regions"),
        ("grid:17x23:torus", 3, "random"),
        ("grid:8x8", 64, "regions"),
    ],
)
@pytest.mark.parametrize("seed", [0, 1, 12345])
@pytest.mark.parametrize("threads", [1, 2])
def test_from_spec_equals_the_game_of_the_whole_board_turn_by_turn(
    spec: str, teams: int, assign: str, seed: int, threads: int
) -> None:
    options = {"max_turns": 40, "rate": 0.5, "cap": 50, "policies": policies_of(teams)}
    game = spec_game(spec, teams, 4, seed, assign, threads=threads, **options)
    assert play_alongside(game, whole_game(spec, teams, 4, seed, assign, **options)) == []


@settings(max_examples=60, deadline=None)
@given(
    rows=st.integers(1, 40),
    cols=st.integers(1, 40),
    teams=st.integers(2, 6),
    seed=st.integers(0, 2**64 - 1),
)
def test_a_plane_grids_closed_form_regions_are_the_oracles(
    rows: int, cols: int, teams: int, seed: int
) -> None:
    board = Board.grid(rows, cols)
    if teams > board.n:
        return
    game = spec_game(f"grid:{rows}x{cols}", teams, 3, seed, policies=["balanced"] * teams)
    first = regions_first(board.n, seed)
    assert game.team.tolist() == oracle.regions_of(board.indptr, board.indices, first, teams)


def test_the_engine_deals_the_regions_of_the_arrays() -> None:
    for rows, cols, torus in [(1, 1, False), (1, 9, False), (7, 4, False), (5, 6, True)]:
        board = Board.grid(rows, cols, torus)
        engine = _core.conquest.Board.grid(rows, cols, torus)
        assert (engine.n, engine.n_borders) == (board.n, board.n_borders)
        for first in (0, board.n - 1, board.n // 2):
            for teams in range(1, min(board.n, 5) + 1):
                expected = _core.conquest.regions_of(board.indptr, board.indices, first, teams)
                assert np.array_equal(_core.conquest.board_regions(engine, first, teams), expected)
    with pytest.raises(StratagemError, match=r"outside 0\.\.4"):
        _core.conquest.board_regions(_core.conquest.Board.grid(2, 2, False), 4, 2)
    with pytest.raises(StratagemError, match="a torus needs at least 3 rows"):
        _core.conquest.Board.grid(2, 5, True)


def test_other_boards_are_built_whole() -> None:
    for spec, assign in [("ring:30", "regions"), ("rgg:200:seed=3", "random")]:
        game = spec_game(spec, 3, 5, 4, assign, max_turns=30)
        assert game._board is not None
        assert play_alongside(game, whole_game(spec, 3, 5, 4, assign, max_turns=30)) == []


def test_a_game_from_a_spec_saves_and_loads(tmp_path: Path) -> None:
    game = spec_game("grid:9x11:torus", 3, 5, 8, max_turns=60)
    game.run(7)
    assert game._board is None
    game.save(tmp_path / "game.npz")  # saving needs the whole board: built now
    assert game.board == Board.grid(9, 11, torus=True)
    loaded = Game.load(tmp_path / "game.npz")
    whole = whole_game("grid:9x11:torus", 3, 5, 8, max_turns=60)
    whole.run(7)
    assert first_difference(loaded, whole) is None
    assert play_alongside(loaded, whole) == []
    with pytest.raises(AttributeError, match="fixed"):
        game.board = Board.grid(9, 11)


def test_a_custom_policy_sees_the_board_built_on_first_use() -> None:
    def cautious(view: PolicyView) -> Any:
        """Every territory of the team defends its first border with all its troops."""
        placed = np.zeros(view.indices.shape[0], dtype=np.int64)
        rows = np.flatnonzero((view.team == view.team_id) & (np.diff(view.indptr) > 0))
        placed[view.indptr[rows]] = -view.troops[rows]
        return placed

    policies: list[Any] = ["balanced", cautious]
    game = spec_game("grid:6x7", 2, 3, 2, policies=policies, max_turns=15)
    assert game._board is None
    whole = whole_game("grid:6x7", 2, 3, 2, policies=policies, max_turns=15)
    assert play_alongside(game, whole) == []
    assert game._board == Board.grid(6, 7)


BAD_INPUT = [
    ({"spec": "grid:0x5"}, "rows must be at least 1"),
    ({"spec": "grid:2x2:torus"}, "a torus needs at least 3 rows"),
    ({"spec": "grid:4"}, "cols (grid:RxC) must be an integer"),
    ({"spec": "grid:1x1"}, "n_teams = 2 exceeds the 1 territories"),
    ({"spec": "nowhere:3"}, "nowhere"),
    ({"teams": 1}, "teams must be at least 2"),
    ({"teams": 65}, "teams must be at most 64"),
    ({"teams": 50}, "n_teams = 50 exceeds the 20 territories"),
    ({"teams": 3}, "3 teams, but 2 policies were given"),
    ({"troops": -1}, "troops must be at least 0"),
    ({"troops": 2**41}, "troops must be at most"),
    ({"seed": -1}, "seed must be at least 0"),
    ({"assign": "continents"}, "assign must be 'regions' or 'random'"),
    ({"policies": ["random", "sneaky"]}, "unknown policy 'sneaky'"),
    ({"policies": ["random", "search:rollouts=0"]}, "search:rollouts=0"),
    ({"policies": "random"}, "policies must be a sequence"),
    ({"rate": -1}, "rate must be a number between 0 and 10"),
    ({"cap": 0}, "cap must be at least 1"),
    ({"max_turns": 0}, "max_turns must be at least 1"),
    ({"threads": 0}, "threads"),
]


@pytest.mark.parametrize(("arguments", "message"), BAD_INPUT)
def test_bad_input_raises_what_the_distributed_game_raises(
    arguments: dict[str, Any], message: str
) -> None:
    given: dict[str, Any] = {
        "spec": "grid:4x5",
        "teams": 2,
        "troops": 3,
        "policies": ["random", "balanced"],
    }
    given |= arguments
    positional = [given.pop(key) for key in ("spec", "teams", "troops", "policies")]
    with pytest.raises(StratagemError) as caught:
        Game.from_spec(*positional, **given)
    with pytest.raises(StratagemError) as spread:
        DistributedGame.from_spec(*positional, **given)
    assert message in str(caught.value)
    assert (type(caught.value), str(caught.value)) == (type(spread.value), str(spread.value))


cli = Command("conquest")


@pytest.mark.parametrize("board", ["grid:9x14", "grid:10x10:torus"])
@pytest.mark.parametrize("assign", ["regions", "random"])
def test_the_command_plays_the_game_of_the_board_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, board: str, assign: str
) -> None:
    path = str(tmp_path / "board.npz")
    Board.from_spec(board).save(path)
    common = ["--teams", "3", "--turns", "30", "--assign", assign, "--seed", "6"]
    from_grid = cli.run_json(capsys, "play", "--board", board, *common)
    from_file = cli.run_json(capsys, "play", "--board", path, *common)
    assert from_grid["final"] == from_file["final"]
    assert (from_grid["board"], from_grid["territories"], from_grid["borders"]) == (
        board,
        from_file["territories"],
        from_file["borders"],
    )
