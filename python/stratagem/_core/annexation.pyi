"""``stratagem._core.annexation`` (rust/python/src/annexation.rs)."""

from collections.abc import Callable
from typing import final

import numpy as np
from numpy.typing import NDArray

# batch_step reads the state's arrays by attribute.
from stratagem.annexation.batch import BatchState

__all__ = [
    "AIS",
    "HEURISTICS",
    "MODES",
    "Agent",
    "Board",
    "Game",
    "Vector",
    "batch_step",
    "play_fixtures",
    "playouts",
]

AIS: list[str]
HEURISTICS: list[str]
MODES: list[str]

#: observations, rewards, terminated, truncated, masks
_Buffers = tuple[
    NDArray[np.int8],
    NDArray[np.float64],
    NDArray[np.bool_],
    NDArray[np.bool_],
    NDArray[np.int8],
    NDArray[np.int8],
]

@final
class Vector:
    def __new__(
        cls,
        board: Board,
        num_envs: int,
        threads: int | None = None,
        *,
        fresh: bool = False,
        opponent: Agent | None = None,
        seat: int = 0,
        same_step: bool = False,
    ) -> Vector: ...
    @property
    def num_envs(self) -> int: ...
    def board_colours(self, env: int) -> NDArray[np.uint8]: ...
    def reset(self, seeds: NDArray[np.uint64], buffers: _Buffers) -> None: ...
    def step(self, actions: NDArray[np.int64], buffers: _Buffers) -> None: ...

@final
class Board:
    def __new__(
        cls,
        offsets: NDArray[np.int64],
        neighbours: NDArray[np.int64],
        colours: NDArray[np.uint8],
        colour_count: int,
        starts: NDArray[np.int64],
        mode: str = "flood",
        allow_opponent_colours: bool = False,
        max_moves: int | None = None,
    ) -> Board: ...

@final
class Game:
    def __new__(cls, board: Board) -> Game: ...
    def legal_moves(self) -> list[int]: ...
    def play(self, colour: int) -> None: ...
    def owner(self) -> NDArray[np.int8]: ...
    def cell_colours(self) -> NDArray[np.uint8]: ...
    @property
    def player_colours(self) -> bytes: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def to_move(self) -> int: ...
    @property
    def moves(self) -> int: ...
    @property
    def history(self) -> bytes: ...
    @property
    def outcome(self) -> tuple[str, int | None]: ...
    def gain(self, player: int, colour: int) -> int: ...
    def reach(self, player: int) -> int: ...
    def margin(self, player: int) -> int: ...
    def copy(self) -> Game: ...

@final
class Agent:
    def __new__(
        cls,
        kind: str,
        seed: int = 0,
        depth: int = 3,
        heuristic: str = "reach",
        iterations: int | None = None,
        time: float | None = None,
        c: float = 0.5,
        playouts: int = 1,
        trees: int = 1,
        reuse: bool = True,
        margin: float = 0.5,
        greedy: int = 6,
        bias: float = 3.0,
        plan: int = 100,
        threads: int | None = None,
    ) -> Agent: ...
    def choose(self, game: Game) -> int: ...
    def spawn(self, seed: int) -> Agent: ...
    @property
    def seed(self) -> int: ...
    @property
    def last_iterations(self) -> int: ...
    def root_visits(self) -> list[int]: ...

def playouts(
    game: Game,
    n: int,
    policy: str,
    steps: int | None,
    seed: int,
    threads: int | None = None,
    progress: Callable[[int], object] | None = None,
) -> tuple[list[int], int, int]: ...
def play_fixtures(
    board: Board,
    colours: NDArray[np.uint8],
    first: NDArray[np.uint8],
    seeds: NDArray[np.uint64],
    a: Agent,
    b: Agent,
    threads: int | None = None,
) -> tuple[NDArray[np.int8], NDArray[np.int64], NDArray[np.int64]]: ...
def batch_step(
    board: Board,
    state: BatchState,
    actions: NDArray[np.int64],
    threads: int | None = None,
) -> tuple[
    NDArray[np.int8],
    NDArray[np.uint8],
    NDArray[np.int8],
    NDArray[np.int64],
    NDArray[np.int8],
    NDArray[np.bool_],
    NDArray[np.float32],
    NDArray[np.bool_],
]: ...
