"""The Gantt timeline of one Pod: geometry in `layout_timeline`, markup in `render_timeline_svg`.

`layout_timeline` turns a simulation into numbers and labels only (lanes, bars, markers, the
Pod status strip, axis ticks, dependency arrows), every coordinate rounded to 0.1 px so that
golden files stay stable.  `render_timeline_svg` draws that layout as a standalone SVG
document: no script, no external reference, every text escaped, light and dark colours.
`timeline_rows` gives the same events as rows for the accessible HTML table.

Every fixed label goes through the ``gettext`` argument (the web layer passes Django's), so
the msgids below are found by `makemessages` through the ``_(...)`` calls.
"""
from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from ..lifecycle.model import Container
from ..lifecycle.trace import TraceEvent

if TYPE_CHECKING:
    from ..explain import PodReport

Gettext = Callable[[str], str]


def _identity(s: str) -> str:
    return s


# ---- geometry constants (px) -------------------------------------------------------------------
MARGIN = 12
LANE_HEIGHT = 22
BAR_INSET = 5                 # a bar fills the lane minus this much above and below
GROUP_GAP = 8                 # between init containers, app containers and ephemeral containers
STRIP_ROW = 18
STRIP_GAP = 3
AXIS_ROW = 20
LEGEND_ROW = 20
GUIDE_ROW = 15
HEADING_ROW = 26
RIGHT_PAD = 56                # room after the last second for exit codes and labels
NAME_MAX = 190                # container names longer than this are cut (full name in the tooltip)
MIN_WIDTH, MAX_WIDTH = 700.0, 4000.0   # the plot area; the page scrolls horizontally
MIN_GAP_PX = 16.0             # the shortest interval between two events gets at least this
FONT = 12.0
SMALL = 10.5

STATES = ("waiting", "starting", "running", "ready", "terminating", "backoff", "exited")
ROLE_ORDER = {"init": 0, "sidecar": 0, "app": 1, "ephemeral": 2}


# ---- the layout --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Lane:
    index: int
    name: str
    role: str                    # init | sidecar | app | ephemeral
    role_label: str
    label: str                   # the name, cut to fit the label column
    y: float
    height: float
    group: int                   # 0 init containers and sidecars, 1 app containers, 2 ephemeral
    tooltip: str


@dataclass(frozen=True, slots=True)
class Bar:
    lane: int
    state: str                   # one of STATES
    t0: float
    t1: float
    x: float
    width: float
    y: float
    height: float
    css_class: str
    tooltip: str
    assumed: bool = False        # its end comes from an assumed duration


@dataclass(frozen=True, slots=True)
class Marker:
    lane: int
    # poststart | startup-ok | startup-failed | liveness-failed | sigterm | sigkill | restart | exit |
    # image-pull-failed | image-updated
    kind: str
    t: float
    x: float                     # where the glyph is drawn (nudged right when glyphs collide)
    y: float                     # the lane's middle
    css_class: str
    tooltip: str
    label: str = ""              # exit code text
    label_x: float | None = None  # None: no room for the label (it stays in the tooltip)
    assumed: bool = False


@dataclass(frozen=True, slots=True)
class StripRow:
    key: str                     # phase | status | ready
    label: str
    y: float
    height: float


@dataclass(frozen=True, slots=True)
class Segment:
    row: str
    value: str
    t0: float
    t1: float
    x: float
    width: float
    y: float
    height: float
    css_class: str
    tooltip: str
    label: str                   # "" when the text does not fit
    transient: bool = False      # a value held for no time at all (drawn as a thin tick)


@dataclass(frozen=True, slots=True)
class Tick:
    t: float
    x: float
    label: str


@dataclass(frozen=True, slots=True)
class Arrow:
    container: str
    waits_for: str
    condition: str
    guaranteed: bool
    points: tuple[tuple[float, float], ...]
    css_class: str
    tooltip: str


@dataclass(frozen=True, slots=True)
class Guide:
    """A Pod-level moment (deleted, sandbox lost, deadline, kubectl debug) across all lanes."""

    kind: str
    t: float
    x: float
    y0: float
    y1: float
    label: str
    label_x: float               # the label's centre (kept inside the chart)
    label_y: float
    css_class: str
    tooltip: str


@dataclass(frozen=True, slots=True)
class LegendItem:
    kind: str                    # bar | assumed | marker | arrow
    key: str                     # the state, marker kind or arrow style
    label: str
    x: float
    y: float
    css_class: str


@dataclass(frozen=True, slots=True)
class TimelineLayout:
    pod: str
    width: float
    height: float
    plot_x: float
    plot_width: float
    px_per_second: float
    view_end: float
    end_time: float
    lanes_top: float
    lanes_bottom: float
    axis_y: float                # baseline of the tick labels above the lanes
    bottom_axis_y: float
    label_x: float               # where the container names start
    role_x: float                # right edge of the role labels
    heading_y: float
    lanes: tuple[Lane, ...]
    bars: tuple[Bar, ...]
    markers: tuple[Marker, ...]
    strip_rows: tuple[StripRow, ...]
    segments: tuple[Segment, ...]
    ticks: tuple[Tick, ...]
    arrows: tuple[Arrow, ...]
    guides: tuple[Guide, ...]
    legend: tuple[LegendItem, ...]
    axis_label: str
    note: str                    # "… continues to 300 s", or why nothing ran
    note_y: float
    simulated: bool


# ---- small helpers -----------------------------------------------------------------------------
def _r(v: float) -> float:
    """Round to 0.1 px; -0.0 becomes 0.0 so that golden files do not flip."""
    v = round(v, 1)
    return 0.0 if v == 0 else v


def _secs(t: float) -> str:
    return f"{t:g}"


def text_width(text: str, size: float = FONT) -> float:
    """A close enough estimate of how wide ``text`` is in a sans-serif font (CJK counts double)."""
    w = 0.0
    for ch in text:
        if unicodedata.east_asian_width(ch) in ("W", "F"):
            w += size
        elif ch in "il.,:;|!'` ":
            w += size * 0.3
        elif ch.isupper() or ch in "mwMW@%":
            w += size * 0.7
        else:
            w += size * 0.56
    return w


def _cut(text: str, max_px: float, size: float = FONT) -> str:
    if text_width(text, size) <= max_px:
        return text
    out = ""
    for ch in text:
        if text_width(out + ch + "…", size) > max_px:
            break
        out += ch
    return out + "…"


def nice_step(seconds_per_px: float, min_px: float = 64.0) -> float:
    """The smallest step of 1, 2, 5 x 10^n seconds whose ticks are at least ``min_px`` apart."""
    want = seconds_per_px * min_px
    exp = math.floor(math.log10(want)) if want > 0 else 0
    for e in (exp, exp + 1):
        for m in (1, 2, 5):
            step = m * 10 ** e
            if step >= want - 1e-12:
                return float(step) if step >= 1 else round(step, 6)
    return float(10 ** (exp + 1))


def _role_labels(_: Gettext) -> dict[str, str]:
    return {"init": _("Init container"), "sidecar": _("Native sidecar"), "app": _("App container"),
            "ephemeral": _("Ephemeral container")}


def _state_labels(_: Gettext) -> dict[str, str]:
    return {"waiting": _("Waiting"), "starting": _("Starting"), "running": _("Running"),
            "ready": _("Ready"), "terminating": _("Terminating"), "backoff": _("Back-off"),
            "exited": _("Exited")}


def _marker_labels(_: Gettext) -> dict[str, str]:
    return {"poststart": _("postStart done"), "startup-ok": _("Startup probe passed"),
            "startup-failed": _("Startup probe failed"), "liveness-failed": _("Liveness probe failed"),
            "sigterm": _("SIGTERM"), "sigkill": _("SIGKILL"), "restart": _("Restart"),
            "exit": _("Exit code"), "image-pull-failed": _("Image pull failed"),
            "image-updated": _("Image updated")}


def _event_labels(_: Gettext) -> dict[str, str]:
    return {
        "sandbox_ready": _("Sandbox ready"), "image_pull_failed": _("Image pull failed"),
        "created": _("Created"), "started": _("Started"), "poststart_done": _("postStart done"),
        "startup_probe_ok": _("Startup probe passed"), "startup_probe_failed": _("Startup probe failed"),
        "ready": _("Ready"), "not_ready": _("Not ready"), "liveness_failed": _("Liveness probe failed"),
        "exited": _("Exited"), "backoff": _("Back-off"), "delete_requested": _("Pod deleted"),
        "prestop_started": _("preStop hook started"), "prestop_done": _("preStop hook done"),
        "terminating": _("SIGTERM"), "killed": _("SIGKILL"), "sandbox_lost": _("Sandbox lost"),
        "deadline_exceeded": _("Deadline exceeded"), "debug_requested": _("kubectl debug"),
        "image_updated": _("Image updated"),
    }


def _condition_text(condition: str, waits_for: str, _: Gettext) -> str:
    texts = {"exit0": _("{c} to exit 0"), "started": _("{c} to start"),
             "startupProbe": _("{c}'s startup probe to pass"), "postStart": _("{c}'s postStart hook to finish"),
             "created": _("{c} to be started")}
    return texts.get(condition, _("{c} to start")).format(c=waits_for)


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


def default_view_end(report: PodReport) -> tuple[float, bool]:
    """(end of the window, whether the simulation goes on after it).

    The simulation's end, unless its last event is much earlier: then the last event plus
    max(10 s, 10 %), rounded up to a whole second.
    """
    sim = report.simulation
    if sim is None:
        return 10.0, False
    last = max([e.t for e in sim.events] + [p.t for p in sim.timeline] + [0.0])
    end = sim.end_time
    cut = float(math.ceil(last + max(10.0, 0.1 * last)))
    if cut < end:
        return cut, True
    return max(end, 1.0), False


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
        msg = _message(e, _)
        if k == "debug_requested":
            if cur is None:
                cur = _Open("waiting", t, _("added by kubectl debug; waiting to start"))
        elif k == "image_pull_failed":
            switch(t, "waiting", f"ErrImagePull: {msg}", e)
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


# ---- layout -----------------------------------------------------------------------------------
def layout_timeline(report: PodReport, *, gettext: Gettext = _identity,
                    view_end: float | None = None, px_per_second: float | None = None) -> TimelineLayout:
    """Geometry of the Gantt chart of ``report``'s simulation: numbers and labels only."""
    _ = gettext
    sim = report.simulation
    containers = lane_containers(report)
    roles, states = _role_labels(_), _state_labels(_)

    auto_end, continues = default_view_end(report)
    if view_end is None:
        view_end = auto_end
    else:
        view_end = max(float(view_end), 0.1)
        continues = sim is not None and view_end < sim.end_time
    end_time = sim.end_time if sim is not None else 0.0
    bar_end = min(view_end, end_time)

    found = _collect(report, containers)
    raw_bars: list[_Raw] = []
    raw_marks: list[_RawMarker] = []
    deps = sim.dependencies if sim is not None else []
    if sim is not None:
        waits: dict[str, list[str]] = {}
        for dep in deps:
            if dep.guaranteed:
                waits.setdefault(dep.container, []).append(_condition_text(dep.condition, dep.waits_for, _))
        for i, c in enumerate(containers):
            why = _("waiting for {what}").format(what=_(", ").join(waits[c.name])) if c.name in waits \
                else _("waiting to be started")
            b, m = _walk(report, i, c, found.lane_events[i], found.requested_at.get(i), why, bar_end, _)
            raw_bars += b
            raw_marks += m

    # horizontal: the label column, then the plot
    # a caller drawing several charts on one axis (compare) passes one scale for all
    pps = px_per_second or _scale(report, found.lane_events, raw_marks, view_end, bar_end)
    plot_w = _r(pps * view_end)
    name_w = min(max([text_width(c.name) for c in containers] + [text_width(_("Status")), 40.0]), NAME_MAX)
    role_w = max([text_width(roles[c.role], SMALL) for c in containers] + [text_width(_("seconds"), SMALL)])
    label_x = MARGIN + 8
    role_x = _r(label_x + name_w + 14 + role_w)
    plot_x = _r(role_x + 14)
    right_edge = plot_x + plot_w + RIGHT_PAD
    width = _r(right_edge)

    def x_of(t: float) -> float:
        return _r(plot_x + min(max(t, 0.0), view_end) * pps)

    # vertical: heading, legend, note, guide labels, strip, axis, lanes, axis
    y = float(MARGIN)
    heading_y = y + 16
    y += HEADING_ROW
    legend, y = _legend(raw_marks, deps, y, width, _)
    note = ""
    if sim is None:
        note = _("This Pod is not simulated: the API server would reject it, so it never runs.")
    elif continues:
        quiet = view_end >= max((e.t for e in sim.events), default=0.0)
        note = (_("… continues to {end} s (no further events)") if quiet
                else _("… continues to {end} s")).format(end=_secs(end_time))
    note_y = _r(y + 10) if note else 0.0
    y += 18 if note else 0

    guide_labels = {"delete_requested": ("deleted", _("Pod deleted")), "sandbox_lost": ("lost", _("Sandbox lost")),
                    "deadline_exceeded": ("deadline", _("Deadline exceeded")),
                    "debug_requested": ("debug", _("kubectl debug"))}
    placed, n_rows = _guide_rows([(e, *guide_labels[e.type]) for e in found.pod_events
                                  if e.type in guide_labels and e.t <= view_end], x_of, plot_x, right_edge)
    guides_top = y
    y += GUIDE_ROW * n_rows

    strip_rows = []
    strip_top = y
    for key, label in (("phase", _("Phase")), ("status", _("Status")), ("ready", _("Ready"))):
        strip_rows.append(StripRow(key, label, _r(y), STRIP_ROW))
        y += STRIP_ROW + STRIP_GAP
    segments = _strip_segments(sim.timeline, strip_rows, view_end, bar_end, x_of, _) if sim is not None else []
    y += 4
    axis_y = _r(y + 12)
    y += AXIS_ROW

    lanes: list[Lane] = []
    lanes_top = y
    for i, c in enumerate(containers):
        group = ROLE_ORDER[c.role]
        if lanes and group != lanes[-1].group:
            y += GROUP_GAP
        tip = f"{c.name}\n{roles[c.role]}\n{c.image}"
        if c.target:
            tip += "\n" + _("target: {c}").format(c=c.target)
        lanes.append(Lane(i, c.name, c.role, roles[c.role], _cut(c.name, NAME_MAX), _r(y), LANE_HEIGHT, group,
                          tip))
        y += LANE_HEIGHT
    lanes_bottom = y
    bottom_axis_y = _r(y + 16)
    y += 4 + AXIS_ROW + MARGIN

    bars = [_bar(rb, lanes[rb.lane], x_of, states, _) for rb in raw_bars]
    bars = [b for b in bars if b is not None]
    markers = _place_markers(raw_marks, lanes, bars, x_of, right_edge, _marker_labels(_))
    arrows = _arrows(deps, found.by_name, lanes, found.first, x_of, view_end, _)
    guides = tuple(
        Guide(kind, e.t, x, _r(strip_top - 2), _r(lanes_bottom), label, label_x,
              _r(guides_top + GUIDE_ROW * row + 11), f"tl-guide tl-guide-{kind}",
              f"{label} · {_secs(e.t)} s\n{_message(e, _)}")
        for e, kind, label, x, label_x, row in placed)
    step = nice_step(1 / pps)
    ticks = tuple(Tick(round(n * step, 6), x_of(n * step), _secs(round(n * step, 6)))
                  for n in range(int(view_end / step + 1e-9) + 1))

    return TimelineLayout(
        pod=report.pod.name, width=width, height=_r(y), plot_x=plot_x, plot_width=plot_w, px_per_second=pps,
        view_end=view_end, end_time=end_time, lanes_top=_r(lanes_top), lanes_bottom=_r(lanes_bottom),
        axis_y=axis_y, bottom_axis_y=bottom_axis_y, label_x=float(label_x), role_x=role_x,
        heading_y=heading_y, lanes=tuple(lanes), bars=tuple(bars), markers=tuple(markers),
        strip_rows=tuple(strip_rows), segments=tuple(segments), ticks=ticks, arrows=tuple(arrows),
        guides=guides, legend=tuple(legend), axis_label=_("seconds"), note=note, note_y=note_y,
        simulated=sim is not None)


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
    for e, name in _event_container(report.simulation.events, _debug_names(report)):
        if e.container is None:
            found.pod_events.append(e)
        if name in by_name and (e.container is not None or e.type == "debug_requested"):
            found.lane_events[by_name[name]].append(e)
            if e.type == "debug_requested":
                found.requested_at.setdefault(by_name[name], e.t)
        if name is not None:
            found.first.setdefault((name, "exit0" if e.type == "exited" and e.exit_code == 0 else e.type), e)
    return found


def _scale(report: PodReport, lane_events: list[list[TraceEvent]], marks: list[_RawMarker], view_end: float,
           bar_end: float) -> float:
    """Pixels per second: enough that the closest two moments are MIN_GAP_PX apart and that the
    glyphs and exit code of one moment fit before the lane's next moment, within the width limits."""
    need = MIN_WIDTH / view_end
    sim = report.simulation
    if sim is not None:
        times = sorted({e.t for e in sim.events if e.t <= view_end} | {p.t for p in sim.timeline if p.t <= view_end}
                       | {0.0, bar_end})
        for a, b in zip(times, times[1:]):
            if b - a > 1e-6:
                need = max(need, MIN_GAP_PX / max(b - a, 0.05))
        px: dict[tuple[int, float], float] = {}
        for m in marks:
            extra = text_width(m.label, SMALL) + 6 if m.kind == "exit" else _GLYPH
            px[(m.lane, m.t)] = px.get((m.lane, m.t), 4.0) + extra
        for lane, events in enumerate(lane_events):
            ts = sorted({e.t for e in events if e.t <= bar_end} | {bar_end})
            for a, b in zip(ts, ts[1:]):
                if (lane, a) in px and b - a > 1e-6:
                    need = max(need, px[(lane, a)] / max(b - a, 0.05))
    return min(round(need, 3), math.floor(MAX_WIDTH / view_end * 1000) / 1000)


def _legend(marks: list[_RawMarker], deps: list, y: float, width: float,
            _: Gettext) -> tuple[list[LegendItem], float]:
    """Every bar state and the assumed pattern; the markers and arrow styles that occur."""
    states, mlabels = _state_labels(_), _marker_labels(_)
    entries: list[tuple[str, str, str, str]] = [("bar", s, states[s], f"tl-{s}") for s in STATES]
    entries.append(("assumed", "assumed", _("Assumed duration"), "tl-assumed"))
    present = {"probe-failed" if m.kind in ("startup-failed", "liveness-failed") else m.kind for m in marks}
    for k in ("poststart", "startup-ok", "probe-failed", "sigterm", "sigkill", "restart", "exit",
              "image-pull-failed", "image-updated"):
        if k in present:
            entries.append(("marker", k, _("Probe failed") if k == "probe-failed" else mlabels[k], f"tl-m-{k}"))
    for g in sorted({d.guaranteed for d in deps}, reverse=True):
        entries.append(("arrow", "guaranteed" if g else "ordered",
                        _("Waits for (guaranteed)") if g else _("Waits for (kubelet order, not guaranteed)"),
                        "tl-arrow" if g else "tl-arrow tl-dashed"))
    limit = MARGIN + max(min(width - 2 * MARGIN, 1100.0), 400.0)
    items: list[LegendItem] = []
    lx, ly = float(MARGIN), y
    for kind, key, label, css in entries:
        w = 20 + text_width(label, SMALL) + 16
        if lx + w > limit and lx > MARGIN:
            lx, ly = float(MARGIN), ly + LEGEND_ROW
        items.append(LegendItem(kind, key, label, _r(lx), _r(ly), css))
        lx += w
    return items, ly + LEGEND_ROW + 4


def _guide_rows(raw: list[tuple[TraceEvent, str, str]], x_of: Callable[[float], float], plot_x: float,
                right_edge: float) -> tuple[list[tuple[TraceEvent, str, str, float, float, int]], int]:
    """Give each guide label a row above the strip so that labels never overlap."""
    rows_end: list[float] = []
    placed = []
    for e, kind, label in raw:
        x = x_of(e.t)
        w = text_width(label, SMALL)
        left = max(min(x - w / 2, right_edge - w - 2), plot_x)
        row = next((i for i, r in enumerate(rows_end) if r + 6 <= left), len(rows_end))
        if row == len(rows_end):
            rows_end.append(0.0)
        rows_end[row] = left + w
        placed.append((e, kind, label, x, _r(left + w / 2), row))
    return placed, len(rows_end)


def _bar(rb: _Raw, lane: Lane, x_of: Callable[[float], float], states: dict[str, str], _: Gettext) -> Bar | None:
    x0, x1 = x_of(rb.t0), x_of(rb.t1)
    if x1 - x0 < 0.1:
        return None
    inset = BAR_INSET + (3 if rb.state == "exited" else 0)     # after the exit: a thinner bar
    css = f"tl-bar tl-{rb.state}" + (" tl-error" if rb.error else "")
    tip = f"{lane.name} · {states[rb.state]} · {_secs(rb.t0)}–{_secs(rb.t1)} s"
    if rb.detail:
        tip += "\n" + rb.detail
    if rb.assumed or rb.why_assumed:
        tip += f"\n({_('assumed')}" + (f": {rb.why_assumed})" if rb.why_assumed else ")")
    return Bar(rb.lane, rb.state, rb.t0, rb.t1, x0, _r(x1 - x0), _r(lane.y + inset),
               _r(LANE_HEIGHT - 2 * inset), css, tip, rb.assumed)


def _status_class(status: str) -> str:
    if status in ("Running", "NotReady"):
        return "run"
    if status == "Terminating":
        return "term"
    if status in ("Completed", "Succeeded"):
        return "done"
    if any(w in status for w in ("Error", "BackOff", "ErrImage", "Deadline", "Failed", "OOM", "Invalid")):
        return "bad"
    if status.startswith("Init:") or status in ("PodInitializing", "ContainerCreating", "Pending"):
        return "wait"
    return "other"


def _strip_segments(timeline, rows: list[StripRow], view_end: float, bar_end: float,
                    x_of: Callable[[float], float], _: Gettext) -> list[Segment]:
    """Merge the status points into segments per row; values held for no time become ticks."""
    row = {r.key: r for r in rows}
    out: list[Segment] = []
    pts = [p for p in timeline if p.t <= view_end]
    values = {
        "phase": lambda p: p.phase,
        "status": lambda p: p.status,
        "ready": lambda p: "True" if p.ready else "False",
    }
    phases = ("Pending", "Running", "Succeeded", "Failed")
    css = {
        "phase": lambda v: f"tl-seg tl-phase-{v.lower() if v in phases else 'unknown'}",
        "status": lambda v: f"tl-seg tl-status-{_status_class(v)}",
        "ready": lambda v: f"tl-seg tl-ready-{v.lower()}",
    }
    names = {"phase": _("Phase"), "status": _("Status"), "ready": _("Ready")}
    for key, get in values.items():
        r = row[key]
        runs: list[list[Any]] = []        # [value, t0, t1, extra]
        for i, p in enumerate(pts):
            v = get(p)
            t1 = pts[i + 1].t if i + 1 < len(pts) else bar_end
            extra = f"READY {p.ready_count}, RESTARTS {p.restarts}" if key == "status" else ""
            if runs and runs[-1][0] == v and runs[-1][2] >= p.t - 1e-9:
                runs[-1][2] = max(runs[-1][2], t1)
                if extra and extra not in runs[-1][3]:
                    runs[-1][3].append(extra)
            else:
                runs.append([v, p.t, t1, [extra] if extra else []])
        blips: list[list[Any]] = []       # values held for no time, grouped by x: [x, t, values]
        for v, t0, t1, extra in runs:
            x0, x1 = x_of(t0), x_of(t1)
            if x1 - x0 < 0.1:
                if blips and blips[-1][0] == x0:
                    blips[-1][2].append(v)
                else:
                    blips.append([x0, t0, [v]])
                continue
            tip = _("{row}: {value} from {t0} s to {t1} s").format(row=names[key], value=v, t0=_secs(t0),
                                                                     t1=_secs(t1))
            if extra:
                tip += "\n" + "; ".join(extra)
            label = v if text_width(v, SMALL) + 8 <= x1 - x0 else ""
            out.append(Segment(key, v, t0, t1, x0, _r(x1 - x0), _r(r.y), r.height, css[key](v), tip, label))
        for x0, t0, vs in blips:
            value = " → ".join(vs)
            at_end = t0 >= bar_end
            tip = (_("{row}: {value} at {t} s") if at_end else _("{row}: {value} at {t} s (momentarily)")).format(
                row=names[key], value=value, t=_secs(t0))
            cls = next((css[key](v) for v in vs if "-bad" in css[key](v) or "-failed" in css[key](v)),
                       css[key](vs[-1]))
            out.append(Segment(key, value, t0, t0, _r(x0 - 1), 2.0, _r(r.y), r.height, cls + " tl-blip", tip, "",
                               True))
    return out


_GLYPH = 9.0   # the width a marker glyph takes; colliding glyphs are moved right by this much


def _place_markers(raw: list[_RawMarker], lanes: list[Lane], bars: list[Bar], x_of: Callable[[float], float],
                   right_edge: float, labels: dict[str, str]) -> list[Marker]:
    """Glyphs on each lane's middle; glyphs at the same place move right; exit codes get a label
    when there is room before the lane's next change."""
    starts: dict[int, list[float]] = {}
    for b in bars:
        starts.setdefault(b.lane, []).append(b.x)
    out: list[Marker] = []
    used: dict[int, float | None] = {}   # per lane: right edge of the last glyph or label at last_x
    last_x: dict[int, float] = {}
    # at one instant the glyphs come first, then the exit code after them
    for m in sorted(raw, key=lambda m: (m.lane, m.t, m.kind == "exit")):
        lane = lanes[m.lane]
        x = x_of(m.t)
        if last_x.get(m.lane) != x:
            used[m.lane] = None
        last_x[m.lane] = x
        taken = used[m.lane]
        mid = _r(lane.y + lane.height / 2)
        title = f"{lane.name} · {labels[m.kind]} · {_secs(m.t)} s"
        if m.tooltip:
            title += "\n" + m.tooltip
        if m.kind == "exit":
            # the tick at the exact moment; the code right of it if it fits before the next change
            lx = x + 3 if taken is None else max(x + 3, taken + 2)
            nxt = min([s for s in starts.get(m.lane, []) if s > x + 0.05] + [right_edge])
            w = text_width(m.label, SMALL) + 2
            label_x = _r(lx) if lx + w <= nxt else None
            if label_x is not None:
                used[m.lane] = lx + w
            cls = "tl-m-exit" + (" tl-m-exit-error" if m.label != "0" else "")
            out.append(Marker(m.lane, m.kind, m.t, x, mid, cls + (" tl-m-assumed" if m.assumed else ""), title,
                              m.label, label_x, m.assumed))
            continue
        gx = x if taken is None else max(x, taken + _GLYPH / 2)
        used[m.lane] = gx + _GLYPH / 2
        kind_cls = "probe-failed" if m.kind in ("startup-failed", "liveness-failed") else m.kind
        out.append(Marker(m.lane, m.kind, m.t, _r(gx), mid,
                          f"tl-m tl-m-{kind_cls}" + (" tl-m-assumed" if m.assumed else ""), title, "", None,
                          m.assumed))
    return out


def _arrows(deps, by_name: dict[str, int], lanes: list[Lane], first: dict[tuple[str, str], TraceEvent],
            x_of: Callable[[float], float], view_end: float, _: Gettext) -> list[Arrow]:
    moment = {"exit0": ("exit0",), "started": ("started",), "startupProbe": ("startup_probe_ok",),
              "postStart": ("poststart_done",), "created": ("created", "started")}
    out = []
    for dep in deps:
        if dep.container not in by_name or dep.waits_for not in by_name:
            continue
        src = next((first[(dep.waits_for, k)] for k in moment.get(dep.condition, ("started",))
                    if (dep.waits_for, k) in first), None)
        dst = first.get((dep.container, "started"))
        if src is None or dst is None or dst.t > view_end:
            continue
        a, b = lanes[by_name[dep.waits_for]], lanes[by_name[dep.container]]
        x0, x1 = x_of(src.t), x_of(dst.t)
        down = b.y > a.y
        y0 = _r(a.y + (LANE_HEIGHT - BAR_INSET if down else BAR_INSET))
        if x1 - x0 < 6:
            y1 = _r(b.y + (BAR_INSET if down else LANE_HEIGHT - BAR_INSET))
            points: tuple[tuple[float, float], ...] = ((x0, y0), (x0, y1))
        else:
            ym = _r(b.y + LANE_HEIGHT / 2)
            points = ((x0, y0), (x0, ym), (x1, ym))
        what = _condition_text(dep.condition, dep.waits_for, _)
        tip = _("{c} waits for {what}").format(c=dep.container, what=what)
        tip += "\n" + (_("guaranteed by the Kubernetes API") if dep.guaranteed
                       else _("what the kubelet does, not guaranteed by the API"))
        tip += "\n" + f"{_secs(src.t)} s → {_secs(dst.t)} s"
        out.append(Arrow(dep.container, dep.waits_for, dep.condition, dep.guaranteed, points,
                         "tl-arrow" if dep.guaranteed else "tl-arrow tl-dashed", tip))
    return out


# ---- the accessible table --------------------------------------------------------------------
def timeline_rows(report: PodReport, *, gettext: Gettext = _identity) -> list[dict[str, Any]]:
    """The events as table rows: t, container, role, event, detail (plus labels and flags)."""
    _ = gettext
    sim = report.simulation
    if sim is None:
        return []
    roles = {c.name: c.role for c in lane_containers(report)}
    role_labels = _role_labels(_)
    events = _event_labels(_)
    out = []
    for e, name in _event_container(sim.events, _debug_names(report)):
        parts = []
        if e.reason:
            parts.append(e.reason)
        if e.exit_code is not None and e.type == "exited":
            parts.append(_("exit code {code}").format(code=e.exit_code))
        if e.message:
            parts.append(_message(e, _))
        detail = " · ".join(parts)
        if e.assumed:
            detail += f" ({_('assumed')})"
        role = roles.get(name or "", "") if e.container is not None or e.type == "debug_requested" else ""
        out.append({
            "t": e.t,
            "container": name or "",
            "role": role,
            "role_label": role_labels.get(role, ""),
            "event": e.type,
            "event_label": events.get(e.type, e.type),
            "detail": detail,
            "assumed": e.assumed,
            "restart_count": e.restart_count,
            "exit_code": e.exit_code,
        })
    return out


# ---- the SVG ----------------------------------------------------------------------------------
_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _t(s: object) -> str:
    """Escape text content (and drop characters XML 1.0 cannot hold)."""
    return escape(_INVALID_XML.sub("\ufffd", str(s)))


def _q(s: object) -> str:
    """A double-quoted attribute value."""
    return '"' + escape(_INVALID_XML.sub("\ufffd", str(s)), {'"': "&quot;", "\n": "&#10;", "\t": "&#9;"}) + '"'


def _n(v: float) -> str:
    s = f"{v:.1f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


_STYLE = """
.tl-root{font-size:12px;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",
 "Noto Sans CJK SC","PingFang SC","Microsoft YaHei",sans-serif}
.tl-bg{fill:#ffffff}
.tl-text{fill:#1f2937}
.tl-head{fill:#111827;font-size:14px;font-weight:600}
.tl-small{font-size:10.5px}
.tl-muted{fill:#6b7280}
.tl-zebra{fill:#f5f6f8}
.tl-sep{stroke:#d1d5db;stroke-width:1}
.tl-grid{stroke:#e5e7eb;stroke-width:1}
.tl-axis{stroke:#9ca3af;stroke-width:1}
.tl-bar{stroke:none}
.tl-waiting{fill:#e2e5ea}
.tl-starting{fill:#f3d48e}
.tl-running{fill:#9fc2e9}
.tl-ready{fill:#8bcaa3}
.tl-terminating{fill:#f1b27e}
.tl-backoff{fill:#eda4a4}
.tl-exited{fill:#cfd6df}
.tl-exited.tl-error{fill:#f0c0c0}
.tl-assumed{stroke:#4b5563;stroke-width:1;stroke-dasharray:3 2}
.tl-hatch{stroke:#1f2937;stroke-opacity:.35;stroke-width:1.2}
.tl-role-init{fill:#8d84cc}
.tl-role-sidecar{fill:#3ea69d}
.tl-role-app{fill:#4f80cf}
.tl-role-ephemeral{fill:#c98a3e}
.tl-seg{stroke:#ffffff;stroke-width:1}
.tl-seg-text{fill:#1f2937;font-size:10.5px}
.tl-phase-pending,.tl-status-wait{fill:#ede3c6}
.tl-phase-running,.tl-status-run{fill:#c6daf2}
.tl-phase-succeeded,.tl-status-done{fill:#c4e5d1}
.tl-phase-failed,.tl-status-bad{fill:#f2c6c6}
.tl-status-term{fill:#f6d5b8}
.tl-phase-unknown,.tl-status-other,.tl-ready-false{fill:#e5e7eb}
.tl-ready-true{fill:#8bcaa3}
.tl-blip{stroke:none;fill:#6b7280}
.tl-blip.tl-status-bad,.tl-blip.tl-phase-failed{fill:#c0392b}
.tl-m-poststart{fill:#0f766e}
.tl-m-startup-ok{fill:#2f8f57}
.tl-m-probe-failed{stroke:#c0392b;stroke-width:2;fill:none}
.tl-m-sigterm{fill:#d97a1e}
.tl-m-sigkill{fill:#9f1239}
.tl-m-restart{stroke:#6d4fc2;stroke-width:1.8;fill:none}
.tl-m-image-pull-failed{stroke:#c0392b;stroke-width:1.5;fill:#ffffff}
.tl-m-image-updated{stroke:#1d4ed8;stroke-width:1.5;fill:#ffffff}
.tl-m-exit{stroke:#374151;stroke-width:1.5}
.tl-m-exit-error{stroke:#b42318}
.tl-m-assumed{stroke-dasharray:2 1.5}
.tl-exit-text{fill:#374151;font-size:10px;font-weight:600}
.tl-exit-text.tl-error{fill:#b42318}
.tl-arrow{stroke:#334155;stroke-width:1.3;fill:none;opacity:.8}
.tl-dashed{stroke-dasharray:4 3}
.tl-arrow-head{fill:#334155;opacity:.8}
.tl-guide{stroke:#b42318;stroke-width:1.2;stroke-dasharray:5 4;opacity:.75}
.tl-guide-debug{stroke:#a16207}
.tl-guide-text{fill:#b42318;font-size:10.5px;font-weight:600}
.tl-guide-text.tl-guide-debug{fill:#a16207;stroke:none}
.tl-note{fill:#6b7280;font-size:11px;font-style:italic}
@media (prefers-color-scheme: dark){
.tl-bg{fill:#111827}
.tl-text,.tl-seg-text{fill:#e5e7eb}
.tl-head{fill:#f9fafb}
.tl-muted,.tl-note{fill:#9ca3af}
.tl-zebra{fill:#172033}
.tl-sep{stroke:#374151}
.tl-grid{stroke:#1f2937}
.tl-axis{stroke:#6b7280}
.tl-waiting{fill:#374151}
.tl-starting{fill:#8a6d1f}
.tl-running{fill:#2f5f96}
.tl-ready{fill:#2e7a52}
.tl-terminating{fill:#9a5424}
.tl-backoff{fill:#8f3535}
.tl-exited{fill:#4b5563}
.tl-exited.tl-error{fill:#6b2c2c}
.tl-assumed{stroke:#d1d5db}
.tl-hatch{stroke:#f9fafb;stroke-opacity:.4}
.tl-seg{stroke:#111827}
.tl-phase-pending,.tl-status-wait{fill:#5b4e26}
.tl-phase-running,.tl-status-run{fill:#27466e}
.tl-phase-succeeded,.tl-status-done{fill:#25563b}
.tl-phase-failed,.tl-status-bad{fill:#6b2c2c}
.tl-status-term{fill:#7a4420}
.tl-phase-unknown,.tl-status-other,.tl-ready-false{fill:#374151}
.tl-ready-true{fill:#2e7a52}
.tl-blip{fill:#9ca3af}
.tl-blip.tl-status-bad,.tl-blip.tl-phase-failed{fill:#f87171}
.tl-m-poststart{fill:#5eead4}
.tl-m-startup-ok{fill:#86efac}
.tl-m-probe-failed{stroke:#f87171}
.tl-m-sigterm{fill:#fbbf24}
.tl-m-sigkill{fill:#fb7185}
.tl-m-restart{stroke:#c4b5fd}
.tl-m-image-pull-failed{stroke:#f87171;fill:#111827}
.tl-m-image-updated{stroke:#93c5fd;fill:#111827}
.tl-m-exit{stroke:#d1d5db}
.tl-m-exit-error{stroke:#f87171}
.tl-exit-text{fill:#e5e7eb}
.tl-exit-text.tl-error{fill:#fca5a5}
.tl-arrow{stroke:#cbd5e1}
.tl-arrow-head{fill:#cbd5e1}
.tl-guide{stroke:#f87171}
.tl-guide-debug{stroke:#fbbf24}
.tl-guide-text{fill:#fca5a5}
.tl-guide-text.tl-guide-debug{fill:#fbbf24}
}
"""


def _glyph(kind: str, x: float, y: float, css: str) -> str:
    """The shape of a marker, centred on (x, y)."""
    c = _q(css)
    if kind == "poststart":          # diamond
        return f'<path class={c} d="M{_n(x)} {_n(y - 4.5)}l4.5 4.5l-4.5 4.5l-4.5-4.5z"/>'
    if kind == "startup-ok":         # dot
        return f'<circle class={c} cx="{_n(x)}" cy="{_n(y)}" r="3.8"/>'
    if kind in ("startup-failed", "liveness-failed", "probe-failed"):   # cross
        return f'<path class={c} d="M{_n(x - 3.5)} {_n(y - 3.5)}l7 7m0-7l-7 7"/>'
    if kind == "sigterm":            # triangle pointing down
        return f'<path class={c} d="M{_n(x - 4.5)} {_n(y - 4)}h9l-4.5 8z"/>'
    if kind == "sigkill":            # square
        return f'<rect class={c} x="{_n(x - 3.8)}" y="{_n(y - 3.8)}" width="7.6" height="7.6"/>'
    if kind == "restart":            # open arc with a head: a circular arrow
        return (f'<path class={c} d="M{_n(x + 3.6)} {_n(y - 1.2)}a3.8 3.8 0 1 1-1.4-2.6"/>'
                f'<path class={c} d="M{_n(x + 0.4)} {_n(y - 4.8)}l2.4 1.2l-1.2 2.4"/>')
    if kind in ("image-pull-failed", "image-updated"):   # small open square
        return f'<rect class={c} x="{_n(x - 3.5)}" y="{_n(y - 3.5)}" width="7" height="7" rx="1.5"/>'
    if kind == "exit":
        return f'<path class={c} d="M{_n(x)} {_n(y - 6)}v12"/>'
    return ""


def _arrow_head(points: tuple[tuple[float, float], ...], css: str) -> str:
    (xa, ya), (xb, yb) = points[-2], points[-1]
    if abs(xb - xa) < 0.05:          # vertical
        s = 1 if yb > ya else -1
        return (f'<path class={_q(css)} d="M{_n(xb)} {_n(yb)}l-3.5 {_n(-6 * s)}h7z"/>')
    s = 1 if xb > xa else -1
    return f'<path class={_q(css)} d="M{_n(xb)} {_n(yb)}l{_n(-6 * s)}-3.5v7z"/>'


def _svg_id(report: PodReport) -> str:
    src = getattr(report.pod, "source", None)
    key = f"{report.pod.name}/{getattr(src, 'document', 0)}"
    return "tl" + hashlib.sha1(key.encode("utf-8")).hexdigest()[:8]


def render_timeline_svg(report: PodReport, *, gettext: Gettext = _identity, title: str | None = None,
                        view_end: float | None = None, px_per_second: float | None = None) -> str:
    """A standalone SVG document of the Gantt chart (inline it in a page, or serve it as image/svg+xml).

    No script and no external reference; every text is escaped; hover details are <title>s.
    """
    _ = gettext
    lay = layout_timeline(report, gettext=gettext, view_end=view_end, px_per_second=px_per_second)
    sid = _svg_id(report)
    hatch = f"url(#{sid}-hatch)"
    sim = report.simulation
    heading = title if title is not None else _("Timeline of Pod {pod}").format(pod=lay.pod)
    if sim is not None:
        desc = _("{n} containers, simulated from 0 to {end} s. Shown: 0 to {view} s.").format(
            n=len(lay.lanes), end=_secs(sim.end_time), view=_secs(lay.view_end))
        if sim.timeline:
            last = sim.timeline[-1]
            desc += " " + _("At the end the Pod is {phase} and kubectl shows {status}.").format(
                phase=last.phase, status=last.status)
    else:
        desc = lay.note
    w, h = _n(lay.width), _n(lay.height)
    o: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}"'
        f' class="tl-root" role="img" aria-labelledby="{sid}-title {sid}-desc">',
        f'<title id="{sid}-title">{_t(heading)}</title>',
        f'<desc id="{sid}-desc">{_t(desc)}</desc>',
        f"<style>{_STYLE}</style>",
        f'<defs><pattern id="{sid}-hatch" width="6" height="6" patternUnits="userSpaceOnUse"'
        ' patternTransform="rotate(45)"><path class="tl-hatch" d="M0 0v6"/></pattern></defs>',
        f'<rect class="tl-bg" width="{w}" height="{h}"/>',
        f'<text class="tl-head" x="{MARGIN}" y="{_n(lay.heading_y)}">{_t(heading)}</text>',
    ]
    o += _svg_legend(lay, hatch)
    if lay.note:
        o.append(f'<text class="tl-note" x="{_n(lay.plot_x)}" y="{_n(lay.note_y)}">{_t(lay.note)}</text>')
    o += _svg_background(lay)
    o += _svg_strip(lay)
    o += _svg_lanes(lay, hatch)
    o.append("</svg>")
    return "\n".join(o) + "\n"


def _svg_legend(lay: TimelineLayout, hatch: str) -> list[str]:
    o = ['<g class="tl-legend">']
    for item in lay.legend:
        x, y = item.x, item.y
        cy = y + 7
        box = f'x="{_n(x)}" y="{_n(y + 1)}" width="14" height="11" rx="2"'
        if item.kind == "bar":
            o.append(f'<rect class="tl-bar {item.css_class}" {box}/>')
        elif item.kind == "assumed":
            o.append(f'<rect class="tl-bar tl-ready" {box}/><rect class="tl-assumed" {box} fill="{hatch}"/>')
        elif item.kind == "marker" and item.key == "exit":
            o.append(_glyph("exit", x + 3, cy, "tl-m-exit"))
            o.append(f'<text class="tl-exit-text" x="{_n(x + 6)}" y="{_n(cy + 3.5)}">0</text>')
        elif item.kind == "marker":
            o.append(_glyph(item.key, x + 7, cy, f"tl-m tl-m-{item.key}"))
        elif item.kind == "arrow":
            o.append(f'<path class={_q(item.css_class)} d="M{_n(x)} {_n(cy)}h10"/>')
            o.append(_arrow_head(((x, cy), (x + 14, cy)), "tl-arrow-head"))
        o.append(f'<text class="tl-text tl-small" x="{_n(x + 20)}" y="{_n(y + 11)}">{_t(item.label)}</text>')
    o.append("</g>")
    return o


def _svg_background(lay: TimelineLayout) -> list[str]:
    """Zebra lanes, group separators, the grid and both time axes."""
    o = ['<g class="tl-lanes">']
    for lane in lay.lanes:
        if lane.index % 2 == 1:
            o.append(f'<rect class="tl-zebra" x="{MARGIN}" y="{_n(lane.y)}" width="{_n(lay.width - 2 * MARGIN)}"'
                     f' height="{_n(lane.height)}"/>')
        if lane.index and lane.group != lay.lanes[lane.index - 1].group:
            o.append(f'<path class="tl-sep" d="M{MARGIN} {_n(lane.y - GROUP_GAP / 2)}H{_n(lay.width - MARGIN)}"/>')
    o.append('</g>\n<g class="tl-axes">')
    top, bottom = _n(lay.lanes_top - 2), _n(lay.lanes_bottom + 2)
    for tick in lay.ticks:
        o.append(f'<path class="tl-grid" d="M{_n(tick.x)} {top}V{bottom}"/>')
    end = _n(lay.plot_x + lay.plot_width)
    o.append(f'<path class="tl-axis" d="M{_n(lay.plot_x)} {top}H{end}M{_n(lay.plot_x)} {bottom}H{end}"/>')
    for y in (lay.axis_y, lay.bottom_axis_y):
        for tick in lay.ticks:
            o.append(f'<text class="tl-muted tl-small" x="{_n(tick.x)}" y="{_n(y)}" text-anchor="middle">'
                     f"{_t(tick.label)}</text>")
        o.append(f'<text class="tl-muted tl-small" x="{_n(lay.role_x)}" y="{_n(y)}" text-anchor="end">'
                 f"{_t(lay.axis_label)}</text>")
    o.append("</g>")
    return o


def _svg_strip(lay: TimelineLayout) -> list[str]:
    o = ['<g class="tl-strip">']
    for row in lay.strip_rows:
        o.append(f'<text class="tl-text" x="{_n(lay.role_x)}" y="{_n(row.y + 13)}" text-anchor="end">'
                 f"{_t(row.label)}</text>")
    for seg in lay.segments:
        o.append(f'<g><title>{_t(seg.tooltip)}</title><rect class={_q(seg.css_class)} x="{_n(seg.x)}"'
                 f' y="{_n(seg.y)}" width="{_n(seg.width)}" height="{_n(seg.height)}"/>')
        if seg.label:
            o.append(f'<text class="tl-seg-text" x="{_n(seg.x + 4)}" y="{_n(seg.y + 12.5)}">{_t(seg.label)}</text>')
        o.append("</g>")
    o.append("</g>")
    return o


def _svg_lanes(lay: TimelineLayout, hatch: str) -> list[str]:
    """Lane labels, bars, Pod-level guides, dependency arrows and markers, in drawing order."""
    o = ['<g class="tl-labels">']
    for lane in lay.lanes:
        mid = lane.y + lane.height / 2
        o.append(f'<g><title>{_t(lane.tooltip)}</title>'
                 f'<rect class="tl-role-{lane.role}" x="{MARGIN}" y="{_n(lane.y + 3)}" width="4"'
                 f' height="{_n(lane.height - 6)}" rx="1"/>'
                 f'<text class="tl-text" x="{_n(lay.label_x)}" y="{_n(mid + 4)}">{_t(lane.label)}</text>'
                 f'<text class="tl-muted tl-small" x="{_n(lay.role_x)}" y="{_n(mid + 3.5)}" text-anchor="end">'
                 f"{_t(lane.role_label)}</text></g>")
    o.append('</g>\n<g class="tl-bars">')
    for bar in lay.bars:
        box = f'x="{_n(bar.x)}" y="{_n(bar.y)}" width="{_n(max(bar.width, 1.0))}" height="{_n(bar.height)}" rx="2"'
        o.append(f"<g><title>{_t(bar.tooltip)}</title><rect class={_q(bar.css_class)} {box}/>"
                 + (f'<rect class="tl-assumed" {box} fill="{hatch}"/>' if bar.assumed else "") + "</g>")
    o.append('</g>\n<g class="tl-guides">')
    strip_bottom = _n(lay.strip_rows[-1].y + lay.strip_rows[-1].height + 2)
    for g in lay.guides:
        text_cls = "tl-guide-text" + (" tl-guide-debug" if g.kind == "debug" else "")
        o.append(f'<g><title>{_t(g.tooltip)}</title>'
                 f'<path class={_q(g.css_class)} d="M{_n(g.x)} {_n(g.y0)}V{strip_bottom}'
                 f'M{_n(g.x)} {_n(lay.lanes_top - 2)}V{_n(g.y1)}"/>'
                 f'<text class={_q(text_cls)} x="{_n(g.label_x)}" y="{_n(g.label_y)}" text-anchor="middle">'
                 f"{_t(g.label)}</text></g>")
    o.append('</g>\n<g class="tl-arrows">')
    for a in lay.arrows:
        d = "M" + "L".join(f"{_n(x)} {_n(y)}" for x, y in a.points)
        o.append(f'<g><title>{_t(a.tooltip)}</title><path class={_q(a.css_class)} d="{d}"/>'
                 f"{_arrow_head(a.points, 'tl-arrow-head')}</g>")
    o.append('</g>\n<g class="tl-markers">')
    for m in lay.markers:
        label = ""
        if m.kind == "exit" and m.label_x is not None:
            cls = "tl-exit-text" + (" tl-error" if m.label != "0" else "")
            label = f'<text class="{cls}" x="{_n(m.label_x)}" y="{_n(m.y + 3.5)}">{_t(m.label)}</text>'
        o.append(f"<g><title>{_t(m.tooltip)}</title>{_glyph(m.kind, m.x, m.y, m.css_class)}{label}</g>")
    o.append("</g>")
    return o
