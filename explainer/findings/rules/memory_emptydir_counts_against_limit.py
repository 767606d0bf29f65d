"""The `memory-emptydir-counts-against-limit` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

import re
from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.commands.evidence import human_bytes, memory_limit
from explainer.lifecycle.quantity import as_bytes

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop

ID = "memory-emptydir-counts-against-limit"
TITLE = gettext_noop("Memory-backed emptyDir counts against the memory limit")
SEVERITY = Severity.INFO
DOCS_URL = DOCS["volumes"] + "#emptydir"
REFERENCES = (
    "https://kubernetes.io/docs/reference/kubernetes-api/config-and-storage-resources/volume/#local-temporary-directory",
    "https://github.com/kubernetes/kubernetes/pull/63641",
)
WHAT = gettext_noop(
    "A container writes to an emptyDir with medium: Memory (tmpfs) that no sizeLimit bounds below its memory "
    "limit.")
WHY = gettext_noop(
    "A memory-backed emptyDir is a tmpfs: the files written there are memory, charged to the container that "
    "wrote them, and count against its memory limit like the program's own. Without a sizeLimit (or with one "
    "above the limit) nothing stops the files first: when they and the program together reach the limit, "
    "the kernel OOM-kills the container (137, OOMKilled) although no process grew, and the files survive the "
    "restart, so the next run starts with less room.")
FIX_TEXT = gettext_noop(
    "Give the volume a sizeLimit well below the container's memory limit (the tmpfs is then that size: a write "
    "beyond it fails with \"no space left on device\" instead of an OOM kill of the whole container), and raise "
    "the memory limit to hold the program plus the files; or use a disk emptyDir.")
FIRES_WHEN = gettext_noop(
    "a container with a memory limit mounts a medium: Memory emptyDir read-write, and the volume has no "
    "sizeLimit or one at or above that limit; volumes that hold credentials (tokens, certificates, "
    "Kerberos caches, a mesh proxy's secrets) are left out: they are small, and kept off disk on purpose.")
QUIET_WHEN = gettext_noop(
    "the emptyDir is on disk, every writer has no memory limit, or sizeLimit is below the writer's limit.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
volumes:
  - name: $volume
    emptyDir:
      medium: Memory
      sizeLimit: $size     # below $name's memory limit ($limit), with room for the program
"""
EXAMPLE = {"volume": "cache", "size": "64Mi", "limit": "256Mi"}
_CREDENTIALS = re.compile(r"cred|secret|token|cert|tls|key|identity|kerberos|krb|sds|/etc/istio|istio-envoy", re.I)


def check(ctx: RuleContext) -> Iterator[Finding]:
    pod = ctx.pod
    for v in pod.volumes:
        if v.type != "emptyDir" or v.medium != "Memory":
            continue
        size = as_bytes(v.size_limit)
        for c in pod.init_containers + pod.containers:
            mount = next((m for m in c.mounts if m.volume == v.name and not m.read_only), None)
            if mount is None or _CREDENTIALS.search(f"{v.name} {mount.mount_path}"):
                continue
            limit = memory_limit(pod, c)
            if limit is None or (size is not None and size < limit[0]):
                continue
            # the tmpfs's pages are charged to the writer's memory cgroup (docs/lifecycle-model.md §32.3)
            bounded = Text(gettext_noop("no sizeLimit bounds them")) if size is None else \
                Text(gettext_noop("and its sizeLimit {size} is no lower, so the OOM kill comes first"),
                     {"size": str(v.size_limit)})
            explanation = Text(gettext_noop(
                "{c} writes to {volume} at {path}, an emptyDir with medium: Memory: the files are memory, counted "
                "against {c}'s memory limit of {limit}, and {bounded}. When files and program together reach "
                "{limit}, the kernel OOM-kills {c} (137, OOMKilled), and the files are still there when it "
                "restarts."),
                {"c": c.name, "volume": v.name, "path": mount.mount_path, "limit": limit[1], "bounded": bounded})
            yield ctx.finding(ID, c, ctx.spec_path(f"volumes[{v.index}].emptyDir"), explanation,
                              fill(FIX, name=c.name, volume=v.name, limit=limit[1],
                                   size=human_bytes(limit[0] / 4)))
            break
