"""Trains an annexation agent with masked PPO on the native vector env, then measures it.

A single-file, CleanRL-style PPO in torch (``pip install 'stratagem[rl]'``): the agent plays
seat 0 of ``--board`` on a fresh board every episode, half of the envs against the random
opponent and half against ``greedy``, for ``--minutes`` of wall time; then it plays 200 games
on fresh boards it never saw (seeds from 10**9) against each, choosing its most likely legal
colour, and reports the share it won. ``--json`` prints one JSON object whose last two keys are
``"vs_random"`` and ``"vs_greedy"``; ``--curve PATH`` writes the learning curve (training wins
against each opponent over time) as a PNG (needs the ``plot`` extra).

The network sees the observation as planes (the agent's cells, the opponent's, the free ones,
each cell's colour one-hot) and, per colour, the cells that colour would annex for each player
now (the flood of the free cells of that colour touching its territory), all computed in torch
from the observation and the board's neighbours. Training adds to the game's reward (+1 / -1 at
the end) the change of the agent's lead in cells at each step (``--shaping``, a potential-based
shaping); the evaluation counts wins only.

    python examples/train_annexation.py --minutes 8 --board hex:4 --json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

from stratagem.annexation.vector import AnnexationVectorEnv
from stratagem.progress import Progress

EVAL_GAMES = 200
EVAL_SEED = 10**9
OPPONENTS = ("random", "greedy")
FLOOD_STEPS = 4
REACH_SCALE = 4.0


class Features(nn.Module):
    """Planes and per-colour annexation counts of a batch of observations ``(N, 2, cells)``."""

    def __init__(self, offsets: np.ndarray, neighbours: np.ndarray, colours: int) -> None:
        super().__init__()
        cells = offsets.shape[0] - 1
        adjacency = torch.zeros(cells, cells)
        for cell in range(cells):
            adjacency[cell, torch.tensor(neighbours[offsets[cell] : offsets[cell + 1]])] = 1.0
        self.register_buffer("adjacency", adjacency)
        self.cells, self.colours = cells, colours
        self.size = cells * (3 + colours) + 4 * colours

    def _reach(self, owned: torch.Tensor, free_colour: torch.Tensor) -> torch.Tensor:
        """Per colour, the free cells of that colour a player owning ``owned`` would annex."""
        touch = (owned @ self.adjacency > 0).float().unsqueeze(1)  # (N, 1, C)
        reach = free_colour * touch
        for _ in range(FLOOD_STEPS):
            reach = torch.maximum(reach, free_colour * (reach @ self.adjacency > 0).float())
        return reach.sum(-1) / REACH_SCALE  # (N, K), about 0 to a few

    def forward(self, observation: torch.Tensor) -> torch.Tensor:
        owner, colour = observation[:, 0].long(), observation[:, 1].long()
        mine, theirs, free = (owner == 0).float(), (owner == 1).float(), (owner == -1).float()
        one_hot = nn.functional.one_hot(colour.clamp(min=0), self.colours).float()  # (N, C, K)
        free_colour = (one_hot * free.unsqueeze(-1)).transpose(1, 2)  # (N, K, C)
        my_colour = (one_hot * mine.unsqueeze(-1)).amax(1)
        their_colour = (one_hot * theirs.unsqueeze(-1)).amax(1)
        return torch.cat(
            [
                mine,
                theirs,
                free,
                one_hot.flatten(1),
                self._reach(mine, free_colour),
                self._reach(theirs, free_colour),
                my_colour,
                their_colour,
            ],
            dim=1,
        )


class Agent(nn.Module):
    def __init__(self, features: Features, actions: int, width: int = 128) -> None:
        super().__init__()
        self.features = features

        def mlp(out: int, scale: float) -> nn.Sequential:
            last = nn.Linear(width, out)
            nn.init.orthogonal_(last.weight, scale)
            nn.init.zeros_(last.bias)
            return nn.Sequential(
                nn.Linear(features.size, width), nn.Tanh(), nn.Linear(width, width), nn.Tanh(), last
            )

        self.actor, self.critic = mlp(actions, 0.01), mlp(1, 1.0)
        # The same small net scores every colour from that colour's four numbers (what it
        # annexes for each player, whose colour it is): "take the most cells" is one weight.
        self.per_colour = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
        self.colours = actions

    def logits(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        per_colour = x[:, -4 * self.colours :].reshape(-1, 4, self.colours).transpose(1, 2)
        logits = self.actor(x) + self.per_colour(per_colour).squeeze(-1)
        return logits.masked_fill(~mask, -1e9)

    def act(
        self, x: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """Samples (or scores ``action``) from the features ``x`` of observations."""
        dist = Categorical(logits=self.logits(x, mask))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(x).squeeze(-1)

    def best(self, observation: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.logits(self.features(observation), mask).argmax(-1)


def _lead(observations: np.ndarray) -> np.ndarray:
    """The agent's lead in cells, as a share of the board: the potential of the shaping."""
    owner = observations[:, 0]
    return ((owner == 0).sum(1) - (owner == 1).sum(1)) / owner.shape[1]


def step_all(
    venvs: list[AnnexationVectorEnv], action: torch.Tensor
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One step of every vector env (each its share of ``action``): the next observations and
    masks, rewards, ends, and the observations the actions led to (the last of an ended
    episode)."""
    size = venvs[0].num_envs
    parts = [env.step(action[i * size : (i + 1) * size].numpy()) for i, env in enumerate(venvs)]
    done = np.concatenate([p[2] | p[3] for p in parts])
    after = [np.where((p[2] | p[3])[:, None, None], p[4]["final_obs"], p[0]) for p in parts]
    return (
        np.concatenate([p[0] for p in parts]),
        np.concatenate([p[4]["action_mask"] for p in parts]),
        np.concatenate([p[1] for p in parts]),
        done,
        np.concatenate(after),
    )


def envs(board: str, n: int) -> list[AnnexationVectorEnv]:
    return [
        AnnexationVectorEnv(n, board=board, opponent=o, autoreset="same_step", threads=1)
        for o in OPPONENTS
    ]


def evaluate(agent: Agent, board: str, opponent: str, games: int = EVAL_GAMES) -> float:
    """The share of ``games`` first episodes on fresh boards the agent wins."""
    env = AnnexationVectorEnv(
        games, board=board, opponent=opponent, autoreset="same_step", threads=1
    )
    observation, info = env.reset(seed=EVAL_SEED)
    result = np.full(games, np.nan)
    with torch.no_grad():
        while np.isnan(result).any():
            mask = torch.as_tensor(info["action_mask"]).bool()
            action = agent.best(torch.as_tensor(observation), mask)
            observation, reward, done, _, info = env.step(action.numpy())
            first = done & np.isnan(result)
            result[first] = reward[first]
    return float((result == 1.0).mean())


def gae(
    *,
    rewards: torch.Tensor,
    values: torch.Tensor,
    dones: torch.Tensor,
    next_value: torch.Tensor,
    next_done: torch.Tensor,
    args: argparse.Namespace,
) -> torch.Tensor:
    """Generalised advantage estimates of a rollout (``dones[t]``: step ``t`` starts an
    episode)."""
    steps = rewards.shape[0]
    advantages = torch.zeros_like(rewards)
    last = torch.zeros_like(next_value)
    for t in reversed(range(steps)):
        following = next_value if t == steps - 1 else values[t + 1]
        alive = 1.0 - (next_done if t == steps - 1 else dones[t + 1])
        delta = rewards[t] + args.gamma * following * alive - values[t]
        last = delta + args.gamma * args.gae_lambda * alive * last
        advantages[t] = last
    return advantages


def update(
    agent: Agent,
    optimizer: torch.optim.Optimizer,
    flat: tuple[torch.Tensor, ...],
    args: argparse.Namespace,
) -> None:
    """PPO's clipped update over ``args.epochs`` passes of shuffled minibatches."""
    batch = flat[0].shape[0]
    for _ in range(args.epochs):
        order = torch.randperm(batch)
        for first in range(0, batch, args.minibatch):
            idx = order[first : first + args.minibatch]
            obs_b, mask_b, act_b, old_b, adv_b, ret_b = (x[idx] for x in flat)
            _, logprob, entropy, value = agent.act(obs_b, mask_b, act_b)
            ratio = (logprob - old_b).exp()
            adv_b = (adv_b - adv_b.mean()) / (adv_b.std() + 1e-8)
            clipped = ratio.clamp(1 - args.clip, 1 + args.clip)
            policy_loss = torch.max(-adv_b * ratio, -adv_b * clipped).mean()
            value_loss = 0.5 * ((value - ret_b) ** 2).mean()
            loss = policy_loss + value_loss - args.entropy * entropy.mean()
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
            optimizer.step()


def curve_point(elapsed: float, steps: int, recent: dict[str, list[bool]]) -> dict[str, float]:
    """A point of the learning curve: the share won of the last 400 training games against
    each opponent."""
    point = {"seconds": round(elapsed, 1), "steps": steps}
    for opponent in OPPONENTS:
        window = recent[opponent][-400:]
        point[f"train_vs_{opponent}"] = round(float(np.mean(window)), 3) if window else 0.0
    return point


def train(args: argparse.Namespace) -> dict[str, Any]:
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.torch_threads)
    per_opponent = args.envs // 2
    venvs = envs(args.board, per_opponent)
    board = venvs[0].board
    features = Features(board.offsets, board.neighbours, board.colour_count)
    agent = Agent(features, board.colour_count)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    n, steps = 2 * per_opponent, args.steps
    observations = torch.zeros((steps, n, features.size))
    masks = torch.zeros((steps, n, board.colour_count), dtype=torch.bool)
    actions = torch.zeros((steps, n), dtype=torch.long)
    logprobs, rewards, dones, values = (torch.zeros((steps, n)) for _ in range(4))
    resets = [env.reset(seed=args.seed + i * per_opponent) for i, env in enumerate(venvs)]
    next_obs = torch.as_tensor(np.concatenate([r[0] for r in resets]))
    next_mask = torch.as_tensor(np.concatenate([r[1]["action_mask"] for r in resets])).bool()
    next_done = torch.zeros(n)
    curve: list[dict[str, float]] = []
    recent: dict[str, list[bool]] = {o: [] for o in OPPONENTS}
    start = time.perf_counter()
    budget = args.minutes * 60.0
    total_steps = 0
    with Progress(int(budget), "training", counts=False) as bar:
        while time.perf_counter() - start < budget:
            for t in range(steps):
                with torch.no_grad():
                    x = features(next_obs)
                    action, logprob, _, value = agent.act(x, next_mask)
                observations[t], masks[t], dones[t] = x, next_mask, next_done
                actions[t], logprobs[t], values[t] = action, logprob, value
                next_obs_np, next_mask_np, reward, done, after = step_all(venvs, action)
                shaped = args.shaping * (_lead(after) - _lead(next_obs.numpy()))
                rewards[t] = torch.as_tensor(reward + shaped, dtype=torch.float32)
                next_obs = torch.as_tensor(next_obs_np)
                next_mask = torch.as_tensor(next_mask_np).bool()
                next_done = torch.as_tensor(done, dtype=torch.float32)
                for i, opponent in enumerate(OPPONENTS):
                    part = slice(i * per_opponent, (i + 1) * per_opponent)
                    recent[opponent].extend((reward[part][done[part]] == 1.0).tolist())
            total_steps += steps * n
            with torch.no_grad():
                next_value = agent.act(features(next_obs), next_mask)[3]
            advantages = gae(
                rewards=rewards,
                values=values,
                dones=dones,
                next_value=next_value,
                next_done=next_done,
                args=args,
            )
            flat = (
                observations.reshape(-1, features.size),
                masks.reshape(-1, board.colour_count),
                actions.reshape(-1),
                logprobs.reshape(-1),
                advantages.reshape(-1),
                (advantages + values).reshape(-1),
            )
            update(agent, optimizer, flat, args)
            elapsed = time.perf_counter() - start
            curve.append(curve_point(elapsed, total_steps, recent))
            bar.reach(int(min(elapsed, budget)))
    agent.eval()
    result: dict[str, Any] = {
        "board": args.board,
        "minutes": args.minutes,
        "envs": n,
        "steps": total_steps,
        "steps_per_second": round(total_steps / (time.perf_counter() - start)),
        "curve": curve,
        "eval_games": args.eval_games,
    }
    result["vs_random"] = evaluate(agent, args.board, "random", args.eval_games)
    result["vs_greedy"] = evaluate(agent, args.board, "greedy", args.eval_games)
    return result


def plot_curve(result: dict[str, Any], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curve = result["curve"]
    # Steps, not minutes: on a shared machine the steps a minute buys vary.
    thousands = [p["steps"] / 1000 for p in curve]
    figure, axes = plt.subplots(figsize=(6, 3.5))
    for opponent in OPPONENTS:
        axes.plot(thousands, [p[f"train_vs_{opponent}"] for p in curve], label=f"vs {opponent}")
    axes.set_xlabel(f"thousands of env steps ({result['minutes']:g} minutes)")
    axes.set_ylabel("share of training games won")
    axes.set_ylim(0, 1)
    axes.set_title(
        f"masked PPO, {result['board']}, fresh boards: "
        f"{result['vs_random']:.2f} vs random, {result['vs_greedy']:.2f} vs greedy "
        f"({result['eval_games']} games)",
        fontsize=8,
    )
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=100)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=8.0)
    parser.add_argument("--board", default="hex:4")
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--steps", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--minibatch", type=int, default=1024)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--gae-lambda", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument(
        "--shaping", type=float, default=1.0, help="weight of the change in cell lead per step"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--torch-threads", type=int, default=2)
    parser.add_argument("--eval-games", type=int, default=EVAL_GAMES)
    parser.add_argument("--curve", help="write the learning curve to this PNG")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.minutes <= 0 or args.envs < 2 or args.eval_games < 1:
        parser.error("--minutes must be positive, --envs at least 2, --eval-games at least 1")
    result = train(args)
    if args.curve:
        plot_curve(result, args.curve)
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{result['steps']} steps in {args.minutes} min; won {result['vs_random']:.2f} vs "
            f"random, {result['vs_greedy']:.2f} vs greedy ({args.eval_games} games each)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
