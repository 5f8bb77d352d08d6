"""``stratagem conquest play | odds | tournament``: the conquest commands of the command line
(``run`` is the old name of ``play``).

:func:`register` adds them to the main parser (:mod:`stratagem.cli`); each command returns a
report dictionary, printed as text or, with ``--json``, as one JSON object.
"""

from __future__ import annotations

import argparse
import csv
import io
import math
from collections.abc import Callable, Iterable
from itertools import cycle, islice
from typing import Any, TypeVar

from stratagem import _validate, games
from stratagem._files import write_text
from stratagem.cli_common import (
    Commands,
    Common,
    DeprecatedOption,
    add_checkpoint,
    add_command,
    add_count,
    add_file,
    add_load,
    add_png,
    add_save,
    add_turns,
    check_readable,
    command_group,
    command_summary,
    played_report,
    print_files,
    refuse_new_game_options,
    timed,
)
from stratagem.cli_common import count_argument as _count
from stratagem.conquest import defaults
from stratagem.conquest.board import Board
from stratagem.conquest.boards.grid_rows import GridRows
from stratagem.conquest.distributed.game import ORDERS, DistributedGame
from stratagem.conquest.distributed.rank_boards import RankBoard
from stratagem.conquest.game import (
    MAX_TEAMS,
    POLICIES,
    TROOP_LIMIT,
    Game,
    check_policy_name,
    start,
)
from stratagem.conquest.odds import battle_odds, battle_odds_fractions, simulate_battle
from stratagem.conquest.policies import is_custom_spec, load_policy
from stratagem.errors import InvalidParameter, StratagemError
from stratagem.mpi import world

__all__ = ["register"]

T = TypeVar("T")

_DEFAULT_POLICIES = ",".join(defaults.PLAYERS)
# Options of a new game that a loaded game already fixes.
_NEW_GAME_OPTIONS = ("board", "teams", "policy", "assign", "troops", "rate", "cap")
_NEW_GAME_DEFAULTS: dict[str, Any] = {
    "board": defaults.BOARD,
    "assign": defaults.ASSIGN,
    "troops": defaults.TROOPS,
    "rate": 0.2,
    "cap": None,
}
# Exact fractions are shown for small battles while they stay short (their numerators and
# denominators grow quickly with the number of soldiers).
_FRACTION_SOLDIERS = 16
_FRACTION_CHARS = 32


def _names(text: str, custom_ok: bool = False) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    for name in names:
        if custom_ok and is_custom_spec(name):
            continue
        check_policy_name(name)
    if not names:
        raise InvalidParameter(f"no policy named in {text!r}; built-in policies are {POLICIES}")
    return names


def _team_policies(text: str, teams: int) -> list[str]:
    """One policy per team: fewer names than teams are repeated in turn."""
    names = _names(text, custom_ok=True)
    if len(names) > teams:
        raise InvalidParameter(f"--players names {len(names)} policies for {teams} teams")
    return list(islice(cycle(names), teams))


def _bar_here() -> bool | None:
    """Bars as the command's ``--progress`` setting says on rank 0; no other rank draws one."""
    return None if world().rank == 0 else False


def _board(spec: str) -> Board:
    """The board of ``--board``, with a bar as it is built (:func:`_bar_here`); an error names
    the spec when the message does not."""
    return _naming_spec(spec, lambda text: Board.from_spec(text, progress=_bar_here()))


def _naming_spec(spec: str, read: Callable[[str], T]) -> T:
    """``read(spec)``; an error names the spec when the message does not."""
    try:
        return read(spec)
    except StratagemError as error:
        if spec in str(error):
            raise
        raise type(error)(f"--board {spec!r}: {error}") from error


# -- run -----------------------------------------------------------------------------------


AnyGame = Game | DistributedGame


def _new_game(args: argparse.Namespace) -> AnyGame:
    options = {key: getattr(args, key) for key in _NEW_GAME_OPTIONS}
    options = {key: _NEW_GAME_DEFAULTS.get(key) if v is None else v for key, v in options.items()}
    named = _DEFAULT_POLICIES if options["policy"] is None else options["policy"]
    # k players named: k teams (two for one name: a game has two at least), unless --teams
    # asks for more (the names are then repeated in turn).
    players = len(_names(named, custom_ok=True))
    teams_asked = max(players, 2) if options["teams"] is None else options["teams"]
    teams = _validate.integer("--teams", teams_asked, 2, MAX_TEAMS)
    policies: list[Any]
    if options["policy"] is None:
        policies = list(islice(cycle(_DEFAULT_POLICIES.split(",")), teams))
    else:
        # MODULE:NAME and FILE.py:NAME are custom policies, loaded once each.
        loaded = {
            spec: load_policy(spec)
            for spec in _names(options["policy"], custom_ok=True)
            if is_custom_spec(spec)
        }
        policies = [loaded.get(name, name) for name in _team_policies(options["policy"], teams)]
    seed = 0 if args.seed is None else args.seed
    troop_count = _validate.integer("--troops", options["troops"], 0, TROOP_LIMIT)
    # No turn limit in the engine: --turns counts the turns of this invocation, so that a
    # saved game can always be continued with --load.
    settings: dict[str, Any] = {
        "seed": seed,
        "rate": options["rate"],
        "cap": options["cap"],
        "max_turns": None,
        "threads": args.threads,
    }
    spec = options["board"]
    if world().is_distributed and _naming_spec(spec, RankBoard.of_spec) is not None:
        # Each rank builds its own part of a grid, rgg or board file (or the whole board, for
        # an order that needs it).
        return DistributedGame.from_spec(
            spec,
            teams,
            troop_count,
            policies,
            assign=options["assign"],
            order=args.order,
            **settings,
        )
    if not world().is_distributed and _naming_spec(spec, GridRows.of_spec) is not None:
        # The engine builds a grid from its closed forms: no board in Python until one is
        # drawn or saved.
        return Game.from_spec(
            spec, teams, troop_count, policies, assign=options["assign"], **settings
        )
    board = _board(spec)
    team, troops = start(board, teams, troop_count, options["assign"], seed, progress=_bar_here())
    if world().is_distributed:
        return DistributedGame(board, team, troops, policies, order=args.order, **settings)
    return Game(board, team, troops, policies, **settings)


def _loaded_game(args: argparse.Namespace) -> AnyGame:
    refuse_new_game_options(args, _NEW_GAME_OPTIONS, "board, teams, policies and parameters")
    game: AnyGame
    if world().is_distributed:
        game = DistributedGame.load(args.load, threads=args.threads, order=args.order)
    else:
        game = Game.load(args.load, threads=args.threads)
    # `run` leaves --seed unset (None) by default, so any seed given must be the saved one.
    if args.seed is not None and args.seed != game.seed:
        raise InvalidParameter(
            f"{args.load} was saved with seed {game.seed}; --seed {args.seed} cannot change it"
        )
    return game


def _run(args: argparse.Namespace) -> dict[str, Any]:
    """play a game and report the standings

    Play a game (or continue a saved one) and report the standings.
    """
    turns = _validate.integer("--turns", args.turns, 0)
    check_readable(args.load, "--load")
    if args.checkpoint_every is not None and args.save is None:
        raise InvalidParameter("--checkpoint-every needs --save FILE (the checkpoint file)")
    game = _loaded_game(args) if args.load else _new_game(args)
    first_turn = game.turn
    result, seconds = timed(
        game.run, turns, checkpoint=args.save, checkpoint_every=args.checkpoint_every
    )
    played = game.turn - first_turn
    labels = [f"team {k} ({name})" for k, name in enumerate(game.policy_names)]
    files: dict[str, str] = {}
    if args.save:
        files["save"] = str(args.save)
    traffic = game.traffic_summary() if isinstance(game, DistributedGame) else None
    if args.history_png and world().rank == 0:
        from stratagem.conquest.plot import plot_history

        files["history_png"] = str(plot_history(game.history, args.history_png, labels))
    if args.png:
        from stratagem.conquest.plot import draw_board

        if isinstance(game, DistributedGame):
            team, troops = game.gather_state()
        else:
            team, troops = game.team, game.troops
        if world().rank == 0:
            title = f"Conquest on {game.board.kind}, turn {game.turn}"
            files["png"] = str(
                draw_board(game.board, team, troops, args.png, title=title, labels=labels)
            )
    shape = game.board_shape
    winners: list[int] = []
    if result.winner is not None:
        outcome, winners = "won", [result.winner]
    elif result.status == "draw":
        # No troops are left anywhere: the draw is shared by every team.
        outcome, winners = "drawn", list(range(len(game.policy_names)))
    else:
        # A game the asked turns did not decide is unfinished (the rules' word for a game
        # stopped at its turn limit); its saved copy can still be continued.
        outcome = "unfinished"
    return played_report(
        outcome=outcome,
        winners=winners,
        turns_played=played,
        seconds=seconds,
        board=shape.kind,
        loaded=None if args.load is None else str(args.load),
        territories=shape.n,
        borders=shape.n_borders,
        players=game.policy_names,
        seed=game.seed,
        rate=game.rate,
        threads=game.threads,
        ranks=world().size,
        order=game.order if isinstance(game, DistributedGame) else None,
        turn=result.turns,
        turns_per_second=played / seconds,
        final={
            "territories": [int(v) for v in result.territories],
            "troops": [int(v) for v in result.troops],
        },
        traffic=traffic,
        files=files,
    )


def _print_run(report: dict[str, Any]) -> None:
    policies = report["players"]
    print(
        f"conquest on {report['board']} ({report['territories']} territories, "
        f"{report['borders']} borders), {len(policies)} teams, seed {report['seed']}"
    )
    if report["loaded"]:
        print(f"continued from {report['loaded']}")
    where = f"{report['threads']} thread" + ("s" if report["threads"] != 1 else "")
    if report["ranks"] > 1:
        where = f"{report['ranks']} MPI ranks x {where} ({report['order']} order)"
    print(
        f"played {report['turns_played']} turns in {report['seconds']:.3f} s on "
        f"{where}: {report['turns_per_second']:,.1f} turns/s"
    )
    traffic = report["traffic"]
    if traffic is not None and report["ranks"] > 1:
        print(
            f"{traffic['cut_borders']:,} cut borders, {traffic['ghosts']:,} ghosts: "
            f"{traffic['bytes_per_turn']:,.0f} bytes sent per turn by all ranks"
        )
    if report["outcome"] == "won":
        winner = report["winners"][0]
        outcome = f"team {winner} ({policies[winner]}) won"
    elif report["outcome"] == "drawn":
        outcome = "drawn: no troops left"
    else:
        outcome = "unfinished"
    print(f"result after turn {report['turn']}: {outcome}")
    print(f"{'team':>4}  {'policy':<12} {'territories':>11} {'troops':>16}")
    final = report["final"]
    for k, name in enumerate(policies):
        print(f"{k:>4}  {name:<12} {final['territories'][k]:>11,} {final['troops'][k]:>16,}")
    print_files(report["files"])


def _play_options(run: argparse.ArgumentParser) -> None:
    run.add_argument("--board", help=f"board spec, e.g. grid:100x100 (default {defaults.BOARD})")
    add_count(run, "--teams", help="number of teams, 2 to 64 (default: one per name of --players)")
    run.add_argument(
        "--players",
        dest="policy",
        metavar="A,B,...",
        help=f"comma-separated policies, repeated in turn over the teams (default "
        f"{_DEFAULT_POLICIES}; choose from {', '.join(POLICIES)}, or a Python policy "
        "MODULE:NAME or FILE.py:NAME, also under mpiexec)",
    )
    run.add_argument("--policy", dest="policy", action=DeprecatedOption, new="--players")
    add_turns(
        run, default=defaults.TURNS, metavar=None, help=f"turns to play (default {defaults.TURNS})"
    )
    run.add_argument(
        "--assign",
        choices=("regions", "random"),
        help=(
            "start: one region per team, all of one size, or territories dealt at random "
            "(default regions)"
        ),
    )
    add_count(
        run, "--troops", help=f"troops per territory at the start (default {defaults.TROOPS})"
    )
    run.add_argument("--rate", type=float, help="recruitment rate per turn (default 0.2)")
    add_count(run, "--cap", help="troop cap per territory (default none)")
    add_file(
        run,
        "--history-png",
        help="plot each team's territories and troops by turn (PNG)",
        old=("--plot",),
    )
    add_png(run, help="draw the final board (PNG, small boards)", old=("--draw",))
    add_save(run, help="save the game at the end (npz)")
    add_count(
        run,
        "--checkpoint-every",
        metavar="K",
        help="also save to the --save file every K turns (resume with --load, any rank count)",
    )
    add_load(run)
    run.add_argument(
        "--order",
        choices=ORDERS,
        default="natural",
        help="under mpiexec: the territory order the ranks' blocks are cut from; rcm (reverse "
        "Cuthill-McKee) cuts fewer borders on boards whose ids are not geographic",
    )


# -- odds ----------------------------------------------------------------------------------


def _chi_square_p(observed: list[int], expected: list[float]) -> tuple[float, int]:
    """Pearson's chi-square goodness-of-fit statistic's p-value and degrees of freedom.

    Outcomes of probability 0 are left out (a count there makes the p-value 0); with three
    outcomes there are at most 2 degrees of freedom, whose survival functions have closed
    forms, so no scipy is needed.
    """
    total = sum(observed)
    statistic = 0.0
    cells = 0
    for seen, p in zip(observed, expected, strict=True):
        if p <= 0:
            if seen:
                return 0.0, 0
            continue
        cells += 1
        statistic += (seen - total * p) ** 2 / (total * p)
    freedom = cells - 1
    if freedom <= 0:
        return 1.0, 0
    if freedom == 1:
        return math.erfc(math.sqrt(statistic / 2)), 1
    return math.exp(-statistic / 2), 2


def _by_outcome(values: Iterable[Any]) -> dict[str, Any]:
    """The values of the three outcomes of a battle, by name."""
    return dict(zip(("attacker", "defender", "both"), values, strict=True))


def _odds(args: argparse.Namespace) -> dict[str, Any]:
    """exact odds of one border battle (and a Monte Carlo check)

    Exact odds of A soldiers against D on one border, by dynamic programming.
    """
    modes: dict[str, Any] = {
        "attacker_mode": args.attacker_mode,
        "defender_mode": args.defender_mode,
    }
    odds = battle_odds(args.a, args.d, **modes)
    exact = [odds.attacker, odds.defender, odds.both]
    report: dict[str, Any] = {
        "attackers": args.a,
        "defenders": args.d,
        **modes,
        "exact": _by_outcome(exact),
    }
    exact_fractions = (
        battle_odds_fractions(args.a, args.d, **modes)
        if args.a + args.d <= _FRACTION_SOLDIERS
        else None
    )
    if exact_fractions is not None:
        fractions = [str(f) for f in exact_fractions]
        if max(len(f) for f in fractions) <= _FRACTION_CHARS:
            report["fractions"] = _by_outcome(fractions)
    if args.simulate is not None:
        n = _validate.integer("--simulate", args.simulate, 1)
        counts = list(simulate_battle(args.a, args.d, n, args.seed, threads=args.threads, **modes))
        p_value, freedom = _chi_square_p(counts, exact)
        report["simulated"] = {
            "battles": n,
            "seed": args.seed,
            "counts": _by_outcome(counts),
            "frequencies": _by_outcome(c / n for c in counts),
            "chi_square_p_value": p_value,
            "degrees_of_freedom": freedom,
        }
    return report


def _print_odds(report: dict[str, Any]) -> None:
    print(
        f"{report['attackers']} soldiers ({report['attacker_mode']}) against "
        f"{report['defenders']} ({report['defender_mode']}) on one border"
    )
    simulated = report.get("simulated")
    fractions = report.get("fractions", {})
    header = f"{'outcome':<16} {'exact':>10}"
    if simulated:
        header += f" {'simulated':>10}"
    print(header)
    titles = {"attacker": "attacker wins", "defender": "defender wins", "both": "both wiped out"}
    for key, title in titles.items():
        line = f"{title:<16} {report['exact'][key]:>10.6f}"
        if simulated:
            line += f" {simulated['frequencies'][key]:>10.6f}"
        if key in fractions:
            line += f"  (= {fractions[key]})"
        print(line)
    if simulated:
        print(
            f"{simulated['battles']:,} simulated battles (seed {simulated['seed']}): "
            f"chi-square p-value {simulated['chi_square_p_value']:.3f} "
            f"({simulated['degrees_of_freedom']} degrees of freedom)"
        )


# -- tournament ----------------------------------------------------------------------------


def _tournament(args: argparse.Namespace) -> dict[str, Any]:
    """round robin of policies, two teams, seats swapped halfway

    Every pair of policies plays --games two-team games on the same board (half with each
    seat); win rates with 95% Wilson intervals.
    """
    from stratagem.conquest.tournament import round_robin

    board = _board(args.board)
    result, seconds = timed(
        round_robin,
        board,
        _names(args.policies),
        games=args.games,
        seed=args.seed,
        max_turns=args.turns,
        troops=args.troops,
        assign=args.assign,
        threads=args.threads,
        checkpoint=args.checkpoint,
    )
    rows = result.to_rows()
    files: dict[str, str] = {}
    if args.csv:
        table = io.StringIO(newline="")
        writer = csv.DictWriter(table, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
        write_text(args.csv, table.getvalue())
        files["csv"] = str(args.csv)
    if args.png:
        from stratagem.conquest.plot import plot_tournament

        files["png"] = str(plot_tournament(result, args.png))
    return {
        "board": board.kind,
        "territories": board.n,
        "policies": list(result.policies),
        "games_per_pair": result.games_per_pair,
        "max_turns": result.max_turns,
        "assign": result.assign,
        "seed": result.seed,
        "seconds": seconds,
        "rows": rows,
        "files": files,
    }


def _print_tournament(report: dict[str, Any]) -> None:
    print(
        f"round robin on {report['board']} ({report['territories']} territories, "
        f"{report['assign']} start): {report['games_per_pair']} games per pair, seats swapped "
        f"halfway, at most {report['max_turns']} turns, seed {report['seed']} "
        f"({report['seconds']:.1f} s)"
    )
    print(
        f"{'policy':<12} {'opponent':<12} {'games':>6} {'wins':>6} {'losses':>6} {'draws':>6} "
        f"{'unfin.':>6} {'turns':>6}  win rate [95% interval]"
    )
    previous = None
    for row in report["rows"]:
        if row["opponent"] == "all" and previous != "all":
            print()  # the overall scores follow the pairs
        previous = row["opponent"]
        interval = f"{row['win_rate']:.3f} [{row['interval_low']:.3f}, {row['interval_high']:.3f}]"
        print(
            f"{row['policy']:<12} {row['opponent']:<12} {row['games']:>6} {row['wins']:>6} "
            f"{row['losses']:>6} {row['draws']:>6} {row['unfinished']:>6} "
            f"{row['mean_turns']:>6.1f}  {interval}"
        )
    print_files(report["files"])


# -- registration --------------------------------------------------------------------------


def register(commands: Commands, common: Common) -> None:
    """Adds the commands ``conquest play | odds | tournament`` (``run``: the old name of
    ``play``)."""
    sub = command_group(
        commands, "conquest", command_summary("conquest", games.spec("conquest").summary)
    )

    for run in add_command(
        sub, "play", common, _run, _print_run, old_names=("run",), prefix="conquest "
    ):
        _play_options(run)
        run.set_defaults(seed=None)

    (odds,) = add_command(sub, "odds", common, _odds, _print_odds)
    odds.add_argument("a", type=_count, help="soldiers of the attacking side")
    odds.add_argument("d", type=_count, help="soldiers of the defending side")
    modes = ("attack", "defend")
    odds.add_argument(
        "--attacker-mode",
        choices=modes,
        default="attack",
        help="attack: 1 coin per soldier (default); defend: 2",
    )
    odds.add_argument(
        "--defender-mode",
        choices=modes,
        default="defend",
        help="defend: 2 coins per soldier (default); attack: 1",
    )
    add_count(
        odds,
        "--simulate",
        metavar="N",
        help="also play N battles with the engine and compare (chi-square test)",
    )

    (tournament,) = add_command(sub, "tournament", common, _tournament, _print_tournament)
    tournament.add_argument("--board", default="grid:30x30", help="board spec (default grid:30x30)")
    tournament.add_argument(
        "--players",
        dest="policies",
        default=",".join(defaults.TOURNAMENT_PLAYERS),
        metavar="A,B,...",
        help=f"comma-separated policies (default {','.join(defaults.TOURNAMENT_PLAYERS)}; "
        "add search or search:rollouts=R:depth=D)",
    )
    tournament.add_argument("--policies", dest="policies", action=DeprecatedOption, new="--players")
    add_count(tournament, "--games", default=200, help="games per pair (default 200)")
    add_turns(tournament, default=300, metavar=None, help="turn limit of each game (default 300)")
    add_count(
        tournament, "--troops", default=10, help="troops per territory at the start (default 10)"
    )
    tournament.add_argument(
        "--assign",
        choices=("random", "regions"),
        default="random",
        help="start of each pair: territories dealt at random (default) or two regions",
    )
    add_png(tournament, help="draw the win rates as a bar chart (PNG)", old=("--plot",))
    add_file(tournament, "--csv", help="write the table as CSV")
    add_checkpoint(tournament, what="each finished pair")
