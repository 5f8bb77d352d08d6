"""The outpost adapter of the shared conformance test (:mod:`stratagem.testing`): small drawn
cases (generated maps and hand-made water patterns, small radii, small L and W so that the
first season builds, drawn built-in players and flags), the Rust engine against the oracle,
and the bad inputs the game must refuse. Imports hypothesis only inside
:meth:`OutpostAdapter.cases`."""

from __future__ import annotations

import json
import random
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from stratagem import testing
from stratagem.errors import InvalidBoard, InvalidParameter
from stratagem.outpost.game import Game
from stratagem.outpost.map import Map, MapWarning
from stratagem.outpost.oracle import OracleGame
from stratagem.outpost.players import BUILTIN_PLAYERS, State

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = ["PATTERNS", "TURNS", "Case", "OutpostAdapter", "pattern"]


# Hand-made water patterns of the 50 x 50 region (lenient maps: not 500 cells): a wall with a
# ford one cell wide, a pond next to the home, and no water at all.
PATTERNS: dict[str, list[tuple[int, int]]] = {
    "wall": [(6, y) for y in range(50) if y != 3],
    "pond": [(x, y) for x in range(3, 7) for y in range(2, 6)],
    "dry": [],
}


def pattern(name: str) -> Map:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MapWarning)
        return Map.from_cells(
            np.array(PATTERNS[name], dtype=np.int64).reshape(-1, 2), name=name, lenient=True
        )


@dataclass(frozen=True)
class Case:
    map: Map
    r: int
    L: int
    W: int
    T: int
    players: tuple[str, ...]
    supply_fringe: bool
    sequential_moves: bool
    extra_turn: bool

    def options(self) -> dict[str, Any]:
        return {
            "r": self.r,
            "L": self.L,
            "W": self.W,
            "T": self.T,
            "supply_fringe": self.supply_fringe,
            "sequential_moves": self.sequential_moves,
            "extra_turn": self.extra_turn,
        }


class OracleSide:
    """An :class:`OracleGame` seen through the same snapshot as a :class:`Game`."""

    def __init__(self, game: OracleGame) -> None:
        self.game = game

    @property
    def finished(self) -> bool:
        return self.game.finished

    def step(self) -> None:
        self.game.step()


class Quiet:
    """A Python player that keeps every outpost home: for the saved game with a Python seat."""

    def move(self, state: State) -> list[int]:
        return [0] * len(state.mine())

    def disband(self, state: State) -> int:
        return int(state.mine()[0, 0])


# Enough turns for the first season (turn 10) to build and disband.
TURNS = 11


class OutpostAdapter:
    name = "outpost"

    def random_case(self, rng: random.Random) -> Case:
        if rng.random() < 0.25:
            board = pattern(rng.choice(sorted(PATTERNS)))
        else:
            board = Map.generate(rng.randrange(8))
        return Case(
            map=board,
            r=rng.randint(1, 5),
            L=rng.randint(1, 20),
            W=rng.randint(1, 6),
            T=rng.randint(TURNS - 4, 30),  # some games end before the checks stop asking
            players=tuple(rng.choice(BUILTIN_PLAYERS) for _ in range(4)),
            supply_fringe=rng.random() < 0.5,
            sequential_moves=rng.random() < 0.5,
            extra_turn=rng.random() < 0.5,
        )

    def cases(self) -> SearchStrategy[Case]:
        return testing.cases_from_random(self.random_case)

    def start(self, case: Case, seed: int, *, threads: int | None) -> Game:
        # ``threads`` has no meaning here: one game is played by one thread (the engine is
        # single-threaded per game; tournaments spread games over threads), so it is ignored.
        del threads
        return Game(case.map, players=case.players, seed=seed, **case.options())

    def start_oracle(self, case: Case, seed: int) -> OracleSide:
        return OracleSide(
            OracleGame(case.map.water, players=case.players, seed=seed, **case.options())
        )

    def advance(self, game: Game | OracleSide, turns: int) -> Game | OracleSide:
        for _ in range(turns):
            if game.finished:
                break
            game.step()
        return game

    def snapshot(self, game: Game | OracleSide) -> testing.Snapshot:
        if isinstance(game, OracleSide):
            slow = game.game
            history = slow.history
            outposts = np.array([tuple(o) for o in slow.outposts], dtype=np.int32)
            return {
                "turn": slow.turn,
                "next_id": slow.next_id,
                "outposts": outposts.reshape(-1, 4),
                "control": slow.control,
                "history_land": history["land"],
                "history_water": history["water"],
                "history_outposts": history["outposts"],
                "log": repr([tuple(entry) for entry in slow.log]),
            }
        return {
            "turn": game.turn,
            "next_id": game.next_id,
            "outposts": game.outposts,
            "control": game.control,
            "history_land": game.history.land,
            "history_water": game.history.water,
            "history_outposts": game.history.outposts,
            "log": repr([tuple(entry) for entry in game.log]),
        }

    def save(self, game: Game, path: Path) -> None:
        game.save(path)

    def load(self, path: Path, *, threads: int | None) -> Game:
        del threads  # see start()
        return Game.load(path)

    def bad_inputs(self, case: Case) -> list[testing.BadInput[Game]]:
        options = case.options()
        players = case.players

        def with_option(**changed: Any) -> Any:
            return lambda g: Game(case.map, players=players, **{**options, **changed})

        def home_in_water(g: Game) -> Game:
            cells = np.vstack([case.map.water_cells, [[0, 0]]])
            return Game(Map.from_cells(cells, lenient=True), players=players, **options)

        def step_after_the_end(g: Game) -> None:
            copy = Game.from_dict(g.to_dict())
            copy.run()
            copy.step()

        def load_corrupted(change: Any) -> Any:
            def call(g: Game) -> Game:
                data = g.to_dict()
                change(data)
                with tempfile.TemporaryDirectory() as folder:
                    path = Path(folder) / "corrupted.json"
                    path.write_text(json.dumps(data))
                    return Game.load(path)

            return call

        ys, xs = np.nonzero(case.map.water)
        wet = (int(xs[0]), int(ys[0])) if xs.size else None

        def onto_water(data: dict[str, Any]) -> None:
            data["outposts"][0][2:] = list(wet or (0, 0))

        def history_off(data: dict[str, Any]) -> None:
            data["history"][-1][0] += 1

        def python_seat_saved(g: Game) -> Game:
            seated: tuple[str | Quiet, ...] = (players[0], Quiet(), *players[2:])
            game = Game(case.map, players=seated, **options)
            game.step()
            with tempfile.TemporaryDirectory() as folder:
                path = Path(folder) / "python-seat.json"
                game.save(path)
                return Game.load(path)

        bad = [
            testing.BadInput(
                "unknown player",
                lambda g: Game(case.map, players=(*players[:3], "greedy"), **options),
                InvalidParameter,
                "player 3: unknown built-in player 'greedy'",
            ),
            testing.BadInput(
                "negative radius", with_option(r=-1), InvalidParameter, "r must be at least 0"
            ),
            testing.BadInput(
                "radius past the grid", with_option(r=199), InvalidParameter, "r must be at most"
            ),
            testing.BadInput("L = 0", with_option(L=0), InvalidParameter, "L must be at least 1"),
            testing.BadInput(
                "negative T", with_option(T=-1), InvalidParameter, "T must be at least 0"
            ),
            testing.BadInput("home in water", home_in_water, InvalidBoard, "cell (0, 0)"),
            testing.BadInput(
                "step after the end", step_after_the_end, InvalidParameter, "the game is over"
            ),
            testing.BadInput(
                "negative run", lambda g: g.run(-1), InvalidParameter, "turns must be at least 0"
            ),
            testing.BadInput(
                "saved history row off",
                load_corrupted(history_off),
                InvalidBoard,
                "the last history row does not match",
            ),
            testing.BadInput(
                "saved game of a Python seat loaded without it",
                python_seat_saved,
                InvalidParameter,
                "seat 1 was a Python player",
            ),
        ]
        if wet is not None:
            bad.append(
                testing.BadInput(
                    "saved outpost on water",
                    load_corrupted(onto_water),
                    InvalidBoard,
                    f"at ({wet[0]}, {wet[1]}) is on water",
                )
            )
        return bad
