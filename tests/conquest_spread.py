"""Shared pieces of the distributed conquest tests (single process and under mpiexec): how a
game is made for both engines, boards whose ids say nothing about geography, and how two games
are compared."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stratagem.conquest import Board, Game
from stratagem.conquest.board import assign_random, assign_regions, troops_uniform
from stratagem.conquest.distributed import DistributedGame
from stratagem.conquest.distributed.local_board import PartArrays
from stratagem.conquest.game import Assign, BoardShape, PolicyFn, PolicyView
from stratagem.mpi import Communicator

IntArray = NDArray[np.int64]


@dataclass(frozen=True)
class Setup:
    """Everything a game is made from, the same for Game and DistributedGame."""

    board: Board
    team: IntArray
    troops: IntArray | int
    policies: tuple[str | PolicyFn, ...]
    seed: int
    rate: float = 0.2
    cap: int | None = None
    max_turns: int = 20

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        positional = (self.board, self.team, self.troops, list(self.policies))
        keywords = {"seed": self.seed, "rate": self.rate, "cap": self.cap}
        return positional, keywords | {"max_turns": self.max_turns}

    def game(self, threads: int = 1) -> Game:
        positional, keywords = self._arguments()
        return Game(*positional, threads=threads, **keywords)

    def spread(self, comm: Communicator | None = None, **options: Any) -> DistributedGame:
        positional, keywords = self._arguments()
        return DistributedGame(*positional, comm=comm, **keywords, **options)


def shuffled(board: Board, seed: int) -> Board:
    """The same graph with its territory ids permuted: ids then say nothing about geography."""
    perm = np.random.default_rng(seed).permutation(board.n)
    return Board.from_edges(perm[board.edges()], board.n)


def first_difference(a: Game | DistributedGame, b: Game) -> str | None:
    """What differs between the two games (state, turn, status, winner, history), if anything.
    Collective when ``a`` is spread over ranks (gather_state)."""
    team, troops = a.gather_state() if isinstance(a, DistributedGame) else (a.team, a.troops)
    checks = {
        "team": np.array_equal(team, b.team),
        "troops": np.array_equal(troops, b.troops),
        "turn": a.turn == b.turn,
        "status": a.status == b.status,
        "winner": a.winner == b.winner,
        "history territories": np.array_equal(a.history.territories, b.history.territories),
        "history troops": np.array_equal(a.history.troops, b.history.troops),
    }
    wrong = [name for name, same in checks.items() if not same]
    return f"turn {b.turn}: {', '.join(wrong)} differ" if wrong else None


def play_alongside(a: Game | DistributedGame, b: Game) -> list[str]:
    """Steps both games until they end; the differences seen after each turn (empty when the
    games agree throughout). Collective when ``a`` is spread (first_difference)."""
    seen = [first_difference(a, b)]
    while True:
        stepped = a.step()
        if stepped != b.step():
            seen.append(f"turn {b.turn}: step() returned {stepped} in the first game only")
        seen.append(first_difference(a, b))
        if not stepped:
            return [difference for difference in seen if difference is not None]


# -- games of a spec, made by from_spec and from the whole board ------------------------------

SPEC_POLICIES = ("aggressive", "balanced", "opportunist", "random")


def policies_of(teams: int) -> list[str]:
    """The benchmark's policies in turn, one a team."""
    return [SPEC_POLICIES[k % len(SPEC_POLICIES)] for k in range(teams)]


def whole_game(
    spec: str, teams: int, troops: int, seed: int, assign: str = "regions", **options: Any
) -> Game:
    """The game of ``spec`` with its board built whole in Python first: what from_spec must
    play. ``options`` are Game's (policies default to policies_of)."""
    board = Board.from_spec(spec)
    start = assign_regions if assign == "regions" else assign_random
    policies = options.pop("policies", policies_of(teams))
    team = start(board, teams, seed)
    return Game(board, team, troops_uniform(board, troops), policies, seed=seed, **options)


# (spec, teams, start): boards each rank builds only its part of (grids, rggs, board files; a
# file of a graph with territories no start reaches), and one built whole on every rank.
SPEC_CASES = [
    ("grid:30x40", 4, "regions"),
    ("grid:17x9:torus", 3, "regions"),
    ("grid:30x40", 3, "random"),
    ("rgg:900:seed=5", 4, "regions"),
    ("grid:23x31", 8, "regions"),
    ("rgg:500:radius=0.04:seed=1", 7, "regions"),
    ("rgg:700:degree=6:seed=2", 3, "random"),
    ("file:grid:9x12:torus", 3, "regions"),
    ("file:er:300:degree=1.5:seed=4", 4, "regions"),
    ("file:er:300:degree=1.5:seed=4", 2, "random"),
    ("file:risk", 3, "random"),
    ("ring:40", 3, "regions"),
]


def spread_beside_whole(
    spec: str,
    assign: Assign,
    comm: Communicator,
    *,
    policies: list[str],
    seed: int,
) -> tuple[DistributedGame, list[str]]:
    """Plays DistributedGame.from_spec(spec) on ``comm`` (7 troops, 40 turns, one thread)
    beside the whole board's Game: the spread game and the differences seen. Collective."""
    teams = len(policies)
    options: dict[str, Any] = {"assign": assign, "seed": seed, "max_turns": 40}
    spread = DistributedGame.from_spec(spec, teams, 7, policies, threads=1, comm=comm, **options)
    whole = whole_game(spec, teams, 7, seed, assign, policies=policies, max_turns=40)
    return spread, play_alongside(spread, whole)


def spec_on_ranks(
    spec: str, teams: int, assign: Assign, comm: Communicator
) -> tuple[list[str], bool, BoardShape]:
    """:func:`spread_beside_whole` with the benchmark's policies: the differences seen,
    whether this rank built the whole board, and the board's shape. A ``file:`` case names a
    board file: the caller saves it and passes its path."""
    spread, differences = spread_beside_whole(
        spec, assign, comm, policies=policies_of(teams), seed=9
    )
    return differences, spread._board is not None, spread.board_shape


# -- the share of a rank, by numpy ------------------------------------------------------------


def _row_positions(indptr: NDArray[np.int64], rows: NDArray[np.int64]) -> NDArray[np.int64]:
    """Positions in ``indices`` of every entry of ``rows``, row after row."""
    starts, counts = indptr[rows], indptr[rows + 1] - indptr[rows]
    first_of_row = np.repeat(np.cumsum(counts) - counts, counts)
    positions: NDArray[np.int64] = (
        np.repeat(starts, counts) + np.arange(int(counts.sum()), dtype=np.int64) - first_of_row
    )
    return positions


def _offsets_by(keys: NDArray[np.int64], neighbours: NDArray[np.int64]) -> NDArray[np.int64]:
    """Offsets delimiting each neighbour's run in ``keys`` (sorted by neighbour)."""
    return np.searchsorted(keys, np.append(neighbours, np.iinfo(np.int64).max)).astype(np.int64)


def numpy_part_arrays(board: Board, owner: NDArray[np.int64], rank: int) -> PartArrays:
    """The share of ``distributed._part_arrays``, computed with numpy: the reference the
    engine's ``part_share`` is checked against."""
    indptr, indices, n = board.indptr, board.indices, board.n
    owned_ids = np.flatnonzero(owner == rank).astype(np.int64)
    positions = _row_positions(indptr, owned_ids)
    source = np.repeat(owned_ids, np.diff(indptr)[owned_ids])
    target = indices[positions]
    is_cut = owner[target] != rank
    cut_source, cut_target, cut_positions = source[is_cut], target[is_cut], positions[is_cut]
    ghost_ids = np.unique(cut_target)
    local_ids = np.union1d(owned_ids, ghost_ids).astype(np.int64)
    # The ghosts' rows keep their borders with owned territories: the reverses of cut edges,
    # found by search in the ghosts' (sorted) rows of the whole board.
    ghost_positions = _row_positions(indptr, ghost_ids)
    ghost_keys = np.repeat(ghost_ids, np.diff(indptr)[ghost_ids]) * n + indices[ghost_positions]
    back = np.lexsort((cut_source, cut_target))
    back_source, back_target = cut_target[back], cut_source[back]
    back_positions = ghost_positions[np.searchsorted(ghost_keys, back_source * n + back_target)]
    # Owned rows then ghost rows, each sorted; a stable sort by source interleaves them.
    all_source = np.concatenate([source, back_source])
    all_target = np.concatenate([target, back_target])
    local_source = np.searchsorted(local_ids, all_source)
    by_row = np.argsort(local_source, kind="stable")
    local_indptr = np.zeros(local_ids.shape[0] + 1, dtype=np.int64)
    np.cumsum(np.bincount(local_source, minlength=local_ids.shape[0]), out=local_indptr[1:])
    local_position = np.empty_like(by_row)
    local_position[by_row] = np.arange(by_row.shape[0])
    # Who talks to whom: neighbour ranks in order; within a pair, territories by id and
    # borders by border id, so both sides list them alike.
    cut_owner = owner[cut_target]
    neighbours = np.unique(cut_owner)
    reverse_of_cut = np.empty_like(cut_positions)
    reverse_of_cut[back] = back_positions
    border_id = np.where(cut_source < cut_target, cut_positions, reverse_of_cut)
    cut_order = np.lexsort((border_id, cut_owner))
    owned_edge_index = np.flatnonzero(is_cut)[cut_order]
    send_keys = np.unique(cut_owner * n + cut_source)
    send_owner = send_keys // n
    recv_order = np.lexsort((ghost_ids, owner[ghost_ids]))
    return PartArrays(
        local_ids=local_ids,
        indptr=local_indptr,
        indices=np.searchsorted(local_ids, all_target[by_row]).astype(np.int64),
        edge_ids=np.concatenate([positions, back_positions])[by_row],
        owned=owner[local_ids] == rank,
        neighbours=neighbours,
        halo_send=np.searchsorted(local_ids, send_keys % n).astype(np.int64),
        halo_send_offsets=_offsets_by(send_owner, neighbours),
        halo_recv=np.searchsorted(local_ids, ghost_ids[recv_order]).astype(np.int64),
        halo_recv_offsets=_offsets_by(owner[ghost_ids][recv_order], neighbours),
        cut=local_position[owned_edge_index].astype(np.int64),
        cut_offsets=_offsets_by(cut_owner[cut_order], neighbours),
    )


# -- a custom policy that any number of ranks plays alike ------------------------------------------


def push_to_weakest(view: PolicyView) -> IntArray:
    """A local custom policy: every territory of the team the view places for, holding 2 troops
    or more, attacks its weakest enemy neighbour (the first in CSR order on ties) with all but
    one. It reads only the territory's row and its neighbours, so the view of a rank's part
    gives what the whole board's view gives."""
    n = view.team.shape[0]
    owned = np.ones(n, dtype=bool) if view.owned is None else view.owned
    source = np.repeat(np.arange(n), np.diff(view.indptr))
    mine = (view.team[source] == view.team_id) & owned[source] & (view.troops[source] >= 2)
    edges = np.flatnonzero(mine & (view.team[view.indices] != view.team[source]))
    # Per row, the weakest target first, then the first position.
    edges = edges[np.lexsort((edges, view.troops[view.indices[edges]], source[edges]))]
    first = np.ones(edges.shape[0], dtype=bool)
    first[1:] = source[edges[1:]] != source[edges[:-1]]
    placement = np.zeros(view.indices.shape[0], dtype=np.int64)
    chosen = edges[first]
    placement[chosen] = view.troops[source[chosen]] - 1
    return placement
