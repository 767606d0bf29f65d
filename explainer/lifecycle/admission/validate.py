"""What the API server checks before a Pod exists, and what each Kubernetes version allows.

A Pod that fails here is never created: the kubelet never sees it, so nothing is simulated.
Rules: pkg/apis/core/validation/validation.go (`ValidatePodCreate`, `validateInitContainers`,
`validateContainers`, `validateEphemeralContainers`), the workload rules of
pkg/apis/apps/validation and pkg/apis/batch/validation, and the feature gates of §3 of
docs/lifecycle-model.md (which describes these rules in §5).
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from ..errors import ErrorRecord
from ..commands.evidence import raw_at
from .gated_fields import drop_disabled_fields, restart_rule_problems, stop_signal_problems
from ..i18n import Text, gettext_noop as _
from ..model import Container, Pod
from ..quantity import parse_quantity
from .versions import gate_enabled, version_tuple
from .workload_validation import workload_problems
from ..manifest.yamlload import parse_path, position

_DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
_MULTIPLE_HANDLERS = _("Forbidden: may not specify more than 1 handler type.")
_WORKLOADS_ALWAYS = ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "ReplicationController")


@dataclass
class Admission:
    pod: Pod                               # as the API server stores it (disabled fields dropped)
    errors: list[ErrorRecord] = field(default_factory=list)
    notes: list[Text] = field(default_factory=list)
    container_restart_rules: bool = False
    restart_all: bool = False
    stop_signals: bool = False


__all__ = ["Admission", "admit", "sidecars_enabled", "version_tuple"]


def sidecars_enabled(version: str, gates: dict[str, bool]) -> bool:
    """SidecarContainers: alpha 1.28 (off), beta 1.29 (on), GA 1.33 (locked on)."""
    return gate_enabled("SidecarContainers", version, gates)


def admit(pod: Pod, version: str, gates: dict[str, bool] | None = None) -> Admission:
    """Drop what the version's gates disable, then validate as the API server would."""
    gates = gates or {}
    adm = Admission(pod)
    v = version_tuple(version)
    adm.container_restart_rules = gate_enabled("ContainerRestartRules", version, gates)
    adm.restart_all = adm.container_restart_rules and gate_enabled("RestartAllContainersOnContainerExits",
                                                                   version, gates)
    adm.stop_signals = gate_enabled("ContainerStopSignals", version, gates)
    sidecars = [c for c in pod.init_containers if c.role == "sidecar"]
    if sidecars and v < (1, 28):
        for c in sidecars:
            _err(adm, c, "restartPolicy", Text(_("unknown field: Kubernetes {version} has no restartPolicy for "
                 "containers. Native sidecars (an init container with restartPolicy: Always) arrived in "
                 "1.28 behind the SidecarContainers feature gate and are on by default from 1.29."),
                 {"version": version}), "unknown field")
    elif sidecars and not sidecars_enabled(version, gates):
        names = ", ".join(c.name for c in sidecars)
        adm.notes.append(Text(_(
            "Kubernetes {version}: the SidecarContainers feature gate is off, so the API server drops "
            "restartPolicy from {names}; they become plain init containers that must exit before the next "
            "one starts. Turn the gate on (featureGates: {{SidecarContainers: true}} in the scenario) or use "
            "1.29+."), {"version": version, "names": names}))
        inits = tuple(dataclasses.replace(c, role="init", restart_policy=None) if c.role == "sidecar" else c
                      for c in pod.init_containers)
        adm.pod = pod = dataclasses.replace(pod, init_containers=inits)
    adm.pod, notes = drop_disabled_fields(pod, version, adm.container_restart_rules, adm.stop_signals)
    adm.notes.extend(notes)
    pod = adm.pod
    _validate(adm, pod, version)
    errors, notes = workload_problems(pod, version, gates)   # the rollout settings (§26.1)
    adm.errors.extend(errors)
    adm.notes.extend(notes)
    return adm


def _validate(adm: Admission, pod: Pod, version: str) -> None:
    spec = pod.spec_path
    if not pod.containers:
        adm.errors.append(_rec(pod, spec + ("containers",), Text(_("spec.containers: Required value: a Pod needs at "
                               "least one app container.")), "Required value"))
    seen: dict[str, Container] = {}
    for c in pod.all_containers:
        if c.name in seen:
            _err(adm, c, "name", Text(_("Duplicate value: {name} is already the name of {other}; names are "
                                        "unique across init, app and ephemeral containers."),
                                      {"name": repr(c.name), "other": seen[c.name].path}), "Duplicate value")
        seen.setdefault(c.name, c)
        if not _DNS_LABEL.match(c.name) or len(c.name) > 63:
            _err(adm, c, "name", Text(_("Invalid value {name}: a container name is a DNS-1123 label (lower-case "
                                        "letters, digits and '-', at most 63 characters)."), {"name": repr(c.name)}),
                 "Invalid value")
        if not c.image and c.role != "ephemeral":
            _err(adm, c, "image", Text(_("Required value: every container needs an image.")), "Required value")
        _validate_container(adm, pod, c, version)
    if pod.ephemeral_containers:
        c = pod.ephemeral_containers[0]
        if pod.source.kind != "Pod":
            text = Text(_("Forbidden: ephemeral containers cannot be set in a Pod template; they are added to a "
                          "running Pod by `kubectl debug` (the ephemeralcontainers subresource)."))
        else:
            text = Text(_("Forbidden: ephemeral containers cannot be set when a Pod is created; they are added to "
                          "a running Pod by `kubectl debug` (the ephemeralcontainers subresource)."))
        adm.errors.append(_rec(pod, spec + ("ephemeralContainers",), text, "Forbidden"))
        for c in pod.ephemeral_containers:
            _validate_ephemeral(adm, pod, c)
    _validate_ports(adm, pod)
    _validate_workload(adm, pod)
    if pod.share_process_namespace and pod.host_pid:
        adm.errors.append(_rec(pod, spec + ("shareProcessNamespace",), Text(_("Invalid value: "
                               "shareProcessNamespace and hostPID cannot both be set.")), "Invalid value"))


# pkg/apis/core/validation/validation.go `allowedEphemeralContainerFields`: the fields an ephemeral container
# may not set, in the order of the Container struct (`validateFieldAllowList` reports each one set)
EPHEMERAL_FORBIDDEN = ("ports", "resources", "resizePolicy", "restartPolicy", "restartPolicyRules", "livenessProbe",
                       "readinessProbe", "startupProbe", "lifecycle")


def _validate_ephemeral(adm: Admission, pod: Pod, c: Container) -> None:
    """`validateEphemeralContainers`: each forbidden field it sets, and a volumeMount's subPath, is its own
    "Forbidden: cannot be set for an Ephemeral Container" (docs/lifecycle-model.md §14, §31.3)."""
    raw = raw_at(pod, c.path)
    if not isinstance(raw, dict):
        return
    forbidden = Text(_("Forbidden: cannot be set for an Ephemeral Container (ephemeral containers are for "
                       "debugging: no ports, probes, resources or lifecycle hooks)."))
    for key in EPHEMERAL_FORBIDDEN:
        value = raw.get(key)
        if value not in (None, "", [], {}):
            _err(adm, c, key, forbidden, "Forbidden")
    for i, mount in enumerate(raw.get("volumeMounts") or []):
        for key in ("subPath", "subPathExpr"):
            if isinstance(mount, dict) and mount.get(key):
                _err(adm, c, f"volumeMounts[{i}].{key}", forbidden, "Forbidden")


def _validate_container(adm: Admission, pod: Pod, c: Container, version: str) -> None:
    if c.role == "init" and c.restart_policy is not None and not adm.container_restart_rules:
        _err(adm, c, "restartPolicy", Text(_("Unsupported value {value}: an init container takes only "
                                             "restartPolicy: Always (which makes it a native sidecar)."),
                                           {"value": repr(c.restart_policy)}), "Unsupported value")
    # before their gates exist these fields are unknown to the version's schema, which reports them
    problems = (restart_rule_problems(c, adm.restart_all) if adm.container_restart_rules else []) + \
        (stop_signal_problems(pod, c) if adm.stop_signals else [])
    for field_path, message, reason in problems:
        _err(adm, c, field_path, message, reason)
    if c.role == "app" and c.restart_policy is not None and not adm.container_restart_rules:
        _err(adm, c, "restartPolicy", Text(_("Forbidden: may not be set for non-init containers (only with the "
                                             "ContainerRestartRules feature gate).")), "Forbidden")
    if c.role == "init":
        for key, present in (("lifecycle", c.post_start or c.pre_stop), ("livenessProbe", c.liveness_probe),
                             ("readinessProbe", c.readiness_probe), ("startupProbe", c.startup_probe)):
            if present:
                _err(adm, c, key, Text(_("Forbidden: may not be set for init containers without "
                                         "restartPolicy=Always. A plain init container runs to completion; {key} "
                                         "only makes sense for a container that keeps running (make it a native "
                                         "sidecar)."), {"key": key}), "Forbidden")
    for probe in c.probes:
        key = probe.kind + "Probe"
        if probe.handler == "none":
            _err(adm, c, key, Text(_("Required value: must specify a handler type (exec, httpGet, tcpSocket or "
                                     "grpc).")), "Required value")
        elif probe.handler == "multiple":
            _err(adm, c, key, Text(_MULTIPLE_HANDLERS), "Forbidden")
        if probe.kind in ("liveness", "startup") and probe.success_threshold != 1:
            _err(adm, c, key + ".successThreshold", Text(_("Invalid value: must be 1 for liveness and startup "
                                                           "probes.")), "Invalid value")
        if probe.kind == "readiness" and probe.termination_grace_period is not None:
            _err(adm, c, key + ".terminationGracePeriodSeconds", Text(_("Invalid value: must not be set for "
                                                                        "readinessProbes.")), "Invalid value")
    for hook in (c.post_start, c.pre_stop):
        if hook is None:
            continue
        key = "lifecycle." + hook.kind
        if hook.handler == "none":
            _err(adm, c, key, Text(_("Required value: must specify a handler type (exec, httpGet, sleep).")),
                 "Required value")
        elif hook.handler == "multiple":
            _err(adm, c, key, Text(_MULTIPLE_HANDLERS), "Forbidden")
        elif hook.handler == "sleep" and hook.sleep_seconds is not None and \
                hook.sleep_seconds > pod.termination_grace_period:
            _err(adm, c, key + ".sleep.seconds", Text(_("Invalid value {value}: must be less than "
                                                        "terminationGracePeriodSeconds ({grace})."),
                                                      {"value": hook.sleep_seconds,
                                                       "grace": pod.termination_grace_period}), "Invalid value")
    _validate_resources(adm, c)
    declared = {v.name for v in pod.volumes}
    paths: set[str] = set()
    for i, m in enumerate(c.mounts):
        if m.volume not in declared:
            _err(adm, c, f"volumeMounts[{i}].name", Text(_("Not found: {volume} is not one of spec.volumes."),
                                                          {"volume": repr(m.volume)}), "Not found")
        if m.mount_path in paths:
            _err(adm, c, f"volumeMounts[{i}].mountPath", Text(_("Invalid value {path}: must be unique within the "
                                                               "container."), {"path": repr(m.mount_path)}),
                 "Invalid value")
        paths.add(m.mount_path)


def _validate_resources(adm: Admission, c: Container) -> None:
    """A request may not exceed its limit; hugepages and extended resources (which cannot be overcommitted)
    must equal it.  pkg/apis/core/validation/validation.go `ValidateResourceRequirements` (with
    `helper.IsOvercommitAllowed`); docs/lifecycle-model.md §5.1.  Quantities compare exactly (quantity.py)."""
    limits = dict(c.limits)
    for name, raw in c.requests:
        request, limit = parse_quantity(raw), parse_quantity(limits.get(name))
        if request is None or limit is None:
            continue   # no limit for it, or not a quantity (the schema's and the API server's parse error)
        native = "/" not in name or "kubernetes.io/" in name
        if not (native and not name.startswith("hugepages-")) and request.value != limit.value:
            text = Text(_("Invalid value: {value}: must be equal to {name} limit of {limit}"),
                        {"value": f'"{request}"', "name": name, "limit": str(limit)})
        elif request.value > limit.value:
            text = Text(_("Invalid value: {value}: must be less than or equal to {name} limit of {limit}"),
                        {"value": f'"{request}"', "name": name, "limit": str(limit)})
        else:
            continue
        _err(adm, c, "resources.requests", text, "Invalid value", at=("resources", "requests", name))


def _validate_ports(adm: Admission, pod: Pod) -> None:
    host_ports: dict[tuple[str, int], str] = {}
    for c in pod.containers:
        names: set[str] = set()
        for i, p in enumerate(c.ports):
            if p.name:
                if p.name in names:
                    _err(adm, c, f"ports[{i}].name", Text(_("Duplicate value {name}."), {"name": repr(p.name)}),
                         "Duplicate value")
                names.add(p.name)
            if pod.host_network and p.host_port is not None and p.host_port != p.container_port:
                _err(adm, c, f"ports[{i}].hostPort", Text(_("Invalid value: with hostNetwork, hostPort must equal "
                                                             "containerPort.")), "Invalid value")
            if p.host_port is not None:
                key = (p.protocol, p.host_port)
                if key in host_ports:
                    _err(adm, c, f"ports[{i}].hostPort", Text(_("Duplicate value: hostPort {port}/{protocol} is "
                                                                 "also used by {c}."),
                                                               {"port": p.host_port, "protocol": p.protocol,
                                                                "c": host_ports[key]}), "Duplicate value")
                host_ports.setdefault(key, c.name)


def _validate_workload(adm: Admission, pod: Pod) -> None:
    kind, spec = pod.source.kind, pod.spec_path
    if kind in _WORKLOADS_ALWAYS and pod.restart_policy != "Always":
        adm.errors.append(_rec(pod, spec + ("restartPolicy",), Text(_("Unsupported value {value}: a {kind} keeps "
                                                                      "its Pods running, so only Always is allowed."),
                                                                    {"value": repr(pod.restart_policy), "kind": kind}),
                               "Unsupported value"))
    if kind in _WORKLOADS_ALWAYS and pod.active_deadline_seconds is not None:
        adm.errors.append(_rec(pod, spec + ("activeDeadlineSeconds",), Text(_("Forbidden: activeDeadlineSeconds "
                                                                              "in {kind} is not Supported."),
                                                                            {"kind": kind}), "Forbidden"))
    if pod.batch and pod.restart_policy == "Always":
        adm.errors.append(_rec(pod, spec + ("restartPolicy",), Text(_("Unsupported value \"Always\": a {kind}'s "
                                                                      "Pod template needs restartPolicy OnFailure or "
                                                                      "Never (Always is the Pod default, so it must "
                                                                      "be written)."), {"kind": kind}),
                               "Unsupported value"))


def _err(adm: Admission, c: Container, field_path: str, message: Text, reason: str,
         at: tuple[str, ...] | None = None) -> None:
    """An error on ``field_path`` of ``c``, placed at the line of ``at`` (a field under it) when given."""
    rec = _rec(adm.pod, parse_path(c.path) + (at or parse_path(field_path)),
               Text(_("{path}: {message}"), {"path": f"{c.path}.{field_path}", "message": message}), reason)
    if at:
        from ..manifest.yamlload import format_path
        rec = dataclasses.replace(rec, path=format_path(parse_path(c.path) + parse_path(field_path)))
    adm.errors.append(rec)


def _rec(pod: Pod, path: tuple, message: Text, reason: str) -> ErrorRecord:
    line, col = position(pod.raw, path)
    from ..manifest.yamlload import format_path
    return ErrorRecord(message, line, col, format_path(path), "validation", reason, pod.source.document, pod.name)
