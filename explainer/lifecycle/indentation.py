"""Lost indentation: a manifest copied from a page that dropped its leading spaces.

YAML still reads such text, as one flat mapping: ``metadata:`` and ``spec:`` are empty and
``name``, ``containers``, ``image`` ... sit at the top level next to them.  Reporting "spec is
empty" would be true and useless; this module says what a person would: the indentation looks
lost, and here is each field that belongs deeper, with its line.
"""
from __future__ import annotations

from typing import Any

from .errors import ErrorRecord
from .i18n import Text, gettext_noop as _
from .yamlload import format_path, position

# Where a field found at the top level of an object most likely belongs (the first match wins,
# in this order): object metadata, the Pod spec, a container, a probe or hook handler.
METADATA_FIELDS = frozenset({"name", "namespace", "labels", "annotations", "generateName", "uid",
                             "ownerReferences", "finalizers", "resourceVersion"})
SPEC_FIELDS = frozenset({
    "containers", "initContainers", "ephemeralContainers", "volumes", "restartPolicy",
    "terminationGracePeriodSeconds", "activeDeadlineSeconds", "shareProcessNamespace", "hostNetwork",
    "hostPID", "hostIPC", "serviceAccountName", "serviceAccount", "nodeSelector", "nodeName", "affinity",
    "tolerations", "dnsPolicy", "dnsConfig", "priorityClassName", "priority", "imagePullSecrets", "hostname",
    "subdomain", "schedulerName", "runtimeClassName", "topologySpreadConstraints",
    "automountServiceAccountToken", "enableServiceLinks", "hostAliases", "readinessGates",
    "schedulingGates", "resourceClaims", "setHostnameAsFQDN", "hostUsers", "os", "replicas",
    "selector", "schedule", "jobTemplate", "backoffLimit", "completions", "parallelism", "serviceName"})
CONTAINER_FIELDS = frozenset({
    "image", "command", "args", "env", "envFrom", "ports", "volumeMounts", "volumeDevices", "resources",
    "resizePolicy", "livenessProbe", "readinessProbe", "startupProbe", "lifecycle", "securityContext",
    "workingDir", "imagePullPolicy", "stdin", "stdinOnce", "tty", "terminationMessagePath",
    "terminationMessagePolicy", "restartPolicyRules"})
HANDLER_FIELDS = frozenset({"exec", "httpGet", "tcpSocket", "grpc", "sleep", "initialDelaySeconds",
                            "periodSeconds", "timeoutSeconds", "successThreshold", "failureThreshold",
                            "preStop", "postStart", "mountPath", "containerPort", "protocol", "emptyDir",
                            "configMap", "secret", "persistentVolumeClaim", "hostPath", "projected"})
TOP_LEVEL = frozenset({"apiVersion", "kind", "metadata", "spec", "status", "items", "template"})

_PLACES = (
    (METADATA_FIELDS, _("metadata")),
    (SPEC_FIELDS, _("spec")),
    (CONTAINER_FIELDS, _("a container (under spec.containers)")),
    (HANDLER_FIELDS, _("a probe, hook, port or volume inside a container or spec.volumes")),
)


def misplaced_fields(obj: dict, at: tuple[Any, ...]) -> list[tuple[str, Text]]:
    """Top-level keys of ``obj`` that belong deeper: (key, where it likely belongs)."""
    out = []
    for key in obj:
        if not isinstance(key, str) or key in TOP_LEVEL:
            continue
        for fields, place in _PLACES:
            if key in fields:
                out.append((key, Text(place)))
                break
    return out


def diagnose_lost_indentation(root: Any, obj: dict, at: tuple[Any, ...], document: int,
                              pod: str) -> list[ErrorRecord]:
    """Errors that explain a flattened object, or none when its shape does not look flattened.

    It looks flattened when a field that only exists deeper (metadata's, the Pod spec's, a
    container's) sits at the top level of a Kubernetes object.
    """
    misplaced = misplaced_fields(obj, at)
    if not misplaced:
        return []
    first_line = min((position(root, at + (k,))[0] or 0 for k, _w in misplaced), default=0) or None
    names = ", ".join(k for k, _w in misplaced[:8]) + (", …" if len(misplaced) > 8 else "")
    out = [ErrorRecord(
        Text(_("The indentation looks lost: fields that belong under metadata, spec or a container sit at the "
               "top level ({names}), so metadata and spec are empty. Was the text copied from a page that "
               "dropped leading spaces? Indent the fields again (two spaces per level); each one is listed "
               "with its line."), {"names": names}),
        first_line, 1, format_path(at) or None, "structure", "Indentation", document, pod)]
    for key, place in misplaced:
        line, column = position(root, at + (key,))
        out.append(ErrorRecord(
            Text(_("{key} is at the top level; it belongs under {place}: indent it."), {"key": key, "place": place}),
            line, column, format_path(at + (key,)), "structure", "Indentation", document, pod))
    return out
