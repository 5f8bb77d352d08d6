"""The conquest adapter of the shared conformance test (:mod:`stratagem.testing`): small random
graphs, teams, troops and built-in policies; one turn of the Rust engine against one turn of
the oracle; the bad inputs the game must refuse. Imports hypothesis only when
:meth:`ConquestAdapter.cases` is called."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from stratagem import testing
from stratagem.conquest import oracle
from stratagem.conquest.board import Board
from stratagem.conquest.game import POLICIES, Game, PolicyView
from stratagem.conquest.odds import battle_odds
from stratagem.errors import InvalidBoard, InvalidMove, InvalidParameter

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = ["Case", "ConquestAdapter"]


@dataclass(frozen=True)
class Case:
    edges: tuple[tuple[int, int], ...]
    n: int
    team: tuple[int, ...]
    troops: tuple[int, ...]
    policies: tuple[str, ...]
    rate: float


GameLike = Game | oracle.OracleGame


class ConquestAdapter:
    name = "conquest"

    def random_case(self, rng: random.Random) -> Case:
        n = rng.randint(2, 14)
        pairs = [(x, y) for x in range(n) for y in range(x + 1, n)]
        edges = tuple(sorted(rng.sample(pairs, rng.randint(1, min(len(pairs), 3 * n)))))
        k = rng.randint(2, 4)
        high = rng.choice((20, 20, 10**6, 2**40))
        return Case(
            edges=edges,
            n=n,
            team=tuple(rng.randrange(k) for _ in range(n)),
            troops=tuple(rng.randint(0, high) for _ in range(n)),
            policies=tuple(rng.choice(POLICIES) for _ in range(k)),
            rate=rng.choice((0.0, 0.2, 0.7)),
        )

    def cases(self) -> SearchStrategy[Case]:
        return testing.cases_from_random(self.random_case)

    def board(self, case: Case) -> Board:
        return Board.from_edges(np.array(case.edges, dtype=np.int64), case.n)

    def start(self, case: Case, seed: int, *, threads: int | None) -> Game:
        return Game(
            self.board(case),
            case.team,
            case.troops,
            case.policies,
            seed=seed,
            rate=case.rate,
            max_turns=None,
            threads=threads,
        )

    def start_oracle(self, case: Case, seed: int) -> oracle.OracleGame:
        board = self.board(case)
        return oracle.OracleGame(
            board.indptr, board.indices, case.team, case.troops, case.policies, seed, rate=case.rate
        )

    def advance(self, game: GameLike, turns: int) -> GameLike:
        for _ in range(turns):
            game.step()
        return game

    def snapshot(self, game: GameLike) -> testing.Snapshot:
        return {
            "turn": game.turn,
            "team": np.asarray(game.team, dtype=np.int64),
            "troops": np.asarray(game.troops, dtype=np.int64),
            "status": game.status,
            "winner": -1 if game.winner is None else game.winner,
        }

    def save(self, game: Game, path: Path) -> None:
        game.save(path)

    def load(self, path: Path, *, threads: int | None) -> Game:
        return Game.load(path, threads=threads)

    def bad_inputs(self, case: Case) -> list[testing.BadInput[Game]]:
        n, k = case.n, len(case.policies)
        last = n - 1

        def with_team(value: int) -> Any:
            team = list(case.team)
            team[last] = value
            return lambda g: Game(g.board, team, case.troops, case.policies)

        def with_troops(value: int) -> Any:
            troops = list(case.troops)
            troops[0] = value
            return lambda g: Game(g.board, case.team, troops, case.policies)

        def custom(policy: Any) -> Any:
            return lambda g: Game(
                g.board, case.team, case.troops, [policy, *case.policies[1:]]
            ).step()

        def over_commit(view: PolicyView) -> NDArray[np.int64]:
            placement = np.zeros(view.indices.shape[0], dtype=np.int64)
            mine = np.flatnonzero(view.team[view.source] == view.team_id)
            if mine.size:
                placement[mine[0]] = view.troops[view.source[mine[0]]] + 1
            return placement

        def foreign(view: PolicyView) -> NDArray[np.int64]:
            placement = np.zeros(view.indices.shape[0], dtype=np.int64)
            placement[np.flatnonzero(view.team[view.source] != view.team_id)] = 1
            return placement

        bad = [
            testing.BadInput(
                "team out of range",
                with_team(k),
                InvalidParameter,
                f"territory {last} has team {k}",
            ),
            testing.BadInput(
                "negative troops",
                with_troops(-1),
                InvalidParameter,
                "territory 0 has -1 troops",
            ),
            testing.BadInput(
                "too many troops",
                with_troops(2**40 + 1),
                InvalidParameter,
                "territory 0 has",
            ),
            testing.BadInput(
                "float troops",
                lambda g: Game(g.board, case.team, np.ones(n) * 1.5, case.policies),
                InvalidParameter,
                "dtype float64",
            ),
            testing.BadInput(
                "wrong shape",
                lambda g: Game(g.board, case.team[:-1], case.troops, case.policies),
                InvalidParameter,
                f"shape ({n},)",
            ),
            testing.BadInput(
                "unknown policy",
                lambda g: Game(g.board, case.team, case.troops, ["sneaky", *case.policies[1:]]),
                InvalidParameter,
                "unknown policy 'sneaky'",
            ),
            testing.BadInput(
                "one team",
                lambda g: Game(g.board, case.team, case.troops, ["random"]),
                InvalidParameter,
                "2 to 64 teams",
            ),
            testing.BadInput(
                "negative run",
                lambda g: g.run(-1),
                InvalidParameter,
                "turns must be at least 0",
            ),
            testing.BadInput(
                "float rate",
                lambda g: Game(g.board, case.team, case.troops, case.policies, rate=-0.5),
                InvalidParameter,
                "rate must be",
            ),
            testing.BadInput(
                "self-loop",
                lambda g: Board.from_edges([[0, 1], [2, 2]]),
                InvalidBoard,
                "self-loop",
            ),
            testing.BadInput(
                "missing save",
                lambda g: Game.load("/nonexistent/game.npz"),
                InvalidBoard,
                "cannot read a saved conquest game",
            ),
            testing.BadInput(
                "odds sides",
                lambda g: battle_odds(-1, 2),
                InvalidParameter,
                "a must be at least 0",
            ),
        ]
        ends = [case.team[t] for edge in case.edges for t in edge]
        bad.append(
            testing.BadInput(
                "custom returns floats",
                custom(lambda v: np.zeros(v.indices.shape[0])),
                InvalidMove,
                "dtype float64",
            )
        )
        if 0 in ends:  # some border leaves a territory of team 0
            bad.append(
                testing.BadInput(
                    "custom over-commits",
                    custom(over_commit),
                    InvalidMove,
                    "troops but holds",
                )
            )
        if any(t != 0 for t in ends):  # some border leaves a territory of another team
            bad.append(
                testing.BadInput(
                    "custom on foreign rows",
                    custom(foreign),
                    InvalidMove,
                    "belongs to team",
                )
            )
        return bad
