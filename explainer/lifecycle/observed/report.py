"""What the JSON contract's ``pods[].observed`` holds, and the notes that say what the paste cannot show.

``observed``: ``{sources: [{kind, lines}], kubectl: {ready, status, restarts}, restartCounts,
terminations: [{container, exitCode, signal, reason, startedAt, finishedAt}], events: [{t, container,
type, reason, count, firstT, lastT}], divergences: [{t, container, kind, predicted, observed,
explanation, reproducible}], unread: [{line, text}]}``; times in seconds from the Pod's start, null
where unknown.  docs/lifecycle-model.md §34-§36.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..i18n import Text, gettext_noop as _
from .divergence import Divergence
from .kubectl import Columns
from .lanes import Stretch
from .model import Source, Unread
from .view import PodView

LAST_ONLY = _("Only the last termination of each container is kept in its status: {c} restarted {n} times and "
              "the paste shows {k} of its ends. The runs in between are drawn as inferred, placed by the "
              "kubelet's back-off (10 s doubling to 300 s) and the length of the runs it does show.")
MERGED = _("Events are merged: {reason} happened {count} times{span}. A series keeps its first and last times "
           "and a count; the moments in between are not known.")
SPAN = _(" from {first} s to {last} s")
EXPIRED = _("The paste has no Scheduled event. The API server keeps events for one hour by default (its "
            "--event-ttl), so earlier ones may be gone.")
UNPLACED = _("The ages of some events cannot be placed on the Pod's time line: without their Scheduled event "
             "nothing says when the Pod started on their clock. They are listed without times.")
NO_AXIS = _("The paste gives nothing to align it with (no startTime, no Scheduled event, no Pod age): its "
            "times are left out.")
COARSE = _("Times in the paste are whole seconds, and ages of more than two minutes are coarser (\"15m\" is "
           "anything from 15 to 16 minutes): differences under 10 s are not counted.")
OTHERS = _("The paste also shows {names}, other Pods of the same workload; the one compared is {chosen}.")
RENAMED = _("The paste is about the Pod {observed}; the manifest's Pod is {pod}. They are compared as one.")
BEYOND = _("The paste reaches {end} s, the prediction only {until} s: they are compared at {until} s.")
NOT_SIMULATED = _("The Pod is not simulated (the API server would reject it), so nothing is compared.")
NOTHING = _("Nothing in the observed output is about this Pod.")
UNREAD = _("{n} lines of the observed output could not be read; they are listed as unread.")


@dataclass
class ObservedReport:
    name: str | None                    # the observed Pod
    sources: list[Source]
    columns: Columns | None
    restart_counts: dict[str, int]
    view: PodView | None
    divergences: list[Divergence]
    unread: list[Unread]
    unread_more: int = 0
    lanes: dict[str, list[Stretch]] = field(default_factory=dict)
    notes: list[Text] = field(default_factory=list)
    scenario: dict[str, Any] = field(default_factory=dict)     # what "Make the prediction match" writes

    def jsonable(self) -> dict[str, Any]:
        view = self.view
        return {
            "sources": [{"kind": s.kind, "lines": list(s.lines)} for s in self.sources],
            "kubectl": ({"ready": self.columns.ready, "status": self.columns.status,
                         "restarts": self.columns.restarts} if self.columns is not None else None),
            "restartCounts": dict(self.restart_counts),
            "terminations": [{"container": e.container, "exitCode": e.exit_code, "signal": e.signal,
                              "reason": e.reason, "startedAt": e.start, "finishedAt": e.end}
                             for e in (view.ended if view else [])],
            "events": [{"t": s.first if s.first is not None else s.last, "container": s.container, "type": s.type,
                        "reason": s.reason, "count": s.count, "firstT": s.first, "lastT": s.last}
                       for s in (view.events if view else [])],
            "divergences": [{"t": d.t, "container": d.container, "kind": d.kind,
                             "predicted": str(d.predicted) if d.predicted is not None else None,
                             "observed": str(d.observed) if d.observed is not None else None,
                             "explanation": str(d.explanation), "reproducible": d.reproducible}
                            for d in self.divergences],
            "unread": [{"line": u.line, "text": u.text} for u in self.unread],
        }


def honesty(view: PodView) -> list[Text]:
    """What the paste cannot show, said once each."""
    notes: list[Text] = []
    for name, cv in view.containers.items():
        st = cv.status
        if st is not None and st.restart_count and st.restart_count > len(cv.ended):
            notes.append(Text(LAST_ONLY, {"c": name, "n": st.restart_count, "k": len(cv.ended)}))
    merged = next((s for s in view.events if s.count > 1), None)
    if merged is not None:
        span = (Text(SPAN, {"first": f"{merged.first:g}", "last": f"{merged.last:g}"})
                if merged.first is not None and merged.last is not None else "")
        notes.append(Text(MERGED, {"reason": merged.reason, "count": merged.count, "span": span}))
    if view.events and not any(s.reason == "Scheduled" for s in view.events):
        notes.append(Text(EXPIRED))
    if any(s.first is None and s.last is None for s in view.events):
        notes.append(Text(UNPLACED))
    if view.clock.start is None and not view.clock.anchors and not view.rows:
        notes.append(Text(NO_AXIS))
    return notes
