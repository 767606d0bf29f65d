"""A StatefulSet's rolling update replayed step by step (docs/lifecycle-model.md §26.6).

Each case is worked by hand from k/k pkg/controller/statefulset/stateful_set_control.go `updateStatefulSet`:
`processReplica` in ascending ordinal order (create a missing Pod -- below the partition from the old
revision --; with OrderedReady stop there and at a Pod terminating, not Running and Ready, or not available),
then OnDelete stops, then the update: without the MaxUnavailableStatefulSet gate (before 1.35) delete the highest
old Pod not terminating and stop at an unhealthy one; with it (`updateStatefulSetAfterInvariantEstablished`)
delete up to maxUnavailable minus the unavailable Pods, highest first. New Pods are Ready 10 s after their
creation and old Pods stop 5 s after their deletion unless a case says otherwise; "-2" deletes ordinal 2, "+2"
creates it again.
"""
from __future__ import annotations

import pytest

from tests.lifecycle.rollout.helpers import figures, roll, statefulset, story

CASES = [
    # 3 replicas, OrderedReady: t0 all healthy; update: db-2 is old -> delete (-2), stop. t5 db-2 gone: processReplica
    # creates it (+2) and stops (monotonic). t15 db-2 Running and Ready: update deletes db-1. t20 +1, t30 -0, t35 +0,
    # t45 db-0 Ready: every Pod new and Ready, done. One Pod down at a time: 2 available at worst.
    ("OrderedReady, 3 replicas", statefulset(3), {},
     "0:-2 | 5:+2 | 15:-1 | 20:+1 | 30:-0 | 35:+0 | done 45",
     {"floor": 2, "ceiling": 3, "min_available": 2, "max_pods": 3, "with_terminating": 3}),
    # partition 2 of 4: the update loop runs from ordinal 3 down to 2 only. t0 -3, t5 +3, t15 -2, t20 +2, t30 db-2
    # Ready: ordinals >= 2 updated and all 4 Ready: "partitioned roll out complete"; db-0 and db-1 stay old.
    ("partition 2 of 4", statefulset(4, partition=2), {},
     "0:-3 | 5:+3 | 15:-2 | 20:+2 | done 30",
     {"floor": 3, "ceiling": 4, "min_available": 3, "max_pods": 4, "with_terminating": 4}),
    # Parallel on 1.34 (no gate): processReplica waits for nothing, but the update loop still deletes one old Pod
    # and stops at the first unhealthy one from the top: the same one-at-a-time sequence as OrderedReady.
    ("Parallel does not change updates (1.34)", statefulset(3, policy="Parallel"), {"version": "1.34"},
     "0:-2 | 5:+2 | 15:-1 | 20:+1 | 30:-0 | 35:+0 | done 45",
     {"floor": 2, "ceiling": 3, "min_available": 2, "max_pods": 3, "with_terminating": 3}),
    # maxUnavailable 2 on 1.34: the gate is off, the field is dropped: one at a time again (4 replicas).
    ("maxUnavailable 2 without the gate (1.34)", statefulset(4, max_unavailable=2), {"version": "1.34"},
     "0:-3 | 5:+3 | 15:-2 | 20:+2 | 30:-1 | 35:+1 | 45:-0 | 50:+0 | done 60",
     {"floor": 3, "ceiling": 4, "min_available": 3, "max_pods": 4, "with_terminating": 4}),
    # maxUnavailable 2, OrderedReady, 1.37 (gate on): t0 all available, 0 unavailable: delete 2 - 0 = 2 from the top
    # (-3 -2). t5 both gone: processReplica creates db-2 first (ascending) and stops; db-2 Ready at 15, then db-3 is
    # created (+3), Ready at 25: all available, delete 2 more (-1 -0). t30 +0, Ready 40, +1, Ready 50: done.
    ("maxUnavailable 2, OrderedReady (gate on)", statefulset(4, max_unavailable=2), {},
     "0:-2 -3 | 5:+2 | 15:+3 | 25:-0 -1 | 30:+0 | 40:+1 | done 50",
     {"floor": 2, "ceiling": 4, "min_available": 2, "max_pods": 4, "with_terminating": 4}),
    # maxUnavailable 2, Parallel, gate on: t0 -3 -2; t5 both created at once (burst); t15 both Ready: unavailable
    # 0, delete -1 -0; t20 +0 +1; t30 done. Twice as fast as one at a time.
    ("maxUnavailable 2, Parallel (gate on)", statefulset(4, max_unavailable=2, policy="Parallel"), {},
     "0:-2 -3 | 5:+2 +3 | 15:-0 -1 | 20:+0 +1 | done 30",
     {"floor": 2, "ceiling": 4, "min_available": 2, "max_pods": 4, "with_terminating": 4}),
    # maxUnavailable "50%" of 5: `getStatefulSetMaxUnavailable` rounds down, floor(2.5) = 2. Parallel:
    # t0 -4 -3; t5 +3 +4; t15 -2 -1; t20 +1 +2; t30 -0; t35 +0; t45 done.
    ("maxUnavailable 50% of 5 rounds down", statefulset(5, max_unavailable="50%", policy="Parallel"), {},
     "0:-3 -4 | 5:+3 +4 | 15:-1 -2 | 20:+1 +2 | 30:-0 | 35:+0 | done 45",
     {"floor": 3, "ceiling": 5, "min_available": 3, "max_pods": 5, "with_terminating": 5}),
    # maxUnavailable "10%" of 3: floor(0.3) = 0, raised to 1: one at a time.
    ("maxUnavailable 10% of 3 is at least 1", statefulset(3, max_unavailable="10%", policy="Parallel"), {},
     "0:-2 | 5:+2 | 15:-1 | 20:+1 | 30:-0 | 35:+0 | done 45",
     {"floor": 2, "ceiling": 3, "min_available": 2, "max_pods": 3, "with_terminating": 3}),
    # minReadySeconds 5, 2 replicas: db-1 deleted at 0, created at 5, Ready at 15, available at 15 + 5 + 1 = 21
    # (processReplica's isRunningAndAvailable, seen 1 s after minReadySeconds): -0 at 21, +0 at 26, Ready at 36:
    # kubectl rollout status counts Ready Pods, so done at 36.
    ("minReadySeconds 5", statefulset(2, min_ready=5), {},
     "0:-1 | 5:+1 | 21:-0 | 26:+0 | done 36",
     {"floor": 1, "ceiling": 2, "min_available": 1, "max_pods": 2, "with_terminating": 2}),
    # Old Pods that stop at once (gone 0 s): deletion and creation fall at the same instant.
    ("old Pods stop at once", statefulset(2), {"gone_after": 0},
     "0:-1 +1 | 10:-0 +0 | done 20",
     {"floor": 1, "ceiling": 2, "min_available": 1, "max_pods": 2, "with_terminating": 2}),
]


@pytest.mark.parametrize("title,wl,kwargs,expected,numbers", CASES, ids=[c[0] for c in CASES])
def test_the_controllers_steps(title: str, wl, kwargs: dict, expected: str, numbers: dict) -> None:
    r = roll(wl, **kwargs)
    assert story(r) == expected
    assert figures(r) == numbers


def test_names_are_the_ordinals_and_a_replacement_keeps_its_name() -> None:
    r = roll(statefulset(2))
    assert [(p.name, p.revision) for p in r.pods] == [("db-0", "old"), ("db-1", "old"), ("db-1", "new"),
                                                      ("db-0", "new")]
    old1, new1 = r.pods[1], r.pods[2]
    assert old1.gone_at == new1.created_at == 5


def test_on_delete_replaces_nothing() -> None:
    r = roll(statefulset(3, strategy="OnDelete"))
    assert story(r) == "stall 0 OnDelete"
    assert all(p.revision == "old" and p.deleted_at is None for p in r.pods)


def test_a_pod_that_is_never_ready_stops_the_update_there() -> None:
    # t0 -2; t5 +2, never Running and Ready: OrderedReady's processReplica stops at it on every sync; no deadline.
    r = roll(statefulset(3), ready_after=None)
    assert story(r) == "0:-2 | 5:+2 | stall 5 PodNeverReady"
    assert r.stalled is not None and (r.stalled.available, r.stalled.old) == (2, 2)


def test_a_broken_old_revision_blocks_ordered_ready_at_ordinal_0() -> None:
    # Old Pods not Ready: processReplica stops at db-0 (not Running and Ready) before any update: nothing happens.
    r = roll(statefulset(3), old_ready=False)
    assert story(r) == "stall 0 PodNeverReady"
    assert r.stalled is not None and "db-0" in str(r.stalled.text)


def test_parallel_gets_a_note_that_it_does_not_change_updates() -> None:
    r = roll(statefulset(3, policy="Parallel"))
    assert any("Parallel only changes" in str(n) for n in r.notes)
