"""RestartAllContainers: the whole Pod restarts in place (issue 12 point 2; docs/lifecycle-model.md §18)."""
from __future__ import annotations

import pytest

from tests.lifecycle.engine import assert_in_order, count, events, first, run, statuses

EXIT_42 = "containers: {trainer: {runs: [{runSeconds: 10, exitCode: 42}, {runSeconds: forever}]}}\nuntil: 100\n"
GATE = "featureGates: {RestartAllContainersOnContainerExits: true}\n"


@pytest.mark.parametrize("version,scenario,admitted,restarts_all", [
    ("1.35", EXIT_42, False, False),          # alpha, off: the API server rejects the action
    ("1.35", EXIT_42 + GATE, True, True),
    ("1.36", EXIT_42, True, True),            # beta, on
    ("1.37", EXIT_42, True, True),
])
def test_restart_all_containers_per_version(version: str, scenario: str, admitted: bool, restarts_all: bool) -> None:
    pod = run("pods/restart_all", scenario, version)
    assert pod["admitted"] is admitted
    assert (count(pod, None, "all_containers_restarting") > 0) is restarts_all
    if not admitted:
        assert any(e["reason"] == "Unsupported value" and "RestartAllContainersOnContainerExits" in e["message"]
                   for e in pod["errors"])


@pytest.mark.parametrize("version", ["1.36", "1.37"])
def test_kills_every_container_at_once_without_prestop_then_reinitialises_in_order(version: str) -> None:
    pod = run("pods/restart_all", EXIT_42, version)
    assert_in_order(events(pod), [
        "12 trainer exited=42",
        "12 - all_containers_restarting",                                   # condition True
        "12 proxy killed", "12 proxy exited=137",                           # list order, no preStop
        "12 metrics killed", "12 metrics exited=137",
        "12 - all_containers_restarting",                                   # removed, condition False
        "12 fetch-shard started", "14 fetch-shard exited=0",                # init containers again, in order
        "14 proxy started", "14 trainer started", "14 metrics started",     # then sidecars, then apps
    ])
    assert count(pod, "proxy", "prestop_started") == 0
    conditions = [e["reason"] for e in pod["events"] if e["type"] == "all_containers_restarting"]
    assert conditions == ["RestartAllContainersStarted", "AllContainersRestarted"]
    assert first(pod, None, "sandbox_ready", 1) == 0 and count(pod, None, "sandbox_ready") == 1   # sandbox kept


def test_restart_counts_go_up_by_one_and_the_phase_is_pending_while_reinitialising() -> None:
    pod = run("pods/restart_all", EXIT_42, "1.37")
    assert pod["restartCounts"] == {"fetch-shard": 1, "proxy": 1, "trainer": 1, "metrics": 1}
    during = [p for p in pod["statusTimeline"] if 12 <= p["t"] < 14]
    assert during and during[-1]["phase"] == "Pending" and during[-1]["status"] == "Init:0/2"
    assert not during[-1]["ready"]
    assert pod["finalPhase"] == "Running" and statuses(pod)[-1] == "Running"


def test_no_back_off_for_the_whole_pod_restart() -> None:
    """`doBackOff` finds no exited container once they are removed: every restart is immediate."""
    pod = run("pods/restart_all", "containers: {trainer: {runSeconds: 10, exitCode: 42}}\nuntil: 60\n", "1.37")
    assert [e["t"] for e in pod["events"] if e["type"] == "all_containers_restarting"
            and e["reason"] == "RestartAllContainersStarted"] == [12, 24, 36, 48, 60]
    assert count(pod, "trainer", "backoff") == 0


def test_not_during_deletion() -> None:
    scenario = "containers: {trainer: {runSeconds: 10, exitCode: 42, stopSeconds: 15, stopExitCode: 42}}\n" \
               "deleteAt: 5\nuntil: 100\n"
    pod = run("pods/restart_all", scenario, "1.37")
    assert count(pod, None, "all_containers_restarting") == 0
    assert count(pod, "trainer", "started") == 1 and pod["finalPhase"] in ("Failed", "Succeeded")


def test_ephemeral_containers_are_killed_and_not_restarted() -> None:
    scenario = EXIT_42 + "debug: [{name: debugger, image: 'busybox:1.36', target: trainer, at: 5}]\n"
    pod = run("pods/restart_all", scenario, "1.37")
    assert_in_order(events(pod), ["5 debugger started", "12 trainer exited=42", "12 debugger killed",
                                  "12 debugger exited=137", "14 trainer started"])
    assert count(pod, "debugger", "started") == 1


def test_a_sidecar_rule_restarts_everything() -> None:
    """Rules are allowed on sidecars while the gate is on (`AllowRestartAllContainers`)."""
    text = ("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  initContainers:\n    - name: proxy\n"
            "      image: envoy\n      restartPolicy: Always\n      restartPolicyRules:\n"
            "        - action: RestartAllContainers\n          exitCodes: {operator: In, values: [1]}\n"
            "  containers:\n    - {name: app, image: app}\n")
    from explainer.explain import explain
    from explainer.render.jsonable import explanation_to_dict

    scenario = "containers: {proxy: {runs: [{runSeconds: 5, exitCode: 1}, {runSeconds: forever}]}}\nuntil: 30"
    pod = explanation_to_dict(explain(text, scenario, "1.37"))["pods"][0]
    assert pod["admitted"]
    assert_in_order(events(pod), ["5 proxy exited=1", "5 - all_containers_restarting", "5 app killed",
                                  "5 proxy started", "5 app started"])
    old = explanation_to_dict(explain(text, scenario, "1.35", schema=False))["pods"][0]
    assert not old["admitted"] and old["errors"][0]["reason"] == "Forbidden"
