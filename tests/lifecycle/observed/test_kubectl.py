"""Every case of kubectl's own printer tests, as a table test of `observed.kubectl.print_pod`.

k/k pkg/printers/internalversion/printers_test.go `TestPrintPod` (test1 ... test20, test6 twice) and
`TestPrintPodWithRestartableInitContainer` (test1 twice, test2, test3, test4).  Each row is the Go
case's Pod, written with the helpers below, and the READY, STATUS and RESTARTS cells it expects.  The
Go tests print "(10s ago)" relative to time.Now(); here "now" is fixed and the finish times are the
same distances before it.
"""
from __future__ import annotations

from typing import Any

import pytest

from explainer.lifecycle.observed.kubectl import print_pod
from explainer.lifecycle.observed.model import ABSOLUTE, Condition, ContainerObs, Snapshot, SpecInfo, Termination, When

NOW = 1_700_000_000.0
DAY = 86_400


def c(name: str | None = None, *, ready: bool = False, rc: int = 0, state: str | None = None,
      reason: str | None = None, code: int | None = None, signal: int | None = None,
      started: bool | None = None, last_ago: float | None = None) -> ContainerObs:
    """A container status: ``state`` running | waiting | terminated | None (Go's empty State),
    ``last_ago`` a lastState.terminated whose finishedAt is that many seconds before NOW."""
    terminated = Termination(name, code, signal, reason, None, None, None) if state == "terminated" else None
    last = (Termination(name, None, None, None, None, None, When(ABSOLUTE, NOW - last_ago))
            if last_ago is not None else None)
    return ContainerObs(name, "app", state=state, reason=reason, terminated=terminated, last=last,
                        restart_count=rc, ready=ready, started=started)


def pod(apps: list[ContainerObs], *, init: list[ContainerObs] = (), phase: str = "podPhase",
        reason: str | None = None, conditions: tuple[tuple[str, str, str | None], ...] = (),
        deleted: bool = False, spec_init: tuple[tuple[str, bool], ...] | int = (),
        n_apps: int | None = None) -> tuple[Snapshot, SpecInfo]:
    if isinstance(spec_init, int):     # `make([]api.Container, n)`: unnamed, not restartable
        spec_init = tuple(("", False) for _ in range(spec_init))
    spec = SpecInfo(init=tuple(spec_init), apps=tuple(f"c{i}" for i in range(len(apps) if n_apps is None
                                                                                 else n_apps)))
    snap = Snapshot(0, "pod", "p", phase=phase, reason=reason,
                    conditions=tuple(Condition(t, s, r) for t, s, r in conditions),
                    init=tuple(init), apps=tuple(apps),
                    deleted=When(ABSOLUTE, NOW - 10) if deleted else None, deleting=deleted)
    return snap, spec


SIDECARS = (("restartable-init-1", True), ("restartable-init-2", True))

# (case, pod, READY, STATUS, RESTARTS)
TEST_PRINT_POD: list[tuple[str, tuple[Snapshot, SpecInfo], str, str, str]] = [
    ("test1", pod([c(ready=True, rc=3, state="running"), c(rc=3)]), "1/2", "podPhase", "6"),
    ("test2", pod([c(ready=True, rc=3, state="running"), c(state="waiting", reason="ContainerWaitingReason", rc=3)]),
     "1/2", "ContainerWaitingReason", "6"),
    ("test3", pod([c(state="waiting", reason="ContainerWaitingReason", rc=3),
                   c(state="terminated", reason="ContainerTerminatedReason", rc=3)]),
     "0/2", "ContainerWaitingReason", "6"),
    ("test4", pod([c(ready=True, rc=3, state="running"), c(ready=True, rc=3)]), "1/2", "podPhase", "6"),
    ("test5", pod([c(ready=True, rc=3, state="running"), c(ready=True, rc=3)], reason="podReason"),
     "1/2", "podReason", "6"),
    ("test6 without Ready", pod([c(ready=True, rc=3, state="terminated", reason="Completed", code=0),
                                 c(ready=True, rc=3, state="running")], phase="Running"), "1/2", "NotReady", "6"),
    ("test6 with Ready", pod([c(ready=True, rc=3, state="terminated", reason="Completed", code=0),
                              c(ready=True, rc=3, state="running")], phase="Running",
                             conditions=(("Ready", "True", None),)), "1/2", "Running", "6"),
    ("test7", pod([c(state="waiting")], init=[c(rc=3, state="running", last_ago=10)], spec_init=1),
     "0/1", "Init:0/1", "3 (10s ago)"),
    ("test8", pod([c(state="waiting")], init=[c(rc=3, state="running", last_ago=10), c(state="waiting")],
                  spec_init=2), "0/1", "Init:0/2", "3 (10s ago)"),
    ("test9", pod([c(state="waiting")], init=[c(state="terminated"), c(rc=3, state="running", last_ago=10)],
                  spec_init=2), "0/1", "Init:1/2", "3 (10s ago)"),
    ("test10", pod([c(state="waiting")], init=[c(rc=2, state="terminated", last_ago=120),
                                              c(rc=3, state="running", last_ago=10)], spec_init=2),
     "0/1", "Init:1/2", "5 (10s ago)"),
    ("test11", pod([c(rc=4, state="running", last_ago=20)], init=[c(rc=2, state="terminated", last_ago=120)],
                   spec_init=1, phase="Running"), "0/1", "Running", "4 (20s ago)"),
    ("test12", pod([c(ready=True, rc=3, state="running", last_ago=5 * DAY)], phase="Running"),
     "1/1", "Running", "3 (5d ago)"),
    ("test13", pod([c(ready=True, state="running"), c(ready=True, rc=3, state="running", last_ago=10 * DAY)],
                   phase="Running"), "2/2", "Running", "3 (10d ago)"),
    ("test14", pod([c(ready=True, rc=6, state="running", last_ago=5 * DAY),
                    c(ready=True, rc=3, state="running", last_ago=20 * DAY)], phase="Running"),
     "2/2", "Running", "9 (5d ago)"),
    ("test15", pod([], n_apps=2, conditions=(("PodScheduled", "False", "SchedulingGated"),)),
     "0/2", "SchedulingGated", "0"),
    ("test16", pod([c(state="terminated", reason="Completed", code=0)], phase="Succeeded"), "0/1", "Completed", "0"),
    ("test17", pod([c(state="terminated", reason="Error", code=1)], phase="Failed"), "0/1", "Error", "0"),
    ("test18", pod([c(state="terminated", reason="Completed", code=0)], phase="Succeeded", deleted=True),
     "0/1", "Completed", "0"),
    ("test19", pod([c(state="running")], phase="Running", deleted=True), "0/1", "Terminating", "0"),
    ("test20", pod([], n_apps=1, phase="Pending", deleted=True), "0/1", "Terminating", "0"),
]

TEST_PRINT_POD_WITH_RESTARTABLE_INIT_CONTAINER: list[tuple[str, tuple[Snapshot, SpecInfo], str, str, str]] = [
    ("test1 first running, not started",
     pod([c(state="waiting")], phase="Pending", spec_init=SIDECARS,
         init=[c("restartable-init-1", rc=3, state="running", started=False, last_ago=10),
               c("restartable-init-2", state="waiting", started=False)],
         conditions=(("Initialized", "False", None),)),
     "0/3", "Init:0/2", "3 (10s ago)"),
    ("test1 first started, second running, not started",
     pod([c(state="waiting")], phase="Pending", spec_init=SIDECARS,
         init=[c("restartable-init-1", rc=3, state="running", started=True, last_ago=10),
               c("restartable-init-2", state="running", started=False)],
         conditions=(("Initialized", "False", None),)),
     "0/3", "Init:1/2", "3 (10s ago)"),
    ("test2 both started, one app running",
     pod([c(ready=True, rc=4, state="running", last_ago=20)], phase="Running", spec_init=SIDECARS,
         init=[c("restartable-init-1", rc=3, state="running", started=True, last_ago=10),
               c("restartable-init-2", state="running", started=True)],
         conditions=(("Initialized", "True", None),)),
     "1/3", "Running", "7 (10s ago)"),
    ("test3 sidecars exited non-zero, app completed",
     pod([c(rc=4, state="terminated", reason="Completed", code=0, last_ago=20)], phase="Succeeded",
         spec_init=SIDECARS,
         init=[c("restartable-init-1", rc=3, state="terminated", reason="Error", code=137, started=False,
                 last_ago=10),
               c("restartable-init-2", state="terminated", reason="Error", code=137, started=False)],
         conditions=(("Initialized", "True", None),)),
     "0/3", "Completed", "7 (10s ago)"),
    ("test4 statuses for containers the spec does not have",
     pod([c("containerinvalid"), c("container1")], phase="Running", n_apps=1,
         spec_init=(("init1", False), ("sidecar1", True)),
         init=[c("initinvalid"), c("init1"), c("sidecar1")]),
     "0/2", "Init:0/2", "0"),
]


@pytest.mark.parametrize(("case", "given", "ready", "status", "restarts"), TEST_PRINT_POD,
                         ids=[row[0] for row in TEST_PRINT_POD])
def test_print_pod(case: str, given: tuple[Snapshot, SpecInfo], ready: str, status: str, restarts: str) -> None:
    cols = print_pod(*given, now=NOW)
    assert (cols.ready, cols.status, cols.restarts) == (ready, status, restarts)


@pytest.mark.parametrize(("case", "given", "ready", "status", "restarts"),
                         TEST_PRINT_POD_WITH_RESTARTABLE_INIT_CONTAINER,
                         ids=[row[0] for row in TEST_PRINT_POD_WITH_RESTARTABLE_INIT_CONTAINER])
def test_print_pod_with_restartable_init_container(case: str, given: tuple[Snapshot, SpecInfo], ready: str,
                                                   status: str, restarts: str) -> None:
    cols = print_pod(*given, now=NOW)
    assert (cols.ready, cols.status, cols.restarts) == (ready, status, restarts)


def test_every_case_of_both_go_tests_is_here() -> None:
    """20 cases in TestPrintPod (test6 twice, so 21 rows) and 5 in TestPrintPodWithRestartableInitContainer."""
    assert len(TEST_PRINT_POD) == 21 and len(TEST_PRINT_POD_WITH_RESTARTABLE_INIT_CONTAINER) == 5


@pytest.mark.parametrize(("reason", "signal", "code", "expected"), [
    ("OOMKilled", None, 137, "Init:OOMKilled"), (None, 9, 137, "Init:Signal:9"), (None, None, 2, "Init:ExitCode:2")])
def test_a_failed_init_container_names_its_reason_signal_or_code(reason: Any, signal: Any, code: int,
                                                                 expected: str) -> None:
    snap, spec = pod([c(state="waiting", reason="PodInitializing")], phase="Pending", spec_init=1,
                     init=[c(state="terminated", reason=reason, signal=signal, code=code)])
    assert print_pod(snap, spec).status == expected


def test_an_app_container_terminated_without_a_reason_prints_its_signal_or_exit_code() -> None:
    snap, spec = pod([c(state="terminated", signal=15, code=143), c(state="terminated", code=3)], phase="Running")
    assert print_pod(snap, spec).status == "Signal:15"     # the first container's value wins
    snap, spec = pod([c(state="terminated", code=3)], phase="Running")
    assert print_pod(snap, spec).status == "ExitCode:3"


def test_a_deleted_pod_on_a_lost_node_is_unknown() -> None:
    snap, spec = pod([c(state="running", ready=True)], phase="Running", reason="NodeLost", deleted=True)
    assert print_pod(snap, spec).status == "Unknown"


def test_restarts_without_the_moment_of_printing_leave_out_the_ago() -> None:
    snap, spec = pod([c(ready=True, rc=3, state="running", last_ago=10)], phase="Running")
    assert print_pod(snap, spec).restarts == "3"
