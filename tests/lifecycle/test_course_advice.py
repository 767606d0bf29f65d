"""What the course text advises that the kubelet does otherwise (docs/lifecycle-model.md §31), as tables.

Sources: pkg/kubelet/active_deadline.go (the deadline bounds the whole Pod, from its start); validation.go
`validateEphemeralContainers` and `allowedEphemeralContainerFields`; kuberuntime_container.go
`killContainersWithSyncResult` and kuberuntime_termination_order.go (regular containers stop together, only
native sidecars wait); configmap-reload's `--webhook-url` and `--webhook-retries`.
"""
from __future__ import annotations

import pytest

from explainer.explain import explain
from explainer.lifecycle.commands.guess import finite_run, guess_run
from explainer.lifecycle.manifest.parse import parse_pod
from explainer.lifecycle.sharing.analyse import analyse_sharing
from tests.conftest import load_manifest
from tests.lifecycle.engine import first, run


def _container(script: str):
    text = ("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: a\n    image: busybox\n"
            f"    command: [sh, -c, {script!r}]\n")
    return parse_pod(text).containers[0]


LAST_SLEEP = [
    # (script, seconds one run lasts, or None: it does not end)
    ("mysql -h mysql-service < /schema/init.sql; sleep 60", 60.0),   # the steps before are expected to end
    ("alembic upgrade head && sleep 3600", 3600.0),
    ("server & sleep 30", 30.0),                                     # the shell ends, and with it the container
    ("if [ -f /x ]; then echo x; fi; sleep 7", 7.0),
    ("echo Main container ready && sleep 3600", 3600.0),             # seed 004 (one-shot steps: certain)
    ("exec server; sleep 5", None),                                  # exec: the sleep never runs
    ("server || sleep 5", None),                                     # only after a failure
    ("echo hi; sleep infinity", None),
    ("myserver --port 80", None),
]


@pytest.mark.parametrize("script,seconds", LAST_SLEEP, ids=[s for s, _ in LAST_SLEEP])
def test_a_command_list_whose_last_step_is_a_finite_sleep_ends(script: str, seconds: float | None) -> None:
    c = _container(script)
    found = finite_run(c)
    assert (found.seconds if found else None) == seconds
    assert guess_run(c, False).seconds == seconds


def test_under_restart_policy_always_it_is_a_crash_loop() -> None:
    text = ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  selector: {matchLabels: {a: b}}\n"
            "  template:\n    metadata: {labels: {a: b}}\n    spec:\n      containers:\n        - name: loader\n"
            "          image: mysql:5.7\n          command: [sh, -c, 'mysql -h db < /schema/init.sql; sleep 60']\n")
    report = explain(text).pods[0]
    assert [f.id for f in report.findings if f.id == "finite-command-under-always"] == ["finite-command-under-always"]
    assert any(e.type == "backoff" and e.container == "loader" for e in report.simulation.events)


def test_active_deadline_bounds_the_whole_pod_not_the_init_phase() -> None:
    """The deadline passes while web-app serves: the kubelet fails the Pod and stops web-app too."""
    pod = run("findings/active-deadline-kills-service/fires")
    assert first(pod, None, "deadline_exceeded") == 120
    assert first(pod, "web-app", "started") < 120 and first(pod, "web-app", "terminating") == 120
    assert pod["finalPhase"] == "Failed"


EPHEMERAL = """apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
    - name: app
      image: nginx:1.27
      ports: [{containerPort: 80}]
  ephemeralContainers:
    - name: debugger
      image: busybox:1.36
      targetContainerName: app
      ports: [{containerPort: 8080}]
      resources: {limits: {cpu: 100m}}
      readinessProbe: {tcpSocket: {port: 8080}}
      lifecycle: {preStop: {exec: {command: [sleep, "5"]}}}
      volumeMounts: [{name: v, mountPath: /v, subPath: x}]
  volumes: [{name: v, emptyDir: {}}]
"""


def test_an_ephemeral_container_is_refused_field_by_field() -> None:
    """`validateFieldAllowList(..., "cannot be set for an Ephemeral Container")`: one Forbidden per field set,
    and one for a volumeMount's subPath, beside the "cannot be set on create" of the list itself."""
    errors = explain(EPHEMERAL).errors
    paths = [e.path for e in errors if e.reason == "Forbidden"]
    assert paths == ["spec.ephemeralContainers"] + [f"spec.ephemeralContainers[0].{f}" for f in (
        "ports", "resources", "readinessProbe", "lifecycle", "volumeMounts[0].subPath")]
    assert all("cannot be set for an Ephemeral Container" in e.message for e in errors[1:])


def test_the_sharing_report_never_lists_an_ephemeral_containers_ports() -> None:
    report = explain(EPHEMERAL).pods[0]
    assert [(p.container, p.container_port) for p in report.sharing.ports] == [("app", 80)]


def test_a_reloaders_webhook_is_no_start_up_dependency() -> None:
    """kube-prometheus's blackbox exporter: configmap-reload calls --webhook-url on localhost when the
    configuration changes, with retries: sidecar-start-order-assumed stays quiet."""
    text = load_manifest("realworld/kube-prometheus__manifests__blackboxExporter-deployment")
    found = {(f.id, f.container) for r in explain(text).pods for f in r.findings}
    assert ("sidecar-start-order-assumed", "blackbox-exporter") not in found


def test_a_helper_the_app_dials_at_start_is_still_named() -> None:
    text = load_manifest("findings/sidecar-start-order-assumed/fires")
    assert "sidecar-start-order-assumed" in {f.id for r in explain(text).pods for f in r.findings}


def test_analyse_sharing_keeps_debug_containers_out_of_ports() -> None:
    pod = parse_pod(EPHEMERAL.replace("  volumes", "  volumes"))
    assert all(p.container != "debugger" for p in analyse_sharing(pod).ports)
