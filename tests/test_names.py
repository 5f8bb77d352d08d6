"""The names a user types (policies, players, strategies, AIs, rules, conventions) are defined
once, by the engine's enums, and exported to Python; the oracles keep their own lists, as the
second path, and must name the same things in the same order."""

from __future__ import annotations

import pytest

from stratagem import _core, games
from stratagem.annexation import game as annexation_game
from stratagem.annexation import oracle as annexation_oracle
from stratagem.annexation import players as annexation_ai
from stratagem.conquest import game as conquest_game
from stratagem.conquest import oracle as conquest_oracle
from stratagem.diplomacy import engine as diplomacy_engine
from stratagem.diplomacy import oracle as diplomacy_oracle
from stratagem.mastermind import oracle as mastermind_oracle
from stratagem.mastermind import players as mastermind_players
from stratagem.outpost import oracle as outpost_oracle
from stratagem.outpost import players as outpost_players


@pytest.mark.parametrize(
    ("product", "engine", "oracle"),
    [
        (annexation_game.MODES, _core.annexation.MODES, annexation_oracle.MODES),
        (conquest_game.POLICIES, _core.conquest.POLICIES, conquest_oracle.POLICIES),
        (outpost_players.BUILTIN_PLAYERS, _core.outpost.PLAYERS, outpost_oracle.PLAYERS),
        (mastermind_players.STRATEGIES, _core.mastermind.STRATEGIES, mastermind_oracle.STRATEGIES),
        (
            diplomacy_engine.CONVENTIONS,
            _core.diplomacy.CONVENTIONS,
            diplomacy_oracle.CONVENTIONS,
        ),
    ],
)
def test_the_product_the_engine_and_the_oracle_name_the_same_things(product, engine, oracle):
    assert tuple(product) == tuple(engine) == tuple(oracle)


def test_every_ai_the_engine_names_can_be_made():
    assert tuple(_core.annexation.AIS) == annexation_ai.AIS
    for name in annexation_ai.AIS:
        assert annexation_ai.AI(name).spec.startswith(name)


@pytest.mark.parametrize("name", ["annexation", "conquest", "outpost"])
def test_the_registry_s_opponents_are_engine_names(name):
    engine = {
        "annexation": _core.annexation.AIS,
        "conquest": _core.conquest.POLICIES,
        "outpost": _core.outpost.PLAYERS,
    }[name]
    assert set(games.spec(name).opponents) <= set(engine)
