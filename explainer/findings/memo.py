"""Facts several rules read about the same container, worked out once per run of the rules.

Many rules ask the same questions of a container (what it runs, which ports it listens on and
reaches on localhost, whether it is an outbound proxy, how long one run lasts).  A function
decorated with `per_run` answers each question once while `run_rules` goes over one Pod
(`one_run`), and every time outside it: a rule timed or tested alone pays for what it reads,
and nothing is kept from one Pod (or one explain() call) to the next.

Arguments are keyed by identity (a container, the Pod, a flag), and held until the run ends,
so an id is never reused for another object while its answer is kept.  Only pure functions of
values that do not change during a run may be decorated, and their answers are shared: callers
must not modify what they get back.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import wraps
from typing import Any, TypeVar

from explainer.lifecycle import commands, evidence, probe_reach, validate, versions

F = TypeVar("F", bound=Callable[..., Any])

_RUN: ContextVar[dict[tuple[Any, ...], tuple[Any, tuple[Any, ...]]] | None] = ContextVar("findings_run", default=None)


@contextmanager
def one_run() -> Iterator[None]:
    """Share `per_run` answers until the block ends (one Pod's rules)."""
    token = _RUN.set({})
    try:
        yield
    finally:
        _RUN.reset(token)


def per_run(fn: F) -> F:
    """``fn`` answered once per argument tuple (by identity) inside `one_run`, recomputed outside it."""

    @wraps(fn)
    def answer(*args: Any) -> Any:
        memo = _RUN.get()
        if memo is None:
            return fn(*args)
        key = (fn, *map(id, args))
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = (fn(*args), args)
        return hit[0]

    return answer  # type: ignore[return-value]


# The core's readings that several rules make (each a pure function of its arguments): whether a
# feature gate is on, what one run of a container's command does, a server bound to loopback,
# probes that cannot pass.
gate_enabled = per_run(versions.gate_enabled)
sidecars_enabled = per_run(validate.sidecars_enabled)
guess_run = per_run(commands.guess_run)
loopback_bind = per_run(evidence.loopback_bind)
probe_faults = per_run(probe_reach.probe_faults)
