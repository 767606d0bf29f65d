"""What the cluster shows: kubectl's output read, aligned with the prediction, and every difference explained.

`read_observed` reads pasted text (observed/read/paste.py); `observe` compares it with one Pod's prediction and
returns the `ObservedReport` of the JSON contract's ``pods[].observed``, with the scenario that
reproduces what differs (reproduce.py).  docs/lifecycle-model.md §34 (reading), §35 (kubectl's
columns, one time axis) and §36 (divergences).
"""
from __future__ import annotations

from typing import Any

from ..i18n import Text
from ..model import Pod
from ..scenario.document import Scenario
from ..kubelet.simulate import Simulation
from . import report as r
from .divergence import Divergence, compare
from .lanes import lanes
from .model import Observation
from .read.paste import read_observed
from .read.objects import snapshot
from .report import ObservedReport
from .reproduce import scenario_for
from .view import build, choose, observed_names
from .model import SpecInfo

__all__ = ["Divergence", "Observation", "ObservedReport", "observe", "read_observed", "scenario_for", "snapshot"]

COARSE_SLACK = 60.0


def spec_of(pod: Pod) -> SpecInfo:
    return SpecInfo(tuple((c.name, c.role == "sidecar") for c in pod.init_containers),
                    tuple(c.name for c in pod.containers), pod.readiness_gates, pod.restart_policy)


def observe(obs: Observation, pod: Pod, sim: Simulation | None, scenario: Scenario | dict[str, Any] | None = None,
            only_pod: bool = True) -> ObservedReport:
    """The observation of ``pod`` in ``obs`` compared with its prediction ``sim``; ``only_pod``: the
    manifest holds this one Pod, so a paste about a differently named Pod is still taken as its."""
    name, others = choose(obs, pod.name, only_pod)
    roles = {c.name: c.role for c in pod.all_containers}
    notes: list[Text] = []
    if name is None and observed_names(obs):
        return ObservedReport(None, [], None, {}, None, [], list(obs.unread), obs.unread_more,
                              notes=[Text(r.NOTHING)] + _unread_note(obs))
    view = build(obs, name, spec_of(pod), roles)
    if others:
        notes.append(Text(r.OTHERS, {"names": ", ".join(others[:5]) + (" …" if len(others) > 5 else ""),
                                     "chosen": name}))
    if name is not None and name != pod.name and not name.startswith(pod.name + "-"):
        notes.append(Text(r.RENAMED, {"observed": name, "pod": pod.name}))
    notes += r.honesty(view)
    if any(w.slack >= COARSE_SLACK for w in _slacks(obs)):
        notes.append(Text(r.COARSE))
    divergences: list[Divergence] = []
    if sim is None:
        notes.append(Text(r.NOT_SIMULATED))
    else:
        if view.end is not None and view.end > sim.until:
            notes.append(Text(r.BEYOND, {"end": f"{view.end:g}", "until": f"{sim.until:g}"}))
        delete_at = scenario.delete_at if isinstance(scenario, Scenario) else (scenario or {}).get("deleteAt")
        divergences = compare(view, pod, sim, delete_at)
    notes += [n for n in obs.notes] + _unread_note(obs)
    counts = {n: cv.status.restart_count for n, cv in view.containers.items()
              if cv.status is not None and cv.status.restart_count is not None}
    sources = [obs.sources[i] for i in view.sources if i < len(obs.sources)]
    return ObservedReport(name, sources, view.columns, counts, view, divergences, list(obs.unread), obs.unread_more,
                          lanes(view), notes, scenario_for(divergences, view.end, scenario))


def _unread_note(obs: Observation) -> list[Text]:
    n = len(obs.unread) + obs.unread_more
    return [Text(r.UNREAD, {"n": n})] if n else []


def _slacks(obs: Observation) -> list:
    out = [e.first for e in obs.events if e.first is not None] + [e.last for e in obs.events if e.last is not None]
    out += [row.age for row in obs.rows if row.age is not None]
    return out
