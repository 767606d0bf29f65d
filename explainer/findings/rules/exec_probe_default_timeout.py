"""The `exec-probe-default-timeout` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

import re
from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.model import Container, Probe

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..patch import SetKey, path_of

ID = "exec-probe-default-timeout"
TITLE = gettext_noop("Heavy exec probe with a 1 s timeout")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["probes"] + "#configure-probes"
REFERENCES = ("https://github.com/airflow-helm/charts/issues/484",
              "https://github.com/Stackdriver/kubernetes-configs/issues/93",
              "https://github.com/Azure/AKS/issues/2256")
WHAT = gettext_noop("An exec probe starts an interpreter or a heavy CLI within the default 1 s timeout.")
WHY = gettext_noop(
    "Since Kubernetes 1.20 the kubelet enforces timeoutSeconds for exec probes (before, they ran as "
    "long as they liked), and the default is 1 s. Starting Python, Node.js, a JVM tool, Ruby, PHP, "
    "`celery inspect`, `rabbitmq-diagnostics` or a cloud CLI often takes longer than that on a busy "
    "node: the probe times out, counts as a failure, and a liveness probe then restarts a healthy "
    "container exactly when the node is under load.")
FIX_TEXT = gettext_noop(
    "Set timeoutSeconds to what the command needs on a loaded node (5 s or more), below "
    "periodSeconds; or probe with httpGet/tcpSocket/grpc, which cost the kubelet a connection.")
FIRES_WHEN = gettext_noop(
    "an exec probe's command starts an interpreter or a heavy CLI and its timeoutSeconds is 1 (the "
    "default, or written).")
QUIET_WHEN = gettext_noop(
    "timeoutSeconds is 2 or more, or the command is light (cat, test, pg_isready, redis-cli, "
    "grpc_health_probe, curl, wget, a shell builtin).")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
- name: $name
  $kind:
    timeoutSeconds: $timeout  # < period
"""
EXAMPLE = {"kind": "livenessProbe", "timeout": "5"}
TIMEOUT_SECONDS = 5
# Interpreters and CLIs whose start alone can take a second on a loaded node.
_HEAVY = re.compile(
    r"(?:^|[\s;&|(]|/bin/)(python[0-9.]*|node|nodejs|java|ruby|php|perl|bundle|rails|rake|npm|npx|yarn|"
    r"celery|rabbitmq-diagnostics|rabbitmqctl|nodetool|cqlsh|kubectl|aws|gcloud|az|mongo|mongosh|"
    r"kafka-[a-z-]+(?:\.sh)?|jcmd|jps|manage\.py|artisan|dotnet|pwsh|elixir|mix|erl)(?=$|[\s;&|)'\"])")


def check(ctx: RuleContext) -> Iterator[Finding]:
    for c in ctx.pod.containers + ctx.pod.sidecars:
        for p in c.probes:
            if p.handler != "exec" or p.timeout > 1:
                continue
            m = _HEAVY.search(p.detail.removeprefix("exec "))
            if m is None:
                continue
            key = f"{p.kind}Probe"
            written = p.timeout_written
            explanation = Text(gettext_noop(
                "{c}'s {kind} probe runs {program} ({detail}) with timeoutSeconds 1{default}: starting "
                "{program} on a busy node can take longer, and the kubelet counts a check that runs past "
                "1 s as a failure. {consequence}"),
                {"c": c.name, "kind": p.kind, "program": m.group(1), "detail": p.detail,
                 "default": "" if written else Text(gettext_noop(" (the default)")),
                 "consequence": _consequence(p)})
            yield ctx.finding(ID, c, ctx.container_path(c, key), explanation,
                              fill(FIX, name=c.name, kind=key, timeout=TIMEOUT_SECONDS),
                              patch=_patch(c, key, p))


def _consequence(p: Probe) -> Text:
    if p.kind == "liveness":
        return Text(gettext_noop("{n} slow checks in a row restart a healthy container."), {"n": p.failure_threshold})
    if p.kind == "startup":
        return Text(gettext_noop("{n} slow checks in a row kill the container before it is up."),
                    {"n": p.failure_threshold})
    return Text(gettext_noop("{n} slow checks in a row take it out of its Services."), {"n": p.failure_threshold})


def _patch(c: Container, key: str, p: Probe) -> tuple[SetKey, ...] | None:
    """Fixable while the new timeout stays below periodSeconds (else the period is a choice too)."""
    if p.period <= TIMEOUT_SECONDS:
        return None
    return (SetKey(path_of(c.path) + (key, "timeoutSeconds"), TIMEOUT_SECONDS),)
