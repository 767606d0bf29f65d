"""The `active-deadline-on-pod-template` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS, JOB_BACKOFF_LIMIT

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..patch import Remove, SetKey

ID = "active-deadline-on-pod-template"
TITLE = gettext_noop("activeDeadlineSeconds on the Pod template of a Job")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["jobs"] + "#job-termination-and-cleanup"
REFERENCES = ("https://github.com/kubernetes/website/pull/7843",
              "https://github.com/kubernetes/kubernetes/issues/95431")
WHAT = gettext_noop("activeDeadlineSeconds on a Job's Pod template bounds each Pod, not the Job.")
WHY = gettext_noop(
    "The Pod template's activeDeadlineSeconds is a Pod field: the kubelet fails that Pod (reason "
    "DeadlineExceeded) when it has been active that long. The Job controller counts it as one failed "
    "Pod and creates a replacement, up to backoffLimit (6 by default) times, with its own back-off "
    "between them: the Job runs for up to (backoffLimit + 1) x the deadline, and a run that needs "
    "longer than the deadline can never finish. The Job spec's own activeDeadlineSeconds bounds the "
    "whole Job: when it passes, the Job fails and its Pods stop.")
FIX_TEXT = gettext_noop(
    "Move activeDeadlineSeconds from the Pod template to the Job spec (for a CronJob: "
    "jobTemplate.spec).")
FIRES_WHEN = gettext_noop(
    "a Job's or CronJob's Pod template sets activeDeadlineSeconds and the Job spec does not.")
QUIET_WHEN = gettext_noop("the Job spec sets activeDeadlineSeconds, or the Pod template does not.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
# the Job's spec (CronJob: jobTemplate.spec)
spec:
  activeDeadlineSeconds: $deadline
  template:    # and none in the Pod spec
"""
EXAMPLE = {"deadline": "600"}


def check(ctx: RuleContext) -> Iterator[Finding]:
    pod = ctx.pod
    deadline = pod.active_deadline_seconds
    if not pod.batch or deadline is None:
        return
    job_spec = tuple(pod.spec_path[:-2])          # ...spec.template.spec -> ...spec
    if pod.job_deadline_written:
        return
    limit = pod.backoff_limit if pod.backoff_limit is not None else JOB_BACKOFF_LIMIT   # parse.py read and defaulted it
    explanation = Text(gettext_noop(
        "activeDeadlineSeconds {deadline} is set on the Pod template, so it bounds each Pod, not the {kind}: "
        "the kubelet fails a Pod after {deadline} s (DeadlineExceeded, as the timeline shows), and the Job "
        "controller replaces it, up to backoffLimit {limit} times. The Job may run for about {total} s plus "
        "back-off, and a run that needs more than {deadline} s never completes."),
        {"deadline": deadline, "kind": pod.source.kind, "limit": limit, "total": (limit + 1) * deadline})
    path = ctx.spec_path("activeDeadlineSeconds")
    patch = (SetKey(job_spec + ("activeDeadlineSeconds",), deadline, after="backoffLimit"),
             Remove(tuple(pod.spec_path) + ("activeDeadlineSeconds",)))
    yield ctx.finding(ID, None, path, explanation, fill(FIX, deadline=deadline), patch=patch)
