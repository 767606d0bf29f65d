"""Scripts that end a main process themselves (explainer/lifecycle/commands/shutdown.py), and what the model does."""
from __future__ import annotations

import pytest

from explainer.explain import explain
from explainer.lifecycle.manifest.parse import parse_pod
from explainer.lifecycle.commands.shutdown import ENDPOINT, SIGNAL, exit_stops, prestop_stops
from tests.conftest import load_manifest
from tests.lifecycle.engine import events, run


def _exit_events(pod: dict) -> list[str]:
    return [e for e in events(pod) if "exited" in e or "terminating" in e or "prestop" in e or "killed" in e]


def test_ingress_nginx_wait_shutdown_exits_during_the_hook() -> None:
    pod = run("pods/rw_ingress_nginx_wait_shutdown", "deleteAt: 30")
    assert _exit_events(pod) == ["30 controller prestop_started", "30 controller exited=143"]
    exited = next(e for e in pod["events"] if e["type"] == "exited")
    assert "preStop hook ends it" in exited["message"] and exited["assumed"]


def test_cloud_sql_proxy_job_completes_when_the_worker_calls_quitquitquit() -> None:
    pod = run("pods/rw_cloudsql_job_quitquitquit")
    assert pod["finalPhase"] == "Succeeded"
    proxy = [e for e in pod["events"] if e["container"] == "cloud-sql-proxy" and e["type"] == "exited"]
    assert len(proxy) == 1 and proxy[0]["exitCode"] == 0 and "quitquitquit" in proxy[0]["message"]
    assert not [f for f in pod["findings"] if f["id"] == "job-sidecar-blocks-completion"]


def test_the_folded_example_never_calls_the_endpoint_and_the_job_never_completes() -> None:
    """As written upstream, YAML folds `curl …` into my_batch_job's arguments: the proxy keeps running."""
    pod = run("pods/rw_cloudsql_job_folded")
    assert pod["finalPhase"] == "Running"
    assert [f["severity"] for f in pod["findings"] if f["id"] == "job-sidecar-blocks-completion"] == ["error"]


def test_the_proxy_endpoint_needs_the_flag() -> None:
    text = load_manifest("pods/rw_cloudsql_job_quitquitquit").replace('"--quitquitquit"', '"--debug-logs"')
    out = explain(text).pods[0]
    assert out.simulation.final_phase == "Running"
    assert [f.severity.value for f in out.findings if f.id == "job-sidecar-blocks-completion"] == ["error"]


POD = """apiVersion: v1
kind: Pod
metadata: {{name: p}}
spec:
  terminationGracePeriodSeconds: 60
  containers:
  - name: main
    image: {image}
{command}    lifecycle:
      preStop:
        exec:
          command: {hook}
"""


@pytest.mark.parametrize("image, command, hook, expected", [
    # nginx as PID 1 handles SIGTERM: the kill ends it 5 s into the hook, not after it
    ("nginx:1.27", "", '["sh", "-c", "sleep 5; kill -TERM 1; sleep 20"]',
     ["10 main prestop_started", "15 main exited=143"]),
    ("nginx:1.27", "", '["/bin/sh", "-c", "sleep 3 && nginx -s quit"]', ["10 main prestop_started", "13 main exited=143"]),
    ("nginx:1.27", "", '["kill", "-s", "TERM", "1"]', ["10 main prestop_started", "10 main exited=143"]),
    # SIGKILL from inside the container's PID namespace does not reach PID 1: the hook runs its course
    ("nginx:1.27", "", '["sh", "-c", "kill -9 1; sleep 4"]',
     ["10 main prestop_started", "14 main prestop_done", "14 main terminating", "14 main exited=143"]),
    # a shell as PID 1 without a trap ignores the signal: nothing ends before the kubelet's SIGKILL
    ("busybox", '    command: ["sh", "-c", "while true; do sleep 1; done"]\n', '["sh", "-c", "kill 1"]',
     ["10 main prestop_started", "10 main prestop_done", "10 main terminating", "70 main killed",
      "70 main exited=137"]),
])
def test_prestop_that_ends_pid1(image: str, command: str, hook: str, expected: list[str]) -> None:
    out = explain(POD.format(image=image, command=command, hook=hook), "deleteAt: 10")
    from explainer.render.jsonable import explanation_to_dict
    pod = explanation_to_dict(out)["pods"][0]
    assert _exit_events(pod) == expected


def test_istio_proxy_prestop_quitquitquit_and_envoy_admin() -> None:
    pod = parse_pod("""apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: app
    image: example/app
    lifecycle: {preStop: {exec: {command: ["sh", "-c", "sleep 2; curl -sf -XPOST http://127.0.0.1:15020/quitquitquit"]}}}
  - name: istio-proxy
    image: docker.io/istio/proxyv2:1.22.0
    lifecycle: {preStop: {exec: {command: ["pilot-agent", "request", "POST", "quitquitquit"]}}}
""")
    app, proxy = pod.containers
    (stop,) = prestop_stops(app, "sh -c sleep 2; curl -sf -XPOST http://127.0.0.1:15020/quitquitquit", pod)
    assert (stop.target, stop.kind, stop.offset) == ("istio-proxy", ENDPOINT, 2)
    (own,) = prestop_stops(proxy, "pilot-agent request POST quitquitquit", pod)
    assert own.target == "istio-proxy"
    assert prestop_stops(app, "kill -TERM 1", pod)[0].kind == SIGNAL


@pytest.mark.parametrize("script, stops", [
    ("sh -c work; curl -X POST localhost:15020/quitquitquit", True),
    ("sh -c work && curl -fsI -X POST http://localhost:15020/quitquitquit", True),
    ("sh -c work || curl -X POST localhost:15020/quitquitquit", False),     # only when the work failed
    ("sh -c trap 'curl -X POST localhost:15020/quitquitquit' EXIT; work", True),
    ("sh -c echo curl localhost:15020/quitquitquit", False),                 # a word, not a command
    ("linkerd-await --shutdown -- work", False),                             # no linkerd proxy in this Pod
])
def test_worker_calls_that_end_the_proxy(script: str, stops: bool) -> None:
    pod = parse_pod("""apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - {name: work, image: example/work}
      - {name: istio-proxy, image: docker.io/istio/proxyv2:1.22.0}
""")
    assert bool(exit_stops(pod.containers[0], script, pod)) is stops
