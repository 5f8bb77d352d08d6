"""The exceptions stratagem raises for bad input.

Every error a user can cause is a :class:`StratagemError`, itself a ``ValueError``, so
``except ValueError`` keeps working for callers that do not know this package. The Rust core
raises the same classes (the binding layer maps its error kinds onto them) with the message
intact, so a message always names the offending item: a line, a cell, a territory, a unit.
"""

from __future__ import annotations

__all__ = [
    "InconsistentFeedback",
    "InconsistentInput",
    "InvalidBoard",
    "InvalidMove",
    "InvalidParameter",
    "MissingDependency",
    "PolicyError",
    "StratagemError",
    "WriteError",
]


class StratagemError(ValueError):
    """Base class of every error caused by what a user passed in."""


class InvalidBoard(StratagemError):
    """A board, map or graph is malformed (bad file line, self-loop, id out of range...)."""


class InvalidMove(StratagemError):
    """A move, placement or order breaks the rules of the game."""


class InvalidParameter(StratagemError):
    """A parameter is out of range or of the wrong type, shape or dtype."""


class InconsistentInput(StratagemError):
    """Pieces of input contradict each other (impossible position, contradictory feedback)."""


class InconsistentFeedback(InconsistentInput):
    """No Mastermind code fits the feedbacks given; ``feedbacks`` holds the turn numbers of a
    smallest set of them that contradict each other."""

    def __init__(self, message: str, feedbacks: tuple[int, ...] = ()) -> None:
        super().__init__(message)
        self.feedbacks = feedbacks


class MissingDependency(InvalidParameter, ImportError):
    """An optional package a feature needs is not installed; the message names the extra that
    installs it. An ``ImportError`` too, so ``except ImportError`` and
    ``pytest.importorskip`` see it."""

    @classmethod
    def of(cls, package: str, extra: str) -> MissingDependency:
        return cls(f"this needs {package}: pip install 'stratagem[{extra}]'")


class PolicyError(StratagemError):
    """A user's policy or player raised an exception or returned nonsense; the message names
    the policy and the turn, and the original exception is the ``__cause__``."""

    def __init__(self, message: str, policy: str = "", turn: int | None = None) -> None:
        super().__init__(message)
        self.policy = policy
        self.turn = turn


class WriteError(StratagemError):
    """A file could not be written (a full disk, a quota, a read-only file system, an I/O
    error); the message names the file and ``errno`` holds the system's error number. The
    previous file, if any, is left as it was."""

    def __init__(self, message: str, errno: int | None = None) -> None:
        super().__init__(message)
        self.errno = errno
