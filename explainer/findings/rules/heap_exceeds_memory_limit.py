"""The `heap-exceeds-memory-limit` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import ASSUMED_OOM_SECONDS, DOCS
from explainer.lifecycle.commands.evidence import Heap, heap_over_limit, human_bytes

from ..base import Finding, RuleContext, Severity, fill, flow_yaml
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop

ID = "heap-exceeds-memory-limit"
TITLE = gettext_noop("JVM heap reaches the memory limit")
SEVERITY = Severity.ERROR
DOCS_URL = DOCS["resources"] + "#requests-and-limits"
REFERENCES = (
    "https://kubernetes.io/docs/tasks/configure-pod-container/assign-memory-resource/"
    "#exceed-a-container-s-memory-limit",
    "https://github.com/GoogleCloudPlatform/continuous-deployment-on-kubernetes/issues/99",
    "https://github.com/redhat-cop/agnosticd/pull/1302",
    "https://github.com/openMF/mifos-gazelle/pull/153",
    "https://github.com/pires/kubernetes-elasticsearch-cluster/issues/233",
)
WHAT = gettext_noop(
    "A JVM's maximum heap (-Xmx) is at or above the container's memory limit: OOMKilled, crash loop.")
WHY = gettext_noop(
    "The memory limit is a cgroup limit on everything the container's processes use. A JVM needs "
    "memory beyond its heap (metaspace, thread stacks, the JIT's code cache, direct buffers, GC "
    "structures), so a heap allowed to grow to the limit takes the process over it: the kernel's "
    "OOM killer ends the container (exit code 137, reason OOMKilled), the kubelet restarts it, and "
    "under steady load it crash-loops with a growing back-off.")
FIX_TEXT = gettext_noop(
    "Keep -Xmx well below the limit (about 75 % leaves room for the JVM's own memory), or drop -Xmx "
    "and size the heap from the limit with -XX:MaxRAMPercentage=75.")
FIRES_WHEN = gettext_noop(
    "the last -Xmx (or -XX:MaxHeapSize) on the command line, or in JAVA_TOOL_OPTIONS, JAVA_OPTS, "
    "_JAVA_OPTIONS or a similar options variable of the container's env, is at or above its "
    "resources.limits.memory.")
QUIET_WHEN = gettext_noop("the container has no memory limit, no -Xmx, or a heap below the limit.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
- name: $name
  # the heap at about 75 % of the limit leaves room for metaspace, threads and buffers
  $setting
  resources:
    limits:
      memory: $limit
"""
EXAMPLE = {"setting": 'args: ["-Xmx768m", "-jar", "/app.jar"]', "limit": "1Gi"}


def check(ctx: RuleContext) -> Iterator[Finding]:
    for c in ctx.pod.containers + ctx.pod.sidecars:
        over = heap_over_limit(ctx.pod, c)
        if over is None:
            continue
        heap, limit, written = over
        oom = any(r.reason == "OOMKilled" for r in ctx.behaviour(c).runs)
        when = Text(gettext_noop(
            " The timeline assumes the heap fills after {seconds} s of load: OOMKilled, exit code 137, "
            "then restarts with a growing back-off (CrashLoopBackOff)."),
            {"seconds": format(ASSUMED_OOM_SECONDS, "g")}) if oom else ""
        explanation = Text(gettext_noop(
            "{c} gives its JVM a maximum heap of {heap} ({written} in {source}), and its memory limit is "
            "{limit}. The heap alone may fill the limit, and the JVM needs more memory besides (metaspace, "
            "thread stacks, code cache, buffers): once the heap grows, the kernel's OOM killer ends {c} "
            "(OOMKilled, exit code 137) and the kubelet restarts it, again and again under load.{when}"),
            {"c": c.name, "heap": human_bytes(heap.bytes), "written": heap.written, "source": heap.source,
             "limit": written, "when": when})
        new_heap = f"-Xmx{int(limit * 0.75 // 2 ** 20)}m"
        yield ctx.finding(ID, c, ctx.container_path(c, heap.field), explanation,
                          fill(FIX, name=c.name, setting=_setting(heap, new_heap), limit=written))


def _setting(heap: Heap, new: str) -> str:
    """The field that holds -Xmx, with the smaller heap, as one line of flow YAML."""
    if heap.field.startswith("env["):
        return flow_yaml("env", [{"name": heap.source, "value": heap.words[0].replace(heap.written, new)}])
    return flow_yaml(heap.field, [word.replace(heap.written, new) for word in heap.words])
