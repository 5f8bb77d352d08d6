"""Annexation's native envs: :class:`AnnexationEnv`, the single Gymnasium env played in Rust,
and :class:`AnnexationVectorEnv`, ``num_envs`` games stepped together in Rust over threads, in
the spirit of Pgx and EnvPool.

Both play the task of ``gymnasium.make("stratagem/Annexation-v0", ...)`` through the protocol
(``stratagem.envs.gymnasium``), step for step (the tests step them side by side):

- a fresh board for every episode, its colours drawn from the episode's game seed as the
  protocol game draws them (``board_seed=`` pins one board for every episode; a ``voronoi``
  board, whose cells come from the seed too, needs ``board_seed`` here);
- the agent plays ``seat`` (default 0) against ``opponent``: ``"random"`` (the bridges'
  random opponent, the default) or any AI spec the game accepts (``"greedy"``, ``"fractal"``,
  ``"mcts:iterations=200"``, ``"minimax:depth=2"``), spawned for each move with seed
  ``game seed + moves so far`` as the protocol game's ``suggest`` does;
- observations ``int8 (2, cells)``: each cell's owner relative to the agent's seat (-1
  unowned, 0 the agent, 1 the next seat in turn order, ...), then the colour it shows;
- actions: colours; ``info["action_mask"]`` ``int8 (colours,)`` (a row per env);
- rewards: +1 / -1 when a game ends (a draw 0 when the agent shares the top, else -1); an
  illegal action ends its episode with -1;
- episodes: ``reset(seed=s)`` starts episode 0 of seed ``s``, a reset without a seed the next
  episode of the last seed; the vector env seeds env ``i`` with ``s + i``, as Gymnasium's own
  vector envs do.

The vector env's autoreset is Gymnasium's ``NEXT_STEP`` (the default): the step after an
episode ends resets that env, ignoring its action, with reward 0; the mask returned when an
episode ends is all ones, so a masked policy always has an action to pick.
``AnnexationVectorEnv(..., autoreset="same_step")`` resets in the step that ends the episode
instead and puts the last observation in ``info["final_obs"]`` (what SB3 needs). Its arrays
are the env's own buffers, rewritten by the next call: copy what you keep.

>>> from stratagem.annexation.vector import AnnexationVectorEnv
>>> env = AnnexationVectorEnv(4, board="hex:3", threads=1)
>>> observations, info = env.reset(seed=7)
>>> observations.shape, info["action_mask"].shape, info["action_mask"].dtype
((4, 2, 37), (4, 8), dtype('int8'))
>>> actions = info["action_mask"].argmax(axis=1)
>>> observations, rewards, terminated, truncated, info = env.step(actions)
>>> rewards.tolist(), terminated.tolist()
([0.0, 0.0, 0.0, 0.0], [False, False, False, False])
"""

from __future__ import annotations

from dataclasses import asdict, replace
from typing import Any, SupportsFloat, Unpack

import numpy as np
from numpy.typing import NDArray

from stratagem import _core, _validate
from stratagem.annexation.boards import layouts
from stratagem.annexation.game import Rules
from stratagem.annexation.players import AI
from stratagem.annexation.protocol import Annexation, GameConfig, GameOptions
from stratagem.errors import InvalidMove, InvalidParameter

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
except ImportError:
    from stratagem.errors import MissingDependency

    raise MissingDependency.of("gymnasium", "envs") from None

__all__ = [
    "AnnexationEnv",
    "AnnexationVectorEnv",
    "native_opponent",
    "plays_natively",
    "supports_fresh_boards",
]

_MAX_ENVS = 1 << 24
#: The keys of the Gymnasium env's config that AnnexationEnv plays, besides those
#: plays_natively names.
_NATIVE_KEYS = frozenset(
    {
        "seed",
        "seat",
        "illegal_action",
        "colours",
        "players",
        "mode",
        "allow_opponent_colours",
        "max_turns",
    }
)
#: Board layouts whose cells do not depend on the seed: the engine draws their colours.
_FIXED_GEOMETRY = ("hexagon", "hex_rectangle", "grid", "load")
_AUTORESETS = ("next_step", "same_step")
_RANDOM = "random"
#: Reward of an illegal action under ``illegal_action="lose"`` (as in the protocol bridges).
_ILLEGAL_PENALTY = -1.0


def supports_fresh_boards(board: object, board_seed: int | None) -> bool:
    """Whether the native envs can play ``board`` with ``board_seed``: any board pinned by
    ``board_seed``, and fresh boards of every layout whose cells do not depend on the seed."""
    if board_seed is not None:
        return True
    if not isinstance(board, str):
        return False
    name, _ = layouts.parse_spec(board)
    return name in _FIXED_GEOMETRY


def plays_natively(
    *,
    opponent: object = None,
    render_mode: str | None = None,
    board: object = "hex:8",
    board_seed: int | None = None,
    observation: object = "raw",
    **config: Any,
) -> bool:
    """Whether :class:`AnnexationEnv` plays this configuration of the Gymnasium env: a
    built-in opponent (not a callable), no rendering, the raw observation, and a board it can
    draw."""
    if render_mode is not None or callable(opponent) or observation != "raw":
        return False
    if not set(config) <= _NATIVE_KEYS:
        return False  # the protocol env names the key it does not know
    return supports_fresh_boards(board, board_seed)


def native_opponent(opponent: object) -> Any:
    """The engine's agent for ``opponent`` (None for the random opponent); an unknown one
    raises ``InvalidParameter`` naming it."""
    if opponent is None or opponent == _RANDOM:
        return None
    if isinstance(opponent, AI):
        return opponent._agent
    if not isinstance(opponent, str):
        raise InvalidParameter(
            f"opponent must be 'random' or an annexation AI spec (a string such as 'greedy' or "
            f"'mcts:iterations=200'), got {opponent!r}"
        )
    try:
        return AI.parse(opponent)._agent
    except InvalidParameter as error:
        raise InvalidParameter(f"unknown annexation opponent {opponent!r}: {error}") from None


class _Engine:
    """The engine of ``n`` envs of one configuration and the buffers it writes into."""

    def __init__(
        self,
        n: int,
        options: GameOptions,
        *,
        opponent: object,
        seat: int,
        same_step: bool,
        threads: int | None,
    ) -> None:
        if options.board_seed is not None:
            options = replace(options, board_seed=_validate.seed(options.board_seed))
        if not supports_fresh_boards(options.board, options.board_seed):
            raise InvalidParameter(
                f"board={options.board!r} draws its cells from each episode's seed, which the "
                "native env cannot: pass board_seed= to play one board"
            )
        # The first board and the rules exactly as the protocol game builds them.
        template = Annexation(**asdict(options))
        self.board = template.native.board
        players = self.board.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise InvalidParameter(f"seat must be from 0 to {players - 1}, got {seat!r}")
        self.seat = seat
        rules = Rules(options.mode, options.allow_opponent_colours, options.max_turns)
        self.vector = _core.annexation.Vector(
            rules.compile(self.board),
            n,
            _validate.threads(threads),
            fresh=options.board_seed is None and layouts.parse_spec(options.board)[0] != "load",
            opponent=native_opponent(opponent),
            seat=seat,
            same_step=same_step,
        )
        cells, k = self.board.cells, self.board.colour_count
        self.cells, self.colours = cells, k
        self.observations = np.zeros((n, 2, cells), dtype=np.int8)
        self.rewards = np.zeros(n, dtype=np.float64)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.truncated = np.zeros(n, dtype=np.bool_)
        self.masks = np.zeros((n, k), dtype=np.int8)
        self.final_observations = np.zeros((n, 2, cells), dtype=np.int8)
        self.buffers = (
            self.observations,
            self.rewards,
            self.terminated,
            self.truncated,
            self.masks,
            self.final_observations,
        )
        # Observations are owners (-1 to players - 1) and colours (0 to k - 1).
        low = np.stack([np.full(cells, -1), np.zeros(cells)]).astype(np.int8)
        high = np.stack([np.full(cells, players - 1), np.full(cells, k - 1)]).astype(np.int8)
        self.observation_space = spaces.Box(low, high, (2, cells), np.int8)

    def reset(self, seeds: NDArray[np.uint64]) -> None:
        self.vector.reset(seeds, self.buffers)

    def step(self, actions: NDArray[np.int64]) -> None:
        self.vector.step(actions, self.buffers)


class AnnexationEnv(gymnasium.Env[NDArray[np.int8], np.int64]):
    """One annexation game against built-in opponents, stepped in Rust (see the module's
    docstring); ``gymnasium.make("stratagem/Annexation-v0", ...)`` builds one whenever the
    engine can play the configuration (else the protocol env of ``stratagem.envs.gymnasium``).
    ``action_masks()`` is the mask of the agent's legal colours (sb3-contrib's convention)."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        name: str = "annexation",
        *,
        opponent: object = None,
        seed: int = 0,
        seat: int = 0,
        illegal_action: str = "lose",
        **config: Unpack[GameConfig],
    ) -> None:
        if name != "annexation":
            raise InvalidParameter(f"the annexation env plays annexation, not {name!r}")
        if illegal_action not in ("lose", "raise"):
            raise InvalidParameter(
                f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}"
            )
        self._illegal = illegal_action
        options = GameOptions(**config)
        self._engine = _Engine(1, options, opponent=opponent, seat=seat, same_step=False, threads=1)
        self.opponent = _RANDOM if opponent is None else opponent
        self.seat = self._engine.seat
        self.observation_space = self._engine.observation_space
        self.action_space = spaces.Discrete(self._engine.colours)
        self._seed = _validate.seed(seed)
        self._started = False
        self._ended = False
        self._seeds = np.zeros(1, dtype=np.uint64)
        self._action = np.zeros(1, dtype=np.int64)
        self._mask = np.zeros(self._engine.colours, dtype=np.int8)

    def action_masks(self) -> NDArray[np.bool_]:
        """The agent's legal colours now (sb3-contrib's ``MaskablePPO`` reads this)."""
        return self._mask.astype(np.bool_)

    def board_colours(self) -> NDArray[np.uint8]:
        """The cell colours of the board of the current episode."""
        return self._engine.vector.board_colours(0)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.int8], dict[str, Any]]:
        super().reset(seed=seed)
        engine = self._engine
        if seed is not None or not self._started:
            self._seed = self._seed if seed is None else _validate.seed(seed)
            self._seeds[0] = self._seed
            engine.reset(self._seeds)
        else:
            # The engine starts the next episode of its seed on the step after an end; an
            # episode cut short is ended first by a losing (ignored) move.
            if not self._ended:
                self._action[0] = -1
                engine.step(self._action)
            self._action[0] = 0
            engine.step(self._action)
        self._started, self._ended = True, False
        self._mask = engine.masks[0].copy()
        return engine.observations[0].copy(), {"action_mask": self._mask}

    def step(
        self, action: np.int64 | int
    ) -> tuple[NDArray[np.int8], SupportsFloat, bool, bool, dict[str, Any]]:
        if not self._started or self._ended:
            raise InvalidMove("the episode is over: call reset()")
        if isinstance(action, np.ndarray) and action.shape == ():  # type: ignore[unreachable]
            action = action.item()  # type: ignore[unreachable]
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise InvalidParameter(f"action must be an integer (a colour), got {action!r}")
        engine = self._engine
        legal = 0 <= action < engine.colours and engine.masks[0, int(action)] == 1
        if not legal and self._illegal == "raise":
            raise InvalidMove(f"seat {self.seat}: action {action!r} is not legal now")
        before = engine.masks[0].copy()
        self._action[0] = action if legal else -1
        engine.step(self._action)
        terminated = bool(engine.terminated[0])
        info: dict[str, Any] = {"action_mask": engine.masks[0].copy()}
        if not legal:
            # The position is unchanged: the mask is the one the agent had.
            info["action_mask"], info["illegal_action"] = before, True
        elif terminated:
            info["action_mask"][:] = 0  # the game is over: no move is legal
        self._ended = terminated
        self._mask = info["action_mask"]
        reward = float(engine.rewards[0])
        return engine.observations[0].copy(), reward, terminated, False, info


class AnnexationVectorEnv(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """``num_envs`` annexation games against built-in opponents, stepped in Rust (see the
    module's docstring)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        *,
        opponent: object = None,
        seat: int = 0,
        autoreset: str = "next_step",
        threads: int | None = None,
        name: str = "annexation",
        **config: Unpack[GameConfig],
    ) -> None:
        if name != "annexation":
            raise InvalidParameter(f"the annexation vector env plays annexation, not {name!r}")
        if autoreset not in _AUTORESETS:
            raise InvalidParameter(f"autoreset must be one of {_AUTORESETS}, got {autoreset!r}")
        self.num_envs = _validate.integer("num_envs", num_envs, 1, _MAX_ENVS)
        self._same_step = autoreset == "same_step"
        self._engine = _Engine(
            self.num_envs,
            GameOptions(**config),
            opponent=opponent,
            seat=seat,
            same_step=self._same_step,
            threads=threads,
        )
        self.metadata = {
            "autoreset_mode": AutoresetMode.SAME_STEP
            if self._same_step
            else AutoresetMode.NEXT_STEP
        }
        self.board = self._engine.board
        self.single_observation_space = self._engine.observation_space
        self.single_action_space = spaces.Discrete(self._engine.colours)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, self.num_envs
        )
        self.action_space = gymnasium.vector.utils.batch_space(
            self.single_action_space, self.num_envs
        )
        self._started = False

    def board_colours(self, env: int) -> NDArray[np.uint8]:
        """The cell colours of the board env ``env`` plays now."""
        return self._engine.vector.board_colours(
            _validate.integer("env", env, 0, self.num_envs - 1)
        )

    def action_masks(self) -> NDArray[np.bool_]:
        """Every env's legal colours now, ``bool (num_envs, colours)``."""
        return self._engine.masks.astype(np.bool_)

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
            if first + self.num_envs - 1 >= 1 << 64:
                raise InvalidParameter(f"seed + num_envs must stay below 2**64, got seed={seed}")
            seeds = np.uint64(first) + np.arange(self.num_envs, dtype=np.uint64)
        self._engine.reset(seeds)
        self._started = True
        return self._engine.observations, {"action_mask": self._engine.masks}

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
        engine = self._engine
        engine.step(np.ascontiguousarray(chosen, dtype=np.int64))
        info: dict[str, Any] = {"action_mask": engine.masks}
        if self._same_step:
            info["final_obs"] = engine.final_observations
        return engine.observations, engine.rewards, engine.terminated, engine.truncated, info

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the games live in the engine object."""
