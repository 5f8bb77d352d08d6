"""Pressing Ctrl-C from inside a test: the shared helper of the interrupt tests."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable


def seconds_to_stop_after_ctrl_c(call: Callable[[], object], delay: float = 0.3) -> float:
    """Runs ``call`` in this (main) thread, sends SIGINT ``delay`` seconds after it starts, and
    returns how long ``call`` took to raise KeyboardInterrupt after the signal."""
    sent_at: list[float] = []

    def press_ctrl_c() -> None:
        time.sleep(delay)
        sent_at.append(time.perf_counter())
        signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)

    presser = threading.Thread(target=press_ctrl_c)
    presser.start()
    try:
        call()
    except KeyboardInterrupt:
        stopped_at = time.perf_counter()
    else:
        presser.join()
        raise AssertionError("the call ended before Ctrl-C interrupted it")
    presser.join()
    return stopped_at - sent_at[0]
