"""``stratagem annexation play | match | tournament | playouts | render``: the annexation
commands of the command line.

:func:`register` adds them to the main parser (:mod:`stratagem.cli`); each command returns a
report dictionary, printed as text or, with ``--json``, as one JSON object. Agents are written
as :meth:`AI.parse <stratagem.annexation.AI.parse>` specs (``greedy``,
``mcts:iterations=2000,c=0.7``); boards as :func:`~stratagem.annexation.parse_board` specs
(``hex:8``, ``hexrect:20x12``, ``grid:15x15``, ``voronoi:300`` or a saved ``.npz`` board).

The text picture of a position draws one letter per cell in rows (``A`` for player 0, ``B``
for player 1, ..., ``.`` for an unowned cell) on boards whose cells lie in rows (hexagons,
hex rectangles, grids); other boards get a summary of the cells owned:

>>> from stratagem.annexation import Board, Game
>>> game = Game(Board.hexagon(2, seed=3))
>>> game.play(game.legal_moves()[0])
>>> print("\\n".join(board_rows(game.board, game.owner)))
  A . .
 A . . .
. . . . .
 . . . .
  . . B
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from stratagem import _core, _validate, games, rng
from stratagem.annexation.board import Board, parse_board
from stratagem.annexation.game import MODES, POLICIES, Game, playouts
from stratagem.annexation.match import play_match, round_robin
from stratagem.annexation.players import AI
from stratagem.cli_common import (
    Commands,
    Common,
    DeprecatedOption,
    add_checkpoint,
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
    timed,
)
from stratagem.cli_common import count_argument as _count
from stratagem.errors import InvalidParameter, StratagemError
from stratagem.progress import Progress

__all__ = ["board_rows", "register"]

_DEFAULT_BOARD = "hex:8"
_LETTERS = "ABCD"
_UNOWNED = "."
_LINE_WIDTH = 96
_COLOUR_DIGITS = "0123456789abcdef"
# The text picture is drawn only while it stays readable on a terminal.
_MAX_ROWS = 60
_MAX_COLUMNS = 160
# Seeds of the agents of `play`: word 0 of (seed, purpose, player).
_PLAY_AI_PURPOSE = "annexation.cli.play.ai"
# Options of a new game that a loaded game already fixes.
_NEW_GAME_OPTIONS = ("board", "colours", "seats", "mode", "allow_opponent_colours", "turns")
_DEFAULT_PLAYERS = ("mcts", "greedy")


# -- shared helpers ------------------------------------------------------------------------


def _board(spec: str, *, colours: int = 8, players: int = 2, seed: int = 0) -> Board:
    """The board of ``--board``; an error names the spec when the message does not."""
    try:
        return parse_board(spec, colour_count=colours, players=players, seed=seed)
    except StratagemError as error:
        message = str(error)
        if spec in message:
            raise
        # The board checks the counts by their keyword names; the user typed the options.
        for keyword, option in (("colour_count", "--colours"), ("players", "--seats")):
            if message.startswith(keyword):
                raise type(error)(option + message.removeprefix(keyword)) from error
        raise type(error)(f"--board {spec!r}: {error}") from error


def _agent(option: str, spec: str, *, seed: int = 0, threads: int | None = None) -> AI:
    """The agent of an option; an error names the spec when the message does not."""
    try:
        return AI.parse(spec, seed=seed, threads=threads)
    except StratagemError as error:
        if spec in str(error):
            raise
        raise type(error)(f"{option} {spec!r}: {error}") from error


def _rules(args: argparse.Namespace) -> dict[str, Any]:
    if args.turns is not None:
        _validate.integer("--turns", args.turns, 1)
    return {
        "mode": args.mode or "flood",
        "allow_opponent_colours": bool(args.allow_opponent_colours),
        "max_moves": args.turns,
    }


def _match_settings(args: argparse.Namespace, board: Board) -> dict[str, Any]:
    """The games of a match or tournament, as ``--games``, ``--seed``, ``--threads`` and the
    rule options set them."""
    return {
        "board": board,
        "games": args.games,
        "seed": args.seed,
        "threads": args.threads,
        **_rules(args),
    }


def _symbols(values: ArrayLike, alphabet: str, blank: str) -> list[str]:
    return [blank if v < 0 else alphabet[v] for v in np.asarray(values).tolist()]


def board_rows(board: Board, owner: ArrayLike, *, colours: bool = False) -> list[str] | None:
    """The board as text, one line per row of cells, top row first: ``A``, ``B``, ... for
    the cells of players 0, 1, ... and ``.`` for unowned cells, ``owner`` giving the player
    of every cell (-1: unowned). With ``colours=True``, ``owner`` is read as a colour per
    cell instead, drawn as a hexadecimal digit. Hexagon rows are shifted by half a cell, as
    on the board. None for a board whose cells do not lie in rows (a Voronoi or custom
    board) or that is too big to read on a terminal."""
    centres = board.centres
    if centres is None:
        return None
    symbols = _symbols(owner, _COLOUR_DIGITS if colours else _LETTERS, _UNOWNED)
    heights = np.round(centres[:, 1], 6)
    levels = np.unique(heights)
    if levels.size * 2 > board.cells or levels.size > _MAX_ROWS:
        return None
    xs = centres[:, 0]
    order = np.lexsort((xs, heights))
    same_row = heights[order][1:] == heights[order][:-1]
    gaps = np.diff(xs[order])[same_row]
    gaps = gaps[gaps > 1e-9]
    width = float(gaps.min()) if gaps.size else 1.0
    # Columns in half cells: hexagon rows are offset by half a cell.
    columns = np.rint((xs - xs.min()) / width * 2.0).astype(np.int64)
    if int(columns.max()) + 1 > _MAX_COLUMNS:
        return None
    places = np.unique(np.stack((np.searchsorted(levels, heights), columns), axis=1), axis=0)
    if places.shape[0] != board.cells:
        return None  # two cells would be drawn in one place: not a lattice
    lines = []
    for level in levels[::-1]:
        line = [" "] * (int(columns.max()) + 1)
        for cell in np.flatnonzero(heights == level).tolist():
            line[columns[cell]] = symbols[cell]
        lines.append("".join(line).rstrip())
    return lines


def _summary(owner: ArrayLike, players: int) -> str:
    owners = np.asarray(owner)
    parts = [f"{_LETTERS[q]} {int(np.count_nonzero(owners == q)):,}" for q in range(players)]
    parts.append(f"unowned {int(np.count_nonzero(owners < 0)):,}")
    return "cells: " + ", ".join(parts)


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


# -- play ----------------------------------------------------------------------------------


def _players_argument(text: str) -> list[str]:
    """``--players``: agents separated by commas. An agent's own options also use commas
    (``mcts:iterations=50,c=0.7``), so a piece with ``=`` and no ``:`` continues the agent
    before it."""
    agents: list[str] = []
    for piece in names_argument(text):
        if agents and "=" in piece and ":" not in piece:
            agents[-1] += "," + piece
        else:
            agents.append(piece)
    return agents


def _new_game(args: argparse.Namespace) -> Game:
    board = _board(
        args.board or _DEFAULT_BOARD,
        colours=8 if args.colours is None else args.colours,
        players=len(_player_specs(args)) if args.seats is None else args.seats,
        seed=args.seed,
    )
    return Game(board, args.seed, **_rules(args))


def _player_specs(args: argparse.Namespace) -> list[str]:
    """The agents of ``--players`` (or of the deprecated ``--a``/``--b``)."""
    if args.players is not None and len(args.players) == 1 and args.players[0].isdigit():
        # The old meaning of --players: the number of seats.
        print("stratagem: note: --players N is deprecated; use --seats N", file=sys.stderr)
        args.seats, args.players = int(args.players[0]), None
    if args.players is not None:
        if args.a is not None or args.b is not None:
            raise InvalidParameter("give the agents with --players only (not with --a/--b)")
        return list(args.players)
    return [args.a or _DEFAULT_PLAYERS[0], args.b or _DEFAULT_PLAYERS[1]]


def _loaded_game(args: argparse.Namespace) -> Game:
    refuse_new_game_options(args, _NEW_GAME_OPTIONS, "board and rules")
    return Game.load(args.load)


def _replayed_moves(game: Game) -> list[dict[str, Any]]:
    """Every move of ``game`` from its start: the player, the colour, the cells it took and
    the scores after it."""
    replay = Game(game.board, game.seed, **game.rules.to_dict())
    moves = []
    for colour in game.history:
        player = replay.to_move
        before = int(replay.scores[player])
        replay.play(colour)
        scores = replay.scores.tolist()
        moves.append(
            {"player": player, "colour": colour, "gain": scores[player] - before, "scores": scores}
        )
    return moves


def _play(args: argparse.Namespace) -> dict[str, Any]:
    """play one game between agents

    Play one game (or continue a saved one) between agents and print the moves, the final
    position and the result. Seat 0 is A and moves first.
    """
    if args.stop_after is not None:
        _validate.integer("--stop-after", args.stop_after, 0)
    check_readable(args.load, "--load")
    specs = _player_specs(args)
    game = _loaded_game(args) if args.load else _new_game(args)
    players = game.board.players
    if len(specs) not in (2, players):
        raise InvalidParameter(
            f"--players names {len(specs)} agents for a game of {players} players; name "
            f"{players} (one per seat) or 2 (alternating A, B, A, ...)"
        )
    # Seat q plays the q-th agent (with two agents for more seats, A and B alternate), each
    # with a seed of its own.
    agents = [
        _agent(
            "--players",
            specs[q % len(specs)],
            seed=int(rng.blocks(args.seed, _PLAY_AI_PURPOSE, [q])[0, 0]),
            threads=args.threads,
        )
        for q in range(players)
    ]
    played = 0
    started = time.perf_counter()
    with Progress(game.board.cells, "playing") as bar:
        owned = int(game.scores.sum())
        bar.advance(owned)
        while not game.is_over and (args.stop_after is None or played < args.stop_after):
            game.play(agents[game.to_move].choose(game))
            played += 1
            now = int(game.scores.sum())
            bar.advance(now - owned)
            owned = now
    seconds = time.perf_counter() - started
    files: dict[str, str] = {}
    if args.save:
        game.save(args.save)
        files["save"] = str(args.save)
    if args.png:
        seats = ", ".join(f"{'ABCD'[q]} {agent.spec}" for q, agent in enumerate(agents))
        title = f"Annexation on {game.board.kind} after {game.moves} moves: {seats}"
        game.render(args.png, title=title)
        files["png"] = str(args.png)
    owner = game.owner
    scores = game.scores
    winners: list[int] = []
    if game.winner is not None:
        winners = [game.winner]
    elif game.outcome == "drawn":
        winners = np.flatnonzero(scores == scores.max()).tolist()
    return played_report(
        outcome="unfinished" if game.outcome == "ongoing" else game.outcome,
        winners=winners,
        turns_played=played,
        seconds=seconds,
        board=game.board.kind,
        cells=game.board.cells,
        colours=game.board.colour_count,
        seats=players,
        rules={**game.rules.to_dict(), "max_moves": game.move_limit},
        seed=args.seed,
        loaded=None if args.load is None else str(args.load),
        players=[agent.spec for agent in agents],
        moves=_replayed_moves(game),
        history=game.history,
        scores=scores.tolist(),
        owner=owner.tolist(),
        rows=board_rows(game.board, owner),
        files=files,
    )


def _move_tokens(moves: list[dict[str, Any]], players: int) -> list[str]:
    """The moves as ``round.A3+5`` tokens; a run of at least two rounds of moves that take
    no cell is shown as one token."""
    tokens: list[str] = []
    number = 0
    after_gap = False
    while number < len(moves):
        stop = number
        while stop < len(moves) and moves[stop]["gain"] == 0:
            stop += 1
        if stop - number >= 2 * players:
            tokens.append(f"[moves {number + 1}-{stop}: no cell taken]")
            number = stop
            after_gap = True
            continue
        move = moves[number]
        token = f"{_LETTERS[move['player']]}{move['colour']}+{move['gain']}"
        if number % players == 0 or after_gap:
            token = f"{number // players + 1}.{token}"
        tokens.append(token)
        number += 1
        after_gap = False
    return tokens


def _print_play(report: dict[str, Any]) -> None:
    _print_play_header(report)
    _print_moves(report)
    rows = report["rows"]
    if rows is not None:
        print("\n".join(rows))
    else:
        print(_summary(report["owner"], report["seats"]))
    _print_result(report)
    print_files(report["files"])


def _print_play_header(report: dict[str, Any]) -> None:
    rules = report["rules"]
    extras = [rules["mode"]]
    if rules["allow_opponent_colours"]:
        extras.append("opponent colours allowed")
    extras.append(f"at most {rules['max_moves']:,} moves")
    print(
        f"annexation on {report['board']} ({report['cells']:,} cells, {report['colours']} "
        f"colours, {', '.join(extras)}), seed {report['seed']}"
    )
    if report["loaded"]:
        print(f"continued from {report['loaded']}")
    for q, spec in enumerate(report["players"]):
        print(f"  player {q} ({_LETTERS[q]}): {spec}")


def _print_moves(report: dict[str, Any]) -> None:
    print("moves (round. player colour +cells taken):")
    line = ""
    for token in _move_tokens(report["moves"], report["seats"]):
        if line and len(line) + 1 + len(token) > _LINE_WIDTH:
            print("  " + line)
            line = ""
        line = f"{line} {token}" if line else token
    if line:
        print("  " + line)
    rate = report["turns_played"] / report["seconds"] if report["seconds"] > 0 else math.inf
    print(
        f"played {report['turns_played']} moves in {report['seconds']:.3f} s ({rate:,.1f} moves/s)"
    )


def _print_result(report: dict[str, Any]) -> None:
    scores = " : ".join(str(s) for s in report["scores"])
    if report["outcome"] == "won":
        q = report["winners"][0]
        print(
            f"result: player {q} ({_LETTERS[q]}, {report['players'][q]}) won, cells {scores}, "
            f"after {len(report['moves'])} moves"
        )
    elif report["outcome"] == "drawn":
        print(f"result: drawn, cells {scores}, after {len(report['moves'])} moves")
    else:
        print(
            f"result: not over after {len(report['moves'])} moves (cells {scores}); "
            f"save with --save and continue with --load"
        )


# -- match ---------------------------------------------------------------------------------


def _match(args: argparse.Namespace) -> dict[str, Any]:
    """a match of many games between two agents

    Play --games games of A against B on recolourings of the board, first move alternating;
    A's score with its 95% Wilson interval and the Elo difference.
    """
    first = _agent("A", args.agent_a)
    second = _agent("B", args.agent_b)
    board = _board(args.board, colours=args.colours, seed=args.seed)
    result, seconds = timed(play_match, first, second, **_match_settings(args, board))
    return {**result.to_dict(), "board": board.kind, "seed": args.seed, "seconds": seconds}


def _elo(value: float | None, infinite: str = "+inf") -> str:
    """An Elo difference; None stands for an infinite one (a score of 0 or 1)."""
    return infinite if value is None else f"{value:+.0f}"


def _print_match(report: dict[str, Any]) -> None:
    print(
        f"{report['a']} (A) against {report['b']} (B): {report['games']} games on "
        f"{report['board']}, first move alternating, seed {report['seed']} "
        f"({report['seconds']:.1f} s)"
    )
    print(
        f"A wins {report['wins_a']}, B wins {report['wins_b']}, draws {report['draws']}; "
        f"{report['mean_moves']:.1f} moves and cells {report['mean_cells_a']:.1f} : "
        f"{report['mean_cells_b']:.1f} on average"
    )
    low, high = report["interval"]
    print(f"score of A: {report['score']:.3f} (95% interval {low:.3f} to {high:.3f})")
    elo_low, elo_high = report["elo_interval"]
    infinite = "-inf" if report["score"] == 0 else "+inf"
    print(
        f"Elo difference A - B: {_elo(report['elo'], infinite)} "
        f"(95% interval {_elo(elo_low, '-inf')} to {_elo(elo_high)})"
    )


# -- tournament ----------------------------------------------------------------------------


def _tournament(args: argparse.Namespace) -> dict[str, Any]:
    """round robin of agents

    A match of --games games for every pair of agents; each agent's score against each
    other one and overall.
    """
    agents = [_agent("AI", spec) for spec in args.agents]
    board = _board(args.board, colours=args.colours, seed=args.seed)
    result, seconds = timed(
        round_robin, agents, checkpoint=args.checkpoint, **_match_settings(args, board)
    )
    table = [[_finite(float(x)) for x in row] for row in result.table()]
    return {
        **result.to_dict(),
        "board": board.kind,
        "cells": board.cells,
        "games": args.games,
        "seed": args.seed,
        "seconds": seconds,
        "table": table,
        "checkpoint": None if args.checkpoint is None else str(args.checkpoint),
    }


def _print_tournament(report: dict[str, Any]) -> None:
    agents = report["agents"]
    print(
        f"round robin on {report['board']} ({report['cells']:,} cells): {len(agents)} agents, "
        f"{report['games']} games per pair (first move alternating), seed {report['seed']} "
        f"({report['seconds']:.1f} s)"
    )
    for match in report["matches"]:
        low, high = match["interval"]
        print(
            f"  {match['a']} vs {match['b']}: {match['wins_a']}-{match['draws']}-"
            f"{match['wins_b']}, score {match['score']:.3f} [{low:.3f}, {high:.3f}], "
            f"Elo {_elo(match['elo'], '-inf' if match['score'] == 0 else '+inf')}"
        )
    width = max(len(name) for name in agents)
    print("score of the row against the column (a draw counts half):")
    header = f"{'':>3} {'agent':<{width}} " + " ".join(f"{j + 1:>6}" for j in range(len(agents)))
    print(header + f" {'overall':>8}")
    for i, name in enumerate(agents):
        cells = " ".join(
            f"{'-':>6}" if value is None else f"{value:>6.3f}" for value in report["table"][i]
        )
        print(f"{i + 1:>3} {name:<{width}} {cells} {report['overall'][i]:>8.3f}")
    if report["checkpoint"]:
        print(f"checkpoint: {report['checkpoint']}")


# -- playouts ------------------------------------------------------------------------------


def _playouts(args: argparse.Namespace) -> dict[str, Any]:
    """random playouts from the first position, timed

    Run --n playouts from the first position of the board on all threads (the tallies do
    not depend on the thread count) and time them.
    """
    count = _validate.integer("--n", args.n, 1)
    board = _board(args.board, colours=args.colours, players=args.seats, seed=args.seed)
    game = Game(board, args.seed, **_rules(args))
    threads = _core.resolve_threads(args.threads)
    result, seconds = timed(
        playouts, game, count, policy=args.policy, steps=args.steps, threads=threads
    )
    return {
        "board": board.kind,
        "cells": board.cells,
        "seats": board.players,
        "rules": {**game.rules.to_dict(), "max_moves": game.move_limit},
        "policy": args.policy,
        "steps": args.steps,
        "seed": args.seed,
        "threads": threads,
        "n": count,
        "wins": result.wins.tolist(),
        "draws": result.draws,
        "win_rates": [float(w) / count for w in result.wins.tolist()],
        "margin_sum": result.margin_sum,
        "mean_margin": result.mean_margin,
        "player": result.player,
        "seconds": seconds,
        "playouts_per_second": count / seconds if seconds > 0 else None,
    }


def _print_playouts(report: dict[str, Any]) -> None:
    steps = "" if report["steps"] is None else f", {report['steps']} steps"
    print(
        f"{report['n']:,} {report['policy']} playouts{steps} from the start of "
        f"{report['board']} ({report['cells']:,} cells), seed {report['seed']}"
    )
    for q, wins in enumerate(report["wins"]):
        print(f"  player {q} ({_LETTERS[q]}) wins {wins:,} ({report['win_rates'][q]:.4f})")
    print(f"  draws {report['draws']:,}")
    print(f"mean margin of player {report['player']} (to move): {report['mean_margin']:+.3f} cells")
    rate = report["playouts_per_second"]
    shown = "-" if rate is None else f"{rate:,.0f}"
    threads = f"{report['threads']} thread{'' if report['threads'] == 1 else 's'}"
    print(f"{report['seconds']:.3f} s on {threads}: {shown} playouts/s")


# -- render --------------------------------------------------------------------------------


def _render(args: argparse.Namespace) -> dict[str, Any]:
    """draw a board (PNG)

    Draw a board, its colours and start cells, as a PNG picture.
    """
    from stratagem.annexation import plot

    # Two stages, each seconds long on a large Voronoi board: building it, then drawing it.
    with Progress(2, "annexation render (build, draw)") as bar:
        board = _board(args.board, colours=args.colours, players=args.seats, seed=args.seed)
        bar.advance()
        plot.render(board, path=args.png, title=args.title)
        bar.advance()
    return {
        "board": board.kind,
        "cells": board.cells,
        "edges": int(board.neighbours.shape[0] // 2),
        "colours": board.colour_count,
        "seats": board.players,
        "regions": board.region_count,
        "starts": board.starts.tolist(),
        "seed": args.seed,
        "rows": board_rows(board, board.colours, colours=True),
        "files": {"png": str(args.png)},
    }


def _print_render(report: dict[str, Any]) -> None:
    print(
        f"board {report['board']}: {report['cells']:,} cells, {report['edges']:,} edges, "
        f"{report['colours']} colours in {report['regions']:,} regions, start cells "
        f"{report['starts']}, seed {report['seed']}"
    )
    if report["rows"] is not None:
        print("colours:")
        print("\n".join(report["rows"]))
    print_files(report["files"])


# -- registration --------------------------------------------------------------------------


def _board_options(
    parser: argparse.ArgumentParser, *, players: bool, default: str | None = _DEFAULT_BOARD
) -> None:
    parser.add_argument(
        "--board",
        default=default,
        help=f"board spec: hex:R, hexrect:RxC, grid:RxC, voronoi:N or a saved .npz board "
        f"(default {_DEFAULT_BOARD})",
    )
    parser.add_argument(
        "--colours",
        type=_count,
        default=None if default is None else 8,
        help="colours of a generated board, 3 to 16 (default 8)",
    )
    if players:
        parser.add_argument(
            "--seats",
            type=_count,
            default=None if default is None else 2,
            help="players of the game, 2 to 4 (default 2; in play, one per --players agent)",
        )
        if default is not None:  # play's --players names the agents
            parser.add_argument(
                "--players", dest="seats", action=DeprecatedOption, new="--seats", convert=_count
            )


def _rule_options(parser: argparse.ArgumentParser, *, defaults: bool = True) -> None:
    parser.add_argument(
        "--mode",
        choices=MODES,
        default="flood" if defaults else None,
        help="flood: annex the connected cells of the colour (Filler, default); adjacent: "
        "only the cells next to the territory",
    )
    parser.add_argument(
        "--allow-opponent-colours",
        action="store_true",
        default=False if defaults else None,
        help="let a player take an opponent's current colour",
    )
    add_turns(
        parser,
        default=None,
        help="the game's length: at most N moves in all (default 4 moves per cell)",
        old=("--max-moves",),
    )


def register(commands: Commands, common: Common) -> None:
    """Adds the commands ``annexation play | match | tournament | playouts | render``."""
    sub = command_group(
        commands, "annexation", command_summary("annexation", games.spec("annexation").summary)
    )

    (play,) = add_command(sub, "play", common, _play, _print_play)
    _board_options(play, players=True, default=None)
    play.add_argument(
        "--players",
        type=_players_argument,
        default=None,
        metavar="A,B,...",
        help="the agent of each seat, e.g. mcts:iterations=2000,greedy (default mcts,greedy); "
        "2 agents for 3 or 4 seats alternate",
    )
    for old in ("--a", "--b"):
        play.add_argument(old, dest=old[2:], default=None, action=DeprecatedOption, new="--players")
    _rule_options(play, defaults=False)
    add_count(
        play,
        "--stop-after",
        metavar="N",
        help="play at most N moves now (default: to the end); --save, then continue with --load",
    )
    play.add_argument(
        "--moves",
        dest="stop_after",
        action=DeprecatedOption,
        new="--stop-after",
        convert=_count,
    )
    add_png(play, help="draw the final position (PNG)")
    add_save(play, help="save the game at the end (JSON)")
    add_load(play)

    (match,) = add_command(sub, "match", common, _match, _print_match)
    match.add_argument("agent_a", metavar="A", help="first agent, e.g. mcts:iterations=2000")
    match.add_argument("agent_b", metavar="B", help="second agent, e.g. greedy")
    add_count(match, "--games", default=200, help="games (default 200)")
    _board_options(match, players=False)
    _rule_options(match)

    (tournament,) = add_command(sub, "tournament", common, _tournament, _print_tournament)
    tournament.add_argument("agents", metavar="AI", nargs="+", help="agents (at least two)")
    add_count(tournament, "--games", default=100, help="games per pair (default 100)")
    _board_options(tournament, players=False)
    _rule_options(tournament)
    add_checkpoint(tournament, what="each finished match")

    (playout,) = add_command(sub, "playouts", common, _playouts, _print_playouts)
    _board_options(playout, players=True)
    add_count(playout, "--n", default=100_000, help="playouts (default 100000)")
    playout.add_argument(
        "--policy",
        choices=POLICIES,
        default="random",
        help="random: a random legal colour each move, to the end (default); light: a random "
        "colour, legal or not, for --steps steps (the seed's GPU shortcut)",
    )
    add_count(playout, "--steps", help="steps of a light playout (default: up to the move limit)")
    _rule_options(playout)

    (render,) = add_command(sub, "render", common, _render, _print_render)
    _board_options(render, players=True)
    render.add_argument(
        "--png", type=Path, required=True, metavar="FILE", help="the PNG file to write"
    )
    render.add_argument("--title", help="the picture's title")
