"""The `restart-rules-ignored` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.admission.versions import gate_exists

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop

ID = "restart-rules-ignored"
TITLE = gettext_noop("Container restart rules the target version ignores")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["container-restarts"]
REFERENCES = (DOCS["feature-gates"],)
WHAT = gettext_noop("Per-container restartPolicy or restartPolicyRules that the target version ignores or rejects.")
WHY = gettext_noop(
    "Container restart rules arrived in 1.34 behind the ContainerRestartRules gate (off) and are on by default "
    "from 1.35. On 1.34 with the gate off the API server drops the fields without a word: the container "
    "restarts by the Pod's restartPolicy. Before 1.34 the API server rejects them.")
FIX_TEXT = gettext_noop("Target 1.35 or later, or turn the ContainerRestartRules gate on; otherwise rely on the "
                        "Pod's restartPolicy only.")
FIRES_WHEN = gettext_noop("a container sets restartPolicy or restartPolicyRules and the version drops (1.34, gate "
                          "off) or rejects (before 1.34) them.")
QUIET_WHEN = gettext_noop("the gate is on (1.35+ by default), or no container sets them.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
# On 1.35+ (or featureGates: {ContainerRestartRules: true}) $name keeps its own rules.
# On $version, decide with the Pod's restartPolicy instead, e.g.:
restartPolicy: OnFailure
"""


def check(ctx: RuleContext) -> Iterator[Finding]:
    if ctx.gate("ContainerRestartRules"):
        return
    dropped = gate_exists("ContainerRestartRules", ctx.version)
    for c in ctx.pod.init_containers + ctx.pod.containers:
        policy, rules = c.policy_written, c.rules_written   # as written: the API server may have dropped them
        own_policy = policy is not None and not (c.role in ("init", "sidecar") and policy == "Always")
        if not own_policy and not rules:
            continue
        field = "restartPolicyRules" if rules else "restartPolicy"
        if dropped:
            msgid = gettext_noop(
                "{c} sets its own {field}, but in Kubernetes {version} the ContainerRestartRules gate is off: the "
                "API server drops the field without an error and {c} restarts by the Pod's restartPolicy "
                "({policy}). On by default from 1.35.")
        else:
            msgid = gettext_noop(
                "{c} sets its own {field}, which Kubernetes {version} does not know: the API server rejects the "
                "Pod. Container restart rules need 1.35+ (1.34 with the ContainerRestartRules gate).")
        params = {"c": c.name, "field": field, "version": ctx.version}
        explanation = Text(msgid, params | ({"policy": ctx.pod.restart_policy} if dropped else {}))
        yield ctx.finding(ID, c, ctx.container_path(c, field), explanation,
                          fill(FIX, name=c.name, version=ctx.version),
                          severity=Severity.WARNING if dropped else Severity.ERROR)
