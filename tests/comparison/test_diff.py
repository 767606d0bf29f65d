"""The core's diff of two explanations, called directly (no renderer): `comparison.diff`."""
from __future__ import annotations

from explainer.comparison import diff
from explainer.explain import explain
from explainer.render.compare import compare
from tests.conftest import load_manifest

TMP = load_manifest("seeds/tmp-without-volume")
MOUNTED = TMP.replace(
    '      command: ["sh", "-c", "echo token > /tmp/token"]\n',
    '      command: ["sh", "-c", "echo token > /tmp/token"]\n'
    "      volumeMounts: [{name: tmp, mountPath: /tmp}]\n",
).replace(
    '      command: ["sh", "-c", "cat /tmp/token; sleep 3600"]\n',
    '      command: ["sh", "-c", "cat /tmp/token; sleep 3600"]\n'
    "      volumeMounts: [{name: tmp, mountPath: /tmp}]\n"
    "  volumes: [{name: tmp, emptyDir: {}}]\n",
)


def test_diff_finds_the_new_shared_volume_and_leaves_the_window_to_the_renderer() -> None:
    before, after = explain(TMP), explain(MOUNTED)
    (pair,) = diff(before, after).pods
    (change,) = pair.sharing
    assert (change.topic, change.change, change.subject) == ("volume", "added", "tmp")
    assert pair.view_end == 10.0    # the core's default: the shared window is the renderer's choice
    (drawn,) = compare(before, after).pods
    assert drawn.view_end >= 10.0 and drawn.summary == pair.summary


def test_the_same_input_has_no_difference() -> None:
    expl = explain(TMP)
    result = diff(expl, expl)
    assert result.same and [t.render() for t in result.summary] == [
        "No difference: both manifests behave the same way."]
