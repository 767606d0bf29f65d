"""Start-up ordering facts (issue 2, rules 1-3; docs/lifecycle-model.md §6), as tables."""
from __future__ import annotations

import pytest

from explainer.lifecycle.kubelet.trace import Dependency
from tests.lifecycle.engine import assert_in_order, events, first, simulated

ORDER = [
    # (fixture, scenario, facts that must appear in this order)
    ("pods/three_inits", None, [
        "0 - sandbox_ready", "0 init-a started", "2 init-a exited=0", "2 init-b started", "4 init-b exited=0",
        "4 init-c started", "6 init-c exited=0", "6 app started"]),
    ("seeds/init-example", None, ["0 generate-config started", "1 generate-config exited=0", "1 app started"]),
    # sidecar without a startupProbe: the next container starts as soon as it is running
    ("seeds/native-sidecar-example", None, ["0 log-agent started", "0 app started"]),
    # with a startupProbe (period 2): healthy after 5 s -> checks at 0, 2, 4 fail, 6 passes
    ("seeds/native-sidecar-probe", "containers: {proxy: {startupSeconds: 5}}", [
        "0 proxy started", "6 proxy startup_probe_ok", "6 app started"]),
    ("seeds/lifecycle-demo", None, [
        "0 prepare started", "1 prepare exited=0", "1 helper started", "1 app started"]),
    # a sidecar between two init containers; it keeps running while init-b runs
    ("pods/sidecar_between_inits", "containers: {proxy: {startupSeconds: 3}}", [
        "2 init-a exited=0", "2 proxy started", "6 proxy startup_probe_ok", "6 init-b started",
        "9 init-b exited=0", "9 app started"]),
    # a sidecar's postStart runs inside the start call: the app waits for it
    ("pods/sidecar_poststart", None, ["0 agent started", "4 agent poststart_done", "4 app started"]),
    # app containers: one pass in list order; web's 3 s postStart holds back metrics and cache
    ("pods/apps_poststart", None, [
        "0 web started", "3 web poststart_done", "3 metrics started", "3 cache started"]),
]


@pytest.mark.parametrize("fixture,scenario,expected", ORDER, ids=[f"{r[0]}:{i}" for i, r in enumerate(ORDER)])
def test_start_order(fixture: str, scenario: str | None, expected: list[str]) -> None:
    assert_in_order(events(simulated(fixture, scenario)), expected)


def test_sidecar_is_gated_by_started_not_by_readiness_or_liveness() -> None:
    """§6.3: a sidecar that never becomes ready, and fails liveness, still lets the app start."""
    pod = simulated("pods/sidecar_between_inits", "containers: {proxy: {failingProbes: [readiness]}}")
    assert first(pod, "proxy", "startup_probe_ok") == 2
    assert first(pod, "init-b", "started") == 2
    assert first(pod, "app", "started") == 5
    assert not any(e.type == "ready" and e.container == "proxy" for e in pod.events)
    assert pod.timeline[-1].ready is False   # the sidecar's readiness counts for the Pod


def test_failing_sidecar_startup_probe_blocks_the_next_container() -> None:
    pod = simulated("pods/sidecar_between_inits", "containers: {proxy: {failingProbes: [startup]}}\nuntil: 120")
    assert "init-b started" not in " ".join(events(pod))
    # 10 failures 2 s apart: killed at 20 s, restarted at once, killed again 20 s later
    assert first(pod, "proxy", "startup_probe_failed") == 20
    assert first(pod, "proxy", "started", 2) == 20
    assert pod.final_phase == "Pending"


def test_app_order_is_what_the_kubelet_does_not_what_the_api_promises() -> None:
    pod = simulated("pods/apps_poststart")
    deps = {(d.container, d.waits_for): d for d in pod.dependencies}
    assert deps[("metrics", "web")] == Dependency("metrics", "web", "postStart", False)
    lifecycle = simulated("seeds/lifecycle-demo")
    assert Dependency("helper", "prepare", "exit0", True) in lifecycle.dependencies
    assert Dependency("app", "helper", "started", True) in lifecycle.dependencies


def test_app_container_is_not_reported_running_until_its_poststart_ends() -> None:
    pod = simulated("pods/apps_poststart")
    running = [p for p in pod.timeline if p.status == "Running"]
    assert running[0].t == 3


def test_init_then_poststart_of_app() -> None:
    """e2e: the init container has completed before the app's postStart starts."""
    ev = events(simulated("seeds/web-app-pod"))
    assert_in_order(ev, ["3 fetch-assets exited=0", "3 app started", "3 app poststart_done", "3 envoy-sidecar started"])
