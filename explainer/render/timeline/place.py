"""Placing the walked pieces on the chart: the scale, legend, guide rows, bars, Pod status
strip, markers and dependency arrows, every coordinate rounded to 0.1 px."""
from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from explainer.lifecycle.kubelet.trace import TraceEvent
from .model import (
    BAR_INSET,
    LANE_HEIGHT,
    LEGEND_ROW,
    MARGIN,
    SLACK,
    SMALL,
    STATES,
    Arrow,
    Bar,
    Gettext,
    Lane,
    LegendItem,
    Marker,
    Segment,
    StripRow,
    _condition_text,
    _cut,
    _marker_labels,
    _r,
    _secs,
    _state_labels,
    text_width,
)
from .walk import _Raw, _RawMarker


def _legend(marks: list[_RawMarker], deps: list, y: float, width: float, _: Gettext,
            breaks: bool = False, extra: Sequence[tuple[str, str, str, str]] = (),
            fitted: bool = False) -> tuple[list[LegendItem], float]:
    """Every bar state (with its pattern) and the assumed pattern; the markers, arrow styles and
    axis breaks that occur; then ``extra`` entries (kind, key, label, class): the traffic row's
    (`timeline.traffic.legend_entries`).  ``fitted``: rows within ``width`` however narrow."""
    states, mlabels = _state_labels(_), _marker_labels(_)
    entries: list[tuple[str, str, str, str]] = [("bar", s, states[s], f"tl-{s}") for s in STATES]
    entries.append(("bar", "exited-error", _("Exited with error"), "tl-exited tl-error"))
    entries.append(("assumed", "assumed", _("Assumed duration"), "tl-assumed"))
    if breaks:
        entries.append(("break", "break", _("Quiet time cut short"), "tl-break-line"))
    present = {"probe-failed" if m.kind in ("startup-failed", "liveness-failed") else m.kind for m in marks}
    for k in ("poststart", "startup-ok", "probe-failed", "sigterm", "sigkill", "restart", "exit",
              "image-pull-failed", "image-updated"):
        if k in present:
            entries.append(("marker", k, _("Probe failed") if k == "probe-failed" else mlabels[k], f"tl-m-{k}"))
    for g in sorted({d.guaranteed for d in deps}, reverse=True):
        entries.append(("arrow", "guaranteed" if g else "ordered",
                        _("Waits for (guaranteed)") if g else _("Waits for (kubelet order, not guaranteed)"),
                        "tl-arrow" if g else "tl-arrow tl-dashed"))
    entries += extra
    items, bottom = _legend_rows(tuple(entries), y, width, fitted)
    return list(items), bottom


@functools.lru_cache(maxsize=256, typed=True)
def _legend_rows(entries: tuple[tuple[str, str, str, str], ...], y: float,
                 width: float, fitted: bool = False) -> tuple[tuple[LegendItem, ...], float]:
    """The legend's ``entries`` (kind, key, label, class) in rows from ``y`` within ``width``, and
    the y below them (at least 400 px wide unless ``fitted``: a chart laid out for a narrow panel).
    Cached (bounded; a pure function of these strings and numbers): most charts show the same legend
    again."""
    limit = MARGIN + (min(width - 2 * MARGIN, 1100.0) if fitted else max(min(width - 2 * MARGIN, 1100.0), 400.0))
    items: list[LegendItem] = []
    lx, ly = float(MARGIN), y
    for kind, key, label, css in entries:
        if fitted:                 # no room to spare: the estimate's margin of error, a label too long cut
            label = _cut(label, (limit - MARGIN - 20) / SLACK, SMALL)
        w = 20 + text_width(label, SMALL) * (SLACK if fitted else 1.0) + 16
        if lx + w > limit and lx > MARGIN:
            lx, ly = float(MARGIN), ly + LEGEND_ROW
        items.append(LegendItem(kind, key, label, _r(lx), _r(ly), css))
        lx += w
    return tuple(items), ly + LEGEND_ROW + 4


def _guide_rows(raw: list[tuple[TraceEvent, str, str]], x_of: Callable[[float], float], plot_x: float,
                right_edge: float, slack: float = 1.0) -> tuple[list[tuple[TraceEvent, str, str, float, float, int]], int]:
    """Give each guide label a row above the strip so that labels never overlap (``slack``: the
    estimated widths' margin of error to allow for)."""
    rows_end: list[float] = []
    placed = []
    for e, kind, label in raw:
        x = x_of(e.t)
        w = text_width(label, SMALL) * slack
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
    tip = f"{lane.name} · {states[rb.state]} · {rb.t0:g}–{rb.t1:g} s"
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


def _label_place(x0: float, x1: float, width: float, gaps: Sequence[tuple[float, float]]) -> float | None:
    """Where a label ``width`` px wide starts inside [x0, x1] without running under an axis break
    (``gaps``: the x ranges the breaks cover): the first free piece wide enough, or None."""
    start = x0
    for g0, g1 in sorted(gaps) + [(x1, x1)]:
        end = min(g0, x1)
        if end - start >= width:
            return start
        start = max(start, g1)
        if start >= x1:
            break
    return None


_PHASES = ("Pending", "Running", "Succeeded", "Failed")


# the strip's classes: pure functions of a status value, cached (bounded) since every chart asks
# for the same few values again
@functools.lru_cache(maxsize=1024)
def _phase_css(v: str) -> str:
    return f"tl-seg tl-phase-{v.lower() if v in _PHASES else 'unknown'}"


@functools.lru_cache(maxsize=1024)
def _status_css(v: str) -> str:
    return f"tl-seg tl-status-{_status_class(v)}"


@functools.lru_cache(maxsize=1024)
def _ready_css(v: str) -> str:
    return f"tl-seg tl-ready-{v.lower()}"


def _strip_segments(timeline, rows: list[StripRow], view_end: float, bar_end: float,
                    x_of: Callable[[float], float], _: Gettext,
                    gaps: Sequence[tuple[float, float]] = ()) -> list[Segment]:
    """Merge the status points into segments per row; values held for no time become ticks.
    A label goes where its segment is not cut by an axis break (``gaps``), or is left out."""
    row = {r.key: r for r in rows}
    out: list[Segment] = []
    pts = [p for p in timeline if p.t <= view_end]
    starts = [p.t for p in pts]
    ends = starts[1:] + [bar_end]
    # the rows' values at each point; the status row also says READY and RESTARTS in its tooltip
    values = (
        ("phase", _("Phase"), [p.phase for p in pts], _phase_css, None),
        ("status", _("Status"), [p.status for p in pts], _status_css,
         [f"READY {p.ready_count}, RESTARTS {p.restarts}" for p in pts]),
        ("ready", _("Ready"), ["True" if p.ready else "False" for p in pts], _ready_css, None),
    )
    span_text, blip_end_text, blip_text = (_("{row}: {value} from {t0} s to {t1} s"), _("{row}: {value} at {t} s"),
                                           _("{row}: {value} at {t} s (momentarily)"))
    for key, name, vals, css, extras in values:
        r = row[key]
        ry = _r(r.y)
        runs: list[list[Any]] = []        # [value, t0, t1, extra]
        last: list[Any] | None = None
        for i, v in enumerate(vals):
            t, t1 = starts[i], ends[i]
            if last is not None and last[0] == v and last[2] >= t - 1e-9:
                if t1 > last[2]:
                    last[2] = t1
                if extras is not None and extras[i] not in last[3]:
                    last[3].append(extras[i])
            else:
                last = [v, t, t1, [extras[i]] if extras is not None else []]
                runs.append(last)
        blips: list[list[Any]] = []       # values held for no time, grouped by x: [x, t, values]
        for v, t0, t1, extra in runs:
            x0, x1 = x_of(t0), x_of(t1)
            if x1 - x0 < 0.1:
                if blips and blips[-1][0] == x0:
                    blips[-1][2].append(v)
                else:
                    blips.append([x0, t0, [v]])
                continue
            tip = span_text.format(row=name, value=v, t0=f"{t0:g}", t1=f"{t1:g}")
            if extra:
                tip += "\n" + "; ".join(extra)
            width = text_width(v, SMALL) + 8
            if gaps:
                at = _label_place(x0, x1, width, gaps)
            else:
                at = x0 if x1 - x0 >= width else None
            if at is None:
                out.append(Segment(key, v, t0, t1, x0, _r(x1 - x0), ry, r.height, css(v), tip, "", False, None))
            else:
                out.append(Segment(key, v, t0, t1, x0, _r(x1 - x0), ry, r.height, css(v), tip, v, False,
                                   _r(at + 4)))
        for x0, t0, vs in blips:
            value = " → ".join(vs)
            tip = (blip_end_text if t0 >= bar_end else blip_text).format(row=name, value=value, t=f"{t0:g}")
            out.append(Segment(key, value, t0, t0, _r(x0 - 1), 2.0, ry, r.height, _blip_class(css, tuple(vs)), tip,
                               "", True))
    return out


@functools.lru_cache(maxsize=1024)
def _blip_class(css: Callable[[str], str], values: tuple[str, ...]) -> str:
    """The class of a tick for ``values`` held for no time: the first bad or failed one's, or the
    last one's.  Cached (bounded; a pure function of one of the class functions above and strings)."""
    cls = next((css(v) for v in values if "-bad" in css(v) or "-failed" in css(v)), css(values[-1]))
    return cls + " tl-blip"


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
        title = f"{lane.name} · {labels[m.kind]} · {m.t:g} s"
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
