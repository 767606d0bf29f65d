"""StatusBook's counters: each container's sparse contribution (status.py `_contribution`) adds up to
the dense reading of the rules, for every combination of the fields it reads."""
from __future__ import annotations

import itertools

from explainer.lifecycle.kubelet import status as S
from explainer.lifecycle.kubelet.status import EXITED, RUNNING, WAITING, RuntimeStatus


def _dense(s: RuntimeStatus) -> list[int]:
    """The rules, slot by slot (the counters' meaning: docs/lifecycle-model.md §10 and docs/lifecycle-model.md §15)."""
    c = [0] * S._SLOTS
    if s.role == "init":
        c[S.RESTARTS_INIT] = s.restarts
        if s.state == RUNNING:
            c[S.PEND_INIT] = 1
        elif s.state == EXITED:
            c[S.FAILED_INIT] = int(s.exit_code != 0 and not s.will_restart)
        elif s.last_exit is not None:
            c[S.FAILED_INIT] = int(s.last_exit != 0 and not s.will_restart)
        else:
            c[S.PEND_INIT] = 1
    elif s.role == "sidecar":
        c[S.RESTARTS_SIDECAR] = s.restarts
        if s.state == RUNNING:
            c[S.RUNNING_N] = 1
            c[S.PEND_SIDECAR] = int(not s.started)
        elif s.state == WAITING and s.last_exit is None:
            c[S.PEND_SIDECAR] = 1
            c[S.WAITING_N] = 1
        c[S.READY_NEEDED_OK] = int(s.ready)
        c[S.READY_SIDECAR] = int(s.started and s.ready)
    elif s.role == "app":
        c[S.RESTARTS_APP] = s.restarts
        if s.state == RUNNING:
            c[S.RUNNING_N] = 1
            c[S.RUN_READY_APP] = int(s.ready)
        elif s.state == EXITED:
            c[S.STOPPED] = 1
            c[S.SUCCEEDED] = int(s.exit_code == 0)
            c[S.STOPPED_RESTARTING] = int(s.will_restart)
        elif s.last_exit is not None:
            c[S.STOPPED] = 1
            c[S.STOPPED_RESTARTING] = int(s.will_restart)
        else:
            c[S.WAITING_N] = 1
        c[S.READY_NEEDED_OK] = int(s.ready)
    return c


def _statuses():
    for role, state, code, last, started, ready, again, restarts in itertools.product(
            ("init", "sidecar", "app", "ephemeral"), (WAITING, RUNNING, EXITED), (None, 0, 1, 137),
            (None, 0, 1), (False, True), (False, True), (False, True), (0, 1, 7)):
        s = RuntimeStatus(role, 0, "ContainerCreating")
        s.state, s.exit_code, s.last_exit, s.started, s.ready, s.will_restart, s.restarts = (
            state, code, last, started, ready, again, restarts)
        yield s


def test_every_contribution_adds_up_to_the_dense_rules() -> None:
    n = 0
    for s in _statuses():
        got = [0] * S._SLOTS
        for slot, amount in S._contribution(s):
            got[slot] += amount
        assert got == _dense(s), (s.role, s.state, s.exit_code, s.last_exit, s.started, s.ready, s.will_restart)
        n += 1
    assert n == 4 * 3 * 4 * 3 * 2 * 2 * 2 * 3


def test_the_counters_follow_every_change_of_one_container() -> None:
    """Changing one container through every combination, one after another, leaves the counters equal
    to its dense contribution each time (old contributions are taken back exactly)."""
    for role in ("init", "sidecar", "app"):
        s = RuntimeStatus(role, 0, "ContainerCreating")
        book = S.StatusBook([s], 1 if role != "app" else 0, 1, "Always", 0)
        for t in _statuses():
            if t.role != role:
                continue
            s.state, s.exit_code, s.last_exit, s.started, s.ready, s.will_restart, s.restarts = (
                t.state, t.exit_code, t.last_exit, t.started, t.ready, t.will_restart, t.restarts)
            book.changed(s)
            assert book.counts == _dense(s)
