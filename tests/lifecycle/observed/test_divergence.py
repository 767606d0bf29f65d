"""Divergences (docs/lifecycle-model.md §36): the three teaching cases from kubernetes.io pages, and one small
observation per kind, each explained and saying whether the scenario can reproduce it."""
from __future__ import annotations

from pathlib import Path

import pytest

from explainer.explain import explain
from explainer.lifecycle.observed.divergence import KINDS
from tests.lifecycle.observed.cases import CASES
from tests.lifecycle.observed.test_read_real import paste

MANIFESTS = Path(__file__).resolve().parents[2] / "fixtures" / "observed" / "manifests"
TEACHING = {
    "oom crash loop": ("memory-demo-2.yaml", ["memory-oomkilled-table-and-laststate.txt"]),
    "liveness kill": ("liveness-exec.yaml", ["probes-events-after.txt", "probes-get-pod.txt"]),
    "init container waiting on a Service": ("myapp-pod.yaml", ["init-containers-waiting-on-service.txt"]),
}


def teaching(case: str):
    manifest, pastes = TEACHING[case]
    expl = explain((MANIFESTS / manifest).read_text(encoding="utf-8"), observed=[paste(p) for p in pastes])
    assert not expl.errors
    return expl.pods[0]


def test_an_oom_crash_loop_is_the_memory_limit() -> None:
    report = teaching("oom crash loop")
    (d,) = report.observed.divergences
    assert (d.kind, d.container, d.reproducible) == ("oom-killed", "memory-demo-2-ctr", True)
    assert "memory limit (100Mi)" in str(d.explanation) and "OOMKilled" in str(d.observed)
    assert str(d.predicted) == "RESTARTS 0 at 40 s" and str(d.observed).startswith("RESTARTS 2")
    assert report.observed.columns.status == "Running" and report.observed.columns.restarts == "2"


def test_a_liveness_kill_is_the_probe() -> None:
    report = teaching("liveness kill")
    (d,) = report.observed.divergences
    assert (d.kind, d.container, d.t, d.reproducible) == ("liveness-kill", "liveness", 47.0, True)
    assert "exec cat /tmp/healthy" in str(d.explanation) and "failingProbes: [liveness]" in str(d.explanation)
    assert any("Unhealthy happened 3 times from 37 s to 47 s" in str(n) for n in report.notes)
    lane = report.observed.lanes["liveness"]
    assert [(s.state, s.start, s.end) for s in lane] == [("pulling", 2.0, 4.0), ("running", 4.0, 47.0)]


def test_an_init_container_waiting_on_a_service_holds_the_pod() -> None:
    report = teaching("init container waiting on a Service")
    (d,) = report.observed.divergences
    assert (d.kind, d.container, d.t, d.reproducible) == ("still-running", "init-myservice", 1.0, True)
    assert "still running at 360 s" in str(d.explanation) and "Init:0/2" in str(d.explanation)
    assert report.observed.columns.status == "Running"       # the last get -f row, later than the describe
    assert any("compared at 300 s" in str(n) for n in report.notes)


@pytest.mark.parametrize("kind", sorted(CASES))
def test_each_kind_of_divergence(kind: str) -> None:
    manifest, observed = CASES[kind]
    expl = explain(manifest, observed=observed)
    assert not expl.errors, expl.errors
    found = expl.pods[0].observed.divergences
    assert kind in [d.kind for d in found], [(d.kind, str(d.explanation)) for d in found]
    d = next(d for d in found if d.kind == kind)
    assert str(d.explanation).strip()
    says = "can reproduce" in str(d.explanation) or "can make the prediction match" in str(d.explanation)
    assert says == d.reproducible
    assert bool(d.scenario) == d.reproducible


def test_every_kind_has_a_case() -> None:
    """Two are teaching cases above (liveness-kill, still-running), "restarted" is the test below."""
    assert set(KINDS) - set(CASES) == {"restarted", "liveness-kill", "still-running"}


def test_restarts_the_paste_does_not_explain() -> None:
    row = "NAME   READY   STATUS    RESTARTS   AGE\nweb    1/1     Running   4          10m\n"
    expl = explain(CASES["crashed"][0], observed=row)
    (d,) = expl.pods[0].observed.divergences
    assert (d.kind, str(d.observed), d.reproducible) == ("restarted", "RESTARTS 4 at 600 s", True)


def test_a_restart_count_one_off_in_the_same_crash_loop_is_not_a_divergence() -> None:
    manifest = CASES["crashed"][0]
    scenario = {"containers": {"app": {"runs": [{"runSeconds": 30, "exitCode": 1}]}}}
    expl = explain(manifest, scenario, observed=CASES["crashed"][1])
    assert [d.kind for d in expl.pods[0].observed.divergences] == []


def test_matching_observation_has_no_divergence_and_the_kubectl_columns() -> None:
    expl = explain(paste("debug-running-pod-yaml.txt"))
    obs = expl.pods[0].observed
    assert obs.divergences == [] and (obs.columns.ready, obs.columns.status, obs.columns.restarts) == (
        "1/1", "Running", "0")
    assert [s.kind for s in obs.sources] == ["pod"]
