"""analyse_sharing: namespaces, volumes, ports and Secret/ConfigMap exposure of one Pod."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from explainer.lifecycle.model import Container, Pod
from explainer.lifecycle.manifest.parse import parse_manifest
from explainer.lifecycle.sharing.analyse import analyse_sharing, sharing_as_text
from explainer.lifecycle.sharing.report import Mount, VolumeShare


def _pod(name: str) -> Pod:
    text = (Path(__file__).parents[2] / f"fixtures/pods/{name}.yaml").read_text(encoding="utf-8")
    return parse_manifest(text).pods[0]


def _groups(sharing: dict, kind: str) -> list[tuple[str, list[str]]]:
    return [(g["scope"], g["containers"]) for g in sharing["namespaces"][kind]["groups"]]


DEBUG = Container(name="debug", role="ephemeral", index=0, image="busybox",
                  path="spec.ephemeralContainers[0]", line=None, target="app")


@pytest.mark.parametrize("fixture, kind, expected", [
    ("sharing_default", "network", [("pod", ["init-a", "app", "helper"])]),
    ("sharing_default", "ipc", [("pod", ["init-a", "app", "helper"])]),
    ("sharing_default", "uts", [("pod", ["init-a", "app", "helper"])]),
    ("sharing_default", "pid", [("container", ["init-a"]), ("container", ["app"]),
                                ("container", ["helper"])]),
    ("sharing_share_process_namespace", "pid", [("pod", ["proxy", "app"])]),
    ("sharing_share_process_namespace", "network", [("pod", ["proxy", "app"])]),
    ("sharing_host_namespaces", "network", [("node", ["agent", "exporter"])]),
    ("sharing_host_namespaces", "uts", [("node", ["agent", "exporter"])]),
    ("sharing_host_namespaces", "ipc", [("node", ["agent", "exporter"])]),
    ("sharing_host_namespaces", "pid", [("node", ["agent", "exporter"])]),
])
def test_namespace_groups_follow_pod_settings(fixture: str, kind: str, expected: list) -> None:
    assert _groups(analyse_sharing(_pod(fixture)), kind) == expected


def test_every_group_has_a_plain_sentence() -> None:
    sharing = analyse_sharing(_pod("sharing_host_namespaces"))
    for kind in ("network", "ipc", "uts", "pid"):
        because = sharing["namespaces"][kind]["groups"][0]["because"]
        assert because.endswith(".") and "node" in because


def test_ephemeral_target_joins_target_pid_namespace() -> None:
    sharing = analyse_sharing(_pod("sharing_ephemeral_target"), (DEBUG,))
    assert _groups(sharing, "pid") == [("container", ["app", "debug"]), ("container", ["helper"])]
    because = sharing["namespaces"]["pid"]["groups"][0]["because"]
    assert "kubectl debug --target" in because and "runtime" in because
    assert _groups(sharing, "network") == [("pod", ["app", "helper", "debug"])]


def test_ephemeral_without_target_has_its_own_pid_namespace() -> None:
    loose = Container(name="debug", role="ephemeral", index=0, image="busybox",
                      path="spec.ephemeralContainers[0]", line=None)
    sharing = analyse_sharing(_pod("sharing_ephemeral_target"), (loose,))
    assert _groups(sharing, "pid")[-1] == ("container", ["debug"])


def test_emptydir_exchanges_flow_from_writers() -> None:
    (volume,) = analyse_sharing(_pod("sharing_emptydir"))["volumes"]
    assert volume["mounts"] == [
        {"container": "init-a", "mountPath": "/shared", "readOnly": False, "subPath": None},
        {"container": "logship", "mountPath": "/logs", "readOnly": False, "subPath": None},
        {"container": "app", "mountPath": "/shared", "readOnly": True, "subPath": "html"},
    ]
    assert volume["exchanges"] == [
        {"from": "init-a", "to": "logship"}, {"from": "init-a", "to": "app"},
        {"from": "logship", "to": "init-a"}, {"from": "logship", "to": "app"},
    ]
    assert volume["alwaysReadOnly"] is False and volume["sources"] == []


@pytest.mark.parametrize("fixture, sources", [
    ("sharing_secret_volume", ["secret/db-creds"]),
    # every source of a projected volume, its downward API fields too (docs/lifecycle-model.md §32.4)
    ("sharing_projected", ["secret/tls", "configMap/settings", "downwardAPI/labels"]),
])
def test_data_volumes_are_always_read_only(fixture: str, sources: list[str]) -> None:
    (volume,) = analyse_sharing(_pod(fixture))["volumes"]
    assert volume["alwaysReadOnly"] is True
    assert volume["sources"] == sources
    assert all(m["readOnly"] for m in volume["mounts"])
    assert volume["exchanges"] == []


def test_projected_volume_exposes_each_source() -> None:
    assert analyse_sharing(_pod("sharing_projected"))["exposure"] == [
        {"source": "secret/tls", "containers": ["app"], "via": "volume"},
        {"source": "configMap/settings", "containers": ["app"], "via": "volume"},
    ]


def test_env_and_envfrom_exposure_lists_containers_in_pod_order() -> None:
    assert analyse_sharing(_pod("sharing_env_exposure"))["exposure"] == [
        {"source": "secret/db", "containers": ["migrate", "app"], "via": "env"},
        {"source": "configMap/app-config", "containers": ["app", "worker"], "via": "envFrom"},
    ]


def test_undeclared_mount_is_listed_apart() -> None:
    sharing = analyse_sharing(_pod("sharing_undeclared_mount"))
    assert sharing["undeclared"] == [{"volume": "cache", "container": "app", "mountPath": "/cache"}]
    assert [(v["name"], v["sources"]) for v in sharing["volumes"]] == [
        ("data", ["persistentVolumeClaim/app-data"])]


@pytest.mark.parametrize("fixture, conflicts", [
    ("sharing_port_conflict", [
        {"port": 8080, "protocol": "TCP", "containers": ["proxy", "app"]},
        {"port": 8080, "protocol": "TCP", "containers": ["proxy", "warmup"]},
    ]),
    ("sharing_port_protocols", []),
    ("sharing_default", []),
])
def test_port_conflicts_only_between_containers_running_together(fixture: str, conflicts: list) -> None:
    assert analyse_sharing(_pod(fixture))["conflicts"] == conflicts


def test_ports_are_listed_with_names_and_host_ports() -> None:
    ports = analyse_sharing(_pod("sharing_port_conflict"))["ports"]
    assert ports[1] == {"container": "proxy", "containerPort": 8080, "protocol": "TCP",
                        "name": "proxy", "hostPort": None}
    assert ports[-1] == {"container": "app", "containerPort": 8080, "protocol": "TCP",
                         "name": "http", "hostPort": 80}


def test_result_is_json_ready_with_the_public_keys() -> None:
    sharing = analyse_sharing(_pod("sharing_emptydir")).jsonable()
    assert set(sharing) == {"namespaces", "volumes", "undeclared", "ports", "conflicts",
                            "exposure", "filesystem"}
    assert set(sharing["namespaces"]) == {"network", "ipc", "uts", "pid"}
    assert sharing["filesystem"]["shared"] is False
    assert json.loads(json.dumps(sharing)) == sharing


@pytest.mark.parametrize("fixture, debug, expected", [
    ("sharing_emptydir", (), "init-a (rw) -> app (ro) via emptyDir shared at /shared"),
    ("sharing_emptydir", (), "logship (rw) -> app (ro) via emptyDir (/logs -> /shared)"),
    ("sharing_secret_volume", (), "creds (secret, always read-only) from secret/db-creds"),
    ("sharing_port_conflict", (), "Conflict: 8080/TCP is used by proxy and app"),
    ("sharing_env_exposure", (), "secret/db -> migrate, app via env"),
    ("sharing_undeclared_mount", (), "app mounts 'cache' at /cache, but the Pod declares no"),
    ("sharing_ephemeral_target", (DEBUG,), "pid (container): app, debug"),
    ("sharing_default", (), "Each container has its own root filesystem"),
])
def test_text_names_what_is_shared(fixture: str, debug: tuple, expected: str) -> None:
    assert expected in sharing_as_text(analyse_sharing(_pod(fixture), debug))


def test_the_report_is_typed_and_frozen_and_its_json_form_reads_the_same() -> None:
    report = analyse_sharing(_pod("sharing_emptydir"))
    (volume,) = report.volumes
    assert isinstance(volume, VolumeShare) and isinstance(volume.mounts[0], Mount)
    assert [(x.writer, x.reader) for x in volume.exchanges] == [(x["from"], x["to"])
                                                                 for x in report["volumes"][0]["exchanges"]]
    assert [g.scope for g in report.groups("network")] == ["pod"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.volumes = ()   # type: ignore[misc]
    assert report.jsonable() == report.jsonable() and report.jsonable() is not report.jsonable()
    assert report.get("nothing", 7) == 7
