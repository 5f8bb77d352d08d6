"""The mastermind commands: solve (the seed's 10 x 10 instance), evaluate (Knuth's 4 x 6
figures, several strategies, the bar chart), break driven by stdin (typos and contradictions),
count (exact, listed, estimated, contradicting), bad input, and the demo's mastermind part."""

from __future__ import annotations

import io
import json
import shlex

import pytest

from cli_helpers import Command
from stratagem.cli import main
from stratagem.mastermind import count_consistent, sample_secrets, solve
from stratagem.mastermind.cli import parse_feedback

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SEED_SECRET = "7735427368"
# The 13 guesses of `first` (lexicographic) against the seed's secret.
SEED_GUESSES = [
    "0000000000",
    "1111111111",
    "2222222222",
    "2333333333",
    "4233444444",
    "4255335555",
    "4323566666",
    "4532673777",
    "5277468337",
    "5673237478",
    "5737327684",
    "5737732846",
    SEED_SECRET,
]

cli = Command("mastermind")
run_json = cli.run_json
run_text = cli.run_text
failure = cli.failure


def answers(secret: str, colours: int, strategy: str = "knuth") -> list[str]:
    """The right answers to the guesses of ``strategy`` against ``secret``, one line each."""
    return [f"{b} {w}" for b, w in solve(secret, colours, strategy).feedback.tolist()]


# -- solve ---------------------------------------------------------------------------------


def test_play_the_seed_instance(capsys):
    report = run_json(capsys, "play", "--spots", "10", "--colours", "10", "--secret", SEED_SECRET)
    assert report["secret"] == SEED_SECRET
    assert (report["spots"], report["colours"], report["strategy"]) == (10, 10, "first")
    assert (report["outcome"], report["winners"], report["turns_played"]) == ("won", [0], 13)
    assert report["guesses"] == SEED_GUESSES
    assert report["feedback"][-1] == [10, 0]
    assert (report["drawn"], report["ranks"], report["order"]) == (False, 1, "lex")
    assert report["seconds"] > 0
    # --spots may be left out when the secret gives it.
    again = run_json(capsys, "play", "--colours", "10", "--secret", SEED_SECRET)
    assert again["guesses"] == SEED_GUESSES


def test_solve_text_lists_every_guess_and_the_time(capsys):
    out = run_text(capsys, "play", "--colours", "10", "--secret", SEED_SECRET)
    assert "secret 7735427368 (given), strategy first (lex order)" in out
    assert "   1. 0000000000  0 black 0 white" in out
    assert "  13. 7735427368  10 black 0 white" in out
    assert "solved in 13 guesses," in out
    assert out.rstrip().endswith(" s")


def test_solve_draws_the_secret_from_the_seed(capsys):
    report = run_json(capsys, "play", "--spots", "5", "--colours", "7", "--seed", "11")
    expected = "".join(str(c) for c in sample_secrets(5, 7, 1, 11)[0].tolist())
    assert (report["secret"], report["drawn"], report["seed"]) == (expected, True, 11)
    assert report["guesses"][-1] == expected
    out = run_text(capsys, "play", "--seed", "11")
    assert "4 spots x 6 colours" in out
    assert "(drawn from seed 11)" in out


@pytest.mark.parametrize(
    ("strategy", "order"), [("knuth", "lex"), ("random", "lex"), ("first", "shuffled")]
)
def test_solve_with_other_strategies_matches_the_api(capsys, strategy, order):
    report = run_json(
        capsys,
        "play",
        "--secret",
        "5,1,4,2",
        "--colours",
        "8",
        "--players",
        strategy,
        "--order",
        order,
        "--seed",
        "4",
    )
    expected = solve("5142", 8, strategy, 4, order=order)
    assert report["guesses"] == expected.to_dict()["guesses"]
    assert report["feedback"] == expected.feedback.tolist()
    assert report["strategy"] == strategy


# -- evaluate ------------------------------------------------------------------------------


def test_evaluate_knuth_on_4x6(capsys):
    report = run_json(capsys, "evaluate", "--spots", "4", "--colours", "6", "--strategy", "knuth")
    assert (report["total"], report["worst"], report["secrets"]) == (5801, 5, 1296)
    assert report["average_fraction"] == "5801/1296"
    assert report["average"] == pytest.approx(5801 / 1296)
    assert report["histogram"] == {"1": 1, "2": 6, "3": 62, "4": 533, "5": 694}
    assert report["sampled"] is False
    assert len(report["hardest"]) == len(report["hardest_guesses"]) == 5
    assert report["hardest_guesses"] == [5] * 5
    assert report["files"] == {}


def test_evaluate_text(capsys):
    out = run_text(capsys, "evaluate", "--strategy", "knuth")
    assert "knuth on 4 spots x 6 colours (1,296 codes): all 1,296 secrets" in out
    lines = out.splitlines()
    rows = [line.split() for line in lines if line.strip()[:1].isdigit()]
    assert rows == [["1", "1"], ["2", "6"], ["3", "62"], ["4", "533"], ["5", "694"]]
    assert "total 5,801 guesses: average 5801/1296 = 4.4761, worst case 5" in out
    assert "hardest secrets (guesses): " in out


def test_evaluate_compares_strategies_in_one_plot(capsys, tmp_path):
    picture = tmp_path / "hist.png"
    report = run_json(capsys, "evaluate", "--strategy", "knuth,first,random", "--png", str(picture))
    assert report["strategies"] == ["knuth", "first", "random"]
    totals = {e["strategy"]: (e["total"], e["worst"]) for e in report["evaluations"]}
    assert totals == {"knuth": (5801, 5), "first": (7471, 9), "random": (6146, 8)}
    assert report["files"] == {"png": str(picture)}
    assert picture.read_bytes()[:8] == PNG_MAGIC
    out = run_text(capsys, "evaluate", "--strategy", "first,most_parts")
    assert "strategy" in out
    assert "most_parts      5,668" in out


def test_evaluate_a_sample_of_a_large_space(capsys, tmp_path):
    picture = tmp_path / "sample.png"
    report = run_json(
        capsys,
        "evaluate",
        "--spots",
        "10",
        "--colours",
        "10",
        "--strategy",
        "first",
        "--sample",
        "20",
        "--png",
        str(picture),
    )
    assert (report["secrets"], report["sampled"]) == (20, True)
    assert sum(report["histogram"].values()) == 20
    assert picture.read_bytes()[:8] == PNG_MAGIC


# -- break ---------------------------------------------------------------------------------


def play(capsys, monkeypatch, lines: list[str], *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    code = main(["mastermind", "break", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_break_a_correct_session(capsys, monkeypatch):
    right = answers("3520", 6)
    code, out, _ = play(capsys, monkeypatch, right)
    assert code == 0
    expected = solve("3520", 6, "knuth")
    for turn, guess in enumerate(expected.to_dict()["guesses"], start=1):
        assert f"guess {turn}: {guess}" in out
    assert "codes still fit" in out
    assert f"found 3520 in {expected.turns} guesses" in out


def test_break_json_keeps_the_conversation_off_stdout(capsys, monkeypatch):
    code, out, err = play(capsys, monkeypatch, answers("3520", 6), "--json")
    assert code == 0
    assert out.count("\n") == 1
    report = json.loads(out)
    expected = solve("3520", 6, "knuth")
    assert report["guesses"] == expected.to_dict()["guesses"]
    assert report["feedback"] == expected.feedback.tolist()
    assert (report["turns"], report["solved"], report["secret"]) == (expected.turns, True, "3520")
    assert "guess 1: 0011" in err


@pytest.mark.parametrize("form", ["{b},{w}", "{b}b{w}w", "{b} black {w} white", " {b} , {w} "])
def test_break_accepts_the_written_forms(capsys, monkeypatch, form):
    right = [form.format(b=b, w=w) for b, w in solve("1405", 6, "knuth").feedback.tolist()]
    code, out, _ = play(capsys, monkeypatch, right, "--json")
    assert code == 0
    assert json.loads(out)["secret"] == "1405"


def test_break_asks_again_after_a_typo(capsys, monkeypatch):
    right = answers("3520", 6)
    lines = ["one one", "", "21", "5 0", "3 1 2", right[0], *right[1:]]
    code, out, _ = play(capsys, monkeypatch, lines)
    assert code == 0
    assert out.count("guess 1: 0011") == 1
    assert "feedback 'one one': expected black then white pegs" in out
    assert "feedback '21': expected black then white pegs" in out
    assert "5 black + 0 white is more than the 4 spots" in out
    assert "found 3520" in out


def test_break_reports_contradictions_and_asks_again(capsys, monkeypatch):
    right = answers("3520", 6)
    # 3 black 1 white can never be right on 4 spots: refused twice, then answered right.
    lines = [right[0], "3 1", "3b1w", *right[1:]]
    code, out, _ = play(capsys, monkeypatch, lines)
    assert code == 0
    assert "no code fits this feedback: turn 1: " in out
    assert out.count("guess 2: ") == 1
    assert out.count("answer guess 2 again") == 2
    assert "found 3520" in out


RIGHT_FOR_1122 = answers("1122", 6)  # Knuth: 0011 gets 0 black 2 white, then 1233


@pytest.mark.parametrize(
    ("lines", "contradiction", "asked_again", "found"),
    [
        pytest.param(
            # Knuth's guesses are 0011, 0023 and then 0203; 0203 cannot get 1 black 2 white
            # when 0023 got 2 black 2 white (turn 0 has nothing to do with it).
            ["1 1", "2,2", "1b2w", "4 0"],
            "turn 1: 0023 got 2 black 2 white; turn 2: 0203 got 1 black 2 white",
            "guess 3: 0203",
            "found 0203 in 3 guesses",
            id="names the contradicting turns",
        ),
        pytest.param(
            [RIGHT_FOR_1122[0], "4 0", *RIGHT_FOR_1122[1:]],
            "turn 0: 0011 got 0 black 2 white; turn 1: 1233 got 4 black 0 white",
            "guess 2: 1233",
            "found 1122",
            id="refuses a win that earlier answers rule out",
        ),
    ],
)
def test_break_refuses_feedbacks_that_contradict_each_other(
    capsys, monkeypatch, *, lines, contradiction, asked_again, found
):
    code, out, _ = play(capsys, monkeypatch, lines)
    assert code == 0
    assert f"no code fits these 2 feedbacks together: {contradiction}" in out
    assert out.count(asked_again) == 1
    assert found in out


def test_break_with_first(capsys, monkeypatch):
    code, out, _ = play(
        capsys, monkeypatch, ["0 0", "0 0", "4 0"], "--strategy", "first", "--colours", "3"
    )
    assert code == 0
    assert "guess 1: 0000" in out
    assert "guess 2: 1111" in out
    assert "1 code still fit" in out
    assert "found 2222 in 3 guesses" in out


def test_break_ends_politely_at_the_end_of_the_input(capsys, monkeypatch):
    code, out, err = play(capsys, monkeypatch, ["1 1"])
    assert code == 2
    assert "guess 2: 0023" in out
    assert "stratagem: error: no answer to guess 2 (0023): the input ended" in err
    assert "Traceback" not in err
    code, out, err = play(capsys, monkeypatch, [], "--json")
    assert code == 2
    assert json.loads(out)["error"]["type"] == "InvalidParameter"


def test_break_on_a_large_space_uses_first(capsys, monkeypatch):
    secret = "31415926"
    right = answers(secret, 10, "first")
    code, out, _ = play(capsys, monkeypatch, right, "--spots", "8", "--colours", "10", "--json")
    assert code == 0
    report = json.loads(out)
    assert (report["strategy"], report["secret"]) == ("first", secret)


def test_feedback_forms():
    assert parse_feedback("2 1", 4) == (2, 1)
    assert parse_feedback("2,1", 4) == (2, 1)
    assert parse_feedback("2B1W", 4) == (2, 1)
    assert parse_feedback("0b", 4) == (0, 0)
    assert parse_feedback("10 0", 10) == (10, 0)
    for bad in ("", "2", "21", "2 1 0", "-1 2", "b2w1", "2w1b"):
        with pytest.raises(ValueError, match="expected black then white"):
            parse_feedback(bad, 4)


# -- count ---------------------------------------------------------------------------------


def test_count_exact_and_listed(capsys):
    report = run_json(capsys, "count", "--spots", "4", "--colours", "6", "--guess", "0011:1,1")
    assert report["count"] == 208 == count_consistent(4, 6, ["0011"], [[1, 1]])
    assert len(report["codes"]) == 20
    assert report["codes"][0] == "0122"
    report = run_json(capsys, "count", "--guess", "0011:1,1", "--guess", "0023:2b2w")
    assert report["count"] == 4
    assert report["codes"] == ["0203", "0320", "2003", "3020"]
    assert (report["spots"], report["space"]) == (4, 1296)
    out = run_text(capsys, "count", "--guess", "0011:1,1", "0023:2,2")
    assert "consistent codes: 4 (0.309% of the space)" in out
    assert "0203 0320 2003 3020" in out


def test_count_names_a_contradiction(capsys):
    argv = ["count", "--guess", "0011:1,1", "--guess", "0023:2,2", "--guess", "0203:1,2"]
    report = run_json(capsys, *argv)
    assert (report["count"], report["contradiction"]) == (0, [1, 2])
    out = run_text(capsys, *argv)
    assert "no code fits these feedbacks together: turns 1, 2" in out


def test_count_estimate(capsys):
    report = run_json(capsys, "count", "--colours", "10", "--guess", "0123456789:3,2", "--estimate")
    assert report["spots"] == 10
    assert report["count"] is None  # 10^10 codes: no exact count with --estimate
    estimate = report["estimate"]
    assert estimate["probes"] == 10_000
    # The exact count is 69,579,720 (14 s); the estimate is within a few standard errors.
    assert abs(estimate["mean"] - 69_579_720) < 5 * estimate["standard_error"]
    small = run_json(
        capsys, "count", "--guess", "0011:1,1", "--estimate", "--probes", "4000", "--seed", "3"
    )
    assert small["count"] == 208
    assert abs(small["estimate"]["mean"] - 208) < 5 * small["estimate"]["standard_error"]
    line = "count --colours 36 --guess 0123456789abcdef:3,2 --estimate --probes 500"
    out = run_text(capsys, *line.split())
    assert "16 spots x 36 colours (36^16 codes)" in out
    assert "Knuth's estimate: " in out
    assert "500 probes" in out


# -- bad input -----------------------------------------------------------------------------


# command line: what its error names
BAD_INPUT = [
    ("play --players clever", "'clever'"),
    ("play --players first,knuth", "one codebreaker"),
    ("play --colours 1", "--colours"),
    ("play --colours 37", "--colours"),
    ("play --spots 17", "--spots"),
    ("play --spots 0", "--spots"),
    ("play --secret '12#4'", "'#'"),
    ("play --secret 12x4", "colour 33"),
    ("play --secret 1274", "colour 7"),
    ("play --secret 1234 --spots 5", "expected 5"),
    ("play --secret '' --colours 10", "empty"),
    ("play --secret 7735427368 --colours 10 --players knuth", "knuth"),
    ("play --secret 77354273 --colours 10 --players optimal", "4096"),
    ("evaluate --strategy knuth,bogus", "'bogus'"),
    ("evaluate --strategy knuth,knuth", "twice"),
    ("evaluate --strategy ,", "no strategy"),
    ("evaluate --spots 10 --colours 10", "knuth"),
    ("evaluate --sample 0", "--sample"),
    ("evaluate --png histogram.svg", ".png"),
    ("evaluate --png /no/such/folder/h.png", "/no/such/folder"),
    ("break --strategy psychic", "'psychic'"),
    ("break --spots 9 --colours 10 --strategy irving", "irving"),
    ("count --guess 0011", "'0011'"),
    ("count --guess 0011:5,0", "more than the 4 spots"),
    ("count --guess 0011:1", "'0011:1'"),
    ("count --guess 001:1,1 --spots 4", "expected 4"),
    ("count --guess 0019:1,1", "colour 9"),
    ("count --guess 0011:1,1 01:0,0", "'01:0,0'"),
    ("count --guess 0011:1,1 --probes 1 --estimate", "--probes"),
]


@pytest.mark.parametrize(("argv", "named"), BAD_INPUT)
def test_bad_input_exits_2_with_the_error_named(capsys, monkeypatch, argv, named):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    error, err = failure(capsys, *shlex.split(argv))
    assert named in error["message"]
    assert named in err
    assert err.startswith("stratagem: error:")


@pytest.mark.parametrize(
    "argv",
    [
        "play --order sideways",
        "play --spots four",
        "evaluate --sample many",
        "count --guess",
        "sideways",
        "",
    ],
)
def test_bad_options_exit_2_from_the_parser(capsys, argv):
    assert "error:" in cli.parser_failure(capsys, *shlex.split(argv))


def test_the_old_solve_and_strategy_still_work_with_a_note(capsys):
    assert main(["mastermind", "solve", "--secret", "0123", "--strategy", "knuth", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["guesses"] == ["0011", "0023", "0123"]
    assert "note: 'mastermind solve' is deprecated; use 'mastermind play'" in captured.err
    assert "note: --strategy is deprecated; use --players" in captured.err


# -- demo ----------------------------------------------------------------------------------


def test_demo_part_solves_the_seed_instance_and_evaluates_knuth():
    from stratagem.cli.demo import _PARTS

    lines: list[str] = []
    report = dict(_PARTS)["mastermind"](5, 2, lines.append)
    assert report["turns"] == 13
    assert report["guesses"] == SEED_GUESSES
    assert (report["knuth_total"], report["knuth_worst"]) == (5801, 5)
    assert report["knuth_histogram"] == {"1": 1, "2": 6, "3": 62, "4": 533, "5": 694}
    assert report["distributed_identical_to_single_process"] is None
    assert any("13 guesses" in line for line in lines)
    assert any("5801 guesses, average 4.476, worst case 5" in line for line in lines)
