"""The `probe-host-loopback` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.model import Container, Probe

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..patch import Remove, path_of
from ..unreachable import blocked, consequence, listing

ID = "probe-host-loopback"
TITLE = gettext_noop("Probe host is the node's loopback")
SEVERITY = Severity.ERROR
DOCS_URL = DOCS["probes"] + "#http-probes"
REFERENCES = (
    "https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/prober/prober.go",
    "https://github.com/parca-dev/parca-agent/pull/1866",
    "https://github.com/kubernetes/website/pull/13815",
    "https://github.com/kubernetes/kubernetes/pull/125271",
    "https://github.com/NetApp/trident/pull/1045",
)
WHAT = gettext_noop(
    "An httpGet or tcpSocket probe with host: localhost in a Pod without hostNetwork: it probes the node.")
WHY = gettext_noop(
    "The kubelet runs httpGet and tcpSocket probes itself, from the node's network namespace, against "
    "host or, when it is empty, the Pod's IP. localhost or 127.0.0.1 is therefore the node's loopback, "
    "not the container's: the probe checks whatever the node runs on that port (usually nothing), "
    "never the container. A readiness probe that never passes keeps the Pod out of its Services; a "
    "liveness or startup probe that never passes restarts the container in a loop.")
FIX_TEXT = gettext_noop(
    "Remove host (the Pod IP is the default) and make the program listen on the Pod IP (0.0.0.0); for a "
    "check that must run inside the container, use an exec probe.")
FIRES_WHEN = gettext_noop(
    "a container's httpGet or tcpSocket probe sets host to localhost, 127.0.0.1 or ::1 and the Pod does "
    "not use hostNetwork.")
QUIET_WHEN = gettext_noop(
    "host is empty or another address, or the Pod uses hostNetwork (the node's loopback is then the "
    "container's too).")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
- name: $name
  $kind:
    $handler:                # no host: the kubelet connects to the Pod IP
      port: $port
"""
EXAMPLE = {"kind": "readinessProbe", "handler": "httpGet"}


def check(ctx: RuleContext) -> Iterator[Finding]:
    for c in ctx.pod.containers + ctx.pod.sidecars:
        # pkg/kubelet/prober/prober.go `runProbe`: the kubelet connects to httpGet/tcpSocket `host`, the Pod IP
        # only when it is empty (commands/probe_faults.py `_host_loopback`)
        probes = blocked(ctx, c, ID)
        if not probes:
            continue
        first = probes[0][0]
        handler = "httpGet" if first.handler == "httpGet" else "tcpSocket"
        explanation = Text(gettext_noop(
            "{c} cannot pass {probes}. {what}"),
            {"c": c.name, "probes": listing(probes), "what": consequence(c, [p for p, _w in probes])})
        yield ctx.finding(ID, c, ctx.container_path(c, f"{first.kind}Probe.{handler}.host"), explanation,
                          fill(FIX, name=c.name, kind=f"{first.kind}Probe", handler=handler,
                               port=first.port if first.port is not None else 8080),
                          patch=_patch(ctx, c, [p for p, _w in probes]))


def _patch(ctx: RuleContext, c: Container, probes: list[Probe]) -> tuple[Remove, ...] | None:
    """Fixable: without host the kubelet probes the Pod IP.  Not when the program itself listens on
    loopback only (then it must be told to listen on 0.0.0.0 first: a change to its command)."""
    if ctx.facts(c).loopback_bind is not None:
        return None
    return tuple(Remove(path_of(f"{c.path}.{p.kind}Probe.{'httpGet' if p.handler == 'httpGet' else 'tcpSocket'}"
                                ".host")) for p in probes)
