"""The scenario that makes the prediction match the cluster: what "Make the prediction match" writes.

Each divergence says what reproduces it (divergence.py: runs that crash like the observed ones, a probe
that fails, a run that goes on, startupSeconds, a failed pull, the deletion); this merges them into the
scenario already in effect and stretches ``until`` past the end of the observation, so that the
explanation shows what comes next (the next back-off, CrashLoopBackOff at its cap).
The result is a plain mapping that `scenario.document.scenario_from_data` accepts.  docs/lifecycle-model.md §36.
"""
from __future__ import annotations

import math
from typing import Any

from .. import defaults as d
from ..scenario.document import Scenario
from .divergence import Divergence

AFTER = 600.0       # how far past the observation the reproducing scenario looks


def base_data(scenario: Scenario | dict[str, Any] | None) -> dict[str, Any]:
    """The scenario in effect as plain data (what the what-if form and the API send)."""
    if scenario is None:
        return {}
    if isinstance(scenario, dict):
        return {k: v for k, v in scenario.items()}
    out: dict[str, Any] = {}
    if scenario.kubernetes_version:
        out["kubernetesVersion"] = scenario.kubernetes_version
    for key, value in (("deleteAt", scenario.delete_at), ("deleteGracePeriodSeconds", scenario.delete_grace),
                       ("sandboxLostAt", scenario.sandbox_lost_at), ("until", scenario.until),
                       ("trafficPropagationSeconds", scenario.traffic_propagation)):
        if value is not None:
            out[key] = value
    if scenario.containers:
        out["containers"] = {k: dict(v) for k, v in scenario.containers.items()}
    if scenario.feature_gates:
        out["featureGates"] = dict(scenario.feature_gates)
    if scenario.max_restart_period is not None:
        out["crashLoopBackOff"] = {"maxContainerRestartPeriod": scenario.max_restart_period}
    if scenario.debug:
        out["debug"] = [{k: v for k, v in (("name", r.name), ("image", r.image), ("at", r.at),
                                            ("target", r.target), ("runSeconds", r.run_seconds)) if v is not None}
                        for r in scenario.debug]
    if scenario.image_updates:
        out["imageUpdates"] = [{"container": u.container, "image": u.image, "at": u.at}
                               for u in scenario.image_updates]
    return out


def scenario_for(divergences: list[Divergence], end: float | None,
                 scenario: Scenario | dict[str, Any] | None = None) -> dict[str, Any]:
    """The scenario in effect, with every reproducible divergence's entries merged in."""
    out = base_data(scenario)
    containers: dict[str, dict[str, Any]] = {k: dict(v) for k, v in (out.get("containers") or {}).items()}
    for div in divergences:
        if not div.reproducible:
            continue
        for key, value in div.scenario.items():
            if key == "containers":
                for name, entry in value.items():
                    merged = containers.setdefault(name, {})
                    for k, v in entry.items():
                        if k == "failingProbes" and v:
                            merged[k] = sorted(set(merged.get(k) or []) | set(v))
                        else:
                            merged[k] = v
            else:
                out[key] = value
    cleaned = {name: {k: v for k, v in entry.items() if v is not None} for name, entry in containers.items()}
    cleaned = {name: entry for name, entry in cleaned.items() if entry}
    if cleaned:
        out["containers"] = cleaned
    else:
        out.pop("containers", None)
    if end is not None and any(div.reproducible for div in divergences):
        wanted = math.ceil(end + AFTER)
        current = out.get("until")
        out["until"] = float(min(d.MAX_HORIZON_SECONDS, max(wanted, current or 0, d.DEFAULT_HORIZON_SECONDS)))
    return out
