"""The `job-sidecar-blocks-completion` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.model import Container

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..patch import sidecar_probe_port, to_native_sidecar
from ..scripts import main_field

ID = "job-sidecar-blocks-completion"
TITLE = gettext_noop("Classic sidecar keeps a Job from completing")
SEVERITY = Severity.ERROR
DOCS_URL = DOCS["sidecar-containers"]
REFERENCES = (DOCS["jobs"],)
WHAT = gettext_noop("A Job or CronJob Pod with a classic sidecar that never exits: the Job never completes.")
WHY = gettext_noop(
    "A Pod of a Job succeeds when all its app containers have exited. A log shipper or proxy in "
    "`containers` runs until it is stopped, and nothing stops it: after the worker finishes, "
    "the Pod stays Running, the Job never counts a completion, and a CronJob's next run may "
    "pile up behind it.")
FIX_TEXT = gettext_noop(
    "Make the helper a native sidecar (`initContainers` with `restartPolicy: Always`, 1.29+, or 1.28 with "
    "the SidecarContainers gate): the kubelet stops it once the app containers have exited and the Pod "
    "succeeds. Without native sidecars, keep it in `containers` and give it an exit protocol (a file the "
    "worker writes on a shared volume when it ends).")
FIRES_WHEN = gettext_noop(
    "a Job or CronJob Pod has, in `containers`, a container that runs until stopped beside one "
    "that finishes.")
QUIET_WHEN = gettext_noop("the helper is a native sidecar, or every app container ends.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
initContainers:
  - name: $name  # moved here from containers
    image: $image
    restartPolicy: Always     # native sidecar: stopped once $other has exited
$probe
containers:
  - name: $other
"""
PROBE = """    startupProbe:             # $other starts only once $name listens
      tcpSocket:
        port: $port
      periodSeconds: 1
      failureThreshold: 30"""
UNKNOWN_PORT = "<PORT>  # not in the manifest: the port $name listens on"
FIX_NO_SIDECARS = """
# Kubernetes $version runs no native sidecars (1.29+; 1.28 with the gate).
# Keep $name in containers; $other ends it through a file on a shared volume:
containers:
  - name: $other
    command:
      - sh
      - -c
      - trap 'touch /shared/done' EXIT; <ITS COMMAND>
    volumeMounts: [{name: shared, mountPath: /shared}]
  - name: $name
    command:
      - sh
      - -c
      - <ITS COMMAND> & until [ -f /shared/done ]; do sleep 1; done
    volumeMounts: [{name: shared, mountPath: /shared}]
volumes:
  - name: shared
    emptyDir: {}
"""
EXAMPLE = {"other": "worker", "probe": "", "version": "1.28"}


def check(ctx: RuleContext) -> Iterator[Finding]:
    pod = ctx.pod
    if not pod.batch or len(pod.containers) < 2:
        return
    guesses = {c.name: ctx.facts(c).run_guess for c in pod.containers}
    finishing = [c.name for c in pod.containers if guesses[c.name].seconds is not None]
    if not finishing:
        return
    # a worker that calls the helper's shutdown endpoint when done ends it (lifecycle/commands/shutdown.py)
    ended = {s.target for c in pod.containers if c.name in finishing for s in ctx.behaviour(c).exit_stops}
    for c in pod.containers:
        guess = guesses[c.name]
        if guess.seconds is not None or c.name in ended:
            continue
        cronjob = Text(gettext_noop(" (and the CronJob's later runs start beside it, or are skipped under "
                                    "concurrencyPolicy: Forbid)")) if pod.source.kind == "CronJob" else ""
        deadline = (Text(gettext_noop(" until activeDeadlineSeconds ({seconds} s) fails it"),
                         {"seconds": pod.active_deadline_seconds}) if pod.active_deadline_seconds else "")
        msgid = gettext_noop(
            "In this {kind} Pod, {c} runs until it is stopped: {why}. After {workers} finishes, {c} keeps "
            "running and nothing stops it: the Pod stays Running, so the Job never records a "
            "completion{cronjob}{deadline}.") if len(finishing) == 1 else gettext_noop(
            "In this {kind} Pod, {c} runs until it is stopped: {why}. After {workers} finish, {c} keeps "
            "running and nothing stops it: the Pod stays Running, so the Job never records a "
            "completion{cronjob}{deadline}.")
        explanation = Text(msgid, {"kind": pod.source.kind, "c": c.name, "why": guess.why,
                                   "workers": ", ".join(finishing), "cronjob": cronjob, "deadline": deadline})
        yield ctx.finding(ID, c, ctx.container_path(c, main_field(c)), explanation, _fix(ctx, c, finishing[0]),
                          # fixable where the version runs native sidecars and the helper's port (for its
                          # startupProbe) is known; else the worker must stop it: a person's choice.  Even
                          # where "runs until stopped" is a guess this is safe: a native sidecar that exits
                          # is started again, and ends with the Job once the workers have finished.
                          patch=to_native_sidecar(ctx, c))


def _fix(ctx: RuleContext, c: Container, other: str) -> str:
    """Right on every version: a native sidecar (with a startupProbe on a port the manifest names,
    where the workers reach it) where the version runs them; else an exit protocol, the helper
    staying in containers (docs/lifecycle-model.md §13)."""
    if not ctx.sidecars_enabled:
        return fill(FIX_NO_SIDECARS, name=c.name, other=other, version=ctx.version)
    port = sidecar_probe_port(ctx, c)
    probe = "" if port is None or c.startup_probe is not None else fill(
        PROBE, name=c.name, other=other, port=port if port is not False else fill(UNKNOWN_PORT, name=c.name).strip())
    return fill(FIX, name=c.name, image=c.image, other=other, probe=probe.rstrip("\n")).replace("\n\n", "\n")
