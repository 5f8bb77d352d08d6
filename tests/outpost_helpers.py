"""Python players the outpost tests share (a player's label is its class name, so the names
stay as the tests expect them)."""

from __future__ import annotations

from typing import Any

from stratagem.outpost import State


class Wanderer:
    """A deterministic Python player: each outpost steps in direction (id + turn) % 5, and the
    newest outpost goes when one must."""

    def __init__(self) -> None:
        self.games = 0  # games begun (moves asked on turn 1)

    def move(self, state: State) -> list[int]:
        self.games += state.turn == 1
        return [(int(i) + state.turn) % 5 for i in state.mine()[:, 0]]

    def disband(self, state: State) -> int:
        return int(state.mine()[-1, 0])


class Still:
    """What a player cut off every time plays: every outpost stays, the newest goes (the
    reference a broken or hanging player is compared with)."""

    def move(self, state: State) -> list[int]:
        return [0] * len(state.mine())

    def disband(self, state: State) -> int:
        return int(state.mine()[-1, 0])


class Looping:
    """A Python player that never answers: ``while True: pass`` in both answers."""

    def move(self, state: State) -> Any:
        while True:
            pass

    def disband(self, state: State) -> Any:
        while True:
            pass


# Parameters the game and the oracle both refuse, in the same words.
BAD_PARAMETERS = [
    ({"r": -1}, "r must be at least 0"),
    ({"r": 199}, "r must be at most 198"),
    ({"L": 0}, "L must be at least 1"),
    ({"T": -1}, "T must be at least 0"),
    ({"T": 1_000_001}, "T must be at most 1000000"),
]
