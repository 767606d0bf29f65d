"""How hard the property tests try: every example in CI, a fifth locally (issue 16).

The profile is ``HYPOTHESIS_PROFILE`` when set, else ``ci`` when ``CI`` is set (CI systems set it;
`.ci/run` and `make test` too), else ``dev``.  A test with its own ``max_examples`` writes
``examples(n)``: ``n`` in CI, a fifth of it (at least 10) in ``dev``.  Tests without their own
number get the profile's.
"""
from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", max_examples=100)
settings.register_profile("dev", max_examples=20)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
if PROFILE not in ("ci", "dev"):
    raise ValueError(f"HYPOTHESIS_PROFILE must be ci or dev, not {PROFILE!r}")
settings.load_profile(PROFILE)


def examples(n: int) -> int:
    """``n`` examples in CI, a fifth of them (at least 10) while working."""
    return n if PROFILE == "ci" else max(10, n // 5)
