"""Variables in commands and hooks (explainer/lifecycle/commands/expand.py): the kubelet's $(VAR), a shell's $VAR."""
from __future__ import annotations

import pytest

from explainer.explain import explain
from explainer.lifecycle.commands.expand import environment, expand_container, expand_kubernetes, expand_shell
from explainer.lifecycle.manifest.parse import parse_pod
from tests.conftest import load_manifest


def test_env_values_expand_earlier_variables_real_world_dependent_envars() -> None:
    """The documented outcome of kubernetes/website's dependent-envars example."""
    env, open_ended = environment(parse_pod(load_manifest("pods/rw_dependent_envars")).containers[0])
    assert env["SERVICE_ADDRESS"] == "https://172.17.0.1:80"
    assert env["UNCHANGED_REFERENCE"] == "$(PROTOCOL)://172.17.0.1:80"    # PROTOCOL defined only later
    assert env["ESCAPED_REFERENCE"] == "$(PROTOCOL)://172.17.0.1:80"      # $$ escapes
    assert not open_ended


@pytest.mark.parametrize("text, expanded", [
    ("sleep $(D)", "sleep 20"),
    ("sleep $$(D)", "sleep $(D)"),          # escaped
    ("sleep $(NOPE)", "sleep $(NOPE)"),     # undefined: kept as written
    ("sleep $D", "sleep $D"),               # not Kubernetes syntax: left for a shell
    ("cost $$5 $(", "cost $5 $("),          # an incomplete reference stays
])
def test_kubernetes_expansion_follows_the_forked_expand(text: str, expanded: str) -> None:
    assert expand_kubernetes(text, {"D": "20"})[0] == expanded


@pytest.mark.parametrize("script, expanded", [
    ("sleep $D", "sleep 20"),
    ("sleep ${D}", "sleep 20"),
    ("sleep ${NOPE:-15}", "sleep 15"),
    ("sleep ${E:-15}", "sleep 15"),          # set but empty: :- takes the default
    ("sleep ${E-15}", "sleep "),            # set but empty: - keeps the empty value
    ("W=7; sleep $W", "W=7; sleep 7"),     # assigned by the script itself
    ("sleep $NOPE", "sleep "),              # unset: empty
])
def test_shell_expansion(script: str, expanded: str) -> None:
    assert expand_shell(script, {"D": "20", "E": ""}, False)[0] == expanded


POD = """apiVersion: v1
kind: Pod
metadata: {{name: p}}
spec:
  terminationGracePeriodSeconds: 60
  containers:
  - name: web
    image: nginx:1.27
    env:
    - {{name: DRAIN_TIME_SECONDS, value: "20"}}
    - {{name: DRAIN, value: "$(DRAIN_TIME_SECONDS)"}}
    - name: FROM_SECRET
      valueFrom: {{secretKeyRef: {{name: s, key: k}}}}
    lifecycle:
      preStop:
        exec:
          command: {hook}
"""


@pytest.mark.parametrize("hook, seconds", [
    ('["sh", "-c", "sleep ${DRAIN_TIME_SECONDS}"]', 20),
    ('["/bin/sh", "-c", "sleep $DRAIN && nginx -s quit"]', 20),
    ('["sleep", "$(DRAIN)"]', 0),           # hooks are not expanded by the kubelet: sleep gets "$(DRAIN)"
])
def test_prestop_sleep_reads_the_env(hook: str, seconds: float) -> None:
    report = explain(POD.format(hook=hook), {"deleteAt": 5}).pods[0]
    b = report.simulation.behaviours["web"]
    assert b.pre_stop_seconds == seconds
    if seconds:
        assert "from the container's env" in b.assumed["preStopSeconds"]


def test_a_value_from_a_secret_is_unknown_and_marked_assumed() -> None:
    report = explain(POD.format(hook='["sh", "-c", "sleep $FROM_SECRET"]'), {"deleteAt": 5}).pods[0]
    b = report.simulation.behaviours["web"]
    assert b.pre_stop_seconds == 0
    assert "$FROM_SECRET, set outside the manifest" in b.assumed["preStopSeconds"]
    started = next(e for e in report.simulation.events if e.type == "prestop_done")
    assert started.assumed


JOB = """apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  restartPolicy: Never
  containers:
  - name: job
    image: busybox
    command: ["sh", "-c"]
    args: ["sleep $(WAIT) && sleep ${MORE}"]
    env: [{name: WAIT, value: "30"}, {name: MORE, value: "12"}]
"""


def test_kubelet_expands_command_and_args_before_the_shell() -> None:
    pod = parse_pod(JOB)
    exp = expand_container(pod.containers[0])
    assert exp.args == ("sleep 30 && sleep 12",) and exp.used == ("WAIT", "MORE")
    report = explain(JOB).pods[0]
    exits = [e.t for e in report.simulation.events if e.type == "exited"]
    assert exits == [42]

