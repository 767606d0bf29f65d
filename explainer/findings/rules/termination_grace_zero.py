"""The `termination-grace-zero` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS, MINIMUM_GRACE_PERIOD_SECONDS, TERMINAL_PHASE_ON_DELETE
from explainer.lifecycle.admission.versions import version_tuple

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..patch import Remove

ID = "termination-grace-zero"
TITLE = gettext_noop("terminationGracePeriodSeconds is 0")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["pod-lifecycle"] + "#pod-termination-forced"
REFERENCES = ("https://kubernetes.io/docs/tasks/run-application/force-delete-stateful-set-pod/",
              "https://github.com/kubernetes/kubernetes/pull/112564",
              "https://github.com/kubernetes/kubernetes/issues/115819",
              "https://github.com/kubernetes/kubernetes/issues/123408")
WHAT = gettext_noop("terminationGracePeriodSeconds: 0 turns every deletion of the Pod into a forced deletion.")
WHY = gettext_noop(
    "A deletion that names no grace period (kubectl delete, a rollout, a scale-down, an eviction "
    "through the API) takes the Pod's own: the API server's `CheckGracefulDelete` "
    "(pkg/registry/core/pod/strategy.go) keeps a 0, and a 0 removes the Pod object at once, as "
    "`--grace-period=0 --force` would. Its name is free again while its containers still run, so a "
    "StatefulSet may start the replacement with the same identity and volumes beside them. The "
    "kubelet then stops the containers with its own floor: 1 s (pod_workers.go "
    "`calculateEffectiveGracePeriod`), applied before preStop since 1.27, so a preStop hook gets at "
    "most 1 s, and SIGTERM comes with the 2 s minimum (`minimumGracePeriodInSeconds`) before "
    "SIGKILL. Nothing gets to drain or shut down cleanly.")
FIX_TEXT = gettext_noop("Remove the field (the default is 30 s) or give the time the program needs to stop.")
FIRES_WHEN = gettext_noop("a Pod spec sets terminationGracePeriodSeconds to 0.")
QUIET_WHEN = gettext_noop("terminationGracePeriodSeconds is absent or 1 or more.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
spec:
  # or leave it out: 30 s is the default
  terminationGracePeriodSeconds: 30
"""
POD_WORKER_FLOOR = 1          # pod_workers.go calculateEffectiveGracePeriod


def check(ctx: RuleContext) -> Iterator[Finding]:
    if ctx.pod.termination_grace_period != 0:   # written so: the default is 30 s
        return
    path = ctx.spec_path("terminationGracePeriodSeconds")
    hooks = [c.name for c in ctx.pod.containers + ctx.pod.sidecars if c.pre_stop is not None]
    if version_tuple(ctx.version) < TERMINAL_PHASE_ON_DELETE:
        # before 1.27 the override replaced the grace period after preStop: 0 left none for the hooks, and the
        # stop call got the 1 s floor as it is (docs/lifecycle-model.md §33)
        hook_text = (Text(gettext_noop(" Before 1.27 the preStop hooks of {names} do not run at all: no grace "
                                       "is left for them."), {"names": ", ".join(hooks)}) if hooks else "")
        kill_at = POD_WORKER_FLOOR
    else:
        hook_text = (Text(gettext_noop(" The preStop hooks of {names} get at most {floor} s before SIGTERM."),
                          {"names": ", ".join(hooks), "floor": POD_WORKER_FLOOR}) if hooks else "")
        kill_at = (POD_WORKER_FLOOR if hooks else 0) + MINIMUM_GRACE_PERIOD_SECONDS
    same_name = (Text(gettext_noop(" As a StatefulSet Pod, its replacement may start with the same name and "
                                   "volumes while these containers still run."))
                 if ctx.pod.source.kind == "StatefulSet" else "")
    explanation = Text(gettext_noop(
        "terminationGracePeriodSeconds is 0: every deletion that names no grace period (kubectl delete, a "
        "rollout, a scale-down) is a forced one. The API server removes the Pod object at once; the kubelet "
        "still stops the containers with its own minimum: SIGTERM, then SIGKILL {kill_at} s after the "
        "deletion.{hooks}{same_name} With deleteAt in the what-if, the timeline shows it."),
        {"kill_at": kill_at, "hooks": hook_text, "same_name": same_name})
    yield ctx.finding(ID, None, path, explanation, fill(FIX),
                      patch=(Remove(tuple(ctx.pod.spec_path) + ("terminationGracePeriodSeconds",)),))
