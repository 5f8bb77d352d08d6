"""``stratagem mastermind solve | evaluate | break | count``: the Mastermind commands of the
command line.

:func:`register` adds them to the main parser (:mod:`stratagem.cli`); each command returns a
report dictionary, printed as text or, with ``--json``, as one JSON object. Codes are written
one character per spot (``0-9`` then ``a-z``: ``7735427368``) or as numbers separated by commas
(``7,7,3,5``); a feedback is black then white, as ``2 1``, ``2,1`` or ``2b1w``:

>>> parse_feedback("2b1w", 4), parse_feedback("3, 0", 4), parse_feedback("4b", 4)
((2, 1), (3, 0), (4, 0))
>>> parse_guess("0011:1,1", 4, 6)
('0011', 1, 1)
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

import numpy as np

from stratagem import _validate, games
from stratagem.cli_common import (
    Commands,
    Common,
    DeprecatedOption,
    add_command,
    add_count,
    add_load,
    add_png,
    add_save,
    add_turns,
    check_readable,
    command_group,
    command_summary,
    names_argument,
    played_report,
    print_files,
    refuse_new_game_options,
)
from stratagem.errors import InconsistentFeedback, InvalidParameter, StratagemError
from stratagem.mastermind.code import (
    MAX_COLOURS,
    MAX_SPOTS,
    MIN_COLOURS,
    MIN_SPOTS,
    format_code,
    parse_code,
)
from stratagem.mastermind.evaluate import Evaluation, evaluate, sample_secrets
from stratagem.mastermind.game import (
    ENUMERABLE_LIMIT,
    MAX_PROBES,
    consistent_codes,
    count_consistent,
    estimate_consistent,
    smallest_contradiction,
)
from stratagem.mastermind.human import HumanGame, converse
from stratagem.mastermind.players import (
    ORDERS,
    STRATEGIES,
    Codebreaker,
    Solution,
    check_strategy,
    solve,
)
from stratagem.mpi import world

__all__ = ["parse_feedback", "parse_guess", "register"]

_DEFAULT_SPOTS = 4
_DEFAULT_COLOURS = 6
_FEEDBACK_HELP = "black then white pegs, e.g. '2 1', '2,1' or '2b1w'"
# "2 1", "2,1", "2, 1", "2b1w", "2b 1w", "2 black 1 white", "4b" (no white).
_FEEDBACK = re.compile(
    r"(?P<black>\d+)\s*(?:(?:b|black)\s*,?\s*(?:(?P<white_after_b>\d+)\s*(?:w|white)?)?"
    r"|(?:\s*,\s*|\s+)(?P<white>\d+)\s*(?:w|white)?)"
)
# Consistent codes listed by `count` (enumerable spaces only).
_DEFAULT_LIST = 20


# -- shared helpers ------------------------------------------------------------------------


def parse_feedback(text: str, spots: int) -> tuple[int, int]:
    """``(black, white)`` from ``2 1``, ``2,1``, ``2b1w`` or ``4b``; InvalidParameter saying
    what is expected otherwise, or when the pegs do not fit ``spots`` spots."""
    found = _FEEDBACK.fullmatch(text.strip().lower())
    if found is None:
        raise InvalidParameter(f"feedback {text.strip()!r}: expected {_FEEDBACK_HELP}")
    black = int(found["black"])
    white = int(found["white"] or found["white_after_b"] or 0)
    if black + white > spots:
        raise InvalidParameter(
            f"feedback {text.strip()!r}: {black} black + {white} white is more than the "
            f"{spots} spots"
        )
    return black, white


def parse_guess(text: str, spots: int, colours: int) -> tuple[str, int, int]:
    """A ``--guess`` of ``count``: ``CODE:B,W`` as (the code's written form, black, white)."""
    code_text, colon, feedback_text = text.rpartition(":")
    if not colon or not code_text.strip():
        raise InvalidParameter(f"--guess {text!r}: expected CODE:BLACK,WHITE, e.g. 0011:1,1")
    try:
        code = parse_code(code_text, colours, spots)
        black, white = parse_feedback(feedback_text, spots)
    except StratagemError as error:
        raise type(error)(f"--guess {text!r}: {error}") from error
    return format_code(code), black, white


def _space(args: argparse.Namespace, spots: int | None = None) -> tuple[int, int]:
    """``--spots`` (or the given default) and ``--colours``, checked and named."""
    spots = args.spots if args.spots is not None else spots
    return (
        _validate.integer(
            "--spots", _DEFAULT_SPOTS if spots is None else spots, MIN_SPOTS, MAX_SPOTS
        ),
        _validate.integer("--colours", args.colours, MIN_COLOURS, MAX_COLOURS),
    )


def _size(spots: int, colours: int) -> str:
    size = colours**spots
    return f"{size:,}" if size < 10**9 else f"{colours}^{spots}"


def _space_name(spots: int, colours: int) -> str:
    return f"{spots} spots x {colours} colours ({_size(spots, colours)} codes)"


def _distributed_solve() -> Callable[..., Solution]:
    """The MPI search's ``solve``, imported when needed."""
    try:
        from stratagem.mastermind.distributed import solve as distributed_solve
    except ImportError as error:
        raise InvalidParameter(
            "the MPI search (stratagem.mastermind.distributed) is not available in this "
            "installation; run without mpiexec, or with another --strategy than first"
        ) from error
    return distributed_solve


# -- solve ---------------------------------------------------------------------------------


def _play(args: argparse.Namespace) -> dict[str, Any]:
    """break a secret code and show every guess

    Break a secret code with a codebreaker strategy and print every guess, its feedback and
    the time. Without --secret, the secret is drawn from --seed. Under mpiexec, the first
    strategy searches on every rank. With --human, you are the codebreaker: type guesses (and
    history, count, hint, could, save, quit, help) one per line; with --json each answer is a
    JSON line.
    """
    rows = None if args.turns is None else _validate.integer("--turns", args.turns, 1)
    if args.human or args.load is not None:
        return _play_human(args, rows)
    if len(args.players) != 1:
        raise InvalidParameter(
            f"--players names the one codebreaker of a game; got {', '.join(args.players)}"
        )
    strategy = check_strategy(args.players[0])
    if args.secret is not None:
        colours = _validate.integer("--colours", args.colours, MIN_COLOURS, MAX_COLOURS)
        if args.spots is not None:
            _validate.integer("--spots", args.spots, MIN_SPOTS, MAX_SPOTS)
        try:
            secret = parse_code(args.secret, colours, args.spots)
        except StratagemError as error:
            if args.secret in str(error):
                raise
            raise type(error)(f"--secret {args.secret!r}: {error}") from error
        spots = int(secret.size)
        drawn = False
    else:
        spots, colours = _space(args)
        secret = sample_secrets(spots, colours, 1, args.seed)[0]
        drawn = True
    comm = world()
    if comm.is_distributed and strategy == "first":
        solution = _distributed_solve()(
            secret, colours, comm=comm, order=args.order, seed=args.seed, threads=args.threads
        )
    else:
        solution = solve(
            secret, colours, strategy, args.seed, order=args.order, threads=args.threads
        )
    distributed = comm.is_distributed and strategy == "first"
    details = solution.to_dict()
    turns = details.pop("turns")
    seconds = details.pop("seconds")
    # Out of rows: the board shows the guesses it had room for, and the codebreaker lost.
    played = turns if rows is None else min(turns, rows)
    lost = played < turns
    details["guesses"] = details["guesses"][:played]
    details["feedback"] = details["feedback"][:played]
    return played_report(
        outcome="unfinished" if lost else "won",
        winners=[] if lost else [0],
        turns_played=played,
        seconds=seconds,
        **details,
        rows=rows,
        lost=lost,
        guesses_needed=turns,
        order=args.order,
        drawn=drawn,
        ranks=comm.size if distributed else 1,
    )


def _play_human(args: argparse.Namespace, rows: int | None) -> dict[str, Any]:
    """``play --human``: the machine holds the secret, the person guesses (on ``rows`` rows)."""
    if world().is_distributed:
        raise InvalidParameter("play --human reads your guesses: run it without mpiexec")
    if sys.stdin is None:
        raise InvalidParameter(
            "play --human reads your guesses from standard input, which is closed"
        )
    check_readable(args.load, "--load")
    if args.load is not None:
        refuse_new_game_options(args, ("secret", "hint", "turns"), "--load")
        game = HumanGame.load(args.load, threads=args.threads)
    else:
        spots, colours = _space(args)
        if args.secret is not None:
            spots = parse_code(args.secret, colours, args.spots).size
        game = HumanGame.new(
            spots,
            colours,
            secret=args.secret,
            seed=args.seed,
            hint_strategy=None if args.hint is None else check_strategy(args.hint),
            threads=args.threads,
            rows=rows,
        )
    started = time.perf_counter()
    ended = converse(
        game,
        sys.stdin,
        sys.stdout,
        json_lines=args.json,
        save=args.save,
        echo=not sys.stdin.isatty(),
    )
    return played_report(
        outcome="won" if ended == "won" else "unfinished",
        winners=[0] if ended == "won" else [],
        turns_played=game.turns,
        seconds=time.perf_counter() - started,
        event="end",
        human=True,
        ended=ended,
        spots=game.spots,
        colours=game.colours,
        seed=game.seed,
        drawn=game.drawn,
        guesses=list(game.guesses),
        feedback=[list(f) for f in game.feedback],
        # Revealed once found or given up; kept hidden when the input just ended (a saved
        # game may go on).
        secret=format_code(game.secret) if ended in ("won", "lost", "quit") else None,
        rows=game.rows,
        lost=ended == "lost",
        saved=None if args.save is None else str(args.save),
    )


def _feedback_text(black: int, white: int) -> str:
    return f"{black} black {white} white"


def _print_play(report: dict[str, Any]) -> None:
    if report.get("human"):
        if report["ended"] == "quit":
            print(f"the secret was {report['secret']}")
        elif report["ended"] == "unfinished":
            where = f"; saved in {report['saved']}" if report["saved"] else ""
            print(f"stopped after {report['turns_played']} guesses{where}")
        return
    spots, colours = report["spots"], report["colours"]
    origin = f"drawn from seed {report['seed']}" if report["drawn"] else "given"
    strategy = report["strategy"]
    if strategy == "first":
        strategy += f" ({report['order']} order)"
    print(
        f"mastermind on {_space_name(spots, colours)}: secret {report['secret']} ({origin}), "
        f"strategy {strategy}, seed {report['seed']}"
    )
    width = max(len(str(report["turns_played"])), 2)
    for turn, (guess, (black, white)) in enumerate(
        zip(report["guesses"], report["feedback"], strict=True), start=1
    ):
        print(f"  {turn:>{width}}. {guess}  {_feedback_text(black, white)}")
    where = f" on {report['ranks']} MPI ranks" if report["ranks"] > 1 else ""
    guesses = "guess" if report["turns_played"] == 1 else "guesses"
    if report["lost"]:
        print(
            f"not broken in {report['rows']} rows: the codebreaker loses ({strategy} needs "
            f"{report['guesses_needed']} guesses), {report['seconds']:.3f} s{where}"
        )
        return
    print(f"solved in {report['turns_played']} {guesses}, {report['seconds']:.3f} s{where}")


# -- evaluate ------------------------------------------------------------------------------


def _strategy_list(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise InvalidParameter(
            f"--strategy {text!r} names no strategy; strategies are {', '.join(STRATEGIES)}"
        )
    for name in names:
        check_strategy(name)
        if names.count(name) > 1:
            raise InvalidParameter(f"--strategy {text!r} names {name!r} twice")
    return names


def _evaluate(args: argparse.Namespace) -> dict[str, Any]:
    """play a strategy against every secret and show the histogram

    Play each strategy against every code of the space (or --sample seeded secrets) and
    print how many guesses it needed: the histogram, total, average, worst case and hardest
    secrets.
    """
    spots, colours = _space(args)
    names = _strategy_list(args.strategy)
    sample = None if args.sample is None else _validate.integer("--sample", args.sample, 1)
    plot_path = None
    if args.png is not None:
        from stratagem.mastermind.plot import png_path

        plot_path = png_path(args.png)
    evaluations = [
        evaluate(
            spots,
            colours,
            name,
            sample=sample,
            seed=args.seed,
            order=args.order,
            threads=args.threads,
        )
        for name in names
    ]
    files: dict[str, str] = {}
    if plot_path is not None and world().rank == 0:
        from stratagem.mastermind.plot import plot_evaluations

        files["png"] = str(plot_evaluations(evaluations, plot_path))
    reports = [_evaluation_report(evaluation, args.order) for evaluation in evaluations]
    if len(reports) == 1:
        return {**reports[0], "files": files}
    return {
        "spots": spots,
        "colours": colours,
        "seed": args.seed,
        "order": args.order,
        "strategies": names,
        "evaluations": reports,
        "files": files,
    }


def _evaluation_report(evaluation: Evaluation, order: str) -> dict[str, Any]:
    """``Evaluation.to_dict()`` with the search order and the guesses of the hardest secrets."""
    report = evaluation.to_dict()
    # The secrets of Evaluation.hardest(): most guesses first, ties in secret order.
    ranked = np.argsort(-evaluation.guesses.astype(np.int64), kind="stable")
    report["hardest_guesses"] = [
        int(evaluation.guesses[i]) for i in ranked[: len(report["hardest"])]
    ]
    report["order"] = order
    return report


def _print_evaluation(report: dict[str, Any]) -> None:
    secrets = report["secrets"]
    which = f"a sample of {secrets:,} secrets" if report["sampled"] else f"all {secrets:,} secrets"
    print(
        f"{report['strategy']} on {_space_name(report['spots'], report['colours'])}: "
        f"{which}, seed {report['seed']}, {report['seconds']:.3f} s"
    )
    histogram = {int(k): n for k, n in report["histogram"].items()}
    print(f"  {'guesses':>7}  {'secrets':>9}")
    for guesses in range(min(histogram), report["worst"] + 1):
        print(f"  {guesses:>7}  {histogram.get(guesses, 0):>9,}")
    average = f"{report['total']}/{secrets}"
    if report["average_fraction"] != average:
        average += f" = {report['average_fraction']}"
    print(
        f"  total {report['total']:,} guesses: average {average} = {report['average']:.4f}, "
        f"worst case {report['worst']}"
    )
    hardest = ", ".join(
        f"{code} ({guesses})"
        for code, guesses in zip(report["hardest"], report["hardest_guesses"], strict=True)
    )
    print(f"  hardest secrets (guesses): {hardest}")


def _print_evaluate(report: dict[str, Any]) -> None:
    evaluations = report.get("evaluations", [report])
    for evaluation in evaluations:
        _print_evaluation(evaluation)
    if len(evaluations) > 1:
        width = max(len(e["strategy"]) for e in evaluations)
        print(f"{'strategy':<{width}}  {'total':>9}  {'average':>8}  {'worst':>5}  {'seconds':>8}")
        for e in evaluations:
            print(
                f"{e['strategy']:<{width}}  {e['total']:>9,}  {e['average']:>8.4f}  "
                f"{e['worst']:>5}  {e['seconds']:>8.3f}"
            )
    print_files(report["files"])


# -- break ---------------------------------------------------------------------------------


def _ask(prompt: str, out: TextIO) -> str | None:
    """One line of the human's answer, or None at the end of the input."""
    out.write(prompt)
    out.flush()
    line = sys.stdin.readline()
    if not line:
        out.write("\n")
        return None
    if not sys.stdin.isatty():
        # Piped answers are not echoed by a terminal: echo them so the transcript reads well.
        out.write(line if line.endswith("\n") else line + "\n")
    return line


def _check_win(breaker: Codebreaker) -> None:
    """Refuses S blacks for a pending guess that earlier feedback already rules out (the
    Codebreaker accepts a win without checking it)."""
    guess = breaker.next_guess()
    guesses = np.vstack([breaker.guesses, guess[None, :]])
    feedback = np.vstack([breaker.feedbacks, [[breaker.spots, 0]]])
    turns = smallest_contradiction(
        breaker.spots, breaker.colours, guesses, feedback, threads=breaker.threads
    )
    if turns is None:
        return
    described = "; ".join(
        f"turn {t}: {format_code(guesses[t])} got {_feedback_text(*feedback[t].tolist())}"
        for t in turns
    )
    noun = "this feedback" if len(turns) == 1 else f"these {len(turns)} feedbacks"
    raise InconsistentFeedback(f"no code fits {noun} together: {described}", turns)


def _break(args: argparse.Namespace) -> dict[str, Any]:
    """you think of a code, the computer breaks it

    You are the codemaker: think of a code; answer each guess with its black and white pegs
    ('2 1', '2,1' or '2b1w'). A contradiction with earlier answers is named and the answer
    asked again.
    """
    spots, colours = _space(args)
    if world().is_distributed:
        raise InvalidParameter("break reads your answers from the terminal: run it without mpiexec")
    enumerable = colours**spots <= ENUMERABLE_LIMIT
    if args.strategy is None:
        strategy = "knuth" if enumerable else "first"
    else:
        strategy = check_strategy(args.strategy)
    breaker = Codebreaker(
        spots, colours, strategy, args.seed, order=args.order, threads=args.threads
    )
    # With --json, stdout holds the final object alone: the conversation goes to stderr.
    out = sys.stderr if args.json else sys.stdout
    highest = format_code([colours - 1])
    out.write(
        f"mastermind on {_space_name(spots, colours)}: think of a code of {spots} colours "
        f"from 0 to {highest} (like {format_code(np.arange(spots) % colours)}).\n"
        f"I guess with {strategy}; answer each guess with its {_FEEDBACK_HELP}.\n"
    )
    started = time.perf_counter()
    while not breaker.solved:
        guess = format_code(breaker.next_guess())
        turn = breaker.turns + 1
        out.write(f"guess {turn}: {guess}\n")
        while True:
            line = _ask("  black white? ", out)
            if line is None:
                raise InvalidParameter(
                    f"no answer to guess {turn} ({guess}): the input ended before the code "
                    f"was found"
                )
            try:
                black, white = parse_feedback(line, spots)
                if black == spots:
                    _check_win(breaker)
                breaker.feedback(black, white)
            except InconsistentFeedback as error:
                out.write(f"  {error}\n  Check your answers and answer guess {turn} again:\n")
                continue
            except InvalidParameter as error:
                out.write(f"  {error}\n")
                continue
            break
        if not breaker.solved and enumerable:
            left = breaker.remaining()
            out.write(f"  {left:,} code{'s' if left != 1 else ''} still fit\n")
    guesses = [format_code(g) for g in breaker.guesses]
    return {
        "spots": spots,
        "colours": colours,
        "strategy": strategy,
        "order": args.order,
        "seed": args.seed,
        "guesses": guesses,
        "feedback": breaker.feedbacks.tolist(),
        "turns": breaker.turns,
        "solved": breaker.solved,
        "secret": guesses[-1],
        "seconds": time.perf_counter() - started,
    }


def _print_break(report: dict[str, Any]) -> None:
    guesses = "guess" if report["turns"] == 1 else "guesses"
    print(f"found {report['secret']} in {report['turns']} {guesses}")


# -- count ---------------------------------------------------------------------------------


#: The most consistent codes `count` counts exactly (at a few million a second: minutes); a
#: quick estimate of more is refused, pointing to --estimate.
COUNT_LIMIT = 10**10
# Probes of the estimate that sizes an exact count (a few milliseconds).
_SIZING_PROBES = 1000


def _count_consistent(args: argparse.Namespace) -> dict[str, Any]:
    """how many codes fit some guesses and their feedback

    Count the codes consistent with guesses and their feedback (exactly, or with --estimate
    by Knuth's estimator), list them on small spaces, and name the feedbacks that contradict
    each other when none fits.
    """
    texts = args.guess or []
    inferred = None
    if args.spots is None and texts:
        # Without --spots, the first guess gives the length of a code.
        _, colours = _space(args)
        code_text = texts[0].rpartition(":")[0]
        try:
            inferred = int(parse_code(code_text, colours).size) if code_text.strip() else None
        except StratagemError as error:
            raise type(error)(f"--guess {texts[0]!r}: {error}") from error
    spots, colours = _space(args, inferred)
    parsed = [parse_guess(text, spots, colours) for text in texts]
    guesses = [code for code, _, _ in parsed]
    feedback = [[black, white] for _, black, white in parsed]
    size = colours**spots
    enumerable = size <= ENUMERABLE_LIMIT
    listed = _validate.integer("--list", args.list, 0)
    report: dict[str, Any] = {
        "spots": spots,
        "colours": colours,
        "space": size,
        "guesses": guesses,
        "feedback": feedback,
        "count": None,
        "estimate": None,
        "codes": None,
        "contradiction": None,
    }
    started = time.perf_counter()
    if args.estimate:
        probes = _validate.integer("--probes", args.probes, 2, MAX_PROBES)
        mean, standard_error = estimate_consistent(
            spots, colours, guesses, feedback, probes=probes, seed=args.seed, threads=args.threads
        )
        report["estimate"] = {
            "mean": mean,
            "standard_error": standard_error,
            "probes": probes,
            "seed": args.seed,
        }
    if not args.estimate and not enumerable and guesses:
        _refuse_endless_count(spots, colours, guesses, feedback, args)
    if not args.estimate or enumerable:
        report["count"] = count_consistent(spots, colours, guesses, feedback, threads=args.threads)
        if report["count"] == 0 and guesses:
            turns = smallest_contradiction(spots, colours, guesses, feedback, threads=args.threads)
            report["contradiction"] = None if turns is None else list(turns)
        elif enumerable and listed:
            codes = consistent_codes(spots, colours, guesses, feedback, threads=args.threads)
            report["codes"] = [format_code(code) for code in codes[:listed]]
    report["seconds"] = time.perf_counter() - started
    return report


def _refuse_endless_count(
    spots: int, colours: int, guesses: Any, feedback: Any, args: argparse.Namespace
) -> None:
    """Refuses an exact count that could not finish: the count visits every consistent code
    (a few million a second), so a quick estimate of their number decides first."""
    mean, _ = estimate_consistent(
        spots, colours, guesses, feedback, probes=_SIZING_PROBES, seed=args.seed
    )
    if mean > COUNT_LIMIT:
        raise InvalidParameter(
            f"about {mean:.2g} codes fit these guesses: counting them one by one would not "
            f"finish (the exact count stops at about {COUNT_LIMIT:.0e} codes); ask for "
            f"--estimate"
        )


def _print_count(report: dict[str, Any]) -> None:
    spots, colours = report["spots"], report["colours"]
    print(f"mastermind on {_space_name(spots, colours)}")
    for turn, (guess, (black, white)) in enumerate(
        zip(report["guesses"], report["feedback"], strict=True)
    ):
        print(f"  turn {turn}: {guess}  {_feedback_text(black, white)}")
    count = report["count"]
    if count is not None:
        share = f" ({100 * count / report['space']:.3g}% of the space)" if count else ""
        print(f"consistent codes: {count:,}{share}")
        if report["codes"] is not None:
            more = " ..." if count > len(report["codes"]) else ""
            print(f"  {' '.join(report['codes'])}{more}")
        if report["contradiction"] is not None:
            turns = ", ".join(str(t) for t in report["contradiction"])
            print(f"no code fits these feedbacks together: turns {turns}")
    estimate = report["estimate"]
    if estimate is not None:
        print(
            f"Knuth's estimate: {estimate['mean']:.4g} +- {estimate['standard_error']:.2g} "
            f"(standard error, {estimate['probes']:,} probes, seed {estimate['seed']})"
        )
    print(f"{report['seconds']:.3f} s")


# -- registration --------------------------------------------------------------------------


def _space_options(parser: argparse.ArgumentParser, spots_help: str) -> None:
    add_count(parser, "--spots", help=spots_help)
    add_count(
        parser,
        "--colours",
        default=_DEFAULT_COLOURS,
        help=f"colours per spot, {MIN_COLOURS} to {MAX_COLOURS} (default {_DEFAULT_COLOURS})",
    )


def _order_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--order",
        choices=ORDERS,
        default="lex",
        help="search order of the first strategy: lex (lexicographic, default) or shuffled "
        "(a permutation of the colours per spot drawn from --seed)",
    )


def register(commands: Commands, common: Common) -> None:
    """Adds the commands ``mastermind play | evaluate | break | count`` (``solve``: the old
    name of ``play``)."""
    sub = command_group(
        commands, "mastermind", command_summary("mastermind", games.spec("mastermind").summary)
    )
    strategies = ", ".join(STRATEGIES)
    default_spots = f"spots of a code, {MIN_SPOTS} to {MAX_SPOTS} (default {_DEFAULT_SPOTS})"

    for play_parser in add_command(
        sub, "play", common, _play, _print_play, old_names=("solve",), prefix="mastermind "
    ):
        play_parser.add_argument(
            "--secret", help="the code to break, e.g. 7735427368 or 7,7,3,5 (default: drawn)"
        )
        _space_options(
            play_parser,
            f"spots of a drawn secret, {MIN_SPOTS} to {MAX_SPOTS} (default: the "
            f"secret's length, else {_DEFAULT_SPOTS})",
        )
        play_parser.add_argument(
            "--players",
            type=names_argument,
            default=["first"],
            metavar="STRATEGY",
            help=f"the codebreaker's strategy: one of {strategies} (default first)",
        )
        play_parser.add_argument(
            "--strategy",
            dest="players",
            action=DeprecatedOption,
            new="--players",
            convert=names_argument,
        )
        add_turns(
            play_parser,
            default=None,
            help="the rows of the board: the codebreaker loses when N guesses have not found "
            "the code (default: no limit; the board game has 8 to 12)",
        )
        _order_option(play_parser)
        play_parser.add_argument(
            "--human",
            action="store_true",
            help="you break the code: the machine holds the secret (--secret, or drawn from "
            "--seed) and scores your guesses; ask for history, count, hint, could, save",
        )
        play_parser.add_argument(
            "--hint",
            metavar="STRATEGY",
            help=f"with --human, the strategy whose guess 'hint' shows: one of {strategies} "
            f"(default knuth, or first on spaces of more than {ENUMERABLE_LIMIT:,} codes)",
        )
        add_save(play_parser, help="with --human, save the game here after every guess")
        add_load(play_parser, help="continue a --human game saved with --save")

    (evaluate_parser,) = add_command(sub, "evaluate", common, _evaluate, _print_evaluate)
    _space_options(evaluate_parser, default_spots)
    evaluate_parser.add_argument(
        "--strategy",
        default="knuth",
        help=f"one or several strategies, comma-separated: {strategies} (default knuth)",
    )
    add_count(
        evaluate_parser,
        "--sample",
        help="play this many secrets drawn from --seed instead of every code (default: every "
        f"code on spaces of at most {ENUMERABLE_LIMIT:,} codes, else 1000)",
    )
    _order_option(evaluate_parser)
    add_png(evaluate_parser, help="draw the histograms as a bar chart (PNG)", old=("--plot",))

    (break_parser,) = add_command(sub, "break", common, _break, _print_break)
    _space_options(break_parser, default_spots)
    break_parser.add_argument(
        "--strategy",
        help=f"one of {strategies} (default knuth, or first on spaces of more than "
        f"{ENUMERABLE_LIMIT:,} codes)",
    )
    _order_option(break_parser)

    (count_parser,) = add_command(sub, "count", common, _count_consistent, _print_count)
    _space_options(count_parser, f"{default_spots[:-1]}, or the length of the first guess)")
    count_parser.add_argument(
        "--guess",
        action="extend",
        nargs="+",
        metavar="CODE:B,W",
        help="a guess and its black, white feedback, e.g. 0011:1,1 (repeatable)",
    )
    count_parser.add_argument(
        "--estimate",
        action="store_true",
        help="Knuth's estimate with its standard error (for huge spaces, where the exact "
        f"count is out of reach; the exact count is still given up to {ENUMERABLE_LIMIT:,} codes)",
    )
    add_count(
        count_parser, "--probes", default=10_000, help="probes of the estimate (default 10000)"
    )
    add_count(
        count_parser,
        "--list",
        default=_DEFAULT_LIST,
        help=f"list up to this many consistent codes (small spaces; default {_DEFAULT_LIST})",
    )
