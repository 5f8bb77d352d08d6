"""Annexation as a native batched Gymnasium vector env: ``num_envs`` games stepped together in
Rust over threads, in the spirit of Pgx and EnvPool.

``gymnasium.make_vec("stratagem/Annexation-v0", num_envs=N,
vectorization_mode="vector_entry_point")`` (after ``import stratagem.envs.gymnasium``) builds
one; so does :class:`AnnexationVectorEnv` directly. Every env is the Gymnasium env of one game
(``stratagem.envs.gymnasium``) with a random opponent, on one board for all envs and episodes
(the board of ``board`` and ``board_seed``):

- observations ``int8 (N, 2, cells)``: each cell's owner relative to seat 0 (-1 unowned), then
  the colour it shows — ``Annexation.observation(0)`` of every env;
- actions ``int64 (N,)``, colours; ``info["action_mask"]`` ``bool (N, colours)``;
- rewards: +1 / -1 when a game ends (a draw 0 when seat 0 shares the top, else -1); an
  illegal action ends its episode with -1, as in the single env and in Pgx;
- autoreset ``NEXT_STEP`` (Gymnasium's default): the step after an episode ends resets that
  env, ignoring its action, with reward 0;
- ``reset(seed=s)`` seeds env ``i`` with ``s + i``, as Gymnasium's own vector envs do; each env's
  later episodes follow from its seed exactly as the single env's do, so env ``i`` plays what
  ``gymnasium.make("stratagem/Annexation-v0", board=..., board_seed=...)`` reset with seed
  ``s + i`` plays for the same actions.

The arrays returned are the env's own buffers, rewritten by the next call: copy what you keep.

>>> from stratagem.annexation.vector import AnnexationVectorEnv
>>> env = AnnexationVectorEnv(4, board="hex:3", threads=1)
>>> observations, info = env.reset(seed=7)
>>> observations.shape, info["action_mask"].shape
((4, 2, 37), (4, 8))
>>> actions = info["action_mask"].argmax(axis=1)
>>> observations, rewards, terminated, truncated, info = env.step(actions)
>>> rewards.tolist(), terminated.tolist()
([0.0, 0.0, 0.0, 0.0], [False, False, False, False])
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from stratagem import _core, _validate
from stratagem.annexation.game import Rules
from stratagem.annexation.protocol import Annexation
from stratagem.errors import InvalidMove, InvalidParameter

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
except ImportError:
    from stratagem.errors import MissingDependency

    raise MissingDependency.of("gymnasium", "envs") from None

__all__ = ["AnnexationVectorEnv"]

_MAX_ENVS = 1 << 24


class AnnexationVectorEnv(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """``num_envs`` annexation games (seat 0 against a random opponent) stepped in Rust."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        *,
        board: str = "hex:8",
        colours: int = 8,
        players: int = 2,
        mode: str = "flood",
        allow_opponent_colours: bool = False,
        max_turns: int | None = None,
        board_seed: int = 0,
        threads: int | None = None,
        name: str = "annexation",
    ) -> None:
        if name != "annexation":
            raise InvalidParameter(f"the annexation vector env plays annexation, not {name!r}")
        self.num_envs = _validate.integer("num_envs", num_envs, 1, _MAX_ENVS)
        # The board and rules exactly as the protocol game builds them.
        template = Annexation(
            board=board,
            colours=colours,
            players=players,
            mode=mode,
            allow_opponent_colours=allow_opponent_colours,
            max_turns=max_turns,
            board_seed=_validate.seed(board_seed),
        )
        native = template.native
        self.board = native.board
        engine_board = Rules(mode, allow_opponent_colours, max_turns).compile(self.board)
        self._engine = _core.annexation.Vector(
            engine_board, self.num_envs, _validate.threads(threads)
        )
        cells, k = self.board.cells, self.board.colour_count
        # The single env's space: an int8 Box over the dtype's whole range.
        self.single_observation_space = spaces.Box(-128, 127, (2, cells), np.int8)
        self.single_action_space = spaces.Discrete(k)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, self.num_envs
        )
        self.action_space = gymnasium.vector.utils.batch_space(
            self.single_action_space, self.num_envs
        )
        n = self.num_envs
        self._observations = np.zeros((n, 2, cells), dtype=np.int8)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._truncated = np.zeros(n, dtype=np.bool_)
        self._masks = np.zeros((n, k), dtype=np.bool_)
        self._started = False

    def _outputs(
        self,
    ) -> tuple[
        NDArray[np.int8],
        NDArray[np.float64],
        NDArray[np.bool_],
        NDArray[np.bool_],
        NDArray[np.bool_],
    ]:
        """The buffers the engine writes every env's outputs into."""
        return (self._observations, self._rewards, self._terminated, self._truncated, self._masks)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.int8], dict[str, Any]]:
        """Starts every env; ``seed`` an integer (env ``i`` gets ``seed + i``) or one seed per
        env; None: 0."""
        if isinstance(seed, list | tuple | np.ndarray):
            if len(seed) != self.num_envs:
                raise InvalidParameter(f"{len(seed)} seeds given for {self.num_envs} envs")
            seeds = np.array([_validate.seed(s) for s in seed], dtype=np.uint64)
        else:
            first = 0 if seed is None else _validate.seed(seed)
            seeds = (np.uint64(first) + np.arange(self.num_envs, dtype=np.uint64)).astype(np.uint64)
        self._engine.reset(seeds, self._outputs())
        self._started = True
        return self._observations, {"action_mask": self._masks}

    def step(
        self, actions: Any
    ) -> tuple[
        NDArray[np.int8], NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]
    ]:
        if not self._started:
            raise InvalidMove("call reset() before step()")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or not np.issubdtype(chosen.dtype, np.integer):
            raise InvalidParameter(
                f"actions must be {self.num_envs} integers (one colour per env), got an array "
                f"of shape {chosen.shape} and dtype {chosen.dtype}"
            )
        self._engine.step(np.ascontiguousarray(chosen, dtype=np.int64), self._outputs())
        return (
            self._observations,
            self._rewards,
            self._terminated,
            self._truncated,
            {"action_mask": self._masks},
        )

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the games live in the engine object."""
