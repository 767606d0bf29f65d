"""Feature gates per Kubernetes version: which exist, and their defaults (docs/lifecycle-model.md §3).

Source: pkg/features/kube_features.go (`defaultVersionedKubernetesFeatureGates`) of each release and the
feature-gate pages; a scenario's ``featureGates`` overrides a default, as ``--feature-gates`` does.
"""
from __future__ import annotations

import functools

from .. import defaults as d

# gate -> ((version, default, stage), ...): the last entry at or before the target version decides.
# A gate is absent (always off) before its first entry.
GATES: dict[str, tuple[tuple[tuple[int, int], bool, str], ...]] = {
    # KEP-753: alpha 1.28 (off), beta 1.29 (on), GA 1.33 (locked on; gate removed in 1.37).
    "SidecarContainers": (((1, 28), False, "alpha"), ((1, 29), True, "beta"), ((1, 33), True, "GA")),
    # KEP-5307: alpha 1.34 (off), beta 1.35 (on).
    "ContainerRestartRules": (((1, 34), False, "alpha"), ((1, 35), True, "beta")),
    # KEP-5532: alpha 1.35 (off), beta 1.36 (on).
    "RestartAllContainersOnContainerExits": (((1, 35), False, "alpha"), ((1, 36), True, "beta")),
    # KEP-4960: alpha 1.33, still alpha (off) through 1.37.
    "ContainerStopSignals": (((1, 33), False, "alpha"),),
    # KEP-4603: both alpha 1.32 (off); the node setting is beta (on) from 1.35.
    "KubeletCrashLoopBackOffMax": (((1, 32), False, "alpha"), ((1, 35), True, "beta")),
    "ReduceDefaultCrashLoopBackOffDecay": (((1, 32), False, "alpha"),),
    # KEP-1287: alpha 1.27, beta 1.33, GA 1.35 (resize itself is not modelled).
    "InPlacePodVerticalScaling": (((1, 27), False, "alpha"), ((1, 33), True, "beta"), ((1, 35), True, "GA")),
    # KEP-2837: alpha 1.32 (off), beta 1.34 (on); decides the QoS class where spec.resources is set (§25).
    "PodLevelResources": (((1, 32), False, "alpha"), ((1, 34), True, "beta")),
    # KEP-961: alpha 1.24 (off), beta 1.35 (on); a StatefulSet's rollingUpdate.maxUnavailable (§26.6).
    "MaxUnavailableStatefulSet": (((1, 24), False, "alpha"), ((1, 35), True, "beta")),
}
# Gates that are GA and locked on from a version: a scenario cannot turn them off there.
LOCKED_ON = {"SidecarContainers": (1, 33), "InPlacePodVerticalScaling": (1, 35)}


@functools.lru_cache(maxsize=256)
def version_tuple(version: str) -> tuple[int, int]:
    major, minor = version.split(".")[:2]
    return int(major), int(minor)


def gate_exists(name: str, version: str) -> bool:
    stages = GATES.get(name)
    return stages is not None and bool(stages) and version_tuple(version) >= stages[0][0]


def gate_enabled(name: str, version: str, gates: dict[str, bool] | None = None) -> bool:
    """Whether ``name`` is on in ``version``, the scenario's ``gates`` overriding the default."""
    if gates and name in gates and gate_exists(name, version) and not _locked_on(name, version):
        return gates[name]
    return _gate_default(name, version)


def _locked_on(name: str, version: str) -> bool:
    locked = LOCKED_ON.get(name)
    return locked is not None and version_tuple(version) >= locked


@functools.lru_cache(maxsize=1024)
def _gate_default(name: str, version: str) -> bool:
    """Whether ``name`` is on in ``version`` when no scenario sets it (False where it does not exist)."""
    v = version_tuple(version)
    if not gate_exists(name, version):
        return False
    locked = LOCKED_ON.get(name)
    if locked is not None and v >= locked:
        return True
    default = False
    for since, on, _stage in GATES[name]:
        if v >= since:
            default = on
    return default


def gate_stage(name: str, version: str) -> str | None:
    """'alpha', 'beta' or 'GA' in ``version``; None before the gate exists."""
    stage = None
    for since, _on, st in GATES.get(name, ()):
        if version_tuple(version) >= since:
            stage = st
    return stage


def crash_loop_backoff(version: str, gates: dict[str, bool] | None, max_period: float | None) -> tuple[float, float]:
    """(initial, maximum) crash-loop back-off: pkg/kubelet/kubelet.go `newCrashLoopBackOff`.

    10 s doubling to 300 s; 1 s to 60 s with ReduceDefaultCrashLoopBackOffDecay; with
    KubeletCrashLoopBackOffMax the node's maxContainerRestartPeriod is the maximum, and the initial
    delay is lowered to it when it is smaller (docs/lifecycle-model.md §20).
    """
    initial, maximum = float(d.CRASH_LOOP_INITIAL_SECONDS), float(d.CRASH_LOOP_MAX_SECONDS)
    if gate_enabled("ReduceDefaultCrashLoopBackOffDecay", version, gates):
        initial, maximum = float(d.REDUCED_CRASH_LOOP_INITIAL_SECONDS), float(d.REDUCED_CRASH_LOOP_MAX_SECONDS)
    if max_period is not None and gate_enabled("KubeletCrashLoopBackOffMax", version, gates):
        maximum = float(max_period)
        initial = min(initial, maximum)
    return initial, maximum
