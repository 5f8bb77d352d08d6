"""Hypothesis pieces shared by the property tests."""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st

#: Any engine seed.
SEEDS = st.integers(0, 2**64 - 1)


def fewer_examples(at_most: int) -> settings:
    """The active profile's settings with at most ``at_most`` examples, for tests whose oracle
    side is slow (at least one example, whatever the profile)."""
    return settings(max_examples=max(1, min(at_most, settings().max_examples)))
