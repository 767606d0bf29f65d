"""What the two simulations' events differ in, container by container and for the Pod (issue 25).

The summary of a comparison is read off the two runs, not matched against known patterns: when each
container of both sides first becomes Ready, is first stopped by the kubelet, first exits and last exits
(with the exit code), which role it has, the Pods' grace periods and the deletion (when it is asked for, the
grace period it uses, how long until the last container has exited), kubectl's STATUS column as it changes,
and when the Pod's Ready condition turns false again.  `first_difference` is the last resort: the first
event that differs, for runs that differ in nothing named here.
"""
from __future__ import annotations

from collections.abc import Iterable

from ..explain import PodReport
from ..lifecycle.scenario.document import Scenario
from ..lifecycle.kubelet.trace import EventKind, TraceEvent
from .model import EPS, DeletionChange, MomentChange, RoleChange, StartChange

MOMENT_KINDS = ("ready", "stopping", "exited", "ended")
# the events that begin a container's stop: its preStop hook, the stop signal, or SIGKILL with no signal before
_STOPPING = frozenset({EventKind.PRESTOP_STARTED, EventKind.TERMINATING, EventKind.KILLED})
_TERMINAL = frozenset({"Succeeded", "Failed"})

Seen = tuple[float, int | None]      # when, and the exit code of an exit


def _lives(report: PodReport) -> dict[str, dict[str, Seen]]:
    """Per container, the first time of each moment (one pass over the events)."""
    out: dict[str, dict[str, Seen]] = {}
    sim = report.simulation
    if sim is None:
        return out
    last_exit: dict[str, Seen] = {}
    runs_again: dict[str, bool] = {}
    for e in sim.events:
        name = e.container
        if name is None:
            continue
        seen = out.setdefault(name, {})
        if e.type == EventKind.READY:
            seen.setdefault("ready", (e.t, None))
        elif e.type in _STOPPING:
            seen.setdefault("stopping", (e.t, None))
        elif e.type == EventKind.EXITED:
            seen.setdefault("exited", (e.t, e.exit_code))
            last_exit[name] = (e.t, e.exit_code)
            runs_again[name] = False
        elif e.type == EventKind.STARTED and name in last_exit:
            runs_again[name] = True
    for name, last in last_exit.items():
        if not runs_again[name]:
            out[name]["ended"] = last
    return out


def moment_changes(lr: PodReport, rr: PodReport, starts: Iterable[StartChange]) -> list[MomentChange]:
    """Every moment of every container on both sides, before and after, in lane order (the right side's)."""
    before, after = _lives(lr), _lives(rr)
    starts = [s for s in starts if s.in_before and s.in_after and s.changed]
    start_delta = {s.container: s.delta for s in starts}
    # a side where the container never starts has none of its moments: the start's sentence says so
    never = {s.container: (s.before is None, s.after is None) for s in starts if s.delta is None}
    names = [c.name for c in rr.pod.all_containers if any(x.name == c.name for x in lr.pod.all_containers)]
    out = []
    for name in names:
        b, a = before.get(name, {}), after.get(name, {})
        for kind in MOMENT_KINDS:
            if kind == "ended" and ((b.get("ended") == b.get("exited") and a.get("ended") == a.get("exited"))
                                    or "exited" not in b or "exited" not in a):
                continue                  # its one exit, or a side with none: told as "exited"
            tb, ta = b.get(kind), a.get(kind)
            change = MomentChange(name, kind, tb[0] if tb else None, ta[0] if ta else None,
                                  tb[1] if tb else None, ta[1] if ta else None)
            shift = start_delta.get(name)
            none_b, none_a = never.get(name, (False, False))
            if ((shift is not None and change.delta is not None and abs(change.delta - shift) <= EPS
                    and change.code_before == change.code_after)
                    or (none_b and change.before is None) or (none_a and change.after is None)):
                change = MomentChange(name, kind, change.before, change.after, change.code_before,
                                      change.code_after, with_start=True)
            out.append(change)
    return out


def role_changes(lr: PodReport, rr: PodReport) -> list[RoleChange]:
    before = {c.name: c.role for c in lr.pod.all_containers}
    return [RoleChange(c.name, before[c.name], c.role) for c in rr.pod.all_containers
            if c.name in before and before[c.name] != c.role]


def deletion(lr: PodReport, rr: PodReport, sb: Scenario, sa: Scenario) -> DeletionChange | None:
    """The deletion of each side (None when neither side is deleted)."""
    rb, ra = _requested(lr), _requested(rr)
    if rb is None and ra is None:
        return None
    return DeletionChange(rb, ra, _grace(lr, sb) if rb is not None else None,
                          _grace(rr, sa) if ra is not None else None, _ended(lr, rb), _ended(rr, ra))


def _requested(r: PodReport) -> float | None:
    if r.simulation is None:
        return None
    return next((e.t for e in r.simulation.events if e.type == EventKind.DELETE_REQUESTED), None)


def _grace(r: PodReport, scenario: Scenario) -> int:
    # the grace period the deletion uses: the scenario's, else the Pod's (scenario_actions.py `_delete`)
    return scenario.delete_grace if scenario.delete_grace is not None else r.pod.termination_grace_period


def _ended(r: PodReport, requested: float | None) -> float | None:
    """When the Pod is over after the deletion: its phase Succeeded or Failed (the request's own time when
    it already was)."""
    if requested is None or r.simulation is None:
        return None
    timeline = r.simulation.timeline
    if timeline and timeline[-1].phase not in _TERMINAL:
        return None
    for p in timeline:
        if p.t >= requested - EPS and p.phase in _TERMINAL:
            return p.t
    return requested


def status_sequence(r: PodReport) -> tuple[str, ...]:
    """kubectl's STATUS column as it changes over the run, each value once per change."""
    out: list[str] = []
    if r.simulation is not None:
        for p in r.simulation.timeline:
            if not out or out[-1] != p.status:
                out.append(p.status)
    return tuple(out)


def ready_lost(r: PodReport) -> float | None:
    """When the Pod's Ready condition first turns false again after it was true (None: never)."""
    if r.simulation is None:
        return None
    was = False
    for p in r.simulation.timeline:
        if p.ready:
            was = True
        elif was:
            return p.t
    return None


def _signature(e: TraceEvent) -> tuple[float, str | None, str, int | None, str | None]:
    return (round(e.t, 6), e.container, e.type, e.exit_code, e.reason)


def first_difference(lr: PodReport, rr: PodReport) -> tuple[TraceEvent | None, TraceEvent | None] | None:
    """The first events in which the two runs differ (None on a side that has no more), or None when both
    runs have the same events."""
    eb = lr.simulation.events if lr.simulation is not None else []
    ea = rr.simulation.events if rr.simulation is not None else []
    for x, y in zip(eb, ea):
        if _signature(x) != _signature(y):
            return x, y
    if len(eb) == len(ea):
        return None
    return (eb[len(ea)] if len(eb) > len(ea) else None, ea[len(eb)] if len(ea) > len(eb) else None)
