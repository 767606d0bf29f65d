"""Termination (issue 2 rule 7; docs/lifecycle-model.md §12)."""
from __future__ import annotations

from tests.lifecycle.engine import Ran, assert_in_order, count, events, first, simulated

DELETE = "deleteAt: 10\n"


def test_app_first_then_sidecars_in_reverse_order_and_prestops_start_together() -> None:
    pod = simulated("pods/termination", DELETE)
    ev = events(pod)
    # §12.3: every preStop starts at the moment of deletion, the sidecars' included
    assert_in_order(ev, ["10 - delete_requested", "10 sidecar-a prestop_started", "10 app prestop_started"])
    # sidecar-b has no preStop: it waits for its turn (after the app) although it is ready at once
    assert_in_order(ev, ["15 app prestop_done", "15 app terminating", "15 app exited=143",
                         "15 sidecar-b terminating", "15 sidecar-b exited=143",
                         "15 sidecar-a terminating", "15 sidecar-a exited=143"])
    assert ev.index("12 sidecar-a prestop_done") < ev.index("15 sidecar-a terminating")
    assert pod.final_phase == "Failed"        # the app exited 143: not all regular containers exited 0
    assert pod.timeline[-1].status == "Error"


def test_one_shared_grace_deadline_then_sigkill_and_sidecars_all_at_once() -> None:
    """§12.2, §12.3: a main that ignores SIGTERM is killed at the deadline; the waiting sidecars get
    SIGTERM at that same moment with the 2 s floor, then SIGKILL."""
    pod = simulated("pods/termination", DELETE + "containers: {app: {stopSeconds: never}, sidecar-a: {stopSeconds: never}}")
    ev = events(pod)
    assert_in_order(ev, ["15 app terminating", "30 sidecar-b terminating", "30 sidecar-a terminating",
                         "30 app killed", "30 app exited=137", "32 sidecar-a killed", "32 sidecar-a exited=137"])
    assert "30 sidecar-b exited=143" in ev


def test_prestop_longer_than_grace_is_cut_and_stop_gets_two_more_seconds() -> None:
    pod = simulated("pods/termination", DELETE + "containers: {app: {preStopSeconds: forever, stopSeconds: never}}")
    ev = events(pod)
    assert_in_order(ev, ["30 app prestop_done", "30 app terminating", "32 app killed", "32 app exited=137"])
    prestop_end = [e for e in pod.events if e.type == "prestop_done" and e.container == "app"][0]
    assert prestop_end.reason == "GracePeriodExceeded"


def test_delete_grace_period_overrides_the_spec() -> None:
    pod = simulated("pods/termination", DELETE + "deleteGracePeriodSeconds: 3\ncontainers: {app: {stopSeconds: never}}")
    # the app's 5 s sleep hook is cut at 13; SIGTERM then, SIGKILL 2 s later
    assert_in_order(events(pod), ["13 app prestop_done", "13 app terminating", "15 app killed"])


def test_nothing_restarts_and_liveness_stops_during_termination() -> None:
    """§12.5, §8."""
    pod = simulated("pods/probes_app", "deleteAt: 1\ncontainers: {app: {failingProbes: [liveness]}}")
    assert count(pod, "app", "liveness_failed") == 0
    assert count(pod, "app", "started") == 1


def test_batch_completion_stops_the_native_sidecar_and_succeeds() -> None:
    pod = simulated("pods/job_native_sidecar")
    assert_in_order(events(pod), ["0 log-agent started", "0 worker started", "5 worker exited=0",
                                  "5 log-agent terminating", "5 log-agent exited=143"])
    assert pod.final_phase == "Succeeded"
    assert pod.timeline[-1].status == "Completed"


def test_classic_sidecar_keeps_a_job_pod_running_forever() -> None:
    pod = simulated("seeds/job-classic-sidecar")
    assert first(pod, "worker", "exited") == 1
    assert count(pod, "log-sidecar", "exited") == 0
    assert pod.final_phase == "Running"
    assert pod.timeline[-1].status == "NotReady"
    assert pod.end_time == pod.until


def test_active_deadline_fails_the_pod() -> None:
    pod = simulated("pods/deadline")
    assert_in_order(events(pod), ["20 - deadline_exceeded", "20 app terminating", "20 app exited=143"])
    assert pod.final_phase == "Failed"
    assert pod.timeline[1].phase == "Running"


def test_kill_is_synchronous_nothing_else_happens_meanwhile() -> None:
    """§12.5: while one container's preStop runs after a liveness failure, a crashed container
    waits: its restart comes only when the kill is over."""
    scenario = ("containers: {app: {failingProbes: [liveness], preStopSeconds: 20},"
                " other: {runs: [{runSeconds: 7, exitCode: 1}, {runSeconds: forever}]}}\nuntil: 60")
    pod = simulated("pods/sync_kill", scenario)
    ev = events(pod)
    assert_in_order(ev, ["5 app liveness_failed", "5 app prestop_started", "7 other exited=1",
                         "25 app prestop_done", "25 app exited=143", "25 app started", "25 other started"])


def test_a_pod_deleted_during_initialisation_ends_failed_not_pending() -> None:
    """Since 1.27 a Pod the kubelet has finished with is moved to a terminal phase."""
    pod = simulated("seeds/long-running-init", "deleteAt: 10")
    assert pod.final_phase == "Failed"
    assert pod.timeline[-1].status != "Terminating"
    pulling = simulated("pods/image_pull", "containers: {setup: {imagePull: fails}}\ndeleteAt: 15")
    assert pulling.final_phase == "Failed"


def test_liveness_failure_of_the_only_app_under_never_kills_the_pod_with_the_pods_grace() -> None:
    """`computePodActions`: nothing to keep or start -> KillPod; its kills carry no probe reason."""
    pod = simulated("pods/probe_grace_never", "containers: {app: {failingProbes: [liveness], stopSeconds: never}}")
    killed = [e.t for e in pod.events if e.type == "killed" and e.container == "app"]
    assert killed == [5 + 30]                    # the Pod's 30 s, not the probe's 3 s
    assert pod.final_phase == "Failed"


# ---- a grace period of 0 (§12.6), and a Pod template's deadline ------------------------------------------------
def _at(ran: Ran, container: str | None, kind: str) -> list[float]:
    return [e.t for e in ran.events if e.container == container and e.type == kind]


def test_grace_zero_deletion_is_forced_and_the_kubelet_still_gives_one_second() -> None:
    """§12.6: preStop cut after 1 s (the pod worker's floor), SIGTERM then, SIGKILL 2 s later."""
    ran = simulated("findings/termination-grace-zero/fires", {"deleteAt": 20})
    assert _at(ran, "queue", "prestop_started") == [20]
    (done,) = [e for e in ran.events if e.container == "queue" and e.type == "prestop_done"]
    assert (done.t, done.reason) == (21, "GracePeriodExceeded")
    assert _at(ran, "queue", "terminating") == [21]
    assert any("forced deletion" in n for n in ran.notes)


def test_grace_zero_without_a_hook_gets_sigterm_then_sigkill_two_seconds_later() -> None:
    text = ("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  terminationGracePeriodSeconds: 0\n"
            "  containers:\n    - name: app\n      image: example/app:1.0\n")
    ran = simulated("", {"deleteAt": 5, "containers": {"app": {"stopSeconds": "never"}}}, text=text)
    assert _at(ran, "app", "terminating") == [5]
    assert _at(ran, "app", "killed") == [7]


def test_a_pod_template_deadline_fails_the_pod_itself() -> None:
    """The Pod field: the kubelet fails this Pod at 600 s (DeadlineExceeded); the Job would replace it."""
    ran = simulated("findings/active-deadline-on-pod-template/fires",
                    {"containers": {"import": {"runSeconds": "forever"}}, "until": 700})
    assert _at(ran, None, "deadline_exceeded") == [600]
