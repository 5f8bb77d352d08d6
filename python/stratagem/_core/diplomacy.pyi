"""``stratagem._core.diplomacy`` (rust/python/src/diplomacy.rs)."""

from collections.abc import Callable
from typing import Any, final

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "CONVENTIONS",
    "Board",
    "Combined",
    "Position",
]

CONVENTIONS: list[str]

@final
class Board:
    def __new__(
        cls,
        powers: int,
        kind: NDArray[np.int64],
        centre_province: NDArray[np.int64],
        centre_home: NDArray[np.int64],
        army_province: NDArray[np.int64],
        fleet_province: NDArray[np.int64],
        army_moves: tuple[NDArray[np.int64], NDArray[np.int64]],
        fleet_moves: tuple[NDArray[np.int64], NDArray[np.int64]],
    ) -> Board: ...
    def open_problem(
        self, convention: str, victory: bool, units: list[int] | None = None
    ) -> tuple[int, list[tuple[int, int, list[int], int, int]]]: ...

@final
class Position:
    def __new__(
        cls,
        board: Board,
        unit_power: NDArray[np.int64],
        unit_fleet: NDArray[np.bool_],
        unit_location: NDArray[np.int64],
        owner: NDArray[np.int64],
    ) -> Position: ...
    def counts(self, convention: str) -> list[int]: ...
    def options(self, power: int, convention: str, start: int, stop: int) -> NDArray[np.uint8]: ...
    def rank(self, power: int, convention: str, slots: list[int]) -> int: ...
    def values(
        self, convention: str, profile: list[int | None], weights: list[int]
    ) -> NDArray[np.int64]: ...
    def search(
        self,
        method: str,
        convention: str,
        weights: list[int],
        seed: int,
        steps: int,
        max_evaluations: int,
        time_limit: float | None = None,
        start: list[int] | None = None,
        threads: int | None = None,
        progress: Callable[[int], object] | None = None,
        evaluator: Callable[[list[tuple[int, bool, int]]], list[float]] | None = None,
        order: list[int] | None = None,
    ) -> dict[str, Any]: ...
    def retreat_plan(
        self,
        power: int,
        dislodged: list[tuple[bool, int, int]],
        standoffs: list[int],
        convention: str,
        capture: bool,
        weights: list[int],
        joint: bool,
    ) -> tuple[list[int | None], int, int]: ...
    def retreat_options(
        self, fleet: bool, location: int, attacker: int, standoffs: list[int]
    ) -> list[int]: ...
    def units_after(self, convention: str, profile: list[int]) -> list[tuple[int, bool, int]]: ...

@final
class Combined:
    def __new__(cls, position: Position, convention: str, weights: list[int]) -> Combined: ...
    @staticmethod
    def restore(
        position: Position,
        convention: str,
        weights: list[int],
        state: dict[str, Any],
    ) -> Combined: ...
    def advance(
        self,
        max_evaluations: int,
        time_limit: float | None = None,
        progress: Callable[[int], object] | None = None,
    ) -> dict[str, Any]: ...
    def state(self) -> dict[str, Any]: ...
    def outcome(self) -> dict[str, Any]: ...
