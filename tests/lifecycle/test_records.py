"""records.quick_init: every class it decorates is built exactly as the constructor `dataclasses` writes
would build it (same parameters and defaults, default factories called per instance, equal, same hash
and repr), and stays frozen."""
from __future__ import annotations

import dataclasses
import inspect

import pytest

from explainer.lifecycle.scenario import behaviour
from explainer.lifecycle.kubelet import trace
from explainer.lifecycle import records
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


def _records() -> list[type]:
    import importlib
    import pkgutil

    import explainer

    found: dict[str, type] = {}
    for info in pkgutil.walk_packages(explainer.__path__, "explainer."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, type) and "__record_key__" in value.__dict__:
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[k] for k in sorted(found)]


RECORDS = _records()


def test_the_engine_declares_its_records_with_record() -> None:
    assert len(RECORDS) > 100 and {"Port", "Container", "Probe", "TraceEvent", "Finding"} <= {c.__name__ for c in RECORDS}


def _twin(cls: type) -> type:
    """The class `dataclasses` writes for the same fields: its own __eq__, __hash__ and __repr__."""
    spec = [(f.name, object, dataclasses.field(compare=f.compare, repr=f.repr, hash=f.hash)) for f in dataclasses.fields(cls)]
    twin = dataclasses.make_dataclass(cls.__name__, spec, frozen=True, slots=True)
    twin.__qualname__ = cls.__qualname__
    return twin


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: f"{c.__module__.rsplit('.', 1)[-1]}.{c.__qualname__}")
def test_a_record_compares_hashes_and_prints_as_the_dataclass_would(cls: type) -> None:
    fields = dataclasses.fields(cls)
    twin = _twin(cls)
    values = [(i, f"v{i}") for i in range(len(fields))]
    other = [(i, f"v{i}") for i in range(len(fields))]
    changed = [[(k, "w") if j == k else v for j, v in enumerate(values)] for k in range(len(fields))]

    def both(vals: list[object]) -> tuple[object, object]:
        ours = object.__new__(cls)
        theirs = object.__new__(twin)
        for f, v in zip(fields, vals):
            object.__setattr__(ours, f.name, v)
            object.__setattr__(theirs, f.name, v)
        return ours, theirs

    a, ta = both(values)
    b, tb = both(other)
    shared = {name for name, fn in (("__eq__", records._eq), ("__hash__", records._hash), ("__repr__", records._repr))
              if cls.__dict__.get(name) is fn}   # a method the class writes itself is its own business
    if "__repr__" in shared:
        assert repr(a) == repr(ta)
    if "__eq__" in shared:
        assert (a == b) is True and (ta == tb) is True   # the same values: equal, as the dataclass says
        assert (a != b) == (ta != tb)
        for vals in changed:
            c, tc = both(vals)
            assert (a == c) == (ta == tc)   # a field that is compared tells them apart; one that is not does not
        assert (a == ta) is False and a.__eq__(ta) is NotImplemented   # another class is never equal
    if "__hash__" in shared:
        assert hash(a) == hash(ta) == hash(b)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(a, fields[0].name if fields else "x", 1)
