"""Outpost maps: every check of the rules' "Map" section and its message, lenient loading,
the replication to the 100 x 100 grid, files, the generator (valid, deterministic, seeded),
the shipped maps, map specs and the picture."""

from __future__ import annotations

import pickle
import sys
import warnings
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stratagem.errors import InvalidBoard, InvalidParameter
from stratagem.outpost import generator
from stratagem.outpost import map as map_module
from stratagem.outpost.map import (
    DEFAULT_MAP,
    HOMES,
    WATER_CELLS,
    Map,
    MapWarning,
    parse_map,
)

# How each shipped map was made (the files say it too).
SHIPPED = {
    "lakes": (2014, {"lakes": 5, "rivers": 0}),
    "mixed": (2014, {}),
    "open": (2014, {"lakes": 60, "rivers": 0}),
    "rivers": (1, {"lakes": 0, "rivers": 7}),
}

# -- references and builders --------------------------------------------------------------


def land_parts(region: np.ndarray) -> list[int]:
    """The sizes of the region's land parts, the slow and obvious way."""
    seen = np.zeros_like(region)
    sizes = []
    for y in range(50):
        for x in range(50):
            if region[y, x] or seen[y, x]:
                continue
            seen[y, x] = True
            queue, size = deque([(x, y)]), 0
            while queue:
                cx, cy = queue.popleft()
                size += 1
                for nx, ny in ((cx, cy - 1), (cx + 1, cy), (cx, cy + 1), (cx - 1, cy)):
                    if 0 <= nx < 50 and 0 <= ny < 50 and not region[ny, nx] and not seen[ny, nx]:
                        seen[ny, nx] = True
                        queue.append((nx, ny))
            sizes.append(size)
    return sizes


def check_valid(m: Map) -> None:
    """Every rule of a valid map, checked independently of the module."""
    region = m.region
    assert region.shape == (50, 50)
    assert region.dtype == np.bool_
    assert int(region.sum()) == WATER_CELLS == m.water_count
    assert m.land_count == 2000
    for x, y in ((0, 0), (49, 0), (0, 49), (49, 49)):
        assert not region[y, x], f"corner ({x}, {y}) is water"
    assert len(land_parts(region)) == 1
    assert m.problems == ()


def block(count: int, x0: int = 5, x1: int = 44, y0: int = 25) -> list[tuple[int, int]]:
    """``count`` cells of the rectangle ``x0..x1`` from row ``y0`` down, row by row."""
    cells: list[tuple[int, int]] = []
    y = y0
    while len(cells) < count:
        for x in range(x0, x1 + 1):
            if len(cells) < count:
                cells.append((x, y))
        y += 1
    return cells


def text_of(cells: list[tuple[int, int]]) -> str:
    return "".join(f"{x} {y}\n" for x, y in cells)


def valid_cells() -> list[tuple[int, int]]:
    return block(WATER_CELLS)


def with_water(cell: tuple[int, int], at: int = 0) -> list[tuple[int, int]]:
    """A valid map's cells with one of them (index ``at``) moved to ``cell``."""
    cells = valid_cells()
    cells[at] = cell
    return cells


def raises(match: str) -> Any:
    return pytest.raises(InvalidBoard, match=match)


def refusal(text: str, *, lenient: bool = False) -> str:
    """The message of the InvalidBoard that Map.parse raises on ``text``."""
    with pytest.raises(InvalidBoard) as caught:
        Map.parse(text, lenient=lenient)
    return str(caught.value)


# -- parsing and check 1 --------------------------------------------------------------------


def test_the_builders_make_a_valid_map() -> None:
    m = Map.parse(text_of(valid_cells()))
    check_valid(m)
    assert m == Map.from_cells(valid_cells())


def test_comments_blank_lines_commas_and_line_ends_are_accepted() -> None:
    cells = valid_cells()
    lines = ["# a header", "", "   ", f"{cells[0][0]},{cells[0][1]}  # a trailing comment"]
    lines.append(f"  {cells[1][0]}\t{cells[1][1]}  ")
    lines.append(f"{cells[2][0]} , {cells[2][1]}")
    lines.append("#")
    lines.extend(f"{x} {y}" for x, y in cells[3:])
    assert Map.parse("\r\n".join(lines)) == Map.from_cells(cells)
    assert Map.parse("\n".join(lines) + "\n\n# end\n") == Map.from_cells(cells)


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("3", "3"),
        ("3 4 5", "3 4 5"),
        ("a b", "a b"),
        ("3.0 4", "3.0 4"),
        ("3;4", "3;4"),
        ("3,,4", "3,,4"),
        ("1" * 19 + " 4", "1" * 19 + " 4"),
        ("9" * 5000 + " 4", "9" * 37 + "..."),
        ("3 4 # fine, but: 5 6", None),
    ],
)
def test_a_line_without_two_integers_is_refused(line: str, shown: str | None) -> None:
    cells = valid_cells()
    text = "# header\n" + text_of(cells[:5]) + line + "\n" + text_of(cells[5:])
    if shown is None:
        with raises("cell .* is listed twice|the map has 501 water cells"):
            Map.parse(text)
        return
    assert refusal(text) == f'line 7: expected "x y", got "{shown}"'


def test_the_message_of_the_rules_for_a_short_line() -> None:
    text = "\n".join(["1 1", "# c", "", "2 2", "", "", "3"])
    assert refusal(text) == 'line 7: expected "x y", got "3"'


def test_a_long_bad_line_is_cut_in_the_message() -> None:
    with raises(r'line 1: expected "x y", got "x{37}\.\.\."'):
        Map.parse("x" * 200)


def test_checks_run_in_the_rules_order() -> None:
    # Check 1 over the whole file before check 2, check 2 before 3, and so on.
    with raises('line 3: expected "x y"'):
        Map.parse("50 3\n4 4\nnonsense\n")
    with raises(r"line 3: cell \(50, 3\) is outside"):
        Map.parse("4 4\n4 4\n50 3\n")
    with raises(r"line 3: cell \(4, 4\) is listed twice"):
        Map.parse("0 0\n4 4\n4 4\n")
    with raises(r"line 2: cell \(0, 0\) is water"):
        Map.parse("49 49\n0 0\n")
    with raises(r"line 1: cell \(49, 49\) is water"):
        Map.parse("49 49\n1 1\n")
    with raises("the map has 1 water cells"):
        Map.parse("10 10\n")


# -- checks 2 to 7 ----------------------------------------------------------------------------


@pytest.mark.parametrize("cell", [(50, 3), (3, 50), (-1, 0), (0, -7), (100, 100), (10**17, 1)])
def test_a_cell_outside_the_region_is_refused(cell: tuple[int, int]) -> None:
    text = "# header\n" + text_of(with_water(cell, at=7))
    assert refusal(text) == f"line 9: cell {cell} is outside the 50x50 region"


def test_a_cell_listed_twice_is_refused() -> None:
    cells = valid_cells()
    cells[10] = cells[1]
    assert (
        refusal("# header\n" + text_of(cells))
        == f"line 12: cell {cells[1]} is listed twice (first on line 3)"
    )


def test_the_message_of_the_rules_for_a_repeated_cell() -> None:
    lines = ["# h", "", "4 4", *(f"{x} 30" for x in range(8)), "4 4"]
    assert refusal("\n".join(lines)) == "line 12: cell (4, 4) is listed twice (first on line 3)"


@pytest.mark.parametrize("lenient", [False, True])
def test_water_on_the_home_corner_is_always_refused(lenient: bool) -> None:
    text = text_of(with_water((0, 0), at=3))
    assert (
        refusal(text, lenient=lenient)
        == "line 4: cell (0, 0) is water; it is empire 0's home and must be land"
    )


@pytest.mark.parametrize("corner", [(49, 0), (0, 49), (49, 49)])
def test_water_on_another_corner_is_refused(corner: tuple[int, int]) -> None:
    assert refusal(text_of(with_water(corner, at=20))) == (
        f"line 21: cell {corner} is water; the corners of the region must be land"
    )


@pytest.mark.parametrize("count", [0, 1, 499, 501, 2000])
def test_a_wrong_number_of_water_cells_is_refused(count: int) -> None:
    cells = block(count, x0=1, x1=48, y0=1) if count > 600 else block(count)
    assert refusal(text_of(cells)) == f"the map has {count} water cells; a map has exactly 500"


def test_a_land_cell_cut_off_is_refused() -> None:
    ring = [(10, 9), (11, 10), (10, 11), (9, 10)]
    cells = ring + block(WATER_CELLS - len(ring))
    assert refusal(text_of(cells)) == (
        "land cell (10, 10) cannot be reached from (0, 0): the land of the region falls into 2 "
        "parts of 1999 and 1 cells (the first holds (0, 0))"
    )


def test_land_split_in_two_is_refused() -> None:
    wall = [(x, 20) for x in range(50)]
    cells = wall + block(WATER_CELLS - len(wall), y0=30)
    region = np.zeros((50, 50), dtype=bool)
    for x, y in cells:
        region[y, x] = True
    assert sorted(land_parts(region)) == [1000, 1000]
    assert refusal(text_of(cells)) == (
        "land cell (0, 21) cannot be reached from (0, 0): the land of the region falls into 2 "
        "parts of 1000 and 1000 cells (the first holds (0, 0))"
    )


def test_a_corner_cut_off_is_refused() -> None:
    # Water around the corner (49, 49): the corner is land, but an island.
    cells = [(48, 49), (49, 48), *block(WATER_CELLS - 2)]
    with raises(r"land cell \(49, 49\) cannot be reached from \(0, 0\).* parts of 1999 and 1"):
        Map.parse(text_of(cells))


# -- lenient loading ----------------------------------------------------------------------------


def test_lenient_accepts_water_on_a_corner_with_a_warning() -> None:
    text = text_of(with_water((49, 49), at=0))
    with pytest.warns(MapWarning, match=r"line 1: cell \(49, 49\) is water; the corners"):
        m = Map.parse(text, lenient=True)
    assert m.region[49, 49]
    assert m.water[49, 49]
    assert m.water[50, 49]
    assert m.water[50, 50]
    assert m.water[49, 50]
    assert len(m.problems) == 1
    assert "(49, 49)" in m.problems[0]
    assert m.water_count == WATER_CELLS


@pytest.mark.parametrize("count", [0, 120, 499, 501, 700])
def test_lenient_accepts_a_wrong_count_with_a_warning(count: int) -> None:
    with pytest.warns(MapWarning, match=f"the map has {count} water cells"):
        m = Map.parse(text_of(block(count)), lenient=True)
    assert m.water_count == count
    assert m.land_count == 2500 - count
    assert int(m.water.sum()) == 4 * count


def test_lenient_warns_once_per_broken_rule() -> None:
    cells = [(49, 0), (0, 49), *block(300)]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m = Map.parse(text_of(cells), lenient=True)
    messages = [str(w.message) for w in caught if issubclass(w.category, MapWarning)]
    assert messages == list(m.problems)
    assert messages == [
        "line 1: cell (49, 0) is water; the corners of the region must be land",
        "line 2: cell (0, 49) is water; the corners of the region must be land",
        "the map has 302 water cells; a map has exactly 500",
    ]


def test_lenient_still_refuses_disconnected_land_and_the_other_checks() -> None:
    ring = [(10, 9), (11, 10), (10, 11), (9, 10)]
    with raises(r"land cell \(10, 10\) cannot be reached"):
        Map.parse(text_of(ring), lenient=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with raises(r"land cell \(10, 10\) cannot be reached"):
            Map.parse(text_of([(49, 49), *ring]), lenient=True)
    # The warnings of checks 5 and 6 are only issued for a map that loads.
    assert not caught
    with raises("listed twice"):
        Map.parse("3 3\n3 3\n", lenient=True)
    with raises("outside"):
        Map.parse("3 50\n", lenient=True)
    with raises("expected"):
        Map.parse("3\n", lenient=True)
    with raises(r"cell \(0, 0\)"):
        Map.from_cells([(0, 0)], lenient=True)


def test_a_strict_map_issues_no_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Map.parse(text_of(valid_cells()), lenient=True)
        Map.named(DEFAULT_MAP)


def test_warnings_point_at_the_caller(tmp_path: Path) -> None:
    text = text_of(block(10))
    path = tmp_path / "small.txt"
    path.write_text(text)
    with pytest.warns(MapWarning):
        region = Map.parse(text, lenient=True).region
    calls: list[Callable[[], Map]] = [
        lambda: Map.parse(text, lenient=True),
        lambda: Map.load(path, lenient=True),
        lambda: Map.from_cells(block(10), lenient=True),
        lambda: Map.from_region(region, lenient=True),
        lambda: Map(region, lenient=True),
    ]
    for call in calls:
        with pytest.warns(MapWarning) as record:
            call()
        assert record[0].filename == __file__


# -- other constructors -------------------------------------------------------------------------


def test_from_cells_names_the_entry() -> None:
    cells = valid_cells()
    cells[9] = cells[2]
    with pytest.raises(InvalidBoard) as caught:
        Map.from_cells(cells)
    assert str(caught.value) == f"entry 9: cell {cells[2]} is listed twice (first at entry 2)"
    with raises(r"^entry 4: cell \(50, 0\) is outside the 50x50 region$"):
        Map.from_cells(with_water((50, 0), at=4))
    with raises(r"^entry 0: cell \(0, 49\) is water; the corners"):
        Map.from_cells(with_water((0, 49)))
    with raises(r"^entry 3: cell \(0, 0\) is water"):
        Map.from_cells(with_water((0, 0), at=3))


def test_from_cells_accepts_any_order_and_integer_arrays() -> None:
    cells = np.array(valid_cells())
    expected = Map.from_cells(cells)
    assert Map.from_cells(cells[::-1]) == expected
    assert Map.from_cells(cells.astype(np.uint16)) == expected
    assert Map.from_cells(cells.tolist()) == expected
    assert Map.from_cells(expected.water_cells) == expected


@pytest.mark.parametrize(
    "cells", [np.zeros((500, 3), dtype=int), np.zeros(500, dtype=int), np.zeros((500, 2))]
)
def test_from_cells_refuses_bad_arrays(cells: np.ndarray) -> None:
    with pytest.raises(InvalidParameter, match="cells must"):
        Map.from_cells(cells)


def test_from_cells_of_nothing_is_an_all_land_map_when_lenient() -> None:
    with pytest.warns(MapWarning, match="has 0 water cells"):
        m = Map.from_cells([], lenient=True)
    assert m.water_count == 0
    assert not m.water.any()


def test_from_region_and_the_constructor() -> None:
    lakes = Map.named("lakes")
    assert Map.from_region(lakes.region) == lakes
    assert Map(lakes.region, name="copy") == lakes
    assert Map(lakes.region.astype(np.int8)).name == "map"
    assert Map.from_region(lakes.region.astype(np.int64), name="x").name == "x"
    region = np.array(lakes.region)
    region[0, 49] = True  # the corner (49, 0)
    with raises(r"^cell \(49, 0\) is water; the corners of the region must be land$"):
        Map.from_region(region)
    region[0, 0] = True
    with raises(r"^cell \(0, 0\) is water"):
        Map.from_region(region)


@pytest.mark.parametrize(
    ("region", "match"),
    [
        (np.zeros((50, 49), dtype=bool), "shape"),
        (np.zeros((100, 100), dtype=bool), "shape"),
        (np.zeros((50, 50)), "bools"),
        (np.full((50, 50), 2), r"got 2 at cell \(0, 0\)"),
    ],
)
def test_from_region_refuses_bad_arrays(region: np.ndarray, match: str) -> None:
    with pytest.raises(InvalidParameter, match=match):
        Map.from_region(region)


def test_bad_arguments() -> None:
    with pytest.raises(InvalidParameter, match="text"):
        Map.parse(b"1 1")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameter, match="name"):
        Map.parse("1 1", name=3)  # type: ignore[arg-type]
    with pytest.raises(InvalidParameter, match="lenient"):
        Map.parse("1 1", lenient=1)  # type: ignore[arg-type]


# -- the map and the grid -----------------------------------------------------------------------


def all_maps() -> list[Map]:
    return [Map.named(name) for name in Map.names()] + [Map.generate(seed) for seed in range(3)]


@pytest.mark.parametrize("m", all_maps(), ids=repr)
def test_replication_by_quarter_turns(m: Map) -> None:
    water = m.water
    assert water.shape == (100, 100)
    assert water.dtype == np.bool_
    for turns in (1, 2, 3):
        assert np.array_equal(np.rot90(water, turns), water)
    assert np.array_equal(water[:50, :50], m.region)
    expected = np.zeros((100, 100), dtype=bool)
    for x, y in m.water_cells.tolist():
        for gx, gy in ((x, y), (99 - y, x), (99 - x, 99 - y), (y, 99 - x)):
            expected[gy, gx] = True
    assert np.array_equal(water, expected)
    assert int(water.sum()) == 4 * WATER_CELLS
    assert np.array_equal(m.land, ~water)
    for x, y in HOMES:
        assert m.land[y, x]
        assert not m.is_water(x, y)
    assert HOMES == ((0, 0), (99, 0), (99, 99), (0, 99))


@pytest.mark.parametrize("m", all_maps(), ids=repr)
def test_the_whole_grid_is_connected(m: Map) -> None:
    land = m.land
    seen = np.zeros_like(land)
    queue = deque([(0, 0)])
    seen[0, 0] = True
    while queue:
        x, y = queue.popleft()
        for nx, ny in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
            if 0 <= nx < 100 and 0 <= ny < 100 and land[ny, nx] and not seen[ny, nx]:
                seen[ny, nx] = True
                queue.append((nx, ny))
    assert np.array_equal(seen, land)


def test_arrays_are_read_only_and_the_map_immutable() -> None:
    m = Map.named("lakes")
    for array in (m.region, m.water, m.land, m.water_cells):
        assert not array.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 1
    with pytest.raises(AttributeError, match="immutable"):
        m.name = "other"  # type: ignore[misc]
    with pytest.raises(AttributeError, match="immutable"):
        del m._name


def test_water_cells_are_sorted_by_row_then_column() -> None:
    m = Map.named("rivers")
    cells = m.water_cells
    assert cells.shape == (WATER_CELLS, 2)
    assert cells.dtype == np.int64
    keys = cells[:, 1] * 50 + cells[:, 0]
    assert np.all(np.diff(keys) > 0)
    assert np.array_equal(m.region[cells[:, 1], cells[:, 0]], np.ones(WATER_CELLS, dtype=bool))


def test_equality_hash_repr_pickle() -> None:
    lakes, rivers = Map.named("lakes"), Map.named("rivers")
    renamed = lakes.renamed("elsewhere")
    assert renamed == lakes
    assert hash(renamed) == hash(lakes)
    assert renamed.name == "elsewhere"
    assert lakes != rivers
    assert lakes != "lakes"
    assert len({lakes, renamed, rivers}) == 2
    assert repr(lakes) == "Map(name='lakes', water=500)"
    copy = pickle.loads(pickle.dumps(lakes))
    assert copy == lakes
    assert copy.name == "lakes"
    assert not copy.water.flags.writeable
    with pytest.warns(MapWarning):
        small = Map.from_cells(block(7), lenient=True)
    again = pickle.loads(pickle.dumps(small))
    assert again.problems == small.problems
    assert repr(again) == "Map(name='map', water=7)"


# -- files --------------------------------------------------------------------------------------


@pytest.mark.parametrize("m", all_maps(), ids=repr)
def test_text_round_trip(m: Map, tmp_path: Path) -> None:
    text = m.to_text()
    assert text.startswith(f"# outpost map {m.name!r}: 500 water cells")
    assert text.count("\n") == WATER_CELLS + 1
    assert Map.parse(text) == m
    path = tmp_path / "saved.txt"
    m.save(path)
    loaded = Map.load(path)
    assert loaded == m
    assert loaded.name == "saved"
    assert Map.load(str(path)) == m


def test_load_prefixes_errors_and_warnings_with_the_path(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("1 1\n1 1\n")
    with pytest.raises(InvalidBoard) as caught:
        Map.load(path)
    assert str(caught.value) == f"{path}: line 2: cell (1, 1) is listed twice (first on line 1)"
    legacy = tmp_path / "legacy.txt"
    legacy.write_text(text_of(with_water((49, 49))))
    with pytest.raises(InvalidBoard, match=f"^{legacy}: line 1: cell \\(49, 49\\) is water"):
        Map.load(legacy)
    with pytest.warns(MapWarning, match=f"^{legacy}: line 1: cell \\(49, 49\\) is water"):
        m = Map.load(legacy, lenient=True)
    assert m.name == "legacy"
    assert m.problems[0].startswith(str(legacy))
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(InvalidBoard, match="UTF-8"):
        Map.load(binary)
    with pytest.raises(InvalidBoard, match=r"missing\.txt: cannot read the map: No such file"):
        Map.load(tmp_path / "missing.txt")


def test_load_accepts_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + text_of(valid_cells()).encode())
    assert Map.load(path) == Map.from_cells(valid_cells())


# -- the generator ------------------------------------------------------------------------------


@settings(max_examples=30)
@given(st.integers(0, 2**64 - 1))
def test_generated_maps_are_valid(seed: int) -> None:
    m = Map.generate(seed)
    check_valid(m)
    assert m.name == f"random:{seed}"
    # The generator keeps the home's surroundings dry.
    for x in range(3):
        for y in range(3 - x):
            assert not m.region[y, x]


@settings(max_examples=30)
@given(st.integers(0, 2**64 - 1), st.integers(0, 80), st.integers(0, 12))
def test_generated_maps_are_valid_for_any_counts(seed: int, lakes: int, rivers: int) -> None:
    check_valid(Map.generate(seed, lakes=lakes, rivers=rivers))


@pytest.mark.parametrize(("lakes", "rivers"), [(0, 0), (500, 0), (0, 100), (500, 100), (1, 0)])
def test_generated_maps_are_valid_for_extreme_counts(lakes: int, rivers: int) -> None:
    m = Map.generate(5, lakes=lakes, rivers=rivers, name="extreme")
    check_valid(m)
    assert m.name == "extreme"


def test_the_generator_is_deterministic_and_seeded() -> None:
    maps = [Map.generate(seed) for seed in range(20)]
    assert maps == [Map.generate(seed) for seed in range(20)]
    assert len(set(maps)) == 20
    assert Map.generate(3, lakes=4) != Map.generate(3, lakes=5)
    assert Map.generate(3, rivers=2) != Map.generate(3, rivers=1)
    assert Map.generate(3, lakes=2, rivers=1).name == "random:3:lakes=2:rivers=1"


def test_the_generator_reads_only_its_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []
    original = generator.Cursor

    def spy(seed: int, purpose: str, *ids: int) -> object:
        seen.append((seed, purpose, ids))
        return original(seed, purpose, *ids)

    monkeypatch.setattr(generator, "Cursor", spy)
    Map.generate(11, lakes=3, rivers=2)
    assert seen == [(11, "outpost.map", (0, part)) for part in range(7)]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"seed": -1}, "seed"),
        ({"seed": 2**64}, "seed"),
        ({"seed": 1.0}, "seed"),
        ({"seed": 1, "lakes": -1}, "lakes"),
        ({"seed": 1, "lakes": 501}, "lakes"),
        ({"seed": 1, "rivers": 101}, "rivers"),
        ({"seed": 1, "rivers": True}, "rivers"),
        ({"seed": 1, "name": 5}, "name"),
    ],
)
def test_generator_arguments_are_checked(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(InvalidParameter, match=match):
        Map.generate(**kwargs)  # type: ignore[arg-type]


def test_the_local_test_keeps_land_connected() -> None:
    # The table of the generator against a brute force over all 256 neighbourhoods: flooding
    # the centre of a 3x3 window must leave its land 4-neighbours connected in the window.
    ring = [(1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1), (0, 0)]
    for mask in range(256):
        land = {ring[i] for i in range(8) if mask >> i & 1}
        neighbours = [cell for cell in ((1, 0), (2, 1), (1, 2), (0, 1)) if cell in land]
        if not neighbours:
            assert not generator._SAFE[mask]
            continue
        reached = {neighbours[0]}
        queue = deque([neighbours[0]])
        while queue:
            x, y = queue.popleft()
            for other in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
                if other in land and other not in reached:
                    reached.add(other)
                    queue.append(other)
        assert bool(generator._SAFE[mask]) == all(c in reached for c in neighbours), mask


# -- shipped maps and specs ---------------------------------------------------------------------


def test_the_shipped_maps() -> None:
    assert Map.names() == tuple(sorted(SHIPPED))
    assert DEFAULT_MAP == "lakes"
    assert DEFAULT_MAP in Map.names()
    maps = [Map.named(name) for name in Map.names()]
    for name, m in zip(Map.names(), maps, strict=True):
        check_valid(m)
        assert m.name == name
        seed, kwargs = SHIPPED[name]
        remade = Map.generate(seed, lakes=kwargs.get("lakes"), rivers=kwargs.get("rivers"))
        assert remade == m, f"{name} is no longer what the generator makes"
    assert len(set(maps)) == len(maps)
    # Visibly different: any two differ in at least a third of their water cells.
    for i, a in enumerate(maps):
        for b in maps[i + 1 :]:
            assert int((a.region & ~b.region).sum()) > WATER_CELLS // 3


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_the_shipped_files_load_strictly(name: str) -> None:
    path = Path(map_module.__file__).parent / "maps" / f"{name}.txt"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert Map.load(path) == Map.named(name)


def test_unknown_names_are_refused() -> None:
    with pytest.raises(InvalidParameter, match="unknown map 'nowhere'; the named maps are "):
        Map.named("nowhere")


def test_parse_map(tmp_path: Path) -> None:
    assert parse_map("rivers") == Map.named("rivers")
    assert parse_map("random:9") == Map.generate(9)
    assert parse_map("random:9").name == "random:9"
    assert parse_map("random:9:rivers=3:lakes=1") == Map.generate(9, lakes=1, rivers=3)
    assert parse_map(Map.generate(9, lakes=1).name) == Map.generate(9, lakes=1)
    path = tmp_path / "mine.txt"
    Map.named("open").save(path)
    assert parse_map(path) == Map.named("open")
    assert parse_map(str(path)).name == "mine"
    legacy = tmp_path / "legacy.txt"
    legacy.write_text(text_of(with_water((49, 49))))
    with pytest.warns(MapWarning):
        parse_map(legacy, lenient=True)
    with pytest.raises(InvalidParameter, match="random:SEED"):
        parse_map("random:x")
    with pytest.raises(InvalidParameter, match="no map 'nowhere'"):
        parse_map("nowhere")
    with pytest.raises(InvalidParameter, match="spec"):
        parse_map(3)  # type: ignore[arg-type]


# -- pictures -----------------------------------------------------------------------------------


def test_render_map_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from stratagem.outpost.plot import EMPIRE_COLOURS, render_map

    assert len(EMPIRE_COLOURS) == 4
    assert len(set(EMPIRE_COLOURS)) == 4
    path = tmp_path / "lakes.png"
    render_map(Map.named("lakes"), path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    render_map(Map.generate(1), str(tmp_path / "generated.png"))
    assert (tmp_path / "generated.png").stat().st_size > 1000
    with pytest.raises(InvalidParameter, match="outpost Map"):
        render_map("lakes", path)  # type: ignore[arg-type]


def test_render_map_without_matplotlib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from stratagem.outpost.plot import render_map

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(InvalidParameter, match="pip install"):
        render_map(Map.named("lakes"), tmp_path / "x.png")
