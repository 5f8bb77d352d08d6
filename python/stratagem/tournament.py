"""What every tournament shares: its fixtures played in order, the one checkpoint format, and
resuming.

A tournament is a list of fixtures, each played by a function of its index alone (its seed
comes from the tournament's seed and the index), so a fixture's result never depends on which
others were played before it, in which order or where. :func:`play` plays the fixtures a
:class:`Checkpoint` does not hold yet and writes the checkpoint after each one; a run started
again with the same file and the same setup plays only what is missing and returns the result
of an uninterrupted run. Conquest's and annexation's round robins play through :func:`play`;
the outpost tournament, which spreads batches of games over threads and MPI ranks, keeps its
results in the same :class:`Checkpoint`.

The checkpoint is JSON: ``format`` ``"stratagem.tournament.checkpoint"``, ``version`` 1, the
``game``, the ``setup`` it was made for and ``done``, a list of ``[index, result]``. Loading
checks every field: a file of another setup, a truncated or empty file, an index out of range
or given twice, or a result that cannot be (more wins than games) is refused with
:class:`~stratagem.errors.InvalidParameter` naming the file and the problem.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> saved = Checkpoint(
...     folder / "squares.json", "toy", {"n": 4}, encode=int, decode=lambda index, value: value
... )
>>> play(4, lambda i: i * i, checkpoint=saved, progress=False)
[0, 1, 4, 9]
>>> sorted(saved.load(4).items())
[(0, 0), (1, 1), (2, 4), (3, 9)]
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Generic, TypeVar

from stratagem._files import write_json
from stratagem.errors import InvalidParameter
from stratagem.progress import Progress

__all__ = ["CHECKPOINT_FORMAT", "CHECKPOINT_VERSION", "Checkpoint", "check_result", "play"]

CHECKPOINT_FORMAT: Final = "stratagem.tournament.checkpoint"
CHECKPOINT_VERSION: Final = 1

R = TypeVar("R")


def _differences(saved: Mapping[str, Any], setup: Mapping[str, Any]) -> str:
    keys = sorted(set(saved) | set(setup))
    return ", ".join(
        f"{key}: {saved.get(key)!r} there, {setup.get(key)!r} here"
        for key in keys
        if saved.get(key) != setup.get(key)
    )


@dataclass(frozen=True)
class Checkpoint(Generic[R]):
    """The checkpoint file of one tournament: ``setup`` (JSON values) identifies the
    tournament; ``encode`` turns a result into JSON values and ``decode(index, value)`` back
    for fixture ``index``, raising ``ValueError``, ``TypeError`` or ``KeyError`` on a result
    that cannot be."""

    path: Path
    game: str
    setup: Mapping[str, Any]
    encode: Callable[[R], Any]
    decode: Callable[[int, Any], R]

    def __post_init__(self) -> None:
        object.__setattr__(self, "path", Path(self.path))

    def check_writable(self) -> None:
        """Refuses a checkpoint in a folder that does not exist, before any game is played."""
        if not self.path.parent.is_dir():
            raise InvalidParameter(
                f"checkpoint {self.path}: the folder {self.path.parent} does not exist"
            )

    def load(self, fixtures: int) -> dict[int, R]:
        """The results the file holds by fixture index (none when it does not exist yet)."""
        self.check_writable()
        if not self.path.exists():
            return {}
        try:
            saved = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise self._refused(f"not a checkpoint ({type(error).__name__}: {error})") from None
        if not isinstance(saved, dict) or saved.get("format") != CHECKPOINT_FORMAT:
            raise self._refused(f"not a checkpoint (no format {CHECKPOINT_FORMAT!r})")
        if saved.get("version") != CHECKPOINT_VERSION:
            raise self._refused(
                f"checkpoint version {saved.get('version')!r}; this stratagem reads "
                f"{CHECKPOINT_VERSION}"
            )
        if saved.get("game") != self.game or not isinstance(saved.get("setup"), dict):
            raise self._refused(f"not the checkpoint of a {self.game} tournament")
        if saved["setup"] != dict(self.setup):
            raise self._refused(
                f"the checkpoint of another tournament ({_differences(saved['setup'], self.setup)})"
                ": remove it or choose another file"
            )
        return self._entries(saved.get("done"), fixtures)

    def _entries(self, done: object, fixtures: int) -> dict[int, R]:
        if not isinstance(done, list):
            raise self._refused("'done' must be a list of [index, result]")
        results: dict[int, R] = {}
        for position, entry in enumerate(done):
            if not (isinstance(entry, list) and len(entry) == 2):
                raise self._refused(f"done[{position}] is not [index, result]")
            index, value = entry
            if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < fixtures:
                raise self._refused(
                    f"done[{position}]: fixture {index!r} is not one of 0..{fixtures - 1}"
                )
            if index in results:
                raise self._refused(f"done[{position}]: fixture {index} is given twice")
            try:
                results[index] = self.decode(index, value)
            except (ValueError, TypeError, KeyError) as error:
                raise self._refused(f"fixture {index}: {error}") from None
        return results

    def save(self, done: Mapping[int, R]) -> None:
        """Writes the results so far, whole (an interrupted write leaves the last file)."""
        write_json(
            self.path,
            {
                "format": CHECKPOINT_FORMAT,
                "version": CHECKPOINT_VERSION,
                "game": self.game,
                "setup": dict(self.setup),
                "done": [[index, self.encode(done[index])] for index in sorted(done)],
            },
        )

    def _refused(self, problem: str) -> InvalidParameter:
        return InvalidParameter(f"{self.path}: {problem}")


def check_result(
    sides: tuple[str, str],
    games: int,
    counts: Sequence[object],
    *,
    expected: tuple[str, str],
    expected_games: int,
    counted: str,
) -> None:
    """Refuses (``ValueError``) a saved two-sided result that cannot be the fixture's: other
    sides or number of games, or ``counts`` (wins, draws...) that are not whole numbers adding
    up to the games."""
    if sides != expected or games != expected_games:
        raise ValueError(
            f"a result of {sides[0]} against {sides[1]} in {games} games, not {expected[0]} "
            f"against {expected[1]} in {expected_games}"
        )
    whole = all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts)
    if not whole or sum(counts) != games:  # type: ignore[arg-type]
        raise ValueError(f"{counted} {tuple(counts)} are not {games} games")


def play(
    fixtures: int,
    play_one: Callable[[int], R],
    *,
    checkpoint: Checkpoint[R] | None = None,
    progress: bool | None = None,
    label: str = "tournament",
    weight: Callable[[int], int] = lambda index: 1,
) -> list[R]:
    """Every fixture's result in order: those the checkpoint holds, the others played by
    ``play_one(index)`` one after the other, the checkpoint written after each. Ctrl-C stops
    between fixtures with everything finished saved. ``weight`` is a fixture's share of the
    progress bar."""
    done: dict[int, R] = {} if checkpoint is None else checkpoint.load(fixtures)
    with Progress(sum(weight(i) for i in range(fixtures)), label, enabled=progress) as bar:
        bar.advance(sum(weight(i) for i in done))
        for index in range(fixtures):
            if index in done:
                continue
            done[index] = play_one(index)
            if checkpoint is not None:
                checkpoint.save(done)
            bar.advance(weight(index))
    return [done[index] for index in range(fixtures)]
