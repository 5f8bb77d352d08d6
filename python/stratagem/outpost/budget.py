"""Time budgets that hold: a call to a Python player cut off at its deadline, whether it
computes forever (``while True: pass``) or blocks (``time.sleep``, a socket, a lock).

On the main thread of a process (a game, a tournament, every MPI rank) with POSIX interval
timers, the player runs where it is called and a ``SIGALRM`` timer raises
:class:`PlayerTimeout` inside it at the deadline; the signal also breaks off a blocking system
call, and the timer fires again every 10 ms until the call ends, for a player that catches
the first one. Elsewhere (another thread, a platform without ``setitimer``) the player runs on
a helper thread that the caller waits for until the deadline, then interrupts with an
asynchronous exception (``PyThreadState_SetAsyncExc``); a player still blocked in a system
call 0.05 s later is left behind (its thread ends whenever the call returns) and the game goes
on. The cost per call is measured in ``docs/outpost.md`` ("Time budgets").

C code that never returns to the interpreter (a long numpy operation, an extension's own
loop) is cut off only when it returns; so is a player that catches :class:`PlayerTimeout`
forever.
"""

from __future__ import annotations

import ctypes
import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import TypeVar

__all__ = ["PlayerTimeout", "call_within"]

_T = TypeVar("_T")

# After the deadline the timer fires again this often, until the player's call ends.
_REPEAT = 0.01
# How long a helper thread may take to stop once interrupted before it is left behind.
_GRACE = 0.05


class PlayerTimeout(BaseException):
    """Raised inside a player's call at its deadline. A ``BaseException``, so a player's
    ``except Exception`` does not swallow it."""


class _Alarm:
    """Whether the ``SIGALRM`` timer is armed for the call now running."""

    armed = False


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    # Never in the frame that arms and disarms the timer: raised as its ``finally`` begins,
    # the timeout would skip the disarming, and the repeating timer would go on raising it
    # in the game itself (and end the process once the default handler is back).
    if _Alarm.armed and (frame is None or frame.f_code is not _call_with_alarm.__code__):
        raise PlayerTimeout


def _timed_by_signal() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def call_within(seconds: float, function: Callable[[], _T]) -> _T:
    """``function()``, or :class:`PlayerTimeout` once ``seconds`` have passed."""
    if seconds <= 0:
        raise PlayerTimeout
    if _timed_by_signal():
        return _call_with_alarm(seconds, function)
    return _call_on_thread(seconds, function)


def _call_with_alarm(seconds: float, function: Callable[[], _T]) -> _T:
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    _Alarm.armed = True
    signal.setitimer(signal.ITIMER_REAL, seconds, _REPEAT)
    try:
        return function()
    finally:
        # Disarmed first: a signal already on its way then does nothing.
        _Alarm.armed = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _call_on_thread(seconds: float, function: Callable[[], _T]) -> _T:
    outcome: list[_T] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            outcome.append(function())
        except BaseException as error:  # handed to the caller
            failure.append(error)

    worker = threading.Thread(target=target, name="outpost player", daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        ident = worker.ident
        if ident is not None:
            ctypes.pythonapi.PyThreadState_SetAsyncExc(
                ctypes.c_ulong(ident), ctypes.py_object(PlayerTimeout)
            )
        worker.join(_GRACE)
        raise PlayerTimeout
    if failure:
        raise failure[0]
    return outcome[0]
