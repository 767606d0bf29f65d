"""Helpers for the engine tests: run a fixture through the core (parse, admit, simulate: no explain(), no JSON),
flatten its events to readable strings."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from explainer.explain import explain
from explainer.lifecycle import defaults as d
from explainer.lifecycle.errors import ErrorRecord
from explainer.lifecycle.model import Pod
from explainer.lifecycle.manifest.parse import parse_manifest
from explainer.lifecycle.scenario.document import Scenario, parse_scenario, scenario_from_data
from explainer.lifecycle.kubelet.simulate import Simulation, simulate
from explainer.lifecycle.kubelet.summarise import summarise_crash_loops
from explainer.lifecycle.kubelet.trace import Dependency, StatusPoint, TraceEvent
from explainer.lifecycle.admission.validate import admit
from explainer.render.jsonable import explanation_to_dict
from tests.conftest import load_manifest


@dataclass
class Ran:
    """One Pod through the core, as the timeline shows it: admitted (or not), simulated, its steady crash
    loops folded (summarise.py), with the notes of admission and of the run."""

    pod: Pod
    errors: list[ErrorRecord]
    simulation: Simulation | None
    notes: list[str] = field(default_factory=list)

    @property
    def admitted(self) -> bool:
        return not self.errors

    def _sim(self) -> Simulation:
        assert self.simulation is not None, [e.one_line() for e in self.errors]
        return self.simulation

    @property
    def events(self) -> list[TraceEvent]:
        return self._sim().events

    @property
    def timeline(self) -> list[StatusPoint]:
        return self._sim().timeline

    @property
    def final_phase(self) -> str:
        return self._sim().final_phase

    @property
    def restart_counts(self) -> dict[str, int]:
        return self._sim().restart_counts

    @property
    def end_time(self) -> float:
        return self._sim().end_time

    @property
    def until(self) -> float:
        return self._sim().until

    @property
    def dependencies(self) -> list[Dependency]:
        return self._sim().dependencies


def simulated(fixture: str, scenario: str | dict | None = None, version: str | None = None, *,
              text: str | None = None) -> Ran:
    """The first Pod of tests/fixtures/<fixture>.yaml (or of ``text``) through the core: parse, admit (with the
    scenario's feature gates), simulate, fold steady crash loops, as explain() does before the rules."""
    intake = parse_manifest(load_manifest(fixture) if text is None else text)
    assert intake.pods, [e.one_line() for e in intake.errors]
    sc: Scenario = scenario_from_data(scenario) if isinstance(scenario, dict) else \
        parse_scenario(scenario) if scenario else Scenario()
    version = version or d.DEFAULT_VERSION
    adm = admit(intake.pods[0], version, sc.feature_gates)
    errors = [e for e in intake.errors] + adm.errors
    notes = [str(n) for n in adm.notes]
    if errors:
        return Ran(adm.pod, errors, None, notes)
    sim = simulate(adm.pod, sc, container_restart_rules=adm.container_restart_rules, version=version)
    shown = summarise_crash_loops(sim)
    return Ran(adm.pod, errors, shown, notes + [str(n) for n in shown.notes])


def run(fixture: str, scenario: str | None = None, version: str | None = None) -> dict[str, Any]:
    """The JSON of the first Pod of tests/fixtures/<fixture>.yaml, through explain(): for tests of what the
    whole pipeline answers (admission with the schema, findings, the traffic lane's contract)."""
    out = explanation_to_dict(explain(load_manifest(fixture), scenario, version))
    assert out["pods"], out["errors"]
    return out["pods"][0]


def _events(pod: Ran | dict[str, Any]) -> list[tuple[float, str | None, str, int | None]]:
    if isinstance(pod, Ran):
        return [(e.t, e.container, e.type, e.exit_code) for e in pod.events]
    return [(e["t"], e["container"], e["type"], e["exitCode"]) for e in pod["events"]]


def events(pod: Ran | dict[str, Any]) -> list[str]:
    """'t container type' (+ '=code' for exits), e.g. '2 init-a exited=0'."""
    out = []
    for t, container, kind, code in _events(pod):
        s = f"{t:g} {container or '-'} {kind}"
        if kind == "exited":
            s += f"={code}"
        out.append(s)
    return out


def statuses(pod: Ran | dict[str, Any]) -> list[str]:
    """kubectl STATUS values over time, consecutive repeats folded."""
    out: list[str] = []
    points = [p.status for p in pod.timeline] if isinstance(pod, Ran) else [p["status"] for p in pod["statusTimeline"]]
    for status in points:
        if not out or out[-1] != status:
            out.append(status)
    return out


def assert_in_order(actual: list[str], expected: list[str]) -> None:
    """Each expected item occurs in ``actual``, in this order (others may come between)."""
    pos = 0
    for item in expected:
        try:
            pos = actual.index(item, pos) + 1
        except ValueError:
            raise AssertionError(f"{item!r} not found in order after position {pos}:\n  " + "\n  ".join(actual)) from None


def first(pod: Ran | dict[str, Any], container: str | None, kind: str, n: int = 1) -> float:
    """Time of the n-th event of ``kind`` for ``container``."""
    seen = 0
    for t, who, what, _code in _events(pod):
        if who == container and what == kind:
            seen += 1
            if seen == n:
                return t
    raise AssertionError(f"no {kind} #{n} for {container}")


def count(pod: Ran | dict[str, Any], container: str | None, kind: str) -> int:
    return sum(1 for _t, who, what, _code in _events(pod) if who == container and what == kind)
