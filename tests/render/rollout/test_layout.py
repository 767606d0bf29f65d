"""The rollout picture's geometry (render/rollout/layout.py; docs/lifecycle-model.md §26): a lane per Pod,
old above new, each lane's states, the counts as step lines between the capacity floor and the surge
ceiling, the completion or the stall as a guide, and a Pod timeline's axis."""
from __future__ import annotations

import pytest

from explainer.lifecycle.rollout.model import RolloutPod
from explainer.render.rollout.layout import SERIES, layout_rollout, pod_spans, view_end_of
from tests.render.rollout.cases import many, rolling, stalled

P = RolloutPod


@pytest.mark.parametrize("pod,end,spans", [
    # an old Pod: available from before t = 0 until the controller deletes it, terminating until gone
    (P("a", "old", None, None, None, 5.0, 7.0), 20.0, [("available", 0.0, 5.0), ("terminating", 5.0, 7.0)]),
    # a new Pod with minReadySeconds 3: starting, Ready, then available three seconds later
    (P("b", "new", 2.0, 6.0, 9.0, None, None), 20.0, [("starting", 2.0, 6.0), ("ready", 6.0, 9.0),
                                                       ("available", 9.0, 20.0)]),
    # never Ready: starting until the end of the window
    (P("c", "new", 0.0, None, None, None, None), 60.0, [("starting", 0.0, 60.0)]),
    # deleted before it became Ready (a Recreate or a scale-down): starting, then terminating
    (P("d", "new", 0.0, None, None, 4.0, 6.0), 60.0, [("starting", 0.0, 4.0), ("terminating", 4.0, 6.0)]),
    # Ready and available at once (minReadySeconds 0): no "ready" stretch
    (P("e", "new", 1.0, 4.0, 4.0, None, None), 10.0, [("starting", 1.0, 4.0), ("available", 4.0, 10.0)]),
    # the window ends while it terminates
    (P("f", "old", None, None, None, 8.0, 30.0), 10.0, [("available", 0.0, 8.0), ("terminating", 8.0, 10.0)]),
    # gone exactly when deleted (no containers left to stop)
    (P("g", "old", None, None, None, 3.0, 3.0), 10.0, [("available", 0.0, 3.0)]),
])
def test_each_lane_goes_through_the_pods_states(pod, end, spans) -> None:
    assert pod_spans(pod, end) == spans


def test_lanes_old_revision_first_then_new_by_creation() -> None:
    lay = layout_rollout(rolling(), "web").chart
    names = [lane.name for lane in lay.lanes]
    assert names == ["web-old-0", "web-old-1", "web-old-2", "web-old-3", "web-new-0", "web-new-1", "web-new-2",
                     "web-new-3"]
    assert [lane.role_label for lane in lay.lanes] == ["old rev."] * 4 + ["new rev."] * 4
    assert lay.lanes[4].y - lay.lanes[3].y > lay.lanes[3].height          # a gap between the revisions
    old_bars = [b for b in lay.bars if lay.lanes[b.lane].role == "old"]
    assert old_bars and all(" ro-old" in b.css_class for b in old_bars)    # a pattern, not only a colour
    assert not any(" ro-old" in b.css_class for b in lay.bars if lay.lanes[b.lane].role == "new")


def test_deletions_are_marked_and_bars_follow_the_pods() -> None:
    lay = layout_rollout(rolling(), "web").chart
    assert [(m.t, lay.lanes[m.lane].name) for m in lay.markers] == [
        (0.0, "web-old-0"), (5.0, "web-old-1"), (10.0, "web-old-2"), (15.0, "web-old-3")]
    assert all(m.kind == "sigterm" and "deleted by the controller" in m.tooltip for m in lay.markers)
    new3 = next(lane.index for lane in lay.lanes if lane.name == "web-new-3")
    assert [(b.state, b.t0, b.t1) for b in lay.bars if b.lane == new3] == [("starting", 15.0, 20.0),
                                                                            ("available", 20.0, lay.view_end)]


def test_the_window_ends_a_little_after_completion() -> None:
    r = rolling()
    assert r.complete_at == 20
    end = view_end_of(r)
    assert 20 < end <= 23
    lay = layout_rollout(r, "web").chart
    assert lay.view_end == end
    (guide,) = lay.guides
    assert (guide.kind, guide.t, guide.label) == ("complete", 20.0, "complete")
    assert lay.note == "Complete at 20 s."
    assert [(s.value, s.t0) for s in lay.segments] == [("in progress", 0.0), ("complete", 20.0)]


def test_a_stall_is_drawn_where_it_happens_and_the_picture_goes_a_little_past_it() -> None:
    r = stalled()
    lay = layout_rollout(r, "api").chart
    (guide,) = lay.guides
    assert (guide.kind, guide.t) == ("stalled", 60.0)
    assert "ProgressDeadlineExceeded" in guide.tooltip and "Progressing=False" in guide.tooltip
    assert 60 < lay.view_end < 120
    assert lay.note == "Stalled at 60 s: ProgressDeadlineExceeded."
    assert lay.segments[-1].value == "stalled: ProgressDeadlineExceeded"
    new = next(lane.index for lane in lay.lanes if lane.name == "api-new-0")
    (bar,) = [b for b in lay.bars if b.lane == new]
    assert bar.state == "starting" and "never Ready" in bar.tooltip
    # nothing happens between 0 and 60 s: the axis cuts the quiet stretch
    assert lay.breaks and lay.breaks[0].t0 < 60


def test_counts_are_step_lines_between_the_floor_and_the_ceiling() -> None:
    r = rolling()
    lay = layout_rollout(r, "web")
    chart = lay.counts
    assert [s.key for s in chart.series] == list(SERIES)
    available = next(s for s in chart.series if s.key == "available")
    # the last count of each moment stands: one Pod fewer from the first step until the last new one is
    # available (the floor, exactly), then all four
    assert available.values == ((0.0, 3), (20.0, 4))
    assert available.points[-1][0] == lay.chart.view_end                  # drawn level to the window's end
    total = next(s for s in chart.series if s.key == "total")
    assert total.values[:3] == ((0.0, 5), (2.0, 4), (5.0, 5))             # a terminating Pod counts in the total
    floor, ceiling = sorted(chart.levels, key=lambda lv: lv.value)
    assert (floor.key, floor.value, ceiling.key, ceiling.value) == ("floor", 3, "ceiling", 5)
    assert "replicas 4 − maxUnavailable 1" in floor.tooltip and "replicas 4 + maxSurge 1" in ceiling.tooltip
    assert floor.y > ceiling.y                             # SVG y grows downwards
    assert chart.y_max >= 5 and chart.top < chart.bottom <= lay.chart.lanes_top
    # each line's end label names it and its last value, and no two overlap
    ys = sorted(s.end_y for s in chart.series)
    assert all(b - a >= 11 - 1e-6 for a, b in zip(ys, ys[1:]))
    assert {s.end_label for s in chart.series} == {"desired 4", "total 4", "available 4", "ready 4", "terminating 0"}


def test_more_pods_than_the_ceiling_when_terminating_ones_count() -> None:
    r = rolling()
    lay = layout_rollout(r, "web")
    total = next(s for s in lay.counts.series if s.key == "total")
    ceiling = next(lv for lv in lay.counts.levels if lv.key == "ceiling")
    # total (terminating included) reaches 5 = the ceiling here; the ceiling's line is where the tooltip says
    assert max(v for _t, v in total.values) <= r.max_pods_including_terminating
    assert ceiling.value == r.replicas + r.max_surge


def test_a_hundred_replicas_get_lower_lanes_and_still_fit_the_same_width() -> None:
    small, big = layout_rollout(rolling(), "web"), layout_rollout(many(100), "web")
    assert len(big.chart.lanes) == 200 and big.dense and not small.dense
    assert big.chart.lanes[0].height < small.chart.lanes[0].height
    assert abs(big.chart.plot_width - small.chart.plot_width) < 1       # the same fitted width


def test_labels_go_through_gettext() -> None:
    seen: list[str] = []

    def gt(s: str) -> str:
        seen.append(s)
        return s

    layout_rollout(stalled(), "api", gettext=gt)
    for msgid in ("old rev.", "Rollout", "seconds", "capacity floor", "surge ceiling", "Pods",
                  "Stalled at {t} s: {reason}."):
        assert msgid in seen


def test_a_daemonset_counts_nodes() -> None:
    from explainer.explain import explain
    from tests.conftest import load_manifest
    r = explain(load_manifest("rollout/agent-daemonset"), "rollout: {nodes: 5}").pods[0]
    lay = layout_rollout(r.rollout, "agent")
    assert lay.heading.startswith("Rollout of DaemonSet agent: RollingUpdate on 5 nodes")
    labels = {lv.key: lv.label for lv in lay.counts.levels}
    assert labels == {"floor": "capacity floor 4 (nodes − maxUnavailable)",
                      "ceiling": "surge ceiling 5 (nodes + maxSurge)"}
