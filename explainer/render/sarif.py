"""SARIF 2.1.0 for code-scanning tools: one run, one rule per finding id, results at file and line.

Pure: takes (path as given, Explanation) pairs and returns a JSON-ready dict.  Findings become
results of their rule; input problems (ErrorRecord) become results of four input rules, by kind.
"""
from __future__ import annotations

import hashlib
import re
from importlib import metadata
from typing import Any
from urllib.parse import quote

from ..explain import Explanation
from ..findings import catalogue
from ..lifecycle.defaults import DOCS
from ..lifecycle.errors import ErrorRecord

TOOL_NAME = "pod-lifecycle-explainer"
SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
FINGERPRINT = "podLifecycle/v1"
STDIN_URI = "stdin"
LEVELS = {"error": "error", "warning": "warning", "info": "note"}
TAGS = ["kubernetes", "pod-lifecycle"]

# ErrorRecord.kind -> the input rule its results belong to.
INPUT_RULE_OF_KIND = {
    "syntax": "manifest-syntax", "structure": "manifest-syntax", "limit": "manifest-syntax",
    "validation": "api-server-validation", "schema": "schema-validation", "scenario": "scenario",
    "schema-only": "schema-validation",
}
INPUT_RULES: list[dict[str, str]] = [
    {"id": "manifest-syntax", "title": "The manifest cannot be read",
     "what": "The input is not a readable Kubernetes manifest: a YAML or JSON syntax error, a field of "
             "the wrong shape, binary data, or a size, depth or alias limit exceeded.",
     "why": "Nothing in the file can be explained until it parses; kubectl would refuse it too.",
     "fix": "Correct the file at the line given (indentation, quotes, brackets, the field's type).",
     "uri": DOCS["pod-lifecycle"]},
    {"id": "api-server-validation", "title": "The API server would reject this Pod",
     "what": "A field the API server validates before anything runs (a probe or hook on a plain init "
             "container, an unsupported restartPolicy, duplicate names, ephemeral containers at creation).",
     "why": "The Pod is never created, so none of its containers ever starts.",
     "fix": "Change the field named in the message as the API server's reason says.",
     "uri": DOCS["pod-lifecycle"]},
    {"id": "schema-validation", "title": "Not valid for the target Kubernetes version",
     "what": "The document does not match the Kubernetes OpenAPI schema of the chosen version "
             "(an unknown field, a wrong type, a missing required field).",
     "why": "kubectl's server-side validation rejects the object, or silently drops unknown fields.",
     "fix": "Use the field names and types of the target version, or target a newer version.",
     "uri": DOCS["pod-lifecycle"]},
    {"id": "scenario", "title": "The scenario cannot be used",
     "what": "The scenario document (how containers behave, deletion, debug) has a bad value or names "
             "a container the manifest does not have.",
     "why": "The simulation cannot run with a scenario it cannot read.",
     "fix": "Correct the scenario field named in the message.",
     "uri": DOCS["pod-lifecycle"]},
]


def tool_version() -> str:
    try:
        return metadata.version(TOOL_NAME)
    except metadata.PackageNotFoundError:
        return "0.0.0"


def camel_case(rule_id: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", rule_id) if part)


def artifact_uri(path: str) -> str:
    """The path as given, with forward slashes, as a relative URI reference ("stdin" for -)."""
    if path == "-":
        return STDIN_URI
    return quote(path.replace("\\", "/"), safe="/:")


def _mime_type(path: str) -> str:
    return "application/json" if path.lower().endswith(".json") else "application/yaml"


def fingerprint(rule_id: str, pod: str | None, container: str | None, path: str | None) -> str:
    key = "\x1f".join(x or "" for x in (rule_id, pod, container, path))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


def to_sarif(files: list[tuple[str, Explanation]], *, execution_successful: bool = True) -> dict[str, Any]:
    """The SARIF log for every (path, explanation) pair, as one run."""
    rules = _rules()
    index = {r["id"]: i for i, r in enumerate(rules)}
    artifacts: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    for n, (path, expl) in enumerate(files):
        artifacts.append({"location": {"uri": artifact_uri(path)}, "mimeType": _mime_type(path)})
        kinds = {(r.pod.source.document, r.pod.name): r.pod.source.kind for r in expl.pods}
        for report in expl.pods:
            for f in report.findings:
                results.append(_finding_result(f.to_dict(), report.pod.source.kind, report.pod.name,
                                               path, n, rules, index))
            for silenced in report.suppressed:
                result = _finding_result(silenced.finding.to_dict(), report.pod.source.kind, report.pod.name,
                                         path, n, rules, index)
                # SARIF 2.1.0, section 3.35: an in-source suppression, with the annotation's reason as justification.
                result["suppressions"] = [{"kind": "inSource", "status": "accepted",
                                           "justification": silenced.suppression.reason,
                                           "location": _location(path, n, silenced.suppression.line, None,
                                                                 report.pod.source.kind, report.pod.name,
                                                                 None)}]
                results.append(result)
        for inp in expl.findings:   # about a Service, not a Pod: its logical location is the Service
            results.append(_finding_result(inp.finding.to_dict(), inp.kind, inp.name, path, n, rules, index))
        for quiet in expl.suppressed:
            result = _finding_result(quiet.finding.finding.to_dict(), quiet.finding.kind, quiet.finding.name,
                                     path, n, rules, index)
            result["suppressions"] = [{"kind": "inSource", "status": "accepted",
                                       "justification": quiet.suppression.reason,
                                       "location": _location(path, n, quiet.suppression.line, None,
                                                             quiet.finding.kind, quiet.finding.name, None)}]
            results.append(result)
        for e in expl.errors:
            kind = kinds.get((e.document, e.pod), "Pod") if e.pod else None
            results.append(_error_result(e, kind, path, n, rules, index))
        for w in expl.warnings:   # only the published schema objects: a warning of the schema rule
            kind = kinds.get((w.document, w.pod), "Pod") if w.pod else None
            results.append({**_error_result(w, kind, path, n, rules, index), "level": "warning"})
    driver = {"name": TOOL_NAME, "informationUri": DOCS["pod-lifecycle"], "semanticVersion": tool_version(),
              "version": tool_version(), "rules": rules}
    run = {"tool": {"driver": driver}, "invocations": [{"executionSuccessful": execution_successful}],
           "artifacts": artifacts, "columnKind": "unicodeCodePoints", "results": results}
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def _rules() -> list[dict[str, Any]]:
    rules = [_finding_rule(entry) for entry in catalogue()]
    rules += [_input_rule(r) for r in INPUT_RULES]
    return rules


def _plain(value: Any) -> str:
    """Catalogue text as a plain string, whether it is a str or a renderable object."""
    if value is None:
        return ""
    return value.render() if hasattr(value, "render") else str(value)


def _finding_rule(entry: dict[str, Any]) -> dict[str, Any]:
    what, why, fix = _plain(entry.get("what")), _plain(entry.get("why")), _plain(entry.get("fix"))
    example = _plain(entry.get("example")).rstrip("\n")
    refs = [_plain(r) for r in entry.get("references") or []]
    text = "\n\n".join(p for p in (what, why, f"Fix: {fix}" if fix else "") if p)
    markdown = "\n\n".join(p for p in (
        what, why, f"**Fix:** {fix}" if fix else "",
        f"```yaml\n{example}\n```" if example else "",
        "\n".join(f"- <{r}>" for r in refs)) if p)
    rule: dict[str, Any] = {
        "id": entry["id"], "name": camel_case(entry["id"]),
        "shortDescription": {"text": _plain(entry.get("title")) or entry["id"]},
        "fullDescription": {"text": what or _plain(entry.get("title")) or entry["id"]},
        "help": {"text": text or entry["id"], "markdown": markdown or entry["id"]},
        "defaultConfiguration": {"level": LEVELS.get(_plain(entry.get("severity")), "warning")},
        "properties": {"tags": list(TAGS), "severity": _plain(entry.get("severity"))},
    }
    if refs:
        rule["helpUri"] = refs[0]
    return rule


def _input_rule(r: dict[str, str]) -> dict[str, Any]:
    text = f"{r['what']}\n\n{r['why']}\n\nFix: {r['fix']}"
    return {"id": r["id"], "name": camel_case(r["id"]), "shortDescription": {"text": r["title"]},
            "fullDescription": {"text": r["what"]},
            "help": {"text": text, "markdown": f"{r['what']}\n\n{r['why']}\n\n**Fix:** {r['fix']}"},
            "helpUri": r["uri"], "defaultConfiguration": {"level": "error"},
            "properties": {"tags": list(TAGS) + ["input"], "severity": "error"}}


def _rule_index(rule_id: str, rules: list[dict[str, Any]], index: dict[str, int]) -> int:
    """The rule's index, adding a bare rule for an id the catalogue does not know."""
    if rule_id not in index:
        index[rule_id] = len(rules)
        rules.append({"id": rule_id, "name": camel_case(rule_id), "shortDescription": {"text": rule_id},
                      "properties": {"tags": list(TAGS)}})
    return index[rule_id]


def _location(path: str, n: int, line: int | None, column: int | None,
              kind: str | None, pod: str | None, container: str | None) -> dict[str, Any]:
    region: dict[str, Any] = {"startLine": line if line and line > 0 else 1}
    if line and column and column > 0:
        region["startColumn"] = column
    loc: dict[str, Any] = {"physicalLocation": {"artifactLocation": {"uri": artifact_uri(path), "index": n},
                                                "region": region}}
    if pod:
        qualified = f"{kind or 'Pod'}/{pod}" + (f"/containers/{container}" if container else "")
        loc["logicalLocations"] = [{"fullyQualifiedName": qualified, "name": container or pod,
                                    "kind": "resource"}]
    return loc


def _finding_result(f: dict[str, Any], kind: str, pod: str, path: str, n: int,
                    rules: list[dict[str, Any]], index: dict[str, int]) -> dict[str, Any]:
    explanation, fix = _plain(f.get("explanation")), _plain(f.get("fix")).rstrip("\n")
    text = explanation + (f"\nFix:\n{fix}" if fix else "")
    markdown = explanation + (f"\n\n**Fix:**\n\n```yaml\n{fix}\n```" if fix else "")
    severity = _plain(f.get("severity"))
    return {
        "ruleId": f["id"], "ruleIndex": _rule_index(f["id"], rules, index),
        "level": LEVELS.get(severity, "warning"), "kind": "fail",
        "message": {"text": text or _plain(f.get("title")), "markdown": markdown or _plain(f.get("title"))},
        "locations": [_location(path, n, f.get("line"), None, kind, pod, f.get("container"))],
        "partialFingerprints": {FINGERPRINT: fingerprint(f["id"], pod, f.get("container"), f.get("path"))},
        "properties": {"severity": severity, "title": _plain(f.get("title")), "pod": pod, "kind": kind,
                       "container": f.get("container"), "path": f.get("path"),
                       "references": [_plain(r) for r in f.get("references") or []]},
    }


def _error_result(e: ErrorRecord, kind: str | None, path: str, n: int,
                  rules: list[dict[str, Any]], index: dict[str, int]) -> dict[str, Any]:
    rule_id = INPUT_RULE_OF_KIND.get(e.kind, "manifest-syntax")
    message = e.message + (f" (field {e.path})" if e.path and e.path not in e.message else "")
    return {
        "ruleId": rule_id, "ruleIndex": _rule_index(rule_id, rules, index), "level": "error", "kind": "fail",
        "message": {"text": message},
        "locations": [_location(path, n, e.line, e.column, kind, e.pod, None)],
        "partialFingerprints": {FINGERPRINT: fingerprint(rule_id, e.pod, None, e.path or e.message)},
        "properties": {"kind": e.kind, "path": e.path, "reason": e.reason, "document": e.document,
                       "pod": e.pod},
    }
