"""The workers' full garbage collections (web/collector.py): never from the automatic trigger, at the end
of a request when enough younger collections have passed and nothing else is in flight, and whatever is
in flight once ten times overdue.  Driven with the real collector: ``gc.collect(1)`` counts one younger
collection towards the next full one, and a full collection starts the count again."""
from __future__ import annotations

import gc

import pytest

from explainer.web.collector import DEFAULT_FULL_AFTER, NEVER, OVERDUE_FACTOR, FullCollections


@pytest.fixture()
def collector():
    saved = gc.get_threshold()
    policy = FullCollections()
    policy.install()
    policy.saved = saved
    gc.collect()
    try:
        yield policy
    finally:
        gc.set_threshold(*saved)


def _younger(n: int) -> None:
    for _ in range(n):
        gc.collect(1)


def test_install_turns_off_only_the_automatic_full_collection(collector) -> None:
    assert gc.get_threshold() == (*collector.saved[:2], NEVER)


# other requests in flight, younger collections since the last full one, does the request's end collect
CASES = [
    (0, DEFAULT_FULL_AFTER - 1, False),
    (0, DEFAULT_FULL_AFTER, True),
    (1, DEFAULT_FULL_AFTER, False),
    (3, DEFAULT_FULL_AFTER * OVERDUE_FACTOR - 1, False),
    (3, DEFAULT_FULL_AFTER * OVERDUE_FACTOR, True),
]


@pytest.mark.parametrize("others, younger, collects", CASES)
def test_a_request_end_collects_when_due_and_idle_or_long_overdue(collector, others: int, younger: int,
                                                                  collects: bool) -> None:
    for _ in range(others + 1):
        collector.started()
    _younger(younger)
    assert gc.get_count()[2] == younger
    collector.finished()
    assert collector.collections == int(collects)
    assert (gc.get_count()[2] == 0) is collects
    assert collector.in_flight == others


def test_a_busy_worker_still_collects_its_cyclic_garbage(collector) -> None:
    collector.started()                           # a long request stays in flight throughout
    freed = []
    for i in range(DEFAULT_FULL_AFTER * OVERDUE_FACTOR):
        collector.started()
        node: dict = {"i": i}
        node["self"] = node                       # a cycle: only a full collection frees it once it is old
        del node
        _younger(1)
        collector.finished()
        freed.append(collector.collections)
    assert freed[-1] == 1 and freed[-2] == 0      # collected exactly when ten times overdue


def test_settling_freezes_what_the_loaded_application_holds(collector) -> None:
    try:
        collector.settle()
        frozen = gc.get_freeze_count()
        assert frozen > 1000                      # the test process: Django, pytest, the explainer
    finally:
        gc.unfreeze()
    assert gc.get_freeze_count() == 0
