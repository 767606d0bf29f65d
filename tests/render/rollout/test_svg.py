"""The rollout picture's markup (render/rollout/svg.py): a standalone, accessible SVG whose pieces carry the
times the browser's cursor and zoom need, the old revision patterned, light and dark colours in which the
states that meet on a lane stay apart in lightness."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from explainer.lifecycle.i18n import Text
from explainer.render.rollout.layout import layout_rollout
from explainer.render.rollout.svg import ROLLOUT_STYLE, render_rollout_svg, rollout_document, steps_path
from tests.render.rollout.cases import many, rolling, stalled

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def test_a_standalone_accessible_document() -> None:
    svg = render_rollout_svg(rolling(), "web")
    root = parse(svg)
    assert root.get("role") == "img" and "<script" not in svg and "href" not in svg
    ids = root.get("aria-labelledby").split()
    title, desc = (root.find(f".//*[@id='{i}']") for i in ids)
    assert title.text == "Rollout of Deployment web: RollingUpdate, 4 replicas, maxSurge 1, maxUnavailable 1"
    assert desc.text.startswith("8 Pods, 4 of the old revision and 4 of the new")
    assert "Complete at 20 s." in desc.text and "At least 3 Pods available" in desc.text
    w, h = root.get("width"), root.get("height")
    assert root.get("viewBox") == f"0 0 {w} {h}" and float(w) < 1000     # fitted to a panel


def test_timed_pieces_carry_their_times_for_the_cursor_and_zoom() -> None:
    root = parse(render_rollout_svg(rolling(), "web"))
    bars = [g for g in root.iter(f"{SVG}g") if "tl-bar-g" in (g.get("class") or "")]
    assert bars and all(g.get("data-t0") and g.get("data-t1") and g.get("data-lane") for g in bars)
    series = [g for g in root.iter(f"{SVG}g") if "tl-series" in (g.get("class") or "")]
    assert [g.get("data-series") for g in series] == ["desired", "total", "available", "ready", "terminating"]
    available = next(g for g in series if g.get("data-series") == "available")
    steps = [tuple(map(float, p.split(","))) for p in available.get("data-steps").split()]
    assert [t for t, _y in steps] == [0, 20, 22]              # level to the end of the window (22 s)
    labels = [g for g in root.iter(f"{SVG}g") if "tl-lane-label" in (g.get("class") or "")]
    assert len(labels) == 8 and all(g.find(f"{SVG}rect") is not None for g in labels)   # what the script collapses


def test_the_step_path_goes_level_then_straight() -> None:
    assert steps_path(((0.0, 50.0), (5.0, 40.0), (9.0, 40.0)), lambda t: 100 + 10 * t) == "M100 50H150V40H190V40"


def test_the_old_revision_has_a_pattern_of_its_own() -> None:
    svg = render_rollout_svg(rolling(), "web")
    root = parse(svg)
    sid = root.get("aria-labelledby").split()[0].removesuffix("-title")
    assert root.find(f".//{SVG}pattern[@id='{sid}-old']") is not None
    overlays = [r for r in root.iter(f"{SVG}rect") if r.get("fill") == f"url(#{sid}-old)"]
    assert len(overlays) >= 4 + 1                     # every old Pod's bars, and the legend's swatch


def test_floor_and_ceiling_are_labelled_lines() -> None:
    svg = render_rollout_svg(rolling(), "web")
    assert "capacity floor 3 (replicas − maxUnavailable)" in svg
    assert "surge ceiling 5 (replicas + maxSurge)" in svg
    root = parse(svg)
    lines = [p for p in root.iter(f"{SVG}path") if "ro-level" in (p.get("class") or "")]
    assert {p.get("class") for p in lines} >= {"ro-level ro-floor", "ro-level ro-ceiling"}


def test_a_stalled_rollout_is_marked_and_not_called_complete() -> None:
    svg = render_rollout_svg(stalled(), "api")
    parse(svg)
    assert "Stalled at 60 s: ProgressDeadlineExceeded." in svg and "ro-guide-stalled" in svg
    assert " ro-done" not in svg


def test_markup_in_names_and_the_cores_words_is_escaped() -> None:
    import dataclasses
    r = rolling(2)
    pods = tuple(dataclasses.replace(p, name=p.name + "<x>&\"") for p in r.pods)
    r = dataclasses.replace(r, pods=pods, stalled=None)
    svg = render_rollout_svg(r, "a<b>&c")
    parse(svg)
    assert "<x>" not in svg and "a<b>" not in svg and "&lt;x&gt;&amp;" in svg


def test_a_hundred_replicas_stay_a_bounded_picture() -> None:
    svg = render_rollout_svg(many(100), "web")
    root = parse(svg)
    assert "ro-dense" in root.get("class")
    assert len(svg) < 2 * 1024 * 1024


def test_two_pictures_in_one_page_get_their_own_ids() -> None:
    from explainer.render.timeline.svg import Placement
    r = rolling()
    lay = layout_rollout(r, "web")
    a = rollout_document(r, lay)
    b = rollout_document(r, lay, placement=Placement(0, lay.chart.width, lay.chart.plot_x, lay.chart.view_end, "r"))
    ids = lambda svg: set(re.findall(r'id="([^"]+)"', svg))   # noqa: E731
    assert not ids(a) & ids(b)


def test_translated() -> None:
    from tests.test_i18n import catalogue
    cat = catalogue()
    svg = render_rollout_svg(stalled(), "api", gettext=lambda s: cat.get(s) or s)
    for zh in ("旧版", "容量下限", "超额上限", "停滞"):
        assert zh in svg
    assert "capacity floor" not in svg


# ---- colour is never the only signal ---------------------------------------------------------------------
LANE_CHANGES = [("starting", "ready"), ("ready", "available"), ("available", "terminating"),
                ("starting", "available"), ("starting", "terminating"), ("ready", "terminating")]


def _fills(scheme: str) -> dict[str, str]:
    from explainer.render.timeline.style import STYLE
    parts = [css.split("@media (prefers-color-scheme: dark)") for css in (STYLE, ROLLOUT_STYLE)]
    css = "".join(p[0 if scheme == "light" else 1] for p in parts)
    find = lambda sel: re.search(re.escape(sel) + r"\{fill:(#[0-9a-f]{6})", css).group(1)   # noqa: E731
    return {"starting": find(".tl-starting"), "ready": find(".ro-ready"), "available": find(".tl-ready"),
            "terminating": find(".tl-terminating")}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("vision", ["normal", "deuteranopia", "protanopia"])
def test_states_that_meet_on_a_lane_differ_in_lightness(scheme: str, vision: str) -> None:
    from tests.render.timeline.test_layout import MIN_LIGHTNESS_STEP, _lightness
    fills = _fills(scheme)
    close = {(a, b): round(abs(_lightness(fills[a], vision) - _lightness(fills[b], vision)), 1) for a, b in LANE_CHANGES
             if abs(_lightness(fills[a], vision) - _lightness(fills[b], vision)) < MIN_LIGHTNESS_STEP}
    assert not close, f"{scheme}, {vision}: {close}"


def test_the_stall_reason_may_come_with_words() -> None:
    import dataclasses
    r = stalled()
    r = dataclasses.replace(r, stalled=dataclasses.replace(r.stalled, text=Text("The new Pod is never <Ready>.")))
    svg = render_rollout_svg(r, "api")
    assert "The new Pod is never &lt;Ready&gt;." in svg


# ---- golden pictures (read their diff like code) ---------------------------------------------------------
@pytest.mark.parametrize("name,case", [("rolling", rolling), ("stalled", stalled)])
def test_golden_rollout_pictures(name: str, case, golden) -> None:
    svg = render_rollout_svg(case(), "web")
    parse(svg)
    golden(f"rollout/{name}.svg", svg)


@pytest.mark.parametrize("slug,index", [("rollout-surge-vs-unavailable", 0), ("rollout-surge-vs-unavailable", 1),
                                        ("statefulset-update", 0)])
def test_golden_gallery_rollouts(slug: str, index: int, golden) -> None:
    """The gallery's rollouts as the pipeline computes them (lifecycle/rollout): a change there shows here."""
    from explainer.examples import BY_SLUG
    from explainer.explain import explain
    example = BY_SLUG[slug]
    r = explain(example.manifest(), example.scenario or None).pods[index]
    assert r.rollout is not None
    svg = render_rollout_svg(r.rollout, r.pod.source.name)
    parse(svg)
    golden(f"{slug}/rollout-{r.pod.source.name}.svg", svg)
