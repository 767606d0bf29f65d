"""Golden files for the CLI's readable account of each teaching example (what people read)."""
from __future__ import annotations

import pytest

from explainer.explain import explain
from explainer.render.text import explanation_as_text
from tests.conftest import load_manifest

CASES = [
    ("init-example", None),
    ("native-sidecar-example", None),
    ("native-sidecar-app-exits", None),
    ("native-sidecar-probe", "containers: {proxy: {startupSeconds: 5}}"),
    ("process-sharing-example", "debug: [{name: debugger, image: 'busybox:1.36', target: app, at: 20, runSeconds: 30}]"),
    ("lifecycle-demo", "deleteAt: 30"),
    ("web-app-pod", "deleteAt: 60"),
    ("long-running-init", None),
    ("job-classic-sidecar", None),
    ("restart-all-containers", "containers: {trainer: {runs: [{runSeconds: 20, exitCode: 42}, {runSeconds: forever}]}}\n"
                               "until: 60"),
]


@pytest.mark.parametrize("name,scenario", CASES, ids=[c[0] for c in CASES])
def test_seed_trace(name: str, scenario: str | None, golden) -> None:
    text = explanation_as_text(explain(load_manifest(f"seeds/{name}"), scenario))
    golden(f"{name}/trace.txt", text)


# One Pod per lifecycle feature of 1.35-1.37 (issue 12): fixture, scenario, version.
FEATURE_CASES = [
    ("restart-rules", "pods/restart_rules",
     "containers: {worker: {runs: [{runSeconds: 5, exitCode: 42}, {runSeconds: 5, exitCode: 1}]}}\nuntil: 60", "1.35"),
    ("restart-all-containers", "pods/restart_all",
     "containers: {trainer: {runs: [{runSeconds: 10, exitCode: 42}, {runSeconds: forever}]}}\n"
     "debug: [{name: debugger, image: 'busybox:1.36', target: trainer, at: 5}]\nuntil: 40", "1.37"),
    ("stop-signal", "pods/stop_signal",
     "featureGates: {ContainerStopSignals: true}\ndeleteAt: 10\ncontainers: {nginx: {stopSeconds: 1}}", "1.37"),
    ("node-back-off", "pods/crashing_app",
     "crashLoopBackOff: {maxContainerRestartPeriod: 30}\ncontainers: {app: {runSeconds: 2, exitCode: 1}}\nuntil: 150",
     "1.36"),
]


@pytest.mark.parametrize("name,fixture,scenario,version", FEATURE_CASES, ids=[c[0] for c in FEATURE_CASES])
def test_feature_trace(name: str, fixture: str, scenario: str, version: str, golden) -> None:
    text = explanation_as_text(explain(load_manifest(fixture), scenario, version))
    golden(f"features/{name}/trace.txt", text)


@pytest.mark.parametrize("fixture", ["invalid/seed_no_indentation", "invalid/seed_no_indentation_gateway"])
def test_the_text_prints_every_message_of_a_diagnosis(fixture: str) -> None:
    """A Pod that never became one (its indentation lost) has no report to show its errors: the text still
    prints each of them, with its line (issue 26: it printed none, and stderr one of five)."""
    expl = explain(load_manifest(fixture))
    text = explanation_as_text(expl)
    assert len(expl.errors) >= 5
    assert text.count("error: line ") == len(expl.errors)
    for e in expl.errors:
        assert f"line {e.line}" in text
