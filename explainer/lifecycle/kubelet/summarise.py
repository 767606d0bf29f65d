"""Crash loops summarised (issue 11): a day of restarts is not a day of events.

A container that crash-loops at the back-off cap repeats the same cycle (start, run, exit,
back off 300 s) until the simulation ends: a day makes about 290 cycles per container, and
500 such containers made a 152 MB answer.  After ``KEEP_CYCLES`` identical cycles in a row,
the rest of the run of identical cycles is folded into one ``backoff`` event (reason
CrashLoopBackOff) that says what was left out: "restarts every 301 s until 86,400 s: 283 more
restarts".  The timeline, the story and the event list read the trace as before and show the
summary; ``restartCounts``, ``statusTimeline`` and ``finalPhase`` are not touched and stay
exact.  Cycles are compared by the types, relative times, exit codes and reasons of their
events, so a cycle whose back-off still grows (10 s, 20 s, ... 300 s) is never folded, and
whatever breaks the pattern (a deletion, a probe) is kept.

The simulation may have jumped over whole periods of such loops (fastforward.py): their events
were never recorded.  Times are then compared on the step-by-step run's clock (``t`` minus the
jumps before the event), and the restarts a jump made are counted in the fold that spans it, so
the folded answer is the one the step-by-step simulation gives.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from ..i18n import Text, gettext_noop as _
from .trace import EventKind, TraceEvent

KEEP_CYCLES = 3          # identical cycles shown in full before the rest is summarised
MIN_FOLDED = 2           # fold only when it saves at least this many cycles
SUMMARY = _("restarts every {period} s until {until} s: {n} more restarts")
NOTE = _("Crash loops at the back-off cap are summarised after {keep} identical cycles; restart counts "
         "and the Pod's status over time are exact.")


def summarise_crash_loops(sim: Any) -> Any:
    """``sim`` (a Simulation) with steady crash loops folded; ``sim`` itself when nothing folds."""
    events = sim.events
    by_container: dict[str, list[int]] = {}
    for i, e in enumerate(events):
        if e.container is not None:
            by_container.setdefault(e.container, []).append(i)
    folded: set[int] = set()
    summaries: dict[int, TraceEvent] = {}
    jumps = list(getattr(sim, "fast_forwards", ()))
    vt = _virtual_times(events, jumps)
    for name, indices in by_container.items():
        _fold_container(events, vt, jumps, name, indices, sim.end_time, folded, summaries)
    if not folded:
        return sim
    out = []
    for i, e in enumerate(events):
        if i in summaries:
            out.append(summaries[i])
        if i not in folded:
            out.append(e)
    note = Text(NOTE, {"keep": KEEP_CYCLES})
    return dataclasses.replace(sim, events=out, notes=[*sim.notes, note])


def _virtual_times(events: list[TraceEvent], jumps: list[Any]) -> list[float]:
    """Each event's time on the clock of a run without jumps: ``t`` less the jumps before it."""
    if not jumps:
        return [e.t for e in events]
    out, shift, pending = [], 0.0, sorted(jumps, key=lambda j: j.event_index)
    for i, e in enumerate(events):
        while pending and pending[0].event_index <= i:
            shift += pending.pop(0).shift
        out.append(e.t - shift)
    return out


def _fold_container(events: list[TraceEvent], vt: list[float], jumps: list[Any], name: str, indices: list[int],
                    end_time: float, folded: set[int], summaries: dict[int, TraceEvent]) -> None:
    """Fold the runs of identical cycles of one container (its event ``indices``, in order)."""
    backoffs = [n for n, i in enumerate(indices)
                if events[i].type == "backoff" and events[i].reason == "CrashLoopBackOff"]
    if len(backoffs) < KEEP_CYCLES + MIN_FOLDED + 1:
        return
    # cycle j: the container's events after back-off j-1, up to and including back-off j
    cycles = [indices[a + 1:b + 1] for a, b in zip(backoffs, backoffs[1:])]
    signatures = [_signature(events, vt, cycle, vt[indices[a]]) for cycle, a in zip(cycles, backoffs)]
    j = 0
    while j < len(cycles):
        k = j
        while k + 1 < len(cycles) and signatures[k + 1] == signatures[j]:
            k += 1
        fold = cycles[j + KEEP_CYCLES:k + 1]
        if len(fold) >= MIN_FOLDED:
            _fold(events, vt, jumps, name, fold, indices, end_time, folded, summaries)
        j = k + 1


def _signature(events: list[TraceEvent], vt: list[float], cycle: list[int], start: float) -> tuple[Any, ...]:
    return tuple((events[i].type, round(vt[i] - start, 6), events[i].exit_code, events[i].reason,
                  events[i].assumed) for i in cycle)


def _fold(events: list[TraceEvent], vt: list[float], jumps: list[Any], name: str, fold: list[list[int]],
          indices: list[int], end_time: float, folded: set[int], summaries: dict[int, TraceEvent]) -> None:
    first, last = fold[0][0], fold[-1][-1]
    restarts = sum(1 for cycle in fold for i in cycle if events[i].type == "started")
    later = [i for i in indices if i > last]
    # a jump after the fold's first event and before the container's next event skipped cycles of this run
    resume = later[0] if later else len(events)
    restarts += sum(j.restarts.get(name, 0) for j in jumps if first < j.event_index <= resume)
    period = vt[fold[1][0]] - vt[fold[0][0]]
    until = events[later[0]].t if later else end_time
    text = Text(SUMMARY, {"period": f"{period:,g}", "until": f"{until:,g}", "n": f"{restarts:,}"})
    count = max((events[i].restart_count or 0) for cycle in fold for i in cycle)
    count += sum(j.restarts.get(name, 0) for j in jumps if last < j.event_index <= resume)   # after its events
    head = events[first]
    summaries[first] = TraceEvent(head.t, head.container, EventKind.BACKOFF, restart_count=count, reason="CrashLoopBackOff",
                                  message=text.render(), text=text)
    for cycle in fold:
        folded.update(cycle)
