"""Costly work in a child process (explainer/web/isolate.py, issue 27): the result comes back, so does an
exception, a child past its time is killed and its slot freed, and the worker's other threads run meanwhile."""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from benchmarks.hostile_mix import crash_day
from explainer.lifecycle.errors import ErrorRecord, ManifestError
from explainer.web.gate import ServerBusy, costly_slot
from explainer.web.isolate import gated, run_isolated


@pytest.fixture(autouse=True)
def _own_slots(settings: Any, tmp_path: Path) -> None:
    settings.COSTLY_DIR = str(tmp_path / "slots")
    settings.COSTLY_SLOTS = 1
    settings.COSTLY_WAIT_SECONDS = 0.2


def _spin(seconds: float) -> int:
    end, n = time.monotonic() + seconds, 0
    while time.monotonic() < end:
        n += 1
    return n


def _refuse() -> None:
    raise ManifestError([ErrorRecord("no", line=3, kind="syntax")])


def test_the_result_comes_back_from_a_child_process() -> None:
    assert run_isolated(lambda: (os.getpid(), [1, "two"]))[1] == [1, "two"]
    assert run_isolated(os.getpid) != os.getpid()


def test_an_exception_in_the_child_is_raised_in_the_worker() -> None:
    with pytest.raises(ManifestError):
        run_isolated(_refuse)
    with pytest.raises(ZeroDivisionError):
        run_isolated(lambda: 1 / 0)


def test_a_child_that_runs_too_long_is_killed_and_answered_busy() -> None:
    started = time.monotonic()
    with pytest.raises(ServerBusy):
        run_isolated(lambda: time.sleep(30), seconds=0.5)
    assert time.monotonic() - started < 5


def test_the_slot_is_freed_after_a_child_timed_out(settings: Any) -> None:
    settings.COSTLY_SECONDS = 0.5
    manifest, scenario = str(crash_day(200)["manifest"]), crash_day(200)["scenario"]
    with pytest.raises(ServerBusy):
        gated([(manifest, scenario)], lambda: time.sleep(30))
    with costly_slot():   # nothing kept it
        pass


def test_light_work_runs_in_the_worker_and_costly_work_in_a_child() -> None:
    light = [("kind: Pod\nspec: {containers: [{name: a, image: a}]}\n", None)]
    assert gated(light, os.getpid) == os.getpid()
    day = crash_day(200)
    assert gated([(str(day["manifest"]), day["scenario"])], os.getpid) != os.getpid()


def test_nested_costly_work_runs_in_the_child_that_holds_the_slot() -> None:
    day = crash_day(200)
    pair = [(str(day["manifest"]), day["scenario"])]
    outer, inner = gated(pair, lambda: (os.getpid(), gated(pair, os.getpid)))   # one slot: no wait on itself
    assert outer == inner != os.getpid()


def test_the_work_costs_the_worker_no_cpu_while_a_child_computes() -> None:
    """The waiting thread sleeps on the pipe (no interpreter lock held, no CPU): the worker's other threads have it."""
    started = time.process_time()
    assert run_isolated(lambda: _spin(1.0)) > 0
    assert time.process_time() - started < 0.25   # a second of work, done elsewhere
