"""The `shell-pid1-ignores-sigterm` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.commands.guess import guess_stop
from explainer.lifecycle.defaults import DOCS

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..scripts import main_field

ID = "shell-pid1-ignores-sigterm"
TITLE = gettext_noop("Main process ignores SIGTERM")
SEVERITY = Severity.INFO
DOCS_URL = DOCS["pod-lifecycle"] + "#pod-termination"
WHAT = gettext_noop(
    "A shell script (or bare sleep) is PID 1 and ignores SIGTERM: every stop takes the full "
    "grace.")
WHY = gettext_noop(
    "The kernel gives PID 1 no default signal actions: a signal it has no handler for does "
    'nothing. `sh -c "...; sleep 3600"` without `trap` or `exec` therefore ignores the '
    "kubelet's SIGTERM, and every deletion, rolling update or eviction waits the whole "
    "terminationGracePeriodSeconds until SIGKILL ends the container with exit code 137.")
FIX_TEXT = gettext_noop("End the script with `exec program` so the program itself is PID 1, or trap TERM.")
FIRES_WHEN = gettext_noop(
    "an app container (not in a Job) or a sidecar runs a shell without `trap` or `exec`, or a "
    "bare `sleep`/`tail`, as its main process.")
QUIET_WHEN = gettext_noop(
    "the main process is a program of its own, the script traps TERM or execs a program (other "
    "than sleep or tail), the Pod shares its PID namespace (PID 1 is then pause), or "
    "terminationGracePeriodSeconds is 0 (nothing waits).")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
- name: $name
  command:
    - sh
    - -c
    - |
      trap 'exit 0' TERM      # PID 1 must handle SIGTERM itself
      # ... your commands ...
      sleep infinity & wait   # `wait` lets the trap run at once; or end with: exec your-program
"""
_NO_HANDLER = ("sleep", "tail")   # `exec sleep 3600` still leaves PID 1 without a handler


def check(ctx: RuleContext) -> Iterator[Finding]:
    grace = ctx.pod.termination_grace_period
    if grace == 0:   # nothing waits for it: termination-grace-zero says what a grace of 0 does instead
        return
    # with a shared PID namespace (or the node's) the main process is not PID 1
    pid1 = not (ctx.pod.share_process_namespace or ctx.pod.host_pid)
    for c in ctx.pod.sidecars + ctx.pod.containers:
        if c.role == "app" and ctx.pod.batch:
            continue
        seconds, why = guess_stop(c, pid1=pid1)
        if seconds is not None:
            continue
        explanation = Text(gettext_noop(
            "{c}'s main process ignores SIGTERM: {why}. Every deletion, rolling update or "
            "eviction therefore waits the full terminationGracePeriodSeconds ({grace} s) before "
            "SIGKILL ends {c} with exit code 137, and nothing in it gets to shut down cleanly."),
            {"c": c.name, "why": why, "grace": grace})
        yield ctx.finding(ID, c, ctx.container_path(c, main_field(c)), explanation, fill(FIX, name=c.name))
