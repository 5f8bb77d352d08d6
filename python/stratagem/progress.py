"""A progress bar on stderr for work that lasts more than a second.

The bar stays silent for the first second (short work prints nothing), redraws at most ten
times a second, and is drawn only where a person is watching: when stderr is a terminal, or
when ``STRATAGEM_PROGRESS=1``. ``STRATAGEM_PROGRESS=0`` turns it off everywhere. It never
writes to stdout, so ``--json`` output stays one clean object.
"""

from __future__ import annotations

import os
import sys
import time
from types import TracebackType
from typing import TextIO

__all__ = ["Progress"]

_QUIET_SECONDS = 1.0
_REDRAW_SECONDS = 0.1
_WIDTH = 30


def _wanted(stream: TextIO) -> bool:
    setting = os.environ.get("STRATAGEM_PROGRESS")
    if setting is not None:
        return setting.strip() not in ("", "0", "false", "no")
    return stream.isatty()


class Progress:
    """Counts units of work towards ``total`` and draws ``label [#####.....] 50% 1.2 s``.

    >>> with Progress(3, "demo", enabled=False) as bar:
    ...     for _ in range(3):
    ...         bar.advance()
    >>> bar.done
    3
    """

    def __init__(
        self,
        total: int,
        label: str,
        *,
        enabled: bool | None = None,
        stream: TextIO | None = None,
    ) -> None:
        self.total = max(int(total), 1)
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = _wanted(self.stream) if enabled is None else enabled
        self.done = 0
        self._started = time.perf_counter()
        self._last_draw = 0.0
        self._drawn = False

    def __enter__(self) -> Progress:
        self._started = time.perf_counter()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._drawn:
            self._draw(time.perf_counter(), final=True)

    def advance(self, units: int = 1) -> None:
        self.done = min(self.done + units, self.total)
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self._started >= _QUIET_SECONDS and now - self._last_draw >= _REDRAW_SECONDS:
            self._draw(now, final=False)

    def _draw(self, now: float, *, final: bool) -> None:
        fraction = self.done / self.total
        filled = round(fraction * _WIDTH)
        bar = "#" * filled + "." * (_WIDTH - filled)
        elapsed = now - self._started
        end = "\n" if final else ""
        self.stream.write(f"\r{self.label} [{bar}] {fraction:4.0%} {elapsed:6.1f} s{end}")
        self.stream.flush()
        self._last_draw = now
        self._drawn = True
