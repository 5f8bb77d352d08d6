"""The command line: --version, info, demo, rng, the shared options and error exits."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys

import pytest

import stratagem
from cli_helpers import Command
from stratagem.cli import main
from stratagem.conquest import battle_odds_fractions, simulate_battle
from stratagem.rng import oracle

cli = Command()
run_json = cli.run_json


def test_version(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["--version"])
    assert caught.value.code == 0
    assert capsys.readouterr().out.strip() == f"stratagem {stratagem.__version__}"


def test_info_json_reports_threads_and_mpi(capsys):
    report = run_json(capsys, "info", "--threads", "3")
    assert report["threads"] == 3
    assert isinstance(report["mpi_available"], bool)
    assert report["world_size"] == 1
    assert [entry["rank"] for entry in report["ranks"]] == [0]
    assert report["version"] == stratagem.__version__


def test_info_text(capsys):
    assert main(["info"]) == 0
    out = capsys.readouterr().out
    assert "world size 1" in out
    assert "threads per call" in out


def test_rng_blocks_match_the_oracle(capsys):
    report = run_json(
        capsys,
        "rng",
        "blocks",
        "--seed",
        "9",
        "--purpose",
        "cli-test",
        "--ids",
        "4,5",
        "--count",
        "2",
    )
    stream = oracle.Stream(9, "cli-test", 4, 5)
    assert report["blocks"] == [[f"{w:016x}" for w in stream.block(i)] for i in range(2)]


def test_rng_binomial_summary(capsys):
    report = run_json(capsys, "rng", "binomial", "--n", str(10**12), "--count", "20000")
    assert abs(report["mean"] - 5e11) < 5 * report["expected_std"] / 20000**0.5
    assert report["std"] == pytest.approx(report["expected_std"], rel=0.05)


def test_demo_json_shows_every_part_working(capsys):
    report = run_json(capsys, "demo", "--seed", "3")
    assert report["streams"]["rust_python_numpy_agree"] is True
    assert report["binomial"]["rust_equals_oracle"] is True
    assert report["binomial"]["independent_of_threads"] is True
    assert report["mpi"]["identical_to_single_process"] is True
    assert abs(report["coins"]["z"]) < 6


def test_bad_input_exits_2_with_the_error_named(capsys):
    assert main(["rng", "blocks", "--ids", "1,2,3,4", "--json"]) == 2
    captured = capsys.readouterr()
    error = json.loads(captured.out)["error"]
    assert error == {"type": "InvalidParameter", "message": "a stream takes at most 3 ids, got 4"}
    assert "at most 3 ids" in captured.err


@pytest.mark.parametrize("argv", ["info --threads 0", "info --seed -1", "info --seed x"])
def test_bad_shared_options_are_refused_by_the_parser(argv, capsys):
    assert "must be an integer" in cli.parser_failure(capsys, *shlex.split(argv))


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        ("conquest play --turns abc", "expected an integer, got 'abc'"),
        ("nosuch", "invalid choice: 'nosuch'"),
        ("annexation play --bogus", "unrecognized arguments: --bogus"),
        ("info --seed x", "seed must be an integer"),
    ],
)
def test_usage_errors_print_one_json_error_under_json(argv, named, capsys):
    with pytest.raises(SystemExit) as caught:
        main([*shlex.split(argv), "--json"])
    assert caught.value.code == 2
    captured = capsys.readouterr()
    assert captured.out.count("\n") == 1
    error = json.loads(captured.out)["error"]
    assert error["type"] == "UsageError"
    assert named in error["message"]
    assert named in captured.err
    assert "Traceback" not in captured.err


def test_usage_errors_print_no_json_without_json(capsys):
    cli.parser_failure(capsys, "conquest", "play", "--turns", "abc")


def test_a_missing_extra_and_an_interrupt_are_json_errors(capsys, monkeypatch):
    from stratagem import cli

    def missing(args):
        raise ModuleNotFoundError("No module named 'scipy'", name="scipy")

    def interrupted(args):
        raise KeyboardInterrupt

    def broken(args):
        raise ModuleNotFoundError("No module named 'nothing_of_ours'", name="nothing_of_ours")

    monkeypatch.setattr(cli, "_info", missing)
    assert main(["info", "--json"]) == 2
    captured = capsys.readouterr()
    error = json.loads(captured.out)["error"]
    assert error["type"] == "MissingDependency"
    assert "pip install 'stratagem[graph]'" in error["message"]
    assert "stratagem[graph]" in captured.err
    monkeypatch.setattr(cli, "_info", interrupted)
    assert main(["info", "--json"]) == 130
    assert json.loads(capsys.readouterr().out)["error"]["type"] == "Interrupted"
    # A module that no extra brings is a bug, not a missing extra: it is not hidden.
    monkeypatch.setattr(cli, "_info", broken)
    with pytest.raises(ModuleNotFoundError):
        main(["info", "--json"])


def test_console_script_and_module_entry_point():
    script = shutil.which("stratagem")
    assert script is not None, "the console script is installed with the package"
    for command in ([script], [sys.executable, "-m", "stratagem"]):
        done = subprocess.run(
            [*command, "info", "--json"], capture_output=True, text=True, timeout=60, check=True
        )
        assert json.loads(done.stdout)["version"] == stratagem.__version__


@pytest.mark.parametrize(
    "argv",
    [
        ["conquest", "play", "--board", "grid:200x200", "--turns", "5000", "--save", "{out}/g.npz"],
        ["conquest", "tournament", "--games", "400", "--csv", "{out}/t.csv"],
        ["conquest", "tournament", "--games", "400", "--checkpoint", "{out}/t.json"],
        ["outpost", "play", "--gif", "{out}/a.gif"],
        ["outpost", "play", "--history-png", "{out}/h.png"],
        ["outpost", "tournament", "--checkpoint", "{out}/c.json"],
        ["outpost", "map", "generate", "--out", "{out}/m.txt"],
        ["annexation", "play", "--board", "hex:30", "--png", "{out}/a.png"],
        ["annexation", "tournament", "random", "greedy", "--checkpoint", "{out}/c.json"],
        ["mastermind", "evaluate", "--png", "{out}/p.png"],
        ["diplomacy", "solve", "--save", "{out}/s.json"],
    ],
)
def test_an_unwritable_output_is_refused_before_any_work(argv, capsys, tmp_path):
    """Every command checks the files it will write before it starts: a missing folder is one
    JSON error naming the option, at once (the arguments above would otherwise run for
    minutes)."""
    import time

    missing = tmp_path / "no such folder"
    started = time.monotonic()
    status = main([*(word.format(out=missing) for word in argv), "--json"])
    assert time.monotonic() - started < 5
    assert status == 2
    (line,) = [json.loads(text) for text in capsys.readouterr().out.splitlines() if text]
    option = next(word for word in argv if "{out}" in word)
    named = argv[argv.index(option) - 1]
    assert line["error"]["type"] == "InvalidParameter"
    assert line["error"]["message"].startswith(f"{named} {missing}")
    assert "does not exist" in line["error"]["message"]
    assert not missing.exists()


def test_a_folder_is_not_an_output_file(capsys, tmp_path):
    status = main(["conquest", "tournament", "--csv", str(tmp_path), "--json"])
    assert status == 2
    assert "a folder, not a file" in capsys.readouterr().out


def test_an_interrupted_write_leaves_the_previous_file_and_nothing_stale(tmp_path, monkeypatch):
    from stratagem._files import write_json, written

    path = tmp_path / "state.json"
    write_json(path, {"turn": 1})

    def interrupted_write() -> None:
        with written(path) as partial:
            partial.write_text("half of a", encoding="utf-8")
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        interrupted_write()
    assert json.loads(path.read_text()) == {"turn": 1}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state.json"]


@pytest.mark.parametrize(
    "call",
    [
        lambda: stratagem.games.make("conquest", seed=1, max_turns=2**70),
        lambda: simulate_battle(1, 1, 2**64),
        lambda: battle_odds_fractions(2**80, 1),
    ],
)
def test_an_integer_beyond_64_bits_is_refused_by_name(call):
    with pytest.raises(stratagem.InvalidParameter, match="must be at most 18446744073709551615"):
        call()


def test_an_integer_beyond_64_bits_on_the_command_line_is_one_json_error(capsys):
    status = main(["conquest", "odds", "1", "1", "--simulate", str(10**23), "--json"])
    assert status == 2
    (line,) = [json.loads(text) for text in capsys.readouterr().out.splitlines() if text]
    assert line["error"]["type"] == "InvalidParameter"
    assert "at most 18446744073709551615" in line["error"]["message"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ("conquest play --board complete:2000000", "complete:2000000 would have 2,000,000"),
        ("conquest play --board er:8000000:0.9", "GB of memory, and"),
        ("conquest play --board rgg:200000:radius=1", "needs about 960.0 GB of memory"),
        ("conquest play --board grid:30000x30000", "needs about 48.6 GB of memory"),
        ("annexation play --board voronoi:5000000", "at most 262,144 cells"),
    ],
)
def test_a_board_too_big_for_the_machine_is_refused_before_it_is_built(argv, message, capsys):
    import time

    started = time.monotonic()
    assert main([*shlex.split(argv), "--json"]) == 2
    assert time.monotonic() - started < 5
    (line,) = [json.loads(text) for text in capsys.readouterr().out.splitlines() if text]
    assert message in line["error"]["message"]
