"""The `mount-without-volume` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop

ID = "mount-without-volume"
TITLE = gettext_noop("volumeMount names an undeclared volume")
SEVERITY = Severity.ERROR
DOCS_URL = DOCS["volumes"]
WHAT = gettext_noop("A volumeMount names a volume the Pod does not declare.")
WHY = gettext_noop(
    'The API server rejects the Pod ("Not found"): a volumeMount must name one of spec.volumes. '
    "Often the volume was renamed in one place but not the other, or declared in another "
    "workload.")
FIX_TEXT = gettext_noop("Declare the volume under spec.volumes, or correct the name in volumeMounts.")
FIRES_WHEN = gettext_noop("a container's volumeMounts name a volume missing from spec.volumes.")
QUIET_WHEN = gettext_noop("every mount names a declared volume.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
volumes:
  - name: $volume         # declare what $name mounts
    emptyDir: {}          # or the configMap/secret/persistentVolumeClaim it should be
# or point $name's mount at a declared volume:
#   volumeMounts: [{name: $known, mountPath: $path}]
"""
EXAMPLE = {"known": "config"}


def check(ctx: RuleContext) -> Iterator[Finding]:
    # once per Pod, not per mount: linear in the mounts (thousands of them, issue 27)
    known = ", ".join(v.name for v in ctx.pod.volumes) or Text(gettext_noop("none"))
    first: dict[tuple[str, str], int] = {}
    read: set[str] = set()
    for u in ctx.sharing.undeclared:
        c = ctx.pod.container(u.container)
        if c is None:
            continue
        if c.name not in read:
            read.add(c.name)
            for j, m in enumerate(c.mounts):
                first.setdefault((c.name, m.volume), j)
        i = first[(c.name, u.volume)]
        explanation = Text(gettext_noop(
            "{c} mounts volume {volume} at {mount_path}, but the Pod declares no such volume "
            "(declared: {known}). The API server rejects the Pod, so none of its containers ever starts."),
            {"c": c.name, "volume": repr(u.volume), "mount_path": u.mount_path, "known": known})
        yield ctx.finding(ID, c, ctx.container_path(c, f"volumeMounts[{i}].name"), explanation,
                          fill(FIX, name=c.name, volume=u.volume, path=u.mount_path,
                               known=ctx.pod.volumes[0].name if ctx.pod.volumes else "shared"))
