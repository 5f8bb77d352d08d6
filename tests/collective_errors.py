"""Errors in collective tests: every rank must reach the collectives after a failing call."""

from __future__ import annotations

from collections.abc import Callable

from stratagem.errors import StratagemError


def raised(make: Callable[[], object]) -> StratagemError | None:
    """The error ``make()`` raised, if any: caught rather than asserted with pytest.raises,
    so that the collectives after it run on every rank whatever happened here."""
    try:
        make()
    except StratagemError as error:
        return error
    return None
