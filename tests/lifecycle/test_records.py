"""records.quick_init: every class it decorates is built exactly as the constructor `dataclasses` writes
would build it (same parameters and defaults, default factories called per instance, equal, same hash
and repr), and stays frozen."""
from __future__ import annotations

import dataclasses
import inspect

import pytest

from explainer.lifecycle.scenario import behaviour
from explainer.lifecycle.kubelet import trace
from explainer.lifecycle.records import quick_init
from explainer.render.timeline import axis as timeline_axis, model as timeline_model

QUICK = [cls for module in (trace, behaviour, timeline_model, timeline_axis) for cls in vars(module).values()
         if isinstance(cls, type) and "__dataclass_init__" in cls.__dict__]


def test_the_hot_records_are_quick() -> None:
    assert {"TraceEvent", "StatusPoint", "Behaviour", "Lane", "Bar", "Marker", "Segment", "Tick", "Guide",
            "LegendItem", "TimelineLayout", "AxisBreak", "TimeAxis"} <= {cls.__name__ for cls in QUICK}


def _built_both_ways(cls: type, *args: object, **kwargs: object) -> tuple[object, object]:
    ours = cls(*args, **kwargs)
    theirs = object.__new__(cls)
    cls.__dataclass_init__(theirs, *args, **kwargs)
    return ours, theirs


@pytest.mark.parametrize("cls", QUICK, ids=lambda c: c.__name__)
def test_quick_init_builds_what_the_dataclass_constructor_builds(cls: type) -> None:
    fields = dataclasses.fields(cls)
    ours, theirs = inspect.signature(cls.__init__), inspect.signature(cls.__dataclass_init__)
    assert [(p.name, p.kind) for p in ours.parameters.values()] == [(p.name, p.kind) for p in theirs.parameters.values()]
    values = [f"v{i}" for i in range(len(fields))]
    for args, kwargs in ((values, {}), ((), {f.name: v for f, v in zip(fields, values)})):
        built, reference = _built_both_ways(cls, *args, **kwargs)
        assert [getattr(built, f.name) for f in fields] == values
        assert built == reference and repr(built) == repr(reference)
        if cls.__hash__ is not None:
            assert hash(built) == hash(reference)
    required = [f for f in fields if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    short, reference = _built_both_ways(cls, *values[:len(required)])
    assert short == reference and repr(short) == repr(reference)
    for f in fields[len(required):]:
        if f.default_factory is not dataclasses.MISSING:   # a new one per instance, as the dataclass makes it
            assert getattr(short, f.name) == f.default_factory()
            assert getattr(short, f.name) is not getattr(cls(*values[:len(required)]), f.name)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(short, fields[0].name, "other")


def test_quick_init_refuses_what_it_cannot_build() -> None:
    @dataclasses.dataclass(frozen=True)
    class Unslotted:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class KeywordOnly:
        a: int = dataclasses.field(kw_only=True)

    for cls in (Unslotted, KeywordOnly):
        with pytest.raises(TypeError):
            quick_init(cls)
