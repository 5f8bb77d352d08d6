"""The grid of an outpost game: its size, the region a map file describes, the homes."""

from __future__ import annotations

__all__ = ["CORNERS", "GRID", "HOMES", "REGION", "WATER_CELLS"]

#: The side of the grid.
GRID = 100
#: The side of the region a map file describes (one quarter of the grid).
REGION = 50
#: The number of water cells of a valid map's region (one per four land cells).
WATER_CELLS = 500
#: The home cell of each empire 0..3.
HOMES: tuple[tuple[int, int], ...] = ((0, 0), (99, 0), (99, 99), (0, 99))
#: The corners of the region, which stay land.
CORNERS = ((0, 0), (REGION - 1, 0), (0, REGION - 1), (REGION - 1, REGION - 1))
