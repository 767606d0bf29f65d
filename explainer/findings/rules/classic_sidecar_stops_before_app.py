"""The `classic-sidecar-stops-before-app` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

import re
from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.model import Container

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..drain import drain_seconds
from ..i18n import Names, Text, gettext_noop
from ..patch import to_native_sidecar
from ..scripts import image_name

ID = "classic-sidecar-stops-before-app"
TITLE = gettext_noop("Proxy stops before the app at deletion")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["sidecar-containers"]
REFERENCES = (
    "https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/kuberuntime/kuberuntime_termination_order.go",
    "https://github.com/GoogleCloudPlatform/cloud-sql-proxy/issues/86",
    "https://github.com/GoogleCloudPlatform/cloud-sql-proxy/issues/128",
    "https://github.com/GoogleCloudPlatform/cloud-sql-proxy/issues/1640",
    "https://github.com/porter-dev/porter-charts/pull/1104",
)
WHAT = gettext_noop(
    "A proxy the app depends on is a regular container: at deletion it stops while the app still drains.")
WHY = gettext_noop(
    "Regular containers have no stop order: at deletion the kubelet runs every container's preStop and "
    "sends SIGTERM to each at the same moment, from one shared grace period. A database or mesh proxy "
    "(cloud-sql-proxy, envoy, istio-proxy, ...) exits on its SIGTERM at once, while the app is still in "
    "its preStop or finishing requests in flight: whatever the app sends through the proxy in that "
    "window fails (connection refused, connections cut). Native sidecars (initContainers with "
    "restartPolicy: Always) get SIGTERM only after every app container has exited.")
FIX_TEXT = gettext_noop(
    "Make the proxy a native sidecar (Kubernetes 1.29 and later); else give it a preStop that outlasts the "
    "app's drain.")
FIRES_WHEN = gettext_noop(
    "a container in containers of a Pod that is not a Job's is a database or mesh proxy by its name or image "
    "(cloud-sql-proxy, istio-proxy, linkerd-proxy, pgbouncer, ...), or a proxy by its name whose port another "
    "app container reaches on localhost, and its own preStop ends before the app containers have drained.")
QUIET_WHEN = gettext_noop(
    "the proxy is a native sidecar, the Pod has no other app container, or the proxy's preStop outlasts "
    "the app's preStop and shutdown.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
_SIDECAR_PROXY = re.compile(r"cloud-?sql-proxy|gce-proxy|cloudsql|istio-proxy|proxyv2|linkerd2?-proxy|"
                            r"alloydb-auth-proxy|spanner-proxy|pgbouncer|rds-proxy|db-proxy|sql-proxy", re.I)
FIX = """
initContainers:
  - name: $name  # moved here from containers
    image: $image
    restartPolicy: Always     # native sidecar: SIGTERM only after the app containers have exited
"""
# Where the version has no native sidecars (before 1.29, or 1.28 without the SidecarContainers gate)
# the only lever is the proxy's own preStop: it holds the proxy's SIGTERM back until the app is done.
FIX_NO_SIDECARS = """
containers:
  - name: $name
    lifecycle:
      preStop:
        exec:   # the proxy gets SIGTERM only after this ends: outlast the app's drain
          command: ["sleep", "$seconds"]    # needs a sleep binary in $image
"""


def check(ctx: RuleContext) -> Iterator[Finding]:
    apps = ctx.pod.containers
    if ctx.pod.batch or len(apps) < 2:
        return
    # kuberuntime_container.go `killContainersWithSyncResult` stops every regular container at once;
    # only native sidecars wait (kuberuntime_termination_order.go `newTerminationOrdering`)
    reach = [ctx.facts(a).localhost_use[0] for a in apps]
    proxy = [ctx.facts(a).looks_like_proxy for a in apps]
    # who reaches which port on localhost, once: linear in containers (a rule per port, not per pair)
    reached_by: dict[int, list[int]] = {}
    for i, used in enumerate(reach):
        if not proxy[i]:   # a proxy that reaches s is in front of it (kube-rbac-proxy): not a client of s
            for port in used:
                reached_by.setdefault(port, []).append(i)
    proxies = sum(proxy)
    for j, s in enumerate(apps):
        # a proxy by its name or image that the others reach on localhost; without a port to go by, only
        # proxies that exist to carry the app's own traffic out (database and mesh sidecars): an envoy may
        # well be the Pod's main workload, and a server a config reloader calls is no proxy at all
        sidecar_proxy = bool(_SIDECAR_PROXY.search(f"{s.name} {image_name(s.image)}"))
        if not sidecar_proxy and not proxy[j]:
            continue
        users = [apps[i] for i in sorted({i for p in s.ports for i in reached_by.get(p.container_port, ())
                                          if i != j})]
        if not sidecar_proxy and not users:
            continue
        if not users and proxies - proxy[j] > 0:
            continue   # proxies side by side (no app among them to speak of)
        others = users or [a for a in apps if a is not s]
        drain = drain_seconds(ctx, others, float(ctx.pod.termination_grace_period))
        own = ctx.behaviour(s).pre_stop_seconds
        if own is None or (own >= drain and own > 0):
            continue   # its preStop holds it up until the app has drained
        explanation = Text(gettext_noop(
            "{s} is {how}, and it is a regular container. At deletion the kubelet sends SIGTERM to {s} and "
            "to the app side ({apps}) at the same moment, so {s} stops {when} while the app side {drains}: in "
            "that window whatever it sends through {s} fails. As a native sidecar {s} would get SIGTERM only "
            "after the app side had exited."),
            {"s": s.name, "how": _how(s, users), "apps": Names([a.name for a in others]),
             "when": Text(gettext_noop("at once")) if not own else
             Text(gettext_noop("after its {own} s preStop"), {"own": format(own, "g")}),
             "drains": Text(gettext_noop("still drains for up to {drain} s (preStop and shutdown)"),
                            {"drain": format(drain, "g")}) if drain else
             Text(gettext_noop("still finishes the requests in flight"))})
        if ctx.sidecars_enabled:
            fix, patch = fill(FIX, name=s.name, image=s.image), to_native_sidecar(ctx, s)
        else:   # no native sidecars on this version: never a restartPolicy it would drop
            fix, patch = fill(FIX_NO_SIDECARS, name=s.name, image=s.image,
                              seconds=format(drain + 5, "g")), None
        yield ctx.finding(ID, s, ctx.container_path(s, "name"), explanation, fix, patch=patch)


def _how(s: Container, users: list[Container]) -> Text:
    if users:
        return Text(gettext_noop("a helper reached on localhost by {users}"), {"users": Names([u.name for u in users])})
    return Text(gettext_noop("a database or mesh proxy (inferred from its name or image) that the other "
                             "containers send traffic through"))
