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
    # issue 22: the traffic lane of a Deployment behind a Service whose preStop is shorter than the propagation
    ("traffic", "pods/traffic_prestop", "deleteAt: 20", "1.37"),
]


@pytest.mark.parametrize("name,fixture,scenario,version", FEATURE_CASES, ids=[c[0] for c in FEATURE_CASES])
def test_feature_trace(name: str, fixture: str, scenario: str, version: str, golden) -> None:
    text = explanation_as_text(explain(load_manifest(fixture), scenario, version))
    golden(f"features/{name}/trace.txt", text)


def test_the_traffic_section_shows_the_lane_and_its_failure_windows() -> None:
    text = explanation_as_text(explain(load_manifest("pods/traffic_prestop"), "deleteAt: 20"))
    section = text[text.index("Traffic ("):text.index("What the containers share")]
    assert section.startswith("Traffic (Service web; 3 other ready Pods; changes reach the proxies after 5s, "
                              "assumed; deleted at 20s):")
    assert "  [     7s] serving    The proxies send it requests from 7 s." in section
    assert "  [    20s] draining   " in section and "  [    25s] gone       " in section
    assert ("  - failure window 22s-25s (web, sigterm): web stopped accepting requests at SIGTERM (22 s), but the "
            "proxies send it requests from 22 s to 25 s: those requests fail.") in section
    assert "  note: An endpoint change is assumed to reach kube-proxy" in section


def test_no_traffic_section_without_a_lane() -> None:
    assert "Traffic (" not in explanation_as_text(explain(load_manifest("seeds/job-classic-sidecar")))


def test_a_services_pitfalls_come_after_the_pods_under_its_name() -> None:
    text = explanation_as_text(explain(load_manifest("findings/service-selects-no-pod/fires")))
    lines = text[text.index("\nService frontend (line 3)") + 1:].splitlines()
    assert lines[:4] == ["Service frontend (line 3)", "=" * len("Service frontend (line 3)"), "Pitfalls:",
                         "  - warning service-selects-no-pod (line 8): Service selects no Pod of this input"]
    tail = "\n".join(lines)
    assert "      Fix:\n        spec:\n          selector:" in tail


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
