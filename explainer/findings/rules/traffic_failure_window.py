"""The `traffic-failure-window` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.traffic.text import unknown_hook

from ..base import Finding, RuleContext, Severity, TraceTime, fill
from ..docstring import rule_docstring
from ..drain import has_sleep_action, propagation, sleep_hook, sleep_seconds
from ..i18n import Text, gettext_noop
from ..patch import SetKey, path_of

if TYPE_CHECKING:   # a type only: the lane is read when a Service selects the Pod (RuleContext.traffic)
    from explainer.lifecycle.traffic.lane import FailureWindow

ID = "traffic-failure-window"
TITLE = gettext_noop("Requests reach a container that has stopped listening")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["pod-lifecycle"] + "#pod-termination"
REFERENCES = ("https://github.com/kubernetes/enhancements/tree/master/keps/sig-network/1669-proxy-terminating-endpoints",
              "https://github.com/kubernetes/enhancements/tree/master/keps/sig-network/1672-tracking-terminating-endpoints",
              "https://github.com/kubernetes/kubernetes/issues/43576")
WHAT = gettext_noop("At a deletion the proxies still send requests to a container that no longer listens: "
                    "those requests fail.")
WHY = gettext_noop(
    "When a Pod is deleted its endpoint stops being ready at once, at the moment the kubelet starts "
    "preStop; kube-proxy, ingress controllers and load balancers act on that change only after it has "
    "reached them. A container that stops listening before then (its preStop is shorter than that, its "
    "preStop stops the program, or the grace period ends first) refuses the requests routed to it in "
    "the meantime, on every rollout, scale-down and drain.")
FIX_TEXT = gettext_noop(
    "A preStop `sleep` action (an `exec` of `sleep` before 1.30) at least as long as the endpoint change "
    "takes to reach the proxies (trafficPropagationSeconds, 5 s assumed), inside "
    "terminationGracePeriodSeconds; whatever the hook did to stop the program comes after the sleep.")
FIRES_WHEN = gettext_noop(
    "the traffic lane (a Service of the input selects the Pod: a warning; an assumed one: info) shows "
    "requests routed to a container with a preStop hook after it stopped listening at the deletion (at "
    "SIGTERM, at SIGKILL, or stopped by the hook itself), while other ready Pods serve the Service.")
QUIET_WHEN = gettext_noop(
    "the container has no preStop hook (service-without-prestop-drain speaks for it), its preStop "
    "lasts until the change has reached the proxies, it ignores SIGTERM and listens until after that, "
    "no other ready Pod serves while it goes (a lone Pod fails either way: the lane says so, and only "
    "another replica helps), a Service with publishNotReadyAddresses keeps its endpoint ready until "
    "it stops, or how long its preStop takes is unknown (an httpGet, or a script without a sleep that "
    "may itself wait for the drain: the lane's note says preStopSeconds sets it).")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
- name: $name
  lifecycle:
    preStop:     # at least as long as the endpoint change takes to reach the proxies
      $hook
"""
FIX_WITH_GRACE = """
spec:
  terminationGracePeriodSeconds: $grace   # the sleep, the shutdown after SIGTERM, and a margin
  containers:
    - name: $name
      lifecycle:
        preStop:     # at least as long as the endpoint change takes to reach the proxies
          $hook
"""
EXAMPLE = {"hook": "sleep: {seconds: 5}"}
GRACE_MARGIN = 5   # seconds beyond the sleep and the shutdown, when the grace period must grow

_ENDS = {"sigterm": gettext_noop("stops accepting requests at SIGTERM"),
         "killed": gettext_noop("is killed (SIGKILL)"),
         "exited": gettext_noop("exits, stopped by its own preStop hook,")}


def check(ctx: RuleContext) -> Iterator[Finding]:
    pod, traffic = ctx.pod, ctx.traffic
    if pod.batch or traffic is None or traffic.other_ready_replicas == 0 or traffic.publish_not_ready:
        return   # alone, or kept ready by publishNotReadyAddresses until it stops: no preStop helps
        # (docs/lifecycle-model.md §27.5)
    on_trace = {e.t for e in ctx.simulation.events} if ctx.simulation is not None else set()
    first: dict[str, FailureWindow] = {}
    for w in traffic.windows_at_deletion():
        if w.container is not None:
            first.setdefault(w.container, w)
    for name, w in first.items():
        c = pod.container(name)
        if c is None or c.pre_stop is None:
            continue   # no hook at all: service-without-prestop-drain's case
        b = ctx.behaviour(c)
        if w.reason == "exited" and not b.pre_stop_stops:
            continue   # it ends on its own (a crash): the lane shows it, but no preStop would help
        if unknown_hook(c, b):
            continue   # an httpGet, or a script with no sleep, taken to end at once: it may wait for the drain
        seconds = sleep_seconds(ctx)
        stop = b.stop_seconds
        grace = pod.termination_grace_period
        needed = seconds + (stop or 0) + GRACE_MARGIN
        explanation = Text(gettext_noop(
            "{c} {ends} {when}, but the proxies send it requests until {until}: the endpoint change takes "
            "{p} s to reach them (trafficPropagationSeconds{assumed}). Requests routed to it in those {n} s "
            "fail. A preStop sleep of {s} s keeps it serving until the change has reached them{grace}."),
            {"c": name, "ends": Text(_ENDS[w.reason]),
             "when": _when(traffic.deletion_at, w.start, traffic.deletion_assumed, w.start in on_trace),
             "until": _until(traffic.deletion_at, w.end, traffic.deletion_assumed),
             "p": format(propagation(ctx), "g"),
             "assumed": Text(gettext_noop(", assumed")) if traffic.propagation_assumed else "",
             "n": format(w.end - w.start, "g"), "s": seconds,
             "grace": Text(gettext_noop("; with the shutdown after it, that needs terminationGracePeriodSeconds "
                                        "{g}"), {"g": needed}) if seconds + (stop or 0) > grace else ""})
        hook = sleep_hook(ctx.version, seconds)
        fix = (fill(FIX_WITH_GRACE, name=name, hook=hook, grace=needed) if seconds + (stop or 0) > grace
               else fill(FIX, name=name, hook=hook))
        # fixable when the hook is already a sleep action and a longer one fits the grace period: the
        # hook then did nothing else a person must keep
        patch = None
        if (c.pre_stop.handler == "sleep" and has_sleep_action(ctx.version) and stop is not None
                and seconds + stop <= grace):
            patch = (SetKey(path_of(c.path) + ("lifecycle", "preStop", "sleep", "seconds"), seconds),)
        yield ctx.finding(ID, c, ctx.container_path(c, "lifecycle.preStop"), explanation, fix, patch=patch,
                          severity=Severity.INFO if traffic.service_assumed else None)


def _until(deleted: float | None, t: float, assumed: bool) -> Text:
    if assumed or deleted is None:
        return Text(gettext_noop("{n} s after the deletion"), {"n": format(t - (deleted or 0.0), "g")})
    return Text(gettext_noop("{t} s"), {"t": format(t, "g")})


def _when(deleted: float | None, t: float, assumed: bool, on_trace: bool = True) -> Text:
    """A moment of the lane: on the timeline when the scenario deletes the Pod, else after the deletion."""
    if deleted is not None and t == deleted:
        return Text(gettext_noop("at the deletion"))
    if assumed or deleted is None:
        return Text(gettext_noop("{n} s after the deletion"), {"n": format(t - (deleted or 0.0), "g")})
    return Text(gettext_noop("at {t} s"), {"t": TraceTime(t) if on_trace else format(t, "g")})
