"""Two rollouts side by side (issue 22; docs/lifecycle-model.md §26): the same workload in two manifests,
or two strategies, compared in the numbers a design review weighs ("maxSurge 25% vs maxUnavailable 0:
40 s vs 60 s, capacity floor 3 vs 4") and drawn on one time axis, as `render/compare.py` draws two
Pod timelines: the same window, t = 0 at the same x, the same scale.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from explainer.explain import PodReport
from explainer.lifecycle.i18n import Text, gettext_noop as _
from explainer.lifecycle.rollout.model import Rollout
from .layout import layout_rollout, view_end_of
from .layout import ceiling_of, floor_of
from .svg import rollout_document
from ..timeline.model import _identity
from ..timeline.svg import Placement

Gettext = Callable[[str], str]


def _secs(t: float) -> str:
    return f"{round(t, 3):g}"


@dataclass
class RolloutSides:
    left: Rollout | None
    right: Rollout | None
    left_name: str
    right_name: str
    sentence: Text | None = None                  # "maxSurge 25% vs maxUnavailable 0: 40 s vs 60 s, ..."
    rows: list[tuple[Text, str, str]] = field(default_factory=list)   # (what, before, after)

    @property
    def differ(self) -> bool:
        return any(a != b for _w, a, b in self.rows)


def settings(r: PodReport) -> str:
    """The strategy as the manifest writes it: "maxSurge 25%, maxUnavailable 0" (its defaults applied)."""
    ro, w = r.rollout, r.pod.workload
    assert ro is not None
    if ro.strategy != "RollingUpdate":
        return ro.strategy
    if ro.kind == "StatefulSet":
        return f"maxUnavailable {w.max_unavailable if w is not None and w.max_unavailable is not None else ro.max_unavailable}"
    surge = w.max_surge if w is not None and w.max_surge is not None else ro.max_surge
    unavailable = w.max_unavailable if w is not None and w.max_unavailable is not None else ro.max_unavailable
    return f"maxSurge {surge}, maxUnavailable {unavailable}"


def outcome(ro: Rollout) -> Text:
    """How long it takes: complete at, stalls at, or not done by."""
    if ro.complete_at is not None:
        return Text(_("done at {t} s"), {"t": _secs(ro.complete_at)})
    if ro.stalled is not None:
        return Text(_("stalls at {t} s"), {"t": _secs(ro.stalled.at)})
    return Text(_("not done by {t} s"), {"t": _secs(ro.until)})


def compare_rollouts(left: PodReport | None, right: PodReport | None) -> RolloutSides | None:
    """The two sides' rollouts and what differs (None: neither side's workload has one)."""
    lr = left.rollout if left is not None else None
    rr = right.rollout if right is not None else None
    if lr is None and rr is None:
        return None
    sides = RolloutSides(lr, rr, _name(left), _name(right))
    if lr is None or rr is None or left is None or right is None:
        return sides
    rows = [(Text(_("Strategy")), settings(left), settings(right)),
            (Text(_("Replicas")), str(lr.replicas), str(rr.replicas)),
            (Text(_("Complete at")), outcome(lr).render(), outcome(rr).render()),
            (Text(_("Capacity floor")), str(floor_of(lr)), str(floor_of(rr))),
            (Text(_("Fewest available")), str(lr.min_available), str(rr.min_available)),
            (Text(_("Surge ceiling")), str(ceiling_of(lr)), str(ceiling_of(rr))),
            (Text(_("Most Pods")), str(lr.max_pods_including_terminating), str(rr.max_pods_including_terminating))]
    sides.rows = rows
    sides.sentence = Text(_("{a} vs {b}: {ta} vs {tb}, capacity floor {fa} vs {fb}, at most {pa} vs {pb} Pods."),
                          {"a": settings(left), "b": settings(right), "ta": outcome(lr), "tb": outcome(rr),
                           "fa": floor_of(lr), "fb": floor_of(rr), "pa": lr.max_pods_including_terminating,
                           "pb": rr.max_pods_including_terminating})
    return sides


def _name(r: PodReport | None) -> str:
    return (r.pod.source.name or r.pod.name) if r is not None else ""


def shared_axis_rollouts(sides: RolloutSides, *, gettext: Gettext = _identity,
                         titles: tuple[str | None, str | None] = (None, None)) -> tuple[str, str]:
    """Both rollout pictures for one page: one window (the longer of the two), t = 0 at the same x, one
    scale (the finer of the two), the same width.  A side without a rollout gives ""."""
    rollouts = ((sides.left, sides.left_name), (sides.right, sides.right_name))
    present = [(ro, name) for ro, name in rollouts if ro is not None]
    if not present:
        return "", ""
    end = max(view_end_of(ro) for ro, _n in present)
    first = [layout_rollout(ro, name, gettext=gettext, view_end=end) for ro, name in present]
    pps = max(lay.chart.px_per_second for lay in first)
    layouts = [layout_rollout(ro, name, gettext=gettext, view_end=end, px_per_second=pps) if ro is not None
               else None for ro, name in rollouts]
    plot_x = max(lay.chart.plot_x for lay in layouts if lay is not None)
    width = max(plot_x - lay.chart.plot_x + lay.chart.width for lay in layouts if lay is not None)
    out = []
    for side, ((ro, _n), lay, title) in enumerate(zip(rollouts, layouts, titles)):
        if ro is None or lay is None:
            out.append("")
            continue
        place = Placement(offset=round(plot_x - lay.chart.plot_x, 1), width=width, time_origin=plot_x,
                          view_end=end, id_suffix="r" if side == 1 else "")
        out.append(rollout_document(ro, lay, gettext=gettext, title=title, placement=place))
    return out[0], out[1]
