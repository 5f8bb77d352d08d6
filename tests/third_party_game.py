"""A game from outside stratagem, registered the way a third-party package registers one: Nim
on heaps, written against stratagem.protocol.TurnGame, with a GameSpec for the entry-point
group ``stratagem.games`` and a command-line part."""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stratagem.cli_common import Commands, Common, command_group, played_report
from stratagem.errors import InvalidParameter
from stratagem.games import ConfigKey, GameSpec
from stratagem.protocol import Outcome, TurnGame, terminal_rewards


class Nim(TurnGame):
    """Two seats take turns removing 1..3 counters from one heap; taking the last one wins.
    An action is ``3 * heap + (taken - 1)``."""

    name = "nim"

    def __init__(self, *, seed: int = 0, heaps: tuple[int, ...] | list[int] = (3, 4, 5)) -> None:
        if not heaps or any(not isinstance(h, int) or h < 1 for h in heaps):
            raise InvalidParameter(f"heaps must be positive integers, got {heaps!r}")
        self.heaps = list(heaps)
        self.player = 0
        super().__init__(seed, {"heaps": list(heaps)})

    @property
    def seats(self) -> int:
        return 2

    @property
    def is_over(self) -> bool:
        return sum(self.heaps) == 0

    @property
    def outcome(self) -> Outcome:
        return "won" if self.is_over else "unfinished"

    @property
    def winners(self) -> tuple[int, ...]:
        return (1 - self.player,) if self.is_over else ()

    @property
    def num_actions(self) -> int:
        return 3 * len(self.heaps)

    @property
    def max_steps(self) -> int:
        return int(sum(self._config["heaps"]))

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (len(self.heaps),)

    @property
    def observation_dtype(self) -> np.dtype[Any]:
        return np.dtype(np.int64)

    def to_move(self) -> tuple[int, ...]:
        return () if self.is_over else (self.player,)

    def legal_actions(self, seat: int) -> NDArray[np.int64]:
        if self._seat(seat) not in self.to_move():
            return np.zeros(0, dtype=np.int64)
        return np.array(
            [3 * h + t for h, size in enumerate(self.heaps) for t in range(min(size, 3))],
            dtype=np.int64,
        )

    def _apply(self, actions: dict[int, int]) -> NDArray[np.float64]:
        (action,) = actions.values()
        self.heaps[action // 3] -= action % 3 + 1
        self.player = 1 - self.player
        if not self.is_over:
            return np.zeros(2)
        return terminal_rewards(2, self.outcome, self.winners)

    def observation(self, seat: int) -> NDArray[np.int64]:
        self._seat(seat)
        return np.array(self.heaps, dtype=np.int64)

    def _copy_state(self, twin: Nim) -> None:
        twin.heaps = list(self.heaps)

    def render(self) -> str:
        return f"heaps {self.heaps}, seat {self.player} to move"


def _play(args: argparse.Namespace) -> dict[str, Any]:
    game = Nim(seed=args.seed)
    while not game.is_over:
        game.step([int(game.legal_actions(game.player)[-1])])
    return played_report(
        outcome=game.outcome, winners=game.winners, turns_played=game.turn, seconds=0.0
    )


def register(commands: Commands, common: Common) -> None:
    sub = command_group(commands, "nim", "Nim, a third-party game")
    play = sub.add_parser("play", parents=[common()], help="play one game")
    play.set_defaults(run=_play, show=print)


SPEC = GameSpec(
    name="nim",
    summary="Nim: take 1-3 counters from a heap; the last counter wins",
    seats=(2, 2),
    dynamics="alternating",
    chance="deterministic",
    defaults={"heaps": ConfigKey([3, 4, 5], "the heaps' sizes")},
    factory="third_party_game:Nim",
    adapter="third_party_game:Nim",
    docs="docs/games.md",
    cli="third_party_game:register",
    zero_sum_seats=(2,),
)
