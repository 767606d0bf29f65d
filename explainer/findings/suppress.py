"""Silencing findings a team has accepted: the ``ignore-check.podlife.io/<rule-id>`` annotation.

As kube-linter's ``ignore-check.kube-linter.io/<check>``: an annotation on the object, or on any
metadata between the object and its Pod spec (a CronJob's jobTemplate, a workload's Pod template),
silences that rule for the Pods it holds.  Its value is the reason, shown in JSON and SARIF.  A
silenced finding is not dropped: it moves aside with its reason, so reports can still show it.
An annotation that names no rule is reported, so a typo does not pass for a silenced check.
"""
from __future__ import annotations

from typing import Any

from explainer.lifecycle.model import Pod, ServiceRef
from explainer.lifecycle.manifest.yamlload import format_path, position

from .base import Finding
from .inputs import InputFinding
from explainer.lifecycle.records import record

PREFIX = "ignore-check.podlife.io/"


@record
class Suppression:
    """One annotation that silences ``rule`` for a Pod: where it stands and the reason it gives."""

    rule: str
    reason: str
    path: str                # metadata.annotations["ignore-check.podlife.io/<rule>"] as a field path
    line: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "annotation", "rule": self.rule, "reason": self.reason, "path": self.path,
                "line": self.line}


@record
class Suppressed:
    """A finding that an annotation silenced."""

    finding: Finding
    suppression: Suppression

    def to_dict(self) -> dict[str, Any]:
        return {**self.finding.to_dict(), "suppression": self.suppression.to_dict()}


@record
class SuppressedInput:
    """A finding about a Service that an annotation on the Service silenced."""

    finding: InputFinding
    suppression: Suppression

    def to_dict(self) -> dict[str, Any]:
        return {**self.finding.to_dict(), "suppression": self.suppression.to_dict()}


def suppressions(pod: Pod) -> list[Suppression]:
    """The podlife ignore annotations on the object that holds ``pod`` and on its templates,
    outermost first (the object's own annotation wins when the template repeats a rule)."""
    found: dict[str, Suppression] = {}
    for end, segment in enumerate(pod.spec_path):
        if segment == "spec":
            _annotations(pod.raw, tuple(pod.spec_path[:end]), found)
    return list(found.values())


def service_suppressions(service: ServiceRef) -> list[Suppression]:
    """The podlife ignore annotations on a Service (for the findings about it: inputs.py)."""
    found: dict[str, Suppression] = {}
    if service.raw is not None:
        _annotations(service.raw, tuple(service.at), found)
    return list(found.values())


def _annotations(root: Any, obj: tuple[Any, ...], found: dict[str, Suppression]) -> None:
    at = obj + ("metadata", "annotations")
    annotations = _get(root, at)
    if not isinstance(annotations, dict):
        return
    for key, value in annotations.items():
        if isinstance(key, str) and key.startswith(PREFIX):
            rule = key[len(PREFIX):]
            where = f'{format_path(at)}["{key}"]'
            found.setdefault(rule, Suppression(rule, "" if value is None else str(value), where,
                                               position(root, at + (key,))[0]))


def split(findings: list[Finding], rules: list[Suppression]) -> tuple[list[Finding], list[Suppressed]]:
    """(findings still in force, findings silenced by one of ``rules``)."""
    by_rule = {s.rule: s for s in rules}
    kept = [f for f in findings if f.id not in by_rule]
    silenced = [Suppressed(f, by_rule[f.id]) for f in findings if f.id in by_rule]
    return kept, silenced


def _get(node: Any, path: tuple[Any, ...]) -> Any:
    for segment in path:
        if not isinstance(node, dict) or segment not in node:
            return None
        node = node[segment]
    return node


def split_input(findings: list[InputFinding],
                services: tuple[ServiceRef, ...]) -> tuple[list[InputFinding], list[SuppressedInput]]:
    """(findings about Services still in force, those silenced by an annotation on their Service)."""
    by_service = {(s.document, s.name): {x.rule: x for x in service_suppressions(s)} for s in services}
    kept: list[InputFinding] = []
    silenced: list[SuppressedInput] = []
    for f in findings:
        rule = by_service.get((f.document, f.name), {}).get(f.id)
        if rule is None:
            kept.append(f)
        else:
            silenced.append(SuppressedInput(f, rule))
    return kept, silenced
