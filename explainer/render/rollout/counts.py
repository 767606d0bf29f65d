"""The rollout picture's counts chart (issue 22; docs/lifecycle-model.md §26): desired, total (terminating
included), available, ready and terminating Pods over time as step lines, between the capacity floor and
the surge ceiling drawn as labelled lines, with the arithmetic of the workload's kind.  Geometry only;
`rollout.layout` places it above the lanes and `rollout.svg` draws it."""
from __future__ import annotations

import math

from explainer.lifecycle.records import quick_init
from explainer.lifecycle.rollout.model import Rollout, RolloutCount
from ..timeline.model import Gettext, _r, _secs
from explainer.lifecycle.records import record

SERIES = ("desired", "total", "available", "ready", "terminating")     # drawn in this order
CHART_MIN, CHART_MAX = 96.0, 168.0


@quick_init
@record
class Series:
    key: str                     # one of SERIES
    label: str
    points: tuple[tuple[float, float], ...]   # (t, y) where the value changes; the first at t = 0
    values: tuple[tuple[float, int], ...]     # (t, count) of the same changes
    end_label: str               # "available 4"
    end_y: float                 # where the end label sits (kept apart from the others)
    css_class: str
    tooltip: str


@quick_init
@record
class Level:
    """A horizontal line across the chart: the capacity floor or the surge ceiling."""

    key: str                     # floor | ceiling
    value: int
    y: float
    label: str
    label_y: float
    css_class: str
    tooltip: str


@quick_init
@record
class CountsChart:
    top: float
    bottom: float
    y_max: int
    gridlines: tuple[tuple[int, float], ...]   # (value, y)
    series: tuple[Series, ...]
    levels: tuple[Level, ...]
    label: str                   # "Pods"
    label_y: float


def series_labels(_: Gettext) -> dict[str, str]:
    return {"desired": _("desired"), "total": _("total, terminating included"), "available": _("available"),
            "ready": _("ready"), "terminating": _("terminating")}


# ---- the counts -------------------------------------------------------------------------------
def _value(c: RolloutCount, key: str) -> int:
    if key == "total":
        return c.old + c.new + c.terminating
    return int(getattr(c, key))


def floor_of(r: Rollout) -> int:
    """The capacity floor: the fewest available Pods the controller allows, as the core worked it out for
    the kind (lifecycle/rollout/run.py), else replicas − maxUnavailable."""
    if r.surge_ceiling:
        return r.capacity_floor
    return max(r.replicas - r.max_unavailable, 0)


def ceiling_of(r: Rollout) -> int:
    """The surge ceiling: the most Pods not being deleted the controller allows (replicas + maxSurge)."""
    return r.surge_ceiling or r.replicas + r.max_surge


def _level_words(r: Rollout, floor: int, ceiling: int, _: Gettext) -> tuple[str, str, str, str]:
    """The floor's and the ceiling's label and tooltip, with the arithmetic of the workload's kind."""
    values = {"n": floor, "c": ceiling, "r": r.replicas, "s": r.max_surge, "u": r.max_unavailable}
    if r.strategy == "OnDelete":
        why = _("OnDelete: the controller replaces no Pod by itself.")
        return (_("capacity floor {n} (OnDelete)").format(**values), why,
                _("surge ceiling {c} (OnDelete)").format(**values), why)
    if r.strategy == "Recreate":
        return (_("capacity floor {n} (Recreate: every old Pod goes first)").format(**values),
                _("Recreate deletes every old Pod before it creates a new one: nothing is available in between."),
                _("surge ceiling {c} (replicas)").format(**values),
                _("Recreate never runs more Pods than replicas {r}.").format(**values))
    if r.kind == "StatefulSet":
        return (_("capacity floor {n} (replicas − Pods replaced at once)").format(**values),
                _("A StatefulSet replaces {u} Pod(s) at a time: at least {n} of replicas {r} stay available.").format(
                    **values),
                _("surge ceiling {c} (replicas: a StatefulSet never surges)").format(**values),
                _("A replacement is created only once the old Pod is gone: never more than replicas {r}.").format(
                    **values))
    if r.kind == "DaemonSet":
        return (_("capacity floor {n} (nodes − maxUnavailable)").format(**values),
                _("At least {n} nodes keep an available Pod: nodes {r} − maxUnavailable {u}.").format(**values),
                _("surge ceiling {c} (nodes + maxSurge)").format(**values),
                _("At most {c} Pods that are not being deleted: nodes {r} + maxSurge {s}.").format(**values))
    return (_("capacity floor {n} (replicas − maxUnavailable)").format(**values),
            _("At least {n} available Pods while the rollout runs: replicas {r} − maxUnavailable {u}.").format(**values),
            _("surge ceiling {c} (replicas + maxSurge)").format(**values),
            _("At most {c} Pods that are not being deleted: replicas {r} + maxSurge {s}.").format(**values))


def _y_step(y_max: int) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500):
        if y_max / step <= 6:
            return step
    return 1000


def counts_chart(r: Rollout, top: float, end: float, x_of, right: float,
                  _: Gettext) -> tuple[CountsChart, float]:
    floor, ceiling = floor_of(r), ceiling_of(r)
    counts = [c for c in r.counts if c.t <= end]
    peak = max([_value(c, "total") for c in counts] + [ceiling, r.replicas, 1])
    step = _y_step(peak)
    y_max = int(math.ceil(peak / step) * step)
    height = min(max(CHART_MIN, 14.0 * y_max / step * 2), CHART_MAX)
    chart_top = top + 6
    bottom = _r(chart_top + height)

    def y_of(v: float) -> float:
        return _r(bottom - v / y_max * height)

    grid = tuple((v, y_of(v)) for v in range(0, y_max + 1, step))
    names = series_labels(_)
    series = []
    ends: list[list] = []
    for key in SERIES:
        values: list[tuple[float, int]] = []
        for c in counts:
            v = _value(c, key)
            if values and abs(values[-1][0] - c.t) < 1e-9:
                values[-1] = (c.t, v)          # the last count of one moment stands
            elif not values or values[-1][1] != v:
                values.append((c.t, v))
        if not values:
            continue
        if values[0][0] > 0:
            values.insert(0, (0.0, values[0][1]))
        merged: list[tuple[float, int]] = []
        for t, v in values:
            if not merged or merged[-1][1] != v:
                merged.append((t, v))
        points = tuple((t, y_of(v)) for t, v in merged) + ((end, y_of(merged[-1][1])),)   # level to the end
        last = merged[-1][1]
        tip = names[key] + ": " + ", ".join(f"{_secs(t)} s → {v}" for t, v in merged[:40])
        if len(merged) > 40:
            tip += " …"
        series.append([key, names[key], points, tuple(merged), f"{names[key].split(',')[0]} {last}",
                       y_of(last), f"ro-line ro-{key}", tip])
        ends.append(series[-1])
    # end labels at least 11 px apart, in the order of their lines
    ends.sort(key=lambda s: s[5])
    previous = -math.inf
    for s in ends:
        s[5] = _r(max(s[5] + 3.5, previous + 11))
        previous = s[5]
    floor_label, floor_tip, ceiling_label, ceiling_tip = _level_words(r, floor, ceiling, _)
    levels = (
        Level("ceiling", ceiling, y_of(ceiling), ceiling_label, _r(y_of(ceiling) - 3), "ro-level ro-ceiling",
              ceiling_tip),
        Level("floor", floor, y_of(floor), floor_label, _r(y_of(floor) + 11), "ro-level ro-floor", floor_tip),
    )
    chart = CountsChart(_r(chart_top), bottom, y_max, grid, tuple(Series(*s) for s in series), levels, _("Pods"),
                        _r(chart_top + 10))
    return chart, bottom + 4
