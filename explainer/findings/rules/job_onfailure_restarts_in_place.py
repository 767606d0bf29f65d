"""The `job-onfailure-restarts-in-place` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import CRASH_LOOP_INITIAL_SECONDS, CRASH_LOOP_MAX_SECONDS, DOCS, JOB_BACKOFF_LIMIT

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop

ID = "job-onfailure-restarts-in-place"
TITLE = gettext_noop("Job retries restart in place (restartPolicy OnFailure)")
SEVERITY = Severity.INFO
DOCS_URL = DOCS["jobs"] + "#pod-backoff-failure-policy"
REFERENCES = ("https://github.com/kubernetes/kubernetes/issues/54870",
              "https://github.com/kubernetes/kubernetes/issues/74848",
              "https://github.com/kubernetes/website/pull/14709")
WHAT = gettext_noop("A Job with restartPolicy OnFailure retries inside one Pod, and deletes it at backoffLimit.")
WHY = gettext_noop(
    "With OnFailure the kubelet restarts a failed container in the same Pod, with its crash-loop "
    "back-off (10 s doubling to 5 min), and the Job controller counts those restarts against "
    "backoffLimit (job_controller.go `pastBackoffLimitOnFailure`). When they reach it, the Job fails "
    "(BackoffLimitExceeded) and the controller deletes the Pod: the logs of every attempt go with it, "
    "and `kubectl logs` has nothing to show. Files in emptyDir volumes also survive from one attempt "
    "to the next. With restartPolicy Never each retry is a new Pod (after the Job's own back-off), "
    "backoffLimit counts failed Pods, and the failed Pods stay for their logs.")
FIX_TEXT = gettext_noop(
    "Use restartPolicy Never when you need the failed attempts' logs or a fresh Pod per attempt; keep "
    "OnFailure for idempotent work whose logs are shipped elsewhere.")
FIRES_WHEN = gettext_noop("a Job's or CronJob's Pod template has restartPolicy OnFailure.")
QUIET_WHEN = gettext_noop("restartPolicy is Never.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
spec:
  backoffLimit: $limit
  template:
    spec:
      restartPolicy: Never  # a Pod a try
"""
EXAMPLE = {"limit": "6"}


def check(ctx: RuleContext) -> Iterator[Finding]:
    pod = ctx.pod
    if not pod.batch or pod.restart_policy != "OnFailure":
        return
    limit = pod.backoff_limit if pod.backoff_limit is not None else JOB_BACKOFF_LIMIT
    restarts = _restart_times(limit)
    explanation = Text(gettext_noop(
        "restartPolicy is OnFailure, so a failed attempt is retried inside the same Pod: the kubelet restarts "
        "the container after {backoff} s of back-off, and the Job controller counts the restarts. With "
        "backoffLimit {limit}, the Job fails when the restart count reaches {limit} and the Pod is deleted "
        "with the logs of every attempt. Under restartPolicy Never each attempt would be a new Pod and the "
        "failed Pods would stay. With a failing exitCode in the what-if, the timeline shows the restarts "
        "and the deletion."),
        {"backoff": restarts, "limit": limit})
    yield ctx.finding(ID, None, ctx.spec_path("restartPolicy"), explanation, fill(FIX, limit=limit))


def _restart_times(limit: int) -> str:
    """The kubelet's back-off before each in-place restart: 0 for the first, then 10 s doubling."""
    delays, delay = ["0"], float(CRASH_LOOP_INITIAL_SECONDS)
    for _ in range(max(limit, 1) - 1):
        delays.append(f"{delay:g}")
        delay = min(delay * 2, CRASH_LOOP_MAX_SECONDS)
    return ", ".join(delays[:max(limit, 1)])
