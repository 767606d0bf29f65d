"""Helpers for the rollout tests: workloads in one line, a rollout told as "t: -deleted +created | ..."."""
from __future__ import annotations

import re
from typing import Any

from explainer.lifecycle.model import Workload
from explainer.lifecycle.rollout import Knobs, Revisions, Rollout, rollout_for, synthetic


def deployment(replicas: int = 3, surge: int | str | None = "25%", unavailable: int | str | None = "25%", *,
               strategy: str = "RollingUpdate", min_ready: int = 0, deadline: int | None = 600) -> Workload:
    return Workload("Deployment", replicas, True, strategy, surge, unavailable, min_ready, deadline)


def statefulset(replicas: int = 3, *, strategy: str = "RollingUpdate", partition: int = 0,
                policy: str = "OrderedReady", max_unavailable: int | str = 1, min_ready: int = 0) -> Workload:
    return Workload("StatefulSet", replicas, True, strategy, None, max_unavailable, min_ready, None,
                    partition=partition, pod_management_policy=policy)


def daemonset(*, surge: int | str = 0, unavailable: int | str = 1, strategy: str = "RollingUpdate",
              min_ready: int = 0) -> Workload:
    return Workload("DaemonSet", 1, False, strategy, surge, unavailable, min_ready, None)


def roll(wl: Workload, ready_after: float | None = 10, gone_after: float = 5, *, nodes: int | None = None,
         version: str = "1.37", ready: tuple[tuple[float, float], ...] | None = None, delay: float | None = None,
         old_ready: bool = True) -> Rollout:
    """``wl`` rolled out with new Pods Ready ``ready_after`` s after their creation (or the ``ready``
    intervals) and old Pods stopping ``gone_after`` s after their deletion."""
    revs = Revisions(synthetic(0, gone_after, steady_ready=old_ready),
                     synthetic(ready_after, gone_after, ready=ready))
    name = {"Deployment": "web", "StatefulSet": "db", "DaemonSet": "agent"}[wl.kind]
    return rollout_for(wl, name, revs, Knobs(nodes=nodes, sync_delay=delay), version)


def _short(name: str) -> str:
    m = re.fullmatch(r"[a-z]+-(old|new)-(\d+)", name)
    if m:
        return m.group(1)[0] + m.group(2)
    return name.rsplit("-", 1)[1]          # a StatefulSet's ordinal


def _key(action: str) -> tuple[int, int]:
    return (0 if action[0] == "-" else 1, int(re.sub(r"\D", "", action)))


def story(r: Rollout) -> str:
    """The controller's actions: "0:-o4 +n1 +n2 | 10:... | done 20" (- deleted, + created; o/n old/new Pod
    n, or a StatefulSet's ordinal), then when it completes or stalls."""
    at: dict[float, list[str]] = {}
    for p in r.pods:
        if p.deleted_at is not None:
            at.setdefault(p.deleted_at, []).append("-" + _short(p.name))
        if p.created_at is not None:
            at.setdefault(p.created_at, []).append("+" + _short(p.name))
    parts = [f"{t:g}:" + " ".join(sorted(acts, key=_key)) for t, acts in sorted(at.items())]
    if r.complete_at is not None:
        parts.append(f"done {r.complete_at:g}")
    if r.stalled is not None:
        parts.append(f"stall {r.stalled.at:g} {r.stalled.reason}")
    return " | ".join(parts)


def figures(r: Rollout) -> dict[str, Any]:
    return {"floor": r.capacity_floor, "ceiling": r.surge_ceiling, "min_available": r.min_available,
            "max_pods": r.max_pods, "with_terminating": r.max_pods_including_terminating}
