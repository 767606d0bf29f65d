"""A container (sidecars included) has no resource requests.

The scheduler places a Pod by the sum of its containers' requests. A container without
requests is counted as needing nothing, so the node can be overcommitted: under contention it
gets the minimum CPU share and it is the first to be OOM-killed, and a sidecar without
requests competes with the app for the CPU and memory the app asked for. Init containers'
requests decide the Pod's start-up needs too.

Fix: set resources.requests (cpu and memory) on every container, sidecars included.

Fires when: an init, sidecar or app container has no resources.requests.
Quiet when: every container sets requests (ephemeral containers cannot and are skipped).
"""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS

from ..base import Finding, RuleContext, Severity, fill
from ..i18n import Names, Text, gettext_noop

ID = "missing-resources"
TITLE = gettext_noop("No resource requests")
SEVERITY = Severity.INFO
DOCS_URL = DOCS["resources"]
WHAT = gettext_noop("A container (sidecars included) has no resource requests.")
WHY = gettext_noop(
    "The scheduler places a Pod by the sum of its containers' requests. A container without "
    "requests is counted as needing nothing, so the node can be overcommitted: under contention "
    "it gets the minimum CPU share and it is the first to be OOM-killed, and a sidecar without "
    "requests competes with the app for the CPU and memory the app asked for. Init containers' "
    "requests decide the Pod's start-up needs too.")
FIX_TEXT = gettext_noop("Set resources.requests (cpu and memory) on every container, sidecars included.")
FIRES_WHEN = gettext_noop("an init, sidecar or app container has no resources.requests.")
QUIET_WHEN = gettext_noop("every container sets requests (ephemeral containers cannot and are skipped).")
FIX = """
- name: $name
  resources:
    requests:
      cpu: 50m
      memory: 64Mi
    limits:
      memory: 128Mi
"""
_ROLE = {"init": gettext_noop("Init container"), "sidecar": gettext_noop("Sidecar"),
         "app": gettext_noop("App container")}


def check(ctx: RuleContext) -> Iterator[Finding]:
    pod = ctx.pod
    besteffort = not any(c.has_requests or c.has_limits for c in pod.init_containers + pod.containers)
    qos = Text(gettext_noop(" No container sets requests or limits, so the Pod is BestEffort: the first to "
                            "be evicted when the node runs short.")) if besteffort else ""
    running = [x for x in pod.init_containers if x.role == "sidecar"] + list(pod.containers)
    names = [x.name for x in running]   # one list for every finding: each leaves its own name out
    index = {x.name: i for i, x in enumerate(running)}
    for c in pod.init_containers + pod.containers:
        if c.has_requests:
            continue
        if c.role == "init":
            when = Text(gettext_noop("with the other Pods on its node while it runs"))
        elif len(names) > 1:
            when = Text(gettext_noop("with {rivals} for the whole life of the Pod"),
                        {"rivals": Names(names, index[c.name])})
        else:
            when = Text(gettext_noop("with the other Pods on its node"))
        explanation = Text(gettext_noop(
            "{role} {c} has no resources.requests: the scheduler reserves no CPU or memory for it, so "
            "the node may not have room for it, and it competes {when}; under contention it gets the "
            "minimum CPU share, and it is the first the kernel OOM-kills when memory runs out.{qos}"),
            {"role": Text(_ROLE[c.role]), "c": c.name, "when": when, "qos": qos})
        yield ctx.finding(ID, c, ctx.container_path(c, "resources"), explanation, fill(FIX, name=c.name))
