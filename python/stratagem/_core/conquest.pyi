"""``stratagem._core.conquest`` (rust/python/src/conquest.rs, conquest_part.rs,
conquest_start.rs)."""

from collections.abc import Callable
from typing import final

import numpy as np
from numpy.typing import NDArray

# Part reads the share's arrays by attribute.
from stratagem.conquest.distributed.local_board import PartArrays

__all__ = [
    "MAX_ODDS_PRODUCT",
    "MAX_ODDS_SIDE",
    "MAX_TEAMS",
    "MAX_TERRITORIES",
    "POLICIES",
    "SEQUENTIAL_TERRITORIES",
    "SLOT_EDGES",
    "TROOP_LIMIT",
    "Board",
    "Game",
    "Part",
    "Share",
    "Standing",
    "attachment_csr",
    "battle_odds",
    "battle_odds_exact",
    "board_regions",
    "check_policy",
    "csr_share",
    "first_in_order",
    "grid_csr",
    "grid_part",
    "grid_share",
    "part_share",
    "regions_cuts",
    "regions_of",
    "rows_share",
    "simulate_battle",
    "simulate_many",
]

POLICIES: list[str]

def check_policy(name: str) -> None:
    """Refuses (InvalidParameter, naming it) a policy name the engine does not know."""

TROOP_LIMIT: int
MAX_TEAMS: int
MAX_TERRITORIES: int
#: Boards of fewer territories play their turns on one thread, whatever ``threads`` says.
SEQUENTIAL_TERRITORIES: int
#: Boards of more directed borders keep one-byte reverses, and a grid that is not a torus
#: keeps no rows at all (its rows and reverses are closed forms).
SLOT_EDGES: int
MAX_ODDS_SIDE: int
MAX_ODDS_PRODUCT: int

#: What ``resume`` takes: turn, status, winner, and territories and troops per turn.
_SavedRecord = tuple[int, str, int | None, NDArray[np.int64], NDArray[np.int64]]

@final
class Board:
    def __new__(cls, indptr: NDArray[np.int64], indices: NDArray[np.int64]) -> Board: ...
    @staticmethod
    def grid(rows: int, cols: int, torus: bool) -> Board: ...
    @property
    def n(self) -> int: ...
    @property
    def n_borders(self) -> int: ...

@final
class Standing:
    """Where a game stands: the turns played, the status and the winner."""

    @property
    def turn(self) -> int: ...
    @property
    def status(self) -> str: ...
    @property
    def winner(self) -> int | None: ...

@final
class Game:
    def __new__(
        cls,
        board: Board,
        team: NDArray[np.int64],
        troops: NDArray[np.int64],
        policies: list[str],
        params: tuple[int, int, int, int | None],
        threads: int | None = None,
    ) -> Game: ...
    @staticmethod
    def regions_on_grid(
        board: Board,
        rows: int,
        cols: int,
        torus: bool,
        teams: int,
        troops: int,
        policies: list[str],
        params: tuple[int, int, int, int | None],
        threads: int | None = None,
    ) -> Game: ...
    def resume(self, saved: _SavedRecord) -> None: ...
    def placement(self, custom: NDArray[np.int64] | None = None) -> NDArray[np.int64]: ...
    def step(self, custom: NDArray[np.int64] | None = None) -> bool: ...
    def run(self, turns: int) -> int: ...
    def set_policies(self, policies: list[str]) -> None: ...
    def copy(self) -> Game: ...
    def history(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]: ...
    @property
    def team(self) -> NDArray[np.int64]: ...
    @property
    def troops(self) -> NDArray[np.int64]: ...
    @property
    def standing(self) -> Standing: ...
    @property
    def threads(self) -> int: ...
    @threads.setter
    def threads(self, threads: int | None) -> None: ...

@final
class Part:
    def __new__(
        cls,
        share: PartArrays,
        team: NDArray[np.int64],
        troops: NDArray[np.int64],
        policies: list[str],
        params: tuple[int, int, int, int | None],
        territories: int,
        territory_counts: NDArray[np.int64],
        troop_counts: NDArray[np.int64],
        threads: int | None = None,
        keep_csr: bool = True,
    ) -> Part: ...
    @staticmethod
    def of_share(
        share: Share,
        team: NDArray[np.uint8],
        troops: int,
        policies: list[str],
        params: tuple[int, int, int, int | None],
        territories: int,
        territory_counts: NDArray[np.int64],
        troop_counts: NDArray[np.int64],
        threads: int | None = None,
    ) -> Part: ...
    def begin_turn(self) -> bool: ...
    def distance_halo(self) -> NDArray[np.uint32]: ...
    def distance_update(self, ghosts: NDArray[np.uint32]) -> bool: ...
    @property
    def by_rows(self) -> bool: ...
    def row_edges(self) -> NDArray[np.uint32]: ...
    def join_rows(self, edges: NDArray[np.uint32]) -> None: ...
    def pressure_out(self) -> NDArray[np.uint64]: ...
    def pressure_in(self, values: NDArray[np.uint64]) -> None: ...
    def resolved_per_neighbour(self) -> NDArray[np.int64]: ...
    def place(self, custom: NDArray[np.int64] | None = None) -> NDArray[np.int64]: ...
    def local_state(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]: ...
    def fight(self, theirs: NDArray[np.int64]) -> NDArray[np.int64]: ...
    def occupy(
        self, reports: NDArray[np.int64]
    ) -> tuple[NDArray[np.uint64], tuple[NDArray[np.int64], NDArray[np.int64]]]: ...
    def end_turn(self, ghosts: NDArray[np.uint64]) -> None: ...
    def commit(self, territories: NDArray[np.int64], troops: NDArray[np.int64]) -> None: ...
    def counts(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]: ...
    def resume(
        self,
        saved: _SavedRecord,
        territories_now: NDArray[np.int64],
        troops_now: NDArray[np.int64],
    ) -> None: ...
    def history(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]: ...
    def owned_ids(self) -> NDArray[np.int64]: ...
    def owned_state(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]: ...
    @property
    def needs_distance(self) -> bool: ...
    @property
    def needs_pressure(self) -> bool: ...
    @property
    def has_custom(self) -> bool: ...
    @property
    def standing(self) -> Standing: ...
    @property
    def threads(self) -> int: ...
    @threads.setter
    def threads(self, threads: int | None) -> None: ...

@final
class Share:
    @property
    def n(self) -> int: ...
    def ids(self) -> NDArray[np.int64]: ...
    def plan(self) -> dict[str, NDArray[np.int64]]: ...
    def arrays(self) -> dict[str, NDArray[np.int64] | NDArray[np.bool_]]: ...
    def farthest(self, source: int) -> tuple[int, int] | None: ...
    def distance_counts(self, source: int) -> NDArray[np.int64]: ...
    def owned_at(self, source: int, levels: list[int]) -> list[NDArray[np.int64]]: ...
    def team_counts(self, team: NDArray[np.uint8], teams: int) -> NDArray[np.int64]: ...
    def regions(self, source: int, starts: list[tuple[int, int]]) -> NDArray[np.uint8]: ...

def grid_part(
    rows: int, cols: int, torus: bool, offsets: NDArray[np.int64], rank: int
) -> Share: ...
def first_in_order(
    seed: int, purpose: str, lo: int, hi: int, count: int
) -> list[tuple[int, int]]: ...
def regions_cuts(counts: list[int], teams: int) -> list[tuple[int, int]]: ...
def battle_odds(a: int, d: int, coins_a: int, coins_d: int) -> tuple[float, float, float]: ...
def battle_odds_exact(
    a: int, d: int, coins_a: int, coins_d: int
) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]] | None: ...
def simulate_battle(
    a: int,
    d: int,
    coins_a: int,
    coins_d: int,
    n: int,
    seed: int,
    threads: int | None = None,
    progress: Callable[[int], object] | None = None,
) -> tuple[int, int, int]: ...
def simulate_many(
    game: Game, games: int, threads: int | None = None
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]: ...
def part_share(
    indptr: NDArray[np.int64], indices: NDArray[np.int64], owner: NDArray[np.int64], rank: int
) -> dict[str, NDArray[np.int64] | NDArray[np.bool_]]: ...
def grid_share(
    rows: int, cols: int, torus: bool, offsets: NDArray[np.int64], rank: int
) -> dict[str, NDArray[np.int64] | NDArray[np.bool_]]: ...
def csr_share(
    indptr: NDArray[np.int64], indices: NDArray[np.int64], offsets: NDArray[np.int64], rank: int
) -> dict[str, NDArray[np.int64] | NDArray[np.bool_]]: ...
def rows_share(
    n: int,
    ids: NDArray[np.int64],
    starts: NDArray[np.int64],
    indptr: NDArray[np.int64],
    indices: NDArray[np.int64],
    offsets: NDArray[np.int64],
    rank: int,
) -> dict[str, NDArray[np.int64] | NDArray[np.bool_]]: ...
def attachment_csr(
    n: int, m: int, seed: int, progress: Callable[[int], object] | None = None
) -> tuple[NDArray[np.int64], NDArray[np.int64]]: ...
def grid_csr(rows: int, cols: int, torus: bool) -> tuple[NDArray[np.int64], NDArray[np.int64]]: ...
def board_regions(
    board: Board, first: int, teams: int, progress: Callable[[int], object] | None = None
) -> NDArray[np.int64]: ...
def regions_of(
    indptr: NDArray[np.int64],
    indices: NDArray[np.int64],
    first: int,
    teams: int,
    progress: Callable[[int], object] | None = None,
) -> NDArray[np.int64]: ...
