"""The `privileged-container` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop

ID = "privileged-container"
TITLE = gettext_noop("Privileged container")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["security-context"]
REFERENCES = ("https://kubernetes.io/docs/concepts/security/pod-security-standards/",)
WHAT = gettext_noop("A container runs privileged.")
WHY = gettext_noop(
    "`privileged: true` gives the container every capability and the node's devices, and turns "
    "off most isolation. A sidecar that only ships logs or proxies traffic rarely needs it, and "
    "a compromise of a privileged container is a compromise of the node and of every Pod on it.")
FIX_TEXT = gettext_noop("Drop `privileged` and add only the capabilities the program needs.")
FIRES_WHEN = gettext_noop("a container sets securityContext.privileged: true.")
QUIET_WHEN = gettext_noop("no container is privileged.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
- name: $name
  securityContext:
    privileged: false
    allowPrivilegeEscalation: false
    capabilities:
      drop: ["ALL"]
      add: ["NET_ADMIN"]      # only what the program really needs
"""
_ROLE = {"init": gettext_noop("init container"), "sidecar": gettext_noop("sidecar container"),
         "app": gettext_noop("app container"), "ephemeral": gettext_noop("ephemeral container")}


def check(ctx: RuleContext) -> Iterator[Finding]:
    for c in ctx.pod.all_containers:
        if not c.privileged:
            continue
        explanation = Text(gettext_noop(
            "{c} ({role}) runs privileged: it has every Linux capability and "
            "access to the node's devices for as long as it runs. Anyone who gets into it controls "
            "the node, and the Pod is rejected where the baseline or restricted Pod Security "
            "Standard is enforced."), {"c": c.name, "role": Text(_ROLE[c.role])})
        yield ctx.finding(ID, c, ctx.container_path(c, "securityContext.privileged"), explanation,
                          fill(FIX, name=c.name))
