"""Volumes as they are mounted (docs/lifecycle-model.md §32), as tables.

Sources: pkg/kubelet/kubelet_pods.go `makeMounts` (a subPath mount bind-mounts volume/subPath when the
container starts); pkg/volume/util/atomic_writer.go (ConfigMap and Secret files are updated by swapping a
symbolic link, which a bind mount taken earlier never follows; [doc] configmap.md "Mounted ConfigMaps are
updated automatically", kubernetes#50345); the emptyDir API reference (a memory medium's usage counts against
the containers' memory limits); projected volumes (secret, configMap, downwardAPI, serviceAccountToken,
clusterTrustBundle sources).
"""
from __future__ import annotations

import pytest

from explainer.explain import explain
from explainer.lifecycle.parse import parse_pod
from explainer.lifecycle.sharing import _overlap, analyse_sharing, sharing_as_text


@pytest.mark.parametrize("a,b,overlap", [
    (None, None, True),             # the whole volume, twice
    (None, "logs", True),           # the whole volume sees logs/
    ("logs", "logs", True),
    ("logs", "logs/app", True),     # a directory and one below it
    ("./logs/", "logs", True),
    ("logs", "cache", False),       # two directories side by side: nothing passes
    ("logs-a", "logs", False),      # a name that starts alike is another directory
    ("$(POD_NAME)", "x", True),     # subPathExpr: known at run time only
])
def test_which_subpaths_see_a_common_directory(a, b, overlap) -> None:
    assert _overlap(a, b) is overlap and _overlap(b, a) is overlap


POD = """apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
    - name: writer
      image: busybox
      volumeMounts: [{name: data, mountPath: /out, subPath: writer}]
    - name: reader
      image: busybox
      volumeMounts: [{name: data, mountPath: /in, subPath: reader}]
    - name: auditor
      image: busybox
      volumeMounts: [{name: data, mountPath: /all, readOnly: true}]
  volumes:
    - name: data
      emptyDir: {}
    - name: bundle
      projected:
        sources:
          - secret: {name: db-creds}
          - configMap: {name: settings}
          - downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}]}
          - serviceAccountToken: {audience: vault, path: token}
"""


def test_mounts_at_different_subpaths_exchange_nothing() -> None:
    """writer and reader see data/writer and data/reader: nothing passes between them; the auditor mounts the
    whole volume and sees what writer writes."""
    sharing = analyse_sharing(parse_pod(POD))
    (data,) = [v for v in sharing.volumes if v.name == "data"]
    assert {(x.writer, x.reader) for x in data.exchanges} == {("writer", "auditor"), ("reader", "auditor")}
    text = sharing_as_text(sharing.jsonable())
    assert "writer (rw) -> reader" not in text


def test_a_projected_volume_lists_every_source() -> None:
    sharing = analyse_sharing(parse_pod(POD))
    (bundle,) = [v for v in sharing.volumes if v.name == "bundle"]
    assert bundle.sources == ("secret/db-creds", "configMap/settings", "downwardAPI/labels",
                              "serviceAccountToken/vault")


def test_the_seed_volumes_still_pass_files() -> None:
    """No subPath: seed 002's app writes app-logs and fluent-bit reads it."""
    report = explain(open("explainer/examples/web-app-pod.yaml", encoding="utf-8").read()).pods[0]
    (logs,) = [v for v in report.sharing.volumes if v.name == "app-logs"]
    assert [(x.writer, x.reader) for x in logs.exchanges] == [("app", "fluentbit-sidecar")]
