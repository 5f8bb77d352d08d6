"""``stratagem outpost play | tournament | map``: the outpost commands of the command line.

:func:`register` adds them to the main parser (:mod:`stratagem.cli`); each command returns a
report dictionary, printed as text or, with ``--json``, as one JSON object. Maps are
:func:`~stratagem.outpost.parse_map` specs (a shipped map's name such as ``lakes``,
``random:SEED[:lakes=N][:rivers=N]``, or the path of a map file). A player is a built-in
name (``random``, ``spread``, ``frontier``, ``lookahead``) or a Python class, written
``MODULE:CLASS`` (an importable module) or ``path/to/file.py:CLASS``, instantiated with no
arguments (:func:`load_player`):

>>> parse_players("spread, frontier,random,lookahead")
['spread', 'frontier', 'random', 'lookahead']
>>> parse_params("7:12:3:4444,7:40:10:100")
[Params(r=7, L=12, W=3, T=4444), Params(r=7, L=40, W=10, T=100)]
>>> load_player("greedy")
Traceback (most recent call last):
    ...
stratagem.errors.InvalidParameter: player 'greedy': not a built-in player (random, spread, \
frontier, lookahead) nor MODULE:CLASS or path/to/file.py:CLASS
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stratagem import _validate, games
from stratagem._files import cannot_read, python_module, read_json
from stratagem.cli_common import (
    Commands,
    Common,
    add_checkpoint,
    add_command,
    add_count,
    add_file,
    add_load,
    add_png,
    add_save,
    add_seconds,
    add_turns,
    check_readable,
    command_group,
    command_summary,
    played_report,
    print_files,
    refuse_new_game_options,
    save_on_interrupt,
    timed,
    write_outputs,
)
from stratagem.errors import InvalidBoard, InvalidParameter
from stratagem.mpi import world
from stratagem.outpost.game import EMPIRES, Game
from stratagem.outpost.map import DEFAULT_MAP, Map
from stratagem.outpost.map_cli import map_option, map_summary, register_map_commands
from stratagem.outpost.players import BUILTIN_PLAYERS, Player
from stratagem.progress import Progress

if TYPE_CHECKING:
    from stratagem.outpost.plot import GifRecorder
    from stratagem.outpost.tournament.play import Params

__all__ = ["load_player", "map_summary", "parse_params", "parse_players", "register"]

_DEFAULT_PLAYERS = "spread,frontier,random,lookahead"
_DEFAULT_PARAMS = {"r": 7, "L": 12, "W": 3, "turns": 4444}
_FLAGS = ("supply_fringe", "sequential_moves", "extra_turn")
# Options of a new game that a loaded game already fixes.
_NEW_GAME_OPTIONS = ("map", "turns", "r", "L", "W", *_FLAGS, "lenient", "time_budget")
# Player problems shown in the text output (all are in the JSON).
_SHOWN_PROBLEMS = 5
_LOG_WORDS = {
    "build": "built",
    "disband": "disbanded",
    "illegal": "illegal moves",
    "cut": "cut off",
    "player": "player problems",
}
# Python modules loaded from player files, by resolved path.
_LOADED: dict[Path, Any] = {}


# -- shared helpers ------------------------------------------------------------------------


def _module_of_file(path: Path, spec: str) -> Any:
    resolved = path.resolve()
    if resolved in _LOADED:
        return _LOADED[resolved]
    if not resolved.is_file():
        raise InvalidParameter(f"player {spec!r}: no file {os.fspath(path)!r}")
    name = f"stratagem_outpost_player_{len(_LOADED)}_{resolved.stem}"
    module, loader = python_module(
        name, resolved, f"player {spec!r}: cannot load {os.fspath(path)!r} as Python"
    )
    sys.modules[name] = module
    try:
        loader.exec_module(module)
    except Exception as error:
        del sys.modules[name]
        raise InvalidParameter(
            f"player {spec!r}: running {os.fspath(path)!r} raised {type(error).__name__}: {error}"
        ) from error
    _LOADED[resolved] = module
    return module


def load_player(spec: str) -> str | Player:
    """A player from its command-line spec: a built-in name as it is, else a new instance of
    the class ``CLASS`` of ``MODULE:CLASS`` (imported) or ``path/to/file.py:CLASS`` (the file
    run as a module, once per file), made with no arguments."""
    text = spec.strip()
    if text in BUILTIN_PLAYERS:
        return text
    where, colon, class_name = text.rpartition(":")
    if not colon or not where or not class_name.isidentifier():
        raise InvalidParameter(
            f"player {spec!r}: not a built-in player ({', '.join(BUILTIN_PLAYERS)}) nor "
            "MODULE:CLASS or path/to/file.py:CLASS"
        )
    if where.endswith(".py") or "/" in where or os.sep in where:
        module = _module_of_file(Path(where), spec)
    else:
        try:
            module = importlib.import_module(where)
        except Exception as error:
            raise InvalidParameter(
                f"player {spec!r}: cannot import {where!r} ({type(error).__name__}: {error})"
            ) from error
    cls = getattr(module, class_name, None)
    if not isinstance(cls, type):
        raise InvalidParameter(f"player {spec!r}: {where} has no class {class_name}")
    try:
        player = cls()
    except Exception as error:
        raise InvalidParameter(
            f"player {spec!r}: {class_name}() raised {type(error).__name__}: {error}"
        ) from error
    if not (callable(getattr(player, "move", None)) and callable(getattr(player, "disband", None))):
        raise InvalidParameter(
            f"player {spec!r}: {class_name} needs the methods move(state) and disband(state)"
        )
    return player  # type: ignore[no-any-return]


def _specs(text: str, option: str = "--players") -> list[str]:
    specs = [part.strip() for part in text.split(",") if part.strip()]
    if not specs:
        raise InvalidParameter(f"{option} {text!r} names no player")
    return specs


def parse_players(text: str, *, count: int | None = EMPIRES) -> list[str | Player]:
    """The players of a comma-separated list of specs (:func:`load_player`); ``count`` of
    them (None: any number)."""
    specs = _specs(text)
    if count is not None and len(specs) != count:
        raise InvalidParameter(
            f"--players {text!r} names {len(specs)} players; a game seats {count}, one per "
            f"empire (empire 0 first)"
        )
    return [load_player(spec) for spec in specs]


def parse_params(text: str) -> list[Params]:
    """Parameter sets ``r:L:W:T`` separated by commas."""
    from stratagem.outpost.tournament.play import Params

    sets = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        values = part.split(":")
        try:
            numbers = [int(v) for v in values]
        except ValueError:
            numbers = []
        if len(numbers) != 4:
            raise InvalidParameter(
                f"--params {part!r}: expected r:L:W:T, four integers such as 7:12:3:4444"
            )
        sets.append(Params(*numbers))
    if not sets:
        raise InvalidParameter(f"--params {text!r} names no parameter set")
    return sets


def _finite(value: Any) -> Any:
    """``value`` with every NaN or infinite float replaced by None (JSON has neither)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    return value


def _pictures_possible() -> None:
    """Fails before a long run when the pictures asked for cannot be drawn."""
    from stratagem._plotting import matplotlib

    matplotlib()


def _rate(count: int, seconds: float) -> float | None:
    return count / seconds if seconds > 0 and count else None


# -- play ----------------------------------------------------------------------------------


def _new_game(args: argparse.Namespace) -> Game:
    board = map_option(args.map or DEFAULT_MAP, lenient=bool(args.lenient))
    players = parse_players(args.players or _DEFAULT_PLAYERS)
    params = {
        key: _DEFAULT_PARAMS[key] if getattr(args, key) is None else getattr(args, key)
        for key in _DEFAULT_PARAMS
    }
    return Game(
        board,
        r=params["r"],
        L=params["L"],
        W=params["W"],
        T=params["turns"],
        players=players,
        seed=0 if args.seed is None else args.seed,
        supply_fringe=bool(args.supply_fringe),
        sequential_moves=bool(args.sequential_moves),
        extra_turn=bool(args.extra_turn),
        time_budget=args.time_budget,
    )


def _loaded_game(args: argparse.Namespace) -> Game:
    refuse_new_game_options(args, _NEW_GAME_OPTIONS, "map, parameters, flags and time budget")
    path = Path(args.load)
    data = read_json(path, cannot_read(path, "a saved outpost game", InvalidBoard))
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        raise InvalidBoard(f"{path}: not a saved outpost game")
    saved: list[str | None] = data["players"]
    names = data.get("player_names") or ["?"] * len(saved)
    players: list[str | Player] | None = None
    if args.players is not None:
        players = parse_players(args.players)
        for empire, (was, now) in enumerate(zip(saved, players, strict=False)):
            if was is not None and now != was:
                raise InvalidParameter(
                    f"--players: seat {empire} of {path} is the built-in player {was!r}; a "
                    f"loaded game keeps its built-in players"
                )
            if was is None and isinstance(now, str):
                raise InvalidParameter(
                    f"--players: seat {empire} of {path} was the Python player "
                    f"{names[empire]}; give a Python player (MODULE:CLASS or file.py:CLASS)"
                )
    else:
        missing = [f"{e} ({names[e]})" for e, was in enumerate(saved) if was is None]
        if missing:
            held = "a Python player" if len(missing) == 1 else "Python players"
            example = ",".join(
                was or f"my_player.py:{name}" for was, name in zip(saved, names, strict=False)
            )
            raise InvalidParameter(
                f"{path}: seat{'s' if len(missing) > 1 else ''} {', '.join(missing)} held "
                f"{held}: give --players with a spec for every seat, e.g. --players {example}"
            )
    game = Game.from_dict(data, players=players, source=str(path))
    if args.seed is not None and args.seed != game.seed:
        raise InvalidParameter(
            f"{path} was saved with seed {game.seed}; --seed {args.seed} cannot change it"
        )
    return game


def _log_counts(game: Game) -> dict[str, int]:
    counts = Counter(entry.kind for entry in game.log)
    return {kind: counts.get(kind, 0) for kind in _LOG_WORDS}


def _play_recorded(
    game: Game, turns: int | None, frames: int, **checkpoints: Any
) -> tuple[float, GifRecorder]:
    """Plays ``turns`` turns (None: to the end) in ``frames - 1`` chunks, capturing a picture
    before and after each; the seconds spent playing (not drawing) and the pictures.
    ``checkpoints`` go to :meth:`Game.run`."""
    from stratagem.outpost.plot import GifRecorder

    remaining = game.last_turn - game.turn
    count = remaining if turns is None else min(turns, remaining)
    recorder = GifRecorder()
    recorder.capture(game)
    chunks = min(frames - 1, count)
    start = game.turn
    seconds = 0.0
    with Progress(count, f"outpost turns {start + 1}..{game.last_turn}") as bar:
        for chunk in range(1, chunks + 1):
            started = time.perf_counter()
            game.run(start + count * chunk // chunks - game.turn, progress=False, **checkpoints)
            seconds += time.perf_counter() - started
            bar.reach(game.turn - start)
            recorder.capture(game)
    return seconds, recorder


def _play(args: argparse.Namespace) -> dict[str, Any]:
    """play one game (or continue a saved one)

    Play one game of four players, empire 0 first, and print the scores, placings and outposts.
    A player is a built-in name or a Python class, MODULE:CLASS or path/to/file.py:CLASS
    (made with no arguments). Ctrl-C stops the game between turns; with --save it is saved
    first, to be continued with --load.
    """
    stop = (
        None if args.stop_after is None else _validate.integer("--stop-after", args.stop_after, 0)
    )
    frames = _validate.integer("--frames", args.frames, 2, 10_000)
    if args.checkpoint_every is not None and args.save is None:
        raise InvalidParameter("--checkpoint-every needs --save FILE (the checkpoint file)")
    # Under mpiexec every rank plays the same game; rank 0 alone writes the checkpoints.
    checkpoints = {}
    if args.checkpoint_every is not None and world().rank == 0:
        checkpoints = {"checkpoint": args.save, "checkpoint_every": args.checkpoint_every}
    check_readable(args.load, "--load")
    if args.gif or args.png or args.history_png:
        _pictures_possible()
    game = _loaded_game(args) if args.load else _new_game(args)
    first_turn = game.turn
    recorder = None
    with save_on_interrupt(
        args.save,
        game.save,
        reached=lambda: f"turn {game.turn}",
        what="game",
        go_on="continue it",
    ):
        if args.gif:
            seconds, recorder = _play_recorded(game, stop, frames, **checkpoints)
        else:
            _, seconds = timed(game.run, stop, **checkpoints)
    played = game.turn - first_turn
    files: dict[str, str] = {}
    # Under mpiexec every rank plays the same game; rank 0 alone writes the files.
    if world().rank == 0:
        if recorder is not None:
            files["gif"] = str(recorder.save(args.gif))
        if args.save:
            game.save(args.save)
            files["save"] = str(args.save)
        if args.png:
            from stratagem.outpost.plot import render_game

            files["png"] = str(render_game(game, args.png))
        if args.history_png:
            from stratagem.outpost.plot import render_history

            history = render_history(game.history, game.players, args.history_png)
            files["history_png"] = str(history)
    problems = [entry.message for entry in game.log if entry.kind == "player"]
    result = game.result.to_dict()
    finished, placings, leaders = result.pop("finished"), result.pop("placings"), result["winners"]
    outcome = ("won" if len(leaders) == 1 else "drawn") if finished else "unfinished"
    # `winners` of a game not yet over are the empires ahead: `leaders`.
    result["leaders"] = result.pop("winners")
    return played_report(
        outcome=outcome,
        winners=leaders if finished else [],
        turns_played=played,
        seconds=seconds,
        **result,
        placings=placings,
        map=game.map.name,
        params={"r": game.r, "L": game.L, "W": game.W, "T": game.T},
        flags=game.flags,
        seed=game.seed,
        time_budget=game.time_budget,
        last_turn=game.last_turn,
        loaded=None if args.load is None else str(args.load),
        first_turn=first_turn,
        turns_per_second=_rate(played, seconds),
        log=_log_counts(game),
        player_problems=problems,
        files=files,
    )


def _print_play(report: dict[str, Any]) -> None:
    params = report["params"]
    flags = [name.replace("_", " ") for name, on in report["flags"].items() if on]
    extras = f", {', '.join(flags)}" if flags else ""
    print(
        f"outpost on {report['map']} (r={params['r']} L={params['L']} W={params['W']} "
        f"T={params['T']}{extras}), seed {report['seed']}"
    )
    if report["loaded"]:
        print(f"continued from {report['loaded']} at turn {report['first_turn']}")
    rate = report["turns_per_second"]
    shown = "" if rate is None else f" ({rate:,.0f} turns/s)"
    print(f"played {report['turns_played']} turns in {report['seconds']:.2f} s{shown}")
    width = max(6, *(len(name) for name in report["players"]))
    print(
        f"  {'empire':<6}  {'player':<{width}}  {'score':>5}  {'land':>5}  {'water':>5}  "
        f"{'outposts':>8}  {'placing':>7}"
    )
    for empire, name in enumerate(report["players"]):
        print(
            f"  {empire:<6}  {name:<{width}}  {report['scores'][empire]:>5}  "
            f"{report['land'][empire]:>5}  {report['water'][empire]:>5}  "
            f"{report['outposts'][empire]:>8}  {report['placings'][empire]:>7}"
        )
    log = ", ".join(f"{count} {_LOG_WORDS[kind]}" for kind, count in report["log"].items())
    print(f"events: {log}")
    for message in report["player_problems"][:_SHOWN_PROBLEMS]:
        print(f"  {message}")
    if len(report["player_problems"]) > _SHOWN_PROBLEMS:
        print(f"  ... and {len(report['player_problems']) - _SHOWN_PROBLEMS} more (see --json)")
    winners = report["leaders"]
    top = report["scores"][winners[0]]
    named = " and ".join(f"empire {e} ({report['players'][e]})" for e in winners)
    if report["outcome"] != "unfinished":
        verb = "wins" if len(winners) == 1 else "share the win"
        print(f"result: {named} {verb} with {top} cells")
    else:
        print(
            f"not finished: turn {report['turn']} of {report['last_turn']}, {named} ahead with "
            f"{top} cells; save with --save and continue with --load"
        )
    for kind, path in report["files"].items():
        print(f"{kind.replace('_', '-')}: {path}")


# -- tournament ----------------------------------------------------------------------------


def _tournament(args: argparse.Namespace) -> dict[str, Any]:
    """every seating of the players on every map and parameter set

    Play every group of four players in every rotation of their seats, on every map and
    parameter set, --repeats times, over threads (or MPI ranks under mpiexec), and print
    each player's mean score, wins and mean placing.
    """
    from stratagem.outpost.tournament.play import TOURNAMENT_2014, tournament

    if args.preset is not None:
        given = [
            option
            for option, value in (
                ("--maps", args.maps),
                ("--params", args.params),
                ("--turns", args.turns),
            )
            if value is not None
        ]
        if given:
            raise InvalidParameter(
                f"--preset {args.preset} sets the maps and parameters; drop {', '.join(given)}"
            )
        maps: list[Map] = [map_option(name, option="--maps") for name in TOURNAMENT_2014["maps"]]
        param_sets = list(TOURNAMENT_2014["params"])
    else:
        maps = [
            map_option(spec, option="--maps") for spec in _specs(args.maps or DEFAULT_MAP, "--maps")
        ]
        if args.turns is not None and args.params is not None:
            raise InvalidParameter("--turns sets T of the default parameters; drop it or --params")
        turns = 4444 if args.turns is None else _validate.integer("--turns", args.turns, 0)
        param_sets = parse_params(args.params or f"7:12:3:{turns}")
    players = parse_players(args.players or ",".join(BUILTIN_PLAYERS), count=None)
    by = [] if not args.by else [key.strip() for key in args.by.split(",") if key.strip()]
    for key in by:
        if key not in ("map", "params"):
            raise InvalidParameter(f"--by {args.by!r}: group by map and/or params, not {key!r}")
    if args.png:
        _pictures_possible()
    # The settings the report repeats as given.
    settings: dict[str, Any] = {
        "rotations": args.rotations,
        "repeats": args.repeats,
        "seed": args.seed,
    }
    flags: dict[str, Any] = {flag: bool(getattr(args, flag)) for flag in _FLAGS}
    result, seconds = timed(
        tournament,
        maps=maps,
        params=param_sets,
        players=players,
        threads=args.threads,
        checkpoint=args.checkpoint,
        time_budget=args.time_budget,
        **settings,
        **flags,
    )
    table_text = result.format_table(by)
    files = write_outputs(("csv", args.csv, result.to_csv), ("png", args.png, result.plot))
    if args.checkpoint:
        files["checkpoint"] = str(args.checkpoint)
    report: dict[str, Any] = _finite(
        {
            **result.to_dict(),
            "table": [row.to_row() for row in result.table(by)],
            "by": by,
            "params": [list(p) for p in result.params],
            **settings,
            "flags": flags,
            "preset": args.preset,
            "ranks": world().size,
            "seconds": seconds,
            "table_text": table_text,
            "files": files,
        }
    )
    return report


def _print_tournament(report: dict[str, Any]) -> None:
    games = len(report["games"])
    flags = [name.replace("_", " ") for name, on in report["flags"].items() if on]
    extras = f", {', '.join(flags)}" if flags else ""
    where = f" on {report['ranks']} MPI ranks" if report["ranks"] > 1 else ""
    params = ", ".join(f"r={r} L={L} W={W} T={T}" for r, L, W, T in report["params"])
    print(
        f"outpost tournament: {games} games, {len(report['players'])} players on "
        f"{len(report['maps'])} map(s) ({', '.join(report['maps'])}) x {params}; "
        f"{report['rotations']} rotations, {report['repeats']} repeat(s), seed "
        f"{report['seed']}{extras} ({report['seconds']:.1f} s{where})"
    )
    print(report["table_text"])
    print_files(report["files"])


# -- map -----------------------------------------------------------------------------------


def _flag_options(parser: argparse.ArgumentParser, *, default: bool | None) -> None:
    parser.add_argument(
        "--supply-fringe",
        action="store_true",
        default=default,
        help="supply lines reach the land next to the home's component (the 2014 simulator)",
    )
    parser.add_argument(
        "--sequential-moves",
        action="store_true",
        default=default,
        help="empires move one after the other, seeing earlier moves (the 2014 simulator)",
    )
    parser.add_argument(
        "--extra-turn",
        action="store_true",
        default=default,
        help="play turn T + 1 too (the 2014 simulator)",
    )


def register(commands: Commands, common: Common) -> None:
    """Adds the commands ``outpost play | tournament`` and ``outpost map check | generate |
    show | list``."""
    sub = command_group(
        commands, "outpost", command_summary("outpost", games.spec("outpost").summary)
    )
    _register_play(sub, common)
    _register_tournament(sub, common)
    register_map_commands(sub, common)


def _register_play(sub: Any, common: Common) -> None:
    builtins = ", ".join(BUILTIN_PLAYERS)
    (play,) = add_command(sub, "play", common, _play, _print_play)
    play.add_argument(
        "--map",
        metavar="SPEC",
        help=f"a map: {', '.join(Map.names())} (default {DEFAULT_MAP}), "
        "random:SEED[:lakes=N][:rivers=N], or the path of a map file",
    )
    play.add_argument(
        "--lenient",
        action="store_true",
        default=None,
        help="accept a map file that breaks the corner or count rule (with a warning)",
    )
    play.add_argument(
        "--players",
        metavar="SPECS",
        help=f"four comma-separated players: {builtins}, MODULE:CLASS or file.py:CLASS "
        f"(default {_DEFAULT_PLAYERS})",
    )
    add_turns(play, default=None, metavar="T", help="T, the turns of the game (default 4444)")
    add_count(play, "--r", help="radius of an outpost's control (default 7)")
    add_count(play, "--L", help="land cells needed per extra outpost (default 12)")
    add_count(play, "--W", help="water cells needed per extra outpost (default 3)")
    _flag_options(play, default=None)
    add_seconds(
        play, "--time-budget", help="seconds a Python player may think per turn (default: no limit)"
    )
    add_count(
        play,
        "--stop-after",
        metavar="N",
        help="play at most this many turns now (default: to the end); --save, then --load",
    )
    add_png(play, help="draw who controls what at the end (PNG)")
    add_file(play, "--history-png", help="plot each empire's cells and outposts by turn (PNG)")
    add_file(play, "--gif", help="record the game as an animated GIF")
    add_count(play, "--frames", default=80, metavar="N", help="pictures in the GIF (default 80)")
    add_save(play, help="save the game (JSON), also on Ctrl-C")
    add_count(
        play,
        "--checkpoint-every",
        metavar="K",
        help="also save to the --save file every K turns (resume with --load)",
    )
    add_load(play)
    # A loaded game keeps its seed: an explicit --seed must be the saved one.
    play.set_defaults(seed=None)


def _register_tournament(sub: Any, common: Common) -> None:
    builtins = ", ".join(BUILTIN_PLAYERS)
    (tournament,) = add_command(sub, "tournament", common, _tournament, _print_tournament)
    tournament.add_argument(
        "--maps", metavar="SPECS", help=f"comma-separated map specs (default {DEFAULT_MAP})"
    )
    tournament.add_argument(
        "--params",
        metavar="R:L:W:T,...",
        help="comma-separated parameter sets r:L:W:T (default 7:12:3:4444)",
    )
    add_turns(
        tournament,
        default=None,
        metavar="T",
        help="T of every game, with the default r, L and W (7:12:3:T); not with --params",
    )
    tournament.add_argument(
        "--preset",
        choices=("2014",),
        help="the 2014 course's tournament: maps lakes, rivers, mixed and parameters "
        "7:12:3:4444, 7:40:10:4444",
    )
    tournament.add_argument(
        "--players",
        metavar="SPECS",
        help=f"at least four comma-separated players: {builtins}, MODULE:CLASS or "
        f"file.py:CLASS (default all the built-in players)",
    )
    tournament.add_argument(
        "--rotations",
        choices=("cyclic", "all"),
        default="cyclic",
        help="seatings of each group of four: cyclic (4, default) or all (24)",
    )
    add_count(tournament, "--repeats", default=1, metavar="N", help="games per seating (default 1)")
    tournament.add_argument("--by", help="group the table by map and/or params (comma-separated)")
    _flag_options(tournament, default=False)
    add_seconds(
        tournament,
        "--time-budget",
        help="seconds a Python player may think per turn (default: no limit)",
    )
    add_file(tournament, "--csv", help="write one row per game (CSV)")
    add_png(tournament, help="draw the mean scores as a bar chart (PNG)")
    add_checkpoint(tournament, what="the results so far")
