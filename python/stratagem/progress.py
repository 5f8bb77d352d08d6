"""Progress of long work: a tqdm bar on stderr, or a callback.

Every long call takes ``progress=``: ``None`` (the default) draws a bar only where a person is
watching (stderr is a terminal, or ``STRATAGEM_PROGRESS=1``; ``STRATAGEM_PROGRESS=0`` turns
bars off everywhere), ``True`` always draws one, ``False`` never does, and a callable is
called as ``progress(done, total)`` whenever work finishes, instead of a bar (for a GUI, a
log, or a notebook widget). The command line's ``--progress`` and ``--no-progress`` are
``True`` and ``False``. A bar stays silent for its first second, so short work prints
nothing, and never writes to stdout, so ``--json`` output stays one clean object.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from types import TracebackType
from typing import TextIO, TypeAlias

from tqdm import tqdm

__all__ = ["Progress", "ProgressOption", "forced"]

#: What a long call's ``progress=`` takes.
ProgressOption: TypeAlias = bool | Callable[[int, int], object] | None

_QUIET_SECONDS = 1.0
_REDRAW_SECONDS = 0.1
_FORMAT = "{desc} [{bar:30}] {percentage:3.0f}% {n_fmt}/{total_fmt} {elapsed_s:6.1f} s"
# For work whose units mean nothing to a reader (shares of a search): the fraction alone.
_FRACTION_FORMAT = "{desc} [{bar:30}] {percentage:3.0f}% {elapsed_s:6.1f} s"


# What `progress=None` means while a command runs with --progress or --no-progress.
_FORCED: ContextVar[bool | None] = ContextVar("stratagem_progress_forced", default=None)


@contextlib.contextmanager
def forced(setting: bool | None) -> Iterator[None]:
    """Within the block, bars left to the default (``progress=None``) are drawn (``True``) or
    not (``False``) whatever the terminal and ``STRATAGEM_PROGRESS`` say; ``None`` changes
    nothing. The command line's ``--progress`` and ``--no-progress``."""
    if setting is None:
        yield
        return
    token = _FORCED.set(setting)
    try:
        yield
    finally:
        _FORCED.reset(token)


def _wanted(stream: TextIO) -> bool:
    forced_setting = _FORCED.get()
    if forced_setting is not None:
        return forced_setting
    setting = os.environ.get("STRATAGEM_PROGRESS")
    if setting is not None:
        return setting.strip() not in ("", "0", "false", "no")
    return stream.isatty()


class Progress:
    """Counts units of work towards ``total``: ``label [#####     ]  50% 2/4    1.2 s``
    (without ``2/4`` when ``counts`` is false).

    >>> with Progress(3, "demo", enabled=False) as bar:
    ...     for _ in range(3):
    ...         bar.advance()
    >>> bar.done
    3
    >>> seen = []
    >>> with Progress(2, "told", enabled=lambda done, total: seen.append((done, total))) as bar:
    ...     bar.advance(2)
    >>> seen
    [(2, 2)]
    """

    def __init__(
        self,
        total: int,
        label: str,
        *,
        enabled: ProgressOption = None,
        stream: TextIO | None = None,
        counts: bool = True,
    ) -> None:
        self.total = max(int(total), 1)
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.done = 0
        self._callback = enabled if callable(enabled) else None
        if callable(enabled):
            self.enabled = False
        else:
            self.enabled = _wanted(self.stream) if enabled is None else bool(enabled)
        self._bar = (
            tqdm(
                total=self.total,
                desc=label,
                file=self.stream,
                delay=_QUIET_SECONDS,
                mininterval=_REDRAW_SECONDS,
                bar_format=_FORMAT if counts else _FRACTION_FORMAT,
                ascii=" #",
                leave=True,
            )
            if self.enabled
            else None
        )

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.close()

    def reach(self, done: int) -> None:
        """Advances to ``done`` units in all: for work that reports a running count."""
        self.advance(done - self.done)

    def advance(self, units: int = 1) -> None:
        step = min(units, self.total - self.done)
        self.done += step
        if self._bar is not None:
            self._bar.update(step)
        if self._callback is not None:
            self._callback(self.done, self.total)
