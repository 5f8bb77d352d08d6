"""Every registered game as a stable-baselines3 ``VecEnv`` (``pip install 'stratagem[rl]'``).

:func:`make_vec_env` returns what SB3 and sb3-contrib train on: annexation's native batched
env (:class:`AnnexationVecEnv`, every env stepped in Rust in one call) whenever it plays the
configuration, else SB3's own ``DummyVecEnv`` over the single Gymnasium envs
(``stratagem.envs.gymnasium``). Both keep SB3's conventions: an env whose episode ends is reset
in the same step, the observation returned is the new episode's and
``infos[i]["terminal_observation"]`` holds the last one; ``infos[i]["TimeLimit.truncated"]``
says whether it was cut by a limit. ``env_method("action_masks")`` gives each env's mask of
legal actions, which sb3-contrib's ``MaskablePPO`` reads.

Env ``i`` is seeded ``seed + i`` at the first reset and then plays the episodes of its seed,
as the single env does; every episode of annexation is on a fresh board unless
``board_seed`` pins one.

>>> from stratagem.envs.sb3 import make_vec_env
>>> venv = make_vec_env("annexation", 4, seed=1, board="hex:3")
>>> observations = venv.reset()
>>> observations.shape, venv.env_method("action_masks")[0].dtype
((4, 2, 37), dtype('bool'))
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stratagem import _validate, games
from stratagem.envs.gymnasium import NATIVE_ENTRY_POINTS, VECTOR_ENTRY_POINTS, env_id
from stratagem.errors import InvalidParameter, MissingDependency

try:
    import gymnasium
    from gymnasium.envs.registration import load_env_creator
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv
except ImportError:
    raise MissingDependency.of("stable_baselines3", "rl") from None

__all__ = ["AnnexationVecEnv", "make_vec_env", "policy_opponent"]

_MAX_ENVS = 1 << 20


def make_vec_env(name: str, n_envs: int, *, seed: int = 0, **config: Any) -> VecEnv:
    """``n_envs`` envs of game ``name`` (its Gymnasium env's ``config``: ``opponent``,
    ``seat``, the game's own keywords) as an SB3 ``VecEnv``, env ``i`` seeded ``seed + i``."""
    games.spec(name)  # an unknown name is refused first
    n_envs = _validate.integer("n_envs", n_envs, 1, _MAX_ENVS)
    seed = _validate.seed(seed)
    native = NATIVE_ENTRY_POINTS.get(name)
    if name in VECTOR_ENTRY_POINTS and native is not None and load_env_creator(native[1])(**config):
        return AnnexationVecEnv(n_envs, seed=seed, name=name, **config)
    identifier = env_id(name)
    # Each single env is built (and its configuration checked) before SB3 sees it.
    envs = [gymnasium.make(identifier, **config) for _ in range(n_envs)]
    venv = DummyVecEnv([_returning(env) for env in envs])
    venv.seed(seed)
    return venv


def policy_opponent(
    policy: str | os.PathLike[str] | Any, *, deterministic: bool = True
) -> Callable[[NDArray[Any], NDArray[np.int8]], int]:
    """An opponent for the Gymnasium env (``opponent=``) that plays an SB3 or sb3-contrib
    model: one given, or one saved with ``model.save(path)`` (loaded with ``MaskablePPO``),
    choosing among the legal actions. Self-play: train against an earlier copy of the agent.

    >>> from stratagem.envs.sb3 import policy_opponent
    >>> policy_opponent(3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    stratagem.errors.InvalidParameter: policy must be a saved model's path or a model ...
    """
    model = MaskablePPO.load(os.fspath(policy)) if isinstance(policy, str | os.PathLike) else policy
    if not callable(getattr(model, "predict", None)):
        raise InvalidParameter(
            f"policy must be a saved model's path or a model with predict(), got {policy!r}"
        )

    def play(observation: NDArray[Any], mask: NDArray[np.int8]) -> int:
        action, _ = model.predict(
            observation, action_masks=mask.astype(bool), deterministic=deterministic
        )
        return int(action)

    return play


def _returning(env: gymnasium.Env[Any, Any]) -> Callable[[], gymnasium.Env[Any, Any]]:
    return lambda: env


class AnnexationVecEnv(VecEnv):
    """Annexation's native vector env (``stratagem.annexation.vector.AnnexationVectorEnv``
    with same-step autoreset) behind SB3's ``VecEnv`` API (see the module's docstring)."""

    render_mode = None

    def __init__(self, n_envs: int, *, seed: int = 0, name: str = "annexation", **config: Any):
        vector_env: Any = load_env_creator(VECTOR_ENTRY_POINTS[name])
        if "autoreset" in config:
            raise InvalidParameter("SB3's VecEnv resets in the step an episode ends: no autoreset")
        # The game's vector env (annexation's AnnexationVectorEnv), loaded by name.
        self.venv: Any = vector_env(n_envs, autoreset="same_step", name=name, **config)
        self._first_seed = _validate.seed(seed)
        self._resets = 0
        self._actions: NDArray[np.int64] | None = None
        super().__init__(n_envs, self.venv.single_observation_space, self.venv.single_action_space)

    def reset(self) -> NDArray[np.int8]:
        """Starts every env: env ``i`` on seed ``s + i``, ``s`` the seed given to
        :meth:`seed` (or to :func:`make_vec_env` for the first reset; later resets move on
        by ``num_envs`` so no seed repeats)."""
        seeds = self._seeds
        if seeds[0] is None:
            seeds = [
                self._first_seed + self.num_envs * self._resets + i for i in range(self.num_envs)
            ]
        observations: NDArray[np.int8]
        observations, _ = self.venv.reset(seed=[int(s) for s in seeds if s is not None])
        self._resets += 1
        self._reset_seeds()
        self._reset_options()
        return observations.copy()

    def step_async(self, actions: NDArray[Any]) -> None:
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or not np.issubdtype(chosen.dtype, np.integer):
            raise InvalidParameter(
                f"actions must be {self.num_envs} integers (one colour per env), got an array "
                f"of shape {chosen.shape} and dtype {chosen.dtype}"
            )
        self._actions = chosen.astype(np.int64)

    def step_wait(
        self,
    ) -> tuple[NDArray[np.int8], NDArray[np.float32], NDArray[np.bool_], list[dict[str, Any]]]:
        if self._actions is None:
            raise InvalidParameter("step_wait() needs a step_async(actions) first")
        observations, rewards, terminated, truncated, info = self.venv.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones).tolist():
            infos[i]["terminal_observation"] = info["final_obs"][i].copy()
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return observations.copy(), rewards.astype(np.float32), dones.copy(), infos

    def action_masks(self) -> NDArray[np.bool_]:
        """Every env's legal colours now, ``bool (num_envs, colours)``."""
        masks: NDArray[np.bool_] = self.venv.action_masks()
        return masks

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """``attr_name`` of this env, once per env of ``indices`` (the envs share it)."""
        value = getattr(self, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise InvalidParameter(f"the envs of a native vector env share {attr_name!r}: read-only")

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        """``action_masks`` gives each env's mask; no other method is per env."""
        if method_name != "action_masks" or method_args or method_kwargs:
            raise InvalidParameter(
                f"env_method({method_name!r}): a native vector env has only action_masks()"
            )
        masks = self.action_masks()
        return [masks[i] for i in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class: type[Any], indices: Any = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def _get_indices(self, indices: Any) -> Iterable[int]:
        chosen: Sequence[int] | Iterable[int] = super()._get_indices(indices)
        return [_validate.integer("indices", i, 0, self.num_envs - 1) for i in chosen]
