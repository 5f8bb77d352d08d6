"""annexation: the Filler-style colour game (seed 001).

Players start in corners of a board of coloured cells and grow by choosing colours: their
cells take the new colour and annex the unowned cells of that colour around them. More than
half the board wins. ``docs/annexation-rules.md`` states every rule;
:mod:`stratagem.annexation.oracle` plays the same rules cell by cell in plain Python.

>>> from stratagem.annexation import AI, Board, Game, playouts
>>> game = Game(Board.hexagon(8, seed=5))
>>> players = [AI.parse("mcts:iterations=300", seed=1), AI("greedy")]
>>> while not game.is_over:
...     game.play(players[game.to_move].choose(game))
>>> game.outcome in ("won", "drawn")
True
"""

from stratagem.annexation import batch
from stratagem.annexation.board import Board, parse_board
from stratagem.annexation.game import MODES, POLICIES, Game, PlayoutResult, Rules, playouts
from stratagem.annexation.match import MatchResult, RoundRobin, play_match, round_robin
from stratagem.annexation.players import AI, AIS
from stratagem.annexation.protocol import Annexation

__all__ = [
    "AI",
    "AIS",
    "MODES",
    "POLICIES",
    "Annexation",
    "Board",
    "Game",
    "MatchResult",
    "PlayoutResult",
    "RoundRobin",
    "Rules",
    "batch",
    "parse_board",
    "play_match",
    "playouts",
    "round_robin",
]
