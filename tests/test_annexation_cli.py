"""The annexation commands: play (with pictures, saving and loading), match, tournament,
playouts, render, bad input, and the demo's annexation part."""

from __future__ import annotations

import json

import pytest

from cli_helpers import Command
from stratagem.annexation import Board, Game, playouts
from stratagem.cli import main

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
# Deterministic agents, so that a game can be cut in two and continued exactly.
SMALL_GAME = ["--board", "hex:5", "--seed", "3", "--players", "greedy,minimax:depth=2"]

cli = Command("annexation")
run_json = cli.run_json
run_text = cli.run_text
failure = cli.failure


# -- play ----------------------------------------------------------------------------------


def test_play_reports_every_move_and_the_result(capsys):
    report = run_json(capsys, "play", *SMALL_GAME)
    assert report["board"] == "hex:5"
    assert report["players"] == ["greedy", "minimax:depth=2"]
    assert report["outcome"] in ("won", "drawn")
    moves = report["moves"]
    assert len(moves) == len(report["history"]) == report["turns_played"]
    assert [m["colour"] for m in moves] == report["history"]
    assert [m["player"] for m in moves] == [i % 2 for i in range(len(moves))]
    assert moves[-1]["scores"] == report["scores"]
    # The same game played through the Python API.
    game = Game(Board.hexagon(5, seed=3), 3)
    for colour in report["history"]:
        game.play(colour)
    assert game.scores.tolist() == report["scores"]
    assert game.outcome == report["outcome"]
    if report["outcome"] == "won":
        assert report["winners"] == [game.winner]
        assert report["scores"][game.winner] == max(report["scores"])
    else:
        top = max(report["scores"])
        assert report["winners"] == [q for q, s in enumerate(report["scores"]) if s == top]


def test_play_text_draws_the_board_in_rows(capsys):
    out = run_text(capsys, "play", *SMALL_GAME)
    assert "annexation on hex:5 (91 cells, 8 colours, flood, at most 364 moves), seed 3" in out
    assert "player 0 (A): greedy" in out
    assert "1.A" in out
    assert "result: player" in out
    rows = [line for line in out.splitlines() if set(line) <= set("AB. ") and line.strip()]
    assert len(rows) == 11  # a hexagon of radius 5 has 2 R + 1 rows
    assert sum(len(row.split()) for row in rows) == 91


def test_play_with_mcts_three_players_and_a_summary(capsys):
    report = run_json(
        capsys,
        "play",
        "--board",
        "voronoi:60",
        "--seats",
        "3",
        "--colours",
        "6",
        "--players",
        "mcts:iterations=50,random",
        "--stop-after",
        "9",
    )
    assert report["players"] == ["mcts:iterations=50", "random", "mcts:iterations=50"]
    assert report["turns_played"] == len(report["moves"]) <= 9
    assert report["rows"] is None  # Voronoi cells are not in rows
    out = run_text(
        capsys, "play", "--board", "voronoi:60", "--players", "greedy,mcts", "--stop-after", "4"
    )
    assert "cells: A " in out
    assert "result: not over after 4 moves" in out


def test_play_rule_options(capsys):
    report = run_json(
        capsys,
        "play",
        *SMALL_GAME,
        "--mode",
        "adjacent",
        "--allow-opponent-colours",
        "--turns",
        "6",
    )
    assert report["rules"] == {"mode": "adjacent", "allow_opponent_colours": True, "max_moves": 6}
    assert len(report["moves"]) <= 6
    assert report["outcome"] in ("won", "drawn")


def test_play_writes_the_png(capsys, tmp_path):
    picture = tmp_path / "game.png"
    report = run_json(capsys, "play", *SMALL_GAME, "--png", str(picture))
    assert report["files"] == {"png": str(picture)}
    assert picture.read_bytes()[:8] == PNG_MAGIC


def test_save_then_load_continues_like_an_uninterrupted_game(capsys, tmp_path):
    whole, first = tmp_path / "whole.json", tmp_path / "first.json"
    uninterrupted = run_json(capsys, "play", *SMALL_GAME, "--save", str(whole))
    part = run_json(capsys, "play", *SMALL_GAME, "--stop-after", "6", "--save", str(first))
    assert part["outcome"] == "unfinished"
    assert (part["turns_played"], part["winners"]) == (6, [])
    resumed = run_json(capsys, "play", "--load", str(first), "--players", "greedy,minimax:depth=2")
    assert resumed["loaded"] == str(first)
    assert resumed["turns_played"] == len(uninterrupted["moves"]) - 6
    for key in ("moves", "history", "scores", "winners", "outcome", "board"):
        assert resumed[key] == uninterrupted[key]
    # A finished game loads as it was and plays nothing more.
    again = run_json(capsys, "play", "--load", str(whole))
    assert again["turns_played"] == 0
    assert again["moves"] == uninterrupted["moves"]
    assert Game.load(whole).history == uninterrupted["history"]


def test_load_refuses_options_of_a_new_game(capsys, tmp_path):
    saved = tmp_path / "game.json"
    run_json(capsys, "play", *SMALL_GAME, "--stop-after", "2", "--save", str(saved))
    error, err = failure(
        capsys, "play", "--load", str(saved), "--board", "hex:3", "--mode", "flood"
    )
    assert error["type"] == "InvalidParameter"
    assert "--board" in error["message"]
    assert "--mode" in error["message"]
    assert "--board" in err
    saved.write_text("{}")
    error, _ = failure(capsys, "play", "--load", str(saved))
    assert "not a saved annexation game" in error["message"]


# -- match and tournament ------------------------------------------------------------------


def test_match_json_is_the_match_result(capsys):
    report = run_json(capsys, "match", "greedy", "random", "--games", "10", "--board", "hex:4")
    assert (report["a"], report["b"], report["games"]) == ("greedy", "random", 10)
    assert report["wins_a"] + report["wins_b"] + report["draws"] == 10
    low, high = report["interval"]
    assert low <= report["score"] <= high
    assert report["score"] == pytest.approx((report["wins_a"] + report["draws"] / 2) / 10)
    for key in ("elo", "elo_interval", "mean_moves", "mean_cells_a", "mean_cells_b"):
        assert key in report
    assert report["board"] == "hex:4"


def test_match_text(capsys):
    out = run_text(
        capsys, "match", "mcts:iterations=30", "greedy", "--games", "4", "--board", "grid:6x6"
    )
    assert "mcts:iterations=30 (A) against greedy (B): 4 games on grid:6x6" in out
    assert "score of A:" in out
    assert "95% interval" in out
    assert "Elo difference A - B:" in out


def test_tournament_table(capsys):
    agents = ["random", "greedy", "minimax:depth=1"]
    report = run_json(capsys, "tournament", *agents, "--games", "6", "--board", "hex:4")
    assert report["agents"] == agents
    assert len(report["matches"]) == 3
    table = report["table"]
    for i in range(3):
        assert table[i][i] is None
        for j in range(3):
            if i != j:
                assert table[i][j] + table[j][i] == pytest.approx(1.0)
    assert len(report["overall"]) == 3
    out = run_text(capsys, "tournament", *agents, "--games", "6", "--board", "hex:4")
    assert "score of the row against the column" in out
    assert "overall" in out
    assert "random vs greedy:" in out


def test_tournament_resumes_from_its_checkpoint(capsys, tmp_path):
    agents = ["random", "greedy", "fractal"]
    options = ["--games", "6", "--board", "hex:4", "--seed", "5"]
    uninterrupted = run_json(capsys, "tournament", *agents, *options)
    path = tmp_path / "tournament.json"
    run_json(capsys, "tournament", *agents, *options, "--checkpoint", str(path))
    # As if interrupted after the first match: keep only that match in the checkpoint.
    saved = json.loads(path.read_text())
    assert len(saved["done"]) == 3
    saved["done"] = saved["done"][:1]
    path.write_text(json.dumps(saved))
    resumed = run_json(capsys, "tournament", *agents, *options, "--checkpoint", str(path))
    for key in ("agents", "matches", "overall", "table"):
        assert resumed[key] == uninterrupted[key]
    assert len(json.loads(path.read_text())["done"]) == 3
    # A tampered match (999 wins of 6 games) is refused, naming the fixture.
    saved = json.loads(path.read_text())
    assert saved["columns"] == ["wins_a", "wins_b", "draws", "moves", "cells_a", "cells_b"]
    saved["done"][0][1][0] = 999
    path.write_text(json.dumps(saved))
    error, _ = failure(capsys, "tournament", *agents, *options, "--checkpoint", str(path))
    assert "fixture 0: wins and draws" in error["message"]
    error, _ = failure(
        capsys,
        "tournament",
        *agents,
        "--games",
        "8",
        "--board",
        "hex:4",
        "--seed",
        "5",
        "--checkpoint",
        str(path),
    )
    assert "checkpoint of another tournament" in error["message"]


# -- playouts and render -------------------------------------------------------------------


def test_playouts_json_matches_the_api(capsys):
    report = run_json(capsys, "playouts", "--board", "hex:4", "--n", "3000", "--seed", "2")
    assert report["n"] == 3000
    assert sum(report["wins"]) + report["draws"] == 3000
    expected = playouts(Game(Board.hexagon(4, seed=2), 2), 3000)
    assert report["wins"] == expected.wins.tolist()
    assert report["draws"] == expected.draws
    assert report["mean_margin"] == pytest.approx(expected.mean_margin)
    assert report["playouts_per_second"] > 0
    one_thread = run_json(
        capsys, "playouts", "--board", "hex:4", "--n", "3000", "--seed", "2", "--threads", "1"
    )
    assert one_thread["wins"] == report["wins"]
    assert one_thread["margin_sum"] == report["margin_sum"]


def test_playouts_light_and_text(capsys):
    report = run_json(
        capsys,
        "playouts",
        "--board",
        "grid:8x8",
        "--n",
        "500",
        "--policy",
        "light",
        "--steps",
        "10",
    )
    assert (report["policy"], report["steps"]) == ("light", 10)
    assert sum(report["wins"]) + report["draws"] == 500
    out = run_text(capsys, "playouts", "--board", "hex:4", "--n", "1000")
    assert "1,000 random playouts from the start of hex:4 (61 cells)" in out
    assert "playouts/s" in out
    assert "mean margin of player 0" in out


def test_render_writes_the_board_picture(capsys, tmp_path):
    picture = tmp_path / "board.png"
    report = run_json(capsys, "render", "--board", "voronoi:80", "--png", str(picture))
    assert (report["board"], report["cells"], report["seats"]) == ("voronoi:80", 80, 2)
    assert report["files"] == {"png": str(picture)}
    assert picture.read_bytes()[:8] == PNG_MAGIC
    grid = tmp_path / "grid.png"
    out = run_text(capsys, "render", "--board", "grid:4x6", "--colours", "5", "--png", str(grid))
    assert "board grid:4x6: 24 cells, 38 edges, 5 colours" in out
    rows = out.split("colours:\n")[1].splitlines()[:4]
    assert [len(row.split()) for row in rows] == [6, 6, 6, 6]
    assert set("".join(rows)) <= set("01234 ")
    assert grid.read_bytes()[:8] == PNG_MAGIC


# -- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["play", "--board", "hexagon:5"], "hexagon:5"),
        (["play", "--board", "hex:0"], "hex:0"),
        (["play", "--board", "hex:4", "--colours", "2"], "--colours must be at least 3, got 2"),
        (
            ["play", "--colours", "3", "--seats", "3", "--players", "greedy,greedy,greedy"],
            "--colours must exceed players",
        ),
        (["play", "--seats", "7"], "--seats must be at most 4, got 7"),
        (["play", "--board", "hex:4", "--players", "bogus,greedy"], "'bogus'"),
        (["play", "--board", "hex:4", "--players", "greedy,mcts:iterations=many"], "iterations"),
        (["play", "--board", "hex:4", "--players", "mcts:depth=2,greedy"], "mcts:depth=2"),
        (["play", "--board", "hex:4", "--turns", "0"], "--turns"),
        (["play", "--board", "hex:4", "--stop-after", "-1"], "--stop-after"),
        (["play", "--board", "hex:4", "--players", "greedy,greedy,greedy,greedy,greedy"], "5"),
        (["play", "--load", "/nonexistent/game.json"], "no such file"),
        (["match", "greedy", "nobody", "--games", "2"], "'nobody'"),
        (["match", "greedy", "random", "--games", "0"], "games"),
        (["tournament", "greedy", "--games", "2"], "at least two"),
        (["playouts", "--board", "grid:0x3"], "grid:0x3"),
        (["playouts", "--board", "hex:3", "--n", "0"], "--n"),
        (["playouts", "--board", "hex:3", "--steps", "5"], "steps"),
        (["render", "--board", "ring:9", "--png", "x.png"], "ring:9"),
    ],
)
def test_bad_input_exits_2_with_the_error_named(capsys, argv, named):
    error, err = failure(capsys, *argv)
    assert named in error["message"]
    assert named in err
    assert err.startswith("stratagem: error:")


def test_old_spellings_still_work_with_a_note(capsys):
    argv = ["play", "--board", "hex:4", "--a", "greedy", "--b", "random", "--moves", "3"]
    argv += ["--max-moves", "40"]
    assert main(["annexation", *argv, "--json"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["players"] == ["greedy", "random"]
    assert report["turns_played"] == 3
    assert report["rules"]["max_moves"] == 40
    for old, new in (
        ("--a", "--players"),
        ("--b", "--players"),
        ("--moves", "--stop-after"),
        ("--max-moves", "--turns"),
    ):
        assert f"note: {old} is deprecated; use {new}" in captured.err
    argv = ["playouts", "--board", "hex:3", "--players", "3", "--n", "10", "--json"]
    assert main(["annexation", *argv]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["seats"] == 3
    assert "note: --players is deprecated; use --seats" in captured.err


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--bogus"],
        ["match", "greedy"],
        ["playouts", "--policy", "heavy"],
        ["render"],
        ["sideways"],
    ],
)
def test_bad_options_exit_2_from_the_parser(capsys, argv):
    assert "error:" in cli.parser_failure(capsys, *argv)


def test_demo_part_plays_a_game_and_times_the_playouts():
    from stratagem.cli.demo import _PARTS

    lines: list[str] = []
    report = dict(_PARTS)["annexation"](5, 2, lines.append)
    assert report["board"] == "hex:8"
    assert report["outcome"] in ("won", "drawn")
    assert sum(report["scores"]) <= 217
    assert sum(report["wins"]) + report["draws"] == report["playouts"] == 200_000
    assert report["rust_equals_oracle"] is True
    assert report["ratio"] > 1
    assert any("playouts/s" in line for line in lines)
