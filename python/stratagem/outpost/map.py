"""Outpost maps: the water cells of the 50 x 50 region, checked, replicated to the 100 x 100
grid, read and written as text files, generated from a seed, and shipped by name
(``docs/outpost-rules.md``, "Grid, cells and directions" and "Map").

A :class:`Map` is immutable. ``region`` is the bool ``(50, 50)`` array of the region's water
(indexed ``[y, x]``), ``water`` the bool ``(100, 100)`` grid it gives by the four quarter
turns about the grid's centre: water at region cell ``(x, y)`` is water at ``(x, y)``,
``(99 - y, x)``, ``(99 - x, 99 - y)`` and ``(y, 99 - x)``. Two maps are equal when their
water is; the name is only a label.

A map file lists the region's water cells, one ``x y`` pair per line (integers separated by
whitespace or a comma); blank lines and ``#`` comments are ignored. The checks run in the
rules' order, each over the whole input before the next one, and the first failure raises
:class:`~stratagem.errors.InvalidBoard` naming the line (for :meth:`Map.parse` and
:meth:`Map.load`, counted from 1) or the entry (for :meth:`Map.from_cells`, counted from 0)
and the cell:

1. every non-blank line has two integers;
2. each coordinate is in ``0..49``;
3. no cell is listed twice;
4. the home corner ``(0, 0)`` is land;
5. the other corners ``(49, 0)``, ``(0, 49)``, ``(49, 49)`` are land;
6. exactly :data:`WATER_CELLS` (500) water cells;
7. the land of the region is orthogonally connected.

``lenient=True`` turns the failures of checks 5 and 6 into a :class:`MapWarning` each (the
map keeps them in :attr:`Map.problems`); the other checks always raise.

:meth:`Map.generate` makes valid maps of lakes and rivers from a seed (see its docstring for
the exact use of the random streams), and :meth:`Map.named` loads the maps shipped in
``stratagem/outpost/maps`` (:meth:`Map.names`; :data:`DEFAULT_MAP` is ``"lakes"``).

>>> lakes = Map.named("lakes")
>>> lakes
Map(name='lakes', water=500)
>>> lakes.region.shape, lakes.water.shape, int(lakes.water.sum())
((50, 50), (100, 100), 2000)
>>> bool((lakes.water == np.rot90(lakes.water)).all())
True
>>> Map.parse(lakes.to_text()) == lakes
True
>>> Map.generate(7) == Map.generate(7) != Map.generate(8)
True
>>> Map.parse("# one pond\\n0 0\\n")  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
stratagem.errors.InvalidBoard: line 2: cell (0, 0) is water; it is empire 0's home and must ...
>>> Map.parse("3 4\\n3,4\\n")
Traceback (most recent call last):
    ...
stratagem.errors.InvalidBoard: line 2: cell (3, 4) is listed twice (first on line 1)
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from stratagem import _validate
from stratagem._files import cannot_read, read_text, write_text
from stratagem.errors import InvalidBoard, InvalidParameter
from stratagem.graph import BoolArray, IntArray
from stratagem.outpost.generator import MAP_PURPOSE, generate_region
from stratagem.outpost.geometry import CORNERS, GRID, HOMES, REGION, WATER_CELLS

__all__ = [
    "DEFAULT_MAP",
    "GENERATOR_ATTEMPTS",
    "GRID",
    "HOMES",
    "MAP_PURPOSE",
    "REGION",
    "WATER_CELLS",
    "Map",
    "MapWarning",
    "parse_map",
]

#: The map games use unless told otherwise.
DEFAULT_MAP = "lakes"
#: Attempts of :meth:`Map.generate` before it gives up (it never needs more than one in
#: practice: every attempt builds a valid map by construction).
GENERATOR_ATTEMPTS = 64

# Two integers of at most 18 digits (a longer number is not a coordinate: check 1 refuses it).
_PAIR = re.compile(r"\s*([+-]?[0-9]{1,18})\s*(?:,|\s)\s*([+-]?[0-9]{1,18})\s*", re.ASCII)
_SPEC = re.compile(r"random:([0-9]+)((?::(?:lakes|rivers)=[0-9]+)*)", re.ASCII)
_MAX_LAKES = 500
_MAX_RIVERS = 100


class MapWarning(UserWarning):
    """A map loaded with ``lenient=True`` breaks the corner or the count rule."""


# A label says where a cell came from: ("line", n), ("entry", i), or None (a region array).
_Label = tuple[str, int] | None


def _at(label: _Label) -> str:
    return "" if label is None else f"{label[0]} {label[1]}: "


def _first(label: _Label) -> str:
    if label is None:  # pragma: no cover - a region array cannot repeat a cell
        return ""
    return f" (first on line {label[1]})" if label[0] == "line" else f" (first at entry {label[1]})"


def _frozen(array: NDArray[Any]) -> NDArray[Any]:
    array.setflags(write=False)
    return array


def _replicate(region: BoolArray) -> BoolArray:
    """The 100 x 100 grid of a region: each water cell ``(x, y)`` at its four quarter turns."""
    water = np.zeros((GRID, GRID), dtype=np.bool_)
    ys, xs = np.nonzero(region)
    last = GRID - 1
    water[ys, xs] = True  # (x, y)
    water[xs, last - ys] = True  # (99 - y, x)
    water[last - ys, last - xs] = True  # (99 - x, 99 - y)
    water[last - xs, ys] = True  # (y, 99 - x)
    return water


def _land_parts(region: BoolArray) -> list[tuple[int, int]]:
    """The connected parts of the region's land as ``(first cell, size)``, in the order of
    their first cell (flat index ``50 y + x``); the part of ``(0, 0)`` comes first."""
    land = (~region).ravel().tolist()
    seen = [False] * (REGION * REGION)
    parts: list[tuple[int, int]] = []
    for start in range(REGION * REGION):
        if not land[start] or seen[start]:
            continue
        seen[start] = True
        stack = [start]
        size = 0
        while stack:
            cell = stack.pop()
            size += 1
            x = cell % REGION
            for step, inside in (
                (-REGION, cell >= REGION),
                (1, x < REGION - 1),
                (REGION, cell < REGION * (REGION - 1)),
                (-1, x > 0),
            ):
                if inside:
                    other = cell + step
                    if land[other] and not seen[other]:
                        seen[other] = True
                        stack.append(other)
        parts.append((start, size))
    return parts


def _size_list(sizes: Sequence[int]) -> str:
    words = [f"{size}" for size in sizes]
    return ", ".join(words[:-1]) + f" and {words[-1]}" if len(words) > 1 else words[0]


def _check(
    entries: Sequence[tuple[_Label, int, int]],
    *,
    lenient: bool,
    prefix: str,
    stacklevel: int,
) -> tuple[BoolArray, tuple[str, ...]]:
    """Checks 2 to 7 of the rules over labelled cells; the region and the lenient problems."""
    for label, x, y in entries:
        if not (0 <= x < REGION and 0 <= y < REGION):
            raise InvalidBoard(
                f"{prefix}{_at(label)}cell ({x}, {y}) is outside the {REGION}x{REGION} region"
            )
    first: dict[tuple[int, int], _Label] = {}
    for label, x, y in entries:
        if (x, y) in first:
            raise InvalidBoard(
                f"{prefix}{_at(label)}cell ({x}, {y}) is listed twice{_first(first[x, y])}"
            )
        first[x, y] = label
    if (0, 0) in first:
        raise InvalidBoard(
            f"{prefix}{_at(first[0, 0])}cell (0, 0) is water; it is empire 0's home and must "
            f"be land"
        )
    problems: list[str] = []
    for label, x, y in entries:
        if (x, y) in CORNERS:
            problems.append(
                f"{prefix}{_at(label)}cell ({x}, {y}) is water; the corners of the region must "
                f"be land"
            )
            if not lenient:
                raise InvalidBoard(problems[-1])
    if len(entries) != WATER_CELLS:
        problems.append(
            f"{prefix}the map has {len(entries)} water cells; a map has exactly {WATER_CELLS}"
        )
        if not lenient:
            raise InvalidBoard(problems[-1])
    region = np.zeros((REGION, REGION), dtype=np.bool_)
    if entries:
        cells = np.array([(x, y) for _, x, y in entries], dtype=np.int64)
        region[cells[:, 1], cells[:, 0]] = True
    _check_connected(region, prefix)
    for problem in problems:
        warnings.warn(problem, MapWarning, stacklevel=stacklevel + 1)
    return region, tuple(problems)


def _check_connected(region: BoolArray, prefix: str) -> None:
    parts = _land_parts(region)
    if len(parts) > 1:
        cell = parts[1][0]
        raise InvalidBoard(
            f"{prefix}land cell ({cell % REGION}, {cell // REGION}) cannot be reached from "
            f"(0, 0): the land of the region falls into {len(parts)} parts of "
            f"{_size_list([size for _, size in parts])} cells (the first holds (0, 0))"
        )


def _name(name: object) -> str:
    if not isinstance(name, str):
        raise InvalidParameter(f"name must be a string, got {name!r}")
    return name


def _lenient(lenient: object) -> bool:
    if not isinstance(lenient, bool):
        raise InvalidParameter(f"lenient must be True or False, got {lenient!r}")
    return lenient


def _parse_lines(text: str, prefix: str) -> list[tuple[_Label, int, int]]:
    """Check 1: the labelled cells of a map file's text."""
    entries: list[tuple[_Label, int, int]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        match = _PAIR.fullmatch(content)
        if match is None:
            shown = content if len(content) <= 40 else content[:37] + "..."
            raise InvalidBoard(f'{prefix}line {number}: expected "x y", got "{shown}"')
        entries.append((("line", number), int(match.group(1)), int(match.group(2))))
    return entries


class Map:
    """An immutable outpost map: the water of the 50 x 50 region and its 100 x 100 grid.

    ``Map(region, name=..., lenient=...)`` is :meth:`from_region`. Attributes (arrays
    read-only): ``name``; ``region`` (bool ``(50, 50)``, ``[y, x]``); ``water`` and ``land``
    (bool ``(100, 100)``, ``[y, x]``); ``water_cells`` (int64 ``(n, 2)`` rows ``(x, y)`` of
    the region's water, in the order of flat index ``50 y + x``, as :meth:`to_text` writes
    them); ``water_count`` and ``land_count`` (cells of the region; the grid has four times
    as many); ``problems`` (the messages of the rules a lenient map breaks, else ``()``).
    Equality and hashing compare the water only.
    """

    __slots__ = ("_land", "_name", "_problems", "_region", "_water", "_water_cells")

    _name: str
    _region: BoolArray
    _water: BoolArray
    _land: BoolArray
    _water_cells: IntArray
    _problems: tuple[str, ...]

    def __init__(self, region: ArrayLike, *, name: str = "map", lenient: bool = False) -> None:
        checked, problems = _check_region(region, lenient=_lenient(lenient), stacklevel=3)
        self._setup(checked, _name(name), problems)

    def _setup(self, region: BoolArray, name: str, problems: tuple[str, ...]) -> None:
        ys, xs = np.nonzero(region)
        water = _replicate(region)
        values: dict[str, Any] = {
            "_name": name,
            "_region": _frozen(np.array(region, dtype=np.bool_)),
            "_water": _frozen(water),
            "_land": _frozen(~water),
            "_water_cells": _frozen(np.stack((xs, ys), axis=1).astype(np.int64)),
            "_problems": problems,
        }
        for slot, value in values.items():
            object.__setattr__(self, slot, value)

    @classmethod
    def _make(cls, region: BoolArray, name: str, problems: tuple[str, ...] = ()) -> Map:
        """A map from a region this module has checked already."""
        result = object.__new__(cls)
        result._setup(region, name, problems)
        return result

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Map is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Map is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self._name, self._region.copy(), self._problems))

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str, *, name: str = "map", lenient: bool = False) -> Map:
        """The map a map file's ``text`` describes; errors name the line (from 1)."""
        return cls._parse(text, name=_name(name), lenient=_lenient(lenient), prefix="")

    @classmethod
    def _parse(cls, text: object, *, name: str, lenient: bool, prefix: str) -> Map:
        if not isinstance(text, str):
            raise InvalidParameter(f"text must be a string, got {type(text).__name__}")
        entries = _parse_lines(text, prefix)
        region, problems = _check(entries, lenient=lenient, prefix=prefix, stacklevel=3)
        return cls._make(region, name, problems)

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, lenient: bool = False) -> Map:
        """Read a map file; the map is named after the file's stem, and every error and
        warning starts with the path (``maps/lakes.txt: line 3: ...``)."""
        lenient = _lenient(lenient)
        shown = os.fspath(path)
        text = read_text(path, cannot_read(path, "the map", InvalidBoard), encoding="utf-8-sig")
        stem = os.path.splitext(os.path.basename(shown))[0]
        return cls._parse(text, name=stem, lenient=lenient, prefix=f"{shown}: ")

    @classmethod
    def from_cells(cls, cells: ArrayLike, *, name: str = "map", lenient: bool = False) -> Map:
        """The map whose region has water at the rows ``(x, y)`` of ``cells`` (an ``(n, 2)``
        integer array-like, in any order); errors name the entry (from 0)."""
        name, lenient = _name(name), _lenient(lenient)
        array = np.asarray(cells)
        if array.size == 0:
            array = array.reshape(0, 2).astype(np.int64)
        if array.ndim != 2 or array.shape[1] != 2:
            raise InvalidParameter(f"cells must have shape (n, 2), got {array.shape}")
        if array.dtype.kind not in "iu":
            raise InvalidParameter(f"cells must hold integers, got dtype {array.dtype}")
        entries: list[tuple[_Label, int, int]] = [
            (("entry", i), x, y) for i, (x, y) in enumerate(array.tolist())
        ]
        region, problems = _check(entries, lenient=lenient, prefix="", stacklevel=2)
        return cls._make(region, name, problems)

    @classmethod
    def from_region(cls, water: ArrayLike, *, name: str = "map", lenient: bool = False) -> Map:
        """The map whose region's water is ``water``: a ``(50, 50)`` array indexed ``[y, x]``
        of bools (or of the integers 0 and 1)."""
        checked, problems = _check_region(water, lenient=_lenient(lenient), stacklevel=3)
        return cls._make(checked, _name(name), problems)

    # -- the map ---------------------------------------------------------------------------

    @property
    def name(self) -> str:
        """The map's label (a file's stem, a shipped map's name...)."""
        return self._name

    @property
    def region(self) -> BoolArray:
        """The region's water, bool ``(50, 50)`` indexed ``[y, x]`` (read-only)."""
        return self._region

    @property
    def water(self) -> BoolArray:
        """The grid's water, bool ``(100, 100)`` indexed ``[y, x]`` (read-only)."""
        return self._water

    @property
    def land(self) -> BoolArray:
        """The grid's land, ``~water`` (read-only)."""
        return self._land

    @property
    def water_cells(self) -> IntArray:
        """The region's water cells as int64 rows ``(x, y)``, sorted by ``(y, x)``."""
        return self._water_cells

    @property
    def water_count(self) -> int:
        """The region's water cells (500 for a valid map)."""
        return int(self._water_cells.shape[0])

    @property
    def land_count(self) -> int:
        """The region's land cells (2000 for a valid map)."""
        return REGION * REGION - self.water_count

    @property
    def problems(self) -> tuple[str, ...]:
        """The rules this map breaks (only a map loaded with ``lenient=True`` breaks any)."""
        return self._problems

    def is_water(self, x: int, y: int) -> bool:
        """Whether grid cell ``(x, y)`` is water."""
        x = _validate.integer("x", x, 0, GRID - 1)
        y = _validate.integer("y", y, 0, GRID - 1)
        return bool(self._water[y, x])

    def renamed(self, name: str) -> Map:
        """The same map under another name."""
        return type(self)._make(self._region, _name(name), self._problems)

    # -- comparison, display, files --------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Map):
            return NotImplemented
        return bool(np.array_equal(self._region, other._region))

    def __hash__(self) -> int:
        return hash(np.packbits(self._region).tobytes())

    def __repr__(self) -> str:
        return f"Map(name={self._name!r}, water={self.water_count})"

    def to_text(self) -> str:
        """The map file: a comment line naming the map, then one ``x y`` line per water cell
        of the region, sorted by ``(y, x)``."""
        lines = [
            f"# outpost map {self._name!r}: {self.water_count} water cells of the "
            f'{REGION}x{REGION} region, one "x y" per line'
        ]
        lines.extend(f"{x} {y}" for x, y in self._water_cells.tolist())
        return "\n".join(lines) + "\n"

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_text` to ``path`` (UTF-8)."""
        write_text(path, self.to_text())

    # -- shipped maps ----------------------------------------------------------------------

    @staticmethod
    def names() -> tuple[str, ...]:
        """The names of the maps shipped with the package, sorted."""
        return _shipped_names()

    @classmethod
    def named(cls, name: str) -> Map:
        """A map shipped with the package (:meth:`names`), checked strictly."""
        if not isinstance(name, str) or name not in _shipped_names():
            raise InvalidParameter(
                f"unknown map {name!r}; the named maps are {', '.join(_shipped_names())}"
            )
        return _shipped(name)

    # -- the generator ---------------------------------------------------------------------

    @classmethod
    def generate(
        cls,
        seed: int,
        *,
        lakes: int | None = None,
        rivers: int | None = None,
        name: str | None = None,
    ) -> Map:
        """A valid map of ``lakes`` lakes (0 to 500) and ``rivers`` rivers (0 to 100) drawn
        from ``seed``; each count, when not given, is drawn (2 to 6 lakes, 1 to 3 rivers).
        The name defaults to the :func:`parse_map` spec of the call (``random:SEED``, then
        ``:lakes=N`` and ``:rivers=N`` for the counts given).

        Every draw is a ``below`` of stream ``(seed, "outpost.map", [a, part])`` (the
        rules' "map index" is the attempt ``a``: 0, then 1... if an attempt fails, which none
        has: every attempt builds a valid map by construction, checked at the end), where
        ``part`` is

        - 0: the plan, in this order: the number of lakes ``K`` (``2 + below(5)``, when not
          given), of rivers ``R`` (``1 + below(3)``, when not given), the rivers' share of
          the 500 cells (``150 + below(201)`` when there are lakes, else all 500; split
          evenly between the rivers), each river's width (2 when ``below(3) == 0``, else 1),
          each lake's weight (``1 + below(4)``);
        - ``1 + k`` for river ``k < R`` (the rivers are drawn first), ``1 + R + k`` for lake
          ``k < K`` (the lakes share the cells the rivers left in proportion to their
          weights, the last lake taking the rounding), ``1 + R + K`` for the final fill.

        A cell becomes water only when it is land, not a corner of the region, not within
        distance 2 of the home ``(0, 0)``, and its land 4-neighbours stay connected through
        the eight cells around it (which keeps all the land connected). A river starts on a
        random cell and flows both ways from it along a random main direction, turning a
        quarter to either side now and then, until it reaches the region's edge or its share;
        then, while cells are left, up to 4 tributaries flow from random cells of the river
        in random directions. A cell the river may not flood stays land (a ford), and it
        flows through other water. A lake grows from a random cell: of two random cells of
        its shore, the one with more water neighbours (the first on ties) is flooded next.
        The fill grows the shores of all the water the same way until the region holds
        exactly 500 water cells (from a new random cell if no shore is left). A random cell
        is drawn as ``below(2500)`` (flat index ``50 y + x``) up to 32 times until one can be
        flooded, then the next one in flat order that can.
        """
        seed = _validate.seed(seed)
        if lakes is not None:
            lakes = _validate.integer("lakes", lakes, 0, _MAX_LAKES)
        if rivers is not None:
            rivers = _validate.integer("rivers", rivers, 0, _MAX_RIVERS)
        if name is None:
            name = f"random:{seed}"
            if lakes is not None:
                name += f":lakes={lakes}"
            if rivers is not None:
                name += f":rivers={rivers}"
        name = _name(name)
        for attempt in range(GENERATOR_ATTEMPTS):
            region = generate_region(seed, attempt, lakes, rivers)
            if region is not None and not _check_region_quietly(region):
                return cls._make(region, name)
        raise InvalidBoard(  # pragma: no cover - never seen
            f"the map generator found no valid map for seed {seed} in {GENERATOR_ATTEMPTS} attempts"
        )


def _rebuild(name: str, region: BoolArray, problems: tuple[str, ...]) -> Map:
    return Map._make(region, name, problems)


def _check_region(
    water: ArrayLike, *, lenient: bool, stacklevel: int
) -> tuple[BoolArray, tuple[str, ...]]:
    array = np.asarray(water)
    if array.shape != (REGION, REGION):
        raise InvalidParameter(
            f"the region must have shape ({REGION}, {REGION}) (indexed [y, x]), got {array.shape}"
        )
    if array.dtype != np.bool_:
        if array.dtype.kind not in "iu":
            raise InvalidParameter(f"the region must hold bools, got dtype {array.dtype}")
        bad = np.argwhere((array != 0) & (array != 1))
        if bad.size:
            y, x = (int(v) for v in bad[0])
            raise InvalidParameter(
                f"the region must hold bools or 0/1, got {array[y, x]} at cell ({x}, {y})"
            )
    ys, xs = np.nonzero(array)
    entries: list[tuple[_Label, int, int]] = [
        (None, x, y) for x, y in zip(xs.tolist(), ys.tolist(), strict=True)
    ]
    return _check(entries, lenient=lenient, prefix="", stacklevel=stacklevel)


def _check_region_quietly(region: BoolArray) -> str | None:
    """The first rule a region breaks, or None."""
    try:
        ys, xs = np.nonzero(region)
        entries: list[tuple[_Label, int, int]] = [
            (None, x, y) for x, y in zip(xs.tolist(), ys.tolist(), strict=True)
        ]
        _check(entries, lenient=False, prefix="", stacklevel=2)
    except InvalidBoard as error:  # pragma: no cover - the generator builds valid maps
        return str(error)
    return None


def _maps_folder() -> Any:
    return resources.files(__package__ or "stratagem.outpost").joinpath("maps")


@cache
def _shipped_names() -> tuple[str, ...]:
    folder = _maps_folder()
    return tuple(
        sorted(
            entry.name[: -len(".txt")]
            for entry in folder.iterdir()
            if entry.name.endswith(".txt") and entry.is_file()
        )
    )


@cache
def _shipped(name: str) -> Map:
    text = _maps_folder().joinpath(f"{name}.txt").read_text(encoding="utf-8")
    return Map._parse(text, name=name, lenient=False, prefix=f"{name}.txt: ")


def parse_map(spec: str | os.PathLike[str], *, lenient: bool = False) -> Map:
    """The map a command line names: a shipped map's name (``lakes``), ``random:SEED``
    optionally followed by ``:lakes=N`` and ``:rivers=N`` (:meth:`Map.generate`), or the
    path of a map file.

    >>> parse_map("random:3:lakes=2") == Map.generate(3, lakes=2)
    True
    """
    if isinstance(spec, str):
        if spec in _shipped_names():
            return Map.named(spec)
        match = _SPEC.fullmatch(spec)
        if match is not None:
            options: dict[str, int] = {}
            for option in match.group(2).split(":")[1:]:
                key, value = option.split("=")
                options[key] = int(value)
            return Map.generate(
                int(match.group(1)), lakes=options.get("lakes"), rivers=options.get("rivers")
            )
        if spec.startswith("random:"):
            raise InvalidParameter(
                f"bad map spec {spec!r}: expected random:SEED, then :lakes=N and :rivers=N"
            )
    elif not isinstance(spec, os.PathLike):
        raise InvalidParameter(f"a map spec must be a string or a path, got {spec!r}")
    if not os.path.exists(spec):
        raise InvalidParameter(
            f"no map {os.fspath(spec)!r}: expected the path of a map file, random:SEED, or one "
            f"of the named maps {', '.join(_shipped_names())}"
        )
    return Map.load(spec, lenient=lenient)


# -- the generator ------------------------------------------------------------------------

# The generator works on a padded grid: region cell (x, y) is index (y + 1) * _W + x + 1, and
# the padding around the region is never land.
