"""The sharing report as types: what `sharing.analyse.analyse_sharing` finds about one Pod (§16 of
docs/lifecycle-model.md), frozen, with `jsonable()` giving the JSON contract's ``sharing`` object.

Read it by attribute (``report.volumes[0].mounts``).  For code written against the JSON form a
report also answers ``report["volumes"]`` and ``report.get("conflicts", [])`` with that form
(computed once); new code should use the attributes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

NAMESPACE_KINDS = ("network", "ipc", "uts", "pid")


@dataclass(frozen=True)
class NamespaceGroup:
    containers: tuple[str, ...]
    scope: str                     # node | pod | container
    because: str

    def jsonable(self) -> dict[str, Any]:
        return {"containers": list(self.containers), "scope": self.scope, "because": self.because}


@dataclass(frozen=True)
class Mount:
    container: str
    mount_path: str
    read_only: bool
    sub_path: str | None

    def jsonable(self) -> dict[str, Any]:
        return {"container": self.container, "mountPath": self.mount_path, "readOnly": self.read_only,
                "subPath": self.sub_path}


@dataclass(frozen=True)
class Exchange:
    """Data can flow from a container that writes a volume to one that reads it."""

    writer: str
    reader: str

    def jsonable(self) -> dict[str, Any]:
        return {"from": self.writer, "to": self.reader}


# Pairs a volume lists in ``exchanges`` (issue 27): 500 containers sharing 16 volumes made 4 million pairs
# (129 MB).  The groups say the same for any number: data can flow from each writer to each other reader.
MAX_EXCHANGES = 100


@dataclass(frozen=True)
class VolumeShare:
    name: str
    type: str
    mounts: tuple[Mount, ...]
    sources: tuple[str, ...]       # "secret/db-creds", "configMap/settings", ...
    exchanges: tuple[Exchange, ...]   # the first MAX_EXCHANGES pairs (writer, other reader), writer by writer
    always_read_only: bool
    writers: tuple[str, ...] = ()     # the containers that mount it writable, in order
    readers: tuple[str, ...] = ()     # every container that mounts it, in order
    exchanges_left_out: int = 0       # pairs past the first MAX_EXCHANGES

    def jsonable(self) -> dict[str, Any]:
        return {"name": self.name, "type": self.type, "mounts": [m.jsonable() for m in self.mounts],
                "sources": list(self.sources), "exchanges": [x.jsonable() for x in self.exchanges],
                "alwaysReadOnly": self.always_read_only, "writers": list(self.writers),
                "readers": list(self.readers), "exchangesLeftOut": self.exchanges_left_out}


@dataclass(frozen=True)
class UndeclaredMount:
    volume: str
    container: str
    mount_path: str

    def jsonable(self) -> dict[str, Any]:
        return {"volume": self.volume, "container": self.container, "mountPath": self.mount_path}


@dataclass(frozen=True)
class PortUse:
    container: str
    container_port: int
    protocol: str
    name: str | None
    host_port: int | None

    def jsonable(self) -> dict[str, Any]:
        return {"container": self.container, "containerPort": self.container_port, "protocol": self.protocol,
                "name": self.name, "hostPort": self.host_port}


@dataclass(frozen=True)
class PortConflict:
    port: int
    protocol: str
    containers: tuple[str, ...]

    def jsonable(self) -> dict[str, Any]:
        return {"port": self.port, "protocol": self.protocol, "containers": list(self.containers)}


@dataclass(frozen=True)
class Exposure:
    source: str                    # "secret/db-creds", "configMap/settings"
    containers: tuple[str, ...]
    via: str                       # volume | env | envFrom

    def jsonable(self) -> dict[str, Any]:
        return {"source": self.source, "containers": list(self.containers), "via": self.via}


@dataclass(frozen=True)
class Filesystem:
    shared: bool
    because: str

    def jsonable(self) -> dict[str, Any]:
        return {"shared": self.shared, "because": self.because}


@dataclass(frozen=True)
class SharingReport:
    namespaces: dict[str, tuple[NamespaceGroup, ...]] = field(default_factory=dict)   # NAMESPACE_KINDS order
    volumes: tuple[VolumeShare, ...] = ()
    undeclared: tuple[UndeclaredMount, ...] = ()
    ports: tuple[PortUse, ...] = ()
    conflicts: tuple[PortConflict, ...] = ()
    exposure: tuple[Exposure, ...] = ()
    filesystem: Filesystem = Filesystem(False, "")

    def groups(self, kind: str) -> tuple[NamespaceGroup, ...]:
        return self.namespaces.get(kind, ())

    def jsonable(self) -> dict[str, Any]:
        """The JSON contract's ``sharing`` object (a new dict each time: the caller may change it)."""
        return {
            "namespaces": {kind: {"groups": [g.jsonable() for g in groups]} for kind, groups in self.namespaces.items()},
            "volumes": [v.jsonable() for v in self.volumes],
            "undeclared": [u.jsonable() for u in self.undeclared],
            "ports": [p.jsonable() for p in self.ports],
            "conflicts": [x.jsonable() for x in self.conflicts],
            "exposure": [e.jsonable() for e in self.exposure],
            "filesystem": self.filesystem.jsonable(),
        }

    # ---- the JSON form, read-only, for code written against it --------------------------------------
    @cached_property
    def _json(self) -> dict[str, Any]:
        return self.jsonable()

    def __getitem__(self, key: str) -> Any:
        return self._json[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self._json.get(key, default)
