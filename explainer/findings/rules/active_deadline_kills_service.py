"""The `active-deadline-kills-service` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS

from ..base import Finding, RuleContext, Severity, TraceTime, fill
from ..docstring import rule_docstring
from ..i18n import Names, Text, gettext_noop

ID = "active-deadline-kills-service"
TITLE = gettext_noop("activeDeadlineSeconds ends a Pod that serves")
SEVERITY = Severity.ERROR
DOCS_URL = DOCS["pod-lifecycle"] + "#pod-phase"
REFERENCES = (
    "https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/pod-v1/#lifecycle",
    "https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/active_deadline.go",
)
WHAT = gettext_noop(
    "A Pod whose app container serves until stopped sets activeDeadlineSeconds: the kubelet fails the whole "
    "Pod when it passes.")
WHY = gettext_noop(
    "activeDeadlineSeconds bounds the whole Pod, counted from the moment the kubelet first saw it: not its "
    "init containers, not a phase. When it passes, the kubelet marks the Pod Failed (reason DeadlineExceeded) "
    "and stops every container, the service included; a Pod made by hand is never replaced, and a "
    "Deployment may not set the field at all. Advice to set it \"for init containers\" gets this wrong: it "
    "does stop an init container that waits for ever, but it also ends the service that runs after it. The "
    "field is meant for Pods that finish (a Job's Pod).")
FIX_TEXT = gettext_noop(
    "Remove activeDeadlineSeconds; bound the init container's wait in its own command (a timeout or a retry "
    "counter, then exit 1), or run the work as a Job.")
FIRES_WHEN = gettext_noop(
    "a Pod that is not a Job's sets spec.activeDeadlineSeconds and one of its app containers runs until "
    "stopped (a server, a loop, the image's own long-running program).")
QUIET_WHEN = gettext_noop(
    "no app container serves (every one finishes), or the Pod belongs to a Job or CronJob (then "
    "active-deadline-on-pod-template speaks).")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
spec:
  # no activeDeadlineSeconds: it would end the whole Pod, $name included
  initContainers:
    - name: $init
      command: ["sh", "-c", "timeout 300 sh -c 'until <CHECK>; do sleep 2; done'"]   # bound the wait itself
"""
EXAMPLE = {"init": "wait-for-db"}


def check(ctx: RuleContext) -> Iterator[Finding]:
    pod = ctx.pod
    deadline = pod.active_deadline_seconds
    if deadline is None or pod.batch:
        return
    serving = [c for c in pod.containers if ctx.behaviour(c).run(0).seconds is None]
    if not serving:
        return
    # pkg/kubelet/active_deadline.go `ShouldEvict`: the whole Pod, from its start time (docs/lifecycle-model.md §31.2)
    at = next((e.t for e in ctx.simulation.events if e.type == "deadline_exceeded"), None) \
        if ctx.simulation is not None else None
    when = Text(gettext_noop("the timeline shows it at {t} s:"), {"t": TraceTime(at)}) if at is not None else \
        Text(gettext_noop("{deadline} s after the Pod starts,"), {"deadline": deadline})
    explanation = Text(gettext_noop(
        "activeDeadlineSeconds {deadline} bounds the whole Pod, not its init containers: {when} the kubelet "
        "fails the Pod (DeadlineExceeded) and stops every container, {serving} included, although {serving} "
        "serves until stopped. A Pod made by hand is not replaced: the service is simply gone."),
        {"deadline": deadline, "when": when, "serving": Names([c.name for c in serving])})
    init = pod.init_containers[0].name if pod.init_containers else "wait-for-it"
    yield ctx.finding(ID, serving[0], ctx.spec_path("activeDeadlineSeconds"), explanation,
                      fill(FIX, name=serving[0].name, init=init))
