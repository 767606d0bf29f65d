"""What the containers of one Pod share: namespaces, volumes, ports and Secret/ConfigMap data."""
from __future__ import annotations

from ..model import ROLE_APP, ROLE_SIDECAR, Container, Pod
from ..model import Mount as VolumeMount
from .report import (
    MAX_EXCHANGES,
    Exchange,
    Exposure,
    Filesystem,
    Mount,
    NamespaceGroup,
    PortConflict,
    PortUse,
    SharingReport,
    UndeclaredMount,
    VolumeShare,
)

# The kubelet always mounts these read-only, whatever volumeMounts says (since 1.9.4/1.10).
# https://kubernetes.io/docs/concepts/storage/volumes/#secret
ALWAYS_READ_ONLY_TYPES = ("secret", "configMap", "downwardAPI", "projected")
# Volume types whose sources are Secret or ConfigMap data a container can read.
_DATA_TYPES = ("secret", "configMap", "projected")
# Volume.sources kinds from parse.py -> the prefix shown to people.
_SOURCE_PREFIX = {"secret": "secret", "configMap": "configMap",
                  "claim": "persistentVolumeClaim", "path": "hostPath", "token": "serviceAccountToken",
                  "downwardAPI": "downwardAPI", "bundle": "clusterTrustBundle"}
FILESYSTEM = {"shared": False, "because": "each container has its own root filesystem from its "
              "image; only mounted volumes are shared"}
_POD_BECAUSE = {
    "network": "All containers share the Pod's network namespace: one IP address, and they "
               "reach each other on localhost.",
    "ipc": "All containers share the Pod's IPC namespace, so they can use System V IPC and "
           "POSIX shared memory with each other.",
    "uts": "All containers share the Pod's UTS namespace, so they see the same hostname.",
    "pid": "shareProcessNamespace: true gives the Pod one PID namespace, so containers see and "
           "can signal each other's processes and PID 1 is the pause container.",
}
_NODE_BECAUSE = {
    "network": "hostNetwork: true puts every container in the node's network namespace, so "
               "they use the node's IP address and can clash with its ports.",
    "ipc": "hostIPC: true puts every container in the node's IPC namespace, so they can reach "
           "shared memory of processes on the node.",
    "uts": "hostNetwork: true also gives every container the node's UTS namespace, so they see "
           "the hostname of the node.",
    "pid": "hostPID: true puts every container in the node's PID namespace, so they see every "
           "process on the node.",
}


def analyse_sharing(pod: Pod, debug_containers: tuple[Container, ...] = ()) -> SharingReport:
    """Every sharing fact about ``pod`` (docs/lifecycle-model.md §16); ``.jsonable()`` is the JSON form."""
    everyone = pod.all_containers + tuple(debug_containers)
    names = [c.name for c in everyone]
    host = {"network": pod.host_network, "ipc": pod.host_ipc, "uts": pod.host_network}
    namespaces = {kind: tuple(_frozen(g) for g in _shared_groups(names, kind, host[kind])) for kind in host}
    namespaces["pid"] = tuple(_frozen(g) for g in _pid_groups(pod, everyone))
    volumes, undeclared = _volumes(pod, everyone)
    return SharingReport(
        namespaces=namespaces,
        volumes=volumes,
        undeclared=undeclared,
        # an ephemeral container may not declare ports (validation.go `allowedEphemeralContainerFields`): the API
        # server refuses them, so a debug container never holds one (docs/lifecycle-model.md §31.3)
        ports=tuple(PortUse(c.name, p.container_port, p.protocol, p.name, p.host_port)
                    for c in everyone if c.role != "ephemeral" for p in c.ports),
        conflicts=tuple(PortConflict(x["port"], x["protocol"], tuple(x["containers"])) for x in _conflicts(pod)),
        exposure=_exposure(pod, everyone),
        filesystem=Filesystem(bool(FILESYSTEM["shared"]), str(FILESYSTEM["because"])),
    )


def _frozen(group: dict) -> NamespaceGroup:
    return NamespaceGroup(tuple(group["containers"]), group["scope"], group["because"])


def _group(names: list[str], scope: str, because: str) -> dict:
    return {"containers": list(names), "scope": scope, "because": because}


def _shared_groups(names: list[str], kind: str, on_host: bool) -> list[dict]:
    if not names:
        return []
    if on_host:
        return [_group(names, "node", _NODE_BECAUSE[kind])]
    return [_group(names, "pod", _POD_BECAUSE[kind])]


def _pid_groups(pod: Pod, everyone: tuple[Container, ...]) -> list[dict]:
    names = [c.name for c in everyone]
    if pod.host_pid or pod.share_process_namespace:
        return _shared_groups(names, "pid", pod.host_pid)
    groups: dict[str, dict] = {}
    for c in everyone:
        # kubectl debug --target: the ephemeral container joins the target's PID namespace
        # (kuberuntime_container_linux.go; docs/lifecycle-model.md §14).
        if c.target and c.target in groups:
            target = groups[c.target]
            target["containers"].append(c.name)
            joined = ", ".join(target["containers"][1:])
            target["because"] = (f"{joined} joined the PID namespace of {c.target} through "
                                 "targetContainerName (kubectl debug --target), which works only "
                                 "when the container runtime supports it.")
            groups[c.name] = target
        else:
            groups[c.name] = _group([c.name], "container", f"{c.name} has its own PID namespace "
                                    "(the default), so it sees only its own processes.")
    unique: list[dict] = []
    for g in groups.values():
        if not any(g is u for u in unique):
            unique.append(g)
    return unique


def _volumes(pod: Pod, everyone: tuple[Container, ...]) -> tuple[tuple[VolumeShare, ...], tuple[UndeclaredMount, ...]]:
    declared = {v.name: v for v in pod.volumes}
    undeclared = tuple(UndeclaredMount(m.volume, c.name, m.mount_path)
                       for c in everyone for m in c.mounts if m.volume not in declared)
    by_volume: dict[str, list[tuple[str, VolumeMount]]] = {}   # linear in volumes and mounts (issue 27)
    for c in everyone:
        for m in c.mounts:
            by_volume.setdefault(m.volume, []).append((c.name, m))
    out = []
    for v in pod.volumes:
        forced = v.type in ALWAYS_READ_ONLY_TYPES
        mounts = tuple(Mount(name, vm.mount_path, forced or vm.read_only, vm.sub_path)
                       for name, vm in by_volume.get(v.name, ()))
        exchanges, writers, readers, total = _exchanges(mounts)
        out.append(VolumeShare(
            v.name, v.type, mounts,
            tuple(_source_label(kind, name) for kind, name in v.sources),
            exchanges,
            forced, writers, readers, total - len(exchanges),
        ))
    return tuple(out), undeclared


def _exchanges(mounts: tuple[Mount, ...]) -> tuple[tuple[Exchange, ...], tuple[str, ...], tuple[str, ...], int]:
    """Who can pass files to whom through one volume: a container that mounts it read-write to another that
    mounts it, when the directories they see overlap.  A subPath mount sees only that directory of the volume
    (`pkg/kubelet/kubelet_pods.go` `makeMounts` bind-mounts volume/subPath), so two containers at different
    subPaths see different directories and exchange nothing (docs/lifecycle-model.md §32.1).

    Linear in the mounts, not in the pairs (issue 27: 500 containers sharing 16 volumes made 4 million pairs):
    each writer's reach is a union of the sets of containers that mount the volume at a directory above, at or
    below the one it writes, counted, and only the first MAX_EXCHANGES pairs, writer by writer, are listed.
    Returns (the pairs listed, the writers, every container that mounts it, the number of pairs)."""
    order: dict[str, int] = {}
    writable: dict[str, list[tuple[str, ...] | None]] = {}
    whole: set[str] = set()                          # a mount of the whole volume (or a subPathExpr) sees it all
    exact: dict[tuple[str, ...], set[str]] = {}      # directory -> who mounts exactly it
    below: dict[tuple[str, ...], set[str]] = {}      # directory -> who mounts it or a directory under it
    for m in mounts:
        order.setdefault(m.container, len(order))
        key = _directory(m.sub_path)
        if not m.read_only:
            writable.setdefault(m.container, []).append(key)
        if key is None:
            whole.add(m.container)
            continue
        exact.setdefault(key, set()).add(m.container)
        for i in range(len(key) + 1):
            below.setdefault(key[:i], set()).add(m.container)
    everyone = set(order)
    listed: list[Exchange] = []
    total = 0
    writers = sorted(writable, key=order.__getitem__)   # in the order the containers first mount it
    for w in writers:
        reach: set[str] = set()
        for key in writable[w]:
            if key is None:
                reach = everyone
                break
            reach = reach | whole | below.get(key, set())
            for i in range(len(key)):
                reach = reach | exact.get(key[:i], set())
        count = len(reach) - (w in reach)
        total += count
        if count and len(listed) < MAX_EXCHANGES:
            listed += [Exchange(w, r) for r in sorted(reach, key=order.__getitem__) if r != w]
    return tuple(listed[:MAX_EXCHANGES]), tuple(writers), tuple(order), total


def _overlap(a: str | None, b: str | None) -> bool:
    """Whether mounts at subPaths ``a`` and ``b`` (None: the whole volume) see a common directory: one is
    the other or above it.  The pairwise rule `_exchanges` computes for all mounts at once."""
    pa, pb = _directory(a), _directory(b)
    if pa is None or pb is None:
        return True
    n = min(len(pa), len(pb))
    return pa[:n] == pb[:n]


def _directory(sub_path: str | None) -> tuple[str, ...] | None:
    """The directory of the volume a mount at ``sub_path`` sees, as its path's parts; None for the whole volume,
    and for a subPathExpr (``$(POD_NAME)``), known only at run time: taken to overlap every mount."""
    if sub_path is None or "$(" in sub_path:
        return None
    parts = tuple(x for x in sub_path.split("/") if x not in ("", "."))
    return parts or None


def _clashes(containers: list[Container]) -> list[dict]:
    seen: dict[tuple[int, str], list[str]] = {}
    for c in containers:
        for p in c.ports:
            names = seen.setdefault((p.container_port, p.protocol), [])
            if c.name not in names:
                names.append(c.name)
    return [{"port": port, "protocol": proto, "containers": names}
            for (port, proto), names in seen.items() if len(names) > 1]


def _conflicts(pod: Pod) -> list[dict]:
    """Same containerPort and protocol in containers that run at the same time.

    Sidecars and app containers run together; a plain init container runs alone except for
    the sidecars declared before it, which are already running.
    """
    running = [c for c in pod.all_containers if c.role in (ROLE_SIDECAR, ROLE_APP)]
    out = _clashes(running)
    before: list[Container] = []
    for c in pod.init_containers:
        if c.role == ROLE_SIDECAR:
            before.append(c)
        else:
            out += [x for x in _clashes(before + [c]) if c.name in x["containers"]]
    return out


def _source_label(kind: str, name: str) -> str:
    """``secret/db``, ``persistentVolumeClaim/data``; a host path is already a path: ``hostPath:/sys/fs/bpf``."""
    if kind == "path":
        return f"{_SOURCE_PREFIX[kind]}:{name}"
    return f"{_SOURCE_PREFIX.get(kind, kind)}/{name}"


def _exposure(pod: Pod, everyone: tuple[Container, ...]) -> tuple[Exposure, ...]:
    volumes = {v.name: v for v in pod.volumes if v.type in _DATA_TYPES}
    found: dict[tuple[str, str], list[str]] = {}
    for c in everyone:
        refs = [(kind, name, "volume") for m in c.mounts if m.volume in volumes
                for kind, name in volumes[m.volume].sources if kind in ("secret", "configMap")]
        refs += [(r.kind, r.name, r.via) for r in c.env_refs]
        for kind, name, via in refs:
            names = found.setdefault((f"{kind}/{name}", via), [])
            if c.name not in names:
                names.append(c.name)
    return tuple(Exposure(source, tuple(names), via) for (source, via), names in found.items())


# How the text names the namespaces that every Pod shares by default.
_DEFAULT_NAMES = {"network": "network", "ipc": "IPC", "uts": "UTS"}


def default_namespaces(sharing: SharingReport) -> list[str]:
    """The namespaces shared as in every Pod: one Pod-scope group holding every container."""
    everyone = set()
    for ns in sharing["namespaces"].values():
        for g in ns["groups"]:
            everyone.update(g["containers"])
    return [kind for kind, ns in sharing["namespaces"].items()
            if kind in _DEFAULT_NAMES and len(ns["groups"]) == 1 and ns["groups"][0]["scope"] == "pod"
            and set(ns["groups"][0]["containers"]) == everyone]


def sharing_as_text(sharing: SharingReport, *, compact: bool = False) -> str:
    """The result of ``analyse_sharing`` as a few plain-English lines per topic.

    ``compact`` says the namespaces every Pod shares by default in one line, and only the
    others in full (the CLI's text output: the same paragraph for every Pod is noise)."""
    lines = ["Namespaces"]
    usual = default_namespaces(sharing) if compact else []
    if usual:
        lines.append(f"  {', '.join(_DEFAULT_NAMES[k] for k in usual)}: shared by all containers")
    for kind, ns in sharing["namespaces"].items():
        if kind in usual:
            continue
        for g in ns["groups"]:
            lines.append(f"  {kind} ({g['scope']}): {', '.join(g['containers'])}")
            lines.append(f"    {g['because']}")
    because = sharing["filesystem"]["because"]
    lines += ["Filesystem", f"  {because[:1].upper()}{because[1:]}.", "Volumes"]
    for v in sharing["volumes"]:
        lines += _volume_text(v)
    for u in sharing["undeclared"]:
        lines.append(f"  {u['container']} mounts {u['volume']!r} at {u['mountPath']}, but the Pod "
                     "declares no such volume.")
    if not sharing["volumes"] and not sharing["undeclared"]:
        lines.append("  (none)")
    lines.append("Ports")
    for p in sharing["ports"]:
        extra = "".join([f" ({p['name']})" if p["name"] else "",
                         f", hostPort {p['hostPort']}" if p["hostPort"] else ""])
        lines.append(f"  {p['container']}: {p['containerPort']}/{p['protocol']}{extra}")
    for x in sharing["conflicts"]:
        lines.append(f"  Conflict: {x['port']}/{x['protocol']} is used by "
                     f"{' and '.join(x['containers'])} at the same time in one network namespace.")
    if not sharing["ports"]:
        lines.append("  (none)")
    lines.append("Secret and ConfigMap exposure")
    for e in sharing["exposure"]:
        lines.append(f"  {e['source']} -> {', '.join(e['containers'])} via {e['via']}")
    if not sharing["exposure"]:
        lines.append("  (none)")
    return "\n".join(lines) + "\n"


def _volume_text(v: dict) -> list[str]:
    sources = f" from {', '.join(v['sources'])}" if v["sources"] else ""
    fixed = ", always read-only" if v["alwaysReadOnly"] else ""
    lines = [f"  {v['name']} ({v['type']}{fixed}){sources}"]
    first: dict[str, dict] = {}
    mode: dict[str, str] = {}
    for m in v["mounts"]:
        first.setdefault(m["container"], m)
        if not m["readOnly"]:
            mode[m["container"]] = "rw"
        mode.setdefault(m["container"], "ro")
    for x in v["exchanges"]:
        a, b = first[x["from"]]["mountPath"], first[x["to"]]["mountPath"]
        where = f"shared at {a}" if a == b else f"({a} -> {b})"
        lines.append(f"    {x['from']} ({mode[x['from']]}) -> {x['to']} ({mode[x['to']]}) "
                     f"via {v['type']} {where}")
    left_out = v.get("exchangesLeftOut")
    if left_out:
        writers, readers = len(v["writers"]), len(v["readers"])
        if len(v["exchanges"]) + left_out == writers * (readers - 1):
            lines.append(f"    ... and {left_out:,} more: data can flow from each of the "
                         f"{writers} writers to each other of the {readers} containers that mount it")
        else:   # subPaths keep some of them apart (docs/lifecycle-model.md §32.1)
            lines.append(f"    ... and {left_out:,} more pairs among its {writers} writers and "
                         f"{readers} containers that mount it, where their subPaths overlap")
    if not v["exchanges"]:
        for m in v["mounts"]:
            sub = f" (subPath {m['subPath']})" if m.get("subPath") else ""
            lines.append(f"    mounted by {m['container']} ({'ro' if m['readOnly'] else 'rw'}) "
                         f"at {m['mountPath']}{sub}")
        if not v["mounts"]:
            lines.append("    not mounted by any container")
    return lines
