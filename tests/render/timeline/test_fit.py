"""A chart laid out for the width of its panel (issue 25): `layout_timeline(fit_width=…)` and
`layout_rollout(fit_width=…)` never come out wider than asked, keep every name and label inside, and on a
narrow panel put the names on a row above their lanes ("stacked") with an axis whose ticks say their unit."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explainer.examples import EXAMPLES
from explainer.explain import explain
from explainer.render.rollout.layout import layout_rollout
from explainer.render.rollout.svg import rollout_document
from explainer.render.timeline import layout_timeline, render_timeline_svg
from explainer.render.timeline.model import LABEL_ROW, MARGIN, SLACK, SMALL, text_width
from explainer.render.timeline.svg import svg_document
from tests.conftest import load_manifest
from tests.profiles import examples
from tests.render.rollout.cases import many, rolling, stalled

SVG = "{http://www.w3.org/2000/svg}"
REPORTS = {e.slug: explain(e.manifest(), e.scenario or None).pods[0] for e in EXAMPLES}
SIMULATED = {slug: r for slug, r in REPORTS.items() if r.simulation is not None}
LARGE = explain(load_manifest("pods/crashing_app"),
                "{containers: {app: {runSeconds: 2, exitCode: 1}}, deleteAt: 1500}").pods[0]


def test_without_a_width_the_layout_is_the_standard_one() -> None:
    """Exports and goldens keep their one drawing: fit_width=None changes nothing."""
    for r in SIMULATED.values():
        assert render_timeline_svg(r) == svg_document(r, layout_timeline(r, fit_width=None))
        assert not layout_timeline(r).fitted and not layout_timeline(r).stacked


@settings(max_examples=examples(60), deadline=None)
@given(slug=st.sampled_from(sorted(SIMULATED)), width=st.integers(200, 2600))
def test_a_fitted_chart_is_never_wider_than_asked(slug: str, width: int) -> None:
    lay = layout_timeline(SIMULATED[slug], fit_width=width)
    assert lay.fitted and lay.width <= width + 0.5, (slug, width, lay.width)
    for tick in lay.ticks:          # every tick on the plot
        assert lay.plot_x - 0.5 <= tick.x <= lay.plot_x + lay.plot_width + 0.5
    for item in lay.legend:         # every legend entry inside, with the estimate's margin of error
        assert item.x + 20 + text_width(item.label, SMALL) * SLACK <= width + 1, (slug, width, item)
    for lane in lay.lanes:
        if lay.stacked:             # a name on its row above the lane, inside the chart
            assert lay.label_x + text_width(lane.label) <= lay.width - MARGIN + 1, (slug, width, lane.label)


@pytest.mark.parametrize("width", [200, 256, 290, 320])
@pytest.mark.parametrize("slug", sorted(SIMULATED))
def test_a_phones_chart_has_its_names_above_the_lanes(slug: str, width: int) -> None:
    lay = layout_timeline(SIMULATED[slug], fit_width=width)
    assert lay.stacked and lay.plot_x == lay.label_x            # the plot starts where the names do
    tops = [lane.y - LABEL_ROW for lane in lay.lanes]
    bottoms = [lane.y + lane.height for lane in lay.lanes]
    assert all(top >= bottom - 0.05 for top, bottom in zip(tops[1:], bottoms)), slug   # a name's row, then its bars
    for row in lay.strip_rows:                                   # Phase, Status, Ready: names above too
        assert row.y - LABEL_ROW >= lay.legend[-1].y
    assert lay.ticks and all(t.label.endswith(" s") for t in lay.ticks)                # no "seconds" column
    assert lay.ticks[-1].t == lay.view_end or not lay.breaks or lay.ticks[-1].t > lay.breaks[-1].t1


def test_a_laptops_chart_keeps_the_names_column() -> None:
    lay = layout_timeline(SIMULATED["lifecycle-demo"], fit_width=666)
    assert not lay.stacked and lay.plot_x > 100 and lay.width <= 666
    assert [t.label for t in lay.ticks][:2] == ["0", "0.5"] or [t.label for t in lay.ticks][:2] == ["0", "1"]


def test_a_narrow_plot_cuts_fewer_quiet_stretches_than_it_has_room_for() -> None:
    """Eight axis breaks of 40 px would not leave a phone's plot any room for the time it shows."""
    wide, narrow = layout_timeline(LARGE, fit_width=1200), layout_timeline(LARGE, fit_width=256)
    assert narrow.width <= 256 and len(narrow.breaks) * 40 <= narrow.plot_width / 2 + 0.5
    assert len(wide.breaks) >= len(narrow.breaks)


def test_the_stacked_drawing_is_valid_svg_with_its_own_ids() -> None:
    r = SIMULATED["web-app-pod"]
    wide = svg_document(r, layout_timeline(r, fit_width=666))
    narrow = svg_document(r, layout_timeline(r, fit_width=256), id_suffix="n")
    ids = lambda svg: {e.get("id") for e in ET.fromstring(svg).iter() if e.get("id")}   # noqa: E731
    assert ids(wide) and not ids(wide) & ids(narrow)            # one page may hold both
    root = ET.fromstring(narrow)
    assert "tl-stacked" in root.get("class") and float(root.get("width")) <= 256
    heading = next(t for t in root.iter(f"{SVG}text") if t.get("class") == "tl-head")
    title = root.find(f"{SVG}title")
    assert heading.text.endswith("…") and title.text == "Timeline of Pod web-app-pod"   # cut, but whole in its title


@pytest.mark.parametrize("case", [rolling, stalled, many], ids=["rolling", "stalled", "many"])
@pytest.mark.parametrize("width", [230, 256, 300, 500, 666, 1100])
def test_a_fitted_rollout_is_never_wider_than_asked(case, width: int) -> None:
    lay = layout_rollout(case(), "web", fit_width=width)
    chart = lay.chart
    assert chart.fitted and chart.width <= width + 0.5, (width, chart.width)
    svg = ET.fromstring(rollout_document(case(), lay))
    assert float(svg.get("width")) <= width + 0.5
    if chart.stacked:
        assert all(t.label.endswith(" s") for t in chart.ticks)
        assert all(lane.y - LABEL_ROW >= prev.y + prev.height - 0.05 for prev, lane in zip(chart.lanes, chart.lanes[1:]))


SEEN = {e.slug: explain(e.manifest(), e.scenario or None, observed=e.observed()).pods[0] for e in EXAMPLES if e.seen}


@pytest.mark.parametrize("width", [256, 330])
@pytest.mark.parametrize("slug", sorted(SEEN))
def test_on_a_phone_an_observed_row_has_its_name_above_it_as_its_lane_has(slug: str, width: int) -> None:
    lay = layout_timeline(SEEN[slug], fit_width=width)
    assert lay.stacked and lay.observed, slug
    rows = {r.lane: r for r in lay.observed}
    for lane in lay.lanes:
        row = rows[lane.index]
        assert row.y - LABEL_ROW >= lane.y + lane.height - 0.05, (slug, lane.label)   # the lane, a name's row, the row
    root = ET.fromstring(svg_document(SEEN[slug], lay))
    order = [g.get("class") for g in root.iter(f"{SVG}g") if g.get("class") in ("tl-breaks", "tl-labels")]
    assert order == ["tl-breaks", "tl-labels"]                  # names over the breaks' zig-zags, never under
    labels = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "tl-labels")
    names = [t.text for t in labels.iter(f"{SVG}text")]
    assert {"Phase", "Status", "Ready"} <= set(names) and any("observed" in (n or "") for n in names)
    lane_label = next(g for g in labels.iter(f"{SVG}g") if g.get("class") == "tl-lane-label")
    assert float(lane_label.get("data-obs")) == lay.observed[0].height + LABEL_ROW   # collapses with its row


@pytest.mark.parametrize("width", [256, 330, 666])
@pytest.mark.parametrize("slug", sorted(SEEN))
def test_a_fitted_charts_notes_stay_inside_it(slug: str, width: int) -> None:
    """The note under the legend on as many lines as it takes; an observed row's note cut within the plot."""
    lay = layout_timeline(SEEN[slug], fit_width=width)
    for line in lay.note.split("\n"):
        assert lay.plot_x + text_width(line, 11.0) * SLACK <= lay.width - MARGIN + 0.5, (slug, width, line)
    root = ET.fromstring(svg_document(SEEN[slug], lay))
    notes = [t for t in root.iter(f"{SVG}text") if t.get("class") == "tl-obs-note"]
    for t in notes:
        assert float(t.get("x")) + text_width(t.text, 10.0) * SLACK <= lay.plot_x + lay.plot_width + 0.5, (slug, t.text)
