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
