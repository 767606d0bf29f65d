"""The simulation's kubectl columns (status.py `StatusBook`, docs/lifecycle-model.md §15) agree with
`printPod` itself (observed/kubectl.py `print_pod`, docs/lifecycle-model.md §35) at every status point.

`StatusBook` keeps the columns incrementally, O(log n) a change; `print_pod` is the printer, case for
case with kubectl's own tests.  Here every point the simulation computes is also printed by `print_pod`
from the same containers' statuses, for every Pod fixture and the gallery's examples.  Where the model
departs from the printer on purpose (§15: no "(10s ago)", Error for every non-zero exit), the snapshot
built here says what the model knows, so the two must agree exactly.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from explainer.examples import EXAMPLES
from explainer.explain import explain
from explainer.lifecycle.kubelet import status as status_module
from explainer.lifecycle.observed.kubectl import print_pod
from explainer.lifecycle.observed.model import Condition, ContainerObs, Snapshot, SpecInfo, Termination
from explainer.lifecycle.scenario.document import scenario_from_data
from explainer.lifecycle.kubelet.simulate import simulate
from explainer.lifecycle.kubelet.status import EXITED, RUNNING, RuntimeStatus, StatusBook, _contribution
from tests.lifecycle.test_properties import cases
from tests.profiles import examples

FIXTURES = sorted((Path(__file__).resolve().parents[2] / "fixtures" / "pods").glob("*.yaml"))
MANIFESTS = [(p.name, p.read_text(encoding="utf-8")) for p in FIXTURES] + [(e.slug, e.manifest()) for e in EXAMPLES]


def _obs(s: RuntimeStatus, name: str) -> ContainerObs:
    if s.state == RUNNING:
        return ContainerObs(name, "app", "running", restart_count=s.restarts, ready=s.ready, started=s.started)
    if s.state == EXITED:
        ended = Termination(name, s.exit_code, None, s.terminated_reason(), None, None, None)
        return ContainerObs(name, "app", "terminated", ended.reason, terminated=ended, restart_count=s.restarts,
                            ready=s.ready, started=s.started)
    return ContainerObs(name, "app", "waiting", s.waiting_reason or None, restart_count=s.restarts, ready=s.ready,
                        started=s.started)


def _printed(book: StatusBook, phase: str, status_reason: str | None, initialized: bool, deleting: bool) -> tuple:
    init = [(f"i{s.index}", s.role == "sidecar") for s in book.init]
    spec = SpecInfo(tuple(init), tuple(f"a{s.index}" for s in book.apps))
    conditions = (Condition("Initialized", "True" if initialized else "False"),
                  Condition("Ready", "True" if book.ready(phase) else "False"))
    snap = Snapshot(0, "pod", "p", phase=phase, reason=status_reason, conditions=conditions,
                    init=tuple(_obs(s, name) for s, (name, _) in zip(book.init, init)),
                    apps=tuple(_obs(s, f"a{s.index}") for s in book.apps), deleting=deleting)
    cols = print_pod(snap, spec)
    return cols.status, cols.ready, int(cols.restarts)


def _recorder(checked: list[tuple]) -> Any:
    """`StatusBook.point` that also prints the same statuses with `print_pod`.  A point computed while a
    change is still being told to the book (the kubelet counts a restart as it creates the container,
    then sets its state: one instant, two steps) is left out: the next point of the same instant has it."""
    original = StatusBook.point

    def point(self: StatusBook, forced_phase: str | None, status_reason: str | None, initialized: bool,
              deleting: bool, terminal: bool) -> tuple:
        got = original(self, forced_phase, status_reason, initialized, deleting, terminal)
        if all(s.contrib == _contribution(s) for s in self.init + self.apps):
            status, phase, _ready, ready_count, restarts, _initializing = got
            checked.append(((status, ready_count, restarts),
                            _printed(self, phase, status_reason, initialized, deleting)))
        return got

    return point


@pytest.mark.parametrize(("name", "manifest"), MANIFESTS, ids=[m[0] for m in MANIFESTS])
def test_every_status_point_is_what_print_pod_prints(name: str, manifest: str, monkeypatch: Any) -> None:
    checked: list[tuple] = []
    point = _recorder(checked)

    monkeypatch.setattr(status_module.StatusBook, "point", point)
    expl = explain(manifest)
    assert checked or not any(p.simulation for p in expl.pods), "the simulation computed no status point"
    differ = [(model, printer) for model, printer in checked if model != printer]
    assert not differ, f"{name}: model vs printPod: {differ[:3]}"


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cases())
def test_generated_pods_agree_with_print_pod_at_every_point(monkeypatch: Any, case: tuple) -> None:
    """The same over the property tests' generated Pods and scenarios (crashes, probes, deletion, reboots)."""
    _text, pod, scenario = case
    checked: list[tuple] = []
    point = _recorder(checked)

    with monkeypatch.context() as m:
        m.setattr(status_module.StatusBook, "point", point)
        simulate(pod, scenario_from_data(scenario))
    assert checked
    differ = [(model, printer) for model, printer in checked if model != printer]
    assert not differ, differ[:3]
