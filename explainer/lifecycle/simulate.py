"""The kubelet, modelled: how one Pod starts, runs, restarts and stops.

One `_Kubelet` per Pod.  Runtime events (a process exits, a hook ends, a probe changes)
happen at HAPPEN priority and ask for a sync; the sync (DECIDE priority, after every change
of its instant) mirrors `computePodActions` + `SyncPod` in
pkg/kubelet/kuberuntime/kuberuntime_manager.go.  Kills follow `killContainer` and
kuberuntime_termination_order.go.  Section numbers (§) refer to lifecycle-semantics.md.
"""
from __future__ import annotations

import dataclasses
import heapq
from dataclasses import dataclass, field

from . import defaults as d
from .i18n import Phrase, Text, gettext_noop as _
from .model import Container, Pod
from .probes import INF, Checks, failure_time, success_time
from .scenario import Behaviour, DebugRequest, Run, Scenario, behaviour_for
from .scheduler import DECIDE, HAPPEN, Scheduler
from .status import EXITED, RUNNING, WAITING, RuntimeStatus, StatusBook
from .trace import Dependency, StatusPoint, TraceEvent


@dataclass
class Simulation:
    events: list[TraceEvent]
    timeline: list[StatusPoint]
    final_phase: str
    restart_counts: dict[str, int]
    end_time: float
    until: float
    behaviours: dict[str, Behaviour]
    debug_containers: list[Container]
    dependencies: list[Dependency]
    notes: list[Text] = field(default_factory=list)
    truncated: bool = False


# Event messages without fields, made once (the simulation may emit hundreds of thousands).
# How a container's main process ended (`_exit`'s ``how``):
_EXIT_HOW = {"natural": Text(_("the main process ends")), "sigterm": Text(_("exits after SIGTERM")),
             "sigkill": Text(_("killed by SIGKILL"))}
_RUNS_UNTIL_STOPPED = Text(_("runs until stopped"))
_READY_NO_PROBE = Text(_("no readinessProbe: ready once started"))
_NO_LONGER_RUNNING = Text(_("the container is no longer running"))
_GRACE_OVER = Text(_("the grace period is over: SIGKILL"))
_GONE_WITH_SANDBOX = Text(_("gone with the sandbox"))


class _Kill:
    """One container's kill in progress (`killContainer`): preStop, its turn, then the signals."""

    __slots__ = ("deadline", "reason", "ordered", "stage")

    def __init__(self, deadline: float, reason: str, ordered: bool) -> None:
        self.deadline, self.reason, self.ordered = deadline, reason, ordered
        self.stage = "prestop"


class _C:
    """A container at run time."""

    __slots__ = ("spec", "b", "st", "gen", "runs", "alive", "start_t", "in_poststart", "kill",
                 "bo_delay", "bo_updated", "finished_at", "img_delay", "img_retry_at",
                 "announced", "force_restart", "requested", "ever_created", "has_status")

    def __init__(self, spec: Container, b: Behaviour, st: RuntimeStatus) -> None:
        self.spec, self.b, self.st = spec, b, st
        self.gen = 0                 # bumped on every start and exit: stale timers check it
        self.runs = 0                # runs started so far (picks the scenario's run entry)
        self.alive = False           # the main process is running
        self.start_t = 0.0
        self.in_poststart = False
        self.kill: _Kill | None = None
        self.bo_delay: float | None = None    # crash-loop back-off entry (client-go Backoff)
        self.bo_updated = 0.0
        self.finished_at: float | None = None
        self.img_delay: float | None = None
        self.img_retry_at = 0.0
        self.announced = False       # the current back-off window has been reported
        self.force_restart = False   # killed by a probe with "will be restarted"
        self.requested = spec.role != "ephemeral"   # ephemeral: added by kubectl debug
        self.ever_created = False
        self.has_status = False      # created in this sandbox (init records are purged on loss)


def simulate(pod: Pod, scenario: Scenario = Scenario(), *, container_restart_rules: bool = False) -> Simulation:
    """Simulate ``pod`` under ``scenario``; deterministic, bounded by the horizon."""
    return _Kubelet(pod, scenario, container_restart_rules).run()


def horizon(pod: Pod, scenario: Scenario) -> float:
    """How far to simulate: the scenario's ``until``, or far enough to see what it asks for."""
    if scenario.until is not None:
        return min(scenario.until, d.MAX_HORIZON_SECONDS)
    end = d.DEFAULT_HORIZON_SECONDS
    grace = scenario.delete_grace if scenario.delete_grace is not None else pod.termination_grace_period
    for t in (scenario.delete_at, scenario.sandbox_lost_at):
        if t is not None:
            end = max(end, t + grace + d.MINIMUM_GRACE_PERIOD_SECONDS + 30)
    for dbg in scenario.debug:
        end = max(end, dbg.at + 30)
    if pod.active_deadline_seconds:
        end = max(end, pod.active_deadline_seconds + pod.termination_grace_period + 30)
    return min(end, d.MAX_HORIZON_SECONDS)


def dependencies(pod: Pod) -> list[Dependency]:
    """Who waits for whom at start-up: guaranteed by the API, or only what the kubelet does."""
    deps = []
    prev = None
    for c in pod.init_containers:
        if prev is not None:
            deps.append(Dependency(c.name, prev.name, _ready_condition(prev), True))
        prev = c
    for i, c in enumerate(pod.containers):
        if prev is not None:
            deps.append(Dependency(c.name, prev.name, _ready_condition(prev), True))
        if i > 0:
            before = pod.containers[i - 1]
            deps.append(Dependency(c.name, before.name, "postStart" if before.post_start else "created", False))
    return deps


def _ready_condition(c: Container) -> str:
    if c.role == "sidecar":
        return "startupProbe" if c.startup_probe else "started"
    return "exit0"


class _Kubelet:
    def __init__(self, pod: Pod, scenario: Scenario, container_restart_rules: bool) -> None:
        self.pod, self.scenario = pod, scenario
        self.restart_rules = container_restart_rules
        self.until = horizon(pod, scenario)
        self.s = Scheduler(self.until, d.MAX_EVENTS)
        self.events: list[TraceEvent] = []
        self.timeline: list[StatusPoint] = []
        self.notes: list[Text] = []
        default_wait = "PodInitializing" if pod.init_containers else "ContainerCreating"
        self.default_wait = default_wait
        self.cs: dict[str, _C] = {}
        statuses = []
        for c in pod.init_containers + pod.containers:
            st = RuntimeStatus(c.role, c.index, default_wait)
            statuses.append(st)
            self.cs[c.name] = _C(c, behaviour_for(c, pod, scenario), st)
        self.init = [self.cs[c.name] for c in pod.init_containers]
        self.apps = [self.cs[c.name] for c in pod.containers]
        self.ephemeral: list[_C] = []
        self.debug_specs: list[Container] = []
        self.book = StatusBook(statuses, len(pod.init_containers),
                               len(pod.sidecars) + len(pod.containers), pod.restart_policy,
                               pod.readiness_gates)
        self.sandbox = False
        self.sandbox_ever = False
        self.initialized = False      # regular containers have been started in this sandbox
        self.sync_pending = False
        self.busy = False             # the pod worker is inside a start loop or a kill
        self.sync_wanted = False
        self.alive_total = 0
        self.alive_apps = 0
        self.sidecar_heap: list[int] = []   # -index of sidecars started, for "the last one running"
        self.after_free: list = []
        self.queue: list[_C] = []
        self.pod_kill: str | None = None
        self.deleting = False
        self.terminal = False
        self.forced_phase: str | None = None
        self.status_reason: str | None = None
        self.end_time: float | None = None

    # ---- running the simulation --------------------------------------------------------
    def run(self) -> Simulation:
        s, sc = self.s, self.scenario
        self._snapshot()
        s.at(0.0, DECIDE, self._sync)
        self.sync_pending = True
        if sc.delete_at is not None:
            s.at(sc.delete_at, HAPPEN, self._delete)
        if sc.sandbox_lost_at is not None:
            s.at(sc.sandbox_lost_at, HAPPEN, self._sandbox_lost)
        if self.pod.active_deadline_seconds:
            s.at(float(self.pod.active_deadline_seconds), HAPPEN, self._deadline)
        for i, req in enumerate(sc.debug):
            s.at(req.at, HAPPEN, self._debug, i, req)
        for upd in sc.image_updates:
            if upd.container in self.cs:
                s.at(upd.at, HAPPEN, self._update_image, self.cs[upd.container], upd.image)
        complete = s.run()
        if not complete:
            self.notes.append(Text(_("The simulation stopped after {n} steps at t={t}s; shorten `until` "
                                     "to see the whole run."), {"n": f"{d.MAX_EVENTS:,}", "t": f"{s.now:g}"}))
        final = self.timeline[-1].phase if self.timeline else "Pending"
        return Simulation(
            events=self.events, timeline=self.timeline, final_phase=final,
            restart_counts={name: c.st.restarts for name, c in self.cs.items()}
            | {c.spec.name: c.st.restarts for c in self.ephemeral},
            end_time=self.end_time if self.end_time is not None else (s.now if not complete else self.until),
            until=self.until,
            behaviours={name: c.b for name, c in self.cs.items()} | {c.spec.name: c.b for c in self.ephemeral},
            debug_containers=self.debug_specs, dependencies=dependencies(self.pod),
            notes=self.notes, truncated=not complete)

    def emit(self, c: _C | None, kind: str, *, exit_code: int | None = None, reason: str | None = None,
             message: Text | str = "", assumed: bool = False) -> None:
        """Record an event; a `Text` message is kept as ``text`` beside its English rendering."""
        text = message if isinstance(message, Text) else None
        self.events.append(TraceEvent(
            round(self.s.now, 3), c.spec.name if c else None, kind,
            c.st.restarts if c else None, exit_code, reason,
            message if text is None else text.render(), assumed, text))
        self._snapshot()

    def _snapshot(self) -> None:
        book = self.book
        if self.forced_phase:
            phase = self.forced_phase
        else:
            phase = book.phase(self.initialized, self.terminal)
        status, initializing = book.kubectl_status(phase, self.status_reason, self.initialized, self.deleting)
        point = StatusPoint(round(self.s.now, 3), status, phase, book.ready(phase), book.ready_count(),
                            book.restarts(initializing and not self.initialized), self.initialized)
        last = self.timeline[-1] if self.timeline else None
        if last is None or (last.status, last.phase, last.ready, last.ready_count, last.restarts) != (
                point.status, point.phase, point.ready, point.ready_count, point.restarts):
            self.timeline.append(point)

    def _set(self, c: _C, state: str, *, reason: str | None = None, exit_code: int | None = None) -> None:
        st = c.st
        st.state = state
        if state == WAITING:
            st.waiting_reason = reason or self.default_wait
        elif state == EXITED:
            st.exit_code = exit_code
            st.last_exit = exit_code
            st.started = st.ready = False
        self.book.changed(st)

    def request_sync(self) -> None:
        if self.busy:
            self.sync_wanted = True
        elif not self.sync_pending and not self.terminal:
            self.sync_pending = True
            self.s.at(self.s.now, DECIDE, self._sync)

    def _free(self) -> None:
        self.busy = False
        while self.after_free and not self.busy:
            action, args = self.after_free.pop(0)
            action(*args)
        if self.busy:
            return
        if self.sync_wanted:
            self.sync_wanted = False
            self.request_sync()

    def policy(self, c: _C) -> str:
        """The restart policy that decides for ``c`` (per container with ContainerRestartRules)."""
        if self.restart_rules and c.spec.role in ("app", "init") and c.spec.restart_policy:
            return c.spec.restart_policy
        return self.pod.restart_policy

    # ---- the sync: computePodActions + SyncPod -------------------------------------------
    def _sync(self) -> None:
        self.sync_pending = False
        if self.terminal or self.pod_kill is not None:
            return
        if self.busy:
            self.sync_wanted = True
            return
        if not self.sandbox and not self._create_sandbox():
            return
        queue = [c for c in self.ephemeral if c.requested and not c.ever_created]
        starts, initialized, kill = self._init_actions()
        if kill:
            self._kill_pod("InitContainerFailed", self.pod.termination_grace_period,
                           Text(_("a plain init container failed and restartPolicy is Never")))
            return
        queue += starts
        if initialized:
            self.initialized = True
            apps, kill = self._app_actions()
            if kill:
                self._kill_pod("PodCompleted", self.pod.termination_grace_period,
                               Text(_("no app container is running or will restart")))
                return
            queue += apps
        self.queue = queue
        self._start_queue()

    def _create_sandbox(self) -> bool:
        """§3.1: a new sandbox, except under Never once containers ran (the Pod stays dead)."""
        if self.sandbox_ever:
            never_again = self.pod.restart_policy == "Never" and any(c.ever_created for c in self.apps + self.init)
            done = all(c.ever_created and c.st.state == EXITED and c.st.exit_code == 0 for c in self.apps) \
                and self.pod.restart_policy == "OnFailure"
            if never_again or done:
                self.terminal = True
                self.end_time = self.s.now
                self.notes.append(Text(_("The sandbox is gone and restartPolicy does not let the kubelet "
                                         "build a new one: the Pod stays down.")))
                self._snapshot()
                return False
        self.sandbox = self.sandbox_ever = True
        self.emit(None, "sandbox_ready",
                  message=Text(_("the kubelet creates the Pod sandbox: network namespace and IP")))
        return True

    def _init_actions(self) -> tuple[list[_C], bool, bool]:
        """`computeInitContainerActions`: walk the init containers from the last one (§3.2-3.3).

        Returns (init containers to start, initialized, kill the pod).
        """
        has_init = any(c.alive or c.in_poststart for c in self.apps)
        previously = has_init
        to_start: list[_C] = []
        n = len(self.init)
        for i in range(n - 1, -1, -1):
            c = self.init[i]
            sidecar = c.spec.role == "sidecar"
            if not c.has_status:
                if previously and sidecar:
                    to_start.append(c)
                continue
            if previously and not sidecar:
                continue
            if c.alive or c.in_poststart:
                if sidecar and c.st.started and not c.kill:
                    if i == n - 1:
                        has_init = True
                    elif not previously:
                        to_start.append(self.init[i + 1])
            elif c.kill is None:   # exited
                if sidecar:
                    to_start.append(c)
                elif c.st.exit_code != 0:
                    if self.policy(c) == "Never":
                        return [], False, True
                    to_start.append(c)
                elif i == n - 1:
                    has_init = True
                else:
                    to_start.append(self.init[i + 1])
            previously = True
        if not previously and n:
            to_start.append(self.init[0])
        to_start.reverse()
        return [c for c in to_start if not c.alive], has_init or n == 0, False

    def _app_actions(self) -> tuple[list[_C], bool]:
        """The regular-container half of `computePodActions`, with its KillPod rule (§9.1)."""
        to_start, keep = [], 0
        for c in self.apps:
            if c.alive or c.in_poststart:
                keep += 1
            elif c.kill is None and self._should_restart(c):
                to_start.append(c)
        if keep == 0 and not to_start:
            return [], True
        return to_start, False

    def _should_restart(self, c: _C) -> bool:
        """`ShouldContainerBeRestarted` (pkg/kubelet/container/helpers.go), §4.1."""
        if not c.ever_created or c.force_restart:
            return True
        policy = self.policy(c)
        if policy == "Never":
            return False
        if policy == "OnFailure":
            return c.st.exit_code != 0
        return True

    # ---- starting containers --------------------------------------------------------------
    def _start_queue(self) -> None:
        """SyncPod's start loop: one container after another; a postStart hook blocks the loop."""
        while self.queue:
            c = self.queue.pop(0)
            if self.terminal or self.pod_kill:
                break
            outcome = self._start(c)
            if outcome != "started":
                if c.spec.role == "init":
                    self.queue.clear()   # SyncPod returns when a plain init container cannot start
                continue
            hook = c.spec.post_start
            if hook is None:
                self._running(c)
                continue
            seconds = c.b.post_start_seconds
            c.in_poststart = True
            if seconds == 0:
                self._poststart_done(c, c.gen)
                continue
            self.busy = True
            if seconds is not None:
                self.s.at(self.s.now + seconds, HAPPEN, self._poststart_done, c, c.gen)
            return
        self._free()

    def _start(self, c: _C) -> str:
        now = self.s.now
        if c.ever_created and not self._backoff_allows(c):
            return "backoff"
        if c.b.image_pull_fails:
            if now + 1e-9 < c.img_retry_at:
                return "pull"
            c.img_delay = (d.IMAGE_BACKOFF_INITIAL_SECONDS if c.img_delay is None
                           else min(c.img_delay * 2, d.IMAGE_BACKOFF_MAX_SECONDS))
            c.img_retry_at = now + c.img_delay
            self._set(c, WAITING, reason="ErrImagePull")
            self.emit(c, "image_pull_failed", reason="ErrImagePull",
                      message=Text(_("pulling {image} failed"), {"image": c.spec.image}))
            self._set(c, WAITING, reason="ImagePullBackOff")
            self.emit(c, "backoff", reason="ImagePullBackOff",
                      message=Text(_("next pull in {delay}s"), {"delay": f"{c.img_delay:g}"}))
            self.s.at(c.img_retry_at, HAPPEN, self.request_sync)
            return "pull"
        if c.ever_created:
            c.st.restarts += 1
        c.ever_created = c.has_status = True
        c.force_restart = False
        c.announced = False
        c.gen += 1
        self._mark_alive(c)
        c.start_t = now
        run = c.b.run(c.runs)
        c.runs += 1
        if c.spec.post_start is not None and c.spec.role != "ephemeral" and c.st.state == EXITED:
            self._set(c, WAITING, reason="ContainerCreating")   # not Running until postStart ends
        self.emit(c, "created", message=Text(_("image {image}"), {"image": c.spec.image}))
        self.emit(c, "started", message=self._run_text(c, run), assumed="runSeconds" in c.b.assumed)
        if run.seconds is not None:
            self.s.at(now + run.seconds, HAPPEN, self._exit, c, c.gen, run.exit_code, "natural")
        return "started"

    @staticmethod
    def _run_text(c: _C, run: Run) -> Text:
        if run.seconds is None:
            return _RUNS_UNTIL_STOPPED
        return Text(_("runs {seconds}s, then exits {code}"), {"seconds": f"{run.seconds:g}", "code": run.exit_code})

    def _backoff_allows(self, c: _C) -> bool:
        """`doBackOff` over client-go's Backoff: first restart at once, then 10 s doubling to 300 s."""
        now, ts = self.s.now, c.finished_at
        if ts is None:
            return True
        expired = c.bo_delay is None or ts - c.bo_updated > d.CRASH_LOOP_RESET_SECONDS
        if not expired and now - ts < c.bo_delay - 1e-9:
            if not c.announced:
                c.announced = True
                self._set(c, WAITING, reason="CrashLoopBackOff")
                self.emit(c, "backoff", reason="CrashLoopBackOff",
                          message=Text(_("back-off {delay}s restarting failed container; next start at {t}s"),
                                       {"delay": f"{c.bo_delay:g}", "t": f"{ts + c.bo_delay:g}"}))
                self.s.at(ts + c.bo_delay, HAPPEN, self.request_sync)
            return False
        c.bo_delay = d.CRASH_LOOP_INITIAL_SECONDS if expired else min(c.bo_delay * 2, d.CRASH_LOOP_MAX_SECONDS)
        c.bo_updated = now
        return True

    def _poststart_done(self, c: _C, gen: int) -> None:
        if gen != c.gen or not c.in_poststart:
            return
        c.in_poststart = False
        self.emit(c, "poststart_done", reason="PostStartHookSucceeded" if c.b.post_start_seconds else None,
                  message=c.spec.post_start.detail if c.spec.post_start else "",
                  assumed="postStartSeconds" in c.b.assumed)
        self._running(c)
        if self.busy:
            self._start_queue()

    def _running(self, c: _C) -> None:
        """The container is reported Running; its probes begin."""
        if c.spec.role == "ephemeral":
            return
        self._set(c, RUNNING)
        self._snapshot()
        if c.spec.startup_probe is None:
            self._started(c, immediate_readiness=False)
        else:
            p = c.spec.startup_probe
            checks = Checks(c.start_t + p.initial_delay, p.period, self.s.now)
            healthy = self._healthy_from(c, "startup")
            fail = failure_time(checks, healthy, p.failure_threshold)
            if fail is not None:
                self.s.at(fail, HAPPEN, self._probe_failed, c, c.gen, "startup")
            else:
                ok = success_time(checks, healthy, 1)
                self.s.at(ok, HAPPEN, self._startup_ok, c, c.gen)
        self.request_sync()

    def _healthy_from(self, c: _C, kind: str) -> float:
        if kind in c.b.failing_probes:
            return INF
        return c.start_t + c.b.startup_seconds

    def _startup_ok(self, c: _C, gen: int) -> None:
        if gen != c.gen or not c.alive or self.deleting:
            return
        self.emit(c, "startup_probe_ok", message=c.spec.startup_probe.detail if c.spec.startup_probe else "")
        self._started(c, immediate_readiness=True)
        self.request_sync()

    def _started(self, c: _C, immediate_readiness: bool) -> None:
        st = c.st
        st.started = True
        self.book.changed(st)
        now = self.s.now
        if c.spec.role == "init":
            return    # a plain init container is "ready" only by completing (§8)
        rp = c.spec.readiness_probe
        if rp is None:
            self._ready(c, c.gen)
        else:
            checks = Checks(c.start_t + rp.initial_delay, rp.period, now, now if immediate_readiness else None)
            ok = success_time(checks, self._healthy_from(c, "readiness"), rp.success_threshold)
            if ok is not None:
                self.s.at(ok, HAPPEN, self._ready, c, c.gen)
        lp = c.spec.liveness_probe
        if lp is not None:
            checks = Checks(c.start_t + lp.initial_delay, lp.period, now)
            fail = failure_time(checks, self._healthy_from(c, "liveness"), lp.failure_threshold)
            if fail is not None:
                self.s.at(fail, HAPPEN, self._probe_failed, c, c.gen, "liveness")

    def _ready(self, c: _C, gen: int) -> None:
        if gen != c.gen or not c.alive or c.st.ready:
            return
        c.st.ready = True
        self.book.changed(c.st)
        self.emit(c, "ready", message=c.spec.readiness_probe.detail if c.spec.readiness_probe else
                  _READY_NO_PROBE)

    # ---- probes that fail -------------------------------------------------------------------
    def _probe_failed(self, c: _C, gen: int, kind: str) -> None:
        """§5: a failed liveness or startup probe kills the container; it restarts unless Never."""
        if gen != c.gen or not c.alive or c.kill or self.deleting or self.pod_kill:
            return   # liveness and startup probing stop once the Pod is terminating (§5)
        if self.busy:   # the pod worker acts on the result when its current work is done
            self.after_free.append((self._probe_failed, (c, gen, kind)))
            return
        probe = c.spec.liveness_probe if kind == "liveness" else c.spec.startup_probe
        assert probe is not None
        self.emit(c, "liveness_failed" if kind == "liveness" else "startup_probe_failed", reason="Unhealthy",
                  message=Text(_("{kind} probe failed {n} times in a row ({detail})"),
                               {"kind": kind, "n": probe.failure_threshold, "detail": probe.detail}))
        grace = probe.termination_grace_period or self.pod.termination_grace_period
        restart = c.spec.role == "sidecar" or self.policy(c) != "Never"
        if not restart and c.spec.role == "app" and not any(
                o is not c and (o.alive or self._should_restart(o)) for o in self.apps):
            self._kill_pod(f"{kind.capitalize()}ProbeFailed", grace,
                           Text(_("its {kind} probe failed"), {"kind": kind}))
            return
        c.force_restart = restart and c.spec.role == "app"
        self.busy = True     # §15.13: the kill is synchronous inside the pod's sync loop
        self._begin_kill(c, grace, f"{kind} probe failed", ordered=False)

    # ---- exits -------------------------------------------------------------------------------
    def _exit(self, c: _C, gen: int, code: int, how: str) -> None:
        if gen != c.gen or not c.alive:
            return
        now = self.s.now
        was_ready = c.st.ready
        self._mark_dead(c)
        c.gen += 1
        c.finished_at = now
        aborted_poststart = c.in_poststart
        c.in_poststart = False
        self._set(c, EXITED, exit_code=code)
        reason = "Completed" if code == 0 else "Error"
        message = _EXIT_HOW.get(how, how)
        assumed = (how == "natural" and "runSeconds" in c.b.assumed) or (how == "sigterm" and "stopSeconds" in c.b.assumed)
        self.emit(c, "exited", exit_code=code, reason=reason, message=message, assumed=assumed)
        if was_ready:
            self.emit(c, "not_ready", message=_NO_LONGER_RUNNING)
        kill = c.kill
        c.kill = None
        if self.pod_kill is not None:
            self._pod_kill_progress()
            return
        if kill is not None:      # a single kill (probe failure) has finished: the worker is free
            self._free()
        if aborted_poststart and self.busy:
            self.notes.append(Text(_("{c} exited while its postStart hook ran: the hook fails "
                                     "(FailedPostStartHook) and the container is restarted by its policy."),
                                   {"c": c.spec.name}))
            self._start_queue()
        self.request_sync()

    # ---- killing ------------------------------------------------------------------------------
    def _begin_kill(self, c: _C, grace: float, reason: str, ordered: bool) -> None:
        """`killContainer`: preStop (if any and grace > 0), then its turn, then SIGTERM/SIGKILL."""
        now = self.s.now
        k = _Kill(now + grace, reason, ordered)
        c.kill = k
        hook = c.spec.pre_stop
        if hook is not None and grace > 0 and c.spec.role != "ephemeral":
            self.emit(c, "prestop_started", reason=reason, message=hook.detail)
            seconds = c.b.pre_stop_seconds
            end = now + seconds if seconds is not None else INF
            if end < k.deadline:
                self.s.at(end, HAPPEN, self._prestop_end, c, k, False)
            else:
                self.s.at(k.deadline, HAPPEN, self._prestop_end, c, k, True)
        else:
            self._after_prestop(c, k)

    def _prestop_end(self, c: _C, k: _Kill, cut: bool) -> None:
        if c.kill is not k or not c.alive:
            return
        if cut:
            self.emit(c, "prestop_done", reason="GracePeriodExceeded",
                      message=Text(_("the grace period ran out before the preStop hook ended")))
        else:
            code = c.b.pre_stop_exit_code
            self.emit(c, "prestop_done", exit_code=code or None,
                      reason="FailedPreStopHook" if code else None,
                      message=Text(_("the hook failed; the kill goes on")) if code else "",
                      assumed="preStopSeconds" in c.b.assumed)
        self._after_prestop(c, k)

    def _after_prestop(self, c: _C, k: _Kill) -> None:
        k.stage = "turn"
        if k.ordered and self.s.now < k.deadline - 1e-9 and not self._my_turn(c):
            self.s.at(k.deadline, HAPPEN, self._turn_deadline, c, k)
            return
        self._sigterm(c, k)

    def _mark_alive(self, c: _C) -> None:
        c.alive = True
        self.alive_total += 1
        if c.spec.role == "app":
            self.alive_apps += 1
        elif c.spec.role == "sidecar":
            heapq.heappush(self.sidecar_heap, -c.spec.index)

    def _mark_dead(self, c: _C) -> None:
        c.alive = False
        self.alive_total -= 1
        if c.spec.role == "app":
            self.alive_apps -= 1

    def _last_alive_sidecar(self) -> _C | None:
        heap = self.sidecar_heap
        while heap and not self.init[-heap[0]].alive:
            heapq.heappop(heap)
        return self.init[-heap[0]] if heap else None

    def _my_turn(self, c: _C) -> bool:
        """§9.3: a sidecar's SIGTERM waits for every app container and every later sidecar."""
        return self.alive_apps == 0 and self._last_alive_sidecar() is c

    def _turn_deadline(self, c: _C, k: _Kill) -> None:
        if c.kill is k and k.stage == "turn" and c.alive:
            self._sigterm(c, k)

    def _sigterm(self, c: _C, k: _Kill) -> None:
        now = self.s.now
        k.stage = "term"
        remaining = max(k.deadline - now, d.MINIMUM_GRACE_PERIOD_SECONDS)
        self.emit(c, "terminating", reason=k.reason,
                  message=Text(_("SIGTERM; SIGKILL in {remaining}s if still running"),
                               {"remaining": f"{remaining:g}"}))
        stop = c.b.stop_seconds
        if stop is not None and stop < remaining:
            self.s.at(now + stop, HAPPEN, self._exit, c, c.gen, c.b.stop_exit_code, "sigterm")
        else:
            self.s.at(now + remaining, HAPPEN, self._sigkill, c, k)

    def _sigkill(self, c: _C, k: _Kill) -> None:
        if c.kill is not k or not c.alive:
            return
        self.emit(c, "killed", reason=k.reason, message=_GRACE_OVER)
        self._exit(c, c.gen, d.EXIT_SIGKILL, "sigkill")

    def _kill_pod(self, reason: str, grace: float, why: Text) -> None:
        """`killPodWithSyncResult`: every running container at once, one shared deadline (§9.2)."""
        self.pod_kill = reason
        self.queue.clear()
        self.busy = True
        self.notes.append(Text(_("t={t}s: the kubelet stops the Pod ({why}); grace period {grace}s."),
                               {"t": f"{self.s.now:g}", "why": why, "grace": f"{grace:g}"}))
        for c in self.init + self.apps + self.ephemeral:
            if c.alive and c.kill is None:
                self._begin_kill(c, grace, reason, ordered=c.spec.role == "sidecar")
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

    # ---- what the scenario does to the Pod ----------------------------------------------------
    def _delete(self) -> None:
        grace = self.scenario.delete_grace
        if grace is None:
            grace = self.pod.termination_grace_period
        self.deleting = True
        self.emit(None, "delete_requested", reason="Deleted",
                  message=Text(_("kubectl delete: grace period {grace}s"), {"grace": f"{grace}"}))
        if self.terminal:
            return
        if self.pod_kill is not None:
            return
        self._kill_pod("Deleted", float(grace), Text(_("the Pod was deleted")))

    def _deadline(self) -> None:
        if self.terminal or self.pod_kill is not None:
            return
        self.status_reason = "DeadlineExceeded"
        self.forced_phase = "Failed"
        self.emit(None, "deadline_exceeded", reason="DeadlineExceeded",
                  message=Text(_("Pod was active on the node longer than the specified deadline")))
        self._kill_pod("DeadlineExceeded", self.pod.termination_grace_period,
                       Text(_("activeDeadlineSeconds passed")))

    def _sandbox_lost(self) -> None:
        """§3.1: the node reboots; everything is gone and init containers will run again."""
        if self.terminal:
            return
        self.emit(None, "sandbox_lost", reason="SandboxChanged",
                  message=Text(_("the node reboots: every container and the sandbox are gone")))
        self.sandbox = False
        self.queue.clear()
        self.busy = False
        self.sync_wanted = False
        for c in self.init + self.apps + self.ephemeral:
            c.in_poststart = False
            c.kill = None
            c.bo_delay, c.img_delay = None, None      # the kubelet restarted: back-off is forgotten
            if c.alive:
                self._exit_lost(c)
        for c in self.init:     # SyncPod step 2 `purgeInitContainers`
            if not c.alive and c.ever_created:
                c.st.last_exit = None
                self._set(c, WAITING, reason="PodInitializing")
                c.finished_at = None
                c.has_status = False
        self.initialized = False
        if self.pod_kill is not None:
            self._finish()
            return
        self.request_sync()

    def _exit_lost(self, c: _C) -> None:
        was_ready = c.st.ready
        self._mark_dead(c)
        c.gen += 1
        c.finished_at = self.s.now
        self._set(c, EXITED, exit_code=255)
        self.emit(c, "exited", exit_code=255, reason="Unknown", message=_GONE_WITH_SANDBOX)
        if was_ready:
            self.emit(c, "not_ready", message=_GONE_WITH_SANDBOX)

    def _update_image(self, c: _C, image: str) -> None:
        """§4.1, §4.3, §14: a new image restarts a running app container or sidecar, whatever the
        restartPolicy; a finished init container is not run again; nothing restarts once terminating."""
        c.spec = dataclasses.replace(c.spec, image=image)
        self.emit(c, "image_updated", reason="SpecChanged",
                  message=Text(_("kubectl set image: {image}"), {"image": image}))
        if self.terminal or self.deleting or self.pod_kill is not None or not c.alive or c.kill:
            return
        if c.spec.role == "init":
            return
        if self.busy:
            self.after_free.append((self._update_kill, (c, c.gen)))
            return
        self._update_kill(c, c.gen)

    def _update_kill(self, c: _C, gen: int) -> None:
        if gen != c.gen or not c.alive or c.kill or self.pod_kill is not None:
            return
        c.force_restart = True
        self.busy = True
        self._begin_kill(c, self.pod.termination_grace_period, "SpecChanged", ordered=False)

    def _debug(self, i: int, req: DebugRequest) -> None:
        spec = Container(name=req.name, role="ephemeral", index=len(self.ephemeral), image=req.image,
                         path=f"debug[{i}]", line=req.line, target=req.target)
        b = Behaviour(runs=(Run(req.run_seconds, 0),),
                      assumed={} if req.run_seconds is not None else
                      {"runSeconds": Phrase(_("a debug session is assumed to stay open"))})
        c = _C(spec, b, RuntimeStatus("ephemeral", spec.index, "ContainerCreating"))
        self.ephemeral.append(c)
        self.debug_specs.append(spec)
        if req.target:
            added = Text(_("kubectl debug adds {name} ({image}) targeting {target}"),
                         {"name": req.name, "image": req.image, "target": req.target})
        else:
            added = Text(_("kubectl debug adds {name} ({image})"), {"name": req.name, "image": req.image})
        self.emit(None, "debug_requested", reason="EphemeralContainerAdded", message=added)
        if self.terminal or self.deleting or self.pod_kill is not None:
            c.requested = False
            self.notes.append(Text(_("{c} was added at t={t}s but never starts: the Pod is no longer running."),
                                   {"c": req.name, "t": f"{req.at:g}"}))
            return
        c.requested = True
        self.request_sync()
