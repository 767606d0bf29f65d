"""A plain init container whose process never exits, so the app containers never start.

Plain init containers run one at a time, and each must exit with code 0 before the kubelet
starts the next one; app containers start only after the last one has. A server, a
`sleep infinity`, a `while true` loop or a `tail -f` in an init container keeps the Pod in
`Init:i/N` (phase Pending) for good, with no error and no restart to hint at the cause.

Fix: make the command finish (a one-shot job that exits 0), or, for a helper that must keep
running next to the app, make it a native sidecar with `restartPolicy: Always` (1.29+).

Fires when: an init container without restartPolicy: Always runs a command (or a server
image) that runs until stopped.
Quiet when: every plain init container's command ends (a finite sleep, a one-shot program).
"""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.commands import guess_run
from explainer.lifecycle.defaults import DOCS

from ..base import Finding, RuleContext, Severity, fill
from ..scripts import main_field

ID = "init-never-completes"
TITLE = "Init container never completes"
SEVERITY = Severity.ERROR
DOCS_URL = DOCS["init-containers"]
REFERENCES = (DOCS["sidecar-containers"],)
FIX = """
initContainers:
  - name: $name
    image: $image
    restartPolicy: Always     # a native sidecar: the next container starts once it runs
    # or keep it a plain init container and give it a command that exits 0 when done
"""


def check(ctx: RuleContext) -> Iterator[Finding]:
    inits = ctx.pod.init_containers
    for i, c in enumerate(inits):
        if c.role != "init":
            continue
        guess = guess_run(c, True)
        if guess.seconds is not None:
            continue
        after = [x.name for x in inits[i + 1:]] + [x.name for x in ctx.pod.containers]
        blocked = ", ".join(after) or "the app containers"
        hedge = "" if guess.certain else "probably "
        dropped = (" Its restartPolicy: Always was dropped: Kubernetes "
                   f"{ctx.version} does not run it as a native sidecar."
                   if ctx.raw(ctx.container_path(c, "restartPolicy")) == "Always" else "")
        explanation = (
            f"Init container {c.name} {hedge}never exits: {guess.why}. Plain init containers run "
            f"one at a time and each must exit 0 before the next starts, so {blocked} never "
            f"start{'s' if len(after) == 1 else ''}; the Pod stays Init:{i}/{len(inits)} "
            f"(Pending) until it is deleted.{dropped}")
        yield ctx.finding(ID, c, ctx.container_path(c, main_field(c)), explanation,
                          fill(FIX, name=c.name, image=c.image or "example/image:1.0"))
