"""A rollout in words and numbers: the story, the table twin of the picture and the cursor's frames
(issue 22; docs/lifecycle-model.md §26).

The core's `Rollout` carries the controller's steps as sentences (`steps`), the Pods' moments and
the counts; here they become the story's list (each step with its time, so the cursor follows it),
the two tables under the picture (the Pods, the counts over time), a summary of the numbers a design
review compares, and for static/js/timeline.js one frame per moment in the shape the Pod timeline's
frames have: the Pods' states at the cursor, the counts, and what the controller did last.
"""
from __future__ import annotations

from typing import Any

from explainer.lifecycle.i18n import Text, gettext_noop
from explainer.lifecycle.rollout.model import OLD, Rollout, RolloutCount
from .layout import RolloutLayout, ceiling_of, floor_of, lane_order, pod_spans, revision_labels, state_labels
from ..timeline.frames import _ui_text
from ..timeline.model import Gettext, _identity, _secs


def ending(r: Rollout) -> Text:
    if r.complete_at is not None:
        return Text(gettext_noop("At {t} s the rollout is complete: all {n} Pods are of the new revision and "
                                 "available."), {"t": _secs(r.complete_at), "n": r.replicas})
    if r.stalled is not None:
        said = Text(gettext_noop("At {t} s the rollout stalls ({reason}); {a} Pods are available then. Nothing "
                                 "rolls back by itself."),
                    {"t": _secs(r.stalled.at), "reason": r.stalled.reason, "a": _available_at(r, r.stalled.at)})
        if r.stalled.text is not None:
            return Text(gettext_noop("{said} {why}"), {"said": said, "why": r.stalled.text})
        return said
    return Text(gettext_noop("The rollout is not complete by {t} s, where the simulation stops."),
                {"t": _secs(r.until)})


def _count_at(r: Rollout, t: float) -> RolloutCount | None:
    found = None
    for c in r.counts:
        if c.t <= t + 1e-9:
            found = c
        else:
            break
    return found


def _available_at(r: Rollout, t: float) -> int:
    c = _count_at(r, t)
    return c.available if c is not None else 0


def story(r: Rollout) -> list[tuple[float, Text, str | None]]:
    """The controller's steps (t, sentence, the first Pod it is about), which end with its completion or
    stall (lifecycle/rollout/engine.py says both); a rollout without steps gets how it ends."""
    if r.steps:
        return [(s.t, s.text, s.pods[0] if s.pods else None) for s in r.steps]
    end_t = r.complete_at if r.complete_at is not None else r.stalled.at if r.stalled is not None else r.until
    return [(end_t, ending(r), None)]


def summary(r: Rollout, _: Gettext) -> list[tuple[str, str]]:
    """The numbers a review compares, as (label, value)."""
    out = [(_("Strategy"), r.strategy), (_("Replicas"), str(r.replicas))]
    if r.kind == "Deployment" and r.strategy == "RollingUpdate" or r.kind == "DaemonSet":
        out += [("maxSurge", str(r.max_surge)), ("maxUnavailable", str(r.max_unavailable))]
    elif r.kind == "StatefulSet":
        out.append(("maxUnavailable", str(r.max_unavailable)))
    out += [(_("Capacity floor"), str(floor_of(r))), (_("Surge ceiling"), str(ceiling_of(r))),
            (_("Fewest available"), str(r.min_available)),
            (_("Most Pods"), _("{n} ({m} with the terminating ones)").format(
                n=r.max_pods, m=r.max_pods_including_terminating))]
    if r.complete_at is not None:
        out.append((_("Complete at"), f"{_secs(r.complete_at)} s"))
    elif r.stalled is not None:
        out.append((_("Stalled at"), f"{_secs(r.stalled.at)} s ({r.stalled.reason})"))
    else:
        out.append((_("Complete at"), _("not by {t} s").format(t=_secs(r.until))))
    return out


def pod_rows(r: Rollout, _: Gettext) -> list[dict[str, Any]]:
    """One row per Pod: name, revision and its moments (None: never, within the simulation)."""
    revs = revision_labels(_)
    return [{"name": p.name, "revision": p.revision, "revision_label": revs.get(p.revision, p.revision),
             "created": p.created_at, "ready": p.ready_at, "available": p.available_at, "deleted": p.deleted_at,
             "gone": p.gone_at, "node": p.node} for p in lane_order(r)]


def count_rows(r: Rollout) -> list[dict[str, Any]]:
    """The counts as the controller sees them after each moment (the last count of a moment)."""
    out: list[dict[str, Any]] = []
    for c in r.counts:
        row = {"t": c.t, "desired": c.desired, "old": c.old, "new": c.new, "ready": c.ready,
               "available": c.available, "terminating": c.terminating,
               "total": c.old + c.new + c.terminating}
        if out and abs(out[-1]["t"] - c.t) < 1e-9:
            out[-1] = row
        else:
            out.append(row)
    return out


FRAME_PODS = 40      # Pods listed at the cursor: all of a small rollout; of a larger one those not available


def rollout_frames(r: Rollout, lay: RolloutLayout, *, gettext: Gettext = _identity) -> dict[str, Any]:
    """JSON-ready data for static/js/timeline.js, in the Pod timeline's shape.  A rollout of more than
    FRAME_PODS Pods lists at each moment the Pods that are not simply available (at most FRAME_PODS):
    the counts stand for the rest, and the data stays of bounded size."""
    _ = gettext
    chart = lay.chart
    end = chart.view_end
    pods = lane_order(r)
    states, revs = state_labels(_), revision_labels(_)
    spans = [pod_spans(p, end) for p in pods]
    steps = [(t, text.render(_)) for t, text, _pod in story(r)]
    times = sorted({0.0, end} | {round(t, 6) for s in spans for _s, a, b in s for t in (a, b)}
                   | {round(c.t, 6) for c in r.counts} | {round(t, 6) for t, _x in steps})
    times = [t for t in times if t <= end + 1e-9]
    words = {"desired": _("desired"), "available": _("available"), "ready": _("ready"),
             "terminating": _("terminating"), "total": _("total"), "old": _("old Pods"), "new": _("new Pods")}
    frames = []
    many = len(pods) > FRAME_PODS     # a large rollout: the Pods on the move; the counts say the rest
    for t in times:
        rows = []
        for p, sp in zip(pods, spans):
            state = next((s for s, a, b in sp if a <= t + 1e-9 and t < b - 1e-9), None)
            if state is None and sp and abs(sp[-1][2] - t) < 1e-9 and sp[-1][2] >= end - 1e-9:
                state = sp[-1][0]           # the last moment of the window: as it was just before
            if state is not None and (not many or state != "available"):
                rows.append({"name": p.name, "state": state, "label": states[state],
                             "restarts": revs.get(p.revision, p.revision)})
        rows = rows[:FRAME_PODS]
        c = _count_at(r, t)
        facts: list[list[str]] = []
        if c is not None:
            values = {"desired": c.desired, "available": c.available, "ready": c.ready,
                      "terminating": c.terminating, "total": c.old + c.new + c.terminating, "old": c.old,
                      "new": c.new}
            facts = [[words[k], str(v)] for k, v in values.items()]
        done = [st for st, _x in steps if st <= t + 1e-9]     # what the controller did at its latest moment
        doing = [{"text": x} for st, x in steps if done and abs(st - done[-1]) < 1e-9]
        brief = "; ".join(f"{k} {v}" for k, v in facts)
        frames.append({"t": t, "containers": rows, "pod": {}, "facts": facts, "doing": doing, "text": brief})
    text = _ui_text(_)
    text.update({"container": _("Pod"), "stateCol": _("State"), "restarts": _("Revision"),
                 "kubelet": _("The controller"), "none": _("The controller waits."),
                 "state": _("At the cursor"), "group_old": _("Old revision"), "group_new": _("New revision"),
                 "help": _("Drag or click on the picture to move the cursor; ←/→ moments, Shift+←/→ 1 s, "
                           "Home/End, Space plays, +/− zoom (or Ctrl+wheel, or drag along the time axis)."),
                 "helpTouch": _("Tap or drag on the picture or its track to move the cursor; + and − zoom.")})
    return {"end": end, "events": times, "knots": [list(k) for k in chart.knots], "plotX": chart.plot_x,
            "plotWidth": chart.plot_width, "lanes": [{"name": p.name, "role": p.revision} for p in pods],
            "frames": frames, "text": text}


def old_count(r: Rollout) -> int:
    return sum(1 for p in r.pods if p.revision == OLD)
