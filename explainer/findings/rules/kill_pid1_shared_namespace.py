"""The `kill-pid1-shared-namespace` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

import re
from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.model import Container

from explainer.lifecycle.commands.shutdown import PAUSE_SIGNALS, may_signal_pause

from ..base import Finding, RuleContext, Severity, TraceTime, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..scripts import segments, sources

ID = "kill-pid1-shared-namespace"
TITLE = gettext_noop("Signal to PID 1 in a shared process namespace")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["share-process-namespace"]
REFERENCES = (DOCS["hooks"],)
WHAT = gettext_noop("A container signals PID 1 although the Pod shares its process namespace.")
WHY = gettext_noop(
    "With `shareProcessNamespace: true` the container's own main process is no longer PID 1: "
    "PID 1 is the Pod's pause process (with hostPID it is the node's init). pause handles SIGTERM and "
    "SIGINT by exiting (build/pause/linux/pause.c), and when PID 1 of a PID namespace exits the kernel "
    "SIGKILLs every other process in it: a preStop `kill -SIGTERM 1`, written for a container of its own, "
    "ends every container of the Pod at once with 137, the hooks still running included, and the "
    "sandbox with them. Any other signal (a reloader's `kill -HUP 1`) is dropped, since the kernel "
    "delivers to a namespace's init only the signals it handles; a container that is neither root nor "
    "pause's user gets \"Operation not permitted\". Either way the process it meant to reach never gets the "
    "signal. The Kubernetes docs call this out for shareProcessNamespace.")
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
_KILL_1 = re.compile(r"\s*(?:(?:/usr)?(?:/bin/)?(?:ba|a|da|z)?sh\s+-\w*c\s+)?(?:then\s+|do\s+|else\s+|exec\s+|[{(!]\s*)?"
                     r"(kill\s+(?:-s\s+\w+\s+|-\S+\s+)*1)(?![\w.])")


def signals_pid1(c: Container) -> bool:
    """Whether ``c``'s command, args or hooks send a signal to PID 1."""
    return any(_KILL_1.match(s) for field, text in sources(c) if not field.startswith("env")
               for s in segments(text))


def check(ctx: RuleContext) -> Iterator[Finding]:
    pod = ctx.pod
    if not (pod.share_process_namespace or pod.host_pid):
        return
    for c in pod.all_containers:
        for field, text in sources(c):
            if "kill" not in text or field.startswith("env"):   # _KILL_1 names kill
                continue
            m = next(filter(None, (_KILL_1.match(s) for s in segments(text))), None)
            if m is None:
                continue
            command = " ".join(m.group(1).split())
            yield ctx.finding(ID, c, ctx.container_path(c, field), _explanation(ctx, c, field, command),
                              fill(FIX, name=c.name, program=ctx.facts(c).program or c.name))
            break


def _explanation(ctx: RuleContext, c: Container, field: str, command: str) -> Text:
    """What the signal does to PID 1 here (docs/lifecycle-model.md §30), in the timeline's own numbers."""
    pod = ctx.pod
    fields = {"c": c.name, "command": command}
    if not pod.share_process_namespace:   # hostPID: the node's init
        return Text(gettext_noop(
            "{c} runs `{command}` to signal its own main process, but in this Pod PID 1 is the node's init "
            "process (hostPID: true). The signal goes there (or is refused) and {c}'s program never gets it."),
            fields)
    flag = command[4:-1].strip()
    if flag not in PAUSE_SIGNALS:
        return Text(gettext_noop(
            "{c} runs `{command}` to signal its own main process, but in this Pod PID 1 is the pause process "
            "(shareProcessNamespace: true), which has no handler for that signal; the kernel drops signals a "
            "namespace's init does not handle, so nothing happens, and {c}'s program is never told."), fields)
    if not may_signal_pause(c, pod):
        return Text(gettext_noop(
            "{c} runs `{command}` to signal its own main process, but in this Pod PID 1 is the pause process "
            "(shareProcessNamespace: true), which runs as another user: {c} runs as a non-root user without "
            "CAP_KILL, so kill fails with \"Operation not permitted\" and {c}'s program is never told."), fields)
    return Text(gettext_noop(
        "{c} runs `{command}` to signal its own main process, but in this Pod PID 1 is the pause process "
        "(shareProcessNamespace: true). pause exits on SIGTERM, and when PID 1 of a PID namespace exits the "
        "kernel SIGKILLs every other process in it: {when} every container of the Pod still running ends with "
        "exit code 137, the hooks still running included, and the sandbox is gone. {what}"),
        fields | {"when": _when(ctx, c, field), "what": _what(ctx, c, field)})


def _when(ctx: RuleContext, c: Container, field: str) -> Text:
    """When the pause process exits: the timeline's (a deletion in the scenario), or a deletion's."""
    if field != "lifecycle.preStop.exec.command":
        return Text(gettext_noop("when it runs,"))
    dele = ctx.deletion(c)
    sim = ctx.simulation
    lost = next((e for e in (sim.events if sim is not None else ()) if e.type == "sandbox_lost"
                 and e.reason == "PauseExited"), None) if dele is not None and dele.on_trace else None
    if lost is not None and dele is not None:
        return Text(gettext_noop("on the timeline at {t} s, {after} s after the deletion at {at} s,"),
                    {"t": TraceTime(lost.t), "after": f"{lost.t - dele.at:g}", "at": TraceTime(dele.at)})
    killed = dele.first("exited") if dele is not None else None
    if killed is not None and dele is not None and killed.exit_code == 137:
        return Text(gettext_noop("{after} s after a deletion,"), {"after": f"{killed.t - dele.at:g}"})
    return Text(gettext_noop("when its preStop runs,"))


def _what(ctx: RuleContext, c: Container, field: str) -> Text:
    if field == "lifecycle.preStop.exec.command":
        return Text(gettext_noop(
            "Nothing drains: the containers still in their own preStop (a proxy draining connections) die "
            "mid-hook, and {c}'s program gets SIGKILL, not the SIGTERM it was meant to get. The Pod ends "
            "Failed."), {"c": c.name})
    return Text(gettext_noop(
        "If the Pod is not being deleted, the kubelet then finds its sandbox gone, kills what is left and "
        "starts the whole Pod again in a new sandbox, init containers first."))
