"""The observed lanes of the Pod timeline: what the cluster shows, under the prediction (issue 23;
docs/lifecycle-model.md §34-§36).

Under each container's predicted lane, a thinner lane in the same encoding (the same state colours, back-off
stripes, exit marks with their code and a cross where it is not 0), marked as observed by its label ("↳ observed")
and a pattern of its own (fine vertical ticks); inferred runs faded and outlined with dashes; what the prediction
leaves out (scheduling and the sandbox before the first container, image pulls) cross-hatched and named; the
events that say what the kubelet did (Killing, Unhealthy, BackOff, warnings) with the prediction's glyphs; each
divergence where it happened ("≠").  A strip row "Observed" under Status holds kubectl's READY/STATUS/RESTARTS
as printed (each `get pod` row, and a status printed as `printPod` computes it) where it was printed, and the
time before the first container.  The same facts as table rows, the cursor's words and (observed_pieces.py)
the story's steps.

Times (observed_pieces.py) and pixels of `timeline.layout_timeline`'s axis: the markup is
`timeline.observed_svg`'s.  Nothing here runs for a Pod without an observation, so those charts stay as they were.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from explainer.lifecycle.observed import ObservedReport, spec_of
from explainer.lifecycle.records import quick_init
from .. import observed_pieces as op
from ..observed_pieces import Pieces, RawBar, RawMark
from ..story import Step
from .model import SMALL, Gettext, Lane, Segment, StripRow, _r, _secs, text_width
from .place import _label_place
from .walk import lane_containers
from explainer.lifecycle.records import record

OBS_ROW = 16.0          # an observed lane's height, under its container's lane
OBS_INSET = 3.0
_GLYPH = 9.0
_CSS = {"running": "tl-running", "inferred": "tl-running tl-obs-inferred", "pull": "tl-obs-pull",
        "waiting": "tl-waiting", "backoff": "tl-backoff"}


@quick_init
@record
class ObsLane:
    lane: int                    # the predicted lane it is under
    name: str
    y: float
    height: float
    label: str                   # "↳ observed"
    note: str                    # what the row says when the paste puts nothing on it ("" otherwise)
    tooltip: str


@quick_init
@record
class ObsBar:
    lane: int
    state: str                   # running | inferred | pull | waiting | backoff
    t0: float
    t1: float
    x: float
    width: float
    y: float
    height: float
    css_class: str
    tooltip: str
    label: str = ""
    label_x: float | None = None


@quick_init
@record
class ObsMark:
    lane: int                    # -1: the strip's Observed row
    kind: str                    # observed_pieces.RawMark.kind
    t: float
    x: float
    y: float
    css_class: str
    tooltip: str
    label: str = ""
    label_x: float | None = None
    dashed: bool = False


def pieces_of(report: Any, names: Sequence[str]) -> Pieces | None:
    """The observation of ``report``'s Pod in pieces (None without one, or without a simulation)."""
    obs: ObservedReport | None = getattr(report, "observed", None)
    if obs is None or report.simulation is None:
        return None
    return op.pieces(obs, list(names), spec_of(report.pod))


def story_of(report: Any) -> list[Step]:
    """The story's steps of what the cluster shows (observed_pieces.story_steps), for ``report``'s lanes."""
    p = pieces_of(report, [c.name for c in lane_containers(report)])
    return op.story_steps(p) if p is not None else []


def reach(p: Pieces) -> float | None:
    """The latest moment the chart must show for the observation."""
    times = [t for t in p.moments() if t is not None]
    return max(times) if times else None


def view_end_after(p: Pieces, end: float) -> float:
    """A window end that shows everything the paste places (a little room after its last moment)."""
    seen = reach(p)
    if seen is None or seen <= end:
        return end
    return float(math.ceil(seen + max(2.0, 0.05 * seen)))


def legend_entries(p: Pieces, _: Gettext) -> list[tuple[str, str, str, str]]:
    """The legend's observed entries (kind, key, label, class): what this chart shows of them."""
    states = {b.state for bs in p.bars.values() for b in bs}
    kinds = {m.kind for m in p.marks}
    out = [("obs", "observed", _("Observed in the cluster"), "tl-bar tl-obs-bar tl-running")]
    if "inferred" in states:
        out.append(("obs", "inferred", _("Inferred run (not in the paste)"), "tl-bar tl-obs-bar " + _CSS["inferred"]))
    if "pull" in states or p.setup is not None:
        out.append(("obs", "unmodelled", _("Not in the prediction: scheduling, sandbox, image pull"),
                    "tl-bar tl-obs-pull"))
    labels = {"kill": _("Killing (observed)"), "probe-failed": _("Probe failed (observed)"),
              "backoff": _("BackOff (observed)"), "failed": _("Warning event (observed)"),
              "snapshot": _("kubectl printed this"), "seen": _("State when the output was printed"),
              "differs": _("Differs from the prediction")}
    out += [("obs-mark", k, labels[k], f"tl-obs-m tl-obs-m-{k}") for k in labels if k in kinds]
    return out


def lane_row(lane: Lane, y: float, p: Pieces, _: Gettext) -> ObsLane:
    note = p.notes.get(lane.name)
    return ObsLane(lane.index, lane.name, _r(y), OBS_ROW, _(op.LANE_LABEL), note.render(_) if note else "",
                   _(op.LANE_TIP).format(c=lane.name))


def _words(b: RawBar, _: Gettext) -> str:
    value = _(op.STATE_WORDS[b.state])
    return f"{value} ({b.reason})" if b.reason and b.state in ("waiting", "backoff") else value


def bars(p: Pieces, rows: dict[str, ObsLane], view_end: float, x_of: Callable[[float], float],
         _: Gettext) -> list[ObsBar]:
    """Each observed stretch on its row; one still so when the output was printed ends where the paste ends."""
    out: list[ObsBar] = []
    for name, raw in p.bars.items():
        open_end = p.until.get(name, view_end)
        row = rows.get(name)
        if row is None:
            continue
        for b in raw:
            t0 = max(b.t0, 0.0)
            if t0 > view_end:
                continue
            t1 = min(max(b.t1 if b.t1 is not None else open_end, t0), view_end)
            x0, x1 = x_of(t0), x_of(t1)
            value = _words(b, _)
            tip = _(op.BAR_TIP).format(c=name, state=value, t0=_secs(t0), t1=_secs(t1))
            if b.t1 is not None and (b.exit_code is not None or b.reason) and b.state == "running":
                code = "?" if b.exit_code is None else b.exit_code
                tip += "\n" + _(op.ENDED).format(reason=b.reason or "?", code=code)
            if b.t1 is None:
                tip += "\n" + _(op.OPEN).format(t=_secs(open_end))
            if b.state == "inferred":
                tip += "\n" + _(op.INFERRED_TIP)
            if b.state == "pull":
                tip += "\n" + _(op.PULL_TIP)
            label, at = "", None
            if b.state == "pull":
                width = text_width(value, SMALL) + 6
                if x1 - x0 >= width:
                    label, at = value, _r(x0 + 3)
            out.append(ObsBar(row.lane, b.state, t0, t1, x0, _r(x1 - x0), _r(row.y + OBS_INSET),
                              _r(OBS_ROW - 2 * OBS_INSET), f"tl-bar tl-obs-bar {_CSS[b.state]}", tip, label, at))
    return out


def marks(p: Pieces, rows: dict[str, ObsLane], strip: StripRow, view_end: float, x_of: Callable[[float], float],
          right_edge: float, _: Gettext, gaps: Sequence[tuple[float, float]] = ()) -> list[ObsMark]:
    """Glyphs on each row's middle; glyphs at the same place move right; an exit code, a snapshot's STATUS or
    a printed state is written after its glyph where there is room before the next glyph and the next axis
    break (``gaps``: the x ranges the breaks cover; kubectl's STATUS on the strip may cross one), a printed
    state else before it."""
    placed: list[tuple[int, float, RawMark]] = []
    for m in p.marks:
        if m.t > view_end + 1e-9:
            continue
        row = rows.get(m.container) if m.container is not None else None
        if m.container is not None and row is None:
            continue
        placed.append((row.lane if row is not None else -1, m.t, m))
    placed.sort(key=lambda x: (x[0], x[1], x[2].kind == "exit"))
    out: list[ObsMark] = []
    ys = {r.lane: _r(r.y + r.height / 2) for r in rows.values()}
    ys[-1] = _r(strip.y + strip.height / 2)
    used: dict[int, float] = {}
    nexts = _next_x(placed, x_of, right_edge)
    for i, (lane, t, m) in enumerate(placed):
        x = x_of(t)
        before = used.get(lane, -math.inf)
        gx = max(x, before + _GLYPH / 2)
        used[lane] = gx + _GLYPH / 2
        tip = m.text.render(_)
        for more in m.more:
            tip += "\n" + (more.render(_) if not isinstance(more, str) else more)
        label, label_x = "", None
        if m.label:
            w = text_width(m.label, SMALL) + 4
            lx = gx + 5
            # kubectl's STATUS on the strip may cross a break (drawn over it, with a halo): it says where it was
            limit = min([nexts[i]] + [g0 for g0, g1 in gaps if g1 > lx and m.kind != "snapshot"])
            if lx + w <= limit:
                label, label_x = m.label, _r(lx)
                used[lane] = lx + w
            elif m.kind in ("seen", "snapshot"):      # else before the glyph, where that is free
                lx = gx - 5 - w
                if lx >= max([before + 2, x_of(0.0)] + [g1 for g0, g1 in gaps if g0 < gx]):
                    label, label_x = m.label, _r(lx)
        css = f"tl-obs-m tl-obs-m-{m.kind}" + (" tl-m-assumed" if m.dashed else "")
        if m.kind == "exit" and m.label not in ("", "0"):
            css += " tl-m-exit-error"
        out.append(ObsMark(lane, m.kind, t, _r(gx), ys[lane], css, tip, label, label_x, m.dashed))
    return out


def _next_x(placed: list[tuple[int, float, RawMark]], x_of: Callable[[float], float], right_edge: float) -> list[float]:
    """For each placed mark (sorted by row and time): the x of the next mark on its row further right (where
    its label must end), in one pass from the right."""
    out = [right_edge] * len(placed)
    lane_now, after = None, [right_edge + 2]        # the x's further right on the current row, nearest last
    for i in range(len(placed) - 1, -1, -1):
        lane, t, _m = placed[i]
        if lane != lane_now:
            lane_now, after = lane, [right_edge + 2]
        x = x_of(t)
        while len(after) > 1 and after[-1] <= x + 0.5:
            after.pop()
        out[i] = after[-1] - 2
        if x < after[-1]:
            after.append(x)
    return out


def setup_segment(p: Pieces, strip: StripRow, view_end: float, x_of: Callable[[float], float], _: Gettext,
                  gaps: Sequence[tuple[float, float]] = ()) -> list[Segment]:
    """The time before the first container acted, on the strip's Observed row, named."""
    if p.setup is None or p.setup[0] > view_end:
        return []
    t0, t1, pull = p.setup
    t1 = min(t1, view_end)
    x0, x1 = x_of(t0), x_of(t1)
    value = _(op.SETUP_PULL_LABEL if pull else op.SETUP_LABEL)
    tip = _(op.SETUP_PULL_TIP if pull else op.SETUP_TIP).format(t0=_secs(t0), t1=_secs(t1))
    width = text_width(value, SMALL) + 8
    at = _label_place(x0, x1, width, gaps) if gaps else (x0 if x1 - x0 >= width else None)
    return [Segment("observed", value, t0, t1, x0, _r(max(x1 - x0, 0.0)), _r(strip.y), strip.height,
                    "tl-seg tl-obs-setup", tip, value if at is not None else "", False,
                    _r(at + 4) if at is not None else None)]


def note(p: Pieces, end_time: float, view_end: float, _: Gettext) -> str:
    """The chart's note: what the cluster shows goes on after the prediction ends; events not drawn."""
    seen = reach(p)
    out = []
    if seen is not None and seen > end_time + 1e-9 and view_end > end_time + 1e-9:
        out.append(_(op.BEYOND_NOTE).format(end=_secs(end_time), seen=_secs(seen)))
    if p.dropped:
        out.append(_(op.DROPPED).format(n=p.dropped, k=op.MAX_EVENT_MARKS // 2))
    return " ".join(out)


# ---- the table, the cursor -----------------------------------------------------------------------------
def table_rows(p: Pieces, roles: dict[str, str], role_labels: dict[str, str], _: Gettext) -> list[dict[str, Any]]:
    """The observed lanes and marks as rows of the timeline's table (`timeline.timeline_rows`)."""
    observed = _("Observed: {what}")
    rows = []
    if p.setup is not None:
        t0, t1, pull = p.setup
        rows.append(_row(t0, None, "observed-setup", observed.format(what=_(op.SETUP_PULL_LABEL if pull
                                                                             else op.SETUP_LABEL)),
                         _(op.SETUP_PULL_TIP if pull else op.SETUP_TIP).format(t0=_secs(t0), t1=_secs(t1)),
                         roles, role_labels))
    for name, raw in p.bars.items():
        for b in raw:
            detail = (_("until {t} s").format(t=_secs(b.t1)) if b.t1 is not None else
                      _(op.OPEN).format(t=_secs(p.until[name])) if name in p.until else "")
            if b.state == "inferred":
                detail += " · " + _(op.INFERRED_TIP)
            rows.append(_row(max(b.t0, 0.0), name, f"observed-{b.state}", observed.format(what=_words(b, _)),
                             detail, roles, role_labels, b.state == "inferred"))
    for m in p.marks:
        what = {"exit": _("Exited"), "restart": _("Restart"), "snapshot": _("kubectl get pod"),
                "seen": _("state printed"), "differs": _("differs from the prediction")}.get(m.kind)
        if what is None:
            what = m.value if isinstance(m.value, str) else m.kind
        text = m.text.render(_)
        details = [text] if m.kind in ("exit", "snapshot", "seen", "differs") else []
        details += [x.render(_) if not isinstance(x, str) else x for x in m.more]
        rows.append(_row(m.t, m.container, f"observed-{m.kind}", observed.format(what=what), " · ".join(details),
                         roles, role_labels, m.dashed))
    return rows


def _row(t: float, container: str | None, event: str, label: str, detail: str, roles: dict[str, str],
         role_labels: dict[str, str], assumed: bool = False) -> dict[str, Any]:
    role = roles.get(container or "", "")
    return {"t": t, "container": container or "", "role": role, "role_label": role_labels.get(role, ""),
            "event": event, "event_label": label, "detail": detail, "assumed": assumed, "restart_count": None,
            "exit_code": None}


def frame_facts(p: Pieces, t: float, _: Gettext) -> list[list[str]]:
    """What the cursor's panel says of the observation at ``t``: [label, value] pairs."""
    facts = []
    if p.setup is not None and p.setup[0] <= t + 1e-9 and t < p.setup[1] - 1e-9:
        facts.append([_(op.ROW_LABEL), _(op.SETUP_PULL_LABEL if p.setup[2] else op.SETUP_LABEL)])
    for name in p.names:
        raw = p.bars.get(name)
        if not raw:
            continue
        end = p.until.get(name, math.inf)
        now = [b for b in raw if max(b.t0, 0.0) <= t + 1e-9 and t < (b.t1 if b.t1 is not None else end) - 1e-9]
        value = ", ".join(_words(b, _) for b in now) or "—"
        facts.append([_("Observed: {c}").format(c=name), value])
    shown = [m for m in p.marks if m.kind == "snapshot" and m.t <= t + 1e-9 and m.value is not None]
    if shown:
        last = shown[-1]
        value = last.value.render(_) if not isinstance(last.value, str) else last.value
        facts.append([_("kubectl (observed)"), _("{columns} (printed at {t} s)").format(columns=value,
                                                                                       t=_secs(last.t))])
    return facts


def frame_times(p: Pieces) -> set[float]:
    return {round(max(t, 0.0), 6) for t in p.moments()}
