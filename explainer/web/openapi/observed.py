"""The OpenAPI schema of ``pods[].observed`` (docs/lifecycle-model.md §34-§36): every field described."""
from __future__ import annotations

from typing import Any

from explainer.lifecycle.observed.divergence import KINDS

_T = {"type": ["number", "null"], "description": "seconds from the Pod's start (status.startTime; with events "
                                                 "only, the Scheduled event); null where the paste cannot say"}
_NSTR = {"type": ["string", "null"]}
_NINT = {"type": ["integer", "null"]}
SOURCE_KINDS = ["pod", "events", "events-table", "describe", "pod-table", "fragment"]


def observed_schema() -> dict[str, Any]:
    def obj(required: list[str], properties: dict[str, Any], description: str) -> dict[str, Any]:
        return {"type": "object", "required": required, "properties": properties, "description": description}

    return obj(["sources", "kubectl", "restartCounts", "terminations", "events", "divergences", "unread"], {
        "sources": {"type": "array", "description": "The parts of the observed output read for this Pod, in order.",
                    "items": obj(["kind", "lines"], {
                        "kind": {"type": "string", "enum": SOURCE_KINDS,
                                 "description": "pod: kubectl get pod -o yaml|json (or the manifest itself, when it "
                                                "has a status); events: Events as objects (core/v1 or "
                                                "events.k8s.io); events-table: kubectl get events / kubectl events; "
                                                "describe: kubectl describe pod; pod-table: kubectl get pod; "
                                                "fragment: part of a status (lastState:, containerStatuses:)"},
                        "lines": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2,
                                  "description": "first and last line of the part (several observed texts are "
                                                 "numbered as one, in the order given; a manifest's own status: "
                                                 "the manifest's lines)"}}, "One part of the paste.")},
        "kubectl": {"anyOf": [obj(["ready", "status", "restarts"], {
            "ready": {"type": "string", "description": "READY, e.g. 1/2 (native sidecars count)"},
            "status": {"type": "string", "description": "STATUS: CrashLoopBackOff, Init:0/1, Completed, ..."},
            "restarts": {"type": "string", "description": "RESTARTS, e.g. 3 (10s ago); the moment of printing "
                                                          "is the paste's latest instant when it does not say"}},
            "kubectl's columns as printPod computes them from the latest status read (or the latest get pod "
            "row, when that is later)"), {"type": "null"}]},
        "restartCounts": {"type": "object", "additionalProperties": {"type": "integer"},
                          "description": "restartCount of each container in the latest status read"},
        "terminations": {"type": "array", "description": "Every termination the paste shows (each status keeps "
                                                         "only the last one of each container, lastState)",
                         "items": obj(["container", "exitCode", "signal", "reason", "startedAt", "finishedAt"], {
                             "container": _NSTR, "exitCode": _NINT, "signal": _NINT,
                             "reason": {**_NSTR, "description": "OOMKilled, Error, Completed, ..."},
                             "startedAt": _T, "finishedAt": _T}, "One termination.")},
        "events": {"type": "array", "description": "The Pod's events, read by reason (never by message "
                                                   "wording); one entry per merged series",
                   "items": obj(["t", "container", "type", "reason", "count", "firstT", "lastT"], {
                       "t": {**_T, "description": "when it first happened (firstT, else lastT)"},
                       "container": {**_NSTR, "description": "from involvedObject.fieldPath, or the Pod's only "
                                                             "container; null when the paste does not say"},
                       "type": {**_NSTR, "description": "Normal or Warning"},
                       "reason": {"type": "string", "description": "Scheduled, Pulling, Pulled, Created, Started, "
                                                                   "Killing, Unhealthy, BackOff, ..."},
                       "count": {"type": "integer", "description": "occurrences merged into this entry"},
                       "firstT": _T, "lastT": _T}, "One event, or a series of them.")},
        "divergences": {"type": "array", "description": "Where the cluster and the prediction differ, in time "
                                                        "order",
                        "items": obj(["t", "container", "kind", "predicted", "observed", "explanation",
                                      "reproducible"], {
                            "t": {**_T, "description": "when it starts to differ"},
                            "container": {**_NSTR, "description": "null for the Pod as a whole"},
                            "kind": {"type": "string", "enum": list(KINDS)},
                            "predicted": {**_NSTR, "description": "what the prediction shows, in a few words"},
                            "observed": {**_NSTR, "description": "what the cluster shows, in a few words"},
                            "explanation": {"type": "string", "description": "why, and what to do about it"},
                            "reproducible": {"type": "boolean",
                                             "description": "whether a scenario can make the prediction show it "
                                                            "(crash counts, probe failures, durations); the "
                                                            "explanation says how"}},
                            "One difference.")},
        "unread": {"type": "array", "description": "Lines of the observed output no reader could place (at most "
                                                   "200 are listed)",
                   "items": obj(["line", "text"], {"line": {"type": "integer"}, "text": {"type": "string"}},
                                "One line.")},
    }, "What the cluster shows (only when kubectl's output was given, or the manifest has a status): "
       "times in seconds from the Pod's start, null where unknown.")
