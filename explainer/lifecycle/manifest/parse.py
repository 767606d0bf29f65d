"""Manifest intake: documents -> Pods (workloads reduced to their Pod template), with lines.

This is the only module that reads raw manifest data.  Shape errors are collected per Pod
(a Pod with any is not built, the others still are); nothing here raises past its caller
except ``ManifestError`` for input that cannot be read at all.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import defaults as d
from ..errors import ErrorRecord, ManifestError
from ..i18n import Text, gettext_noop as _
from .indentation import diagnose_lost_indentation, lost_indentation_in_text
from ..numbers import whole_number
from ..commands.mounted_scripts import config_map_data, with_mounted_scripts
from ..model import TEMPLATE_PATHS, Pod, PodSource, ServicePort, ServiceRef
from .workload import annotations_of, labels_of, read_workload
from .parse_container import _A_LIST, _TRUE_OR_FALSE, ContainerReader, _err, _kind_of
from .yamlload import Limits, format_path, load_documents, position
from explainer.lifecycle.records import record


@record
class Skipped:
    document: int
    kind: str
    name: str
    line: int | None
    reason: str
    raw: Any = field(default=None, compare=False, repr=False)    # the document's data, and where the object is
    at: tuple[Any, ...] = field(default=(), compare=False, repr=False)


@dataclass
class Intake:
    pods: list[Pod] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    errors: list[ErrorRecord] = field(default_factory=list)
    objects: int = 0               # documents that hold anything (not only comments or ---)
    config_maps: list[tuple[str | None, str, dict[str, str]]] = field(default_factory=list)
    services: list[ServiceRef] = field(default_factory=list)   # for the rules that ask what a Pod serves


def parse_manifest(text: str, limits: Limits = Limits()) -> Intake:
    """Every Pod in ``text``; raises ``ManifestError`` only when the text cannot be read."""
    intake = Intake()
    try:
        docs = load_documents(text, limits)
    except ManifestError as exc:
        if exc.records and exc.records[0].kind == "syntax":
            # the reader's error names a symptom; a flattened manifest is the cause (indentation.py)
            flat = lost_indentation_in_text(text)
            if flat:
                raise ManifestError("", records=flat + exc.records) from None
        raise
    for doc in docs:
        if doc.data is None:
            continue
        intake.objects += 1
        _document(doc.data, doc.index, (), intake, limits)
    if intake.config_maps:   # scripts run from a ConfigMap of the same input (docs/lifecycle-model.md §9.3)
        intake.pods = [with_mounted_scripts(p, intake.config_maps) for p in intake.pods]
    return intake


def parse_pod(text: str, limits: Limits = Limits()) -> Pod:
    """The single Pod of ``text``: a convenience for tests and small callers."""
    intake = parse_manifest(text, limits)
    if intake.errors:
        raise ManifestError("", records=intake.errors)
    if len(intake.pods) != 1:
        raise ManifestError(Text(_("Expected one Pod, found {n}."), {"n": len(intake.pods)}))
    return intake.pods[0]


def _document(data: Any, index: int, at: tuple[Any, ...], intake: Intake, limits: Limits) -> None:
    root = data
    obj = _get(root, at)
    where = position(root, at)
    if not isinstance(obj, dict):
        intake.errors.append(ErrorRecord(
            Text(_("Document {n} is {kind}, not a Kubernetes object (a mapping with apiVersion, kind, metadata)."),
                 {"n": index + 1, "kind": _kind_of(obj)}),
            where[0], where[1], format_path(at) or None, document=index))
        return
    kind = obj.get("kind")
    name = _name_of(obj)
    if not isinstance(kind, str) or not kind:
        line, col = position(root, at + ("kind",)) if "kind" in obj else where
        intake.errors.append(ErrorRecord(
            Text(_("This object has no kind: say what it is (kind: Pod, Deployment, Job, ...).")),
            line, col, format_path(at + ("kind",)), document=index))
        return
    if kind == "List" or (kind.endswith("List") and isinstance(obj.get("items"), list)):
        items = obj.get("items")
        if not isinstance(items, list):
            intake.errors.append(_err(root, at + ("items",), Text(_("A List needs items: a list of objects.")),
                                      index, name))
            return
        for i in range(len(items)):
            _document(root, index, at + ("items", i), intake, limits)
        return
    config_map = config_map_data(obj) if kind == "ConfigMap" else None
    if config_map is not None:
        intake.config_maps.append(config_map)
    if kind == "Service":
        service = _service(obj, name, index, where[0], root, at)
        if service is not None:
            intake.services.append(service)
    if kind not in TEMPLATE_PATHS:
        intake.skipped.append(Skipped(index, kind, name, where[0],
                                      f"{kind} holds no Pod: nothing to simulate.", root, at))
        return
    flattened = diagnose_lost_indentation(root, obj, at, index, name)
    if flattened:
        intake.errors.extend(flattened)
        return
    errors: list[ErrorRecord] = []
    builder = _Builder(root, index, name, errors, limits)
    pod = builder.pod(obj, at, kind)
    if errors or pod is None:
        intake.errors.extend(errors)
    else:
        intake.pods.append(pod)


def _service(obj: dict, name: str, index: int, line: int | None, root: Any = None,
             at: tuple[Any, ...] = ()) -> ServiceRef | None:
    """A Service's selector and ports; one of an odd shape is simply not used."""
    spec = obj.get("spec")
    if not isinstance(spec, dict) or not isinstance(spec.get("selector"), dict):
        return None
    selector = tuple(sorted((str(k), str(v)) for k, v in spec["selector"].items()))
    root = obj if root is None else root
    ports: list[ServicePort] = []
    listed = spec.get("ports")
    for i, p in enumerate(listed if isinstance(listed, list) else []):
        if isinstance(p, dict):
            key = "targetPort" if "targetPort" in p else "port"
            t = p.get(key)
            if isinstance(t, (int, str)) and not isinstance(t, bool):
                where = at + ("spec", "ports", i, key)
                number, protocol, port_name = p.get("port"), p.get("protocol"), p.get("name")
                digits = whole_number(t)     # "8080" is a number, "²" and 5,000 digits a name (issue 27)
                ports.append(ServicePort(
                    t if digits is None else digits,
                    number if isinstance(number, int) and not isinstance(number, bool) else None,
                    protocol if isinstance(protocol, str) else "TCP",
                    port_name if isinstance(port_name, str) else None,
                    format_path(where[len(at):]), position(root, where)[0]))
    meta = obj.get("metadata")
    namespace = meta.get("namespace") if isinstance(meta, dict) and isinstance(meta.get("namespace"), str) else None
    ports_line = position(obj, ("spec", "ports"))[0] if "ports" in spec else None
    return ServiceRef(name, selector, tuple(p.target for p in ports), index, line,
                      publish_not_ready=spec.get("publishNotReadyAddresses") is True, ports_line=ports_line,
                      ports=tuple(ports), namespace=namespace, selector_line=position(obj, ("spec", "selector"))[0],
                      at=at, raw=root)


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for seg in path:
        data = data[seg]
    return data


def _name_of(obj: dict) -> str:
    meta = obj.get("metadata")
    if isinstance(meta, dict):
        for key in ("name", "generateName"):
            if isinstance(meta.get(key), str) and meta[key]:
                return meta[key]
    return "(unnamed)"


class _Builder(ContainerReader):
    """Reads one Pod spec into the model, collecting every shape error with its path."""

    def pod(self, obj: dict, at: tuple[Any, ...], kind: str) -> Pod | None:
        spec_path = at + TEMPLATE_PATHS[kind]
        spec: Any = obj
        for i, seg in enumerate(TEMPLATE_PATHS[kind]):
            nxt = spec.get(seg) if isinstance(spec, dict) else None
            if not isinstance(nxt, dict):
                here = at + TEMPLATE_PATHS[kind][: i + 1]
                self.error(here, Text(_("A {kind} needs {path}: a mapping (found {found})."),
                                      {"kind": kind, "path": format_path(TEMPLATE_PATHS[kind]),
                                       "found": _kind_of(nxt)}))
                return None
            spec = nxt
        p = spec_path
        policy = self.text(spec, p, "restartPolicy", "Always")
        if policy not in d.POD_RESTART_POLICIES:
            self.error(p + ("restartPolicy",), Text(_("restartPolicy {value} is not one of Always, OnFailure, "
                                                      "Never."), {"value": repr(policy)}), "Unsupported value")
            policy = "Always"
        init = self.containers(spec, p, "initContainers", "init")
        apps = self.containers(spec, p, "containers", "app")
        eph = self.containers(spec, p, "ephemeralContainers", "ephemeral")
        total = len(init) + len(apps) + len(eph)
        if total > d.MAX_CONTAINERS_PER_POD:
            self.errors.append(_err(self.root, p, Text(_("This Pod has {n} containers; the limit is {limit}."),
                                                       {"n": total, "limit": d.MAX_CONTAINERS_PER_POD}),
                                    self.document, self.name, "limit"))
            return None
        src_line = position(self.root, at)[0]
        return Pod(
            name=self.name,
            source=PodSource(self.document, kind, self.name, src_line),
            spec_path=spec_path,
            restart_policy=policy,
            termination_grace_period=self.integer(spec, p, "terminationGracePeriodSeconds",
                                                  d.TERMINATION_GRACE_PERIOD_SECONDS),
            active_deadline_seconds=self.integer(spec, p, "activeDeadlineSeconds", None, 1),
            share_process_namespace=bool(self.value(spec, p, "shareProcessNamespace", (bool,), _TRUE_OR_FALSE, False)),
            host_network=bool(self.value(spec, p, "hostNetwork", (bool,), _TRUE_OR_FALSE, False)),
            host_pid=bool(self.value(spec, p, "hostPID", (bool,), _TRUE_OR_FALSE, False)),
            host_ipc=bool(self.value(spec, p, "hostIPC", (bool,), _TRUE_OR_FALSE, False)),
            init_containers=init, containers=apps, ephemeral_containers=eph,
            volumes=self.volumes(spec, p) + self.claim_templates(obj, at, kind),
            readiness_gates=len(self.value(spec, p, "readinessGates", (list,), _A_LIST, None) or []),
            os_name=self.text(self.mapping(spec, p, "os"), p + ("os",), "name"),
            backoff_limit=self._backoff_limit(spec_path) if kind in ("Job", "CronJob") else None,
            labels=labels_of(_get(self.root, spec_path[:-1])),
            workload=read_workload(obj, kind, self.root, at),
            annotations=annotations_of(_get(self.root, spec_path[:-1])),
            owner_annotations=tuple(pair for end, seg in enumerate(spec_path[:-1]) if seg == "spec"
                                    for pair in annotations_of(_get(self.root, spec_path[:end]))),
            job_deadline_written=kind in ("Job", "CronJob")
            and _get(self.root, spec_path[:-2]).get("activeDeadlineSeconds") is not None,
            raw=self.root,
        )

    def _backoff_limit(self, spec_path: tuple[Any, ...]) -> int:
        """The Job's spec.backoffLimit (the Job spec holds the Pod template: two levels up)."""
        job_path = spec_path[:-2]
        job = _get(self.root, job_path)
        return self.integer(job, job_path, "backoffLimit", d.JOB_BACKOFF_LIMIT) if isinstance(job, dict) \
            else d.JOB_BACKOFF_LIMIT
