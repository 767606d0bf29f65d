"""The rollout from one manifest to the other (issue 22; docs/lifecycle-model.md §26): the second
manifest applied over the first, as `kubectl apply` does it to a running workload.  Old Pods from the
first template, behaving as the first scenario says; new Pods from the second, as the second says;
the second manifest's strategy, replicas and minReadySeconds (`lifecycle.rollout.rollout_between`).

Each side's own rollout (`PodReport.rollout`, a `kubectl rollout restart`) is the other question a
comparison answers: two strategies side by side (`render/rollout/compare.py`).
"""
from __future__ import annotations

from ..explain import Explanation, PodReport
from ..lifecycle.rollout import Rollout, rollout_between


def rollout_from_to(left: PodReport | None, right: PodReport | None, before: Explanation,
                    after: Explanation) -> Rollout | None:
    """The rollout from ``left``'s template to ``right``'s, when both are admitted workloads of one kind
    that rolls out (None otherwise: a Pod, a Job, a kind that changes, a side the API server rejects)."""
    if left is None or right is None or not left.admitted or not right.admitted:
        return None
    lw, rw = left.pod.workload, right.pod.workload
    if lw is None or rw is None or lw.kind != rw.kind or left.rollout is None or right.rollout is None:
        return None
    return rollout_between(left.pod, right.pod, before.scenario, after.scenario, after.version,
                           gates=after.scenario.feature_gates,
                           container_restart_rules=any(c.restart_rules for c in left.pod.all_containers),
                           new_container_restart_rules=any(c.restart_rules for c in right.pod.all_containers))
