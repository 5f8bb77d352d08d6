"""The Diplomacy map: the shipped standard map (counts, coasts, known moves), the file format's
checks (every error names its line and the problem), the canonical text, the arrays and graphs,
and a cross-check of every province, centre, home, coast and move against the independent PyPI
package ``diplomacy`` where it is installed (``docs/diplomacy-map.md``)."""

from __future__ import annotations

import copy
import itertools
import pickle
import re
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

from stratagem.diplomacy.map import Map, parse_map
from stratagem.errors import InvalidBoard, InvalidParameter


@pytest.fixture(scope="module")
def standard() -> Map:
    return Map.standard()


def shipped_text() -> str:
    return resources.files("stratagem.diplomacy").joinpath("maps/standard.map").read_text("utf-8")


# ---------------------------------------------------------------------- the standard map


def test_counts(standard: Map) -> None:
    assert standard.name == "standard"
    assert standard.powers == ("AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR")
    assert standard.power_names == (
        "Austria",
        "England",
        "France",
        "Germany",
        "Italy",
        "Russia",
        "Turkey",
    )
    assert len(standard.provinces) == len(set(standard.provinces)) == 75
    assert Counter(standard.kind) == {"land": 14, "coast": 42, "sea": 19}
    assert len(standard.names) == 75
    assert len(standard.centres) == 34
    assert {p: len(h) for p, h in standard.homes.items()} == {
        "AUS": 3,
        "ENG": 3,
        "FRA": 3,
        "GER": 3,
        "ITA": 3,
        "RUS": 4,
        "TUR": 3,
    }
    homes = [c for h in standard.homes.values() for c in h]
    assert len(homes) == len(set(homes)) == 22
    assert set(homes) <= set(standard.centres)
    assert sum(owner is not None for owner in standard.home_of.values()) == 22
    neutral = set(standard.centres) - set(homes)
    assert neutral == {
        "BEL",
        "BUL",
        "DEN",
        "GRE",
        "HOL",
        "NWY",
        "POR",
        "RUM",
        "SER",
        "SPA",
        "SWE",
        "TUN",
    }


def test_homes_and_names(standard: Map) -> None:
    assert standard.homes == {
        "AUS": ("BUD", "TRI", "VIE"),
        "ENG": ("EDI", "LON", "LVP"),
        "FRA": ("BRE", "MAR", "PAR"),
        "GER": ("BER", "KIE", "MUN"),
        "ITA": ("NAP", "ROM", "VEN"),
        "RUS": ("MOS", "SEV", "STP", "WAR"),
        "TUR": ("ANK", "CON", "SMY"),
    }
    assert standard.home_of["STP"] == "RUS"
    assert standard.home_of["BEL"] is None
    assert standard.home_of["NTH"] is None
    i = standard.index("STP")
    assert (standard.names[i], standard.kind[i]) == ("St Petersburg", "coast")
    assert standard.kind[standard.index("MUN")] == "land"
    assert standard.kind[standard.index("LYO")] == "sea"
    assert "SWI" not in standard.provinces  # impassable Switzerland is no province


def test_coasts(standard: Map) -> None:
    assert dict(standard.coasts) == {
        "BUL": ("EC", "SC"),
        "SPA": ("NC", "SC"),
        "STP": ("NC", "SC"),
    }
    for province in standard.coasts:
        assert standard.kind[standard.index(province)] == "coast"
        assert province in standard.centres


def test_locations(standard: Map) -> None:
    army = standard.army_locations()
    fleet = standard.fleet_locations()
    assert len(army) == 56
    assert army == tuple(
        p for p, k in zip(standard.provinces, standard.kind, strict=True) if k != "sea"
    )
    assert len(fleet) == 19 + 42 - 3 + 6
    assert "STP" not in fleet
    assert fleet[fleet.index("STP/NC") + 1] == "STP/SC"
    assert fleet.index("SPA/SC") < fleet.index("STP/NC")  # province file order
    assert not set(fleet) & {"MUN", "BOH", "PAR"}
    assert standard.province_of("STP/NC") == "STP"
    assert standard.province_of("MUN") == "MUN"
    assert standard.kind_of("BUL/EC") == "coast"
    for bad in ("XYZ", "STP/EC", "MUN/NC", "stp"):
        with pytest.raises(InvalidParameter, match="unknown location"):
            standard.province_of(bad)


@pytest.mark.parametrize(
    ("unit", "a", "b", "adjacent"),
    [
        ("F", "STP/NC", "BAR", True),
        ("F", "STP/SC", "BAR", False),
        ("F", "STP/SC", "BOT", True),
        ("F", "STP/NC", "NWY", True),
        ("F", "STP/SC", "FIN", True),
        ("F", "STP/SC", "LVN", True),
        ("A", "MUN", "BOH", True),
        ("A", "MUN", "VIE", False),
        ("F", "KIE", "BAL", True),
        ("F", "KIE", "HEL", True),
        ("F", "CON", "BLA", True),
        ("F", "CON", "AEG", True),
        ("F", "CON", "BUL/EC", True),
        ("F", "CON", "BUL/SC", True),
        ("F", "BUL/EC", "BLA", True),
        ("F", "BUL/EC", "AEG", False),
        ("F", "BUL/SC", "AEG", True),
        ("F", "SPA/NC", "MAO", True),
        ("F", "SPA/SC", "MAO", True),
        ("F", "SPA/NC", "LYO", False),
        ("F", "SPA/SC", "WES", True),
        ("F", "SPA/NC", "POR", True),
        ("F", "SPA/NC", "GAS", True),
        ("F", "SPA/SC", "GAS", False),
        ("A", "ANK", "SMY", True),
        ("F", "ANK", "SMY", False),
        ("A", "EDI", "LVP", True),
        ("F", "EDI", "LVP", False),
        ("A", "FIN", "NWY", True),
        ("F", "FIN", "NWY", False),
        ("A", "ARM", "SYR", True),
        ("F", "ARM", "SYR", False),
        ("A", "DEN", "SWE", True),
        ("F", "DEN", "SWE", True),
        ("A", "BUR", "MAR", True),
        ("A", "MAR", "PIE", True),
        ("A", "BUR", "TYR", False),
        ("A", "LON", "BEL", False),
        ("F", "NAF", "TUN", True),
        ("F", "ION", "ADR", True),
        ("F", "ION", "LYO", False),
        ("F", "NTH", "NWG", True),
        ("F", "NAO", "NWG", True),
        ("F", "NAO", "ENG", False),
    ],
)
def test_known_adjacency(standard: Map, unit: str, a: str, b: str, adjacent: bool) -> None:
    neighbours = standard.army_neighbours if unit == "A" else standard.fleet_neighbours
    assert (b in neighbours(a)) is adjacent
    assert (a in neighbours(b)) is adjacent


def test_adjacency_symmetric_and_sorted(standard: Map) -> None:
    for locations, neighbours in (
        (standard.army_locations(), standard.army_neighbours),
        (standard.fleet_locations(), standard.fleet_neighbours),
    ):
        for a in locations:
            assert list(neighbours(a)) == sorted(set(neighbours(a)))
            assert neighbours(a), a
            for b in neighbours(a):
                assert b in locations
                assert a in neighbours(b), (a, b)
                assert standard.province_of(a) != standard.province_of(b)
    edges = sum(len(standard.army_neighbours(a)) for a in standard.army_locations()) // 2
    assert edges == 111
    edges = sum(len(standard.fleet_neighbours(a)) for a in standard.fleet_locations()) // 2
    assert edges == 141


def test_neighbour_errors(standard: Map) -> None:
    with pytest.raises(InvalidParameter, match=r"'STP' is not a fleet location.*STP/NC or STP/SC"):
        standard.fleet_neighbours("STP")
    with pytest.raises(InvalidParameter, match="'MUN' is not a fleet location"):
        standard.fleet_neighbours("MUN")
    with pytest.raises(InvalidParameter, match="'NTH' is not an army location"):
        standard.army_neighbours("NTH")
    with pytest.raises(InvalidParameter, match="'STP/NC' is not an army location"):
        standard.army_neighbours("STP/NC")


def test_build_options(standard: Map) -> None:
    assert standard.build_options("MUN") == ("A",)
    assert standard.build_options("KIE") == ("A", "F")
    assert standard.build_options("STP") == ("A", "F/NC", "F/SC")
    expected = {"land": 1, "coast": 2}
    for power, homes in standard.homes.items():
        for home in homes:
            options = standard.build_options(home)
            if home not in standard.coasts:
                assert len(options) == expected[standard.kind[standard.index(home)]], power
    with pytest.raises(InvalidParameter, match="at sea"):
        standard.build_options("NTH")
    with pytest.raises(InvalidParameter, match="unknown province"):
        standard.build_options("XYZ")


def test_coordinates(standard: Map) -> None:
    expected = set(standard.provinces) | {
        f"{p}/{c}" for p, coasts in standard.coasts.items() for c in coasts
    }
    assert set(standard.xy) == expected
    for x, y in standard.xy.values():
        assert 0.0 <= x <= 1.0
        assert 0.0 <= y <= 1.0
    xy = standard.xy
    assert xy["NAO"][0] < xy["LON"][0] < xy["BER"][0] < xy["MOS"][0]  # west to east
    assert xy["BAR"][1] < xy["NWY"][1] < xy["DEN"][1] < xy["MUN"][1] < xy["TUN"][1]  # N to S
    assert xy["STP/NC"][1] < xy["STP/SC"][1]
    assert xy["SPA/NC"][1] < xy["SPA/SC"][1]
    assert xy["BUL/SC"][1] > xy["BUL/EC"][1]
    assert xy["BUL/EC"][0] > xy["BUL/SC"][0]
    assert len(set(xy.values())) == len(xy)  # no two nodes on the same spot


def test_shipped_file_writes_every_move_from_both_ends() -> None:
    # The loader makes adjacency symmetric; the shipped file lists every location's complete
    # neighbour list, so a move written from one end only is a typo this test catches.
    declared: dict[str, set[tuple[str, str]]] = {"army": set(), "fleet": set()}
    for raw in shipped_text().splitlines():
        words = raw.split("#", 1)[0].split()
        if words and words[0] in declared:
            declared[words[0]] |= {(words[1], other) for other in words[2:]}
    for keyword, pairs in declared.items():
        one_way = sorted(p for p in pairs if (p[1], p[0]) not in pairs)
        assert not one_way, (keyword, one_way)


def test_standard_is_cached_and_immutable(standard: Map) -> None:
    assert Map.standard() is standard
    with pytest.raises(AttributeError, match="immutable"):
        standard.name = "other"
    with pytest.raises(TypeError):
        Map()
    with pytest.raises(TypeError):
        standard.homes["AUS"] = ()  # type: ignore[index]


# ---------------------------------------------------------------------- text and equality


def test_text_round_trip(standard: Map) -> None:
    text = standard.text()
    again = Map.parse(text)
    assert again == standard
    assert hash(again) == hash(standard)
    assert again.text() == text
    assert again.provinces == standard.provinces
    assert again.xy == standard.xy
    assert parse_map(shipped_text()) == standard
    # the canonical text writes each move once
    moves = [line.split() for line in text.splitlines() if line.startswith(("army", "fleet"))]
    assert sum(len(words) - 2 for words in moves if words[0] == "army") == 111
    assert sum(len(words) - 2 for words in moves if words[0] == "fleet") == 141


def test_pickle_and_copy(standard: Map) -> None:
    for again in (pickle.loads(pickle.dumps(standard)), copy.deepcopy(standard)):
        assert again == standard
        assert again.fleet_neighbours("STP/NC") == ("BAR", "NWY")


def test_load(standard: Map, tmp_path: Path) -> None:
    path = tmp_path / "copy.map"
    path.write_text(standard.text(), encoding="utf-8")
    assert Map.load(path) == standard
    path.write_text(standard.text().replace("army MUN", "army MUN NTH"), encoding="utf-8")
    with pytest.raises(InvalidBoard, match=r"copy\.map: line \d+: army adjacency touches"):
        Map.load(path)


def test_changed_map_differs(standard: Map) -> None:
    text = standard.text()
    assert Map.parse(text.replace("map standard", "map other")) != standard
    assert Map.parse(text.replace("Austria", "Austria-Hungary")) != standard
    assert Map.parse(text + "army MUN BUD\n") != standard
    assert standard != "standard"


MINI = """\
map mini
power A Aland
power B Bland
province X land A 0.1 0.1 Ex Land
province Y coast B 0.2 0.2 Why
province Z coast sc 0.3 0.3 Zed
province S sea - 0.4 0.4 The Sea
province T coast - 0.5 0.5 Two Coasts
coast T NC 0.5 0.4
coast T SC 0.5 0.6
army X Y Z T
fleet S Y Z T/NC
fleet Y Z
"""
MINI_LINES = MINI.count("\n")


def test_small_map() -> None:
    m = Map.parse(MINI)
    assert m.provinces == ("X", "Y", "Z", "S", "T")
    assert m.centres == ("X", "Y", "Z")
    assert m.homes == {"A": ("X",), "B": ("Y",)}
    assert m.army_locations() == ("X", "Y", "Z", "T")
    assert m.fleet_locations() == ("Y", "Z", "S", "T/NC", "T/SC")
    assert m.fleet_neighbours("T/SC") == ()
    assert m.army_neighbours("T") == ("X",)
    assert m.build_options("T") == ("A", "F/NC", "F/SC")
    assert Map.parse(m.text()) == m


def test_order_of_lines_is_free() -> None:
    # declarations may come after the lines that use them (only the order of the powers, of
    # the provinces and of each province's coasts matters); comments and spacing do not matter
    lines = MINI.splitlines()
    moves = [x for x in lines if x.startswith(("army", "fleet"))]
    coasts = [x for x in lines if x.startswith("coast")]
    rest = [x for x in lines if x not in moves and x not in coasts]
    shuffled = [*reversed(moves), *coasts, "", "   # a comment", *rest]
    assert Map.parse("\n".join(shuffled)) == Map.parse(MINI)
    swapped = [*reversed(moves), *reversed(coasts), *rest]
    assert Map.parse("\n".join(swapped)) != Map.parse(MINI)  # coasts T/SC, T/NC now
    spaced = MINI.replace("army X Y Z T", "  army\tX  Y Z T   # armies")
    assert Map.parse(spaced) == Map.parse(MINI)


def test_arrays(standard: Map) -> None:
    kind = standard.kind_codes()
    assert kind.dtype == np.int64
    assert kind.shape == (75,)
    assert np.bincount(kind).tolist() == [14, 42, 19]
    home = standard.home_codes()
    assert home.dtype == np.int64
    assert np.bincount(home[home >= 0]).tolist() == [3, 3, 3, 3, 3, 4, 3]
    assert home[standard.index("STP")] == standard.powers.index("RUS")
    mask = standard.centre_mask()
    assert mask.dtype == np.bool_
    assert int(mask.sum()) == 34
    assert tuple(np.asarray(standard.provinces)[mask]) == standard.centres
    assert (home[~mask] == -1).all()
    for array in (kind, home, mask, *standard.army_csr(), *standard.fleet_csr()):
        assert not array.flags.writeable
    for locations, (offsets, targets), neighbours in (
        (standard.army_locations(), standard.army_csr(), standard.army_neighbours),
        (standard.fleet_locations(), standard.fleet_csr(), standard.fleet_neighbours),
    ):
        assert offsets.dtype == targets.dtype == np.int64
        assert offsets.shape == (len(locations) + 1,)
        assert offsets[0] == 0
        assert offsets[-1] == len(targets)
        for i, loc in enumerate(locations):
            row = targets[offsets[i] : offsets[i + 1]]
            assert list(row) == sorted(row)
            assert sorted(locations[j] for j in row) == list(neighbours(loc))
    province = standard.fleet_location_province()
    assert province.dtype == np.int64
    fleet = standard.fleet_locations()
    assert [standard.provinces[i] for i in province] == [standard.province_of(f) for f in fleet]
    army_province = standard.army_location_province()
    assert [standard.provinces[i] for i in army_province] == list(standard.army_locations())


def test_graphs(standard: Map) -> None:
    nx = pytest.importorskip("networkx")
    army = standard.army_graph()
    fleet = standard.fleet_graph()
    assert list(army.nodes) == list(standard.army_locations())
    assert list(fleet.nodes) == list(standard.fleet_locations())
    assert army.number_of_edges() == 111
    assert fleet.number_of_edges() == 141
    for graph, neighbours in ((army, standard.army_neighbours), (fleet, standard.fleet_neighbours)):
        for node in graph.nodes:
            assert tuple(sorted(graph.neighbors(node))) == neighbours(node)
    assert fleet.nodes["STP/NC"] == {"province": "STP", "kind": "coast", "pos": (0.77, 0.08)}
    # armies: the continent, Britain and North Africa (NAF, TUN); fleets: one sea-lane network
    components = sorted(sorted(c) for c in nx.connected_components(army))
    assert sorted(len(c) for c in components) == [2, 6, 48]
    assert ["NAF", "TUN"] in components
    assert nx.is_connected(fleet)


# ---------------------------------------------------------------------- the format's checks


def replace_line(number: int, new: str | None) -> str:
    """MINI with line ``number`` (from 1) replaced (or removed when ``new`` is None)."""
    lines = MINI.splitlines()
    lines[number - 1 : number] = [] if new is None else [new]
    return "\n".join(lines) + "\n"


def add(line: str) -> str:
    return MINI + line + "\n"


END = MINI_LINES + 1  # the number of a line added at the end


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("provence Q land - 0.1 0.1 Q", r"unknown keyword 'provence'"),
        ("Army X Y", r"unknown keyword 'Army'"),
        ("power C", r"wrong number of fields .*'power"),
        ("province Q land - 0.1 0.1", r"wrong number of fields"),
        ("coast T EC 0.5", r"wrong number of fields"),
        ("coast T EC 0.5 0.5 0.5", r"wrong number of fields"),
        ("army X", r"wrong number of fields .*'army <A> <B>"),
        ("fleet S", r"wrong number of fields .*'fleet <A> <B>"),
        ("map again", r"duplicate map line .*line 1"),
        ("power A Again", r"duplicate power A .*line 2"),
        ("province Z land - 0.1 0.1 Z", r"duplicate province Z"),
        ("coast T NC 0.1 0.1", r"duplicate coast T/NC .*line 9"),
        ("power sc Sea", r"power code 'sc' is reserved"),
        ("power C/D Cland", r"power code 'C/D' must be letters"),
        ("province Q/R land - 0.1 0.1 Q", r"province abbrev"),
        ("army X Q", r"unknown province 'Q' in an army adj"),
        ("army Q X", r"unknown province 'Q' in an army adj"),
        ("fleet S Q", r"unknown province 'Q' in a fleet adj"),
        ("fleet Q/NC S", r"unknown province 'Q' in a fleet adj"),
        ("coast Q NC 0.1 0.1", r"coast of unknown province 'Q'"),
        ("province Q land C 0.1 0.1 Q", r"unknown power 'C'"),
        ("province Q land a 0.1 0.1 Q", r"unknown power 'a'"),
        ("fleet S T/EC", r"unknown coast 'T/EC'.*T has NC, SC"),
        ("province Q hill - 0.1 0.1 Q", r"bad province type 'hill'"),
        ("province Q Land - 0.1 0.1 Q", r"bad province type 'Land'"),
        ("province Q land - abc 0.1 Q", r"x coordinate 'abc' of Q is not a num"),
        ("province Q land - 0.1 1.5 Q", r"y coordinate 1.5 of Q is not in \["),
        ("province Q land - -0.1 0.5 Q", r"x coordinate -0.1 of Q"),
        ("province Q land - nan 0.5 Q", r"x coordinate nan of Q"),
        ("province Q land - 0.5 inf Q", r"y coordinate inf of Q"),
        ("coast T EC 2 0.5", r"x coordinate 2 of T/EC is not in"),
        ("coast T EC 0.5 y", r"y coordinate 'y' of T/EC"),
        (
            "coast X NC 0.1 0.1\ncoast X SC 0.1 0.2",
            r"coast declared on X, a land province, not coast",
        ),
        ("coast S NC 0.1 0.1\ncoast S SC 0.1 0.2", r"coast declared on S, a sea province"),
        ("coast Y NC 0.1 0.1", r"Y has one named coast"),
        ("army X S", r"army adjacency touches the sea S"),
        ("army S X", r"army adjacency touches the sea S"),
        ("army X T/NC", r"army adjacency names the coast 'T/NC'"),
        ("fleet S X", r"fleet adjacency touches the inland prov"),
        ("fleet X Y", r"fleet adjacency touches the inland prov"),
        ("fleet S T", r"fleet adjacency names the bicoastal T without its co"),
        ("fleet S Y/NC", r"fleet adjacency gives a coast to Y, wh"),
        ("fleet S S/NC", r"fleet adjacency gives a coast to S"),
        ("army X X", r"self-loop: army adjacency joins X to X"),
        ("army X Y Z X", r"self-loop"),
        ("fleet S S", r"self-loop: fleet adjacency joins S to S"),
        ("fleet T/NC T/SC", r"self-loop: .*T/NC to T/SC"),
        ("army X Y Y", r"Y is listed twice"),
        ("province Q sea sc 0.1 0.1 Q", r"the sea Q cannot be a sup"),
        ("province Q sea A 0.1 0.1 Q", r"the sea Q cannot be a sup"),
        ("power C Cland", r"power C has no home centre"),
    ],
)
def test_invalid_line(line: str, message: str) -> None:
    """MINI with ``line`` added at its end: the message names the added line."""
    with pytest.raises(InvalidBoard, match=rf"line {END}: {message}"):
        Map.parse(add(line))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (replace_line(1, "map mini two"), r"line 1: wrong number of fields \(3\)"),
        (replace_line(1, "map"), r"line 1: wrong number of fields .*'map <name>'"),
        (replace_line(10, None), r"line 9: T has one named coast"),
        (replace_line(1, None), r"^no 'map <name>' line"),
        (replace_line(1, "# map mini"), r"^no 'map <name>' line"),
        ("map empty\nprovince X land - 0.5 0.5 X\n", r"^no power declared: a map needs at least"),
        ("", r"^no 'map <name>' line"),
    ],
)
def test_invalid(text: str, message: str) -> None:
    with pytest.raises(InvalidBoard, match=message):
        Map.parse(text)


def test_invalid_names_the_source() -> None:
    with pytest.raises(InvalidBoard, match=r"^my\.map: line 14: unknown keyword"):
        Map.parse(add("nonsense"), source="my.map")
    with pytest.raises(InvalidBoard, match=r"^my\.map: no power declared"):
        Map.parse("map x\n", source="my.map")


def test_every_line_of_the_standard_map_is_checked(standard: Map) -> None:
    # Spot checks that the real file's mistakes would be caught: a typo in a province, a coast
    # left off, a sea given to an army.
    text = standard.text()
    with pytest.raises(InvalidBoard, match="unknown province 'MUM'"):
        Map.parse(text.replace("army BER KIE MUN", "army BER KIE MUM"))
    with pytest.raises(InvalidBoard, match="bicoastal STP without its coast"):
        Map.parse(text.replace("STP/NC", "STP", 1))
    with pytest.raises(InvalidBoard, match="power RUS has no home centre"):
        Map.parse(re.sub(r"(province \w+ \w+) RUS ", r"\1 sc ", text))


# ---------------------------------------------------------------------- the reference engine


@pytest.fixture(scope="module")
def reference() -> Any:
    """The standard map of the PyPI package ``diplomacy``; the tests using it skip without it."""
    diplomacy = pytest.importorskip("diplomacy")
    return diplomacy.Game().map


class TestAgainstDiplomacyPackage:
    """Everything in the standard map against ``diplomacy.Game().map`` (the PyPI package).

    Normalisation of the package's names: it spells the three bicoastal provinces as a whole
    in lowercase ('stp', 'spa', 'bul') and their coasts in uppercase ('STP/NC'), so locations
    are compared uppercased. It has a location 'SWI' (Switzerland) of type 'SHUT' that no unit
    may enter; under the standard rules Switzerland is impassable and not a province, so SWI is
    dropped. Its types 'WATER', 'COAST', 'LAND' are our 'sea', 'coast', 'land'. Its powers are
    named in capitals ('AUSTRIA'); ours are codes with names ('AUS', 'Austria'). Its
    ``abuts(unit, a, '-', b)`` answers whether a unit may move from ``a`` to ``b`` in one
    step (lowercase neighbours in its file are army-only moves, which ``abuts`` honours);
    every ordered pair of our army and of our fleet locations is asked, so both directions
    of every move and every non-move are compared.
    """

    KINDS: ClassVar[dict[str, str]] = {"WATER": "sea", "COAST": "coast", "LAND": "land"}

    def test_switzerland_is_impassable_there_and_absent_here(
        self, reference: Any, standard: Map
    ) -> None:
        assert reference.loc_type["SWI"] == "SHUT"
        assert "SWI" not in standard.provinces
        for neighbour in ("MAR", "BUR", "MUN", "TYR", "PIE"):
            assert not reference.abuts("A", neighbour, "-", "SWI")

    def test_provinces_and_kinds(self, reference: Any, standard: Map) -> None:
        theirs = {
            loc.upper(): self.KINDS[reference.loc_type[loc]]
            for loc in reference.locs
            if "/" not in loc and reference.loc_type[loc] != "SHUT"
        }
        assert theirs == dict(zip(standard.provinces, standard.kind, strict=True))

    def test_centres_and_homes(self, reference: Any, standard: Map) -> None:
        assert sorted(reference.scs) == sorted(standard.centres)
        names = {
            name.upper(): code
            for code, name in zip(standard.powers, standard.power_names, strict=True)
        }
        assert set(reference.homes) == set(names)
        for power, homes in reference.homes.items():
            assert sorted(homes) == sorted(standard.homes[names[power]]), power

    def test_coasts(self, reference: Any, standard: Map) -> None:
        theirs: dict[str, list[str]] = {}
        for loc in reference.locs:
            if "/" in loc:
                province, coast = loc.upper().split("/")
                theirs.setdefault(province, []).append(coast)
        assert {p: sorted(c) for p, c in theirs.items()} == {
            p: sorted(c) for p, c in standard.coasts.items()
        }
        for province, coasts in standard.coasts.items():
            expected = {f"{province}/{c}" for c in coasts} | {province}
            assert {loc.upper() for loc in reference.loc_coasts[province]} == expected

    def test_locations(self, reference: Any, standard: Map) -> None:
        bicoastal = set(standard.coasts)
        army = {
            loc.upper()
            for loc in reference.locs
            if "/" not in loc and reference.loc_type[loc] in ("LAND", "COAST")
        }
        fleet = {
            loc.upper()
            for loc in reference.locs
            if reference.loc_type[loc] in ("WATER", "COAST") and loc.upper() not in bicoastal
        }
        assert army == set(standard.army_locations())
        assert fleet == set(standard.fleet_locations())

    @pytest.mark.parametrize("unit", ["A", "F"])
    def test_every_move(self, reference: Any, standard: Map, unit: str) -> None:
        if unit == "A":
            locations, neighbours = standard.army_locations(), standard.army_neighbours
        else:
            locations, neighbours = standard.fleet_locations(), standard.fleet_neighbours
        differences = [
            (a, b, b in neighbours(a))
            for a, b in itertools.permutations(locations, 2)
            if bool(reference.abuts(unit, a, "-", b)) != (b in neighbours(a))
        ]
        assert not differences, differences
        moves = sum(bool(reference.abuts(unit, a, "-", b)) for a in locations for b in locations)
        assert moves == 2 * (111 if unit == "A" else 141)
