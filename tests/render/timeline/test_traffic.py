"""The traffic row of the Pod timeline (issue 22; docs/lifecycle-model.md §27): its segments and labels,
failure windows drawn with words and patterns (never colour alone), the proxies' moment, an assumed
propagation or deletion shown as assumed; the same facts in the table, the story and the cursor's frames.

The row reads a `Traffic` (lifecycle/traffic/lane.py); these tests give a real Pod's report a `Traffic` made
here, so each drawing rule is checked against numbers chosen to show it.  tests/web covers the pipeline.
"""
from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET

import pytest

from explainer.explain import PodReport, explain
from explainer.lifecycle.i18n import Text
from explainer.lifecycle.traffic.lane import FailureWindow, Traffic, TrafficInterval
from explainer.lifecycle.traffic.states import DRAINING, GONE, NOT_READY, SERVING
from explainer.render.story import story
from explainer.render.timeline import layout_timeline, render_timeline_svg, timeline_rows
from explainer.render.timeline.frames import timeline_frames
from explainer.render.story import assumed_from, story_texts
from tests.conftest import load_manifest

SVG = "{http://www.w3.org/2000/svg}"


def report(scenario: str | None = "deleteAt: 30") -> PodReport:
    result = explain(load_manifest("seeds/lifecycle-demo"), scenario)
    assert result.ok, result.errors
    return result.pods[0]


def traffic(*, windows: tuple = (), assumed: bool = True, deletion: float | None = None, **extra) -> Traffic:
    """The endpoint ready at 1.2 s, out of the ready endpoints at 30 s, the proxies told at 35 s."""
    t = Traffic(5.0, assumed, ("web",), False, 2,
                (TrafficInterval(0.0, 1.2, NOT_READY), TrafficInterval(1.2, 30.0, SERVING),
                 TrafficInterval(30.0, 35.0, DRAINING, Text("out of the ready endpoints since 30 s")),
                 TrafficInterval(35.0, None, GONE)),
                (), windows, **extra)
    if deletion is not None:
        t = dataclasses.replace(t, deletion_at=deletion, deletion_assumed=True)
    return t


RACE = (FailureWindow(30.0, 35.0, "sigterm", "app", Text("app stops accepting requests at SIGTERM")),)


def with_traffic(t: Traffic, scenario: str | None = "deleteAt: 30") -> PodReport:
    return dataclasses.replace(report(scenario), traffic=t)


def segments(layout, row: str = "traffic"):
    return [s for s in layout.segments if s.row == row]


# ---- the row -------------------------------------------------------------------------------------------
def test_a_pod_without_traffic_has_no_traffic_row() -> None:
    r = report()
    layout = layout_timeline(r)
    assert [row.key for row in layout.strip_rows] == ["phase", "status", "ready"]
    assert not layout.failures and not layout.reaches and not layout.deletions
    svg = render_timeline_svg(r)
    assert "tl-traffic" not in svg and "tl-fail" not in svg      # not even its stylesheet


def test_the_row_shows_each_interval_after_the_ready_row() -> None:
    layout = layout_timeline(with_traffic(traffic()))
    assert [row.key for row in layout.strip_rows] == ["phase", "status", "ready", "traffic"]
    traffic_row = layout.strip_rows[3]
    assert traffic_row.label == "Traffic" and traffic_row.y > layout.strip_rows[2].y
    segs = segments(layout)
    assert [(s.value, s.t0, s.t1) for s in segs] == [
        ("Not ready", 0.0, 1.2), ("Serving", 1.2, 30.0), ("Draining", 30.0, 35.0), ("Out of rotation", 35.0,
                                                                                  layout.view_end)]
    assert [s.css_class for s in segs] == ["tl-seg tl-traffic-not-ready", "tl-seg tl-traffic-serving",
                                           "tl-seg tl-traffic-draining", "tl-seg tl-traffic-gone"]
    draining = segs[2]
    assert "out of the ready endpoints since 30 s" in draining.tooltip        # the core's words
    assert "5 s" in draining.tooltip and "assumed" in draining.tooltip and draining.assumed


def test_the_window_reaches_past_the_containers_to_what_the_proxies_do() -> None:
    """The containers are gone at 30 s; the proxies learn of it at 35 s: the chart shows that much more."""
    r = with_traffic(traffic())
    assert r.simulation.end_time == 30
    layout = layout_timeline(r)
    assert layout.view_end > 35 and layout.x_at(35) < layout.plot_x + layout.plot_width
    assert max(b.t1 for b in layout.bars) == 30        # the lanes still end where the simulation does


def test_a_set_propagation_time_is_not_dotted() -> None:
    layout = layout_timeline(with_traffic(traffic(assumed=False)))
    draining = segments(layout)[2]
    assert not draining.assumed and "(trafficPropagationSeconds)" in draining.tooltip
    svg = render_timeline_svg(with_traffic(traffic(assumed=False)))
    assert 'class="tl-assumed"' not in svg.split('class="tl-strip"')[1].split("</g></g>")[0]


def test_the_proxies_moment_is_a_glyph_dashed_when_assumed() -> None:
    layout = layout_timeline(with_traffic(traffic()))
    (reach,) = layout.reaches
    assert reach.t == 35 and reach.assumed and "reached the proxies" in reach.tooltip
    svg = render_timeline_svg(with_traffic(traffic()))
    assert re.search(r'<g class="tl-item tl-reach-g" data-t="35"><title>[^<]*</title><g class="tl-m-reach '
                     r'tl-m-assumed">', svg)


# ---- failure windows: words and patterns ---------------------------------------------------------------
def test_a_failure_window_is_labelled_crosshatched_and_spans_the_lanes() -> None:
    r = with_traffic(traffic(windows=RACE))
    layout = layout_timeline(r)
    (f,) = layout.failures
    assert (f.t0, f.t1, f.reason, f.label) == (30.0, 35.0, "sigterm", "✕ requests fail")
    assert f.band_y0 < layout.lanes_top and f.band_y1 > layout.lanes_bottom     # across every lane
    assert "app stops accepting requests at SIGTERM" in f.tooltip and "container: app" in f.tooltip
    root = ET.fromstring(render_timeline_svg(r))
    (g,) = [g for g in root.iter(f"{SVG}g") if "tl-fail-g" in (g.get("class") or "")]
    assert g.get("data-t0") == "30" and g.get("data-t1") == "35"
    fills = [rect.get("fill") for rect in g.iter(f"{SVG}rect") if rect.get("fill")]
    assert len(fills) == 2 and all(f.endswith("-cross)") for f in fills)   # band and row, cross-hatched
    assert [t.text for t in g.iter(f"{SVG}text")] == ["✕ requests fail"]
    pattern_ids = {p.get("id") for p in root.iter(f"{SVG}pattern")}
    assert any(i.endswith("-cross") for i in pattern_ids)


def test_the_states_labels_keep_clear_of_a_failure_windows_words() -> None:
    layout = layout_timeline(with_traffic(traffic(windows=RACE)))
    draining = segments(layout)[2]
    assert draining.label == ""            # the window covers it: its words are the window's
    assert "Draining" in draining.tooltip


def test_the_legend_names_what_the_row_shows() -> None:
    layout = layout_timeline(with_traffic(traffic(windows=RACE)))
    extra = [(i.kind, i.key, i.label) for i in layout.legend if i.kind in ("traffic", "failure", "reach")]
    assert extra == [("traffic", "not-ready", "Traffic: Not ready"), ("traffic", "serving", "Traffic: Serving"),
                     ("traffic", "draining", "Traffic: Draining"), ("traffic", "gone", "Traffic: Out of rotation"),
                     ("failure", "failure", "Requests fail: nothing listens"),
                     ("reach", "reach", "Change reaches the proxies")]


def test_a_deletion_only_the_row_assumes_is_marked_and_kept_off_the_lanes() -> None:
    t = traffic(windows=RACE, deletion=30.0)
    r = with_traffic(t, scenario=None)       # the scenario deletes nothing: the lanes go on
    assert assumed_from(t) == 30.0
    layout = layout_timeline(r)
    (mark,) = layout.deletions
    assert mark.t == 30 and "Pod deleted (assumed)" in mark.tooltip
    (f,) = layout.failures
    assert f.assumed and f.band_y0 == f.band_y1 == 0       # no band across lanes that show no deletion
    assert all(s.assumed for s in segments(layout) if s.t0 >= 30)
    rows = [row for row in timeline_rows(r) if row["event"].startswith("traffic")]
    assert ("traffic-deleted", True) in [(row["event"], row["assumed"]) for row in rows]
    steps = story_texts(t)
    first_at_30 = next(text for at, text, _assumed in steps if at == 30)
    assert "Suppose the Pod is deleted at 30 s" in str(first_at_30)
    assert all(assumed for at, _text, assumed in steps if at >= 30)


# ---- the table, the story, the cursor ----------------------------------------------------------------
def test_the_table_has_the_rows_changes_in_time_order() -> None:
    r = with_traffic(traffic(windows=RACE))
    rows = timeline_rows(r)
    assert [row["t"] for row in rows] == sorted(row["t"] for row in rows)
    ours = [(row["t"], row["event"], row["event_label"]) for row in rows if row["event"].startswith("traffic")]
    assert ours == [(0.0, "traffic-not-ready", "Traffic: Not ready"), (1.2, "traffic-serving", "Traffic: Serving"),
                    (30.0, "traffic-draining", "Traffic: Draining"), (30.0, "traffic-failure", "Requests fail"),
                    (35.0, "traffic-gone", "Traffic: Out of rotation")]
    failure = next(row for row in rows if row["event"] == "traffic-failure")
    assert failure["detail"] == "until 35 s: app stops accepting requests at SIGTERM"
    draining = next(row for row in rows if row["event"] == "traffic-draining")
    assert draining["assumed"] and draining["detail"].endswith("(assumed)")
    # the Pod's own events come first at a moment both share
    at_30 = [row["event"] for row in rows if row["t"] == 30]
    assert at_30.index("delete_requested") < at_30.index("traffic-draining")


def test_the_story_tells_the_traffic_in_time_with_the_events() -> None:
    r = with_traffic(traffic(windows=RACE))
    steps = story(r.pod, r.simulation, r.traffic)
    ours = [s for s in steps if s.kind == "traffic"]
    assert [s.t for s in ours] == [0.0, 1.2, 30.0, 30.0, 35.0]
    assert str(ours[0].text).startswith("Traffic through the Service web: ")
    assert "app stops accepting requests at SIGTERM" in str(ours[3].text)
    assert "502, 503" in str(ours[3].text)
    assert ours[2].assumed and not ours[1].assumed                 # the propagation time is assumed
    assert [s.t for s in steps] == sorted(s.t for s in steps)
    assert story(r.pod, r.simulation) == [s for s in steps if s.kind != "traffic"]   # nothing else changes


def test_an_assumed_service_is_named_as_assumed() -> None:
    t = dataclasses.replace(traffic(), services=("",), service_assumed=True)
    assert "none in the input; assumed" in str(story_texts(t)[0][1])


def test_the_cursor_reports_the_traffic_and_stops_at_its_changes() -> None:
    r = with_traffic(traffic(windows=RACE))
    data = timeline_frames(r, layout_timeline(r))
    assert {1.2, 30, 35} <= set(data["events"])
    facts = {f["t"]: dict(f["facts"]) for f in data["frames"]}
    assert facts[0]["Traffic"] == "Not ready" and facts[1.2]["Traffic"] == "Serving"
    assert facts[30] == {"Traffic": "Draining", "Requests fail": "nothing listens until 35 s"}
    assert facts[35] == {"Traffic": "Out of rotation"}
    plain = timeline_frames(report(), layout_timeline(report()))
    assert all("facts" not in f for f in plain["frames"])


def test_the_row_is_translated() -> None:
    from tests.test_i18n import catalogue
    cat = catalogue()
    svg = render_timeline_svg(with_traffic(traffic(windows=RACE)), gettext=lambda s: cat.get(s) or s)
    for zh in ("流量", "接收请求", "排空中", "✕ 请求失败", "变更传到代理"):
        assert zh in svg
    assert "Requests fail" not in svg


def test_markup_in_the_cores_words_is_escaped() -> None:
    hostile = (FailureWindow(30.0, 35.0, "<x>", "a&b", Text("<script>alert(1)</script> & more")),)
    svg = render_timeline_svg(with_traffic(traffic(windows=hostile)))
    ET.fromstring(svg)
    assert "<script>" not in svg and "&lt;script&gt;" in svg


# ---- colour is never the only signal ---------------------------------------------------------------------
TRAFFIC_CHANGES = [("not-ready", "serving"), ("serving", "draining"), ("draining", "gone"), ("serving", "gone"),
                   ("not-ready", "draining"), ("fail", "draining"), ("fail", "gone"), ("fail", "serving")]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("vision", ["normal", "deuteranopia", "protanopia"])
def test_states_that_meet_on_the_row_differ_in_lightness(scheme: str, vision: str) -> None:
    from explainer.render.timeline.style import TRAFFIC_STYLE
    from tests.render.timeline.test_layout import MIN_LIGHTNESS_STEP, _lightness
    light, dark = TRAFFIC_STYLE.split("@media (prefers-color-scheme: dark)")
    css = light if scheme == "light" else dark
    colour = {s: re.search(r"\.tl-traffic-%s[^{]*\{fill:(#[0-9a-f]{6})" % s, css).group(1)
              for s in ("not-ready", "serving", "draining", "gone")}
    colour["fail"] = re.search(r"\.tl-fail\{fill:(#[0-9a-f]{6})", css).group(1)
    close = {(a, b): round(abs(_lightness(colour[a], vision) - _lightness(colour[b], vision)), 1)
             for a, b in TRAFFIC_CHANGES
             if abs(_lightness(colour[a], vision) - _lightness(colour[b], vision)) < MIN_LIGHTNESS_STEP}
    assert not close, f"{scheme}, {vision}: {close}"
