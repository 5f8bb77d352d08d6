"""Test settings shared by the whole suite.

Hypothesis profiles: ``ci`` (the default here and in ``.ci/run``) runs a fixed number of
examples with no deadline, so the suite's length does not depend on machine load; ``dev``
runs more examples; ``soak`` many more, for the ``slow`` tests run by hand.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

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
