"""The outpost commands: play (text, JSON, flags, Python players from files and modules, time
budgets, pictures, save/load, Ctrl-C), tournament (tiny, CSV, chart, checkpoint, preset),
map check (every kind of error, lenient), map generate / show / list, bad input, and the
demo's outpost part."""

from __future__ import annotations

import importlib
import json
import signal
import textwrap
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from cli_helpers import Command
from stratagem.cli import main
from stratagem.outpost import Game, Map
from stratagem.outpost.cli import load_player, parse_params, parse_players

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
GIF_MAGIC = (b"GIF87a", b"GIF89a")
PLAYERS = ["spread", "frontier", "random", "lookahead"]

PLAYER_SOURCE = textwrap.dedent(
    '''
    import time


    class Eastward:
        """Every outpost walks east, or south on odd cells."""

        def move(self, state):
            return {int(i): ("E" if (x + y) % 2 else "S") for i, _, x, y in state.mine()}

        def disband(self, state):
            return int(state.mine()[-1, 0])


    class Slow(Eastward):
        def move(self, state):
            time.sleep(0.02)
            return super().move(state)


    class Interrupting(Eastward):
        """Plays as Eastward, and presses Ctrl-C during turn 15."""

        def move(self, state):
            if state.turn == 15:
                raise KeyboardInterrupt
            return super().move(state)


    class NeedsArguments(Eastward):
        def __init__(self, x):
            self.x = x


    class NoMethods:
        pass
    '''
)


@pytest.fixture
def player_file(tmp_path: Path) -> Path:
    path = tmp_path / "my_players.py"
    path.write_text(PLAYER_SOURCE)
    return path


cli = Command("outpost")
run_json = cli.run_json
run_text = cli.run_text
failure = cli.failure


def exit_status(*argv: str) -> int:
    """The status of a command that may leave through SystemExit (map check)."""
    try:
        return main(["outpost", *argv])
    except SystemExit as leaving:
        return int(leaving.code or 0)


# -- play ------------------------------------------------------------------------------------


def test_play_text_prints_the_table_and_the_result(capsys):
    out = run_text(capsys, "play", "--turns", "60", "--seed", "2")
    assert out.startswith("outpost on lakes (r=7 L=12 W=3 T=60), seed 2\n")
    assert "played 60 turns in" in out
    assert "turns/s" in out
    header = next(line for line in out.splitlines() if "empire" in line and "placing" in line)
    assert header.split() == ["empire", "player", "score", "land", "water", "outposts", "placing"]
    rows = [line.split() for line in out.splitlines() if line[:3].strip().isdigit()]
    assert [row[1] for row in rows] == PLAYERS
    result = Game(T=60, seed=2).run()
    assert [int(row[2]) for row in rows] == result.scores.tolist()
    assert [int(row[6]) for row in rows] == result.placings.tolist()
    assert "events: " in out
    assert "result: empire" in out


def test_play_json_matches_the_api(capsys):
    report = run_json(capsys, "play", "--turns", "100", "--seed", "5", "--map", "rivers")
    expected = Game("rivers", T=100, seed=5).run()
    assert report["scores"] == expected.scores.tolist()
    assert report["placings"] == expected.placings.tolist()
    assert report["outposts"] == expected.outposts.tolist()
    assert report["winners"] == report["leaders"] == list(expected.winners)
    assert report["outcome"] == ("won" if len(expected.winners) == 1 else "drawn")
    assert report["players"] == PLAYERS
    assert (report["turn"], report["turns_played"]) == (100, 100)
    assert "ranks" not in report  # ranks are MPI processes; placings are ranks in the game
    assert report["params"] == {"r": 7, "L": 12, "W": 3, "T": 100}
    assert (report["map"], report["seed"], report["loaded"]) == ("rivers", 5, None)
    assert report["turns_per_second"] > 0
    assert set(report["log"]) == {"build", "disband", "illegal", "cut", "player"}
    assert report["player_problems"] == []
    assert report["files"] == {}


def test_play_parameters_flags_and_generated_maps(capsys):
    report = run_json(
        capsys,
        "play",
        "--map",
        "random:3:lakes=2",
        "--players",
        "lookahead,random,random,spread",
        "--turns",
        "40",
        "--r",
        "5",
        "--L",
        "20",
        "--W",
        "5",
        "--supply-fringe",
        "--sequential-moves",
        "--extra-turn",
    )
    game = Game(
        Map.generate(3, lakes=2),
        r=5,
        L=20,
        W=5,
        T=40,
        players=["lookahead", "random", "random", "spread"],
        supply_fringe=True,
        sequential_moves=True,
        extra_turn=True,
    )
    expected = game.run()
    assert report["turn"] == report["last_turn"] == 41
    assert report["scores"] == expected.scores.tolist()
    assert report["flags"] == dict.fromkeys(
        ("supply_fringe", "sequential_moves", "extra_turn"), True
    )
    assert report["map"] == "random:3:lakes=2"
    out = run_text(capsys, "play", "--turns", "10", "--extra-turn", "--supply-fringe")
    assert "T=10, supply fringe, extra turn)" in out


def test_play_a_python_player_from_a_file(capsys, player_file):
    spec = f"{player_file}:Eastward"
    report = run_json(
        capsys, "play", "--turns", "30", "--players", f"spread,{spec},random,frontier"
    )
    module_player = load_player(spec)
    expected = Game(T=30, players=["spread", module_player, "random", "frontier"]).run()
    assert report["players"] == ["spread", "Eastward", "random", "frontier"]
    assert report["scores"] == expected.scores.tolist()
    assert report["log"]["illegal"] > 0  # walking east runs into water now and then


def test_play_a_python_player_from_a_module(capsys, player_file, monkeypatch):
    monkeypatch.syspath_prepend(str(player_file.parent))
    report = run_json(
        capsys, "play", "--turns", "20", "--players", "my_players:Eastward,spread,spread,spread"
    )
    assert report["players"] == ["Eastward", "spread", "spread", "spread"]


def test_play_time_budget_logs_the_slow_player(capsys, player_file):
    slow = ["--players", f"spread,spread,spread,{player_file}:Slow", "--time-budget", "0.001"]
    report = run_json(capsys, "play", "--turns", "3", *slow)
    assert report["time_budget"] == 0.001
    assert report["log"]["player"] == 3
    # Sleeping 20 ms against a 1 ms budget: the player is cut off at its budget every turn.
    assert report["player_problems"]
    assert all("at the budget of 0.001 s" in message for message in report["player_problems"])
    out = run_text(capsys, "play", "--turns", "7", *slow)
    assert "7 player problems" in out
    assert "... and 2 more (see --json)" in out


@pytest.mark.parametrize(
    ("players", "named"),
    [
        ("spread,frontier,random", "names 3 players"),
        ("spread,frontier,random,greedy", "'greedy': not a built-in player"),
        ("spread,frontier,random,nowhere/mine.py:Mine", "no file"),
        ("spread,frontier,random,no_such_module_here:Mine", "cannot import"),
        ("spread,frontier,random,{file}:Missing", "has no class Missing"),
        ("spread,frontier,random,{file}:NeedsArguments", "NeedsArguments() raised TypeError"),
        ("spread,frontier,random,{file}:NoMethods", "needs the methods move(state)"),
    ],
)
def test_play_refuses_bad_players(capsys, player_file, players, named):
    error, err = failure(
        capsys, "play", "--turns", "5", "--players", players.format(file=player_file)
    )
    assert error["type"] == "InvalidParameter"
    assert named in error["message"]
    assert named in err


@pytest.mark.parametrize(
    ("argv", "kind", "named"),
    [
        (["--map", "atlantis"], "InvalidParameter", "no map 'atlantis'"),
        (["--map", "random:x"], "InvalidParameter", "random:x"),
        (["--map", "{broken}"], "InvalidBoard", "line 1: cell (0, 0) is water"),
        (["--r", "199"], "InvalidParameter", "r must be at most 198"),
        (["--frames", "1", "--turns", "5"], "InvalidParameter", "--frames must be at least 2"),
    ],
)
def test_play_refuses_bad_maps_and_parameters(capsys, tmp_path, argv, kind, named):
    broken = tmp_path / "broken.txt"
    broken.write_text("0 0\n")
    error, _ = failure(capsys, "play", *(arg.format(broken=broken) for arg in argv))
    assert error["type"] == kind
    assert named in error["message"]


def test_play_draws_the_game_the_history_and_a_gif(capsys, tmp_path):
    png, history, gif = tmp_path / "final.png", tmp_path / "h.png", tmp_path / "game.gif"
    report = run_json(
        capsys,
        "play",
        "--turns",
        "40",
        "--png",
        str(png),
        "--history-png",
        str(history),
        "--gif",
        str(gif),
        "--frames",
        "9",
    )
    assert report["files"] == {"png": str(png), "history_png": str(history), "gif": str(gif)}
    assert png.read_bytes()[:8] == PNG_MAGIC
    assert history.read_bytes()[:8] == PNG_MAGIC
    assert gif.read_bytes()[:6] in GIF_MAGIC
    from PIL import Image

    with Image.open(gif) as picture:
        assert picture.n_frames == 9
    with Image.open(png) as picture:
        assert picture.size == (500, 500)
    # Recording changes nothing in the game.
    assert report["scores"] == Game(T=40).run().scores.tolist()


def test_save_then_load_continues_to_the_uninterrupted_result(capsys, tmp_path, player_file):
    players = f"spread,{player_file}:Eastward,random,lookahead"
    saved = tmp_path / "game.json"
    first = run_json(
        capsys,
        "play",
        "--turns",
        "60",
        "--players",
        players,
        "--seed",
        "4",
        "--stop-after",
        "25",
        "--save",
        str(saved),
    )
    assert (first["turn"], first["outcome"], first["winners"]) == (25, "unfinished", [])
    assert first["files"] == {"save": str(saved)}
    out = run_text(capsys, "play", "--load", str(saved), "--players", players, "--stop-after", "5")
    assert f"continued from {saved} at turn 25" in out
    assert "not finished: turn 30 of 60" in out
    second = run_json(capsys, "play", "--load", str(saved), "--players", players)
    assert (second["first_turn"], second["turn"]) == (25, 60)
    assert second["outcome"] in ("won", "drawn")
    assert second["loaded"] == str(saved)
    whole = run_json(capsys, "play", "--turns", "60", "--players", players, "--seed", "4")
    for key in ("scores", "land", "water", "outposts", "placings", "outcome", "winners"):
        assert second[key] == whole[key]
    # The history and log of the continued game are the uninterrupted game's too.
    again = tmp_path / "again.json"
    run_json(capsys, "play", "--load", str(saved), "--players", players, "--save", str(again))
    direct = Game(T=60, players=parse_players(players), seed=4)
    direct.run()
    continued = Game.load(again, players={1: load_player(f"{player_file}:Eastward")})
    assert np.array_equal(continued.history.cells, direct.history.cells)
    assert continued.log == direct.log


def test_load_refuses_what_it_cannot_change(capsys, tmp_path, player_file):
    saved = tmp_path / "game.json"
    players = f"spread,{player_file}:Eastward,random,lookahead"
    run_json(
        capsys,
        "play",
        "--turns",
        "30",
        "--players",
        players,
        "--stop-after",
        "3",
        "--save",
        str(saved),
    )
    error, _ = failure(capsys, "play", "--load", str(saved))
    assert "seat 1 (Eastward) held a Python player: give --players" in error["message"]
    error, _ = failure(capsys, "play", "--load", str(saved), "--turns", "99", "--players", players)
    assert "drop --turns" in error["message"]
    error, _ = failure(capsys, "play", "--load", str(saved), "--seed", "3", "--players", players)
    assert "saved with seed 0" in error["message"]
    error, _ = failure(
        capsys,
        "play",
        "--load",
        str(saved),
        "--players",
        f"frontier,{player_file}:Eastward,random,lookahead",
    )
    assert "seat 0" in error["message"]
    assert "'spread'" in error["message"]
    error, _ = failure(
        capsys, "play", "--load", str(saved), "--players", "spread,spread,random,lookahead"
    )
    assert "seat 1" in error["message"]
    assert "Python player" in error["message"]
    junk = tmp_path / "junk.json"
    junk.write_text("[1, 2]")
    error, _ = failure(capsys, "play", "--load", str(junk))
    assert error["type"] == "InvalidBoard"
    assert "not a saved outpost game" in error["message"]
    error, _ = failure(capsys, "play", "--load", str(tmp_path / "none.json"))
    assert error["type"] == "InvalidParameter"
    assert "no such file" in error["message"]


def test_ctrl_c_in_a_python_player_saves_the_game_for_load(capsys, tmp_path, player_file):
    saved = tmp_path / "game.json"
    seats = "spread,frontier,random,{file}:{cls}"
    stopping = seats.format(file=player_file, cls="Interrupting")
    playing = seats.format(file=player_file, cls="Eastward")
    status = main(["outpost", "play", "--turns", "30", "--players", stopping, "--save", str(saved)])
    assert status == 130
    err = capsys.readouterr().err
    assert f"interrupted after turn 14; the game is saved in {saved}" in err
    assert json.loads(saved.read_text())["turn"] == 14
    resumed = run_json(capsys, "play", "--load", str(saved), "--players", playing)
    whole = run_json(capsys, "play", "--turns", "30", "--players", playing)
    assert resumed["turn"] == 30
    assert resumed["scores"] == whole["scores"]
    assert resumed["outposts"] == whole["outposts"]


def test_ctrl_c_stops_a_builtin_game_between_turns_and_saves_it(capsys, tmp_path):
    saved = tmp_path / "game.json"

    def press_ctrl_c() -> None:
        time.sleep(0.4)
        signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)

    presser = threading.Thread(target=press_ctrl_c)
    presser.start()
    try:
        status = main(["outpost", "play", "--turns", "1000000", "--save", str(saved)])
    finally:
        presser.join()
    assert status == 130
    assert "stratagem: interrupted" in capsys.readouterr().err
    turn = json.loads(saved.read_text())["turn"]
    assert 0 < turn < 1_000_000
    report = run_json(capsys, "play", "--load", str(saved), "--stop-after", "5")
    assert report["turn"] == turn + 5
    game = Game.load(saved)
    assert game.turn == turn
    assert game.history.cells.shape == (turn + 1, 4)


# -- tournament ------------------------------------------------------------------------------


def test_tournament_tiny(capsys, tmp_path):
    csv_path, png, checkpoint = tmp_path / "t.csv", tmp_path / "t.png", tmp_path / "t.ckpt.json"
    argv = [
        "tournament",
        "--maps",
        "lakes,rivers",
        "--params",
        "7:12:3:20,7:40:10:20",
        "--seed",
        "3",
        "--threads",
        "2",
        "--csv",
        str(csv_path),
        "--png",
        str(png),
        "--checkpoint",
        str(checkpoint),
    ]
    report = run_json(capsys, *argv)
    assert len(report["games"]) == 2 * 2 * 4
    assert report["maps"] == ["lakes", "rivers"]
    assert report["params"] == [[7, 12, 3, 20], [7, 40, 10, 20]]
    assert [row["player"] for row in report["table"]] == [
        "random",
        "spread",
        "frontier",
        "lookahead",
    ]
    assert all(row["games"] == 16 for row in report["table"])
    assert report["files"] == {"csv": str(csv_path), "png": str(png), "checkpoint": str(checkpoint)}
    assert csv_path.read_text().startswith("game,map,r,L,W,T,")
    assert len(csv_path.read_text().splitlines()) == 17
    assert png.read_bytes()[:8] == PNG_MAGIC
    assert checkpoint.exists()
    from stratagem.outpost.tournament import Params, tournament

    expected = tournament(
        maps=["lakes", "rivers"], params=[Params(7, 12, 3, 20), Params(7, 40, 10, 20)], seed=3
    )
    assert [game["scores"] for game in report["games"]] == expected.scores.tolist()
    # Run again on its checkpoint: every game is read back, the same table comes out.
    again = run_json(capsys, *argv)
    assert again["table"] == report["table"]
    out = run_text(capsys, "tournament", "--params", "7:12:3:10", "--by", "map,params")
    assert "outpost tournament: 4 games, 4 players on 1 map(s) (lakes)" in out
    assert out.splitlines()[1].split()[:3] == ["map", "params", "player"]


def test_tournament_with_a_python_player_and_all_rotations(capsys, player_file):
    report = run_json(
        capsys,
        "tournament",
        "--params",
        "7:12:3:8",
        "--players",
        f"spread,frontier,random,lookahead,{player_file}:Eastward",
        "--rotations",
        "all",
    )
    assert len(report["games"]) == 5 * 24  # 5 groups of four, 24 seatings each
    assert report["players"][-1] == "Eastward"
    assert report["rotations"] == "all"


def test_tournament_preset_2014(capsys, monkeypatch):
    # The command reads the preset where the tournament is played (the package's `play`).
    module = importlib.import_module("stratagem.outpost.tournament.play")

    error, _ = failure(capsys, "tournament", "--preset", "2014", "--maps", "lakes")
    assert "drop --maps" in error["message"]
    # The real preset plays 24 games of 4444 turns: check the wiring on a shortened copy.
    short = module.TournamentSetup(
        maps=module.TOURNAMENT_2014["maps"],
        params=tuple(p._replace(T=5) for p in module.TOURNAMENT_2014["params"]),
    )
    monkeypatch.setattr(module, "TOURNAMENT_2014", short)
    report = run_json(capsys, "tournament", "--preset", "2014")
    assert report["maps"] == ["lakes", "rivers", "mixed"]
    assert report["params"] == [[7, 12, 3, 5], [7, 40, 10, 5]]
    assert len(report["games"]) == 24
    assert report["preset"] == "2014"


def test_tournament_refuses_bad_input(capsys):
    error, _ = failure(capsys, "tournament", "--params", "7:12:3")
    assert "--params '7:12:3': expected r:L:W:T" in error["message"]
    error, _ = failure(capsys, "tournament", "--players", "spread,frontier,random")
    assert "at least 4 players" in error["message"]
    error, _ = failure(capsys, "tournament", "--maps", "lakes,atlantis", "--params", "7:12:3:5")
    assert "atlantis" in error["message"]
    error, _ = failure(capsys, "tournament", "--params", "7:12:3:5", "--by", "player")
    assert "--by 'player': group by map and/or params" in error["message"]


def test_parse_params():
    assert parse_params("1:2:3:4") == [(1, 2, 3, 4)]


# -- maps ------------------------------------------------------------------------------------


def _lines() -> list[str]:
    return Map.named("lakes").to_text().splitlines()


def _split_land() -> str:
    """A water wall down column 25 and a band over columns 27..35: 500 cells, land in three
    parts."""
    cells = [(25, y) for y in range(50)] + [(x, y) for x in range(27, 36) for y in range(50)]
    return "\n".join(f"{x} {y}" for x, y in cells) + "\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("\n".join(_lines()[:-1]) + "\n", "the map has 499 water cells; a map has exactly 500"),
        (
            "\n".join([*_lines()[:-1], _lines()[5]]) + "\n",
            "line 501: cell (6, 1) is listed twice (first on line 6)",
        ),
        (
            "\n".join([*_lines()[:-1], "50 3"]) + "\n",
            "line 501: cell (50, 3) is outside the 50x50 region",
        ),
        ("\n".join([*_lines()[:-1], "3"]) + "\n", 'line 501: expected "x y", got "3"'),
        (
            "\n".join([*_lines()[:-1], "49 0"]) + "\n",
            "line 501: cell (49, 0) is water; the corners",
        ),
        (
            "\n".join([*_lines()[:-1], "0 0"]) + "\n",
            "line 501: cell (0, 0) is water; it is empire 0's home",
        ),
        (_split_land(), "land cell (26, 0) cannot be reached from (0, 0)"),
    ],
    ids=["count", "duplicate", "range", "line", "corner", "home", "split"],
)
def test_map_check_errors_exit_1_naming_the_line_or_cell(capsys, tmp_path, text, message):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    assert exit_status("map", "check", str(path)) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"invalid map: {path}: ")
    assert message in out
    assert exit_status("map", "check", str(path), "--json") == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False
    assert report["file"] == str(path)
    assert report["error"]["type"] == "InvalidBoard"
    assert message in report["error"]["message"]


def test_map_check_valid_lenient_and_missing(capsys, tmp_path):
    good = tmp_path / "good.txt"
    Map.named("rivers").save(good)
    out = run_text(capsys, "map", "check", str(good))
    assert out.startswith(f"OK: {good}: 500 water and 2000 land cells")
    report = run_json(capsys, "map", "check", str(good))
    assert report["ok"] is True
    assert (report["water_cells"], report["land_cells"], report["grid_water_cells"]) == (
        500,
        2000,
        2000,
    )
    assert report["warnings"] == []
    assert report["name"] == "good"
    short = tmp_path / "short.txt"
    short.write_text("\n".join(_lines()[:-1]) + "\n")
    out = run_text(capsys, "map", "check", str(short), "--lenient")
    assert f"warning: {short}: the map has 499 water cells" in out
    assert f"OK (lenient): {short}: 499 water" in out
    report = run_json(capsys, "map", "check", str(short), "--lenient")
    assert report["warnings"] == [f"{short}: the map has 499 water cells; a map has exactly 500"]
    assert exit_status("map", "check", str(tmp_path / "nothing.txt")) == 1
    assert "no such file" in capsys.readouterr().out
    # A lenient map plays too.
    assert main(["outpost", "play", "--map", str(short), "--lenient", "--turns", "5"]) == 0
    captured = capsys.readouterr()
    assert "result: " in captured.out
    assert f"stratagem: warning: {short}: the map has 499 water cells" in captured.err


def test_map_generate(capsys, tmp_path):
    out_file, png = tmp_path / "gen.txt", tmp_path / "gen.png"
    options = "--seed 5 --lakes 2 --rivers 1"
    report = run_json(
        capsys, "map", "generate", *options.split(), "--out", str(out_file), "--png", str(png)
    )
    expected = Map.generate(5, lakes=2, rivers=1)
    assert Map.load(out_file) == expected
    assert report["name"] == "random:5:lakes=2:rivers=1"
    assert report["cells"] == expected.water_cells.tolist()
    assert report["files"] == {"map": str(out_file), "png": str(png)}
    assert png.read_bytes()[:8] == PNG_MAGIC
    text = run_text(capsys, "map", "generate", "--seed", "6")
    assert Map.parse(text) == Map.generate(6)
    assert exit_status("map", "check", str(out_file)) == 0
    assert capsys.readouterr().out.startswith("OK: ")
    summary = run_text(capsys, "map", "generate", "--seed", "6", "--out", str(out_file))
    assert summary.startswith("map random:6: 500 water and 2000 land cells")


def test_map_show_and_list(capsys, tmp_path):
    png = tmp_path / "lakes.png"
    out = run_text(capsys, "map", "show", "lakes", "--png", str(png))
    lines = out.splitlines()
    assert lines[0].startswith("map lakes: 500 water and 2000 land cells")
    rows = lines[2:52]
    assert len(rows) == 50
    assert all(len(row) == 50 for row in rows)
    assert rows[0][0] == "H"
    assert sum(row.count("~") for row in rows) == 500
    assert png.read_bytes()[:8] == PNG_MAGIC
    report = run_json(capsys, "map", "show", "random:2:rivers=1")
    assert report["name"] == "random:2:rivers=1"
    assert len(report["rows"]) == 50
    listing = run_json(capsys, "map", "list")
    assert [m["name"] for m in listing["maps"]] == list(Map.names())
    assert listing["default"] == "lakes"
    text = run_text(capsys, "map", "list")
    assert "lakes" in text
    assert "(default)" in text
    assert "random:SEED" in text


# -- the demo --------------------------------------------------------------------------------


def test_the_demo_part_plays_a_game_and_checks_the_oracle():
    from stratagem.cli.demo import _PARTS

    parts = dict(_PARTS)
    lines: list[str] = []
    started = time.perf_counter()
    report = parts["outpost"](0, 2, lines.append)
    assert time.perf_counter() - started < 10
    assert report["rust_equals_oracle"] is True
    assert report["turns"] == 400
    assert len(report["scores"]) == 4
    assert report["scores"] == Game(T=400).run().scores.tolist()
    assert lines[0].startswith("outpost on the 'lakes' map")
    assert "identical: True" in lines[-1]


def test_tournament_turns_sets_t_of_the_default_parameters(capsys):
    report = run_json(capsys, "tournament", "--turns", "12", "--players", ",".join(PLAYERS))
    assert {game["T"] for game in report["games"]} == {12}
    assert {(game["r"], game["L"], game["W"]) for game in report["games"]} == {(7, 12, 3)}
    error, _ = failure(capsys, "tournament", "--turns", "12", "--params", "7:12:3:10")
    assert "drop it or --params" in error["message"]
