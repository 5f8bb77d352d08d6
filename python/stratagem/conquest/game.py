"""The conquest game API: :class:`Game` on the Rust engine, battle odds, batches of games.

The rules are in ``docs/conquest-rules.md``; :mod:`stratagem.conquest.oracle` plays the same
rules in plain Python and the tests demand identical states after every turn.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from stratagem import _core, _validate, rng
from stratagem.conquest.boards import layouts
from stratagem.conquest.saves import History, SavedGame, read_game, write_game
from stratagem.errors import InvalidMove, InvalidParameter, PolicyError, StratagemError
from stratagem.progress import Progress, ProgressOption
from stratagem.stats import wilson_interval

if TYPE_CHECKING:
    from stratagem.conquest.board import Board

__all__ = [
    "POLICIES",
    "TROOP_LIMIT",
    "BoardShape",
    "Game",
    "GameResult",
    "History",
    "ManyResult",
    "PolicyView",
    "check_policy_name",
    "game_seed",
    "simulate_many",
    "wilson_interval",
]

#: The built-in policies, as the engine names them.
POLICIES: tuple[str, ...] = tuple(_core.conquest.POLICIES)
TROOP_LIMIT: int = _core.conquest.TROOP_LIMIT
MAX_TEAMS: int = _core.conquest.MAX_TEAMS


class BoardShape(NamedTuple):
    """What a game tells of its board without holding it: the board's ``kind`` (a spec that
    builds it whole again: a board file's path for a file), its territories and its borders."""

    kind: str
    n: int
    n_borders: int


@dataclass(frozen=True)
class PolicyView:
    """What a custom policy sees: the state at the start of the turn (read-only arrays).

    The policy returns one integer per directed border in CSR order (``len(indices)``), with
    nonzero entries only on the rows of territories of ``team_id``: ``p > 0`` attacks (or, on a
    friendly border, transfers), ``p < 0`` defends, and a territory may not commit more troops
    than it holds.
    """

    team_id: int
    turn: int
    indptr: NDArray[np.int64]
    indices: NDArray[np.int64]
    team: NDArray[np.int64]
    troops: NDArray[np.int64]
    #: The whole board's id of each territory of the view (its index in a single process;
    #: under MPI the view is the rank's part: its territories and their neighbours).
    ids: NDArray[np.int64] | None = None
    #: Which territories of the view the policy places for (all in a single process; under
    #: MPI the rank's own, while the other rows hold only their borders with these).
    owned: NDArray[np.bool_] | None = None

    @property
    def source(self) -> NDArray[np.int64]:
        """The territory each directed border leaves from (``indices`` gives where it goes)."""
        return np.repeat(np.arange(self.team.shape[0]), np.diff(self.indptr))


PolicyFn = Callable[[PolicyView], ArrayLike]


@dataclass(frozen=True)
class GameResult:
    status: str  # "running", "won", "draw" or "unfinished"
    winner: int | None
    turns: int
    territories: NDArray[np.int64]
    troops: NDArray[np.int64]


def _read_only(array: NDArray[Any]) -> NDArray[Any]:
    array.flags.writeable = False
    return array


def check_policy_name(name: object) -> str:
    """``name`` if it names a built-in policy (``search`` with its options, e.g.
    ``search:rollouts=8:depth=3``), else :class:`InvalidParameter` naming it."""
    if not isinstance(name, str) or name.split(":", 1)[0] not in POLICIES:
        raise InvalidParameter(f"unknown policy {name!r}; built-in policies are {POLICIES}")
    _core.conquest.check_policy(name)
    return name


def _policy_names(policies: Sequence[str | PolicyFn]) -> tuple[list[str], dict[int, PolicyFn]]:
    if isinstance(policies, str) or not isinstance(policies, Sequence):
        raise InvalidParameter(f"policies must be a sequence, one per team, got {policies!r}")
    if not 2 <= len(policies) <= MAX_TEAMS:
        raise InvalidParameter(
            f"a game has 2 to {MAX_TEAMS} teams (one policy each), got {len(policies)}"
        )
    names: list[str] = []
    custom: dict[int, PolicyFn] = {}
    for k, policy in enumerate(policies):
        if isinstance(policy, str):
            try:
                names.append(check_policy_name(policy))
            except InvalidParameter as error:
                raise InvalidParameter(f"team {k}: {error}") from error
        elif callable(policy):
            names.append("custom")
            custom[k] = policy
        else:
            raise InvalidParameter(
                f"team {k}: a policy is a name in {POLICIES} or a callable, got {policy!r}"
            )
    return names, custom


def _int_array(name: str, value: ArrayLike, n: int) -> NDArray[np.int64]:
    array = np.asarray(value)
    if array.ndim == 0 and np.issubdtype(array.dtype, np.integer):
        array = np.full(n, int(array), dtype=np.int64)
    if array.shape != (n,):
        raise InvalidParameter(
            f"{name} needs one entry per territory, shape ({n},), got {array.shape}"
        )
    if array.dtype == bool or not np.issubdtype(array.dtype, np.integer):
        raise InvalidParameter(f"{name} must hold integers, got dtype {array.dtype}")
    return np.ascontiguousarray(array, dtype=np.int64)


def _rate_ppm(rate: float) -> int:
    if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0 <= rate <= 10:
        raise InvalidParameter(f"rate must be a number between 0 and 10, got {rate!r}")
    return round(rate * 1_000_000)


# -- games made from a board spec (Game.from_spec, DistributedGame.from_spec) ---------------

Assign = Literal["regions", "random"]
ASSIGNS: tuple[str, ...] = ("regions", "random")


def check_assign(assign: object) -> None:
    """A start from a spec is ``regions`` or ``random``."""
    if assign not in ASSIGNS:
        raise InvalidParameter(f"assign must be 'regions' or 'random', got {assign!r}")


def check_start(teams: int, troops: int, n: int) -> None:
    """The checks of a game's start from a spec on a board of ``n`` territories: 2 to
    ``MAX_TEAMS`` teams, no more than the territories, ``troops`` from 0 to ``TROOP_LIMIT``."""
    _validate.integer("teams", teams, 2, MAX_TEAMS)
    if teams > n:
        raise InvalidParameter(f"n_teams = {teams} exceeds the {n} territories")
    _validate.integer("troops", troops, 0, TROOP_LIMIT)


def check_teams_played(teams: int, policy_names: Sequence[str]) -> None:
    """Every team of a start from a spec needs a policy."""
    if teams > len(policy_names):
        raise InvalidParameter(
            f"{teams} teams, but {len(policy_names)} policies were given (one policy per team)"
        )


def whole_start(
    spec: str, teams: int, troops: int, assign: object, seed: int, *, progress: ProgressOption
) -> tuple[Board, NDArray[np.int64], NDArray[np.int64]]:
    """The board of ``spec`` built whole (with the bar ``progress`` of ``Board.from_spec``)
    and its :func:`start`."""
    from stratagem.conquest.board import Board

    check_assign(assign)  # before a board that may take a while
    board = Board.from_spec(spec, progress=progress)
    return (board, *start(board, teams, troops, assign, seed, progress=progress))


def start(
    board: Board, teams: int, troops: int, assign: object, seed: int, *, progress: ProgressOption
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The teams ``assign`` gives ``teams`` teams on ``board`` with ``seed`` (with the bar
    ``progress`` of ``assign_regions``), and ``troops`` troops on every territory."""
    from stratagem.conquest.board import assign_random, assign_regions, troops_uniform

    check_assign(assign)
    if assign == "regions":
        team = assign_regions(board, teams, seed, progress=progress)
    else:
        team = assign_random(board, teams, seed)
    return team, troops_uniform(board, troops)


def policy_label(policy: PolicyFn) -> str:
    """``MODULE:NAME`` of a policy function (or of a policy object's class)."""
    named = policy if hasattr(policy, "__qualname__") else type(policy)
    return f"{getattr(named, '__module__', '?')}:{getattr(named, '__qualname__', '?')}"


def custom_placement(
    policies: dict[int, PolicyFn],
    turn: int,
    *,
    indptr: NDArray[np.int64],
    indices: NDArray[np.int64],
    team: NDArray[np.int64],
    troops: NDArray[np.int64],
    ids: NDArray[np.int64],
    owned: NDArray[np.bool_],
) -> NDArray[np.int64]:
    """The placement of the custom teams: each policy called once with the view of the board
    it is given (the whole board, or a rank's part), its output checked; errors name the
    territory by its whole-board id."""
    source = np.repeat(np.arange(team.shape[0]), np.diff(indptr))
    total = np.zeros(indices.shape[0], dtype=np.int64)
    for team_id, policy in policies.items():
        view = PolicyView(team_id, turn, indptr, indices, team, troops, ids, owned)
        who = f"the policy of team {team_id}"
        try:
            placed = np.asarray(policy(view))
        except Exception as error:  # the user's code: any failure is the policy's
            label = policy_label(policy)
            raise PolicyError(
                f"{who} ({label}) failed on turn {turn}: {type(error).__name__}: {error}",
                policy=label,
                turn=turn,
            ) from error
        expected = indices.shape
        if placed.shape != expected:
            raise InvalidMove(
                f"{who} returned shape {placed.shape}; a placement has shape {expected}"
            )
        if placed.dtype == bool or not np.issubdtype(placed.dtype, np.integer):
            raise InvalidMove(f"{who} returned dtype {placed.dtype}; placements are integers")
        placed = placed.astype(np.int64)
        mine = (team[source] == team_id) & owned[source]
        foreign = np.flatnonzero((placed != 0) & ~mine)
        if foreign.size:
            e = int(foreign[0])
            x, y = int(source[e]), int(indices[e])
            whose = f"team {int(team[x])}" if owned[x] else "another rank"
            raise InvalidMove(
                f"{who} placed troops on border {int(ids[x])} -> {int(ids[y])}, "
                f"but territory {int(ids[x])} belongs to {whose}"
            )
        huge = np.flatnonzero(
            np.abs(np.clip(placed, -TROOP_LIMIT - 1, TROOP_LIMIT + 1)) > TROOP_LIMIT
        )
        if huge.size:
            x = int(source[huge[0]])
            raise InvalidMove(
                f"{who}: territory {int(ids[x])} places {int(placed[huge[0]])} troops on one "
                f"border but holds {int(troops[x])}"
            )
        # The trailing 0 keeps reduceat in bounds for territories without borders at the end;
        # rows without borders are masked (reduceat reads the next row's first entry there).
        committed = np.add.reduceat(np.append(np.abs(placed), 0), indptr[:-1])
        over = np.flatnonzero((np.diff(indptr) > 0) & (committed > troops))
        if over.size:
            x = int(over[0])
            raise InvalidMove(
                f"{who}: territory {int(ids[x])} places {int(committed[x])} troops but holds "
                f"{int(troops[x])}"
            )
        total += placed
    return total


class _Recorded(ABC):
    """What :class:`Game` and the distributed game share: parameters, the board (or its shape
    alone, until the board is needed), and the turn, status and history their engine keeps
    (``_keeper``: a ``ConquestGame`` or a ``ConquestPart``)."""

    _board: Board | None
    board_shape: BoardShape
    policy_names: list[str]
    _custom: dict[int, PolicyFn]
    seed: int
    rate_ppm: int
    cap: int
    max_turns: int | None
    _history_cache: tuple[int, History] | None

    @property
    @abstractmethod
    def _keeper(self) -> _core.conquest.Game | _core.conquest.Part:
        """The engine that keeps the turn, status and history."""

    def _keep_parameters(
        self,
        policies: Sequence[str | PolicyFn],
        *,
        seed: int,
        rate: float,
        cap: int | None,
        max_turns: int | None,
    ) -> None:
        """Checks and keeps the policies and the parameters of the rules."""
        self.policy_names, self._custom = _policy_names(policies)
        self.seed = _validate.seed(seed)
        self.rate_ppm = _rate_ppm(rate)
        self.cap = TROOP_LIMIT if cap is None else _validate.integer("cap", cap, 1, TROOP_LIMIT)
        self.max_turns = None if max_turns is None else _validate.integer("max_turns", max_turns, 1)

    @property
    def board(self) -> Board:
        """The whole board: the one given, or, for a game made from a spec without it
        (``from_spec``), the board of its spec built whole on first use (saving, drawing and
        custom policies need it; playing does not)."""
        if self._board is None:
            from stratagem.conquest.board import Board

            self._board = Board.from_spec(self.board_shape.kind)
        return self._board

    @board.setter
    def board(self, board: Board) -> None:
        raise AttributeError("the board of a game is fixed when the game is made")

    @property
    def rate(self) -> float:
        return self.rate_ppm / 1_000_000

    @property
    def turn(self) -> int:
        return int(self._keeper.standing.turn)

    @property
    def status(self) -> str:
        return str(self._keeper.standing.status)

    @property
    def winner(self) -> int | None:
        winner = self._keeper.standing.winner
        return None if winner is None else int(winner)

    @property
    def finished(self) -> bool:
        return self.status != "running"

    @property
    def history(self) -> History:
        """Territories and troops per team after every turn (row 0: the start), read-only.
        The engine keeps it, so a run stopped by Ctrl-C keeps every turn it played."""
        turn = self.turn
        if self._history_cache is None or self._history_cache[0] != turn:
            territories, troops = self._keeper.history()
            self._history_cache = (turn, History(_read_only(territories), _read_only(troops)))
        return self._history_cache[1]

    @property
    def result(self) -> GameResult:
        history = self.history
        return GameResult(
            self.status,
            self.winner,
            self.turn,
            history.territories[-1].copy(),
            history.troops[-1].copy(),
        )

    def _turns_to_play(self, turns: int | None) -> int:
        """The turns a ``run(turns)`` may play: ``turns``, else up to ``max_turns``."""
        if turns is not None:
            return _validate.integer("turns", turns, 0)
        if self.max_turns is not None:
            return max(self.max_turns - self.turn, 0)
        raise InvalidParameter("run() without turns needs max_turns, or it may never end")

    @abstractmethod
    def save(self, path: str | Path) -> None:
        """Writes the game to ``path`` in the format of :func:`write_game`."""

    def _run_turns(
        self,
        turns: int | None,
        play: Callable[[int], int],
        *,
        progress: ProgressOption,
        checkpoint: str | Path | None,
        checkpoint_every: int | None,
        per_call: int = 1,
    ) -> GameResult:
        """The loop of ``run``: ``play(n)`` plays at most ``n`` turns (``per_call`` at most)
        and returns how many it played, 0 when it could not; the game is saved to
        ``checkpoint`` at the turns divisible by ``checkpoint_every`` and when the run stops."""
        remaining = self._turns_to_play(turns)
        every = _validate.checkpoint_every(checkpoint, checkpoint_every)
        with Progress(remaining, "conquest", enabled=progress) as bar:
            while remaining > 0 and not self.finished:
                chunk = min(per_call, remaining)
                if every is not None:
                    chunk = min(chunk, every - self.turn % every)
                played = play(chunk)
                if played == 0:
                    break
                remaining -= played
                bar.advance(played)
                if checkpoint is not None and every is not None and self.turn % every == 0:
                    self.save(checkpoint)
            if checkpoint is not None:
                self.save(checkpoint)
        return self.result

    def _saved(self, team: NDArray[np.int64], troops: NDArray[np.int64]) -> SavedGame:
        """The game as :func:`write_game` writes it, with the whole board's state."""
        return SavedGame(
            board=self.board,
            policy_names=list(self.policy_names),
            seed=self.seed,
            rate_ppm=self.rate_ppm,
            cap=self.cap,
            max_turns=self.max_turns,
            team=team,
            troops=troops,
            turn=self.turn,
            status=self.status,
            winner=self.winner,
            history=self.history,
        )


class Game(_Recorded):
    """A conquest game on the Rust engine.

    >>> from stratagem.conquest import Board, Game
    >>> board = Board.grid(4, 4)
    >>> policies = ["aggressive", "balanced"]
    >>> game = Game(board, [0] * 8 + [1] * 8, troops=5, policies=policies, seed=1, max_turns=50)
    >>> result = game.run()
    >>> result.status in ("won", "draw", "unfinished"), game.history.territories.shape[1]
    (True, 2)
    """

    def __init__(
        self,
        board: Board | str,
        team: ArrayLike,
        troops: ArrayLike,
        policies: Sequence[str | PolicyFn],
        *,
        seed: int = 0,
        rate: float = 0.2,
        cap: int | None = None,
        max_turns: int | None = 1000,
        threads: int | None = None,
    ) -> None:
        from stratagem.conquest.board import Board

        # A board spec string (``"grid:8x8"``, ``"risk"``...) is built by Board.from_spec.
        board = Board.from_spec(board) if isinstance(board, str) else board
        if not isinstance(board, Board):
            raise InvalidParameter(
                f"board must be a conquest Board or a board spec string, got {type(board).__name__}"
            )
        self._board = board
        self.board_shape = BoardShape(board.kind, board.n, board.n_borders)
        self._keep_parameters(policies, seed=seed, rate=rate, cap=cap, max_turns=max_turns)
        team_array = _int_array("team", team, board.n)
        troops_array = _int_array("troops", troops, board.n)
        self._start(board.engine, team_array, troops_array, _validate.threads(threads))

    def _start(
        self,
        engine_board: _core.conquest.Board,
        team: NDArray[np.int64],
        troops: NDArray[np.int64],
        threads: int | None,
    ) -> None:
        """The engine's game on ``engine_board`` from ``team`` and ``troops``."""
        self._adopt(
            _core.conquest.Game(
                engine_board,
                team,
                troops,
                self.policy_names,
                (self.seed, self.rate_ppm, self.cap, self.max_turns),
                threads,
            )
        )

    def _adopt(self, engine: _core.conquest.Game) -> None:
        """Plays on ``engine``, the engine's game made for this one."""
        self._engine = engine
        self._history_cache = None
        self._state_cache: tuple[int, NDArray[np.int64], NDArray[np.int64]] | None = None

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
        progress: ProgressOption = None,
    ) -> Game:
        """The game on the board ``spec`` (``Board.from_spec``), ``teams`` teams started by
        ``assign`` (:func:`~stratagem.conquest.board.assign_regions` or
        :func:`~stratagem.conquest.board.assign_random` with ``seed``) and ``troops`` troops
        on every territory: the game of ``Game(board, team, troops, ...)``.

        On a grid (``grid:RxC``, ``:torus``) the engine builds its board from the grid's
        closed forms and deals the regions on it: the board is not built in Python (nor its
        int64 arrays and positions) until :attr:`board` is asked for. Any other board is
        built whole first. ``progress`` (:mod:`stratagem.progress`) draws a bar on stderr, or
        is told, for each long step: the steps of a grid's game (the board, then the start
        and the game), or the board's build (random geometric, Erdős-Rényi,
        preferential-attachment, a board file) and then the regions.

        >>> game = Game.from_spec("grid:6x6", 2, 5, ["opportunist", "balanced"], seed=3)
        >>> game.board_shape
        BoardShape(kind='grid:6x6', n=36, n_borders=60)
        >>> game.run(5).turns
        5
        """
        from stratagem.conquest.board import random_teams
        from stratagem.conquest.boards.grid_rows import GridRows

        settings: dict[str, Any] = {
            "seed": seed,
            "rate": rate,
            "cap": cap,
            "max_turns": max_turns,
            "threads": threads,
        }
        grid = GridRows.of_spec(spec) if assign in ASSIGNS else None
        if grid is None:
            board, team, troop_array = whole_start(
                spec, teams, troops, assign, seed, progress=progress
            )
            return cls(board, team, troop_array, policies, **settings)
        check_start(teams, troops, grid.n)
        layouts.check_memory(grid.kind, grid.n, grid.n_borders, grid.engine_bytes)
        game = cls.__new__(cls)
        game._board = None
        game.board_shape = BoardShape(grid.kind, grid.n, grid.n_borders)
        game._keep_parameters(policies, seed=seed, rate=rate, cap=cap, max_turns=max_turns)
        check_teams_played(teams, game.policy_names)
        threads = _validate.threads(threads)
        # Two steps, each one call of the engine: the board, then the start and the game
        # (on a `regions` start, made whole in the engine: no array per territory in Python).
        with Progress(2, f"game {grid.kind}", enabled=progress, counts=False) as bar:
            engine = _core.conquest.Board.grid(grid.n_rows, grid.n_cols, grid.torus)
            bar.advance()
            if assign == "regions":
                game._adopt(
                    _core.conquest.Game.regions_on_grid(
                        engine,
                        grid.n_rows,
                        grid.n_cols,
                        grid.torus,
                        teams,
                        troops,
                        game.policy_names,
                        (game.seed, game.rate_ppm, game.cap, game.max_turns),
                        threads,
                    )
                )
            else:
                team = random_teams(grid.n, teams, game.seed)
                game._start(engine, team, np.full(grid.n, troops, dtype=np.int64), threads)
            bar.advance()
        return game

    # -- state ---------------------------------------------------------------------------

    @property
    def threads(self) -> int:
        return int(self._engine.threads)

    @threads.setter
    def threads(self, threads: int | None) -> None:
        self._engine.threads = _validate.threads(threads)

    def _state(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        turn = self._engine.standing.turn
        if self._state_cache is None or self._state_cache[0] != turn:
            self._state_cache = (
                turn,
                _read_only(self._engine.team),
                _read_only(self._engine.troops),
            )
        return self._state_cache[1], self._state_cache[2]

    @property
    def team(self) -> NDArray[np.int64]:
        """The owner of each territory (read-only)."""
        return self._state()[0]

    @property
    def troops(self) -> NDArray[np.int64]:
        """The troops in each territory (read-only)."""
        return self._state()[1]

    @property
    def state(self) -> dict[str, Any]:
        """``turn``, ``team`` and ``troops`` (read-only arrays)."""
        team, troops = self._state()
        return {"turn": self.turn, "team": team, "troops": troops}

    @property
    def _keeper(self) -> _core.conquest.Game:
        return self._engine

    # -- playing -------------------------------------------------------------------------

    def _custom_placement(self) -> NDArray[np.int64] | None:
        if not self._custom:
            return None
        team, troops = self._state()
        n = self.board_shape.n
        ids, owned = np.arange(n, dtype=np.int64), np.ones(n, dtype=bool)
        return custom_placement(
            self._custom,
            self.turn,
            indptr=self.board.indptr,
            indices=self.board.indices,
            team=team,
            troops=troops,
            ids=ids,
            owned=owned,
        )

    def placement(self) -> NDArray[np.int64]:
        """The placement of the coming turn (built-in policies and custom ones)."""
        return self._engine.placement(self._custom_placement())

    def step(self) -> bool:
        """Plays one turn; returns False (and does nothing) once the game is over."""
        if self.finished:
            return False
        return bool(self._engine.step(self._custom_placement()))

    def run(
        self,
        turns: int | None = None,
        *,
        progress: ProgressOption = None,
        checkpoint: str | Path | None = None,
        checkpoint_every: int | None = None,
    ) -> GameResult:
        """Plays until the game ends, or until ``turns`` more turns have been played. With
        ``checkpoint`` the game is saved there every ``checkpoint_every`` turns (turn numbers
        divisible by it) and when the run stops; :meth:`load` resumes it."""
        # Built-in policies run several turns per call into Rust.
        per_call = max(1, 2_000_000 // max(2 * self.board_shape.n_borders, 1))

        def play(chunk: int) -> int:
            # Custom policies need Python between turns: one turn per call.
            return (1 if self.step() else 0) if self._custom else int(self._engine.run(chunk))

        return self._run_turns(
            turns,
            play,
            progress=progress,
            checkpoint=checkpoint,
            checkpoint_every=checkpoint_every,
            per_call=per_call,
        )

    # -- saving ----------------------------------------------------------------------------

    def save(self, path: str | Path) -> None:
        """Writes the game to ``path`` (npz): board, parameters, state and history. A loaded
        game continues bit-identically. Custom policies are not saved: pass them to
        :meth:`load` again."""
        write_game(path, self._saved(np.asarray(self.team), np.asarray(self.troops)))

    @classmethod
    def load(
        cls,
        path: str | Path,
        *,
        policies: Sequence[str | PolicyFn] | None = None,
        threads: int | None = None,
        max_turns: int | Literal["saved"] | None = "saved",
    ) -> Game:
        """Reads a game written by :meth:`save` (or by a distributed game's checkpoint).
        ``policies`` replaces the saved policy names (it must be given when the saved game had
        custom policies). ``max_turns`` replaces the saved turn limit; a game that had ended
        unfinished at its limit plays on when the new limit allows more turns."""
        saved = read_game(path)
        try:
            game = cls(
                saved.board,
                saved.team,
                saved.troops,
                saved.policies(path, policies),
                seed=saved.seed,
                rate=saved.rate_ppm / 1_000_000,
                cap=saved.cap,
                max_turns=saved.max_turns if max_turns == "saved" else max_turns,
                threads=threads,
            )
            game._engine.resume(saved.resume_arguments(game.max_turns))
        except StratagemError as error:
            # The engine checks the saved state's ranges; the message must name the file.
            message = str(error)
            if message.startswith(str(path)):
                raise
            raise type(error)(f"{path}: {message}") from None
        return game


# -- batches of games -------------------------------------------------------------------------


@dataclass(frozen=True)
class ManyResult:
    """Outcomes of independent games: wins per team with 95% Wilson intervals."""

    games: int
    wins: NDArray[np.int64]
    draws: int
    unfinished: int
    turns: NDArray[np.int64]
    win_rate: NDArray[np.float64]
    interval_low: NDArray[np.float64]
    interval_high: NDArray[np.float64]


def simulate_many(
    board: Board,
    team: ArrayLike,
    troops: ArrayLike,
    policies: Sequence[str],
    *,
    games: int,
    seed: int = 0,
    rate: float = 0.2,
    cap: int | None = None,
    max_turns: int = 1000,
    threads: int | None = None,
) -> ManyResult:
    """Plays ``games`` independent games from the same start, spread over threads (game ``g``
    draws from the seed in word 0 of block 0 of stream ``(seed, "conquest.games", g)``)."""
    count = _validate.integer("games", games, 1)
    if any(not isinstance(p, str) for p in policies):
        raise InvalidParameter("simulate_many plays built-in policies only (names, not callables)")
    template = Game(
        board,
        team,
        troops,
        policies,
        seed=seed,
        rate=rate,
        cap=cap,
        max_turns=max_turns,
        threads=threads,
    )
    codes, winners, turns = _core.conquest.simulate_many(
        template._engine, count, _validate.threads(threads)
    )
    n_teams = len(template.policy_names)
    wins = np.bincount(winners[codes == 0], minlength=n_teams).astype(np.int64)
    low, high = wilson_interval(wins, count)
    return ManyResult(
        games=count,
        wins=wins,
        draws=int(np.sum(codes == 1)),
        unfinished=int(np.sum(codes == 2)),
        turns=turns,
        win_rate=wins / count,
        interval_low=low,
        interval_high=high,
    )


def game_seed(seed: int, g: int) -> int:
    """The seed of game ``g`` in :func:`simulate_many` started from ``seed``."""
    return int(rng.blocks(seed, "conquest.games", [g])[0, 0])
