"""Outpost tournaments in one process: the fixtures (counts, order, seeds), the games against
``Game(...).run()``, threads and batches, Python players, checkpoints, the table's arithmetic
on a hand-made result, CSV and JSON, and the picture.

The MPI runs are in ``tests/mpi/test_outpost_mpi.py``.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from outpost_helpers import Wanderer
from stratagem import _core, rng
from stratagem.errors import InvalidBoard, InvalidParameter
from stratagem.mpi import SerialCommunicator
from stratagem.outpost import BUILTIN_PLAYERS, Game, Map
from stratagem.outpost.tournament import (
    TOURNAMENT_2014,
    Fixture,
    Params,
    TournamentResult,
    fixtures,
    tournament,
)
from stratagem.rng import oracle
from stratagem.stats import Z95

MAPS = ("lakes", "rivers", "mixed")
SHORT = Params(7, 12, 3, 40)


def played_alone(result: TournamentResult, maps: dict[str, Map], players: dict[str, Any]) -> Any:
    """Every fixture of ``result`` played on its own with Game.run: (land, water, outposts)."""
    counts = []
    for f in result.fixtures:
        game = Game(
            maps[f.map],
            *f.params,
            players=[players[label] for label in f.players],
            seed=f.seed,
            supply_fringe=f.supply_fringe,
            sequential_moves=f.sequential_moves,
            extra_turn=f.extra_turn,
        )
        outcome = game.run(progress=False)
        counts.append((outcome.land.tolist(), outcome.water.tolist(), outcome.outposts.tolist()))
    return counts


def counts_of(result: TournamentResult) -> Any:
    return [
        (result.land[i].tolist(), result.water[i].tolist(), result.outposts[i].tolist())
        for i in range(len(result))
    ]


# -- fixtures ---------------------------------------------------------------------------------


def test_the_2014_shape() -> None:
    assert TOURNAMENT_2014["maps"] == ("lakes", "rivers", "mixed")
    assert TOURNAMENT_2014["params"] == (Params(7, 12, 3, 4444), Params(7, 40, 10, 4444))
    assert Params() == Params(7, 12, 3, 4444)
    games = fixtures(**TOURNAMENT_2014)
    assert len(games) == 3 * 2 * 4


def test_four_players_cyclic_order_and_seeds() -> None:
    games = fixtures(MAPS, [SHORT, Params(7, 40, 10, 40)], BUILTIN_PLAYERS, seed=11)
    assert len(games) == 24
    assert [g.game for g in games] == list(range(24))
    # map-major, then parameters, then the rotations
    assert [g.map for g in games] == [m for m in MAPS for _ in range(8)]
    assert [g.map_index for g in games] == [i for i in range(3) for _ in range(8)]
    assert [g.params for g in games[:8]] == [SHORT] * 4 + [Params(7, 40, 10, 40)] * 4
    rotations = [tuple(BUILTIN_PLAYERS[(k + e) % 4] for e in range(4)) for k in range(4)]
    assert [g.players for g in games[:4]] == rotations
    assert [g.seats for g in games[:4]] == [(0, 1, 2, 3), (1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2)]
    # every player sits once in every seat of every (map, params)
    for start in range(0, 24, 4):
        for seat in range(4):
            assert sorted(g.seats[seat] for g in games[start : start + 4]) == [0, 1, 2, 3]
    # game i: word 0 of block 0 of stream (seed, "outpost.tournament", [i]), by the oracle too
    assert [g.seed for g in games] == [
        int(rng.blocks(11, "outpost.tournament", [i])[0, 0]) for i in range(24)
    ]
    assert [g.seed for g in games] == [
        oracle.Stream(11, "outpost.tournament", i).block(0)[0] for i in range(24)
    ]
    assert not any(g.supply_fringe or g.sequential_moves or g.extra_turn for g in games)


def test_fixtures_are_deterministic_and_follow_the_seed() -> None:
    first = fixtures(MAPS, [SHORT], BUILTIN_PLAYERS, seed=3)
    assert first == fixtures(MAPS, [SHORT], BUILTIN_PLAYERS, seed=3)
    other = fixtures(MAPS, [SHORT], BUILTIN_PLAYERS, seed=4)
    assert [g._replace(seed=0) for g in first] == [g._replace(seed=0) for g in other]
    assert {g.seed for g in first}.isdisjoint({g.seed for g in other})
    assert len({g.seed for g in first}) == len(first)


def test_all_rotations_and_repeats() -> None:
    games = fixtures(["lakes"], [SHORT], BUILTIN_PLAYERS, rotations="all", repeats=2)
    assert len(games) == 48
    seatings = [g.seats for g in games[::2]]
    assert len(set(seatings)) == 24
    assert seatings == sorted(seatings)  # lexicographic permutations of the positions
    # repeats are consecutive: the same seating with another seed
    assert all(games[i].seats == games[i + 1].seats for i in range(0, 48, 2))
    assert len({g.seed for g in games}) == 48


def test_more_than_four_players_play_every_group_in_every_rotation() -> None:
    players = (*BUILTIN_PLAYERS, "random")
    games = fixtures(["lakes", "rivers"], [SHORT], players)
    assert len(games) == 2 * 5 * 4
    assert games[4].players == ("random", "spread", "frontier", "random#2")  # group (0,1,2,4)
    groups = [tuple(sorted(g.seats)) for g in games[:20:4]]
    assert groups == [(0, 1, 2, 3), (0, 1, 2, 4), (0, 1, 3, 4), (0, 2, 3, 4), (1, 2, 3, 4)]
    per_seat = Counter((s, e) for g in games[:20] for e, s in enumerate(g.seats))
    assert set(per_seat.values()) == {4}  # each player 4 times in each seat
    assert len(fixtures(["lakes"], [SHORT], [*players, "spread"], rotations="all")) == 15 * 24


def test_fixtures_with_flags_and_python_players() -> None:
    games = fixtures(
        ["lakes"],
        Params(5, 10, 2, 30),
        ["spread", Wanderer(), Wanderer(), "random"],
        supply_fringe=True,
        extra_turn=True,
    )
    assert games[0].players == ("spread", "Wanderer", "Wanderer#2", "random")
    assert all(g.supply_fringe and g.extra_turn and not g.sequential_moves for g in games)
    assert games[0].params == Params(5, 10, 2, 30)
    assert fixtures(["lakes"], [{"T": 30}], BUILTIN_PLAYERS)[0].params == Params(T=30)
    assert fixtures(["lakes"], [(7, 12, 3, 30)], "random,spread,frontier,lookahead")[1].players == (
        "spread",
        "frontier",
        "lookahead",
        "random",
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": ["random", "spread", "frontier"]}, "at least 4 players"),
        ({"players": ["random", "spread", "frontier", "nobody"]}, "unknown built-in player"),
        ({"players": ["random", "spread", "frontier", 3]}, "neither a built-in name"),
        ({"rotations": "some"}, "rotations must be one of"),
        ({"repeats": 0}, "repeats must be at least 1"),
        ({"seed": -1}, "seed must be at least 0"),
        ({"params": [Params(T=-1)]}, "params[0].T must be at least 0"),
        ({"params": [Params(r=199)]}, "params[0].r must be at most 198"),
        ({"params": [(1, 2, 3, 4, 5)]}, "params[0] must be a Params"),
        ({"params": []}, "params must not be empty"),
        ({"maps": []}, "maps must not be empty"),
        ({"maps": [3]}, "maps[0] must be a Map"),
    ],
)
def test_bad_fixtures_are_refused(kwargs: dict[str, Any], message: str) -> None:
    args: dict[str, Any] = {"maps": ["lakes"], "params": [SHORT], "players": BUILTIN_PLAYERS}
    args.update(kwargs)
    with pytest.raises(InvalidParameter, match=re.escape(message)):
        fixtures(**args)


def test_bad_tournaments_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidParameter, match="no map"):
        tournament(["no-such-map"], [SHORT])
    with pytest.raises(InvalidParameter, match="threads must be at least 1"):
        tournament(["lakes"], [SHORT], threads=0)
    with pytest.raises(InvalidParameter, match="batch must be at least 1"):
        tournament(["lakes"], [SHORT], batch=0)
    with pytest.raises(InvalidParameter, match="does not exist"):
        tournament(["lakes"], [SHORT], checkpoint=tmp_path / "nowhere" / "c.json")


# -- playing ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def short_round() -> TournamentResult:
    """12 games of the built-in players on the three maps, T = 60, with the flags mixed."""
    return tournament(MAPS, [Params(7, 12, 3, 60)], threads=1, seed=5, sequential_moves=True)


def test_threads_and_batches_do_not_change_the_result(short_round: TournamentResult) -> None:
    args: dict[str, Any] = {"seed": 5, "sequential_moves": True}
    for threads, batch in ((2, None), (2, 1), (1, 5), (None, 3)):
        again = tournament(MAPS, [Params(7, 12, 3, 60)], threads=threads, batch=batch, **args)
        assert again == short_round, (threads, batch)
    serial = tournament(MAPS, [Params(7, 12, 3, 60)], comm=SerialCommunicator(), **args)
    assert serial == short_round


def test_every_game_equals_game_run(short_round: TournamentResult) -> None:
    assert len(short_round) == 12
    maps = {name: Map.named(name) for name in MAPS}
    assert counts_of(short_round) == played_alone(
        short_round, maps, {p: p for p in BUILTIN_PLAYERS}
    )
    assert short_round.fixtures == tuple(
        fixtures(MAPS, [Params(7, 12, 3, 60)], seed=5, sequential_moves=True)
    )
    assert short_round.players == BUILTIN_PLAYERS
    assert short_round.maps == MAPS
    assert short_round.scores.tolist() == (short_round.land + short_round.water).tolist()


def test_flags_reach_the_engine() -> None:
    games = [Params(6, 12, 3, 50)]
    plain = tournament(["rivers"], games, threads=2)
    flagged = tournament(["rivers"], games, threads=2, supply_fringe=True, extra_turn=True)
    maps = {"rivers": Map.named("rivers")}
    builtins = {p: p for p in BUILTIN_PLAYERS}
    assert counts_of(flagged) == played_alone(flagged, maps, builtins)
    assert counts_of(plain) == played_alone(plain, maps, builtins)


def test_a_python_player_in_a_tournament() -> None:
    players = ["random", "spread", Wanderer(), "frontier", "lookahead"]
    result = tournament(["lakes", Map.generate(4)], [Params(7, 12, 3, 30)], players, threads=2)
    assert len(result) == 2 * 5 * 4
    assert result.players == ("random", "spread", "Wanderer", "frontier", "lookahead")
    assert result.maps == ("lakes", "random:4")
    maps = {"lakes": Map.named("lakes"), "random:4": Map.generate(4)}
    labels = {"Wanderer": Wanderer(), **{p: p for p in BUILTIN_PLAYERS}}
    assert counts_of(result) == played_alone(result, maps, labels)
    # group (0, 1, 3, 4) of each map runs in the engine, the other games one by one
    assert [i for i, f in enumerate(result.fixtures) if 2 not in f.seats] == [
        *range(8, 12),
        *range(28, 32),
    ]
    rows = {row.player: row for row in result.table()}
    assert rows["Wanderer"].games == rows["random"].games == 32  # 16 per map
    assert sum(row.wins for row in result.table()) == pytest.approx(len(result))


# -- checkpoints ------------------------------------------------------------------------------


def test_an_interrupted_tournament_resumes_from_its_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "tournament.json"
    args: dict[str, Any] = {"maps": MAPS, "params": [Params(7, 12, 3, 50)], "seed": 8, "batch": 3}
    straight = tournament(**args, threads=2)
    engine = _core.outpost.tournament
    calls: list[int] = []

    def failing(*call: Any) -> Any:
        calls.append(len(call[1]))
        if len(calls) == 3:
            raise KeyboardInterrupt
        return engine(*call)

    monkeypatch.setattr(_core.outpost, "tournament", failing)
    with pytest.raises(KeyboardInterrupt):
        tournament(**args, threads=2, checkpoint=path)
    saved = json.loads(path.read_text())
    assert (len(saved["done"]), calls) == (6, [3, 3, 3])
    assert not path.with_name(path.name + ".partial").exists()

    calls.clear()
    resumed = tournament(**args, threads=1, checkpoint=path)
    assert calls == [3, 3]  # only the games still missing
    assert resumed == straight
    assert len(json.loads(path.read_text())["done"]) == 12

    # Everything is in the file now: nothing is played again.
    monkeypatch.setattr(_core.outpost, "tournament", None)
    assert tournament(**args, threads=2, checkpoint=path) == straight


def test_a_checkpoint_of_another_tournament_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    args: dict[str, Any] = {"maps": ["lakes"], "params": [Params(7, 12, 3, 20)], "seed": 1}
    done = tournament(**args, checkpoint=path)
    for changed, key in (
        ({"seed": 2}, "seed"),
        ({"params": [Params(7, 12, 3, 21)]}, "params"),
        ({"maps": ["rivers"]}, "maps"),
        ({"players": ["random", "spread", "lookahead", "frontier"]}, "players"),
        ({"rotations": "all"}, "rotations"),
        ({"extra_turn": True}, "flags"),
    ):
        with pytest.raises(InvalidParameter, match="checkpoint of another tournament") as caught:
            tournament(**{**args, **changed}, checkpoint=path)
        assert f"{key}: " in str(caught.value)
    # A Python player in place of a built-in one of the same name is another tournament too.
    named = Wanderer()
    named.name = "random"  # type: ignore[attr-defined]
    with pytest.raises(InvalidParameter, match="players"):
        tournament(
            **{**args, "players": [named, "spread", "frontier", "lookahead"]}, checkpoint=path
        )
    assert tournament(**args, checkpoint=path, batch=2) == done
    # Tampered results are refused, naming the game.
    good = path.read_text()
    saved = json.loads(good)
    saved["done"][1][1][0] = 10**6  # the land of seat 0 in game 1
    path.write_text(json.dumps(saved))
    with pytest.raises(InvalidParameter, match=r"fixture 1: counts .* outside 0\.\.10000"):
        tournament(**args, checkpoint=path)
    saved = json.loads(good)
    saved["done"][2][1][3] = -1
    path.write_text(json.dumps(saved))
    with pytest.raises(InvalidParameter, match=r"fixture 2: .* value outside 0\.\.2\^63-1"):
        tournament(**args, checkpoint=path)
    # Any games may be missing (not only the last ones): only those are played again.
    saved = json.loads(good)
    saved["done"] = saved["done"][1:]
    path.write_text(json.dumps(saved))
    assert tournament(**args, checkpoint=path) == done
    assert json.loads(path.read_text()) == json.loads(good)
    path.write_text("{not json")
    with pytest.raises(InvalidParameter, match="not a checkpoint"):
        tournament(**args, checkpoint=path)


def test_a_python_tournament_checkpoints_each_game(tmp_path: Path) -> None:
    path = tmp_path / "python.json"
    players = [Wanderer(), "spread", "frontier", "lookahead"]
    args: dict[str, Any] = {"maps": ["lakes"], "params": [Params(7, 12, 3, 20)], "players": players}
    straight = tournament(**args)
    assert tournament(**args, checkpoint=path) == straight
    saved = json.loads(path.read_text())
    saved["done"] = saved["done"][:1]
    path.write_text(json.dumps(saved))
    assert tournament(**args, checkpoint=path) == straight


# -- the table --------------------------------------------------------------------------------


def hand_made() -> TournamentResult:
    """Five players A..E, three games: a tie for the top in game 0 (B, C) and in game 1
    (B, E), a four-way tie in game 2; games 0 and 1 on map m0, game 2 on m1."""
    players = ("A", "B", "C", "D", "E")
    p0, p1 = Params(7, 12, 3, 10), Params(5, 12, 3, 10)
    games = [
        (0, "m0", 0, p0, (0, 1, 2, 3)),
        (1, "m0", 0, p1, (1, 2, 3, 4)),
        (2, "m1", 1, p0, (4, 0, 1, 2)),
    ]
    scores = np.array([[10, 20, 20, 5], [30, 10, 10, 30], [7, 7, 7, 7]])
    water = np.array([[4, 5, 6, 1], [0, 10, 3, 9], [7, 0, 1, 2]])
    return TournamentResult(
        players=players,
        maps=("m0", "m1"),
        fixtures=tuple(
            Fixture(g, m, mi, p, seats, tuple(players[s] for s in seats), 100 + g)
            for g, m, mi, p, seats in games
        ),
        land=scores - water,
        water=water,
        outposts=np.array([[1, 2, 3, 4], [5, 6, 7, 8], [1, 1, 1, 1]]),
    )


def wilson(wins: float, n: int) -> tuple[float, float]:
    p, z = wins / n, Z95
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (0.0 if wins == 0 else centre - half), (1.0 if wins == n else centre + half)


def test_the_table_of_a_hand_made_result() -> None:
    result = hand_made()
    assert result.placings.tolist() == [[3, 1, 1, 4], [1, 3, 3, 1], [1, 1, 1, 1]]
    assert result.win_shares.tolist() == [[0, 0.5, 0.5, 0], [0.5, 0, 0, 0.5], [0.25] * 4]
    rows = {row.player: row for row in result.table()}
    assert list(rows) == ["A", "B", "C", "D", "E"]
    expected = {
        # player: (scores, wins, ranks)
        "A": ([10, 7], 0.25, [3, 1]),
        "B": ([20, 30, 7], 1.25, [1, 1, 1]),
        "C": ([20, 10, 7], 0.75, [1, 3, 1]),
        "D": ([5, 10], 0.0, [4, 3]),
        "E": ([30, 7], 0.75, [1, 1]),
    }
    for player, (scores, wins, ranks) in expected.items():
        row = rows[player]
        n = len(scores)
        mean = sum(scores) / n
        s = math.sqrt(sum((x - mean) ** 2 for x in scores) / (n - 1))
        assert (row.games, row.wins, row.map, row.params) == (n, wins, None, None)
        assert row.mean_score == pytest.approx(mean)
        assert row.score_low == pytest.approx(mean - Z95 * s / math.sqrt(n))
        assert row.score_high == pytest.approx(mean + Z95 * s / math.sqrt(n))
        assert row.win_rate == pytest.approx(wins / n)
        assert (row.win_low, row.win_high) == pytest.approx(wilson(wins, n))
        assert row.mean_placing == pytest.approx(sum(ranks) / n)
    assert rows["A"].score_high - rows["A"].mean_score == pytest.approx(Z95 * 1.5)
    assert rows["D"].win_low == 0.0
    assert sum(row.wins for row in rows.values()) == 3


def test_the_table_by_map_and_params() -> None:
    result = hand_made()
    by_map = result.table(by="map")
    assert [(row.map, row.player) for row in by_map] == [("m0", p) for p in "ABCDE"] + [
        ("m1", p) for p in "ABCE"
    ]  # D did not play on m1
    single = next(row for row in by_map if (row.map, row.player) == ("m1", "B"))
    assert (single.games, single.wins, single.mean_score) == (1, 0.25, 7.0)
    assert math.isnan(single.score_low)
    assert math.isnan(single.score_high)
    both = result.table(by=("params", "map"))  # the order of by does not matter
    assert [(row.map, row.params, row.player) for row in both][:4] == [
        ("m0", Params(7, 12, 3, 10), "A"),
        ("m0", Params(7, 12, 3, 10), "B"),
        ("m0", Params(7, 12, 3, 10), "C"),
        ("m0", Params(7, 12, 3, 10), "D"),
    ]
    by_params = result.table("params")
    assert {(row.params, row.player): row.games for row in by_params} == {
        (Params(7, 12, 3, 10), "A"): 2,
        (Params(7, 12, 3, 10), "B"): 2,
        (Params(7, 12, 3, 10), "C"): 2,
        (Params(7, 12, 3, 10), "D"): 1,
        (Params(7, 12, 3, 10), "E"): 1,
        (Params(5, 12, 3, 10), "B"): 1,
        (Params(5, 12, 3, 10), "C"): 1,
        (Params(5, 12, 3, 10), "D"): 1,
        (Params(5, 12, 3, 10), "E"): 1,
    }
    assert both[0].to_row() == {
        "map": "m0",
        "r": 7,
        "L": 12,
        "W": 3,
        "T": 10,
        **{k: v for k, v in by_map[0].to_row().items() if k != "map"},
    }
    with pytest.raises(InvalidParameter, match="by must name groups"):
        result.table(by="seat")


def test_the_text_table() -> None:
    text = hand_made().format_table()
    lines = text.splitlines()
    assert len(lines) == 6
    assert lines[0].split()[:4] == ["player", "games", "mean", "score"]
    assert lines[2].split()[:3] == ["B", "3", "19.0"]
    assert "1.25" in lines[2]
    assert str(hand_made()) == text
    grouped = hand_made().format_table(by=("map", "params")).splitlines()
    assert grouped[0].split()[:3] == ["map", "params", "player"]
    assert grouped[1].startswith("m0   r=7 L=12 W=3 T=10")
    assert " - .. - " in hand_made().format_table(by="map").splitlines()[-1]


# -- files ------------------------------------------------------------------------------------


def test_csv_and_json_round_trips(tmp_path: Path, short_round: TournamentResult) -> None:
    python = tournament(
        ["lakes"], [Params(7, 12, 3, 20)], [Wanderer(), "random", "spread", "frontier", "random"]
    )
    for result in (hand_made(), short_round, python):
        assert TournamentResult.from_json(result.to_json()) == result
        assert TournamentResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result
        result.to_csv(tmp_path / "games.csv")
        assert TournamentResult.from_csv(tmp_path / "games.csv") == result
        result.to_json(tmp_path / "games.json", indent=1)
        assert TournamentResult.load(tmp_path / "games.json") == result
        assert TournamentResult.load(tmp_path / "games.csv") == result
    assert hand_made() != short_round


def test_the_csv_columns(short_round: TournamentResult) -> None:
    lines = short_round.to_csv().splitlines()
    assert len(lines) == 13
    head = lines[0].split(",")
    assert head[:10] == [
        "game", "map", "r", "L", "W", "T",
        "supply_fringe", "sequential_moves", "extra_turn", "seed",
    ]  # fmt: skip
    assert head[10:18] == [f"player{e}" for e in range(4)] + [f"score{e}" for e in range(4)]
    first = dict(zip(head, lines[1].split(","), strict=True))
    f = short_round.fixtures[0]
    assert (first["map"], first["T"], first["sequential_moves"]) == ("lakes", "60", "1")
    assert int(first["seed"]) == f.seed
    assert [first[f"player{e}"] for e in range(4)] == list(f.players)
    assert [int(first[f"score{e}"]) for e in range(4)] == short_round.scores[0].tolist()


def test_the_json_holds_every_game_and_the_table(short_round: TournamentResult) -> None:
    data = json.loads(short_round.to_json())
    assert data["format"] == "stratagem.outpost.tournament"
    assert len(data["games"]) == 12
    game = data["games"][3]
    assert game["players"] == list(short_round.fixtures[3].players)
    assert game["scores"] == short_round.scores[3].tolist()
    assert [row["player"] for row in data["table"]] == list(BUILTIN_PLAYERS)
    with pytest.raises(InvalidBoard, match="not an outpost tournament result"):
        TournamentResult.from_json('{"format": "other"}')
    with pytest.raises(InvalidParameter, match="must have shape"):
        TournamentResult(("a",) * 4, ("m",), short_round.fixtures[:1], *[np.zeros((2, 4))] * 3)


def test_plot_writes_a_png(tmp_path: Path, short_round: TournamentResult) -> None:
    pytest.importorskip("matplotlib")
    two = tournament(["lakes"], [Params(7, 12, 3, 20), Params(7, 40, 10, 20)], threads=2)
    for name, result in (("one.png", short_round), ("two.png", two), ("hand.png", hand_made())):
        result.plot(tmp_path / name)
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_builtin_players_leave_their_start_on_the_2014_lakes_with_costly_outposts():
    # The 2014 preset's lakes with r=7, L=40, W=10: each home is walled in by a lake, every
    # step of the one outpost loses cells, and the 51 cells it holds pay for no second one.
    # Stranded empires walk to a site (a diamond of 40 land and 10 water cells) instead.
    result = tournament(maps=["lakes"], params=[Params(7, 40, 10, 4444)], threads=1)
    start = 51  # the cells the home outpost holds: 21 land and 30 water
    scores = result.scores
    totals = Counter[str]()
    for fixture, row in zip(result.fixtures, scores, strict=True):
        for seat, player in zip(fixture.seats, row, strict=True):
            name = result.players[seat]
            totals[name] += int(player)
            if name != "random":
                assert player > start, f"{name} stalled in game {fixture.game}"
    assert all(totals[name] > totals["random"] for name in BUILTIN_PLAYERS if name != "random")
