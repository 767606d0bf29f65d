"""Settings for the test suite: the project's own, as `make run` has them (EXPLAINER_DEBUG=true
unless the environment says otherwise).  DEBUG itself is off while tests run (pytest-django);
what the flag changes here is what a development checkout gets: no HTTPS redirect, no secure
cookies, static files without a manifest.  Tests of production behaviour start subprocesses
with EXPLAINER_DEBUG=false."""
from __future__ import annotations

import os

os.environ.setdefault("EXPLAINER_DEBUG", "true")

from explainer.settings import *  # noqa: E402,F401,F403
