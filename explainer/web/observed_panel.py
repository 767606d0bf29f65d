"""The page's "What the cluster shows" panel (issue 23; docs/lifecycle-model.md §34-§36): kubectl's columns as
the cluster printed them beside the prediction's at the same moment, every divergence in words (predicted and
observed, why, and whether the scenario can reproduce it), "Make the prediction match", what the paste cannot
show, and the lines no reader could place.

`observed_view` turns a Pod's `ObservedReport` into plain values in the reader's language (cached with the
page's analysis); `partials/_observed.html` shows them in the Pod's article.  "Make the prediction
match" is a submit button of the editor's form (``name="match"``: views.index writes the scenario and explains
again, with or without JavaScript); on a permalink's page, which has no editor, it is a link that opens the
editor with the link's input and that scenario (``?from=<id>&match=<pod>``).
"""
from __future__ import annotations

from bisect import bisect_right
from typing import Any, Callable

from explainer.explain import PodReport
from explainer.lifecycle.i18n import render
from explainer.render.observed_pieces import KIND_LABELS
from explainer.web.whatif import scenario_as_yaml

Gettext = Callable[[str], str]
SOURCE_KINDS = {"pod": "kubectl get pod -o yaml/json", "events": "kubectl get events -o yaml/json",
                "events-table": "kubectl get events", "describe": "kubectl describe pod",
                "pod-table": "kubectl get pod", "fragment": "kubectl get pod -o yaml (a part)"}


def _secs(t: Any) -> str:
    return "?" if t is None else f"{round(float(t), 3):g}"


def _moment(r: PodReport) -> float | None:
    """When kubectl's columns of the report were printed: the latest `get pod` row printed after the status,
    else the status's own moment, else the paste's last one."""
    o = r.observed
    view = o.view if o is not None else None
    if view is None:
        return None
    rows = [t for t in (view.clock.t(row.age) for row in view.rows if row.age is not None) if t is not None]
    if rows and (view.seen is None or max(rows) > view.seen):
        return max(rows)
    return view.seen if view.seen is not None else view.end


def observed_view(r: PodReport, gettext: Gettext) -> dict[str, Any] | None:
    """What the panel shows of ``r``'s observation, in the reader's language (None: nothing was pasted)."""
    o = r.observed
    if o is None:
        return None
    at = _moment(r)
    predicted = None
    sim = r.simulation
    if sim is not None and sim.timeline and at is not None and o.columns is not None:
        when = min(max(at, 0.0), sim.end_time)
        i = bisect_right(sim.timeline, when, key=lambda p: p.t)
        if i:
            p = sim.timeline[i - 1]
            predicted = {"ready": p.ready_count, "status": p.status, "restarts": str(p.restarts), "t": _secs(when)}
    return {
        "name": o.name or r.pod.name,
        "sources": [{"kind": SOURCE_KINDS.get(s.kind, s.kind), "first": s.lines[0], "last": s.lines[1]}
                    for s in o.sources],
        "kubectl": ({"ready": o.columns.ready, "status": o.columns.status, "restarts": o.columns.restarts,
                     "t": _secs(at) if at is not None else None} if o.columns is not None else None),
        "predicted": predicted,
        "divergences": [{"t": None if d.t is None else _secs(max(d.t, 0.0)), "container": d.container or "",
                         "kind": d.kind, "kind_label": gettext(KIND_LABELS.get(d.kind, d.kind)),
                         "predicted": render(d.predicted, gettext) if d.predicted is not None else "",
                         "observed": render(d.observed, gettext) if d.observed is not None else "",
                         "explanation": render(d.explanation, gettext), "reproducible": d.reproducible}
                        for d in o.divergences],
        "notes": [render(n, gettext) for n in o.notes],
        "unread": [{"line": u.line, "text": u.text} for u in o.unread],
        "unread_more": o.unread_more,
        "scenario": o.scenario,
        "scenario_yaml": scenario_as_yaml(o.scenario),
        "matchable": any(d.reproducible for d in o.divergences),
        "unread_count": len(o.unread) + o.unread_more,
        # the two rows of kubectl's columns differ (the restart counts by their number: "3 (20s ago)" is 3)
        "columns_differ": (o.columns is not None and predicted is not None
                           and (predicted["ready"], predicted["status"], predicted["restarts"].split()[0])
                           != (o.columns.ready, o.columns.status, o.columns.restarts.split()[0])),
    }
