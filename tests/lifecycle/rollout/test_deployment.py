"""A Deployment's rollout replayed step by step (docs/lifecycle-model.md §26.3, §26.4, §26.5).

Each case is worked by hand in its comment from k/k pkg/controller/deployment: rolling.go `rolloutRolling`
(one of scale up / scale down per sync, and the syncs repeat at one instant until nothing changes),
`reconcileNewReplicaSet` + util/deployment_util.go `NewRSNewReplicas` (up while all ReplicaSets' replicas <
replicas + surge), `reconcileOldReplicaSets` (maxScaledDown = all - (replicas - maxUnavailable) - new
unavailable; `cleanupUnhealthyReplicas` first, then `scaleDownOldReplicaSetsForRollingUpdate`: available -
floor), `ResolveFenceposts`, recreate.go `rolloutRecreate`, progress.go (deadline + 1 s). Unless a case says
otherwise, new Pods are Ready 10 s after their creation and old Pods stop 5 s after their deletion; "o4" is the
fourth old Pod, "n2" the second new one; "-" deleted, "+" created.
"""
from __future__ import annotations

import pytest

from explainer.lifecycle.rollout.revision import INF
from tests.lifecycle.rollout.helpers import deployment, figures, roll, story

CASES = [
    # 4 replicas, surge 1, unavailable 0: floor 4, ceiling 5.
    # t0: all 4 < 5 -> new 1 (+n1). Scale down: 5 - 4 - 1 (n1 unavailable) = 0: nothing.
    # t10: n1 available. Up: 4 + 1 = 5, no room. Down: 5 - 4 - 0 = 1; available 5 > 4 -> old 3 (-o4). Up: 3 + 1
    # = 4 < 5 -> new 2 (+n2). Down: 5 - 4 - 1 = 0. Same at t20 (-o3 +n2->n3) and t30 (-o2 +n4).
    # t40: n4 available: down 1 (-o1); old 0, 4 new available: complete at 40.
    ("surge 1, unavailable 0", deployment(4, 1, 0), {},
     "0:+n1 | 10:-o4 +n2 | 20:-o3 +n3 | 30:-o2 +n4 | 40:-o1 | done 40",
     {"floor": 4, "ceiling": 5, "min_available": 4, "max_pods": 5, "with_terminating": 6}),
    # 4 replicas, 25%/25%: surge ceil(1) = 1, unavailable floor(1) = 1; floor 3, ceiling 5.
    # t0: up to 1 (+n1, 5 Pods). Down: 5 - 3 - 1 = 1; no unhealthy old; available 4 > 3 -> old 3 (-o4).
    # Up: 3 + 1 = 4 < 5 -> new 2 (+n2). Down: 5 - 3 - 2 = 0.
    # t10: n1, n2 available. Up: 5, no room. Down: 5 - 3 - 0 = 2; available 3 + 2 = 5 > 3 by 2 -> old 1
    # (-o3 -o2). Up: 1 + 2 = 3 -> new 2 + min(2, 4 - 2) = 4 (+n3 +n4). Down: 5 - 3 - 2 = 0.
    # t20: n3, n4 available. Down: 5 - 3 - 0 = 2; available 1 + 4 = 5 > 3 -> old 0 (-o1). Complete at 20.
    # Most Pods with the terminating ones: t10, 5 + o2 and o3 stopping = 7.
    ("25%/25% of 4", deployment(4, "25%", "25%"), {},
     "0:-o4 +n1 +n2 | 10:-o2 -o3 +n3 +n4 | 20:-o1 | done 20",
     {"floor": 3, "ceiling": 5, "min_available": 3, "max_pods": 5, "with_terminating": 7}),
    # 10 replicas, 25%/25%: surge ceil(2.5) = 3, unavailable floor(2.5) = 2; floor 8, ceiling 13.
    # t0: +n1..n3 (13). Down: 13 - 8 - 3 = 2; available 10 > 8 by 2 -> -o10 -o9 (old 8). Up: 8 + 3 = 11 -> new 5
    # (+n4 +n5). Down: 13 - 8 - 5 = 0.
    # t10: n1..n5 available. Down: 13 - 8 - 0 = 5; available 8 + 5 = 13 > 8 by 5 -> -o8..-o4 (old 3). Up: 3 + 5 = 8
    # -> new 10 (+n6..n10). Down: 13 - 8 - 5 = 0.
    # t20: n6..n10 available. Down: 5; available 3 + 10 = 13 -> min(3, 5) = 3: -o3 -o2 -o1. Complete at 20.
    # Most Pods with the terminating ones: t10, 13 + the 5 old ones deleted then = 18.
    ("25%/25% of 10", deployment(10, "25%", "25%"), {},
     "0:-o9 -o10 +n1 +n2 +n3 +n4 +n5 | 10:-o4 -o5 -o6 -o7 -o8 +n6 +n7 +n8 +n9 +n10 | 20:-o1 -o2 -o3 | done 20",
     {"floor": 8, "ceiling": 13, "min_available": 8, "max_pods": 13, "with_terminating": 18}),
    # 3 replicas, surge 0, unavailable 1: floor 2, ceiling 3: an old Pod goes before each new one starts.
    # t0: up: 3 = ceiling, no. Down: 3 - 2 - 0 = 1; available 3 > 2 -> -o3. Up: 2 + 0 < 3 -> +n1. Down: 3 - 2 - 1 = 0.
    # t10: n1 available. Down: 1; available 2 + 1 = 3 > 2 -> -o2. Up: +n2. t20: -o1 +n3. t30: n3 available, done.
    ("surge 0, unavailable 1", deployment(3, 0, 1), {},
     "0:-o3 +n1 | 10:-o2 +n2 | 20:-o1 +n3 | done 30",
     {"floor": 2, "ceiling": 3, "min_available": 2, "max_pods": 3, "with_terminating": 4}),
    # 2 replicas, surge 0%, unavailable 1%: ceil(0) = 0 and floor(0.02) = 0, both 0 -> ResolveFenceposts makes
    # unavailable 1 ("surge might not work due to quota"). Then as above: -o2 +n1, t10 -o1 +n2, t20 done.
    ("0%/1% of 2: fenceposts give unavailable 1", deployment(2, "0%", "1%"), {},
     "0:-o2 +n1 | 10:-o1 +n2 | done 20",
     {"floor": 1, "ceiling": 2, "min_available": 1, "max_pods": 2, "with_terminating": 3}),
    # 1 replica, 25%/25%: surge ceil(0.25) = 1, unavailable floor(0.25) = 0: the single Pod keeps serving until
    # its replacement is available. t0 +n1 (2 Pods); t10 n1 available: down 2 - 1 - 0 = 1, available 2 > 1 -> -o1.
    ("25%/25% of 1", deployment(1), {},
     "0:+n1 | 10:-o1 | done 10",
     {"floor": 1, "ceiling": 2, "min_available": 1, "max_pods": 2, "with_terminating": 2}),
    # 3 replicas, surge 100% (3), unavailable 0: t0 +n1 +n2 +n3 (6 Pods); down: 6 - 3 - 3 = 0.
    # t10: all three available: down 6 - 3 - 0 = 3; available 6 > 3 by 3 -> -o1 -o2 -o3. Done at 10.
    ("surge 100%, unavailable 0", deployment(3, "100%", 0), {},
     "0:+n1 +n2 +n3 | 10:-o1 -o2 -o3 | done 10",
     {"floor": 3, "ceiling": 6, "min_available": 3, "max_pods": 6, "with_terminating": 6}),
    # 3 replicas, surge 0, unavailable 100%: t0 down 3 - 0 - 0 = 3; available 3 > 0 by 3 -> -o1 -o2 -o3; up: +n1..n3.
    # Like Recreate, but new Pods start without waiting for the old ones to stop. t10 done.
    ("surge 0, unavailable 100%", deployment(3, 0, "100%"), {},
     "0:-o1 -o2 -o3 +n1 +n2 +n3 | done 10",
     {"floor": 0, "ceiling": 3, "min_available": 0, "max_pods": 3, "with_terminating": 6}),
    # minReadySeconds 5, 2 replicas, surge 1, unavailable 0, new Pods Ready 3 s after creation: available when
    # Ready for 5 s, seen by the ReplicaSet controller 1 s later (updatePod requeues minReadySeconds + 1 s): at 9.
    # t0 +n1; t9 n1 available: -o2 +n2 (created 9, Ready 12, available 18); t18 -o1, done.
    ("minReadySeconds 5", deployment(2, 1, 0, min_ready=5), {"ready_after": 3},
     "0:+n1 | 9:-o2 +n2 | 18:-o1 | done 18",
     {"floor": 2, "ceiling": 3, "min_available": 2, "max_pods": 3, "with_terminating": 4}),
    # Recreate, 3 replicas, old Pods stop 7 s after deletion: t0 old ReplicaSet to 0 (-o1 -o2 -o3); until 7 they are
    # terminating (`oldPodsRunning`); t7 new ReplicaSet to 3 (+n1..n3), available at 17: done. Nothing available 0-17.
    ("Recreate", deployment(3, None, None, strategy="Recreate"), {"gone_after": 7},
     "0:-o1 -o2 -o3 | 7:+n1 +n2 +n3 | done 17",
     {"floor": 0, "ceiling": 3, "min_available": 0, "max_pods": 3, "with_terminating": 3}),
    # 0 replicas: nothing to roll, complete at once.
    ("0 replicas", deployment(0), {}, "done 0",
     {"floor": 0, "ceiling": 0, "min_available": 0, "max_pods": 0, "with_terminating": 0}),
]


@pytest.mark.parametrize("title,wl,kwargs,expected,numbers", CASES, ids=[c[0] for c in CASES])
def test_the_controllers_steps(title: str, wl, kwargs: dict, expected: str, numbers: dict) -> None:
    r = roll(wl, **kwargs)
    assert story(r) == expected
    assert figures(r) == numbers


def test_a_revision_that_never_becomes_ready_stalls_at_the_deadline() -> None:
    # 4 replicas, 25%/25% (surge 1, unavailable 1): t0 -o4 +n1 +n2 as in "25%/25% of 4"; the new Pods never become
    # available, so maxScaledDown = 5 - 3 - 2 = 0 from then on. The last progress: the new ReplicaSet's Pods at 0
    # (NewReplicaSetCreated at the restart); progress.go looks again 600 + 1 s later: ProgressDeadlineExceeded at
    # 601, no rollback, 3 of 4 Pods available (all old).
    r = roll(deployment(4), ready_after=None)
    assert story(r) == "0:-o4 +n1 +n2 | stall 601 ProgressDeadlineExceeded"
    assert r.complete_at is None and r.stalled is not None
    assert (r.stalled.available, r.stalled.old) == (3, 3)
    assert r.min_available == 3


def test_maxunavailable_0_keeps_every_replica_serving_while_stalled() -> None:
    # surge 1, unavailable 0: t0 +n1 only; n1 never becomes available, nothing old goes: 3 of 3 serve at the stall.
    r = roll(deployment(3, 1, 0, deadline=60), ready_after=None)
    assert story(r) == "0:+n1 | stall 61 ProgressDeadlineExceeded"
    assert r.stalled is not None and (r.stalled.available, r.stalled.old) == (3, 3)


def test_a_slow_revision_stalls_then_completes_without_a_rollback() -> None:
    # 1 replica, surge 1, unavailable 0, the new Pod Ready 700 s after creation: t0 +n1; no progress until 601:
    # ProgressDeadlineExceeded. t700 n1 available, -o1: `DeploymentComplete`, so the condition turns True with
    # NewReplicaSetAvailable; the stall stays in the story.
    r = roll(deployment(1, 1, 0), ready_after=700)
    assert story(r) == "0:+n1 | 700:-o1 | done 700 | stall 601 ProgressDeadlineExceeded"
    assert [s.t for s in r.steps if "ProgressDeadlineExceeded" in str(s.text)] == [601]
    assert "the rollout is complete" in str(r.steps[-1].text)


def test_progress_after_the_deadline_turns_the_condition_true_again() -> None:
    # 2 replicas, surge 1, unavailable 0, new Pods Ready 700 s after creation: t0 +n1; 601 stall; t700 n1 available:
    # -o2 +n2, progress (more available Pods), the condition is True again; no progress until 700 + 600 + 1: it
    # times out a second time at 1301; t1400 n2 available, -o1, complete.
    r = roll(deployment(2, 1, 0), ready_after=700)
    assert story(r) == "0:+n1 | 700:-o2 +n2 | 1400:-o1 | done 1400 | stall 601 ProgressDeadlineExceeded"
    assert [s.t for s in r.steps if "Progress again" in str(s.text)] == [700]
    assert [s.t for s in r.steps if "ProgressDeadlineExceeded" in str(s.text)] == [601, 1301]


def test_recreate_also_has_a_deadline_counted_from_the_new_pods() -> None:
    # Recreate: progress at 0 (old Pods scaled down) and at 7 (3 new Pods created, never Ready): stall at 7 + 600 + 1.
    r = roll(deployment(3, None, None, strategy="Recreate"), ready_after=None, gone_after=7)
    assert story(r) == "0:-o1 -o2 -o3 | 7:+n1 +n2 +n3 | stall 608 ProgressDeadlineExceeded"
    assert r.stalled is not None and r.stalled.available == 0


def test_without_a_deadline_a_stuck_rollout_is_reported_at_its_last_progress() -> None:
    r = roll(deployment(2, 1, 0, deadline=None), ready_after=None)
    assert story(r) == "0:+n1 | stall 0 NoProgress"


def test_new_pods_that_lose_readiness_take_availability_below_the_floor() -> None:
    # 3 replicas, surge 1, unavailable 0 (floor 3); a new Pod is Ready 10-15 s and from 30 s after its creation
    # (it crashes once). t0 +n1. t10 n1 available: -o3 +n2 (created 10). t15 n1 not Ready. t20 n2 available:
    # available o1 o2 n2 = 3, new unavailable 1: 4 - 3 - 1 = 0, nothing. t25 n2 not Ready: 2 available (below the
    # floor: a Pod failed, no controller decision). t30 n1 Ready, t40 n2 Ready: 4 available, -o2 +n3 (created 40).
    # t50 n3 available: -o1; 3 new, all available: done at 50 (n3 loses Ready at 55, after the rollout).
    r = roll(deployment(3, 1, 0), ready=((10, 15), (30, INF)))
    assert story(r) == "0:+n1 | 10:-o3 +n2 | 40:-o2 +n3 | 50:-o1 | done 50"
    assert r.min_available == 2 and r.capacity_floor == 3
    assert any("No longer Ready" in str(s.text) for s in r.steps)


def test_unhealthy_old_pods_go_first_whatever_the_floor() -> None:
    # The old revision is not Ready: 3 old Pods, none available. surge 1, unavailable 0 (floor 3).
    # t0: up +n1 (4). Down: maxScaledDown = 4 - 3 - 1 = 0: nothing, even for unhealthy Pods.
    # t10: n1 available. Down: 4 - 3 - 0 = 1; `cleanupUnhealthyReplicas`: old 3, available 0 -> min(1, 3) = 1:
    # -o3. Then `scaleDownOldReplicaSetsForRollingUpdate`: available 0 + 1 = 1 <= 3, nothing. Up: 2 + 1 < 4 ->
    # +n2. t20: n2 available: down 4 - 3 - 0 = 1: cleanup -o2, +n3. t30: -o1, done at 30.
    r = roll(deployment(3, 1, 0), old_ready=False)
    assert story(r) == "0:+n1 | 10:-o3 +n2 | 20:-o2 +n3 | 30:-o1 | done 30"
    assert any("not available go first" in str(s.text) for s in r.steps)
    assert any("not Ready when the rollout starts" in str(n) for n in r.notes)


def test_a_sync_delay_postpones_every_reaction() -> None:
    # syncDelaySeconds 2 on "surge 1, unavailable 0" with 2 replicas: the controller sees the restart at 2 (+n1);
    # n1 available at 12, the controller reacts at 14 (-o2 +n2); n2 available at 24, reacts at 26 (-o1): complete.
    r = roll(deployment(2, 1, 0), delay=2)
    assert story(r) == "2:+n1 | 14:-o2 +n2 | 26:-o1 | done 26"
    assert r.sync_delay == 2 and "syncDelaySeconds" not in r.assumed
    assert (r.counts[0].t, r.counts[0].old, r.counts[0].new) == (0, 2, 0)      # as the restart finds them
