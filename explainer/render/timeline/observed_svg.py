"""The observed lanes' markup (`timeline.observed` lays them out; docs/lifecycle-model.md §34-§36).

An observed row is tinted and has a dashed line on top; its label says "↳ observed".  Its bars have the
predicted lanes' colours with a pattern of fine vertical ticks over them (never colour alone); an inferred run is
faded and outlined with dashes; what the prediction leaves out (image pulls, the time before the first container)
is cross-hatched grey with its name.  Marks are the prediction's glyphs (an exit's tick and code, the restart arrow,
SIGTERM's triangle for Killing, a probe's cross) and three of their own: a ring where the output printed a state,
a dot on a stem where kubectl printed its columns, "≠" where the cluster differs from the prediction.
Timed pieces carry data-t / data-t0 / data-t1 (and data-lane, so that collapsing a lane group hides its observed
row too), so the cursor, zoom and tooltips of static/js/timeline.js treat them as the others.
"""
from __future__ import annotations

from typing import Any

from ..svg_text import _n, _q, _t
from .model import LABEL_ROW, MARGIN, NAME_INDENT, SLACK, _cut

NOTE_SIZE = 10.0      # .tl-obs-note's font-size

# Written only into charts with an observation, so the other charts stay as they were.  The bars take the
# state colours of the timeline's STYLE; these are the observed rows' own.
OBSERVED_STYLE = """
.tl-obs-row{fill:#f4f6fb}
.tl-obs-sep{stroke:#9ca3af;stroke-width:1;stroke-dasharray:3 3}
.tl-obs-name{fill:#4b5563;font-size:10.5px;font-style:italic}
.tl-obs-note{fill:#4b5563;font-size:10px;font-style:italic;paint-order:stroke;stroke:#f4f6fb;stroke-width:4px}
.tl-obs-grain{stroke:#111827;stroke-opacity:.45;stroke-width:.9}
.tl-obs-inferred{fill-opacity:.4;stroke:#374151;stroke-width:1;stroke-dasharray:2.5 2}
.tl-obs-pull,.tl-obs-setup{fill:#e5e7eb}
.tl-obs-unmod{stroke:#4b5563;stroke-width:.9;stroke-opacity:.8}
.tl-obs-text{fill:#1f2937;font-size:10px;paint-order:stroke;stroke:#f4f6fb;stroke-width:3px}
.tl-obs-m{fill:none;stroke:#374151;stroke-width:1.5}
.tl-obs-m-kill{fill:#d97a1e;stroke:none}
.tl-obs-m-probe-failed,.tl-obs-m-failed{stroke:#c0392b;stroke-width:2}
.tl-obs-m-backoff{stroke:#6f3852;stroke-width:2}
.tl-obs-m-restart{stroke:#6d4fc2;stroke-width:1.8}
.tl-obs-m-seen{fill:#ffffff;stroke:#1f2937;stroke-width:1.4}
.tl-obs-m-snapshot{fill:#1f2937;stroke:#1f2937;stroke-width:1.2}
.tl-obs-m-differs{fill:#ffffff;stroke:#b42318;stroke-width:1.4}
.tl-obs-diff-text{fill:#b42318;font-size:10px;font-weight:700}
.tl-obs-exit-text{fill:#374151;font-size:10px;font-weight:600}
.tl-obs-exit-text.tl-error{fill:#b42318}
@media (prefers-color-scheme: dark){
.tl-obs-row{fill:#18202f}
.tl-obs-sep{stroke:#6b7280}
.tl-obs-name,.tl-obs-note{fill:#b6bec9}
.tl-obs-note{stroke:#18202f}
.tl-obs-grain{stroke:#f9fafb;stroke-opacity:.45}
.tl-obs-inferred{stroke:#d1d5db}
.tl-obs-pull,.tl-obs-setup{fill:#374151}
.tl-obs-unmod{stroke:#d1d5db}
.tl-obs-text{fill:#e5e7eb;stroke:#18202f}
.tl-obs-m{stroke:#d1d5db}
.tl-obs-m-kill{fill:#fbbf24}
.tl-obs-m-probe-failed,.tl-obs-m-failed{stroke:#f87171}
.tl-obs-m-backoff{stroke:#d8a9bd}
.tl-obs-m-restart{stroke:#c4b5fd}
.tl-obs-m-seen{fill:#111827;stroke:#e5e7eb}
.tl-obs-m-snapshot{fill:#e5e7eb;stroke:#e5e7eb}
.tl-obs-m-differs{fill:#111827;stroke:#f87171}
.tl-obs-diff-text{fill:#fca5a5}
.tl-obs-exit-text{fill:#e5e7eb}
.tl-obs-exit-text.tl-error{fill:#fca5a5}
}
"""

# A phone's chart (stacked): a row's name above it, haloed as the lanes' names are (timeline.style.STACKED_STYLE).
STACKED_STYLE = """
.tl-obs-name{paint-order:stroke;stroke:#f4f6fb;stroke-width:3px;stroke-linejoin:round}
@media (prefers-color-scheme: dark){.tl-obs-name{stroke:#18202f}}
"""


def defs(sid: str) -> str:
    """Fine vertical ticks over an observed bar; a grey cross-hatch over what the prediction leaves out."""
    return (f'<pattern id="{sid}-grain" width="3" height="4" patternUnits="userSpaceOnUse">'
            '<path class="tl-obs-grain" d="M1.5 0v4"/></pattern>'
            f'<pattern id="{sid}-unmod" width="6" height="6" patternUnits="userSpaceOnUse">'
            '<path class="tl-obs-unmod" d="M0 6l6-6M0 0l6 6"/></pattern>')


def bar_shape(css: str, box: str, state: str, sid: str) -> str:
    out = f"<rect class={_q(css)} {box}/>"
    if state == "backoff":
        out += f'<rect class="tl-pattern" {box} fill="url(#{sid}-stripes)"/>'
    if state == "pull":
        out += f'<rect class="tl-pattern" {box} fill="url(#{sid}-unmod)"/>'
    else:
        out += f'<rect class="tl-pattern" {box} fill="url(#{sid}-grain)"/>'
    return out


def glyph(kind: str, x: float, y: float, css: str, label: str = "") -> str:
    """A mark's shape, centred on (x, y)."""
    c = _q(css)
    if kind == "exit":
        return f'<path class={c} d="M{_n(x)} {_n(y - 5)}v10"/>' + (
            f'<path class="tl-m-cross" d="M{_n(x - 3)} {_n(y - 3)}l6 6m0-6l-6 6"/>' if label not in ("", "0") else "")
    if kind == "restart":
        return (f'<path class={c} d="M{_n(x + 3.2)} {_n(y - 1)}a3.4 3.4 0 1 1-1.3-2.3"/>'
                f'<path class={c} d="M{_n(x + 0.4)} {_n(y - 4.3)}l2.2 1.1l-1.1 2.2"/>')
    if kind == "kill":
        return f'<path class={c} d="M{_n(x - 4)} {_n(y - 3.5)}h8l-4 7z"/>'
    if kind == "probe-failed":
        return f'<path class={c} d="M{_n(x - 3)} {_n(y - 3)}l6 6m0-6l-6 6"/>'
    if kind == "failed":
        return f'<path class={c} d="M{_n(x)} {_n(y - 4.5)}v5.5m0 2v1.5"/>'
    if kind == "backoff":
        return f'<path class={c} d="M{_n(x - 2)} {_n(y - 3.5)}v7M{_n(x + 2)} {_n(y - 3.5)}v7"/>'
    if kind == "seen":
        return f'<circle class={c} cx="{_n(x)}" cy="{_n(y)}" r="3.2"/>'
    if kind == "snapshot":
        return f'<path class={c} d="M{_n(x)} {_n(y - 6)}v12"/><circle class={c} cx="{_n(x)}" cy="{_n(y)}" r="2.8"/>'
    if kind == "differs":
        return (f'<circle class={c} cx="{_n(x)}" cy="{_n(y)}" r="5.4"/>'
                f'<text class="tl-obs-diff-text" x="{_n(x)}" y="{_n(y + 3.4)}" text-anchor="middle">≠</text>')
    return ""


def rows(lay: Any) -> list[str]:
    """The observed rows' tint and the dashed line on top of each (under the grid and the bars)."""
    out = []
    above = LABEL_ROW if lay.stacked else 0        # stacked: the row's name above it is tinted with it
    for r in lay.observed:
        out.append(f'<rect class="tl-obs-row" x="{MARGIN}" y="{_n(r.y - above)}" width="{_n(lay.width - 2 * MARGIN)}"'
                   f' height="{_n(r.height + above)}"/>'
                   f'<path class="tl-obs-sep" d="M{MARGIN} {_n(r.y - above)}H{_n(lay.width - MARGIN)}"/>')
    return out


def labels(lay: Any) -> list[str]:
    """Each observed row's label, in the name column (with the predicted lane's data-lane: it collapses with it);
    stacked (a phone), on a row of its own above it, as the lanes' names are."""
    out = []
    for r in lay.observed:
        x, y = (lay.label_x + NAME_INDENT + 8, r.y - 3) if lay.stacked else (lay.label_x + 8, r.y + r.height / 2 + 3.5)
        out.append(f'<g class="tl-obs-label" data-lane="{r.lane}"><title>{_t(r.tooltip)}</title>'
                   f'<text class="tl-obs-name" x="{_n(x)}" y="{_n(y)}">'
                   f"{_t(r.label)}</text></g>")
    return out


def bars(lay: Any, sid: str) -> list[str]:
    """The observed bars (drawn with the predicted ones: an axis break's gap covers both)."""
    o = []
    for i, b in enumerate(lay.obs_bars):
        box = f'x="{_n(b.x)}" y="{_n(b.y)}" width="{_n(max(b.width, 3.0))}" height="{_n(b.height)}" rx="1.5"'
        label = (f'<text class="tl-obs-text" x="{_n(b.label_x)}" y="{_n(b.y + b.height - 1.5)}">{_t(b.label)}</text>'
                 if b.label and b.label_x is not None else "")
        o.append(f'<g class="tl-item tl-obs-g tl-obs-item" data-obs="{i}" data-lane="{b.lane}" data-state="{b.state}"'
                 f' data-t0="{b.t0:g}" data-t1="{b.t1:g}"><title>{_t(b.tooltip)}</title>'
                 f"{bar_shape(b.css_class, box, b.state, sid)}{label}</g>")
    return o


def markup(lay: Any, sid: str) -> list[str]:
    """The rows' notes and the marks, over everything else, clipped to the plot."""
    if not lay.observed:
        return []
    o = [f'<g class="tl-plot tl-obs" clip-path="url(#{sid}-plot)">']
    for r in lay.observed:
        if r.note:          # within the plot (a phone's is narrow): cut, the whole note in its tooltip
            shown = _cut(r.note, (lay.plot_width - 8) / SLACK, NOTE_SIZE)
            o.append(f'<g data-lane="{r.lane}">' + (f"<title>{_t(r.note)}</title>" if shown != r.note else "")
                     + f'<text class="tl-obs-note" x="{_n(lay.plot_x + 4)}"'
                     f' y="{_n(r.y + r.height / 2 + 3.5)}">{_t(shown)}</text></g>')
    for m in lay.obs_marks:
        label = ""
        if m.label and m.label_x is not None:
            cls = "tl-obs-exit-text" + (" tl-error" if m.kind == "exit" and m.label != "0" else "")
            if m.kind != "exit":
                cls = "tl-obs-text"
            label = f'<text class="{cls}" x="{_n(m.label_x)}" y="{_n(m.y + 3.5)}">{_t(m.label)}</text>'
        lane = f' data-lane="{m.lane}"' if m.lane >= 0 else ""
        o.append(f'<g class="tl-item tl-obs-g tl-obs-item" data-t="{m.t:g}"{lane}><title>{_t(m.tooltip)}</title>'
                 f"{glyph(m.kind, m.x, m.y, m.css_class, m.label)}{label}</g>")
    o.append("</g>")
    return o


def segment_overlay(seg: Any, box: str, sid: str) -> str:
    """Over the strip's segment of the time before the first container: the cross-hatch of what is left out."""
    return f'<rect class="tl-pattern" {box} fill="url(#{sid}-unmod)"/>' if "tl-obs-setup" in seg.css_class else ""


def legend_item(item: Any, sid: str) -> list[str]:
    """The swatch of an observed legend entry (its text is written by the caller)."""
    x, y = item.x, item.y
    box = f'x="{_n(x)}" y="{_n(y + 2)}" width="14" height="9" rx="1.5"'
    if item.kind == "obs":
        state = {"observed": "running", "inferred": "inferred", "unmodelled": "pull"}.get(item.key, "running")
        return [bar_shape(item.css_class, box, state, sid)]
    if item.kind == "obs-mark":
        return [glyph(item.key, x + 7, y + 7, item.css_class, "1" if item.key == "exit" else "")]
    return []
