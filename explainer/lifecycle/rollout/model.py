"""The result types of a rollout simulation (the JSON contract's `pods[].rollout`, docs/lifecycle-model.md §26).

The contract's fields are promises (added to, never renamed): `strategy, replicas, maxSurge, maxUnavailable,
minReadySeconds, progressDeadlineSeconds, completeAt, stalled: {at, reason}, minAvailable, maxPods,
maxPodsIncludingTerminating, pods: [{name, revision, createdAt, readyAt, availableAt, deletedAt, goneAt}],
counts: [{t, desired, old, new, ready, available, terminating}]`; the rest are additions.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..i18n import Text
from explainer.lifecycle.records import record

OLD, NEW = "old", "new"
# Stall reasons (`stalled.reason`): the Deployment condition's own reason, or what the controller waits for.
PROGRESS_DEADLINE_EXCEEDED = "ProgressDeadlineExceeded"   # Progressing=False (Deployments)
NEVER_AVAILABLE = "PodNeverAvailable"      # waits for a new Pod that never becomes available (Ready long enough)
NEVER_READY = "PodNeverReady"              # a StatefulSet waits for a Pod that is never Running and Ready
NO_PROGRESS = "NoProgress"                 # a Deployment without a deadline (progressDeadlineSeconds MaxInt32)
ON_DELETE = "OnDelete"                     # the controller replaces no Pod by itself
NOT_ENOUGH_AVAILABLE = "NotEnoughAvailable"   # new Pods keep losing Ready: never enough available at once
STALL_REASONS = (PROGRESS_DEADLINE_EXCEEDED, NEVER_AVAILABLE, NEVER_READY, NO_PROGRESS, ON_DELETE,
                 NOT_ENOUGH_AVAILABLE)


@record
class RolloutPod:
    name: str                      # <workload>-<ordinal> for StatefulSets; <workload>-<old|new>-<n> otherwise
    revision: str                  # old | new
    created_at: float | None       # None: it existed before the rollout started (t = 0)
    ready_at: float | None         # the first time its Ready condition is True (old Pods: None, Ready before 0)
    available_at: float | None     # counted available (Ready for minReadySeconds, IsPodAvailable)
    deleted_at: float | None       # the controller deleted it (deletionTimestamp)
    gone_at: float | None          # its containers have all stopped and the object is removed
    node: str | None = None        # DaemonSets: the node it runs on
    ready: tuple[tuple[float, float | None], ...] = ()   # every Ready interval (None: to the end)


@record
class RolloutCount:
    t: float
    desired: int
    old: int                       # old Pods not being deleted
    new: int                       # new Pods not being deleted
    ready: int                     # Ready Pods not being deleted
    available: int                 # available Pods not being deleted (what the controllers count)
    terminating: int               # deleted Pods whose containers have not all stopped yet


@record
class Stall:
    at: float
    reason: str                    # one of STALL_REASONS
    text: Text | None = None
    available: int | None = None   # the capacity left while it is stalled
    old: int | None = None         # old Pods still serving then


@record
class RolloutStep:
    """One sentence of the rollout's story: at ``t`` the controller did or saw this."""

    t: float
    text: Text
    pods: tuple[str, ...] = ()     # the Pods it is about


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
    capacity_floor: int = 0        # the fewest available Pods the controller allows (replicas - maxUnavailable)
    surge_ceiling: int = 0         # the most Pods not being deleted it allows (replicas + maxSurge)
    partition: int | None = None   # StatefulSets
    pod_management_policy: str | None = None
    nodes: int | None = None       # DaemonSets
    sync_delay: float = 0.0
    last_gone_at: float | None = None   # when the last old Pod's containers have stopped

    def jsonable(self) -> dict[str, Any]:
        """`pods[].rollout` of the JSON contract."""
        stalled = None
        if self.stalled is not None:
            stalled = {"at": self.stalled.at, "reason": self.stalled.reason, "available": self.stalled.available,
                       "old": self.stalled.old, "text": str(self.stalled.text) if self.stalled.text else None}
        return {
            "kind": self.kind,
            "strategy": self.strategy,
            "replicas": self.replicas,
            "maxSurge": self.max_surge,
            "maxUnavailable": self.max_unavailable,
            "minReadySeconds": self.min_ready_seconds,
            "progressDeadlineSeconds": self.progress_deadline_seconds,
            "capacityFloor": self.capacity_floor,
            "surgeCeiling": self.surge_ceiling,
            "partition": self.partition,
            "podManagementPolicy": self.pod_management_policy,
            "nodes": self.nodes,
            "syncDelaySeconds": self.sync_delay,
            "until": self.until,
            "completeAt": self.complete_at,
            "lastGoneAt": self.last_gone_at,
            "stalled": stalled,
            "minAvailable": self.min_available,
            "maxPods": self.max_pods,
            "maxPodsIncludingTerminating": self.max_pods_including_terminating,
            "pods": [{"name": p.name, "revision": p.revision, "createdAt": p.created_at, "readyAt": p.ready_at,
                      "availableAt": p.available_at, "deletedAt": p.deleted_at, "goneAt": p.gone_at,
                      "node": p.node, "ready": [[a, b] for a, b in p.ready]} for p in self.pods],
            "counts": [{"t": c.t, "desired": c.desired, "old": c.old, "new": c.new, "ready": c.ready,
                        "available": c.available, "terminating": c.terminating} for c in self.counts],
            "steps": [{"t": s.t, "text": str(s.text), "pods": list(s.pods)} for s in self.steps],
            "notes": [str(n) for n in self.notes],
            "assumed": {k: str(v) for k, v in self.assumed.items()},
        }
