"""CSR rows of an undirected graph from an edge list, in plain Python, for tests that build
small graphs by hand (independent of the product's graph code)."""

from __future__ import annotations

from collections.abc import Iterable


def csr_lists(n: int, edges: Iterable[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """``(offsets, neighbours)`` with every edge in both rows, rows sorted ascending."""
    rows: list[set[int]] = [set() for _ in range(n)]
    for x, y in edges:
        rows[x].add(y)
        rows[y].add(x)
    offsets, neighbours = [0], []
    for row in rows:
        neighbours.extend(sorted(row))
        offsets.append(len(neighbours))
    return offsets, neighbours
