"""The OpenAPI 3.1 description of the JSON API, built as a dict (served at /api/v1/openapi.json).

Schemas are JSON Schema 2020-12 (what OpenAPI 3.1 uses), so a client can validate answers with
any JSON Schema library; the test suite validates real answers against them.
"""
from __future__ import annotations

from typing import Any

from explainer.lifecycle import defaults as d
from explainer.lifecycle.kubelet.trace import EVENT_TYPES
from explainer.lifecycle.traffic.states import TRAFFIC_STATES, WINDOW_REASONS
from explainer.render.jsonable import SCHEMA_VERSION
from explainer.web.openapi.observed import observed_schema
from explainer.web.openapi.rollout import rollout_schemas
from explainer.web.openapi.sharing import sharing_schema

ERROR_KINDS = ["syntax", "structure", "validation", "schema", "limit", "scenario", "input", "schema-only"]
ROLES = ["init", "sidecar", "app", "ephemeral"]
SEVERITIES = ["error", "warning", "info"]

DESCRIPTION = """\
Explain Kubernetes Pod manifests (how the kubelet starts, runs and stops the Pod) and store
them as permalinks.

**Bodies.** JSON objects `{manifest, scenario, kubernetesVersion, observed}`: `manifest` is the YAML or
JSON text of a Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet, Job or CronJob (several
documents allowed); `scenario` is the what-if document as an object or as YAML text;
`kubernetesVersion` is one of the supported minor versions; `observed` (optional) is kubectl's
output, which each Pod's `observed` compares with the prediction. A form body
(`application/x-www-form-urlencoded`) with the same field names works too.

**Bad input versus an invalid Pod.** `POST /api/v1/explain` answers **400** when the input
itself cannot be explained: errors of kind `syntax`, `structure`, `limit`, `scenario` or
`input` (unreadable YAML, no object where one is needed, a limit exceeded, a bad scenario).
When the manifest can be read but the API server would reject a Pod (errors of kind
`validation` or `schema`), the request is a valid question about an invalid Pod: the answer is
**200** with the full contract, those errors in `errors` and `pods[].errors`, and the Pod with
`admitted: false`.

**Errors** are always JSON: `{"error": message, "errors": [records]}` with 400 (bad JSON or
input), 403 (wrong delete token, failed CSRF check), 404 (unknown id or endpoint), 405 (wrong
method), 409 (credentials found: decide with `secrets`), 413 (body or manifest too large),
429 (too many permalinks created from one client).

**CSRF.** Clients without cookies (command-line tools, CI) send no CSRF token. A request that
carries the site's `csrftoken` cookie (a browser session) must send the matching
`X-CSRFToken` header, as every form of the site does.
"""


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    t = schema.get("type")
    if isinstance(t, str):
        return {**schema, "type": [t, "null"]}
    return {"anyOf": [schema, {"type": "null"}]}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _obj(required: list[str], properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "required": required, "properties": properties, **extra}


STR, INT, NUM, BOOL = {"type": "string"}, {"type": "integer"}, {"type": "number"}, {"type": "boolean"}
NSTR, NINT = _nullable(STR), _nullable(INT)
VERSION = {"type": "string", "enum": list(d.SUPPORTED_VERSIONS), "default": d.DEFAULT_VERSION}
OBSERVED_TEXT = {"type": "string", "description": "What the cluster shows, compared with the prediction: kubectl's "
                                                  "output pasted as it is (get pod -o yaml|json, get events, "
                                                  "describe pod, get pod; several together). Each Pod of the answer "
                                                  "gets observed; a manifest with a status is its own."}


def _schemas() -> dict[str, Any]:
    names = {"type": "array", "items": STR}
    return {
        "ErrorRecord": _obj(["message", "kind"], {
            "message": STR, "line": NINT, "column": NINT, "path": NSTR,
            "kind": {"type": "string", "enum": ERROR_KINDS,
                     "description": "Who objects: the YAML reader (syntax), the shape of the manifest "
                                    "(structure), the API server (validation), the OpenAPI schema of the "
                                    "version (schema), our bounds (limit), the scenario, or the request; "
                                    "in warnings, schema-only: a field only the published schema requires."},
            "reason": NSTR, "document": NINT, "pod": NSTR}),
        "Error": _obj(["error"], {
            "error": {"type": "string", "description": "What went wrong, in one sentence."},
            "errors": {"type": "array", "items": _ref("ErrorRecord")},
            "secrets": {"type": "array", "description": "409 only: where the manifest seems to hold credentials.",
                        "items": _obj(["line", "what"], {"line": INT, "what": STR})}}),
        "Scenario": {
            "description": "The what-if document: how each container behaves and what happens to the Pod "
                           "(deleteAt, deleteGracePeriodSeconds, sandboxLostAt, until, containers, debug, "
                           "featureGates, imageUpdates, crashLoopBackOff, kubernetesVersion, trafficPropagationSeconds, "
                           "rollout). As an object, or as YAML text.",
            "oneOf": [{"type": "object"}, {"type": "string"}, {"type": "null"}]},
        "ExplainRequest": _obj(["manifest"], {
            "manifest": {"type": "string", "description": "YAML or JSON text of the manifest."},
            "scenario": _ref("Scenario"),
            "kubernetesVersion": VERSION,
            "observed": OBSERVED_TEXT}),
        "PermalinkRequest": {"allOf": [_ref("ExplainRequest"), {"type": "object", "properties": {
            "secrets": {"type": "string", "enum": ["redact", "keep"],
                        "description": "What to do when the manifest seems to hold credentials: store it "
                                       "with those values replaced by <redacted>, or as it is. Without it, "
                                       "such a manifest is answered with 409."}}}]},
        "PermalinkCreated": _obj(["id", "url"], {
            "id": {"type": "string", "pattern": "^[A-Za-z0-9_-]{12}$"},
            "url": {"type": "string", "format": "uri", "description": "The page of the permalink."},
            "redacted": BOOL,
            "deleteToken": {"type": "string", "description": "Only in the 201 answer that first stored the "
                                                             "input: keep it to delete the link."}}),
        "DeleteRequest": _obj(["deleteToken"], {"deleteToken": STR}),
        "Permalink": _obj(["id", "kind", "created", "url"], {
            "id": STR, "kind": {"type": "string", "enum": ["explain", "compare"]},
            "created": {"type": "string", "format": "date-time"},
            "url": {"type": "string", "format": "uri"},
            "manifest": STR, "scenario": _nullable({"type": "object"}), "kubernetesVersion": VERSION,
            "redacted": BOOL, "observed": _nullable({**OBSERVED_TEXT, "description": "the observed output stored "
                                                                               "with the link"}),
            "explanation": _ref("Explanation"),
            "left": {"type": "string", "description": "compare: the permalink of the first manifest"},
            "right": {"type": "string", "description": "compare: the permalink of the second manifest"},
            "leftUrl": NSTR, "rightUrl": NSTR,
            "comparison": _nullable({"type": "object", "description": "compare: the differences (summary "
                                                                      "sentences, findings new/fixed/unchanged, "
                                                                      "sharing changes, start times, and what "
                                                                      "the two runs' events differ in: each "
                                                                      "container's moments, roles, the grace "
                                                                      "period and the deletion, the STATUS "
                                                                      "column); null when a side was deleted"})}),
        "Explanation": _obj(["schemaVersion", "kubernetesVersion", "pods", "skipped", "errors"], {
            "schemaVersion": {"const": SCHEMA_VERSION},
            "kubernetesVersion": VERSION,
            "pods": {"type": "array", "items": _ref("Pod")},
            "skipped": {"type": "array", "items": _obj(["kind", "reason"], {
                "document": INT, "kind": STR, "name": NSTR, "line": NINT, "reason": STR})},
            "errors": {"type": "array", "items": _ref("ErrorRecord"),
                       "description": "Every error, those of the Pods included."},
            "warnings": {"type": "array", "items": _ref("ErrorRecord"),
                         "description": "What only the published OpenAPI schema objects to (a field it requires "
                                        "and the API server does not): the Pod is still explained."},
            "nothingToExplain": {"type": "boolean", "description": "true: the input holds no object at all "
                                                                   "(empty, only comments or ---)."},
            "findings": {"type": "array", "items": _ref("InputFinding"),
                         "description": "Findings about an object of the input that holds no Pod (a Service: "
                                        "service-selects-no-pod, service-target-port-missing), once per input; "
                                        "in answers of the server at most 50 of one rule (findingsFolded)."},
            "suppressedFindings": {"type": "array", "items": {"allOf": [_ref("InputFinding"),
                                                                        _ref("SuppressedFinding")]},
                                   "description": "Those silenced by an ignore-check.podlife.io/<rule-id> "
                                                  "annotation on their object."},
            "findingsFolded": {"type": "array", "items": _ref("Folded"), "description": "Only when a rule found "
                               "more than 50 things in the input: the rule, the findings kept, how many there were."},
            "suppressedFindingsFolded": {"type": "array", "items": _ref("Folded")},
            "answerTruncated": _obj(["limit", "cuts"], {
                "limit": INT, "cuts": {"type": "array", "items": _obj(["path", "kept", "of"], {
                    "path": STR, "kept": INT, "of": INT, "lastKeptT": _nullable(NUM)})}},
                description="Only when the answer would be larger than the server's limit (5 MiB by default): "
                            "the tails of the longest events/statusTimeline lists were left out, then, while it "
                            "was still larger, of the longest other lists (path names each); restartCounts "
                            "and finalPhase are always complete.")}),
        "Pod": _obj(["name", "source", "admitted", "containers", "events", "statusTimeline", "finalPhase",
                     "restartCounts", "errors", "notes", "sharing", "findings"], {
            "name": STR,
            "source": _obj(["document", "kind"], {"document": INT, "kind": STR, "name": NSTR, "line": NINT}),
            "admitted": {"type": "boolean", "description": "false: the API server would reject the Pod, so it "
                                                            "is not simulated (no events)."},
            "restartPolicy": NSTR, "terminationGracePeriodSeconds": _nullable(NUM),
            "qosClass": _nullable({"type": "string", "enum": ["Guaranteed", "Burstable", "BestEffort"],
                                   "description": "The QoS class the API server stores in status.qosClass, "
                                                  "computed as ComputePodQOS does: requests default to "
                                                  "limits; with pod-level resources (1.32+, gate on) "
                                                  "spec.resources decides."}),
            "containers": {"type": "array", "items": _ref("Container")},
            "events": {"type": "array", "items": _ref("Event")},
            "statusTimeline": {"type": "array", "items": _ref("StatusPoint")},
            "finalPhase": _nullable({"type": "string", "enum": ["Pending", "Running", "Succeeded", "Failed",
                                                                "Unknown"]}),
            "restartCounts": {"type": "object", "additionalProperties": INT},
            "errors": {"type": "array", "items": _ref("ErrorRecord")},
            "warnings": {"type": "array", "items": _ref("ErrorRecord")},
            "notes": names,
            "sharing": _ref("Sharing"),
            "findings": {"type": "array", "items": _ref("Finding"),
                         "description": "In answers of the server, at most 50 findings of one rule per Pod: "
                                        "findingsFolded says how many there were."},
            "suppressedFindings": {"type": "array", "items": _ref("SuppressedFinding"),
                                   "description": "Findings silenced by an ignore-check.podlife.io/<rule-id> "
                                                  "annotation, with its reason."},
            "findingsFolded": {"type": "array", "items": _ref("Folded"),
                               "description": "Only when a rule found more than 50 things in this Pod: the "
                                              "rule, the findings kept (the first), and how many there were."},
            "suppressedFindingsFolded": {"type": "array", "items": _ref("Folded")},
            "rollout": {"anyOf": [{"type": "null"}, _ref("Rollout")],
                        "description": "Deployments, StatefulSets and DaemonSets: kubectl rollout restart as the "
                                       "controller does it; null for other kinds and for Pods not admitted"},
            "observed": _ref("Observed"),
            "traffic": _nullable(_ref("Traffic")),
            "endTime": NUM, "until": NUM, "truncated": BOOL,
            "statusTimelineFolds": {"type": "array", "items": _obj(["from", "to", "period", "pointsLeftOut"], {
                "from": NUM, "to": NUM, "period": NUM, "pointsLeftOut": INT}),
                "description": "Steady crash loops the simulation jumped over whose status points were not all "
                               "kept (past 20,000 points): after from and up to to, the status repeats every period "
                               "seconds, and those pointsLeftOut points are not listed; restart counts stay exact."},
            "dependencies": {"type": "array", "items": _obj(["container", "waitsFor", "condition", "guaranteed"], {
                "container": STR, "waitsFor": STR, "condition": STR, "guaranteed": BOOL})}}),
        "Observed": observed_schema(),
        "Container": _obj(["name", "role"], {
            "name": STR, "role": {"type": "string", "enum": ROLES}, "index": NINT, "image": NSTR,
            "line": NINT, "path": NSTR, "target": NSTR,
            "assumed": {"type": "object", "additionalProperties": STR,
                        "description": "Scenario fields the engine assumed, and why."}}),
        "Event": _obj(["t", "container", "type"], {
            "t": {"type": "number", "description": "seconds since the Pod was scheduled"},
            "container": _nullable({"type": "string", "description": "null for Pod-level events"}),
            "type": {"type": "string", "enum": list(EVENT_TYPES)},
            "restartCount": NINT, "exitCode": NINT, "reason": NSTR, "message": STR, "assumed": BOOL}),
        "StatusPoint": _obj(["t", "status", "phase", "ready"], {
            "t": NUM, "status": {"type": "string", "description": "kubectl's STATUS column"},
            "phase": STR, "ready": BOOL,
            "readyContainers": {"type": "string", "description": "kubectl's READY column, e.g. 1/2"},
            "restarts": INT, "initialized": BOOL}),
        "Finding": _obj(["id", "severity", "title", "explanation"], {
            "id": STR, "severity": {"type": "string", "enum": SEVERITIES}, "container": NSTR, "path": NSTR,
            "line": NINT, "title": STR, "explanation": STR, "fix": STR,
            "fixable": {"type": "boolean", "description": "whether the fix applies without a human choice "
                        "(`podlife explain --fix`, the page's Apply fix); false: it needs a person"},
            "references": names}),
        "InputFinding": {"allOf": [_ref("Finding"), _obj(["object"], {
            "object": _obj(["kind", "name", "document"], {"kind": STR, "name": STR, "document": INT},
                           description="The object the finding is about (a Service), and its 0-based document.")})]},
        **_traffic_schemas(),
        "SuppressedFinding": {"allOf": [_ref("Finding"), _obj(["suppression"], {
            "suppression": _obj(["kind", "rule", "reason"], {
                "kind": {"type": "string", "enum": ["annotation"]}, "rule": STR, "reason": STR,
                "path": STR, "line": NINT})})]},
        "Folded": _obj(["id", "kept", "of"], {"id": STR, "kept": INT, "of": INT}),
        "Sharing": sharing_schema(),
        **rollout_schemas(),
    }


def _traffic_schemas() -> dict[str, Any]:
    """`pods[].traffic` (docs/lifecycle-model.md §27); times in seconds on the Pod's axis, `to: null` = open."""
    until = _nullable({"type": "number", "description": "seconds; null: to the end of the simulation"})
    return {"Traffic": _obj(["propagationSeconds", "intervals", "failureWindows"], {
        "propagationSeconds": {"type": "number", "description": "how long an endpoint change takes to reach "
                               "kube-proxy, ingress controllers and load balancers (trafficPropagationSeconds)"},
        "propagationAssumed": {"type": "boolean", "description": "true: the scenario does not say; the model's "
                                                                 "default"},
        "services": {"type": "array", "items": STR, "description": "the Services of the input that select the "
                                                                   "Pod; [\"\"] when one is assumed"},
        "serviceAssumed": {"type": "boolean", "description": "no Service of the input selects this long-running "
                                                             "Pod that declares a port: one is assumed"},
        "otherReadyReplicas": {"type": "integer", "description": "other ready Pods serving the Service while this "
                               "one goes (rollout.otherReadyReplicas; default: the workload's replicas - 1, a bare "
                               "Pod 0); with none, kube-proxy keeps using a serving terminating endpoint (KEP-1669)"},
        "publishNotReadyAddresses": BOOL,
        "deletionAt": _nullable({"type": "number", "description": "the deletion the lane shows"}),
        "deletionAssumed": {"type": "boolean", "description": "true: the scenario deletes nothing; the lane shows "
                                                              "the deletion the findings assume"},
        "containers": {"type": "array", "items": STR, "description": "the containers the requests are for"},
        "routes": {"type": "array", "items": _obj(["service", "container"], {
            "service": STR, "port": NINT, "targetPort": _nullable({"type": ["integer", "string"]}),
            "container": _nullable({"type": "string", "description": "null: a named targetPort no container "
                                                                     "declares (no endpoint port)"})})},
        "intervals": {"type": "array", "items": _obj(["from", "to", "state"], {
            "from": NUM, "to": until,
            "state": {"type": "string", "enum": list(TRAFFIC_STATES),
                      "description": "as the proxies see the Pod: not-ready, serving, draining (out of the "
                                     "endpoints, the change still on its way), gone"}})},
        "endpoints": {"type": "array", "description": "the Pod's endpoint in the EndpointSlice (discovery/v1): "
                                                      "its conditions over time, while it is listed",
                      "items": _obj(["from", "to", "ready", "serving", "terminating"], {
                          "from": NUM, "to": until, "ready": BOOL, "serving": BOOL, "terminating": BOOL})},
        "failureWindows": {"type": "array", "description": "requests may arrive while nothing listens",
                           "items": _obj(["from", "to", "reason"], {
                               "from": NUM, "to": NUM, "container": NSTR,
                               "reason": {"type": "string", "enum": list(WINDOW_REASONS),
                                          "description": "why nothing listens: it stopped at SIGTERM, was "
                                                         "killed, exited, or does not listen yet"}})},
        "notes": {"type": "array", "items": STR}})}


def _json(schema: str) -> dict[str, Any]:
    return {"application/json": {"schema": _ref(schema)}}


def _error(description: str) -> dict[str, Any]:
    return {"description": description, "content": _json("Error")}


def _body(schema: str, form_schema: dict[str, Any] | None = None) -> dict[str, Any]:
    content = _json(schema)
    if form_schema is not None:
        content["application/x-www-form-urlencoded"] = {"schema": form_schema}
    return {"required": True, "content": content}


_FORM = _obj(["manifest"], {"manifest": STR, "scenario": {"type": "string", "description": "YAML text"},
                            "kubernetesVersion": VERSION, "observed": OBSERVED_TEXT})
_PID = {"name": "id", "in": "path", "required": True, "schema": {"type": "string"},
        "description": "The permalink's id (the last part of /p/<id>/ or /c/<id>/)."}
_COMMON = {"405": _error("Method not allowed (the Allow header lists the right ones)."),
           "413": _error("The request body is larger than 4 × the manifest limit, or the manifest is larger "
                         "than its limit.")}


def _paths() -> dict[str, Any]:
    return {
        "/api/v1/explain": {"post": {
            "operationId": "explain", "summary": "Explain a manifest (the CLI's JSON contract)",
            "requestBody": _body("ExplainRequest", _FORM),
            "responses": {
                "200": {"description": "The explanation; Pods the API server would reject have admitted: false "
                                       "and their validation/schema errors.", "content": _json("Explanation")},
                "400": _error("The input cannot be explained: bad JSON, no manifest, YAML syntax, structure, "
                              "limit or scenario errors (all in errors)."),
                "403": _error("A browser request with the CSRF cookie but no valid X-CSRFToken header."),
                **_COMMON}}},
        "/api/v1/permalinks": {"post": {
            "operationId": "createPermalink", "summary": "Store an input as a permalink (idempotent)",
            "description": "The id is an HMAC of the canonical input keyed with the server's secret: the same "
                           "input gives the same id, and nobody without the key can compute the id of an input. "
                           "Only the request that first stores it receives the delete token.",
            "requestBody": _body("PermalinkRequest", _FORM),
            "responses": {
                "201": {"description": "Stored now: with the delete token (shown once).",
                        "headers": {"Location": {"schema": {"type": "string"},
                                                 "description": "The API URL of the new permalink."}},
                        "content": _json("PermalinkCreated")},
                "200": {"description": "This exact input was stored before: same id, no token.",
                        "content": _json("PermalinkCreated")},
                "400": _error("Bad JSON, no manifest, a bad scenario or an unsupported version."),
                "403": _error("A browser request with the CSRF cookie but no valid X-CSRFToken header."),
                "409": _error("The manifest seems to hold credentials (listed in secrets): repeat the request "
                              "with secrets set to redact or keep."),
                "422": _error("secrets was redact, but a credential could not be taken out safely (it is also "
                              "written as part of the manifest's structure): nothing was stored."),
                "503": _error("The database is full, busy past its time-out, or cannot be reached (storage: full, busy or "
                              "unavailable)."),
                **_COMMON,
                "413": _error("The manifest is larger than the limit for stored input (256 KiB by default)."),
                "429": _error("Too many links created from this client in the current window (shared with "
                              "the site's Share button).")}}},
        "/api/v1/permalinks/{id}": {
            "parameters": [_PID],
            "get": {
                "operationId": "getPermalink", "summary": "Read a permalink and its explanation",
                "responses": {"200": {"description": "The stored input and its explanation (recomputed: "
                                                     "improvements to the model reach old links).",
                                      "content": _json("Permalink")},
                              "404": _error("No such permalink (never existed, or deleted)."),
                              "405": _COMMON["405"],
                              "429": _error("Too many ids that name no permalink were asked for from this "
                                            "client (then every read is refused until the window ends), or too "
                                            "many answers that had to be computed afresh (Retry-After says "
                                            "when to ask again)."),
                              "503": _error("The database cannot be reached.")}},
            "delete": {
                "operationId": "deletePermalink", "summary": "Delete a permalink with its delete token",
                "parameters": [{"name": "X-Delete-Token", "in": "header", "required": False,
                                "schema": {"type": "string"},
                                "description": "The delete token (or send it as deleteToken in a JSON body)."}],
                "requestBody": {"required": False, "content": _json("DeleteRequest")},
                "responses": {"204": {"description": "Deleted: the link now answers 404."},
                              "400": _error("No delete token sent."),
                              "403": _error("The token does not match (or a failed CSRF check)."),
                              "404": _error("No such permalink."),
                              "405": _COMMON["405"]}}},
        "/api/v1/openapi.json": {"get": {
            "operationId": "openapi", "summary": "This description",
            "responses": {"200": {"description": "OpenAPI 3.1", "content": {
                "application/json": {"schema": {"type": "object"}}}}}}},
    }


def openapi_document(server: str = "") -> dict[str, Any]:
    """The whole description; ``server`` is the site's absolute root URL when known."""
    return {
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
        "info": {"title": "Pod Lifecycle Explainer API", "version": "1.0.0",
                 "summary": "Explain Kubernetes Pod manifests and share them as permalinks.",
                 "description": DESCRIPTION},
        "servers": [{"url": server or "/"}],
        "paths": _paths(),
        "components": {"schemas": _schemas()},
    }
