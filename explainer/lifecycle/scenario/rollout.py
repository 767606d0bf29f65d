"""The scenario's traffic and rollout keys (issue 22; docs/lifecycle-model.md §26, §27).

``trafficPropagationSeconds``: how long an endpoint change takes to reach kube-proxy, ingress controllers
and load balancers (assumed when absent).  ``rollout``: the number of replicas, nodes and other ready
replicas, the controllers' sync delay, and how the new revision's containers behave.
"""
from __future__ import annotations

from dataclasses import field
from collections.abc import Callable
from typing import Any

from ..errors import ErrorRecord
from ..i18n import Text, gettext_noop as _
from ..manifest.yamlload import format_path, position
from explainer.lifecycle.records import record

ROLLOUT_KEYS = ("replicas", "nodes", "otherReadyReplicas", "syncDelaySeconds", "newRevision")
MAX_ROLLOUT_REPLICAS = 1000      # a rollout draws a lane per Pod: more is refused, with this number
MAX_ROLLOUT_NODES = 1000


@record
class RolloutScenario:
    replicas: int | None = None               # overrides spec.replicas
    nodes: int | None = None                  # DaemonSet: how many nodes run it (assumed: 3)
    other_ready_replicas: int | None = None   # traffic: other ready endpoints (default: replicas - 1)
    sync_delay: float | None = None           # the controllers' reaction time (assumed: 0 s)
    new_revision: dict[str, dict[str, Any]] = field(default_factory=dict)   # container -> behaviour keys
    lines: dict[str, int] = field(default_factory=dict)


Validate = Callable[[dict[str, Any], str, Any, tuple[Any, ...]], list[ErrorRecord]]


def read_rollout(data: dict, errors: list[ErrorRecord], validate: Validate) -> RolloutScenario | None:
    """``rollout`` of the scenario document ``data``; ``validate`` checks one container's behaviour keys
    (scenario/document.py's, so the new revision takes exactly the keys ``containers`` takes)."""
    raw = data.get("rollout")
    if raw is None:
        return None
    if not isinstance(raw, dict):
        errors.append(_record(data, ("rollout",), Text(_("rollout must be a mapping (replicas, nodes, "
                                                          "otherReadyReplicas, syncDelaySeconds, newRevision)."))))
        return None
    for key in raw:
        if key not in ROLLOUT_KEYS:
            errors.append(_record(data, ("rollout", key), Text(_("Unknown rollout field {key}; known: {known}."),
                                                               {"key": repr(key), "known": ", ".join(ROLLOUT_KEYS)})))
    replicas = _count(data, raw, "replicas", MAX_ROLLOUT_REPLICAS, errors)
    nodes = _count(data, raw, "nodes", MAX_ROLLOUT_NODES, errors, minimum=1)
    others = _count(data, raw, "otherReadyReplicas", MAX_ROLLOUT_REPLICAS, errors)
    delay = raw.get("syncDelaySeconds")
    if delay is not None and (isinstance(delay, bool) or not isinstance(delay, (int, float)) or not 0 <= delay <= 600):
        errors.append(_record(data, ("rollout", "syncDelaySeconds"), Text(
            _("syncDelaySeconds must be a number of seconds from 0 to 600, not {value}."), {"value": repr(delay)})))
        delay = None
    new = raw.get("newRevision") or {}
    containers: dict[str, dict[str, Any]] = {}
    lines: dict[str, int] = {}
    if not isinstance(new, dict) or set(new) - {"containers"} or not isinstance(new.get("containers") or {}, dict):
        errors.append(_record(data, ("rollout", "newRevision"), Text(
            _("newRevision takes one field, containers: container names mapped to their behaviour."))))
    else:
        for name, spec in (new.get("containers") or {}).items():
            at = ("rollout", "newRevision", "containers", name)
            if not isinstance(spec, dict):
                errors.append(_record(data, at, Text(_("The behaviour of {name} must be a mapping."),
                                                     {"name": repr(name)})))
                continue
            errors.extend(validate(spec, str(name), data, at))
            containers[str(name)] = spec
            lines[str(name)] = position(data, at)[0] or 0
    return RolloutScenario(replicas, nodes, others, float(delay) if delay is not None else None, containers, lines)


def read_propagation(data: dict, errors: list[ErrorRecord]) -> float | None:
    v = data.get("trafficPropagationSeconds")
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 600:
        errors.append(_record(data, ("trafficPropagationSeconds",), Text(
            _("trafficPropagationSeconds must be a number of seconds from 0 to 600, not {value}."),
            {"value": repr(v)})))
        return None
    return float(v)


def _count(data: dict, raw: dict, key: str, maximum: int, errors: list[ErrorRecord], minimum: int = 0) -> int | None:
    v = raw.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not minimum <= v <= maximum:
        errors.append(_record(data, ("rollout", key), Text(
            _("rollout.{key} must be a whole number from {minimum} to {maximum}, not {value}."),
            {"key": key, "minimum": minimum, "maximum": maximum, "value": repr(v)})))
        return None
    return v


def _record(root: Any, path: tuple[Any, ...], message: Text) -> ErrorRecord:
    line, col = position(root, path)
    return ErrorRecord(message, line, col, format_path(path), kind="scenario")
