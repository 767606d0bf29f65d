"""The `liveness-without-startup-probe` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.model import Container

from explainer.lifecycle.kubelet.probe_timing import INF, Checks, failure_time

from ..base import Finding, RuleContext, Severity, fill, flow_yaml
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..patch import CopyOf, SetKey, path_of, plain

ID = "liveness-without-startup-probe"
TITLE = gettext_noop("Short livenessProbe without a startupProbe")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["probes"]
WHAT = gettext_noop("A livenessProbe with a short budget and no startupProbe: a slow start is killed in a loop.")
WHY = gettext_noop(
    "The liveness probe starts right after initialDelaySeconds and the kubelet kills the "
    "container after failureThreshold failures periodSeconds apart. A start that takes longer "
    "than that (a cold cache, a migration, a busy node) never finishes: the container is "
    "killed, restarted, killed again, and ends in CrashLoopBackOff. A startupProbe holds "
    "liveness (and readiness) back until the program has started, however long that takes.")
FIX_TEXT = gettext_noop("Add a startupProbe with the same check and a generous failureThreshold x periodSeconds.")
FIRES_WHEN = gettext_noop(
    "a container has a livenessProbe, no startupProbe, and initialDelaySeconds + "
    "failureThreshold x periodSeconds is under 30 s.")
QUIET_WHEN = gettext_noop("a startupProbe exists, or the liveness budget is 30 s or more.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
- name: $name
  startupProbe:               # liveness starts only after this passes
    $handler
    periodSeconds: 5
    failureThreshold: 30      # up to 150 s to start
"""
SLOW_START_SECONDS = 30       # below this, an ordinary slow start is already at risk
EXAMPLE = {"handler": "httpGet: {path: /healthz, port: 8080}"}


def check(ctx: RuleContext) -> Iterator[Finding]:
    for c in ctx.pod.containers + ctx.pod.sidecars:
        p = c.liveness_probe
        if p is None or c.startup_probe is not None:
            continue
        budget = p.initial_delay + p.failure_threshold * p.period
        if budget >= SLOW_START_SECONDS:
            continue
        # the kill falls on the failureThreshold-th check, as the simulation computes it (lifecycle/kubelet/probe_timing.py)
        kill = failure_time(Checks(float(p.initial_delay), float(p.period), 0.0), INF, p.failure_threshold)
        killed = ctx.trace_time(c, "liveness_failed")
        here = Text(gettext_noop(" In this timeline the kubelet kills it at {t} s."), {"t": killed}) \
            if killed is not None else ""
        explanation = Text(gettext_noop(
            "{c} has a livenessProbe ({detail}) and no startupProbe: the first check runs "
            "{delay} s after it starts, and after {failures} failed checks {period} s apart the kubelet kills it "
            "{kill} s after it starts. If {c} ever needs longer to start, the kubelet "
            "kills and restarts it before it is up, again and again (CrashLoopBackOff).{here}"),
            {"c": c.name, "detail": p.detail, "delay": p.initial_delay, "failures": p.failure_threshold,
             "period": p.period, "kill": format(kill or 0, "g"), "here": here})
        yield ctx.finding(ID, c, ctx.container_path(c, "livenessProbe"), explanation,
                          fill(FIX, name=c.name, handler=_handler(c)), patch=_patch(ctx, c))


_ORDER = ("httpGet", "tcpSocket", "grpc", "exec")   # the handler quoted when several are written


def _written(c: Container) -> tuple[str, object] | None:
    """The liveness check as written: (handler, its value)."""
    written = dict(c.liveness_probe.written) if c.liveness_probe is not None else {}
    key = next((k for k in _ORDER if k in written), None)
    return None if key is None else (key, written[key])


def _patch(ctx: RuleContext, c: Container) -> tuple[SetKey, ...] | None:
    """Fixable: the liveness check itself becomes the startupProbe, with the FIX's budget."""
    written = _written(c)
    if written is None:
        return None
    key, value = written
    handler = CopyOf(path_of(ctx.container_path(c, f"livenessProbe.{key}")), plain(value))
    probe = {key: handler, "periodSeconds": 5, "failureThreshold": 30}
    return (SetKey(path_of(c.path) + ("startupProbe",), probe, after="livenessProbe"),)


def _handler(c: Container) -> str:
    written = _written(c)
    if written is not None:
        return flow_yaml(*written)
    return "httpGet: {path: <PATH>, port: <PORT>}  # placeholders: the check its liveness probe makes"
