"""The rollout picture as a standalone SVG document (issue 22; docs/lifecycle-model.md §26).

`rollout.layout` lays it out; the Pod timeline's markup functions draw its lanes, strip row, axes,
axis breaks and guides (`timeline.svg`), and this module adds the legend and the counts chart.  No
script, no external reference, every text escaped, light and dark colours.  A step line carries
its points as ``data-steps`` ("t,y t,y …") so that static/js/timeline.js can lay it out again
when the reader zooms.
"""
from __future__ import annotations

import hashlib

from explainer.lifecycle.rollout.model import Rollout
from .layout import CountsChart, RolloutLayout, Series, ceiling_of, floor_of, layout_rollout
from ..svg_text import _n, _q, _t
from ..timeline.model import MARGIN, SLACK, Gettext, _cut, _identity, _secs
from ..timeline.svg import (
    Placement,
    _shown_heading,
    _bar_shape,
    _defs,
    _glyph,
    _svg_background,
    _svg_lanes,
    _svg_strip,
    _zigzag,
)
from ..timeline.style import STACKED_STYLE, STYLE

ROLLOUT_STYLE = """
.ro-ready{fill:#7aba90}
.ro-old-x{stroke:#111827;stroke-opacity:.45;stroke-width:1.2}
.tl-role-old{fill:#9ca3af}
.tl-role-new{fill:#2563eb}
.ro-progress{fill:#c6daf2}
.ro-complete{fill:#8fcaa5}
.ro-stalled{fill:#f2c6c6}
.ro-guide-complete{stroke:#166534;stroke-width:1.4;stroke-dasharray:5 4}
.ro-guide-stalled{stroke:#b42318;stroke-width:1.6;stroke-dasharray:2 3}
.ro-done .tl-guide-text{fill:#166534}
.ro-frame{fill:none;stroke:#d1d5db}
.ro-grid{stroke:#eef0f3;stroke-width:1}
.ro-line{fill:none;stroke-linejoin:round}
.ro-desired{stroke:#6b7280;stroke-width:1.2}
.ro-total{stroke:#111827;stroke-width:1.6;stroke-dasharray:7 3}
.ro-available{stroke:#15803d;stroke-width:3}
.ro-ready.ro-line{stroke:#2563eb;stroke-width:1.6;stroke-dasharray:1.5 2.5;fill:none}
.ro-terminating{stroke:#b45309;stroke-width:1.8;stroke-dasharray:6 2 1.5 2}
.ro-level{stroke-width:1.2;stroke-dasharray:2 2}
.ro-floor{stroke:#b42318}
.ro-ceiling{stroke:#7c3aed}
.ro-level-text{font-size:10px}
.ro-floor-text{fill:#b42318}
.ro-ceiling-text{fill:#6d28d9}
.ro-end-text{font-size:10px;fill:#1f2937}
.ro-dense .tl-lane-label .tl-text{font-size:9.5px}
.ro-dense .tl-lane-label .tl-small{font-size:8.5px}
@media (prefers-color-scheme: dark){
.ro-ready{fill:#347a54}
.ro-old-x{stroke:#f9fafb;stroke-opacity:.5}
.tl-role-old{fill:#6b7280}
.tl-role-new{fill:#60a5fa}
.ro-progress{fill:#27466e}
.ro-complete{fill:#2e7a52}
.ro-stalled{fill:#6b2c2c}
.ro-guide-complete{stroke:#86efac}
.ro-guide-stalled{stroke:#f87171}
.ro-done .tl-guide-text{fill:#86efac}
.ro-frame{stroke:#374151}
.ro-grid{stroke:#1f2937}
.ro-desired{stroke:#9ca3af}
.ro-total{stroke:#f3f4f6}
.ro-available{stroke:#4ade80}
.ro-ready.ro-line{stroke:#93c5fd}
.ro-terminating{stroke:#fbbf24}
.ro-floor{stroke:#f87171}
.ro-ceiling{stroke:#c4b5fd}
.ro-floor-text{fill:#fca5a5}
.ro-ceiling-text{fill:#c4b5fd}
.ro-end-text{fill:#e5e7eb}
}
"""


def rollout_id(name: str, suffix: str = "") -> str:
    return "ro" + hashlib.sha1(name.encode("utf-8")).hexdigest()[:8] + suffix


def render_rollout_svg(rollout: Rollout, name: str, *, gettext: Gettext = _identity, title: str | None = None,
                       view_end: float | None = None, px_per_second: float | None = None) -> str:
    """The rollout of workload ``name`` as a standalone SVG document."""
    lay = layout_rollout(rollout, name, gettext=gettext, view_end=view_end, px_per_second=px_per_second)
    return rollout_document(rollout, lay, gettext=gettext, title=title)


def describe(rollout: Rollout, lay: RolloutLayout, _: Gettext) -> str:
    """The picture in one paragraph (its <desc>, for screen readers)."""
    old = sum(1 for p in rollout.pods if p.revision == "old")
    text = _("{n} Pods, {old} of the old revision and {new} of the new, shown from 0 to {end} s.").format(
        n=len(rollout.pods), old=old, new=len(rollout.pods) - old, end=_secs(lay.chart.view_end))
    text += " " + lay.chart.note
    text += " " + _("At least {a} Pods available at every moment (the floor is {f}); at most {p} Pods not being "
                    "deleted (the ceiling is {c}), {q} counting the terminating ones.").format(
        a=rollout.min_available, f=floor_of(rollout), p=rollout.max_pods, c=ceiling_of(rollout),
        q=rollout.max_pods_including_terminating)
    return text


def rollout_document(rollout: Rollout, lay: RolloutLayout, *, gettext: Gettext = _identity,
                     title: str | None = None, placement: Placement | None = None, id_suffix: str = "") -> str:
    """``id_suffix``: a second drawing of one rollout in one page (a page's phone-sized one)."""
    _ = gettext
    chart = lay.chart
    sid = rollout_id(chart.pod, (placement.id_suffix if placement is not None else "") + id_suffix)
    heading = title if title is not None else lay.heading
    w, h = _n(chart.width), _n(chart.height)
    cls = "tl-root ro-root" + (" ro-dense" if lay.dense else "") + (" ro-done" if rollout.complete_at is not None
                                                                    else "") + (" tl-stacked" if chart.stacked else "")
    label = f'role="img" aria-labelledby="{sid}-title {sid}-desc"'
    if placement is None:
        o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
             f'class="{cls}" {label}>']
    else:
        pw = f"{placement.width:g}"
        o = [f'<svg xmlns="http://www.w3.org/2000/svg" class="{cls}" {label} width="{pw}" height="{h}" '
             f'viewBox="0 0 {pw} {h}" data-view-end="{placement.view_end:g}" '
             f'data-px-per-second="{chart.px_per_second:g}" data-time-origin="{placement.time_origin:g}">'
             f'<rect class="tl-bg" width="{pw}" height="{h}"/><g transform="translate({placement.offset:g} 0)">']
    o += [
        f'<title id="{sid}-title">{_t(heading)}</title>',
        f'<desc id="{sid}-desc">{_t(describe(rollout, lay, _))}</desc>',
        f"<style>{STYLE}{ROLLOUT_STYLE}{STACKED_STYLE if chart.stacked else ''}</style>",
        _defs(sid, chart).replace("</defs>", _old_pattern(sid) + "</defs>"),
        f'<rect class="tl-bg" width="{w}" height="{h}"/>',
        f'<text class="tl-head" x="{MARGIN}" y="{_n(chart.heading_y)}">{_t(_shown_heading(heading, chart))}</text>',
    ]
    o += _legend(lay, sid)
    if chart.note:
        o.append(f'<text class="tl-note" x="{_n(chart.plot_x)}" y="{_n(chart.note_y)}">{_t(chart.note)}</text>')
    o += _svg_background(chart)
    o += _svg_strip(chart, sid)
    o += _counts(lay, sid)
    o += _svg_lanes(chart, sid)
    o += ["</svg>" if placement is None else "</g></svg>", ""]
    return "\n".join(o)


def _old_pattern(sid: str) -> str:
    """The old revision's mark on its bars: thin vertical lines (the new revision's bars are plain)."""
    return (f'<pattern id="{sid}-old" width="4" height="4" patternUnits="userSpaceOnUse">'
            '<path class="ro-old-x" d="M1 0v4"/></pattern>')


def _legend(lay: RolloutLayout, sid: str) -> list[str]:
    o = ['<g class="tl-legend">']
    for item in lay.chart.legend:
        x, y = item.x, item.y
        cy = y + 7
        box = f'x="{_n(x)}" y="{_n(y + 1)}" width="14" height="11" rx="2"'
        if item.kind == "bar":
            o.append(_bar_shape(item.css_class, box, item.key, sid))
        elif item.kind == "rev":
            o.append(_bar_shape("tl-bar tl-ready ro-old", box, "available", sid))
        elif item.kind == "marker":
            o.append(_glyph(item.key, x + 7, cy, f"tl-m tl-m-{item.key}"))
        elif item.kind == "line":
            o.append(f'<path class={_q(item.css_class)} d="M{_n(x)} {_n(cy)}h16"/>')
        elif item.kind == "level":
            o.append(f'<path class={_q(item.css_class)} d="M{_n(x)} {_n(cy)}h16"/>')
        elif item.kind == "break":
            o.append(f'<path class="tl-break-line" d="{_zigzag(x + 4, y, y + 13)}{_zigzag(x + 10, y, y + 13)}"/>')
        o.append(f'<text class="tl-text tl-small" x="{_n(x + 20)}" y="{_n(y + 11)}">{_t(item.label)}</text>')
    o.append("</g>")
    return o


def steps_path(points: tuple[tuple[float, float], ...], x_of) -> str:
    """A step line through ``points`` (t, y): level until the next change, then straight up or down."""
    (t0, y0), rest = points[0], points[1:]
    d = [f"M{_n(x_of(t0))} {_n(y0)}"]
    for t, y in rest:
        d.append(f"H{_n(x_of(t))}V{_n(y)}")
    return "".join(d)


def _counts(lay: RolloutLayout, sid: str) -> list[str]:
    chart, c = lay.chart, lay.counts
    end = chart.plot_x + chart.plot_width
    o = ['<g class="ro-counts">',
         f'<text class="tl-text" x="{_n(chart.label_x)}" y="{_n(c.top - 9 if chart.stacked else c.label_y)}">'
         f'{_t(c.label)}</text>',
         f'<rect class="ro-frame" x="{_n(chart.plot_x)}" y="{_n(c.top)}" width="{_n(chart.plot_width)}" '
         f'height="{_n(c.bottom - c.top)}"/>']
    for v, y in c.gridlines:
        o.append(f'<path class="ro-grid" d="M{_n(chart.plot_x)} {_n(y)}H{_n(end)}"/>'
                 f'<text class="tl-muted tl-small" x="{_n(chart.role_x)}" y="{_n(y + 3.5)}" text-anchor="end">'
                 f"{v}</text>")
    # the time grid and the axis breaks as the lanes have them (a zoom hides both and draws its own)
    o.append('<g class="tl-axes">' + "".join(f'<path class="tl-grid" d="M{_n(tick.x)} {_n(c.top)}V{_n(c.bottom)}"/>'
                                             for tick in chart.ticks) + "</g>")
    o.append('<g class="tl-breaks">')
    for b in chart.breaks:
        a, z = b.x0 + 12, b.x1 - 12
        o.append(f'<rect class="tl-break-gap" x="{_n(a)}" y="{_n(c.top)}" width="{_n(z - a)}" '
                 f'height="{_n(c.bottom - c.top)}"/><path class="tl-break-line" '
                 f'd="{_zigzag(a, c.top, c.bottom)}{_zigzag(z, c.top, c.bottom)}"/>')
    o.append("</g>")
    for g in chart.guides:
        o.append(f'<g class="tl-item" data-t="{g.t:g}"><path class={_q(g.css_class)} '
                 f'd="M{_n(g.x)} {_n(c.top)}V{_n(c.bottom)}"/></g>')
    for lv in c.levels:
        o.append(f'<g class="ro-level-g"><title>{_t(lv.tooltip)}</title>'
                 f'<path class={_q(lv.css_class)} d="M{_n(chart.plot_x)} {_n(lv.y)}H{_n(end)}"/>'
                 f'<text class="ro-level-text ro-{lv.key}-text" x="{_n(chart.plot_x + 4)}" y="{_n(lv.label_y)}">'
                 f"{_t(_cut(lv.label, (chart.plot_width - 8) / SLACK, 10.0) if chart.fitted else lv.label)}</text></g>")
    o.append(f'<g class="tl-plot" clip-path="url(#{sid}-plot)">')
    o += [_series(s, chart.x_at) for s in c.series]
    o.append("</g>")
    for s in c.series:
        o.append(f'<text class="ro-end-text" x="{_n(end + 6)}" y="{_n(s.end_y)}">{_t(s.end_label)}</text>')
    o.append("</g>")
    return o


def _series(s: Series, x_of) -> str:
    steps = " ".join(f"{t:g},{y:g}" for t, y in s.points)
    return (f'<g class="tl-item tl-series" data-series="{s.key}" data-steps="{steps}"><title>{_t(s.tooltip)}</title>'
            f'<path class={_q(s.css_class)} d="{steps_path(s.points, x_of)}"/></g>')


__all__ = ["ROLLOUT_STYLE", "CountsChart", "describe", "render_rollout_svg", "rollout_document", "rollout_id",
           "steps_path"]
