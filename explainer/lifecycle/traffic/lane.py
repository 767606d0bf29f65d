"""When a Pod receives requests: its endpoint in the Service's EndpointSlice, the endpoint change reaching
kube-proxy, ingress controllers and load balancers, and the windows in which requests may arrive while
nothing listens (issue 22; docs/lifecycle-model.md §27).

``pod_traffic`` answers it for one Pod from the run that shows its deletion (deletion.py): the Pod's Ready
condition over time (the status timeline) gives the endpoint's conditions as the EndpointSlice controller
writes them (§27.2), the proxies act on each change ``propagation`` seconds later (§27.4) and use a
terminating endpoint only while no other is ready (§27.3); each served container listens from its start
(plus the scenario's ``startupSeconds``) until SIGTERM (a program that handles it stops accepting), SIGKILL
or its exit (§27.5).  A failure window is a stretch in which the proxies route requests to the Pod while
the container they are for does not listen.
"""
from __future__ import annotations

from typing import Any

from .. import defaults as d
from .deletion import DeletionRun, deletion_run
from ..i18n import Text, gettext_noop as _
from .intervals import INF, Span, covers, shift, spans_of, subtract
from ..model import Pod, ServiceRef
from ..scenario.document import Scenario
from .serving import Route, Serving, other_ready_replicas, serving_for
from ..kubelet.simulate import Simulation
from ..kubelet.trace import TraceEvent
from .text import interval_text, notes_for, window_text

from .states import DRAINING, EXITED, GONE, KILLED, NOT_LISTENING_YET, NOT_READY, SERVING, SIGTERM
from explainer.lifecycle.records import record
# At most this many intervals, endpoint rows and windows per Pod (a day of crash loops has thousands).
MAX_ROWS = 500
_TERMINAL = frozenset({"Succeeded", "Failed"})
_ENDS = {"terminating": SIGTERM, "killed": KILLED, "exited": EXITED}
_LISTENING = frozenset(_ENDS) | {"started"}


@record
class TrafficInterval:
    """From ``start`` to ``end`` (None: the end of the simulation) the proxies treat the Pod as ``state``."""

    start: float
    end: float | None
    state: str
    text: Text | None = None       # why, in words (the story and the tooltip)


@record
class EndpointConditions:
    """The Pod's endpoint in the EndpointSlice (discovery/v1, KEP-1672) from ``start`` on: its
    ``ready``, ``serving`` and ``terminating`` conditions as the EndpointSlice controller writes them."""

    start: float
    end: float | None
    ready: bool
    serving: bool
    terminating: bool


@record
class FailureWindow:
    """Requests may still arrive but nothing listens, from ``start`` to ``end``."""

    start: float
    end: float
    reason: str                    # a short id: why nothing listens (WINDOW_REASONS)
    container: str | None = None
    text: Text | None = None


@record
class Traffic:
    propagation_seconds: float
    propagation_assumed: bool      # no trafficPropagationSeconds in the scenario: the model's default
    services: tuple[str, ...]      # the Services of the input that select the Pod ("" for an assumed one)
    service_assumed: bool          # no Service of the input selects it: one is assumed (see §27)
    other_ready_replicas: int      # other ready endpoints while this Pod goes (KEP-1669's fallback)
    intervals: tuple[TrafficInterval, ...]
    endpoints: tuple[EndpointConditions, ...]
    failure_windows: tuple[FailureWindow, ...]
    notes: tuple[Text, ...] = ()
    deletion_at: float | None = None   # the deletion the lane shows
    deletion_assumed: bool = False     # the scenario deletes nothing: the model's deletion (deletion.py)
    containers: tuple[str, ...] = ()   # the containers that receive the requests
    routes: tuple[Route, ...] = ()     # each Service port and the container it reaches
    publish_not_ready: bool = False    # a selecting Service has publishNotReadyAddresses
    other_ready_why: Text | None = None

    def windows_at_deletion(self) -> tuple[FailureWindow, ...]:
        """The failure windows that the deletion opens (a preStop delay is what closes them)."""
        at = self.deletion_at
        return tuple(w for w in self.failure_windows if at is not None and w.start >= at and w.reason != NOT_LISTENING_YET)

    def jsonable(self) -> dict[str, Any]:
        """`pods[].traffic` of the JSON contract."""
        return {
            "propagationSeconds": self.propagation_seconds,
            "propagationAssumed": self.propagation_assumed,
            "services": list(self.services),
            "serviceAssumed": self.service_assumed,
            "otherReadyReplicas": self.other_ready_replicas,
            "publishNotReadyAddresses": self.publish_not_ready,
            "deletionAt": self.deletion_at,
            "deletionAssumed": self.deletion_assumed,
            "containers": list(self.containers),
            "routes": [{"service": r.service, "port": r.port.port if r.port else None,
                        "targetPort": r.port.target if r.port else None, "container": r.container}
                       for r in self.routes],
            "intervals": [{"from": i.start, "to": i.end, "state": i.state} for i in self.intervals],
            "endpoints": [{"from": e.start, "to": e.end, "ready": e.ready, "serving": e.serving,
                           "terminating": e.terminating} for e in self.endpoints],
            "failureWindows": [{"from": w.start, "to": w.end, "reason": w.reason, "container": w.container}
                               for w in self.failure_windows],
            "notes": [str(n) for n in self.notes],
        }


def pod_traffic(pod: Pod, scenario: Scenario, simulation: Simulation | None, services: tuple[ServiceRef, ...],
                version: str, deletion: DeletionRun | None = None) -> Traffic | None:
    """The traffic of ``pod`` (None: no Service, of the input or assumed, would select it, or it was not
    simulated).  ``deletion`` is the run that shows its deletion, when the caller already has it."""
    if simulation is None:
        return None
    serving = serving_for(pod, services)
    if serving is None:
        return None
    run = deletion or deletion_run(pod, scenario, simulation, version)
    return traffic_for(pod, scenario, run, serving)


def traffic_for(pod: Pod, scenario: Scenario, run: DeletionRun, serving: Serving) -> Traffic:
    sim = run.simulation
    propagation = scenario.traffic_propagation
    p = d.TRAFFIC_PROPAGATION_SECONDS if propagation is None else propagation
    others, why = other_ready_replicas(pod, scenario)
    endpoints, usable, terminal = _endpoint(sim, run.at, serving.publish_not_ready, others)
    if not serving.containers:
        usable = []   # no port of the Service reaches a container: the endpoint has no port (FindPort)
    routed = shift(usable, p)
    ready = [(e.start, INF if e.end is None else e.end) for e in endpoints if e.ready]
    intervals = _intervals(routed, usable, ready, run.at, terminal, p)
    # crash loops jumped over (fastforward.py) left no events: their windows, repeats of those before, are not listed
    skipped = [(f.at, f.at + f.shift) for f in sim.fast_forwards]
    served = subtract(routed, skipped)
    events: dict[str, list[TraceEvent]] = {name: [] for name in serving.containers}
    for e in sim.events:   # one pass: a Pod of hundreds of served containers stays linear
        if e.container in events and e.type in _LISTENING:
            events[e.container].append(e)
    windows: list[FailureWindow] = []
    for name in serving.containers:
        windows.extend(_windows(sim, name, events[name], served))
    windows.sort(key=lambda w: (w.start, w.container or ""))
    notes = notes_for(pod, serving, sim, run, p, propagation is None, others, why)
    if skipped:
        notes.append(Text(_("Steady crash loops were jumped over from {a} s to {b} s: the failure windows of those "
                            "cycles, the same as the ones before, are not listed."),
                          {"a": format(skipped[0][0], "g"), "b": format(skipped[-1][1], "g")}))
    truncated = max(len(intervals), len(endpoints), len(windows)) > MAX_ROWS
    if truncated:
        notes.append(Text(_("The traffic lists its first {n} intervals, endpoint changes and failure windows; "
                            "the rest repeat the same cycle."), {"n": MAX_ROWS}))
    return Traffic(
        propagation_seconds=p, propagation_assumed=propagation is None,
        services=tuple(s.name for s in serving.services) or ("",), service_assumed=serving.assumed,
        other_ready_replicas=others, intervals=tuple(intervals[:MAX_ROWS]), endpoints=tuple(endpoints[:MAX_ROWS]),
        failure_windows=tuple(windows[:MAX_ROWS]), notes=tuple(notes), deletion_at=run.at,
        deletion_assumed=not run.on_trace, containers=serving.containers, routes=serving.routes,
        publish_not_ready=serving.publish_not_ready, other_ready_why=why)


def _endpoint(sim: Simulation, deleted: float, publish: bool,
              others: int) -> tuple[list[EndpointConditions], list[Span], float | None]:
    """The endpoint's conditions over time (`podToEndpoint`), the spans in which kube-proxy would use it
    (`CategorizeEndpoints`: ready, or serving and terminating while no other endpoint is ready), and
    when the Pod's phase became terminal (it leaves the EndpointSlice: `ShouldPodBeInEndpoints`)."""
    ip = next((e.t for e in sim.events if e.type == "sandbox_ready"), None)
    terminal = next((pt.t for pt in sim.timeline if pt.phase in _TERMINAL), None)
    if ip is None:
        return [], [], terminal
    ready = spans_of((pt.t, pt.ready) for pt in sim.timeline)
    end = terminal if terminal is not None else INF
    cuts = sorted({t for t in (ip, deleted) if ip <= t < end} | {t for span in ready for t in span if ip <= t < end})
    rows: list[EndpointConditions] = []
    usable: list[Span] = []
    for i, t in enumerate(cuts):
        nxt = cuts[i + 1] if i + 1 < len(cuts) else end
        serving = covers(ready, t)
        terminating = t >= deleted
        is_ready = publish or (serving and not terminating)
        row = EndpointConditions(t, None if nxt == INF else nxt, is_ready, serving, terminating)
        if rows and (rows[-1].ready, rows[-1].serving, rows[-1].terminating) == (is_ready, serving, terminating):
            rows[-1] = EndpointConditions(rows[-1].start, row.end, is_ready, serving, terminating)
        else:
            rows.append(row)
        if is_ready or (serving and terminating and others == 0):
            if usable and usable[-1][1] == t:
                usable[-1] = (usable[-1][0], nxt)
            else:
                usable.append((t, nxt))
    return rows, usable, terminal


def _intervals(routed: list[Span], usable: list[Span], ready: list[Span], deleted: float, terminal: float | None,
               p: float) -> list[TrafficInterval]:
    """The proxies' view: serving (they route to it and it is usable), draining (they still route to it, the
    change has not reached them), gone (no longer routed, after the deletion or the end), not-ready.
    Serving on after the deletion is an interval of its own: through KEP-1669's fallback (usable, not
    ready), or because publishNotReadyAddresses keeps a terminating endpoint ready."""
    ends = [t for span in routed + usable for t in span if t != INF]
    cuts = sorted({0.0, deleted} | ({terminal} if terminal is not None else set()) | {t for t in ends if t >= 0})
    out: list[TrafficInterval] = []
    last: tuple[str, str] | None = None
    for t in cuts:
        on, fit = covers(routed, t), covers(usable, t)
        after = t >= deleted or (terminal is not None and t >= terminal)
        state = (SERVING if fit else DRAINING) if on else (GONE if after else NOT_READY)
        why = ("published" if covers(ready, t) else "fallback") if state == SERVING and t >= deleted else ""
        if (state, why) == last:
            continue
        last = (state, why)
        if out:
            out[-1] = TrafficInterval(out[-1].start, t, out[-1].state, out[-1].text)
        out.append(TrafficInterval(t, None, state, interval_text(state, why, t, p)))
    return out


def _windows(sim: Simulation, name: str, events: list[TraceEvent], routed: list[Span]) -> list[FailureWindow]:
    """Where the proxies route requests to the Pod while ``name`` does not listen, each with the reason
    its listening ended (or not-listening-yet before it first listens)."""
    b = sim.behaviours.get(name)
    warm = b.startup_seconds if b is not None else 0.0
    handles_sigterm = b is None or b.stop_seconds is not None
    listening: list[Span] = []
    ended: list[tuple[float, str]] = []
    start: float | None = None
    for e in events:
        if e.type == "started":
            start = e.t + warm
        elif start is not None and e.type in _ENDS and (e.type != "terminating" or handles_sigterm):
            if e.t > start:
                listening.append((start, e.t))
            ended.append((e.t, _ENDS[e.type]))
            start = None
    if start is not None:
        listening.append((start, INF))
    out = []
    for a, z in subtract(routed, listening):
        z = sim.end_time if z == INF else z
        if z <= a:
            continue
        last = next(((t, r) for t, r in reversed(ended) if t <= a), None)
        reason = last[1] if last is not None else NOT_LISTENING_YET
        out.append(FailureWindow(a, z, reason, name, window_text(reason, name, a, z, last[0] if last else None)))
    return out
