"""Pod-level facts: status strings, versions, image pulls, sandbox loss, ephemeral containers,
validation (issue 2 rules 8-12; docs/lifecycle-model.md §5, §6, §14, §15)."""
from __future__ import annotations

import pytest

from explainer.explain import explain
from tests.conftest import load_manifest
from tests.lifecycle.engine import assert_in_order, count, events, first, run, statuses


@pytest.mark.parametrize("fixture,scenario,expected", [
    ("seeds/lifecycle-demo", None, ["Init:0/2", "Init:1/2", "PodInitializing", "Running"]),
    ("seeds/lifecycle-demo", "deleteAt: 30", ["Init:0/2", "Init:1/2", "PodInitializing", "Running", "Terminating", "Error"]),
    ("seeds/process-sharing-example", None, ["ContainerCreating", "Running"]),
    ("pods/crashing_app", "containers: {app: {runSeconds: 2, exitCode: 1}}\nuntil: 30",
     ["ContainerCreating", "Running", "Error", "Running", "Error", "CrashLoopBackOff", "Running"]),
    ("pods/job_native_sidecar", None, ["Init:0/1", "PodInitializing", "Running", "Completed"]),
    ("pods/image_pull", None, ["Init:0/1", "Init:ErrImagePull", "Init:ImagePullBackOff"]),
])
def test_kubectl_status_over_time(fixture: str, scenario: str | None, expected: list[str]) -> None:
    got = statuses(run(fixture, scenario, None))
    if fixture == "pods/image_pull":
        scenario = "containers: {setup: {imagePull: fails}}"
        got = statuses(run(fixture, scenario))
    assert got[: len(expected)] == expected


def test_init_status_counts_sidecars_and_restarts_drop_init_restarts_once_initialised() -> None:
    """§15: Init:i/N counts sidecars in N; READY counts sidecars; RESTARTS forgets init restarts."""
    pod = run("pods/failing_init", "containers: {migrate: {runs: [{runSeconds: 1, exitCode: 1}, {runSeconds: 1, exitCode: 0}]}}")
    tl = pod["statusTimeline"]
    assert tl[1]["status"] == "Init:1/2"           # N = 2: the sidecar counts
    running = [p for p in tl if p["status"] == "Running"][-1]
    assert running["readyContainers"] == "2/2"      # sidecar + app
    assert running["restarts"] == 0                 # migrate restarted once, but that is dropped
    assert max(p["restarts"] for p in tl if p["status"].startswith("Init")) == 1


def test_initialized_stays_and_phase_stays_running_when_a_sidecar_crashes_later() -> None:
    """§10.2."""
    pod = run("pods/failing_init", "containers: {log-agent: {runs: [{runSeconds: 30, exitCode: 1}, {runSeconds: forever}]}}")
    after = [p for p in pod["statusTimeline"] if p["t"] >= 30]
    assert after and all(p["phase"] == "Running" for p in after)
    assert count(pod, "app", "started") == 1


@pytest.mark.parametrize("version,admitted,runs_as", [
    ("1.27", False, None),
    ("1.28", True, "init"),       # the gate is off: restartPolicy is dropped
    ("1.29", True, "sidecar"),
    ("1.33", True, "sidecar"),
    ("1.34", True, "sidecar"),
])
def test_native_sidecars_by_kubernetes_version(version: str, admitted: bool, runs_as: str | None) -> None:
    out = explain(load_manifest("seeds/native-sidecar-example"), None, version)
    pod = out.pods[0]
    assert pod.admitted is admitted
    if not admitted:
        paths = [e.path for e in pod.errors]
        assert "spec.initContainers[0].restartPolicy" in paths
        assert any("1.28" in e.message and "1.29" in e.message for e in pod.errors)
        return
    assert pod.pod.init_containers[0].role == runs_as
    if runs_as == "init":
        assert any("SidecarContainers" in n for n in pod.notes)
        # a plain init container that loops forever: the app never starts
        assert "app" not in {e.container for e in pod.simulation.events}


def test_version_128_with_the_gate_on() -> None:
    out = explain(load_manifest("seeds/native-sidecar-example"), "featureGates: {SidecarContainers: true}", "1.28")
    assert out.pods[0].pod.init_containers[0].role == "sidecar"


def test_bad_image_leaves_the_pod_pending_even_under_never() -> None:
    """§6.6, §7.2."""
    pod = run("pods/image_pull", "containers: {setup: {imagePull: fails}}")
    assert pod["finalPhase"] == "Pending"
    pulls = [e["t"] for e in pod["events"] if e["type"] == "image_pull_failed"]
    assert pulls[:4] == [0, 10, 30, 70]
    assert count(pod, "app", "started") == 0


def test_sandbox_loss_runs_init_containers_again_but_a_container_restart_does_not() -> None:
    """§6.1."""
    pod = run("seeds/lifecycle-demo", "sandboxLostAt: 50")
    assert_in_order(events(pod), ["1 app started", "50 - sandbox_lost", "50 app exited=255", "50 - sandbox_ready",
                                  "50 prepare started", "51 prepare exited=0", "51 helper started", "51 app started"])
    assert pod["restartCounts"]["prepare"] == 1
    crash = run("seeds/lifecycle-demo", "containers: {app: {runs: [{runSeconds: 5, exitCode: 1}, {runSeconds: forever}]}}")
    assert count(crash, "prepare", "started") == 1 and count(crash, "app", "started") == 2


def test_sandbox_loss_under_never_leaves_the_pod_dead() -> None:
    pod = run("pods/crashing_app_never", "sandboxLostAt: 20")
    assert pod["finalPhase"] == "Failed"
    assert count(pod, None, "sandbox_ready") == 1


def test_ephemeral_container_joins_a_running_pod_and_is_never_restarted() -> None:
    pod = run("seeds/lifecycle-demo", "debug: [{name: debugger, image: busybox:1.36, target: app, at: 20, runSeconds: 30}]")
    assert_in_order(events(pod), ["20 - debug_requested", "20 debugger started", "50 debugger exited=0"])
    assert count(pod, "debugger", "started") == 1
    roles = {c["name"]: c["role"] for c in pod["containers"]}
    assert roles["debugger"] == "ephemeral"
    assert pod["statusTimeline"][-1]["readyContainers"] == "2/2"   # ephemeral containers never count


def test_ephemeral_containers_in_the_manifest_are_rejected() -> None:
    pod = run("pods/ephemeral_in_spec")
    assert pod["admitted"] is False and pod["events"] == []
    err = pod["errors"][0]
    assert err["path"] == "spec.ephemeralContainers" and err["reason"] == "Forbidden" and err["line"] == 8


def test_api_server_validation_says_which_field_and_why() -> None:
    # 1.33: no ContainerRestartRules yet, so restartPolicy OnFailure on an init container is an error
    pod = run("pods/invalid_init_fields", version="1.33")
    assert pod["admitted"] is False
    got = {(e["path"], e["reason"], e["line"]) for e in pod["errors"]}
    assert ("spec.initContainers[0].readinessProbe", "Forbidden", 9) in got
    assert ("spec.initContainers[0].lifecycle", "Forbidden", 10) in got
    assert ("spec.initContainers[1].restartPolicy", "Unsupported value", 12) in got


def test_image_update_restarts_a_running_container_even_under_never() -> None:
    """§7.5: a new image restarts a running app container whatever the restartPolicy;
    a finished init container is not run again."""
    scenario = ("imageUpdates: [{container: app, image: 'example/app:2.0', at: 20},"
                " {container: migrate, image: 'example/migrate:2.0', at: 25}]")
    pod = run("pods/failing_init_never", scenario)
    assert_in_order(events(pod), ["20 app image_updated", "20 app terminating", "20 app exited=143", "20 app started"])
    assert count(pod, "migrate", "started") == 1
    assert pod["restartCounts"]["app"] == 1


def test_every_event_type_is_from_the_contract() -> None:
    from explainer.lifecycle.kubelet.trace import EVENT_TYPES
    for fixture in ("seeds/web-app-pod", "pods/termination", "pods/failing_init"):
        pod = run(fixture, "deleteAt: 40\ndebug: [{name: dbg, at: 10}]")
        assert {e["type"] for e in pod["events"]} <= set(EVENT_TYPES)
        times = [e["t"] for e in pod["events"]]
        assert times == sorted(times)
        assert first(pod, None, "delete_requested") == 40


def test_event_kinds_are_a_str_enum_whose_values_are_the_contract_strings() -> None:
    """issue 16: event kinds are declared once (trace.EventKind); the JSON keeps today's strings."""
    import json

    from explainer.examples import EXAMPLES
    from explainer.explain import explain
    from explainer.lifecycle.kubelet.trace import EVENT_TYPES, EventKind

    assert EVENT_TYPES[:3] == ("sandbox_ready", "image_pull_failed", "created") and len(set(EVENT_TYPES)) == 22
    assert json.dumps([EventKind.EXITED, f"{EventKind.BACKOFF}"]) == '["exited", "backoff"]'
    for example in EXAMPLES:
        for report in explain(example.manifest(), example.scenario or None).pods:
            assert report.simulation is None or all(isinstance(e.type, EventKind) for e in report.simulation.events)
