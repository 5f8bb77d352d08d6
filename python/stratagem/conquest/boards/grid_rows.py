"""The rows of a grid board computed from its spec alone: the single-process game builds a
grid in the engine from them, and each rank of a distributed game its share."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from stratagem import _core
from stratagem.conquest.boards.layouts import ENGINE_BYTES, grid_of_spec

__all__ = ["ENGINE_PLANE_BYTES", "GridRows"]

#: ``layouts.ENGINE_BYTES`` of a grid the engine keeps no rows of (``GridRows.engine_bytes``):
#: 4 bytes a territory (offsets) and 16 a border (neighbours and reverses) less.
ENGINE_PLANE_BYTES = (22, 16)

IntArray = NDArray[np.int64]


@dataclass(frozen=True)
class GridRows:
    """The rows of the board ``grid:RxC`` (``:torus``) computed from the spec alone."""

    n_rows: int
    n_cols: int
    torus: bool

    @classmethod
    def of_spec(cls, text: str) -> GridRows | None:
        """The grid of a spec (checked as ``Board.from_spec`` checks it, errors alike), or
        None for a spec of another board."""
        shape = grid_of_spec(text)
        return None if shape is None else cls(*shape)

    @property
    def kind(self) -> str:
        return f"grid:{self.n_rows}x{self.n_cols}" + (":torus" if self.torus else "")

    @property
    def n(self) -> int:
        return self.n_rows * self.n_cols

    @property
    def n_borders(self) -> int:
        rows, cols = self.n_rows, self.n_cols
        return 2 * rows * cols if self.torus else rows * (cols - 1) + cols * (rows - 1)

    @property
    def engine_bytes(self) -> tuple[int, int]:
        """Bytes a game holds at its peak, per territory and per border, on this grid built
        in the engine: ``ENGINE_PLANE_BYTES`` when it is not a torus and has more than
        ``SLOT_EDGES`` directed borders (the engine keeps no rows of it: their offsets,
        neighbours and reverses are closed forms), else ``ENGINE_BYTES``.

        >>> GridRows(10000, 10000, False).engine_bytes, GridRows(10000, 10000, True).engine_bytes
        ((22, 16), (26, 32))
        >>> GridRows(1000, 1000, False).engine_bytes
        (26, 32)
        """
        if not self.torus and 2 * self.n_borders > _core.conquest.SLOT_EDGES:
            return ENGINE_PLANE_BYTES
        return ENGINE_BYTES

    def distances(self, source: int, ids: IntArray) -> IntArray:
        """Borders crossed on a shortest path from ``source`` to each of ``ids``."""
        return self._hops(source, *np.divmod(ids, self.n_cols))

    def _hops(self, source: int, r: IntArray, c: IntArray) -> IntArray:
        """:meth:`distances` to the territories in rows ``r`` and columns ``c``."""
        dr, dc = np.abs(r - source // self.n_cols), np.abs(c - source % self.n_cols)
        if self.torus:
            np.minimum(dr, self.n_rows - dr, out=dr)
            np.minimum(dc, self.n_cols - dc, out=dc)
        dr += dc
        return dr
