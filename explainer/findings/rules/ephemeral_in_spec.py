"""The `ephemeral-in-spec` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..patch import Remove, path_of

ID = "ephemeral-in-spec"
TITLE = gettext_noop("Ephemeral container in a manifest")
SEVERITY = Severity.ERROR
DOCS_URL = DOCS["ephemeral-containers"]
REFERENCES = (DOCS["debug-running-pod"],)
WHAT = gettext_noop("ephemeralContainers written into a manifest that creates a Pod or a Pod template.")
WHY = gettext_noop(
    "Ephemeral containers exist only to debug a running Pod: they are added through the "
    "ephemeralcontainers subresource (`kubectl debug`). The API server rejects a Pod that sets "
    "them on create, and a workload whose template contains them.")
FIX_TEXT = gettext_noop(
    "Delete the section and use `kubectl debug -it POD --image=busybox --target=CONTAINER` when "
    "you need a shell next to a running container.")
FIRES_WHEN = gettext_noop("the Pod spec has ephemeralContainers.")
QUIET_WHEN = gettext_noop("it has none.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
# remove spec.ephemeralContainers; once the Pod runs:
#   kubectl debug -it <pod> --image=$image --target=$target --container=$name
"""


def check(ctx: RuleContext) -> Iterator[Finding]:
    for c in ctx.pod.ephemeral_containers:
        target = c.target or (ctx.pod.containers[0].name if ctx.pod.containers else "app")
        where = Text(gettext_noop("a Pod template") if ctx.pod.source.kind != "Pod"
                     else gettext_noop("a Pod being created"))
        explanation = Text(gettext_noop(
            "Ephemeral container {c} is written into {where}. The API server rejects it: "
            "ephemeral containers can only be added to a running Pod through the "
            "ephemeralcontainers subresource (kubectl debug), so this Pod is never created."),
            {"c": c.name, "where": where})
        yield ctx.finding(ID, c, c.path, explanation,
                          fill(FIX, name=c.name, image=c.image or "<IMAGE>", target=target),
                          patch=(Remove(path_of(c.path)),))   # fixable: nothing to choose, it only goes
