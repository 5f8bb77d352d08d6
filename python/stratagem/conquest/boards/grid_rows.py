"""The rows of a grid board computed from its spec alone: the single-process game builds a
grid in the engine from them, and each rank of a distributed game its share."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from stratagem.conquest.boards.layouts import grid_of_spec

__all__ = ["GridRows"]

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
