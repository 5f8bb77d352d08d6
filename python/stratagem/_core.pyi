"""Type stubs of the Rust extension ``stratagem._core`` (checked by ``mypy.stubtest``)."""

from typing import final

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "BINOMIAL_POPCOUNT_LIMIT",
    "BTRS_CHUNK",
    "BUILD_PROFILE",
    "CONQUEST_MAX_ODDS_PRODUCT",
    "CONQUEST_MAX_ODDS_SIDE",
    "CONQUEST_MAX_TEAMS",
    "CONQUEST_MAX_TERRITORIES",
    "CONQUEST_TROOP_LIMIT",
    "MAX_IDS",
    "MAX_THREADS",
    "ConquestBoard",
    "ConquestGame",
    "ConquestPart",
    "__version__",
    "binomial_half_streams",
    "coin_flip_heads",
    "conquest_battle_odds",
    "conquest_simulate_battle",
    "conquest_simulate_many",
    "default_threads",
    "philox4x64_10",
    "purpose_tag",
    "resolve_threads",
    "stream_blocks",
    "stream_draws",
]

__version__: str
BUILD_PROFILE: str
MAX_THREADS: int
MAX_IDS: int
BINOMIAL_POPCOUNT_LIMIT: int
BTRS_CHUNK: int

def resolve_threads(threads: int | None = None) -> int: ...
def default_threads() -> int: ...
def philox4x64_10(counters: NDArray[np.uint64], keys: NDArray[np.uint64]) -> NDArray[np.uint64]: ...
def purpose_tag(purpose: str) -> int: ...
def stream_blocks(
    seed: int,
    purpose: str,
    ids: list[int],
    start: int,
    count: int,
    threads: int | None = None,
) -> NDArray[np.uint64]: ...
def stream_draws(
    seed: int, purpose: str, ids: list[int], kind: str, params: NDArray[np.uint64]
) -> NDArray[np.uint64]: ...
def binomial_half_streams(
    seed: int,
    purpose: str,
    ids: NDArray[np.uint64],
    n: NDArray[np.uint64],
    threads: int | None = None,
) -> NDArray[np.uint64]: ...
def coin_flip_heads(
    seed: int, purpose: str, ids: list[int], k: int, threads: int | None = None
) -> int: ...

CONQUEST_TROOP_LIMIT: int
CONQUEST_MAX_TEAMS: int
CONQUEST_MAX_TERRITORIES: int
CONQUEST_MAX_ODDS_SIDE: int
CONQUEST_MAX_ODDS_PRODUCT: int

@final
class ConquestBoard:
    def __new__(cls, indptr: NDArray[np.int64], indices: NDArray[np.int64]) -> ConquestBoard: ...
    @property
    def n(self) -> int: ...
    @property
    def n_borders(self) -> int: ...

@final
class ConquestGame:
    def __new__(
        cls,
        board: ConquestBoard,
        team: NDArray[np.int64],
        troops: NDArray[np.int64],
        policies: list[str],
        seed: int,
        rate_ppm: int,
        cap: int,
        max_turns: int | None,
        threads: int | None = None,
    ) -> ConquestGame: ...
    def resume(
        self,
        turn: int,
        status: str,
        winner: int | None,
        territories: NDArray[np.int64],
        troops: NDArray[np.int64],
    ) -> None: ...
    def placement(self, custom: NDArray[np.int64] | None = None) -> NDArray[np.int64]: ...
    def step(self, custom: NDArray[np.int64] | None = None) -> bool: ...
    def run(self, turns: int) -> int: ...
    def history(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]: ...
    @property
    def team(self) -> NDArray[np.int64]: ...
    @property
    def troops(self) -> NDArray[np.int64]: ...
    @property
    def turn(self) -> int: ...
    @property
    def status(self) -> str: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def threads(self) -> int: ...
    @threads.setter
    def threads(self, threads: int | None) -> None: ...

@final
class ConquestPart:
    def __new__(
        cls,
        indptr: NDArray[np.int64],
        indices: NDArray[np.int64],
        territory_ids: NDArray[np.int64],
        edge_ids: NDArray[np.int64],
        owned: NDArray[np.bool_],
        team: NDArray[np.int64],
        troops: NDArray[np.int64],
        policies: list[str],
        seed: int,
        rate_ppm: int,
        cap: int,
        max_turns: int | None,
        halo_send: NDArray[np.int64],
        halo_send_offsets: NDArray[np.int64],
        halo_recv: NDArray[np.int64],
        halo_recv_offsets: NDArray[np.int64],
        cut: NDArray[np.int64],
        cut_offsets: NDArray[np.int64],
        territories: int,
        territory_counts: NDArray[np.int64],
        troop_counts: NDArray[np.int64],
        threads: int | None = None,
    ) -> ConquestPart: ...
    def begin_turn(self) -> bool: ...
    def distance_halo(self) -> NDArray[np.uint32]: ...
    def distance_update(self, ghosts: NDArray[np.uint32]) -> bool: ...
    def pressure_out(self) -> NDArray[np.uint64]: ...
    def pressure_in(self, values: NDArray[np.uint64]) -> None: ...
    def resolved_per_neighbour(self) -> NDArray[np.int64]: ...
    def place(self) -> NDArray[np.int64]: ...
    def fight(self, theirs: NDArray[np.int64]) -> NDArray[np.int64]: ...
    def occupy(self, reports: NDArray[np.int64]) -> NDArray[np.uint64]: ...
    def end_turn(
        self, ghosts: NDArray[np.uint64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]: ...
    def commit(self, territories: NDArray[np.int64], troops: NDArray[np.int64]) -> None: ...
    def counts(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]: ...
    def resume(
        self,
        turn: int,
        status: str,
        winner: int | None,
        territories: NDArray[np.int64],
        troops: NDArray[np.int64],
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
    def turn(self) -> int: ...
    @property
    def status(self) -> str: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def threads(self) -> int: ...
    @threads.setter
    def threads(self, threads: int | None) -> None: ...

def conquest_battle_odds(
    a: int, d: int, coins_a: int, coins_d: int
) -> tuple[float, float, float]: ...
def conquest_simulate_battle(
    a: int, d: int, coins_a: int, coins_d: int, n: int, seed: int, threads: int | None = None
) -> tuple[int, int, int]: ...
def conquest_simulate_many(
    game: ConquestGame, games: int, threads: int | None = None
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]: ...
