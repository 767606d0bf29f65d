"""The deletion a question about stopping is answered with: the scenario's own, or one the model assumes.

The findings that state what a deletion does (docs/lifecycle-model.md §4.4) and the traffic lane (§27.6)
read the same run, so they cannot disagree: the scenario's ``deleteAt`` when it deletes the Pod (the
timeline's own trace), else the same model deleting the Pod once everything has started (the last start,
readiness or hook end of the trace) and, for a Pod that becomes Ready, once that has reached the proxies
(its first Ready plus the propagation time, §27.4), plus 1 s; simulated once more without ``until`` and
without a sandbox loss.  Before that moment the assumed run's events are the timeline's: the simulation is
deterministic and nothing differs until the deletion.
"""
from __future__ import annotations

import dataclasses

from .. import defaults as d
from ..model import Pod
from ..scenario.document import Scenario
from ..kubelet.simulate import Simulation, simulate
from ..kubelet.trace import TraceEvent
from explainer.lifecycle.records import record

# Events after which a Pod counts as "everything has started".
_STARTED = frozenset({"started", "ready", "poststart_done", "startup_probe_ok"})
ASSUMED_DELETION_DELAY = 1.0   # seconds after the last start: the deletion comes once the Pod has settled


@record
class DeletionRun:
    at: float                      # when the Pod is deleted (deletionTimestamp)
    simulation: Simulation         # the run that shows it: the timeline's own, or the assumed deletion's
    on_trace: bool                 # True: the scenario's deleteAt, on the timeline's trace

    @property
    def events(self) -> list[TraceEvent]:
        return self.simulation.events


def assumed_deletion_time(simulation: Simulation, propagation: float | None = None) -> float:
    """Once everything has started (the last start, ready or hook end of the trace) and the Pod's first
    Ready has reached the proxies (``propagation`` seconds later), plus 1 s."""
    started = max((e.t for e in simulation.events if e.type in _STARTED), default=0.0)
    ready = next((p.t for p in simulation.timeline if p.ready), None)
    p = d.TRAFFIC_PROPAGATION_SECONDS if propagation is None else propagation
    return max(started, ready + p if ready is not None else 0.0) + ASSUMED_DELETION_DELAY


def deletion_run(pod: Pod, scenario: Scenario, simulation: Simulation, version: str) -> DeletionRun:
    """The scenario's deletion when ``simulation`` (the timeline's run) has one, else the assumed one."""
    at = next((e.t for e in simulation.events if e.type == "delete_requested"), None)
    if at is not None:
        return DeletionRun(at, simulation, True)
    at = assumed_deletion_time(simulation, scenario.traffic_propagation)
    assumed = dataclasses.replace(scenario, delete_at=at, until=None, sandbox_lost_at=None)
    # the same scenario entries, so the containers' behaviours are the timeline's: not resolved again
    run = simulate(pod, assumed, container_restart_rules=any(c.restart_rules for c in pod.all_containers),
                   version=version, behaviours=simulation.behaviours)
    return DeletionRun(at, run, False)
