"""The tournament engine every game shares: fixtures, their results table, the one checkpoint
format, and playing the missing fixtures over threads and MPI ranks (``docs/tournaments.md``).

A tournament is ``n`` fixtures, each played by a function of its index alone (its seeds come
from the tournament's seed and the index, by each game's documented stream), so a fixture's
result never depends on which others were played before it, in which order, on which rank or
with how many threads. A fixture's result is one row of small non-negative integers (the
``columns``: wins, draws, cells...); the tournament's result is the table of those rows, from
which each game builds its own result objects.

:func:`run` plays the fixtures a :class:`Checkpoint` does not hold yet, in *tasks* (runs of
consecutive fixtures, ``batch`` at most, a fixture that must be played ``alone`` on its own),
spread over the ranks of ``comm`` by :func:`stratagem.mpi.run_queue`; each rank's ``threads``
go to the play function. With a checkpoint, rank 0 writes the file after every task (every
round of ``2 x ranks`` tasks under MPI); Ctrl-C writes what is finished and re-raises, and a
run started again with the same file and setup plays only what is missing and returns the
table of an uninterrupted run.

The checkpoint is JSON: ``format`` ``"stratagem.tournament.checkpoint"``, ``version`` 2, the
``game``, the ``setup`` it was made for, the ``columns`` and ``done``, a list of ``[index,
row]``. Loading checks every field: a file of another setup, a truncated, empty or garbled
file, an index out of range or given twice, a row of the wrong length, with a value that is
not a non-negative integer, or one the game's ``check`` refuses (more wins than games) is
refused with :class:`~stratagem.errors.InvalidParameter` naming the file and the problem.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> saved = Checkpoint(folder / "squares.json", "toy", {"n": 4}, ("square",))
>>> run(4, lambda task, threads, report: [[i * i] for i in task], checkpoint=saved).tolist()
[[0], [1], [4], [9]]
>>> sorted((index, row.tolist()) for index, row in saved.load(4).items())
[(0, [0]), (1, [1]), (2, [4]), (3, [9])]
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import socket
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any, Final, TypeAlias

import numpy as np
from numpy.typing import ArrayLike, NDArray

from stratagem import _core, _validate
from stratagem._files import read_json, write_json
from stratagem.errors import InconsistentInput, InvalidParameter
from stratagem.mpi import Communicator, checked_together, run_queue, world
from stratagem.progress import Progress, ProgressOption

__all__ = [
    "CHECKPOINT_FORMAT",
    "CHECKPOINT_VERSION",
    "Checkpoint",
    "PlayTask",
    "check_counts",
    "run",
    "run_pairs",
]

CHECKPOINT_FORMAT: Final = "stratagem.tournament.checkpoint"
CHECKPOINT_VERSION: Final = 2

Table: TypeAlias = NDArray[np.int64]
PlayTask: TypeAlias = Callable[[range, int | None, Callable[[int], None] | None], ArrayLike]
"""``play(fixtures, threads, report)``: the rows of the fixtures of ``fixtures`` (a range of
consecutive indices), played with ``threads`` threads; ``report(k)``, when given, may be
called with the number of them finished so far (for the progress bar)."""


def _differences(
    there: Mapping[str, Any], here: Mapping[str, Any], names: tuple[str, str] = ("there", "here")
) -> str:
    keys = sorted(set(there) | set(here))
    return ", ".join(
        f"{key}: {there.get(key)!r} {names[0]}, {here.get(key)!r} {names[1]}"
        for key in keys
        if there.get(key) != here.get(key)
    )


def _plain(setup: Mapping[str, Any]) -> dict[str, Any]:
    """The setup as JSON would give it back (tuples become lists)."""
    result: dict[str, Any] = json.loads(json.dumps(dict(setup)))
    return result


@dataclass(frozen=True)
class Checkpoint:
    """The checkpoint file of one tournament: ``setup`` (JSON values) identifies the
    tournament, ``columns`` name the integers of a fixture's row, and ``check(index, row)``
    raises ``ValueError`` on a row that cannot be fixture ``index``'s result."""

    path: Path
    game: str
    setup: Mapping[str, Any]
    columns: tuple[str, ...]
    check: Callable[[int, Table], None] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "path", Path(self.path))
        object.__setattr__(self, "setup", _plain(self.setup))
        object.__setattr__(self, "columns", tuple(self.columns))

    def check_writable(self) -> None:
        """Refuses a checkpoint in a folder that does not exist, before any game is played."""
        if not self.path.parent.is_dir():
            raise InvalidParameter(
                f"checkpoint {self.path}: the folder {self.path.parent} does not exist"
            )

    def load(self, fixtures: int) -> dict[int, Table]:
        """The rows the file holds by fixture index (none when it does not exist yet)."""
        self.check_writable()
        if not self.path.exists():
            return {}
        saved = read_json(self.path, lambda reason: self._refused(f"not a checkpoint ({reason})"))
        if not isinstance(saved, dict) or saved.get("format") != CHECKPOINT_FORMAT:
            raise self._refused(f"not a checkpoint (no format {CHECKPOINT_FORMAT!r})")
        if saved.get("version") != CHECKPOINT_VERSION:
            raise self._refused(
                f"checkpoint version {saved.get('version')!r}; this stratagem reads "
                f"{CHECKPOINT_VERSION}"
            )
        if saved.get("game") != self.game or not isinstance(saved.get("setup"), dict):
            raise self._refused(f"not the checkpoint of a {self.game} tournament")
        if saved["setup"] != self.setup:
            raise self._refused(
                "the checkpoint of another tournament "
                f"({_differences(saved['setup'], self.setup)})"
                ": remove it or choose another file"
            )
        if saved.get("columns") != list(self.columns):
            raise self._refused(f"columns {saved.get('columns')!r}, not {list(self.columns)!r}")
        return self._entries(saved.get("done"), fixtures)

    def _entries(self, done: object, fixtures: int) -> dict[int, Table]:
        if not isinstance(done, list):
            raise self._refused("'done' must be a list of [index, row]")
        rows: dict[int, Table] = {}
        for position, entry in enumerate(done):
            if not (isinstance(entry, list) and len(entry) == 2):
                raise self._refused(f"done[{position}] is not [index, row]")
            index, row = entry
            if not _whole(index) or not 0 <= index < fixtures:
                raise self._refused(
                    f"done[{position}]: fixture {index!r} is not one of 0..{fixtures - 1}"
                )
            if index in rows:
                raise self._refused(f"done[{position}]: fixture {index} is given twice")
            width = len(self.columns)
            if not (isinstance(row, list) and len(row) == width and all(map(_whole, row))):
                raise self._refused(
                    f"fixture {index}: {row!r} is not a row of {width} whole numbers"
                )
            if any(value < 0 or value >= 2**63 for value in row):
                raise self._refused(f"fixture {index}: {row!r} has a value outside 0..2^63-1")
            values = np.array(row, dtype=np.int64)
            try:
                if self.check is not None:
                    self.check(index, values)
            except ValueError as error:
                raise self._refused(f"fixture {index}: {error}") from None
            rows[index] = values
        return rows

    def save(self, done: Mapping[int, Table]) -> None:
        """Writes the rows so far, whole (an interrupted write leaves the last file); a
        failure is :class:`~stratagem.errors.WriteError` naming the file."""
        data = {
            "format": CHECKPOINT_FORMAT,
            "version": CHECKPOINT_VERSION,
            "game": self.game,
            "setup": self.setup,
            "columns": list(self.columns),
            "done": [[index, done[index].tolist()] for index in sorted(done)],
        }
        write_json(self.path, data)

    def _refused(self, problem: str) -> InvalidParameter:
        return InvalidParameter(f"{self.path}: {problem}")


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_counts(counts: Sequence[int] | Table, games: int, counted: str) -> None:
    """Refuses (``ValueError``) ``counts`` (wins, draws...) that do not add up to ``games``."""
    if int(np.sum(counts)) != games:
        raise ValueError(f"{counted} {tuple(int(c) for c in counts)} are not {games} games")


# -- playing ----------------------------------------------------------------------------------


def _fingerprint(setup: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(_plain(setup), sort_keys=True).encode()).hexdigest()


def _threads_here(
    comm: Communicator, setup: Mapping[str, Any], threads: int | None, checkpointed: bool
) -> int | None:
    """Collective: check that every rank plays the same tournament, and choose this rank's
    threads: ``threads`` if given, else its host's cores shared among the ranks there (unless
    ``STRATAGEM_NUM_THREADS`` decides)."""
    host = socket.gethostname()
    everyone = comm.allgather_object((_fingerprint(setup), checkpointed, host))
    if any(fingerprint != everyone[0][0] for fingerprint, _, _ in everyone):
        setups = comm.allgather_object(_plain(setup))
        rank = next(r for r, other in enumerate(setups) if other != setups[0])
        changed = _differences(setups[rank], setups[0], (f"on rank {rank}", "on rank 0"))
        raise InconsistentInput(
            f"rank {rank} was given another tournament than rank 0 ({changed}); every rank "
            "must pass the same arguments"
        )
    for rank, (_, other, _) in enumerate(everyone):
        if other != everyone[0][1]:
            raise InconsistentInput(
                f"rank {rank} {'has' if other else 'has no'} checkpoint and rank 0 "
                f"{'has' if everyone[0][1] else 'has none'}; every rank must pass the same "
                "arguments"
            )
    if threads is not None or os.environ.get("STRATAGEM_NUM_THREADS") is not None:
        return threads
    here = sum(1 for _, _, other in everyone if other == host)
    return max(1, _core.default_threads() // here)


def _tasks(missing: Sequence[int], alone: Callable[[int], bool], batch: int | None) -> list[range]:
    """Runs of consecutive missing fixtures cut into tasks of ``batch`` (whole runs for
    None), each fixture to be played ``alone`` a task of its own."""
    tasks: list[range] = []
    position = 0
    while position < len(missing):
        first = missing[position]
        stop = position + 1
        if not alone(first):
            while (
                stop < len(missing)
                and missing[stop] == first + (stop - position)
                and not alone(missing[stop])
                and (batch is None or stop - position < batch)
            ):
                stop += 1
        tasks.append(range(first, first + (stop - position)))
        position = stop
    return tasks


def run(
    fixtures: int,
    play: PlayTask,
    *,
    columns: int | None = None,
    checkpoint: Checkpoint | None = None,
    setup: Mapping[str, Any] | None = None,
    comm: Communicator | None = None,
    threads: int | None = None,
    batch: int | None = None,
    alone: Callable[[int], bool] = lambda index: False,
    progress: ProgressOption = None,
    label: str = "tournament",
    weight: Callable[[int], int] = lambda index: 1,
) -> Table:
    """The results table, ``(fixtures, columns)`` int64: the rows the ``checkpoint`` holds,
    the others played by ``play`` (see :data:`PlayTask`), the same for any ``threads``,
    ``batch`` and number of ranks.

    ``batch`` bounds a task (default: every consecutive fixture at once in one process
    without a checkpoint, else 8 per thread, fewer so that each rank gets about 4 tasks).
    Under MPI (``comm``, default :func:`stratagem.mpi.world`) this is collective: every rank
    passes the same ``setup`` (default: the checkpoint's; checked, a rank with another one
    makes every rank raise :class:`~stratagem.errors.InconsistentInput`), rank 0 reads and
    writes the checkpoint, and every rank returns the whole table. Each rank runs ``threads``
    threads (default: its host's cores shared among the ranks on that host). ``progress``
    draws a bar on rank 0 (``weight`` is a fixture's share of it). Ctrl-C writes the rows
    finished on rank 0 to the checkpoint and re-raises.
    """
    comm = world() if comm is None else comm
    width = len(checkpoint.columns) if checkpoint is not None else columns
    if width is None:
        raise InvalidParameter("run needs the number of columns or a checkpoint")
    count = _validate.integer("fixtures", fixtures, 0)
    chosen = _validate.threads(threads)
    batch = None if batch is None else _validate.integer("batch", batch, 1)
    if comm.size > 1:
        here = checkpoint.setup if setup is None and checkpoint is not None else setup or {}
        chosen = _threads_here(comm, here, chosen, checkpoint is not None)
    done = _load(comm, checkpoint, count)
    missing = [index for index in range(count) if index not in done]
    size = _batch_size(comm, batch, chosen, checkpoint is not None, len(missing))
    tasks = _tasks(missing, alone, size)
    per_round = len(tasks) if checkpoint is None else (1 if comm.size == 1 else 2 * comm.size)
    shown = progress if comm.rank == 0 else False
    with Progress(sum(weight(i) for i in range(count)), label, enabled=shown) as bar:
        bar.advance(sum(weight(i) for i in done))

        def play_task(task: range) -> Table:
            base, share = bar.done, sum(weight(i) for i in task)

            def report(finished: int) -> None:
                bar.reach(base + finished * share // len(task))

            played = np.asarray(play(task, chosen, report if bar.enabled else None))
            rows = np.ascontiguousarray(played.reshape(len(task), width), dtype=np.int64)
            finished_here.update(zip(task, rows, strict=True))
            bar.reach(base + share)
            return rows

        finished_here: dict[int, Table] = {}  # this rank's rows, saved by Ctrl-C on rank 0
        saved = len(done)
        try:
            for first in range(0, len(tasks), max(per_round, 1)):
                chunk = tasks[first : first + per_round]
                for task, rows in zip(chunk, run_queue(chunk, play_task, comm=comm), strict=True):
                    done.update(zip(task, rows, strict=True))
                if checkpoint is not None:
                    checked_together(comm, lambda: _save_on_rank_0(comm, checkpoint, done))
                    saved = len(done)
                bar.reach(sum(weight(i) for i in done))
        except KeyboardInterrupt:
            done.update(finished_here)
            if checkpoint is not None and comm.rank == 0 and len(done) > saved:
                checkpoint.save(done)
            raise
    table = np.zeros((count, width), dtype=np.int64)
    for index, row in done.items():
        table[index] = row
    return table


def run_pairs(
    entrants: int,
    play_pair: Callable[[int, int, int | None], ArrayLike],
    *,
    game: str,
    setup: Mapping[str, Any],
    columns: Sequence[str],
    check: Callable[[int, Table], None] | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    comm: Communicator | None = None,
    threads: int | None = None,
    progress: ProgressOption = None,
    label: str = "tournament",
    weight: Callable[[int], int] = lambda index: 1,
) -> tuple[list[tuple[int, int]], Table]:
    """A round robin on :func:`run`: each pair ``(i, j)`` of ``entrants``, in
    :func:`itertools.combinations` order, is a fixture played alone by ``play_pair(i, j,
    threads)``. Returns the pairs and their rows. A ``checkpoint`` file is the
    :class:`Checkpoint` of ``game``, ``setup``, ``columns`` and ``check``.
    """
    pairs = list(combinations(range(entrants), 2))
    saved = None
    if checkpoint is not None:
        saved = Checkpoint(Path(checkpoint), game, setup, tuple(columns), check=check)
    table = run(
        len(pairs),
        lambda task, threads, report: np.array([play_pair(*pairs[i], threads) for i in task]),
        columns=len(columns),
        checkpoint=saved,
        setup=setup,
        comm=comm,
        threads=threads,
        batch=1,
        progress=progress,
        label=label,
        weight=weight,
    )
    return pairs, table


def _load(comm: Communicator, checkpoint: Checkpoint | None, count: int) -> dict[int, Table]:
    """Collective: the rows of the checkpoint, read on rank 0 and given to every rank."""

    def load() -> dict[int, Table]:
        if checkpoint is None or comm.rank != 0:
            return {}
        return checkpoint.load(count)

    done = checked_together(comm, load)
    return comm.bcast_object(done, 0) if comm.size > 1 else done


def _batch_size(
    comm: Communicator, batch: int | None, threads: int | None, checkpointed: bool, missing: int
) -> int | None:
    """The tasks' bound, chosen by rank 0 (ranks may run other thread counts)."""
    size = batch
    if size is None and (comm.size > 1 or checkpointed):
        size = 8 * _core.resolve_threads(threads)
        if comm.size > 1:
            size = max(1, min(size, math.ceil(missing / (4 * comm.size))))
    return comm.bcast_object(size, 0) if comm.size > 1 else size


def _save_on_rank_0(comm: Communicator, checkpoint: Checkpoint, done: Mapping[int, Table]) -> None:
    if comm.rank == 0:
        checkpoint.save(done)
