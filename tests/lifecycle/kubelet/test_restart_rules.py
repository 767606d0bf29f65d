"""Container restart rules per version (issue 12 point 1; docs/lifecycle-model.md §17)."""
from __future__ import annotations

import pytest

from explainer.lifecycle.model import Container, RestartRule
from explainer.lifecycle.kubelet.restart_rules import is_restartable, should_restart
from tests.lifecycle.engine import assert_in_order, count, events, run, statuses


def _c(policy: str | None, *rules: tuple[str, str, tuple[int, ...]]) -> Container:
    return Container("c", "app", 0, "img", "spec.containers[0]", None, restart_policy=policy,
                     restart_rules=tuple(RestartRule(a, op, v, i) for i, (a, op, v) in enumerate(rules)))


@pytest.mark.parametrize("container,pod,code,restart", [
    # `ContainerShouldRestart`: first matching rule, then the container's policy, then the Pod's
    (_c("Never", ("Restart", "In", (42,))), "Never", 42, True),
    (_c("Never", ("Restart", "In", (42,))), "Never", 1, False),
    (_c("Never", ("Restart", "NotIn", (0, 3))), "Never", 7, True),
    (_c("Never", ("Restart", "NotIn", (0, 3))), "Never", 3, False),
    (_c("OnFailure", ("Restart", "In", (42,))), "Never", 1, True),       # container policy fallback
    (_c("OnFailure", ("Restart", "In", (42,))), "Never", 0, False),
    (_c("Never"), "Always", 1, False),                                   # own policy beats the Pod's
    (_c("Always"), "Never", 0, True),
    (_c(None), "OnFailure", 1, True),                                    # no own policy: the Pod's
    (_c(None, ("Restart", "In", (1,))), "Never", 1, False),              # rules need an own policy
    (_c("Never", ("RestartAllContainers", "In", (42,)), ("Restart", "NotIn", (0,))), "Never", 42, False),
    (_c("Never", ("RestartAllContainers", "In", (42,)), ("Restart", "NotIn", (0,))), "Never", 1, True),
])
def test_container_should_restart_table(container: Container, pod: str, code: int, restart: bool) -> None:
    assert should_restart(container, pod, code) is restart


def test_is_restartable_counts_restart_rules_and_the_own_policy() -> None:
    assert is_restartable(_c("Never", ("Restart", "In", (42,))), "Never")
    assert not is_restartable(_c("Never"), "Always")
    assert is_restartable(_c(None), "OnFailure")


RUNS = "containers: {{worker: {{runs: [{{runSeconds: 5, exitCode: {code}}}, {{runSeconds: forever}}]}}}}\nuntil: 60"


@pytest.mark.parametrize("fixture,version,code,restarts,final,status", [
    ("pods/restart_rules", "1.35", 42, 1, "Running", "Running"),          # a Never Pod restarting
    ("pods/restart_rules", "1.36", 42, 1, "Running", "Running"),
    ("pods/restart_rules", "1.37", 42, 1, "Running", "Running"),
    ("pods/restart_rules", "1.37", 1, 0, "Failed", "Error"),              # In: 1 is not listed
    ("pods/restart_rules", "1.34", 42, 0, "Failed", "Error"),             # gate off: rules dropped
    ("pods/restart_rules_notin", "1.37", 7, 1, "Running", "Running"),
    ("pods/restart_rules_notin", "1.37", 3, 0, "Failed", "Error"),
    ("pods/restart_rules_notin", "1.37", 0, 0, "Succeeded", "Completed"),
    ("pods/restart_rules_fallback", "1.37", 1, 1, "Running", "Running"),  # OnFailure decides
    ("pods/restart_rules_fallback", "1.37", 0, 0, "Succeeded", "Completed"),
])
def test_restart_rules_decide_restarts_per_version(fixture: str, version: str, code: int, restarts: int,
                                                   final: str, status: str) -> None:
    pod = run(fixture, RUNS.format(code=code), version)
    assert pod["admitted"] is True
    assert pod["restartCounts"]["worker"] == restarts
    assert pod["finalPhase"] == final
    assert pod["statusTimeline"][-1]["status"] == status


def test_a_never_pod_restarting_by_rule_stays_running_between_exit_and_restart() -> None:
    pod = run("pods/restart_rules", "containers: {worker: {runs: [{runSeconds: 5, exitCode: 42}, "
                                    "{runSeconds: 5, exitCode: 42}, {runSeconds: forever}]}}\nuntil: 60", "1.37")
    assert_in_order(events(pod), ["5 worker exited=42", "5 worker started", "10 worker exited=42",
                                  "10 worker backoff", "20 worker started"])   # the usual crash-loop back-off
    assert {p["phase"] for p in pod["statusTimeline"] if p["t"] > 0} == {"Running"}
    assert "CrashLoopBackOff" in statuses(pod)


def test_first_matching_rule_wins() -> None:
    on = "featureGates: {RestartAllContainersOnContainerExits: true}\n"
    pod = run("pods/restart_rules_first_match", on + RUNS.format(code=42), "1.35")
    assert count(pod, None, "all_containers_restarting") == 2 and count(pod, "fetch", "started") == 2
    pod = run("pods/restart_rules_first_match", on + RUNS.format(code=1), "1.35")
    assert count(pod, None, "all_containers_restarting") == 0 and count(pod, "fetch", "started") == 1
    assert pod["restartCounts"]["worker"] == 1


@pytest.mark.parametrize("version,final,status,migrate_starts", [
    ("1.35", "Failed", "Init:Error", 1),     # its own Never fails the Always Pod
    ("1.37", "Failed", "Init:Error", 1),
    ("1.34", "Pending", "Init:CrashLoopBackOff", 3),   # dropped: the Pod's Always restarts it
])
def test_init_container_never_in_an_always_pod(version: str, final: str, status: str, migrate_starts: int) -> None:
    pod = run("pods/init_never_in_always", "containers: {migrate: {exitCode: 1}}\nuntil: 60", version)
    assert pod["finalPhase"] == final
    assert statuses(pod)[-1] == status
    assert count(pod, "migrate", "started") >= migrate_starts
    assert count(pod, "app", "started") == 0


def test_the_story_names_the_rule_that_matched() -> None:
    from explainer.explain import explain
    from explainer.render.story import story
    from tests.conftest import load_manifest

    report = explain(load_manifest("pods/restart_rules"), RUNS.format(code=42), "1.37").pods[0]
    text = " ".join(s.text.render() for s in story(report.pod, report.simulation))
    assert "worker exits with code 42 (the main process ends). restartPolicyRules[0] (In 42) matches: Restart" in text
    report = explain(load_manifest("pods/restart_rules_fallback"), RUNS.format(code=1), "1.37").pods[0]
    text = " ".join(s.text.render() for s in story(report.pod, report.simulation))
    assert "No restart rule matches, so its own restartPolicy OnFailure decides: it is restarted." in text


def _errors(pod: dict) -> set[tuple[str, str]]:
    return {(e["path"], e["reason"]) for e in pod["errors"]}


@pytest.mark.parametrize("version,admitted,errors,dropped_note", [
    ("1.33", False, {("spec.containers[0].restartPolicy", "Forbidden")}, False),   # old validation stands
    ("1.34", True, set(), True),                                                    # dropped, with a note
    ("1.35", True, set(), False),
    ("1.37", True, set(), False),
])
def test_restart_fields_per_version(version: str, admitted: bool, errors: set, dropped_note: bool) -> None:
    pod = run("pods/restart_rules", None, version)
    assert pod["admitted"] is admitted
    assert errors <= _errors(pod)
    assert any("drops restartPolicy and restartPolicyRules from worker" in n for n in pod["notes"]) is dropped_note


@pytest.mark.parametrize("manifest_tail,path,reason,words", [
    ("      restartPolicyRules:\n        - action: Restart\n          exitCodes: {operator: In, values: [1]}\n",
     "spec.containers[0].restartPolicy", "Required value", "must be set when restartPolicyRules are"),
    ("      restartPolicy: Never\n      restartPolicyRules:\n        - action: Restart\n",
     "spec.containers[0].restartPolicyRules[0].exitCodes", "Required value", "needs exitCodes"),
    ("      restartPolicy: Never\n      restartPolicyRules:\n        - action: Retry\n"
     "          exitCodes: {operator: In, values: [1]}\n",
     "spec.containers[0].restartPolicyRules[0].action", "Unsupported value", "'Retry'"),
    ("      restartPolicy: Never\n      restartPolicyRules:\n        - action: Restart\n"
     "          exitCodes: {operator: Equals, values: [1]}\n",
     "spec.containers[0].restartPolicyRules[0].exitCodes.operator", "Unsupported value", "'Equals'"),
    ("      restartPolicy: Never\n      restartPolicyRules:\n" + "        - action: Restart\n"
     "          exitCodes: {operator: In, values: [1]}\n" * 21,
     "spec.containers[0].restartPolicyRules", "Too many", "must have at most 20 items"),
    ("      restartPolicy: Never\n      restartPolicyRules:\n        - action: Restart\n"
     "          exitCodes: {operator: In, values: [" + ", ".join(str(i) for i in range(256)) + "]}\n",
     "spec.containers[0].restartPolicyRules[0].exitCodes.values", "Too many", "must have at most 255 items"),
])
def test_restart_rule_validation_messages(manifest_tail: str, path: str, reason: str, words: str) -> None:
    from explainer.explain import explain
    from explainer.render.jsonable import explanation_to_dict

    text = ("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  restartPolicy: Never\n  containers:\n"
            "    - name: w\n      image: busybox\n" + manifest_tail)
    out = explanation_to_dict(explain(text, None, "1.37", schema=False))
    found = [e for e in out["errors"] if e["path"] == path and e["reason"] == reason]
    assert found, out["errors"]
    assert words in found[0]["message"] and found[0]["line"]
