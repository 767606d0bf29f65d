"""The `readiness-probe-missing` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..patch import SetKey, path_of

ID = "readiness-probe-missing"
TITLE = gettext_noop("Serving container without a readinessProbe")
SEVERITY = Severity.INFO
DOCS_URL = DOCS["probes"]
REFERENCES = (DOCS["pod-lifecycle"] + "#container-probes",)
WHAT = gettext_noop("An app container serves a port but has no readinessProbe.")
WHY = gettext_noop(
    "Without a readinessProbe a container counts as ready as soon as it has started (and its "
    "startupProbe, if any, has passed). The Pod turns Ready and Services send it traffic before "
    "the program listens, and in a rolling update the old Pod is taken away while the new one "
    "still refuses connections.")
FIX_TEXT = gettext_noop("Add a readinessProbe that checks the port it serves.")
FIRES_WHEN = gettext_noop("an app container of a long-running Pod declares ports and has no readinessProbe.")
QUIET_WHEN = gettext_noop("it has a readinessProbe, declares no ports, or the Pod belongs to a Job.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
- name: $name
  readinessProbe:
    tcpSocket:                # or httpGet on a health path
      port: $port
    periodSeconds: 5
"""


def check(ctx: RuleContext) -> Iterator[Finding]:
    if ctx.pod.batch:
        return
    for c in ctx.pod.containers:
        if not c.ports or c.readiness_probe is not None:
            continue
        ports = ", ".join(str(p.container_port) for p in c.ports)
        explanation = Text(gettext_noop(
            "{c} serves port {ports} but has no readinessProbe, so it counts as ready the "
            "moment it has started: once the other containers are ready too, the Pod turns Ready and "
            "Services send requests before {c} listens, and a rolling update removes old Pods "
            "too early."), {"c": c.name, "ports": ports})
        yield ctx.finding(ID, c, ctx.container_path(c, "ports"), explanation,
                          fill(FIX, name=c.name, port=c.ports[0].container_port),
                          # fixable: a TCP check on the first TCP port the container itself declares
                          patch=next(((SetKey(path_of(c.path) + ("readinessProbe",),
                                              {"tcpSocket": {"port": p.container_port}, "periodSeconds": 5},
                                              after="ports"),)
                                      for p in c.ports if p.protocol == "TCP"), None))
