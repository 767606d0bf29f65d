"""The `sidecar-without-startup-probe` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.model import Container

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..helpers import dials
from ..i18n import Text, gettext_noop
from ..patch import SetKey, path_of, sidecar_probe_port, tcp_startup_probe

ID = "sidecar-without-startup-probe"
TITLE = gettext_noop("Native sidecar without a startupProbe")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["sidecar-containers"]
REFERENCES = (DOCS["probes"],)
WHAT = gettext_noop("A native sidecar that later containers rely on has no startupProbe: started is not ready.")
WHY = gettext_noop(
    "The kubelet starts the container after a native sidecar as soon as the sidecar counts as "
    "started. Without a startupProbe that is the moment its process runs, long before a proxy "
    "has loaded its configuration or opened its port, so the next container's first connections "
    "can fail. Readiness and liveness probes of a sidecar do not hold anything back.")
FIX_TEXT = gettext_noop(
    "Give the sidecar a startupProbe that passes only when it can serve (a TCP or HTTP check on "
    "its port).")
FIRES_WHEN = gettext_noop(
    "a sidecar (init container with restartPolicy: Always) without a startupProbe declares "
    "ports, is reached on localhost by a later container, or is a proxy.")
QUIET_WHEN = gettext_noop(
    "it has a startupProbe, or nothing connects to it (a log shipper, for example), or the version runs no "
    "native sidecars (native-sidecar-unsupported says what to do then).")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
initContainers:
  - name: $name
    restartPolicy: Always
    startupProbe:             # the next container starts only after this passes
      tcpSocket:
        port: $port
      periodSeconds: 1
      failureThreshold: 30
"""

UNKNOWN_PORT = "<PORT>  # not in the manifest: the port $name listens on"


def check(ctx: RuleContext) -> Iterator[Finding]:
    pod = ctx.pod
    if not ctx.sidecars_enabled:
        return   # no native sidecars on this version: native-sidecar-unsupported says what to do instead
    for c in pod.sidecars:
        if c.startup_probe is not None:
            continue
        facts = ctx.facts(c)
        ports = facts.listen_ports
        if not (ports or facts.looks_like_proxy or facts.outbound_kind):
            continue   # no port anyone could dial, and no proxy
        later = [x for x in pod.init_containers if x.index > c.index] + list(pod.containers)
        users = sorted(x.name for x in later if dials(x, ports, ctx.facts(x).reachable))
        nxt = later[0].name if later else Text(gettext_noop("the app containers"))
        known = sidecar_probe_port(ctx, c, after_index=c.index)
        # never an invented port: one the manifest names, else a marked placeholder (no machine fix)
        port = known if isinstance(known, int) and not isinstance(known, bool) else None
        if users:
            need = Text(gettext_noop("{users} connects to it on localhost") if len(users) == 1 else
                        gettext_noop("{users} connect to it on localhost"), {"users": ", ".join(users)})
        elif ports:
            need = Text(gettext_noop("it serves port {port}"), {"port": ports[0]})
        else:
            need = Text(gettext_noop("it is a proxy the app sends traffic through"))
        explanation = Text(gettext_noop(
            "Native sidecar {c} has no startupProbe, so the kubelet treats it as started the "
            "moment its process runs and starts {next} straight away. But {need}: until {c} "
            "actually listens, connections to it are refused. A startupProbe makes the kubelet wait."),
            {"c": c.name, "next": nxt, "need": need})
        yield ctx.finding(ID, c, ctx.container_path(c, "restartPolicy"), explanation,
                          fill(FIX, name=c.name, port=port if port is not None else fill(UNKNOWN_PORT, name=c.name)
                               .strip()), patch=_patch(ctx, c))


def _patch(ctx: RuleContext, c: Container) -> tuple[SetKey, ...] | None:
    """Fixable when the port is known: one a later container reaches, else its lowest declared."""
    port = sidecar_probe_port(ctx, c, after_index=c.index)
    if not isinstance(port, int) or isinstance(port, bool):
        return None
    return (SetKey(path_of(c.path) + ("startupProbe",), tcp_startup_probe(port), after="restartPolicy"),)
