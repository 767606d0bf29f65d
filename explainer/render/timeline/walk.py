"""Walking a simulation's events into raw bars and markers, one container lane at a time.

`lane_containers` orders the lanes, `_collect` sorts the events into them, and `_walk` turns
one lane's events into state bars (waiting, starting, running, ...) and marker moments.
Times only: `timeline.place` turns them into pixels.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from explainer.lifecycle.model import Container
from explainer.lifecycle.kubelet.trace import TraceEvent
from .model import Gettext

if TYPE_CHECKING:
    from explainer.explain import PodReport


def lane_containers(report: PodReport) -> list[Container]:
    """Lanes in start order: init containers and sidecars in spec order, app containers, ephemeral."""
    pod = report.pod
    out = list(pod.init_containers) + list(pod.containers) + list(pod.ephemeral_containers)
    seen = {c.name for c in out}
    if report.simulation is not None:
        out += [c for c in report.simulation.debug_containers if c.name not in seen]
    return out


def _debug_names(report: PodReport) -> list[str]:
    sim = report.simulation
    return [c.name for c in sim.debug_containers] if sim else []


def _event_container(events: Iterable[TraceEvent], debug: list[str]) -> list[tuple[TraceEvent, str | None]]:
    """Each event with the container it concerns; ``debug_requested`` names its ephemeral container."""
    out, n = [], 0
    for e in events:
        name = e.container
        if e.type == "debug_requested" and name is None:
            name = debug[n] if n < len(debug) else None
            n += 1
        out.append((e, name))
    return out


@dataclass(slots=True)
class _Found:
    by_name: dict[str, int]
    lane_events: list[list[TraceEvent]]
    requested_at: dict[int, float]          # lane -> when kubectl debug asked for it
    pod_events: list[TraceEvent]
    first: dict[tuple[str, str], TraceEvent]   # (container, type or "exit0") -> its first event


def _collect(report: PodReport, containers: list[Container]) -> _Found:
    by_name = {c.name: i for i, c in enumerate(containers)}
    found = _Found(by_name, [[] for _c in containers], {}, [], {})
    if report.simulation is None:
        return found
    pod_events, lane_events, first = found.pod_events, found.lane_events, found.first
    for e, name in _event_container(report.simulation.events, _debug_names(report)):
        k = e.type
        if e.container is None:
            pod_events.append(e)
            if k != "debug_requested":     # a Pod event: no container, no lane (only kubectl debug names one)
                continue
        lane = by_name.get(name) if name is not None else None
        if lane is not None:
            lane_events[lane].append(e)
            if k == "debug_requested":
                found.requested_at.setdefault(lane, e.t)
        if name is not None:
            first.setdefault((name, "exit0" if k == "exited" and e.exit_code == 0 else k), e)
    return found


# ---- the walk over one container's events -----------------------------------------------------
_DURATION_ENDS = ("exited", "poststart_done", "prestop_done")   # events that end a duration


@dataclass(slots=True)
class _Open:
    state: str
    t0: float
    detail: str
    error: bool = False          # exited with a non-zero code
    assumed_run: str = ""        # why the run that this bar belongs to is assumed (open-ended runs)


@dataclass(slots=True)
class _Raw:
    lane: int
    state: str
    t0: float
    t1: float
    detail: str
    assumed: bool
    why_assumed: str
    error: bool


@dataclass(slots=True)
class _RawMarker:
    lane: int
    kind: str
    t: float
    tooltip: str
    label: str = ""
    assumed: bool = False


def _message(e: TraceEvent, _: Gettext) -> str:
    """The event's message through ``gettext`` when the core wrote it as a `Text`."""
    return e.text.render(_) if e.text is not None else e.message


def _assumption(report: PodReport, name: str, e: TraceEvent, _: Gettext) -> str:
    """Why the engine assumed the duration that ``e`` ends (for the tooltip)."""
    sim = report.simulation
    b = sim.behaviours.get(name) if sim else None
    if b is None:
        return ""
    if e.type == "exited":
        keys: tuple[str, ...] = ("stopSeconds",) if "SIGTERM" in e.message else ("runSeconds", "exitCode")
    else:
        keys = {"poststart_done": ("postStartSeconds",), "prestop_done": ("preStopSeconds",),
                "started": ("runSeconds",)}.get(e.type, ())
    return "; ".join(b.assumed[k].render(_) for k in keys if k in b.assumed)


# the event types `_walk` draws something for (the branches below)
_WALKED = frozenset({"debug_requested", "image_pull_failed", "backoff", "started", "poststart_done",
                     "startup_probe_ok", "ready", "not_ready", "startup_probe_failed", "liveness_failed",
                     "prestop_started", "prestop_done", "terminating", "killed", "exited", "image_updated"})


def _walk(report: PodReport, lane: int, c: Container, events: list[TraceEvent], requested_at: float | None,
          wait_why: str, bar_end: float, _: Gettext) -> tuple[list[_Raw], list[_RawMarker]]:
    bars: list[_Raw] = []
    marks: list[_RawMarker] = []
    cur: _Open | None = None
    if c.role != "ephemeral":
        cur = _Open("waiting", 0.0, wait_why)
    elif requested_at is not None:
        cur = _Open("waiting", requested_at, _("added by kubectl debug; waiting to start"))
    starts = 0
    pending_poststart = pending_startup = False

    def close(t: float, end: TraceEvent | None) -> None:
        nonlocal cur
        if cur is not None and t > cur.t0:
            # only a duration the engine assumed makes a bar's end assumed: a process that ends, a
            # hook that finishes (a "started" flagged assumed is about the run that begins)
            assumed = bool(end is not None and end.assumed and end.type in _DURATION_ENDS)
            why = _assumption(report, c.name, end, _) if (end is not None and assumed) else ""
            if not assumed and cur.assumed_run:
                why = cur.assumed_run        # not hatched (the end is not assumed), but said
            bars.append(_Raw(lane, cur.state, cur.t0, min(t, bar_end), cur.detail, assumed, why, cur.error))
        cur = None

    def switch(t: float, state: str, detail: str, end: TraceEvent | None = None, error: bool = False) -> None:
        nonlocal cur
        run = cur.assumed_run if cur is not None and state in ("running", "ready", "starting") else ""
        close(t, end)
        cur = _Open(state, t, detail, error, run)

    for e in events:
        t, k = e.t, e.type
        if t > bar_end:
            break
        if k not in _WALKED:        # created, sandbox_ready ...: nothing to draw, no message to render
            continue
        msg = _message(e, _) if k != "debug_requested" else ""
        if k == "debug_requested":
            if cur is None:
                cur = _Open("waiting", t, _("added by kubectl debug; waiting to start"))
        elif k == "image_pull_failed":
            switch(t, "waiting", f"{e.reason or 'ErrImagePull'}: {msg}", e)
            marks.append(_RawMarker(lane, "image-pull-failed", t, msg))
        elif k == "backoff":
            state = "backoff" if e.reason == "CrashLoopBackOff" else "waiting"
            switch(t, state, f"{e.reason}: {msg}" if e.reason else msg, e)
        elif k == "started":
            if starts:
                marks.append(_RawMarker(lane, "restart", t, _("restart #{n}").format(n=e.restart_count or starts)))
            starts += 1
            pending_poststart = c.post_start is not None and c.role != "ephemeral"
            pending_startup = c.startup_probe is not None
            state = "starting" if (pending_poststart or pending_startup) else "running"
            switch(t, state, msg, e)
            if cur is not None:
                cur.assumed_run = _assumption(report, c.name, e, _) if e.assumed else ""
        elif k == "poststart_done":
            pending_poststart = False
            marks.append(_RawMarker(lane, "poststart", t, msg, assumed=e.assumed))
            if cur is not None and cur.state == "starting" and not pending_startup:
                switch(t, "running", cur.detail, e)
        elif k == "startup_probe_ok":
            pending_startup = False
            marks.append(_RawMarker(lane, "startup-ok", t, msg))
            if cur is not None and cur.state == "starting" and not pending_poststart:
                switch(t, "running", cur.detail, e)
        elif k == "ready":
            if cur is not None and cur.state in ("running", "starting"):
                switch(t, "ready", msg, e)
        elif k == "not_ready":
            if cur is not None and cur.state == "ready":
                switch(t, "running", msg, e)
        elif k in ("startup_probe_failed", "liveness_failed"):
            kind = "startup-failed" if k == "startup_probe_failed" else "liveness-failed"
            marks.append(_RawMarker(lane, kind, t, msg))
        elif k == "prestop_started":
            switch(t, "terminating", _("preStop hook: {m}").format(m=msg), e)
        elif k == "prestop_done":
            detail = _("preStop hook done; SIGTERM comes in its turn")
            if e.reason:
                detail = f"{e.reason}: {msg}"
            switch(t, "terminating", detail, e)
        elif k == "terminating":
            marks.append(_RawMarker(lane, "sigterm", t, msg))
            switch(t, "terminating", _("SIGTERM sent: {m}").format(m=msg), e)
        elif k == "killed":
            marks.append(_RawMarker(lane, "sigkill", t, msg))
        elif k == "exited":
            code = e.exit_code if e.exit_code is not None else 0
            text = _("exit code {code} ({reason}): {m}").format(code=code, reason=e.reason or "", m=msg)
            marks.append(_RawMarker(lane, "exit", t, text, label=str(code), assumed=e.assumed))
            switch(t, "exited", text, e, error=code != 0)
        elif k == "image_updated":
            marks.append(_RawMarker(lane, "image-updated", t, msg))
    close(bar_end, None)
    return bars, marks
