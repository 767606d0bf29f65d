"""The discrete-event loop every rollout runs on (docs/lifecycle-model.md §26.2).

The world is a set of Pods whose state is a function of time: each has a `Revision` (when it is Ready after
its creation, how long it takes to stop), a creation time (None: it existed before the restart), and a
deletion time once a controller deletes it.  What changes a Pod's state (Ready, available, gone) is an event;
after the events of an instant the controller syncs (``syncDelaySeconds`` later), again and again until a
sync changes nothing, as the controllers' informers make them do; then the counts are recorded.

Availability is `IsPodAvailable` (pkg/api/v1/pod/util.go): Ready, and Ready for at least minReadySeconds.  The
ReplicaSet, StatefulSet and DaemonSet controllers look again minReadySeconds + 1 s after a Pod turns Ready
(their `updatePod`), so a Pod counts as available that much after it turned Ready (defaults.py
AVAILABILITY_RECHECK_SECONDS); with minReadySeconds 0 it is available the moment it is Ready.
"""
from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass
from typing import Callable, Protocol

from .. import defaults as d
from ..i18n import Text, gettext_noop as _
from .model import OLD, RolloutCount, RolloutPod, RolloutStep, Stall
from .revision import INF, Revision

_TURN, _CHANGE, _TIMER, _SYNC = 0, 1, 2, 3    # at one instant: Pods turn Ready or go, timers, the controller
STEPS_KEPT = 400                       # sentences of the story kept (a note says how many more there were)


class RPod:
    """A Pod during the rollout (mutable while the loop runs).

    Its state is a function of time; the engine evaluates it (`at`) whenever something about the Pod changes --
    every change is an event of the loop -- and keeps the answer, so the controllers' questions (``ready(t)``
    and the like) cost nothing: asked during the loop, they are answered as of the engine's clock."""

    __slots__ = ("name", "revision", "rev", "created", "deleted", "gone", "node", "ordinal", "lag",
                 "here", "on", "up", "ok", "changes", "next_change")

    def __init__(self, name: str, revision: str, rev: Revision, created: float | None, lag: float,
                 node: str | None = None, ordinal: int | None = None) -> None:
        self.name, self.revision, self.rev, self.created = name, revision, rev, created
        self.deleted: float | None = None
        self.gone: float | None = None
        self.node, self.ordinal, self.lag = node, ordinal, lag
        self.here = self.on = self.up = self.ok = False   # exists, active, Ready, available (as of `at`)
        self.changes: tuple[float, ...] = ()               # the ages at which its Ready or available state turns
        self.next_change = 0                               # the next of them the loop is waiting for

    def at(self, t: float) -> None:
        """Evaluate the state at ``t``."""
        self.here = self.gone is None or t < self.gone
        self.on = self.here and (self.deleted is None or t < self.deleted)
        if not self.on:
            self.up = self.ok = False
        elif self.created is None:
            self.up = self.ok = self.rev.steady_ready
        else:
            age = t - self.created
            since = self.rev.ready_since(age)
            self.up = since is not None
            self.ok = since is not None and age >= since + self.lag

    def exists(self, t: float) -> bool:
        return self.here

    def terminating(self, t: float) -> bool:
        return self.here and not self.on

    def active(self, t: float) -> bool:
        """Not being deleted: what ReplicaSets count (`controller.FilterActivePods`)."""
        return self.on

    def ready(self, t: float) -> bool:
        return self.up

    def available(self, t: float) -> bool:
        """`IsPodAvailable`: Ready for minReadySeconds (seen minReadySeconds + 1 s after it turned Ready)."""
        return self.ok

    def result(self) -> RolloutPod:
        c = self.created
        end = self.deleted
        if c is None:
            ready: list[tuple[float, float | None]] = [(0.0, end)] if self.rev.steady_ready else []
            return RolloutPod(self.name, self.revision, None, None, 0.0 if self.rev.steady_ready else None,
                              self.deleted, self.gone, self.node, tuple(ready))
        ready, first_available = [], None
        for a, b in self.rev.ready:
            start, stop = c + a, (None if b == INF else c + b)
            if end is not None and start >= end:
                break
            if end is not None and (stop is None or stop > end):
                stop = end
            ready.append((_r(start), None if stop is None else _r(stop)))
            if first_available is None and (stop is None or start + self.lag < stop):
                first_available = _r(start + self.lag)
        return RolloutPod(self.name, self.revision, _r(c), ready[0][0] if ready else None, first_available,
                          self.deleted, self.gone, self.node, tuple(ready))


class Controller(Protocol):
    def sync(self, t: float) -> bool:
        """One reconcile pass at ``t``; True when it created or deleted a Pod or changed what it wants."""

    def observe(self, t: float) -> None:
        """After the syncs of an instant: its status, progress, completion."""

    def finish(self, t: float) -> None:
        """The run ended at ``t`` (nothing left to happen, the quiet window, the horizon or the budget)."""


@dataclass
class Snapshot:
    t: float
    old: int
    new: int
    ready: int
    available: int
    terminating: int
    new_available: int
    old_available: int


class Engine:
    def __init__(self, desired: int, min_ready: int, delay: float, horizon: float) -> None:
        self.desired = desired
        self.lag = float(min_ready) + d.AVAILABILITY_RECHECK_SECONDS if min_ready > 0 else 0.0
        self.delay, self.horizon = delay, horizon
        self.pods: list[RPod] = []
        self._heap: list[tuple[float, int, int, object]] = []
        self._seq = itertools.count()
        self._sync_at: set[float] = set()
        self._count = {"old": 0, "new": 0, "ready": 0, "available": 0, "terminating": 0, "new_available": 0,
                       "old_available": 0}
        self._live: set[RPod] = set()
        self._changes: dict[int, tuple[float, ...]] = {}
        self.watcher: Callable[[RPod], None] | None = None   # told of every Pod whose state changed
        self.now = 0.0
        self.steps: list[RolloutStep] = []
        self.steps_left_out = 0
        self.counts: list[RolloutCount] = []
        self.complete_at: float | None = None
        self.stall: Stall | None = None
        self.last_action = 0.0
        self.quiet = 600.0                  # the run ends this long after the controller last acted
        self.syncs = 0
        self.cut_short = False              # the sync budget ran out
        self.timers: list[object] = []
        self.end = 0.0
        self.stop = "idle"                  # why the run ended: done, idle, quiet, horizon, budget
        self.created: list[RPod] = []      # Pods the controller created, in order
        self.ready_words: Text | None = None   # the words for "turned Ready" (StatefulSets: Running and Ready)
        self._seen_ready: set[RPod] = set()
        self._seen_available: set[RPod] = set()

    # ---- the world ------------------------------------------------------------------------------
    def add_old(self, name: str, rev: Revision, node: str | None = None, ordinal: int | None = None) -> RPod:
        pod = RPod(name, OLD, rev, None, self.lag, node, ordinal)
        self.pods.append(pod)
        self._live.add(pod)
        self._refresh(pod, 0.0)
        return pod

    def create(self, t: float, name: str, revision: str, rev: Revision, node: str | None = None,
               ordinal: int | None = None) -> RPod:
        pod = RPod(name, revision, rev, t, self.lag, node, ordinal)
        self.pods.append(pod)
        self._live.add(pod)
        self.created.append(pod)
        self._refresh(pod, t)
        changes = self._changes.get(id(rev))
        if changes is None:
            changes = self._changes[id(rev)] = rev.transitions(self.lag)
        pod.changes = changes
        if changes:                       # one pending event per Pod: the next follows when it happens
            self._push(t + changes[0], _TURN, pod)
        self._acted(t)
        return pod

    def delete(self, t: float, pod: RPod) -> None:
        pod.deleted = t
        pod.gone = t + pod.rev.gone_after
        self._refresh(pod, t)
        self._push(pod.gone, _CHANGE, pod)
        self._acted(t)

    def timer(self, t: float, what: object) -> None:
        """Wake the controller at ``t`` (its `observe` sees ``what`` in ``self.timers``)."""
        self._push(t, _TIMER, what)

    def step(self, t: float, text: Text, pods: tuple[str, ...] = ()) -> None:
        if len(self.steps) < STEPS_KEPT:
            self.steps.append(RolloutStep(_r(t), text, pods))
        else:
            self.steps_left_out += 1

    def pod_steps(self, t: float, pods: list[RPod]) -> None:
        """Sentences for the created Pods among ``pods`` that turned Ready, available, or lost their Ready
        condition at ``t``."""
        pods = [p for p in dict.fromkeys(pods) if p.created is not None]
        ready_words = self.ready_words
        seen_ready, seen_available = self._seen_ready, self._seen_available
        became_ready = [p for p in pods if p not in seen_ready and p.ready(t)]
        became_available = [p for p in pods if p not in seen_available and p.available(t)]
        lost = [p for p in pods if p in seen_ready and p.active(t) and not p.ready(t)]
        seen_ready.update(became_ready)
        seen_available.update(became_available)
        if became_ready and (self.lag or ready_words is not None):
            words = ready_words or Text(_("Ready: {names}; available once Ready for minReadySeconds."))
            self.step(t, Text(words.msgid, {"names": names(became_ready)}), tuple(p.name for p in became_ready))
        if became_available and (self.lag or ready_words is None):
            self.step(t, Text(_("Now available: {names}."), {"names": names(became_available)}),
                      tuple(p.name for p in became_available))
        if lost:
            seen_ready.difference_update(lost)
            seen_available.difference_update(lost)
            self.step(t, Text(_("No longer Ready: {names}."), {"names": names(lost)}), tuple(p.name for p in lost))

    def snapshot(self, t: float) -> Snapshot:
        """The counts now (kept up to date by `_refresh`)."""
        c = self._count
        return Snapshot(t, c["old"], c["new"], c["ready"], c["available"], c["terminating"], c["new_available"],
                        c["old_available"])

    def _refresh(self, p: RPod, t: float) -> None:
        """Evaluate ``p`` at ``t`` and move the counts by what changed."""
        before = (p.here, p.on, p.up, p.ok)
        p.at(t)
        if (p.here, p.on, p.up, p.ok) == before:
            return
        self._tally(p, before, -1)
        self._tally(p, (p.here, p.on, p.up, p.ok), 1)
        if not p.here and p in self._live:
            self._live.discard(p)
        if self.watcher is not None:
            self.watcher(p)

    def _tally(self, p: RPod, state: tuple[bool, bool, bool, bool], sign: int) -> None:
        here, on, up, ok = state
        c = self._count
        if not here:
            return
        if not on:
            c["terminating"] += sign
            return
        c[p.revision] += sign
        c["ready"] += sign * up
        c["available"] += sign * ok
        c[p.revision + "_available"] += sign * ok

    # ---- the loop -------------------------------------------------------------------------------
    def run(self, controller: Controller) -> None:
        self._record(0.0)                     # every old Pod, as the restart finds them
        self._want_sync(self.delay)           # the restart itself is a change the controller reacts to
        heap = self._heap
        self.stop = "idle"                  # nothing left to happen
        while heap:
            t = heap[0][0]
            if t > self.horizon:
                self.stop, self.now = "horizon", self.horizon
                break
            if t > self.last_action + self.quiet:
                self.stop, self.now = "quiet", self.last_action + self.quiet
                break
            self.now = t
            self.timers = []
            stepped = False
            changed: list[RPod] = []
            while heap and heap[0][0] == t:
                _t, kind, _seq, what = heapq.heappop(heap)
                if kind == _TURN and isinstance(what, RPod):
                    what.next_change += 1
                    if what.next_change < len(what.changes) and what.created is not None:
                        self._push(what.created + what.changes[what.next_change], _TURN, what)
                if kind in (_TURN, _CHANGE):
                    if isinstance(what, RPod):
                        self._refresh(what, t)
                        changed.append(what)
                    self._want_sync(t + self.delay)
                elif kind == _TIMER:
                    self.timers.append(what)
                else:
                    if not stepped:
                        stepped = True
                        self.pod_steps(t, changed)
                    self._sync_at.discard(t)
                    while self.syncs <= d.ROLLOUT_MAX_SYNCS:      # until a sync changes nothing
                        self.syncs += 1
                        if not controller.sync(t):
                            break
            self.pod_steps(t, changed)     # Pods that changed after the first sync of the instant, if any
            controller.observe(t)
            self._record(t)
            if self.syncs > d.ROLLOUT_MAX_SYNCS:
                self.cut_short, self.stop = True, "budget"
                break
            if self.complete_at is not None and not any(p.revision == OLD for p in self._live):
                self.stop = "done"
                break
        self.end = self.now
        controller.finish(self.end)

    def _want_sync(self, t: float) -> None:
        if t not in self._sync_at:
            self._sync_at.add(t)
            self._push(t, _SYNC, None)

    def _push(self, t: float, kind: int, what: object) -> None:
        heapq.heappush(self._heap, (t, kind, next(self._seq), what))

    def _acted(self, t: float) -> None:
        self.last_action = max(self.last_action, t)
        self._want_sync(t)

    def _record(self, t: float) -> None:
        s = self.snapshot(t)
        count = RolloutCount(_r(t), self.desired, s.old, s.new, s.ready, s.available, s.terminating)
        if self.counts and self.counts[-1].t == count.t:
            self.counts[-1] = count
        elif not self.counts or _differs(self.counts[-1], count):
            self.counts.append(count)

    def stalled(self, t: float, reason: str, text: Text) -> None:
        """The rollout stalls at ``t`` (the first stall is the result's; a later one is told in the story)."""
        if self.stall is None:
            s = self.snapshot(t)
            self.stall = Stall(_r(t), reason, text, s.available, s.old)
        self.step(t, text)

    def left_out_note(self) -> Text | None:
        if not self.steps_left_out:
            return None
        return Text(_("The story lists the first {kept} steps; {more} more are left out."),
                    {"kept": STEPS_KEPT, "more": self.steps_left_out})


def _differs(a: RolloutCount, b: RolloutCount) -> bool:
    return (a.old, a.new, a.ready, a.available, a.terminating) != (b.old, b.new, b.ready, b.available, b.terminating)


def _r(t: float) -> float:
    return round(t, 3)


NAMES_LISTED = 6     # longer lists of Pods are shortened to the first few, the last and the count


def names(pods: list[RPod]) -> str | Text:
    """The Pods' names for a sentence: all of them, or for many "a, b, c … z (26 Pods)"."""
    if len(pods) <= NAMES_LISTED:
        return ", ".join(p.name for p in pods)
    return Text(_("{first} … {last} ({n} Pods)"), {"first": ", ".join(p.name for p in pods[:3]),
                                                    "last": pods[-1].name, "n": len(pods)})
