"""The JSON contract (schemaVersion 1), one shape for the CLI and the API."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..comparison import Comparison, DeletionChange
from ..explain import Explanation, PodReport
from ..lifecycle.errors import ErrorRecord
from ..lifecycle.i18n import Phrase
from ..lifecycle.model import Container
from ..lifecycle.kubelet.trace import StatusPoint

SCHEMA_VERSION = 1


def explanation_to_dict(expl: Explanation) -> dict[str, Any]:
    return {
        "schemaVersion": SCHEMA_VERSION,
        "kubernetesVersion": expl.version,
        "pods": [pod_to_dict(r) for r in expl.pods],
        "skipped": [{"document": s.document, "kind": s.kind, "name": s.name, "line": s.line, "reason": s.reason}
                    for s in expl.skipped],
        "errors": [error_to_dict(e) for e in expl.errors],
        "warnings": [error_to_dict(w) for w in expl.warnings],
        "nothingToExplain": expl.empty,
        # findings about the input's other objects (a Service's: findings/inputs.py), each naming it
        "findings": [f.to_dict() for f in expl.findings],
        "suppressedFindings": [s.to_dict() for s in expl.suppressed],
    }


def error_to_dict(e: ErrorRecord) -> dict[str, Any]:
    return {"message": e.message, "line": e.line, "column": e.column, "path": e.path, "kind": e.kind,
            "reason": e.reason, "document": e.document, "pod": e.pod}


def _container(c: Container, assumed: dict[str, Phrase]) -> dict[str, Any]:
    return {"name": c.name, "role": c.role, "index": c.index, "image": c.image, "line": c.line,
            "path": c.path, "target": c.target, "assumed": {k: str(why) for k, why in assumed.items()}}


def pod_to_dict(r: PodReport) -> dict[str, Any]:
    pod, sim = r.pod, r.simulation
    behaviours = sim.behaviours if sim else {}
    containers = [_container(c, behaviours[c.name].assumed if c.name in behaviours else {})
                  for c in pod.all_containers]
    if sim:
        containers += [_container(c, behaviours[c.name].assumed) for c in sim.debug_containers]
    out: dict[str, Any] = {
        "name": pod.name,
        "source": {"document": pod.source.document, "kind": pod.source.kind, "name": pod.source.name,
                   "line": pod.source.line},
        "admitted": r.admitted,
        "restartPolicy": pod.restart_policy,
        "terminationGracePeriodSeconds": pod.termination_grace_period,
        "qosClass": r.qos.qos_class if r.qos else None,
        "containers": containers,
        "events": [],
        "statusTimeline": [],
        "finalPhase": None,
        "restartCounts": {},
        "errors": [error_to_dict(e) for e in r.errors],
        "warnings": [error_to_dict(w) for w in r.warnings],
        "notes": [str(n) for n in r.notes],
        "sharing": r.sharing.jsonable(),
        "findings": [f.to_dict() if hasattr(f, "to_dict") else f for f in r.findings],
        "suppressedFindings": [s.to_dict() for s in r.suppressed],
        "rollout": r.rollout.jsonable() if r.rollout is not None else None,
        # when a Service sends it requests (docs/lifecycle-model.md §27); null: none would select it
        "traffic": r.traffic.jsonable() if r.traffic is not None else None,
    }
    if sim:
        out.update({
            "events": [{"t": e.t, "container": e.container, "type": e.type, "restartCount": e.restart_count,
                        "exitCode": e.exit_code, "reason": e.reason, "message": e.message, "assumed": e.assumed}
                       for e in sim.events],
            "statusTimeline": [{"t": p.t, "status": p.status, "phase": p.phase, "ready": p.ready,
                                "readyContainers": p.ready_count, "restarts": p.restarts,
                                "initialized": p.initialized} for p in sim.timeline],
            "finalPhase": sim.final_phase,
            "restartCounts": dict(sim.restart_counts),
            "endTime": sim.end_time,
            "until": sim.until,
            "truncated": sim.truncated,
            # steady crash loops jumped over whose status points were not all kept (fastforward.py)
            "statusTimelineFolds": [{"from": j.kept_until, "to": j.at + j.shift, "period": j.period,
                                     "pointsLeftOut": j.points_left_out}
                                    for j in sim.fast_forwards if j.points_left_out],
            "dependencies": [{"container": dep.container, "waitsFor": dep.waits_for, "condition": dep.condition,
                              "guaranteed": dep.guaranteed} for dep in sim.dependencies],
        })
    if r.observed is not None:   # only when kubectl's output was given (docs/lifecycle-model.md §34)
        out["observed"] = r.observed.jsonable()
    return out


def _identity(message: str) -> str:
    return message


# ---- a comparison (issue 5) ---------------------------------------------------------------------
def _status_point(p: StatusPoint | None) -> dict[str, Any] | None:
    if p is None:
        return None
    return {"t": p.t, "status": p.status, "phase": p.phase, "ready": p.ready, "readyContainers": p.ready_count,
            "restarts": p.restarts}


def _finding_ref(f: Any) -> dict[str, Any]:
    return f.to_dict() if hasattr(f, "to_dict") else dict(f)


def comparison_to_dict(c: Comparison, gettext: Callable[[str], str] = _identity) -> dict[str, Any]:
    """The comparison as JSON-ready data (sentences through ``gettext``; English by default)."""
    return {
        "kubernetesVersion": {"before": c.left.version, "after": c.right.version},
        "summary": [t.render(gettext) for t in c.summary],
        "pods": [{
            "kind": p.kind, "name": p.name,
            "before": p.left.pod.name if p.left is not None else None,
            "after": p.right.pod.name if p.right is not None else None,
            "viewEnd": p.view_end,
            "summary": [t.render(gettext) for t in p.summary],
            "findings": {"new": [_finding_ref(f) for f in p.new], "fixed": [_finding_ref(f) for f in p.fixed],
                         "unchanged": [_finding_ref(f) for f in p.unchanged]},
            "sharing": [{"topic": s.topic, "change": s.change, "subject": s.subject,
                         "containers": list(s.containers), "text": s.text.render(gettext)} for s in p.sharing],
            "starts": [{"container": s.container, "role": s.role, "before": s.before, "after": s.after,
                        "delta": s.delta, "cause": s.cause.render(gettext) if s.cause else None}
                       for s in p.starts],
            "final": {"before": _status_point(p.final_before), "after": _status_point(p.final_after)},
            # what the two runs' events differ in (issue 25: additions to the contract)
            "moments": [{"container": m.container, "moment": m.kind, "before": m.before, "after": m.after,
                         "delta": m.delta, "exitCodeBefore": m.code_before, "exitCodeAfter": m.code_after,
                         "changed": m.changed, "withStart": m.with_start} for m in p.moments],
            "roles": [{"container": r.container, "before": r.before, "after": r.after} for r in p.roles],
            "terminationGracePeriodSeconds": {"before": p.grace_before, "after": p.grace_after},
            "deletion": _deletion(p.deletion),
            "statusColumn": {"before": list(p.status_before), "after": list(p.status_after)},
        } for p in c.pods],
    }


def _deletion(d: DeletionChange | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {"requestedBefore": d.requested_before, "requestedAfter": d.requested_after,
            "gracePeriodBefore": d.grace_before, "gracePeriodAfter": d.grace_after,
            "endedBefore": d.ended_before, "endedAfter": d.ended_after,
            "lengthBefore": d.length_before, "lengthAfter": d.length_after}
