"""The "what if" panel: form controls -> the scenario document of the engine.

The panel edits the same scenario a CLI user writes in YAML; the advanced text box holds that
YAML, and the controls are applied on top of it, container by container.
"""
from __future__ import annotations

from typing import Any

import yaml

from explainer.lifecycle.errors import ManifestError
from explainer.lifecycle.i18n import Text, gettext_noop
from explainer.lifecycle.scenario.text import plain, read_scenario_text

PREFIX = "c."
CONTROLS = ("crashes", "startup", "run", "ignore_term")
MAX_CRASHES = 20   # what the panel offers; each crash is a run of its own
# The rollout's new revision, per container (issue 22): the same behaviour keys as ``containers``,
# under rollout.newRevision.containers.<name>
NEW_PREFIX = "n."
NEW_CONTROLS = ("never_ready", "crashes", "startup")
# The Pod's traffic and rollout values: form field -> (where in the scenario, whole number)
ROLLOUT_FIELDS = {"traffic_propagation": (("trafficPropagationSeconds",), False),
                  "rollout_replicas": (("rollout", "replicas"), True),
                  "other_ready": (("rollout", "otherReadyReplicas"), True),
                  "rollout_nodes": (("rollout", "nodes"), True)}
POD_CONTROLS = ("delete_at", "debug_at", "debug_target", "debug_image") + tuple(ROLLOUT_FIELDS)


def _number(value: str | None) -> float | None:
    if value is None or not value.strip():
        return None
    try:
        n = float(value)
    except ValueError:
        return None
    return n if 0 <= n < 1e9 else None     # also refuses inf and nan


def scenario_from_post(data: Any) -> dict[str, Any]:
    """The scenario as a mapping: the advanced YAML, then every control on top of it.

    Raises ManifestError (kind "scenario") when the advanced YAML is not a mapping.
    """
    text = (data.get("scenario") or "").strip()
    scenario: dict[str, Any] = {}
    if text:
        raw = read_scenario_text(text)
        if raw is not None and not isinstance(raw, dict):
            raise ManifestError(Text(gettext_noop("The scenario must be a mapping (deleteAt, containers, ...).")),
                                kind="scenario")
        scenario = plain(raw or {})
    containers = scenario.get("containers")
    if containers is None:
        containers = scenario["containers"] = {}
    if isinstance(containers, dict):   # otherwise the engine reports the YAML's mistake, with its line
        for key in data:
            if not key.startswith(PREFIX):
                continue
            name, _, control = key[len(PREFIX):].rpartition(".")
            if not name or control not in CONTROLS:
                continue
            entry = containers.setdefault(name, {})
            if isinstance(entry, dict):
                _apply(entry, control, data.get(key))
        scenario["containers"] = {k: v for k, v in containers.items() if v != {}}
    delete_at = _number(data.get("delete_at"))
    if delete_at is not None:
        scenario["deleteAt"] = delete_at
    debug_at = _number(data.get("debug_at"))
    if debug_at is not None:
        entry: dict[str, Any] = {"name": (data.get("debug_name") or "debugger").strip() or "debugger",
                                 "image": (data.get("debug_image") or "busybox:1.36").strip() or "busybox:1.36",
                                 "at": debug_at}
        if data.get("debug_target"):
            entry["target"] = data.get("debug_target")
        scenario.setdefault("debug", []).append(entry)
    _rollout_controls(scenario, data)
    return {k: v for k, v in scenario.items() if v not in ({}, [], None)}


def _rollout_controls(scenario: dict[str, Any], data: Any) -> None:
    """trafficPropagationSeconds, the rollout's numbers and its new revision's behaviour, on top of
    the YAML (a ``rollout`` the YAML wrote as something else than a mapping is left for the engine
    to report, with its line)."""
    for field, (path, whole) in ROLLOUT_FIELDS.items():
        n = _number(data.get(field))
        if n is None:
            continue
        target = scenario
        for key in path[:-1]:
            target = target.setdefault(key, {})
            if not isinstance(target, dict):
                break
        else:
            target[path[-1]] = int(n) if whole else (int(n) if n == int(n) else n)
    new: dict[str, dict[str, Any]] = {}
    for key in data:
        if not key.startswith(NEW_PREFIX):
            continue
        name, _, control = key[len(NEW_PREFIX):].rpartition(".")
        if name and control in NEW_CONTROLS:
            _apply_new(new.setdefault(name, {}), control, data.get(key))
    new = {k: v for k, v in new.items() if v}
    if not new:
        return
    rollout = scenario.setdefault("rollout", {})
    if not isinstance(rollout, dict):
        return
    revision = rollout.setdefault("newRevision", {})
    containers = revision.setdefault("containers", {}) if isinstance(revision, dict) else None
    if isinstance(containers, dict):
        for name, entry in new.items():
            target = containers.setdefault(name, {})
            if isinstance(target, dict):
                target.update(entry)


def _apply_new(entry: dict[str, Any], control: str, value: str | None) -> None:
    """One control of the new revision's row: never Ready (its readiness probe keeps failing), crashes
    (every run exits 1 after a second: a crash loop), Ready only after N s (its probes fail until then)."""
    if control == "never_ready":
        if value in ("on", "true", "1"):
            entry["failingProbes"] = ["readiness"]
    elif control == "crashes":
        if value in ("on", "true", "1"):
            entry["runs"] = [{"runSeconds": 1, "exitCode": 1}]
    elif control == "startup":
        n = _number(value)
        if n is not None:
            entry["startupSeconds"] = int(n) if n == int(n) else n


def _apply(entry: dict[str, Any], control: str, value: str | None) -> None:
    if control == "ignore_term":
        if value in ("on", "true", "1"):
            entry["stopSeconds"] = "never"
        return
    n = _number(value)
    if n is None:
        return
    if control == "crashes" and n >= 1:
        crashes = min(int(n), MAX_CRASHES)
        entry["runs"] = [{"runSeconds": 1, "exitCode": 1}] * crashes + [{"runSeconds": entry.get("runSeconds", "forever")}]
    elif control == "startup":
        entry["startupSeconds"] = n
    elif control == "run":
        entry["runSeconds"] = n
        runs = entry.get("runs")
        if isinstance(runs, list) and runs:
            runs[-1] = {"runSeconds": n}


def scenario_as_yaml(scenario: dict[str, Any]) -> str:
    return yaml.safe_dump(scenario, sort_keys=False, allow_unicode=True) if scenario else ""
