"""Termination: `killContainer` (preStop, its turn, SIGTERM, SIGKILL), the Pod-wide kill with one shared
grace deadline and sidecars stopped in reverse order (kuberuntime_termination_order.go), and a main
process's exit, however it comes.

A part of the kubelet model (simulate.py builds it; kubelet/state.py declares what it is handed).
Section numbers (§) refer to docs/lifecycle-model.md.
"""
from __future__ import annotations

from collections.abc import Callable

from .. import defaults as d
from ..i18n import Text, gettext_noop as _
from .state import Containers, KubeletConfig, PodState, PodWorker, Record
from .probe_timing import INF
from .restart_all import restart_all_rule
from .runtime import ContainerState, Kill
from .scheduler import HAPPEN, Scheduler
from ..commands.shutdown import PAUSE, SIGNAL, Stop
from .status import EXITED, WAITING
from .trace import EventKind

_GRACE_OVER = Text(_("the grace period is over: SIGKILL"))
_KILLED_WITH_PAUSE = Text(_("killed by the kernel: PID 1 of the Pod's PID namespace (pause) has exited"))
_HOOK_KILLED = Text(_("the hook's processes were killed with every other process of the Pod"))
# Event messages without fields, made once (the simulation may emit hundreds of thousands).
# How a container's main process ended (`exit`'s ``how``):
_EXIT_HOW = {"natural": Text(_("the main process ends")), "sigterm": Text(_("exits after SIGTERM")),
             "sigkill": Text(_("killed by SIGKILL")),
             "oom": Text(_("the kernel's OOM killer ends it: memory reached the container's limit"))}
_NO_LONGER_RUNNING = Text(_("the container is no longer running"))


class Termination:
    """Kills containers, one or all, records their exits, and finishes the Pod when nothing runs any more.

    Reads and changes ``state`` (the kill of the Pod, the alive counts, the end) and the containers' kills;
    ``resume_starts`` is startup.py's start loop, which goes on when a kill it waited for is over."""

    __slots__ = ("cfg", "state", "cs", "s", "rec", "worker", "resume_starts")

    def __init__(self, cfg: KubeletConfig, state: PodState, cs: Containers, s: Scheduler, rec: Record,
                 worker: PodWorker, resume_starts: Callable[[], None]) -> None:
        self.cfg, self.state, self.cs, self.s, self.rec, self.worker = cfg, state, cs, s, rec, worker
        self.resume_starts = resume_starts

    # ---- killing ------------------------------------------------------------------------------
    def begin_kill(self, c: ContainerState, grace: float, reason: str, ordered: bool,
                   override: float | None = None) -> None:
        """`killContainer`: preStop (if any and grace > 0), then its turn, then SIGTERM/SIGKILL."""
        now = self.s.now
        k = Kill(now + grace, reason, ordered, override)
        c.kill = k
        hook = c.spec.pre_stop
        if hook is not None and grace > 0 and c.spec.role != "ephemeral":
            self.rec.emit(c, EventKind.PRESTOP_STARTED, reason=reason, message=hook.detail)
            seconds = c.b.pre_stop_seconds
            end = now + seconds if seconds is not None else INF
            waits = False
            for stop in c.b.pre_stop_stops:     # the hook ends a main process itself (§9.2), or the Pod's (§30)
                if now + stop.offset > min(end, k.deadline):
                    continue
                if stop.kind == PAUSE:
                    self.s.at(now + stop.offset, HAPPEN, self._pause_exits, c, c.gen, stop)
                    continue
                target = self.cs.by_name.get(stop.target)
                if target is not None:
                    waits = waits or stop.waits
                    self.s.at(now + stop.offset, HAPPEN, self.script_stop, target, target.gen, stop,
                              Text(_("{c}'s preStop hook ends it: {how}"), {"c": c.spec.name, "how": stop.how}),
                              c if stop.waits else None)
            if end < k.deadline and not waits:
                self.s.at(end, HAPPEN, self._prestop_end, c, k, False)
            else:     # a hook that waits for another container ends when it has exited (`script_stop`)
                self.s.at(k.deadline, HAPPEN, self._prestop_end, c, k, True)
        else:
            self._after_prestop(c, k)

    def _prestop_end(self, c: ContainerState, k: Kill, cut: bool) -> None:
        if c.kill is not k or not c.alive:
            return
        if cut:
            self.rec.emit(c, EventKind.PRESTOP_DONE, reason="GracePeriodExceeded",
                          message=Text(_("the grace period ran out before the preStop hook ended")))
        else:
            code = c.b.pre_stop_exit_code
            self.rec.emit(c, EventKind.PRESTOP_DONE, exit_code=code or None,
                          reason="FailedPreStopHook" if code else None,
                          message=Text(_("the hook failed; the kill goes on")) if code else "",
                          assumed="preStopSeconds" in c.b.assumed)
        self._after_prestop(c, k)

    def script_stop(self, c: ContainerState, gen: int, stop: Stop, why: Text, waiter: ContainerState | None = None) -> None:
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
                self.rec.notes.append(Text(_("t={t}s: {why}, but {c}'s main process has no handler for the signal "
                                             "as PID 1 and ignores it."), {"t": f"{self.s.now:g}", "why": why,
                                                                         "c": c.spec.name}))
                return
            code, assumed = c.b.stop_exit_code, "stopSeconds" in c.b.assumed
        else:
            delay, code, assumed = 0.0, 0, True   # the endpoint's exit code and speed are the proxy's own
        if c.kill is not None and c.kill.stage == "term":
            return      # the kubelet's own stop signal is already on its way
        if delay == 0:
            self.exit(c, c.gen, code, why, assumed)    # before the hook's own end at this instant
        else:
            self.s.at(self.s.now + delay, HAPPEN, self.exit, c, c.gen, code, why, assumed)

    def _pause_exits(self, owner: ContainerState, gen: int, stop: Stop) -> None:
        """``owner``'s preStop ends the pause process, PID 1 of the Pod's shared PID namespace (shutdown.py
        `_pause_stop`): build/pause/linux/pause.c `sigdown` exits on SIGTERM and SIGINT, and when PID 1 of a
        PID namespace ends the kernel SIGKILLs every process in it (pid_namespaces(7)).  Every container
        still running ends with 137 at once, its running hooks with it; the sandbox is gone.  A Pod that is
        not terminating gets a new sandbox and starts again from its first init container (`computePodActions`:
        the sandbox changed; §6.1).  docs/lifecycle-model.md §30."""
        state = self.state
        if gen != owner.gen or not owner.alive or state.terminal:
            return
        self.rec.emit(None, EventKind.SANDBOX_LOST, reason="PauseExited",
                      message=Text(_("{c}'s preStop hook: {how}"), {"c": owner.spec.name, "how": stop.how}))
        state.sandbox = False
        state.queue.clear()
        state.busy = state.pod_kill is not None
        for c in self.cs.all():
            if c.alive and c.kill is not None and c.kill.stage == "prestop" and c.spec.pre_stop is not None:
                self.rec.emit(c, EventKind.PRESTOP_DONE, exit_code=d.EXIT_SIGKILL, reason="FailedPreStopHook",
                              message=_HOOK_KILLED)
        for c in self.cs.all():
            if c.alive:
                c.in_poststart = False
                c.kill = None
                self.exit(c, c.gen, d.EXIT_SIGKILL, _KILLED_WITH_PAUSE, False)
        if state.pod_kill is not None or state.terminal:
            return
        self.purge_init_containers()
        state.initialized = False
        self.worker.free()
        self.worker.request_sync()

    def purge_init_containers(self) -> None:
        """SyncPod step 2 `purgeInitContainers`, after any change of the sandbox: the init containers' records go."""
        for c in self.cs.init:
            if not c.alive and c.ever_created:
                c.st.last_exit = None
                self.rec.set(c, WAITING, reason="PodInitializing")
                c.finished_at = None
                c.has_status = False

    def _after_prestop(self, c: ContainerState, k: Kill) -> None:
        k.stage = "turn"
        if k.ordered and self.s.now < k.deadline - 1e-9 and not self._my_turn(c):
            self.s.at(k.deadline, HAPPEN, self._turn_deadline, c, k)
            return
        self._sigterm(c, k)

    def _my_turn(self, c: ContainerState) -> bool:
        """§12.3: a sidecar's SIGTERM waits for every app container and every later sidecar."""
        return self.state.alive_apps == 0 and self.state.last_alive_sidecar(self.cs.init) is c

    def _turn_deadline(self, c: ContainerState, k: Kill) -> None:
        if c.kill is k and k.stage == "turn" and c.alive:
            self._sigterm(c, k)

    def _sigterm(self, c: ContainerState, k: Kill) -> None:
        now = self.s.now
        k.stage = "term"
        remaining = k.override if k.override is not None else max(k.deadline - now, d.MINIMUM_GRACE_PERIOD_SECONDS)
        if c.spec.stop_signal is None:
            message = Text(_("SIGTERM; SIGKILL in {remaining}s if still running"), {"remaining": f"{remaining:g}"})
        else:   # lifecycle.stopSignal replaces SIGTERM (ContainerStopSignals; docs/lifecycle-model.md §19)
            message = Text(_("{signal} (lifecycle.stopSignal); SIGKILL in {remaining}s if still running"),
                           {"signal": c.spec.stop_signal, "remaining": f"{remaining:g}"})
        self.rec.emit(c, EventKind.TERMINATING, reason=k.reason, message=message)
        stop = c.b.stop_seconds
        if stop is not None and stop < remaining:
            self.s.at(now + stop, HAPPEN, self.exit, c, c.gen, c.b.stop_exit_code, "sigterm")
        else:
            self.s.at(now + remaining, HAPPEN, self._sigkill, c, k)

    def _sigkill(self, c: ContainerState, k: Kill) -> None:
        if c.kill is not k or not c.alive:
            return
        self.rec.emit(c, EventKind.KILLED, reason=k.reason, message=_GRACE_OVER)
        self.exit(c, c.gen, d.EXIT_SIGKILL, "sigkill")

    def worker_kill(self, reason: str, grace: float, why: Text) -> None:
        """The pod worker terminates the Pod (a deletion, the active deadline, the Job controller's deletion) with
        `calculateEffectiveGracePeriod` as `killContainer`'s override (§12.6).  From 1.27 the override applies
        before preStop: at least 1 s for everything.  Before, it replaced the grace period after preStop: preStop
        had the grace period as it was (none at 0), and the stop call then the whole override (§33)."""
        if self.cfg.legacy_kill:
            self.kill_pod(reason, float(grace), why, override=float(pod_worker_grace(grace)))
        else:
            self.kill_pod(reason, float(pod_worker_grace(grace)), why)

    def kill_pod(self, reason: str, grace: float, why: Text, override: float | None = None) -> None:
        """`killPodWithSyncResult`: every running container at once, one shared deadline (§12.2)."""
        state = self.state
        state.pod_kill = reason
        state.queue.clear()
        state.busy = True
        self.rec.notes.append(Text(_("t={t}s: the kubelet stops the Pod ({why}); grace period {grace}s."),
                                   {"t": f"{self.s.now:g}", "why": why, "grace": f"{grace:g}"}))
        for c in self.cs.all():
            if c.alive and c.kill is None:
                self.begin_kill(c, grace, reason, ordered=c.spec.role == "sidecar", override=override)
            elif c.alive and c.kill is not None:
                c.kill.ordered = False
        self.pod_kill_progress()

    def pod_kill_progress(self) -> None:
        state = self.state
        if state.alive_total == 0:
            self.finish()
            return
        c = state.last_alive_sidecar(self.cs.init) if state.alive_apps == 0 else None
        k = c.kill if c is not None else None
        if c is not None and k is not None and k.stage == "turn" and k.ordered:
            self._sigterm(c, k)    # the last running sidecar's turn has come

    def finish(self) -> None:
        state = self.state
        state.terminal = True
        state.busy = False
        state.end_time = self.s.now
        self.rec.snapshot()

    # ---- exits -------------------------------------------------------------------------------
    def exit(self, c: ContainerState, gen: int, code: int, how: str | Text, assumed: bool | None = None) -> None:
        """``c``'s main process ends (``how``: natural, sigterm, sigkill, oom, or the words of what ended it)."""
        if gen != c.gen or not c.alive:
            return
        state = self.state
        now = self.s.now
        was_ready = c.st.ready
        state.mark_dead(c)
        c.gen += 1
        c.finished_at = now
        aborted_poststart = c.in_poststart
        c.in_poststart = False
        rule = restart_all_rule(state, c, code)
        reason = "OOMKilled" if how == "oom" else "Completed" if code == 0 else "Error"
        self.rec.set(c, EXITED, exit_code=code, will_restart=True if rule is not None else None, reason=reason)
        message = _EXIT_HOW.get(how, how) if isinstance(how, str) else how
        if how == "sigterm" and c.spec.stop_signal is not None:
            message = Text(_("exits after its stop signal {signal}"), {"signal": c.spec.stop_signal})
        if assumed is None:
            assumed = (how in ("natural", "oom") and "runSeconds" in c.b.assumed) or (how == "sigterm" and
                                                                                     "stopSeconds" in c.b.assumed)
        self.rec.emit(c, EventKind.EXITED, exit_code=code, reason=reason, message=message, assumed=assumed)
        if how == "natural":
            self._exit_stops(c, code)
        if was_ready:
            self.rec.emit(c, EventKind.NOT_READY, message=_NO_LONGER_RUNNING)
        kill = c.kill
        c.kill = None
        if state.pod_kill is not None:
            self.pod_kill_progress()
            return
        if rule is not None:      # acted on by the next sync (`ShouldAllContainersRestart`)
            state.restart_all = (c, code, rule)
        if kill is not None and kill.reason == "FailedPostStartHook":
            self.resume_starts()   # `SyncPod` goes on with the next container to start (then frees the worker)
        elif kill is not None:    # a single kill (probe failure) has finished: the worker is free
            self.worker.free()
        if aborted_poststart and state.busy:
            self.rec.notes.append(Text(_("{c} exited while its postStart hook ran: the hook fails "
                                         "(FailedPostStartHook) and the container is restarted by its policy."),
                                       {"c": c.spec.name}))
            self.resume_starts()
        self.worker.request_sync()

    def _exit_stops(self, c: ContainerState, code: int) -> None:
        """``c``'s command ends another container when its work is done (a proxy's shutdown endpoint; §9.2)."""
        for stop in c.b.exit_stops:
            target = self.cs.by_name.get(stop.target)
            if target is None or not target.alive or (stop.on_success and code != 0):
                continue
            why = Text(_("{c} ends it when its work is done: {how}"), {"c": c.spec.name, "how": stop.how})
            self.s.at(self.s.now, HAPPEN, self.script_stop, target, target.gen, stop, why)


def pod_worker_grace(grace: float) -> float:
    """The grace period of a Pod the kubelet terminates (a deletion, an active deadline, a Job controller's
    deletion): pod_workers.go `calculateEffectiveGracePeriod` ("no matter what, we always supply a grace
    period of 1"), passed to `killContainer` as its override, which since 1.27 applies before preStop: a 0
    still gives preStop 1 s (docs/lifecycle-model.md §12.6)."""
    return max(grace, 1)
