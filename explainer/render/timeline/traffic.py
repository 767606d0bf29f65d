"""The traffic row of the Pod timeline: when the Service sends the Pod requests (issue 22;
docs/lifecycle-model.md §27).

The core (`lifecycle/traffic/lane.py`) says, for a Pod that a Service selects, when its endpoint is
not ready, serving, leaving the endpoints while the change still propagates (draining), or out
of rotation everywhere (gone), and where requests may still arrive while nothing listens (failure
windows).  Here that becomes one more row of the status strip (Phase, Status, Ready, Traffic),
the failure windows drawn across the row and the container lanes (a red, cross-hatched band, with
its words on the row: never colour alone), the moment the change reaches the proxies as a glyph,
the same facts as table rows, story steps and the cursor's words.  A propagation time the
scenario did not set is assumed, and drawn as assumed durations are (dots, a dashed glyph).

Times only and labels, plus the pixels of `timeline.layout_timeline`'s axis: the markup is
`timeline.svg`'s.  Nothing here runs for a Pod without traffic, so those charts stay as they were.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from explainer.lifecycle.i18n import Text
from explainer.lifecycle.records import quick_init
from explainer.lifecycle.traffic.lane import Traffic
from explainer.lifecycle.traffic.states import DRAINING, GONE, NOT_READY, SERVING
from .model import SMALL, Gettext, Segment, StripRow, _r, _secs, text_width
from ..story import assumed_from
from .place import _label_place
from explainer.lifecycle.records import record

TRAFFIC_STATES = (NOT_READY, SERVING, DRAINING, GONE)


@quick_init
@record
class FailureMark:
    """A failure window on the chart: requests may arrive from ``t0`` to ``t1`` but nothing listens."""

    t0: float
    t1: float
    x: float
    width: float
    row_y: float                 # the traffic row (the window's words go there)
    row_height: float
    band_y0: float               # the band across the container lanes
    band_y1: float
    reason: str
    tooltip: str
    label: str                   # "" when it does not fit
    label_x: float
    assumed: bool = False        # after a deletion the model assumed: on the row only, dotted


@quick_init
@record
class ReachMark:
    """The moment an endpoint change has reached kube-proxy, ingress controllers and load balancers."""

    t: float
    x: float
    y: float                     # the traffic row's middle
    tooltip: str
    assumed: bool


@quick_init
@record
class DeletionMark:
    """A deletion the traffic row assumes (the scenario deletes nothing; the Pod's lanes show none)."""

    t: float
    x: float
    y0: float
    y1: float
    tooltip: str


def deletion_text(t: float, _: Gettext) -> str:
    return _("The scenario deletes nothing: from {t} s the traffic row shows the Pod deleted, as the findings "
             "assume, while its lanes go on (deleteAt sets a deletion they show too).").format(t=_secs(t))


def state_labels(_: Gettext) -> dict[str, str]:
    return {NOT_READY: _("Not ready"), SERVING: _("Serving"), DRAINING: _("Draining"), GONE: _("Out of rotation")}


def state_css(state: str) -> str:
    return f"tl-seg tl-traffic-{state if state in TRAFFIC_STATES else 'other'}"


def legend_entries(traffic: Traffic, _: Gettext) -> list[tuple[str, str, str, str]]:
    """The legend's traffic entries (kind, key, label, class): the states the row shows, failure
    windows and the proxies' moment when there are any."""
    labels = state_labels(_)
    seen = {i.state for i in traffic.intervals}
    out = [("traffic", s, _("Traffic: {state}").format(state=labels[s]), state_css(s))
           for s in TRAFFIC_STATES if s in seen]
    if traffic.failure_windows:
        out.append(("failure", "failure", _("Requests fail: nothing listens"), "tl-fail"))
    if reach_times(traffic):
        out.append(("reach", "reach", _("Change reaches the proxies"), "tl-m-reach"))
    if assumed_from(traffic) is not None:
        out.append(("deleted", "deleted", _("Pod deleted (assumed; the traffic row only)"), "tl-t-deleted"))
    return out


def moments(traffic: Traffic) -> list[float]:
    """Every time the traffic row changes (the axis keeps them clear of its breaks)."""
    out = [i.start for i in traffic.intervals] + [i.end for i in traffic.intervals if i.end is not None]
    out += [w.start for w in traffic.failure_windows] + [w.end for w in traffic.failure_windows]
    return out


def reach_times(traffic: Traffic) -> list[float]:
    """When a removal from the endpoints has reached the proxies: where draining turns into gone."""
    out = []
    for a, b in zip(traffic.intervals, traffic.intervals[1:]):
        if a.state == DRAINING and b.state == GONE:
            out.append(b.start)
    return out


def _why(text: Text | None, _: Gettext) -> str:
    return text.render(_) if text is not None else ""


def window_text(w: Any, _: Gettext) -> str:
    """Why nothing listens, in words: the core's sentence, or its reason id."""
    return _why(w.text, _) or w.reason


def segments(traffic: Traffic, row: StripRow, view_end: float, bar_end: float, x_of: Callable[[float], float],
             _: Gettext, gaps: Sequence[tuple[float, float]] = ()) -> list[Segment]:
    """The traffic row's segments, one per interval, each labelled where it fits."""
    labels = state_labels(_)
    name = _("Traffic")
    out: list[Segment] = []
    # a failure window's words go on this row: the states' labels keep clear of them
    gaps = list(gaps) + [(x_of(w.start), x_of(min(w.end, view_end))) for w in traffic.failure_windows
                         if w.start <= view_end]
    span = _("{row}: {value} from {t0} s to {t1} s")
    since = assumed_from(traffic)
    for i in traffic.intervals:
        t0 = i.start
        if t0 > view_end:
            break
        t1 = min(i.end if i.end is not None else bar_end, bar_end)
        x0, x1 = x_of(t0), x_of(t1)
        if x1 - x0 < 0.1:
            continue
        value = labels.get(i.state, i.state)
        tip = span.format(row=name, value=value, t0=_secs(t0), t1=_secs(t1))
        after = since is not None and t0 >= since - 1e-9
        assumed = (i.state == DRAINING and traffic.propagation_assumed) or after
        why = _why(i.text, _)
        if after:
            tip += "\n" + deletion_text(since, _)
        if why:
            tip += "\n" + why
        if i.state == DRAINING:
            tip += "\n" + propagation_text(traffic, _)
        width = text_width(value, SMALL) + 8
        at = _label_place(x0, x1, width, gaps) if gaps else (x0 if x1 - x0 >= width else None)
        out.append(Segment("traffic", value, t0, t1, x0, _r(x1 - x0), _r(row.y), row.height, state_css(i.state), tip,
                           value if at is not None else "", False, _r(at + 4) if at is not None else None, assumed))
    return out


def propagation_text(traffic: Traffic, _: Gettext) -> str:
    if traffic.propagation_assumed:
        return _("The change takes {s} s to reach kube-proxy, ingress controllers and load balancers "
                 "(assumed: set trafficPropagationSeconds).").format(s=_secs(traffic.propagation_seconds))
    return _("The change takes {s} s to reach kube-proxy, ingress controllers and load balancers "
             "(trafficPropagationSeconds).").format(s=_secs(traffic.propagation_seconds))


def failure_marks(traffic: Traffic, row: StripRow, band: tuple[float, float], view_end: float,
                  x_of: Callable[[float], float], _: Gettext) -> list[FailureMark]:
    label = _("✕ requests fail")
    since = assumed_from(traffic)
    out = []
    for w in traffic.failure_windows:
        if w.start > view_end:
            continue
        t1 = min(w.end, view_end)
        x0, x1 = x_of(w.start), x_of(t1)
        tip = _("Requests may arrive but nothing listens: {t0}–{t1} s").format(t0=_secs(w.start), t1=_secs(w.end))
        tip += "\n" + window_text(w, _)
        if w.container:
            tip += "\n" + _("container: {c}").format(c=w.container)
        fits = x1 - x0 >= text_width(label, SMALL) + 8
        after = since is not None and w.start >= since - 1e-9
        if after:             # the lanes show no such deletion: the row alone says it, as assumed
            tip += "\n" + deletion_text(since, _)
        out.append(FailureMark(w.start, w.end, x0, _r(max(x1 - x0, 2.0)), _r(row.y), row.height,
                               0.0 if after else band[0], 0.0 if after else band[1], w.reason, tip,
                               label if fits else "", _r(x0 + 4), after))
    return out


def deletion_marks(traffic: Traffic, row: StripRow, view_end: float, x_of: Callable[[float], float],
                   _: Gettext) -> list[DeletionMark]:
    since = assumed_from(traffic)
    if since is None or since > view_end:
        return []
    return [DeletionMark(since, x_of(since), _r(row.y - 2), _r(row.y + row.height + 2),
                         _("Pod deleted (assumed) · {t} s").format(t=_secs(since)) + "\n" + deletion_text(since, _))]


def reach_marks(traffic: Traffic, row: StripRow, view_end: float, x_of: Callable[[float], float],
                _: Gettext) -> list[ReachMark]:
    out = []
    for t in reach_times(traffic):
        if t > view_end:
            continue
        tip = _("{t} s: the endpoint change has reached the proxies; no new requests come").format(t=_secs(t))
        tip += "\n" + propagation_text(traffic, _)
        out.append(ReachMark(t, x_of(t), _r(row.y + row.height / 2), tip, traffic.propagation_assumed))
    return out


# ---- the table, the story, the cursor ------------------------------------------------------------
def table_rows(traffic: Traffic, _: Gettext) -> list[dict[str, Any]]:
    """The traffic's changes as rows of the timeline's table (`timeline.timeline_rows`)."""
    labels = state_labels(_)
    rows = []
    assumed = f" ({_('assumed')})"
    since = assumed_from(traffic)
    for i in traffic.intervals:
        detail = _why(i.text, _)
        if i.state == DRAINING:
            detail = (detail + " · " if detail else "") + propagation_text(traffic, _)
        flag = (i.state == DRAINING and traffic.propagation_assumed) or (since is not None and i.start >= since)
        rows.append(_row(i.start, f"traffic-{i.state}", _("Traffic: {state}").format(state=labels.get(i.state, i.state)),
                         detail + (assumed if flag else ""), flag))
    for w in traffic.failure_windows:
        after = since is not None and w.start >= since - 1e-9
        rows.append(_row(w.start, "traffic-failure", _("Requests fail"),
                         _("until {t} s: {why}").format(t=_secs(w.end), why=window_text(w, _))
                         + (assumed if after else ""), after))
    if since is not None:
        rows.append(_row(since, "traffic-deleted", _("Pod deleted (assumed)"), deletion_text(since, _), True))
    return sorted(rows, key=lambda r: r["t"])


def _row(t: float, event: str, label: str, detail: str, assumed: bool) -> dict[str, Any]:
    return {"t": t, "container": "", "role": "", "role_label": "", "event": event, "event_label": label,
            "detail": detail, "assumed": assumed, "restart_count": None, "exit_code": None}


def frame_facts(traffic: Traffic, t: float, _: Gettext) -> list[list[str]]:
    """What the cursor's panel says of the traffic at ``t``: [label, value] pairs."""
    labels = state_labels(_)
    state = None
    for i in traffic.intervals:
        if i.start <= t + 1e-9 and (i.end is None or t < i.end - 1e-9):
            state = i.state
    since = assumed_from(traffic)
    value = labels.get(state, state) if state else "—"
    if since is not None and t >= since - 1e-9:
        value += f" ({_('assumed')})"
    facts = [[_("Traffic"), value]]
    for w in traffic.failure_windows:
        if w.start <= t + 1e-9 and t < w.end - 1e-9:
            facts.append([_("Requests fail"), _("nothing listens until {t} s").format(t=_secs(w.end))])
            break
    return facts


def frame_times(traffic: Traffic) -> set[float]:
    return {round(t, 6) for t in moments(traffic)}
