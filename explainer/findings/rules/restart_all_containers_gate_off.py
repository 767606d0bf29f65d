"""The `restart-all-containers-gate-off` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop

ID = "restart-all-containers-gate-off"
TITLE = gettext_noop("RestartAllContainers without its feature gate")
SEVERITY = Severity.ERROR
DOCS_URL = DOCS["container-restarts"]
REFERENCES = (DOCS["feature-gates"],)
WHAT = gettext_noop("A RestartAllContainers restart rule on a version where its feature gate is off (1.35's "
                    "default).")
WHY = gettext_noop(
    "action: RestartAllContainers is alpha in 1.35 behind the RestartAllContainersOnContainerExits gate, off by "
    "default, and on by default from 1.36. With the gate off the API server accepts only action: Restart and "
    "rejects the Pod, so nothing runs.")
FIX_TEXT = gettext_noop("Target 1.36 or later, or turn RestartAllContainersOnContainerExits on (1.35); or use "
                        "action: Restart to restart only this container.")
FIRES_WHEN = gettext_noop("a restart rule says RestartAllContainers and the gate is off (restart rules on).")
QUIET_WHEN = gettext_noop("the gate is on (1.36+ by default), or no rule says RestartAllContainers.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
# scenario (1.35): featureGates: {RestartAllContainersOnContainerExits: true}
# or restart only $name:
restartPolicyRules:
  - action: Restart
    exitCodes: {operator: In, values: [$codes]}
"""


def check(ctx: RuleContext) -> Iterator[Finding]:
    everyone = ctx.pod.init_containers + ctx.pod.containers
    if not any(rule.action == "RestartAllContainers" for c in everyone for rule in c.restart_rules):
        return   # no such rule to reject
    if not ctx.gate("ContainerRestartRules") or ctx.gate("RestartAllContainersOnContainerExits"):
        return
    for c in everyone:
        for rule in c.restart_rules:
            if rule.action != "RestartAllContainers":
                continue
            path = ctx.container_path(c, f"restartPolicyRules[{rule.index}].action")
            explanation = Text(gettext_noop(
                "{c} has a restart rule with action RestartAllContainers, but in Kubernetes {version} the "
                "RestartAllContainersOnContainerExits gate is off (alpha; on by default from 1.36): the API server "
                "rejects the Pod and nothing runs."), {"c": c.name, "version": ctx.version})
            codes = ", ".join(str(v) for v in rule.values) or "1"
            yield ctx.finding(ID, c, path, explanation, fill(FIX, name=c.name, codes=codes))
            break
EXAMPLE = {"codes": "42"}
