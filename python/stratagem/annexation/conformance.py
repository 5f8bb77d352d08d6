"""The annexation adapter of the shared conformance test (:mod:`stratagem.testing`): small
random boards and rule options, greedy turns on the Rust engine and on the oracle, and the bad
inputs the game must refuse. Imports hypothesis only inside :meth:`AnnexationAdapter.cases`."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from stratagem import testing
from stratagem.annexation import oracle
from stratagem.annexation.board import Board
from stratagem.annexation.game import MODES, Game, playouts
from stratagem.annexation.players import AI
from stratagem.errors import InvalidBoard, InvalidMove, InvalidParameter

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = ["AnnexationAdapter", "Case"]


@dataclass(frozen=True)
class Case:
    """A small board and the rule options."""

    board: Board
    mode: str
    allow_opponent_colours: bool
    max_moves: int | None

    @property
    def rules(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "allow_opponent_colours": self.allow_opponent_colours,
            "max_moves": self.max_moves,
        }


GameLike = Game | oracle.Game
GREEDY = AI("greedy")


def _outcome(game: GameLike) -> str:
    if isinstance(game, Game):
        return game.outcome
    if not game.is_over:
        return "ongoing"
    return "drawn" if game.winner is None else "won"


def _make_board(kind: str, size: tuple[int, int], k: int, p: int, seed: int) -> Board:
    options = {"colour_count": k, "players": p, "seed": seed}
    width, height = size
    if kind == "hexagon":
        return Board.hexagon(width, **options)
    if kind == "grid":
        return Board.grid(width, height, **options)
    if kind == "hex_rectangle":
        return Board.hex_rectangle(width, height, **options)
    # A ring with one chord: a custom board.
    n = width + height + 2
    edges = [(i, (i + 1) % n) for i in range(n)] + [(0, n // 2)]
    return Board.from_edges(np.array(edges, dtype=np.int64), **options)


class AnnexationAdapter:
    name = "annexation"

    def case(
        self,
        kind: str,
        size: tuple[int, int],
        k: int,
        p: int,
        seed: int,
        *,
        mode: str,
        allow: bool,
        max_moves: int | None,
    ) -> Case | None:
        """The case, or None when the board is refused or the game is over after one turn
        (the bad inputs are tried after one turn)."""
        try:
            board = _make_board(kind, size, k, p, seed)
        except (InvalidBoard, InvalidParameter):
            return None
        case = Case(board, mode, allow, max_moves)
        if self.advance(self.start(case, 0, threads=None), 1).is_over:
            return None
        return case

    def random_case(self, rng: random.Random) -> Case:
        while True:
            k = rng.randint(3, 8)
            case = self.case(
                rng.choice(["hexagon", "grid", "hex_rectangle", "ring"]),
                (rng.randint(1, 3), rng.randint(2, 5)),
                k,
                rng.randint(2, min(4, k - 1)),
                rng.randrange(2**64),
                mode=rng.choice(MODES),
                allow=rng.random() < 0.5,
                max_moves=rng.choice([None, None, rng.randint(2, 12)]),
            )
            if case is not None:
                return case

    def cases(self) -> SearchStrategy[Case]:
        from hypothesis import strategies as st

        @st.composite
        def draw_case(draw: st.DrawFn) -> Case | None:
            k = draw(st.integers(3, 8))
            return self.case(
                draw(st.sampled_from(["hexagon", "grid", "hex_rectangle", "ring"])),
                (draw(st.integers(1, 3)), draw(st.integers(2, 5))),
                k,
                draw(st.integers(2, min(4, k - 1))),
                draw(testing.seeds()),
                mode=draw(st.sampled_from(MODES)),
                allow=draw(st.booleans()),
                max_moves=draw(st.none() | st.integers(2, 12)),
            )

        return draw_case().filter(lambda case: case is not None)  # type: ignore[return-value]

    def start(self, case: Case, seed: int, *, threads: int | None) -> Game:
        return Game(case.board, seed, **case.rules)  # a Game has no threads: nothing to pass

    def start_oracle(self, case: Case, seed: int) -> oracle.Game:
        return oracle.Game(case.board, seed, **case.rules)

    def advance(self, game: GameLike, turns: int) -> GameLike:
        """Greedy moves (the Rust AI on the fast path, the oracle's on the oracle)."""
        for _ in range(turns):
            if game.is_over:
                break
            if isinstance(game, Game):
                game.play(GREEDY.choose(game))
            else:
                game.play(oracle.choose_greedy(game))
        return game

    def snapshot(self, game: GameLike) -> testing.Snapshot:
        return {
            "owner": np.asarray(game.owner, dtype=np.int8),
            "cell_colours": np.asarray(game.cell_colours, dtype=np.uint8),
            "player_colours": np.asarray(game.player_colours, dtype=np.uint8),
            "scores": np.asarray(game.scores, dtype=np.int64),
            "history": np.asarray(game.history, dtype=np.int64),
            "legal": np.asarray(game.legal_moves(), dtype=np.int64),
            "to_move": int(game.to_move),
            "moves": int(game.moves),
            "outcome": _outcome(game),
            "winner": -1 if game.winner is None else int(game.winner),
        }

    def save(self, game: Game, path: Path) -> None:
        game.save(path)

    def load(self, path: Path, *, threads: int | None) -> Game:
        return Game.load(path)

    def bad_inputs(self, case: Case) -> list[testing.BadInput[Game]]:
        board = case.board
        k, p = board.colour_count, board.players
        after_one = self.advance(self.start(case, 0, threads=None), 1)
        q = after_one.to_move
        own = int(after_one.player_colours[q])

        def play(colour: object) -> Any:
            return lambda game: game.play(colour)

        bad = [
            testing.BadInput("own colour", play(own), InvalidMove, f"player {q}'s own colour"),
            testing.BadInput("colour k", play(k), InvalidMove, f"colour {k} is out of range"),
            testing.BadInput("colour 16", play(16), InvalidMove, "colour 16 is out of range"),
            testing.BadInput("negative colour", play(-1), InvalidMove, "colour -1 is out of range"),
            testing.BadInput(
                "gain of a colour out of range",
                lambda game: game.gain(0, k),
                InvalidParameter,
                f"colour {k}",
            ),
            testing.BadInput(
                "reach of a player out of range",
                lambda game: game.reach(p),
                InvalidParameter,
                f"player {p}",
            ),
            testing.BadInput(
                "negative playouts",
                lambda game: playouts(game, -1),
                InvalidParameter,
                "n must be at least 0",
            ),
            testing.BadInput(
                "steps with random playouts",
                lambda game: playouts(game, 5, steps=3),
                InvalidParameter,
                "steps only applies to the 'light' policy",
            ),
            testing.BadInput(
                "minimax of depth 0",
                lambda game: AI("minimax", depth=0).choose(game),
                InvalidParameter,
                "depth must be at least 1",
            ),
            testing.BadInput(
                "unknown mode",
                lambda game: Game(game.board, mode="sideways"),
                InvalidParameter,
                "mode must be one of",
            ),
            testing.BadInput(
                "missing saved game",
                lambda game: Game.load("/nonexistent/annexation.json"),
                InvalidBoard,
                "not a saved annexation game",
            ),
        ]
        if not case.allow_opponent_colours:
            taken = [r for r in range(p) if r != q and int(after_one.player_colours[r]) != own]
            if taken:
                colour = int(after_one.player_colours[taken[0]])
                holder = next(
                    r for r in range(p) if r != q and after_one.player_colours[r] == colour
                )
                bad.append(
                    testing.BadInput(
                        "an opponent's colour",
                        play(colour),
                        InvalidMove,
                        f"colour {colour} is player {holder}'s colour",
                    )
                )
        # The rules, "A move", step 1: a colour that is not an integer is refused with
        # InvalidMove. Last, so that every other bad input is checked first.
        bad.append(testing.BadInput("not an integer", play(1.5), InvalidMove, "1.5"))
        return bad
