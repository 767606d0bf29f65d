"""The Pod's QoS class, computed as Kubernetes does (docs/lifecycle-model.md §25).

Source: pkg/apis/core/helper/qos/qos.go ``ComputePodQOS`` (the kubelet's copy is
pkg/apis/core/v1/helper/qos ``GetPodQOS``), after the API server's defaulting in
pkg/apis/core/v1/defaults.go ``SetDefaults_Pod`` (a container's missing request for a resource
defaults to its limit) and, with the PodLevelResources gate, ``defaultPodRequests``.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from .commands.evidence import raw_at
from .model import Container, Pod
from .quantity import as_fraction
from .admission.versions import gate_enabled
from .manifest.yamlload import parse_path
from explainer.lifecycle.records import record

GUARANTEED, BURSTABLE, BEST_EFFORT = "Guaranteed", "Burstable", "BestEffort"
QOS_RESOURCES = ("cpu", "memory")   # qos.go supportedQoSComputeResources: only these decide the class

@record
class ContainerResources:
    """One container's cpu and memory as the API server stores them (requests defaulted)."""

    name: str
    role: str
    requests: dict[str, Fraction]     # after defaulting: a resource's limit stands in for a missing request
    limits: dict[str, Fraction]
    written_requests: frozenset[str]  # the resources it writes requests for itself
    unparsed: frozenset[str] = frozenset()   # values that are no quantity (validation reports them)

    @property
    def defaulted(self) -> tuple[str, ...]:
        """Resources whose request comes from the limit (SetDefaults_Pod)."""
        return tuple(r for r in QOS_RESOURCES if r in self.requests and r not in self.written_requests)

    @property
    def without_request(self) -> tuple[str, ...]:
        return tuple(r for r in QOS_RESOURCES if r not in self.requests)


@record
class Qos:
    qos_class: str
    containers: tuple[ContainerResources, ...]
    pod_level: bool = False           # decided by spec.resources (PodLevelResources)

    def of(self, name: str) -> ContainerResources | None:
        return next((c for c in self.containers if c.name == name), None)

    def by_name(self) -> dict[str, ContainerResources]:
        """``of`` for every name at once (the first container of each name), for a walk over all of them."""
        out: dict[str, ContainerResources] = {}
        for c in self.containers:
            out.setdefault(c.name, c)
        return out


def _raw(pod: Pod, path: tuple[Any, ...]) -> Any:
    return raw_at(pod, path)


def _quantities(mapping: Any) -> tuple[dict[str, Fraction], set[str]]:
    """The cpu and memory of a requests or limits mapping, and the keys that did not parse."""
    out: dict[str, Fraction] = {}
    bad: set[str] = set()
    if not isinstance(mapping, dict):
        return out, bad
    for name in QOS_RESOURCES:
        if name in mapping:
            q = as_fraction(mapping[name])
            if q is None:
                bad.add(name)
            else:
                out[name] = q
    return out, bad


def container_resources(pod: Pod, c: Container) -> ContainerResources:
    """SetDefaults_Pod: for each limit without a request, the request is set to the limit."""
    res = _raw(pod, tuple(parse_path(c.path)) + ("resources",))
    res = res if isinstance(res, dict) else {}
    requests, bad_r = _quantities(res.get("requests"))
    limits, bad_l = _quantities(res.get("limits"))
    written = frozenset(requests)
    for name, q in limits.items():
        requests.setdefault(name, q)
    return ContainerResources(c.name, c.role, requests, limits, written, frozenset(bad_r | bad_l))


def pod_level_enabled(version: str, gates: dict[str, bool] | None) -> bool:
    """KEP-2837 PodLevelResources: alpha 1.32 (off), beta 1.34 (on); off, the API server drops spec.resources."""
    return gate_enabled("PodLevelResources", version, gates)


def compute_qos(pod: Pod, version: str, gates: dict[str, bool] | None = None) -> Qos:
    """qos.go ComputePodQOS: sums of positive cpu/memory requests and limits over every init and app
    container (ephemeral ones cannot set resources); Guaranteed needs a positive cpu and memory
    limit on each container and the summed requests equal to the summed limits; BestEffort when
    nothing is set; else Burstable.  With pod-level resources, spec.resources alone decides."""
    containers = tuple(container_resources(pod, c) for c in pod.init_containers + pod.containers)
    spec_res = _raw(pod, tuple(pod.spec_path) + ("resources",))
    if pod_level_enabled(version, gates) and isinstance(spec_res, dict) and spec_res:
        return Qos(_pod_level_class(spec_res, containers, pod), containers, pod_level=True)
    requests: dict[str, Fraction] = {}
    limits: dict[str, Fraction] = {}
    guaranteed = True
    for c in containers:
        for name, q in c.requests.items():
            if q > 0:
                requests[name] = requests.get(name, Fraction(0)) + q
        found = {name for name, q in c.limits.items() if q > 0}
        for name in found:
            limits[name] = limits.get(name, Fraction(0)) + c.limits[name]
        if not set(QOS_RESOURCES) <= found:
            guaranteed = False
    return Qos(_classify(requests, limits, guaranteed), containers)


def _classify(requests: dict[str, Fraction], limits: dict[str, Fraction], guaranteed: bool) -> str:
    if not requests and not limits:
        return BEST_EFFORT
    if guaranteed and all(limits.get(name) == q for name, q in requests.items()) and len(requests) == len(limits):
        return GUARANTEED
    return BURSTABLE


def _pod_level_class(spec_res: dict, containers: tuple[ContainerResources, ...], pod: Pod) -> str:
    """ComputePodQOS's pod-level branch, after defaultPodRequests: a missing pod-level request is the
    containers' aggregated request for it where they set one, else the pod-level limit."""
    requests, _bad = _quantities(spec_res.get("requests"))
    limits, _bad = _quantities(spec_res.get("limits"))
    if limits:
        aggregated = _aggregate(containers, pod)
        for name in QOS_RESOURCES:
            if name not in requests and name in aggregated:
                requests[name] = aggregated[name]
            elif name not in requests and name in limits:
                requests[name] = limits[name]
    requests = {k: v for k, v in requests.items() if v > 0}
    limits = {k: v for k, v in limits.items() if v > 0}
    return _classify(requests, limits, set(QOS_RESOURCES) <= set(limits))


def _aggregate(containers: tuple[ContainerResources, ...], pod: Pod) -> dict[str, Fraction]:
    """resourcehelper.AggregateContainerRequests: the larger of the running containers' sum (app
    containers and sidecars) and each plain init container's request plus the sidecars before it."""
    by_name = {c.name: c for c in containers}
    out: dict[str, Fraction] = {}
    for name in QOS_RESOURCES:
        running = [by_name[c.name].requests[name] for c in pod.containers + pod.sidecars
                   if name in by_name[c.name].requests]
        peak = sum(running, Fraction(0)) if running else None
        sidecars = Fraction(0)
        for c in pod.init_containers:
            q = by_name[c.name].requests.get(name)
            if c.role == "sidecar":
                sidecars += q or 0
            elif q is not None:
                peak = max(peak or Fraction(0), q + sidecars)
        if peak is not None:
            out[name] = peak
    return out
