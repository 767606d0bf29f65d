"""Finding, Severity and RuleContext: what every rule reads and what it yields."""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from enum import Enum
from string import Template
from typing import TYPE_CHECKING, Any, Callable

from explainer.lifecycle.commands.evidence import raw_at
from explainer.lifecycle.model import Container, Pod, ServiceRef
from explainer.lifecycle.qos import Qos, compute_qos
from explainer.lifecycle.scenario.document import Behaviour, Scenario, behaviour_for
from explainer.lifecycle.traffic.serving import selecting, serving_for
from explainer.lifecycle.sharing.report import SharingReport
from explainer.lifecycle.kubelet.simulate import Simulation
from explainer.lifecycle.kubelet.trace import TraceEvent
from explainer.lifecycle.admission.validate import sidecars_enabled
from explainer.lifecycle.admission.versions import gate_enabled
from explainer.lifecycle.manifest.yamlload import format_path, parse_path, position

from .facts import Facts
from .i18n import Text, gettext_noop
from explainer.lifecycle.records import record

if TYPE_CHECKING:   # read when a rule asks for the deletion or the traffic (below), not at start-up
    from explainer.lifecycle.traffic.deletion import DeletionRun
    from explainer.lifecycle.traffic.lane import Traffic


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


@record
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


@record
class Draft:
    """What a rule's ``check`` yields: a finding about one Pod in the rule's words for this Pod,
    without the rule's own (title, default severity, references), which the registry adds."""

    id: str
    container: str | None
    path: str | None
    line: int | None
    explanation: Text
    fix: str
    severity: Severity | None = None   # None: the rule's SEVERITY
    patch: tuple[Any, ...] = ()


class TraceTime(str):
    """A moment a finding states, read from a simulation's trace (``t``); shown as "12" (seconds).

    Every time a finding names on the timeline is one of these, so a test can check it against the
    trace the timeline draws (tests/findings/test_trace_times.py)."""

    t: float

    def __new__(cls, t: float) -> TraceTime:
        obj = super().__new__(cls, format(t, "g"))
        obj.t = t
        return obj

    def __reduce__(self) -> tuple[Any, ...]:   # pickle (the explanation cache) rebuilds it from its time
        return (TraceTime, (self.t,))


@record
class Deletion:
    """A deletion of the Pod and what it did to one container: from the timeline's own trace when the
    scenario deletes the Pod (``on_trace``), else from the same model deleting it at 0 s."""

    at: float
    events: tuple[TraceEvent, ...]      # the container's events from the deletion on
    on_trace: bool

    def first(self, *types: str) -> TraceEvent | None:
        return next((e for e in self.events if e.type in types), None)


@dataclass
class RuleContext:
    """One Pod as the API server stores it, plus what the pipeline already worked out."""

    pod: Pod
    version: str
    gates: dict[str, bool] = field(default_factory=dict)
    scenario: Scenario = field(default_factory=Scenario)
    simulation: Simulation | None = None   # None when the API server rejects the Pod
    sharing: SharingReport = field(default_factory=SharingReport)
    services: tuple[ServiceRef, ...] = ()  # the Services of the same input
    qos: Qos | None = None                 # the Pod's QoS when the pipeline has it (else `pod_qos` works it out)

    # what the rules read of each container, by id(container): worked out once for this context
    _facts: dict[int, Facts] = field(default_factory=dict, init=False, repr=False, compare=False)

    def facts(self, c: Container) -> Facts:
        """What the rules read of ``c`` (facts.py), each answer worked out once for this context."""
        known = self._facts.get(id(c))
        if known is None:
            known = self._facts[id(c)] = Facts(c, self.pod)   # holds ``c``: its id is not reused meanwhile
        return known

    @functools.cached_property
    def sidecars_enabled(self) -> bool:
        """Whether this version (and gates) runs native sidecars (validate.py `sidecars_enabled`)."""
        return sidecars_enabled(self.version, self.gates)

    def gate(self, name: str) -> bool:
        """Whether feature gate ``name`` is on in this version, with the scenario's gates."""
        return gate_enabled(name, self.version, self.gates)

    def pod_qos(self) -> Qos:
        """The Pod's QoS class and each container's resources (qos.py `compute_qos`): the pipeline's
        (``qos``, for the same Pod, version and gates), else computed."""
        return self.qos if self.qos is not None else compute_qos(self.pod, self.version, self.gates)

    def labels(self) -> dict[str, str]:
        """The Pod's (or its template's) labels, as the manifest gives them."""
        return dict(self.pod.labels)

    def selecting_services(self) -> list[ServiceRef]:
        """The Services of the same input (and namespace) whose selector matches this Pod's labels."""
        return list(selecting(self.pod, self.services))

    def line(self, path: str | tuple[Any, ...] | None) -> int | None:
        """Line of ``path`` in the manifest, or of the nearest enclosing field that exists."""
        if path is None:
            return None
        segments = parse_path(path) if isinstance(path, str) else path
        return position(self.pod.raw, segments)[0]

    def raw(self, path: str | tuple[Any, ...]) -> Any:
        """The manifest's own value at ``path`` (None when absent): what the user wrote.  Rules read the
        parsed model (lifecycle/model.py says what was written, too); this is for what it does not hold
        (tests/findings/test_registry.py counts the rules that call it)."""
        return raw_at(self.pod, path)

    def container_path(self, c: Container, field_path: str | None = None) -> str:
        return f"{c.path}.{field_path}" if field_path else c.path

    def spec_path(self, field_path: str) -> str:
        return format_path(self.pod.spec_path + parse_path(field_path))

    def trace_time(self, c: Container, *types: str) -> TraceTime | None:
        """When ``c`` first has an event of ``types`` on the timeline's trace (None: never, or no trace)."""
        if self.simulation is None:
            return None
        e = next((e for e in self.simulation.events if e.container == c.name and e.type in types), None)
        return TraceTime(e.t) if e is not None else None

    def deletion(self, c: Container) -> Deletion | None:
        """What a deletion does to ``c``: the scenario's (on the trace), else one at 0 s simulated the same way."""
        trace = self._deletion_trace
        if trace is None:
            return None
        at, events, on_trace = trace
        return Deletion(at, tuple(e for e in events if e.t >= at and e.container == c.name), on_trace)

    @functools.cached_property
    def _deletion_trace(self) -> tuple[float, list[Any], bool] | None:
        """(when the Pod is deleted, the trace of that run, whether it is the timeline's own): the same for
        every container, so simulated at most once per Pod."""
        run = self.deletion_run
        return None if run is None else (run.at, run.events, run.on_trace)

    @functools.cached_property
    def deletion_run(self) -> DeletionRun | None:
        """The scenario's deletion, else the one the model assumes (lifecycle/traffic/deletion.py): the run the
        traffic lane draws and the findings about stopping read."""
        if self.simulation is None:
            return None
        from explainer.lifecycle.traffic.deletion import deletion_run
        return deletion_run(self.pod, self.scenario, self.simulation, self.version)

    @functools.cached_property
    def traffic(self) -> Traffic | None:
        """When a Service sends the Pod requests, and the failure windows (docs/lifecycle-model.md §27)."""
        if self.simulation is None:
            return None
        serving = serving_for(self.pod, self.services)
        if serving is None:
            return None   # no Service would select it: no second simulation for the lane
        run = self.deletion_run
        from explainer.lifecycle.traffic.lane import traffic_for
        return None if run is None else traffic_for(self.pod, self.scenario, run, serving)

    def behaviour(self, c: Container) -> Behaviour:
        """How ``c`` behaves: the simulation's view when there is one, else the same guesses."""
        if self.simulation is not None and c.name in self.simulation.behaviours:
            return self.simulation.behaviours[c.name]
        return behaviour_for(c, self.pod, self.scenario)

    def finding(self, rule_id: str, c: Container | None, path: str | None, explanation: Text,
                fix: str, *, severity: Severity | None = None, patch: tuple[Any, ...] | None = None) -> Draft:
        """What rule ``rule_id`` found in this Pod; the registry adds the rule's title, severity and
        references (`registry.complete`), so this module knows no rule."""
        return Draft(rule_id, c.name if c else None, path, self.line(path), explanation, fix, severity,
                     patch or ())


def flow_yaml(key: str, value: Any) -> str:
    """``key: value`` with the value in YAML flow style, for FIX snippets (JSON is valid YAML)."""
    return f"{key}: {json.dumps(value)}"


def fill(template: str, **values: Any) -> str:
    """A rule's FIX with the container's own names: ``$name`` style, so YAML braces stay."""
    return Template(template).safe_substitute({k: str(v) for k, v in values.items()}).strip("\n") + "\n"
