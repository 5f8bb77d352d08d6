"""annexation MCTS against OpenSpiel's: ``python benches/openspiel_comparison.py [--quick]
[--games G] [--seconds S] [--seed N] [--json]``.

Both sides play the same game: OpenSpiel's Python ``MCTSBot`` runs on
:mod:`stratagem.envs.openspiel` (the game registered as ``"stratagem_annexation"``, every
move a call into the Rust engine), ours is ``AI("mcts")`` in the Rust engine. The board is
hex:8 (``Board.hexagon(8, seed=1)``, 217 cells, 8 colours, two players).

- :func:`cases`: simulations per second from the first position, one search per call,
  single-threaded on both sides. ``rust`` is ours (``AI("mcts", iterations=N)``, units its
  ``last_iterations``), ``oracle`` OpenSpiel's ``MCTSBot`` with a ``RandomRolloutEvaluator``
  of one rollout (units its ``max_simulations``). A simulation is one
  selection-expansion-playout-backup pass on both sides.
- :func:`win_rate_at_equal_time`: ours with ``time=seconds_per_move`` against ``MCTSBot``
  with ``max_simulations`` calibrated so that its mean time per move is the same.

OpenSpiel's bot is plain UCT (``uct_c = 2`` on returns in [-1, 1], ``solve=False``, random
rollouts); ours plays at its defaults, which do more per simulation (a value with the final
margin, greedy-biased playouts, progressive bias from the gain, decisive moves: see
docs/annexation.md, "How MCTS plays to win"). One tree, one thread on both sides. Ours keeps
its tree between moves of a game (its default); ``MCTSBot`` searches afresh.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from harness import Case, measure
from stratagem.annexation import AI, Board, Game

RADIUS = 8
BOARD_SEED = 1
UCT_C = 2.0  # OpenSpiel's exploration on returns in [-1, 1]: our c = 1 on [0, 1]
_SOLVE = False
_CALIBRATION_BOARD = 1 << 30  # board seeds from here on calibrate; the match's lie below


@dataclass(frozen=True)
class _Sizes:
    ours: int  # our iterations per timed call
    theirs: int  # OpenSpiel simulations per timed call


def _sizes(quick: bool) -> _Sizes:
    return _Sizes(300, 20) if quick else _Sizes(5000, 200)


@cache
def _spiel_game(board_seed: int) -> Any:
    from stratagem.envs.openspiel import load_game

    return load_game("annexation", seed=board_seed, board=f"hex:{RADIUS}")


def _bot(game: Any, simulations: int, seed: int) -> Any:
    from open_spiel.python.algorithms import mcts

    return mcts.MCTSBot(
        game,
        UCT_C,
        simulations,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
        solve=_SOLVE,
        random_state=np.random.RandomState(seed + 1),
    )


@cache
def _first_position() -> Game:
    return Game(Board.hexagon(RADIUS, seed=BOARD_SEED))


def _ours_once(iterations: int, seed: int) -> int:
    game = _first_position().copy()
    agent = AI("mcts", iterations=iterations, seed=seed, threads=1)
    agent.choose(game)
    return agent.last_iterations


def _theirs_once(simulations: int, seed: int) -> int:
    game = _spiel_game(BOARD_SEED)
    _bot(game, simulations, seed).step(game.new_initial_state())
    return simulations


def cases(quick: bool) -> list[Case]:
    sizes = _sizes(quick)
    _first_position(), _spiel_game(BOARD_SEED)  # built before any timing
    calls = iter(range(1 << 30))
    return [
        Case(
            "mcts simulations: stratagem vs OpenSpiel MCTSBot",
            f"simulations, hex:{RADIUS} first position, 1 rollout/leaf",
            lambda: _ours_once(sizes.ours, next(calls)),
            lambda: _theirs_once(sizes.theirs, next(calls)),
            1,
        )
    ]


def _stuck(game: Game) -> bool:
    """Whether a player can no longer grow: with no unowned neighbour (``reach`` 0) its
    territory is final, and the rest of the game is the other player's alone. MCTS sure of
    the result stops hurrying there (every move wins, or every move loses, in its playouts)
    and a game would run on to the limit of four moves per cell, so :func:`_play` finishes
    it with both sides greedy: the free player takes what it can reach, as fast as it can."""
    return not game.is_over and any(game.reach(q) == 0 for q in range(game.board.players))


@dataclass
class _Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    finished_greedy: int = 0
    ours_moves: int = 0
    ours_iterations: int = 0
    ours_seconds: float = 0.0
    theirs_moves: int = 0
    theirs_seconds: float = 0.0

    @property
    def theirs_per_move(self) -> float:
        return self.theirs_seconds / max(self.theirs_moves, 1)


def _play(tally: _Tally, board_seed: int, ours_side: int, ai: AI, bot: Any) -> None:
    """One game of ``ai`` (player ``ours_side``) against ``bot``, counted in ``tally``."""
    state = _spiel_game(board_seed).new_initial_state()
    while not state.is_terminal():
        started = time.perf_counter()
        if state.current_player() == ours_side:
            action = ai.choose(state.game.native)
            tally.ours_seconds += time.perf_counter() - started
            tally.ours_iterations += ai.last_iterations
            tally.ours_moves += 1
        else:
            action = bot.step(state)
            tally.theirs_seconds += time.perf_counter() - started
            tally.theirs_moves += 1
        state.apply_action(action)
        if _stuck(state.game.native):
            tally.finished_greedy += 1
            greedy = AI("greedy")
            while not state.is_terminal():
                state.apply_action(greedy.choose(state.game.native))
    winner = state.game.native.winner
    if winner is None:
        tally.draws += 1
    elif winner == ours_side:
        tally.wins += 1
    else:
        tally.losses += 1


def calibrate(seconds_per_move: float, seed: int, rounds: int = 2) -> int:
    """The ``max_simulations`` at which OpenSpiel's ``MCTSBot`` spends ``seconds_per_move``
    on a move on average: a first guess from the first position, then ``rounds`` rescalings,
    each from its mean time per move over a whole game against our MCTS (on boards the
    match does not use)."""
    probe = 20
    started = time.perf_counter()
    _theirs_once(probe, seed)
    per_simulation = (time.perf_counter() - started) / probe
    simulations = max(1, round(seconds_per_move / per_simulation))
    for round_index in range(rounds):
        tally = _Tally()
        ai = AI("mcts", time=seconds_per_move, seed=seed + round_index, threads=1)
        bot = _bot(_spiel_game(_CALIBRATION_BOARD + round_index), simulations, seed + round_index)
        _play(tally, _CALIBRATION_BOARD + round_index, round_index % 2, ai, bot)
        simulations = max(1, round(simulations * seconds_per_move / tally.theirs_per_move))
    return simulations


def _board_seed(seed: int, pair: int) -> int:
    return (seed * 1_000 + pair + 1) % _CALIBRATION_BOARD


def win_rate_at_equal_time(games: int, seconds_per_move: float, seed: int) -> dict[str, Any]:
    """Our MCTS (``time=seconds_per_move``) against OpenSpiel's ``MCTSBot`` calibrated to the
    same mean time per move (:func:`calibrate`), over ``games`` games: games ``2j`` and
    ``2j + 1`` on hex:8 recoloured with one seed, ours moving first in ``2j``. Once a player
    can no longer grow, both sides finish the game greedily (see :func:`_stuck`). Returns
    our wins, draws and losses, the calibrated simulation count, and both sides' measured
    effort per move."""
    simulations = calibrate(seconds_per_move, seed)
    tally = _Tally()
    for index in range(games):
        board_seed = _board_seed(seed, index // 2)
        ai = AI("mcts", time=seconds_per_move, seed=seed * 1_000 + index, threads=1)
        bot = _bot(_spiel_game(board_seed), simulations, seed * 1_000 + index)
        _play(tally, board_seed, index % 2, ai, bot)
    return {
        "games": games,
        "seconds_per_move": seconds_per_move,
        "seed": seed,
        "wins": tally.wins,
        "draws": tally.draws,
        "losses": tally.losses,
        "score": (tally.wins + tally.draws / 2) / games if games else float("nan"),
        "finished_greedy": tally.finished_greedy,
        "openspiel_simulations": simulations,
        "openspiel_seconds_per_move": tally.theirs_per_move,
        "ours_iterations_per_move": tally.ours_iterations / max(tally.ours_moves, 1),
        "ours_seconds_per_move": tally.ours_seconds / max(tally.ours_moves, 1),
        "moves_per_game": (tally.ours_moves + tally.theirs_moves) / max(games, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="smaller searches in the timing")
    parser.add_argument("--min-seconds", type=float, default=1.0, help="timed seconds per side")
    parser.add_argument("--games", type=int, default=6, help="games at equal time (even)")
    parser.add_argument("--seconds", type=float, default=0.05, help="seconds per move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    rows = []
    for case in cases(args.quick):
        ours, theirs = measure(case.rust, args.min_seconds), measure(case.oracle, args.min_seconds)
        rows.append(
            {
                "case": case.name,
                "unit": case.unit,
                "stratagem_per_second": ours.per_second,
                "openspiel_per_second": theirs.per_second,
                "ratio": ours.per_second / theirs.per_second,
            }
        )
    match = win_rate_at_equal_time(args.games, args.seconds, args.seed)
    if args.json:
        print(json.dumps({"speed": rows, "equal_time": match}))
        return 0
    for row in rows:
        print(f"{row['case']} ({row['unit']})")
        print(f"  stratagem  {row['stratagem_per_second']:>12,.0f} /s")
        print(f"  OpenSpiel  {row['openspiel_per_second']:>12,.0f} /s")
        print(f"  ratio      {row['ratio']:>12,.0f}x")
    print(
        f"equal time ({match['seconds_per_move']} s/move, {match['games']} games on "
        f"hex:{RADIUS}, seed {match['seed']}):"
    )
    print(
        f"  stratagem wins {match['wins']}, draws {match['draws']}, "
        f"losses {match['losses']} (score {match['score']:.2f}; "
        f"{match['finished_greedy']} finished greedily once a side was stuck, "
        f"{match['moves_per_game']:.0f} moves/game)"
    )
    print(
        f"  stratagem  {match['ours_iterations_per_move']:>10,.0f} iterations/move "
        f"in {match['ours_seconds_per_move']:.3f} s"
    )
    print(
        f"  OpenSpiel  {match['openspiel_simulations']:>10,} simulations/move "
        f"in {match['openspiel_seconds_per_move']:.3f} s (calibrated)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
