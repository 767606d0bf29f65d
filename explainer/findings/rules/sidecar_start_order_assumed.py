"""The `sidecar-start-order-assumed` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import reduce

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.model import Container

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..helpers import dials, hold_setting, waits_in_post_start
from ..i18n import Text, gettext_noop
from ..patch import to_native_sidecar

ID = "sidecar-start-order-assumed"
TITLE = gettext_noop("Start order assumed between app containers")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["sidecar-containers"]
REFERENCES = (DOCS["pod-lifecycle"],)
WHAT = gettext_noop(
    "The app reaches a helper at start-up (a local server, an outbound proxy), but the helper is a classic "
    "sidecar in `containers`.")
WHY = gettext_noop(
    "App containers get no start order: the kubelet starts them one after another in list order, but waits "
    'for none of them to listen or be ready, and the API promises even less ("in parallel"). An app that '
    "talks to a proxy on localhost can send its first requests before the proxy listens, and gets "
    '"connection refused" at start-up; listing the proxy first does not help. The finding names the '
    "evidence it read: the app's setting that dials the helper's port on localhost, the helper's image (a "
    "known outbound proxy), or a hold setting.")
FIX_TEXT = gettext_noop(
    "Make the helper a native sidecar (`initContainers` with `restartPolicy: Always`, 1.29+) with a "
    "startupProbe on the port it listens on, so the app starts only once it does; or make the app wait for "
    "it. Never move the app itself.")
FIRES_WHEN = gettext_noop(
    "an app container dials, on localhost, a port another container in `containers` listens on, without a "
    "wait loop; or the helper is a known outbound proxy (cloud-sql-proxy, istio-proxy, linkerd-proxy) next "
    "to an app that does not wait for it.")
QUIET_WHEN = gettext_noop(
    "the helper is a native sidecar; the app waits for it (`until nc -z localhost PORT; do sleep 1; done`); "
    "the helper is listed first with a postStart hook that waits for it (Istio's "
    "holdApplicationUntilProxyStarts, linkerd-await); the manifest turns that wait off on purpose; the "
    "dialling container is an inbound proxy (kube-rbac-proxy, oauth2-proxy) or an exporter, which reach the "
    "app per request, not at start-up, or a configuration reloader (configmap-reload's --webhook-url), which "
    "calls the app when a file changes and retries.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
initContainers:
  - name: $name  # moved here from containers (the app stays where it is)
    image: $image
    restartPolicy: Always     # native sidecar: runs before and beside the app containers
    startupProbe:             # the app containers start only after this passes
      tcpSocket:
        port: $port
      periodSeconds: 1
      failureThreshold: 30
# or keep it in containers and make $apps wait for it:
#   until nc -z localhost $plain; do sleep 1; done
"""
FIX_NO_SIDECARS = """
# Kubernetes $version runs no native sidecars (1.29+; 1.28 with the gate):
# keep $name in containers and make $apps wait for it.
containers:
  - name: $app
    command:
      - sh
      - -c
      - until nc -z localhost $port; do sleep 1; done; exec <ITS COMMAND>
"""
KINDS = {   # helpers.OUTBOUND's keys: what each outbound helper is, for the explanation
    "cloud-sql": gettext_noop("a Cloud SQL Auth Proxy: the app reaches its database only through it"),
    "istio": gettext_noop("Istio's proxy: the Pod's iptables rules send the app's traffic through it"),
    "linkerd": gettext_noop("Linkerd's proxy: the Pod's iptables rules send the app's traffic through it"),
}
UNKNOWN_PORT = "<PORT>  # not in the manifest: the port $name listens on"
EXAMPLE = {"apps": "app", "app": "app", "port": "5432", "plain": "5432", "version": "1.28"}


def check(ctx: RuleContext) -> Iterator[Finding]:
    apps = ctx.pod.containers
    if len(apps) < 2:
        return   # a helper needs an app container beside it that depends on it
    # each container read once: what it reaches on localhost and what it waits for; then a port
    # index, so each helper is compared only with the containers that touch one of its ports
    kinds = [ctx.facts(a).outbound_kind for a in apps]     # by position, as each container's own
    reaches = [ctx.facts(a).reachable for a in apps]
    # an inbound proxy or an exporter dials the app per request, a reloader when a file changes: neither waits
    # for it at start-up
    dials_out = [not ctx.facts(a).inbound_or_exporter and not ctx.facts(a).calls_on_change for a in apps]
    dialling = [a for i, a in enumerate(apps) if dials_out[i]]
    reach = {a.name: reaches[i] for i, a in enumerate(apps) if dials_out[i]}
    waits = {a.name: ctx.facts(a).waited_ports for a in dialling}
    touching: dict[int, list[Container]] = {}
    for a in dialling:
        for port in sorted(set(reach[a.name]) | waits[a.name]):
            touching.setdefault(port, []).append(a)
    plain = [a for i, a in enumerate(apps) if dials_out[i] and kinds[i] is None]
    listening = {a.name: ctx.facts(a).listen_ports for a in apps}
    served = Counter(p for a in apps for p in set(listening[a.name]))
    for j, s in enumerate(apps):
        ports = listening[s.name]
        # a server the apps dial that dials none of the others itself: a helper, not the main container
        leaf = not any(served[p] > (p in ports) for p in reaches[j])
        near = list({a.name: a for p in ports for a in touching.get(p, ()) if a is not s}.values())
        waiting = {a.name for a in near if waits[a.name] & set(ports)}
        found = [d for a in near if a.name not in waiting for d in dials(a, ports, reach[a.name])]
        kind = kinds[j]
        hold = hold_setting(ctx.pod, s)
        if hold is not None and not hold[1]:
            continue   # the manifest turns the wait off on purpose: a person decided
        users = list(dict.fromkeys(d.user for d in found))
        if users:
            dependants = users
        elif kind and not waiting:
            dependants = [a.name for a in plain if a is not s][:len(apps)]
        else:
            continue
        if not dependants:
            continue
        if waits_in_post_start(s) and all(a.index > s.index for a in apps if a.name in dependants):
            continue   # its postStart hook holds the next containers back until it is ready
        yield _finding(ctx, s, found, kind, hold, dependants, ports, leaf)


def _finding(ctx: RuleContext, s: Container, found: list, kind: str | None, hold: tuple[str, bool] | None,
             dependants: list[str], ports: list[int], leaf: bool) -> Finding:
    if found:
        clauses = [Text(gettext_noop("{c} connects to localhost:{port} (its {field})"),
                        {"c": d.user, "port": d.port, "field": d.field}) for d in found]
        # Translators: joins clauses of a list ("web connects to ..., worker connects to ...").
        who = reduce(lambda listed, item: Text(gettext_noop("{listed}, {item}"),
                                               {"listed": listed, "item": item}), clauses)
        why = Text(gettext_noop("{who}, a port {s} listens on"), {"who": who, "s": s.name})
    else:
        why = Text(gettext_noop("{s} (image {image}) is {what}"),
                   {"s": s.name, "what": Text(KINDS[kind or "cloud-sql"]), "image": s.image})
    held: Text | str = ""
    if hold is not None:
        # Translators: a sentence appended to the explanation; it starts with the space between them.
        held = Text(gettext_noop(" {where} asks to hold the app until the proxy starts, but no postStart hook "
                                 "on {s} does that."), {"where": hold[0], "s": s.name})
    explanation = Text(gettext_noop(
        "{why}, but {s} is a classic sidecar in containers. App containers are started one after another "
        "without waiting for any of them to listen, so at start-up {dependants} can reach {s} before it is "
        "ready and get connection refused; its place in the list guarantees nothing.{held}"),
        {"why": why, "s": s.name, "dependants": ", ".join(dependants), "held": held})
    port = found[0].port if found else (ports[0] if ports else None)
    shown = str(port) if port is not None else fill(UNKNOWN_PORT, name=s.name).strip()
    if ctx.sidecars_enabled:
        fix = fill(FIX, name=s.name, image=s.image, port=shown, apps=", ".join(dependants),
                   plain=port if port is not None else "<PORT>")
        # a machine fix only for a helper, never what may be the main container: an outbound proxy,
        # or a server the apps dial that dials none of them itself; and only with a known port
        patch = (to_native_sidecar(ctx, s)
                 if port is not None and (kind or (found and leaf)) else None)
    else:
        fix, patch = fill(FIX_NO_SIDECARS, name=s.name, apps=", ".join(dependants), app=dependants[0],
                          port=port if port is not None else "<PORT>", version=ctx.version), None
    return ctx.finding(ID, s, ctx.container_path(s, "name"), explanation, fix, patch=patch)
