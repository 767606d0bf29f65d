"""What a probe or hook needs, and what it is (docs/lifecycle-model.md §29), as tables.

Sources: pkg/probe/exec/exec.go and pkg/kubelet/prober/worker.go `doProbe` (an exec probe passes on exit 0; an
errored check is thrown away); pkg/kubelet/kuberuntime/kuberuntime_container.go `startContainer` (a failed
postStart: FailedPostStartHook and `killContainer`); the Kubernetes task page "Define a liveness command"
(its probe tests /tmp/healthy, which its own command touches first).
"""
from __future__ import annotations

import pytest

from explainer.lifecycle.commands.files import missing_file, tested_file as file_tested
from explainer.lifecycle.commands.guess import runs_only_known
from explainer.lifecycle.manifest.parse import parse_pod
from tests.conftest import load_manifest
from tests.lifecycle.engine import count, events, first, simulated


@pytest.mark.parametrize("command,found", [
    (("sh", "-c", "[[ -f /healthy ]]"), "/healthy"),          # seed 004
    (("cat", "/tmp/healthy"), "/tmp/healthy"),                # the docs' example
    (("test", "-e", "/run/ready"), "/run/ready"),
    (("/bin/sh", "-c", "[ -s '/tmp/ok' ]"), "/tmp/ok"),
    (("ls", "-l", "/tmp/x"), "/tmp/x"),
    (("sh", "-c", "[ ! -f /tmp/stop ]"), None),               # negated: passes while the file is absent
    (("sh", "-c", "test -f /tmp/a && curl localhost"), None), # more than a file test
    (("cat", "$HOME/x"), None), (("cat", "relative"), None),
    (("pg_isready",), None),
])
def test_the_file_a_command_tests(command, found) -> None:
    got = file_tested(command)
    assert (got[0] if got else None) == found


def _container(spec: str):
    pod = parse_pod("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n" + spec)
    return pod.containers[0]


PROBE = '      livenessProbe: {exec: {command: ["cat", "/tmp/healthy"]}}\n'


@pytest.mark.parametrize("spec,missing", [
    # the docs' example: the command touches it
    ('    - name: a\n      image: busybox\n      args: [sh, -c, "touch /tmp/healthy; sleep 600"]\n' + PROBE, False),
    # nothing writes it: echo and sleep only
    ('    - name: a\n      image: busybox\n      command: [sh, -c, "echo up && sleep 3600"]\n' + PROBE, True),
    # a redirect writes it
    ('    - name: a\n      image: busybox\n      command: [sh, -c, "date > /tmp/healthy; sleep 3600"]\n' + PROBE, False),
    # a postStart hook writes it
    ('    - name: a\n      image: busybox\n      command: [sleep, "3600"]\n'
     '      lifecycle: {postStart: {exec: {command: [touch, /tmp/healthy]}}}\n' + PROBE, False),
    # a volume is mounted over it: another container or the source may create it
    ('    - name: a\n      image: busybox\n      command: [sleep, "3600"]\n'
     '      volumeMounts: [{name: v, mountPath: /tmp}]\n' + PROBE, False),
    # the image's own program runs: it may create it
    ('    - name: a\n      image: example/server:1.0\n' + PROBE, False),
    # a program the model does not know runs: it may create it
    ('    - name: a\n      image: busybox\n      command: [sh, -c, "myserver --listen :80"]\n' + PROBE, False),
])
def test_who_may_create_the_file(spec: str, missing: bool) -> None:
    text = spec if "volumeMounts" not in spec else spec + "  volumes: [{name: v, emptyDir: {}}]\n"
    c = _container(text)
    assert (missing_file(c, c.liveness_probe.command, runs_only_known(c)) is not None) is missing


def test_seed_004_liveness_kills_at_60_s_and_again_after_every_restart() -> None:
    """initialDelaySeconds 30, periodSeconds 15, failureThreshold 3: checks at 30, 45, 60 fail, the kill comes
    at the third (docs/lifecycle-model.md §4.4), after every start; the failure is marked assumed."""
    pod = simulated("pods/liveness_file_never_created", "until: 400")
    assert first(pod, "package-handler", "liveness_failed") == 60
    assert first(pod, "package-handler", "liveness_failed", 2) == 90 + 60
    assert all(e.assumed for e in pod.events if e.type == "liveness_failed")
    assert count(pod, "package-handler", "backoff") >= 2


def test_a_scenario_that_says_how_the_probes_behave_replaces_the_assumption() -> None:
    pod = simulated("pods/liveness_file_never_created", "containers: {package-handler: {startupSeconds: 0}}\nuntil: 400")
    assert count(pod, "package-handler", "liveness_failed") == 0


def test_a_poststart_that_tests_a_missing_file_fails_at_every_start() -> None:
    pod = simulated("findings/cases/poststart_tests_missing_file")
    failed = [e for e in pod.events if e.type == "poststart_done"]
    assert failed and all(e.reason == "FailedPostStartHook" and e.assumed for e in failed)
    assert count(pod, "app", "backoff") >= 2


def test_a_distroless_poststart_fails_with_126_and_the_container_crash_loops() -> None:
    """fluent/fluent-bit is distroless: /bin/sh cannot start, the hook fails (126), startContainer kills it."""
    pod = simulated("findings/cases/poststart_distroless_fluent_bit")
    done = [e for e in pod.events if e.type == "poststart_done"]
    assert done[0].reason == "FailedPostStartHook" and done[0].exit_code == 126
    assert count(pod, "log-agent", "backoff") >= 2
    # its exec liveness probe cannot start either: every check errors, and errored results never kill
    assert count(pod, "log-agent", "liveness_failed") == 0


def test_a_distroless_exec_readiness_probe_is_never_ready() -> None:
    pod = simulated("findings/cases/probe_distroless_readiness")
    assert "0 api started" in events(pod) and count(pod, "api", "ready") == 0


def test_a_distroless_exec_startup_probe_never_lets_the_container_count_as_started() -> None:
    pod = simulated("findings/cases/probe_distroless_startup")
    assert count(pod, "api", "startup_probe_ok") == 0 and count(pod, "api", "startup_probe_failed") == 0


# ---- a timeout above the period: one check at a time (§8.2) ----------------------------------------------------
@pytest.mark.parametrize("timeout,expected_kill", [(10, 30.0), (5, 10.0), (3, 10.0)])
def test_a_hanging_probe_runs_one_check_at_a_time(timeout: int, expected_kill: float) -> None:
    """§8.2: period 5 s, 3 failures: with timeoutSeconds 10 the checks that hang start every 10 s and the
    third failure lands at 30 s; at or below the period the spec's 10 s holds."""
    text = load_manifest("findings/probe-timeout-exceeds-period/fires")
    text = text.replace("timeoutSeconds: 10", f"timeoutSeconds: {timeout}")
    ran = simulated("", {"containers": {"app": {"failingProbes": ["liveness"]}}, "until": 60}, text=text)
    assert [e.t for e in ran.events if e.container == "app" and e.type == "liveness_failed"][0] == expected_kill
    noted = any("one check at a time" in n for n in ran.notes)
    assert noted is (timeout > 5)
