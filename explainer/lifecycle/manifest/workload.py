"""A workload's controller settings, read from the manifest with the API server's defaults
(pkg/apis/apps/v1/defaults.go: SetDefaults_Deployment, SetDefaults_StatefulSet, SetDefaults_DaemonSet).

Wrong types are the schema's to report (strict validation runs on the same object) and wrong values the
API server's (workload_validation.py: a string such as "3" without %, a negative number, maxSurge and
maxUnavailable both 0); here such a value is kept as written, so admission can name it, or falls back to
the default where the schema already objects.  docs/lifecycle-model.md §26.
"""
from __future__ import annotations

from typing import Any

from ..model import Workload
from ..numbers import is_whole_number
from .yamlload import position

_ROLLING = "RollingUpdate"
DEPLOYMENT_SURGE_DEFAULT = "25%"          # SetDefaults_Deployment: maxSurge and maxUnavailable 25%
DEPLOYMENT_UNAVAILABLE_DEFAULT = "25%"
DEPLOYMENT_PROGRESS_DEADLINE = 600        # progressDeadlineSeconds
NO_PROGRESS_DEADLINE = 2**31 - 1          # math.MaxInt32: deployment_util.go `HasProgressDeadline` is false
DAEMONSET_UNAVAILABLE_DEFAULT = 1         # SetDefaults_DaemonSet: maxUnavailable 1, maxSurge 0
DAEMONSET_SURGE_DEFAULT = 0
STATEFULSET_UNAVAILABLE_DEFAULT = 1       # rollingUpdate.maxUnavailable (MaxUnavailableStatefulSet gate)


def read_workload(obj: dict, kind: str, root: Any, at: tuple[Any, ...]) -> Workload | None:
    """The controller settings of ``obj`` (a Deployment, StatefulSet, DaemonSet, ReplicaSet or
    ReplicationController); None for every other kind."""
    if kind not in ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "ReplicationController"):
        return None
    spec: dict = obj["spec"] if isinstance(obj.get("spec"), dict) else {}
    line = position(root, at + ("spec",))[0]
    raw_replicas = spec.get("replicas")
    written = _whole(raw_replicas) is not None
    replicas = _whole(raw_replicas) if written else 1
    min_ready = _whole(spec.get("minReadySeconds")) or 0
    if kind == "Deployment":
        strategy = _mapping(spec, "strategy")
        kind_of: str = strategy["type"] if strategy.get("type") in (_ROLLING, "Recreate") else _ROLLING
        rolling = _mapping(strategy, "rollingUpdate")
        surge = unavailable = None
        if kind_of == _ROLLING:
            surge = _int_or_percent(rolling.get("maxSurge"), DEPLOYMENT_SURGE_DEFAULT)
            unavailable = _int_or_percent(rolling.get("maxUnavailable"), DEPLOYMENT_UNAVAILABLE_DEFAULT)
        deadline = _whole(spec.get("progressDeadlineSeconds"))
        if deadline is None:
            deadline = DEPLOYMENT_PROGRESS_DEADLINE
        return Workload(kind, replicas or 0, written, kind_of, surge, unavailable, min_ready,
                        None if deadline == NO_PROGRESS_DEADLINE else deadline, line=line)
    if kind == "StatefulSet":
        strategy = _mapping(spec, "updateStrategy")
        kind_of = strategy["type"] if strategy.get("type") in (_ROLLING, "OnDelete") else _ROLLING
        rolling = _mapping(strategy, "rollingUpdate")
        policy = spec.get("podManagementPolicy")
        return Workload(kind, replicas or 0, written, kind_of, None,
                        _int_or_percent(rolling.get("maxUnavailable"), STATEFULSET_UNAVAILABLE_DEFAULT),
                        min_ready, None, partition=_whole(rolling.get("partition")) or 0,
                        pod_management_policy=policy if policy in ("OrderedReady", "Parallel") else "OrderedReady",
                        line=line)
    if kind == "DaemonSet":
        strategy = _mapping(spec, "updateStrategy")
        kind_of = strategy["type"] if strategy.get("type") in (_ROLLING, "OnDelete") else _ROLLING
        rolling = _mapping(strategy, "rollingUpdate")
        return Workload(kind, 1, False, kind_of,
                        _int_or_percent(rolling.get("maxSurge"), DAEMONSET_SURGE_DEFAULT),
                        _int_or_percent(rolling.get("maxUnavailable"), DAEMONSET_UNAVAILABLE_DEFAULT),
                        min_ready, None, line=line)
    return Workload(kind, replicas or 0, written, "None", None, None, min_ready, None, line=line)


def _whole(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else None


def _mapping(m: dict, key: str) -> dict:
    v = m.get(key)
    return v if isinstance(v, dict) else {}


def _int_or_percent(v: Any, default: int | str) -> int | str:
    """An IntOrString as the controller reads it: a whole number, or "N%" (anything else: the default)."""
    if _whole(v) is not None:
        return v
    if isinstance(v, str):
        if is_whole_number(v):
            return v            # "3" is a string without %: GetScaledValueFromIntOrPercent refuses it
        if v.endswith("%") and is_whole_number(v[:-1]):
            return v
    return default


def labels_of(obj: Any) -> tuple[tuple[str, str], ...]:
    """metadata.labels of a Pod (or of a template) as sorted pairs; odd shapes give none."""
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    labels = meta.get("labels") if isinstance(meta, dict) else None
    if not isinstance(labels, dict):
        return ()
    return tuple(sorted((str(k), str(v)) for k, v in labels.items()))



def annotations_of(obj: Any) -> tuple[tuple[str, str], ...]:
    """metadata.annotations of an object (or of a template) as pairs of texts, in the manifest's order."""
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    notes = meta.get("annotations") if isinstance(meta, dict) else None
    return tuple((str(k), str(v)) for k, v in notes.items()) if isinstance(notes, dict) else ()
