"""Which Services send a Pod requests, on which of its containers, and how many other ready Pods share
them while it goes (docs/lifecycle-model.md §27.1, §27.3, §27.5).

A Service of the input selects the Pod when its selector matches the Pod's labels in the same namespace
(`k8s.io/endpointslice/util` `getServicesForPod`: a Service without a selector selects nothing). Each of its
ports reaches the container that declares the target port (`k8s.io/endpointslice` `FindPort`: a number
is used as it is; a name is looked up in the app containers' ports, then the sidecars', with the same
protocol; a name nobody declares gives the endpoint no port at all). When no Service of the input selects a
long-running Pod whose app containers declare a port (or have a readinessProbe), one is assumed.
"""
from __future__ import annotations


from .. import defaults as d
from ..commands.evidence import raw_at
from ..i18n import Text, gettext_noop as _
from ..model import TEMPLATE_PATHS, Container, Pod, ServicePort, ServiceRef
from ..scenario.document import Scenario
from explainer.lifecycle.records import record


@record
class Route:
    """One port of a Service and the container it reaches."""

    service: str                   # the Service's name ("" for the assumed one)
    port: ServicePort | None       # None for the assumed Service, and for a Service without ports
    container: str | None          # who receives it; None: a named targetPort no container declares
    assumed: bool = False          # a number no container declares: taken to be the first app container's


@record
class Serving:
    services: tuple[ServiceRef, ...]   # the Services of the input that select the Pod (empty: one assumed)
    routes: tuple[Route, ...]
    publish_not_ready: bool            # every selecting Service has publishNotReadyAddresses

    @property
    def assumed(self) -> bool:
        return not self.services

    @property
    def containers(self) -> tuple[str, ...]:
        """The containers that receive requests, each once, in the order of the routes."""
        return tuple(dict.fromkeys(r.container for r in self.routes if r.container is not None))

    @property
    def missing(self) -> tuple[Route, ...]:
        """Ports whose named targetPort no container declares: the endpoint has no such port."""
        return tuple(r for r in self.routes if r.container is None and r.port is not None)


def namespace_of(pod: Pod) -> str | None:
    """metadata.namespace of the object that holds ``pod`` (None when it names none)."""
    at = tuple(pod.spec_path[: len(pod.spec_path) - len(TEMPLATE_PATHS[pod.source.kind])])
    value = raw_at(pod, at + ("metadata", "namespace"))
    return value if isinstance(value, str) else None


def same_namespace(a: str | None, b: str | None) -> bool:
    """Two objects of one input share a namespace unless both name one and they differ (one that names
    none goes wherever `kubectl apply -n` puts both)."""
    return a is None or b is None or a == b


# Labels a controller adds to the Pods it creates, beside the template's: a hash we cannot know (any value),
# or the values it can take.  pkg/controller/statefulset/stateful_set_utils.go `newStatefulSetPod`
# (statefulset.kubernetes.io/pod-name, apps.kubernetes.io/pod-index, controller-revision-hash);
# pkg/controller/deployment/sync.go (pod-template-hash); pkg/controller/daemon (controller-revision-hash,
# pod-template-generation); pkg/controller/job (job-name, controller-uid and their batch.kubernetes.io/ forms).
ANY = None
_ADDED: dict[str, tuple[str, ...]] = {
    "Deployment": ("pod-template-hash",), "ReplicaSet": (), "ReplicationController": (),
    "DaemonSet": ("controller-revision-hash", "pod-template-generation"),
    "StatefulSet": ("controller-revision-hash",),
    "Job": ("controller-uid", "batch.kubernetes.io/controller-uid"),
    "CronJob": ("controller-uid", "batch.kubernetes.io/controller-uid", "job-name", "batch.kubernetes.io/job-name"),
}


def controller_labels(pod: Pod) -> dict[str, frozenset[str] | None]:
    """The labels the Pod's controller adds: key -> the values it may take (None: any, a hash)."""
    added: dict[str, frozenset[str] | None] = {k: ANY for k in _ADDED.get(pod.source.kind, ())}
    name = pod.source.name
    if pod.source.kind == "StatefulSet" and pod.workload is not None:
        ordinals = range(max(pod.workload.replicas, 1))
        added["statefulset.kubernetes.io/pod-name"] = frozenset(f"{name}-{i}" for i in ordinals)
        added["apps.kubernetes.io/pod-index"] = frozenset(str(i) for i in ordinals)
    if pod.source.kind == "Job":
        added["job-name"] = added["batch.kubernetes.io/job-name"] = frozenset({name})
    return added


def selects(service: ServiceRef, pod: Pod) -> bool:
    """Whether ``service`` selects Pods of ``pod``'s template: its namespace, and every key and value of its
    selector on the template's labels or among those the controller adds."""
    if not service.selector or not same_namespace(service.namespace, namespace_of(pod)):
        return False
    labels, added = dict(pod.labels), controller_labels(pod)
    for key, value in service.selector:
        if labels.get(key) == value:
            continue
        if key in added and (added[key] is ANY or value in (added[key] or ())):
            continue
        return False
    return True


def selecting(pod: Pod, services: tuple[ServiceRef, ...]) -> tuple[ServiceRef, ...]:
    """The Services of the input that select the Pod, in the input's order."""
    return tuple(s for s in services if selects(s, pod))


class PortIndex:
    """A Pod's declared ports by (name, protocol) and (number, protocol), and its readiness-probed ports,
    first container first (app containers, then native sidecars: FindPort's order): built once, so a
    Service of many ports costs one pass over the Pod."""

    def __init__(self, pod: Pod) -> None:
        self.first_app = pod.containers[0] if pod.containers else None
        self.named: dict[tuple[str, str], Container] = {}
        self.numbered: dict[tuple[int, str], Container] = {}
        self.probed: dict[int | str, Container] = {}
        for c in pod.containers + pod.sidecars:
            for p in c.ports:
                if p.name:
                    self.named.setdefault((p.name, p.protocol), c)
                self.numbered.setdefault((p.container_port, p.protocol), c)
            if c.readiness_probe is not None and c.readiness_probe.port is not None:
                self.probed.setdefault(c.readiness_probe.port, c)


def find_port(pod: Pod, port: ServicePort, index: PortIndex | None = None) -> tuple[Container | None, bool]:
    """The container that receives ``port`` and whether that is assumed (`FindPort`)."""
    index = index or PortIndex(pod)
    if isinstance(port.target, str):
        return index.named.get((port.target, port.protocol)), False
    declared = index.numbered.get((port.target, port.protocol)) or index.probed.get(port.target)
    if declared is not None:
        return declared, False
    return index.first_app, True


def serving_for(pod: Pod, services: tuple[ServiceRef, ...]) -> Serving | None:
    """Who sends ``pod`` requests, on which containers; None when no Service would select it."""
    chosen = selecting(pod, services)
    if chosen:
        routes: list[Route] = []
        index = PortIndex(pod)
        for s in chosen:
            if not s.ports:   # a headless Service without ports: clients reach every declared port
                listed = [c for c in pod.containers + pod.sidecars if c.ports] or list(pod.containers[:1])
                routes.extend(Route(s.name, None, c.name) for c in listed)
            for p in s.ports:
                c, assumed = find_port(pod, p, index)
                routes.append(Route(s.name, p, c.name if c is not None else None, assumed))
        # the lane follows the ordinary Services: publishNotReadyAddresses only when every one sets it
        # (a StatefulSet's per-Pod "announce" Services publish, its client Service does not)
        return Serving(chosen, tuple(routes), all(s.publish_not_ready for s in chosen))
    if pod.batch or pod.restart_policy != "Always":
        return None   # a Job's Pods, or a Pod that ends: nothing to serve behind a Service
    listed = [c for c in pod.containers if c.ports] or [c for c in pod.containers if c.readiness_probe]
    if not listed:
        return None
    return Serving((), tuple(Route("", None, c.name) for c in listed), False)


# ---- other ready Pods while this one goes (KEP-1669's fallback depends on it) ---------------------------

_FROM_SCENARIO = _("the scenario's rollout.otherReadyReplicas")
_BARE = _("a bare Pod: no controller runs another one beside it")
_RECREATE = _("a Recreate rollout deletes every old Pod at once")
_REPLICAS = _("{n} replicas: the others stay while this one goes")
_SURGE = _("{n} replicas with maxUnavailable {u}: a rolling update keeps {k} available, so a new Pod is "
           "ready before an old one goes")
_NODES = _("a DaemonSet on {n} nodes: the other nodes' Pods stay (assumed {n} nodes; rollout.nodes sets it)")
_NODES_SET = _("a DaemonSet on {n} nodes: the other nodes' Pods stay")


def other_ready_replicas(pod: Pod, scenario: Scenario) -> tuple[int, Text]:
    """How many other ready Pods serve the same Service while this one is deleted, and why.

    The scenario's ``rollout.otherReadyReplicas`` when set; else the workload's replicas − 1 (a bare
    Pod 0), with the rollout's own arithmetic where it guarantees more or less: a RollingUpdate
    Deployment deletes an old Pod only while ``replicas − maxUnavailable`` stay available
    (`ResolveFenceposts`), a Recreate one deletes them all at once, a DaemonSet's other nodes keep theirs."""
    rollout = scenario.rollout
    if rollout is not None and rollout.other_ready_replicas is not None:
        return rollout.other_ready_replicas, Text(_FROM_SCENARIO)
    w = pod.workload
    if w is None:
        return 0, Text(_BARE)
    replicas = rollout.replicas if rollout is not None and rollout.replicas is not None else w.replicas
    if w.kind == "DaemonSet":
        nodes = rollout.nodes if rollout is not None and rollout.nodes is not None else None
        n = nodes or d.ROLLOUT_ASSUMED_NODES
        return n - 1, Text(_NODES_SET if nodes else _NODES, {"n": n})
    if w.kind == "Deployment" and w.strategy == "Recreate":
        return 0, Text(_RECREATE)
    if w.kind == "Deployment" and not _refused(w.max_surge) and not _refused(w.max_unavailable):
        from ..rollout.arith import resolve_fenceposts   # the rollout package is read only for a Deployment
        _surge, unavailable = resolve_fenceposts(w.max_surge, w.max_unavailable, replicas)
        kept = replicas - unavailable
        if kept > replicas - 1:
            return max(kept, 0), Text(_SURGE, {"n": replicas, "u": unavailable, "k": kept})
    return max(replicas - 1, 0), Text(_REPLICAS, {"n": replicas})


def _refused(value: int | str | None) -> bool:
    """A maxSurge or maxUnavailable that admission refuses ("3" without %: workload_validation.py)."""
    return isinstance(value, str) and not (value.endswith("%") and value[:-1].isdigit())
