"""kubectl's READY, STATUS and RESTARTS for an observed Pod, exactly as `printPod` computes them.

k/k `pkg/printers/internalversion/printers.go` `printPod` (and `printers_test.go` `TestPrintPod`,
`TestPrintPodWithRestartableInitContainer`, every case of which is a table test of this module):
the columns from the Pod's status and the part of its spec the printer reads.  The simulation keeps
the same columns incrementally (status.py `StatusBook`, docs/lifecycle-model.md §15); this function
is the printer itself, over a status read from a paste (docs/lifecycle-model.md §35), and the test
suite checks the simulation's columns against it.
"""
from __future__ import annotations


from .model import ABSOLUTE, ContainerObs, Snapshot, SpecInfo
from .times import human_duration
from explainer.lifecycle.records import record

TERMINAL = ("Succeeded", "Failed")
NODE_LOST = "NodeLost"          # pkg/util/node `NodeUnreachablePodReason`


@record
class Columns:
    ready: str                     # "1/2"
    status: str                    # "CrashLoopBackOff", "Init:0/1", ...
    restarts: str                  # "3", or "3 (10s ago)" when the last restart's time is known


def _finished(c: ContainerObs) -> float | None:
    last = c.last
    if last is None or last.finished is None or last.finished.kind != ABSOLUTE:
        return None
    return last.finished.value


def _terminated_reason(c: ContainerObs, prefix: str) -> str:
    t = c.terminated
    reason = (t.reason if t is not None else None) or ""
    if reason:
        return prefix + reason
    signal = (t.signal if t is not None else None) or 0
    if signal != 0:
        return f"{prefix}Signal:{signal}"
    return f"{prefix}ExitCode:{(t.exit_code if t is not None else None) or 0}"


def _condition_true(snap: Snapshot, kind: str) -> bool:
    return any(c.type == kind and c.status == "True" for c in snap.conditions)


def print_pod(snap: Snapshot, spec: SpecInfo, now: float | None = None) -> Columns:
    """`printPod`'s READY, STATUS and RESTARTS.  ``now`` (Unix seconds) is when kubectl prints: the
    "(10s ago)" of RESTARTS needs it and is left out without it."""
    restarts = 0
    sidecar_restarts = 0
    total = len(spec.apps)
    ready = 0
    last_restart: float | None = None
    last_sidecar_restart: float | None = None

    reason = snap.reason or (snap.phase or "")
    for cond in snap.conditions:
        if cond.type == "PodScheduled" and cond.reason == "SchedulingGated":
            reason = "SchedulingGated"

    restartable = {name: always for name, always in spec.init}
    total += sum(1 for _, always in spec.init if always)

    initializing = False
    for i, c in enumerate(snap.init):
        n = c.restart_count or 0
        restarts += n
        finished = _finished(c)
        if finished is not None and (last_restart is None or last_restart < finished):
            last_restart = finished
        is_sidecar = restartable.get(c.name or "", False)
        if is_sidecar:
            sidecar_restarts += n
            if finished is not None and (last_sidecar_restart is None or last_sidecar_restart < finished):
                last_sidecar_restart = finished
        if c.state == "terminated" and ((c.terminated.exit_code if c.terminated else None) or 0) == 0:
            continue
        if is_sidecar and c.started is True:
            if c.ready:
                ready += 1
            continue
        if c.state == "terminated":
            reason = _terminated_reason(c, "Init:")
        elif c.state == "waiting" and c.reason and c.reason != "PodInitializing":
            reason = "Init:" + c.reason
        else:
            reason = f"Init:{i}/{len(spec.init)}"
        initializing = True
        break

    if not initializing or _condition_true(snap, "Initialized"):
        restarts = sidecar_restarts
        last_restart = last_sidecar_restart
        has_running = False
        for c in reversed(snap.apps):
            restarts += c.restart_count or 0
            finished = _finished(c)
            if finished is not None and (last_restart is None or last_restart < finished):
                last_restart = finished
            if c.state == "waiting" and c.reason:
                reason = c.reason
            elif c.state == "terminated" and c.terminated is not None and c.terminated.reason:
                reason = c.terminated.reason
            elif c.state == "terminated":
                reason = _terminated_reason(c, "")
            elif c.ready and c.state == "running":
                has_running = True
                ready += 1
        # a container still running and ready turns "Completed" back into Running (or NotReady)
        if reason == "Completed" and has_running:
            reason = "Running" if _condition_true(snap, "Ready") else "NotReady"

    if snap.deleting and snap.reason == NODE_LOST:
        reason = "Unknown"
    elif snap.deleting and (snap.phase or "") not in TERMINAL:
        reason = "Terminating"

    text = str(restarts)
    if restarts != 0 and last_restart is not None and now is not None:
        text = f"{restarts} ({human_duration(now - last_restart)} ago)"
    return Columns(f"{ready}/{total}", reason, text)
