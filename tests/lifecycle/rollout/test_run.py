"""Rollouts through `explain()`: the kubelet's Pods and the controller together, the scenario's what-ifs, the
compare API (docs/lifecycle-model.md §26, §26.8).  The fixtures' Pods: web Ready 5 s after creation and 10 s to
stop (preStop sleep 10); db and agent Ready 5 s after creation and stopping at once (they exit on SIGTERM)."""
from __future__ import annotations

import dataclasses

import pytest

from explainer.explain import explain
from explainer.lifecycle.rollout import Rollout, compare_strategies, rollout_between
from explainer.render.jsonable import explanation_to_dict
from tests.conftest import load_manifest
from tests.lifecycle.rollout.helpers import story

WEB = load_manifest("rollout/web-deployment")
DB = load_manifest("rollout/db-statefulset")
AGENT = load_manifest("rollout/agent-daemonset")


def rollout(manifest: str, scenario: dict | None = None, version: str | None = None) -> Rollout:
    e = explain(manifest, scenario, version)
    assert not e.errors, e.errors
    r = e.pods[0].rollout
    assert r is not None
    return r


def _new(**behaviour: object) -> dict:
    return {"rollout": {"newRevision": {"containers": {"app": behaviour}}}}


def test_the_deployment_as_written() -> None:
    # 3 replicas, maxSurge 1, maxUnavailable 0: one new Pod, Ready at 5; then one old Pod goes each 5 s.
    r = rollout(WEB)
    assert story(r) == "0:+n1 | 5:-o3 +n2 | 10:-o2 +n3 | 15:-o1 | done 15"
    assert (r.min_available, r.max_pods, r.max_pods_including_terminating) == (3, 4, 6)
    assert r.last_gone_at == 25                  # web-old-1, deleted at 15, runs its 10 s preStop
    assert "replicas" not in r.assumed and "syncDelaySeconds" in r.assumed


def test_a_new_revision_that_is_never_ready_stalls_with_all_capacity_left() -> None:
    r = rollout(WEB, _new(failingProbes=["readiness"]))
    assert story(r) == "0:+n1 | stall 601 ProgressDeadlineExceeded"
    assert r.stalled is not None and (r.stalled.available, r.stalled.old) == (3, 3)
    assert any("never becomes Ready" in str(n) for n in r.notes)


def test_a_new_revision_that_crashes_takes_capacity_below_the_floor() -> None:
    # runSeconds 8, exit 1: Ready 5-8 s, then the back-off. t5 n1 available: -o3 +n2; t8 n1 down: 2 available, below
    # the floor of 3 (a Pod failed); the new Pods are never available together again, so no more old Pod goes.
    r = rollout(WEB, _new(runSeconds=8, exitCode=1))
    assert story(r) == "0:+n1 | 5:-o3 +n2 | stall 5 NotEnoughAvailable"
    assert r.min_available == 2 and r.capacity_floor == 3


def test_a_slower_start_slows_every_step() -> None:
    # startupSeconds 40: Ready 40 s after creation instead of 5.
    r = rollout(WEB, _new(startupSeconds=40))
    assert story(r) == "0:+n1 | 40:-o3 +n2 | 80:-o2 +n3 | 120:-o1 | done 120"


def test_the_scenario_sets_the_replicas() -> None:
    r = rollout(WEB, {"rollout": {"replicas": 6}})
    assert r.replicas == 6 and r.complete_at == 30 and "replicas" not in r.assumed


def test_replicas_not_written_are_assumed_and_an_hpa_named() -> None:
    r = rollout(WEB.replace("  replicas: 3\n", ""))
    assert r.replicas == 1 and "HorizontalPodAutoscaler" in str(r.assumed["replicas"])


def test_a_sync_delay() -> None:
    # The controller sees the restart at 1 s; it reacts to each change 1 s later, and a sync picks up whatever is
    # true when it runs: web-old-3 gone at 17 brings a sync at 18, when web-new-3 has just turned Ready.
    r = rollout(WEB, {"rollout": {"syncDelaySeconds": 1}})
    assert story(r) == "1:+n1 | 7:-o3 +n2 | 13:-o2 +n3 | 18:-o1 | done 18"


def test_the_statefulset() -> None:
    # postgres exits on SIGTERM at once: each Pod is gone at its deletion and created again at once.
    r = rollout(DB)
    assert story(r) == "0:-2 +2 | 5:-1 +1 | 10:-0 +0 | done 15"
    assert sorted({p.name for p in r.pods}) == ["db-0", "db-1", "db-2"]


def test_the_daemonset_on_the_scenarios_nodes() -> None:
    r = rollout(AGENT, {"rollout": {"nodes": 4}})
    assert story(r) == "0:-o1 +n1 | 5:-o2 +n2 | 10:-o3 +n3 | 15:-o4 +n4 | done 20"
    assert r.nodes == 4 and "nodes" not in r.assumed


def test_maxunavailable_of_a_statefulset_needs_the_gate() -> None:
    two = DB.replace("  replicas: 3\n", "  replicas: 4\n  podManagementPolicy: Parallel\n"
                     "  updateStrategy: {rollingUpdate: {maxUnavailable: 2}}\n")
    assert story(rollout(two, version="1.37")) == "0:-2 -3 +2 +3 | 5:-0 -1 +0 +1 | done 10"
    e = explain(two, version="1.34")
    assert e.pods[0].rollout is not None and story(e.pods[0].rollout) == \
        "0:-3 +3 | 5:-2 +2 | 10:-1 +1 | 15:-0 +0 | done 20"
    assert any("MaxUnavailableStatefulSet feature gate is off" in str(n) for n in e.pods[0].notes)


@pytest.mark.parametrize("manifest", [load_manifest("seeds/web-app-pod"), load_manifest("seeds/job-classic-sidecar")])
def test_kinds_without_a_rollout(manifest: str) -> None:
    e = explain(manifest)
    assert e.pods[0].rollout is None
    assert explanation_to_dict(e)["pods"][0]["rollout"] is None


def test_a_workload_the_api_server_refuses_has_no_rollout() -> None:
    e = explain(WEB.replace("maxSurge: 1", 'maxSurge: "3"'))
    assert not e.pods[0].admitted and e.pods[0].rollout is None
    [error] = e.errors
    assert error.line == 9 and error.path == "spec.strategy.rollingUpdate.maxSurge"
    assert "maxSurge: 3" in error.message and '"3%"' in error.message


CONTRACT = {"strategy", "replicas", "maxSurge", "maxUnavailable", "minReadySeconds", "progressDeadlineSeconds",
            "completeAt", "stalled", "minAvailable", "maxPods", "maxPodsIncludingTerminating", "pods", "counts"}


def test_the_json_contract() -> None:
    out = explanation_to_dict(explain(WEB, _new(failingProbes=["readiness"])))["pods"][0]["rollout"]
    assert CONTRACT <= set(out)
    assert (out["strategy"], out["replicas"], out["maxSurge"], out["maxUnavailable"]) == ("RollingUpdate", 3, 1, 0)
    assert out["completeAt"] is None and {"at", "reason"} <= set(out["stalled"])
    assert out["stalled"]["reason"] == "ProgressDeadlineExceeded" and out["stalled"]["at"] == 601
    for p in out["pods"]:
        assert {"name", "revision", "createdAt", "readyAt", "availableAt", "deletedAt", "goneAt"} <= set(p)
        assert p["revision"] in ("old", "new")
    for c in out["counts"]:
        assert set(c) == {"t", "desired", "old", "new", "ready", "available", "terminating"}
    assert out["counts"][0] == {"t": 0.0, "desired": 3, "old": 3, "new": 1, "ready": 3, "available": 3,
                                "terminating": 0}


def test_two_strategies_side_by_side() -> None:
    # The web template with 4 replicas: 25%/25% (surge 1, unavailable 1) replaces two at a time, done at 10 with a
    # floor of 3; surge 1 / unavailable 0 replaces one at a time, done at 20, never fewer than 4; surge 0 /
    # unavailable 1 deletes first, done at 20 with 3 and never more than 4 Pods.
    pod = explain(WEB).pods[0].pod
    assert pod.workload is not None
    variants = [dataclasses.replace(pod.workload, replicas=4, max_surge=s, max_unavailable=u)
                for s, u in (("25%", "25%"), (1, 0), (0, 1))]
    out = [(r.complete_at, r.min_available, r.max_pods) for r in compare_strategies(pod, variants)]
    assert out == [(10, 3, 5), (20, 4, 5), (20, 3, 4)]


def test_the_rollout_from_one_manifest_to_another() -> None:
    # The second manifest's Pods are Ready only 20 s after creation: each step takes 20 s.
    old = explain(WEB).pods[0].pod
    new = explain(WEB.replace("initialDelaySeconds: 5", "initialDelaySeconds: 20")).pods[0].pod
    r = rollout_between(old, new)
    assert r is not None and story(r) == "0:+n1 | 20:-o3 +n2 | 40:-o2 +n3 | 60:-o1 | done 60"


def test_from_a_broken_revision_the_unhealthy_old_pods_go_first() -> None:
    broken = explain(WEB, {"containers": {"app": {"failingProbes": ["readiness"]}}}).pods[0].pod
    fixed = explain(WEB).pods[0].pod
    from explainer.lifecycle.scenario.document import scenario_from_data
    r = rollout_between(broken, fixed, scenario_from_data({"containers": {"app": {"failingProbes": ["readiness"]}}}),
                        scenario_from_data({}))
    # No old Pod is available: t0 +n1; t5 n1 available: maxScaledDown 4 - 3 - 0 = 1, the unhealthy web-old-3 goes
    # (cleanupUnhealthyReplicas), +n2; and so on, one every 5 s.
    assert r is not None and story(r) == "0:+n1 | 5:-o3 +n2 | 10:-o2 +n3 | 15:-o1 | done 15"
    assert r.counts[0].available == 0
