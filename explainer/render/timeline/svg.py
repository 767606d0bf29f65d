"""The timeline's markup: a `TimelineLayout` drawn as a standalone SVG document.

No script, no external reference, every text escaped, light and dark colours (`timeline.style`).
"""
from __future__ import annotations

import functools
import hashlib
from typing import TYPE_CHECKING

from ..svg_text import _n, _q, _t
from .model import (
    GROUP_GAP,
    LABEL_ROW,
    MARGIN,
    NAME_INDENT,
    NOTE_LINE,
    SLACK,
    SMALL,
    Gettext,
    Lane,
    LegendItem,
    TimelineLayout,
    _cut,
    _identity,
    _secs,
    text_width,
)
from .style import STACKED_STYLE, STYLE, TRAFFIC_STYLE
from . import observed_svg
from . import traffic_svg
from explainer.lifecycle.records import record

if TYPE_CHECKING:
    from explainer.explain import PodReport

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


MIN_BAR_PX = 3.0    # a short state (a 0.1 s init container) stays visible


def _svg_id(report: PodReport) -> str:
    src = getattr(report.pod, "source", None)
    return _id_of(f"{report.pod.name}/{getattr(src, 'document', 0)}")


@functools.lru_cache(maxsize=1024)
def _id_of(key: str) -> str:
    """The chart's id from its Pod's name and document (cached, bounded: a pure function of a string)."""
    return "tl" + hashlib.sha1(key.encode("utf-8")).hexdigest()[:8]


@record
class Placement:
    """Where a timeline sits when two share one time axis (`render.compare.shared_axis_svgs`): its
    drawing moved ``offset`` px right inside a document ``width`` px wide whose t = 0 is at
    ``time_origin``, and ``id_suffix`` on its ids (two timelines of one Pod in one page)."""

    offset: float
    width: float
    time_origin: float
    view_end: float
    id_suffix: str = ""


def svg_document(report: PodReport, lay: TimelineLayout, *, gettext: Gettext = _identity,
                 title: str | None = None, placement: Placement | None = None, id_suffix: str = "") -> str:
    """Draw ``lay`` (the layout of ``report``) as a standalone SVG document.

    No script and no external reference; every text is escaped; hover details are <title>s.
    ``id_suffix`` on its ids: a second drawing of one Pod in one page (a page's phone-sized one).
    """
    _ = gettext
    sid = _svg_id(report) + (placement.id_suffix if placement is not None else "") + id_suffix
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
        desc = lay.note.replace("\n", " ")
    w, h = _n(lay.width), _n(lay.height)
    root = f'xmlns="http://www.w3.org/2000/svg" class="tl-root" role="img" aria-labelledby="{sid}-title {sid}-desc"'
    if placement is None:
        cls = "tl-root tl-stacked" if lay.stacked else "tl-root"
        start = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}"'
                 f' class="{cls}" role="img" aria-labelledby="{sid}-title {sid}-desc">']
    else:   # the wider document, its background, then this drawing moved right
        pw, ph = f"{placement.width:g}", f"{lay.height:g}"
        start = [f'<svg {root} width="{pw}" height="{ph}" viewBox="0 0 {pw} {ph}"'
                 f' data-view-end="{placement.view_end:g}" data-px-per-second="{lay.px_per_second:g}"'
                 f' data-time-origin="{placement.time_origin:g}"><rect class="tl-bg" width="{pw}" height="{ph}"/>'
                 f'<g transform="translate({placement.offset:g} 0)">']
    o: list[str] = start + [
        f'<title id="{sid}-title">{_t(heading)}</title>',
        f'<desc id="{sid}-desc">{_t(desc)}</desc>',
        f"<style>{STYLE}{TRAFFIC_STYLE if report.traffic is not None else ''}{STACKED_STYLE if lay.stacked else ''}"
        f"{observed_svg.OBSERVED_STYLE if lay.observed else ''}{observed_svg.STACKED_STYLE * bool(lay.observed and lay.stacked)}</style>",
        _defs(sid, lay),
        f'<rect class="tl-bg" width="{w}" height="{h}"/>',
        f'<text class="tl-head" x="{MARGIN}" y="{_n(lay.heading_y)}">{_t(_shown_heading(heading, lay))}</text>',
    ]
    o += _svg_legend(lay, sid)
    if lay.note:
        first, *more = lay.note.split("\n")       # a fitted chart's note may take lines
        o.append(f'<text class="tl-note" x="{_n(lay.plot_x)}" y="{_n(lay.note_y)}">{_t(first)}'
                 + "".join(f'<tspan x="{_n(lay.plot_x)}" dy="{NOTE_LINE:g}">{_t(m)}</tspan>' for m in more) + "</text>")
    o += _svg_background(lay)
    o += _svg_strip(lay, sid)
    o += traffic_svg.markup(lay, sid)
    o += _svg_lanes(lay, sid)
    o += observed_svg.markup(lay, sid)           # what the cluster shows (issue 23)
    o += ["</svg>" if placement is None else "</g></svg>", ""]     # "" for the last line's \n (no copy)
    return "\n".join(o)


def _shown_heading(heading: str, lay: TimelineLayout) -> str:
    """The heading as drawn: cut to a chart laid out for a narrow panel (the title keeps it whole)."""
    return _cut(heading, (lay.width - 2 * MARGIN) / SLACK, 14.0) if lay.fitted else heading


def _defs(sid: str, lay: TimelineLayout) -> str:
    """Patterns, so that colour is never the only signal: dots where a duration is assumed,
    hatching while terminating, stripes in back-off."""
    return (f'<defs><pattern id="{sid}-dots" width="5" height="5" patternUnits="userSpaceOnUse">'
            '<circle class="tl-hatch-dot" cx="2.5" cy="2.5" r="0.9"/></pattern>'
            f'<pattern id="{sid}-hatch" width="5" height="5" patternUnits="userSpaceOnUse"'
            ' patternTransform="rotate(45)"><path class="tl-hatch" d="M0 0v5"/></pattern>'
            f'<pattern id="{sid}-stripes" width="6" height="4" patternUnits="userSpaceOnUse">'
            '<path class="tl-stripe" d="M0 1h6"/></pattern>'
            f'<clipPath id="{sid}-plot"><rect x="{_n(lay.plot_x - 6)}" y="0" width="{_n(lay.width - lay.plot_x + 6)}"'
            f' height="{_n(lay.height)}"/></clipPath>'
            + (traffic_svg.defs(sid) if lay.failures or any(i.kind == "failure" for i in lay.legend) else "")
            + (observed_svg.defs(sid) if lay.observed else "")
            + '</defs>')


_PATTERNS = {"terminating": "hatch", "backoff": "stripes"}


def _pattern(state: str, sid: str) -> str:
    """The pattern drawn over a bar of ``state`` ("" for none)."""
    name = _PATTERNS.get(state)
    return f"url(#{sid}-{name})" if name else ""


def _bar_shape(css: str, box: str, state: str, sid: str, assumed: bool = False) -> str:
    out = f"<rect class={_q(css)} {box}/>"
    if state in _PATTERNS:
        out += f'<rect class="tl-pattern" {box} fill="{_pattern(state, sid)}"/>'
    if assumed:
        out += f'<rect class="tl-assumed" {box} fill="url(#{sid}-dots)"/>'
    if " ro-old" in css:          # a rollout's old revision (rollout.svg defines the pattern)
        out += f'<rect class="tl-pattern" {box} fill="url(#{sid}-old)"/>'
    return out


def _cross(x: float, y: float) -> str:
    """The cross at an exit with a non-zero code."""
    return f'<path class="tl-m-cross" d="M{_n(x - 3)} {_n(y - 3)}l6 6m0-6l-6 6"/>'


def _svg_legend(lay: TimelineLayout, sid: str) -> list[str]:
    return [line.replace("\0", sid) for line in _legend_markup(lay.legend)]


@functools.lru_cache(maxsize=256)
def _legend_markup(legend: tuple[LegendItem, ...]) -> tuple[str, ...]:
    """The legend's markup with NUL for the chart's id (escaped text never holds one: `_t` turns it
    into U+FFFD).  Cached (bounded; a pure function of the items' strings and numbers): most charts
    show the same legend again."""
    sid = "\0"
    o = ['<g class="tl-legend">']
    for item in legend:
        x, y = item.x, item.y
        cy = y + 7
        box = f'x="{_n(x)}" y="{_n(y + 1)}" width="14" height="11" rx="2"'
        if item.kind == "bar":
            o.append(_bar_shape(f"tl-bar {item.css_class}", box, item.key, sid))
            if item.key == "exited-error":
                o.append(_cross(x + 7, cy))
        elif item.kind == "assumed":
            o.append(_bar_shape("tl-bar tl-ready", box, "ready", sid, assumed=True))
        elif item.kind == "break":
            o.append(f'<path class="tl-break-line" d="{_zigzag(x + 4, y, y + 13)}{_zigzag(x + 10, y, y + 13)}"/>')
        elif item.kind == "marker" and item.key == "exit":
            o.append(_glyph("exit", x + 3, cy, "tl-m-exit"))
            o.append(f'<text class="tl-exit-text" x="{_n(x + 6)}" y="{_n(cy + 3.5)}">0</text>')
        elif item.kind == "marker":
            o.append(_glyph(item.key, x + 7, cy, f"tl-m tl-m-{item.key}"))
        elif item.kind == "arrow":
            o.append(f'<path class={_q(item.css_class)} d="M{_n(x)} {_n(cy)}h10"/>')
            o.append(_arrow_head(((x, cy), (x + 14, cy)), "tl-arrow-head"))
        elif item.kind in ("obs", "obs-mark"):   # the observed lanes' (issue 23)
            o += observed_svg.legend_item(item, sid)
        else:                                # the traffic row's (docs/lifecycle-model.md §27)
            o += traffic_svg.legend_item(item, sid)
        o.append(f'<text class="tl-text tl-small" x="{_n(x + 20)}" y="{_n(y + 11)}">{_t(item.label)}</text>')
    o.append("</g>")
    return tuple(o)


@functools.lru_cache(maxsize=1024)
def _zigzag(x: float, y0: float, y1: float) -> str:
    """A vertical zig-zag from y0 to y1 around x: the mark of an axis break.  Cached (a pure
    function of three coordinates): the legend's are the same in every chart, and a break's
    edges stay where they are while the axis does."""
    return _zigzag_path(y0, y1).format(_n(x + 2.5), _n(x - 2.5), _n(x))


@functools.lru_cache(maxsize=256)
def _zigzag_path(y0: float, y1: float) -> str:
    """`_zigzag` from y0 to y1 with its x left open: {0} right of the line, {1} left, {2} on it
    (the same whatever the x, so a break anywhere on the axis reuses it)."""
    d = [f"M{{2}} {_n(y0)}"]
    y, side = y0, 1
    while y + 4 < y1:
        y += 4
        d.append(f"L{{{0 if side == 1 else 1}}} {_n(y)}")
        side = -side
    d.append(f"L{{2}} {_n(y1)}")
    return "".join(d)


def _svg_background(lay: TimelineLayout) -> list[str]:
    """Zebra lanes, group separators, the grid and both time axes."""
    o = ['<g class="tl-lanes">']
    above = LABEL_ROW if lay.stacked else 0      # a stacked lane's name row belongs to the lane
    for lane in lay.lanes:
        if lane.index % 2 == 1:
            o.append(f'<rect class="tl-zebra" x="{MARGIN}" y="{_n(lane.y - above)}" width="{_n(lay.width - 2 * MARGIN)}"'
                     f' height="{_n(lane.height + above)}"/>')
        if lane.index and lane.group != lay.lanes[lane.index - 1].group:
            o.append(f'<path class="tl-sep" d="M{MARGIN} {_n(lane.y - above - GROUP_GAP / 2)}H{_n(lay.width - MARGIN)}"/>')
    o += observed_svg.rows(lay)
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
        if not lay.stacked:          # stacked, each tick says "s"
            o.append(f'<text class="tl-muted tl-small" x="{_n(lay.role_x)}" y="{_n(y)}" text-anchor="end">'
                     f"{_t(lay.axis_label)}</text>")
    o.append("</g>")
    return o


def _svg_strip(lay: TimelineLayout, sid: str) -> list[str]:
    o = ['<g class="tl-strip">']
    for row in lay.strip_rows:
        if lay.stacked:               # the row's name above it: with the lanes' names (_svg_lanes)
            continue
        o.append(f'<text class="tl-text" x="{_n(lay.role_x)}" y="{_n(row.y + 13)}" text-anchor="end">'
                 f"{_t(row.label)}</text>")
    o.append(f'<g class="tl-plot" clip-path="url(#{sid}-plot)">')
    for seg in lay.segments:
        box = f'x="{_n(seg.x)}" y="{_n(seg.y)}" width="{_n(seg.width)}" height="{_n(seg.height)}"'
        o.append(f'<g class="tl-item" data-t0="{seg.t0:g}" data-t1="{seg.t1:g}"><title>{_t(seg.tooltip)}</title>'
                 f'<rect class={_q(seg.css_class)} {box}/>'
                 + (traffic_svg.segment_overlay(seg, box, sid) if seg.row == "traffic" else "")
                 + (observed_svg.segment_overlay(seg, box, sid) if seg.row == "observed" else ""))
        if seg.label:
            o.append(f'<text class="tl-seg-text" x="{_n(seg.label_x if seg.label_x is not None else seg.x + 4)}" y="{_n(seg.y + 12.5)}">{_t(seg.label)}</text>')
        o.append("</g>")
    o.append("</g></g>")
    return o


def _svg_lanes(lay: TimelineLayout, sid: str) -> list[str]:
    """Lane labels, bars, axis breaks, Pod-level guides, dependency arrows and markers, in drawing
    order.  Timed pieces carry their times (data-t, data-t0/t1) for the browser script."""
    # a lane's observed row collapses with it: data-obs is the height it adds (stacked: its name's row too)
    obs = f' data-obs="{lay.observed[0].height + (LABEL_ROW if lay.stacked else 0):g}"' if lay.observed else ""
    if lay.stacked:      # the names' rows after the plot, over the axis breaks' gaps that cross them
        o = [f'<g class="tl-plot" clip-path="url(#{sid}-plot)">\n<g class="tl-bars">']
        labels = (['<g class="tl-labels">']
                  + [f'<text class="tl-text tl-strip-name" x="{_n(lay.label_x + NAME_INDENT)}" y="{_n(row.y - 3)}">'
                     f"{_t(row.label)}</text>" for row in lay.strip_rows]
                  + [_stacked_label(lane, lay, obs) for lane in lay.lanes] + observed_svg.labels(lay) + ["</g>"])
    else:
        o, labels = ['<g class="tl-labels">'], []
    for lane in () if lay.stacked else lay.lanes:
        mid = lane.y + lane.height / 2
        o.append(f'<g class="tl-lane-label" data-lane="{lane.index}"{obs}><title>{_t(lane.tooltip)}</title>'
                 f'<rect class="tl-role-{lane.role}" x="{MARGIN}" y="{_n(lane.y + 3)}" width="4"'
                 f' height="{_n(lane.height - 6)}" rx="1"/>'
                 f'<text class="tl-text" x="{_n(lay.label_x)}" y="{_n(mid + 4)}">{_t(lane.label)}</text>'
                 f'<text class="tl-muted tl-small" x="{_n(lay.role_x)}" y="{_n(mid + 3.5)}" text-anchor="end">'
                 f"{_t(lane.role_label)}</text></g>")
    if not lay.stacked:
        o += observed_svg.labels(lay)
        o.append(f'</g>\n<g class="tl-plot" clip-path="url(#{sid}-plot)">\n<g class="tl-bars">')
    for i, bar in enumerate(lay.bars):
        box = f'x="{_n(bar.x)}" y="{_n(bar.y)}" width="{_n(max(bar.width, MIN_BAR_PX))}" height="{_n(bar.height)}" rx="2"'
        shape = _bar_shape(bar.css_class, box, bar.state, sid, bar.assumed)
        o.append(f'<g class="tl-item tl-bar-g" data-bar="{i}" data-lane="{bar.lane}" data-state="{bar.state}"'
                 f' data-t0="{bar.t0:g}" data-t1="{bar.t1:g}"><title>{_t(bar.tooltip)}</title>{shape}</g>')
    o += observed_svg.bars(lay, sid)
    o.append('</g>\n<g class="tl-breaks">')
    o += _svg_breaks(lay)
    o.append('</g>\n<g class="tl-guides">')
    strip_bottom = _n(lay.strip_rows[-1].y + lay.strip_rows[-1].height + 2)
    for g in lay.guides:
        text_cls = "tl-guide-text" + (" tl-guide-debug" if g.kind == "debug" else "")
        o.append(f'<g class="tl-item" data-t="{g.t:g}"><title>{_t(g.tooltip)}</title>'
                 f'<path class={_q(g.css_class)} d="M{_n(g.x)} {_n(g.y0)}V{strip_bottom}'
                 f'M{_n(g.x)} {_n(lay.lanes_top - 2)}V{_n(g.y1)}"/>'
                 f'<text class={_q(text_cls)} x="{_n(g.label_x)}" y="{_n(g.label_y)}" text-anchor="middle">'
                 f"{_t(g.label)}</text></g>")
    o.append('</g>\n<g class="tl-arrows">')
    for a in lay.arrows:
        d = "M" + "L".join(f"{_n(x)} {_n(y)}" for x, y in a.points)
        o.append(f'<g class="tl-item tl-arrow-g"><title>{_t(a.tooltip)}</title><path class={_q(a.css_class)} d="{d}"/>'
                 f"{_arrow_head(a.points, 'tl-arrow-head')}</g>")
    o.append('</g>\n<g class="tl-markers">')
    for m in lay.markers:
        label = ""
        if m.kind == "exit" and m.label_x is not None:
            cls = "tl-exit-text" + (" tl-error" if m.label != "0" else "")
            label = f'<text class="{cls}" x="{_n(m.label_x)}" y="{_n(m.y + 3.5)}">{_t(m.label)}</text>'
        cross = _cross(m.x, m.y) if m.kind == "exit" and m.label != "0" else ""
        o.append(f'<g class="tl-item" data-t="{m.t:g}" data-lane="{m.lane}"><title>{_t(m.tooltip)}</title>'
                 f"{_glyph(m.kind, m.x, m.y, m.css_class)}{cross}{label}</g>")
    o.append("</g>\n</g>")
    o += labels
    return o


def _stacked_label(lane: Lane, lay: TimelineLayout, obs: str = "") -> str:
    """A lane's name on the row above its bars, its role after it when there is room; the role's
    colour as a stripe down the left of both rows."""
    name_x = lay.label_x + NAME_INDENT
    role_x = name_x + text_width(lane.label) * SLACK + 8
    role = (f'<text class="tl-muted tl-small" x="{_n(role_x)}" y="{_n(lane.y - 3)}">{_t(lane.role_label)}</text>'
            if role_x + text_width(lane.role_label, SMALL) * SLACK <= lay.width - MARGIN else "")
    return (f'<g class="tl-lane-label" data-lane="{lane.index}"{obs}><title>{_t(lane.tooltip)}</title>'
            f'<rect class="tl-role-{lane.role}" x="{MARGIN}" y="{_n(lane.y - LABEL_ROW + 3)}" width="4"'
            f' height="{_n(lane.height + LABEL_ROW - 6)}" rx="1"/>'
            f'<text class="tl-text" x="{_n(name_x)}" y="{_n(lane.y - 3)}">{_t(lane.label)}</text>{role}</g>')


def _svg_breaks(lay: TimelineLayout) -> list[str]:
    """Each cut stretch: a gap with zig-zag edges across strip and lanes, the skipped time on the axes."""
    o = []
    spans = [(lay.lanes_top - 2, lay.lanes_bottom + 2)]
    if lay.strip_rows:
        spans.insert(0, (lay.strip_rows[0].y - 1, lay.strip_rows[-1].y + lay.strip_rows[-1].height + 1))
    for b in lay.breaks:
        a, z = b.x0 + 12, b.x1 - 12
        o.append(f'<g class="tl-break" data-t0="{b.t0:g}" data-t1="{b.t1:g}"><title>{_t(b.label)}</title>')
        for top, bottom in spans:
            o.append(f'<rect class="tl-break-gap" x="{_n(a)}" y="{_n(top)}" width="{_n(z - a)}"'
                     f' height="{_n(bottom - top)}"/>'
                     f'<path class="tl-break-line" d="{_zigzag(a, top, bottom)}{_zigzag(z, top, bottom)}"/>')
        for y in (lay.axis_y, lay.bottom_axis_y):
            o.append(f'<text class="tl-muted tl-small tl-break-text" x="{_n((b.x0 + b.x1) / 2)}" y="{_n(y)}"'
                     f' text-anchor="middle">{_t(b.label)}</text>')
        o.append("</g>")
    return o
