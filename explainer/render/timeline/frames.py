"""The state of the Pod at each moment of a simulation: what the timeline's cursor reports.

`timeline.frames` walks the events once and snapshots, after every instant at which something
happens, each container's state, the Pod's phase, kubectl STATUS/READY, the conditions and what
the kubelet is doing, as sentences in the reader's language.  The page embeds the result as JSON
(a `<script type="application/json">` block, never executed) and the browser script shows the
frame at the cursor: the state between two instants is the state after the first one.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from explainer.lifecycle.kubelet.trace import StatusPoint, TraceEvent
from .model import Gettext, TimelineLayout, _condition_text, _identity, _secs, _state_labels
from .walk import _debug_names, _event_container, lane_containers
from . import observed as observed_row
from . import traffic as traffic_row

if TYPE_CHECKING:
    from explainer.explain import PodReport


@dataclass(slots=True)
class _State:
    state: str = "waiting"       # one of timeline_model.STATES, plus "absent" (ephemeral not yet added)
    ready: bool = False
    restarts: int = 0
    exit_code: int | None = None
    reason: str = ""
    pending_hook: bool = False   # postStart still running
    pending_startup: bool = False
    prestop: bool = False        # its preStop hook is running
    until: float | None = None   # back-off: when it starts again; terminating: SIGKILL deadline


_ENDINGS = frozenset({"delete_requested", "deadline_exceeded"})    # the events `_grace_of` reads a grace from


def _grace_of(e: TraceEvent, report: PodReport) -> float | None:
    if e.type == "delete_requested" and e.text is not None and "grace" in e.text.params:
        try:
            return float(e.text.params["grace"])
        except (TypeError, ValueError):
            return None
    if e.type == "deadline_exceeded":
        return float(report.pod.termination_grace_period)
    return None


def _next_start(events: list[tuple[TraceEvent, str | None]], i: int, name: str) -> float | None:
    for e, n in events[i + 1:]:
        if n == name and e.type == "started":
            return e.t
    return None


def _apply(s: _State, e: TraceEvent, c: Any, events: list, i: int, name: str, pod_deadline: float | None) -> None:
    k = e.type
    if k == "debug_requested":
        s.state = "waiting"
    elif k == "image_pull_failed":
        s.state, s.reason = "waiting", e.reason or "ErrImagePull"
    elif k == "backoff":
        s.state = "backoff" if e.reason == "CrashLoopBackOff" else "waiting"
        s.reason, s.ready = e.reason or "", False
        s.until = _next_start(events, i, name)
    elif k == "started":
        s.restarts = e.restart_count or s.restarts
        s.pending_hook = c.post_start is not None and c.role != "ephemeral"
        s.pending_startup = c.startup_probe is not None
        s.state = "starting" if (s.pending_hook or s.pending_startup) else "running"
        s.exit_code, s.reason, s.ready, s.prestop, s.until = None, "", False, False, None
    elif k in ("poststart_done", "startup_probe_ok"):
        if k == "poststart_done":
            s.pending_hook = False
        else:
            s.pending_startup = False
        if s.state == "starting" and not s.pending_hook and not s.pending_startup:
            s.state = "running"
    elif k == "ready":
        s.ready = True
        if s.state == "running":
            s.state = "ready"
    elif k == "not_ready":
        s.ready = False
        if s.state == "ready":
            s.state = "running"
    elif k == "prestop_started":
        s.state, s.prestop, s.until = "terminating", True, pod_deadline
    elif k == "prestop_done":
        s.prestop = False
    elif k == "terminating":
        s.state, s.prestop = "terminating", False
        remaining = e.text.params.get("remaining") if e.text is not None else None
        try:
            s.until = e.t + float(remaining) if remaining is not None else pod_deadline
        except (TypeError, ValueError):
            s.until = pod_deadline
    elif k == "exited":
        s.state, s.ready, s.prestop, s.until = "exited", False, False, None
        s.exit_code, s.reason = (e.exit_code if e.exit_code is not None else 0), e.reason or ""


def timeline_frames(report: PodReport, layout: TimelineLayout, *, gettext: Gettext = _identity) -> dict[str, Any]:
    """JSON-ready data for the browser: the axis, the event times and one frame per instant."""
    _ = gettext
    sim = report.simulation
    if sim is None:
        return {}
    containers = lane_containers(report)
    states = _state_labels(_)
    events = _event_container(sim.events, _debug_names(report))
    waits: dict[str, list[str]] = {}
    for dep in sim.dependencies:
        waits.setdefault(dep.container, []).append(_condition_text(dep.condition, dep.waits_for, _))
    st = {c.name: _State(state="absent" if c.role == "ephemeral" else "waiting") for c in containers}
    spec = {c.name: c for c in containers}
    frames: list[dict[str, Any]] = []
    pod_deadline: float | None = None
    traffic = report.traffic
    extra = traffic_row.frame_times(traffic) if traffic is not None else set()
    seen = observed_row.pieces_of(report, [c.name for c in containers])    # what the cluster shows (issue 23)
    if seen is not None:
        extra |= observed_row.frame_times(seen)
    times = sorted({0.0} | {e.t for e, _n in events} | {p.t for p in sim.timeline} | extra)
    ei = 0
    timeline, pi = sim.timeline, 0
    for t in times:
        if t > layout.view_end + 1e-9:
            break
        while ei < len(events) and events[ei][0].t <= t + 1e-9:
            e, name = events[ei]
            if pod_deadline is None and e.type in _ENDINGS:
                grace = _grace_of(e, report)
                if grace is not None:
                    pod_deadline = e.t + grace
            if name in st and (e.container is not None or e.type == "debug_requested"):
                _apply(st[name], e, spec[name], events, ei, name, pod_deadline)
            ei += 1
        # the status at t: the last point up to t (the times go up: the scan goes on from where it stopped)
        while pi < len(timeline) and timeline[pi].t <= t + 1e-9:
            pi += 1
        point = timeline[pi - 1] if pi else None
        frame = _frame(t, containers, st, point, waits, states, _)
        if traffic is not None:       # the traffic row's state at t (docs/lifecycle-model.md §27)
            frame["facts"] = traffic_row.frame_facts(traffic, t, _)
        if seen is not None:          # the observed lanes at t, and kubectl's last printed columns
            frame["facts"] = frame.get("facts", []) + observed_row.frame_facts(seen, t, _)
        frames.append(frame)
    event_times = sorted({round(e.t, 6) for e, _n in events if e.t <= layout.view_end} | {0.0, layout.view_end}
                         | {t for t in extra if t <= layout.view_end})
    return {
        "end": layout.view_end,
        "events": event_times,
        "knots": [list(k) for k in layout.knots],
        "plotX": layout.plot_x,
        "plotWidth": layout.plot_width,
        "lanes": [{"name": c.name, "role": c.role} for c in containers],
        "frames": frames,
        "text": _ui_text(_),
    }


def _frame(t: float, containers: list, st: dict[str, _State], p: StatusPoint | None, waits: dict[str, list[str]],
           states: dict[str, str], _: Gettext) -> dict[str, Any]:
    rows, brief, doing = [], [], []
    for c in containers:
        s = st[c.name]
        if s.state == "absent":
            continue
        label = states.get(s.state, s.state)
        if s.state == "exited":
            label = _("Exited with code {code}").format(code=s.exit_code) + (f" ({s.reason})" if s.reason else "")
        elif s.state == "waiting" and s.reason:
            label = f"{label} ({s.reason})"
        if s.state == "ready":           # "Running, Ready", as kubectl describe puts it
            label = f"{states['running']}, {states['ready']}"
        short = label + (", " + states["ready"] if s.ready and s.state != "ready" else "")
        row = {"name": c.name, "state": s.state, "label": short, "restarts": s.restarts}
        if s.until is not None and s.state in ("backoff", "terminating"):
            row["until"] = s.until
        rows.append(row)
        brief.append(f"{c.name} {short}")
        doing += _doing(c, s, waits, _)
    pod: dict[str, Any] = {}
    if p is not None:
        pod = {"phase": p.phase, "status": p.status, "ready": p.ready_count, "restarts": p.restarts,
               "conditions": [
                   {"type": "Initialized", "status": p.initialized},
                   {"type": "ContainersReady", "status": _all_ready(p.ready_count)},
                   {"type": "Ready", "status": p.ready}]}
        brief.append(_("Pod {phase} {ready}").format(phase=p.phase, ready=p.ready_count))
    return {"t": t, "containers": rows, "pod": pod, "doing": doing, "text": "; ".join(brief)}


def _all_ready(count: str) -> bool:
    ready, _slash, total = count.partition("/")
    return ready == total and total not in ("", "0")


def _doing(c: Any, s: _State, waits: dict[str, list[str]], _: Gettext) -> list[dict[str, Any]]:
    """What the kubelet is doing about ``c`` (a sentence, and a deadline the script counts down to)."""
    if s.state == "waiting" and not s.restarts and c.name in waits and not s.reason:
        return [{"text": _("{c} waits for {what}").format(c=c.name, what=_(", ").join(waits[c.name]))}]
    if s.state == "starting":
        out = []
        if s.pending_hook:
            out.append({"text": _("postStart hook of {c} running; {c} is not Running until it ends").format(c=c.name)})
        if s.pending_startup:
            out.append({"text": _("waiting for {c}'s startupProbe").format(c=c.name)})
        return out
    if s.state == "terminating":
        text = (_("preStop of {c} running") if s.prestop else _("{c} got SIGTERM, the kubelet waits for it to exit")
                ).format(c=c.name)
        return [{"text": text, "until": s.until}] if s.until is not None else [{"text": text}]
    if s.state == "backoff":
        return [{"text": _("{c} in CrashLoopBackOff: the kubelet restarts it at {t} s").format(
            c=c.name, t=_secs(s.until)) if s.until is not None else
            _("{c} in CrashLoopBackOff").format(c=c.name)}]
    return []


def _ui_text(_: Gettext) -> dict[str, str]:
    """The browser script's words, in the reader's language."""
    return {
        "at": _("{t} s: {state}"), "left": _("{s} s of grace left"),
        "none": _("Nothing to do: the containers run as they are."),
        "cursor": _("Time cursor"), "play": _("Play"), "pause": _("Pause"), "speed": _("Speed"),
        "perEvent": _("One event per second"), "realTime": _("Real time"), "realTime10": _("Real time ×10"),
        "zoomIn": _("Zoom in"), "zoomOut": _("Zoom out"), "reset": _("Reset zoom"),
        "present": _("Presentation mode"), "close": _("Close presentation (Esc)"),
        "state": _("State at the cursor"), "container": _("Container"), "stateCol": _("State"),
        "restarts": _("Restarts"), "pod": _("Pod"), "phase": _("Phase"), "status": _("STATUS"),
        "ready": _("READY"), "conditions": _("Conditions"), "kubelet": _("The kubelet"),
        "help": _("Drag or click on the timeline to move the cursor; ←/→ events, Shift+←/→ 1 s, Home/End, "
                  "Space plays, +/− zoom (or Ctrl+wheel, or drag along the time axis)."),
        "helpTouch": _("Tap or drag on the timeline or its track to move the cursor; + and − zoom."),
        "assumedCaption": _("(an assumed duration)"),
        "dimmed": _("At {t} s the dimmed containers are not running: {names}."),
        "allRunning": _("At {t} s no container is dimmed: each one is running or starting."),
        "more": _("… and {n} more"), "expand": _("Show {n} lanes"), "collapse": _("Hide these lanes"),
        "group_init": _("Init containers and sidecars"), "group_app": _("App containers"),
        "group_ephemeral": _("Ephemeral containers"),
    }
