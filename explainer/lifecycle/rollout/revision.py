"""What one Pod of a template revision does, learnt once from the kubelet model (docs/lifecycle-model.md §26).

A rollout of N replicas needs every Pod's readiness and every old Pod's deletion, but all the Pods of one
revision behave alike: the template is simulated once (`simulate.simulate`, the same engine as the Pod's own
timeline), from its creation until a deletion late in the horizon.  What that run says is kept as a
`Revision`: when the Pod's Ready condition is True (intervals after its creation: a revision that crashes is
Ready only in between), and how long it takes from the deletion until every container has stopped (preStop,
the stop signal, the grace period, SIGKILL; §12).  The controllers' arithmetic over N Pods then only shifts
these intervals by each Pod's creation time.
"""
from __future__ import annotations

import bisect
import dataclasses
from typing import Any

from .. import defaults as d
from ..i18n import Text, gettext_noop as _
from ..model import Pod
from ..scenario.document import Scenario
from ..kubelet.simulate import simulate
from explainer.lifecycle.records import record

INF = float("inf")
HORIZON = d.MAX_HORIZON_SECONDS      # the longest a revision is known after its creation
FIRST_HORIZON = 900.0                # tried first: a rollout that needs more is run again with HORIZON
_DELETION_MARGIN = 60.0              # room after the grace period for the last kill to finish


@record
class Revision:
    """One revision's Pod, seconds after its creation (its creation is the kubelet's t = 0: scheduling is
    taken to be immediate, §26)."""

    ready: tuple[tuple[float, float], ...]   # Ready condition True from a to b (b = INF: stays Ready)
    gone_after: float                        # from its deletion until every container has stopped
    steady_ready: bool                       # Ready long after it started (an old Pod's state at t = 0)
    horizon: float                           # readiness is known until this long after creation
    notes: tuple[Text, ...] = ()

    @property
    def first_ready(self) -> float | None:
        return self.ready[0][0] if self.ready else None

    def ready_at(self, age: float) -> bool:
        return self.ready_since(age) is not None

    def ready_since(self, age: float) -> float | None:
        """The age at which the Ready interval holding ``age`` began (None: not Ready at ``age``)."""
        i = bisect.bisect_right(self.ready, (age, INF)) - 1
        if i >= 0 and self.ready[i][0] <= age < self.ready[i][1]:
            return self.ready[i][0]
        return None

    def transitions(self, lag: float) -> tuple[float, ...]:
        """Every age at which the Pod turns Ready, available (``lag`` after Ready) or no longer Ready."""
        out: list[float] = []
        for a, b in self.ready:
            out.append(a)
            if lag and a + lag < b:
                out.append(a + lag)
            if b != INF:
                out.append(b)
        return tuple(out)


def merged_containers(scenario: Scenario, overrides: dict[str, dict[str, Any]] | None) -> dict[str, dict[str, Any]]:
    """The scenario's container behaviours with ``overrides`` (the rollout's newRevision) on top, key by key."""
    out = {name: dict(spec) for name, spec in scenario.containers.items()}
    for name, spec in (overrides or {}).items():
        out[name] = {**out.get(name, {}), **spec}
    return out


def learn(pod: Pod, scenario: Scenario, version: str, *, container_restart_rules: bool = False,
          containers: dict[str, dict[str, Any]] | None = None, horizon: float = HORIZON) -> Revision:
    """Simulate ``pod`` once (its containers behaving as ``containers``, else as the scenario says) from its
    creation to a deletion near the end of ``horizon``, and keep what the controllers need."""
    grace = float(pod.termination_grace_period)
    delete_at = max(horizon - grace - _DELETION_MARGIN, horizon / 2)
    run = dataclasses.replace(
        scenario, containers=scenario.containers if containers is None else containers,
        delete_at=delete_at, delete_grace=None, sandbox_lost_at=None, until=horizon, debug=(), image_updates=())
    sim = simulate(pod, run, container_restart_rules=container_restart_rules, version=version)
    intervals: list[tuple[float, float]] = []
    since: float | None = None
    for point in sim.timeline:
        if point.t >= delete_at:
            break
        if point.ready and since is None:
            since = point.t
        elif not point.ready and since is not None:
            if point.t > since:
                intervals.append((since, point.t))
            since = None
    steady = since is not None
    if since is not None:
        intervals.append((since, INF))
    gone_after = max(0.0, (sim.end_time if sim.end_time is not None else delete_at) - delete_at)
    notes: list[Text] = []
    if not intervals:
        notes.append(Text(_("A Pod of this revision never becomes Ready (its own timeline shows why), so it never "
                            "counts as available.")))
    elif len(intervals) > 1 or intervals[-1][1] != INF:
        a, b = intervals[0]
        notes.append(Text(_("A Pod of this revision is Ready from {a} s to {b} s after it is created and then "
                            "loses its Ready condition (a container stops or fails a probe); it counts as "
                            "available only while it is Ready."), {"a": f"{a:g}", "b": f"{b:g}"}))
    return Revision(tuple(intervals), gone_after, steady, delete_at, tuple(notes))


def synthetic(ready_after: float | None, gone_after: float, *, ready: tuple[tuple[float, float], ...] | None = None,
              steady_ready: bool = True) -> Revision:
    """A revision stated directly (tests, what-if tools): Ready ``ready_after`` seconds after creation and
    from then on (None: never), or the explicit ``ready`` intervals; ``gone_after`` seconds to stop."""
    if ready is None:
        ready = () if ready_after is None else ((float(ready_after), INF),)
    return Revision(tuple(ready), float(gone_after), steady_ready, HORIZON)
