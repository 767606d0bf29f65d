"""The Gantt timeline of one Pod: geometry in `layout_timeline`, markup in `render_timeline_svg`.

`layout_timeline` turns a simulation into numbers and labels only (lanes, bars, markers, the
Pod status strip, axis ticks, dependency arrows), every coordinate rounded to 0.1 px so that
golden files stay stable.  `render_timeline_svg` draws that layout as a standalone SVG
document: no script, no external reference, every text escaped, light and dark colours.
`timeline_rows` gives the same events as rows for the accessible HTML table.

This module is the public API; the work is split by concern: `timeline.model` (constants,
dataclasses, labels), `timeline.walk` (events into raw bars and markers), `timeline.place`
(those pieces in pixels), `timeline.svg` and `timeline.style` (the markup).

Every fixed label goes through the ``gettext`` argument (the web layer passes Django's), so
the msgids below are found by `makemessages` through the ``_(...)`` calls.

Speed (issue 14): nothing is cached per manifest or per report; a few bounded ``lru_cache``s hold
pure functions of small values that charts repeat (rounding, coordinates as text, escaped strings,
text widths, a zig-zag's path, the legend's rows and markup, strip classes), and one layout places
each moment on the axis once.  tests/render/test_timeline_quick_paths.py checks the quick paths
against plain references.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from .model import (
    AXIS_ROW,
    GROUP_GAP,
    GUIDE_ROW,
    GUIDE_SLACK,
    HEADING_ROW,
    LABEL_ROW,
    LANE_HEIGHT,
    MARGIN,
    MIN_FIT_PLOT,
    MIN_FIT_WIDTH,
    NAME_MAX,
    NOTE_FONT,
    NOTE_LINE,
    RIGHT_PAD,
    ROLE_ORDER,
    SLACK,
    SMALL,
    STACKED_RIGHT_PAD,
    STRIP_GAP,
    STRIP_ROW,
    Gettext,
    Guide,
    Lane,
    StripRow,
    Tick,
    TimelineLayout,
    _condition_text,
    _cut,
    _event_labels,
    _identity,
    _marker_labels,
    _r,
    _role_labels,
    _secs,
    _state_labels,
    text_width,
    wrap_px,
)
from .place import (
    _arrows,
    _bar,
    _guide_rows,
    _legend,
    _place_markers,
    _strip_segments,
)
from .axis import FIT_PLOT, AxisBreak, TimeAxis, end_tick, fit_axis
from .svg import svg_document
from . import observed as observed_row
from . import traffic as traffic_row
from .walk import (
    _collect,
    _debug_names,
    _event_container,
    _message,
    _Raw,
    _RawMarker,
    _walk,
    lane_containers,
)

if TYPE_CHECKING:
    from explainer.explain import PodReport


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
    if report.traffic is not None:    # the proxies may learn of a deletion after the containers are gone
        beyond = max(traffic_row.moments(report.traffic) + [0.0])
        if beyond > end:              # a little room after the last change, to see what it became
            end = float(math.ceil(beyond + max(2.0, 0.05 * beyond)))
        last = max(last, beyond)
    cut = float(math.ceil(last + max(10.0, 0.1 * last)))
    view, continues = (cut, True) if cut < end else (max(end, 1.0), False)
    if report.observed is not None:   # what the cluster shows, to its last moment (docs/lifecycle-model.md §35)
        seen = observed_row.pieces_of(report, [c.name for c in lane_containers(report)])
        if seen is not None:
            view = observed_row.view_end_after(seen, view)
            continues = view < sim.end_time
    return view, continues


# ---- layout -----------------------------------------------------------------------------------
def layout_timeline(report: PodReport, *, gettext: Gettext = _identity, view_end: float | None = None,
                    px_per_second: float | None = None, fit_width: float | None = None) -> TimelineLayout:
    """Geometry of the Gantt chart of ``report``'s simulation: numbers and labels only.

    ``fit_width``: the chart's whole width (the page's panel, issue 25); the plot takes what the names
    leave, and when that is too little the names go above their lanes (``stacked``)."""
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
    seen = observed_row.pieces_of(report, [c.name for c in containers])   # what the cluster shows (issue 23)
    traffic = report.traffic          # a Service sends the Pod requests: one more strip row (docs/lifecycle-model.md §27)
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

    # horizontal: the label column, then the plot, fitted to FIT_PLOT (or to what ``fit_width`` leaves) with
    # quiet stretches cut; a caller drawing several charts on one axis (compare) passes one linear scale for all
    name_w = min(max([text_width(c.name) for c in containers] + [text_width(_("Status")), 40.0]), NAME_MAX)
    role_w = max([text_width(roles[c.role], SMALL) for c in containers] + [text_width(_("seconds"), SMALL)])
    label_x = MARGIN + 8
    role_x = _r(label_x + name_w + 14 + role_w)
    plot_x = _r(role_x + 14)
    right_pad, plot, stacked = float(RIGHT_PAD), FIT_PLOT, False
    if fit_width is not None and not px_per_second:
        fit_width = max(float(fit_width), MIN_FIT_WIDTH)
        plot = fit_width - plot_x - right_pad
        if plot < MIN_FIT_PLOT:      # the names would crowd the plot: each goes on a row above its lane
            stacked, right_pad = True, float(STACKED_RIGHT_PAD)
            plot_x = role_x = float(label_x)
            plot = fit_width - plot_x - right_pad
    if px_per_second:
        axis = TimeAxis(view_end, px_per_second, ())
    else:
        moments = [e.t for e in sim.events] + [p.t for p in sim.timeline] if sim is not None else []
        if traffic is not None:
            moments += traffic_row.moments(traffic)
        if seen is not None:
            moments += [t for t in seen.moments() if 0.0 <= t <= view_end]
        axis = fit_axis(moments + [bar_end], view_end, plot=plot, label=_("… {s} s …"))
    plot_w = _r(axis.width)
    right_edge = plot_x + plot_w + right_pad
    width = _r(right_edge)
    label_row = LABEL_ROW if stacked else 0

    xs: dict[float, float] = {}     # the same moments are placed again and again (bars, markers, strip)

    def x_of(t: float) -> float:
        x = xs.get(t)
        if x is None:
            x = xs[t] = _r(plot_x + axis.x(t))
        return x

    # vertical: heading, legend, note, guide labels, strip, axis, lanes, axis
    y = float(MARGIN)
    heading_y = y + 16
    y += HEADING_ROW
    legend, y = _legend(raw_marks, deps, y, width, _, bool(axis.breaks),
                        (traffic_row.legend_entries(traffic, _) if traffic is not None else [])
                        + (observed_row.legend_entries(seen, _) if seen is not None else []),
                        fitted=fit_width is not None)
    note = ""
    if sim is None:
        note = _("This Pod is not simulated: the API server would reject it, so it never runs.")
    elif continues:
        quiet = view_end >= max((e.t for e in sim.events), default=0.0)
        note = (_("… continues to {end} s (no further events)") if quiet
                else _("… continues to {end} s")).format(end=_secs(end_time))
    if seen is not None:
        note = " ".join(x for x in (note, observed_row.note(seen, end_time, view_end, _)) if x)
    if note and fit_width is not None:      # a panel's width: on as many lines as it takes (timeline.svg: NOTE_LINE)
        note = "\n".join(wrap_px(note, (width - plot_x - MARGIN) / SLACK, NOTE_FONT))
    note_y = _r(y + 10) if note else 0.0
    y += 18 + NOTE_LINE * note.count("\n") if note else 0

    guide_labels = {"delete_requested": ("deleted", _("Pod deleted")), "sandbox_lost": ("lost", _("Sandbox lost")),
                    "deadline_exceeded": ("deadline", _("Deadline exceeded")),
                    "debug_requested": ("debug", _("kubectl debug")),
                    "all_containers_restarting": ("restart-all", _("Restart all containers"))}
    placed, n_rows = _guide_rows([(e, *guide_labels[e.type]) for e in found.pod_events
                                  if e.type in guide_labels and e.t <= view_end
                                  and e.reason != "AllContainersRestarted"], x_of, plot_x, right_edge,
                                 GUIDE_SLACK if fit_width is not None else 1.0)
    guides_top = y
    y += GUIDE_ROW * max(n_rows, 1 if stacked else 0)     # stacked: the row keeps the cursor's time off the names

    strip_rows = []
    strip_top = y
    rows = (("phase", _("Phase")), ("status", _("Status"))) \
        + ((("observed", _(observed_row.op.ROW_LABEL)),) if seen is not None else ()) + (("ready", _("Ready")),)
    for key, label in rows + ((("traffic", _("Traffic")),) if traffic is not None else ()):
        y += label_row
        strip_rows.append(StripRow(key, label, _r(y), STRIP_ROW))
        y += STRIP_ROW + STRIP_GAP
    row_of = {r.key: r for r in strip_rows}
    # a break's gap (its zig-zags included) hides what is under it: labels keep clear of it
    gaps = [(plot_x + b.x0 + 6, plot_x + b.x1 - 6) for b in axis.breaks]
    segments = _strip_segments(sim.timeline, strip_rows, view_end, bar_end, x_of, _, gaps) \
        if sim is not None else []
    if traffic is not None and sim is not None:
        segments += traffic_row.segments(traffic, row_of["traffic"], view_end, view_end, x_of, _, gaps)
    if seen is not None:
        segments += observed_row.setup_segment(seen, row_of["observed"], view_end, x_of, _, gaps)
    y += 4
    axis_y = _r(y + 12)
    y += AXIS_ROW

    lanes: list[Lane] = []
    obs_rows: list[observed_row.ObsLane] = []
    lanes_top = y
    name_max = max(width - label_x - MARGIN - role_w - 13, 40.0) if stacked else NAME_MAX
    for i, c in enumerate(containers):
        group = ROLE_ORDER[c.role]
        if lanes and group != lanes[-1].group:
            y += GROUP_GAP
        y += label_row
        tip = f"{c.name}\n{roles[c.role]}\n{c.image}"
        if c.target:
            tip += "\n" + _("target: {c}").format(c=c.target)
        lanes.append(Lane(i, c.name, c.role, roles[c.role], _cut(c.name, name_max), _r(y), LANE_HEIGHT, group,
                          tip))
        y += LANE_HEIGHT
        if seen is not None:            # the observed row under it (stacked: its name on a row above it too)
            y += label_row
            obs_rows.append(observed_row.lane_row(lanes[-1], y, seen, _))
            y += observed_row.OBS_ROW
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
    unit = " s" if stacked else ""       # no column for "seconds" on the left: each tick says it
    at = end_tick(axis, axis.ticks()) if fit_width is not None else axis.ticks()
    ticks = tuple(Tick(t, _r(plot_x + x), f"{t:g}{unit}") for t, x in at)   # f"{t:g}": _secs
    breaks = tuple(AxisBreak(b.t0, b.t1, _r(plot_x + b.x0), _r(plot_x + b.x1), b.label) for b in axis.breaks)
    failures: tuple = ()
    reaches: tuple = ()
    deletions: tuple = ()
    if traffic is not None and sim is not None:
        row = row_of["traffic"]
        failures = tuple(traffic_row.failure_marks(traffic, row, (_r(lanes_top - 2), _r(lanes_bottom + 2)),
                                                   view_end, x_of, _))
        reaches = tuple(traffic_row.reach_marks(traffic, row, view_end, x_of, _))
        deletions = tuple(traffic_row.deletion_marks(traffic, row, view_end, x_of, _))
    obs_bars: tuple = ()
    obs_marks: tuple = ()
    if seen is not None:
        by_name = {r.name: r for r in obs_rows}
        obs_bars = tuple(observed_row.bars(seen, by_name, view_end, x_of, _))
        obs_marks = tuple(observed_row.marks(seen, by_name, row_of["observed"], view_end, x_of, right_edge, _, gaps))

    return TimelineLayout(
        pod=report.pod.name, width=width, height=_r(y), plot_x=plot_x, plot_width=plot_w,
        px_per_second=round(plot_w / max(view_end, 0.1), 3) if breaks else axis.pps,
        view_end=view_end, end_time=end_time, lanes_top=_r(lanes_top), lanes_bottom=_r(lanes_bottom),
        axis_y=axis_y, bottom_axis_y=bottom_axis_y, label_x=float(label_x), role_x=role_x,
        heading_y=heading_y, lanes=tuple(lanes), bars=tuple(bars), markers=tuple(markers),
        strip_rows=tuple(strip_rows), segments=tuple(segments), ticks=ticks, arrows=tuple(arrows),
        guides=guides, legend=tuple(legend), axis_label=_("seconds"), note=note, note_y=note_y,
        simulated=sim is not None, breaks=breaks,
        knots=tuple((t, _r(plot_x + x)) for t, x in axis.knots()), failures=failures, reaches=reaches,
        deletions=deletions, stacked=stacked, fitted=fit_width is not None and not px_per_second,
        observed=tuple(obs_rows), obs_bars=obs_bars, obs_marks=obs_marks)


def render_timeline_svg(report: PodReport, *, gettext: Gettext = _identity, title: str | None = None,
                        view_end: float | None = None, px_per_second: float | None = None) -> str:
    """A standalone SVG document of the Gantt chart (inline it in a page, or serve it as image/svg+xml).

    No script and no external reference; every text is escaped; hover details are <title>s.
    """
    lay = layout_timeline(report, gettext=gettext, view_end=view_end, px_per_second=px_per_second)
    return svg_document(report, lay, gettext=gettext, title=title)


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
    exit_code, assumed = _("exit code {code}"), f" ({_('assumed')})"
    for e, name in _event_container(sim.events, _debug_names(report)):
        parts = []
        if e.reason:
            parts.append(e.reason)
        if e.exit_code is not None and e.type == "exited":
            parts.append(exit_code.format(code=e.exit_code))
        if e.message:
            parts.append(_message(e, _))
        detail = " · ".join(parts)
        if e.assumed:
            detail += assumed
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
    if report.traffic is not None:   # traffic changes after the events of their moment (docs/lifecycle-model.md §27)
        out = sorted(out + traffic_row.table_rows(report.traffic, _), key=lambda row: row["t"])
    seen = observed_row.pieces_of(report, list(roles))
    if seen is not None:             # what the cluster shows (issue 23), after the prediction's rows of a moment
        out = sorted(out + observed_row.table_rows(seen, roles, role_labels, _), key=lambda row: row["t"])
    return out
