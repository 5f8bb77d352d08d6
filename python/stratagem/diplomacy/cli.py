"""``stratagem diplomacy count | tables | solve | open-problem | show``: the Diplomacy commands of
the command line.

:func:`register` adds them to the main parser (:mod:`stratagem.cli`); each command returns a
report dictionary, printed as text or, with ``--json``, as one JSON object. A position is
given as its text (``"AUS: A VIE, A BUD, F TRI / BUD TRI VIE; RUS: F STP/SC / STP"``), as
``opening`` (the standard 1901 start), or as ``@FILE``, a file holding the text (each line one
or more groups separated by ``;``, ``#`` starting a comment); ``--map FILE`` reads it on a
variant map (:meth:`~stratagem.diplomacy.map.Map.load`):

>>> read_position("RUS: F STP/SC / STP SEV")
Position('RUS: F STP/SC / SEV STP')
>>> read_position("opening") == read_position(OPENING)
True
>>> read_position("@no/such/file")
Traceback (most recent call last):
    ...
stratagem.errors.InvalidParameter: position file 'no/such/file': cannot read it (No such file \
or directory)
"""

from __future__ import annotations

import argparse
import math
import os
import time
from pathlib import Path
from typing import Any

from stratagem import _validate, games
from stratagem._files import read_text
from stratagem.cli_common import (
    Commands,
    Common,
    add_command,
    add_count,
    add_png,
    add_seconds,
    check_readable,
    command_group,
    command_summary,
    played_report,
    print_files,
    save_on_interrupt,
)
from stratagem.diplomacy import adjustments, reports
from stratagem.diplomacy.article import tables
from stratagem.diplomacy.engine import CONVENTIONS, Convention, check_convention
from stratagem.diplomacy.map import Map
from stratagem.diplomacy.position import Position
from stratagem.diplomacy.positions import OPENING
from stratagem.diplomacy.search.finder import METHODS, CombinedSearch, SearchResult, solve
from stratagem.errors import InvalidParameter, StratagemError
from stratagem.mpi import world
from stratagem.progress import Progress

__all__ = ["CONVENTION_WORDS", "OPENING", "read_position", "register"]

#: What each counting convention counts, as the commands say it.
CONVENTION_WORDS: dict[str, str] = {
    "exact": "build the maximum",
    "waives": "any number of builds up to the maximum, none included",
    "article": "at least one build, the article's 'counting waives'",
}
# Options listed by `count --list` at most, per power.
_MAX_LISTED = 100_000
# The columns every table of powers starts with, and their titles.
_COLUMNS = "  {:<5}  {:>5}  {:>7}  {:<15}"
_HEADER = _COLUMNS.format("power", "units", "centres", "open homes")


# -- shared helpers ------------------------------------------------------------------------


def _read(what: str, path: str) -> str:
    """The text of a UTF-8 file; ``what`` names the file in the error."""
    return read_text(
        path, lambda reason: InvalidParameter(f"{what} {path!r}: cannot read it ({reason})")
    )


def _load_map(path: str | None) -> Map:
    return Map.standard() if path is None else Map.parse(_read("--map", path), source=path)


def read_position(spec: str, game_map: Map | None = None) -> Position:
    """The position of a command-line argument: ``opening``, ``@FILE`` or the text itself."""
    the_map = game_map or Map.standard()
    if spec.strip().lower() == "opening":
        if the_map != Map.standard():
            raise InvalidParameter("'opening' is the standard map's start; give a position")
        return Position.parse(OPENING, the_map)
    if not spec.startswith("@"):
        return Position.parse(spec, the_map)
    path = spec[1:]
    lines = [line.partition("#")[0].strip() for line in _read("position file", path).splitlines()]
    try:
        return Position.parse("; ".join(line for line in lines if line), the_map)
    except StratagemError as error:
        raise type(error)(f"position file {path!r}: {error}") from error


def _position(args: argparse.Namespace) -> Position:
    return read_position(args.position, _load_map(args.map))


def _adjustment(position: Position, power: str) -> tuple[str, int]:
    """What ``power`` does this winter: ``('remove', k)``, ``('build', b)`` (at most) or
    ``('none', 0)``."""
    units = len(position.units_of(power))
    centres = len(position.centres_of(power))
    if units > centres:
        return "remove", units - centres
    builds = min(centres - units, len(position.open_homes(power)))
    return ("build", builds) if builds > 0 else ("none", 0)


def _powers(position: Position, convention: Convention) -> list[dict[str, Any]]:
    numbers = adjustments.counts(position, convention)
    rows = []
    for power in position.map.powers:
        kind, size = _adjustment(position, power)
        rows.append(
            {
                "power": power,
                "units": len(position.units_of(power)),
                "centres": len(position.centres_of(power)),
                "open_homes": list(position.open_homes(power)),
                "adjustment": kind,
                "size": size,
                "count": numbers[power],
            }
        )
    return rows


def _adjustment_words(row: dict[str, Any], convention: str) -> str:
    """``remove 2``; ``build 3``, ``build 0-3`` or ``build 1-3`` by the convention; ``-``."""
    if row["adjustment"] == "none":
        return "-"
    if row["adjustment"] == "build" and convention != "exact":
        least = 0 if convention == "waives" else 1
        return f"build {least}-{row['size']}" if row["size"] > least else f"build {least}"
    return f"{row['adjustment']} {row['size']}"


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def _power_columns(row: dict[str, Any]) -> str:
    return _COLUMNS.format(row["power"], row["units"], row["centres"], _words(row["open_homes"]))


def _words(names: list[str]) -> str:
    return " ".join(names) or "-"


# -- count ---------------------------------------------------------------------------------


def _count_options(args: argparse.Namespace) -> dict[str, Any]:
    """count (and list) every power's adjustment options

    Print each power's units, centres, open homes and number of adjustment options under a
    counting convention, and the total (the product over the powers); --list N lists the
    first N options of each power that has a choice.
    """
    position = _position(args)
    convention = check_convention(args.convention)
    listed = None if args.list is None else _validate.integer("--list", args.list, 0, _MAX_LISTED)
    rows = _powers(position, convention)
    report: dict[str, Any] = {
        "position": str(position),
        "convention": convention,
        "powers": rows,
        "total": math.prod(row["count"] for row in rows),
        "options": None,
    }
    if listed is not None:
        options: dict[str, list[dict[str, Any]]] = {}
        for row in rows:
            if row["count"] < 2:
                continue
            batch = adjustments.batch(position, row["power"], convention, 0, listed)
            options[row["power"]] = [
                {
                    "index": index,
                    "slots": slots,
                    "orders": adjustments.describe(position, row["power"], slots),
                }
                for index, slots in enumerate(batch.tolist())
            ]
        report["options"] = options
    return report


def _print_count(report: dict[str, Any]) -> None:
    convention = report["convention"]
    print(f"position: {report['position'] or '(empty)'}")
    print(f"convention {convention} ({CONVENTION_WORDS[convention]})")
    print(f"{_HEADER}  {'adjustment':<10}  {'options':>7}")
    for row in report["powers"]:
        words = _adjustment_words(row, convention)
        print(f"{_power_columns(row)}  {words:<10}  {row['count']:>7,}")
    total = report["total"]
    size = f" ({total:.3g})" if total >= 10**6 else ""
    print(f"total: {_plural(total, 'adjustment profile')}{size}")
    if report["options"] is None:
        return
    counts = {row["power"]: row["count"] for row in report["powers"]}
    if not report["options"]:
        print("no power has more than one option")
    for power, listed in report["options"].items():
        print(f"{power}: {_plural(counts[power], 'option')}")
        for option in listed:
            print(f"  {option['index']:>6}  {', '.join(option['orders']) or 'nothing'}")
        if counts[power] > len(listed):
            print(f"  ... and {counts[power] - len(listed):,} more")


# -- tables --------------------------------------------------------------------------------


def _tables(args: argparse.Namespace) -> dict[str, Any]:
    """the article's tables, recounted, and where the article is wrong

    Recount Loeb's removal and build tables and his 11,426,088,960 example on concrete
    positions of the standard map, beside his printed figures.
    """
    best, per_power, position = tables.nearest_legal_example()
    return {
        "removals": [
            {"n": r.n, "k": r.k, "count": r.count, "article": r.article, "note": r.note}
            for r in tables.removal_table()
        ],
        "builds": [
            {
                "power": r.power,
                "builds": r.builds,
                "exact": r.exact,
                "article": r.article,
                "waives": r.waives,
                "printed_exact": r.printed_exact,
                "printed_article": r.printed_article,
                "note": r.note,
            }
            for r in tables.build_table()
        ],
        "example": {
            "rows": [
                {
                    "power": r.power,
                    "units": r.units,
                    "centres": r.centres,
                    "open_homes": list(r.open_homes),
                    "count": r.count,
                    "article": r.article,
                }
                for r in tables.example_table()
            ],
            "article_total": tables.ARTICLE_EXAMPLE_TOTAL,
            "impossible": tables.example_impossibility(),
            "nearest_legal": {
                "total": best,
                "shares": [
                    {"power": power, "units": u, "centres": c, "open_homes": list(homes)}
                    for power, (u, c, homes) in zip(position.map.powers, per_power, strict=True)
                ],
                "position": str(position),
            },
        },
        "text": tables.format_tables(),
    }


def _print_tables(report: dict[str, Any]) -> None:
    print(report["text"], end="")


# -- solve ---------------------------------------------------------------------------------


def _search(args: argparse.Namespace) -> dict[str, Any]:
    """find every power's adjustment: preliminary, sequential, anneal or combined search

    Play a winter: run one search of the strategy finder with the built-in evaluator and
    print each power's option, its value and its orders, and whether the search finished
    (the combined search: a pure Nash equilibrium, or a cycle and its mixed equilibrium).
    """
    settings = _search_settings(args)
    if args.save or args.load:
        return _resumable_search(args, settings)
    if args.position is None:
        raise InvalidParameter("give a position, or --load FILE to go on with a saved search")
    position = _position(args)
    convention = check_convention(args.convention)
    started = time.perf_counter()
    # The bar counts evaluations against the budget; a search that finishes stops short of it.
    budget = settings["max_evaluations"]
    with Progress(budget, f"diplomacy {args.method} search", enabled=_bar()) as bar:
        result = solve(
            position,
            convention=convention,
            threads=args.threads,
            progress=bar.reach,
            **settings,
        )
    return _search_report(result, position, convention, settings, started)


def _search_settings(args: argparse.Namespace) -> dict[str, Any]:
    """How ``play`` searches, as its options say: the settings of :func:`solve` the report
    repeats."""
    return {
        "method": args.method,
        "seed": args.seed,
        "steps": _validate.integer("--steps", args.steps, 1),
        "max_evaluations": _validate.integer("--max-evaluations", args.max_evaluations, 1),
        "time_limit": args.time_limit,
        "order": _order(args.order),
    }


def _order(text: str | None) -> list[str] | None:
    """``--order AUS,ENG,...``: the sequential search's order of the powers."""
    return None if text is None else [p.strip().upper() for p in text.split(",") if p.strip()]


def _bar() -> bool | None:
    # Under mpiexec every rank runs the command; rank 0 alone draws the bar.
    return None if world().rank == 0 else False


def _resumable_search(args: argparse.Namespace, settings: dict[str, Any]) -> dict[str, Any]:
    """The combined search with ``--save`` / ``--load``: a new search spends at most
    ``--max-evaluations`` in all, a loaded one at most that many more; the state is saved
    when the search stops, Ctrl-C included."""
    if args.method != "combined":
        raise InvalidParameter(
            "--save and --load need --method combined (the search that can be resumed)"
        )
    if args.load:
        if args.position is not None:
            raise InvalidParameter("give a position or --load FILE, not both")
        check_readable(Path(args.load), "--load")
        run = CombinedSearch.load(args.load)
        more = settings["max_evaluations"]
    else:
        if args.position is None:
            raise InvalidParameter("give a position, or --load FILE to go on with a saved search")
        run = CombinedSearch(_position(args), convention=check_convention(args.convention))
        more = settings["max_evaluations"] - run.evaluations
    started = time.perf_counter()
    with (
        save_on_interrupt(
            args.save,
            run.save,
            reached=lambda: f"{run.evaluations:,} evaluation{'' if run.evaluations == 1 else 's'}",
            what="search",
            go_on="go on",
        ),
        Progress(more, "diplomacy combined search", enabled=_bar()) as bar,
    ):
        result = run.advance(
            more,
            time_limit=args.time_limit,
            progress=bar.reach,
        )
    if args.save and world().rank == 0:
        run.save(args.save)
    report = _search_report(result, run.position, run.convention, settings, started)
    report["saved"] = args.save
    report["loaded"] = args.load
    return report


def _search_report(
    result: SearchResult,
    position: Position,
    convention: Convention,
    settings: dict[str, Any],
    started: float,
) -> dict[str, Any]:
    seconds = time.perf_counter() - started
    numbers = adjustments.counts(position, convention)
    # The winter is one simultaneous move: the evaluator's values of the profile found decide
    # it, as through the protocol (the power with the strictly highest value wins).
    top = [i for i, v in enumerate(result.values.tolist()) if v == result.values.max()]
    return played_report(
        outcome="won" if len(top) == 1 else "drawn",
        winners=top,
        turns_played=1,
        seconds=seconds,
        position=str(position),
        convention=convention,
        **settings,
        search_finished=result.finished,
        evaluations=result.evaluations,
        powers=[
            {
                "power": power,
                "option": index,
                "options": numbers[power],
                "value": int(value),
                "orders": result.orders[power],
            }
            for power, index, value in zip(
                position.map.powers, result.profile, result.values.tolist(), strict=True
            )
        ],
        profile=list(result.profile),
        cycle=None if result.cycle is None else [list(p) for p in result.cycle],
        mixed=_mixed(result),
    )


def _mixed(result: SearchResult) -> dict[str, Any] | None:
    mixed = result.mixed
    if mixed is None:
        return None
    return {
        "powers": list(mixed.powers),
        "options": [list(o) for o in mixed.options],
        "probabilities": [list(p) for p in mixed.probabilities],
        "values": list(mixed.values),
        "method": mixed.method,
    }


def _outcome(report: dict[str, Any]) -> str:
    if not report["search_finished"]:
        return "stopped by its budget (--max-evaluations / --time-limit): the best profile so far"
    if report["method"] != "combined":
        return "finished"
    if report["cycle"] is None:
        return "finished: a pure Nash equilibrium (no power gains by changing alone)"
    return f"finished: it entered a cycle of {len(report['cycle'])} profiles"


def _print_search(report: dict[str, Any]) -> None:
    print(
        f"{report['method']} search, convention {report['convention']}, seed {report['seed']}: "
        f"{report['evaluations']:,} evaluation{'' if report['evaluations'] == 1 else 's'} in "
        f"{report['seconds']:.3f} s"
    )
    print(_outcome(report))
    if report.get("saved"):
        print(f"the search is saved in {report['saved']}: go on with --load {report['saved']}")
    print(f"  {'power':<5}  {'option':>15}  {'value':>6}  orders")
    for row in report["powers"]:
        option = f"{row['option']:,} of {row['options']:,}"
        orders = ", ".join(row["orders"]) or "-"
        print(f"  {row['power']:<5}  {option:>15}  {row['value']:>6}  {orders}")
    mixed = report["mixed"]
    if report["cycle"] is not None and mixed is None:
        print("  the cycle's profiles differ in more than two powers: no restricted game solved")
    if mixed is not None:
        print(f"mixed equilibrium of {' and '.join(mixed['powers'])} ({mixed['method']}):")
        for power, options, chances, value in zip(
            mixed["powers"], mixed["options"], mixed["probabilities"], mixed["values"], strict=True
        ):
            spread = ", ".join(f"{o}: {p:.3f}" for o, p in zip(options, chances, strict=True))
            print(f"  {power}: {spread} (expected value {value:.2f})")


# -- open problem --------------------------------------------------------------------------


def _open_problem(args: argparse.Namespace) -> dict[str, Any]:
    """the legal position with the most adjustment profiles

    Solve Loeb's open problem exactly under each counting convention: the largest total
    number of adjustment profiles of a legal position, each power's share and a position of
    the map reaching it.
    """
    from stratagem.diplomacy.open_problem import solve as solve_open_problem

    chosen = list(CONVENTIONS) if args.convention == "all" else [check_convention(args.convention)]
    game_map = _load_map(args.map)
    answers = []
    for convention in chosen:
        answer = solve_open_problem(convention, victory=args.victory, map=game_map)
        answers.append(
            {
                "convention": convention,
                "victory": answer.victory,
                "total": answer.total,
                "seconds": answer.seconds,
                "shares": [
                    {
                        "power": s.power,
                        "units": s.units,
                        "centres": s.centres,
                        "open_homes": list(s.open_homes),
                        "choices": s.choices,
                        "previous": s.previous,
                    }
                    for s in answer.shares
                ],
                "position": str(answer.position),
            }
        )
    return {"victory": bool(args.victory), "answers": answers}


def _print_open_problem(report: dict[str, Any]) -> None:
    rule = "with" if report["victory"] else "without"
    print(f"the legal position with the most adjustment profiles ({rule} the 18-centre victory)")
    for answer in report["answers"]:
        convention = answer["convention"]
        print()
        print(
            f"convention {convention} ({CONVENTION_WORDS[convention]}): {answer['total']:,} "
            f"({answer['total']:.3g}), solved in {answer['seconds'] * 1e3:.1f} ms"
        )
        print(f"{_HEADER}  {'choices':>7}  {'previous':>8}")
        for share in answer["shares"]:
            print(f"{_power_columns(share)}  {share['choices']:>7,}  {share['previous']:>8}")
        print(f"  position: {answer['position']}")


# -- show ----------------------------------------------------------------------------------


def _openings(args: argparse.Namespace) -> dict[str, Any]:
    """count the order sets of a movement phase (Loeb's Spring 1901 openings)

    Every unit's legal orders (hold, moves, supports to hold and to move), and the number of
    order sets of all units under each definition of "different" (docs/diplomacy.md, "How
    many openings"); the position defaults to the 1901 start.
    """
    position = read_position(args.position or "opening", _load_map(args.map))
    return reports.openings(position, args.definition)


def _compare(args: argparse.Namespace) -> dict[str, Any]:
    """the sequential preliminary search against the plain one on random positions

    Run the preliminary, sequential and combined searches on random positions and count how
    often and by how much the sequential result differs for the last power of --order.
    """
    return reports.comparison(
        _validate.integer("--positions", args.positions, 1),
        seed=args.seed,
        units=_validate.integer("--units", args.units, 0, 75),
        order=_order(args.order),
        convention=check_convention(args.convention),
    )


def _retreat(args: argparse.Namespace) -> dict[str, Any]:
    """retreat options, and disband-and-build against retreat-then-adjust

    Read a Fall position with dislodged units ('POSITION | dislodged: AUS A VIE < BOH |
    standoffs: GAL'), print every retreat option, and for --power the plain retreat-then-adjust
    plan beside the joint search that may disband a unit and build it again at home.
    """
    spec = args.position
    text = _read("position file", spec[1:]) if spec.startswith("@") else spec
    return reports.retreat(
        " ".join(text.split()),
        _load_map(args.map),
        str(args.power).upper(),
        convention=check_convention(args.convention),
        capture=not args.no_capture,
    )


def _show(args: argparse.Namespace) -> dict[str, Any]:
    """print a position by power, and draw it (PNG)

    Print each power's units, centres and open homes; --png draws the position on a
    schematic map.
    """
    from stratagem.diplomacy.plot import plot_position

    position = _position(args)
    files: dict[str, str] = {}
    if args.png is not None and world().rank == 0:
        plot_position(position, args.png)
        files["png"] = os.fspath(args.png)
    return {
        "position": str(position),
        "map": position.map.name,
        "powers": [
            {
                "power": power,
                "units": [str(u) for u in position.units_of(power)],
                "centres": list(position.centres_of(power)),
                "open_homes": list(position.open_homes(power)),
            }
            for power in position.map.powers
        ],
        "files": files,
    }


def _print_show(report: dict[str, Any]) -> None:
    units = sum(len(row["units"]) for row in report["powers"])
    centres = sum(len(row["centres"]) for row in report["powers"])
    print(f"{report['map']} map: {_plural(units, 'unit')}, {_plural(centres, 'centre')} owned")
    for row in report["powers"]:
        print(f"  {row['power']}: {', '.join(row['units']) or 'no units'}")
        print(f"       centres {_words(row['centres'])}; open homes {_words(row['open_homes'])}")
    print_files(report["files"])


# -- registration --------------------------------------------------------------------------


def _position_options(parser: argparse.ArgumentParser, *, optional: bool = False) -> None:
    parser.add_argument(
        "position",
        nargs="?" if optional else None,
        help="the position: its text ('AUS: A VIE, F TRI / VIE TRI; RUS: ...'), 'opening' "
        "(the 1901 start) or @FILE",
    )
    _map_option(parser)


def _map_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--map", metavar="FILE", help="a variant map file (default: the standard map)"
    )


def _convention_option(parser: argparse.ArgumentParser, *, every: bool = False) -> None:
    choices = [*CONVENTIONS, "all"] if every else list(CONVENTIONS)
    default = "all" if every else "exact"
    parser.add_argument(
        "--convention",
        choices=choices,
        default=default,
        help="exact (build the maximum), waives (any number of builds, none included), "
        f"article (at least one build){', or all three' if every else ''} (default {default})",
    )


def register(commands: Commands, common: Common) -> None:
    """Adds the commands ``diplomacy count | tables | solve | open-problem | openings |
    compare | retreat | show``."""
    sub = command_group(
        commands, "diplomacy", command_summary("diplomacy", games.spec("diplomacy").summary)
    )

    (count,) = add_command(sub, "count", common, _count_options, _print_count)
    _position_options(count)
    _convention_option(count)
    add_count(count, "--list", metavar="N", help="list the first N options of each power")

    add_command(sub, "tables", common, _tables, _print_tables)

    for solve_parser in add_command(
        sub, "play", common, _search, _print_search, old_names=("solve",), prefix="diplomacy "
    ):
        _position_options(solve_parser, optional=True)
        solve_parser.add_argument(
            "--method", choices=METHODS, default="combined", help="the search (default combined)"
        )
        solve_parser.add_argument(
            "--order",
            metavar="POWERS",
            help="sequential search: the powers in the order they decide, comma-separated, "
            "yours last (default: the map's order)",
        )
        _convention_option(solve_parser)
        add_count(solve_parser, "--steps", default=2000, help="annealing proposals (default 2000)")
        add_count(
            solve_parser,
            "--max-evaluations",
            default=1_000_000,
            metavar="N",
            help="evaluation budget (default 1000000)",
        )
        add_seconds(solve_parser, "--time-limit", help="time budget (default: none)")
        solve_parser.add_argument(
            "--save",
            metavar="FILE",
            help="combined search: write its state to FILE (JSON) when it stops, on Ctrl-C too",
        )
        solve_parser.add_argument(
            "--load",
            metavar="FILE",
            help="combined search: go on with the search saved in FILE (its position and "
            "convention), for at most --max-evaluations more evaluations",
        )

    (open_problem,) = add_command(sub, "open-problem", common, _open_problem, _print_open_problem)
    _convention_option(open_problem, every=True)
    open_problem.add_argument(
        "--victory",
        action="store_true",
        help="a power with 18 centres has won: at most 17 centres per power",
    )
    _map_option(open_problem)

    (openings_parser,) = add_command(sub, "openings", common, _openings, reports.print_openings)
    _position_options(openings_parser, optional=True)
    openings_parser.add_argument(
        "--definition",
        choices=["any", "moves", "matched", "matched-own", "successes", "all"],
        default="all",
        help="what makes two order sets different (default all: every definition)",
    )

    (compare_parser,) = add_command(sub, "compare", common, _compare, reports.print_compare)
    add_count(compare_parser, "--positions", default=1000, help="random positions (default 1000)")
    add_count(
        compare_parser, "--units", default=14, help="units per position, at most (default 14)"
    )
    compare_parser.add_argument(
        "--order", metavar="POWERS", help="the sequential order, yours last (default map order)"
    )
    _convention_option(compare_parser)

    (retreat,) = add_command(sub, "retreat", common, _retreat, reports.print_retreat)
    retreat.add_argument(
        "position", help="'POSITION | dislodged: AUS A VIE < BOH, ... | standoffs: GAL' or @FILE"
    )
    retreat.add_argument("--power", required=True, help="the power whose plans to compare")
    retreat.add_argument(
        "--no-capture",
        action="store_true",
        help="a retreat onto another power's or a neutral centre does not take it",
    )
    _convention_option(retreat)
    _map_option(retreat)

    (show,) = add_command(sub, "show", common, _show, _print_show)
    _position_options(show)
    add_png(show, help="draw the position (PNG)")
