"""The `poststart-reload-runs-once` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

import re
from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.commands.mounted_scripts import hook_text

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop

ID = "poststart-reload-runs-once"
TITLE = gettext_noop("postStart used as a configuration reload")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["hooks"] + "#container-hooks"
REFERENCES = (
    DOCS["pod-lifecycle"],
    "https://kubernetes.io/docs/concepts/configuration/configmap/#mounted-configmaps-are-updated-automatically",
    "https://github.com/jimmidyson/configmap-reload",
    "https://docs.fluentbit.io/manual/administration/hot-reload",
)
WHAT = gettext_noop(
    "A postStart hook signals the container's own program to reload (kill -HUP $(pidof x), nginx -s reload, "
    "a /reload endpoint), as if it ran when the configuration changes.")
WHY = gettext_noop(
    "postStart runs once per container start, right after the runtime starts the entrypoint and at the same "
    "time as it (kuberuntime startContainer), never again. So the reload happens when the program has just "
    "read its configuration anyway, and may even come too early: pidof can find nothing yet, kill then fails, "
    "and a failing postStart makes the kubelet kill the container (FailedPostStartHook). Later changes of a "
    "ConfigMap reach a mounted volume (not a subPath mount) a minute or so later, and nothing tells the "
    "program: no hook runs on a ConfigMap change.")
FIX_TEXT = gettext_noop(
    "Drop the hook. To reload on a change, run a reloader beside the program (configmap-reload watching the "
    "mounted directory and calling the program's reload endpoint), use the program's own file watching, or "
    "roll the Pods when the ConfigMap changes (a checksum annotation in the template).")
FIRES_WHEN = gettext_noop(
    "a postStart exec hook sends a reload signal (HUP, USR1, USR2) with kill, pkill or killall, runs nginx -s "
    "reload, or calls a /reload endpoint on localhost.")
QUIET_WHEN = gettext_noop(
    "postStart does something that belongs at start (write a marker, register the instance), or the reload "
    "is done by a process that watches for changes.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
- name: $name
  lifecycle: {}          # no postStart: it runs once, at start
# reload on change instead: a reloader beside it, watching the mounted ConfigMap
- name: config-reloader
  image: ghcr.io/jimmidyson/configmap-reload:v0.15.0
  args: ["--volume-dir=$dir", "--webhook-url=http://localhost:$port/$endpoint"]
"""
EXAMPLE = {"dir": "/config", "port": "2020", "endpoint": "api/v2/reload"}
_SIGNAL = re.compile(r"\b(?:kill|pkill|killall)\s+-(?:s\s+)?(?:SIG)?(HUP|USR1|USR2|1|10|12)\b")
_NGINX = re.compile(r"\bnginx\s+-s\s+reload\b")
_ENDPOINT = re.compile(r"(?:localhost|127\.0\.0\.1)(?::(\d+))?(/[\w/.-]*reload[\w/.-]*)")
_PIDOF = re.compile(r"\$\((?:pidof|pgrep)\b")


def check(ctx: RuleContext) -> Iterator[Finding]:
    for c in ctx.pod.containers + ctx.pod.sidecars:
        hook = c.post_start
        if hook is None or hook.handler != "exec":
            continue
        text = hook_text(c, hook.command)[:4096]
        how = _how(text)
        if how is None:
            continue
        race = Text(gettext_noop(" Here the PID comes from {lookup} at that very moment: if the program has not "
                                 "started yet it finds nothing, kill fails, and the kubelet kills {c} for the "
                                 "failed hook."), {"lookup": "pidof" if "pidof" in text else "pgrep", "c": c.name}) \
            if _PIDOF.search(text) else ""
        explanation = Text(gettext_noop(
            "{c}'s postStart hook runs `{how}`, a reload, but postStart runs once per start of {c}, at the same "
            "time as its entrypoint, and never again: it is no reload on configuration change. The program "
            "has just read its configuration, and when the ConfigMap changes later nothing runs this hook.{race}"),
            {"c": c.name, "how": how, "race": race})
        config = next((m.mount_path for m in c.mounts if m.sub_path is None and any(
            v.name == m.volume and v.type in ("configMap", "projected") for v in ctx.pod.volumes)), "/config")
        m = _ENDPOINT.search(text)
        yield ctx.finding(ID, c, ctx.container_path(c, "lifecycle.postStart.exec.command"), explanation,
                          fill(FIX, name=c.name, dir=config, port=(m.group(1) if m and m.group(1) else "<PORT>"),
                               endpoint=(m.group(2).lstrip("/") if m else "<RELOAD PATH>")))


def _how(text: str) -> str | None:
    """The reload the hook's script makes, as written (the first found)."""
    for pattern in (_SIGNAL, _NGINX, _ENDPOINT):
        m = pattern.search(text)
        if m is not None:
            start = text.rfind(" ", 0, m.start()) + 1 if pattern is _ENDPOINT else m.start()
            statement = re.split(r"[;\n]|&&|\|\|", text[start:])[0]
            return " ".join(statement.split())[:120]
    return None
