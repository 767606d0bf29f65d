"""Lost indentation: a manifest copied from a page that dropped its leading spaces.

YAML still reads such text, as one flat mapping: ``metadata:`` and ``spec:`` are empty and
``name``, ``containers``, ``image`` ... sit at the top level next to them.  Reporting "spec is
empty" would be true and useless; this module says what a person would: the indentation looks
lost, and here is each field that belongs deeper, with its line.
"""
from __future__ import annotations

import re
from typing import Any

from ..errors import ErrorRecord
from ..i18n import Text, gettext_noop as _
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


# ---- text the YAML reader refused ------------------------------------------------------------------------
# Without its indentation a manifest often does not read as YAML at all: a key repeated at the top level
# (`image` of a second container) is a duplicate, and a list item after a plain key is a syntax error.  The
# reader's message is then true but names a symptom; these read the lines themselves for the cause.
_KEY_LINE = re.compile(r"^([A-Za-z][\w.-]*)\s*:(?:\s+(\S.*))?\s*$")
_ITEM_LINE = re.compile(r"^-\s+([A-Za-z][\w.-]*)\s*:")
_DOCUMENT_START = re.compile(r"^---(\s|$)")
_BLOCK_PARENTS = frozenset({"metadata", "spec", "template"})


def lost_indentation_in_text(text: str, limit: int = 2000) -> list[ErrorRecord]:
    """The lost-indentation diagnosis of text the YAML reader refused, or none when it does not look flat.

    A document looks flattened when ``metadata:`` or ``spec:`` opens an empty block (the next line that
    holds anything starts at column 1 too) and fields that only exist deeper sit at column 1.  A list
    item at column 1 (``- name: x``) belongs under the list key above it."""
    lines = text.splitlines()[:limit]
    out: list[ErrorRecord] = []
    start = 0
    for i in range(len(lines) + 1):
        if i == len(lines) or _DOCUMENT_START.match(lines[i]):
            out.extend(_flat_document(lines, start, i))
            start = i + 1
    return out


def _starts_container(body: list[tuple[int, str]], j: int) -> bool:
    """Whether the list item at ``body[j]`` is a container: it names one, and an image follows before the
    next item."""
    if _ITEM_LINE.match(body[j][1]).group(1) != "name":   # type: ignore[union-attr]
        return False
    for _n, ln in body[j + 1:]:
        if ln.startswith("-"):
            return False
        m = _KEY_LINE.match(ln)
        if m is not None and m.group(1) == "image":
            return True
    return False


def _flat_document(lines: list[str], start: int, end: int) -> list[ErrorRecord]:
    body = [(n, ln) for n, ln in enumerate(lines[start:end], start + 1)
            if ln.strip() and not ln.lstrip().startswith("#")]
    opened_empty = False
    for j, (_n, ln) in enumerate(body):
        m = _KEY_LINE.match(ln)
        if m and m.group(1) in _BLOCK_PARENTS and not (m.group(2) or "").split("#")[0].strip():
            nxt = body[j + 1][1] if j + 1 < len(body) else ""
            if nxt and not nxt[0].isspace() and not nxt.startswith("-"):
                opened_empty = True
    if not opened_empty:
        return []
    misplaced: list[tuple[int, str, Text | str]] = []
    items: set[int] = set()     # the lines of list items (`- name: x`), which belong under ``parent``
    parent = None
    lists: dict[str, str] = {}    # container lists seen so far: a container's item goes back to the last
    for j, (n, ln) in enumerate(body):
        if ln[0].isspace():
            continue
        item = _ITEM_LINE.match(ln)
        if item is not None:
            owner = lists.get("containers") if _starts_container(body, j) else parent
            if owner is not None:
                misplaced.append((n, item.group(1), owner))   # a field name: not translated
                items.add(n)
            continue
        m = _KEY_LINE.match(ln)
        if m is None or m.group(1) in TOP_LEVEL:
            continue
        key = m.group(1)
        if not (m.group(2) or "").split("#")[0].strip():
            parent = key          # a key that opens a block: the list items after it are its own
            if key in ("containers", "initContainers", "ephemeralContainers"):
                lists["containers"] = key
        place = next((Text(p) for fields, p in _PLACES if key in fields), None)
        if place is not None:
            misplaced.append((n, key, place))
    if not misplaced:
        return []
    keys = list(dict.fromkeys(k for _n, k, _p in misplaced))
    names = ", ".join(keys[:8]) + (", …" if len(keys) > 8 else "")
    out = [ErrorRecord(
        Text(_("The indentation looks lost: fields that belong under metadata, spec or a container sit at the "
               "top level ({names}), so metadata and spec are empty. Was the text copied from a page that "
               "dropped leading spaces? Indent the fields again (two spaces per level); each one is listed "
               "with its line."), {"names": names}),
        misplaced[0][0], 1, None, "structure", "Indentation")]
    for n, key, where in misplaced:
        said: Text
        if n in items:
            said = Text(_("The list item that starts with {key} is at the top level; it belongs under {parent}: "
                          "indent it."), {"key": key, "parent": where})
        else:
            said = Text(_("{key} is at the top level; it belongs under {place}: indent it."),
                        {"key": key, "place": where})
        out.append(ErrorRecord(said, n, 1, None, "structure", "Indentation"))
    return out
