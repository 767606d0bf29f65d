"""The `probe-scheme-mismatch` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.commands.evidence import scheme_mismatch
from explainer.lifecycle.model import Container, Probe

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..patch import SetKey, path_of
from ..unreachable import blocked, consequence, listing

ID = "probe-scheme-mismatch"
TITLE = gettext_noop("Probe scheme does not match the port")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["probes"] + "#http-probes"
REFERENCES = (
    "https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/prober/prober.go",
    "https://github.com/cloudposse/docs/issues/161",
    "https://github.com/ory/hydra/issues/2403",
    "https://github.com/kubernetes-sigs/controller-runtime/issues/2283",
    "https://github.com/uptrace/helm-charts/issues/44",
)
WHAT = gettext_noop(
    "An httpGet probe speaks HTTP to an HTTPS port (or HTTPS to a plain HTTP port): it never passes.")
WHY = gettext_noop(
    "scheme defaults to HTTP. Sent to a TLS port, a plain request gets no valid answer (a TLS alert, or a "
    "400 such as \"client sent an HTTP request to an HTTPS server\"); an HTTPS request to a plain port "
    "fails its handshake (\"server gave HTTP response to HTTPS client\"). Either way the probe fails "
    "every time: a readiness probe keeps the Pod out of its Services for good, a liveness or startup "
    "probe restarts the container in a loop.")
FIX_TEXT = gettext_noop(
    "Set scheme: HTTPS for a TLS port (the kubelet does not verify the certificate), or scheme: HTTP for a "
    "plain one.")
FIRES_WHEN = gettext_noop(
    "an httpGet probe's port is named https (or ends in -https), or is 443 or 8443 and not named http, "
    "without scheme: HTTPS; or it sets scheme: HTTPS on a port named http or on port 80.")
QUIET_WHEN = gettext_noop(
    "the scheme matches the port's name or number, or the port says nothing about TLS.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
- name: $name
  $kind:
    httpGet:
      port: $port
      scheme: $scheme
"""
EXAMPLE = {"kind": "readinessProbe", "port": "https", "scheme": "HTTPS"}


def check(ctx: RuleContext) -> Iterator[Finding]:
    for c in ctx.pod.containers + ctx.pod.sidecars:
        # pkg/kubelet/prober/prober.go `runProbe` builds the URL with the scheme as written (HTTP by default)
        probes = blocked(ctx, c, ID)
        if not probes:
            continue
        first = probes[0][0]
        get = dict(first.written).get("httpGet") or {}   # the check as written
        wanted = (scheme_mismatch(c, get) or ("", "HTTPS", ""))[1]
        explanation = Text(gettext_noop("{c} cannot pass {probes}. {what}"),
                           {"c": c.name, "probes": listing(probes), "what": consequence(c, [p for p, _w in probes])})
        path = ctx.container_path(c, f"{first.kind}Probe.httpGet" + (".scheme" if "scheme" in get else ".port"))
        yield ctx.finding(ID, c, path, explanation,
                          fill(FIX, name=c.name, kind=f"{first.kind}Probe", port=get.get("port", 8443),
                               scheme=wanted),
                          patch=_patch(ctx, c, [p for p, _w in probes]))


def _patch(ctx: RuleContext, c: Container, probes: list[Probe]) -> tuple[SetKey, ...]:
    """Fixable: the scheme the port's name or number says it speaks, on each such probe."""
    edits = []
    for p in probes:
        get = dict(p.written).get("httpGet") or {}
        bad = scheme_mismatch(c, get)
        if bad is not None:
            edits.append(SetKey(path_of(f"{c.path}.{p.kind}Probe.httpGet.scheme"), bad[1], after="port"))
    return tuple(edits)
