"""Every registered game through the registry and the protocol alone: the registry's answers,
random play (same seed same trajectory, clone and save/load continue identically, bad actions
refused without change, outcome/winners/returns agree), the one save format, and each game's
own conformance adapter. A game registered later is checked here with no new test code."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stratagem import games, protocol, testing
from stratagem.errors import InvalidBoard, InvalidParameter

NAMES = [spec.name for spec in games.available()]


@pytest.fixture(scope="module")
def save_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("games")


def test_the_five_games_come_first() -> None:
    assert NAMES[:5] == ["annexation", "conquest", "outpost", "mastermind", "diplomacy"]
    for spec in games.available():
        assert spec.seats[0] <= spec.seats[1]
        assert spec.dynamics in ("alternating", "simultaneous", "single-agent", "one-shot")
        assert spec.chance in ("deterministic", "seeded")
        assert set(spec.quick) <= set(spec.defaults)
        assert Path(spec.docs).name.endswith(".md")


@pytest.mark.parametrize("name", NAMES)
def test_a_new_game_satisfies_the_protocol(name: str) -> None:
    spec = games.spec(name)
    game = spec.make(seed=1, **spec.quick)
    assert isinstance(game, protocol.Game)
    assert game.spec is spec
    assert spec.seats[0] <= game.seats <= spec.seats[1]
    assert dict(game.config) == {**spec.defaults_dict(), **spec.quick}
    assert (game.turn, game.is_over, game.outcome) == (0, False, "unfinished")
    assert game.winners == ()
    assert isinstance(game.render(), str)
    assert game.render()
    if spec.dynamics == "single-agent":
        assert game.to_move() == (0,)
    elif spec.dynamics == "alternating":
        assert len(game.to_move()) == 1


@pytest.mark.parametrize("name", NAMES)
@settings(deadline=None, max_examples=4)
@given(seed=st.integers(0, 2**64 - 1))
def test_random_play_through_the_protocol(save_dir: Path, name: str, seed: int) -> None:
    spec = games.spec(name)
    testing.check_protocol(lambda: spec.make(seed=seed, **spec.quick), seed, save_dir)


@pytest.mark.parametrize("name", NAMES)
def test_unknown_config_keys_are_named(name: str) -> None:
    with pytest.raises(InvalidParameter, match=r"unknown .* config key.*bogus.*accepted:"):
        games.make(name, bogus=1)


def test_unknown_games_are_named() -> None:
    with pytest.raises(InvalidParameter, match="unknown game 'chess'; available: annexation"):
        games.make("chess")


@pytest.mark.parametrize("name", NAMES)
def test_a_saved_game_is_refused_when_tampered(tmp_path: Path, name: str) -> None:
    spec = games.spec(name)
    game = spec.make(seed=2, **spec.quick)
    game.step({seat: int(game.legal_actions(seat)[0]) for seat in game.to_move()})
    path = tmp_path / "game.json"
    game.save(path)
    data = json.loads(path.read_text())
    assert (data["format"], data["version"], data["game"]) == ("stratagem.game", 1, name)
    assert protocol.load(path).turn == 1
    bad_action = dict(data, actions=[[[seat, -5] for seat, _ in data["actions"][0]]])
    path.write_text(json.dumps(bad_action))
    with pytest.raises(InvalidBoard, match=r"step 0: seat \d+: action -5 is not legal"):
        protocol.load(path)
    path.write_text(json.dumps(dict(data, version=99)))
    with pytest.raises(InvalidBoard, match="version 99 is not known"):
        protocol.load(path)
    path.write_text("{}")
    with pytest.raises(InvalidBoard, match="not a saved stratagem game"):
        protocol.load(path)
    with pytest.raises(InvalidParameter, match="no such file"):
        protocol.load(tmp_path / "missing.json")


@pytest.mark.parametrize("name", NAMES)
@settings(deadline=None, max_examples=3)
@given(data=st.data())
def test_the_game_passes_its_conformance_adapter(
    save_dir: Path, name: str, data: st.DataObject
) -> None:
    adapter = games.spec(name).conformance
    case = data.draw(adapter.cases(), label="case")
    seed = data.draw(testing.seeds(), label="seed")
    testing.check_conformance(adapter, case, seed, save_dir, turns=3)


# --- a game registered from outside, through the entry-point group ---------------------------


class _EntryPoint:
    name = "nim"

    def load(self) -> object:
        from third_party_game import SPEC

        return SPEC


@pytest.fixture
def nim_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    def entry_points(*, group: str) -> list[_EntryPoint]:
        return [_EntryPoint()] if group == games.ENTRY_POINT_GROUP else []

    monkeypatch.setattr(games.metadata, "entry_points", entry_points)
    monkeypatch.setattr(games, "_registry", None)


@pytest.mark.usefixtures("nim_registered")
def test_an_entry_point_game_joins_the_registry_the_cli_and_the_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from stratagem.cli import main

    assert [spec.name for spec in games.available()][-1] == "nim"
    game = games.make("nim", seed=3, heaps=[2, 3])
    assert isinstance(game, protocol.Game)
    testing.check_protocol(lambda: games.make("nim", seed=3, heaps=[2, 3]), 3, tmp_path)
    assert main(["nim", "play", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["outcome"] == "won"
    assert report["winners"] in ([0], [1])


def test_a_bad_entry_point_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    class Bad(_EntryPoint):
        name = "broken"

        def load(self) -> object:
            return 42

    monkeypatch.setattr(games.metadata, "entry_points", lambda *, group: [Bad()])
    monkeypatch.setattr(games, "_registry", None)
    with pytest.raises(InvalidParameter, match=r"entry point 'broken'.*gave int"):
        games.available()


@pytest.mark.parametrize("name", NAMES)
def test_threads_change_nothing_and_are_refused_where_a_game_has_one(name: str) -> None:
    spec = games.spec(name)
    if not spec.parallel:
        with pytest.raises(InvalidParameter, match=f"{name} plays on one thread"):
            games.make(name, threads=2, **spec.quick)
        return
    finals = []
    for threads in (1, 2):
        game = games.make(name, seed=8, threads=threads, **spec.quick)
        while not game.is_over:
            game.step({seat: testing.random_action(8, game, seat) for seat in game.to_move()})
        finals.append([game.observation(seat) for seat in range(game.seats)])
    for one, two in zip(*finals, strict=True):
        assert np.array_equal(one, two)
    with pytest.raises(InvalidParameter, match="threads"):
        games.make(name, threads=0, **spec.quick)


def test_the_game_length_is_max_turns_in_every_native_game() -> None:
    from stratagem.annexation import Game as AnnexationGame
    from stratagem.conquest import Game as ConquestGame
    from stratagem.outpost import Game as OutpostGame

    annexation = AnnexationGame("hex:3", max_turns=5)
    assert annexation.rules.max_moves == 5  # the rules' name for the same limit
    assert AnnexationGame("hex:3", max_moves=5).rules == annexation.rules
    with pytest.raises(InvalidParameter, match="same limit; give one"):
        AnnexationGame("hex:3", max_moves=5, max_turns=6)
    conquest = ConquestGame("grid:3x3", [0] * 5 + [1] * 4, 3, ["random", "random"], max_turns=7)
    assert conquest.max_turns == 7
    outpost = OutpostGame("open", max_turns=12)
    assert outpost.T == 12
    with pytest.raises(InvalidParameter, match="same length"):
        OutpostGame("open", T=10, max_turns=12)
    for spec in games.available()[:3]:
        assert "max_turns" in spec.defaults
