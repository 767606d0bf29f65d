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
from hypothesis import given, settings, strategies as st

from explainer.explain import explain
from explainer.lifecycle.manifest.parse import parse_pod
from explainer.lifecycle.sharing.analyse import _overlap, analyse_sharing, sharing_as_text
from tests.profiles import examples


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


# ---- the exchanges of many containers, computed per directory and not per pair (issue 27) -------------------
def _pairwise(mounts: tuple) -> list[tuple[str, str]]:
    """The definition, pair by pair: a writer to another container when a writable mount of the one sees a
    directory a mount of the other sees."""
    by: dict[str, list] = {}
    for m in mounts:
        by.setdefault(m.container, []).append(m)
    return [(w, r) for w, ws in by.items() for r, rs in by.items()
            if r != w and any(not a.read_only and _overlap(a.sub_path, b.sub_path) for a in ws for b in rs)]


SUB_PATHS = st.sampled_from([None, "logs", "logs/app", "./logs/", "cache", "logs-a", "$(POD_NAME)", "a/b/c", "a"])


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.tuples(st.integers(0, 7), SUB_PATHS, st.booleans()), max_size=24))
def test_exchanges_are_the_pairs_whose_directories_overlap(mounts: list) -> None:
    from explainer.lifecycle.sharing.analyse import _exchanges
    from explainer.lifecycle.sharing.report import MAX_EXCHANGES, Mount
    written = tuple(Mount(f"c{c}", f"/m{i}", ro, sub) for i, (c, sub, ro) in enumerate(mounts))
    listed, writers, readers, total = _exchanges(written)
    pairs = _pairwise(written)
    assert [(x.writer, x.reader) for x in listed] == pairs[:MAX_EXCHANGES]
    assert total == len(pairs)
    assert set(writers) == {m.container for m in written if not m.read_only}
    assert readers == tuple(dict.fromkeys(m.container for m in written))
