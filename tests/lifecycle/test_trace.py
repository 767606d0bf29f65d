"""trace.py: the simulation's fast `TraceEvent` constructor makes the same events as the dataclass."""
from __future__ import annotations

import dataclasses

from explainer.lifecycle.i18n import Text
from explainer.lifecycle.trace import EventKind, TraceEvent, new_event


def test_the_fast_constructor_sets_every_field_in_the_dataclass_order() -> None:
    names = [f.name for f in dataclasses.fields(TraceEvent)]
    assert tuple(names) == TraceEvent.__slots__
    text = Text("runs {seconds}s, then exits {code}", {"seconds": "3", "code": 1})
    values = (1.5, "app", EventKind.EXITED, 2, 1, "Error", "runs 3s, then exits 1", True, text)
    fast, slow = new_event(*values), TraceEvent(*values)
    assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
    assert [getattr(fast, n) for n in names] == list(values)
    assert fast.text is text
    pod_level = new_event(0.0, None, EventKind.SANDBOX_READY, None, None, None, "", False, None)
    assert pod_level == TraceEvent(0.0, None, EventKind.SANDBOX_READY)
    try:
        fast.t = 2.0   # still frozen
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("a TraceEvent must stay frozen")


def test_the_fast_behaviour_constructor_equals_the_dataclass() -> None:
    from explainer.lifecycle.behaviour import Behaviour, Run, _new_behaviour
    from explainer.lifecycle.i18n import Phrase

    names = [f.name for f in dataclasses.fields(Behaviour)]
    assert tuple(names) == Behaviour.__slots__
    values = dict(runs=(Run(3.0, 1),), image_pull_fails=True, startup_seconds=2.0, failing_probes=frozenset({"liveness"}),
                  post_start_seconds=None, post_start_exit_code=1, pre_stop_seconds=4.0, pre_stop_exit_code=126,
                  stop_seconds=None, stop_exit_code=137, assumed={"runSeconds": Phrase("x")}, probe_faults={},
                  pre_stop_stops=(), exit_stops=())
    assert list(values) == names
    fast, slow = _new_behaviour(**values), Behaviour(**values)
    assert fast == slow and repr(fast) == repr(slow)
    assert all(getattr(fast, n) is v for n, v in values.items())


def test_the_fast_status_point_constructor_equals_the_dataclass() -> None:
    from explainer.lifecycle.trace import StatusPoint, new_point

    assert tuple(f.name for f in dataclasses.fields(StatusPoint)) == StatusPoint.__slots__
    values = (12.5, "Init:0/2", "Pending", False, "0/3", 4, True)
    fast, slow = new_point(*values), StatusPoint(*values)
    assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
