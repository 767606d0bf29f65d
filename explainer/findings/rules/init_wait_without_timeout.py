"""The `init-wait-without-timeout` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

import re
from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..scripts import main_field, wait_loops

ID = "init-wait-without-timeout"
TITLE = gettext_noop("Init container waits without a timeout")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["init-containers"]
REFERENCES = (DOCS["pod-lifecycle"],)
WHAT = gettext_noop("An init container waits for a dependency in a loop with no bound.")
WHY = gettext_noop(
    "`until pg_isready ...; do sleep 3; done` is the usual way to wait for a database. If the "
    "dependency never answers (a wrong host name, a Service without endpoints, a database that "
    "is down) the loop runs forever: the container never fails, so there is no restart, no "
    "CrashLoopBackOff and nothing to alert on; the Pod just stays in Init.")
FIX_TEXT = gettext_noop(
    "Bound the wait (a retry counter or `timeout`) and exit non-zero when it runs out, so the "
    "failure is visible (Init:Error, Init:CrashLoopBackOff); or set activeDeadlineSeconds.")
FIRES_WHEN = gettext_noop(
    "a plain init container's command has an `until ...; do` or `while ! ...; do` loop without "
    "`timeout`, a counter comparison (-lt, -gt, ...), `seq`, and the Pod has no "
    "activeDeadlineSeconds.")
QUIET_WHEN = gettext_noop("the wait is bounded, or the Pod sets activeDeadlineSeconds.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
initContainers:
  - name: $name
    command:
      - sh
      - -c
      - |
        for i in $$(seq 1 100); do        # give up after about 5 minutes
          $condition && exit 0
          sleep 3
        done
        echo "gave up waiting" >&2; exit 1
"""
EXAMPLE = {"condition": "nc -z db 5432"}
_BOUNDED = re.compile(r"\btimeout\b|-(lt|le|gt|ge|eq)\b|\bseq\b|\(\([^()]*[<>]|\bfor\s+\w+\s+in\b")


def check(ctx: RuleContext) -> Iterator[Finding]:
    pod = ctx.pod
    if pod.active_deadline_seconds:
        return
    if pod.job_deadline_written:
        return   # the Job's own deadline bounds the wait as well (active-deadline-on-pod-template moves it there)
    for i, c in enumerate(pod.init_containers):
        if c.role != "init":
            continue
        script = c.script
        loops = wait_loops(script)
        if not loops or _BOUNDED.search(script):
            continue
        condition = loops[0]
        explanation = Text(gettext_noop(
            "Init container {c} waits in a loop until `{condition}` succeeds, with no bound: no "
            "timeout, no retry counter, and the Pod has no activeDeadlineSeconds. If that never "
            "succeeds, {c} never exits and never fails, so the Pod stays Init:{i}/{n} with no "
            "restart and no error to alert on."),
            {"c": c.name, "condition": condition, "i": i, "n": len(pod.init_containers)})
        yield ctx.finding(ID, c, ctx.container_path(c, main_field(c)), explanation,
                          fill(FIX, name=c.name, condition=condition))
