"""What the simulation records: events in causal order and the Pod's status over time."""
from __future__ import annotations

from dataclasses import field
from enum import StrEnum

from ..i18n import Text
from ..records import quick_init
from explainer.lifecycle.records import record


class EventKind(StrEnum):
    """The type of a trace event.  Its values are the JSON contract's `events[].type` strings: members
    are added, never renamed (the first eighteen are the original contract)."""

    SANDBOX_READY = "sandbox_ready"
    IMAGE_PULL_FAILED = "image_pull_failed"
    CREATED = "created"
    STARTED = "started"
    POSTSTART_DONE = "poststart_done"
    STARTUP_PROBE_OK = "startup_probe_ok"
    STARTUP_PROBE_FAILED = "startup_probe_failed"
    READY = "ready"
    NOT_READY = "not_ready"
    LIVENESS_FAILED = "liveness_failed"
    EXITED = "exited"
    BACKOFF = "backoff"
    DELETE_REQUESTED = "delete_requested"
    PRESTOP_STARTED = "prestop_started"
    PRESTOP_DONE = "prestop_done"
    TERMINATING = "terminating"
    KILLED = "killed"
    SANDBOX_LOST = "sandbox_lost"
    # additions to the contract (never renamed, only added):
    DEADLINE_EXCEEDED = "deadline_exceeded"
    DEBUG_REQUESTED = "debug_requested"
    IMAGE_UPDATED = "image_updated"
    ALL_CONTAINERS_RESTARTING = "all_containers_restarting"   # 1.35+: a RestartAllContainers rule matched


EVENT_TYPES: tuple[str, ...] = tuple(k.value for k in EventKind)   # the contract's enum, in order


@quick_init   # the simulation makes one per event (records.py)
@record
class TraceEvent:
    t: float
    container: str | None          # None for Pod-level events
    type: EventKind                 # its value is the JSON contract's string
    restart_count: int | None = None
    exit_code: int | None = None
    reason: str | None = None
    message: str = ""              # English (the JSON contract)
    assumed: bool = False
    text: Text | None = field(default=None, compare=False, repr=False)   # ``message``, translatable




@quick_init   # fast-forward repeats a period's points, hundreds of thousands at worst
@record
class StatusPoint:
    t: float
    status: str                    # kubectl's STATUS column
    phase: str
    ready: bool                    # the Ready condition
    ready_count: str               # kubectl's READY column, "1/2"
    restarts: int
    initialized: bool




@record
class Dependency:
    """Why a container waited: ``container`` starts only after ``waits_for`` reaches ``condition``.

    ``guaranteed`` is False for what the kubelet does but the API does not promise (app
    containers started one after another in list order).
    """

    container: str
    waits_for: str
    condition: str                 # exit0 | started | postStart
    guaranteed: bool
