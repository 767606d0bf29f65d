"""The kubelet, modelled: how one Pod starts, runs, restarts and stops.

One `_Kubelet` per Pod.  Runtime events (a process exits, a hook ends, a probe changes)
happen at HAPPEN priority and ask for a sync; the sync (DECIDE priority, after every change
of its instant) mirrors `computePodActions` + `SyncPod` in
pkg/kubelet/kuberuntime/kuberuntime_manager.go (startup.py).  Kills follow `killContainer` and
kuberuntime_termination_order.go (termination.py).  This module holds the state, the event
record, exits, and what a scenario does to the Pod (deletion, deadline, node reboot, debug,
image updates).  Section numbers (§) refer to docs/lifecycle-model.md.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field

from . import defaults as d
from .i18n import Text, gettext_noop as _
from .model import Container, Pod
from . import fastforward
from .fastforward import FastForward, FastForwardMixin
from .restart_all import RestartAllMixin
from .restart_rules import should_restart
from .scenario import Behaviour, Scenario, behaviour_for
from .scenario_actions import ScenarioActionsMixin
from .scheduler import DECIDE, HAPPEN, Scheduler
from .status import EXITED, WAITING, RuntimeStatus, StatusBook
from .runtime import CState
from .startup import StartupMixin
from .termination import TerminationMixin
from .trace import Dependency, EventKind, StatusPoint, TraceEvent
from .versions import crash_loop_backoff, gate_enabled, version_tuple


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
    fast_forwards: list[FastForward] = field(default_factory=list)   # steady crash loops jumped over


# Event messages without fields, made once (the simulation may emit hundreds of thousands).
# How a container's main process ended (`_exit`'s ``how``):
_EXIT_HOW = {"natural": Text(_("the main process ends")), "sigterm": Text(_("exits after SIGTERM")),
             "sigkill": Text(_("killed by SIGKILL")),
             "oom": Text(_("the kernel's OOM killer ends it: memory reached the container's limit"))}
_NO_LONGER_RUNNING = Text(_("the container is no longer running"))


def simulate(pod: Pod, scenario: Scenario = Scenario(), *, container_restart_rules: bool = False,
             version: str | None = None, fast_forward: bool | None = None,
             behaviours: Mapping[str, Behaviour] | None = None) -> Simulation:
    """Simulate ``pod`` under ``scenario``; deterministic, bounded by the horizon.

    ``pod`` is the Pod as admitted (validate.py): per-container restart fields are only still there when
    the version's ContainerRestartRules gate let them through, so the simulation follows what it is given.
    ``version`` picks the kubelet's crash-loop back-off settings (the newest version's when omitted).
    ``fast_forward`` jumps over whole periods of steady crash loops (fastforward.py; on unless turned off
    here or by ``fastforward.ENABLED``); the answer is the same without it, only slower.
    ``behaviours`` are the containers' resolved behaviours of an earlier run of the same Pod under the same
    scenario entries (``behaviour_for`` reads nothing else), so a second run need not resolve them again.
    """
    if fast_forward is None:
        fast_forward = fastforward.ENABLED
    return _Kubelet(pod, scenario, container_restart_rules, version or d.DEFAULT_VERSION, fast_forward,
                    behaviours).run()


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


class _Kubelet(StartupMixin, TerminationMixin, RestartAllMixin, FastForwardMixin, ScenarioActionsMixin):
    def __init__(self, pod: Pod, scenario: Scenario, container_restart_rules: bool, version: str,
                 fast_forward: bool = True, behaviours: Mapping[str, Behaviour] | None = None) -> None:
        self.pod, self.scenario = pod, scenario
        self.restart_rules = container_restart_rules
        self.legacy_kill = version_tuple(version) < d.TERMINAL_PHASE_ON_DELETE   # docs/lifecycle-model.md §33
        self.notes: list[Text] = []
        self.bo_initial, self.bo_max = self._node_backoff(version, scenario)
        self.restart_all: tuple | None = None     # (container, exit code, rule) for the next sync
        self.until = horizon(pod, scenario)
        self.s = Scheduler(self.until, d.MAX_EVENTS)
        self.events: list[TraceEvent] = []
        self.timeline: list[StatusPoint] = []
        default_wait = "PodInitializing" if pod.init_containers else "ContainerCreating"
        self.default_wait = default_wait
        self.cs: dict[str, CState] = {}
        statuses = []
        for c in pod.init_containers + pod.containers:
            st = RuntimeStatus(c.role, c.index, default_wait)
            statuses.append(st)
            known = behaviours.get(c.name) if behaviours else None
            self.cs[c.name] = CState(c, known if known is not None else behaviour_for(c, pod, scenario), st)
        self.init = [self.cs[c.name] for c in pod.init_containers]
        self.apps = [self.cs[c.name] for c in pod.containers]
        self.ephemeral: list[CState] = []
        self.debug_specs: list[Container] = []
        self.book = StatusBook(statuses, len(pod.init_containers),
                               len(pod.sidecars) + len(pod.containers), pod.restart_policy,
                               pod.readiness_gates, terminal_on_delete=not self.legacy_kill)
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
        self.queue: list[CState] = []
        self.pod_kill: str | None = None
        self.deleting = False
        self.terminal = False
        self.forced_phase: str | None = None
        self.status_reason: str | None = None
        self.end_time: float | None = None
        self.snap_key: tuple | None = None             # `_snapshot`'s inputs, and the point it left last
        self.snap_point: StatusPoint | None = None
        self._ff_init(fast_forward)

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
            notes=self.notes, truncated=not complete, fast_forwards=self.fast_forwards)

    def emit(self, c: CState | None, kind: EventKind, *, exit_code: int | None = None, reason: str | None = None,
             message: Text | str = "", assumed: bool = False) -> None:
        """Record an event; a `Text` message is kept as ``text`` beside its English rendering."""
        text = message if isinstance(message, Text) else None
        self.events.append(TraceEvent(
            round(self.s.now, 3), c.spec.name if c else None, kind,
            c.st.restarts if c else None, exit_code, reason,
            str(message) if text is None else text.render(), assumed, text))
        self._snapshot()

    def _snapshot(self) -> None:
        """Append a status point when the Pod's status differs from the last point.

        The status is a function of the book (its counters and the statuses it was told of by
        `StatusBook.changed`) and of the five flags below: while none of them changed since the last
        snapshot, and the last point is still the one that snapshot saw (fastforward.py appends points
        of its own), the answer is the last point's, which is not appended again.  So skip the work."""
        book = self.book
        key = (self.forced_phase, self.status_reason, self.initialized, self.deleting, self.terminal)
        timeline = self.timeline
        if not book.dirty and key == self.snap_key and timeline and timeline[-1] is self.snap_point:
            return
        book.dirty = False
        self.snap_key = key
        status, phase, ready, ready_count, restarts, initializing = book.point(*key)
        last = timeline[-1] if timeline else None
        if last is None or (last.status, last.phase, last.ready, last.ready_count, last.restarts) != (
                status, phase, ready, ready_count, restarts):
            last = StatusPoint(round(self.s.now, 3), status, phase, ready, ready_count, restarts, self.initialized)
            timeline.append(last)
            self.timeline_modes.append(initializing and not self.initialized)
        self.snap_point = last

    def _set(self, c: CState, state: str, *, reason: str | None = None, exit_code: int | None = None,
             will_restart: bool | None = None) -> None:
        st = c.st
        st.state = state
        if state == WAITING:
            st.waiting_reason = reason or self.default_wait
        elif state == EXITED:
            st.exit_reason = reason if reason == "OOMKilled" else None
            st.exit_code = exit_code
            st.last_exit = exit_code
            st.started = st.ready = False
            st.will_restart = self.will_restart(c, exit_code or 0) if will_restart is None else will_restart
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

    def _node_backoff(self, version: str, sc: Scenario) -> tuple[float, float]:
        """The kubelet's crash-loop back-off for this node (docs/lifecycle-model.md §20)."""
        gates = sc.feature_gates
        if sc.max_restart_period is not None and not gate_enabled("KubeletCrashLoopBackOffMax", version, gates):
            self.notes.append(Text(_(
                "Kubernetes {version}: the kubelet ignores crashLoopBackOff.maxContainerRestartPeriod because the "
                "KubeletCrashLoopBackOffMax feature gate is off (on by default from 1.35; alpha since 1.32)."),
                {"version": version}))
        initial, maximum = crash_loop_backoff(version, gates, sc.max_restart_period)
        if (initial, maximum) != (d.CRASH_LOOP_INITIAL_SECONDS, d.CRASH_LOOP_MAX_SECONDS):
            self.notes.append(Text(_("Crash-loop back-off on this node: {initial}s, doubling up to {max}s."),
                                   {"initial": f"{initial:g}", "max": f"{maximum:g}"}))
        return initial, maximum

    def will_restart(self, c: CState, exit_code: int) -> bool:
        """`ContainerShouldRestart` for ``c``'s exit (docs/lifecycle-model.md §17)."""
        return should_restart(c.spec, self.pod.restart_policy, exit_code)

    # ---- exits -------------------------------------------------------------------------------
    def _exit(self, c: CState, gen: int, code: int, how: str | Text, assumed: bool | None = None) -> None:
        if gen != c.gen or not c.alive:
            return
        now = self.s.now
        was_ready = c.st.ready
        self._mark_dead(c)
        c.gen += 1
        c.finished_at = now
        aborted_poststart = c.in_poststart
        c.in_poststart = False
        rule = self.restart_all_rule(c, code)
        reason = "OOMKilled" if how == "oom" else "Completed" if code == 0 else "Error"
        self._set(c, EXITED, exit_code=code, will_restart=True if rule is not None else None, reason=reason)
        message = _EXIT_HOW.get(how, how) if isinstance(how, str) else how
        if how == "sigterm" and c.spec.stop_signal is not None:
            message = Text(_("exits after its stop signal {signal}"), {"signal": c.spec.stop_signal})
        if assumed is None:
            assumed = (how in ("natural", "oom") and "runSeconds" in c.b.assumed) or (how == "sigterm" and
                                                                                     "stopSeconds" in c.b.assumed)
        self.emit(c, EventKind.EXITED, exit_code=code, reason=reason, message=message, assumed=assumed)
        if how == "natural":
            self._exit_stops(c, code)
        if was_ready:
            self.emit(c, EventKind.NOT_READY, message=_NO_LONGER_RUNNING)
        kill = c.kill
        c.kill = None
        if self.pod_kill is not None:
            self._pod_kill_progress()
            return
        if rule is not None:      # acted on by the next sync (`ShouldAllContainersRestart`)
            self.restart_all = (c, code, rule)
        if kill is not None and kill.reason == "FailedPostStartHook":
            self._start_queue()   # `SyncPod` goes on with the next container to start (then frees the worker)
        elif kill is not None:    # a single kill (probe failure) has finished: the worker is free
            self._free()
        if aborted_poststart and self.busy:
            self.notes.append(Text(_("{c} exited while its postStart hook ran: the hook fails "
                                     "(FailedPostStartHook) and the container is restarted by its policy."),
                                   {"c": c.spec.name}))
            self._start_queue()
        self.request_sync()

    def _exit_stops(self, c: CState, code: int) -> None:
        """``c``'s command ends another container when its work is done (a proxy's shutdown endpoint; §9.2)."""
        for stop in c.b.exit_stops:
            target = self.cs.get(stop.target)
            if target is None or not target.alive or (stop.on_success and code != 0):
                continue
            why = Text(_("{c} ends it when its work is done: {how}"), {"c": c.spec.name, "how": stop.how})
            self.s.at(self.s.now, HAPPEN, self._script_stop, target, target.gen, stop, why)
