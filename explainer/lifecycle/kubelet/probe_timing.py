"""When a probe first changes a container's state, worked out from the check times.

A probe result only changes after `failureThreshold` failures or `successThreshold`
successes in a row (pkg/kubelet/prober/worker.go `doProbe`).  In a scenario a probe
fails until ``startupSeconds`` have passed since the container started (always, when
listed in ``failingProbes``) and succeeds after, so the moment of each change follows
from arithmetic on the check times: no event per check, and no cost per period.

Checks fall at ``start + initialDelaySeconds + k * periodSeconds`` (the worker ticks every
period; the kubelet adds up to one period of jitter, which we leave out: §23 of
docs/lifecycle-model.md says no source pins probe timing to the second), skipping those before
``gate`` (for liveness and readiness: before the container counts as started).  When the
startup probe passes, the kubelet runs readiness once at once (`UpdatePodStatus`'s manual
trigger): that is the ``immediate`` check.
"""
from __future__ import annotations

import math

from explainer.lifecycle.records import record

INF = math.inf
_EPS = 1e-9


@record
class Checks:
    base: float                    # start + initialDelaySeconds
    period: float
    gate: float                    # no check before this
    immediate: float | None = None

    def __post_init__(self) -> None:
        # the initial delay holds for the manual trigger too (`doProbe` checks it on every run)
        if self.immediate is not None and self.immediate < self.base - _EPS:
            object.__setattr__(self, "immediate", None)

    def nth_from(self, threshold: float, n: int) -> float:
        """Time of the n-th check (1-based) at or after ``threshold``."""
        if self.immediate is not None and self.immediate >= threshold - _EPS:
            if n == 1:
                return self.immediate
            n -= 1
        lo = max(self.gate, threshold)
        k = 0 if lo <= self.base else math.ceil((lo - self.base) / self.period - _EPS)
        if self.immediate is not None:
            k = max(k, math.floor((self.immediate - self.base) / self.period + _EPS) + 1)
        return self.base + (k + n - 1) * self.period

    def count_before(self, limit: float) -> int:
        """How many checks fall before ``limit`` (INF counts as unbounded)."""
        if limit == INF:
            return 1 << 30
        first = self.nth_from(-INF, 1)
        if first >= limit - _EPS:
            return 0
        n = 1
        # checks are evenly spaced after the first (or the immediate one): count arithmetically
        second = self.nth_from(-INF, 2)
        n += max(0, math.ceil((limit - second) / self.period - _EPS)) if second < limit - _EPS else 0
        return n


def failure_time(checks: Checks, healthy_from: float, failure_threshold: int) -> float | None:
    """When `failureThreshold` checks in a row have failed, if they do before it turns healthy."""
    if checks.count_before(healthy_from) >= failure_threshold:
        return checks.nth_from(-INF, failure_threshold)
    return None


def success_time(checks: Checks, healthy_from: float, success_threshold: int) -> float | None:
    """When `successThreshold` checks in a row have passed (None: never)."""
    if healthy_from == INF:
        return None
    return checks.nth_from(healthy_from, success_threshold)
