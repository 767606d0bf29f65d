"""The `native-sidecar-unsupported` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.admission.validate import version_tuple

from ..base import Finding, RuleContext, Severity
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..patch import NO_SIDECARS_APP, no_sidecars_fix

ID = "native-sidecar-unsupported"
TITLE = gettext_noop("Native sidecar not supported by the target version")
SEVERITY = Severity.ERROR
DOCS_URL = DOCS["sidecar-containers"]
REFERENCES = (DOCS["feature-gates"],)
WHAT = gettext_noop(
    "A native sidecar (`restartPolicy: Always` on an init container) for a version without "
    "them.")
WHY = gettext_noop(
    "Native sidecars arrived in Kubernetes 1.28 behind the SidecarContainers feature gate "
    "(off), were on by default from 1.29 and GA in 1.33. Before 1.28 the API server rejects the "
    "field (the Pod is never created). In 1.28 with the gate off it silently drops it: the "
    "sidecar becomes a plain init container that must exit before the next one starts, so a "
    "long-running helper blocks the Pod in Init for good.")
FIX_TEXT = gettext_noop(
    "Target 1.29 or later (or turn the SidecarContainers gate on in 1.28); on older clusters "
    "run the helper as a classic sidecar in `containers` and make the app wait for it.")
FIRES_WHEN = gettext_noop(
    "an init container has restartPolicy: Always and the target version does not run native "
    "sidecars (error before 1.28, warning on 1.28 with the gate off).")
QUIET_WHEN = gettext_noop("the version supports native sidecars (1.29+, or 1.28 with the gate on).")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = NO_SIDECARS_APP   # a Job's Pod gets NO_SIDECARS_BATCH: no helper moved into its containers


def check(ctx: RuleContext) -> Iterator[Finding]:
    if ctx.sidecars_enabled:
        return
    old = version_tuple(ctx.version) < (1, 28)
    for c in ctx.pod.init_containers:
        path = ctx.container_path(c, "restartPolicy")
        if c.role != "sidecar" and c.policy_written != "Always":   # admission made it a plain init container
            continue
        if old:
            msgid = gettext_noop(
                "{c} is a native sidecar (restartPolicy: Always), but Kubernetes {version} has "
                "no restartPolicy on containers: the API server rejects the Pod (unknown field) and "
                "nothing runs. Native sidecars need 1.29+ (1.28 with the SidecarContainers gate).")
        else:
            msgid = gettext_noop(
                "{c} is a native sidecar (restartPolicy: Always), but in Kubernetes {version} "
                "the SidecarContainers feature gate is off, so the API server drops restartPolicy: "
                "{c} becomes a plain init container that must exit before the next container "
                "starts. If it runs until stopped, the Pod never leaves Init.")
        explanation = Text(msgid, {"c": c.name, "version": ctx.version})
        yield ctx.finding(ID, c, path, explanation, no_sidecars_fix(ctx.pod, c, ctx.version),
                          severity=Severity.ERROR if old else Severity.WARNING)
