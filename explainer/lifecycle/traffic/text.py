"""The words of the traffic lane (docs/lifecycle-model.md §27): what each interval and failure window
means, and the notes that name every assumption the lane rests on."""
from __future__ import annotations

from ..scenario.behaviour import Behaviour
from .deletion import DeletionRun
from ..commands.evidence import raw_at
from ..i18n import Text, gettext_noop as _
from ..model import Container, Pod
from .serving import Serving
from ..kubelet.simulate import Simulation

_NOT_READY = _("Not in the ready endpoints, or the change has not reached the proxies yet: no requests.")
_SERVING = _("The proxies send it requests from {t} s.")
_FALLBACK = _("Terminating, but still serving and no other endpoint is ready: kube-proxy keeps sending it "
              "requests (KEP-1669).")
_PUBLISHED = _("Terminating, but publishNotReadyAddresses keeps its endpoint ready: the proxies keep sending it "
                "requests until its containers have stopped.")
_DRAINING = _("Out of the ready endpoints since {t} s; the proxies still send it requests until the change "
              "reaches them ({p} s later).")
_GONE = _("The proxies no longer send it requests.")
_WINDOWS = {
    "sigterm": _("{c} stopped accepting requests at SIGTERM ({t} s), but the proxies send it requests from {a} s "
                 "to {z} s: those requests fail."),
    "killed": _("{c} was killed at {t} s (SIGKILL), but the proxies send it requests from {a} s to {z} s: those "
                "requests fail."),
    "exited": _("{c} exited at {t} s, but the proxies send it requests from {a} s to {z} s: those requests fail."),
    "not-listening-yet": _("The proxies send {c} requests from {a} s, before it listens ({z} s): those "
                           "requests fail."),
}


def unknown_hook(c: Container, b: Behaviour) -> bool:
    """Whether ``c``'s preStop is taken to end at once only because nothing says how long it takes (an
    httpGet hook, a script without a sleep) and it does not stop the program itself: it may well wait for
    the drain (contour's shutdown manager, `nodetool drain`)."""
    return (c.pre_stop is not None and c.pre_stop.handler != "sleep" and "preStopSeconds" in b.assumed
            and b.pre_stop_seconds == 0 and not b.pre_stop_stops)


def _s(t: float) -> str:
    return format(t, "g")


def interval_text(state: str, why: str, t: float, p: float) -> Text:
    """``why``: for serving after the deletion, "fallback" (KEP-1669) or "published" (publishNotReadyAddresses)."""
    if state == "serving":
        return Text({"fallback": _FALLBACK, "published": _PUBLISHED}[why]) if why else Text(_SERVING, {"t": _s(t)})
    if state == "draining":
        return Text(_DRAINING, {"t": _s(t), "p": _s(p)})
    return Text(_GONE if state == "gone" else _NOT_READY)


def window_text(reason: str, container: str, start: float, end: float, ended: float | None = None) -> Text:
    """``ended``: when its listening ended (SIGTERM, SIGKILL, the exit); the window may begin later."""
    return Text(_WINDOWS[reason], {"c": container, "a": _s(start), "z": _s(end), "t": _s(ended if ended is not None
                                                                                       else start)})


def notes_for(pod: Pod, serving: Serving, sim: Simulation, run: DeletionRun, p: float, p_assumed: bool,
              others: int, why: Text) -> list[Text]:
    """What the lane assumes and what the manifest does to it, in words."""
    notes: list[Text] = []
    names = ", ".join(serving.containers)
    if serving.assumed:
        notes.append(Text(_("No Service of this input selects the Pod: one is assumed to send requests to "
                            "{containers}, as to any long-running Pod that declares a port."), {"containers": names}))
    if p_assumed:
        notes.append(Text(_("An endpoint change is assumed to reach kube-proxy, ingress controllers and load "
                            "balancers {p} s after it happens (trafficPropagationSeconds sets it; a cloud load "
                            "balancer often needs far longer)."), {"p": _s(p)}))
    if not run.on_trace:
        notes.append(Text(_("The scenario deletes nothing, so the traffic shows the Pod deleted at {t} s, once "
                            "everything has started, as the findings assume (deleteAt sets another moment)."),
                          {"t": _s(run.at)}))
    for r in serving.missing:
        assert r.port is not None
        notes.append(Text(_("The Service {service} targets port {port}, which no container of this Pod declares: "
                            "its EndpointSlice lists the Pod without that port, so no request for it reaches the "
                            "Pod."), {"service": r.service, "port": r.port.target}))
    for r in serving.routes:
        if r.assumed and r.port is not None:
            notes.append(Text(_("No container declares port {port} of the Service {service}: {c} is taken to "
                                "listen on it."), {"port": r.port.target, "service": r.service, "c": r.container}))
    gates = raw_at(pod, tuple(pod.spec_path) + ("readinessGates",))
    if pod.readiness_gates:
        types = [str(g.get("conditionType")) for g in gates if isinstance(g, dict)] if isinstance(gates, list) else []
        notes.append(Text(_("The Pod has readinessGates ({types}): only a controller outside the kubelet sets those "
                            "conditions (a load balancer controller, for one, once the target is healthy). The "
                            "model assumes none does, so the Pod never becomes Ready."), {"types": ", ".join(types) or "?"}))
    if serving.publish_not_ready:
        notes.append(Text(_("{service} sets publishNotReadyAddresses: the Pod's endpoint is ready from the moment "
                            "it has an IP, before its containers run, and stays ready while it terminates, until "
                            "its containers have stopped."),
                          {"service": next(s.name for s in serving.services if s.publish_not_ready)}))
    killed_at = {e.container: e.t for e in reversed(sim.events) if e.type == "killed" and e.t >= run.at}
    for name in serving.containers:
        c = pod.container(name)
        b = sim.behaviours.get(name)
        if c is not None and c.readiness_probe is None and not serving.publish_not_ready:
            notes.append(Text(_("{c} has no readinessProbe: the Pod is Ready, and its endpoint ready, as soon as "
                                "{c} starts, before the program may be listening (the scenario's startupSeconds "
                                "says how long it takes)."), {"c": name}))
        if c is not None and b is not None and unknown_hook(c, b):
            notes.append(Text(_("{c}'s preStop hook is assumed to end at once ({why}); if it waits for the drain "
                                "itself, the scenario's preStopSeconds says how long, and the failure window at "
                                "the deletion moves or closes."), {"c": name, "why": b.assumed["preStopSeconds"]}))
        if b is not None and b.stop_seconds is None:
            killed = killed_at.get(name)
            if killed is not None:
                notes.append(Text(_("{c} ignores SIGTERM: it keeps listening until SIGKILL at {t} s, after the whole "
                                    "grace period; every deletion takes that long."), {"c": name, "t": _s(killed)}))
    if others == 0 and not serving.publish_not_ready:
        notes.append(Text(_("No other ready Pod serves while this one goes ({why}): kube-proxy keeps sending "
                            "requests to the terminating endpoint while it still serves (KEP-1669), and once it "
                            "stops the Service has no endpoint at all until a replacement is ready. A preStop "
                            "delay postpones that; only another ready replica prevents it."), {"why": why}))
    return notes
