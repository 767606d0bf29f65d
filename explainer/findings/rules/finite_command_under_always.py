"""The `finite-command-under-always` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.commands.guess import finite_run
from explainer.lifecycle.defaults import CRASH_LOOP_RESET_SECONDS, DOCS

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..scripts import main_field

ID = "finite-command-under-always"
TITLE = gettext_noop("Finishing command under restartPolicy Always")
SEVERITY = Severity.ERROR
DOCS_URL = DOCS["container-restarts"]
REFERENCES = (DOCS["jobs"], "https://github.com/kubernetes/kubernetes/issues/50962")
WHAT = gettext_noop("An app container whose command finishes, in a Pod whose restartPolicy is Always.")
WHY = gettext_noop(
    "Every Deployment, StatefulSet, DaemonSet and ReplicaSet Pod has restartPolicy Always, and the "
    "kubelet restarts an app container whenever it exits: exit code 0 counts as much as a crash. A "
    "script that ends, a finite `sleep`, or a one-shot tool is therefore started again and again "
    "with a growing back-off (10 s doubling to 5 min): kubectl shows it Completed, then "
    "CrashLoopBackOff, and the restart count climbs. A run of ten minutes or more resets the "
    "back-off, so a long `sleep` is restarted each time it ends instead (info then).")
FIX_TEXT = gettext_noop(
    "Run one-shot work as a Job (restartPolicy OnFailure or Never), or keep the process in the "
    "foreground (the server itself, `exec` it, or wait on it).")
FIRES_WHEN = gettext_noop(
    "an app container of a Pod with restartPolicy Always runs a command made only of one-shot "
    "commands (echo, date, a finite sleep, ...), or a list of commands whose last step is a finite sleep "
    "(the steps before it are expected to end, or the sleep would never run): it ends.")
QUIET_WHEN = gettext_noop(
    "the command runs a program that serves, loops, waits or sleeps for ever, the command is the "
    "image's own, or the Pod's restartPolicy is OnFailure or Never.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
# one-shot work: a Job
apiVersion: batch/v1
kind: Job
spec:
  template:
    spec:
      restartPolicy: OnFailure
      containers:
        - name: $name
          image: $image
# a server: keep it in the foreground
# (end the script with `exec server`)
"""


# `sleep 360000000`, `sleep 2147483647`: a sleep of a year or more is the "sleep for ever" idiom of
# images without `sleep infinity`; no Pod lives to see it end.
FOREVER_SECONDS = 365 * 86400


def check(ctx: RuleContext) -> Iterator[Finding]:
    if ctx.pod.restart_policy != "Always" or ctx.pod.batch:
        return
    sim = ctx.simulation
    for c in ctx.pod.containers:
        if sim is not None and c.name in sim.behaviours:   # the timeline's run first: cheap, and mostly quiet
            seconds = sim.behaviours[c.name].run(0).seconds
            if seconds is None or seconds >= FOREVER_SECONDS:
                continue
        run = finite_run(c)
        if run is None:
            continue
        b = ctx.behaviour(c)
        seconds = b.run(0).seconds
        if seconds is None or seconds >= FOREVER_SECONDS:   # runs until stopped, or "sleeps for ever"
            continue
        long_run = seconds >= CRASH_LOOP_RESET_SECONDS
        explanation = Text(gettext_noop(
            "{c}'s command ends ({why}), and under restartPolicy Always the kubelet restarts it "
            "every time it exits, exit code 0 included. {what}"),
            {"c": c.name, "why": run.why, "what": _what(ctx, c.name, seconds, long_run)})
        yield ctx.finding(ID, c, ctx.container_path(c, main_field(c)), explanation,
                          fill(FIX, name=c.name, image=c.image or "example/image:1.0"),
                          severity=Severity.INFO if long_run else None)


def _what(ctx: RuleContext, name: str, seconds: float, long_run: bool) -> Text:
    """What the simulation shows: the restarts and the back-off, or a restart per run."""
    if long_run:
        return Text(gettext_noop(
            "Each run lasts {seconds} s, long enough to reset the back-off, so it is restarted at "
            "once each time it ends: the restart count climbs and the Pod is briefly not Ready."),
            {"seconds": f"{seconds:g}"})
    sim = ctx.simulation
    restarts = sim.restart_counts.get(name, 0) if sim else 0
    backoff = next((e.t for e in sim.events if e.container == name and e.type == "backoff"), None) if sim else None
    if backoff is None or sim is None:
        return Text(gettext_noop(
            "After a few runs of {seconds} s it waits in CrashLoopBackOff between restarts, 10 s "
            "doubling to 5 min."), {"seconds": f"{seconds:g}"})
    return Text(gettext_noop(
        "The timeline shows it: exit 0 after {seconds} s, a restart, and from {t} s CrashLoopBackOff "
        "with a back-off doubling from 10 s ({restarts} restarts by {until} s)."),
        {"seconds": f"{seconds:g}", "t": f"{backoff:g}", "restarts": restarts, "until": f"{sim.until:g}"})
