"""Fast-forward over steady crash loops (issue 11; docs/lifecycle-model.md §7.6).

A container that crash-loops at the back-off cap repeats one cycle until the horizon: start, run,
exit, wait the maximum back-off, start again.  The kubelet's back-off is a pure function of the
last exit and the last delay (pkg/kubelet/kuberuntime/kuberuntime_manager.go `doBackOff` over
client-go util/flowcontrol/backoff.go `Backoff.Next`/`IsInBackOffSince`: the delay doubles up to
MaxContainerBackOff and only an entry older than the reset period starts again at the initial
delay), so once every container that still changes has reached the cap, the whole Pod's state
repeats with a fixed period.  Simulating a day of it cycle by cycle cost ~10 s for 500 containers.

The mixin watches for that: at the end of an instant in which the *pilot* (the first container
restarted at the back-off cap) was restarted, it takes a signature of the whole state relative to
the clock -- every container's state, back-off entry and timers, the Pod's flags, and every pending
action with its time, priority and order.  When the same signature has come back with the same period
``FF_PERIODS`` times in a row, the state is periodic: the simulation jumps ahead by whole periods
(all pending actions and timestamps move by the jump, restart counts grow by the restarts of one
period times the number of periods, the status timeline's points of one period are repeated), and the
rest -- at least one period before ``until`` or the next thing the scenario does (deletion, node
reboot, deadline, debug container, image update) -- is simulated normally.  The events of the
skipped periods are not recorded; `summarise.py` folds such cycles anyway and reads the jump
(`FastForward`) to count their restarts, so the summarised answer is the full simulation's.

Only times that are multiples of 1/8 s are fast-forwarded: their sums are exact in floating point,
so the jump gives bit for bit the times the step-by-step run gives.
"""
from __future__ import annotations

import heapq
from typing import Any

from .kubelet_state import FastForward, KubeletState  # noqa: F401  (FastForward: where simulate.py finds it)
from . import defaults as d
from .runtime import CState, Kill
from .trace import StatusPoint

ENABLED = True        # the default of simulate(fast_forward=...); `make bench` turns it off for its baseline
FF_PERIODS = 5        # identical periods in a row before a jump (> summarise.KEEP_CYCLES + 1)
_GRAIN = 8            # times must be multiples of 1/_GRAIN s (exact in binary and in 3 decimals)
_MAX_SIGNATURES = 64  # signatures remembered (a Pod whose period is longer gains nothing)


def _exact(x: float) -> bool:
    y = x * _GRAIN
    return y == int(y)


class FastForwardMixin(KubeletState):
    """Detects a periodic state and jumps over whole periods; see the module's docstring."""
    # the shared state this part assigns (kubelet_state.py; tests/lifecycle/test_kubelet_parts.py holds it to it)
    CHANGES = frozenset({"fast_forwards", "ff_enabled", "ff_pilot", "ff_seen", "timeline_modes"})

    def _ff_init(self, enabled: bool) -> None:
        self.ff_enabled = enabled
        self.ff_pilot: CState | None = None
        self.ff_seen: dict[tuple, tuple] = {}
        self.fast_forwards: list[FastForward] = []
        self.timeline_modes: list[bool] = []    # per timeline point: RESTARTS counted while initialising
        self.s.on_check = self._ff_check

    def _ff_started(self, c: CState) -> None:
        """Called when ``c`` is restarted: a restart at the back-off cap asks for a check."""
        if not self.ff_enabled or c.bo_delay != self.bo_max:
            return
        if self.ff_pilot is None:
            self.ff_pilot = c
        if c is self.ff_pilot:
            self.s.check = True

    def _all_containers(self) -> list[CState]:
        return self.init + self.apps + self.ephemeral

    def _ff_check(self) -> None:
        """End of an instant in which the pilot restarted: compare, remember, perhaps jump."""
        sig = self._ff_signature()
        if sig is None:
            return
        state, one_offs = sig
        now = self.s.now
        containers = self._all_containers()
        snapshot = (now, tuple(c.st.restarts for c in containers), tuple(c.runs for c in containers),
                    len(self.timeline), len(self.notes), len(self.events))
        seen = self.ff_seen.get(state)
        if seen is None:
            if len(self.ff_seen) >= _MAX_SIGNATURES:
                self.ff_seen.clear()
            self.ff_seen[state] = (snapshot, None, 0)
            return
        before, period, count = seen
        p = now - before[0]
        count = count + 1 if period == p else 1
        self.ff_seen[state] = (snapshot, p, count)
        if count < FF_PERIODS or before[4] != len(self.notes) or not _exact(p) or not self._ff_foldable(before[5]):
            return
        limit = min([self.until, *one_offs])
        k = int((limit - now) // p) - 1
        if k >= 1:
            self._ff_jump(p, k, before, containers, one_offs)

    def _ff_foldable(self, since: int) -> bool:
        """Whether the events of the last period are ones `summarise.py` folds: each container that did
        something went once through a crash-loop back-off (one cycle a period), and nothing happened to
        the Pod as a whole.  Other repeating events (an image pull back-off) must all be shown."""
        loops: dict[str, int] = {}
        changed = set()
        for e in self.events[since:]:
            if e.container is None:
                return False
            changed.add(e.container)
            if e.type == "backoff" and e.reason == "CrashLoopBackOff":
                loops[e.container] = loops.get(e.container, 0) + 1
        return all(loops.get(name) == 1 for name in changed)

    def _ff_signature(self) -> tuple[tuple, list[float]] | None:
        """The state relative to the clock, and the times of the scenario's pending one-off actions;
        None when the state cannot be periodic (a kill of the Pod, work in progress, inexact times)."""
        now = self.s.now
        if (self.terminal or self.deleting or self.pod_kill is not None or self.busy or self.queue
                or self.after_free or self.restart_all is not None or self.end_time is not None
                or not _exact(now)):
            return None
        one_off_actions = {self._delete, self._sandbox_lost, self._deadline, self._debug, self._update_image}
        pending, one_offs, busy = [], [], set()
        for t, prio, seq, action, args in sorted(self.s._heap):
            if action in one_off_actions:
                one_offs.append(t)
                continue
            if not _exact(t):
                return None
            enc: list[Any] = []
            prev: Any = None
            for a in args:
                if isinstance(a, CState):
                    enc.append(a.spec.name)
                    busy.add(a.spec.name)
                elif isinstance(a, Kill):
                    enc.append((a.deadline - now, a.reason, a.ordered, a.stage, a.override))
                elif isinstance(a, int) and not isinstance(a, bool) and isinstance(prev, CState):
                    enc.append(prev.gen - a)      # a generation: only "still current" matters
                else:
                    enc.append(a)
                prev = a
            pending.append((t - now, prio, getattr(action, "__name__", repr(action)), tuple(enc)))
        per_container = []
        for c in self._all_containers():
            st = c.st
            ts = c.finished_at
            if ts is not None and not _exact(ts):
                return None
            if c.alive:   # the next exit compares its time with the last back-off update
                since = None if c.bo_delay is None else now - c.bo_updated
                reset: float | str | None = "expired" if since is not None and since > d.CRASH_LOOP_RESET_SECONDS else since
            else:
                reset = ts - c.bo_updated > d.CRASH_LOOP_RESET_SECONDS if ts is not None and c.bo_delay is not None \
                    else None
            since_exit = None if ts is None else ("long ago" if now - ts >= self.bo_max else now - ts)
            k = c.kill
            per_container.append((
                c.alive, c.in_poststart, None if k is None else (k.deadline - now, k.reason, k.ordered, k.stage, k.override),
                c.bo_delay, reset, since_exit, c.img_delay,
                None if c.img_delay is None else max(c.img_retry_at - now, 0.0),
                c.announced, c.force_restart, c.requested, c.ever_created, c.has_status,
                now - c.start_t if (c.spec.name in busy or c.in_poststart) else None,
                min(c.runs, len(c.b.runs) - 1),
                st.state, st.waiting_reason, st.exit_code, st.last_exit, st.started, st.ready, st.will_restart, st.exit_reason))
        pod = (self.sandbox, self.sandbox_ever, self.initialized, self.sync_pending, self.sync_wanted,
               self.alive_total, self.alive_apps, self.forced_phase, self.status_reason)
        return (pod, tuple(per_container), tuple(pending)), one_offs

    def _ff_jump(self, p: float, k: int, before: tuple, containers: list[CState], one_offs: list[float]) -> None:
        shift = p * k
        s = self.s
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
                self.book.changed(c.st)
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
        points, modes = self.timeline[first:], self.timeline_modes[first:]
        rows = [(pt.t, pt.status, pt.phase, pt.ready, pt.ready_count, pt.restarts, pt.initialized, delta[mode])
                for pt, mode in zip(points, modes)]
        point, append = StatusPoint, self.timeline.append
        for j in range(1, k + 1):
            shift_j = j * p
            for t, status, phase, ready, ready_count, count, initialized, dr in rows:
                append(point(t + shift_j, status, phase, ready, ready_count, count + j * dr, initialized))
        self.timeline_modes.extend(modes * k)
        # every pending action moves with the clock; what would now lie beyond the horizon was never scheduled
        one_off_actions = {self._delete, self._sandbox_lost, self._deadline, self._debug, self._update_image}
        heap = []
        for t, prio, seq, action, args in s._heap:
            if action not in one_off_actions:
                t += shift
                if t > self.until:
                    continue
            heap.append((t, prio, seq, action, args))
        heapq.heapify(heap)
        s._heap[:] = heap
        s.now = now + shift
        self.ff_seen.clear()
        self.fast_forwards.append(FastForward(len(self.events), now, shift, restarts))
