"""What the simulation records: events in causal order and the Pod's status over time."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Callable

from .i18n import Text


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


@dataclass(frozen=True, slots=True)
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


def _event_maker() -> Callable[..., TraceEvent]:
    """A constructor of `TraceEvent` for the simulation's hot path, equal to ``TraceEvent(...)`` with every
    field given in order: it sets the slots directly instead of going through the frozen dataclass's
    ``object.__setattr__`` per field (half the time; the simulation may make hundreds of thousands).
    tests/lifecycle/test_trace.py holds it to the dataclass's fields."""
    new = object.__new__
    (s_t, s_container, s_type, s_restart_count, s_exit_code, s_reason, s_message, s_assumed,
     s_text) = (getattr(TraceEvent, f).__set__ for f in TraceEvent.__slots__)

    def make(t: float, container: str | None, type: EventKind, restart_count: int | None, exit_code: int | None,
             reason: str | None, message: str, assumed: bool, text: Text | None) -> TraceEvent:
        e = new(TraceEvent)
        s_t(e, t)
        s_container(e, container)
        s_type(e, type)
        s_restart_count(e, restart_count)
        s_exit_code(e, exit_code)
        s_reason(e, reason)
        s_message(e, message)
        s_assumed(e, assumed)
        s_text(e, text)
        return e
    return make


new_event = _event_maker()


@dataclass(frozen=True, slots=True)
class StatusPoint:
    t: float
    status: str                    # kubectl's STATUS column
    phase: str
    ready: bool                    # the Ready condition
    ready_count: str               # kubectl's READY column, "1/2"
    restarts: int
    initialized: bool


def _point_maker() -> Callable[[float, str, str, bool, str, int, bool], StatusPoint]:
    """``StatusPoint(...)`` with every field given, by setting its slots (as `new_event`): fastforward.py
    repeats a period's points for every period it jumps over, hundreds of thousands at worst."""
    new = object.__new__
    s_t, s_status, s_phase, s_ready, s_count, s_restarts, s_init = (
        getattr(StatusPoint, f).__set__ for f in StatusPoint.__slots__)

    def make(t: float, status: str, phase: str, ready: bool, ready_count: str, restarts: int,
             initialized: bool) -> StatusPoint:
        p = new(StatusPoint)
        s_t(p, t)
        s_status(p, status)
        s_phase(p, phase)
        s_ready(p, ready)
        s_count(p, ready_count)
        s_restarts(p, restarts)
        s_init(p, initialized)
        return p
    return make


new_point = _point_maker()


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
