"""The random map generator of :meth:`stratagem.outpost.Map.generate`: lakes and rivers
flooded cell by cell from the streams ``(seed, "outpost.map", [attempt, part])``."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from stratagem.outpost.geometry import CORNERS, REGION, WATER_CELLS
from stratagem.rng import Cursor

__all__ = ["MAP_PURPOSE", "generate_region"]

#: The purpose of the generator's random streams (``docs/outpost-rules.md``, "Random streams").
MAP_PURPOSE = "outpost.map"
# Branches a river grows from its own cells when its trunk reached the edges too soon.
_TRIBUTARIES = 4


_W = REGION + 2
_STEPS = (-_W, 1, _W, -1)  # N, E, S, W
# The eight cells around a cell, in ring order; the even positions are its 4-neighbours.
_RING = (-_W, -_W + 1, 1, _W + 1, _W, _W - 1, -1, -_W - 1)


def _safe_table() -> bytes:
    """For each 8-bit mask of land around a cell (bit i: ring position i), whether turning
    the cell to water keeps its land 4-neighbours connected through the ring: exactly one
    run of land around the ring holds 4-neighbours."""
    table = bytearray(256)
    for mask in range(256):
        land = [(mask >> i) & 1 for i in range(8)]
        if all(land):
            table[mask] = 1
            continue
        if not any(land):
            continue
        start = land.index(0)  # walk the ring from a gap so that runs do not wrap
        runs = 0
        in_run = False
        has_neighbour = False
        for k in range(1, 9):
            i = (start + k) % 8
            if land[i]:
                in_run = True
                has_neighbour = has_neighbour or i % 2 == 0
            else:
                if in_run and has_neighbour:
                    runs += 1
                in_run = has_neighbour = False
        table[mask] = 1 if runs == 1 else 0
    return bytes(table)


_SAFE = _safe_table()


class _Generator:
    """One attempt of :meth:`Map.generate`."""

    def __init__(self, seed: int, attempt: int) -> None:
        self.seed = seed
        self.attempt = attempt
        size = _W * _W
        self.land = bytearray(size)
        self.water = bytearray(size)
        self.allowed = bytearray(size)
        for y in range(REGION):
            for x in range(REGION):
                cell = (y + 1) * _W + x + 1
                self.land[cell] = 1
                if (x, y) not in CORNERS and x + y > 2:
                    self.allowed[cell] = 1
        self.count = 0

    def cursor(self, part: int) -> Cursor:
        return Cursor(self.seed, MAP_PURPOSE, self.attempt, part)

    def flood(self, cell: int) -> bool:
        """Turn ``cell`` to water if the rules of the generator let it."""
        land = self.land
        if not (land[cell] and self.allowed[cell]):
            return False
        mask = 0
        for bit, step in enumerate(_RING):
            mask |= land[cell + step] << bit
        if not _SAFE[mask]:
            return False
        land[cell] = 0
        self.water[cell] = 1
        self.count += 1
        return True

    def wet_neighbours(self, cell: int) -> int:
        water = self.water
        return water[cell - _W] + water[cell + 1] + water[cell + _W] + water[cell - 1]

    def seed_cell(self, cursor: Cursor) -> int | None:
        """Flood a random cell and return it: up to 32 uniform draws, then the first cell
        that can be flooded in flat order from the last draw; None if none can."""
        total = REGION * REGION
        index = 0
        for _ in range(32):
            index = cursor.below(total)
            cell = (index // REGION + 1) * _W + index % REGION + 1
            if self.flood(cell):
                return cell
        for k in range(1, total):
            other = (index + k) % total
            cell = (other // REGION + 1) * _W + other % REGION + 1
            if self.flood(cell):
                return cell
        return None

    def grow(self, cursor: Cursor, shore: list[int], target: int) -> None:
        """Flood cells of ``shore`` (land next to the water being grown), two random
        candidates at a time, the one with more water neighbours first, until ``target``
        cells are water in all or the shore runs out."""
        land = self.land
        while self.count < target and shore:
            i = cursor.below(len(shore))
            j = cursor.below(len(shore))
            if self.wet_neighbours(shore[j]) > self.wet_neighbours(shore[i]):
                i = j
            cell = shore[i]
            shore[i] = shore[-1]
            shore.pop()
            if self.flood(cell):
                shore.extend(cell + step for step in _STEPS if land[cell + step])

    def river(self, cursor: Cursor, cells: int, width: int) -> None:
        """A river of up to ``cells`` cells: a trunk flowing both ways from a random cell,
        then up to :data:`_TRIBUTARIES` tributaries from random cells of the river while
        cells are left."""
        target = min(WATER_CELLS, self.count + cells)
        start = self.seed_cell(cursor)
        if start is None:
            return
        course = [start]
        main = cursor.below(4)
        self.flow(cursor, course, start, main, target=target, width=width)
        self.flow(cursor, course, start, (main + 2) % 4, target=target, width=width)
        for _ in range(_TRIBUTARIES):
            if self.count >= target:
                return
            source = course[cursor.below(len(course))]
            self.flow(cursor, course, source, cursor.below(4), target=target, width=width)

    def flow(
        self,
        cursor: Cursor,
        course: list[int],
        cell: int,
        direction: int,
        *,
        target: int,
        width: int,
    ) -> None:
        """Flow from ``cell`` along ``direction`` until the region's edge or ``target``: each
        step, ``below(8)`` turns a quarter left (0) or right (1) of ``direction``, comes back
        to it (2 to 4) or keeps the heading (5 to 7); the cell reached is flooded if it may be
        (else it stays land, a ford), and with width 2 the cell to its right too."""
        heading = direction
        for _ in range(2 * REGION):
            if self.count >= target:
                return
            turn = cursor.below(8)
            if turn < 2:
                heading = (direction + 3 + 2 * turn) % 4
            elif turn < 5:
                heading = direction
            cell += _STEPS[heading]
            if self.flood(cell):
                course.append(cell)
            side = cell + _STEPS[(heading + 1) % 4]
            if width == 2 and self.count < target and self.flood(side):
                course.append(side)
            x, y = cell % _W - 1, cell // _W - 1
            if not (0 < x < REGION - 1 and 0 < y < REGION - 1):
                return  # the region's edge

    def lake(self, cursor: Cursor, cells: int) -> None:
        target = min(WATER_CELLS, self.count + cells)
        if cells <= 0:
            return
        start = self.seed_cell(cursor)
        if start is None:
            return
        shore = [start + step for step in _STEPS if self.land[start + step]]
        self.grow(cursor, shore, target)

    def fill(self, cursor: Cursor) -> bool:
        land = self.land
        water = self.water
        shore = [
            cell
            for cell in range(_W, _W * (_W - 1))
            if land[cell] and any(water[cell + step] for step in _STEPS)
        ]
        while self.count < WATER_CELLS:
            self.grow(cursor, shore, WATER_CELLS)
            if self.count < WATER_CELLS:
                start = self.seed_cell(cursor)
                if start is None:  # pragma: no cover - 2000 land cells always have room
                    return False
                shore = [start + step for step in _STEPS if land[start + step]]
        return True

    def run(self, lakes: int | None, rivers: int | None) -> NDArray[np.bool_] | None:
        plan = self.cursor(0)
        lake_count = 2 + plan.below(5) if lakes is None else lakes
        river_count = 1 + plan.below(3) if rivers is None else rivers
        river_share = 0
        if river_count:
            river_share = 150 + plan.below(201) if lake_count else WATER_CELLS
        widths = [2 if plan.below(3) == 0 else 1 for _ in range(river_count)]
        weights = [1 + plan.below(4) for _ in range(lake_count)]
        for k, width in enumerate(widths):
            share = river_share // river_count
            self.river(self.cursor(1 + k), share, width)
        left = WATER_CELLS - self.count
        total_weight = sum(weights)
        given = 0
        for k, weight in enumerate(weights):
            cells = left - given if k == lake_count - 1 else left * weight // total_weight
            given += cells
            self.lake(self.cursor(1 + river_count + k), cells)
        if not self.fill(self.cursor(1 + river_count + lake_count)):
            return None  # pragma: no cover
        padded = np.frombuffer(bytes(self.water), dtype=np.uint8).reshape(_W, _W)
        return np.array(padded[1:-1, 1:-1] != 0)


def generate_region(
    seed: int, attempt: int, lakes: int | None, rivers: int | None
) -> NDArray[np.bool_] | None:
    """The water of one attempt's region (``None`` if the attempt failed)."""
    return _Generator(seed, attempt).run(lakes, rivers)
