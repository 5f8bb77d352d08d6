"""What the Gymnasium and PettingZoo bridges share: the :class:`Bridge` set-up (render mode,
illegal-action rule, configuration, episodes), spaces from a protocol game and the agents'
names."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from stratagem import _validate, games, rng
from stratagem.errors import InvalidMove, InvalidParameter
from stratagem.protocol import Game, Move, PlaysMoves

IllegalAction = Literal["lose", "raise"]
ILLEGAL_ACTIONS: tuple[IllegalAction, ...] = ("lose", "raise")
#: The reward of the seat whose illegal action ends an episode under ``illegal_action="lose"``.
ILLEGAL_PENALTY = -1.0
_EPISODE_PURPOSE = "envs.episode"


def agent_name(seat: int) -> str:
    return f"seat_{seat}"


def check_illegal(mode: object) -> IllegalAction:
    if mode not in ILLEGAL_ACTIONS:
        raise InvalidParameter(f"illegal_action must be 'lose' or 'raise', got {mode!r}")
    return mode


def check_render_mode(render_mode: str | None) -> str | None:
    if render_mode not in (None, "ansi"):
        raise InvalidParameter(f"render_mode must be None or 'ansi', got {render_mode!r}")
    return render_mode


def move_nvec(game: Game) -> tuple[int, ...] | None:
    """The sizes of a move's components when the game's seats act by moves
    (``actions="moves"``), else None (an action is one integer)."""
    return game.move_nvec if isinstance(game, PlaysMoves) else None


def is_legal(game: Game, seat: int, action: object) -> bool:
    """Whether ``action`` is a legal action of ``seat``: an integer (not a bool) of its legal
    actions or, when the game acts by moves, a vector whose every component is legal. A move
    of the wrong shape or type raises :class:`InvalidMove` (it is no move at all)."""
    nvec = move_nvec(game)
    if nvec is not None:
        vector = np.asarray(action)
        if vector.shape != (len(nvec),) or not np.issubdtype(vector.dtype, np.integer):
            raise InvalidMove(
                f"seat {seat}: a move is a vector of {len(nvec)} integers (the action space's "
                f"MultiDiscrete), got {action!r:.80}"
            )
        assert isinstance(game, PlaysMoves)
        allowed = game.move_mask(seat)
        inside = bool(np.all((vector >= 0) & (vector < np.asarray(nvec))))
        return inside and bool(allowed[np.arange(len(nvec)), vector].all())
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        return False
    return bool(0 <= action < game.num_actions and game.action_mask(seat)[int(action)])


def as_action(game: Game, action: Any) -> int | Move:
    """A legal action (see :func:`is_legal`) as the protocol takes it."""
    if move_nvec(game) is not None:
        return tuple(int(choice) for choice in np.asarray(action).tolist())
    return int(action)


def action_space(game: Game) -> Any:
    """``Discrete(num_actions)``, or ``MultiDiscrete(move_nvec)`` when the game acts by moves."""
    from gymnasium import spaces

    nvec = move_nvec(game)
    if nvec is None:
        return spaces.Discrete(game.num_actions)
    return spaces.MultiDiscrete(np.asarray(nvec, dtype=np.int64))


def mask_space(game: Game) -> Any:
    """The space of :func:`mask`: an int8 ``Box`` of ``num_actions``, or a ``Tuple`` of one
    per component of a move."""
    from gymnasium import spaces

    nvec = move_nvec(game)
    if nvec is None:
        return spaces.Box(0, 1, (game.num_actions,), np.int8)
    return spaces.Tuple([spaces.Box(0, 1, (size,), np.int8) for size in nvec])


def observation_box(game: Game) -> Any:
    """The ``Box`` of the game's observations: their shape and dtype, over the values the game
    declares it produces (``observation_bounds``)."""
    # Imported here: each bridge first turns a missing gymnasium into a MissingDependency.
    from gymnasium import spaces

    low, high = game.observation_bounds
    return spaces.Box(low, high, game.observation_shape, game.observation_dtype)


class Episodes:
    """The seed of each episode: ``reset(seed=s)`` starts episode 0 of seed ``s``; a reset
    without a seed starts the next episode, whose game seed is word 0 of stream
    ``(s, "envs.episode", episode)``, so a run of episodes is reproducible from one seed."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = _validate.seed(seed)
        self.episode = -1

    def next(self, seed: int | None) -> int:
        if seed is not None:
            self.seed, self.episode = _validate.seed(seed), 0
            return self.seed
        self.episode += 1
        if self.episode == 0:
            return self.seed
        return int(rng.blocks(self.seed, _EPISODE_PURPOSE, [self.episode], 0, 1)[0, 0])


def make(name: str, seed: int, config: dict[str, Any]) -> Game:
    return games.make(name, seed=seed, **config)


class Bridge:
    """The set-up and the rendering both bridges share: a game of a fixed configuration,
    started anew each episode."""

    game: Game
    render_mode: str | None

    def _set_up(
        self,
        name: str,
        seed: int,
        render_mode: str | None,
        illegal_action: str,
        config: Mapping[str, Any],
    ) -> None:
        self.render_mode = check_render_mode(render_mode)
        self._illegal = check_illegal(illegal_action)
        games.spec(name)  # an unknown name is refused before the seed and the configuration
        self.game_name = name
        self._config = dict(config)
        self._episodes = Episodes(seed)
        self.game = make(name, self._episodes.seed, self._config)

    def _new_episode(self, seed: int | None) -> int:
        """Starts the game of the next episode (see :class:`Episodes`); returns its seed."""
        game_seed = self._episodes.next(seed)
        self.game = make(self.game_name, game_seed, self._config)
        return game_seed

    def render(self) -> str | None:
        return self.game.render() if self.render_mode == "ansi" else None


def mask(game: Game, seat: int) -> NDArray[np.int8] | tuple[NDArray[np.int8], ...]:
    """The int8 mask of ``seat``'s legal actions or, when the game acts by moves, a tuple of
    one int8 mask per component (what ``MultiDiscrete.sample(mask=...)`` takes;
    ``np.concatenate`` of it is sb3-contrib's flat mask)."""
    nvec = move_nvec(game)
    if nvec is None:
        return game.action_mask(seat).astype(np.int8)
    assert isinstance(game, PlaysMoves)
    rows = game.move_mask(seat).astype(np.int8)
    return tuple(row[:size] for row, size in zip(rows, nvec, strict=True))
