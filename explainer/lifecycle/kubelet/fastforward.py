"""Fast-forward over steady crash loops (issue 11; docs/lifecycle-model.md §7.6).

A container that crash-loops at the back-off cap repeats one cycle until the horizon: start, run,
exit, wait the maximum back-off, start again.  The kubelet's back-off is a pure function of the
last exit and the last delay (pkg/kubelet/kuberuntime/kuberuntime_manager.go `doBackOff` over
client-go util/flowcontrol/backoff.go `Backoff.Next`/`IsInBackOffSince`: the delay doubles up to
MaxContainerBackOff and only an entry older than the reset period starts again at the initial
delay), so once every container that still changes has reached the cap, the whole Pod's state
repeats with a fixed period.  Simulating a day of it cycle by cycle cost ~10 s for 500 containers.

`FastForwarder` watches for that: at the end of an instant in which the *pilot* (the first container
restarted at the back-off cap) was restarted, it takes a signature of the whole state relative to
the clock -- every container's state, back-off entry and timers (`ContainerState.signature`, runtime.py),
the Pod's flags (`PodState.signature`, kubelet/state.py), and every pending action with its time,
priority and order.  When the same signature has come back with the same period
``FF_PERIODS`` times in a row, the state is periodic: the simulation jumps ahead by whole periods
(all pending actions and timestamps move by the jump, restart counts grow by the restarts of one
period times the number of periods, the status timeline's points of one period are repeated), and the
rest -- at least one period before ``until`` or the next thing the scenario does (deletion, node
reboot, deadline, debug container, image update) -- is simulated normally.  The events of the
skipped periods are not recorded; `summarise.py` folds such cycles anyway and reads the jump
(`FastForward`) to count their restarts, so the summarised answer is the full simulation's.

Only times that are multiples of 1/8 s are fast-forwarded: their sums are exact in floating point,
so the jump gives bit for bit the times the step-by-step run gives.

The status points of the skipped periods are repeated into the timeline only up to
``MAX_TIMELINE_POINTS`` (issue 27): at the node's 1 s back-off cap, 40 containers crash-looping for a
day make ~86,000 restarts each, and repeating every status point of every period cost 10 s and
2.3 GB.  Past the bound, the points of the remaining periods are left out (the jump says how many,
from when to when: the answer's ``statusTimelineFolds``); restart counts, the points after the jump
and the final phase stay exact, and the jump costs the points it keeps, not the periods it skips.
"""
from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import Any

from .state import Containers, FastForward, KubeletConfig, PodState, Record
from .runtime import ContainerState, Kill, exact
from .scheduler import Scheduler
from .trace import StatusPoint

__all__ = ["ENABLED", "FF_PERIODS", "FastForward", "FastForwarder"]

ENABLED = True        # the default of simulate(fast_forward=...); `make bench` turns it off for its baseline
FF_PERIODS = 5        # identical periods in a row before a jump (> summarise.KEEP_CYCLES + 1)
_MAX_SIGNATURES = 64  # signatures remembered (a Pod whose period is longer gains nothing)
# Status points a timeline keeps from the periods jumped over (docs/lifecycle-model.md §7.6): a day of
# 500 containers at the 300 s cap, in step, makes about a thousand; the rest of a longer run is folded.
MAX_TIMELINE_POINTS = 20_000


class FastForwarder:
    """Detects a periodic state and jumps over whole periods; see the module's docstring.  ``one_offs`` are the
    scenario's one-off actions (scenario_actions.py), which it never jumps over."""

    __slots__ = ("cfg", "state", "cs", "s", "rec", "one_offs", "enabled", "pilot", "seen", "fast_forwards")

    def __init__(self, cfg: KubeletConfig, state: PodState, cs: Containers, s: Scheduler, rec: Record,
                 one_offs: frozenset[Callable[..., Any]], enabled: bool) -> None:
        self.cfg, self.state, self.cs, self.s, self.rec = cfg, state, cs, s, rec
        self.one_offs = one_offs
        self.enabled = enabled
        self.pilot: ContainerState | None = None
        self.seen: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        self.fast_forwards: list[FastForward] = []
        s.on_check = self._check

    def started(self, c: ContainerState) -> None:
        """Called when ``c`` is restarted: a restart at the back-off cap asks for a check."""
        if not self.enabled or c.bo_delay != self.cfg.bo_max:
            return
        if self.pilot is None:
            self.pilot = c
        if c is self.pilot:
            self.s.check = True

    def _check(self) -> None:
        """End of an instant in which the pilot restarted: compare, remember, perhaps jump."""
        sig = self.signature()
        if sig is None:
            return
        state, one_offs = sig
        now = self.s.now
        rec = self.rec
        containers = self.cs.all()
        snapshot = (now, tuple(c.st.restarts for c in containers), tuple(c.runs for c in containers),
                    len(rec.timeline), len(rec.notes), len(rec.events))
        seen = self.seen.get(state)
        if seen is None:
            if len(self.seen) >= _MAX_SIGNATURES:
                self.seen.clear()
            self.seen[state] = (snapshot, None, 0)
            return
        before, period, count = seen
        p = now - before[0]
        count = count + 1 if period == p else 1
        self.seen[state] = (snapshot, p, count)
        if count < FF_PERIODS or before[4] != len(rec.notes) or not exact(p) or not self._foldable(before[5]):
            return
        limit = min([self.cfg.until, *one_offs])
        k = int((limit - now) // p) - 1
        if k >= 1:
            self._jump(p, k, before, containers)

    def _foldable(self, since: int) -> bool:
        """Whether the events of the last period are ones `summarise.py` folds: each container that did
        something went once through a crash-loop back-off (one cycle a period), and nothing happened to
        the Pod as a whole.  Other repeating events (an image pull back-off) must all be shown."""
        loops: dict[str, int] = {}
        changed = set()
        for e in self.rec.events[since:]:
            if e.container is None:
                return False
            changed.add(e.container)
            if e.type == "backoff" and e.reason == "CrashLoopBackOff":
                loops[e.container] = loops.get(e.container, 0) + 1
        return all(loops.get(name) == 1 for name in changed)

    def signature(self) -> tuple[tuple[Any, ...], list[float]] | None:
        """The state relative to the clock, and the times of the scenario's pending one-off actions;
        None when the state cannot be periodic (a kill of the Pod, work in progress, inexact times).
        The Pod's and each container's parts are their own `signature` methods, beside their fields;
        here the pending actions."""
        now = self.s.now
        pod = self.state.signature()
        if pod is None or not exact(now):
            return None
        pending, one_offs, busy = [], [], set()
        for t, prio, seq, action, args in sorted(self.s._heap):
            if action in self.one_offs:
                one_offs.append(t)
                continue
            if not exact(t):
                return None
            enc: list[Any] = []
            prev: Any = None
            for a in args:
                if isinstance(a, ContainerState):
                    enc.append(a.spec.name)
                    busy.add(a.spec.name)
                elif isinstance(a, Kill):
                    enc.append(a.signature(now))
                elif isinstance(a, int) and not isinstance(a, bool) and isinstance(prev, ContainerState):
                    enc.append(prev.gen - a)      # a generation: only "still current" matters
                else:
                    enc.append(a)
                prev = a
            pending.append((t - now, prio, getattr(action, "__name__", repr(action)), tuple(enc)))
        per_container = []
        bo_max = self.cfg.bo_max
        for c in self.cs.all():
            sig = c.signature(now, bo_max, c.spec.name in busy or c.in_poststart)
            if sig is None:
                return None
            per_container.append(sig)
        return (pod, tuple(per_container), tuple(pending)), one_offs

    def _jump(self, p: float, k: int, before: tuple[Any, ...], containers: list[ContainerState]) -> None:
        shift = p * k
        s, rec = self.s, self.rec
        now = s.now
        gained = {"init": 0, "sidecar": 0, "app": 0}      # one period's restarts by role
        restarts = {}
        for c, r0, n0 in zip(containers, before[1], before[2]):
            dr = c.st.restarts - r0
            if dr:
                if c.spec.role in gained:
                    gained[c.spec.role] += dr
                c.st.restarts += dr * k
                restarts[c.spec.name] = dr * k
                rec.book.changed(c.st)
            c.runs += (c.runs - n0) * k
            if c.finished_at is not None:
                c.finished_at += shift
            if c.bo_delay is not None:
                c.bo_updated += shift
            if c.ever_created:
                c.start_t += shift
            if c.img_delay is not None:
                c.img_retry_at += shift
            if c.kill is not None:
                c.kill.deadline += shift
        # the status timeline: the points of the last period, once for every period skipped; RESTARTS
        # (kubectl's column) counts the init list while the Pod initialises, else sidecars and apps
        delta = {True: gained["init"] + gained["sidecar"], False: gained["sidecar"] + gained["app"]}
        first = before[3]
        points, modes = rec.timeline[first:], rec.timeline_modes[first:]
        rows = [(pt.t, pt.status, pt.phase, pt.ready, pt.ready_count, pt.restarts, pt.initialized, delta[mode])
                for pt, mode in zip(points, modes)]
        room = max(0, MAX_TIMELINE_POINTS - len(rec.timeline))
        kept = k if len(rows) * k <= room else room // max(len(rows), 1)   # whole periods, up to the bound
        point, append = StatusPoint, rec.timeline.append
        for j in range(1, kept + 1):
            shift_j = j * p
            for t, status, phase, ready, ready_count, count, initialized, dr in rows:
                append(point(t + shift_j, status, phase, ready, ready_count, count + j * dr, initialized))
        rec.timeline_modes.extend(modes * kept)
        # every pending action moves with the clock; what would now lie beyond the horizon was never scheduled
        heap = []
        for t, prio, seq, action, args in s._heap:
            if action not in self.one_offs:
                t += shift
                if t > self.cfg.until:
                    continue
            heap.append((t, prio, seq, action, args))
        heapq.heapify(heap)
        s._heap[:] = heap
        s.now = now + shift
        self.seen.clear()
        self.fast_forwards.append(FastForward(len(rec.events), now, shift, restarts, p, now + kept * p,
                                              len(rows) * (k - kept)))
