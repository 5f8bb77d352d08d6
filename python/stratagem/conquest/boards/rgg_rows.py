"""The borders of a random geometric board found a band of cell rows at a time, for the whole
board (:func:`stratagem.conquest.boards.layouts.random_geometric`) and for the rows a rank holds
(:mod:`stratagem.conquest.distributed.local_rgg`).

Two points border when ``dx * dx + dy * dy <= radius * radius`` in float64 and their cell rows
are at most one apart (:class:`~stratagem.conquest.boards.layouts.Geometric`). The points are sorted
by cell row, so the rows of a band of cell rows are a run of territories, and their neighbours
lie in the band or in the row on either side of it: each band gives its own rows of the CSR,
in order, with temporaries the size of the band, and reports them as it goes (a progress bar
counts the points whose rows are written).

>>> points = np.array([[0.1, 0.1], [0.3, 0.1], [0.1, 0.6], [0.9, 0.9]])
>>> row = np.array([0, 0, 1, 1])
>>> indptr, indices = csr_by_bands(points, row, 0.5, advance=lambda done: None)
>>> indptr.tolist(), indices.tolist()
([0, 2, 3, 4, 4], [1, 2, 0, 0])
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from stratagem.graph import FloatArray, IntArray

__all__ = ["BAND_POINTS", "csr_by_bands", "row_order"]

#: About this many points make a band of cell rows (a whole number of rows).
BAND_POINTS = 1 << 18
# The k-d tree proposes the pairs within (1 + _PAIR_SLACK) radius, far above its rounding, so
# that it proposes every pair the rule keeps.
_PAIR_SLACK = 2.0**-30
# Cells per side below which the cell rows and columns are sorted as 16-bit keys (radix).
_SMALL_KEYS = 1 << 16


def row_order(row: IntArray, column: IntArray, cells: int) -> IntArray:
    """The order that sorts points by cell ``row``, then ``column``, then index:
    ``np.lexsort((column, row))``, by two stable radix sorts when ``cells`` allows."""
    if cells > _SMALL_KEYS:
        return np.lexsort((column, row)).astype(np.int64, copy=False)
    by_column = np.argsort(column.astype(np.uint16), kind="stable")
    return by_column[np.argsort(row[by_column].astype(np.uint16), kind="stable")]


def csr_by_bands(
    points: FloatArray, row: IntArray, radius: float, *, advance: Callable[[int], object]
) -> tuple[IntArray, IntArray]:
    """The CSR pair of the borders of ``points`` (sorted by their cell rows ``row``) within
    ``radius``, built a band of about :data:`BAND_POINTS` points at a time; ``advance(k)``
    is called as the rows of ``k`` more points are written."""
    n = points.shape[0]
    # Cut at the first point of a cell row, about every BAND_POINTS points.
    bounds = np.append(np.flatnonzero(np.diff(row)) + 1, n)
    cuts = np.unique(
        np.concatenate(
            ([0], bounds[np.searchsorted(bounds, np.arange(BAND_POINTS, n, BAND_POINTS))], [n])
        )
    )
    indptr = np.zeros(n + 1, dtype=np.int64)
    parts = []
    for a, b in zip(cuts[:-1].tolist(), cuts[1:].tolist(), strict=True):
        # The band's rows and one row on either side hold every neighbour of the band.
        lo = int(np.searchsorted(row, row[a] - 1, side="left"))
        hi = int(np.searchsorted(row, row[b - 1] + 1, side="right"))
        sources, neighbours = _band_rows(points[lo:hi], row[lo:hi], a - lo, b - lo, radius)
        np.cumsum(np.bincount(sources, minlength=b - a), out=indptr[a + 1 : b + 1])
        indptr[a + 1 : b + 1] += indptr[a]
        parts.append(neighbours + lo)
        advance(b - a)
    indices = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    return indptr, indices


def _band_rows(
    points: FloatArray, row: IntArray, a: int, b: int, radius: float
) -> tuple[IntArray, IntArray]:
    """The rows of points ``a .. b - 1`` of a band and the rows about it: the source of every
    entry (``0`` for point ``a``) and its neighbour, rows in order, each row ascending."""
    from scipy.spatial import cKDTree

    pairs = cKDTree(points).query_pairs(radius * (1.0 + _PAIR_SLACK), output_type="ndarray")
    first, second = pairs[:, 0].astype(np.int64), pairs[:, 1].astype(np.int64)
    dx = points[first, 0] - points[second, 0]
    dy = points[first, 1] - points[second, 1]
    close = (dx * dx + dy * dy <= radius * radius) & (np.abs(row[first] - row[second]) <= 1)
    first, second = first[close], second[close]
    source = np.concatenate((first, second))
    target = np.concatenate((second, first))
    mine = (source >= a) & (source < b)
    width = points.shape[0]
    keys = (source[mine] - a) * width + target[mine]
    keys.sort()
    return keys // width, keys % width
