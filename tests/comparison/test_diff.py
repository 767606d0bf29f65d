"""The core's diff of two explanations, called directly (no renderer): `comparison.diff`."""
from __future__ import annotations

from explainer.comparison import diff
from explainer.explain import explain
from explainer.render.compare import compare
from tests.render.test_compare import TMP, TMP_FIXED

MOUNTED = TMP_FIXED   # the counter-example's fix: an emptyDir both containers mount at /tmp


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
