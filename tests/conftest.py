"""Test settings shared by the whole suite.

Hypothesis profiles: ``ci`` (the default here and in ``.ci/run``) runs a fixed number of
examples with no deadline, so the suite's length does not depend on machine load; ``dev``
runs more examples; ``soak`` many more, for the ``slow`` tests run by hand.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import hostile_files

settings.register_profile(
    "ci",
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile("dev", max_examples=200, deadline=None)
settings.register_profile("soak", max_examples=5000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs, or a skip saying why there is none (``hostile_files.small_disk``)."""
    with hostile_files.small_disk(tmp_path / "disk") as disk:
        if isinstance(disk, str):
            pytest.skip(disk)
        yield disk
