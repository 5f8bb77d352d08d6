"""The conquest commands: run (with saving, loading, plots), odds, tournament, bad input."""

from __future__ import annotations

import csv
import itertools
import json
import shlex

import numpy as np
import pytest

from cli_helpers import Command
from stratagem.cli import main
from stratagem.conquest import POLICIES, defaults
from stratagem.conquest.board import Board
from stratagem.conquest.game import Game, start
from stratagem.conquest.plot import DRAW_LIMIT, draw_board
from stratagem.conquest.tournament import round_robin
from stratagem.errors import InvalidParameter

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SMALL_GAME = ["--board", "grid:12x12", "--teams", "3", "--assign", "random", "--seed", "7"]

cli = Command("conquest")
run_json = cli.run_json
failure = cli.failure


def test_run_reports_the_standings(capsys):
    report = run_json(
        capsys, "play", *SMALL_GAME, "--players", "balanced,aggressive", "--turns", "40"
    )
    assert report["players"] == ["balanced", "aggressive", "balanced"]
    assert report["territories"] == 144
    assert report["borders"] == 2 * 12 * 11
    assert report["outcome"] in ("won", "drawn", "unfinished")
    assert report["turn"] == report["turns_played"] <= 40
    assert sum(report["final"]["territories"]) == 144
    assert report["turns_per_second"] > 0
    if report["outcome"] == "unfinished":
        assert report["turn"] == 40
        assert report["winners"] == []
    if report["outcome"] == "won":
        (winner,) = report["winners"]
        assert report["final"]["territories"][winner] > 0


def test_the_old_spellings_still_work_with_a_note(capsys, tmp_path):
    board = tmp_path / "board.png"
    argv = ["run", *SMALL_GAME, "--policy", "random,balanced", "--turns", "3", "--draw", str(board)]
    assert main(["conquest", *argv, "--json"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["players"] == ["random", "balanced", "random"]
    assert report["files"] == {"png": str(board)}
    for old, new in (
        ("'conquest run'", "'conquest play'"),
        ("--policy", "--players"),
        ("--draw", "--png"),
    ):
        assert f"note: {old} is deprecated; use {new}" in captured.err


def test_run_text_output(capsys):
    assert main(["conquest", "play", *SMALL_GAME, "--turns", "5"]) == 0
    out = capsys.readouterr().out
    assert "conquest on grid:12x12 (144 territories" in out
    assert "turns/s" in out
    assert "opportunist" in out  # the third default policy


def test_save_then_load_continues_like_an_uninterrupted_game(capsys, tmp_path):
    whole, first, second = (tmp_path / name for name in ("whole.npz", "a.npz", "b.npz"))
    uninterrupted = run_json(capsys, "play", *SMALL_GAME, "--turns", "30", "--save", str(whole))
    run_json(capsys, "play", *SMALL_GAME, "--turns", "12", "--save", str(first))
    resumed = run_json(capsys, "play", "--load", str(first), "--turns", "18", "--save", str(second))
    assert resumed["turns_played"] == min(18, uninterrupted["turn"] - 12)
    for key in ("outcome", "winners", "turn", "final"):
        assert resumed[key] == uninterrupted[key]
    one, other = Game.load(whole), Game.load(second)
    assert np.array_equal(one.team, other.team)
    assert np.array_equal(one.troops, other.troops)
    assert np.array_equal(one.history.troops, other.history.troops)


def test_load_refuses_options_of_a_new_game(capsys, tmp_path):
    saved = tmp_path / "game.npz"
    run_json(capsys, "play", *SMALL_GAME, "--turns", "2", "--save", str(saved))
    error, _ = failure(capsys, "play", "--load", str(saved), "--board", "grid:5x5")
    assert error["type"] == "InvalidParameter"
    assert "--board" in error["message"]
    error, _ = failure(capsys, "play", "--load", str(saved), "--seed", "8")
    assert "seed 7" in error["message"]


def test_plots_are_written_as_png(capsys, tmp_path):
    history, board = tmp_path / "history.png", tmp_path / "board.png"
    report = run_json(
        capsys,
        "play",
        *SMALL_GAME,
        "--turns",
        "10",
        "--history-png",
        str(history),
        "--png",
        str(board),
    )
    assert report["files"] == {"history_png": str(history), "png": str(board)}
    for path in (history, board):
        assert path.read_bytes()[:8] == PNG_MAGIC


def test_draw_board_lays_out_boards_without_positions(tmp_path):
    board = Board.from_spec("er:40:degree=3:seed=2")
    team = np.arange(board.n) % 2
    path = draw_board(board, team, np.full(board.n, 3), tmp_path / "er.png")
    assert path.read_bytes()[:8] == PNG_MAGIC


def test_draw_board_refuses_big_boards_naming_the_limit(capsys, tmp_path):
    error, _ = failure(
        capsys, "play", "--board", "grid:101x100", "--turns", "0", "--png", str(tmp_path / "x.png")
    )
    assert error["type"] == "InvalidParameter"
    assert f"at most {DRAW_LIMIT}" in error["message"]


def test_odds_of_one_against_one(capsys):
    report = run_json(capsys, "odds", "1", "1", "--simulate", "70000", "--seed", "3")
    exact = report["exact"]
    assert exact["attacker"] * 7 == pytest.approx(1)
    assert exact["defender"] * 7 == pytest.approx(3)
    assert exact["both"] * 7 == pytest.approx(3)
    assert report["fractions"] == {"attacker": "1/7", "defender": "3/7", "both": "3/7"}
    simulated = report["simulated"]
    assert sum(simulated["counts"].values()) == 70000
    assert simulated["degrees_of_freedom"] == 2
    assert simulated["chi_square_p_value"] > 1e-4
    assert simulated["frequencies"]["attacker"] == pytest.approx(1 / 7, abs=0.01)


def test_odds_modes_and_impossible_outcomes(capsys):
    report = run_json(capsys, "odds", "0", "3", "--simulate", "100")
    assert report["exact"] == {"attacker": 0.0, "defender": 1.0, "both": 0.0}
    assert report["simulated"]["chi_square_p_value"] == 1.0
    both_attack = run_json(capsys, "odds", "4", "4", "--defender-mode", "attack")
    assert both_attack["exact"]["attacker"] == pytest.approx(both_attack["exact"]["defender"])


def test_tournament_table_csv_and_plot(capsys, tmp_path):
    table, bars = tmp_path / "table.csv", tmp_path / "bars.png"
    options = "--board grid:6x6 --players random,balanced,opportunist --games 6 --turns 60"
    report = run_json(
        capsys, "tournament", *options.split(), "--csv", str(table), "--png", str(bars)
    )
    rows = report["rows"]
    assert len(rows) == 3 * 2 + 3
    for row in rows:
        assert row["wins"] + row["losses"] + row["draws"] + row["unfinished"] == row["games"]
        assert row["interval_low"] <= row["win_rate"] <= row["interval_high"]
    overall = [row for row in rows if row["opponent"] == "all"]
    assert [row["games"] for row in overall] == [12, 12, 12]
    with open(table, newline="", encoding="utf-8") as handle:
        assert len(list(csv.DictReader(handle))) == len(rows)
    assert bars.read_bytes()[:8] == PNG_MAGIC


def test_round_robin_is_consistent_and_independent_of_threads():
    board = Board.grid(6, 6)
    policies = ["aggressive", "balanced"]
    one = round_robin(board, policies, games=8, seed=4, max_turns=80, threads=1)
    two = round_robin(board, policies, games=8, seed=4, max_turns=80, threads=2)
    assert one.to_rows() == two.to_rows()
    pair = one.pair("balanced", "aggressive")
    rows = {(row["policy"], row["opponent"]): row for row in one.to_rows()}
    assert rows["aggressive", "balanced"]["wins"] == rows["balanced", "aggressive"]["losses"]
    assert pair.first_wins + pair.second_wins + pair.draws + pair.unfinished == 8
    with pytest.raises(InvalidParameter, match="at least 2"):
        round_robin(board, policies, games=1)
    with pytest.raises(InvalidParameter, match="once"):
        round_robin(board, ["random", "random"], games=2)


@pytest.mark.parametrize("seed", [0, 1])
def test_the_rules_beat_random_from_regions_on_a_grid(seed):
    # Two regions of a grid meet on one long straight front, where each territory faces one
    # or two enemies: the rules must still take ground there (they press after a strike
    # instead of walking forward in a few stacks; docs/conquest-rules.md).
    policies = ["random", "aggressive", "balanced", "opportunist"]
    scores = round_robin(Board.grid(16, 16), policies, games=10, seed=seed, assign="regions")
    for name in policies[1:]:
        record = scores.pair(name, "random").score(name)
        assert (record.wins, record.games) == (10, 10), name


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        ("play --players aggressive,bogus", "'bogus'"),
        ("play --board hexagon:5", "hexagon"),
        ("play --board grid:0x5", "grid:0x5"),
        ("play --teams 1", "--teams"),
        ("play --teams 2 --players random,balanced,aggressive", "3 policies"),
        ("play --load /nonexistent/game.npz", "no such file"),
        ("tournament --players random,bogus --games 2", "'bogus'"),
        ("play --players conquest_spread:nowhere", "conquest_spread has no nowhere"),
        ("play --players no_such_module_here:f", "cannot import no_such_module_here"),
        ("play --players /nonexistent/policy.py:f", "no file /nonexistent/policy.py"),
        ("tournament --games 1", "games"),
        ("odds 1 1 --simulate 0", "--simulate"),
        ("play --players search:rollouts=0,random", "rollouts must be an integer from 1 to 256"),
        ("play --players search:rollouts=-3,random", "search:rollouts=-3"),
        ("play --players search:depth=100000,random", "depth must be an integer from 1 to 32"),
        ("play --players search:width=2,random", 'unknown option "width"'),
        ("play --players search:rollouts,random", "search:rollouts"),
        ("tournament --players random,search:rollouts=9999999999 --games 2", "9999999999"),
        ("play --players balanced:fast,random", "balanced:fast"),
    ],
)
def test_bad_input_exits_2_with_the_error_named(capsys, argv, named):
    error, err = failure(capsys, *shlex.split(argv))
    assert named in error["message"]
    assert named in err


def test_demo_part_plays_a_game_and_checks_the_odds():
    from stratagem.cli.demo import _PARTS

    lines: list[str] = []
    report = dict(_PARTS)["conquest"](5, 2, lines.append)
    assert report["turns"] > 0
    assert sum(report["territories"]) == 42  # the RISK map of the default game
    assert report["status"] in ("won", "draw")
    assert report["odds_exact"] == pytest.approx([1 / 7, 3 / 7, 3 / 7])
    assert report["odds_simulated"] == pytest.approx([1 / 7, 3 / 7, 3 / 7], abs=0.005)
    assert any("turns/s" in line for line in lines)


def test_tournament_resumes_from_its_checkpoint(tmp_path):
    board = Board.grid(8, 8)
    policies = ["random", "balanced", "opportunist"]
    kwargs = {"games": 6, "seed": 4, "max_turns": 80}
    uninterrupted = round_robin(board, policies, **kwargs)
    path = tmp_path / "tournament.json"
    round_robin(board, policies, checkpoint=path, **kwargs)
    # As if interrupted after the first pair: keep only that pair in the checkpoint.
    saved = json.loads(path.read_text())
    saved["done"] = saved["done"][:1]
    path.write_text(json.dumps(saved))
    resumed = round_robin(board, policies, checkpoint=path, **kwargs)
    assert resumed == uninterrupted
    assert len(json.loads(path.read_text())["done"]) == 3
    with pytest.raises(InvalidParameter, match="checkpoint of another tournament"):
        round_robin(board, policies, checkpoint=path, **{**kwargs, "games": 8})
    # A tampered result (more wins than games) is refused, naming the fixture.
    saved = json.loads(path.read_text())
    assert saved["columns"] == ["first_wins", "second_wins", "draws", "unfinished", "turns"]
    saved["done"][0][1][0] = 999
    path.write_text(json.dumps(saved))
    with pytest.raises(InvalidParameter, match="fixture 0: wins, draws and unfinished"):
        round_robin(board, policies, checkpoint=path, **kwargs)
    path.write_text("not json")
    with pytest.raises(InvalidParameter, match="not a checkpoint"):
        round_robin(board, policies, checkpoint=path, **kwargs)


POLICY_FILE = """
import numpy as np


class Hold:
    \"\"\"Defends every border with one soldier where it can.\"\"\"

    def __call__(self, view):
        source = np.repeat(np.arange(view.team.shape[0]), np.diff(view.indptr))
        mine = (view.team[source] == view.team_id) & view.owned[source]
        return np.where(mine & (view.troops[source] >= 4), -1, 0).astype(np.int64)
"""


def test_python_policies_by_module_and_by_file(capsys, tmp_path):
    path = tmp_path / "hold.py"
    path.write_text(POLICY_FILE)
    players = f"conquest_spread:push_to_weakest,{path}:Hold,balanced"
    report = run_json(capsys, "play", *SMALL_GAME, "--players", players, "--turns", "15")
    assert report["players"] == ["custom", "custom", "balanced"]
    # The same game with the policies given to Game directly.
    from conquest_spread import push_to_weakest
    from stratagem.conquest.board import assign_random, troops_uniform
    from stratagem.conquest.policies import load_policy

    board = Board.grid(12, 12)
    game = Game(
        board,
        assign_random(board, 3, 7),
        troops_uniform(board, 10),
        [push_to_weakest, load_policy(f"{path}:Hold"), "balanced"],
        seed=7,
        max_turns=None,
    )
    result = game.run(15)
    assert report["final"]["troops"] == result.troops.tolist()


@pytest.mark.parametrize("seed", range(10))
def test_the_demo_game_ends_with_a_result(seed):
    from stratagem.cli.demo import _PARTS

    report = dict(_PARTS)["conquest"](seed, 1, lambda line: None)
    assert report["status"] in ("won", "draw")


@pytest.mark.parametrize("seed", range(10))
def test_the_default_game_ends_with_a_result(capsys, seed):
    report = run_json(capsys, "play", "--seed", str(seed))
    assert report["board"] == "risk"
    assert report["players"] == ["balanced", "opportunist"]
    assert report["outcome"] in ("won", "drawn"), report["final"]
    assert report["turn"] < 500


@pytest.mark.parametrize(
    "players", list(itertools.combinations_with_replacement(POLICIES, 2)), ids="-".join
)
def test_every_pair_of_players_ends_the_default_game(players):
    # Issue 37's floor (docs/conquest.md, "The default game"): two built-in players, the same
    # one twice too, end the default game within the default turn limit in >= 95% of seeds.
    # Both sides' fronts full at the troop limit stalled mirror games until the siege.
    board = Board.from_spec(defaults.BOARD)
    ended = 0
    for seed in range(100):
        team, troops = start(board, 2, defaults.TROOPS, defaults.ASSIGN, seed, progress=False)
        game = Game(board, team, troops, list(players), seed=seed, max_turns=defaults.TURNS)
        ended += game.run().status != "unfinished"
    assert ended >= 95, f"{players}: {ended} of 100 seeds ended"


@pytest.mark.parametrize(
    ("players", "teams", "seated"),
    [
        ("balanced,opportunist", None, ["balanced", "opportunist"]),
        ("random,aggressive,balanced", None, ["random", "aggressive", "balanced"]),
        ("random", None, ["random", "random"]),
        ("balanced,opportunist", "4", ["balanced", "opportunist", "balanced", "opportunist"]),
    ],
)
def test_players_name_the_teams_unless_teams_says_otherwise(capsys, players, teams, seated):
    asked = ["--teams", teams] if teams else []
    report = run_json(capsys, "play", "--players", players, *asked, "--turns", "1")
    assert report["players"] == seated
    assert len(report["final"]["territories"]) == len(seated)


def test_search_plays_from_the_command_line_and_in_tournaments(capsys):
    report = run_json(
        capsys, "play", "--board", "grid:6x6", "--players", "search:rollouts=2:depth=2,random"
    )
    assert report["players"] == ["search:rollouts=2:depth=2", "random"]
    assert report["outcome"] == "won"
    table = run_json(
        capsys,
        "tournament",
        "--board",
        "grid:6x6",
        "--players",
        "search:rollouts=2:depth=2,random",
        "--games",
        "4",
    )
    assert table["policies"] == ["search:rollouts=2:depth=2", "random"]


def test_a_distributed_game_refuses_the_search_player_before_playing():
    from stratagem.conquest.distributed import DistributedGame

    board = Board.grid(4, 4)
    with pytest.raises(InvalidParameter, match="search player plays in one process only"):
        DistributedGame(board, [0, 1] * 8, 5, ["search:rollouts=2", "random"])
