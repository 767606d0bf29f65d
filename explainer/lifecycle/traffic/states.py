"""The names the traffic lane gives its states and its failure windows' reasons: JSON contracts
(`pods[].traffic.intervals[].state`, `failureWindows[].reason`; docs/lifecycle-model.md §27), added to,
never renamed.  Apart from lane.py so that the text and the pictures read them without the lane.
"""
from __future__ import annotations

# The states of `pods[].traffic.intervals[].state`.
NOT_READY, SERVING, DRAINING, GONE = "not-ready", "serving", "draining", "gone"
TRAFFIC_STATES: tuple[str, ...] = (NOT_READY, SERVING, DRAINING, GONE)
# Why nothing listens in a failure window (`failureWindows[].reason`).
SIGTERM, KILLED, EXITED, NOT_LISTENING_YET = "sigterm", "killed", "exited", "not-listening-yet"
WINDOW_REASONS: tuple[str, ...] = (SIGTERM, KILLED, EXITED, NOT_LISTENING_YET)
