"""The `process-namespace-assumed` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

import re
from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.model import Container

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..patch import SetKey
from ..scripts import sources
from .kill_pid1_shared_namespace import signals_pid1

ID = "process-namespace-assumed"
TITLE = gettext_noop("Process of another container assumed visible")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["share-process-namespace"]
WHAT = gettext_noop(
    "A container looks for or signals another container's process without a shared PID "
    "namespace.")
WHY = gettext_noop(
    "By default each container has its own PID namespace and sees only its own processes. A "
    "config reloader's `pkill -HUP nginx`, a `pidof app` or `ps | grep app` from a sidecar, or "
    "a `strace -p` aimed at the app finds nothing: the command fails (or matches nothing) every "
    "time, and the reload or the diagnosis silently never happens.")
FIX_TEXT = gettext_noop(
    "Set `shareProcessNamespace: true` on the Pod (then PID 1 is the pause container, and every "
    "container can see the others' processes and files under /proc/PID/root), or signal the "
    "other program another way (an HTTP admin endpoint, a file on a shared volume).")
FIRES_WHEN = gettext_noop(
    "pkill, pidof, pgrep, killall or `ps | grep` in a container's command, args or hooks names "
    "another container's name, image or program, and the Pod neither shares its process "
    "namespace nor uses hostPID.")
QUIET_WHEN = gettext_noop("shareProcessNamespace or hostPID is set, or the name is the container's own.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
spec:
  shareProcessNamespace: true   # $name can now see and signal $other's processes
"""
_LOOKUP = re.compile(r"\b(?:pkill|pidof|pgrep|killall)\s+(?:-\S+\s+)*([\w.-]+)")
_PS = re.compile(r"\bps\b")
_GREP = re.compile(r"^\s*grep\s+(?:-\S+\s+)*([\w.-]+)")


def check(ctx: RuleContext) -> Iterator[Finding]:
    pod = ctx.pod
    if pod.share_process_namespace or pod.host_pid:
        return
    names = {c.name: ctx.facts(c).names for c in pod.all_containers}
    # fixable, unless a container signals PID 1, which would then be the pause container
    patch = (None if any(signals_pid1(c) for c in pod.all_containers)
             else (SetKey(tuple(pod.spec_path) + ("shareProcessNamespace",), True),))
    owners: dict[str, list[Container]] = {}
    for o in pod.all_containers:
        for word in names[o.name]:
            owners.setdefault(word, []).append(o)
    for c in pod.all_containers:
        target = pod.container(c.target) if c.target else None   # kubectl debug --target joins it
        own = names[c.name] | (names[target.name] if target else set())
        reported: set[str] = set()
        for field, text in sources(c):
            if field.startswith("env"):
                continue
            for used, word in _lookups(text):
                other = None if word in own else next(
                    (o for o in owners.get(word, ()) if o is not c and o is not target), None)
                if other is None or other.name in reported:
                    continue
                reported.add(other.name)
                explanation = Text(gettext_noop(
                    "{c} runs `{command}` to find {other}'s process, but the Pod "
                    "does not set shareProcessNamespace: each container has its own PID namespace, "
                    "so {c} sees only its own processes. The lookup finds nothing every time, "
                    "and the signal or inspection never reaches {other}."),
                    {"c": c.name, "command": used, "other": other.name})
                yield ctx.finding(ID, c, ctx.container_path(c, field), explanation,
                                  fill(FIX, name=c.name, other=other.name), patch=patch)


def _lookups(text: str) -> list[tuple[str, str]]:
    """(what the script runs, the process name it looks for): pkill nginx, ps aux | grep nginx."""
    found = [(m.group(0).strip(), m.group(1)) for m in _LOOKUP.finditer(text)]
    parts = text.split("|")
    for before, after in zip(parts, parts[1:]):
        m = _GREP.match(after)
        if m and _PS.search(before.rsplit(";", 1)[-1].rsplit("\n", 1)[-1]):
            found.append((f"ps | grep {m.group(1)}", m.group(1)))
    return found
