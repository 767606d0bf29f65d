"""The `kill-pid1-shared-namespace` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

import re
from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.model import Container

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..scripts import program, segments, sources

ID = "kill-pid1-shared-namespace"
TITLE = gettext_noop("Signal to PID 1 in a shared process namespace")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["share-process-namespace"]
REFERENCES = (DOCS["hooks"],)
WHAT = gettext_noop("A container signals PID 1 although the Pod shares its process namespace.")
WHY = gettext_noop(
    "With `shareProcessNamespace: true` the container's own main process is no longer PID 1: "
    "PID 1 is the Pod's pause container (with hostPID it is the node's init). A preStop such as "
    "`kill -SIGTERM 1` or a reloader's `kill -HUP 1`, written for a container of its own, "
    'signals the sandbox instead (or fails with "Operation not permitted"), and the process it '
    "meant to reach never gets the signal. The Kubernetes docs call this out for "
    "shareProcessNamespace.")
FIX_TEXT = gettext_noop(
    "Signal the program by name or PID file (`kill -TERM $(pidof app)`), or drop the kill: the "
    "kubelet sends SIGTERM to the main process right after preStop anyway.")
FIRES_WHEN = gettext_noop(
    "`kill ... 1` appears in a container's command, args or hooks and the Pod sets "
    "shareProcessNamespace or hostPID.")
QUIET_WHEN = gettext_noop("each container has its own PID namespace (there PID 1 is its own main process).")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
lifecycle:
  preStop:
    exec:
      # PID 1 is the pause container here: address $name's own program instead
      command: ["/bin/sh", "-c", "kill -TERM $$(pidof $program)"]
"""
# Anchored at the start of each simple command: unanchored, a long text is scanned from every `kill`.
_KILL_1 = re.compile(r"\s*(?:then\s+|do\s+|else\s+|exec\s+|[{(!]\s*)?(kill\s+(?:-s\s+\w+\s+|-\S+\s+)*1)(?![\w.])")


def signals_pid1(c: Container) -> bool:
    """Whether ``c``'s command, args or hooks send a signal to PID 1."""
    return any(_KILL_1.match(s) for field, text in sources(c) if not field.startswith("env")
               for s in segments(text))


def check(ctx: RuleContext) -> Iterator[Finding]:
    pod = ctx.pod
    if not (pod.share_process_namespace or pod.host_pid):
        return
    pid1 = Text(gettext_noop("the node's init process (hostPID: true)") if pod.host_pid else
                gettext_noop("the Pod's pause container (shareProcessNamespace: true)"))
    for c in pod.all_containers:
        for field, text in sources(c):
            if "kill" not in text or field.startswith("env"):   # _KILL_1 names kill
                continue
            m = next(filter(None, (_KILL_1.match(s) for s in segments(text))), None)
            if m is None:
                continue
            explanation = Text(gettext_noop(
                "{c} runs `{command}` to signal its own main process, but in this Pod PID 1 "
                "is {pid1}. The signal goes there (or is refused) and {c}'s program never gets "
                "it; a preStop that then waits for the program to exit waits until the grace period "
                "runs out, because the kubelet sends its own SIGTERM only after preStop ends."),
                {"c": c.name, "command": m.group(1), "pid1": pid1})
            yield ctx.finding(ID, c, ctx.container_path(c, field), explanation,
                              fill(FIX, name=c.name, program=program(c) or c.name))
            break
