"""The what-if document: how each container really behaves, and what happens to the Pod.

A manifest says what to run, not how long it runs, whether it crashes or how it answers
SIGTERM.  The scenario supplies that (read and checked here); whatever it leaves out is guessed
(``behaviour.py`` with ``commands/guess.py``) or defaulted, and every such value is reported as assumed.
"""
from __future__ import annotations

import re
from dataclasses import field
from typing import Any

from .. import defaults as d
# Behaviour, Run and behaviour_for live in behaviour.py; many modules import them from here.
from .behaviour import Behaviour, Run, behaviour_for
from ..errors import ErrorRecord, ManifestError
from ..i18n import Text, gettext_noop as _
from ..model import Pod
from .rollout import RolloutScenario, read_propagation, read_rollout
from ..manifest.yamlload import Limits, format_path, load_documents, position
from explainer.lifecycle.records import record

__all__ = ["PROBE_KINDS", "Behaviour", "DebugRequest", "ImageUpdate", "Run", "Scenario", "behaviour_for",
           "check_names", "parse_scenario", "scenario_from_data", "validate_behaviour"]

PROBE_KINDS = ("startup", "readiness", "liveness")
_CONTAINER_KEYS = {"runSeconds", "exitCode", "runs", "imagePull", "startupSeconds", "failingProbes",
                   "postStartSeconds", "postStartExitCode", "preStopSeconds", "preStopExitCode", "stopSeconds", "stopExitCode"}
_DURATION = re.compile(r"[0-9]{1,6}(?:\.[0-9]{1,6})?s")   # ASCII digits: "²s" is no duration
_TOP_KEYS = {"kubernetesVersion", "deleteAt", "deleteGracePeriodSeconds", "sandboxLostAt", "until",
             "containers", "debug", "featureGates", "imageUpdates", "crashLoopBackOff",
             "trafficPropagationSeconds", "rollout"}


@record
class DebugRequest:
    """``kubectl debug`` at time ``at``: an ephemeral container joins the running Pod."""

    name: str
    image: str
    at: float
    target: str | None
    run_seconds: float | None
    line: int | None = None


@record
class ImageUpdate:
    """``kubectl set image`` at time ``at``: the one Pod field a running Pod lets you change."""

    container: str
    image: str
    at: float
    line: int | None = None


@record
class Scenario:
    kubernetes_version: str | None = None
    delete_at: float | None = None
    delete_grace: int | None = None
    sandbox_lost_at: float | None = None
    until: float | None = None
    containers: dict[str, dict[str, Any]] = field(default_factory=dict)
    debug: tuple[DebugRequest, ...] = ()
    image_updates: tuple[ImageUpdate, ...] = ()
    feature_gates: dict[str, bool] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    max_restart_period: float | None = None   # kubelet crashLoopBackOff.maxContainerRestartPeriod
    traffic_propagation: float | None = None  # trafficPropagationSeconds (None: the assumed default)
    rollout: RolloutScenario | None = None    # replicas, nodes, other ready replicas, the new revision


def parse_scenario(text: str | None, limits: Limits = Limits(max_bytes=256 * 1024, subject="scenario")) -> Scenario:
    """Read the scenario document (YAML or JSON); an empty text is the empty scenario."""
    if text is None or not text.strip():
        return Scenario()
    try:
        docs = load_documents(text, limits)
    except ManifestError as exc:
        raise ManifestError("", records=[_as_scenario(r) for r in exc.records]) from None
    data = docs[0].data if docs else None
    return scenario_from_data(data)


def scenario_from_data(data: Any) -> Scenario:
    """Build a Scenario from already-parsed data (the JSON API passes an object)."""
    if data is None:
        return Scenario()
    errors: list[ErrorRecord] = []
    if not isinstance(data, dict):
        raise _error(data, (), Text(_("The scenario must be a mapping (kubernetesVersion, deleteAt, containers, "
                                      "...).")))
    for key in data:
        if key not in _TOP_KEYS:
            errors.append(_record(data, (key,), Text(_("Unknown scenario field {key}; known: {known}."),
                                                     {"key": repr(key), "known": ", ".join(sorted(_TOP_KEYS))})))
    version = data.get("kubernetesVersion")
    if isinstance(version, float):   # unquoted YAML: 1.30 reads as 1.3; every 1.x we know has a two-digit minor
        version = f"{version:.2f}"
    elif version is not None:
        version = str(version)
    containers = data.get("containers") or {}
    if not isinstance(containers, dict):
        errors.append(_record(data, ("containers",), Text(_("containers must map container names to behaviour."))))
        containers = {}
    for name, spec in containers.items():
        if not isinstance(spec, dict):
            errors.append(_record(data, ("containers", name), Text(_("The behaviour of {name} must be a mapping."),
                                                                   {"name": repr(name)})))
            continue
        errors.extend(_container_entry(spec, str(name), data, ("containers", name)))
    gates = data.get("featureGates") or {}
    if not isinstance(gates, dict) or not all(isinstance(v, bool) for v in gates.values()):
        errors.append(_record(data, ("featureGates",), Text(_("featureGates maps gate names to true or false."))))
        gates = {}
    scenario = Scenario(
        kubernetes_version=version,
        delete_at=_number(data, ("deleteAt",), errors),
        delete_grace=_integer(data, ("deleteGracePeriodSeconds",), errors),
        sandbox_lost_at=_number(data, ("sandboxLostAt",), errors),
        until=_number(data, ("until",), errors, maximum=d.MAX_HORIZON_SECONDS),
        containers={str(k): v for k, v in containers.items() if isinstance(v, dict)},
        debug=_debug(data, errors),
        image_updates=_image_updates(data, errors),
        feature_gates=dict(gates),
        max_restart_period=_crash_loop_back_off(data, errors),
        lines={str(k): position(data, ("containers", k))[0] or 0 for k in containers},
        traffic_propagation=read_propagation(data, errors),
        rollout=read_rollout(data, errors, _container_entry),
    )
    if errors:
        raise ManifestError("", records=errors)
    return scenario


def _container_entry(spec: dict[str, Any], name: str, root: Any, at: tuple[Any, ...]) -> list[ErrorRecord]:
    """Errors in one container's behaviour entry at ``at`` of the scenario ``root``: bad values, unknown keys."""
    errors = validate_behaviour(spec, name, root=root, prefix=at)
    for key in spec:
        if key not in _CONTAINER_KEYS:
            errors.append(_record(root, at + (key,), Text(
                _("Unknown field {key} for container {name}; known: {known}."),
                {"key": repr(key), "name": repr(name), "known": ", ".join(sorted(_CONTAINER_KEYS))})))
    return errors


def _debug(data: dict, errors: list[ErrorRecord]) -> tuple[DebugRequest, ...]:
    raw = data.get("debug") or []
    if not isinstance(raw, list):
        errors.append(_record(data, ("debug",), Text(_("debug must be a list of {{name, image, target, at, "
                                                       "runSeconds}}."))))
        return ()
    out = []
    for i, item in enumerate(raw):
        p = ("debug", i)
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            errors.append(_record(data, p, Text(_("Each debug entry needs a name (and image, at, optional "
                                                  "target)."))))
            continue
        unknown = set(item) - {"name", "image", "target", "at", "runSeconds"}
        if unknown:
            errors.append(_record(data, p + (sorted(unknown)[0],), Text(_("Unknown debug field {key}."),
                                                                        {"key": repr(sorted(unknown)[0])})))
        at = _number(item, ("at",), errors, root=data, prefix=p)
        run = _duration(item, ("runSeconds",), errors, root=data, prefix=p, words=("forever",))
        out.append(DebugRequest(item["name"], str(item.get("image") or "busybox:1.36"),
                                at if at is not None else 0.0,
                                str(item["target"]) if item.get("target") is not None else None,
                                run, position(data, p)[0]))
    return tuple(out)


def _crash_loop_back_off(data: dict, errors: list[ErrorRecord]) -> float | None:
    """The node's kubelet setting ``crashLoopBackOff: {maxContainerRestartPeriod: 30}`` (seconds, or "30s")."""
    raw = data.get("crashLoopBackOff")
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) - {"maxContainerRestartPeriod"}:
        errors.append(_record(data, ("crashLoopBackOff",), Text(_("crashLoopBackOff takes one field, "
                                                                  "maxContainerRestartPeriod (1 to 300 seconds)."))))
        return None
    v = raw.get("maxContainerRestartPeriod")
    if isinstance(v, str) and _DURATION.fullmatch(v):   # "30s", as the kubelet's config file writes it
        v = float(v[:-1])
    low, high = d.NODE_MAX_RESTART_PERIOD_RANGE
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not low <= v <= high:
        errors.append(_record(data, ("crashLoopBackOff", "maxContainerRestartPeriod"), Text(
            _("maxContainerRestartPeriod must be from {low} to {high} seconds (like 30 or \"30s\"), not {value}."),
            {"low": low, "high": high, "value": repr(raw.get("maxContainerRestartPeriod"))})))
        return None
    return float(v)


def _image_updates(data: dict, errors: list[ErrorRecord]) -> tuple[ImageUpdate, ...]:
    raw = data.get("imageUpdates") or []
    if not isinstance(raw, list):
        errors.append(_record(data, ("imageUpdates",), Text(_("imageUpdates must be a list of {{container, image, "
                                                              "at}}."))))
        return ()
    out = []
    for i, item in enumerate(raw):
        p = ("imageUpdates", i)
        if not isinstance(item, dict) or not isinstance(item.get("container"), str) or \
                not isinstance(item.get("image"), str):
            errors.append(_record(data, p, Text(_("Each image update needs container, image and at."))))
            continue
        at = _number(item, ("at",), errors, root=data, prefix=p)
        out.append(ImageUpdate(item["container"], item["image"], at or 0.0, position(data, p)[0]))
    return tuple(out)


def check_names(scenario: Scenario, pods: list[Pod]) -> list[ErrorRecord]:
    """Scenario entries that name no container of any Pod, and debug names already taken."""
    known = {c.name for p in pods for c in p.all_containers}
    errors = []
    for name in scenario.containers:
        if name not in known and not any(dbg.name == name for dbg in scenario.debug):
            hint = ", ".join(sorted(known)) or "none"
            errors.append(ErrorRecord(Text(_("The scenario names container {name}, which no Pod has "
                                             "(containers: {known})."), {"name": repr(name), "known": hint}),
                                      scenario.lines.get(name) or None,
                                      path=f"containers.{name}", kind="scenario"))
    if scenario.rollout is not None:
        for name in scenario.rollout.new_revision:
            if name not in known:
                errors.append(ErrorRecord(Text(_("The rollout's new revision names container {name}, which no Pod "
                                                 "has (containers: {known})."),
                                               {"name": repr(name), "known": ", ".join(sorted(known)) or "none"}),
                                          scenario.rollout.lines.get(name) or None,
                                          path=f"rollout.newRevision.containers.{name}", kind="scenario"))
    for upd in scenario.image_updates:
        if upd.container not in known:
            errors.append(ErrorRecord(Text(_("The image update names container {name}, which no Pod has."),
                                           {"name": repr(upd.container)}),
                                      upd.line, path="imageUpdates", kind="scenario"))
    for dbg in scenario.debug:
        if dbg.target is not None and dbg.target not in known:
            errors.append(ErrorRecord(Text(_("The debug container {name} targets {target}, which no Pod has."),
                                           {"name": repr(dbg.name), "target": repr(dbg.target)}),
                                      dbg.line, path="debug", kind="scenario"))
        if dbg.name in known:
            errors.append(ErrorRecord(Text(_("The debug container {name} takes the name of an existing "
                                             "container; names are unique across all containers of a Pod."),
                                           {"name": repr(dbg.name)}),
                                      dbg.line, path="debug", kind="scenario", reason="Duplicate value"))
    return errors


def validate_behaviour(raw: dict[str, Any], name: str, root: Any = None,
                       prefix: tuple[Any, ...] | None = None) -> list[ErrorRecord]:
    """Bad values in one container's scenario entry (types, units, words), with lines from ``root``
    (the entry sits at ``prefix``: ``containers.<name>`` unless said)."""
    errors: list[ErrorRecord] = []
    root = root if root is not None else {"containers": {name: raw}}
    pre = prefix if prefix is not None else ("containers", name)
    for key in ("runSeconds", "preStopSeconds"):
        _duration(raw, (key,), errors, root=root, prefix=pre, words=("forever",))
    _duration(raw, ("stopSeconds",), errors, root=root, prefix=pre, words=("never",))
    for key in ("startupSeconds", "postStartSeconds"):
        _number(raw, (key,), errors, root=root, prefix=pre)
    for key in ("exitCode", "postStartExitCode", "preStopExitCode", "stopExitCode"):
        _integer(raw, (key,), errors, root=root, prefix=pre, maximum=255)
    if raw.get("imagePull", "ok") not in ("ok", "fails"):
        errors.append(_record(root, pre + ("imagePull",), Text(_("imagePull of {name} must be ok or fails."),
                                                               {"name": repr(name)})))
    probes = raw.get("failingProbes") or []
    if not isinstance(probes, list) or any(p not in PROBE_KINDS for p in probes):
        errors.append(_record(root, pre + ("failingProbes",), Text(_("failingProbes of {name} lists probes among "
                                                                   "startup, readiness, liveness."),
                                                                 {"name": repr(name)})))
    runs = raw.get("runs")
    if runs is not None:
        if not isinstance(runs, list) or not runs or not all(isinstance(r, dict) for r in runs):
            errors.append(_record(root, pre + ("runs",), Text(_("runs of {name} must be a non-empty list of "
                                                                "{{runSeconds, exitCode}}."), {"name": repr(name)})))
        else:
            for i, r in enumerate(runs):
                _duration(r, ("runSeconds",), errors, root=root, prefix=pre + ("runs", i), words=("forever",))
                _integer(r, ("exitCode",), errors, root=root, prefix=pre + ("runs", i), maximum=255)
                if r.get("reason") not in (None, "OOMKilled"):
                    errors.append(_record(root, pre + ("runs", i, "reason"), Text(
                        _("The reason of a run of {name} can only be OOMKilled (the kernel's OOM kill ends the "
                          "run), not {value}."), {"name": repr(name), "value": repr(r.get("reason"))})))
    return errors


def _number(m: dict, key: tuple[str], errors: list[ErrorRecord], *, root: Any = None,
            prefix: tuple[Any, ...] = (), maximum: float | None = None) -> float | None:
    v = m.get(key[0])
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0 or (maximum and v > maximum):
        if maximum:
            text = Text(_("{key} must be a number of seconds, 0 or more up to {maximum}, not {value}."),
                        {"key": key[0], "maximum": f"{maximum:g}", "value": repr(v)})
        else:
            text = Text(_("{key} must be a number of seconds, 0 or more, not {value}."),
                        {"key": key[0], "value": repr(v)})
        errors.append(_record(root if root is not None else m, prefix + key, text))
        return None
    return float(v)


def _integer(m: dict, key: tuple[str], errors: list[ErrorRecord], *, root: Any = None,
             prefix: tuple[Any, ...] = (), maximum: int | None = None) -> int | None:
    v = m.get(key[0])
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or v < 0 or (maximum is not None and v > maximum):
        if maximum:
            text = Text(_("{key} must be a whole number from 0 to {maximum}, not {value}."),
                        {"key": key[0], "maximum": maximum, "value": repr(v)})
        else:
            text = Text(_("{key} must be a whole number from 0, not {value}."), {"key": key[0], "value": repr(v)})
        errors.append(_record(root if root is not None else m, prefix + key, text))
        return None
    return v


def _duration(m: dict, key: tuple[str], errors: list[ErrorRecord], *, root: Any, prefix: tuple[Any, ...],
              words: tuple[str, ...]) -> float | None:
    v = m.get(key[0])
    if v is None or v in words:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
        errors.append(_record(root, prefix + key, Text(_("{key} must be a number of seconds or {words}, not {value}."),
                                                       {"key": key[0], "words": " / ".join(words), "value": repr(v)})))
        return None
    return float(v)


def _record(root: Any, path: tuple[Any, ...], message: Text) -> ErrorRecord:
    line, col = position(root, path)
    return ErrorRecord(message, line, col, format_path(path), kind="scenario")


def _error(root: Any, path: tuple[Any, ...], message: Text) -> ManifestError:
    return ManifestError("", records=[_record(root, path, message)])


def _as_scenario(r: ErrorRecord) -> ErrorRecord:
    return ErrorRecord(Text(_("Scenario: {message}"), {"message": r.translatable}), r.line, r.column, r.path,
                       "scenario", r.reason)
