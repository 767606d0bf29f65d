"""Two rollouts side by side (render/rollout/compare.py): the numbers that differ in one sentence, and both
pictures on one time axis."""
from __future__ import annotations

import dataclasses
import re

from explainer.explain import PodReport, explain
from explainer.render.rollout.compare import compare_rollouts, shared_axis_rollouts
from tests.render.rollout.cases import rolling, stalled
from tests.conftest import load_manifest


def _report(rollout) -> PodReport:
    r = explain(load_manifest("seeds/lifecycle-demo")).pods[0]
    return dataclasses.replace(r, rollout=rollout)


def test_the_sentence_weighs_the_two_strategies() -> None:
    sides = compare_rollouts(_report(rolling()), _report(stalled()))
    assert sides is not None and sides.differ
    assert str(sides.sentence) == ("maxSurge 1, maxUnavailable 1 vs maxSurge 1, maxUnavailable 0: done at 20 s vs stalls at "
                                   "60 s, capacity floor 3 vs 3, at most 5 vs 4 Pods.")
    rows = {str(what): (a, b) for what, a, b in sides.rows}
    assert rows["Complete at"] == ("done at 20 s", "stalls at 60 s") and rows["Replicas"] == ("4", "3")


def test_the_same_rollout_on_both_sides_differs_in_nothing() -> None:
    sides = compare_rollouts(_report(rolling()), _report(rolling()))
    assert sides is not None and not sides.differ


def test_no_rollout_on_either_side_is_none_and_one_side_is_drawn_alone() -> None:
    plain = explain(load_manifest("seeds/lifecycle-demo")).pods[0]
    assert compare_rollouts(plain, plain) is None
    sides = compare_rollouts(plain, _report(rolling()))
    assert sides is not None and sides.sentence is None and not sides.rows
    left, right = shared_axis_rollouts(sides)
    assert left == "" and right.startswith("<svg")


def test_both_pictures_share_the_window_the_origin_and_the_width() -> None:
    sides = compare_rollouts(_report(rolling()), _report(stalled()))
    left, right = shared_axis_rollouts(sides, titles=("Before", "After"))
    lw, rw = (re.search(r'width="([\d.]+)"', s).group(1) for s in (left, right))
    assert lw == rw
    assert re.search(r'data-time-origin="([\d.]+)"', left).group(1) == re.search(r'data-time-origin="([\d.]+)"',
                                                                                 right).group(1)
    assert re.search(r'data-view-end="([\d.]+)"', left).group(1) == re.search(r'data-view-end="([\d.]+)"',
                                                                              right).group(1)
    assert float(re.search(r'data-view-end="([\d.]+)"', left).group(1)) > 60      # the longer of the two
    assert "<title" in left and ">Before<" in left and ">After<" in right
    assert not set(re.findall(r'id="([^"]+)"', left)) & set(re.findall(r'id="([^"]+)"', right))
