"""Termination: `killContainer` (preStop, its turn, SIGTERM, SIGKILL) and the Pod-wide kill with
one shared grace deadline and sidecars stopped in reverse order (kuberuntime_termination_order.go).

A mixin of the kubelet model in simulate.py.  Section numbers (§) refer to docs/lifecycle-model.md.
"""
from __future__ import annotations

import heapq
from typing import Any

from .kubelet_state import KubeletState
from . import defaults as d
from .i18n import Text, gettext_noop as _
from .probes import INF
from .runtime import CState, Kill
from .status import WAITING
from .scheduler import HAPPEN
from .shutdown import PAUSE, SIGNAL, Stop
from .trace import EventKind

_GRACE_OVER = Text(_("the grace period is over: SIGKILL"))
_KILLED_WITH_PAUSE = Text(_("killed by the kernel: PID 1 of the Pod's PID namespace (pause) has exited"))
_HOOK_KILLED = Text(_("the hook's processes were killed with every other process of the Pod"))


class TerminationMixin(KubeletState):
    """Kills containers, one or all, and finishes the Pod when nothing runs any more."""
    # the shared state this part assigns (kubelet_state.py; tests/lifecycle/test_kubelet_parts.py holds it to it)
    CHANGES = frozenset({"alive_apps", "alive_total", "busy", "end_time", "initialized", "notes", "pod_kill",
                         "queue", "sandbox", "terminal"})

    # ---- killing ------------------------------------------------------------------------------
    def _begin_kill(self, c: CState, grace: float, reason: str, ordered: bool, override: float | None = None) -> None:
        """`killContainer`: preStop (if any and grace > 0), then its turn, then SIGTERM/SIGKILL."""
        now = self.s.now
        k = Kill(now + grace, reason, ordered, override)
        c.kill = k
        hook = c.spec.pre_stop
        if hook is not None and grace > 0 and c.spec.role != "ephemeral":
            self.emit(c, EventKind.PRESTOP_STARTED, reason=reason, message=hook.detail)
            seconds = c.b.pre_stop_seconds
            end = now + seconds if seconds is not None else INF
            waits = False
            for stop in c.b.pre_stop_stops:     # the hook ends a main process itself (§9.2), or the Pod's (§30)
                if now + stop.offset > min(end, k.deadline):
                    continue
                if stop.kind == PAUSE:
                    self.s.at(now + stop.offset, HAPPEN, self._pause_exits, c, c.gen, stop)
                    continue
                target = self.cs.get(stop.target)
                if target is not None:
                    waits = waits or stop.waits
                    self.s.at(now + stop.offset, HAPPEN, self._script_stop, target, target.gen, stop,
                              Text(_("{c}'s preStop hook ends it: {how}"), {"c": c.spec.name, "how": stop.how}),
                              c if stop.waits else None)
            if end < k.deadline and not waits:
                self.s.at(end, HAPPEN, self._prestop_end, c, k, False)
            else:     # a hook that waits for another container ends when it has exited (`_script_stop`)
                self.s.at(k.deadline, HAPPEN, self._prestop_end, c, k, True)
        else:
            self._after_prestop(c, k)

    def _prestop_end(self, c: CState, k: Kill, cut: bool) -> None:
        if c.kill is not k or not c.alive:
            return
        if cut:
            self.emit(c, EventKind.PRESTOP_DONE, reason="GracePeriodExceeded",
                      message=Text(_("the grace period ran out before the preStop hook ended")))
        else:
            code = c.b.pre_stop_exit_code
            self.emit(c, EventKind.PRESTOP_DONE, exit_code=code or None,
                      reason="FailedPreStopHook" if code else None,
                      message=Text(_("the hook failed; the kill goes on")) if code else "",
                      assumed="preStopSeconds" in c.b.assumed)
        self._after_prestop(c, k)

    def _script_stop(self, c: CState, gen: int, stop: Stop, why: Text, waiter: CState | None = None) -> None:
        """A script ends ``c``'s main process (shutdown.py, §9.2): by a signal PID 1 answers as it answers
        SIGTERM (a PID 1 without a handler ignores it), or by an endpoint after which it exits at once.  A
        ``waiter`` (a preStop that waits until ``c`` has gone, `while pidof app`) ends its hook then; when ``c``
        is the waiter itself its exit ends the kill."""
        if gen != c.gen or not c.alive:
            return
        if waiter is not None and waiter is not c and waiter.kill is not None:
            delay = c.b.stop_seconds if stop.kind == SIGNAL else 0.0
            if delay is not None:
                self.s.at(self.s.now + delay, HAPPEN, self._prestop_end, waiter, waiter.kill, False)
        if stop.kind == SIGNAL:
            delay = c.b.stop_seconds
            if delay is None:
                self.notes.append(Text(_("t={t}s: {why}, but {c}'s main process has no handler for the signal "
                                         "as PID 1 and ignores it."), {"t": f"{self.s.now:g}", "why": why,
                                                                     "c": c.spec.name}))
                return
            code, assumed = c.b.stop_exit_code, "stopSeconds" in c.b.assumed
        else:
            delay, code, assumed = 0.0, 0, True   # the endpoint's exit code and speed are the proxy's own
        if c.kill is not None and c.kill.stage == "term":
            return      # the kubelet's own stop signal is already on its way
        if delay == 0:
            self._exit(c, c.gen, code, why, assumed)    # before the hook's own end at this instant
        else:
            self.s.at(self.s.now + delay, HAPPEN, self._exit, c, c.gen, code, why, assumed)

    def _pause_exits(self, owner: CState, gen: int, stop: Stop) -> None:
        """``owner``'s preStop ends the pause process, PID 1 of the Pod's shared PID namespace (shutdown.py
        `_pause_stop`): build/pause/linux/pause.c `sigdown` exits on SIGTERM and SIGINT, and when PID 1 of a
        PID namespace ends the kernel SIGKILLs every process in it (pid_namespaces(7)).  Every container
        still running ends with 137 at once, its running hooks with it; the sandbox is gone.  A Pod that is
        not terminating gets a new sandbox and starts again from its first init container (`computePodActions`:
        the sandbox changed; §6.1).  docs/lifecycle-model.md §30."""
        if gen != owner.gen or not owner.alive or self.terminal:
            return
        self.emit(None, EventKind.SANDBOX_LOST, reason="PauseExited",
                  message=Text(_("{c}'s preStop hook: {how}"), {"c": owner.spec.name, "how": stop.how}))
        self.sandbox = False
        self.queue.clear()
        self.busy = self.pod_kill is not None
        for c in self.init + self.apps + self.ephemeral:
            if c.alive and c.kill is not None and c.kill.stage == "prestop" and c.spec.pre_stop is not None:
                self.emit(c, EventKind.PRESTOP_DONE, exit_code=d.EXIT_SIGKILL, reason="FailedPreStopHook",
                          message=_HOOK_KILLED)
        for c in self.init + self.apps + self.ephemeral:
            if c.alive:
                c.in_poststart = False
                c.kill = None
                self._exit(c, c.gen, d.EXIT_SIGKILL, _KILLED_WITH_PAUSE, False)
        if self.pod_kill is not None or self.terminal:
            return
        for c in self.init:     # SyncPod step 2 `purgeInitContainers`, as after any sandbox change
            if not c.alive and c.ever_created:
                c.st.last_exit = None
                self._set(c, WAITING, reason="PodInitializing")
                c.finished_at = None
                c.has_status = False
        self.initialized = False
        self._free()
        self.request_sync()

    def _after_prestop(self, c: CState, k: Kill) -> None:
        k.stage = "turn"
        if k.ordered and self.s.now < k.deadline - 1e-9 and not self._my_turn(c):
            self.s.at(k.deadline, HAPPEN, self._turn_deadline, c, k)
            return
        self._sigterm(c, k)

    def _mark_alive(self, c: CState) -> None:
        c.alive = True
        self.alive_total += 1
        if c.spec.role == "app":
            self.alive_apps += 1
        elif c.spec.role == "sidecar":
            heapq.heappush(self.sidecar_heap, -c.spec.index)

    def _mark_dead(self, c: CState) -> None:
        c.alive = False
        self.alive_total -= 1
        if c.spec.role == "app":
            self.alive_apps -= 1

    def _last_alive_sidecar(self) -> CState | None:
        heap = self.sidecar_heap
        while heap and not self.init[-heap[0]].alive:
            heapq.heappop(heap)
        return self.init[-heap[0]] if heap else None

    def _my_turn(self, c: CState) -> bool:
        """§12.3: a sidecar's SIGTERM waits for every app container and every later sidecar."""
        return self.alive_apps == 0 and self._last_alive_sidecar() is c

    def _turn_deadline(self, c: CState, k: Kill) -> None:
        if c.kill is k and k.stage == "turn" and c.alive:
            self._sigterm(c, k)

    def _sigterm(self, c: CState, k: Kill) -> None:
        now = self.s.now
        k.stage = "term"
        remaining = k.override if k.override is not None else max(k.deadline - now, d.MINIMUM_GRACE_PERIOD_SECONDS)
        if c.spec.stop_signal is None:
            message = Text(_("SIGTERM; SIGKILL in {remaining}s if still running"), {"remaining": f"{remaining:g}"})
        else:   # lifecycle.stopSignal replaces SIGTERM (ContainerStopSignals; docs/lifecycle-model.md §19)
            message = Text(_("{signal} (lifecycle.stopSignal); SIGKILL in {remaining}s if still running"),
                           {"signal": c.spec.stop_signal, "remaining": f"{remaining:g}"})
        self.emit(c, EventKind.TERMINATING, reason=k.reason, message=message)
        stop = c.b.stop_seconds
        if stop is not None and stop < remaining:
            self.s.at(now + stop, HAPPEN, self._exit, c, c.gen, c.b.stop_exit_code, "sigterm")
        else:
            self.s.at(now + remaining, HAPPEN, self._sigkill, c, k)

    def _sigkill(self, c: CState, k: Kill) -> None:
        if c.kill is not k or not c.alive:
            return
        self.emit(c, EventKind.KILLED, reason=k.reason, message=_GRACE_OVER)
        self._exit(c, c.gen, d.EXIT_SIGKILL, "sigkill")

    def _worker_kill(self, reason: str, grace: float, why: Text) -> None:
        """The pod worker terminates the Pod (a deletion, the active deadline, the Job controller's deletion) with
        `calculateEffectiveGracePeriod` as `killContainer`'s override (§12.6).  From 1.27 the override applies
        before preStop: at least 1 s for everything.  Before, it replaced the grace period after preStop: preStop
        had the grace period as it was (none at 0), and the stop call then the whole override (§33)."""
        if self.legacy_kill:
            self._kill_pod(reason, float(grace), why, override=float(pod_worker_grace(grace)))
        else:
            self._kill_pod(reason, float(pod_worker_grace(grace)), why)

    def _kill_pod(self, reason: str, grace: float, why: Text, override: float | None = None) -> None:
        """`killPodWithSyncResult`: every running container at once, one shared deadline (§12.2)."""
        self.pod_kill = reason
        self.queue.clear()
        self.busy = True
        self.notes.append(Text(_("t={t}s: the kubelet stops the Pod ({why}); grace period {grace}s."),
                               {"t": f"{self.s.now:g}", "why": why, "grace": f"{grace:g}"}))
        for c in self.init + self.apps + self.ephemeral:
            if c.alive and c.kill is None:
                self._begin_kill(c, grace, reason, ordered=c.spec.role == "sidecar", override=override)
            elif c.alive and c.kill is not None:
                c.kill.ordered = False
        self._pod_kill_progress()

    def _pod_kill_progress(self) -> None:
        if self.alive_total == 0:
            self._finish()
            return
        c = self._last_alive_sidecar() if self.alive_apps == 0 else None
        k = c.kill if c is not None else None
        if c is not None and k is not None and k.stage == "turn" and k.ordered:
            self._sigterm(c, k)    # the last running sidecar's turn has come

    def _finish(self) -> None:
        self.terminal = True
        self.busy = False
        self.end_time = self.s.now
        self._snapshot()


def pod_worker_grace(grace: float) -> float:
    """The grace period of a Pod the kubelet terminates (a deletion, an active deadline, a Job controller's
    deletion): pod_workers.go `calculateEffectiveGracePeriod` ("no matter what, we always supply a grace
    period of 1"), passed to `killContainer` as its override, which since 1.27 applies before preStop: a 0
    still gives preStop 1 s (docs/lifecycle-model.md §12.6)."""
    return max(grace, 1)
