"""Properties of every rollout (issue 22 acceptance; docs/lifecycle-model.md §26): started from a fully available
state, with new Pods that become Ready and stay Ready, a rollout never has fewer available Pods than replicas -
maxUnavailable, never more Pods that are not being deleted than replicas + maxSurge, and always completes; and
its Pods' times are in order.  Generated over the three controllers, their strategies and settings."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explainer.lifecycle.model import Workload
from explainer.lifecycle.rollout import Rollout
from tests.lifecycle.rollout.helpers import daemonset, deployment, roll, statefulset
from tests.profiles import examples

SETTINGS = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])

_AMOUNT = st.one_of(st.integers(0, 4), st.sampled_from(["0%", "10%", "25%", "50%", "100%"]))
_SECONDS = st.integers(0, 120).map(lambda n: n / 2)


@st.composite
def workloads(draw: st.DrawFn) -> tuple[Workload, int | None]:
    kind = draw(st.sampled_from(["Deployment", "StatefulSet", "DaemonSet"]))
    min_ready = draw(st.sampled_from([0, 0, 3, 10]))
    if kind == "Deployment":
        strategy = draw(st.sampled_from(["RollingUpdate", "RollingUpdate", "Recreate"]))
        return deployment(draw(st.integers(1, 12)), draw(_AMOUNT), draw(_AMOUNT), strategy=strategy,
                          min_ready=min_ready), None
    if kind == "StatefulSet":
        replicas = draw(st.integers(1, 8))
        unavailable = draw(st.one_of(st.integers(1, 4), st.sampled_from(["10%", "50%", "100%"])))
        return statefulset(replicas, partition=draw(st.integers(0, replicas)), min_ready=min_ready,
                           policy=draw(st.sampled_from(["OrderedReady", "Parallel"])),
                           max_unavailable=unavailable), None
    surge = draw(_AMOUNT)
    unavailable = 0 if surge not in (0, "0%") else draw(_AMOUNT)
    return daemonset(surge=surge, unavailable=unavailable, min_ready=min_ready), draw(st.integers(1, 8))


def _check(r: Rollout, version: str) -> None:
    assert r.complete_at is not None and r.stalled is None, (r.complete_at, r.stalled)
    if r.kind == "StatefulSet" and r.pod_management_policy == "Parallel" and r.min_ready_seconds and version < "1.35":
        # stateful_set_control.go: with Parallel, `processReplica` waits for nothing and the update loop without the
        # gate only for `isHealthy` (Running and Ready): minReadySeconds is not waited for, the floor holds for Ready
        assert min(c.ready for c in r.counts) >= r.capacity_floor
        assert any("not for minReadySeconds" in str(n) for n in r.notes)
    else:
        assert r.min_available >= r.capacity_floor, (r.min_available, r.capacity_floor)
    assert r.max_pods <= r.surge_ceiling, (r.max_pods, r.surge_ceiling)
    assert r.max_pods <= r.max_pods_including_terminating
    for c in r.counts:
        assert 0 <= c.available <= c.ready <= c.old + c.new and c.terminating >= 0
    for p in r.pods:
        times = [x for x in (p.created_at, p.ready_at, p.available_at, p.deleted_at, p.gone_at) if x is not None]
        assert times == sorted(times), p
        if p.created_at is not None and p.revision == "new":
            assert p.ready_at is not None and p.available_at is not None
    assert [c.t for c in r.counts] == sorted({c.t for c in r.counts})


@SETTINGS
@given(workloads(), _SECONDS, _SECONDS, st.sampled_from([0, 0, 1, 2.5]), st.sampled_from(["1.34", "1.37"]))
def test_capacity_floor_surge_ceiling_and_completion(case: tuple[Workload, int | None], ready_after: float,
                                                     gone_after: float, delay: float, version: str) -> None:
    wl, nodes = case
    r = roll(wl, ready_after, gone_after, nodes=nodes, delay=delay, version=version)
    _check(r, version)
    if wl.kind != "StatefulSet" or not wl.partition:
        assert r.counts[-1].old == 0 and all(p.gone_at is not None for p in r.pods if p.revision == "old")


@SETTINGS
@given(workloads(), _SECONDS)
def test_a_revision_that_is_never_ready_never_completes_and_keeps_the_floor(case: tuple[Workload, int | None],
                                                                          gone_after: float) -> None:
    wl, nodes = case
    r = roll(wl, None, gone_after, nodes=nodes)
    if wl.strategy == "OnDelete" or (wl.kind == "StatefulSet" and wl.partition >= wl.replicas):
        return
    assert r.complete_at is None and r.stalled is not None
    assert r.min_available >= r.capacity_floor and r.max_pods <= r.surge_ceiling
