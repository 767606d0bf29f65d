"""Frozen records built quickly: `quick_init` for the dataclasses the engine makes by the thousand.

A frozen dataclass's ``__init__`` stores each field through ``object.__setattr__`` (it has to get
past its own ``__setattr__``, which raises).  For a slotted class, each slot's descriptor can store
the field directly, in about half the time.  The simulation makes a `TraceEvent` per event and a
`StatusPoint` per change (fast-forward repeats them hundreds of thousands of times at worst), and a
chart a few dozen layout objects per request.  Same parameters, defaults, default factories,
equality, hash and frozenness (`tests/lifecycle/test_records.py` holds every decorated class to the
constructor `dataclasses` writes).

`record` is ``@dataclass(frozen=True, slots=True)`` made quickly: `dataclasses` writes and compiles each
class's ``__eq__``, ``__hash__`` and ``__repr__`` from source (in Python 3.11, one ``exec`` each, ~90 µs), and
the engine declares about a hundred records, so those three were ~18 ms of every `podlife` start (a tenth of
the process; the `make bench` row "podlife explain / kubernetes-validate").  Here every record shares one
``__eq__``, ``__hash__`` and ``__repr__`` that read the class's fields through an ``operator.attrgetter``
made once per class: the same answers as the written ones (the fields of ``compare=True`` in order, the
class's qualified name and the fields of ``repr=True``; `tests/lifecycle/test_records.py` holds every record
to them), at the same speed.  A method the class writes itself is kept, as `dataclasses` keeps it.
"""
from __future__ import annotations

import dataclasses
import operator
import reprlib
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform

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


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function of an object giving the tuple of its ``names`` (always a tuple, as the written methods
    compare and hash one)."""
    if len(names) == 1:
        one = operator.attrgetter(names[0])
        return lambda obj: (one(obj),)
    if not names:
        return lambda obj: ()
    return operator.attrgetter(*names)


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is self.__class__:
        key = self.__class__.__record_key__
        return key(self) == key(other)
    return NotImplemented


def _hash(self: Any) -> int:
    return hash(self.__class__.__record_key__(self))


@reprlib.recursive_repr()
def _repr(self: Any) -> str:
    cls = self.__class__
    return f"{cls.__qualname__}(" + ", ".join(f"{n}={v!r}" for n, v in zip(cls.__record_shown__,
                                                                          cls.__record_values__(self))) + ")"


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: T) -> T:
    """``@dataclass(frozen=True, slots=True)``, with the shared ``__eq__``, ``__hash__`` and ``__repr__``."""
    own = {name for name in ("__eq__", "__hash__", "__repr__") if name in cls.__dict__}
    made: Any = dataclasses.dataclass(frozen=True, slots=True, eq=False, repr=False)(cls)
    fields = dataclasses.fields(made)
    compared = tuple(f.name for f in fields if f.compare)
    hashed = tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash))
    shown = tuple(f.name for f in fields if f.repr)
    made.__record_key__ = _getter(compared)
    made.__record_shown__ = shown
    made.__record_values__ = _getter(shown)
    if "__eq__" not in own:
        made.__eq__ = _eq
    if "__hash__" not in own:
        if hashed == compared:
            made.__hash__ = _hash
        else:   # a field of hash=False: its own key (none of ours yet; kept exact)
            key = _getter(hashed)
            made.__hash__ = lambda self: hash(key(self))
    if "__repr__" not in own:
        made.__repr__ = _repr
    return made
