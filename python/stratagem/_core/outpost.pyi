"""``stratagem._core.outpost`` (rust/python/src/outpost.rs)."""

from collections.abc import Callable
from typing import final

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "PLAYERS",
    "Game",
    "control",
    "cut_off",
    "tournament",
]

PLAYERS: list[str]

@final
class Game:
    def __new__(
        cls,
        water: NDArray[np.bool_],
        r: int,
        land: int,
        water_per_outpost: int,
        turns: int,
        players: list[str | None],
        seed: int,
        supply_fringe: bool = False,
        sequential_moves: bool = False,
        extra_turn: bool = False,
    ) -> Game: ...
    @staticmethod
    def restore(
        water: NDArray[np.bool_],
        r: int,
        land: int,
        water_per_outpost: int,
        turns: int,
        players: list[str | None],
        seed: int,
        turn: int,
        outposts: NDArray[np.int64],
        next_id: int,
        history: NDArray[np.uint32],
        supply_fringe: bool = False,
        sequential_moves: bool = False,
        extra_turn: bool = False,
    ) -> Game: ...
    @property
    def turn(self) -> int: ...
    @property
    def last_turn(self) -> int: ...
    @property
    def finished(self) -> bool: ...
    @property
    def in_turn(self) -> bool: ...
    @property
    def next_id(self) -> int: ...
    def control(self) -> NDArray[np.int8]: ...
    def outposts(self) -> NDArray[np.int32]: ...
    def history(self) -> NDArray[np.uint32]: ...
    def scores(self) -> list[int]: ...
    def season_demands(self) -> list[int]: ...
    def begin_turn(self, disbands: list[int | None]) -> None: ...
    def apply_moves(self, empires: list[int], answers: list[NDArray[np.uint8] | None]) -> None: ...
    def end_turn(self) -> None: ...
    def abort_turn(self) -> None: ...
    def take_log(self) -> list[tuple[int, int, str, int, str]]: ...
    def run(self, turns: int, progress: Callable[[int], object] | None = None) -> int: ...
    def builtin_moves(self, kind: str, empire: int, turn: int) -> NDArray[np.uint8]: ...
    def builtin_disband(self, kind: str, empire: int, turn: int) -> int: ...
    def copy(self) -> Game: ...
    def set_players(self, players: list[str | None]) -> None: ...

def control(water: NDArray[np.bool_], outposts: NDArray[np.int64], r: int) -> NDArray[np.int8]: ...
def cut_off(
    water: NDArray[np.bool_], control: NDArray[np.int8], outposts: NDArray[np.int64], fringe: bool
) -> list[int]: ...
def tournament(
    waters: list[NDArray[np.bool_]],
    games: NDArray[np.int64],
    players: list[list[str]],
    seeds: NDArray[np.uint64],
    threads: int | None = None,
    progress: Callable[[int], object] | None = None,
) -> NDArray[np.uint32]: ...
