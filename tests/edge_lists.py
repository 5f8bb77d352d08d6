"""Plain-Python graph pieces for the tests, independent of the product's graph code: CSR rows
of an undirected graph from an edge list (for small graphs built by hand), and breadth-first
distances (the reference for the product's searches)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence


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


def bfs_distances(rows: Sequence[Sequence[int]], source: int) -> list[int]:
    """Breadth-first distances from ``source`` over the adjacency ``rows``, -1 where
    unreachable."""
    result = [-1] * len(rows)
    result[source] = 0
    queue = deque([source])
    while queue:
        x = queue.popleft()
        for y in rows[x]:
            if result[y] < 0:
                result[y] = result[x] + 1
                queue.append(y)
    return result
