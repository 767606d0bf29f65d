"""The Pod as the model sees it: frozen values, every default already applied by parse.py."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from explainer.lifecycle.records import record

ROLE_INIT, ROLE_SIDECAR, ROLE_APP, ROLE_EPHEMERAL = "init", "sidecar", "app", "ephemeral"


# Where each workload kind keeps its Pod template.
TEMPLATE_PATHS: dict[str, tuple[str, ...]] = {
    "Pod": ("spec",),
    "Deployment": ("spec", "template", "spec"),
    "StatefulSet": ("spec", "template", "spec"),
    "DaemonSet": ("spec", "template", "spec"),
    "ReplicaSet": ("spec", "template", "spec"),
    "ReplicationController": ("spec", "template", "spec"),
    "Job": ("spec", "template", "spec"),
    "CronJob": ("spec", "jobTemplate", "spec", "template", "spec"),
    "PodTemplate": ("template", "spec"),
}


@record
class Probe:
    kind: str                      # startup | readiness | liveness
    handler: str                   # exec | httpGet | tcpSocket | grpc
    detail: str                    # "GET /healthz on port 8080"
    initial_delay: int
    period: int
    timeout: int
    success_threshold: int
    failure_threshold: int
    termination_grace_period: int | None
    line: int | None
    port: int | str | None = None  # httpGet/tcpSocket/grpc port as written: a number or a port name
    host: str | None = None        # httpGet.host (empty: the Pod's IP)
    scheme: str | None = None      # httpGet.scheme (HTTP by default)
    command: tuple[str, ...] = ()  # exec.command
    path: str | None = None        # httpGet.path as written (a text)
    timeout_written: bool = False  # timeoutSeconds is written (else the default, 1 s)
    # (exec | httpGet | tcpSocket | grpc, its value) for each handler key the manifest writes, values as written:
    # what a fix quotes or copies (`handler` is the one the model runs, when exactly one is set)
    written: tuple[tuple[str, Any], ...] = field(default=(), compare=False)


@record
class Hook:
    kind: str                      # postStart | preStop
    handler: str                   # exec | httpGet | tcpSocket | sleep
    detail: str
    command: tuple[str, ...] = ()
    sleep_seconds: int | None = None
    line: int | None = None
    # the hook's mapping as written, (key, value) in the manifest's order: what a fix quotes
    written: tuple[tuple[str, Any], ...] = field(default=(), compare=False)


@record
class Port:
    container_port: int
    protocol: str
    name: str | None
    host_port: int | None
    line: int | None


@record
class Mount:
    volume: str
    mount_path: str
    read_only: bool
    sub_path: str | None
    line: int | None


@record
class EnvVar:
    name: str
    value: str | None
    line: int | None


@record
class SourceRef:
    """A Secret or ConfigMap a container can read, and how."""

    kind: str                      # secret | configMap
    name: str
    via: str                       # volume | env | envFrom
    line: int | None


@record
class RestartRule:
    """One entry of ``restartPolicyRules`` (docs/lifecycle-model.md §17): on these exit codes, do ``action``."""

    action: str                    # Restart | RestartAllContainers (anything else is reported by validation)
    operator: str | None           # In | NotIn
    values: tuple[int, ...]
    index: int
    line: int | None = None

    def matches(self, exit_code: int) -> bool:
        if self.operator == "In":
            return exit_code in self.values
        if self.operator == "NotIn":
            return exit_code not in self.values
        return False


@record
class Container:
    name: str
    role: str                      # init | sidecar | app | ephemeral
    index: int                     # position in its own list
    image: str
    path: str                      # spec.initContainers[1]
    line: int | None
    command: tuple[str, ...] = ()
    args: tuple[str, ...] = ()
    restart_policy: str | None = None
    startup_probe: Probe | None = None
    readiness_probe: Probe | None = None
    liveness_probe: Probe | None = None
    post_start: Hook | None = None
    pre_stop: Hook | None = None
    ports: tuple[Port, ...] = ()
    mounts: tuple[Mount, ...] = ()
    env: tuple[EnvVar, ...] = ()
    env_refs: tuple[SourceRef, ...] = ()
    has_requests: bool = False
    has_limits: bool = False
    requests: tuple[tuple[str, Any], ...] = ()  # resources.requests as written: (name, value)
    limits: tuple[tuple[str, Any], ...] = ()    # resources.limits as written
    privileged: bool = False
    target: str | None = None      # ephemeral: targetContainerName
    restart_rules: tuple[RestartRule, ...] = ()
    stop_signal: str | None = None             # lifecycle.stopSignal
    resize_restart: tuple[str, ...] = ()       # resources whose resizePolicy is RestartContainer
    dropped: tuple[str, ...] = ()              # fields the API server dropped (gate off): for findings
    files: tuple[tuple[str, str], ...] = ()    # (path, text) of ConfigMap scripts it runs (mounted_scripts.py)
    config: tuple[tuple[str, str], ...] = ()   # (path, text) of every ConfigMap file of the input it mounts
    # restartPolicy as written (a text), before admission drops it (gate off: docs/lifecycle-model.md §17)
    # or makes a native sidecar a plain init container (no sidecars in the version: docs/lifecycle-model.md §5)
    policy_written: str | None = None

    @property
    def rules_written(self) -> bool:
        """restartPolicyRules are written: still here, or dropped by the API server (gate off; `dropped`)."""
        return bool(self.restart_rules) or "restartPolicyRules" in self.dropped

    @property
    def probes(self) -> tuple[Probe, ...]:
        return tuple(p for p in (self.startup_probe, self.readiness_probe, self.liveness_probe) if p)

    @property
    def script(self) -> str:
        """command + args as one text, for the heuristics that read shell, then the text of the
        ConfigMap scripts they run (read like a script written inline)."""
        text = " ".join(self.command + self.args)
        if not self.files:
            return text
        return text + "".join(f"\n{body}" for path, body in self.files if path in text)   # not a hook's


@record
class Volume:
    name: str
    type: str                      # emptyDir | configMap | secret | projected | persistentVolumeClaim | ...
    sources: tuple[tuple[str, str], ...]  # (secret|configMap|claim|path, name)
    line: int | None
    index: int | None = None       # its position in spec.volumes (None: a StatefulSet's volumeClaimTemplate)
    medium: str = ""               # emptyDir.medium as written ("Memory": a tmpfs)
    size_limit: str | int | float | None = None   # emptyDir.sizeLimit as written


@record
class ServicePort:
    """One entry of a Service's spec.ports, as the EndpointSlice controller reads it (FindPort)."""

    target: int | str              # targetPort (port when absent): a number, or a port name
    port: int | None               # the Service's own port
    protocol: str                  # TCP by default
    name: str | None
    path: str                      # spec.ports[0].targetPort (or .port when it has no targetPort)
    line: int | None


@record
class ServiceRef:
    """A Service of the same input: which Pods it selects and the ports it sends traffic to."""

    name: str
    selector: tuple[tuple[str, str], ...]
    target_ports: tuple[int | str, ...]   # targetPort (or port when absent): a number or a port name
    document: int
    line: int | None
    publish_not_ready: bool = False       # spec.publishNotReadyAddresses: not-ready Pods are endpoints too
    ports_line: int | None = None         # the line of spec.ports, for findings about a targetPort
    ports: tuple[ServicePort, ...] = ()   # spec.ports with protocols and lines (target_ports: their targets)
    namespace: str | None = None          # metadata.namespace as written (None: whatever kubectl -n says)
    selector_line: int | None = None      # the line of spec.selector
    at: tuple[Any, ...] = ()              # where the Service sits in its document (a List's items)
    raw: Any = field(default=None, repr=False, compare=False)   # the document, for line look-ups

    def selects(self, labels: dict[str, str]) -> bool:
        """A Service with no selector selects nothing (its endpoints are managed by hand)."""
        return bool(self.selector) and all(labels.get(k) == v for k, v in self.selector)


@record
class Workload:
    """What a workload's controller reads when it rolls out a new template (docs/lifecycle-model.md §26),
    every default applied as the API server applies it (pkg/apis/apps/v1/defaults.go)."""

    kind: str                      # Deployment | StatefulSet | DaemonSet | ReplicaSet | ReplicationController
    replicas: int                  # spec.replicas (1 when absent; DaemonSets have none: 1 here)
    replicas_written: bool         # whether the manifest says it (an HPA may own it when it does not)
    strategy: str                  # Deployment: RollingUpdate | Recreate; StatefulSet/DaemonSet: RollingUpdate | OnDelete
    max_surge: int | str | None    # as written or defaulted: 3 or "25%" (None where the kind has none)
    max_unavailable: int | str | None
    min_ready_seconds: int
    progress_deadline_seconds: int | None   # Deployments only (600 by default; None: MaxInt32, no deadline)
    partition: int = 0                      # StatefulSet rollingUpdate.partition
    pod_management_policy: str | None = None  # StatefulSet: OrderedReady | Parallel
    line: int | None = None                 # the line of the workload's spec


@record
class PodSource:
    document: int                  # 0-based index of the YAML document
    kind: str                      # Pod, Deployment, CronJob, ...
    name: str
    line: int | None


@dataclass(frozen=True, slots=True, eq=False)
class Pod:
    name: str
    source: PodSource
    spec_path: tuple[Any, ...]     # where the Pod spec sits in its document
    restart_policy: str
    termination_grace_period: int
    active_deadline_seconds: int | None
    share_process_namespace: bool
    host_network: bool
    host_pid: bool
    host_ipc: bool
    init_containers: tuple[Container, ...]
    containers: tuple[Container, ...]
    ephemeral_containers: tuple[Container, ...]
    volumes: tuple[Volume, ...]
    readiness_gates: int = 0
    os_name: str | None = None     # spec.os.name
    backoff_limit: int | None = None   # a Job's (or a CronJob's jobTemplate's) spec.backoffLimit, defaulted
    labels: tuple[tuple[str, str], ...] = ()   # the Pod's (or its template's) metadata.labels, sorted
    workload: Workload | None = None   # the controller's settings, for Deployments, StatefulSets, DaemonSets, ...
    annotations: tuple[tuple[str, str], ...] = ()   # the Pod's (or its template's) metadata.annotations, in order
    # the annotations of the objects around the template, outermost first (a Deployment's; a CronJob's and its
    # jobTemplate's): a setting such as sidecar.istio.io/nativeSidecar may sit on either
    owner_annotations: tuple[tuple[str, str], ...] = ()
    job_deadline_written: bool = False   # a Job's (or a CronJob's jobTemplate's) own spec.activeDeadlineSeconds
    raw: Any = field(default=None, repr=False)   # the document, for line look-ups

    @property
    def batch(self) -> bool:
        """Job and CronJob Pods run to completion (and their restartPolicy must say so)."""
        return self.source.kind in ("Job", "CronJob")

    @property
    def sidecars(self) -> tuple[Container, ...]:
        return tuple(c for c in self.init_containers if c.role == "sidecar")

    @property
    def all_containers(self) -> tuple[Container, ...]:
        return self.init_containers + self.containers + self.ephemeral_containers

    def container(self, name: str) -> Container | None:
        for c in self.all_containers:
            if c.name == name:
                return c
        return None
