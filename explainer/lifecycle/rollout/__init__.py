"""A rollout of a Deployment, StatefulSet or DaemonSet: old Pods replaced by new ones as the controller
does it, each Pod with its own lifecycle from the kubelet model (issue 22; docs/lifecycle-model.md §26).

The API (pure Python, no Django; the web and the CLI call these):

``simulate_rollout(pod, scenario, version, *, gates=None, container_restart_rules=False) -> Rollout | None``
    `kubectl rollout restart` of the admitted ``pod``'s workload at t = 0, every old Pod Running and
    available: old and new Pods from the same template, the new ones behaving as ``scenario.containers`` with
    ``scenario.rollout.newRevision`` on top.  None for kinds without a rollout (Pods, Jobs, ReplicaSets ...).
    `explain()` fills `PodReport.rollout` with it.

``rollout_between(old_pod, new_pod, old_scenario, new_scenario=None, version=None, ...) -> Rollout | None``
    Compare mode, "the rollout from the first manifest to the second": old Pods from ``old_pod``'s template
    (behaving as ``old_scenario`` says), new Pods from ``new_pod``'s (as ``new_scenario`` says), under the
    second manifest's strategy, replicas and minReadySeconds, as when it is applied over the first.

``compare_strategies(pod, workloads, scenario, version, ...) -> list[Rollout]``
    Two (or more) strategies side by side for one template: each entry of ``workloads`` is the Pod's own
    `Workload` with other values, e.g. ``dataclasses.replace(pod.workload, max_surge="25%",
    max_unavailable=0)``; the Pods' behaviour is simulated once and shared.  Compare the results'
    ``complete_at``, ``min_available`` (the capacity floor actually reached) and ``max_pods``.

``learn_revisions(...) -> Revisions`` and ``rollout_for(workload, name, revisions, knobs, version, gates)``
    The two halves: how one Pod of each revision behaves (one kubelet simulation each, `revision.learn`), and
    the controller's arithmetic over the replicas.  ``revision.synthetic(ready_after, gone_after)`` states a
    revision directly (the controller tests, quick what-ifs).

Modules: `model.py` the result types (the JSON contract's `pods[].rollout`), `revision.py` a revision's Pod,
`engine.py` the event loop, `arith.py` the intstr and fencepost arithmetic, `deployment.py`, `statefulset.py`,
`daemonset.py` the controllers, `run.py` the above.
"""
from .model import Rollout, RolloutCount, RolloutPod, RolloutStep, Stall
from .revision import Revision, synthetic
from .run import Knobs, Revisions, compare_strategies, learn_revisions, rollout_between, rollout_for, simulate_rollout

__all__ = ["Knobs", "Revision", "Revisions", "Rollout", "RolloutCount", "RolloutPod", "RolloutStep", "Stall",
           "compare_strategies", "learn_revisions", "rollout_between", "rollout_for", "simulate_rollout",
           "synthetic"]
