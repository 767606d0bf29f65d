"""Frozen records built quickly: `quick_init` for the dataclasses the engine makes by the thousand.

A frozen dataclass's ``__init__`` stores each field through ``object.__setattr__`` (it has to get
past its own ``__setattr__``, which raises).  For a slotted class, each slot's descriptor can store
the field directly, in about half the time.  The simulation makes a `TraceEvent` per event and a
`StatusPoint` per change (fast-forward repeats them hundreds of thousands of times at worst), and a
chart a few dozen layout objects per request.  Same parameters, defaults, default factories,
equality, hash and frozenness (`tests/lifecycle/test_records.py` holds every decorated class to the
constructor `dataclasses` writes).
"""
from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T", bound=type)
_NOTHING = object()   # a parameter left out whose field has a default factory


def quick_init(cls: T) -> T:
    """Give a frozen, slotted dataclass an ``__init__`` that stores each field through its slot.

    Keeps the dataclass's own ``__init__`` as ``cls.__dataclass_init__`` (for the tests)."""
    if not dataclasses.is_dataclass(cls) or "__slots__" not in cls.__dict__ or "__post_init__" in cls.__dict__:
        raise TypeError(f"quick_init needs a slotted dataclass without __post_init__, not {cls.__name__}")
    env: dict[str, object] = {"_NOTHING": _NOTHING}
    params, body = [], []
    for f in dataclasses.fields(cls):
        if not f.init or f.kw_only:
            raise TypeError(f"quick_init does not handle field {f.name} of {cls.__name__}")
        if f.default_factory is not dataclasses.MISSING:
            env[f"_factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_NOTHING")
            body.append(f"    if {f.name} is _NOTHING:\n        {f.name} = _factory_{f.name}()\n")
        elif f.default is not dataclasses.MISSING:
            env[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        else:
            params.append(f.name)
        env[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        body.append(f"    _set_{f.name}(self, {f.name})\n")
    namespace: dict[str, object] = {}
    exec(f"def __init__(self, {', '.join(params)}):\n" + "".join(body), env, namespace)   # noqa: S102
    init: Any = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__dataclass_init__", cls.__init__)
    setattr(cls, "__init__", init)
    return cls
