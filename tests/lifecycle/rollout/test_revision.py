"""A revision's Pod learnt from the kubelet model (docs/lifecycle-model.md §26.2): when it is Ready after its
creation and how long it takes to stop, from one simulation of the template."""
from __future__ import annotations

from explainer.explain import explain
from explainer.lifecycle.model import Pod
from explainer.lifecycle.rollout.revision import INF, learn, merged_containers, synthetic
from explainer.lifecycle.scenario.document import scenario_from_data
from tests.conftest import load_manifest


def _web() -> Pod:
    return explain(load_manifest("rollout/web-deployment")).pods[0].pod


def test_the_template_as_written() -> None:
    # readinessProbe initialDelaySeconds 5: Ready at 5 s and from then on; preStop sleep 10, then nginx exits on
    # SIGTERM (assumed at once): 10 s from the deletion until every container has stopped.
    rev = learn(_web(), scenario_from_data({}), "1.37")
    assert rev.ready == ((5.0, INF),) and rev.first_ready == 5
    assert rev.gone_after == 10 and rev.steady_ready and not rev.notes


def test_a_revision_that_never_passes_its_readiness_probe() -> None:
    rev = learn(_web(), scenario_from_data({"containers": {"app": {"failingProbes": ["readiness"]}}}), "1.37")
    assert rev.ready == () and not rev.steady_ready
    assert "never becomes Ready" in str(rev.notes[0])


def test_a_revision_that_crashes_is_ready_only_in_between() -> None:
    # runSeconds 20, exit 1: Ready 5-20 s, restarted after the 10 s back-off ... (the kubelet's crash loop, §7.4)
    rev = learn(_web(), scenario_from_data({"containers": {"app": {"runSeconds": 20, "exitCode": 1}}}), "1.37")
    assert rev.ready[0] == (5.0, 20.0) and len(rev.ready) > 3
    assert all(b < INF for _a, b in rev.ready)
    assert "loses its Ready condition" in str(rev.notes[0])


def test_a_slower_start() -> None:
    # startupSeconds 30: the readiness probe fails until 30 s after the start, checks every 5 s from 5 s: Ready at 30.
    rev = learn(_web(), scenario_from_data({"containers": {"app": {"startupSeconds": 30}}}), "1.37")
    assert rev.ready == ((30.0, INF),)


def test_an_app_that_ignores_sigterm_stops_at_the_grace_period() -> None:
    # preStop 10 s, then SIGTERM ignored: SIGKILL at the grace period, 30 s after the deletion (§12.2).
    rev = learn(_web(), scenario_from_data({"containers": {"app": {"stopSeconds": "never"}}}), "1.37")
    assert rev.gone_after == 30


def test_new_revision_behaviour_is_merged_over_the_scenario() -> None:
    sc = scenario_from_data({"containers": {"app": {"startupSeconds": 3, "stopSeconds": 2}},
                             "rollout": {"newRevision": {"containers": {"app": {"startupSeconds": 40}}}}})
    assert merged_containers(sc, sc.rollout.new_revision if sc.rollout else None) == {
        "app": {"startupSeconds": 40, "stopSeconds": 2}}


def test_synthetic_revisions_for_tests() -> None:
    rev = synthetic(10, 5)
    assert rev.ready_at(10) and not rev.ready_at(9.9) and rev.ready_since(100) == 10
    assert rev.transitions(6) == (10.0, 16.0)
    flapping = synthetic(None, 5, ready=((10, 15), (30, INF)))
    assert [flapping.ready_at(t) for t in (9, 10, 14.9, 15, 29, 30, 1e6)] == [False, True, True, False, False,
                                                                             True, True]
    assert flapping.transitions(0) == (10, 15, 30)
