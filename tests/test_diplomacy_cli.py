"""The diplomacy commands: count (conventions, listing, positions from files), tables, solve
(every method, budgets, the progress bar), open-problem (one convention or all, victory), show
(text and the PNG), bad input and unreadable files exiting with status 2 and a one-line message,
and the demo's diplomacy part."""

from __future__ import annotations

import errno
import json
import os
import shlex
import time
from pathlib import Path

import pytest

from cli_helpers import Command
from stratagem import progress
from stratagem.cli import main
from stratagem.diplomacy import adjustments, oracle, tables
from stratagem.diplomacy.cli import read_position
from stratagem.diplomacy.map import Map
from stratagem.diplomacy.open_problem import solve as solve_open_problem
from stratagem.diplomacy.position import Position
from stratagem.diplomacy.positions import OPENING
from stratagem.diplomacy.search import solve

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
# Austria removes 3 of 6 units, Italy builds 3, Russia builds 3 of its 4 open homes, Turkey 3.
SMALL = (
    "AUS: A VIE, A BUD, F TRI, A GAL, A BOH, A TYR / BUD TRI VIE; ITA: A PIE / NAP ROM VEN TUN; "
    "RUS: A UKR / MOS SEV WAR STP; TUR: A BUL / ANK CON SMY BUL GRE"
)

cli = Command("diplomacy")
run_json = cli.run_json
run_text = cli.run_text
failure = cli.failure
parser_failure = cli.parser_failure


# -- count -----------------------------------------------------------------------------------


def test_count_text_of_the_opening(capsys):
    out = run_text(capsys, "count", "opening")
    assert out.startswith(f"position: {Position.parse(OPENING)}\n")
    assert "convention exact (build the maximum)" in out
    rows = [line.split() for line in out.splitlines() if line.startswith("  ")][1:]
    assert [row[0] for row in rows] == list(Map.standard().powers)
    assert all(row[-1] == "1" and row[-2] == "-" for row in rows)
    assert out.endswith("total: 1 adjustment profile\n")


@pytest.mark.parametrize("convention", ["exact", "waives", "article"])
def test_count_json_matches_the_api(capsys, convention):
    report = run_json(capsys, "count", SMALL, "--convention", convention)
    position = Position.parse(SMALL)
    assert report["position"] == str(position)
    assert report["convention"] == convention
    assert {row["power"]: row["count"] for row in report["powers"]} == adjustments.counts(
        position, convention
    )
    assert report["total"] == adjustments.total(position, convention)
    assert report["options"] is None
    rows = {row["power"]: row for row in report["powers"]}
    assert (rows["AUS"]["adjustment"], rows["AUS"]["size"], rows["AUS"]["count"]) == (
        "remove",
        3,
        20,
    )
    assert rows["RUS"]["open_homes"] == ["MOS", "SEV", "STP", "WAR"]
    assert (rows["RUS"]["adjustment"], rows["RUS"]["size"]) == ("build", 3)
    assert rows["ENG"] == {
        "power": "ENG",
        "units": 0,
        "centres": 0,
        "open_homes": [],
        "adjustment": "none",
        "size": 0,
        "count": 1,
    }


def test_count_lists_options_in_listing_order(capsys):
    report = run_json(capsys, "count", SMALL, "--list", "3", "--convention", "waives")
    position = Position.parse(SMALL)
    assert set(report["options"]) == {"AUS", "ITA", "RUS", "TUR"}
    for power, listed in report["options"].items():
        rows = adjustments.batch(position, power, "waives", 0, 3)
        assert [option["index"] for option in listed] == [0, 1, 2]
        assert [option["slots"] for option in listed] == rows.tolist()
        assert [option["orders"] for option in listed] == [
            adjustments.describe(position, power, row) for row in rows.tolist()
        ]
    assert report["options"]["RUS"][0]["orders"] == []  # waives: building nothing comes first
    out = run_text(capsys, "count", SMALL, "--list", "2", "--convention", "waives")
    assert "RUS: 42 options\n" in out
    assert "       0  nothing\n" in out
    assert "       1  build A MOS\n" in out
    assert "  ... and 40 more\n" in out
    assert "build 0-3" in out
    out = run_text(capsys, "count", SMALL, "--convention", "article")
    assert "build 1-3" in out


def test_count_list_with_nobody_to_choose(capsys):
    out = run_text(capsys, "count", "opening", "--list", "5")
    assert out.endswith("no power has more than one option\n")


def test_a_position_file_with_comments_and_one_group_per_line(tmp_path, capsys):
    path = tmp_path / "position.txt"
    path.write_text("# a winter\nRUS: F STP/SC / STP SEV   # Russia\n\nTUR: A CON / CON ANK\n")
    report = run_json(capsys, "count", f"@{path}")
    assert report["position"] == "RUS: F STP/SC / SEV STP; TUR: A CON / ANK CON"
    assert report["total"] == 4
    assert read_position(f"@{path}") == Position.parse(report["position"])


def test_a_variant_map_file(tmp_path, capsys):
    path = tmp_path / "copy.map"
    path.write_text(Map.standard().text())
    report = run_json(capsys, "count", "opening", "--map", str(path))
    assert report["total"] == 1


# -- tables ----------------------------------------------------------------------------------


def test_tables_text_is_the_tables_module(capsys):
    out = run_text(capsys, "tables")
    assert out == tables.format_tables()
    assert "11,426,088,960" in out


def test_tables_json(capsys):
    report = run_json(capsys, "tables")
    removals = {(row["n"], row["k"]): row["count"] for row in report["removals"]}
    assert removals[(17, 8)] == removals[(17, 9)] == 24310
    assert len(removals) == 17 * 18 // 2
    russia = [row for row in report["builds"] if row["power"] == "RUS"]
    assert [row["builds"] for row in russia] == [1, 2, 3, 4]
    assert [row["exact"] for row in russia] == [
        row.exact for row in tables.build_table() if row.power == "RUS"
    ]
    assert russia[0]["note"]  # the article's 5 one-build options for Russia
    example = report["example"]
    assert example["article_total"] == 11_426_088_960
    assert [row["power"] for row in example["rows"]] == [r[0] for r in tables.ARTICLE_EXAMPLE]
    assert "34" in example["impossible"]
    legal = example["nearest_legal"]
    assert legal["total"] == adjustments.total(Position.parse(legal["position"]))
    assert report["text"] == tables.format_tables()


# -- solve -----------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["preliminary", "anneal", "combined"])
def test_solve_json_matches_the_api(capsys, method):
    report = run_json(capsys, "play", SMALL, "--method", method, "--seed", "4", "--steps", "300")
    expected = solve(Position.parse(SMALL), method, seed=4, steps=300)
    assert report["method"] == method
    assert report["profile"] == list(expected.profile)
    assert [row["value"] for row in report["powers"]] == expected.values.tolist()
    assert {row["power"]: row["orders"] for row in report["powers"]} == expected.orders
    assert (report["search_finished"], report["evaluations"]) == (True, expected.evaluations)
    assert (report["seed"], report["steps"], report["convention"]) == (4, 300, "exact")
    assert report["cycle"] is None
    assert report["mixed"] is None
    assert [row["options"] for row in report["powers"]] == [20, 1, 1, 1, 8, 17, 8]


def test_solve_text_says_it_found_an_equilibrium(capsys):
    out = run_text(capsys, "play", SMALL)
    assert out.startswith("combined search, convention exact, seed 0: ")
    assert "finished: a pure Nash equilibrium" in out
    expected = solve(Position.parse(SMALL))
    aus = next(line for line in out.splitlines() if line.startswith("  AUS"))
    assert f"{expected.profile[0]} of 20" in aus
    assert ", ".join(expected.orders["AUS"]) in aus
    assert next(line for line in out.splitlines() if line.startswith("  ENG")).endswith("-")


def test_solve_stops_on_its_budget(capsys):
    report = run_json(
        capsys, "play", SMALL, "--max-evaluations", "5", "--convention", "waives", "--threads", "1"
    )
    assert report["search_finished"] is False
    assert report["max_evaluations"] == 5
    assert report["convention"] == "waives"
    out = run_text(capsys, "play", SMALL, "--max-evaluations", "5", "--time-limit", "30")
    assert "stopped by its budget" in out


def test_solve_saves_and_goes_on_where_it_stopped(tmp_path, capsys):
    whole = run_json(capsys, "play", SMALL)
    saved = tmp_path / "search.json"
    first = run_json(capsys, "play", SMALL, "--max-evaluations", "40", "--save", str(saved))
    assert (first["search_finished"], first["evaluations"]) == (False, 40)
    assert first["saved"] == str(saved)
    second = run_json(capsys, "play", "--load", str(saved), "--max-evaluations", "30")
    assert (second["search_finished"], second["evaluations"]) == (False, 70)
    assert second["position"] == whole["position"]
    # The saved file is the state at 40 evaluations: loading it again goes on from there.
    rest = run_json(capsys, "play", "--load", str(saved), "--save", str(saved))
    assert rest["search_finished"] is True
    assert (rest["evaluations"], rest["profile"]) == (whole["evaluations"], whole["profile"])
    assert "go on with --load" in run_text(capsys, "play", "--load", str(saved), "--save",
                                           str(saved))  # fmt: skip


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", SMALL, "--method", "anneal", "--save", "x.json"], "--method combined"),
        (["play"], "give a position, or --load FILE"),
        (["play", SMALL, "--load", "x.json"], "not both"),
        (["play", "--load", "no/such/search.json"], "no/such/search.json"),
    ],
)
def test_save_and_load_refuse_what_they_cannot_do(capsys, argv, message):
    error, _ = failure(capsys, *argv)
    assert error["type"] == "InvalidParameter"
    assert message in error["message"]


def test_solve_draws_a_progress_bar_on_stderr_only(capsys, monkeypatch):
    monkeypatch.setenv("STRATAGEM_PROGRESS", "1")
    monkeypatch.setattr(progress, "_QUIET_SECONDS", 0.0)  # draw from the first report on
    busy = str(solve_open_problem("exact").position)
    budget = ["--steps", "1000000", "--max-evaluations", "100000", "--threads", "1"]
    assert main(["diplomacy", "play", busy, "--method", "anneal", *budget, "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["evaluations"] == 100_000
    assert captured.out.count("\n") == 1
    assert captured.err.startswith("\rdiplomacy anneal search [")
    assert captured.err.endswith(" s\n")


# -- open problem ----------------------------------------------------------------------------


def test_open_problem_json_every_convention(capsys):
    report = run_json(capsys, "open-problem")
    assert report["victory"] is False
    assert [a["convention"] for a in report["answers"]] == ["exact", "waives", "article"]
    for answer in report["answers"]:
        expected = solve_open_problem(answer["convention"])
        assert answer["total"] == expected.total
        assert answer["position"] == str(expected.position)
        assert [s["choices"] for s in answer["shares"]] == [s.choices for s in expected.shares]
        position = Position.parse(answer["position"])
        assert oracle.total(position, answer["convention"]) == answer["total"]
    exact = report["answers"][0]
    assert exact["total"] > tables.ARTICLE_EXAMPLE_TOTAL


def test_open_problem_text_one_convention_with_victory(capsys):
    out = run_text(capsys, "open-problem", "--convention", "article", "--victory")
    expected = solve_open_problem("article", victory=True)
    assert "(with the 18-centre victory)" in out
    assert "convention article (at least one build, the article's 'counting waives'): " in out
    assert f"{expected.total:,}" in out
    assert "convention exact" not in out
    assert f"  position: {expected.position}\n" in out
    assert all(share.centres <= 17 for share in expected.shares)


# -- show ------------------------------------------------------------------------------------


def test_show_text_and_json(capsys):
    out = run_text(capsys, "show", "RUS: F STP/SC, A MOS / STP MOS SEV; TUR: F ANK / ANK")
    assert out.startswith("standard map: 3 units, 4 centres owned\n")
    assert "  RUS: A MOS, F STP/SC\n" in out
    assert "       centres MOS SEV STP; open homes SEV\n" in out
    assert "  AUS: no units\n" in out
    report = run_json(capsys, "show", "opening")
    assert report["position"] == str(Position.parse(OPENING))
    assert report["powers"][5]["units"] == ["A MOS", "F SEV", "F STP/SC", "A WAR"]
    assert report["files"] == {}


def test_show_draws_a_png(tmp_path, capsys):
    picture = tmp_path / "opening.png"
    report = run_json(capsys, "show", "opening", "--png", str(picture))
    assert report["files"] == {"png": str(picture)}
    assert picture.read_bytes()[:8] == PNG_MAGIC
    other = tmp_path / "answer.png"
    out = run_text(capsys, "show", str(solve_open_problem("exact").position), "--png", str(other))
    assert out.endswith(f"png: {other}\n")
    assert other.read_bytes()[:8] == PNG_MAGIC


# -- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "kind", "message"),
    [
        (
            "count 'RUS: F STP / STP'",
            "InconsistentInput",
            "a fleet on a bicoastal province names its coast: F STP (RUS)",
        ),
        ("count 'AUS: A XYZ / VIE'", "InvalidParameter", "unknown province 'XYZ'"),
        ("play 'AUS A VIE'", "InvalidParameter", 'expected "POWER: units / centres"'),
        ("show 'ENG: A NTH / LON'", "InconsistentInput", "armies stand on land"),
        ("count @no/such/file.txt", "InvalidParameter", "position file 'no/such/file.txt'"),
        ("count opening --list -1", "InvalidParameter", "--list must be at least 0"),
        ("count opening --map no/such.map", "InvalidParameter", "--map 'no/such.map'"),
        ("play opening --steps 0", "InvalidParameter", "--steps must be at least 1"),
        (
            "show opening --png no/such/folder/x.png",
            "InvalidParameter",
            "--png no/such/folder/x.png: the folder no/such/folder does not exist",
        ),
        ("show opening --png picture.jpg", "InvalidParameter", "name a .png file"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, kind, message):
    error, err = failure(capsys, *shlex.split(argv))
    assert error["type"] == kind
    assert message in error["message"]
    assert err == f"stratagem: error: {error['message']}\n"


def test_a_bad_position_file_is_named(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text("RUS: A XYZ / STP\n")
    error, _ = failure(capsys, "count", f"@{path}")
    assert error["message"] == f"position file '{path}': group 1: unknown province 'XYZ'"


def test_unreadable_files_are_named(tmp_path, capsys):
    binary = tmp_path / "binary"
    binary.write_bytes(b"\xff\xfe AUS")
    error, _ = failure(capsys, "count", f"@{binary}")
    assert error == {
        "type": "InvalidParameter",
        "message": f"position file '{binary}': cannot read it (not UTF-8 text)",
    }
    error, _ = failure(capsys, "count", "opening", "--map", str(binary))
    assert error["message"] == f"--map '{binary}': cannot read it (not UTF-8 text)"
    error, _ = failure(capsys, "open-problem", "--map", str(tmp_path))
    assert (
        error["message"]
        == f"--map '{tmp_path}': cannot read it (it is a folder, not a regular file)"
    )


def test_a_picture_that_cannot_be_written_is_named(tmp_path, capsys, monkeypatch):
    def full_disk(descriptor):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    picture = tmp_path / "opening.png"
    picture.write_bytes(b"the previous picture")
    error, _ = failure(capsys, "show", "opening", "--png", str(picture))
    assert error == {
        "type": "WriteError",
        "message": f"{picture}: cannot write it: No space left on device",
    }
    assert picture.read_bytes() == b"the previous picture"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["opening.png"]


def test_a_bad_map_file_is_named(tmp_path, capsys):
    path = tmp_path / "bad.map"
    path.write_text("map tiny\npower X Xland\nprovince A land X 0.5 0.5 Aland\narmy A B\n")
    error, _ = failure(capsys, "count", "X: A A / A", "--map", str(path))
    assert error["type"] == "InvalidBoard"
    assert "line 4: unknown province 'B'" in error["message"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ("play opening --method greedy", "invalid choice: 'greedy'"),
        ("count opening --convention loose", "invalid choice: 'loose'"),
        ("play opening --time-limit 0", "expected a positive number of seconds"),
        ("count opening --list many", "expected an integer, got 'many'"),
    ],
)
def test_bad_options_are_refused_by_the_parser(capsys, argv, message):
    assert message in parser_failure(capsys, *shlex.split(argv))


# -- the demo --------------------------------------------------------------------------------


def test_the_demo_part_counts_searches_and_checks_the_oracle():
    from stratagem.cli.demo import _PARTS

    lines: list[str] = []
    started = time.perf_counter()
    report = dict(_PARTS)["diplomacy"](0, 2, lines.append)
    assert time.perf_counter() - started < 10
    assert report["opening_total"] == 1
    assert report["open_problem"] == {
        c: solve_open_problem(c).total for c in ("exact", "waives", "article")
    }
    assert report["rust_equals_oracle"] is True
    assert report["counts_equal_oracle"] is True
    assert report["combined_finished"] is True
    assert report["combined_profile"] == list(solve(Position.parse(SMALL)).profile)
    assert lines[0] == "diplomacy, the 1901 start: 1 adjustment profile (nobody adjusts)"
    assert any("oracle identical: True" in line for line in lines)


def test_a_position_file_on_one_line(tmp_path):
    path = Path(tmp_path) / "opening.txt"
    with pytest.raises(ValueError, match="cannot read it"):
        read_position(f"@{path}")
    path.write_text(OPENING)
    assert read_position(f"@{path}") == read_position("opening")


def test_play_reports_the_winter_like_every_game_and_solve_still_works(capsys):
    report = run_json(capsys, "play", SMALL)
    values = [row["value"] for row in report["powers"]]
    top = [i for i, v in enumerate(values) if v == max(values)]
    assert report["winners"] == top
    assert report["outcome"] == ("won" if len(top) == 1 else "drawn")
    assert report["turns_played"] == 1
    assert report["seconds"] >= 0
    assert main(["diplomacy", "solve", SMALL, "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["profile"] == report["profile"]
    assert "note: 'diplomacy solve' is deprecated; use 'diplomacy play'" in captured.err
