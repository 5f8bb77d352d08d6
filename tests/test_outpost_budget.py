"""Time budgets that hold (``stratagem.outpost.budget``): a Python player that computes forever,
blocks, or catches the interrupt is cut off within its budget + 0.1 s, loses that answer as the
rules say (its outposts stay, its newest outpost goes), and the game goes on, to the end of a
4444-turn game; on the main thread (an interval timer) and on another thread (an interrupted
helper thread); in tournaments over threads too."""

from __future__ import annotations

import re
import signal
import sys
import threading
import time
from typing import Any

import pytest

from outpost_helpers import Looping, Still
from stratagem.outpost import Game, State, budget
from stratagem.outpost.budget import PlayerTimeout, call_within
from stratagem.outpost.tournament import Params, tournament

GRACE = 0.1


class Blocking:
    """A blocking call: sleeps far past any budget."""

    def move(self, state: State) -> Any:
        time.sleep(60)

    def disband(self, state: State) -> Any:
        time.sleep(60)


class Stubborn:
    """Catches every interrupt and loops again; only the repeated timer gets it out."""

    def __init__(self) -> None:
        self.caught = 0

    def move(self, state: State) -> Any:
        try:
            while True:
                pass
        except PlayerTimeout:
            self.caught += 1
        while True:
            pass

    def disband(self, state: State) -> int:
        return int(state.mine()[-1, 0])


class Clocked:
    """Loops as ``Looping`` does, and keeps the seconds the main thread ran in each answer (its
    CPU time: what a loaded machine kept the process waiting is not counted)."""

    def __init__(self) -> None:
        self.ran: list[float] = []

    def move(self, state: State) -> Any:
        self._loop()

    def disband(self, state: State) -> Any:
        self._loop()

    def _loop(self) -> None:
        started = time.thread_time()
        try:
            while True:
                pass
        finally:
            self.ran.append(time.thread_time() - started)


def cut_off_after(game: Game) -> list[float]:
    """The seconds each cut-off player had spent in its turn, from the log."""
    found = (re.search(r"cut off after ([0-9.]+) s", e.message) for e in game.log)
    return [float(match.group(1)) for match in found if match]


@pytest.mark.parametrize("player", [Looping, Blocking, Stubborn])
def test_a_hanging_player_is_cut_off_and_plays_as_one_that_stays(player: type) -> None:
    # Turn 10 is a season: the hanging player is also asked which outpost to disband.
    options: dict[str, Any] = {"r": 5, "L": 1, "W": 1, "T": 12, "seed": 2, "time_budget": 0.03}
    hanging = Game("lakes", players=(player(), "frontier", "random", "spread"), **options)
    still = Game("lakes", players=(Still(), "frontier", "random", "spread"), **options)
    started = time.perf_counter()
    hanging.run(progress=False)
    seconds = time.perf_counter() - started
    still.run(progress=False)
    spent = cut_off_after(hanging)
    assert len(spent) >= 12
    assert all(0.03 <= s <= 0.03 + GRACE for s in spent), spent
    assert seconds < len(spent) * (0.03 + GRACE) + 2
    assert hanging.outposts.tolist() == still.outposts.tolist()
    assert hanging.history.cells.tolist() == still.history.cells.tolist()


def test_a_looping_player_through_a_4444_turn_game_keeps_to_its_budget() -> None:
    budget = 0.0005
    seats = ("spread", "frontier", "lookahead")
    player = Clocked()
    game = Game("lakes", players=(player, *seats), time_budget=budget)
    reference = Game("lakes", players=(Still(), *seats), time_budget=budget)
    # CPU seconds of the process (every thread), not the clock: a loaded machine's waits
    # would fall on either game as they come.
    started = time.process_time()
    reference.run(progress=False)
    still_seconds = time.process_time() - started
    started = time.process_time()
    result = game.run(progress=False)
    seconds = time.process_time() - started
    spent = cut_off_after(game)
    assert result.finished
    assert game.turn == 4444
    assert len(spent) == 4444 + sum(e.kind == "disband" and e.empire == 0 for e in game.log)
    assert min(spent) >= budget
    # Cut off within the grace of the time the player ran: over 4444 turns a loaded machine
    # may keep the process waiting past it in any one turn (0.311 s was seen), whatever the
    # timer does, so the seconds it was kept waiting are not the player's.
    # Nearly every answer was timed: on a loaded machine a few are cut off before the
    # player's clock starts (4 of 4445 were), and the last disband may find no time left.
    assert 0.99 * len(spent) <= len(player.ran) <= len(spent)
    assert max(player.ran) <= budget + GRACE, max(player.ran)
    assert game.history.cells.tolist() == reference.history.cells.tolist()
    # The game of a player that keeps still, plus the budget of every answer (and 1 ms each
    # for the timer).
    assert seconds < still_seconds + len(spent) * (budget + 0.001) + 1, (seconds, still_seconds)


def test_off_the_main_thread_a_helper_thread_is_interrupted() -> None:
    outcome: dict[str, Any] = {}

    def play() -> None:
        seats = (Looping(), Blocking(), "random", "spread")
        game = Game("lakes", T=6, players=seats, seed=5, time_budget=0.02)
        started = time.perf_counter()
        game.run(progress=False)
        outcome["seconds"] = time.perf_counter() - started
        outcome["spent"] = cut_off_after(game)

    worker = threading.Thread(target=play)
    worker.start()
    worker.join(30)
    assert not worker.is_alive()
    assert len(outcome["spent"]) == 12
    assert all(0.02 <= s <= 0.02 + GRACE for s in outcome["spent"]), outcome["spent"]
    assert outcome["seconds"] < 12 * (0.02 + GRACE) + 2


def test_call_within_returns_answers_and_errors_on_either_path() -> None:
    assert call_within(1.0, lambda: 7) == 7
    with pytest.raises(ZeroDivisionError):
        call_within(1.0, lambda: 1 // 0)
    with pytest.raises(PlayerTimeout):
        call_within(0.0, lambda: 7)
    seen: list[object] = []

    def elsewhere() -> None:
        seen.append(call_within(1.0, lambda: 8))
        try:
            call_within(1.0, lambda: int("x"))
        except ValueError as error:
            seen.append(type(error))

    worker = threading.Thread(target=elsewhere)
    worker.start()
    worker.join(10)
    assert seen == [8, ValueError]


@pytest.mark.parametrize("threads", [1, 2])
def test_a_tournament_holds_a_hanging_player_to_its_budget(threads: int) -> None:
    args: dict[str, Any] = {"maps": ["lakes"], "params": [Params(7, 12, 3, 12)], "seed": 4}
    started = time.perf_counter()
    hanging = tournament(
        **args,
        players=[Looping(), "random", "spread", "frontier"],
        threads=threads,
        time_budget=0.01,
    )
    seconds = time.perf_counter() - started
    still = tournament(**args, players=[Still(), "random", "spread", "frontier"], threads=1)
    assert seconds < 4 * 12 * (0.01 + GRACE) + 2
    assert hanging.land.tolist() == still.land.tolist()
    assert hanging.outposts.tolist() == still.outposts.tolist()


def test_the_alarm_never_raises_in_the_frame_that_disarms_it() -> None:
    # Raised as call_within's ``finally`` began, a timeout would skip the disarming and the
    # repeating timer would raise it in the game itself.
    def answer() -> int:
        disarming = sys._getframe(1)  # the frame that armed the timer and will disarm it
        budget._on_alarm(signal.SIGALRM, disarming)  # nothing raised
        with pytest.raises(PlayerTimeout):
            budget._on_alarm(signal.SIGALRM, sys._getframe())
        return 7

    assert call_within(10.0, answer) == 7
