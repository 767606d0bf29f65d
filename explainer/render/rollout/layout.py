"""The rollout picture's geometry (issue 22; docs/lifecycle-model.md §26): a Gantt with one lane per
Pod, old revision above new, and over them the counts the controller works with, as step lines,
between the capacity floor (replicas − maxUnavailable) and the surge ceiling (replicas + maxSurge).

The Pod timeline's vocabulary and machinery are reused: the same `TimelineLayout` (lanes, bars,
markers, a strip row, guides, ticks, axis breaks, knots), so `timeline.svg` draws most of it and
static/js/timeline.js runs its cursor, zoom, tooltips and lane groups on it unchanged; the counts
chart is the one addition (`CountsChart`).  Times and labels only, every coordinate rounded to
0.1 px: `rollout.svg` writes the markup.

A Pod's lane: starting (created, not yet Ready), ready (Ready, not yet available: minReadySeconds),
available, terminating (deleted, its containers stopping), then nothing.  The old revision's bars
carry a pattern and its lanes say "old" (colour is never the only signal); a Pod the controller
deleted gets the SIGTERM glyph at that moment.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from explainer.lifecycle.rollout.model import NEW, OLD, Rollout, RolloutPod
from ..timeline.axis import AxisBreak, end_tick, fit_axis
from ..timeline.model import (
    AXIS_ROW,
    BAR_INSET,
    FONT,
    GROUP_GAP,
    GUIDE_ROW,
    HEADING_ROW,
    LABEL_ROW,
    MARGIN,
    MIN_FIT_WIDTH,
    NAME_MAX,
    SMALL,
    STRIP_GAP,
    STRIP_ROW,
    Bar,
    Gettext,
    Guide,
    Lane,
    Marker,
    Segment,
    StripRow,
    Tick,
    TimelineLayout,
    _cut,
    _identity,
    _r,
    _secs,
    text_width,
)
from .counts import SERIES, CountsChart, Level, Series, ceiling_of, counts_chart, floor_of, series_labels
from ..timeline.place import _legend_rows

__all__ = ["SERIES", "CountsChart", "Level", "RolloutLayout", "Series", "ceiling_of", "floor_of", "layout_rollout",
           "lane_order", "pod_spans", "revision_labels", "revision_short", "series_labels", "state_labels",
           "view_end_of"]

POD_STATES = ("starting", "ready", "available", "terminating")
RIGHT_PAD = 92.0            # room after the plot for the series' end labels ("available 4")
PLOT = 560.0                # narrower than a Pod's timeline: a rollout has fewer moments, and phones show it
MIN_ROLLOUT_PLOT = 200.0    # fitted to a panel (issue 25): narrower than this, the names go above their lanes


@dataclass(frozen=True)
class RolloutLayout:
    chart: TimelineLayout        # lanes, bars, markers, the strip row, guides, axis: as the Pod timeline's
    counts: CountsChart
    heading: str
    dense: bool                  # lanes too low for full-size labels


def state_labels(_: Gettext) -> dict[str, str]:
    return {"starting": _("Starting"), "ready": _("Ready, not yet available"), "available": _("Available"),
            "terminating": _("Terminating")}


def revision_labels(_: Gettext) -> dict[str, str]:
    return {OLD: _("old revision"), NEW: _("new revision")}


def revision_short(_: Gettext) -> dict[str, str]:
    """The lanes' role column: the revision in a word."""
    return {OLD: _("old rev."), NEW: _("new rev.")}


def pod_spans(p: RolloutPod, end: float) -> list[tuple[str, float, float]]:
    """The states of one Pod's lane, (state, t0, t1), up to ``end``."""
    t = p.created_at if p.created_at is not None else 0.0
    stop = min(x for x in (p.gone_at, end) if x is not None)
    marks = [(p.ready_at, "ready"), (p.available_at, "available"), (p.deleted_at, "terminating")]
    out: list[tuple[str, float, float]] = []
    state = "starting"
    if p.created_at is None:        # there before the rollout: available from t = 0 on
        state = "available"
    for at, nxt in marks:
        if at is None or at < t or POD_STATES.index(nxt) <= POD_STATES.index(state):
            continue
        if at >= stop:
            break
        if at > t:
            out.append((state, t, at))
        state, t = nxt, at
    if stop > t:
        out.append((state, t, stop))
    return out


def view_end_of(rollout: Rollout) -> float:
    """The moment the rollout completes or stalls, plus a little; else how far it was simulated."""
    moment = rollout.complete_at if rollout.complete_at is not None else (
        rollout.stalled.at if rollout.stalled is not None else None)
    last = max([t for p in rollout.pods for t in (p.created_at, p.ready_at, p.available_at, p.deleted_at, p.gone_at)
                if t is not None and t <= rollout.until] + [c.t for c in rollout.counts if c.t <= rollout.until]
               + [moment or 0.0, 1.0])
    if moment is None:
        return max(rollout.until, 1.0)
    end = float(max(math.ceil(last + max(2.0, 0.06 * last)), 1.0))
    if rollout.complete_at is None:      # stalled: the simulation says nothing past `until`
        end = min(end, max(rollout.until, last))
    return end


def lane_order(rollout: Rollout) -> list[RolloutPod]:
    """Old Pods first (as listed), then new ones by when they were created."""
    old = [p for p in rollout.pods if p.revision == OLD]
    new = sorted((p for p in rollout.pods if p.revision != OLD), key=lambda p: (p.created_at or 0.0))
    return old + new


def _lane_height(n: int) -> float:
    return 22.0 if n <= 30 else 16.0 if n <= 80 else 12.0


def layout_rollout(rollout: Rollout, name: str, *, gettext: Gettext = _identity, view_end: float | None = None,
                   px_per_second: float | None = None, fit_width: float | None = None) -> RolloutLayout:
    """Geometry of the rollout picture of workload ``name``: numbers and labels only.

    ``fit_width``: the picture's whole width (the page's panel, issue 25), as the Pod timeline's; when the
    names leave the plot too little, they go on a row above their lanes."""
    _ = gettext
    end = view_end if view_end is not None else view_end_of(rollout)
    pods = lane_order(rollout)
    states, revs, short = state_labels(_), revision_labels(_), revision_short(_)
    moments = [t for p in pods for t in (p.created_at, p.ready_at, p.available_at, p.deleted_at, p.gone_at)
               if t is not None] + [c.t for c in rollout.counts]
    guide_t = rollout.complete_at if rollout.complete_at is not None else (
        rollout.stalled.at if rollout.stalled is not None else None)
    if guide_t is not None:
        moments.append(guide_t)
    lane_h = _lane_height(len(pods))
    dense = lane_h < 16
    name_size = SMALL if dense else FONT
    name_w = min(max([text_width(p.name, name_size) for p in pods] + [text_width(_("Rollout")), 40.0]), NAME_MAX)
    role_w = max([text_width(v, SMALL) for v in short.values()] + [text_width(_("seconds"), SMALL),
                                                                   text_width(_("Pods"), SMALL)])
    label_x = MARGIN + 8
    role_x = _r(label_x + name_w + 14 + role_w)
    plot_x = _r(role_x + 14)
    plot, stacked = PLOT, False
    if fit_width is not None and not px_per_second:
        fit_width = max(float(fit_width), MIN_FIT_WIDTH)
        plot = fit_width - plot_x - RIGHT_PAD
        if plot < MIN_ROLLOUT_PLOT:      # a rollout has few moments: less than a Pod timeline's plot will do
            stacked = True               # the names above their lanes; the counts' numbers left of the plot
            role_x = _r(label_x + text_width("000", SMALL))
            plot_x = _r(role_x + 6)
            plot = fit_width - plot_x - RIGHT_PAD
    if px_per_second:
        from ..timeline.axis import TimeAxis
        axis = TimeAxis(end, px_per_second, ())
    else:
        axis = fit_axis(moments + [end], end, plot=plot, label=_("… {s} s …"))
    plot_w = _r(axis.width)
    right_edge = plot_x + plot_w + RIGHT_PAD
    width = _r(right_edge)
    label_row = LABEL_ROW if stacked else 0

    def x_of(t: float) -> float:
        return _r(plot_x + axis.x(t))

    y = float(MARGIN)
    heading = _heading(rollout, name, _)
    heading_y = y + 16
    y += HEADING_ROW
    legend, y = _legend(rollout, y, width, _, bool(axis.breaks), fit_width is not None)
    note = _note(rollout, end, _)
    note_y = _r(y + 10) if note else 0.0
    y += 18 if note else 0
    guides_top = y
    y += GUIDE_ROW if (guide_t is not None and guide_t <= end) or stacked else 0
    y += label_row
    strip = StripRow("rollout", _("Rollout"), _r(y), STRIP_ROW)
    y += STRIP_ROW + STRIP_GAP + 4
    axis_y = _r(y + 12)
    y += AXIS_ROW
    y += label_row                   # stacked: "Pods" on a row of its own above the counts
    counts, y = counts_chart(rollout, y, end, x_of, plot_x + plot_w, _)
    y += 10
    lanes: list[Lane] = []
    lanes_top = y
    name_max = max(width - label_x - MARGIN - role_w - 13, 40.0) if stacked else NAME_MAX
    for i, p in enumerate(pods):
        group = 0 if p.revision == OLD else 1
        if lanes and group != lanes[-1].group:
            y += GROUP_GAP
        y += label_row
        tip = "\n".join([p.name, revs.get(p.revision, p.revision)] + ([_("node: {n}").format(n=p.node)]
                                                                        if p.node else []))
        lanes.append(Lane(i, p.name, p.revision, short.get(p.revision, p.revision), _cut(p.name, name_max, name_size),
                          _r(y), lane_h, group, tip))
        y += lane_h
    lanes_bottom = y
    bottom_axis_y = _r(y + 16)
    y += 4 + AXIS_ROW + MARGIN

    bars, markers = _bars(pods, lanes, end, x_of, states, revs, _)
    guides = ()
    if guide_t is not None and guide_t <= end:
        guides = (_guide(rollout, guide_t, x_of(guide_t), strip.y, lanes_bottom, guides_top, plot_x, right_edge, _),)
    unit = " s" if stacked else ""
    at = end_tick(axis, axis.ticks()) if fit_width is not None else axis.ticks()
    ticks = tuple(Tick(t, _r(plot_x + x), f"{t:g}{unit}") for t, x in at)
    breaks = tuple(AxisBreak(b.t0, b.t1, _r(plot_x + b.x0), _r(plot_x + b.x1), b.label) for b in axis.breaks)
    chart = TimelineLayout(
        pod=name, width=width, height=_r(y), plot_x=plot_x, plot_width=plot_w,
        px_per_second=round(plot_w / max(end, 0.1), 3) if breaks else axis.pps,
        view_end=end, end_time=min(rollout.until, end), lanes_top=_r(lanes_top), lanes_bottom=_r(lanes_bottom),
        axis_y=axis_y, bottom_axis_y=bottom_axis_y, label_x=float(label_x), role_x=role_x, heading_y=heading_y,
        lanes=tuple(lanes), bars=tuple(bars), markers=tuple(markers), strip_rows=(strip,),
        segments=tuple(_strip(rollout, strip, end, x_of, _)), ticks=ticks, arrows=(), guides=guides,
        legend=tuple(legend), axis_label=_("seconds"), note=note, note_y=note_y, simulated=True, breaks=breaks,
        knots=tuple((t, _r(plot_x + x)) for t, x in axis.knots()), stacked=stacked,
        fitted=fit_width is not None and not px_per_second)
    return RolloutLayout(chart, counts, heading, dense)


def _heading(r: Rollout, name: str, _: Gettext) -> str:
    if r.kind == "Deployment" and r.strategy == "RollingUpdate":
        return _("Rollout of {kind} {name}: RollingUpdate, {n} replicas, maxSurge {surge}, maxUnavailable "
                 "{unavailable}").format(kind=r.kind, name=name, n=r.replicas, surge=r.max_surge,
                                         unavailable=r.max_unavailable)
    if r.kind == "DaemonSet" and r.strategy == "RollingUpdate":
        return _("Rollout of DaemonSet {name}: RollingUpdate on {n} nodes, maxSurge {surge}, maxUnavailable "
                 "{unavailable}").format(name=name, n=r.replicas, surge=r.max_surge, unavailable=r.max_unavailable)
    return _("Rollout of {kind} {name}: {strategy}, {n} replicas").format(kind=r.kind, name=name,
                                                                        strategy=r.strategy, n=r.replicas)


def _note(r: Rollout, end: float, _: Gettext) -> str:
    if r.complete_at is not None:
        return _("Complete at {t} s.").format(t=_secs(r.complete_at))
    if r.stalled is not None:
        return _("Stalled at {t} s: {reason}.").format(t=_secs(r.stalled.at), reason=r.stalled.reason)
    return _("Not complete by {t} s, where the simulation stops.").format(t=_secs(r.until))


def _legend(r: Rollout, y: float, width: float, _: Gettext, breaks: bool, fitted: bool = False) -> tuple[list, float]:
    states, revs, names = state_labels(_), revision_labels(_), series_labels(_)
    present = {s for p in r.pods for s, _a, _b in pod_spans(p, r.until)}
    entries = [("bar", s, states[s], _bar_css(s)) for s in POD_STATES if s in present]
    if any(p.revision == OLD for p in r.pods):
        entries.append(("rev", OLD, revs[OLD], "ro-old"))
    if any(p.deleted_at is not None for p in r.pods):
        entries.append(("marker", "sigterm", _("Deleted by the controller"), "tl-m-sigterm"))
    entries += [("line", k, names[k], f"ro-line ro-{k}") for k in SERIES]
    entries.append(("level", "floor", _("capacity floor"), "ro-level ro-floor"))
    entries.append(("level", "ceiling", _("surge ceiling"), "ro-level ro-ceiling"))
    if breaks:
        entries.append(("break", "break", _("Quiet time cut short"), "tl-break-line"))
    items, bottom = _legend_rows(tuple(entries), y, width, fitted)
    return list(items), bottom


def _bar_css(state: str) -> str:
    return {"starting": "tl-bar tl-starting", "ready": "tl-bar ro-ready", "available": "tl-bar tl-ready",
            "terminating": "tl-bar tl-terminating"}[state]


def _bars(pods: list[RolloutPod], lanes: list[Lane], end: float, x_of, states: dict[str, str],
          revs: dict[str, str], _: Gettext) -> tuple[list[Bar], list[Marker]]:
    bars: list[Bar] = []
    markers: list[Marker] = []
    for p, lane in zip(pods, lanes):
        inset = min(BAR_INSET, lane.height / 4)
        for state, t0, t1 in pod_spans(p, end):
            x0, x1 = x_of(t0), x_of(t1)
            if x1 - x0 < 0.1:
                continue
            tip = f"{p.name} · {revs.get(p.revision, p.revision)} · {states[state]} · {_secs(t0)}–{_secs(t1)} s"
            if state == "starting" and p.ready_at is None:
                tip += "\n" + _("never Ready in this simulation")
            css = _bar_css(state) + (" ro-old" if p.revision == OLD else "")
            bars.append(Bar(lane.index, state, t0, t1, x0, _r(x1 - x0), _r(lane.y + inset),
                            _r(lane.height - 2 * inset), css, tip))
        if p.deleted_at is not None and p.deleted_at <= end:
            tip = f"{p.name} · " + _("deleted by the controller at {t} s").format(t=_secs(p.deleted_at))
            if p.gone_at is not None:
                tip += "\n" + _("gone at {t} s").format(t=_secs(p.gone_at))
            markers.append(Marker(lane.index, "sigterm", p.deleted_at, x_of(p.deleted_at),
                                  _r(lane.y + lane.height / 2), "tl-m tl-m-sigterm", tip))
    return bars, markers


def _strip(r: Rollout, row: StripRow, end: float, x_of, _: Gettext) -> list[Segment]:
    """The rollout's own state: in progress, then complete or stalled."""
    pieces: list[tuple[str, str, float, float]] = []
    if r.complete_at is not None:
        pieces = [("progress", _("in progress"), 0.0, r.complete_at), ("complete", _("complete"), r.complete_at, end)]
    elif r.stalled is not None:
        pieces = [("progress", _("in progress"), 0.0, r.stalled.at),
                  ("stalled", _("stalled: {reason}").format(reason=r.stalled.reason), r.stalled.at, end)]
    else:
        pieces = [("progress", _("in progress"), 0.0, end)]
    out = []
    for key, value, t0, t1 in pieces:
        t1 = min(t1, end)
        x0, x1 = x_of(t0), x_of(t1)
        if x1 - x0 < 0.1:
            continue
        fits = x1 - x0 >= text_width(value, SMALL) + 8
        tip = _("{row}: {value} from {t0} s to {t1} s").format(row=row.label, value=value, t0=_secs(t0),
                                                               t1=_secs(t1))
        out.append(Segment("rollout", value, t0, t1, x0, _r(x1 - x0), row.y, row.height, f"tl-seg ro-{key}", tip,
                           value if fits else "", False, _r(x0 + 4) if fits else None))
    return out


def _guide(r: Rollout, t: float, x: float, strip_y: float, bottom: float, top: float, plot_x: float,
           right_edge: float, _: Gettext) -> Guide:
    if r.complete_at is not None:
        kind, label = "complete", _("complete")
        tip = _("The rollout is complete at {t} s: every Pod is of the new revision and available.").format(
            t=_secs(t))
    else:
        kind, label = "stalled", _("stalled")
        assert r.stalled is not None
        tip = _("The rollout stalls at {t} s: {reason}.").format(t=_secs(t), reason=r.stalled.reason)
        if r.stalled.text is not None:
            tip += "\n" + r.stalled.text.render(_)
    w = text_width(label, SMALL)
    centre = max(min(x, right_edge - w / 2 - 2), plot_x + w / 2)
    return Guide(kind, t, x, _r(strip_y - 2), _r(bottom), label, _r(centre), _r(top + 11),
                 f"tl-guide ro-guide-{kind}", tip)
