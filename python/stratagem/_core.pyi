"""Type stubs of the Rust extension ``stratagem._core`` (checked by ``mypy.stubtest``)."""

from collections.abc import Callable
from typing import Any, final

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
    "MASTERMIND_ENUMERABLE_LIMIT",
    "MASTERMIND_OPTIMAL_LIMIT",
    "MAX_IDS",
    "MAX_THREADS",
    "AnnexationAgent",
    "AnnexationBoard",
    "AnnexationGame",
    "AnnexationVector",
    "ConquestBoard",
    "ConquestGame",
    "ConquestPart",
    "DiplomacyBoard",
    "DiplomacyCombined",
    "DiplomacyPosition",
    "OutpostGame",
    "__version__",
    "annexation_batch_step",
    "annexation_play_fixtures",
    "annexation_playouts",
    "binomial_half_streams",
    "check_graph",
    "coin_flip_heads",
    "conquest_battle_odds",
    "conquest_battle_odds_exact",
    "conquest_simulate_battle",
    "conquest_simulate_many",
    "default_threads",
    "mastermind_children",
    "mastermind_consistent",
    "mastermind_contradiction",
    "mastermind_count",
    "mastermind_estimate",
    "mastermind_evaluate",
    "mastermind_first",
    "mastermind_next_guess",
    "mastermind_optimal_cost",
    "mastermind_sample_secrets",
    "mastermind_score",
    "mastermind_shuffled_order",
    "mastermind_solve",
    "outpost_control",
    "outpost_cut_off",
    "outpost_tournament",
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
    def set_policies(self, policies: list[str]) -> None: ...
    def copy(self) -> ConquestGame: ...
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
def conquest_battle_odds_exact(
    a: int, d: int, coins_a: int, coins_d: int
) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]] | None: ...
def conquest_simulate_battle(
    a: int, d: int, coins_a: int, coins_d: int, n: int, seed: int, threads: int | None = None
) -> tuple[int, int, int]: ...
def conquest_simulate_many(
    game: ConquestGame, games: int, threads: int | None = None
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]: ...
def check_graph(
    offsets: NDArray[np.int64],
    neighbours: NDArray[np.int64],
    node: str,
    offsets_name: str,
    neighbours_name: str,
    min_nodes: int,
    max_nodes: int,
    isolated_ok: bool,
    connected: bool,
) -> int: ...

# annexation (rust/python/src/annexation.rs)

@final
class AnnexationVector:
    def __new__(
        cls, board: AnnexationBoard, num_envs: int, threads: int | None = None
    ) -> AnnexationVector: ...
    @property
    def num_envs(self) -> int: ...
    def reset(
        self,
        seeds: NDArray[np.uint64],
        observations: NDArray[np.int8],
        rewards: NDArray[np.float64],
        terminated: NDArray[np.bool_],
        truncated: NDArray[np.bool_],
        masks: NDArray[np.bool_],
    ) -> None: ...
    def step(
        self,
        actions: NDArray[np.int64],
        observations: NDArray[np.int8],
        rewards: NDArray[np.float64],
        terminated: NDArray[np.bool_],
        truncated: NDArray[np.bool_],
        masks: NDArray[np.bool_],
    ) -> None: ...

@final
class AnnexationBoard:
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
    ) -> AnnexationBoard: ...
    @property
    def cells(self) -> int: ...
    @property
    def units(self) -> int: ...
    @property
    def colour_count(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def mode(self) -> str: ...
    @property
    def allow_opponent_colours(self) -> bool: ...
    @property
    def max_moves(self) -> int: ...
    def unit_of_cell(self) -> NDArray[np.uint32]: ...

@final
class AnnexationGame:
    def __new__(cls, board: AnnexationBoard) -> AnnexationGame: ...
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
    def copy(self) -> AnnexationGame: ...

@final
class AnnexationAgent:
    def __new__(
        cls,
        kind: str,
        seed: int = 0,
        depth: int = 3,
        heuristic: str = "cells",
        iterations: int | None = None,
        time: float | None = None,
        c: float = 0.5,
        playouts: int = 1,
        trees: int = 1,
        reuse: bool = True,
        threads: int | None = None,
    ) -> AnnexationAgent: ...
    def choose(self, game: AnnexationGame) -> int: ...
    def spawn(self, seed: int) -> AnnexationAgent: ...
    @property
    def seed(self) -> int: ...
    @property
    def last_iterations(self) -> int: ...
    def root_visits(self) -> list[int]: ...

def annexation_playouts(
    game: AnnexationGame,
    n: int,
    policy: str,
    steps: int | None,
    seed: int,
    threads: int | None = None,
) -> tuple[list[int], int, int]: ...
def annexation_play_fixtures(
    board: AnnexationBoard,
    colours: NDArray[np.uint8],
    first: NDArray[np.uint8],
    seeds: NDArray[np.uint64],
    a: AnnexationAgent,
    b: AnnexationAgent,
    threads: int | None = None,
) -> tuple[NDArray[np.int8], NDArray[np.int64], NDArray[np.int64]]: ...
def annexation_batch_step(
    board: AnnexationBoard,
    owner: NDArray[np.int8],
    colours: NDArray[np.uint8],
    to_move: NDArray[np.int8],
    moves: NDArray[np.int64],
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

MASTERMIND_ENUMERABLE_LIMIT: int
MASTERMIND_OPTIMAL_LIMIT: int

def mastermind_score(
    guesses: NDArray[np.uint8],
    secrets: NDArray[np.uint8],
    colours: int,
    threads: int | None = None,
) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]: ...
def mastermind_first(
    spots: int,
    colours: int,
    guesses: NDArray[np.uint8],
    feedback: NDArray[np.uint8],
    prefix: NDArray[np.uint8] | None = None,
    order: NDArray[np.uint8] | None = None,
    threads: int | None = None,
) -> NDArray[np.uint8] | None: ...
def mastermind_children(
    spots: int,
    colours: int,
    guesses: NDArray[np.uint8],
    feedback: NDArray[np.uint8],
    prefix: NDArray[np.uint8],
    order: NDArray[np.uint8] | None = None,
) -> NDArray[np.uint8]: ...
def mastermind_count(
    spots: int,
    colours: int,
    guesses: NDArray[np.uint8],
    feedback: NDArray[np.uint8],
    prefix: NDArray[np.uint8] | None = None,
    threads: int | None = None,
) -> int: ...
def mastermind_estimate(
    spots: int,
    colours: int,
    guesses: NDArray[np.uint8],
    feedback: NDArray[np.uint8],
    probes: int,
    seed: int,
    threads: int | None = None,
) -> tuple[float, float]: ...
def mastermind_consistent(
    spots: int,
    colours: int,
    guesses: NDArray[np.uint8],
    feedback: NDArray[np.uint8],
    threads: int | None = None,
) -> NDArray[np.uint8]: ...
def mastermind_shuffled_order(spots: int, colours: int, seed: int) -> NDArray[np.uint8]: ...
def mastermind_next_guess(
    spots: int,
    colours: int,
    guesses: NDArray[np.uint8],
    feedback: NDArray[np.uint8],
    strategy: str,
    seed: int = 0,
    order: str = "lex",
    threads: int | None = None,
) -> NDArray[np.uint8] | None: ...
def mastermind_contradiction(
    spots: int,
    colours: int,
    guesses: NDArray[np.uint8],
    feedback: NDArray[np.uint8],
    threads: int | None = None,
) -> list[int] | None: ...
def mastermind_sample_secrets(
    spots: int, colours: int, count: int, seed: int
) -> NDArray[np.uint8]: ...
def mastermind_evaluate(
    spots: int,
    colours: int,
    strategy: str,
    secrets: NDArray[np.uint8],
    seed: int = 0,
    order: str = "lex",
    threads: int | None = None,
    progress: Callable[[int], object] | None = None,
) -> NDArray[np.uint32]: ...
def mastermind_optimal_cost(
    spots: int,
    colours: int,
    guesses: NDArray[np.uint8],
    feedback: NDArray[np.uint8],
    threads: int | None = None,
) -> int: ...
def mastermind_solve(
    secret: NDArray[np.uint8],
    colours: int,
    strategy: str,
    seed: int = 0,
    order: str = "lex",
    threads: int | None = None,
) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]: ...

@final
class OutpostGame:
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
    ) -> OutpostGame: ...
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
    ) -> OutpostGame: ...
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
    @property
    def seed(self) -> int: ...
    @property
    def moved(self) -> list[bool]: ...
    @property
    def players(self) -> list[str | None]: ...
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
    def copy(self) -> OutpostGame: ...
    def set_players(self, players: list[str | None]) -> None: ...

def outpost_control(
    water: NDArray[np.bool_], outposts: NDArray[np.int64], r: int
) -> NDArray[np.int8]: ...
def outpost_cut_off(
    water: NDArray[np.bool_], control: NDArray[np.int8], outposts: NDArray[np.int64], fringe: bool
) -> list[int]: ...
def outpost_tournament(
    waters: list[NDArray[np.bool_]],
    games: NDArray[np.int64],
    players: list[list[str]],
    seeds: NDArray[np.uint64],
    threads: int | None = None,
    progress: Callable[[int], object] | None = None,
) -> NDArray[np.uint32]: ...

@final
class DiplomacyBoard:
    def __new__(
        cls,
        powers: int,
        kind: NDArray[np.int64],
        centre_province: NDArray[np.int64],
        centre_home: NDArray[np.int64],
        army_province: NDArray[np.int64],
        fleet_province: NDArray[np.int64],
        army_offsets: NDArray[np.int64],
        army_targets: NDArray[np.int64],
        fleet_offsets: NDArray[np.int64],
        fleet_targets: NDArray[np.int64],
    ) -> DiplomacyBoard: ...
    def open_problem(
        self, convention: str, victory: bool
    ) -> tuple[int, list[tuple[int, int, list[int], int, int]]]: ...

@final
class DiplomacyPosition:
    def __new__(
        cls,
        board: DiplomacyBoard,
        unit_power: NDArray[np.int64],
        unit_fleet: NDArray[np.bool_],
        unit_location: NDArray[np.int64],
        owner: NDArray[np.int64],
    ) -> DiplomacyPosition: ...
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
    ) -> dict[str, Any]: ...

@final
class DiplomacyCombined:
    def __new__(
        cls, position: DiplomacyPosition, convention: str, weights: list[int]
    ) -> DiplomacyCombined: ...
    @staticmethod
    def restore(
        position: DiplomacyPosition,
        convention: str,
        weights: list[int],
        state: dict[str, Any],
    ) -> DiplomacyCombined: ...
    def advance(
        self,
        max_evaluations: int,
        time_limit: float | None = None,
        progress: Callable[[int], object] | None = None,
    ) -> dict[str, Any]: ...
    def state(self) -> dict[str, Any]: ...
    def outcome(self) -> dict[str, Any]: ...
