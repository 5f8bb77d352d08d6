"""Outpost passes the shared conformance test (:mod:`stratagem.testing`, ``docs/conformance.md``):
thread determinism, turn batching, oracle equivalence after every turn, bad inputs and saved
games, on small drawn cases (generated maps and hand-made water patterns, small radii, small L
and W so that the first season builds, drawn built-in players and flags)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

from stratagem import testing
from stratagem.outpost.conformance import TURNS, Case, OutpostAdapter, pattern

ADAPTER: testing.GameAdapter[Case, Any] = OutpostAdapter()
# The oracle plays each case's first eleven turns: a third of the profile's examples.
FEWER = settings(max_examples=max(1, settings().max_examples // 3))


@pytest.fixture(scope="module")
def save_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Module scope: hypothesis refuses function-scoped fixtures such as tmp_path.
    return tmp_path_factory.mktemp("outpost-conformance")


@FEWER
@given(case=ADAPTER.cases(), seed=testing.seeds())
def test_outpost_conforms(save_dir: Path, case: Case, seed: int) -> None:
    testing.check_conformance(ADAPTER, case, seed, save_dir, turns=TURNS)


def test_the_first_season_is_played_by_the_checks() -> None:
    # A known case whose season of turn 10 builds for three empires (empire 2 holds no water
    # then): the checks above play it on both sides, ids given in empire order.
    case = Case(
        map=pattern("pond"),
        r=2,
        L=5,
        W=1,
        T=12,
        players=("spread", "frontier", "random", "lookahead"),
        supply_fringe=False,
        sequential_moves=True,
        extra_turn=True,
    )
    game = ADAPTER.advance(ADAPTER.start(case, 5, threads=None), TURNS)
    season = [(entry.empire, entry.kind, entry.outpost) for entry in game.log if entry.turn == 10]
    assert season == [(0, "build", 4), (1, "build", 5), (3, "build", 6)]
    testing.check_oracle_equivalence(ADAPTER, case, 5, turns=TURNS)
