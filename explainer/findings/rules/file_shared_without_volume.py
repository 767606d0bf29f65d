"""The `file-shared-without-volume` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

import posixpath
from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.model import Container

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..scripts import sources, written_paths

ID = "file-shared-without-volume"
TITLE = gettext_noop("File passed between containers without a shared volume")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["volumes"]
REFERENCES = (DOCS["init-containers"],)
WHAT = gettext_noop("One container writes a file another reads, but no shared volume holds it.")
WHY = gettext_noop(
    "Every container has its own root filesystem from its image; only mounted volumes are "
    "shared. `echo token > /tmp/token` in an init container writes to that container's own "
    "/tmp, which disappears with it; the app's `cat /tmp/token` looks in its own /tmp and finds "
    "nothing (or whatever its image put there).")
FIX_TEXT = gettext_noop("Declare an emptyDir volume and mount it at the same directory in both containers.")
FIRES_WHEN = gettext_noop(
    "a path written by one container (`>`, `>>`, `tee`, `cp`, `mv`, `touch`, `curl -o`, `wget "
    "-O`) appears in another container's command, args, hooks or env, and no volume mounted by "
    "both covers it.")
QUIET_WHEN = gettext_noop("both containers mount the same volume at a directory that holds the path.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
volumes:
  - name: shared
    emptyDir: {}
# in both $other (writes $file) and $name (reads it):
volumeMounts:
  - name: shared
    mountPath: $path
"""
_NOT_FILES = ("/dev/", "/proc/", "/sys/")


def check(ctx: RuleContext) -> Iterator[Finding]:
    everyone = ctx.pod.init_containers + ctx.pod.containers
    written = {c.name: {p for _f, text in sources(c) for p in written_paths(text)
                        if not p.startswith(_NOT_FILES)} for c in everyone}
    if not any(written.values()):
        return   # nothing written: nothing to share
    mentioned = {c.name: ctx.facts(c).mentioned_paths for c in everyone}
    for w in everyone:
        for path in sorted(written[w.name]):
            for r in everyone:
                # a container that writes the path itself reads its own copy: nothing to share
                where = mentioned[r.name].get(path) if path not in written[r.name] else None
                if where is None or _shared(w, r, path):
                    continue
                directory = posixpath.dirname(path) if posixpath.dirname(path) != "/" else "/shared"
                explanation = Text(gettext_noop(
                    "{writer} writes {path} and {reader} reads it, but no volume mounted in both "
                    "covers {directory}. Each container has its own root filesystem, so the file "
                    "{writer} writes stays in {writer}'s filesystem and {reader} does not find it "
                    "(No such file or directory) when it runs."),
                    {"writer": w.name, "reader": r.name, "path": path, "directory": directory})
                yield ctx.finding(ID, r, ctx.container_path(r, where), explanation,
                                  fill(FIX, name=r.name, other=w.name, file=path, path=directory))


def _under(path: str, mount: str) -> bool:
    mount = mount.rstrip("/") or "/"
    return path == mount or path.startswith(mount if mount == "/" else mount + "/")


def _shared(a: Container, b: Container, path: str) -> bool:
    held_a = {m.volume for m in a.mounts if _under(path, m.mount_path)}
    return any(m.volume in held_a and _under(path, m.mount_path) for m in b.mounts)
