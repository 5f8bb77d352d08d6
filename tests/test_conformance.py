"""The shared conformance harness (:mod:`stratagem.testing`) on the example ring skirmish: the
example game passes every check, and adapters with a planted bug fail the matching check."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings

from example_game import MAX_TROOPS, RingCase, RingSkirmish, RingSkirmishAdapter
from stratagem.errors import InvalidBoard, InvalidMove, InvalidParameter
from stratagem.testing import (
    BadInput,
    GameAdapter,
    Snapshot,
    assert_snapshots_equal,
    cases_from_random,
    check_bad_input,
    check_conformance,
    check_oracle_equivalence,
    check_save_load,
    check_thread_determinism,
    check_turn_batching,
    seeds,
)

ADAPTER: GameAdapter[RingCase, RingSkirmish] = RingSkirmishAdapter()
# Six territories, three teams, a battle on every border: every planted bug shows on turn 1-3.
CASE = RingCase(team=(0, 1, 0, 1, 2, 1), troops=(5, 3, 8, 2, 7, 4), n_teams=3)
SEED = 2024


@pytest.fixture(scope="module")
def save_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Module scope: hypothesis refuses function-scoped fixtures such as tmp_path.
    return tmp_path_factory.mktemp("conformance")


# --- the example game conforms ---------------------------------------------------------------


# No deadline: one example plays about twenty games, and the first one starts thread pools.
@settings(deadline=None)
@given(case=ADAPTER.cases(), seed=seeds())
def test_example_game_conforms(save_dir: Path, case: RingCase, seed: int) -> None:
    check_conformance(ADAPTER, case, seed, save_dir)


@settings(deadline=None)
@given(case=cases_from_random(ADAPTER.random_case), seed=seeds())
def test_example_game_conforms_on_random_cases(save_dir: Path, case: RingCase, seed: int) -> None:
    check_conformance(ADAPTER, case, seed, save_dir, turns=6, thread_counts=(2, 1, 4))


def test_known_answer_both_engines() -> None:
    # Territory 1 is empty: the party of 4 takes it unopposed whatever the coins say, then
    # both territories recruit one troop.
    for engine in ("fast", "oracle"):
        game = RingSkirmish([0, 1], [5, 0], n_teams=2, seed=SEED, engine=engine)
        game.advance()
        assert game.team.tolist() == [0, 0]
        assert game.troops.tolist() == [2, 5]


def test_state_is_read_only() -> None:
    game = ADAPTER.start(CASE, SEED, threads=1)
    with pytest.raises(ValueError, match="read-only"):
        game.troops[0] = 99


def test_load_refuses_a_file_without_a_field(tmp_path: Path) -> None:
    path = tmp_path / "partial.npz"
    with open(path, "wb") as file:
        np.savez(file, team=np.array(CASE.team), troops=np.array(CASE.troops))
    with pytest.raises(InvalidBoard, match="no field 'n_teams'"):
        RingSkirmish.load(path)


def test_load_refuses_a_file_that_is_not_a_save(tmp_path: Path) -> None:
    path = tmp_path / "garbage.npz"
    path.write_bytes(b"not a zip archive")
    with pytest.raises(InvalidBoard, match="not a saved ring skirmish"):
        RingSkirmish.load(path)


# --- the harness catches planted bugs ----------------------------------------------------------


class ThreadSeedAdapter(RingSkirmishAdapter):
    """Planted bug: the thread count leaks into the seed from three threads on."""

    def start(self, case: RingCase, seed: int, *, threads: int | None) -> RingSkirmish:
        return super().start(case, seed + (threads or 1) // 3, threads=threads)


class OracleOffByOneAdapter(RingSkirmishAdapter):
    """Planted bug: the oracle recruits one troop too many in territory 2 on turn 3."""

    def advance(self, game: RingSkirmish, turns: int) -> RingSkirmish:
        for _ in range(turns):
            game.advance(1)
            if game._engine == "oracle" and game.turn == 3:
                game._troops[2] += 1
        return game


class ShortBatchAdapter(RingSkirmishAdapter):
    """Planted bug: advancing several turns in one call plays one turn too few."""

    def advance(self, game: RingSkirmish, turns: int) -> RingSkirmish:
        game.advance(max(turns - 1, 1))
        return game


class DroppedFieldAdapter(RingSkirmishAdapter):
    """Planted bug: the save forgets the turn counter, so its own load refuses the file."""

    def save(self, game: RingSkirmish, path: Path) -> None:
        game.save(path)
        with np.load(path) as saved:
            kept = {field: saved[field] for field in saved.files if field != "turn"}
        with open(path, "wb") as file:
            np.savez(file, **kept)


class ForgetfulLoadAdapter(RingSkirmishAdapter):
    """Planted bug: the load drops the seed, which no snapshot shows until the next turn."""

    def load(self, path: Path, *, threads: int | None) -> RingSkirmish:
        saved = RingSkirmish.load(path, threads=threads)
        return RingSkirmish(
            saved.team, saved.troops, n_teams=saved._n_teams, seed=0, turn=saved.turn
        )


class SnapshotListAdapter(RingSkirmishAdapter):
    """Planted bug: a snapshot value the harness cannot compare bit for bit."""

    def snapshot(self, game: RingSkirmish) -> Snapshot:
        return {"troops": game.troops.tolist()}


def test_thread_dependent_fast_path_is_caught() -> None:
    with pytest.raises(
        AssertionError,
        match=r"thread determinism after turn 1 \(seed 2024\): snapshot key '\w+' differs "
        r"between threads=1 and threads=3: first difference at index \(\d+,\)",
    ):
        check_thread_determinism(ThreadSeedAdapter(), CASE, SEED, thread_counts=(1, 2, 3))


def test_oracle_off_by_one_on_turn_three_is_caught() -> None:
    with pytest.raises(
        AssertionError,
        match=r"oracle equivalence after turn 3 \(seed 2024\): snapshot key 'troops' differs "
        r"between oracle and fast path \(threads=None\): first difference at index \(2,\)",
    ):
        check_oracle_equivalence(OracleOffByOneAdapter(), CASE, SEED, turns=5)


def test_short_batch_is_caught() -> None:
    with pytest.raises(
        AssertionError,
        match=r"turn batching over 4 turns .* between 4 advances of 1 turn and one advance",
    ):
        check_turn_batching(ShortBatchAdapter(), CASE, SEED, turns=4)


@pytest.mark.parametrize(
    ("adapter", "message"),
    [
        pytest.param(
            DroppedFieldAdapter(),
            r"save/load of the game saved after turn 2 \(seed 2024\): loading the saved game "
            r"raised InvalidBoard\(.*no field 'turn'\)",
            id="save dropping a field",
        ),
        pytest.param(
            ForgetfulLoadAdapter(),
            r"save/load of the game saved after turn 2 \(seed 2024\), after turn 3: snapshot key "
            r"'\w+' differs between uninterrupted game and loaded game",
            id="load losing hidden state",
        ),
    ],
)
def test_save_load_bug_is_caught(
    adapter: GameAdapter[RingCase, RingSkirmish], message: str, tmp_path: Path
) -> None:
    with pytest.raises(AssertionError, match=message):
        check_save_load(adapter, CASE, SEED, tmp_path, turns_before=2, turns_after=2)


def test_snapshot_of_the_wrong_type_is_caught() -> None:
    with pytest.raises(AssertionError, match="snapshot key 'troops' is a list"):
        check_oracle_equivalence(SnapshotListAdapter(), CASE, SEED)


def test_conformance_runs_every_check(tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match="oracle equivalence after turn 3 "):
        check_conformance(OracleOffByOneAdapter(), CASE, SEED, tmp_path)


class OneBadInputAdapter(RingSkirmishAdapter):
    """The example game with its bad inputs replaced by the given ones."""

    def __init__(self, *bad: BadInput[RingSkirmish]) -> None:
        self.bad = list(bad)

    def bad_inputs(self, case: RingCase) -> list[BadInput[RingSkirmish]]:
        return self.bad


class Panic(BaseException):
    """Stands in for pyo3's PanicException, which is not an Exception."""


def reinforce_unchecked(game: RingSkirmish, amounts: list[int]) -> None:
    """Planted bug: no validation, so numpy's broadcasting ValueError escapes."""
    game._troops = game._troops + np.asarray(amounts, dtype=np.int64)


def reinforce_then_validate(game: RingSkirmish, amounts: list[int]) -> None:
    """Planted bug: the state changes before the validation that fails."""
    game._troops = game._troops + np.asarray(amounts, dtype=np.int64)
    if (game._troops < 0).any():
        raise InvalidMove(f"territory {int(np.argmax(game._troops < 0))}: troops below zero")


def advance_then_refuse(game: RingSkirmish) -> None:
    """Planted bug: hidden state (the seed) changes before the refusal."""
    game._seed += 1
    raise InvalidParameter("turns must be at least 0, got -1")


def panic(game: RingSkirmish) -> None:
    raise Panic("index out of bounds: the len is 6 but the index is 6")


def not_validated(game: RingSkirmish) -> None:
    raise ValueError("territory 5 has -1 troops")


def vague_message(game: RingSkirmish) -> None:
    raise InvalidBoard("bad troops")


PLANTED_BAD_INPUTS = [
    (
        BadInput(
            "short amounts",
            lambda game: reinforce_unchecked(game, [1, 2]),
            InvalidParameter,
            "amounts",
        ),
        r"raised ValueError\(operands could not be broadcast.*\), expected InvalidParameter",
    ),
    (
        BadInput(
            "validated too late",
            lambda game: reinforce_then_validate(game, [0] * 5 + [-99]),
            InvalidMove,
            "territory 5",
        ),
        r"the failing call changed the game: snapshot key 'troops' differs between before the "
        r"call and after the call: first difference at index \(5,\)",
    ),
    (
        BadInput("seed bumped", advance_then_refuse, InvalidParameter, "turns"),
        r"the game played on differently after the failing call",
    ),
    (
        BadInput("panics", panic, InvalidParameter, "territory"),
        r"raised Panic\(index out of bounds.*\), expected InvalidParameter",
    ),
    (
        BadInput("vague", vague_message, InvalidBoard, "territory 5"),
        r"message 'bad troops' does not contain 'territory 5'",
    ),
    (
        BadInput("zero turns", lambda game: game.advance(0), InvalidParameter, "turns"),
        r"did not raise \(expected InvalidParameter\)",
    ),
    (
        # Declared wrongly on purpose: the harness must refuse a non-StratagemError class.
        BadInput("plain", not_validated, ValueError, "territory 5"),  # type: ignore[arg-type]
        r"declares <class 'ValueError'>, which is not a StratagemError",
    ),
]


@pytest.mark.parametrize(
    ("bad", "message"),
    [pytest.param(bad, message, id=bad.label) for bad, message in PLANTED_BAD_INPUTS],
)
def test_planted_bad_input_is_caught(bad: BadInput[RingSkirmish], message: str) -> None:
    with pytest.raises(AssertionError, match=f"bad input '{bad.label}': {message}"):
        check_bad_input(OneBadInputAdapter(bad), CASE, SEED)


def test_empty_bad_inputs_are_caught() -> None:
    with pytest.raises(AssertionError, match=r"bad_inputs\(\) is empty"):
        check_bad_input(OneBadInputAdapter(), CASE, SEED)


def test_example_bad_inputs_pass_on_a_fresh_game() -> None:
    labels = [bad.label for bad in ADAPTER.bad_inputs(CASE)]
    assert len(labels) == len(set(labels)) >= 8
    check_bad_input(ADAPTER, CASE, SEED, turns_before=0)
    # At the start territory 5 holds 4 troops: the cap is checked on the sum, not the amount.
    game = ADAPTER.start(CASE, SEED, threads=1)
    with pytest.raises(InvalidMove, match=f"territory 5: reinforcing 4 troops with {MAX_TROOPS}"):
        game.reinforce([0, 0, 0, 0, 0, MAX_TROOPS])
    assert game.troops.tolist() == list(CASE.troops)


# --- snapshot comparison -----------------------------------------------------------------------


def differences() -> Iterator[tuple[Snapshot, Snapshot, str]]:
    ints = np.arange(6, dtype=np.int64)
    yield {"a": ints}, {"a": ints.astype(np.int32)}, r"'a' differs .*: dtype int64 != int32"
    yield {"a": ints}, {"a": ints.reshape(2, 3)}, r"shape \(6,\) != \(2, 3\)"
    changed = ints.reshape(2, 3).copy()
    changed[1, 2] = 50
    yield (
        {"a": ints.reshape(2, 3)},
        {"a": changed},
        r"first difference at index \(1, 2\): 5 != 50 \(1 of 6 elements differ\)",
    )
    yield {"a": np.array([0.0])}, {"a": np.array([-0.0])}, r"index \(0,\): 0.0 != -0.0"
    yield {"a": ints}, {"b": ints}, r"keys differ: \['a'\] only in left, \['b'\] only in right"
    yield {"t": 3}, {"t": np.int64(3)}, r"'t' differs .*: type int != int64"
    yield {"t": 3}, {"t": 4}, r"'t' differs between left and right: 3 != 4"
    yield {"x": 0.0}, {"x": -0.0}, r"'x' differs .*: 0.0 != -0.0"


@pytest.mark.parametrize(("left", "right", "message"), list(differences()))
def test_snapshot_differences_are_reported(left: Snapshot, right: Snapshot, message: str) -> None:
    with pytest.raises(AssertionError, match=message):
        assert_snapshots_equal(left, right, context="unit", labels=("left", "right"))


def test_equal_snapshots_pass() -> None:
    values = np.array([np.nan, 1.5, -2.0])
    assert_snapshots_equal(
        {"v": values, "turn": 2, "status": "won", "score": np.float64(0.5)},
        {"v": values.copy(), "turn": 2, "status": "won", "score": np.float64(0.5)},
        context="unit",
    )


def test_harness_imports_neither_pytest_nor_hypothesis() -> None:
    # Games import stratagem.testing from library code, where neither needs to be installed.
    code = (
        "import sys, stratagem.testing; print(sorted({'pytest', 'hypothesis'} & set(sys.modules)))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_random_case_depends_only_on_the_rng() -> None:
    first = [ADAPTER.random_case(random.Random(seed)) for seed in range(20)]
    assert first == [ADAPTER.random_case(random.Random(seed)) for seed in range(20)]
    assert all(2 <= len(case.team) == len(case.troops) <= 12 for case in first)
