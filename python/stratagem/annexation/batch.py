"""Many games at once for learning code, in the style of Pgx: ``init(board, batch)`` and
``step(state, actions)`` over numpy arrays (``docs/annexation-rules.md``, "Batch API").

A :class:`BatchState` is immutable: ``step`` returns a new one. Rows already over keep their
state and ignore their action; ``rewards`` is +1 for the winner and -1 for the others in the
step a row ends (0 for a draw and for every other step).

>>> import numpy as np
>>> from stratagem.annexation import Board, batch
>>> state = batch.init(Board.hexagon(4, seed=2), 3)
>>> state.observation.shape, state.legal_action_mask.shape
((3, 61, 10), (3, 8))
>>> actions = state.legal_action_mask.argmax(axis=1)
>>> state = batch.step(state, actions)
>>> state.current_player.tolist(), state.moves.tolist()
([1, 1, 1], [1, 1, 1])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from stratagem import _core, _validate
from stratagem.annexation.board import Board
from stratagem.annexation.game import Game, Rules
from stratagem.errors import InvalidParameter

__all__ = ["BatchState", "init", "step"]


@dataclass(frozen=True, eq=False)
class BatchState:
    """B positions on one board. ``owner`` (B, n) int8 (-1 unowned), ``player_colours``
    (B, p) uint8, ``current_player`` (B,) int8, ``moves`` (B,) int64, ``winner`` (B,) int8
    (-1 when drawn or not over), ``terminated`` (B,) bool, ``rewards`` (B, p) float32,
    ``legal_action_mask`` (B, k) bool, and ``observation`` (B, n, k + p) bool: the one-hot
    colour each cell shows, then ownership planes rotated so that plane ``k`` is the player
    to move."""

    board: Board
    rules: Rules
    owner: NDArray[np.int8]
    player_colours: NDArray[np.uint8]
    current_player: NDArray[np.int8]
    moves: NDArray[np.int64]
    winner: NDArray[np.int8]
    terminated: NDArray[np.bool_]
    rewards: NDArray[np.float32]
    legal_action_mask: NDArray[np.bool_]
    _engine: _core.annexation.Board

    @property
    def batch(self) -> int:
        return int(self.owner.shape[0])

    @property
    def observation(self) -> NDArray[np.bool_]:
        board, players = self.board, self.board.players
        rows = np.arange(self.batch)[:, None]
        owned = self.owner >= 0
        shows = np.where(
            owned, self.player_colours[rows, np.where(owned, self.owner, 0)], board.colours
        )
        colour_planes = np.eye(board.colour_count, dtype=bool)[shows]
        relative = (self.owner.astype(np.int64) - self.current_player[:, None]) % players
        owner_planes = np.eye(players, dtype=bool)[relative] & owned[:, :, None]
        return np.concatenate([colour_planes, owner_planes], axis=2)


def _frozen(*arrays: np.ndarray) -> None:
    for array in arrays:
        array.setflags(write=False)


def init(
    board: Board,
    batch: int,
    *,
    mode: str = "flood",
    allow_opponent_colours: bool = False,
    max_moves: int | None = None,
) -> BatchState:
    """``batch`` copies of the game's first position on ``board``."""
    count = _validate.integer("batch", batch, 1, 1 << 24)
    game = Game(
        board, mode=mode, allow_opponent_colours=allow_opponent_colours, max_moves=max_moves
    )
    over = game.is_over
    mask = np.zeros(board.colour_count, dtype=bool)
    mask[game.legal_moves()] = True
    state = BatchState(
        board=board,
        rules=game.rules,
        owner=np.repeat(game.owner[None, :], count, axis=0),
        player_colours=np.repeat(game.player_colours[None, :], count, axis=0),
        current_player=np.full(count, game.to_move, dtype=np.int8),
        moves=np.zeros(count, dtype=np.int64),
        winner=np.full(count, -1 if game.winner is None else game.winner, dtype=np.int8),
        terminated=np.full(count, over, dtype=bool),
        rewards=np.zeros((count, board.players), dtype=np.float32),
        legal_action_mask=np.repeat(mask[None, :], count, axis=0),
        _engine=game._engine_board,
    )
    _frozen(state.owner, state.player_colours, state.current_player, state.moves)
    return state


def step(state: BatchState, actions: ArrayLike, *, threads: int | None = None) -> BatchState:
    """Plays ``actions[b]`` (a colour) in every row b that is not over. An illegal action
    in a live row raises :class:`~stratagem.errors.InvalidMove` naming the row."""
    if not isinstance(state, BatchState):
        raise InvalidParameter(f"state must be a BatchState, got {type(state).__name__}")
    chosen = np.asarray(actions)
    if chosen.shape != (state.batch,) or not np.issubdtype(chosen.dtype, np.integer):
        raise InvalidParameter(
            f"actions must be {state.batch} integers (one per row), got shape {chosen.shape} "
            f"and dtype {chosen.dtype}"
        )
    owner, colours, to_move, moves, winner, terminated, rewards, legal = (
        _core.annexation.batch_step(
            state._engine, state, chosen.astype(np.int64), _validate.threads(threads)
        )
    )
    _frozen(owner, colours, to_move, moves)
    return BatchState(
        state.board,
        state.rules,
        owner,
        colours,
        to_move,
        moves,
        winner,
        terminated,
        rewards,
        legal,
        state._engine,
    )
