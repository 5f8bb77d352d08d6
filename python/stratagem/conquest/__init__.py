"""conquest: the RISK-like war on a graph (seed 000).

Territories are the vertices of an undirected graph, borders its edges. Each turn every
territory places its troops on its borders (attack, defend, or transfer to a friend), battles
are fought with coins on every contested border, the largest team present takes each
territory, and every territory recruits. ``docs/conquest-rules.md`` states every rule;
:mod:`stratagem.conquest.oracle` plays the same rules in plain Python.

>>> from stratagem.conquest import Board, Game, assign_regions, battle_odds
>>> board = Board.grid(20, 20)
>>> game = Game(board, assign_regions(board, 2, seed=3), troops=10,
...             policies=["opportunist", "aggressive"], seed=3, max_turns=200)
>>> game.run().status in ("won", "draw", "unfinished")
True
"""

from stratagem.conquest.board import (
    Board,
    assign_random,
    assign_regions,
    troops_given,
    troops_uniform,
)
from stratagem.conquest.boards import board_files
from stratagem.conquest.game import (
    POLICIES,
    TROOP_LIMIT,
    Game,
    GameResult,
    History,
    ManyResult,
    PolicyView,
    game_seed,
    simulate_many,
    wilson_interval,
)
from stratagem.conquest.odds import BattleOdds, battle_odds, battle_odds_fractions, simulate_battle
from stratagem.conquest.protocol import Conquest

__all__ = [
    "POLICIES",
    "TROOP_LIMIT",
    "BattleOdds",
    "Board",
    "Conquest",
    "Game",
    "GameResult",
    "History",
    "ManyResult",
    "PolicyView",
    "assign_random",
    "assign_regions",
    "battle_odds",
    "battle_odds_fractions",
    "board_files",
    "game_seed",
    "simulate_battle",
    "simulate_many",
    "troops_given",
    "troops_uniform",
    "wilson_interval",
]
