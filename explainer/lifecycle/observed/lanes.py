"""The observed lane of each container: what it did, on the prediction's axis, for the timeline.

Known stretches come from the paste (a run between startedAt and finishedAt, the current run, a
back-off); the runs a paste cannot show (a container's status keeps only its last termination) are
inferred: placed backwards from the earliest known run, each as long as the known ones, with the
kubelet's crash-loop back-off between them (docs/lifecycle-model.md §7.4, §35), and marked inferred.
"""
from __future__ import annotations


from .. import defaults as d
from .view import ContainerView, PodView
from explainer.lifecycle.records import record

MAX_INFERRED = 200        # a lane draws at most this many inferred runs (a day-long crash loop has ~300)


@record
class Stretch:
    container: str
    state: str                     # pulling | running | waiting
    start: float
    end: float | None              # None: still so when the paste was taken
    inferred: bool = False
    exit_code: int | None = None   # a run that ended: how
    reason: str | None = None      # a run's end (OOMKilled, Error, Completed) or a wait's (CrashLoopBackOff, ...)


def backoff(restart: int) -> float:
    """The crash-loop back-off before the ``restart``-th restart (1-based): none before the first."""
    if restart <= 1:
        return 0.0
    return float(min(d.CRASH_LOOP_INITIAL_SECONDS * 2 ** (restart - 2), d.CRASH_LOOP_MAX_SECONDS))


def container_lane(cv: ContainerView, end: float | None) -> list[Stretch]:
    out: list[Stretch] = []
    pulling = [e.first for e in cv.events if e.reason == "Pulling" and e.first is not None]
    pulled = [e.first for e in cv.events if e.reason == "Pulled" and e.first is not None]
    if pulling and pulled and min(pulled) >= min(pulling):
        out.append(Stretch(cv.name, "pulling", min(pulling), min(pulled)))
    runs = [e for e in cv.ended if e.start is not None and e.end is not None and e.end >= e.start]
    for e in runs:
        out.append(Stretch(cv.name, "running", e.start or 0.0, e.end, False, e.exit_code, e.reason))
    st = cv.status
    started = [e.first for e in cv.events if e.reason == "Started" and e.first is not None]
    if st is None and started and not runs:       # events alone: a run from its start to the next kill
        first = min(started)
        kills = [e.first for e in cv.events if e.reason == "Killing" and e.first is not None and e.first >= first]
        out.append(Stretch(cv.name, "running", first, min(kills) if kills else None))
    if st is not None and st.state == "running" and cv.running_since is not None:
        out.append(Stretch(cv.name, "running", cv.running_since, None))
    elif st is not None and st.state == "waiting" and runs:
        out.append(Stretch(cv.name, "waiting", runs[-1].end or 0.0, None, False, None, st.reason))
    out += _inferred(cv, runs)
    return sorted(out, key=lambda s: (s.start, s.end is None))


def _inferred(cv: ContainerView, runs: list) -> list[Stretch]:
    st = cv.status
    if st is None or not st.restart_count:
        return []
    total = st.restart_count + 1                       # every run, the current one included
    known = len(runs) + (1 if st.state == "running" and cv.running_since is not None else 0)
    missing = min(total - known, MAX_INFERRED)
    starts = [r.start for r in runs] + ([cv.running_since] if st.state == "running" and cv.running_since else [])
    if missing <= 0 or not starts:
        return []
    lengths = sorted(r.end - r.start for r in runs)
    length = lengths[len(lengths) // 2] if lengths else 1.0
    out: list[Stretch] = []
    next_start = min(starts)
    for run in range(missing, 0, -1):                  # run numbers 1..missing, placed backwards
        start = next_start - backoff(run) - length
        if start < 0:
            start = 0.0
        end = min(start + length, next_start)
        out.append(Stretch(cv.name, "running", start, end, True))
        next_start = start
    return out


def lanes(view: PodView) -> dict[str, list[Stretch]]:
    return {name: container_lane(cv, view.end) for name, cv in view.containers.items()
            if cv.status is not None or cv.ended or cv.events}
