"""Threads and interrupts: the per-call pool size, STRATAGEM_NUM_THREADS, the GIL released
during long calls, and Ctrl-C stopping a long Rust call within 0.2 s."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import stratagem
from interrupts import seconds_to_stop_after_ctrl_c
from stratagem import _core, rng

# A coin count long enough (minutes) that only an interrupt can end the call early.
ENDLESS_COINS = 10**15


def test_threads_default_to_the_cores(monkeypatch):
    monkeypatch.delenv("STRATAGEM_NUM_THREADS", raising=False)
    assert _core.resolve_threads() == _core.default_threads() == len(os.sched_getaffinity(0))
    assert _core.resolve_threads(3) == 3


def test_environment_variable_sets_threads(monkeypatch):
    monkeypatch.setenv("STRATAGEM_NUM_THREADS", "3")
    assert _core.resolve_threads() == 3
    assert _core.resolve_threads(1) == 1  # the argument wins


@pytest.mark.parametrize("text", ["0", "-2", "many", "2.5", "100000"])
def test_bad_environment_thread_count_is_named(monkeypatch, text):
    monkeypatch.setenv("STRATAGEM_NUM_THREADS", text)
    with pytest.raises(
        stratagem.InvalidParameter, match="STRATAGEM_NUM_THREADS must be a whole number"
    ):
        rng.coin_flip_heads(1, "p", [], 10)


@pytest.mark.parametrize("threads", [0, _core.MAX_THREADS + 1])
def test_bad_thread_argument_is_named(threads):
    with pytest.raises(stratagem.InvalidParameter, match="threads must be"):
        _core.resolve_threads(threads)


def test_long_call_releases_the_gil():
    ticks = 0
    done = threading.Event()

    def long_call():
        rng.coin_flip_heads(5, "gil", [], 6 * 10**9, threads=1)
        done.set()

    worker = threading.Thread(target=long_call)
    worker.start()
    while not done.is_set():
        ticks += 1  # runs only while the worker's Rust call does not hold the GIL
        time.sleep(0.001)
    worker.join()
    assert ticks > 20


def test_ctrl_c_interrupts_a_long_rust_call_within_0_2_s():
    stopping = seconds_to_stop_after_ctrl_c(
        lambda: rng.coin_flip_heads(1, "endless", [], ENDLESS_COINS, threads=2)
    )
    assert stopping < 0.2
    # The pool is intact afterwards: the next call works and gives the usual answer.
    assert (
        rng.coin_flip_heads(1, "after", [], 1000, threads=2)
        == rng.draws(1, "after", [], "coin_flips", [1000])[0]
    )


def test_sigint_to_a_process_in_a_long_call_ends_it_with_keyboard_interrupt():
    script = textwrap.dedent(
        f"""
        import sys, time
        from stratagem import rng
        print("started", flush=True)
        try:
            rng.coin_flip_heads(1, "endless", [], {ENDLESS_COINS})
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(130)
        """
    )
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "started"
    time.sleep(0.3)
    sent = time.perf_counter()
    process.send_signal(signal.SIGINT)
    output, _ = process.communicate(timeout=10)
    assert time.perf_counter() - sent < 2.0  # includes interpreter shutdown
    assert process.returncode == 130
    assert output.strip() == "interrupted"
