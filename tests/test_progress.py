"""Progress: the tqdm bar on stderr (silent for short work, forced or silenced by
``progress=`` and ``STRATAGEM_PROGRESS``), the callback form, and a long library call that
reports through it."""

from __future__ import annotations

import io
import time

import pytest

from stratagem import annexation, conquest, mastermind, progress
from stratagem.cli import main
from stratagem.progress import Progress


def test_a_bar_is_silent_for_short_work():
    quiet = io.StringIO()
    with Progress(10, "short", enabled=True, stream=quiet) as bar:
        bar.advance(10)
    assert quiet.getvalue() == ""


def test_a_bar_draws_for_long_work(monkeypatch):
    monkeypatch.setattr(progress, "_QUIET_SECONDS", 0.0)  # as if a second had passed
    shown = io.StringIO()
    with Progress(4, "long", enabled=True, stream=shown) as bar:
        bar.advance(2)
        time.sleep(0.15)
        bar.advance(1)
    text = shown.getvalue()
    assert text.startswith("\rlong [")
    assert "  75% 3/4" in text
    assert text.endswith(" s\n")


def test_the_environment_decides_by_default(monkeypatch):
    monkeypatch.setenv("STRATAGEM_PROGRESS", "0")
    assert Progress(1, "x").enabled is False
    monkeypatch.setenv("STRATAGEM_PROGRESS", "1")
    assert Progress(1, "x", stream=io.StringIO()).enabled is True
    monkeypatch.delenv("STRATAGEM_PROGRESS")
    assert Progress(1, "x", stream=io.StringIO()).enabled is False  # not a terminal
    assert Progress(1, "x", enabled=True, stream=io.StringIO()).enabled is True


def test_a_callback_is_told_instead_of_a_bar():
    seen: list[tuple[int, int]] = []
    stream = io.StringIO()
    told = lambda done, total: seen.append((done, total))  # noqa: E731
    with Progress(5, "told", enabled=told, stream=stream) as bar:
        bar.advance(2)
        bar.advance(9)  # never past the total
    assert seen == [(2, 5), (5, 5)]
    assert bar.enabled is False
    assert stream.getvalue() == ""


def test_playouts_report_their_progress_and_keep_their_result():
    game = annexation.Game(annexation.Board.hexagon(6), 3)
    seen: list[tuple[int, int]] = []
    told = annexation.playouts(game, 20_000, threads=2, progress=lambda *a: seen.append(a))
    quiet = annexation.playouts(game, 20_000, threads=1, progress=False)
    assert (told.wins.tolist(), told.draws, told.margin_sum) == (
        quiet.wins.tolist(),
        quiet.draws,
        quiet.margin_sum,
    )
    assert seen[-1] == (20_000, 20_000)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


def test_the_command_line_forces_or_silences_bars(capsys, monkeypatch):
    monkeypatch.setattr(progress, "_QUIET_SECONDS", 0.0)
    monkeypatch.delenv("STRATAGEM_PROGRESS", raising=False)
    argv = ["annexation", "playouts", "--board", "hex:8", "--n", "20000", "--json"]
    assert main([*argv, "--progress"]) == 0
    drawn = capsys.readouterr()
    assert drawn.out.count("\n") == 1  # the report alone on stdout
    assert "annexation playouts [" in drawn.err
    assert "100% 20000/20000" in drawn.err
    monkeypatch.setenv("STRATAGEM_PROGRESS", "1")
    assert main([*argv, "--no-progress"]) == 0
    assert capsys.readouterr().err == ""
    assert progress._FORCED.get() is None  # the setting ends with the command


def test_progress_and_no_progress_exclude_each_other(capsys):
    with pytest.raises(SystemExit):
        main(["info", "--progress", "--no-progress"])
    assert "not allowed with argument" in capsys.readouterr().err


def test_battles_report_their_progress_and_keep_their_counts():
    seen: list[tuple[int, int]] = []
    told = conquest.simulate_battle(3, 2, 50_000, seed=4, progress=lambda *a: seen.append(a))
    assert told == conquest.simulate_battle(3, 2, 50_000, seed=4, threads=1, progress=False)
    assert seen[-1] == (50_000, 50_000)


def test_a_count_reports_its_share_done_and_keeps_its_result():
    seen: list[tuple[int, int]] = []
    history = (["012345"], [(1, 1)])
    told = mastermind.count_consistent(6, 7, *history, progress=lambda *a: seen.append(a))
    assert told == mastermind.count_consistent(6, 7, *history, threads=1, progress=False)
    assert told == len(mastermind.consistent_codes(6, 7, *history))
    assert seen[-1] == (1 << 16, 1 << 16)


def test_a_solve_reports_the_most_blacks_and_keeps_its_guesses():
    seen: list[tuple[int, int]] = []
    told = mastermind.solve("2153", 6, "knuth", progress=lambda *a: seen.append(a))
    quiet = mastermind.solve("2153", 6, "knuth", threads=1, progress=False)
    assert told.guesses.tolist() == quiet.guesses.tolist()
    assert seen[-1] == (4, 4)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)
