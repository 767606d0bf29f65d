"""A helper the app depends on (a proxy, a local server) is a classic sidecar in `containers`.

App containers get no start order: the kubelet starts them one after another in list order,
but waits for none of them to listen or be ready, and the API promises even less ("in
parallel"). An app that talks to a proxy on localhost can send its first requests before
the proxy listens, and gets "connection refused" at start-up; listing the proxy first does
not help.

Fix: move the helper to `initContainers` with `restartPolicy: Always` and a startupProbe
(the app then starts only after the probe passes), or make the app wait for it explicitly.

Fires when: a container in `containers` connects to localhost on a port another container
there declares, without a wait loop; or a proxy (envoy, istio-proxy, cloud-sql-proxy, ...)
sits in `containers` next to an app that does not wait for it.
Quiet when: the helper is a native sidecar, or the app waits for it (`until nc -z localhost
PORT; do sleep 1; done`).
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import reduce

from explainer.lifecycle.defaults import DOCS

from ..base import Finding, RuleContext, Severity, fill
from ..i18n import Names, Text, gettext_noop
from ..patch import to_native_sidecar
from ..scripts import localhost_use, looks_like_proxy

ID = "sidecar-start-order-assumed"
TITLE = gettext_noop("Start order assumed between app containers")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["sidecar-containers"]
REFERENCES = (DOCS["pod-lifecycle"],)
WHAT = gettext_noop(
    "A helper the app depends on (a proxy, a local server) is a classic sidecar in "
    "`containers`.")
WHY = gettext_noop(
    "App containers get no start order: the kubelet starts them one after another in list "
    "order, but waits for none of them to listen or be ready, and the API promises even less "
    '("in parallel"). An app that talks to a proxy on localhost can send its first requests '
    'before the proxy listens, and gets "connection refused" at start-up; listing the proxy '
    "first does not help.")
FIX_TEXT = gettext_noop(
    "Move the helper to `initContainers` with `restartPolicy: Always` and a startupProbe (the "
    "app then starts only after the probe passes), or make the app wait for it explicitly.")
FIRES_WHEN = gettext_noop(
    "a container in `containers` connects to localhost on a port another container there "
    "declares, without a wait loop; or a proxy (envoy, istio-proxy, cloud-sql-proxy, ...) sits "
    "in `containers` next to an app that does not wait for it.")
QUIET_WHEN = gettext_noop(
    "the helper is a native sidecar, or the app waits for it (`until nc -z localhost PORT; do "
    "sleep 1; done`).")
FIX = """
initContainers:
  - name: $name  # moved here from containers
    image: $image
    restartPolicy: Always     # native sidecar: runs before and beside the app containers
    startupProbe:             # the app containers start only after this passes
      tcpSocket:
        port: $port
      periodSeconds: 1
      failureThreshold: 30
"""


def check(ctx: RuleContext) -> Iterator[Finding]:
    apps = ctx.pod.containers
    names = [a.name for a in apps]
    use = [localhost_use(a) for a in apps]   # (ports it reaches on localhost, ports it waits for)
    # port -> the containers that reach or wait for it, in list order: each container is then
    # compared only with those that touch one of its ports, not with all the others (linear).
    touching: dict[int, list[int]] = {}
    for i, (used, loops) in enumerate(use):
        for port in sorted(used | loops):
            touching.setdefault(port, []).append(i)
    waits_at_all = [i for i, (_used, loops) in enumerate(use) if loops][:2]
    for j, s in enumerate(apps):
        ports = {p.container_port for p in s.ports}
        users, waited = [], False
        if ports:
            for i in sorted({i for port in ports for i in touching.get(port, ()) if i != j}):
                used, loops = use[i]
                if loops & ports:
                    waited = True   # it waits for the helper explicitly: the documented remedy
                elif used & ports:
                    users.append((names[i], min(used & ports)))
        else:   # a helper without ports: any wait loop in another container counts
            waited = any(i != j for i in waits_at_all)
        if not users and not (looks_like_proxy(s) and len(apps) > 1 and not waited):
            continue
        if users:
            clauses = [Text(gettext_noop("{c} connects to localhost:{port}"), {"c": name, "port": port})
                       for name, port in users]
            # Translators: joins clauses of a list ("web connects to ..., worker connects to ...").
            who = reduce(lambda listed, item: Text(gettext_noop("{listed}, {item}"),
                                                   {"listed": listed, "item": item}), clauses)
            why = Text(gettext_noop("{who}, a port of {s}"), {"who": who, "s": s.name})
            dependants = ", ".join(name for name, _p in users)
        else:
            dependants = Names(names, j)
            why = Text(gettext_noop("{s} looks like a proxy that {dependants} may send traffic through"),
                       {"s": s.name, "dependants": dependants})
        explanation = Text(gettext_noop(
            "{why}, but {s} is a classic sidecar in containers. App containers are started "
            "one after another without waiting for any of them to listen, so at start-up {dependants} "
            "can reach {s} before it is ready and get connection refused; its place in the list "
            "guarantees nothing."), {"why": why, "s": s.name, "dependants": dependants})
        port = users[0][1] if users else (min(ports) if ports else 15021)
        yield ctx.finding(ID, s, ctx.container_path(s, "name"), explanation,
                          fill(FIX, name=s.name, image=s.image, port=port),
                          # fixable only for a proxy (never move what may be the main container) with a
                          # declared port for its startupProbe, where the version runs native sidecars
                          patch=to_native_sidecar(ctx.pod, s, ctx.version, ctx.gates) if looks_like_proxy(s)
                          else None)
