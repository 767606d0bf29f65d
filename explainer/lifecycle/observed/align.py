"""One time axis for everything a paste says about a Pod: seconds from the Pod's start.

The prediction counts from the moment the Pod is scheduled; the cluster's nearest instant is
`status.startTime` (set when the kubelet first sees the Pod), so absolute times are aligned there.
describe's and `get events`' ages count back from the moment each was printed: each such clock is
aligned by its own Scheduled event ("Scheduled  54s"), and without one its times stay unknown rather
than guessed.  `get pod`'s AGE counts from the Pod's creation, a moment before its scheduling: taken
as the start itself, within the slack of the age.  docs/lifecycle-model.md §35.
"""
from __future__ import annotations

from collections.abc import Iterable

from .model import ABSOLUTE, AGO, SINCE, EventObs, Snapshot, Termination, When


class Clock:
    """Turns a `When` into seconds since the Pod's start (None where the paste cannot say)."""

    def __init__(self, start: float | None, anchors: dict[int, float], created: float | None) -> None:
        self.start = start                # Unix seconds of t = 0, when an absolute time says it
        self.anchors = anchors            # source -> its age of t = 0 (its Scheduled event)
        self.created = created            # Unix seconds of the Pod's creation, when known

    def t(self, when: When | None) -> float | None:
        if when is None:
            return None
        if when.kind == ABSOLUTE:
            return None if self.start is None else round(when.value - self.start, 3)
        if when.kind == AGO:
            anchor = self.anchors.get(when.clock)
            return None if anchor is None else round(anchor - when.value, 3)
        if when.kind == SINCE:
            lag = (self.start - self.created) if self.start is not None and self.created is not None else 0.0
            return round(when.value - lag, 3)
        return None

    def printed(self, source: int) -> float | None:
        """When the output of ``source`` was printed, for the clocks that count back from it."""
        anchor = self.anchors.get(source)
        return anchor


def _scheduled(events: Iterable[EventObs]) -> list[EventObs]:
    return [e for e in events if e.reason == "Scheduled"]


def make_clock(snapshots: list[Snapshot], events: list[EventObs], terminations: Iterable[Termination]) -> Clock:
    """The Pod's start: startTime; else an absolute Scheduled event; else its creation (nothing else:
    aligning at some other instant would move every time by an unknown amount).  Each relative clock:
    its own Scheduled event."""
    starts = [s.start_time.value for s in snapshots if s.start_time is not None and s.start_time.kind == ABSOLUTE]
    created = [s.created.value for s in snapshots if s.created is not None and s.created.kind == ABSOLUTE]
    scheduled = _scheduled(events)
    start: float | None = min(starts) if starts else None
    if start is None:
        stamps = [e.first.value for e in scheduled if e.first is not None and e.first.kind == ABSOLUTE]
        start = min(stamps) if stamps else (min(created) if created else None)
    anchors: dict[int, float] = {}
    for e in scheduled:
        w = e.first or e.last
        if w is not None and w.kind == AGO:
            anchors[w.clock] = max(anchors.get(w.clock, 0.0), w.value)
    return Clock(start, anchors, min(created) if created else None)


def _instants(snapshots: list[Snapshot], events: list[EventObs], terminations: Iterable[Termination]) -> list[When]:
    out: list[When] = []
    for s in snapshots:
        out += [w for w in (s.start_time, s.created, s.deleted) if w is not None]
        out += [c.since for c in s.conditions if c.since is not None]
        for c in s.containers():
            out += [w for w in (c.started_at,) if w is not None]
            for t in (c.terminated, c.last):
                if t is not None:
                    out += [w for w in (t.started, t.finished) if w is not None]
    for e in events:
        out += [w for w in (e.first, e.last) if w is not None]
    for t in terminations:
        out += [w for w in (t.started, t.finished) if w is not None]
    return out


def latest(clock: Clock, snapshots: list[Snapshot], events: list[EventObs], terminations: Iterable[Termination],
           extra: Iterable[float] = ()) -> float | None:
    """The latest aligned instant the paste shows: the observation reaches at least this far."""
    times = [t for t in (clock.t(w) for w in _instants(snapshots, events, terminations)) if t is not None]
    times += [a for a in clock.anchors.values()]        # a relative clock's own print moment
    times += list(extra)
    return max(times) if times else None
