"""A distributed conquest game where the ranks fall out of step; run under mpiexec.

Modes:

``place``
    Rank 1's engine raises a RuntimeError from ``place()`` in turn 3, while the other ranks
    wait for its placements: the whole job must end (non-zero exit status, the error and the
    rank on stderr) instead of hanging.
``order``
    Rank 1 makes the game with ``order="rcm"``, the others with ``"natural"``: every rank
    should raise InconsistentInput when the game is made, print it and exit with status 0.

Each rank prints ``rank R played turn T`` after every turn it finishes.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from stratagem.conquest import Board, assign_regions
from stratagem.conquest.distributed import DistributedGame
from stratagem.errors import InconsistentInput
from stratagem.mpi import world

FAIL_IN_TURN = 3


class FailingPart:
    """The rank's engine part, except that ``place()`` raises in turn ``FAIL_IN_TURN``."""

    def __init__(self, part: Any, rank: int) -> None:
        self._part = part
        self._rank = rank

    def __getattr__(self, name: str) -> Any:
        return getattr(self._part, name)

    def place(self) -> Any:
        if self._part.standing.turn + 1 == FAIL_IN_TURN:  # `turn` counts the turns already played
            raise RuntimeError(f"deliberate failure on rank {self._rank} in turn {FAIL_IN_TURN}")
        return self._part.place()


def say(line: str) -> None:
    """One write per line, so that lines of different ranks do not break into each other."""
    os.write(sys.stdout.fileno(), f"{line}\n".encode())


def main(mode: str) -> None:
    if mode not in ("place", "order"):
        raise SystemExit(f"unknown mode {mode!r}")
    comm = world()
    board = Board.grid(16, 16)
    team = assign_regions(board, 2, seed=1)
    order = "rcm" if mode == "order" and comm.rank == 1 else "natural"
    try:
        game = DistributedGame(
            board, team, 6, ["balanced", "opportunist"], seed=2, max_turns=50, order=order
        )
    except InconsistentInput as error:
        # Rank 0 prints every rank's error: lines of two ranks may interleave on the
        # launcher's stdout. Gathering also shows that the ranks are still in step.
        for rank, text in enumerate(comm.allgather_object(str(error))):
            if comm.rank == 0:
                print(f"rank {rank}: InconsistentInput: {text}", flush=True)
        return
    if mode == "place" and comm.rank == 1:
        game._part = FailingPart(game._part, comm.rank)  # type: ignore[assignment]

    def report(played: DistributedGame) -> None:
        say(f"rank {comm.rank} played turn {played.turn}")

    game.run(10, on_turn=report)
    say(f"rank {comm.rank} finished")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "place")
