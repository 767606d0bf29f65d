"""The result types of a rollout simulation (the JSON contract's `pods[].rollout`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..i18n import Text

OLD, NEW = "old", "new"


@dataclass(frozen=True, slots=True)
class RolloutPod:
    name: str                      # <workload>-<ordinal> for StatefulSets; <rs>-<n> style otherwise
    revision: str                  # old | new
    created_at: float | None       # None: it existed before the rollout started (t = 0)
    ready_at: float | None
    available_at: float | None     # Ready for minReadySeconds (IsPodAvailable)
    deleted_at: float | None       # the controller deleted it (deletionTimestamp)
    gone_at: float | None          # its containers have all stopped and the object is removed
    node: str | None = None        # DaemonSets: the node it runs on


@dataclass(frozen=True, slots=True)
class RolloutCount:
    t: float
    desired: int
    old: int                       # old Pods not being deleted
    new: int                       # new Pods not being deleted
    ready: int
    available: int
    terminating: int


@dataclass(frozen=True, slots=True)
class Stall:
    at: float
    reason: str                    # ProgressDeadlineExceeded, or a short id of why it cannot go on
    text: Text | None = None


@dataclass(frozen=True, slots=True)
class RolloutStep:
    """One sentence of the rollout's story: at ``t`` the controller did or saw this."""

    t: float
    text: Text


@dataclass(frozen=True)
class Rollout:
    kind: str                      # Deployment | StatefulSet | DaemonSet
    strategy: str                  # RollingUpdate | Recreate | OnDelete
    replicas: int
    max_surge: int                 # resolved (ResolveFenceposts for Deployments)
    max_unavailable: int
    min_ready_seconds: int
    progress_deadline_seconds: int | None
    until: float                   # how far the rollout was simulated
    complete_at: float | None
    stalled: Stall | None
    min_available: int             # the lowest count of available Pods while it ran
    max_pods: int                  # the most Pods not being deleted at once
    max_pods_including_terminating: int
    pods: tuple[RolloutPod, ...]
    counts: tuple[RolloutCount, ...]
    steps: tuple[RolloutStep, ...] = ()
    notes: tuple[Text, ...] = ()
    assumed: dict[str, Text] = field(default_factory=dict)   # scenario value -> why it is assumed

    def jsonable(self) -> dict[str, Any]:
        """`pods[].rollout` of the JSON contract."""
        return {
            "kind": self.kind,
            "strategy": self.strategy,
            "replicas": self.replicas,
            "maxSurge": self.max_surge,
            "maxUnavailable": self.max_unavailable,
            "minReadySeconds": self.min_ready_seconds,
            "progressDeadlineSeconds": self.progress_deadline_seconds,
            "until": self.until,
            "completeAt": self.complete_at,
            "stalled": None if self.stalled is None else {"at": self.stalled.at, "reason": self.stalled.reason},
            "minAvailable": self.min_available,
            "maxPods": self.max_pods,
            "maxPodsIncludingTerminating": self.max_pods_including_terminating,
            "pods": [{"name": p.name, "revision": p.revision, "createdAt": p.created_at, "readyAt": p.ready_at,
                      "availableAt": p.available_at, "deletedAt": p.deleted_at, "goneAt": p.gone_at,
                      "node": p.node} for p in self.pods],
            "counts": [{"t": c.t, "desired": c.desired, "old": c.old, "new": c.new, "ready": c.ready,
                        "available": c.available, "terminating": c.terminating} for c in self.counts],
            "steps": [{"t": s.t, "text": str(s.text)} for s in self.steps],
            "notes": [str(n) for n in self.notes],
            "assumed": {k: str(v) for k, v in self.assumed.items()},
        }
