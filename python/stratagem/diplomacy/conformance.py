"""The diplomacy adapter of the shared conformance test (``docs/conformance.md``).

Winter adjustments are one simultaneous move, so the game the checks play is the resumable
combined search: a turn is one evaluation of step 3 of "Combined search" on the rules page. The
fast side is :class:`stratagem.diplomacy.search.finder.CombinedSearch` (Rust), the oracle side
:class:`stratagem.diplomacy.oracle.CombinedSearch`; a snapshot is the whole state of the search
(profile, values, the power to move, every new and old list, the history and the ending).
Positions come from :func:`~stratagem.diplomacy.positions.random_position`. Imports hypothesis
only when :meth:`DiplomacyAdapter.cases` is called."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from stratagem import testing
from stratagem.diplomacy import adjustments as adj
from stratagem.diplomacy import oracle
from stratagem.diplomacy.engine import CONVENTIONS, Convention
from stratagem.diplomacy.positions import random_position
from stratagem.diplomacy.search.finder import CombinedSearch, Weights
from stratagem.errors import InvalidParameter

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = ["TURNS", "Case", "DiplomacyAdapter"]

Game = CombinedSearch | oracle.CombinedSearch
TURNS = 12


@dataclass(frozen=True)
class Case:
    position_seed: int
    convention: str
    weights: Weights


class DiplomacyAdapter:
    name = "diplomacy"

    def random_case(self, rng: random.Random) -> Case:
        convention: Convention = rng.choice(CONVENTIONS)
        weights = Weights(*(rng.randint(-12, 12) for _ in range(4)))
        # A position with a few hundred profiles at most, so that some searches end (an
        # equilibrium) within the turns the checks play and the oracle stays quick.
        seed = rng.randrange(10**6)
        while adj.total(random_position(seed, units=10), convention) > 400:
            seed += 1
        return Case(seed, convention, weights)

    def cases(self) -> SearchStrategy[Case]:
        return testing.cases_from_random(self.random_case)

    def start(self, case: Case, seed: int, *, threads: int | None) -> CombinedSearch:
        # The combined search draws no random numbers and runs on one thread: ``seed`` and
        # ``threads`` have no meaning here.
        del seed, threads
        return CombinedSearch(
            random_position(case.position_seed, units=10),
            convention=case.convention,  # type: ignore[arg-type]
            weights=case.weights,
        )

    def start_oracle(self, case: Case, seed: int) -> oracle.CombinedSearch:
        del seed
        return oracle.CombinedSearch(
            random_position(case.position_seed, units=10),
            case.convention,
            oracle.Weights(*case.weights.as_list()),
        )

    def advance(self, game: Game, turns: int) -> Game:
        if isinstance(game, CombinedSearch):
            game.advance(turns)
        else:
            game.run(game.evaluations + turns)
        return game

    def snapshot(self, game: Game) -> testing.Snapshot:
        if isinstance(game, CombinedSearch):
            return game.state()
        n = len(game.profile)
        return {
            "profile": np.array(game.profile, dtype=np.uint64),
            "values": np.array(game.values, dtype=np.int64),
            "evaluations": game.evaluations,
            "power": game.power,
            "new": rows([[p, a, b] for p, new in enumerate(game.new) for a, b in new], 3),
            "old_index": rows([[p, i] for p, old in enumerate(game.old) for i, _ in old], 2),
            "old_value": np.array([v for old in game.old for _, v in old], dtype=np.int64),
            "history": rows([list(profile) for profile in game.history], n),
            "ending": game.ending,
            "cycle_from": game.cycle_from,
        }

    def save(self, game: CombinedSearch, path: Path) -> None:
        game.save(path)

    def load(self, path: Path, *, threads: int | None) -> CombinedSearch:
        del threads
        return CombinedSearch.load(path)

    def bad_inputs(self, case: Case) -> list[testing.BadInput[CombinedSearch]]:
        def corrupted(change: Any) -> Any:
            def call(game: CombinedSearch) -> CombinedSearch:
                data = game.to_dict()
                change(data)
                return CombinedSearch.from_dict(data, source="corrupted.json")

            return call

        def option_out_of_range(data: dict[str, Any]) -> None:
            data["state"]["history"][-1][0] = 10**6

        def power_out_of_range(data: dict[str, Any]) -> None:
            data["state"]["power"] = 7

        def unknown_ending(data: dict[str, Any]) -> None:
            data["state"]["ending"] = "stalemate"

        def other_format(data: dict[str, Any]) -> None:
            data["format"] = "stratagem.outpost"

        return [
            testing.BadInput(
                "negative evaluations", lambda g: g.advance(-1), InvalidParameter, "evaluations"
            ),
            testing.BadInput(
                "negative time", lambda g: g.advance(5, time_limit=-1.0), InvalidParameter, "time"
            ),
            testing.BadInput(
                "option out of range",
                corrupted(option_out_of_range),
                InvalidParameter,
                "history",
            ),
            testing.BadInput(
                "power out of range", corrupted(power_out_of_range), InvalidParameter, "power"
            ),
            testing.BadInput(
                "unknown ending", corrupted(unknown_ending), InvalidParameter, "stalemate"
            ),
            testing.BadInput(
                "another format", corrupted(other_format), InvalidParameter, "corrupted.json"
            ),
        ]


def rows(values: list[list[int]], width: int) -> np.ndarray[Any, np.dtype[np.uint64]]:
    return np.array(values, dtype=np.uint64).reshape(-1, width)
