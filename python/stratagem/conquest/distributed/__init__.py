"""One conquest game over MPI ranks, each holding only its share of the board.

:mod:`~stratagem.conquest.distributed.game` plays it; the rank's share is built whole-board
free by :mod:`~stratagem.conquest.distributed.rank_boards` from :mod:`.local_board` (grids),
:mod:`.local_rgg` (random geometric boards) or a board file, and its start by
:mod:`.graph_start`.
"""

from stratagem.conquest.distributed.game import (
    ORDERS,
    BoardShape,
    DistributedGame,
    Order,
    PartitionSummary,
    Traffic,
    cut_borders,
    partition,
    territory_order,
)

__all__ = [
    "ORDERS",
    "BoardShape",
    "DistributedGame",
    "Order",
    "PartitionSummary",
    "Traffic",
    "cut_borders",
    "partition",
    "territory_order",
]
