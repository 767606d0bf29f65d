"""The traffic row's markup (`timeline.traffic` lays it out; docs/lifecycle-model.md §27).

A failure window is drawn twice: a red, cross-hatched band across the container lanes (under their
bars, so it shows where no container runs), and on the traffic row a red box with its words
("✕ requests fail").  Pattern and words as well as colour.  The moment the endpoint change has
reached the proxies is a glyph on the row (an open ring with a bar), dashed when its time is assumed.
Timed pieces carry data-t / data-t0 / data-t1 as the other items do, so the cursor, zoom and
tooltips of static/js/timeline.js treat them alike.
"""
from __future__ import annotations

from typing import Any

from ..svg_text import _n, _q, _t


def defs(sid: str) -> str:
    """The cross-hatching of failure windows."""
    return (f'<pattern id="{sid}-cross" width="6" height="6" patternUnits="userSpaceOnUse">'
            '<path class="tl-cross" d="M0 0l6 6M6 0l-6 6"/></pattern>')


def segment_overlay(seg: Any, box: str, sid: str) -> str:
    """Over a traffic segment: hatching while draining, dots when its length is assumed."""
    out = ""
    if "tl-traffic-draining" in seg.css_class:
        out += f'<rect class="tl-pattern" {box} fill="url(#{sid}-hatch)"/>'
    if seg.assumed:
        out += f'<rect class="tl-assumed" {box} fill="url(#{sid}-dots)"/>'
    return out


def reach_glyph(x: float, y: float, css: str) -> str:
    """An open ring on a short bar: the change has arrived."""
    return (f'<g class={_q(css)}><path d="M{_n(x)} {_n(y - 6)}v12"/>'
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="3.6"/></g>')


def legend_item(item: Any, sid: str) -> list[str]:
    """The swatch of a traffic legend entry (its text is written by the caller)."""
    x, y = item.x, item.y
    box = f'x="{_n(x)}" y="{_n(y + 1)}" width="14" height="11" rx="2"'
    if item.kind == "traffic":
        seg = _Swatch(item.css_class)
        return [f"<rect class={_q(item.css_class)} {box}/>" + segment_overlay(seg, box, sid)]
    if item.kind == "failure":
        return [f'<rect class="tl-fail" {box}/><rect class="tl-fail-x" {box} fill="url(#{sid}-cross)"/>']
    if item.kind == "reach":
        return [reach_glyph(x + 7, y + 7, "tl-m-reach")]
    if item.kind == "deleted":
        return [f'<path class="tl-t-deleted" d="M{_n(x + 7)} {_n(y)}v13"/>']
    return []


class _Swatch:
    """A legend swatch seen as a segment (never assumed: the assumed pattern has its own entry)."""

    assumed = False

    def __init__(self, css_class: str) -> None:
        self.css_class = css_class


def markup(lay: Any, sid: str) -> list[str]:
    """Failure windows (band and row) and the proxies' moments, clipped to the plot."""
    if not lay.failures and not lay.reaches and not lay.deletions:
        return []
    o = [f'<g class="tl-plot tl-traffic" clip-path="url(#{sid}-plot)">']
    for f in lay.failures:
        band = f'x="{_n(f.x)}" y="{_n(f.band_y0)}" width="{_n(f.width)}" height="{_n(f.band_y1 - f.band_y0)}"'
        row = f'x="{_n(f.x)}" y="{_n(f.row_y)}" width="{_n(f.width)}" height="{_n(f.row_height)}"'
        across = (f'<rect class="tl-fail-band" {band}/><rect class="tl-fail-band-x" {band} fill="url(#{sid}-cross)"/>'
                  if f.band_y1 > f.band_y0 else "")
        dots = f'<rect class="tl-assumed" {row} fill="url(#{sid}-dots)"/>' if f.assumed else ""
        o.append(f'<g class="tl-item tl-fail-g" data-t0="{f.t0:g}" data-t1="{f.t1:g}" data-reason={_q(f.reason)}>'
                 f'<title>{_t(f.tooltip)}</title>{across}'
                 f'<rect class="tl-fail" {row}/><rect class="tl-fail-x" {row} fill="url(#{sid}-cross)"/>{dots}'
                 + (f'<text class="tl-fail-text" x="{_n(f.label_x)}" y="{_n(f.row_y + 12.5)}">{_t(f.label)}</text>'
                    if f.label else "") + "</g>")
    for m in lay.deletions:
        o.append(f'<g class="tl-item tl-reach-g" data-t="{m.t:g}"><title>{_t(m.tooltip)}</title>'
                 f'<path class="tl-t-deleted" d="M{_n(m.x)} {_n(m.y0)}V{_n(m.y1)}"/></g>')
    for r in lay.reaches:
        css = "tl-m-reach" + (" tl-m-assumed" if r.assumed else "")
        o.append(f'<g class="tl-item tl-reach-g" data-t="{r.t:g}"><title>{_t(r.tooltip)}</title>'
                 f"{reach_glyph(r.x, r.y, css)}</g>")
    o.append("</g>")
    return o
