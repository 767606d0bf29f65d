"""The kubelet, modelled: how one Pod starts, runs, restarts and stops.

One `_Kubelet` per Pod.  Runtime events (a process exits, a hook ends, a probe changes)
happen at HAPPEN priority and ask for a sync; the sync (DECIDE priority, after every change
of its instant) mirrors `computePodActions` + `SyncPod` in
pkg/kubelet/kuberuntime/kuberuntime_manager.go (startup.py).  Kills and exits follow `killContainer` and
kuberuntime_termination_order.go (termination.py); probes' results are kubelet/prober.py's, what the scenario
does to the Pod (deletion, deadline, node reboot, debug, image updates) scenario_actions.py's.  This
module builds the state (kubelet/state.py, runtime.py) and the parts, hands each part what it reads
and changes, and runs them.  Section numbers (§) refer to docs/lifecycle-model.md.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .. import defaults as d
from ..i18n import Text, gettext_noop as _
from ..model import Container, Pod
from . import fastforward
from .fastforward import FastForward, FastForwarder
from .state import Containers, KubeletConfig, PodState, PodWorker, Record, unset
from .prober import Probing
from .restart_all import RestartAll
from ..scenario.document import Behaviour, Scenario, behaviour_for
from .scenario_actions import ScenarioActions
from .scheduler import DECIDE, HAPPEN, Scheduler
from .status import RuntimeStatus, StatusBook
from .runtime import ContainerState
from .startup import Startup
from .termination import Termination
from .trace import Dependency, StatusPoint, TraceEvent
from ..admission.versions import crash_loop_backoff, gate_enabled, version_tuple


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


class _Kubelet:
    """One run: the state, and the parts that read and change it, each handed what it uses."""

    __slots__ = ("cfg", "state", "cs", "s", "rec", "worker", "term", "actions", "ff", "startup")

    def __init__(self, pod: Pod, scenario: Scenario, container_restart_rules: bool, version: str,
                 fast_forward: bool = True, behaviours: Mapping[str, Behaviour] | None = None) -> None:
        legacy_kill = version_tuple(version) < d.TERMINAL_PHASE_ON_DELETE   # docs/lifecycle-model.md §33
        notes: list[Text] = []
        bo_initial, bo_max = _node_backoff(version, scenario, notes)
        until = horizon(pod, scenario)
        default_wait = "PodInitializing" if pod.init_containers else "ContainerCreating"
        self.cfg = cfg = KubeletConfig(pod, scenario, container_restart_rules, until, default_wait, bo_initial,
                                       bo_max, legacy_kill)
        by_name: dict[str, ContainerState] = {}
        statuses = []
        for c in pod.init_containers + pod.containers:
            st = RuntimeStatus(c.role, c.index, default_wait)
            statuses.append(st)
            known = behaviours.get(c.name) if behaviours else None
            by_name[c.name] = ContainerState(c, known if known is not None else behaviour_for(c, pod, scenario), st)
        self.cs = cs = Containers(by_name, [by_name[c.name] for c in pod.init_containers],
                                  [by_name[c.name] for c in pod.containers])
        book = StatusBook(statuses, len(pod.init_containers), len(pod.sidecars) + len(pod.containers),
                          pod.restart_policy, pod.readiness_gates, terminal_on_delete=not legacy_kill)
        self.state = state = PodState()
        self.s = s = Scheduler(until, d.MAX_EVENTS, d.MAX_SYNC_WORK)
        self.rec = rec = Record(s, state, cfg, book, notes)
        self.worker = worker = PodWorker(s, state)
        # the parts, each handed what it reads and changes; termination goes on with the start loop, and
        # the pod worker's syncs are startup's, both set once startup exists
        self.term = term = Termination(cfg, state, cs, s, rec, worker, resume_starts=unset)
        restart_all = RestartAll(cfg, state, cs, s, rec)
        probing = Probing(cfg, state, cs, rec, term)
        self.actions = actions = ScenarioActions(cfg, state, cs, s, rec, worker, term)
        self.ff = ff = FastForwarder(cfg, state, cs, s, rec, actions.one_offs(), fast_forward)
        self.startup = startup = Startup(cfg, state, cs, s, rec, worker, term, restart_all, probing, ff)
        term.resume_starts = startup.start_queue
        worker.sync = startup.sync

    # ---- running the simulation --------------------------------------------------------
    def run(self) -> Simulation:
        s, sc, actions, rec, cs, cfg = self.s, self.cfg.scenario, self.actions, self.rec, self.cs, self.cfg
        rec.snapshot()
        s.at(0.0, DECIDE, self.startup.sync)
        self.state.sync_pending = True
        if sc.delete_at is not None:
            s.at(sc.delete_at, HAPPEN, actions.delete)
        if sc.sandbox_lost_at is not None:
            s.at(sc.sandbox_lost_at, HAPPEN, actions.sandbox_lost)
        if cfg.pod.active_deadline_seconds:
            s.at(float(cfg.pod.active_deadline_seconds), HAPPEN, actions.deadline)
        for i, req in enumerate(sc.debug):
            s.at(req.at, HAPPEN, actions.debug, i, req)
        for upd in sc.image_updates:
            if upd.container in cs.by_name:
                s.at(upd.at, HAPPEN, actions.update_image, cs.by_name[upd.container], upd.image)
        complete = s.run()
        if not complete and s.work > d.MAX_SYNC_WORK:
            rec.notes.append(Text(_("The simulation stopped at t={t}s: its syncs had looked at {n} containers, the "
                                    "most one explanation may; containers that crash-loop out of step cost that "
                                    "many. Shorten `until` or explain fewer containers to see the whole run."),
                                  {"n": f"{d.MAX_SYNC_WORK:,}", "t": f"{s.now:g}"}))
        elif not complete:
            rec.notes.append(Text(_("The simulation stopped after {n} steps at t={t}s; shorten `until` "
                                    "to see the whole run."), {"n": f"{d.MAX_EVENTS:,}", "t": f"{s.now:g}"}))
        for jump in self.ff.fast_forwards:
            if jump.points_left_out:
                rec.notes.append(Text(_("The Pod's status repeats every {period} s: the {n} status points from "
                                        "{start} s to {end} s are left out of the status over time (restart counts "
                                        "and the final phase stay exact)."),
                                      {"period": f"{jump.period:g}", "n": f"{jump.points_left_out:,}",
                                       "start": f"{jump.kept_until:g}", "end": f"{jump.at + jump.shift:g}"}))
        final = rec.timeline[-1].phase if rec.timeline else "Pending"
        end_time = self.state.end_time
        return Simulation(
            events=rec.events, timeline=rec.timeline, final_phase=final,
            restart_counts={name: c.st.restarts for name, c in cs.by_name.items()}
            | {c.spec.name: c.st.restarts for c in cs.ephemeral},
            end_time=end_time if end_time is not None else (s.now if not complete else cfg.until),
            until=cfg.until,
            behaviours={name: c.b for name, c in cs.by_name.items()} | {c.spec.name: c.b for c in cs.ephemeral},
            debug_containers=cs.debug_specs, dependencies=dependencies(cfg.pod),
            notes=rec.notes, truncated=not complete, fast_forwards=self.ff.fast_forwards)


def _node_backoff(version: str, sc: Scenario, notes: list[Text]) -> tuple[float, float]:
    """The kubelet's crash-loop back-off for this node (docs/lifecycle-model.md §20)."""
    gates = sc.feature_gates
    if sc.max_restart_period is not None and not gate_enabled("KubeletCrashLoopBackOffMax", version, gates):
        notes.append(Text(_(
            "Kubernetes {version}: the kubelet ignores crashLoopBackOff.maxContainerRestartPeriod because the "
            "KubeletCrashLoopBackOffMax feature gate is off (on by default from 1.35; alpha since 1.32)."),
            {"version": version}))
    initial, maximum = crash_loop_backoff(version, gates, sc.max_restart_period)
    if (initial, maximum) != (d.CRASH_LOOP_INITIAL_SECONDS, d.CRASH_LOOP_MAX_SECONDS):
        notes.append(Text(_("Crash-loop back-off on this node: {initial}s, doubling up to {max}s."),
                          {"initial": f"{initial:g}", "max": f"{maximum:g}"}))
    return initial, maximum
