"""A container and a kill at run time: the mutable state the kubelet model keeps per container.

Every part of the simulated kubelet (simulate.py) changes a container only through these fields;
`ContainerState.signature` beside them is what fast-forward compares (fastforward.py, §7.6 of
docs/lifecycle-model.md), and `SIGNATURE_LEAVES_OUT` says why each field it does not compare is
left out (tests/lifecycle/test_runtime.py holds every field to one or the other).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import defaults as d
from ..model import Container
from ..scenario.document import Behaviour
from .status import RuntimeStatus


@dataclass(slots=True, eq=False)
class Kill:
    """One container's kill in progress (`killContainer`): preStop, its turn, then the signals."""

    deadline: float
    reason: str
    ordered: bool                  # a sidecar's turn waits for the apps and later sidecars (§12.3)
    # before 1.27 the pod worker's grace-period override replaced what preStop left: the stop call gets
    # all of it (docs/lifecycle-model.md §33); None: the stop call gets what is left, at least 2 s
    override: float | None = None
    stage: str = "prestop"         # prestop | turn | term

    def signature(self, now: float) -> tuple[Any, ...]:
        """The kill relative to the clock (fast-forward)."""
        return (self.deadline - now, self.reason, self.ordered, self.stage, self.override)


@dataclass(slots=True, eq=False)
class ContainerState:
    """A container at run time: its spec and behaviour, the status kubectl shows (``st``), and the
    kubelet's own records of it."""

    spec: Container
    b: Behaviour
    st: RuntimeStatus
    gen: int = 0                   # bumped on every start and exit: stale timers check it
    runs: int = 0                  # runs started so far (picks the scenario's run entry)
    alive: bool = False            # the main process is running
    start_t: float = 0.0
    in_poststart: bool = False
    kill: Kill | None = None
    bo_delay: float | None = None  # crash-loop back-off entry (client-go Backoff)
    bo_updated: float = 0.0
    finished_at: float | None = None
    img_delay: float | None = None
    img_retry_at: float = 0.0
    announced: bool = False        # the current back-off window has been reported
    force_restart: bool = False    # killed by a probe with "will be restarted"
    requested: bool = field(init=False)   # ephemeral: added by kubectl debug (set by the debug action)
    ever_created: bool = False
    has_status: bool = False       # created in this sandbox (init records are purged on loss)

    def __post_init__(self) -> None:
        self.requested = self.spec.role != "ephemeral"

    def signature(self, now: float, bo_max: float, timed: bool) -> tuple[Any, ...] | None:
        """This container relative to the clock ``now``, for fast-forward (fastforward.py): two instants with
        the same signature (and the same pending actions) go on the same way.  None when a time is not
        exact (fast-forward moves only multiples of 1/8 s).  ``timed``: a pending action reads how long it
        has run (its start time then counts).  ``bo_max``: the back-off cap, after which an exit is "long ago"."""
        st, ts = self.st, self.finished_at
        if ts is not None and not exact(ts):
            return None
        if self.alive:   # the next exit compares its time with the last back-off update
            since = None if self.bo_delay is None else now - self.bo_updated
            reset: float | str | None = "expired" if since is not None and since > d.CRASH_LOOP_RESET_SECONDS \
                else since
        else:
            reset = ts - self.bo_updated > d.CRASH_LOOP_RESET_SECONDS if ts is not None and \
                self.bo_delay is not None else None
        since_exit = None if ts is None else ("long ago" if now - ts >= bo_max else now - ts)
        return (
            self.alive, self.in_poststart, None if self.kill is None else self.kill.signature(now),
            self.bo_delay, reset, since_exit, self.img_delay,
            None if self.img_delay is None else max(self.img_retry_at - now, 0.0),
            self.announced, self.force_restart, self.requested, self.ever_created, self.has_status,
            now - self.start_t if timed else None,
            min(self.runs, len(self.b.runs) - 1),
            st.state, st.waiting_reason, st.exit_code, st.last_exit, st.started, st.ready, st.will_restart,
            st.exit_reason)


# What `ContainerState.signature` does not compare, and why (the test holds every other field to it).
SIGNATURE_LEAVES_OUT = {
    "spec": "the container as admitted: changed only by an image update, a one-off action fast-forward never "
            "jumps over",
    "b": "its behaviour, fixed for the run",
    "gen": "a generation only tells a timer whether it is still current: the pending actions encode that",
    "st.role": "fixed", "st.index": "fixed",
    "st.restarts": "grows every period: the jump adds the restarts of the skipped periods",
    "st.contrib": "what the status book last counted for it: a function of the compared fields and restarts",
    "st.walked": "the status book's own sums over the init list: a function of the compared fields",
}


_GRAIN = 8            # fast-forward moves times that are multiples of 1/_GRAIN s (exact in binary and in 3 decimals)


def exact(x: float) -> bool:
    """Whether ``x`` is a multiple of 1/8 s: sums of such times are exact in floating point."""
    y = x * _GRAIN
    return y == int(y)
