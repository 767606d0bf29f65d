"""Probes: when they fail, what a probe that can never pass does, and the kill a failed one orders.

A part of the kubelet model (simulate.py builds it; kubelet/state.py declares what it is handed);
`startup.py` schedules the checks when a container starts and calls these.  Section numbers (§) refer to
docs/lifecycle-model.md.
"""
from __future__ import annotations

from ..i18n import Text, gettext_noop as _
from .state import Containers, KubeletConfig, PodState, Record
from ..model import Probe
from ..commands.probe_faults import ERRORS
from .probe_timing import INF, Checks, failure_time
from .restart_rules import is_restartable
from .runtime import ContainerState
from .termination import Termination
from .trace import EventKind

# What the kubelet makes of a probe that cannot pass (commands/probe_faults.py; docs/lifecycle-model.md §8.1).
_FAULT_ERRORS = {
    "readiness": _("{c}'s readiness probe can never pass: {why}. Every check errors and the kubelet discards "
                   "the result, so {c} is never Ready."),
    "liveness": _("{c}'s liveness probe can never pass: {why}. Every check errors and the kubelet discards the "
                  "result, so the probe never kills {c} either: it only records \"probe errored\" events."),
    "startup": _("{c}'s startup probe can never pass: {why}. Every check errors and the kubelet discards the "
                 "result, so {c} never counts as started: its liveness and readiness probes never run, it is "
                 "never Ready, and it is not killed for it."),
    "sidecar": _("{c}'s startup probe can never pass: {why}. Every check errors and the kubelet discards the "
                 "result, so sidecar {c} never counts as started and the containers after it never start."),
}
_FAULT_FAILS = {
    "readiness": _("{c}'s readiness probe can never pass: {why}. Every check fails, so {c} is never Ready."),
    "kills": _("{c}'s {kind} probe can never pass: {why}. Every check fails, so the kubelet kills {c} after "
               "failureThreshold checks, and again after every restart."),
}


class Probing:
    """The probe workers' results (pkg/kubelet/prober) as the pod worker acts on them: a failed liveness or
    startup probe orders a kill (``term``), or waits in ``state.after_free`` while the worker is busy."""

    __slots__ = ("cfg", "state", "cs", "rec", "term")

    def __init__(self, cfg: KubeletConfig, state: PodState, cs: Containers, rec: Record, term: Termination) -> None:
        self.cfg, self.state, self.cs, self.rec, self.term = cfg, state, cs, rec, term

    def failure_time(self, c: ContainerState, p: Probe, checks: Checks, healthy: float) -> float | None:
        """When ``p`` has failed failureThreshold times in a row.  With timeoutSeconds > periodSeconds a
        failing check is taken to run until its timeout (what such a timeout is for), and the probe worker
        runs one check at a time: worker.go `run` calls `doProbe` and only then waits for the ticker,
        whose channel keeps one missed tick, so the next check starts as the last one times out
        (docs/lifecycle-model.md §8.1)."""
        if p.timeout <= p.period or p.kind in c.b.probe_faults:   # a probe that cannot pass fails at once
            return failure_time(checks, healthy, p.failure_threshold)  # (refused, wrong scheme: §8.1)
        slow = Checks(checks.base, float(p.timeout), checks.gate, checks.immediate)
        fail = failure_time(slow, healthy, p.failure_threshold)
        if fail is None:
            return None
        spec = failure_time(checks, healthy, p.failure_threshold)
        noted = self.rec.slow_probes_noted
        if (c.spec.name, p.kind) in noted:
            return fail + p.timeout
        noted.add((c.spec.name, p.kind))
        self.rec.notes.append(Text(_(
            "{c}'s {kind} probe has timeoutSeconds {timeout} > periodSeconds {period}: a failing check is "
            "taken to run until it times out, and the kubelet runs one check at a time, so checks start every "
            "{timeout} s, not every {period} s, and failure {n} comes at {t} s, not {spec} s."),
            {"c": c.spec.name, "kind": p.kind, "timeout": p.timeout, "period": p.period,
             "n": p.failure_threshold, "t": f"{fail + p.timeout:g}",
             "spec": f"{spec:g}" if spec is not None else "?"}))
        return fail + p.timeout

    @staticmethod
    def healthy_from(c: ContainerState, kind: str) -> float:
        if kind in c.b.failing_probes or kind in c.b.probe_faults:
            return INF
        return c.start_t + c.b.startup_seconds

    @staticmethod
    def errors(c: ContainerState, kind: str) -> bool:
        """The probe errors on every check: pkg/kubelet/prober/worker.go `doProbe` throws the result away,
        so the worker keeps its initial value (docs/lifecycle-model.md §8.1)."""
        fault = c.b.probe_faults.get(kind)
        return fault is not None and fault.outcome == ERRORS

    def note_probe_faults(self, c: ContainerState) -> None:
        """Say once per container why a probe can never pass, and what the kubelet makes of it (§8.1)."""
        for kind in ("startup", "readiness", "liveness"):
            fault = c.b.probe_faults.get(kind)
            if fault is None:
                continue
            fields = {"c": c.spec.name, "kind": kind, "why": fault.why}
            if fault.outcome == ERRORS:
                then = _FAULT_ERRORS[kind]
                if kind == "startup" and c.spec.role == "sidecar":
                    then = _FAULT_ERRORS["sidecar"]
            else:
                then = _FAULT_FAILS["readiness" if kind == "readiness" else "kills"]
            self.rec.notes.append(Text(then, fields))

    # ---- probes that fail -------------------------------------------------------------------
    def probe_failed(self, c: ContainerState, gen: int, kind: str) -> None:
        """§8: a failed liveness or startup probe kills the container; it restarts unless Never."""
        state, cfg = self.state, self.cfg
        if gen != c.gen or not c.alive or c.kill or state.deleting or state.pod_kill:
            return   # liveness and startup probing stop once the Pod is terminating (§8)
        if state.busy:   # the pod worker acts on the result when its current work is done
            state.after_free.append((self.probe_failed, (c, gen, kind)))
            return
        probe = c.spec.liveness_probe if kind == "liveness" else c.spec.startup_probe
        assert probe is not None
        fault = c.b.probe_faults.get(kind)
        self.rec.emit(c, EventKind.LIVENESS_FAILED if kind == "liveness" else EventKind.STARTUP_PROBE_FAILED,
                      reason="Unhealthy",
                      message=Text(_("{kind} probe failed {n} times in a row ({detail})"),
                                   {"kind": kind, "n": probe.failure_threshold, "detail": probe.detail}),
                      assumed=fault is not None and fault.assumed)
        grace = probe.termination_grace_period or cfg.pod.termination_grace_period
        # `IsContainerRestartable` (pkg/api/v1/pod/util.go): container policy and Restart rules first
        restart = c.spec.role == "sidecar" or is_restartable(c.spec, cfg.pod.restart_policy)
        if not restart and c.spec.role == "app" and not any(
                o is not c and (o.alive or cfg.should_start(o)) for o in self.cs.apps):
            # `computePodActions`: nothing left to keep or start -> KillPod, whose kills carry no
            # probe reason, so the Pod's grace period applies, not the probe's
            self.term.kill_pod(f"{kind.capitalize()}ProbeFailed", cfg.pod.termination_grace_period,
                               Text(_("its {kind} probe failed"), {"kind": kind}))
            return
        c.force_restart = restart and c.spec.role == "app"
        state.busy = True     # §12.5: the kill is synchronous inside the pod's sync loop
        self.term.begin_kill(c, grace, f"{kind} probe failed", ordered=False)
