"""The `port-conflict` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop

ID = "port-conflict"
TITLE = gettext_noop("Two containers on the same port")
SEVERITY = Severity.ERROR
DOCS_URL = DOCS["pod-lifecycle"]
REFERENCES = ("https://kubernetes.io/docs/concepts/services-networking/#the-kubernetes-network-model",)
WHAT = gettext_noop("Two containers that run at the same time use the same port and protocol.")
WHY = gettext_noop(
    "All containers of a Pod share one network namespace: one IP address, one set of ports. "
    'Only one process can bind a given port; the second gets "address already in use", usually '
    "exits, and crash-loops with growing back-off. The API server does not catch this.")
FIX_TEXT = gettext_noop("Give one of them another containerPort (and make its program listen there).")
FIRES_WHEN = gettext_noop(
    "two app containers or native sidecars (or an init container and a sidecar already running) "
    "declare the same containerPort and protocol.")
QUIET_WHEN = gettext_noop("ports differ, or the protocols differ (8125/UDP and 8125/TCP can coexist).")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
containers:
  - name: $name
    ports:
      - containerPort: $port    # a placeholder: a port no other container of the Pod uses; configure the program to match
"""


def check(ctx: RuleContext) -> Iterator[Finding]:
    for x in ctx.sharing.conflicts:
        first, *rest = x.containers
        for name in rest:
            c = ctx.pod.container(name)
            if c is None:
                continue
            i = next(i for i, p in enumerate(c.ports)
                     if p.container_port == x.port and p.protocol == x.protocol)
            explanation = Text(gettext_noop(
                "{first} and {second} both use port {port}/{protocol}. They share the "
                "Pod's network namespace, so whichever binds second fails with \"address already "
                "in use\", exits and is restarted with growing back-off (CrashLoopBackOff)."),
                {"first": first, "second": name, "port": x.port, "protocol": x.protocol})
            yield ctx.finding(ID, c, ctx.container_path(c, f"ports[{i}].containerPort"), explanation,
                              fill(FIX, name=name, port="<FREE PORT>"))
