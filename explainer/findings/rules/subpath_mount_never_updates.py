"""The `subpath-mount-never-updates` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.model import Container

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..scripts import sources

ID = "subpath-mount-never-updates"
TITLE = gettext_noop("ConfigMap or Secret mounted with subPath never updates")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["volumes"] + "#using-subpath"
REFERENCES = (
    "https://kubernetes.io/docs/concepts/configuration/configmap/#mounted-configmaps-are-updated-automatically",
    "https://kubernetes.io/docs/concepts/configuration/secret/#using-secrets-as-files-from-a-pod",
    "https://github.com/kubernetes/kubernetes/issues/50345",
)
WHAT = gettext_noop(
    "A ConfigMap, Secret, projected or downward API volume is mounted with subPath in a Pod that expects its "
    "files to change.")
WHY = gettext_noop(
    "The kubelet updates the files of a mounted ConfigMap or Secret by writing a new directory and swapping a "
    "symbolic link, a minute or so after the object changes. A subPath mount is a bind mount of one file or "
    "directory taken when the container starts: it keeps pointing at the old one, so the container never sees "
    "an update until it restarts. A reloader watching the file, or a program told to reload it, then waits for "
    "a change that never comes.")
FIX_TEXT = gettext_noop(
    "Mount the whole volume at a directory of its own (pick the file with items if needed) and point the "
    "program at the file there; or roll the Pods when the object changes.")
FIRES_WHEN = gettext_noop(
    "a container mounts a ConfigMap, Secret, projected or downward API volume with subPath, and something in "
    "the Pod expects the files to change: a configuration reloader (configmap-reload, config-reloader, a "
    "--webhook-url), a hook or command that reloads the program (kill -HUP, nginx -s reload, a /reload call), "
    "or a watch flag (--watch, --watch-config, hot reload).")
QUIET_WHEN = gettext_noop(
    "the volume is mounted whole, or nothing in the Pod expects its files to change (a file read once at "
    "start is fine with subPath).")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
- name: $name
  volumeMounts:
    - name: $volume
      mountPath: $directory   # the whole volume: the kubelet's updates reach it
  # and point the program at $directory/$file
"""
EXAMPLE = {"volume": "config", "directory": "/etc/app/conf.d", "file": "app.conf"}
UPDATED = ("configMap", "secret", "projected", "downwardAPI")
_RELOAD_WORDS = ("kill -hup", "kill -s hup", "kill -1 ", "pkill -hup", "-s reload", "/reload", "--watch",
                 "hot-reload", "hot_reload", "--enable-hot-reload", "inotify", "auto-reload", "autoreload")


def check(ctx: RuleContext) -> Iterator[Finding]:
    pod = ctx.pod
    updated = {v.name: v for v in pod.volumes if v.type in UPDATED}
    if not updated:
        return
    expects = _expects_change(ctx)
    if expects is None:
        return
    for c in pod.all_containers:
        for i, m in enumerate(c.mounts):
            if m.sub_path is None or m.volume not in updated:
                continue
            # pkg/kubelet/kubelet_pods.go `makeMounts`: a subPath is bind-mounted once, at container start; the
            # atomic writer's later symlink swap never reaches it (docs/lifecycle-model.md §32.2)
            v = updated[m.volume]
            explanation = Text(gettext_noop(
                "{c} mounts {subpath} of {kind} volume {volume} with subPath at {path}. A subPath mount is taken "
                "once, when {c} starts: when the {kind} changes, the kubelet updates the volume but never this "
                "mount, so {c} keeps the old file until it restarts. Yet {expects} expects the files to change."),
                {"c": c.name, "subpath": m.sub_path, "kind": v.type, "volume": v.name, "path": m.mount_path,
                 "expects": expects})
            directory = m.mount_path.rsplit("/", 1)[0] or "/"
            directory = directory if directory != m.mount_path else m.mount_path + ".d"
            yield ctx.finding(ID, c, ctx.container_path(c, f"volumeMounts[{i}].subPath"), explanation,
                              fill(FIX, name=c.name, volume=v.name, directory=f"{directory}/{v.name}",
                                   file=m.sub_path))


def _expects_change(ctx: RuleContext) -> Text | None:
    """What in the Pod waits for configuration changes, in words; None when nothing does."""
    for c in ctx.pod.all_containers:
        if ctx.facts(c).calls_on_change:
            return Text(gettext_noop("{c}, a configuration reloader,"), {"c": c.name})
        words = _reload_word(c)
        if words is not None:
            return Text(gettext_noop("{c} (`{words}`)"), {"c": c.name, "words": words})
    return None


def _reload_word(c: Container) -> str | None:
    for _field, text in sources(c):
        lower = text.lower()
        for word in _RELOAD_WORDS:
            if word in lower:
                return word.strip()
    return None
