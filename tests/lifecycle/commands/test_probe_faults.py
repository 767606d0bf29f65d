"""Probes that cannot pass (explainer/lifecycle/commands/probe_faults.py) and what the kubelet makes of them."""
from __future__ import annotations

import pytest

from explainer.lifecycle.manifest.parse import parse_pod
from explainer.lifecycle.commands.evidence import resolve_port
from explainer.lifecycle.commands.probe_faults import ERRORS, FAILS, probe_fault, probe_faults
from tests.lifecycle.engine import events, simulated


def _pod(containers: str, extra: str = "") -> str:
    return f"apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n{extra}  containers:\n{containers}"


APP = """  - name: app
    image: example/app:1
    ports: [{{name: web, containerPort: 8080}}]
    {probe}: {{httpGet: {{path: /healthz, port: {port}}}, periodSeconds: 5, failureThreshold: 3}}
"""


def _fault(port: str, probe: str = "readinessProbe"):
    pod = parse_pod(_pod(APP.format(probe=probe, port=port)))
    c = pod.containers[0]
    return probe_fault(c.probes[0], c, pod)


@pytest.mark.parametrize("port, outcome", [
    ("web", None),            # declared by name
    ("8080", None),           # a number written as text: `ResolveContainerPort` falls back to Atoi
    ("8081", None),           # a number: nothing says what the app listens on besides 8080
    ("http", ERRORS),         # `findPortByName` fails: every check errors
])
def test_named_ports_resolve_as_the_kubelet_does(port: str, outcome: str | None) -> None:
    fault = _fault(port)
    assert (fault.outcome if fault else None) == outcome


def test_a_port_name_of_another_container_does_not_count() -> None:
    pod = parse_pod(_pod(APP.format(probe="readinessProbe", port="metrics") +
                         "  - {name: exporter, image: example/exp:1, ports: [{name: metrics, containerPort: 9100}]}\n"))
    fault = probe_faults(pod.containers[0], pod)["readiness"]
    assert fault.outcome == ERRORS and "exporter" in fault.why
    assert resolve_port(pod.containers[1], "metrics") == 9100


def test_errored_liveness_never_kills_real_world_vsphere_csi() -> None:
    """vsphere-tmm/helm-charts#59: `Liveness probe errored`, yet Ready and RESTARTS 0."""
    pod = simulated("pods/rw_vsphere_csi_named_port")
    assert not any(e.type == "liveness_failed" for e in pod.events)
    assert pod.timeline[-1].restarts == 0
    assert any("port name healthz" in n and "never kills" in n for n in pod.notes)


def test_errored_readiness_is_never_ready() -> None:
    out = simulated("", text=_pod(APP.format(probe="readinessProbe", port="http")))
    assert not any(e.type == "ready" for e in out.events)
    assert out.timeline[-1].ready_count == "0/1"
    assert any("never Ready" in n for n in out.notes)


def test_errored_startup_probe_of_a_sidecar_holds_back_the_app() -> None:
    text = _pod("  - {name: app, image: example/app:1}\n", extra="""  initContainers:
  - name: proxy
    image: example/proxy:1
    restartPolicy: Always
    startupProbe: {tcpSocket: {port: admin}, periodSeconds: 1, failureThreshold: 3}
""")
    out = simulated("", text=text)
    got = events(out)
    assert "0 proxy started" in got and not any(" app started" in e for e in got)
    assert not any(e.type == "startup_probe_failed" for e in out.events)
    assert any("containers after it never start" in n for n in out.notes)


LISTENS = """  - name: api
    image: example/api:1
    args: ["--listen-address=:8080"]
    ports: [{{containerPort: 8080}}]
    livenessProbe: {{tcpSocket: {{port: {port}}}, periodSeconds: 10, failureThreshold: 3}}
"""


def test_a_port_nothing_listens_on_fails_and_liveness_restarts() -> None:
    out = simulated("", text=_pod(LISTENS.format(port=8081)))
    kills = [e.t for e in out.events if e.type == "liveness_failed"]
    assert kills[:2] == [20, 40]     # checks at 0, 10, 20; restarted at once at 20 s; checks 20, 30, 40
    assert any("nothing listens on port 8081" in n for n in out.notes)


@pytest.mark.parametrize("change", [
    lambda t: t.replace(":8080\"]", ":8080\", \"--health-port=8081\"]"),    # a flag names the port
    lambda t: t.replace("    args: [\"--listen-address=:8080\"]\n", ""),      # no evidence of what it listens on
    lambda t: t + "  - {name: proxy, image: envoyproxy/envoy:v1.30}\n",       # another container may listen there
])
def test_a_numeric_port_is_only_judged_when_knowable(change) -> None:
    pod = parse_pod(_pod(change(LISTENS.format(port=8081))))
    assert probe_faults(pod.containers[0], pod) == {}
