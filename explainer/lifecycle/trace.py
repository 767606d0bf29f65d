"""What the simulation records: events in causal order and the Pod's status over time."""
from __future__ import annotations

from dataclasses import dataclass, field

from .i18n import Text

EVENT_TYPES = (
    "sandbox_ready", "image_pull_failed", "created", "started", "poststart_done",
    "startup_probe_ok", "startup_probe_failed", "ready", "not_ready", "liveness_failed",
    "exited", "backoff", "delete_requested", "prestop_started", "prestop_done", "terminating",
    "killed", "sandbox_lost",
    # additions to the contract (never renamed, only added):
    "deadline_exceeded", "debug_requested", "image_updated",
    "all_containers_restarting",   # 1.35+: a RestartAllContainers rule matched (Pod-level)
)


@dataclass(frozen=True, slots=True)
class TraceEvent:
    t: float
    container: str | None          # None for Pod-level events
    type: str
    restart_count: int | None = None
    exit_code: int | None = None
    reason: str | None = None
    message: str = ""              # English (the JSON contract)
    assumed: bool = False
    text: Text | None = field(default=None, compare=False, repr=False)   # ``message``, translatable


@dataclass(frozen=True, slots=True)
class StatusPoint:
    t: float
    status: str                    # kubectl's STATUS column
    phase: str
    ready: bool                    # the Ready condition
    ready_count: str               # kubectl's READY column, "1/2"
    restarts: int
    initialized: bool


@dataclass(frozen=True, slots=True)
class Dependency:
    """Why a container waited: ``container`` starts only after ``waits_for`` reaches ``condition``.

    ``guaranteed`` is False for what the kubelet does but the API does not promise (app
    containers started one after another in list order).
    """

    container: str
    waits_for: str
    condition: str                 # exit0 | started | postStart
    guaranteed: bool
