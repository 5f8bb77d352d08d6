"""One conquest game spread over MPI ranks, bit-identical to the single-process engine.

Each rank owns a block of territories (of the natural order, or of a reverse Cuthill-McKee
order that cuts fewer borders) and their adjacency rows; the Rust engine
(``_core.conquest.Part``) does the rank's share of every phase with its own threads, and this
module moves what crosses the partition between the phases, point to point between neighbour
ranks on numpy buffers: frontier distances and states of the *ghost* territories (the other
ranks' territories next to ours), pressure and placements on the cut borders, and the report
cards of the battles. ``docs/conquest-mpi.md`` describes the message pattern and its cost.

In one process (no MPI, or ``mpiexec -n 1``) the same code runs with one part and no
messages:

>>> from stratagem.conquest import Board, Game
>>> from stratagem.conquest.distributed import DistributedGame
>>> board = Board.grid(6, 6)
>>> team, troops = [0] * 18 + [1] * 18, 5
>>> args = (board, team, troops, ["opportunist", "balanced"])
>>> spread = DistributedGame(*args, seed=3, max_turns=30)
>>> single = Game(*args, seed=3, max_turns=30)
>>> spread.run().turns == single.run().turns
True
>>> bool((spread.history.troops == single.history.troops).all())
True
"""

from __future__ import annotations

import os
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from stratagem import _core, _validate
from stratagem.conquest.boards.grid_rows import GridRows
from stratagem.conquest.distributed.local_board import PartArrays, grid_part, local_start
from stratagem.conquest.distributed.rank_boards import RankBoard
from stratagem.conquest.game import (
    ASSIGNS,
    Assign,
    BoardShape,
    GameResult,
    PolicyFn,
    _int_array,
    _read_only,
    _Recorded,
    check_start,
    check_teams_played,
    custom_placement,
    whole_start,
)
from stratagem.conquest.saves import read_game, write_game
from stratagem.errors import InconsistentInput, InvalidParameter
from stratagem.mpi import (
    Communicator,
    abort_on_error,
    allgather_blocks,
    allreduce,
    block_partition,
    checked_together,
    exchange_with_neighbors,
    world,
)
from stratagem.progress import ProgressOption

if TYPE_CHECKING:
    from stratagem.conquest.board import Board

__all__ = [
    "ORDERS",
    "BoardShape",
    "DistributedGame",
    "PartitionSummary",
    "Traffic",
    "cut_borders",
    "partition",
    "territory_order",
]

Order = Literal["natural", "rcm"]
ORDERS: tuple[str, ...] = ("natural", "rcm")
# Tags of the turn's messages, one per phase (a message can never be taken for another's).
_TAG_DISTANCE, _TAG_PRESSURE, _TAG_PLACEMENT, _TAG_REPORT, _TAG_STATE = range(0x5310, 0x5315)
_REPORT_WORDS = 2  # signed survivors of the neighbour, then of the resolver
# The share's arrays a part keeps in Python only for a custom policy.
_CSR_FIELDS = ("local_ids", "indptr", "indices", "edge_ids")


# -- partitions -------------------------------------------------------------------------------


def territory_order(board: Board, order: Order = "natural") -> NDArray[np.int64]:
    """The territories in the order the ranks' blocks are cut from: ``natural`` (by id) or
    ``rcm``, reverse Cuthill-McKee (scipy), which keeps neighbours close in the order and so
    cuts fewer borders on boards whose ids say nothing about geography."""
    if order == "natural":
        return np.arange(board.n, dtype=np.int64)
    if order != "rcm":
        raise InvalidParameter(f"order must be one of {ORDERS}, got {order!r}")
    try:
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import reverse_cuthill_mckee
    except ImportError as error:  # pragma: no cover - scipy is in the mpi and graph extras
        raise InvalidParameter("order='rcm' needs scipy: pip install 'stratagem[graph]'") from error
    ones = np.ones(board.indices.shape[0], dtype=np.int8)
    matrix = csr_matrix((ones, board.indices, board.indptr), shape=(board.n, board.n))
    permutation: NDArray[np.int64] = reverse_cuthill_mckee(matrix, symmetric_mode=True).astype(
        np.int64
    )
    return permutation


def partition(board: Board, ranks: int, order: Order = "natural") -> NDArray[np.int64]:
    """The rank owning each territory: the territories in ``order`` cut into ``ranks``
    contiguous blocks of (nearly) equal size."""
    ranks = _validate.integer("ranks", ranks, 1)
    sequence = territory_order(board, order)
    offsets = block_partition(board.n, ranks)
    owner = np.empty(board.n, dtype=np.int64)
    owner[sequence] = np.repeat(np.arange(ranks, dtype=np.int64), np.diff(offsets))
    return owner


def cut_borders(board: Board, owner: ArrayLike) -> int:
    """Borders whose two territories belong to different ranks."""
    owners = np.asarray(owner)
    source = np.repeat(owners, np.diff(board.indptr))
    return int(np.count_nonzero(source != owners[board.indices])) // 2


@dataclass(frozen=True)
class PartitionSummary:
    """How a partition cuts a board: cut borders overall and, per rank, the territories it
    owns, its ghosts and its neighbour ranks."""

    order: str
    ranks: int
    borders: int
    cut_borders: int
    territories: NDArray[np.int64]
    ghosts: NDArray[np.int64]
    neighbours: NDArray[np.int64]

    @classmethod
    def of(cls, board: Board, ranks: int, order: Order = "natural") -> PartitionSummary:
        owner = partition(board, ranks, order)
        source = np.repeat(owner, np.diff(board.indptr))
        target = owner[board.indices]
        cut = source != target
        ghosts = np.zeros(ranks, dtype=np.int64)
        neighbours = np.zeros(ranks, dtype=np.int64)
        for rank in range(ranks):
            mine = cut & (source == rank)
            ghosts[rank] = np.unique(board.indices[mine]).shape[0]
            neighbours[rank] = np.unique(target[mine]).shape[0]
        return cls(
            order=order,
            ranks=ranks,
            borders=board.n_borders,
            cut_borders=int(np.count_nonzero(cut)) // 2,
            territories=np.bincount(owner, minlength=ranks).astype(np.int64),
            ghosts=ghosts,
            neighbours=neighbours,
        )


def _part_arrays(board: Board, owner: NDArray[np.int64], rank: int) -> PartArrays:
    """Rank ``rank``'s share of ``board`` when territory ``x`` belongs to rank ``owner[x]``
    (computed by the engine in time proportional to the share)."""
    arrays = _core.conquest.part_share(
        board.indptr, board.indices, np.ascontiguousarray(owner, dtype=np.int64), rank
    )
    # Read-only: custom policies see these arrays.
    return PartArrays(**{name: _read_only(array) for name, array in arrays.items()})


# -- traffic ----------------------------------------------------------------------------------


@dataclass
class Traffic:
    """Bytes this rank sent, by phase, over the turns played since the game was made (point
    to point messages to neighbour ranks, and this rank's share of the collectives)."""

    turns: int = 0
    distance_rounds: int = 0
    #: Seconds of the turns spent in the engine's phases (and the driver between them), and
    #: in messages and collectives: waiting for the other ranks, and moving the buffers.
    compute_seconds: float = 0.0
    wait_seconds: float = 0.0
    bytes: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(
            ("distance", "pressure", "placement", "report", "state", "collective"), 0
        )
    )

    @property
    def total(self) -> int:
        return sum(self.bytes.values())

    @property
    def per_turn(self) -> float:
        return self.total / self.turns if self.turns else 0.0


# -- the game ---------------------------------------------------------------------------------


def _fingerprint(*arrays: NDArray[Any]) -> int:
    """A checksum of arrays that every rank must hold alike."""
    value = 0
    for array in arrays:
        value = zlib.crc32(np.ascontiguousarray(array).tobytes(), value)
    return value


class DistributedGame(_Recorded):
    """A conquest game spread over the ranks of ``comm`` (default: the MPI world), with the
    interface of :class:`~stratagem.conquest.Game`.

    A custom policy (a callable, as for :class:`~stratagem.conquest.Game`) is called on every
    rank, once a turn, with the :class:`~stratagem.conquest.game.PolicyView` of the rank's
    part: its territories and their neighbours (``view.ids`` gives their whole-board ids,
    ``view.owned`` the rank's own), and places for the owned territories of its team. The game
    is the same for any number of ranks when the policy places each territory from its own
    row and its neighbours' state alone (and draws any randomness keyed by ``view.ids``).

    Every rank makes the game with the same arguments and calls the same methods in the same
    order: :meth:`step`, :meth:`run`, :meth:`gather_state` and :meth:`save` are collective.
    ``turn``, ``status``, ``history`` and ``result`` are the same on every rank. Bad input on
    any rank raises the error on every rank; an error in the middle of a turn (which leaves
    the ranks out of step) aborts the MPI job with the error printed.
    """

    def __init__(
        self,
        board: Board,
        team: ArrayLike,
        troops: ArrayLike,
        policies: Sequence[str | PolicyFn],
        *,
        seed: int = 0,
        rate: float = 0.2,
        cap: int | None = None,
        max_turns: int | None = 1000,
        threads: int | None = None,
        order: Order = "natural",
        comm: Communicator | None = None,
    ) -> None:
        self._begin(comm, order)
        self._board: Board | None = board
        self.board_shape = BoardShape(board.kind, board.n, board.n_borders)

        def check() -> tuple[NDArray[np.int64], NDArray[np.int64]]:
            self._check(
                policies,
                seed=seed,
                rate=rate,
                cap=cap,
                max_turns=max_turns,
                threads=threads,
                order=order,
            )
            team_array = _int_array("team", team, board.n)
            troops_array = _int_array("troops", troops, board.n)
            k, limit = len(self.policy_names), _core.conquest.TROOP_LIMIT
            for x in np.flatnonzero((team_array < 0) | (team_array >= k))[:1]:
                raise InvalidParameter(
                    f"territory {x} has team {team_array[x]}, but {k} policies were given: "
                    f"teams run 0..{k - 1} (one policy per team)"
                )
            for x in np.flatnonzero((troops_array < 0) | (troops_array > limit))[:1]:
                raise InvalidParameter(
                    f"territory {x} has {troops_array[x]} troops, outside 0..{limit}"
                )
            return team_array, troops_array

        team_array, troops_array = checked_together(self.comm, check)
        self._share_cores(threads)
        self._agree(
            (_fingerprint(board.indptr, board.indices), _fingerprint(team_array, troops_array))
        )
        owner = partition(board, self.comm.size, order)

        def make_part() -> _core.conquest.Part:
            arrays = _part_arrays(board, owner, self.comm.rank)
            k = len(self.policy_names)
            territories = np.bincount(team_array, minlength=k).astype(np.int64)
            troop_counts = np.zeros(k, dtype=np.int64)
            np.add.at(troop_counts, team_array, troops_array)
            local = (team_array[arrays.local_ids], troops_array[arrays.local_ids])
            return self._make_part(arrays, local, territories, troop_counts)

        self._part = checked_together(self.comm, make_part)

    @classmethod
    def from_spec(
        cls,
        spec: str,
        teams: int,
        troops: int,
        policies: Sequence[str | PolicyFn],
        *,
        assign: Assign = "regions",
        seed: int = 0,
        rate: float = 0.2,
        cap: int | None = None,
        max_turns: int | None = 1000,
        threads: int | None = None,
        order: Order = "natural",
        comm: Communicator | None = None,
        progress: ProgressOption = None,
    ) -> DistributedGame:
        """Collective: the game on the board ``spec`` (``Board.from_spec``), ``teams`` teams
        started by ``assign`` (:func:`~stratagem.conquest.board.assign_regions` or
        :func:`~stratagem.conquest.board.assign_random` with ``seed``) and ``troops`` troops
        on every territory: the game of ``DistributedGame(board, team, troops, ...)``.

        On a grid (``grid:RxC``, ``:torus``), a random geometric graph (``rgg:N...``) or a
        board file (``PATH.npz``) in the natural order, each rank builds only its own
        territories, their ghosts and their start
        (:mod:`stratagem.conquest.distributed.rank_boards`), and no rank holds the whole board;
        any other board or order is built whole on every rank first. ``progress``
        (:mod:`stratagem.progress`) is rank 0's bar as it builds its board or share (the other
        ranks draw none).
        """
        comm = world() if comm is None else comm
        progress = progress if comm.rank == 0 else False
        settings: dict[str, Any] = {
            "seed": seed,
            "rate": rate,
            "cap": cap,
            "max_turns": max_turns,
            "threads": threads,
            "order": order,
        }

        def rank_local() -> RankBoard | None:
            if order != "natural" or assign not in ASSIGNS:
                return None
            board = RankBoard.of_spec(spec)
            if board is not None:
                check_start(teams, troops, board.n)
            return board

        local = checked_together(comm, rank_local)
        # Every rank must take the same way, or their collectives would not pair up.
        ways = comm.allgather_object(local is None)
        for rank, whole_board in enumerate(ways):
            if whole_board != ways[0]:
                raise InconsistentInput(
                    f"rank {rank} was given another board, order or start than rank 0; every "
                    f"rank must make the distributed game with the same arguments"
                )
        if local is None:
            board, team, troop_array = checked_together(
                comm, lambda: whole_start(spec, teams, troops, assign, seed, progress=progress)
            )
            return cls(board, team, troop_array, policies, **settings, comm=comm)
        game = cls.__new__(cls)
        game._begin(comm, order)
        game._board = None

        def check() -> None:
            game._check(policies, **settings)
            check_teams_played(teams, game.policy_names)

        checked_together(comm, check)
        game._share_cores(threads)
        game._agree((spec, teams, troops, assign))
        game._part = game._rank_local_part(local, teams, troops, assign, progress)
        return game

    def _rank_local_part(
        self, local: RankBoard, teams: int, troops: int, assign: str, progress: ProgressOption
    ) -> _core.conquest.Part:
        """Collective: this rank's part of a game on a rank-local board, built from its own
        block only (with the bar ``progress``)."""
        if local.grid is not None:
            return self._grid_part(local.grid, teams, troops, assign)
        share, self.board_shape = local.build(self.comm, progress=progress)
        arrays = PartArrays(**{name: _read_only(array) for name, array in share.items()})
        team, territories = local.start(
            arrays, teams, assign=assign, seed=self.seed, comm=self.comm, progress=progress
        )
        state = (team, np.full(team.shape[0], troops, dtype=np.int64))
        return checked_together(
            self.comm, lambda: self._make_part(arrays, state, territories, territories * troops)
        )

    def _grid_part(
        self, grid: GridRows, teams: int, troops: int, assign: str
    ) -> _core.conquest.Part:
        """Collective: this rank's part of a grid game, its share and start made by the
        engine from the grid's closed forms and moved into the part (no ``i64`` copy of the
        share in Python; the exchange plan only, or every array for a custom policy)."""
        self.board_shape = BoardShape(grid.kind, grid.n, grid.n_borders)
        share = checked_together(self.comm, lambda: grid_part(grid, self.comm))
        team, territories = local_start(
            grid, share, teams, assign=assign, seed=self.seed, comm=self.comm
        )
        arrays: dict[str, NDArray[Any]]
        if self._custom:
            arrays = dict(share.arrays())
        else:
            arrays = {name: np.zeros(0, dtype=np.int64) for name in _CSR_FIELDS}
            arrays |= share.plan()
            arrays["owned"] = np.zeros(0, dtype=bool)
        self._local = PartArrays(**{name: _read_only(array) for name, array in arrays.items()})
        parameters = (self.seed, self.rate_ppm, self.cap, self.max_turns)
        return checked_together(
            self.comm,
            lambda: _core.conquest.Part.of_share(
                share,
                team,
                troops,
                self.policy_names,
                parameters,
                grid.n,
                territories,
                territories * troops,
                self._threads,
            ),
        )

    def _begin(self, comm: Communicator | None, order: Order) -> None:
        self.comm = world() if comm is None else comm
        self.order = order
        self.traffic = Traffic()
        self._history_cache = None

    def _check(
        self,
        policies: Sequence[str | PolicyFn],
        *,
        seed: int,
        rate: float,
        cap: int | None,
        max_turns: int | None,
        threads: int | None,
        order: Order,
    ) -> None:
        """Checks and keeps the parameters (every rank alike)."""
        self._keep_parameters(policies, seed=seed, rate=rate, cap=cap, max_turns=max_turns)
        self._threads = _validate.threads(threads)
        if order not in ORDERS:
            raise InvalidParameter(f"order must be one of {ORDERS}, got {order!r}")

    def _share_cores(self, threads: int | None) -> None:
        """Unless told, a rank takes its host's cores shared among the ranks there."""
        if threads is None and os.environ.get("STRATAGEM_NUM_THREADS") is None:
            self._threads = max(1, _core.default_threads() // self.comm.ranks_on_host)

    def _agree(self, board_and_start: tuple[Any, ...]) -> None:
        """Every rank must hold the same board, state and parameters."""
        mine = (
            board_and_start[0],
            board_and_start[1:],
            (
                tuple(self.policy_names),
                self.seed,
                self.rate_ppm,
                self.cap,
                self.max_turns,
                self.order,
            ),
        )
        everyone = self.comm.allgather_object(mine)
        what = ("board", "team or troops", "policies or parameters (or order)")
        for rank, theirs in enumerate(everyone):
            for k, name in enumerate(what):
                if theirs[k] != everyone[0][k]:
                    raise InconsistentInput(
                        f"rank {rank} was given another {name} than rank 0; every rank must "
                        f"make the distributed game with the same arguments"
                    )

    def _make_part(
        self,
        arrays: PartArrays,
        local: tuple[NDArray[np.int64], NDArray[np.int64]],
        territories: NDArray[np.int64],
        troop_counts: NDArray[np.int64],
    ) -> _core.conquest.Part:
        """The engine's part of ``arrays`` with ``local`` (team, troops) of its territories
        and the whole board's territories and troops per team."""
        part = _core.conquest.Part(
            arrays,
            np.ascontiguousarray(local[0]),
            np.ascontiguousarray(local[1]),
            self.policy_names,
            (self.seed, self.rate_ppm, self.cap, self.max_turns),
            self.board_shape.n,
            territories,
            troop_counts,
            self._threads,
            # The engine holds the part's board; without a custom policy to show it to, it
            # takes the CSR arrays from Python (emptied before its buffers are made, some 70
            # bytes a territory less at the peak) and Python keeps the exchange plan.
            keep_csr=bool(self._custom),
        )
        self._local = arrays
        return part

    # -- state ---------------------------------------------------------------------------

    @property
    def rank(self) -> int:
        return self.comm.rank

    @property
    def threads(self) -> int:
        return int(self._part.threads)

    @property
    def owned_ids(self) -> NDArray[np.int64]:
        """The territories this rank owns (increasing ids)."""
        return _read_only(self._part.owned_ids())

    @property
    def n_ghosts(self) -> int:
        """Territories of other ranks that border this rank's."""
        return int(self._local.halo_recv.shape[0])

    @property
    def n_cut_borders(self) -> int:
        """Borders between this rank's territories and other ranks'."""
        return int(self._local.cut.shape[0])

    @property
    def neighbours(self) -> tuple[int, ...]:
        """The ranks this rank exchanges messages with."""
        return tuple(int(q) for q in self._local.neighbours)

    @property
    def _keeper(self) -> _core.conquest.Part:
        return self._part

    def gather_state(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Collective: the whole board's ``(team, troops)`` on every rank."""
        team, troops = self._part.owned_state()
        ids = allgather_blocks(self._part.owned_ids(), comm=self.comm)
        full_team = np.empty(self.board_shape.n, dtype=np.int64)
        full_troops = np.empty(self.board_shape.n, dtype=np.int64)
        full_team[ids] = allgather_blocks(team, comm=self.comm)
        full_troops[ids] = allgather_blocks(troops, comm=self.comm)
        return _read_only(full_team), _read_only(full_troops)

    # -- playing -------------------------------------------------------------------------

    def _exchange(
        self,
        phase: str,
        tag: int,
        outgoing: NDArray[Any],
        send: ArrayLike,
        recv: ArrayLike,
        *,
        summed: NDArray[np.int64] | None = None,
    ) -> NDArray[Any]:
        """Rows to and from the neighbour ranks; ``send``/``recv`` count rows per neighbour.
        ``summed`` is summed over all ranks (in place) in the same meeting of the ranks."""
        size = self.comm.size
        send_counts = np.zeros(size, dtype=np.int64)
        recv_counts = np.zeros(size, dtype=np.int64)
        send_counts[self._local.neighbours] = send
        recv_counts[self._local.neighbours] = recv
        self.traffic.bytes[phase] += outgoing.nbytes
        started = time.perf_counter()
        pending = []
        if summed is not None:
            self.traffic.bytes["collective"] += summed.nbytes
            pending.append(self.comm.iallreduce_inplace(summed, "sum"))
        received = exchange_with_neighbors(
            self.comm, self.neighbours, outgoing, send_counts, recv_counts, tag=tag, pending=pending
        )
        self.traffic.wait_seconds += time.perf_counter() - started
        return received

    def _play_turn(self) -> bool:
        started, waited = time.perf_counter(), self.traffic.wait_seconds
        played = self._play_phases()
        turn_seconds = time.perf_counter() - started
        self.traffic.compute_seconds += turn_seconds - (self.traffic.wait_seconds - waited)
        return played

    def _play_phases(self) -> bool:
        part, plan = self._part, self._local
        halo_send = np.diff(plan.halo_send_offsets)
        halo_recv = np.diff(plan.halo_recv_offsets)
        cut = np.diff(plan.cut_offsets)
        if not part.begin_turn():
            return False
        if part.needs_distance and part.by_rows:
            # A block of whole rows of a plane grid: every rank's top and bottom rows of
            # distances, to every rank, complete them (docs/conquest-mpi.md).
            edges = part.row_edges()
            everyone = np.empty(edges.shape[0] * self.comm.size, dtype=np.uint32)
            self.traffic.bytes["distance"] += edges.nbytes * max(self.comm.size - 1, 0)
            started = time.perf_counter()
            counts = np.full(self.comm.size, edges.nbytes, dtype=np.int64)
            self.comm.allgatherv_bytes(edges.view(np.uint8), everyone.view(np.uint8), counts)
            self.traffic.wait_seconds += time.perf_counter() - started
            self.traffic.distance_rounds += 1
            part.join_rows(everyone)
        elif part.needs_distance:
            # Frontier distances: relax from the ghosts' distances until no rank lowers one.
            # Each round's "did any rank lower one?" is summed while the next round's halo
            # travels (one meeting of the ranks a round, not two); when none did, that halo
            # holds what the last one held and is left unused.
            ghosts = self._exchange(
                "distance", _TAG_DISTANCE, part.distance_halo(), halo_send, halo_recv
            )
            while True:
                lowered = np.array([int(part.distance_update(ghosts))], dtype=np.int64)
                self.traffic.distance_rounds += 1
                ghosts = self._exchange(
                    "distance",
                    _TAG_DISTANCE,
                    part.distance_halo(),
                    halo_send,
                    halo_recv,
                    summed=lowered,
                )
                if not lowered[0]:
                    break
        if part.needs_pressure:
            part.pressure_in(
                self._exchange("pressure", _TAG_PRESSURE, part.pressure_out(), cut, cut)
            )
        resolved = part.resolved_per_neighbour()
        custom = self._custom_rows()
        placed = part.place() if custom is None else part.place(custom)
        theirs = self._exchange("placement", _TAG_PLACEMENT, placed, cut - resolved, resolved)
        reports = self._exchange(
            "report",
            _TAG_REPORT,
            part.fight(theirs),
            _REPORT_WORDS * resolved,
            _REPORT_WORDS * (cut - resolved),
        )
        halo, (territories, troops) = part.occupy(reports)
        # The whole board's counts are summed while the ghosts' new state travels.
        total = np.concatenate([territories, troops])
        part.end_turn(self._exchange("state", _TAG_STATE, halo, halo_send, halo_recv, summed=total))
        k = len(self.policy_names)
        part.commit(total[:k], total[k:])
        self.traffic.turns += 1
        return True

    def _custom_rows(self) -> NDArray[np.int64] | None:
        """The custom teams' placement on this rank's part: each policy is called with the
        view of the part (``ids`` and ``owned`` say which territories are whose)."""
        if not self._custom:
            return None
        team, troops = self._part.local_state()
        plan = self._local
        return custom_placement(
            self._custom,
            self.turn,
            indptr=plan.indptr,
            indices=plan.indices,
            team=_read_only(team),
            troops=_read_only(troops),
            ids=plan.local_ids,
            owned=plan.owned,
        )

    def step(self) -> bool:
        """Collective: plays one turn; returns False (and does nothing) once the game is over."""
        with abort_on_error(self.comm):
            return self._play_turn()

    def run(
        self,
        turns: int | None = None,
        *,
        progress: ProgressOption = None,
        checkpoint: str | Path | None = None,
        checkpoint_every: int | None = None,
        on_turn: Callable[[DistributedGame], None] | None = None,
    ) -> GameResult:
        """Collective: plays until the game ends, or until ``turns`` more turns have been
        played. With ``checkpoint`` the game is saved there every ``checkpoint_every`` turns
        (and when the run stops); :meth:`load` resumes it with any number of ranks."""

        def play(_: int) -> int:
            if not self._play_turn():
                return 0
            if on_turn is not None:
                on_turn(self)
            return 1

        with abort_on_error(self.comm):
            return self._run_turns(
                turns,
                play,
                progress=progress if self.comm.rank == 0 else False,
                checkpoint=checkpoint,
                checkpoint_every=checkpoint_every,
            )

    def traffic_summary(self) -> dict[str, Any]:
        """Collective: bytes sent per turn by all ranks together, by phase, and the ranks'
        cut borders and ghosts; per rank (in rank order), the bytes it sent and the seconds
        it computed and waited for messages and collectives, a turn."""
        phases = list(self.traffic.bytes)
        mine = np.array(
            [self.traffic.bytes[p] for p in phases] + [self.n_cut_borders, self.n_ghosts],
            dtype=np.int64,
        )
        total = allreduce(mine, "sum", comm=self.comm)
        turns = max(self.traffic.turns, 1)
        # Per rank, in rank order: bytes it sent, seconds it computed and waited, a turn.
        ranks = self.comm.allgather_object(
            (
                self.traffic.total / turns,
                self.traffic.compute_seconds / turns,
                self.traffic.wait_seconds / turns,
            )
        )
        return {
            "ranks": self.comm.size,
            "order": self.order,
            "turns": self.traffic.turns,
            # Each cut border is counted once from either side.
            "cut_borders": int(total[len(phases)]) // 2,
            "ghosts": int(total[len(phases) + 1]),
            "bytes_per_turn": float(total[: len(phases)].sum()) / turns,
            "bytes_per_turn_by_phase": {p: float(total[k]) / turns for k, p in enumerate(phases)},
            "distance_rounds_per_turn": self.traffic.distance_rounds / turns,
            "bytes_sent_per_turn_by_rank": [sent for sent, _, _ in ranks],
            "compute_seconds_per_turn_by_rank": [compute for _, compute, _ in ranks],
            "wait_seconds_per_turn_by_rank": [wait for _, _, wait in ranks],
        }

    # -- saving ----------------------------------------------------------------------------

    def save(self, path: str | Path) -> None:
        """Collective: rank 0 writes the whole game to ``path`` in the format of
        :meth:`Game.save <stratagem.conquest.Game.save>` (so :meth:`Game.load` reads it too)."""
        team, troops = self.gather_state()
        if self.comm.rank == 0:
            write_game(path, self._saved(np.asarray(team), np.asarray(troops)))
        self.comm.barrier()

    @classmethod
    def load(
        cls,
        path: str | Path,
        *,
        threads: int | None = None,
        max_turns: int | Literal["saved"] | None = "saved",
        order: Order = "natural",
        comm: Communicator | None = None,
    ) -> DistributedGame:
        """Collective: resumes a game saved by :meth:`save` or :meth:`Game.save
        <stratagem.conquest.Game.save>`, on any number of ranks (every rank reads ``path``)."""
        comm = world() if comm is None else comm
        saved = checked_together(comm, lambda: read_game(path))
        game = cls(
            saved.board,
            saved.team,
            saved.troops,
            [str(name) for name in saved.policies(path, None)],
            seed=saved.seed,
            rate=saved.rate_ppm / 1_000_000,
            cap=saved.cap,
            max_turns=saved.max_turns if max_turns == "saved" else max_turns,
            threads=threads,
            order=order,
            comm=comm,
        )
        counts = allreduce(np.concatenate(game._part.counts()), "sum", comm=comm)
        k = len(game.policy_names)
        checked_together(
            comm,
            lambda: game._part.resume(
                saved.resume_arguments(game.max_turns), counts[:k], counts[k:]
            ),
        )
        return game
