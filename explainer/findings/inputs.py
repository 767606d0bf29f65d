"""Findings about an object of the input that holds no Pod (a Service), not about one Pod.

A rule of this kind sets ``SCOPE = "input"`` and its ``check`` takes an `InputContext`: every Service and
every Pod (template) of the input.  `run_input_rules` runs them once per input; their findings go to the
answer's top-level ``findings`` (JSON, SARIF, text, GitHub annotations, JUnit), each naming its object, so
a CI user sees them with their line like any other.  `run_rules` (one Pod) leaves them out.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

from explainer.lifecycle.model import Pod, ServiceRef
from explainer.lifecycle.manifest.yamlload import parse_path, position

from .base import Draft, Finding, Severity
from .i18n import Text
from explainer.lifecycle.records import record

INPUT = "input"


def is_input_rule(rule: ModuleType) -> bool:
    return getattr(rule, "SCOPE", "pod") == INPUT


@record
class InputDraft:
    """What an input rule's ``check`` yields: the draft and the object it is about."""

    draft: Draft
    kind: str
    name: str
    document: int


@record
class InputFinding:
    """A finding about one object of the input (JSON: the top-level ``findings``)."""

    finding: Finding
    kind: str                      # Service
    name: str
    document: int

    @property
    def id(self) -> str:
        return self.finding.id

    @property
    def severity(self) -> Severity:
        return self.finding.severity

    @property
    def line(self) -> int | None:
        return self.finding.line

    @property
    def title(self) -> Text:
        return self.finding.title

    def to_dict(self) -> dict[str, Any]:
        """A finding's public JSON shape, plus the object it is about."""
        return {**self.finding.to_dict(), "object": {"kind": self.kind, "name": self.name,
                                                     "document": self.document}}

    def sort_key(self) -> tuple[int, int, str, str]:
        return (self.finding.severity.rank, self.line if self.line is not None else 1 << 30, self.id, self.name)


@dataclass
class InputContext:
    """Everything of the input the input rules read."""

    services: tuple[ServiceRef, ...]
    pods: tuple[Pod, ...]
    version: str

    def finding(self, rule_id: str, service: ServiceRef, path: str, explanation: Text, fix: str, *,
                line: int | None = None, severity: Severity | None = None) -> InputDraft:
        """What rule ``rule_id`` found in ``service``; ``path`` is the field's (spec.selector), and its line
        is looked up unless given."""
        if line is None and service.raw is not None:
            line = position(service.raw, tuple(service.at) + parse_path(path))[0]
        return InputDraft(Draft(rule_id, None, path, line if line is not None else service.line, explanation,
                                fix, severity), "Service", service.name, service.document)
