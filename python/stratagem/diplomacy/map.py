"""Diplomacy maps: provinces, supply centres, home centres, coasts and the army and fleet
adjacency, read from a plain text file (``docs/diplomacy-map.md`` documents the format) and
checked as they are read (``docs/diplomacy.md``, "The board").

:meth:`Map.standard` is the standard (1901 edition) map shipped in
``stratagem/diplomacy/maps/standard.map``; :meth:`Map.load` and :meth:`Map.parse` read any
other map in the same format, so a variant map is a text file away. A malformed file raises
:class:`~stratagem.errors.InvalidBoard` naming the line (counted from 1) and what is wrong.

A *location* is where a unit stands. Armies stand on provinces (``land`` or ``coast``); fleets
stand on seas, on coastal provinces without named coasts, and on the named coasts of the
bicoastal provinces, written ``STP/NC``. :meth:`Map.army_locations` and
:meth:`Map.fleet_locations` list them in a fixed order: provinces in file order, and a
bicoastal province replaced by its coasts in the order the file declares them. The arrays for
the Rust core (:meth:`Map.army_csr`, :meth:`Map.fleet_csr`, ...) index locations in that order.

>>> m = Map.standard()
>>> m
Map(name='standard', powers=7, provinces=75, centres=34)
>>> m.powers
('AUS', 'ENG', 'FRA', 'GER', 'ITA', 'RUS', 'TUR')
>>> m.homes["RUS"], m.coasts["STP"]
(('MOS', 'SEV', 'STP', 'WAR'), ('NC', 'SC'))
>>> m.fleet_neighbours("STP/NC"), m.army_neighbours("STP")
(('BAR', 'NWY'), ('FIN', 'LVN', 'MOS', 'NWY'))
>>> m.build_options("STP"), m.build_options("MUN"), m.build_options("KIE")
(('A', 'F/NC', 'F/SC'), ('A',), ('A', 'F'))
>>> Map.parse(m.text()) == m
True
>>> Map.parse("map tiny\\npower X Xland\\nprovince A land X 0.5 0.5 Aland\\narmy A B\\n")
Traceback (most recent call last):
    ...
stratagem.errors.InvalidBoard: line 4: unknown province 'B' in an army adjacency
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Mapping
from functools import cache, cached_property
from importlib import resources
from types import MappingProxyType
from typing import Any, NamedTuple, NoReturn

import numpy as np
from numpy.typing import NDArray

from stratagem._files import cannot_read, read_text
from stratagem.errors import InvalidBoard, InvalidParameter

__all__ = ["KEYWORDS", "KINDS", "Map", "parse_map"]

#: The province kinds, in the order of their codes in :meth:`Map.kind_codes`.
KINDS: tuple[str, ...] = ("land", "coast", "sea")
#: The keywords a map file's lines start with.
KEYWORDS: tuple[str, ...] = ("map", "power", "province", "coast", "army", "fleet")

_TOKEN = re.compile(r"[A-Za-z0-9_]+\Z")
_NOT_CENTRE = "-"
_NEUTRAL_CENTRE = "sc"

IntArray = NDArray[np.int64]


class Map:
    """A Diplomacy map, immutable; build it with :meth:`standard`, :meth:`load` or
    :meth:`parse`.

    Attributes (tuples are in file order):

    - ``name``: the map's name (its ``map`` line);
    - ``powers``: the power codes; ``power_names``: their names, in the same order;
    - ``provinces``: the province abbreviations; ``kind`` and ``names``: each province's kind
      (``'land'`` for inland, ``'coast'``, ``'sea'``) and full name, in the same order;
    - ``centres``: the supply centres;
    - ``homes``: power code -> its home centres; ``home_of``: province -> the power whose home
      it is, or ``None``;
    - ``coasts``: bicoastal province -> its named coasts (only provinces that have them);
    - ``xy``: province or coast (``'STP/NC'``) -> plotting coordinates ``(x, y)`` in
      ``[0, 1]``, x to the east and y to the south.

    Two maps are equal when their canonical texts (:meth:`text`) are, comments and line order
    of the files aside.
    """

    name: str
    powers: tuple[str, ...]
    power_names: tuple[str, ...]
    provinces: tuple[str, ...]
    kind: tuple[str, ...]
    names: tuple[str, ...]
    centres: tuple[str, ...]
    homes: Mapping[str, tuple[str, ...]]
    home_of: Mapping[str, str | None]
    coasts: Mapping[str, tuple[str, ...]]
    xy: Mapping[str, tuple[float, float]]
    _army: Mapping[str, tuple[str, ...]]
    _fleet: Mapping[str, tuple[str, ...]]

    def __init__(self) -> None:
        raise TypeError("build a Map with Map.standard(), Map.load(path) or Map.parse(text)")

    @classmethod
    def _create(cls, **values: Any) -> Map:
        self = object.__new__(cls)
        for key, value in values.items():
            object.__setattr__(self, key, value)
        return self

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError(f"a Map is immutable; cannot set {key!r}")

    # ------------------------------------------------------------------ construction

    @classmethod
    def standard(cls) -> Map:
        """The standard map (``maps/standard.map``), read once and cached."""
        return _standard()

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Map:
        """Read a map file (UTF-8); errors name the file and the line."""
        text = read_text(path, cannot_read(path, "the map", InvalidBoard))
        return cls.parse(text, source=os.fspath(path))

    @classmethod
    def parse(cls, text: str, *, source: str | None = None) -> Map:
        """Read a map from its text. ``source`` (a file name, say) prefixes error messages."""
        return _parse(text, source)

    # ------------------------------------------------------------------ text and identity

    def text(self) -> str:
        """The canonical text of the map: the ``map`` line, the powers, the provinces, the
        coasts, then each adjacency once (a location followed by its neighbours that come
        after it in :meth:`army_locations` or :meth:`fleet_locations` order), no comments.
        ``Map.parse(m.text()) == m``."""
        return self._text

    @cached_property
    def _text(self) -> str:
        lines = [f"map {self.name}", ""]
        lines += [f"power {c} {n}" for c, n in zip(self.powers, self.power_names, strict=True)]
        lines.append("")
        for abbr, kind, full in zip(self.provinces, self.kind, self.names, strict=True):
            owner = self.home_of[abbr]
            centre = owner if owner is not None else "sc" if abbr in self._centre_set else "-"
            x, y = self.xy[abbr]
            lines.append(f"province {abbr} {kind} {centre} {x!r} {y!r} {full}")
        coast_lines = []
        for abbr in self.provinces:
            for coast in self.coasts.get(abbr, ()):
                x, y = self.xy[f"{abbr}/{coast}"]
                coast_lines.append(f"coast {abbr} {coast} {x!r} {y!r}")
        if coast_lines:
            lines += ["", *coast_lines]
        for keyword, order, table in (
            ("army", self.army_locations(), self._army),
            ("fleet", self.fleet_locations(), self._fleet),
        ):
            position = {loc: i for i, loc in enumerate(order)}
            block = []
            for i, loc in enumerate(order):
                later = sorted((n for n in table[loc] if position[n] > i), key=position.__getitem__)
                if later:
                    block.append(f"{keyword} {loc} {' '.join(later)}")
            if block:
                lines += ["", *block]
        return "\n".join(lines) + "\n"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Map):
            return NotImplemented
        return self._text == other._text

    def __hash__(self) -> int:
        return hash(self._text)

    def __reduce__(self) -> tuple[Callable[[str], Map], tuple[str]]:
        # pickled (for MPI, say) and copied as its canonical text
        return parse_map, (self.text(),)

    def __repr__(self) -> str:
        return (
            f"Map(name={self.name!r}, powers={len(self.powers)}, "
            f"provinces={len(self.provinces)}, centres={len(self.centres)})"
        )

    # ------------------------------------------------------------------ provinces and locations

    @cached_property
    def _index(self) -> dict[str, int]:
        return {abbr: i for i, abbr in enumerate(self.provinces)}

    @cached_property
    def _centre_set(self) -> frozenset[str]:
        return frozenset(self.centres)

    def index(self, province: str) -> int:
        """The position of ``province`` in :attr:`provinces`."""
        try:
            return self._index[province]
        except KeyError:
            raise InvalidParameter(f"unknown province {province!r}") from None

    def province_of(self, location: str) -> str:
        """The province of a location: ``'STP/NC'`` -> ``'STP'``, ``'MUN'`` -> ``'MUN'``."""
        if location in self._index:
            return location
        province, slash, coast = location.partition("/")
        if slash and coast in self.coasts.get(province, ()):
            return province
        raise InvalidParameter(f"unknown location {location!r}")

    def kind_of(self, location: str) -> str:
        """The kind (``'land'``, ``'coast'``, ``'sea'``) of a location's province."""
        return self.kind[self._index[self.province_of(location)]]

    def army_locations(self) -> tuple[str, ...]:
        """Where an army may stand: the land and coast provinces, in file order."""
        return self._army_locations

    @cached_property
    def _army_locations(self) -> tuple[str, ...]:
        return tuple(p for p, k in zip(self.provinces, self.kind, strict=True) if k != "sea")

    def fleet_locations(self) -> tuple[str, ...]:
        """Where a fleet may stand: the provinces in file order, inland ones left out and each
        bicoastal one replaced by its coasts (``'STP/NC'``, ``'STP/SC'``) in file order."""
        return self._fleet_locations

    @cached_property
    def _fleet_locations(self) -> tuple[str, ...]:
        result: list[str] = []
        for province, kind in zip(self.provinces, self.kind, strict=True):
            if province in self.coasts:
                result += [f"{province}/{coast}" for coast in self.coasts[province]]
            elif kind != "land":
                result.append(province)
        return tuple(result)

    def army_neighbours(self, location: str) -> tuple[str, ...]:
        """The provinces an army on ``location`` may move to, sorted."""
        try:
            return self._army[location]
        except KeyError:
            raise InvalidParameter(f"{location!r} is not an army location") from None

    def fleet_neighbours(self, location: str) -> tuple[str, ...]:
        """The locations a fleet on ``location`` may move to, sorted."""
        try:
            return self._fleet[location]
        except KeyError:
            hint = ""
            if location in self.coasts:
                options = " or ".join(f"{location}/{c}" for c in self.coasts[location])
                hint = f"; give its coast: {options}"
            raise InvalidParameter(f"{location!r} is not a fleet location{hint}") from None

    def build_options(self, province: str) -> tuple[str, ...]:
        """The units a power may build on ``province`` (meant for its home centres): ``('A',)``
        inland, ``('A', 'F')`` on a coast, ``('A', 'F/NC', 'F/SC')`` on a bicoastal province
        (its coasts in file order). A sea raises :class:`~stratagem.errors.InvalidParameter`."""
        kind = self.kind[self.index(province)]
        if kind == "sea":
            raise InvalidParameter(f"no unit is built at sea ({province})")
        if kind == "land":
            return ("A",)
        if province in self.coasts:
            return ("A", *(f"F/{coast}" for coast in self.coasts[province]))
        return ("A", "F")

    # ------------------------------------------------------------------ graphs

    def army_graph(self) -> Any:
        """A ``networkx.Graph`` of the army locations (nodes in :meth:`army_locations` order,
        with attributes ``province``, ``kind`` and ``pos``) and army moves."""
        return self._graph(self.army_locations(), self._army)

    def fleet_graph(self) -> Any:
        """A ``networkx.Graph`` of the fleet locations (nodes in :meth:`fleet_locations`
        order, with attributes ``province``, ``kind`` and ``pos``) and fleet moves."""
        return self._graph(self.fleet_locations(), self._fleet)

    def _graph(self, order: tuple[str, ...], table: Mapping[str, tuple[str, ...]]) -> Any:
        import networkx as nx

        graph = nx.Graph(name=self.name)
        for loc in order:
            graph.add_node(loc, province=self.province_of(loc), kind=self.kind_of(loc))
            graph.nodes[loc]["pos"] = self.xy[loc]
        graph.add_edges_from((a, b) for a in order for b in table[a] if a < b)
        return graph

    # ------------------------------------------------------------------ arrays

    def kind_codes(self) -> IntArray:
        """Each province's kind as int64: 0 land, 1 coast, 2 sea (read-only)."""
        return self._arrays["kind"]

    def home_codes(self) -> IntArray:
        """Each province's home power as int64: its index in :attr:`powers`, or -1."""
        return self._arrays["home"]

    def centre_mask(self) -> NDArray[np.bool_]:
        """Whether each province is a supply centre (bool, read-only; ``astype(np.int64)``
        gives 0/1)."""
        mask = np.zeros(len(self.provinces), dtype=bool)
        mask[[self._index[c] for c in self.centres]] = True
        mask.setflags(write=False)
        return mask

    def army_csr(self) -> tuple[IntArray, IntArray]:
        """Army adjacency in CSR form over :meth:`army_locations`: ``(offsets, targets)``,
        int64, the neighbours of location ``i`` being ``targets[offsets[i]:offsets[i + 1]]``
        in increasing index order."""
        return self._arrays["army_offsets"], self._arrays["army_targets"]

    def fleet_csr(self) -> tuple[IntArray, IntArray]:
        """Fleet adjacency in CSR form over :meth:`fleet_locations` (as :meth:`army_csr`)."""
        return self._arrays["fleet_offsets"], self._arrays["fleet_targets"]

    def fleet_location_province(self) -> IntArray:
        """The province index (into :attr:`provinces`) of each fleet location."""
        return self._arrays["fleet_province"]

    def army_location_province(self) -> IntArray:
        """The province index (into :attr:`provinces`) of each army location."""
        return self._arrays["army_province"]

    @cached_property
    def _arrays(self) -> dict[str, IntArray]:
        def frozen(values: list[int]) -> IntArray:
            array = np.asarray(values, dtype=np.int64).reshape(-1)
            array.setflags(write=False)
            return array

        power_index = {code: i for i, code in enumerate(self.powers)}
        out = {
            "kind": frozen([KINDS.index(k) for k in self.kind]),
            "home": frozen(
                [
                    -1 if self.home_of[p] is None else power_index[str(self.home_of[p])]
                    for p in self.provinces
                ]
            ),
        }
        for name, order, table in (
            ("army", self.army_locations(), self._army),
            ("fleet", self.fleet_locations(), self._fleet),
        ):
            position = {loc: i for i, loc in enumerate(order)}
            offsets, targets = [0], []
            for loc in order:
                targets += sorted(position[n] for n in table[loc])
                offsets.append(len(targets))
            out[f"{name}_offsets"] = frozen(offsets)
            out[f"{name}_targets"] = frozen(targets)
            out[f"{name}_province"] = frozen([self._index[self.province_of(x)] for x in order])
        return out


def parse_map(text: str, *, source: str | None = None) -> Map:
    """:meth:`Map.parse`."""
    return Map.parse(text, source=source)


@cache
def _standard() -> Map:
    path = resources.files(__package__ or "stratagem.diplomacy").joinpath("maps/standard.map")
    return Map.parse(path.read_text(encoding="utf-8"), source="standard.map")


# ---------------------------------------------------------------------- the parser


class _Province(NamedTuple):
    line: int
    kind: str
    centre: str
    x: float
    y: float
    name: str


def _parse(text: str, source: str | None) -> Map:
    return _MapFile(source).read(text)


class _MapFile:
    """One map file read in four passes: the syntax of every line and the declarations, what
    the declarations refer to, the adjacency lines, and the map as a whole."""

    def __init__(self, source: str | None) -> None:
        self.prefix = f"{source}: " if source else ""
        self.name: str | None = None
        self.name_line = 0
        self.powers: dict[str, tuple[int, str]] = {}
        self.provinces: dict[str, _Province] = {}
        self.coasts: dict[str, dict[str, tuple[int, float, float]]] = {}
        self.moves: list[tuple[int, str, list[str]]] = []

    def fail(self, line: int | None, message: str) -> NoReturn:
        where = f"line {line}: " if line is not None else ""
        raise InvalidBoard(f"{self.prefix}{where}{message}")

    def token(self, line: int, what: str, value: str) -> str:
        if not _TOKEN.match(value):
            self.fail(line, f"{what} {value!r} must be letters, digits or '_'")
        return value

    def coordinate(self, line: int, axis: str, value: str, owner: str) -> float:
        try:
            number = float(value)
        except ValueError:
            self.fail(line, f"{axis} coordinate {value!r} of {owner} is not a number")
        if not (math.isfinite(number) and 0.0 <= number <= 1.0):
            self.fail(line, f"{axis} coordinate {value} of {owner} is not in [0, 1]")
        return number

    def fields(self, line: int, words: list[str], usage: str, low: int, high: int | None) -> None:
        if len(words) < low or (high is not None and len(words) > high):
            self.fail(
                line, f"wrong number of fields ({len(words)}) for {words[0]!r}: expected {usage}"
            )

    def read(self, text: str) -> Map:
        for number, raw in enumerate(text.splitlines(), 1):
            words = raw.split("#", 1)[0].split()
            if words:
                self.declare(number, words)
        self.check_references()
        army, fleet = self.adjacencies()
        return self.build(army, fleet)

    # Pass 1: syntax of every line, and the declarations (map, powers, provinces, coasts).
    def declare(self, line: int, words: list[str]) -> None:
        keyword = words[0]
        if keyword == "map":
            self.fields(line, words, "'map <name>'", 2, 2)
            if self.name is not None:
                self.fail(line, f"duplicate map line (the map was named on line {self.name_line})")
            self.name, self.name_line = words[1], line
        elif keyword == "power":
            self.declare_power(line, words)
        elif keyword == "province":
            self.declare_province(line, words)
        elif keyword == "coast":
            self.declare_coast(line, words)
        elif keyword in ("army", "fleet"):
            self.fields(line, words, f"'{keyword} <A> <B> [<C> ...]'", 3, None)
            self.moves.append((line, keyword, words[1:]))
        else:
            self.fail(line, f"unknown keyword {keyword!r} (expected one of {', '.join(KEYWORDS)})")

    def declare_power(self, line: int, words: list[str]) -> None:
        self.fields(line, words, "'power <CODE> <Name>'", 3, None)
        code = self.token(line, "power code", words[1])
        if code == _NEUTRAL_CENTRE:
            self.fail(line, f"power code {code!r} is reserved (it marks a neutral centre)")
        if code in self.powers:
            first = self.powers[code][0]
            self.fail(line, f"duplicate power {code} (first declared on line {first})")
        self.powers[code] = (line, " ".join(words[2:]))

    def declare_province(self, line: int, words: list[str]) -> None:
        usage = "'province <ABBR> <land|coast|sea> <centre> <x> <y> <Name>'"
        self.fields(line, words, usage, 7, None)
        abbr = self.token(line, "province abbreviation", words[1])
        if abbr in self.provinces:
            first = self.provinces[abbr].line
            self.fail(line, f"duplicate province {abbr} (first declared on line {first})")
        kind = words[2]
        if kind not in KINDS:
            self.fail(line, f"bad province type {kind!r} for {abbr}: expected land, coast or sea")
        x = self.coordinate(line, "x", words[4], abbr)
        y = self.coordinate(line, "y", words[5], abbr)
        self.provinces[abbr] = _Province(line, kind, words[3], x, y, " ".join(words[6:]))

    def declare_coast(self, line: int, words: list[str]) -> None:
        self.fields(line, words, "'coast <ABBR> <COAST> <x> <y>'", 5, 5)
        abbr, coast = words[1], self.token(line, "coast name", words[2])
        declared = self.coasts.setdefault(abbr, {})
        if coast in declared:
            first = declared[coast][0]
            self.fail(line, f"duplicate coast {abbr}/{coast} (first declared on line {first})")
        owner = f"{abbr}/{coast}"
        declared[coast] = (
            line,
            self.coordinate(line, "x", words[3], owner),
            self.coordinate(line, "y", words[4], owner),
        )

    # Pass 2: what the declarations refer to.
    def check_references(self) -> None:
        provinces = self.provinces
        for abbr, province in provinces.items():
            centre = province.centre
            if centre not in (_NOT_CENTRE, _NEUTRAL_CENTRE) and centre not in self.powers:
                known = ", ".join(self.powers) or "none declared"
                self.fail(
                    province.line, f"unknown power {centre!r} owning {abbr} (powers: {known})"
                )
            if centre != _NOT_CENTRE and province.kind == "sea":
                self.fail(province.line, f"the sea {abbr} cannot be a supply centre")
        for abbr, declared in self.coasts.items():
            first = min(entry[0] for entry in declared.values())
            if abbr not in provinces:
                self.fail(first, f"coast of unknown province {abbr!r}")
            if provinces[abbr].kind != "coast":
                kind = provinces[abbr].kind
                self.fail(first, f"coast declared on {abbr}, a {kind} province, not coast")
            if len(declared) == 1:
                self.fail(
                    first,
                    f"{abbr} has one named coast; a province with named coasts needs two or more",
                )

    # Pass 3: the adjacency lines.
    def army_location(self, line: int, value: str) -> str:
        if "/" in value:
            self.fail(
                line, f"army adjacency names the coast {value!r}; armies move between provinces"
            )
        if value not in self.provinces:
            self.fail(line, f"unknown province {value!r} in an army adjacency")
        if self.provinces[value].kind == "sea":
            self.fail(line, f"army adjacency touches the sea {value}")
        return value

    def fleet_location(self, line: int, value: str) -> str:
        abbr, slash, coast = value.partition("/")
        if abbr not in self.provinces:
            self.fail(line, f"unknown province {abbr!r} in a fleet adjacency")
        if self.provinces[abbr].kind == "land":
            self.fail(line, f"fleet adjacency touches the inland province {abbr}")
        named = self.coasts.get(abbr, {})
        if slash:
            if not named:
                self.fail(
                    line, f"fleet adjacency gives a coast to {abbr}, which has no named coasts"
                )
            if coast not in named:
                known = ", ".join(named)
                self.fail(
                    line, f"unknown coast {value!r} in a fleet adjacency ({abbr} has {known})"
                )
        elif named:
            options = " or ".join(f"{abbr}/{c}" for c in named)
            self.fail(
                line, f"fleet adjacency names the bicoastal {abbr} without its coast ({options})"
            )
        return value

    def adjacencies(self) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
        provinces = self.provinces
        army: dict[str, set[str]] = {p: set() for p, v in provinces.items() if v.kind != "sea"}
        fleet: dict[str, set[str]] = {}
        for abbr, province in provinces.items():
            if abbr in self.coasts:
                for coast in self.coasts[abbr]:
                    fleet[f"{abbr}/{coast}"] = set()
            elif province.kind != "land":
                fleet[abbr] = set()
        for line, keyword, locations in self.moves:
            check = self.army_location if keyword == "army" else self.fleet_location
            table = army if keyword == "army" else fleet
            start = check(line, locations[0])
            seen = {start}
            for other in locations[1:]:
                check(line, other)
                if other.partition("/")[0] == start.partition("/")[0]:
                    self.fail(line, f"self-loop: {keyword} adjacency joins {start} to {other}")
                if other in seen:
                    self.fail(line, f"{other} is listed twice")
                seen.add(other)
                table[start].add(other)
                table[other].add(start)
        return army, fleet

    # Pass 4: the map as a whole.
    def build(self, army: dict[str, set[str]], fleet: dict[str, set[str]]) -> Map:
        provinces, powers, coasts = self.provinces, self.powers, self.coasts
        if self.name is None:
            self.fail(None, "no 'map <name>' line: a map file must name its map")
        if not powers:
            self.fail(None, "no power declared: a map needs at least one 'power' line")
        homes = {
            code: tuple(p for p, v in provinces.items() if v.centre == code) for code in powers
        }
        for code, (line, _) in powers.items():
            if not homes[code]:
                self.fail(line, f"power {code} has no home centre")
        xy: dict[str, tuple[float, float]] = {}
        for abbr, province in provinces.items():
            xy[abbr] = (province.x, province.y)
            for coast, (_, x, y) in coasts.get(abbr, {}).items():
                xy[f"{abbr}/{coast}"] = (x, y)
        return Map._create(
            name=self.name,
            powers=tuple(powers),
            power_names=tuple(power_name for _, power_name in powers.values()),
            provinces=tuple(provinces),
            kind=tuple(p.kind for p in provinces.values()),
            names=tuple(p.name for p in provinces.values()),
            centres=tuple(p for p, v in provinces.items() if v.centre != _NOT_CENTRE),
            homes=MappingProxyType(homes),
            home_of=MappingProxyType(
                {p: v.centre if v.centre in powers else None for p, v in provinces.items()}
            ),
            coasts=MappingProxyType({p: tuple(coasts[p]) for p in provinces if p in coasts}),
            xy=MappingProxyType(xy),
            _army=MappingProxyType({k: tuple(sorted(v)) for k, v in army.items()}),
            _fleet=MappingProxyType({k: tuple(sorted(v)) for k, v in fleet.items()}),
        )
