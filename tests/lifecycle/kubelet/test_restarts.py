"""Failures, restarts and back-off (issue 2 rules 4-5; docs/lifecycle-model.md §7-8)."""
from __future__ import annotations

import pytest

from tests.conftest import load_manifest
from tests.lifecycle.engine import Ran, assert_in_order, count, events, first, simulated, statuses

CRASH = "containers: {app: {runSeconds: 0, exitCode: 1}}\nuntil: 1000"


def test_crash_loop_back_off_doubles_from_10_to_a_300_s_cap_and_the_first_restart_is_immediate() -> None:
    """§7.4: restarts at once, then after 10, 20, 40, 80, 160, 300, 300 s."""
    pod = simulated("pods/crashing_app", CRASH)
    starts = [e.t for e in pod.events if e.type == "started"]
    assert starts[:9] == [0, 0, 10, 30, 70, 150, 310, 610, 910]
    backoffs = [e for e in pod.events if e.type == "backoff"]
    assert backoffs[0].reason == "CrashLoopBackOff" and backoffs[0].t == 0


@pytest.mark.parametrize("fixture,scenario,final,restarts,status", [
    ("pods/crashing_app", "containers: {app: {runSeconds: 5, exitCode: 0}}\nuntil: 60", "Running", 3, "CrashLoopBackOff"),
    ("pods/crashing_app_onfailure", "containers: {app: {runSeconds: 5, exitCode: 0}}\nuntil: 60", "Succeeded", 0, "Completed"),
    ("pods/crashing_app_onfailure", "containers: {app: {runSeconds: 5, exitCode: 1}}\nuntil: 60", "Running", 3, "CrashLoopBackOff"),
    ("pods/crashing_app_never", "containers: {app: {runSeconds: 5, exitCode: 1}}\nuntil: 60", "Failed", 0, "Error"),
    ("pods/crashing_app_never", "containers: {app: {runSeconds: 5, exitCode: 0}}\nuntil: 60", "Succeeded", 0, "Completed"),
])
def test_restart_policy_decides_for_app_containers(fixture: str, scenario: str, final: str, restarts: int,
                                                   status: str) -> None:
    pod = simulated(fixture, scenario)
    assert pod.final_phase == final
    assert pod.restart_counts["app"] == restarts
    assert pod.timeline[-1].status == status


def test_runs_list_crash_twice_then_run() -> None:
    pod = simulated("pods/crashing_app", "containers: {app: {runs: [{runSeconds: 1, exitCode: 1}, {runSeconds: 1, "
                                   "exitCode: 1}, {runSeconds: forever}]}}")
    assert_in_order(events(pod), ["0 app started", "1 app exited=1", "1 app started", "2 app exited=1",
                                  "2 app backoff", "12 app started"])
    assert pod.timeline[-1].status == "Running"
    assert pod.restart_counts["app"] == 2


def test_failing_init_container_under_always_crash_loops_and_the_pod_stays_pending() -> None:
    pod = simulated("pods/failing_init", "containers: {migrate: {exitCode: 1}}\nuntil: 100")
    assert "app started" not in " ".join(events(pod))
    assert statuses(pod)[:4] == ["Init:0/2", "Init:1/2", "Init:Error", "Init:1/2"]
    assert "Init:CrashLoopBackOff" in statuses(pod)
    assert pod.final_phase == "Pending"
    assert pod.restart_counts["migrate"] >= 3


def test_failing_init_container_under_never_fails_the_pod_and_stops_the_sidecar() -> None:
    pod = simulated("pods/failing_init_never", "containers: {migrate: {exitCode: 1}}")
    assert_in_order(events(pod), ["0 log-agent started", "0 migrate started", "1 migrate exited=1",
                                  "1 log-agent terminating", "1 log-agent exited=143"])
    assert pod.final_phase == "Failed"
    assert pod.timeline[-1].status == "Init:Error"
    assert "app started" not in " ".join(events(pod))


def test_sidecar_restarts_on_any_exit_even_under_never_and_its_exit_code_does_not_fail_the_pod() -> None:
    """§7.3."""
    pod = simulated("pods/job_native_sidecar", "containers: {log-agent: {runSeconds: 2, exitCode: 1}, "
                                         "worker: {runSeconds: 5}}")
    assert_in_order(events(pod), ["2 log-agent exited=1", "2 log-agent started", "4 log-agent exited=1",
                                  "4 log-agent backoff", "5 worker exited=0"])
    assert pod.final_phase == "Succeeded"


def test_startup_probe_that_never_succeeds_kills_and_restarts() -> None:
    pod = simulated("pods/probes_app", "containers: {app: {failingProbes: [startup]}}\nuntil: 100")
    # checks at 0, 10, 20: the third failure at 20 s kills it; the restart is immediate
    assert first(pod, "app", "startup_probe_failed") == 20
    assert_in_order(events(pod), ["20 app startup_probe_failed", "20 app terminating", "20 app exited=143",
                                  "20 app started", "40 app startup_probe_failed"])
    assert count(pod, "app", "ready") == 0


def test_slow_start_is_covered_by_the_startup_probe_then_readiness_runs_at_once() -> None:
    """§8: liveness waits for started; readiness runs immediately when the startup probe passes."""
    pod = simulated("pods/probes_app", "containers: {app: {startupSeconds: 15}}")
    assert first(pod, "app", "startup_probe_ok") == 20
    assert first(pod, "app", "ready") == 20     # not 30: the manual trigger after startup
    assert count(pod, "app", "liveness_failed") == 0


def test_liveness_without_startup_probe_kills_a_slow_start_in_a_loop() -> None:
    pod = simulated("pods/liveness_only", "containers: {app: {startupSeconds: 30}}\nuntil: 120")
    # checks at 5, 10, 15 fail: killed at 15 s, and again 15 s after each restart
    assert first(pod, "app", "liveness_failed") == 15
    assert count(pod, "app", "liveness_failed") >= 3
    assert pod.restart_counts["app"] >= 3


def test_liveness_failure_under_never_kills_without_restart() -> None:
    pod = simulated("pods/probes_app_never", "containers: {app: {failingProbes: [liveness]}}")
    # started at 0 (startup probe passes at its first check); liveness checks at 0 and 5 fail
    assert_in_order(events(pod), ["0 app startup_probe_ok", "5 app liveness_failed", "5 app terminating",
                                  "5 app exited=143"])
    assert count(pod, "app", "started") == 1
    assert pod.final_phase == "Failed"


def test_readiness_of_sidecars_counts_for_the_pod_and_plain_init_containers_do_not() -> None:
    pod = simulated("pods/readiness_counts", "containers: {proxy: {failingProbes: [readiness]}}")
    last = pod.timeline[-1]
    assert last.status == "Running" and last.ready is False and last.ready_count == "1/2"
    ok = simulated("pods/readiness_counts")
    assert ok.timeline[-1].ready is True and ok.timeline[-1].ready_count == "2/2"
    assert count(ok, "setup", "ready") == 0


# ---- a command that ends under restartPolicy Always (§7.7), and Jobs that retry in place (§13.1) ----------------
def _finding_fixture(rule: str, case: str) -> str:
    return load_manifest(f"findings/{rule}/{case}")


def _at(ran: Ran, container: str | None, kind: str) -> list[float]:
    return [e.t for e in ran.events if e.container == container and e.type == kind]


def test_a_command_that_ends_under_always_exits_0_and_crash_loops() -> None:
    """§7.7: exit 0 counts: restarted at once, then CrashLoopBackOff with 10 s, 20 s, ..."""
    ran = simulated("", text=_finding_fixture("finite-command-under-always", "fires"))
    exits = [e for e in ran.events if e.container == "report" and e.type == "exited"]
    assert [e.t for e in exits[:3]] == [20, 40, 70] and {e.exit_code for e in exits} == {0}
    assert _at(ran, "report", "backoff")[:2] == [40, 70]
    assert _at(ran, "report", "started")[:4] == [0, 20, 50, 90]


def test_a_script_that_sleeps_then_execs_a_server_keeps_running() -> None:
    """§7.7: `sleep 2; exec nginx` is no longer read as ending after its sleeps in a long-running Pod."""
    ran = simulated("", text=_finding_fixture("finite-command-under-always", "quiet"))
    assert not [e for e in ran.events if e.type == "exited"]


def test_onfailure_job_restarts_in_the_same_pod_until_backoff_limit_then_the_pod_is_deleted() -> None:
    """§13.1: restarts with the kubelet's back-off in one Pod; at backoffLimit 3 the Job controller deletes it."""
    ran = simulated("", {"containers": {"migrate": {"runSeconds": 5, "exitCode": 1}}},
                    text=_finding_fixture("job-onfailure-restarts-in-place", "fires"))
    assert _at(ran, "migrate", "started") == [0, 5, 20, 45]        # back-off 0, 10, 20 s
    (deleted,) = [e for e in ran.events if e.type == "delete_requested"]
    assert (deleted.t, deleted.reason) == (45, "BackoffLimitExceeded")
    assert ran.final_phase == "Failed" and ran.restart_counts["migrate"] == 3


def test_the_same_job_under_never_fails_once_and_keeps_its_pod() -> None:
    ran = simulated("", {"containers": {"migrate": {"runSeconds": 5, "exitCode": 1}}},
                    text=_finding_fixture("job-onfailure-restarts-in-place", "quiet"))
    assert _at(ran, "migrate", "started") == [0]
    assert not [e for e in ran.events if e.type == "delete_requested"]
    assert ran.final_phase == "Failed" and ran.restart_counts["migrate"] == 0
