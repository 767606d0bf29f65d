"""The `log-shipper-stops-with-app` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

import re
from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.model import Container

from ..base import Finding, RuleContext, Severity, TraceTime, fill
from ..docstring import rule_docstring
from ..drain import drain_seconds
from ..i18n import Names, Text, gettext_noop
from ..patch import to_native_sidecar
from ..scripts import image_name

ID = "log-shipper-stops-with-app"
TITLE = gettext_noop("Log or metrics shipper stops with the app")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["sidecar-containers"]
REFERENCES = (
    DOCS["pod-lifecycle"] + "#termination-with-sidecars",
    "https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/kuberuntime/kuberuntime_termination_order.go",
    "https://github.com/fluent/fluent-bit/issues/6400",
    "https://github.com/aws/aws-for-fluent-bit/issues/201",
)
WHAT = gettext_noop(
    "A log or metrics shipper (fluent-bit, fluentd, filebeat, vector, an OpenTelemetry collector, ...) is a "
    "regular container beside the app it ships for.")
WHY = gettext_noop(
    "Regular containers have no stop order: at a deletion the kubelet sends SIGTERM to the shipper and to the "
    "app at the same moment, from one shared grace period. The shipper flushes what it has and exits, while "
    "the app is still in its preStop, finishing requests and writing its last log lines (often the most "
    "useful ones: why it stopped, what it could not finish): those lines, and the metrics it pushes at the "
    "end, are never shipped. A native sidecar (initContainers with restartPolicy: Always) gets SIGTERM only "
    "after every app container has exited, so it ships the app's last lines too.")
FIX_TEXT = gettext_noop(
    "Make the shipper a native sidecar (Kubernetes 1.29 and later; 1.28 with the SidecarContainers gate); on "
    "older versions give it a preStop that outlasts the app's drain and its own flush interval.")
FIRES_WHEN = gettext_noop(
    "a container in containers of a Pod that is not a Job's is a log or metrics shipper by its name or image, "
    "and it reads a volume another app container writes, or another app container sends to it on localhost; "
    "its own preStop does not outlast the app's drain.")
QUIET_WHEN = gettext_noop(
    "the shipper is a native sidecar, reads nothing the app writes (it ships the node's logs, say), or its "
    "preStop holds it until the app has drained.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
initContainers:
  - name: $name  # moved here from containers
    image: $image
    restartPolicy: Always     # native sidecar: SIGTERM only after the app containers have exited
"""
FIX_NO_SIDECARS = """
containers:
  - name: $name
    lifecycle:
      preStop:
        exec:   # SIGTERM only after this ends: outlast the app's drain and a flush
          command: ["sleep", "$seconds"]    # needs a sleep binary in $image
"""
EXAMPLE = {"seconds": "15"}
SHIPPER = re.compile(r"fluent-?bit|fluentd|filebeat|vector|promtail|logstash|otel|opentelemetry|log-?agent|"
                     r"log-?shipper|log-?forwarder|logger|telegraf|datadog-agent|statsd", re.I)
FLUSH_SECONDS = 5.0       # fluent-bit's default Flush is 1 s, filebeat's 1 s, vector's batches ~1 s: margin added


def check(ctx: RuleContext) -> Iterator[Finding]:
    apps = ctx.pod.containers
    if ctx.pod.batch or len(apps) < 2:
        return
    # kuberuntime_container.go `killContainersWithSyncResult` stops every regular container at once; only
    # native sidecars wait for the app containers (kuberuntime_termination_order.go, docs/lifecycle-model.md §31.1)
    writers = {m.volume: c for c in apps for m in c.mounts if not m.read_only}
    reach = {c.name: ctx.facts(c).localhost_use[0] for c in apps}
    for s in apps:
        if not (SHIPPER.search(s.name) or SHIPPER.search(image_name(s.image))):
            continue
        fed = _fed_by(s, apps, writers, reach)
        if not fed:
            continue
        how, users = fed
        drain = drain_seconds(ctx, users, float(ctx.pod.termination_grace_period))
        own = ctx.behaviour(s).pre_stop_seconds
        if own is None or (own > 0 and own >= drain + FLUSH_SECONDS):
            continue
        explanation = Text(gettext_noop(
            "{s} ships what {apps} {how}, and it is a regular container: at a deletion the kubelet sends SIGTERM "
            "to {s} and to {apps} at the same moment. {timeline} Whatever {apps} logs or pushes after {s} has "
            "stopped, its last lines included, is never shipped; as a native sidecar {s} would get SIGTERM only "
            "after {apps} had exited."),
            {"s": s.name, "apps": Names([u.name for u in users]), "how": how, "timeline": _timeline(ctx, s, users)})
        if ctx.sidecars_enabled:
            fix, patch = fill(FIX, name=s.name, image=s.image), to_native_sidecar(ctx, s)
        else:   # no native sidecars on this version: never a restartPolicy it would drop
            fix, patch = fill(FIX_NO_SIDECARS, name=s.name, image=s.image,
                              seconds=format(drain + FLUSH_SECONDS, "g")), None
        yield ctx.finding(ID, s, ctx.container_path(s, "name"), explanation, fix, patch=patch)


def _fed_by(s: Container, apps: tuple[Container, ...], writers: dict[str, Container],
            reach: dict[str, set[int]]) -> tuple[Text, list[Container]] | None:
    """How the app side feeds the shipper: a volume it writes and the shipper mounts, or a port of the
    shipper it sends to on localhost."""
    for m in s.mounts:
        w = writers.get(m.volume)
        if w is not None and w is not s:
            return Text(gettext_noop("writes to volume {volume}"), {"volume": m.volume}), [w]
    ports = {p.container_port for p in s.ports}
    users = [a for a in apps if a is not s and reach[a.name] & ports]
    if users:
        return Text(gettext_noop("sends to it on localhost")), users
    return None


def _timeline(ctx: RuleContext, s: Container, users: list[Container]) -> Text:
    """When each stops at a deletion: the timeline's, or the same model deleting the Pod."""
    mine = ctx.deletion(s)
    if mine is None:
        return Text(gettext_noop("The shipper stops while the app still drains."))
    stop = mine.first("exited")
    last = max((e.t for u in users for d in (ctx.deletion(u),) if d is not None
                for e in d.events if e.type == "exited"), default=None)
    if stop is None or last is None or last <= stop.t:
        return Text(gettext_noop("Both stop together, and {s} has no moment left to ship the app's last "
                                 "lines."), {"s": s.name})
    if mine.on_trace:
        return Text(gettext_noop("On the timeline {s} exits at {t} s, and the app side runs until {last} s."),
                    {"s": s.name, "t": TraceTime(stop.t), "last": TraceTime(last)})
    return Text(gettext_noop("Deleted, {s} exits {after} s after the deletion, and the app side runs {more} s "
                             "longer."), {"s": s.name, "after": f"{stop.t - mine.at:g}", "more": f"{last - stop.t:g}"})
