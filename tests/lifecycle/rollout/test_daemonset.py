"""A DaemonSet's rolling update replayed step by step (docs/lifecycle-model.md §26.7).

Each case is worked by hand from k/k pkg/controller/daemon/update.go `rollingUpdate` (without surge: count the
nodes without an available Pod -- nothing there, two Pods, a new Pod not yet available -- and delete old
available Pods on up to maxUnavailable minus that many; with surge: a new Pod beside an available old one while
fewer than maxSurge nodes wait for a new Pod, the old one deleted once the new one is available),
daemon_controller.go `manage` (a node with no Pod gets one; a deleted Pod counts until it has stopped) and
`updateDaemonSetStatus` (a node is updated when its oldest Pod is new). 3 nodes visited in name order; new Pods
Ready 10 s after creation, old ones stop 5 s after deletion; "o1"/"n1" are the old and new Pod of node-1.
"""
from __future__ import annotations

import pytest

from tests.lifecycle.rollout.helpers import daemonset, figures, roll, story

CASES = [
    # maxUnavailable 1: t0 node-1 old available, 0 unavailable < 1 -> candidate; node-2, node-3 candidates too;
    # delete 1 - 0 = 1 of them (-o1). t5 o1 stopped: manage creates n1; rollingUpdate: node-1 new not available ->
    # 1 unavailable, nothing more. t15 n1 available: -o2; t20 +n2; t30 -o3; t35 +n3; t45 n3 available, every node's
    # oldest Pod is new and available: done.
    ("maxUnavailable 1", daemonset(), {},
     "0:-o1 | 5:+n1 | 15:-o2 | 20:+n2 | 30:-o3 | 35:+n3 | done 45",
     {"floor": 2, "ceiling": 3, "min_available": 2, "max_pods": 3, "with_terminating": 3}),
    # maxUnavailable 2: t0 node-1 candidate (0 < 2), node-2 candidate, node-3 candidate; delete 2 (-o1 -o2). t5 +n1
    # +n2; both new, not available: 2 unavailable, node-3 not a candidate (2 >= 2). t15 both available: -o3; t20
    # +n3; t30 done.
    ("maxUnavailable 2", daemonset(unavailable=2), {},
     "0:-o1 -o2 | 5:+n1 +n2 | 15:-o3 | 20:+n3 | done 30",
     {"floor": 1, "ceiling": 3, "min_available": 1, "max_pods": 3, "with_terminating": 3}),
    # maxUnavailable "50%" of 3 nodes: `util.UnavailableCount` rounds up, ceil(1.5) = 2: as above.
    ("maxUnavailable 50% of 3 rounds up", daemonset(unavailable="50%"), {},
     "0:-o1 -o2 | 5:+n1 +n2 | 15:-o3 | 20:+n3 | done 30",
     {"floor": 1, "ceiling": 3, "min_available": 1, "max_pods": 3, "with_terminating": 3}),
    # maxSurge 1, maxUnavailable 0: t0 node-1 old available, no new, 0 surging < 1 -> candidate; node-2: 0 < 1 ->
    # candidate; room 1 - 0 = 1: +n1. t10 n1 available: node-1 both, new available -> delete o1; node-2 candidate
    # (0 surging) -> +n2. t20: -o2 +n3. t30: -o3. The oldest Pod of node-3 is o3 until it stops at 35: done at 35.
    ("maxSurge 1", daemonset(surge=1, unavailable=0), {},
     "0:+n1 | 10:-o1 +n2 | 20:-o2 +n3 | 30:-o3 | done 35",
     {"floor": 3, "ceiling": 4, "min_available": 3, "max_pods": 4, "with_terminating": 5}),
    # maxSurge 100% (3 of 3): t0 +n1 +n2 +n3; t10 all available: -o1 -o2 -o3; the old ones stop at 15: done.
    ("maxSurge 100%", daemonset(surge="100%", unavailable=0), {},
     "0:+n1 +n2 +n3 | 10:-o1 -o2 -o3 | done 15",
     {"floor": 3, "ceiling": 6, "min_available": 3, "max_pods": 6, "with_terminating": 6}),
    # maxSurge 0 and maxUnavailable 0 (which validation refuses) resolve to maxUnavailable 1
    # (`updatedDesiredNodeCounts`): as "maxUnavailable 1".
    ("both 0 resolve to maxUnavailable 1", daemonset(surge=0, unavailable=0), {},
     "0:-o1 | 5:+n1 | 15:-o2 | 20:+n2 | 30:-o3 | 35:+n3 | done 45",
     {"floor": 2, "ceiling": 3, "min_available": 2, "max_pods": 3, "with_terminating": 3}),
    # 5 nodes (rollout.nodes), maxUnavailable 2: -o1 -o2 at 0, +n1 +n2 at 5, -o3 -o4 at 15, +n3 +n4 at 20, -o5 at 30,
    # +n5 at 35, done 45.
    ("5 nodes, maxUnavailable 2", daemonset(unavailable=2), {"nodes": 5},
     "0:-o1 -o2 | 5:+n1 +n2 | 15:-o3 -o4 | 20:+n3 +n4 | 30:-o5 | 35:+n5 | done 45",
     {"floor": 3, "ceiling": 5, "min_available": 3, "max_pods": 5, "with_terminating": 5}),
]


@pytest.mark.parametrize("title,wl,kwargs,expected,numbers", CASES, ids=[c[0] for c in CASES])
def test_the_controllers_steps(title: str, wl, kwargs: dict, expected: str, numbers: dict) -> None:
    r = roll(wl, **kwargs)
    assert story(r) == expected
    assert figures(r) == numbers


def test_the_nodes_are_assumed_unless_the_scenario_says() -> None:
    assert "nodes" in roll(daemonset()).assumed and roll(daemonset()).nodes == 3
    assert "nodes" not in roll(daemonset(), nodes=4).assumed


def test_each_pod_runs_on_its_node() -> None:
    r = roll(daemonset())
    assert {(p.name, p.node) for p in r.pods} >= {("agent-old-1", "node-1"), ("agent-new-3", "node-3")}


def test_a_new_pod_that_never_becomes_available_stops_the_update() -> None:
    # t0 -o1; t5 +n1, never available: node-1 counts as unavailable forever, no more candidates. No deadline.
    r = roll(daemonset(), ready_after=None)
    assert story(r) == "0:-o1 | 5:+n1 | stall 5 PodNeverAvailable"
    assert r.stalled is not None and r.stalled.available == 2


def test_with_surge_a_new_pod_that_is_never_available_keeps_the_old_one() -> None:
    # maxSurge 1: t0 +n1 beside o1; n1 never available: node-1 keeps surging, o1 keeps serving.
    r = roll(daemonset(surge=1, unavailable=0), ready_after=None)
    assert story(r) == "0:+n1 | stall 0 PodNeverAvailable"
    assert r.stalled is not None and r.stalled.available == 3


def test_on_delete_replaces_nothing() -> None:
    assert story(roll(daemonset(strategy="OnDelete"))) == "stall 0 OnDelete"
