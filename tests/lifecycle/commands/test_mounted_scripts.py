"""Scripts run from a ConfigMap of the same input (explainer/lifecycle/commands/mounted_scripts.py)."""
from __future__ import annotations

import pytest

from explainer.explain import explain
from explainer.lifecycle.commands.guess import guess_run, guess_stop
from explainer.lifecycle.manifest.parse import parse_manifest
from tests.conftest import load_manifest


def _pods(text: str):
    intake = parse_manifest(text)
    assert not intake.errors
    return intake.pods


def test_gke_node_initializer_reads_its_configmap_script() -> None:
    """The script's shebang makes bash PID 1 (no trap: SIGTERM ignored); its `while true` returns."""
    (pod,) = _pods(load_manifest("pods/rw_gke_node_initializer_configmap"))
    init = pod.init_containers[0]
    assert [p for p, _ in init.files] == ["/scripts/entrypoint.sh"]
    assert "untaint" in init.script
    assert guess_stop(init)[0] is None
    run = guess_run(init, True)
    assert run.seconds == 1.0 and "waits in a loop" in run.why
    report = explain(load_manifest("pods/rw_gke_node_initializer_configmap")).pods[0]
    assert report.simulation.final_phase == "Running"
    assert any(e.container == "pause" and e.type == "started" for e in report.simulation.events)


def test_without_the_configmap_the_script_is_unknown() -> None:
    text = load_manifest("pods/rw_gke_node_initializer_configmap").split("---\n", 1)[1]
    (pod,) = _pods(text)
    assert pod.init_containers[0].files == ()
    assert guess_stop(pod.init_containers[0])[0] == 0.0      # only assumed: nothing to read


SCRIPT = """apiVersion: v1
kind: ConfigMap
metadata: {{name: scripts{ns}}}
data:
  run.sh: |
    #!/bin/sh
    trap 'echo bye; exit 0' TERM
    sleep 300 &
    wait $!
  other.sh: "echo other"
---
apiVersion: v1
kind: Pod
metadata: {{name: p}}
spec:
  containers:
  - name: app
    image: alpine:3.20
    command: {command}
    volumeMounts: [{mount}]
  volumes:
  - name: s
    configMap: {{name: scripts{items}}}
"""


@pytest.mark.parametrize("command, mount, items, ns, found", [
    ('["/scripts/run.sh"]', "{name: s, mountPath: /scripts}", "", "", "/scripts/run.sh"),
    ('["sh", "/opt/run.sh"]', "{name: s, mountPath: /opt/run.sh, subPath: run.sh}", "", "", "/opt/run.sh"),
    ('["/scripts/start"]', "{name: s, mountPath: /scripts}", ", items: [{key: run.sh, path: start}]", "",
     "/scripts/start"),
    ('["/scripts/run.sh"]', "{name: s, mountPath: /scripts}", ", items: [{key: other.sh, path: o.sh}]", "", None),
    ('["/scripts/run.sh"]', "{name: s, mountPath: /scripts}", "", ", namespace: elsewhere", "/scripts/run.sh"),
    ('["/scripts/run.sh.bak"]', "{name: s, mountPath: /scripts}", "", "", None),
])
def test_which_file_a_command_runs(command: str, mount: str, items: str, ns: str, found: str | None) -> None:
    (pod,) = _pods(SCRIPT.format(command=command, mount=mount, items=items, ns=ns))
    files = pod.containers[0].files
    assert [p for p, _ in files] == ([found] if found else [])
    if found:
        assert "trap" in pod.containers[0].script
        # the script traps TERM and waits in `wait`: it exits 0 at once (docs/lifecycle-model.md §30.2)
        assert guess_stop(pod.containers[0]) == (0.0, "its script traps SIGTERM and, waiting in `wait`, exits 0 at once")


def test_a_trap_in_the_configmap_script_ends_the_container_at_sigterm() -> None:
    text = SCRIPT.format(command='["/scripts/run.sh"]', mount="{name: s, mountPath: /scripts}", items="", ns="")
    with_trap = explain(text, "deleteAt: 10").pods[0].simulation
    without = explain(text.replace("trap 'echo bye; exit 0' TERM", "echo none"), "deleteAt: 10").pods[0].simulation
    assert [e.t for e in with_trap.events if e.type == "exited"] == [10]
    assert [e.t for e in without.events if e.type == "exited"] == [40]     # SIGKILL after the grace period


def test_a_prestop_script_from_a_configmap_is_read() -> None:
    text = """apiVersion: v1
kind: ConfigMap
metadata: {name: hooks}
data:
  drain.sh: |
    #!/bin/sh
    sleep 15
    nginx -s quit
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: web
    image: nginx:1.27
    lifecycle: {preStop: {exec: {command: ["/hooks/drain.sh"]}}}
    volumeMounts: [{name: h, mountPath: /hooks}]
  volumes:
  - {name: h, configMap: {name: hooks, defaultMode: 0755}}
"""
    sim = explain(text, "deleteAt: 10").pods[0].simulation
    assert [(e.t, e.type) for e in sim.events if e.type in ("prestop_started", "exited", "terminating")] == [
        (10, "prestop_started"), (25, "exited")]      # nginx -s quit after the script's 15 s sleep
