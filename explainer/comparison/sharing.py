"""Volumes, namespaces and port conflicts that two explanations' sharing reports differ in."""
from __future__ import annotations

from ..lifecycle.i18n import Text, gettext_noop as _
from ..lifecycle.sharing.report import SharingReport
from .model import SharingChange, _names


def _volume_users(sharing: SharingReport) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for v in sharing.volumes:
        users = out.setdefault(v.name, [])
        for m in v.mounts:
            if m.container not in users:
                users.append(m.container)
    return out


def _ns_state(sharing: SharingReport, kind: str) -> tuple[str, frozenset[tuple[str, ...]]]:
    """("node" | "pod" | "container", the groups of two or more containers)."""
    groups = sharing.groups(kind)
    scopes = {g.scope for g in groups}
    scope = "node" if "node" in scopes else "pod" if "pod" in scopes else "container"
    return scope, frozenset(g.containers for g in groups if len(g.containers) > 1)


_NS_NAMES = {"network": "network", "ipc": "IPC", "uts": "UTS", "pid": "PID"}
_SCOPE_WORDS = {"node": _("the node's own (shared with every process on the node)"),
                "pod": _("shared by all containers of the Pod"),
                "container": _("separate for each container")}


def sharing_changes(before: SharingReport, after: SharingReport) -> list[SharingChange]:
    """Volumes, namespaces and port conflicts that are now shared, or no longer."""
    out: list[SharingChange] = []
    vb, va = _volume_users(before), _volume_users(after)
    for name in list(vb) + [n for n in va if n not in vb]:
        b, a = vb.get(name, []), va.get(name, [])
        shared_b, shared_a = len(b) > 1, len(a) > 1
        if shared_a and not shared_b:
            out.append(SharingChange("volume", "added", name, tuple(a), Text(
                _("Volume {volume} is now shared by {containers}."), {"volume": name, "containers": _names(a)})))
        elif shared_b and not shared_a:
            out.append(SharingChange("volume", "removed", name, tuple(b), Text(
                _("Volume {volume} is no longer shared (before, {containers} shared it)."),
                {"volume": name, "containers": _names(b)})))
        elif shared_a and shared_b:
            joined, gone = [c for c in a if c not in b], [c for c in b if c not in a]
            if joined:
                out.append(SharingChange("volume", "added", name, tuple(joined), Text(
                    _("Volume {volume} is now also shared with {containers}."),
                    {"volume": name, "containers": _names(joined)})))
            if gone:
                out.append(SharingChange("volume", "removed", name, tuple(gone), Text(
                    _("Volume {volume} is no longer shared with {containers}."),
                    {"volume": name, "containers": _names(gone)})))
    for kind, label in _NS_NAMES.items():
        (sb, gb), (sa, ga) = _ns_state(before, kind), _ns_state(after, kind)
        if sb != sa:
            names = tuple(c for g in after.groups(kind) for c in g.containers)
            out.append(SharingChange("namespace", "added" if sa != "container" else "removed", kind, names, Text(
                _("The {namespace} namespace is now {after} (before: {before})."),
                {"namespace": label, "after": Text(_SCOPE_WORDS[sa]), "before": Text(_SCOPE_WORDS[sb])})))
        elif sa == "container":
            for g in sorted(ga - gb):
                out.append(SharingChange("namespace", "added", kind, g, Text(
                    _("{containers} now share one {namespace} namespace."),
                    {"containers": _names(g), "namespace": label})))
            for g in sorted(gb - ga):
                out.append(SharingChange("namespace", "removed", kind, g, Text(
                    _("{containers} no longer share one {namespace} namespace."),
                    {"containers": _names(g), "namespace": label})))
    cb = {(x.port, x.protocol, x.containers) for x in before.conflicts}
    ca = {(x.port, x.protocol, x.containers) for x in after.conflicts}
    for port, proto, names in sorted(ca - cb):
        out.append(SharingChange("port", "added", f"{port}/{proto}", names, Text(
            _("Port conflict: {containers} now use port {port} at the same time."),
            {"containers": _names(names), "port": f"{port}/{proto}"})))
    for port, proto, names in sorted(cb - ca):
        out.append(SharingChange("port", "removed", f"{port}/{proto}", names, Text(
            _("The port conflict on {port} between {containers} is gone."),
            {"containers": _names(names), "port": f"{port}/{proto}"})))
    return out
