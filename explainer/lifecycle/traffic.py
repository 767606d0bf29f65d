"""When a Pod receives requests: its endpoint in the Service's EndpointSlice, the endpoint change reaching
kube-proxy, ingress controllers and load balancers, and the windows in which requests may arrive while
nothing listens (issue 22; docs/lifecycle-model.md §27).

These are the result types; ``traffic_for`` works them out from one Pod's simulation.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .i18n import Text

# The states of `pods[].traffic.intervals[].state` (a JSON contract: added to, never renamed).
NOT_READY, SERVING, DRAINING, GONE = "not-ready", "serving", "draining", "gone"
TRAFFIC_STATES: tuple[str, ...] = (NOT_READY, SERVING, DRAINING, GONE)


@dataclass(frozen=True, slots=True)
class TrafficInterval:
    """From ``start`` to ``end`` (None: the end of the simulation) the proxies treat the Pod as ``state``."""

    start: float
    end: float | None
    state: str
    text: Text | None = None       # why, in words (the story and the tooltip)


@dataclass(frozen=True, slots=True)
class EndpointConditions:
    """The Pod's endpoint in the EndpointSlice (discovery/v1, KEP-1672) from ``start`` on: its
    ``ready``, ``serving`` and ``terminating`` conditions as the EndpointSlice controller writes them."""

    start: float
    end: float | None
    ready: bool
    serving: bool
    terminating: bool


@dataclass(frozen=True, slots=True)
class FailureWindow:
    """Requests may still arrive but nothing listens, from ``start`` to ``end``."""

    start: float
    end: float
    reason: str                    # a short id: why nothing listens (see traffic_for)
    container: str | None = None
    text: Text | None = None


@dataclass(frozen=True, slots=True)
class Traffic:
    propagation_seconds: float
    propagation_assumed: bool      # no trafficPropagationSeconds in the scenario: the model's default
    services: tuple[str, ...]      # the Services of the input that select the Pod ("" for an assumed one)
    service_assumed: bool          # no Service of the input selects it: one is assumed (see §27)
    other_ready_replicas: int      # other ready endpoints while this Pod goes (KEP-1669's fallback)
    intervals: tuple[TrafficInterval, ...]
    endpoints: tuple[EndpointConditions, ...]
    failure_windows: tuple[FailureWindow, ...]
    notes: tuple[Text, ...] = ()

    def jsonable(self) -> dict[str, Any]:
        """`pods[].traffic` of the JSON contract."""
        return {
            "propagationSeconds": self.propagation_seconds,
            "propagationAssumed": self.propagation_assumed,
            "services": list(self.services),
            "serviceAssumed": self.service_assumed,
            "otherReadyReplicas": self.other_ready_replicas,
            "intervals": [{"from": i.start, "to": i.end, "state": i.state} for i in self.intervals],
            "endpoints": [{"from": e.start, "to": e.end, "ready": e.ready, "serving": e.serving,
                           "terminating": e.terminating} for e in self.endpoints],
            "failureWindows": [{"from": w.start, "to": w.end, "reason": w.reason, "container": w.container}
                               for w in self.failure_windows],
            "notes": [str(n) for n in self.notes],
        }
