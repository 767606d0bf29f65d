"""The `liveness-same-as-readiness` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS

from ..base import Finding, RuleContext, Severity, fill, flow_yaml
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop

ID = "liveness-same-as-readiness"
TITLE = gettext_noop("Identical liveness and readiness probes")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["probes"]
REFERENCES = ("https://github.com/kubernetes/kubernetes/issues/58452",
              "https://github.com/zegl/kube-score/blob/master/README_PROBES.md")
WHAT = gettext_noop("The livenessProbe runs the same check as the readinessProbe: unready means restarted.")
WHY = gettext_noop(
    'Readiness answers "should this Pod get traffic now?", liveness "is this process beyond help?". '
    "When both run the same check, anything that makes the container unready (a slow dependency, a "
    "full queue, a load spike) also fails liveness a few periods later, and the kubelet kills a "
    "container that only needed a rest: the restart drops its work, and under load every replica "
    "restarts at once. kube-score reports this too.")
FIX_TEXT = gettext_noop(
    "Give liveness a cheaper check of the process alone (a `/livez` that does not touch dependencies, "
    "or a tcpSocket on the port), and keep the full check for readiness.")
FIRES_WHEN = gettext_noop(
    "a container's livenessProbe and readinessProbe have the same handler (the same exec command, or "
    "the same httpGet/tcpSocket/grpc target; httpGet headers aside).")
QUIET_WHEN = gettext_noop(
    "the two probes check different things, one of them is missing, or liveness tolerates failures at "
    "least three times as long as readiness (failureThreshold x periodSeconds): unready soon, restarted "
    "only when stuck.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
- name: $name
  readinessProbe:    # the full check
    $handler
  livenessProbe:     # the process alone
    tcpSocket: {port: $port}
    periodSeconds: 10
    failureThreshold: 6
"""
EXAMPLE = {"handler": "httpGet: {path: /ready, port: 8080}"}
_HANDLERS = ("exec", "httpGet", "tcpSocket", "grpc")
TOLERANCE = 3      # a liveness budget this many times readiness's is a deliberate "restart only when stuck"


def check(ctx: RuleContext) -> Iterator[Finding]:
    for c in ctx.pod.containers + ctx.pod.sidecars:
        live, ready = c.liveness_probe, c.readiness_probe
        if live is None or ready is None:
            continue
        written = dict(ready.written)    # the handlers as written: compared, and quoted in the fix
        key = _same_handler(dict(live.written), written)
        if key is None:
            continue
        kill_after = live.failure_threshold * live.period
        unready_after = ready.failure_threshold * ready.period
        if kill_after >= TOLERANCE * unready_after:
            continue   # deliberate: unready soon, restarted only when stuck for much longer
        explanation = Text(gettext_noop(
            "{c}'s livenessProbe and readinessProbe run the same check ({detail}). Whatever makes {c} "
            "unready (after {unready} s of failures) also gets it killed and restarted (after {kill} s): "
            "a slow dependency or a load spike restarts a container that only needed to stop taking "
            "traffic."), {"c": c.name, "detail": live.detail, "unready": unready_after, "kill": kill_after})
        port = next((p.container_port for p in c.ports), 8080)
        handler = flow_yaml(key, written[key])
        yield ctx.finding(ID, c, ctx.container_path(c, "livenessProbe"), explanation,
                          fill(FIX, name=c.name, handler=handler, port=port))


def _same_handler(a: dict[str, object], b: dict[str, object]) -> str | None:
    for key in _HANDLERS:
        if key in a and key in b and _target(key, a[key]) == _target(key, b[key]):
            return key
    return None


def _target(key: str, handler: object) -> object:
    """What a handler checks: an httpGet's headers (a cookie, a tag for the logs) do not change the endpoint."""
    if key == "httpGet" and isinstance(handler, dict):
        return {k: v for k, v in handler.items() if k != "httpHeaders"}
    return handler

