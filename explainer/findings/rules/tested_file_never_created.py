"""The `tested-file-never-created` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

import json
from collections.abc import Iterator

from explainer.lifecycle.commands.guess import runs_only_known, shell_script
from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.commands.files import missing_file, tested_file
from explainer.lifecycle.model import Container

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..unreachable import blocked, consequence, listing

ID = "tested-file-never-created"
TITLE = gettext_noop("Probe or hook tests a file nothing creates")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["probes"] + "#define-a-liveness-command"
REFERENCES = (DOCS["pod-lifecycle"] + "#container-probes",)
WHAT = gettext_noop(
    "An exec probe or postStart hook tests or reads a file ([ -f /healthy ], cat /tmp/healthy) that nothing "
    "in the Pod creates.")
WHY = gettext_noop(
    "An exec probe passes when its command exits 0, and a file test exits 0 only once the file exists. The "
    "Kubernetes example that tests /tmp/healthy works because its own command touches the file first; "
    "copied without that step, the probe fails from its first check: a liveness probe kills the container "
    "failureThreshold checks after initialDelaySeconds, over and over (CrashLoopBackOff), a readiness probe "
    "keeps it out of its Services for good, and a postStart hook fails (FailedPostStartHook), so the kubelet "
    "kills the container at every start. The finding reads who could create the file: the container's "
    "command and hooks, its env, a volume mounted over the path; it stays quiet when the image's own program "
    "runs, since that may create it.")
FIX_TEXT = gettext_noop(
    "Create the file where the program is healthy (touch it in the command, or let the program write it), "
    "or probe something the program really serves.")
FIRES_WHEN = gettext_noop(
    "an exec probe or postStart hook does nothing but test or read one absolute file, the container's command runs only "
    "one-shot programs (echo, sleep, date, ...), and no command, hook, env value or volume mount names the "
    "file or a directory above it.")
QUIET_WHEN = gettext_noop(
    "the command, a hook or an env value names the file, a volume is mounted over it, the image's own "
    "program runs (no command, or a program the model does not know), the path is one an image ships "
    "(/etc, /usr, /app, ...), or a scenario says how the probes behave (startupSeconds, failingProbes).")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
- name: $name
  command: ["sh", "-c", "touch $file && $rest"]   # create it where the program is known to be healthy
"""
EXAMPLE = {"file": "/healthy", "rest": "exec my-server"}


def check(ctx: RuleContext) -> Iterator[Finding]:
    for c in ctx.pod.containers + ctx.pod.sidecars:
        # commands/probe_faults.py `_file_nothing_creates` and behaviour.py `_post_start_file` (files.py): the readings
        # the timeline fails the probe and the hook on
        probes = blocked(ctx, c, ID)
        hook = _hook_file(ctx, c)
        if not probes and hook is None:
            continue
        script = json.dumps((shell_script(c) or "").strip() or "<ITS COMMAND>")[1:-1]
        if probes:
            first = probes[0][0]
            explanation = Text(gettext_noop("{c} cannot pass {probes}. {what}"),
                               {"c": c.name, "probes": listing(probes),
                                "what": consequence(c, [p for p, _w in probes])})
            found = tested_file(first.command)
            yield ctx.finding(ID, c, ctx.container_path(c, f"{first.kind}Probe.exec.command"), explanation,
                              fill(FIX, name=c.name, file=found[0] if found else "<FILE>", rest=script))
        if hook is not None:
            explanation = Text(gettext_noop(
                "{c}'s postStart hook tests {path}, and nothing creates that file: {c}'s command runs only "
                "programs that write no file it does not name, and no other hook, env value or volume mount names "
                "it (assumed: the image does not ship it). The hook fails, so the kubelet kills {c} "
                "(FailedPostStartHook) at every start{when}: it never runs for long."),
                {"c": c.name, "path": hook, "when": _when(ctx, c)})
            yield ctx.finding(ID, c, ctx.container_path(c, "lifecycle.postStart.exec.command"), explanation,
                              fill(FIX, name=c.name, file=hook, rest=script))


def _hook_file(ctx: RuleContext, c: Container) -> str | None:
    """The file ``c``'s postStart hook tests, when the timeline fails the hook for it (not when a scenario
    says how the hook ends)."""
    b = ctx.behaviour(c)
    if c.post_start is None or not b.post_start_exit_code or "postStartExitCode" not in b.assumed:
        return None
    return missing_file(c, c.post_start.command, runs_only_known(c))


def _when(ctx: RuleContext, c: Container) -> Text | str:
    at = ctx.trace_time(c, "poststart_done")
    return Text(gettext_noop(" (first at {t} s)"), {"t": at}) if at is not None else ""
