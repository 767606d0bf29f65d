"""Every time a finding states is a time on the trace the timeline draws (findings/base.py TraceTime)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from explainer.explain import explain
from explainer.findings.base import TraceTime
from explainer.lifecycle.i18n import Phrase, Text
from tests.conftest import load_manifest
from tests.fixes.corpus import ROOT, manifests, settings


def _times(value: Any) -> Iterator[TraceTime]:
    if isinstance(value, TraceTime):
        yield value
    elif isinstance(value, Phrase):
        yield from _times(value.text)
    elif isinstance(value, Text):
        for v in value.params.values():
            yield from _times(v)


@pytest.mark.parametrize("path", manifests(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_time_a_finding_states_is_on_its_trace(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    scenario, version = settings(text)
    for report in explain(text, scenario, version).pods:
        on_trace = {e.t for e in report.simulation.events} if report.simulation else set()
        for f in report.findings:
            for t in _times(f.explanation):
                assert t.t in on_trace, f"{f.id} ({f.container}) states {t} s, not a time of its trace"


def test_prestop_finding_reads_the_deletion_from_the_trace() -> None:
    report = explain(load_manifest("findings/prestop-exceeds-grace/fires"), "deleteAt: 10").pods[0]
    (f,) = [f for f in report.findings if f.id == "prestop-exceeds-grace"]
    stated = [t.t for t in _times(f.explanation)]
    done = next(e for e in report.simulation.events if e.type == "prestop_done")
    exited = next(e for e in report.simulation.events if e.type == "exited")
    assert stated == [10, done.t, exited.t] == [10, 40, 40]
    assert "SIGKILL" not in str(f.explanation)     # the trace shows an exit on SIGTERM, not a SIGKILL


def test_liveness_finding_states_the_kill_the_timeline_draws() -> None:
    report = explain(load_manifest("findings/liveness-without-startup-probe/fires"),
                     "containers: {orders: {failingProbes: [liveness]}}").pods[0]
    (f,) = [f for f in report.findings if f.id == "liveness-without-startup-probe"]
    kill = next(e for e in report.simulation.events if e.type == "liveness_failed" and e.container == "orders")
    start = next(e for e in report.simulation.events if e.type == "started" and e.container == "orders")
    assert [t.t for t in _times(f.explanation)] == [kill.t]
    assert f"kills it {kill.t - start.t:g} s after it starts" in str(f.explanation)


def test_a_trace_time_survives_the_cache() -> None:
    import pickle
    t = pickle.loads(pickle.dumps(TraceTime(12.5)))
    assert isinstance(t, TraceTime) and t.t == 12.5 and t == "12.5"
