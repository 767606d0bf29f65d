"""The `prestop-exceeds-grace` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

import math
from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.model import Container
from explainer.lifecycle.kubelet.trace import TraceEvent

from ..base import Finding, RuleContext, Severity, TraceTime, fill, flow_yaml
from ..docstring import rule_docstring
from ..drain import drain_seconds
from ..i18n import Text, gettext_noop
from ..patch import SetKey

ID = "prestop-exceeds-grace"
TITLE = gettext_noop("preStop and shutdown exceed the grace period")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["pod-lifecycle"] + "#pod-termination"
REFERENCES = (DOCS["hooks"],)
WHAT = gettext_noop("preStop plus the container's shutdown takes longer than terminationGracePeriodSeconds.")
WHY = gettext_noop(
    "Deletion starts one shared deadline for every container: preStop runs first, SIGTERM "
    "follows when it ends, and SIGKILL comes when the grace period is used up (a preStop that "
    "overruns still leaves SIGTERM a 2 s minimum). A hook or a shutdown that needs more is cut "
    "off: connections are dropped mid-drain and the container ends with exit code 137. Sidecars "
    "get SIGTERM only after the app containers have exited, from the same deadline.")
FIX_TEXT = gettext_noop(
    "Keep preStop short and bounded, and raise terminationGracePeriodSeconds above preStop plus "
    "the time the program needs to exit after SIGTERM.")
FIRES_WHEN = gettext_noop(
    "a container's preStop never ends, or its preStop plus its expected shutdown (or, for a "
    "sidecar, the wait for the app containers) exceeds the grace period.")
QUIET_WHEN = gettext_noop("preStop and shutdown fit inside terminationGracePeriodSeconds.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
spec:
  terminationGracePeriodSeconds: $grace   # preStop + shutdown after SIGTERM + a margin
  containers:
    - name: $name
      lifecycle:
        preStop:                # bounded, and well inside the grace period
          $hook
"""
EXAMPLE = {"hook": "sleep: {seconds: 5}"}


def check(ctx: RuleContext) -> Iterator[Finding]:
    pod, grace = ctx.pod, ctx.pod.termination_grace_period
    apps_end = _apps_end(ctx, grace)
    for c in pod.containers + pod.sidecars:
        hook = c.pre_stop
        if hook is None or (hook.handler == "sleep" and (hook.sleep_seconds or 0) > grace):
            continue  # the API server rejects a sleep action longer than the grace period
        b = ctx.behaviour(c)
        pre, stop = b.pre_stop_seconds, b.stop_seconds
        term = None if pre is None else max(pre, apps_end) if c.role == "sidecar" else pre
        if term is not None and (term + stop <= grace if stop is not None else pre == 0 and term <= grace):
            continue
        if pre is None:
            what = Text(gettext_noop("preStop of {c} never ends ({why})"),
                        {"c": c.name, "why": b.assumed.get("preStopSeconds", Text(gettext_noop("it loops")))})
        elif pre > grace:
            what = Text(gettext_noop("preStop of {c} takes {pre} s"), {"c": c.name, "pre": format(pre, "g")})
        elif stop is None:
            what = Text(gettext_noop("preStop of {c} takes {pre} s and then it ignores SIGTERM ({why})"),
                        {"c": c.name, "pre": format(pre, "g"),
                         "why": b.assumed.get("stopSeconds", Text(gettext_noop("no handler")))})
        else:
            what = Text(gettext_noop("preStop of {c} takes {pre} s and it needs {stop} s after SIGTERM to exit"),
                        {"c": c.name, "pre": format(pre, "g"), "stop": format(stop, "g")})
        side = Text(gettext_noop(" As a sidecar it gets SIGTERM only after the app containers have exited "
                                 "(at {apps_end} s here), from the same deadline."),
                    {"apps_end": format(apps_end, "g")}) if c.role == "sidecar" else ""
        cut = Text(gettext_noop("the hook") if pre is None or pre > grace else gettext_noop("its shutdown"))
        outcome = _outcome(ctx, c, cut)
        if outcome is None:
            continue   # the simulated deletion shows no cut: nothing to warn about
        explanation = Text(gettext_noop("{what}, but terminationGracePeriodSeconds is {grace} s: {outcome}{side}"),
                           {"what": what, "grace": grace, "outcome": outcome, "side": side})
        needed = (term if term is not None else grace) + (stop or 0) + 10
        path = ctx.container_path(c, "lifecycle.preStop")
        hook_yaml = (flow_yaml(*hook.written[0]) if pre is not None and len(hook.written) == 1
                     else "sleep: {seconds: 5}")    # the hook as written, when it is one handler
        grace_fix = int(needed) if pre is not None else grace
        yield ctx.finding(ID, c, path, explanation, fill(FIX, name=c.name, grace=grace_fix, hook=hook_yaml),
                          patch=_patch(ctx, pre, stop, c.role == "sidecar"))


def _outcome(ctx: RuleContext, c: Container, cut: Text) -> Text | None:
    """What the deletion does to ``c``, in the numbers of the timeline's trace (or, when the scenario does
    not delete the Pod, of the same model deleting it once everything has started: times after it)."""
    d = ctx.deletion(c)
    if d is None:
        return None
    killed = d.first("killed")
    hook_cut = next((e for e in d.events if e.type == "prestop_done" and e.reason == "GracePeriodExceeded"), None)
    exited = d.first("exited")
    if killed is None and (hook_cut is None or exited is None):
        return None

    def when(e: TraceEvent) -> Text:
        if d.on_trace:
            return Text(gettext_noop("at {t} s"), {"t": TraceTime(e.t)})
        return Text(gettext_noop("{n} s after the deletion"), {"n": format(e.t - d.at, "g")})

    if d.on_trace:
        head = Text(gettext_noop("deleted at {t} s, "), {"t": TraceTime(d.at)})
    else:
        head = Text(gettext_noop("at deletion "))
    if killed is not None:
        return Text(gettext_noop("{head}SIGKILL ends it {when}, cutting {cut} off (exit code 137)."),
                    {"head": head, "when": when(killed), "cut": cut})
    return Text(gettext_noop("{head}the grace period cuts the hook off {when}; it exits on the stop signal "
                             "{exit}."), {"head": head, "when": when(hook_cut), "exit": when(exited)})


def _patch(ctx: RuleContext, pre: float | None, stop: float | None, sidecar: bool) -> tuple[SetKey, ...] | None:
    """Fixable when the hook and the shutdown after it both end: a grace period that holds them
    (a sidecar's from the moment the last app container has stopped) plus 10 s.  A hook that
    never ends, or a process that ignores SIGTERM, needs a person: no grace period helps."""
    if pre is None or stop is None:
        return None
    apps_end = _apps_end(ctx, 1 << 30) if sidecar else 0.0   # unclamped: when the apps really end
    if apps_end >= 1 << 30:
        return None
    grace = math.ceil(max(pre, apps_end) + stop + 10)
    return (SetKey(tuple(ctx.pod.spec_path) + ("terminationGracePeriodSeconds",), grace),)


def _apps_end(ctx: RuleContext, grace: int) -> float:
    """When the last app container has exited after a deletion at 0 (at most the grace period)."""
    return min(drain_seconds(ctx, ctx.pod.containers, float(grace)), grace)
