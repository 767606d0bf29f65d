"""The `service-without-prestop-drain` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

import math
import re
from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.model import Container, ServiceRef
from explainer.lifecycle.traffic.serving import other_ready_replicas

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..drain import failing_containers, has_sleep_action, sleep_hook, sleep_seconds
from ..i18n import Text, gettext_noop
from ..patch import SetKey, path_of

ID = "service-without-prestop-drain"
TITLE = gettext_noop("Served container without a preStop drain")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["pod-lifecycle"] + "#pod-termination"
REFERENCES = (DOCS["hooks"], "https://github.com/kubernetes/kubernetes/issues/43576",
              "https://github.com/kubernetes/kubernetes/issues/67592",
              "https://github.com/kubernetes/enhancements/pull/3961")
WHAT = gettext_noop("A container that serves a Service has no preStop delay: rollouts drop in-flight requests.")
WHY = gettext_noop(
    "Deleting a Pod starts two things at once that do not wait for each other: the kubelet runs "
    "preStop and then sends SIGTERM, while the endpoints controller, kube-proxy on every node and any "
    "load balancer or ingress remove the Pod from their lists, which takes a few seconds. Without a "
    "preStop delay the program gets SIGTERM at once, stops accepting connections, and the requests "
    "still routed to it in those seconds fail, on every rollout, scale-down and drain.")
FIX_TEXT = gettext_noop(
    "A preStop `sleep` action (GA in 1.34, on by default since 1.30; before that an `exec` of "
    "`sleep`) as long as the endpoint change takes to reach the proxies (trafficPropagationSeconds, "
    "5 s assumed), well inside terminationGracePeriodSeconds.")
FIRES_WHEN = gettext_noop(
    "an app container of a long-running Pod is selected by a Service of the same input (a warning), "
    "or, without a Service there, has a readinessProbe on a port it declares (an inference: info), "
    "has no preStop hook, and the traffic lane shows requests reaching it after it stopped listening "
    "at the deletion.")
QUIET_WHEN = gettext_noop(
    "it has a preStop hook (traffic-failure-window judges whether it lasts long enough), serves no "
    "port, the Pod belongs to a Job, terminationGracePeriodSeconds is 0 (termination-grace-zero says "
    "why), its own configuration drains it (CoreDNS's lameduck in a ConfigMap of the input), it "
    "ignores SIGTERM and listens until after the change has reached the proxies, or no other Pod "
    "serves while it goes (a bare Pod, a one-replica StatefulSet, a Recreate Deployment, "
    "otherReadyReplicas 0).")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
- name: $name
  lifecycle:
    preStop:     # SIGTERM waits for it
      $hook
"""
EXAMPLE = {"hook": "sleep: {seconds: 5}"}
GRACE_MARGIN = 5   # seconds beyond the sleep and the shutdown, when the grace period must grow


# A server's own drain on SIGTERM, set in its configuration: CoreDNS's health plugin keeps answering
# for `lameduck` after SIGTERM (plugin/health), which is what a preStop sleep would buy.
_SELF_DRAIN = re.compile(r"\blameduck\s+\d")


def check(ctx: RuleContext) -> Iterator[Finding]:
    pod = ctx.pod
    if pod.batch or pod.termination_grace_period == 0:
        return
    # the same assumption as the traffic lane: only another ready Pod can take the requests
    # (docs/lifecycle-model.md §27.3)
    if other_ready_replicas(pod, ctx.scenario)[0] == 0:
        return
    if ctx.traffic is not None and ctx.traffic.publish_not_ready:
        return   # publishNotReadyAddresses keeps the endpoint ready until the Pod stops: no preStop helps
    failing = failing_containers(ctx)
    services = ctx.selecting_services()
    for c in pod.containers:
        if c.pre_stop is not None or not c.ports:
            continue
        if failing is not None and c.name not in failing:
            continue   # the lane loses no request at the deletion: it ignores SIGTERM past the propagation, say
        if any(_SELF_DRAIN.search(text) for _path, text in c.config):
            continue   # it keeps serving while its endpoint goes away by itself (CoreDNS `health { lameduck 5s }`)
        why = _served(ctx, c, services)
        if why is None:
            continue
        seconds = sleep_seconds(ctx)
        action = has_sleep_action(ctx.version)
        hook = sleep_hook(ctx.version, seconds)
        stop = ctx.behaviour(c).stop_seconds
        fits = stop is not None and seconds + stop <= pod.termination_grace_period
        grace = "" if fits or stop is None else Text(gettext_noop(
            " With its shutdown after SIGTERM that needs terminationGracePeriodSeconds {g}."),
            {"g": seconds + math.ceil(stop) + GRACE_MARGIN})
        explanation = Text(gettext_noop(
            "{c} {why} and has no preStop hook: when the Pod is deleted (a rollout, a scale-down, a node "
            "drain) it gets SIGTERM at once, while the Service's endpoints, kube-proxy and load balancers "
            "still send it requests for a few seconds; those requests fail. A preStop delay of {s} s lets "
            "the endpoint removal finish first.{grace}"), {"c": c.name, "why": why, "s": seconds, "grace": grace})
        # fixable with the sleep action only (an exec needs a `sleep` binary the image may lack), only
        # where a Service of the input shows the container is served (an inference is the person's to confirm),
        # and where the wait plus the program's own shutdown still fit the grace period
        patch = ((SetKey(path_of(c.path) + ("lifecycle", "preStop"), {"sleep": {"seconds": seconds}}),)
                 if action and seconds >= 1 and services and fits else None)
        # a Service of the input is evidence; a readinessProbe alone is an inference: info, not a warning
        yield ctx.finding(ID, c, ctx.container_path(c, "ports"), explanation,
                          fill(FIX, name=c.name, hook=hook), patch=patch,
                          severity=None if services else Severity.INFO)


def _served(ctx: RuleContext, c: Container, services: list[ServiceRef]) -> Text | None:
    """Why we think ``c`` receives Service traffic (None: no evidence)."""
    numbers = {p.container_port for p in c.ports}
    names = {p.name for p in c.ports if p.name}
    for s in services:
        if not s.target_ports or any(t in numbers or t in names for t in s.target_ports):
            return Text(gettext_noop("is selected by the Service {service} of this input"), {"service": s.name})
    if services:
        return None   # a Service selects the Pod but sends this container nothing
    if ctx.facts(c).looks_like_proxy:
        return None   # a mesh proxy's readiness port is its admin port: the traffic it carries is the app's
    probe = c.readiness_probe
    port = str(probe.port) if probe is not None and probe.port is not None else None   # as written: number or name
    if port is not None and (port in {str(n) for n in numbers} or port in names):
        return Text(gettext_noop("serves port {port}, which its readinessProbe checks, so a Service most "
                                 "likely sends it traffic (inferred: no Service in this input selects it)"),
                    {"port": port})
    return None
