"""A container and a kill at run time: the mutable state the kubelet model keeps per container."""
from __future__ import annotations

from .model import Container
from .scenario import Behaviour
from .status import RuntimeStatus


class Kill:
    """One container's kill in progress (`killContainer`): preStop, its turn, then the signals."""

    __slots__ = ("deadline", "reason", "ordered", "stage", "override")

    def __init__(self, deadline: float, reason: str, ordered: bool, override: float | None = None) -> None:
        self.deadline, self.reason, self.ordered = deadline, reason, ordered
        self.stage = "prestop"
        # before 1.27 the pod worker's grace-period override replaced what preStop left: the stop call gets
        # all of it (docs/lifecycle-model.md §33); None: the stop call gets what is left, at least 2 s
        self.override = override


class CState:
    """A container at run time."""

    __slots__ = ("spec", "b", "st", "gen", "runs", "alive", "start_t", "in_poststart", "kill",
                 "bo_delay", "bo_updated", "finished_at", "img_delay", "img_retry_at",
                 "announced", "force_restart", "requested", "ever_created", "has_status")

    def __init__(self, spec: Container, b: Behaviour, st: RuntimeStatus) -> None:
        self.spec, self.b, self.st = spec, b, st
        self.gen = 0                 # bumped on every start and exit: stale timers check it
        self.runs = 0                # runs started so far (picks the scenario's run entry)
        self.alive = False           # the main process is running
        self.start_t = 0.0
        self.in_poststart = False
        self.kill: Kill | None = None
        self.bo_delay: float | None = None    # crash-loop back-off entry (client-go Backoff)
        self.bo_updated = 0.0
        self.finished_at: float | None = None
        self.img_delay: float | None = None
        self.img_retry_at = 0.0
        self.announced = False       # the current back-off window has been reported
        self.force_restart = False   # killed by a probe with "will be restarted"
        self.requested = spec.role != "ephemeral"   # ephemeral: added by kubectl debug
        self.ever_created = False
        self.has_status = False      # created in this sandbox (init records are purged on loss)
