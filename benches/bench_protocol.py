"""What the protocol costs: steps per second of every registered game through
``stratagem.protocol`` against the same steps through the game's native API, in one run.

The actions of a random game are drawn first (``testing.random_action``), then replayed twice:
once through ``game.step`` and once through the native calls the protocol class makes
(``NATIVE_REPLAY``); the ratio is the protocol's overhead (checking every action, the log, the
rewards). This is not a Rust-against-oracle comparison, so it is a table, not a case.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from harness import Table
from stratagem import games
from stratagem.protocol import TurnGame
from stratagem.testing import random_action

Steps = list[dict[int, int]]


def _random_steps(spec: games.GameSpec, config: dict[str, Any], seed: int) -> Steps:
    game = spec.make(seed=seed, **config)
    steps: Steps = []
    while not game.is_over:
        actions = {seat: random_action(seed, game, seat) for seat in game.to_move()}
        game.step(actions)
        steps.append(actions)
    return steps


def _protocol_replay(make: Callable[[], Any], steps: Steps) -> int:
    game = make()
    for actions in steps:
        game.step(actions)
    return len(steps)


def _annexation_native(make: Callable[[], Any], steps: Steps) -> int:
    native = make().native
    for actions in steps:
        (colour,) = actions.values()
        native.play(colour)
    return len(steps)


def _native_steps(make: Callable[[], Any], steps: Steps) -> int:
    """The protocol class's own ``_apply`` without the checks, the log or the rewards' sums:
    the native work a step does (for games whose step is a policy or player choice)."""
    game: TurnGame = make()
    for actions in steps:
        game._apply(actions)
    return len(steps)


#: How each game's steps are replayed through its native API.
NATIVE_REPLAY: dict[str, Callable[[Callable[[], Any], Steps], int]] = {
    "annexation": _annexation_native,
}


def _rate(work: Callable[[], int], min_seconds: float) -> float:
    units, seconds = 0, 0.0
    while seconds < min_seconds:
        started = time.perf_counter()
        units += work()
        seconds += time.perf_counter() - started
    return units / seconds


def tables(quick: bool, min_seconds: float) -> list[Table]:
    rows, records = [], []
    for spec in games.available():
        config = {**spec.quick} if quick else {}
        steps = _random_steps(spec, config, seed=11)

        def make(spec: games.GameSpec = spec, config: dict[str, Any] = config) -> Any:
            return spec.make(seed=11, **config)

        native_replay = NATIVE_REPLAY.get(spec.name, _native_steps)
        protocol_rate = _rate(lambda s=steps, m=make: _protocol_replay(m, s), min_seconds)
        native_rate = _rate(lambda s=steps, m=make, r=native_replay: r(m, s), min_seconds)
        overhead = native_rate / protocol_rate
        label = "quick" if quick else "default"
        rows.append(
            [
                spec.name,
                label,
                f"{len(steps)}",
                f"{protocol_rate:,.0f}",
                f"{native_rate:,.0f}",
                f"{overhead:.2f}x",
            ]
        )
        records.append(
            {
                "game": spec.name,
                "config": label,
                "steps": len(steps),
                "protocol_steps_per_second": protocol_rate,
                "native_steps_per_second": native_rate,
                "overhead": overhead,
            }
        )
    return [
        Table(
            "protocol step overhead (random games, new game made in each repeat)",
            ["game", "config", "steps", "protocol /s", "native /s", "native/protocol"],
            rows,
            records,
            notes=[
                "native: annexation Game.play; the other games the protocol class's _apply "
                "(the native calls a step makes) without the action checks and bookkeeping",
            ],
        )
    ]


def cases(quick: bool) -> list[Any]:
    return []
