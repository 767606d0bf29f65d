"""The `init-never-completes` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.model import Container

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Names, Text, gettext_noop
from ..patch import no_sidecars_fix, plain_init_to_sidecar
from ..scripts import main_field, wait_loops

ID = "init-never-completes"
TITLE = gettext_noop("Init container never completes")
SEVERITY = Severity.ERROR
DOCS_URL = DOCS["init-containers"]
REFERENCES = (DOCS["sidecar-containers"],)
WHAT = gettext_noop("A plain init container whose process never exits, so the app containers never start.")
WHY = gettext_noop(
    "Plain init containers run one at a time, and each must exit with code 0 before the kubelet "
    "starts the next one; app containers start only after the last one has. A server, a `sleep "
    "infinity`, a `while true` loop or a `tail -f` in an init container keeps the Pod in "
    "`Init:i/N` (phase Pending) for good, with no error and no restart to hint at the cause.")
FIX_TEXT = gettext_noop(
    "Make the command finish (a one-shot job that exits 0), or, for a helper that must keep "
    "running next to the app, make it a native sidecar with `restartPolicy: Always` (1.29+).")
FIRES_WHEN = gettext_noop(
    "an init container without restartPolicy: Always runs a command (or a server image) that "
    "runs until stopped.")
QUIET_WHEN = gettext_noop("every plain init container's command ends (a finite sleep, a one-shot program).")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
initContainers:
  - name: $name
    image: $image
    restartPolicy: Always     # a native sidecar: the next container starts once it runs
    # or keep it a plain init container and give it a command that exits 0 when done
"""

FIX_NO_SIDECARS = """
initContainers:
  - name: $name
    image: $image
    # no native sidecars on $version: a command that exits 0 when done
    command: ["sh", "-c", "<WHAT IT MUST DO, ONCE>"]
"""


def check(ctx: RuleContext) -> Iterator[Finding]:
    inits = ctx.pod.init_containers
    names = [x.name for x in inits + ctx.pod.containers]   # shared: each finding names those after it
    for i, c in enumerate(inits):
        if c.role != "init":
            continue
        guess = ctx.facts(c).run_guess
        if guess.seconds is not None:
            continue
        after = Names(names, start=i + 1)
        blocked = after if len(after) else Text(gettext_noop("the app containers"))
        never_exits = Text(gettext_noop("never exits") if guess.certain else gettext_noop("probably never exits"))
        dropped: Text | str = ""
        if c.policy_written == "Always":   # written, and dropped with the SidecarContainers gate off
            # Translators: a sentence appended to the explanation; it starts with the space between them.
            dropped = Text(gettext_noop(" Its restartPolicy: Always was dropped: Kubernetes {version} does not "
                                        "run it as a native sidecar."), {"version": ctx.version})
        if len(after) == 1:
            msgid = gettext_noop(
                "Init container {c} {never_exits}: {why}. Plain init containers run one at a time and each "
                "must exit 0 before the next starts, so {blocked} never starts; the Pod stays Init:{i}/{n} "
                "(Pending) until it is deleted.{dropped}")
        else:
            msgid = gettext_noop(
                "Init container {c} {never_exits}: {why}. Plain init containers run one at a time and each "
                "must exit 0 before the next starts, so {blocked} never start; the Pod stays Init:{i}/{n} "
                "(Pending) until it is deleted.{dropped}")
        explanation = Text(msgid, {"c": c.name, "never_exits": never_exits, "why": guess.why,
                                   "blocked": blocked, "i": i, "n": len(inits), "dropped": dropped})
        if ctx.sidecars_enabled:
            fix = fill(FIX, name=c.name, image=c.image or "<IMAGE>")
        elif dropped:   # written as a native sidecar: the same fix native-sidecar-unsupported gives
            fix = no_sidecars_fix(ctx.pod, c, ctx.version)
        else:
            fix = fill(FIX_NO_SIDECARS, name=c.name, image=c.image or "<IMAGE>", version=ctx.version)
        yield ctx.finding(ID, c, ctx.container_path(c, main_field(c)), explanation, fix,
                          # fixable where the version runs native sidecars and the command certainly runs
                          # until stopped: it keeps running beside the app, as it was written to.  A guess
                          # ("its name suggests") or a wait loop (init-wait-without-timeout's) needs a person:
                          # a one-shot init container made a sidecar would be restarted each time it exits.
                          patch=None if _waits(c) or not guess.certain
                          else plain_init_to_sidecar(ctx, c))


def _waits(c: Container) -> bool:
    return bool(wait_loops(c.script))
