"""The preStop delay both traffic rules propose (`service-without-prestop-drain`, `traffic-failure-window`):
as long as the endpoint change takes to reach the proxies, written as the version allows it; and how long
containers take to drain and stop at a deletion (`drain_seconds`, which the rules about stopping read).

The two rules read the same traffic lane (RuleContext.traffic, docs/lifecycle-model.md §27): the first
speaks for a served container without a preStop hook, the second for one whose hook does not last long
enough, so a container gets at most one of them, and neither fires where the lane shows no request lost.
"""
from __future__ import annotations

import math

from explainer.lifecycle import defaults as d
from explainer.lifecycle.model import Container
from explainer.lifecycle.admission.versions import version_tuple

from .base import RuleContext

SLEEP_ACTION_DEFAULT = "1.30"   # PodLifecycleSleepAction on by default (beta), GA in 1.34


def propagation(ctx: RuleContext) -> float:
    """The propagation time the lane assumed (the scenario's trafficPropagationSeconds, else the default)."""
    if ctx.traffic is not None:
        return ctx.traffic.propagation_seconds
    p = ctx.scenario.traffic_propagation
    return d.TRAFFIC_PROPAGATION_SECONDS if p is None else p


def sleep_seconds(ctx: RuleContext) -> int:
    """Whole seconds of preStop sleep that outlast the propagation (at least 1)."""
    return max(1, math.ceil(propagation(ctx)))


def has_sleep_action(version: str) -> bool:
    return version_tuple(version) >= version_tuple(SLEEP_ACTION_DEFAULT)


def sleep_hook(version: str, seconds: int) -> str:
    """The preStop handler as flow YAML: the sleep action where it is on by default, else an exec of sleep."""
    return f"sleep: {{seconds: {seconds}}}" if has_sleep_action(version) else \
        f'exec: {{command: ["sleep", "{seconds}"]}}'


def failing_containers(ctx: RuleContext) -> set[str] | None:
    """The containers the lane shows refusing requests after the deletion (None: no lane, e.g. a Pod the
    API server rejects, which is not simulated)."""
    if ctx.traffic is None:
        return None
    return {w.container for w in ctx.traffic.windows_at_deletion() if w.container}


def drain_seconds(ctx: RuleContext, containers: tuple[Container, ...] | list[Container], unbounded: float) -> float:
    """At a deletion, how long the longest preStop plus shutdown among ``containers`` takes;
    ``unbounded`` when one of them never ends (a hook or a process that ignores SIGTERM)."""
    longest = 0.0
    for c in containers:
        b = ctx.behaviour(c)
        if b.pre_stop_seconds is None or b.stop_seconds is None:
            return unbounded
        longest = max(longest, b.pre_stop_seconds + b.stop_seconds)
    return longest
