"""The diplomacy module under the shared conformance test (``docs/conformance.md``).

Winter adjustments are one simultaneous move, so the game the checks play is the resumable
combined search: a turn is one evaluation of step 3 of "Combined search" on the rules page. The
fast side is :class:`stratagem.diplomacy.search.CombinedSearch` (Rust), the oracle side
:class:`stratagem.diplomacy.oracle.CombinedSearch`; a snapshot is the whole state of the search
(profile, values, the power to move, every new and old list, the history and the ending)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

from stratagem import testing
from stratagem.diplomacy.conformance import TURNS, Case, DiplomacyAdapter

ADAPTER: testing.GameAdapter[Case, Any] = DiplomacyAdapter()


@pytest.fixture(scope="module")
def save_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Module scope: hypothesis refuses function-scoped fixtures such as tmp_path.
    return tmp_path_factory.mktemp("diplomacy-conformance")


@settings(max_examples=max(1, settings().max_examples // 2))
@given(case=ADAPTER.cases(), seed=testing.seeds())
def test_diplomacy_conforms(save_dir: Path, case: Case, seed: int) -> None:
    testing.check_conformance(ADAPTER, case, seed, save_dir, turns=TURNS)


def test_the_checks_see_searches_end() -> None:
    # Some cases reach an equilibrium within the turns played, so a finished search is
    # advanced, saved and loaded by the checks too.
    rng = random.Random(1)
    endings = set()
    for _ in range(30):
        case = ADAPTER.random_case(rng)
        game = ADAPTER.advance(ADAPTER.start(case, 0, threads=None), TURNS)
        endings.add(game.state()["ending"])
    assert endings == {"running", "equilibrium"}
