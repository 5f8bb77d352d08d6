"""The Diplomacy winter through the protocol: action indices are the enumerator's options, the
rewards the evaluator's values, drawn positions legal and a function of the seed."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from stratagem import games
from stratagem.diplomacy import OPENING, Map, Position, adjustments, random_position, search
from stratagem.diplomacy.protocol import MAX_ACTIONS, Diplomacy
from stratagem.errors import InvalidMove, InvalidParameter

SMALL = (
    "AUS: A VIE, A BUD, F TRI, A GAL, A BOH, A TYR / BUD TRI VIE; ITA: A PIE / NAP ROM VEN "
    "TUN; RUS: A UKR / MOS SEV WAR STP; TUR: A BUL / ANK CON SMY BUL GRE"
)


@given(
    seed=st.integers(0, 2**64 - 1),
    convention=st.sampled_from(["exact", "waives", "article"]),
    data=st.data(),
)
def test_actions_are_the_options_and_rewards_the_values(seed, convention, data):
    game = Diplomacy(seed=seed, convention=convention)
    position = game.position
    counts = adjustments.counts(position, convention)
    assert [int(game.legal_actions(s).size) for s in range(7)] == list(counts.values())
    assert game.num_actions == 4096
    profile = [data.draw(st.integers(0, n - 1)) for n in counts.values()]
    game.step(profile)
    expected = search.values(position, profile, convention)
    assert game.returns().tolist() == expected.astype(float).tolist()
    for power, index in zip(position.map.powers, profile, strict=True):
        row = adjustments.batch(position, power, convention, index, index + 1)[0]
        assert game.orders[power] == adjustments.describe(position, power, row.tolist())
    top = tuple(int(p) for p in np.flatnonzero(expected == expected.max()))
    assert game.winners == top
    assert game.outcome == ("won" if len(top) == 1 else "drawn")
    assert game.is_over
    assert game.to_move() == ()


def test_random_positions_are_legal_and_a_function_of_the_seed():
    drawn = [random_position(seed) for seed in range(30)]
    assert drawn == [random_position(seed) for seed in range(30)]
    assert len({str(p) for p in drawn}) == 30
    for position in drawn:
        assert Position.parse(str(position)) == position  # the validator accepts it again
    assert any(adjustments.total(p) > 1 for p in drawn)


def test_the_observation_shows_units_and_centres_relative_to_the_power():
    game = games.make("diplomacy", position=OPENING)
    the_map = game.position.map
    vie, mos, bel = (the_map.index(name) for name in ("VIE", "MOS", "BEL"))
    for seat in range(7):
        planes = game.observation(seat)
        assert planes.shape == (4, 75)
        assert planes.dtype == np.int8
        assert planes[0, vie] == (0 - seat) % 7  # AUS is power 0
        assert planes[0, mos] == (5 - seat) % 7  # RUS is power 5
        assert planes[1, vie] == 1  # an army
        assert (planes[2, bel], planes[3, bel]) == (-1, 1)  # a centre nobody owns
    assert int((game.observation(0)[3] == 1).sum()) == 34


def test_suggest_plays_the_search_profile():
    game = Diplomacy(position=SMALL)
    found = search.solve(game.position, "combined")
    assert [game.suggest(seat, "combined") for seat in range(7)] == list(found.profile)
    with pytest.raises(InvalidParameter, match="unknown search method 'oracle'"):
        game.suggest(0, "oracle")


def test_a_power_without_adjustments_has_one_action_and_the_game_takes_one_step():
    game = Diplomacy(position=OPENING)
    assert [int(game.legal_actions(seat).size) for seat in range(7)] == [1] * 7
    game.step([0] * 7)
    with pytest.raises(InvalidMove, match="over"):
        game.step([0] * 7)


def test_bad_config_is_named():
    with pytest.raises(InvalidParameter, match="convention"):
        Diplomacy(convention="generous")
    with pytest.raises(InvalidParameter, match="position's text"):
        Diplomacy(position=42)  # type: ignore[arg-type]
    the_map = Map.standard()
    land = [p for p, k in zip(the_map.provinces, the_map.kind, strict=True) if k != "sea"]
    units = [p for p in land if p not in the_map.centres][:17]
    # 17 armies on 8 centres: remove 9 of 17, C(17, 9) options.
    largest = f"AUS: {', '.join('A ' + p for p in units)} / {' '.join(the_map.centres[:8])}"
    with pytest.raises(InvalidParameter, match=r"AUS has 24,310 adjustment options.*max_actions"):
        Diplomacy(position=largest)
    assert Diplomacy(position=largest, max_actions=24_310).legal_actions(0).size == 24_310
    assert MAX_ACTIONS >= 24_310
