"""The `hostport-blocks-surge` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from explainer.lifecycle.numbers import whole_number
from explainer.lifecycle.manifest.yamlload import format_path

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..patch import SetKey

ID = "hostport-blocks-surge"
TITLE = gettext_noop("hostPort with maxSurge: the rollout cannot progress")
SEVERITY = Severity.ERROR
DOCS_URL = "https://kubernetes.io/docs/tasks/manage-daemon/update-daemon-set/"
REFERENCES = (
    "https://github.com/kubernetes/kubernetes/issues/106417",
    "https://github.com/kubernetes/enhancements/tree/master/keps/sig-apps/1591-daemonset-surge",
    "https://github.com/haproxytech/helm-charts/pull/189",
    "https://github.com/openkruise/kruise/issues/2361",
)
WHAT = gettext_noop(
    "A DaemonSet with a hostPort (or hostNetwork) and rollingUpdate.maxSurge > 0: the rollout never progresses.")
WHY = gettext_noop(
    "With maxSurge a DaemonSet rolls out by starting the new Pod on a node before deleting the old one "
    "there (the old Pod goes only once the new one is available). Both Pods want the same port on the "
    "same node: the scheduler refuses the new Pod (\"node(s) didn't have free ports for the requested pod "
    "ports\"), it stays Pending, the old one is never replaced, and the rollout stops on the first node. "
    "With hostNetwork every containerPort is a host port.")
FIX_TEXT = gettext_noop(
    "Set maxSurge: 0 with maxUnavailable: 1 (the DaemonSet default): the old Pod is removed first, then the "
    "new one takes the port.")
FIRES_WHEN = gettext_noop(
    "a DaemonSet's updateStrategy.rollingUpdate.maxSurge is above 0 (a number or a percentage) and one of "
    "its containers has a hostPort, or the Pod uses hostNetwork and declares a containerPort.")
QUIET_WHEN = gettext_noop("maxSurge is 0 or unset, the strategy is OnDelete, or no container holds a host port.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
spec:
  updateStrategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 0          # a node's old Pod must free the port $name holds first
      maxUnavailable: $unavailable
"""
EXAMPLE = {"unavailable": "1"}


def check(ctx: RuleContext) -> Iterator[Finding]:
    pod, w = ctx.pod, ctx.pod.workload
    if pod.source.kind != "DaemonSet" or w is None or len(pod.spec_path) < 3:
        return
    obj = tuple(pod.spec_path[:-3])          # spec.template.spec -> the DaemonSet
    surge = w.max_surge                      # as written, or the default 0 (workload.py)
    if w.strategy != "RollingUpdate" or not _positive(surge):
        return
    # pkg/controller/daemon/update.go `rollingUpdate`: with maxSurge the new Pod is created beside the old
    # one on its node; the scheduler's NodePorts filter then refuses it while the old Pod holds the port
    held = [(c, p.host_port or p.container_port) for c in pod.init_containers + pod.containers for p in c.ports
            if p.host_port or pod.host_network]
    if not held:
        return
    c, port = held[0]
    how = Text(gettext_noop("hostNetwork makes its port {port} a port of the node") if pod.host_network and
               not next(p for p in c.ports if (p.host_port or p.container_port) == port).host_port else
               gettext_noop("it holds hostPort {port} on its node"), {"port": port})
    explanation = Text(gettext_noop(
        "{c} of DaemonSet {ds}: {how}, and updateStrategy.rollingUpdate.maxSurge is {surge}. At the next "
        "rollout the new Pod is created on each node before the old one is deleted; it needs port {port}, "
        "which the old Pod holds, so the scheduler leaves it Pending and the old Pod is never replaced: the "
        "rollout stops on the first node."),
        {"c": c.name, "ds": pod.source.name, "how": how, "surge": surge, "port": port})
    unavailable = w.max_unavailable          # as written, or the default 1
    needs_unavailable = not _positive(unavailable)
    edits = [SetKey(obj + ("spec", "updateStrategy", "rollingUpdate", "maxSurge"), 0)]
    if needs_unavailable:
        edits.append(SetKey(obj + ("spec", "updateStrategy", "rollingUpdate", "maxUnavailable"), 1))
    path = format_path(obj + ("spec", "updateStrategy", "rollingUpdate", "maxSurge"))
    yield ctx.finding(ID, c, path, explanation,
                      fill(FIX, name=c.name, unavailable=1 if needs_unavailable else unavailable), patch=tuple(edits))


def _positive(value: Any) -> bool:
    """maxSurge above 0: a number, or a percentage of nodes (rounded up, so any % above 0 is one Pod)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value > 0
    if isinstance(value, str):
        text = value.strip().rstrip("%")
        return (whole_number(text) or 0) > 0
    return False
