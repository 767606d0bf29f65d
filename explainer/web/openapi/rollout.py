"""The OpenAPI schema of `pods[].rollout` (docs/lifecycle-model.md §26), kept apart from web/openapi/document.py's own."""
from __future__ import annotations

from typing import Any

from explainer.lifecycle.rollout.model import NEW, OLD, STALL_REASONS

_NUM, _INT, _STR = {"type": "number"}, {"type": "integer"}, {"type": "string"}
_NNUM, _NINT, _NSTR = {"type": ["number", "null"]}, {"type": ["integer", "null"]}, {"type": ["string", "null"]}


def _obj(required: list[str], properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "required": required, "properties": properties, **extra}


def rollout_schemas() -> dict[str, Any]:
    """The `Rollout` schema and its parts, for components.schemas."""
    seconds = "seconds after `kubectl rollout restart` (t = 0, every old Pod Running and available)"
    return {
        "Rollout": _obj(
            ["kind", "strategy", "replicas", "maxSurge", "maxUnavailable", "minReadySeconds",
             "progressDeadlineSeconds", "completeAt", "stalled", "minAvailable", "maxPods",
             "maxPodsIncludingTerminating", "pods", "counts"], {
                "kind": {"type": "string", "enum": ["Deployment", "StatefulSet", "DaemonSet"]},
                "strategy": {"type": "string", "enum": ["RollingUpdate", "Recreate", "OnDelete"]},
                "replicas": {"type": "integer", "description": "spec.replicas (or the scenario's rollout.replicas); "
                                                              "a DaemonSet's nodes"},
                "maxSurge": {"type": "integer", "description": "resolved against the replicas as the controller "
                                                              "does (ResolveFenceposts for Deployments; 0 for "
                                                              "Recreate and StatefulSets)"},
                "maxUnavailable": {"type": "integer", "description": "resolved; the replicas for Recreate; 1 for "
                                                                    "a StatefulSet without the "
                                                                    "MaxUnavailableStatefulSet gate"},
                "minReadySeconds": _INT,
                "progressDeadlineSeconds": {**_NINT, "description": "Deployments; null: none (MaxInt32) or "
                                                                    "another kind"},
                "capacityFloor": {"type": "integer", "description": "replicas - maxUnavailable: the fewest "
                                                                   "available Pods the controller allows"},
                "surgeCeiling": {"type": "integer", "description": "replicas + maxSurge: the most Pods not being "
                                                                  "deleted the controller allows"},
                "partition": _NINT, "podManagementPolicy": _NSTR, "nodes": _NINT,
                "syncDelaySeconds": {"type": "number", "description": "the controllers' reaction time (0 unless "
                                                                     "the scenario says)"},
                "until": {"type": "number", "description": "how far the rollout was simulated"},
                "completeAt": {**_NNUM, "description": "when kubectl rollout status would report success; null "
                                                       "if it does not complete within `until`"},
                "lastGoneAt": {**_NNUM, "description": "when the last old Pod's containers have stopped"},
                "stalled": {"anyOf": [{"type": "null"}, _obj(["at", "reason"], {
                    "at": {"type": "number", "description": seconds},
                    "reason": {"type": "string", "enum": list(STALL_REASONS)},
                    "available": _NINT, "old": _NINT, "text": _NSTR})]},
                "minAvailable": {"type": "integer", "description": "the fewest available Pods while it ran"},
                "maxPods": {"type": "integer", "description": "the most Pods not being deleted at once"},
                "maxPodsIncludingTerminating": {"type": "integer", "description": "the same with Pods that are "
                                                                                  "still stopping"},
                "pods": {"type": "array", "items": {"$ref": "#/components/schemas/RolloutPod"}},
                "counts": {"type": "array", "items": {"$ref": "#/components/schemas/RolloutCount"}},
                "steps": {"type": "array", "items": _obj(["t", "text"], {"t": _NUM, "text": _STR,
                                                                       "pods": {"type": "array", "items": _STR}})},
                "notes": {"type": "array", "items": _STR},
                "assumed": {"type": "object", "additionalProperties": _STR,
                            "description": "scenario values the rollout assumed, and why"}},
            description="`kubectl rollout restart` of the workload as its controller does it "
                        "(docs/lifecycle-model.md §26); times in " + seconds + "."),
        "RolloutPod": _obj(["name", "revision", "createdAt", "readyAt", "availableAt", "deletedAt", "goneAt"], {
            "name": {"type": "string", "description": "<name>-<ordinal> for StatefulSets; <name>-old-<n> / "
                                                      "<name>-new-<n> otherwise"},
            "revision": {"type": "string", "enum": [OLD, NEW]},
            "createdAt": {**_NNUM, "description": "null: it existed before the rollout"},
            "readyAt": _NNUM, "availableAt": _NNUM, "deletedAt": _NNUM,
            "goneAt": {**_NNUM, "description": "its containers have all stopped"},
            "node": _NSTR,
            "ready": {"type": "array", "description": "Ready intervals [from, to] (to null: until the end)",
                      "items": {"type": "array", "prefixItems": [_NUM, _NNUM], "minItems": 2, "maxItems": 2}}}),
        "RolloutCount": _obj(["t", "desired", "old", "new", "ready", "available", "terminating"], {
            "t": _NUM, "desired": _INT,
            "old": {"type": "integer", "description": "old Pods not being deleted"},
            "new": {"type": "integer", "description": "new Pods not being deleted"},
            "ready": _INT, "available": _INT,
            "terminating": {"type": "integer", "description": "deleted Pods whose containers have not all "
                                                             "stopped"}}),
    }
