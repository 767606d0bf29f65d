"""The `volume-not-mounted` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop

ID = "volume-not-mounted"
TITLE = gettext_noop("Volume declared but never mounted")
SEVERITY = Severity.INFO
DOCS_URL = DOCS["volumes"]
WHAT = gettext_noop("A volume is declared in the Pod but no container mounts it.")
WHY = gettext_noop(
    "Volumes are Pod-wide, but a container sees only the volumes it lists in `volumeMounts`. An "
    "unmounted volume still gets set up (a claim bound, a Secret fetched) for nothing, and it "
    "usually means a mount was forgotten: the container that should read it sees its image's "
    "directory instead.")
FIX_TEXT = gettext_noop("Mount it where it is needed, or remove it.")
FIRES_WHEN = gettext_noop("a volume under spec.volumes is mounted by no init, sidecar, app or ephemeral container.")
QUIET_WHEN = gettext_noop("every volume is mounted by at least one container.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
containers:
  - name: $name
    volumeMounts:
      - name: $volume
        mountPath: $path
"""


def check(ctx: RuleContext) -> Iterator[Finding]:
    mounted = {m.volume for c in ctx.pod.all_containers for m in c.mounts}
    types: dict[str, str] = {}      # a name declared twice (the API server refuses it) is named by its first
    for v in ctx.pod.volumes:
        types.setdefault(v.name, v.type)
    for v in ctx.pod.volumes:
        if v.index is None or v.name in mounted:   # None: a volumeClaimTemplate, mounted or not by its Pods
            continue
        name = v.name
        user = ctx.pod.containers[0].name if ctx.pod.containers else "app"
        explanation = Text(gettext_noop(
            "Volume {volume} ({type}) is declared but no container mounts it, so no "
            "container can see its files: the kubelet sets it up for nothing, and a container "
            "that was meant to read it sees only its own image's directory."),
            {"volume": name, "type": types[name]})
        yield ctx.finding(ID, None, ctx.spec_path(f"volumes[{v.index}]"), explanation,
                          fill(FIX, name=user, volume=name, path="<MOUNT PATH>  # a placeholder: where the program expects the files"))
