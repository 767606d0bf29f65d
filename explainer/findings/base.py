"""Finding, Severity and RuleContext: what every rule reads and what it yields."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum
from string import Template
from typing import Any, Callable

from explainer.lifecycle.model import Container, Pod, ServiceRef
from explainer.lifecycle.scenario import Behaviour, Scenario, behaviour_for
from explainer.lifecycle.simulate import Simulation
from explainer.lifecycle.yamlload import format_path, parse_path, position

from .i18n import Text, gettext_noop


class Severity(str, Enum):
    """How bad a finding is; ``rank`` orders them, worst first."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return _RANKS[self]

    def at_least(self, other: Severity) -> bool:
        """True when self is as bad as ``other`` or worse (for --fail-on)."""
        return self.rank <= other.rank


_RANKS = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


@dataclass(frozen=True, slots=True)
class Finding:
    id: str
    severity: Severity
    container: str | None
    path: str | None               # field path in the document: spec.initContainers[0].command
    line: int | None
    title: Text                    # the rule's TITLE (a message id without fields)
    explanation: Text              # what will happen and when, naming the container and numbers
    fix: str                       # a YAML snippet to write instead (code: not translated)
    references: tuple[str, ...] = ()
    patch: tuple[Any, ...] = ()    # edits that make the fix (patch.py); empty: it needs a person

    @property
    def fixable(self) -> bool:
        """Whether the fix applies without a human choice (``podlife explain --fix``, "Apply fix")."""
        return bool(self.patch)

    def to_dict(self) -> dict[str, Any]:
        """The public JSON shape of one finding (pods[].findings[]): its text in English."""
        return {"id": self.id, "severity": self.severity.value, "container": self.container,
                "path": self.path, "line": self.line, **self.render(),
                "fix": self.fix, "fixable": self.fixable, "references": list(self.references)}

    def render(self, gettext: Callable[[str], str] = gettext_noop) -> dict[str, str]:
        """Title and explanation through ``gettext`` (the web layer overlays this on to_dict())."""
        return {"title": self.title.render(gettext), "explanation": self.explanation.render(gettext)}

    def sort_key(self) -> tuple[int, int, str, str]:
        return (self.severity.rank, self.line if self.line is not None else 1 << 30,
                self.id, self.container or "")


@dataclass
class RuleContext:
    """One Pod as the API server stores it, plus what the pipeline already worked out."""

    pod: Pod
    version: str
    gates: dict[str, bool] = field(default_factory=dict)
    scenario: Scenario = field(default_factory=Scenario)
    simulation: Simulation | None = None   # None when the API server rejects the Pod
    sharing: dict[str, Any] = field(default_factory=dict)
    services: tuple[ServiceRef, ...] = ()  # the Services of the same input

    def labels(self) -> dict[str, str]:
        """The Pod's (or its template's) labels, as the manifest gives them."""
        raw = self.raw(tuple(self.pod.spec_path[:-1]) + ("metadata", "labels"))
        return {str(k): str(v) for k, v in raw.items()} if isinstance(raw, dict) else {}

    def selecting_services(self) -> list[ServiceRef]:
        """The Services of the same input whose selector matches this Pod's labels."""
        labels = self.labels()
        return [s for s in self.services if s.selects(labels)] if labels else []

    def line(self, path: str | tuple[Any, ...] | None) -> int | None:
        """Line of ``path`` in the manifest, or of the nearest enclosing field that exists."""
        if path is None:
            return None
        segments = parse_path(path) if isinstance(path, str) else path
        return position(self.pod.raw, segments)[0]

    def raw(self, path: str | tuple[Any, ...]) -> Any:
        """The manifest's own value at ``path`` (None when absent): what the user wrote."""
        node = self.pod.raw
        for seg in parse_path(path) if isinstance(path, str) else path:
            if isinstance(node, dict) and seg in node:
                node = node[seg]
            elif isinstance(node, list) and isinstance(seg, int) and 0 <= seg < len(node):
                node = node[seg]
            else:
                return None
        return node

    def container_path(self, c: Container, field_path: str | None = None) -> str:
        return f"{c.path}.{field_path}" if field_path else c.path

    def spec_path(self, field_path: str) -> str:
        return format_path(self.pod.spec_path + parse_path(field_path))

    def behaviour(self, c: Container) -> Behaviour:
        """How ``c`` behaves: the simulation's view when there is one, else the same guesses."""
        if self.simulation is not None and c.name in self.simulation.behaviours:
            return self.simulation.behaviours[c.name]
        return behaviour_for(c, self.pod, self.scenario)

    def finding(self, rule_id: str, c: Container | None, path: str | None, explanation: Text,
                fix: str, *, severity: Severity | None = None, patch: tuple[Any, ...] | None = None) -> Finding:
        """A Finding of the registered rule ``rule_id``; title and references come from it."""
        from .registry import BY_ID  # the registry imports the rules, which import this module

        rule = BY_ID[rule_id]
        return Finding(rule_id, severity or rule.SEVERITY, c.name if c else None, path,
                       self.line(path), Text(rule.TITLE), explanation, fix, references(rule), patch or ())


def references(rule: Any) -> tuple[str, ...]:
    return (rule.DOCS_URL,) + tuple(getattr(rule, "REFERENCES", ()))


def flow_yaml(key: str, value: Any) -> str:
    """``key: value`` with the value in YAML flow style, for FIX snippets (JSON is valid YAML)."""
    return f"{key}: {json.dumps(value)}"


def fill(template: str, **values: Any) -> str:
    """A rule's FIX with the container's own names: ``$name`` style, so YAML braces stay."""
    return Template(template).safe_substitute({k: str(v) for k, v in values.items()}).strip("\n") + "\n"
