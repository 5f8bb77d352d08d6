"""stable-baselines3 and sb3-contrib on stratagem: ``make_vec_env`` returns a ``VecEnv`` that
keeps SB3's autoreset and ``terminal_observation`` conventions, and ``MaskablePPO`` trains on
it (needs the ``rl`` extra)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="needs the rl extra: pip install 'stratagem[rl]'")

from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_checker import check_env
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv

import stratagem.envs.gymnasium  # noqa: F401  (registers the ids)
from stratagem.annexation.vector import AnnexationEnv
from stratagem.envs.gymnasium import StratagemEnv
from stratagem.envs.sb3 import AnnexationVecEnv, make_vec_env, policy_opponent
from stratagem.errors import InvalidMove, InvalidParameter
from stratagem.games import available

_QUICK = {
    "annexation": {"board": "hex:3"},
    "mastermind": {"secret": "0123"},
}


def _first_legal(masks: np.ndarray, step: int) -> np.ndarray:
    return np.array([np.flatnonzero(m)[step % m.sum()] for m in masks], dtype=np.int64)


def test_the_native_vec_env_keeps_sb3s_conventions_beside_dummy_vec_env() -> None:
    config = {"board": "hex:2", "opponent": "greedy"}
    native = make_vec_env("annexation", 5, seed=3, **config)
    assert isinstance(native, AnnexationVecEnv)
    singles = DummyVecEnv([lambda: AnnexationEnv(**config) for _ in range(5)])
    singles.seed(3)
    observations, expected = native.reset(), singles.reset()
    assert np.array_equal(observations, expected)
    ended = 0
    for step in range(80):
        masks = np.stack(native.env_method("action_masks"))
        assert np.array_equal(masks, np.stack(singles.env_method("action_masks")))
        actions = _first_legal(masks, step)
        observations, rewards, dones, infos = native.step(actions)
        expected, expected_rewards, expected_dones, expected_infos = singles.step(actions)
        assert np.array_equal(observations, expected)
        assert np.array_equal(rewards, expected_rewards)
        assert np.array_equal(dones, expected_dones)
        for i in np.flatnonzero(dones):
            ended += 1
            assert np.array_equal(
                infos[i]["terminal_observation"], expected_infos[i]["terminal_observation"]
            )
            assert infos[i]["TimeLimit.truncated"] is False
    assert ended > 5


@pytest.mark.parametrize("name", [spec.name for spec in available()])
def test_every_game_is_a_vec_env_with_masks(name: str) -> None:
    venv = make_vec_env(name, 2, seed=1, **_QUICK.get(name, {}))
    assert isinstance(venv, VecEnv)
    observations = venv.reset()
    assert observations.shape[0] == 2
    masks = np.stack(venv.env_method("action_masks"))
    assert masks.shape == (2, venv.action_space.n)
    assert masks.any(axis=1).all()


def test_sb3_check_env_passes_on_the_native_single_env() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(AnnexationEnv(board="hex:3"))


@pytest.mark.parametrize("name", ["annexation", "mastermind"])
def test_maskable_ppo_trains(name: str) -> None:
    venv = make_vec_env(name, 4, seed=0, **_QUICK.get(name, {}))
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0)
    model.learn(256)
    observation = venv.reset()
    actions, _ = model.predict(observation, action_masks=np.stack(venv.env_method("action_masks")))
    assert actions.shape == (4,)


def test_bad_input_is_named() -> None:
    with pytest.raises(InvalidParameter, match="n_envs"):
        make_vec_env("annexation", 0)
    with pytest.raises(InvalidParameter, match="unknown annexation opponent 'psychic'"):
        make_vec_env("annexation", 2, opponent="psychic")
    venv = make_vec_env("annexation", 2, board="hex:2")
    venv.reset()
    with pytest.raises(InvalidParameter, match="actions must be 2 integers"):
        venv.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(InvalidParameter, match="only action_masks"):
        venv.env_method("render")


def test_a_saved_policy_is_an_opponent_for_any_seat(tmp_path) -> None:
    """Self-play: a model trained as seat 0 plays seat 0 against a learner in seat 1."""
    venv = make_vec_env("annexation", 2, seed=0, board="hex:2")
    model = MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=32, n_epochs=1, seed=0)
    model.learn(32)
    model.save(tmp_path / "seat0")
    opponent = policy_opponent(tmp_path / "seat0")
    learner = make_vec_env("annexation", 2, seed=1, board="hex:2", seat=1, opponent=opponent)
    assert not isinstance(learner, AnnexationVecEnv)  # a callable opponent plays in Python
    observations = learner.reset()
    for _ in range(20):
        masks = np.stack(learner.env_method("action_masks"))
        observations, _, _, _ = learner.step(_first_legal(masks, 0))
    assert observations.shape == (2, 2, 19)
    model_b = MaskablePPO("MlpPolicy", learner, n_steps=16, batch_size=32, n_epochs=1, seed=0)
    model_b.learn(32)


def test_a_callable_opponent_plays_its_legal_moves_and_must() -> None:
    env = StratagemEnv("annexation", board="hex:2", seat=1, opponent=lambda _, m: int(m.argmax()))
    env.reset(seed=0)
    assert env.game.turn == 1  # the callable played seat 0 first
    cheat = StratagemEnv("annexation", board="hex:2", seat=1, opponent=lambda _, m: 99)
    with pytest.raises(InvalidMove, match="opponent's action 99 for seat 0"):
        cheat.reset(seed=0)
    with pytest.raises(InvalidParameter, match="seat must be from 0 to 1, got 5"):
        StratagemEnv("annexation", board="hex:2", seat=5)
