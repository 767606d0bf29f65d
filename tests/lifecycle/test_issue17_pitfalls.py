"""What the timeline shows for issue 17's pitfalls (docs/lifecycle-model.md §7.7, §8.1, §12.6, §13.1):
the numbers each finding quotes are the simulation's."""
from __future__ import annotations

from pathlib import Path

import pytest

from explainer.explain import explain

FINDINGS = Path(__file__).resolve().parent.parent / "fixtures" / "findings"


def _events(text: str, scenario: str | dict | None = None) -> list:
    expl = explain(text, scenario)
    assert expl.ok, [e.one_line() for e in expl.errors]
    (pod,) = expl.pods
    return pod.simulation.events


def _pod(text: str, scenario: str | dict | None = None):
    (pod,) = explain(text, scenario).pods
    return pod


def _at(events: list, container: str | None, kind: str) -> list[float]:
    return [e.t for e in events if e.container == container and e.type == kind]


def test_a_command_that_ends_under_always_exits_0_and_crash_loops() -> None:
    """§7.7: exit 0 counts: restarted at once, then CrashLoopBackOff with 10 s, 20 s, ..."""
    events = _events((FINDINGS / "finite-command-under-always" / "fires.yaml").read_text())
    exits = [e for e in events if e.container == "report" and e.type == "exited"]
    assert [e.t for e in exits[:3]] == [20, 40, 70] and {e.exit_code for e in exits} == {0}
    assert _at(events, "report", "backoff")[:2] == [40, 70]
    assert _at(events, "report", "started")[:4] == [0, 20, 50, 90]


def test_a_script_that_sleeps_then_execs_a_server_keeps_running() -> None:
    """§7.7: `sleep 2; exec nginx` is no longer read as ending after its sleeps in a long-running Pod."""
    events = _events((FINDINGS / "finite-command-under-always" / "quiet.yaml").read_text())
    assert not [e for e in events if e.type == "exited"]


@pytest.mark.parametrize("timeout,expected_kill", [(10, 30.0), (5, 10.0), (3, 10.0)])
def test_a_hanging_probe_runs_one_check_at_a_time(timeout: int, expected_kill: float) -> None:
    """§8.1: period 5 s, 3 failures: with timeoutSeconds 10 the checks that hang start every 10 s and the
    third failure lands at 30 s; at or below the period the spec's 10 s holds."""
    text = (FINDINGS / "probe-timeout-exceeds-period" / "fires.yaml").read_text()
    text = text.replace("timeoutSeconds: 10", f"timeoutSeconds: {timeout}")
    pod = _pod(text, {"containers": {"app": {"failingProbes": ["liveness"]}}, "until": 60})
    assert _at(pod.simulation.events, "app", "liveness_failed")[0] == expected_kill
    noted = any("one check at a time" in n.render() for n in pod.notes)
    assert noted is (timeout > 5)


def test_grace_zero_deletion_is_forced_and_the_kubelet_still_gives_one_second() -> None:
    """§12.6: preStop cut after 1 s (the pod worker's floor), SIGTERM then, SIGKILL 2 s later."""
    pod = _pod((FINDINGS / "termination-grace-zero" / "fires.yaml").read_text(), {"deleteAt": 20})
    events = pod.simulation.events
    assert _at(events, "queue", "prestop_started") == [20]
    (done,) = [e for e in events if e.container == "queue" and e.type == "prestop_done"]
    assert (done.t, done.reason) == (21, "GracePeriodExceeded")
    assert _at(events, "queue", "terminating") == [21]
    assert any("forced deletion" in n.render() for n in pod.notes)


def test_grace_zero_without_a_hook_gets_sigterm_then_sigkill_two_seconds_later() -> None:
    text = ("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  terminationGracePeriodSeconds: 0\n"
            "  containers:\n    - name: app\n      image: example/app:1.0\n")
    events = _events(text, {"deleteAt": 5, "containers": {"app": {"stopSeconds": "never"}}})
    assert _at(events, "app", "terminating") == [5]
    assert _at(events, "app", "killed") == [7]


def test_onfailure_job_restarts_in_the_same_pod_until_backoff_limit_then_the_pod_is_deleted() -> None:
    """§13.1: restarts with the kubelet's back-off in one Pod; at backoffLimit 3 the Job controller deletes it."""
    text = (FINDINGS / "job-onfailure-restarts-in-place" / "fires.yaml").read_text()
    pod = _pod(text, {"containers": {"migrate": {"runSeconds": 5, "exitCode": 1}}})
    events = pod.simulation.events
    assert _at(events, "migrate", "started") == [0, 5, 20, 45]        # back-off 0, 10, 20 s
    (deleted,) = [e for e in events if e.type == "delete_requested"]
    assert (deleted.t, deleted.reason) == (45, "BackoffLimitExceeded")
    assert pod.simulation.final_phase == "Failed" and pod.simulation.restart_counts["migrate"] == 3


def test_the_same_job_under_never_fails_once_and_keeps_its_pod() -> None:
    text = (FINDINGS / "job-onfailure-restarts-in-place" / "quiet.yaml").read_text()
    pod = _pod(text, {"containers": {"migrate": {"runSeconds": 5, "exitCode": 1}}})
    events = pod.simulation.events
    assert _at(events, "migrate", "started") == [0]
    assert not [e for e in events if e.type == "delete_requested"]
    assert pod.simulation.final_phase == "Failed" and pod.simulation.restart_counts["migrate"] == 0


def test_a_pod_template_deadline_fails_the_pod_itself() -> None:
    """The Pod field: the kubelet fails this Pod at 600 s (DeadlineExceeded); the Job would replace it."""
    text = (FINDINGS / "active-deadline-on-pod-template" / "fires.yaml").read_text()
    events = _events(text, {"containers": {"import": {"runSeconds": "forever"}}, "until": 700})
    assert _at(events, None, "deadline_exceeded") == [600]
