"""The timeline as an instrument, in a real browser: it fits, the cursor, the story in step, play,
presentation mode, dark mode and a large Pod."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from benchmarks.pods import generated_pod
from explainer.web.models import Permalink

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DEMO = "?example=lifecycle-demo"


def wait_fitted(page: Page) -> None:
    """With scripts, each chart is laid out again for its panel when the page's first drawing does not fit
    it (static/js/layout.js): wait for that to be done."""
    if page.evaluate("() => !!document.querySelector('.tl-live')"):
        expect(page.locator("html")).to_have_attribute("data-charts", "fitted", timeout=20_000)


def assert_fits(page: Page, container: str = "#result .timeline") -> None:
    """Not scrollable sideways, and the whole drawing (0 s to the end) inside the visible box."""
    wait_fitted(page)
    box = page.locator(container).locator("visible=true").first
    expect(box).to_be_visible()
    sizes = box.evaluate("e => [e.scrollWidth, e.clientWidth, e.querySelector('svg').getBoundingClientRect().right,"
                         " e.getBoundingClientRect().right]")
    assert sizes[0] <= sizes[1] + 1, f"the timeline scrolls sideways: {sizes}"
    assert sizes[2] <= sizes[3] + 1
    # the timeline's panel (toolbar, slider, state panel) stays inside the window too
    right = page.evaluate("Math.max(...[...document.querySelectorAll('.tl-panel, .tl-panel *')]"
                          ".map(e => e.getBoundingClientRect().right))")
    assert right <= page.viewport_size["width"] + 1, f"the timeline's panel reaches x={right}"


def assert_end_is_visible(page: Page, svg: str = "#result .timeline svg") -> None:
    """The deletion guide, the SIGTERM markers and the end of the axis are inside the viewport."""
    shown = page.locator(svg).locator("visible=true").first
    shown.scroll_into_view_if_needed()
    width = page.viewport_size["width"]
    for what in (".tl-guide-deleted", ".tl-m-sigterm", ".tl-axes text[text-anchor=middle]"):
        right = shown.evaluate(
            "(svg, sel) => Math.max(...[...svg.querySelectorAll(sel)].map(e => e.getBoundingClientRect().right))", what)
        assert 0 < right <= width, f"{what} is off screen at x={right} (viewport {width})"
    labels = shown.locator(".tl-axes text[text-anchor=middle]").evaluate_all(
        "es => es.map(e => e.textContent)")
    assert labels[-1] in ("30", "30 s")       # the axis goes to the end: the deletion at 30 s (stacked: "30 s")


@pytest.mark.parametrize("width,height", [(1440, 900), (1024, 768)])
def test_lifecycle_demo_fits_without_scrolling(page: Page, live_server, width: int, height: int, shot) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(live_server.url + "/" + DEMO)
    expect(page.locator("#result .tl-slider")).to_be_visible()
    assert_fits(page)
    assert_end_is_visible(page)
    shot(page, f"{width}")


def test_fits_with_javascript_off(browser, live_server, shot) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1440, "height": 900})
    try:
        page = context.new_page()
        page.goto(live_server.url + "/" + DEMO)
        assert_fits(page)
        assert_end_is_visible(page)
        expect(page.locator("#result .story li").first).to_contain_text("sandbox")
        expect(page.locator("#result .tl-slider")).to_have_count(0)       # no inert controls without script
        shot(page, "no-js")
    finally:
        context.close()


def test_embed_at_700_shows_the_whole_story(page: Page, live_server, shot) -> None:
    import yaml

    from explainer.examples import BY_SLUG
    example = BY_SLUG["lifecycle-demo"]
    link, _token = Permalink.store(example.manifest(), yaml.safe_load(example.scenario or "{}") or None, "1.34")
    page.set_viewport_size({"width": 700, "height": 450})
    page.goto(f"{live_server.url}/embed/{link.id}/")
    assert_fits(page, ".timeline")
    assert_end_is_visible(page, ".timeline svg")
    shot(page, "embed-700")


def test_slider_keys_and_the_live_panel(page: Page, live_server) -> None:
    page.goto(live_server.url + "/" + DEMO)
    slider = page.locator("#result [role=slider]")
    panel = page.locator("#result .tl-state")
    expect(panel).to_have_attribute("aria-live", "polite")
    slider.focus()
    slider.press("End")
    expect(slider).to_have_attribute("aria-valuenow", "30")
    expect(slider).to_have_attribute("aria-valuemax", "30")
    expect(panel).to_contain_text("Exited with code 143")
    slider.press("Home")
    expect(slider).to_have_attribute("aria-valuenow", "0")
    expect(slider).to_have_attribute("aria-valuemin", "0")
    at_zero = panel.inner_text()
    for name in ("prepare", "helper", "app"):
        assert name in at_zero
    assert "Running" in at_zero and "Waiting" in at_zero
    expect(slider).to_have_attribute("aria-valuetext", re.compile(r"^0 s: prepare Running; helper Waiting; app Waiting; Pod Pending 0/2"))
    slider.press("ArrowRight")
    expect(slider).to_have_attribute("aria-valuenow", "1")          # the next event: prepare exits at 1 s
    expect(slider).to_have_attribute("aria-valuetext", re.compile(r"^1 s: prepare Exited with code 0.*; helper Running, Ready; app Running, Ready; Pod Running 2/2$"))
    assert panel.inner_text() != at_zero
    expect(panel).to_contain_text("Initialized=True")
    slider.press("Shift+ArrowRight")
    expect(slider).to_have_attribute("aria-valuenow", "2")
    slider.press("ArrowRight")
    expect(slider).to_have_attribute("aria-valuenow", "30")
    slider.press("ArrowLeft")
    expect(slider).to_have_attribute("aria-valuenow", "1")


def test_story_steps_move_the_cursor_and_follow_it(page: Page, live_server) -> None:
    page.goto(live_server.url + "/" + DEMO)
    slider = page.locator("#result [role=slider]")
    steps = page.locator("#result .story li[data-t]")
    deleted = steps.filter(has_text="The Pod is deleted")
    deleted.get_by_role("button").click()
    expect(slider).to_have_attribute("aria-valuenow", "30")
    expect(deleted).to_have_attribute("aria-current", "step")
    expect(page.locator("#result .timeline .tl-cursor-line")).to_have_count(1)
    steps.nth(1).get_by_role("button").click()
    expect(slider).to_have_attribute("aria-valuenow", "0")
    expect(page.locator("#result .timeline .tl-hl").first).to_be_attached()     # its bar is highlighted
    slider.focus()
    slider.press("End")
    expect(page.locator("#result .story li.tl-now").last).to_contain_text("30 s")
    # the diagram follows: at the end every container has exited, so all are dimmed
    expect(page.locator("#result .diagram svg .tl-dim")).to_have_count(3)
    expect(page.locator("#result .tl-diagram-note")).to_contain_text("prepare, helper, app")
    slider.press("Home")
    expect(page.locator("#result .diagram svg .tl-dim")).to_have_count(2)        # only prepare runs at 0 s


def test_play_walks_to_the_end_and_space_pauses(page: Page, live_server) -> None:
    page.goto(live_server.url + "/" + DEMO)
    slider = page.locator("#result [role=slider]")
    play = page.locator("#result .tl-play")
    page.locator("#result .tl-speed").select_option("10")
    play.click()
    expect(play).to_have_attribute("aria-pressed", "true")
    expect(slider).to_have_attribute("aria-valuenow", "30", timeout=15000)
    expect(play).to_have_attribute("aria-pressed", "false")                    # it stops at the end
    expect(page.locator("#result .story li[aria-current=step]")).to_contain_text("The Pod ends Failed")
    # one event per second, paused with Space
    page.locator("#result .tl-speed").select_option("step")
    slider.focus()
    slider.press("Home")
    page.locator("#result .timeline").click(position={"x": 5, "y": 5})
    page.keyboard.press("Space")
    expect(play).to_have_attribute("aria-pressed", "true")
    page.wait_for_timeout(1300)
    page.keyboard.press("Space")
    expect(play).to_have_attribute("aria-pressed", "false")
    now = float(slider.get_attribute("aria-valuenow"))
    page.wait_for_timeout(1300)
    assert float(slider.get_attribute("aria-valuenow")) == now                  # paused stays put


def test_presentation_mode_by_keyboard(page: Page, live_server, shot) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(live_server.url + "/" + DEMO)
    button = page.locator("#result .tl-present-btn")
    button.focus()
    page.keyboard.press("Enter")
    section = page.locator("#result .tl-panel")
    expect(section).to_have_class(re.compile("tl-presenting"))
    box = section.bounding_box()
    assert box["width"] >= 1270 and box["height"] >= 790                       # the whole window
    page.keyboard.press("Home")
    expect(page.locator("#result .tl-present-step")).to_contain_text("The kubelet creates the Pod sandbox")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#result .tl-present-step")).to_contain_text("Init container prepare starts")
    page.keyboard.press("End")
    expect(page.locator("#result .tl-present-step")).to_contain_text("The Pod ends Failed")
    shot(page, "presenting")
    page.keyboard.press("Escape")
    expect(section).not_to_have_class(re.compile("tl-presenting"))
    expect(button).to_be_focused()


def test_zoom_relays_out_the_axis(page: Page, live_server) -> None:
    page.goto(live_server.url + "/" + DEMO)
    slider = page.locator("#result [role=slider]")
    slider.focus()
    slider.press("End")
    bar = page.locator("#result .tl-bar-g").first
    before = float(bar.locator("rect").first.get_attribute("width"))
    slider.press("+")
    expect(page.locator("#result .tl-panel")).to_have_class(re.compile("tl-zoomed"))
    expect(page.locator("#result .tl-zoom-ticks text").first).to_be_attached()
    page.locator("#result .tl-reset").click()
    expect(page.locator("#result .tl-panel")).not_to_have_class(re.compile("tl-zoomed"))
    assert float(bar.locator("rect").first.get_attribute("width")) == before


def test_tooltip_on_a_focused_bar(page: Page, live_server) -> None:
    page.goto(live_server.url + "/" + DEMO)
    bar = page.locator("#result .tl-bar-g").first
    bar.focus()
    tip = page.locator("#result .tl-tip")
    expect(tip).to_be_visible()
    expect(tip).to_contain_text("prepare")
    expect(tip).to_contain_text("0–1 s")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_web_app_pod_screenshots(page: Page, live_server, shot, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(live_server.url + "/?example=web-app-pod")
    expect(page.locator("#result .tl-slider")).to_be_visible()
    assert_fits(page)
    bg = page.locator("#result .diagram svg .graph > polygon").first.evaluate("e => getComputedStyle(e).fill")
    if scheme == "dark":
        assert bg in ("transparent", "rgba(0, 0, 0, 0)", "none")               # no white slab in dark mode
        # no light fill anywhere in the diagram (the Pod box, namespaces, volumes, nodes), and the
        # legend's swatches are still drawn (dark, not made transparent with the background)
        fills = page.locator("#result .diagram svg").evaluate("""svg => [...svg.querySelectorAll(
            'polygon, path, ellipse')].map(e => getComputedStyle(e).fill).filter(f => f.startsWith('rgb('))""")
        light = [f for f in fills if sum(int(v) for v in re.findall(r"\d+", f)) / 3 > 150]
        assert fills and not light, f"light shapes in the dark diagram: {light}"
        swatches = page.locator("#result .diagram svg .graph > polygon:not(:first-of-type)").evaluate_all(
            "es => es.map(e => getComputedStyle(e).fill)")
        assert len([f for f in swatches if f.startswith("rgb(")]) == 2         # init container, app container
    shot(page, scheme)


def test_thirty_containers_grouped_and_collapsible(page: Page, live_server, shot) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(live_server.url)
    page.locator("#manifest").fill(generated_pod(30))
    page.get_by_role("button", name="Explain").click()
    expect(page.locator("#result .tl-slider")).to_be_visible()
    assert_fits(page)
    groups = page.locator("#result .tl-group")
    expect(groups.first).to_be_visible()
    shot(page, "30-containers")
    svg = page.locator("#result .timeline svg")
    tall = svg.bounding_box()["height"]
    app = groups.filter(has_text="App containers")
    app.click()
    expect(app).to_have_attribute("aria-expanded", "false")
    assert svg.bounding_box()["height"] < tall * 0.7
    shot(page, "30-containers-collapsed")
    app.click()
    expect(app).to_have_attribute("aria-expanded", "true")


# ---- zoom: by dragging a range on the axis, Ctrl+wheel and pinch; the axis is laid out again ---------
def axis_labels(page: Page, svg: str = "#result .timeline svg") -> dict[str, list[str]]:
    """The visible tick labels: the server's fitted axis and the zoomed axis the script draws."""
    return page.locator(svg).first.evaluate("""svg => {
        const shown = e => { for (let n = e; n !== svg; n = n.parentNode) { if (getComputedStyle(n).display === 'none') return false; } return true; };
        const texts = sel => [...svg.querySelectorAll(sel)].filter(shown).map(e => e.textContent);
        return {fitted: texts('.tl-axes text[text-anchor=middle], .tl-break-text'), zoomed: texts('.tl-zoom-ticks text')};
    }""")


def axis_point(page: Page, t: float) -> tuple[float, float]:
    """The client point of time ``t`` on the top axis of the page's first timeline."""
    return tuple(page.evaluate("""t => {
        const tl = document.querySelector('#result [data-timeline]').tlInstrument, r = tl.svg.getBoundingClientRect();
        const k = r.width / tl.width;
        return [r.left + tl.xOf(t) * k, r.top + (tl.axisYs[0] - 4) * k];
    }""", t))


def label_box(page: Page, text: str) -> dict:
    """The client box of the first fitted-axis label reading ``text``."""
    return page.locator("#result .timeline svg .tl-axes text[text-anchor=middle]", has_text=re.compile(
        f"^{re.escape(text)}$")).first.bounding_box()


def values(labels: list[str], unit: str) -> list[float]:
    assert labels and all(l.endswith(f" {unit}") for l in labels), labels
    return [float(l.removesuffix(f" {unit}")) for l in labels]


def test_dragging_a_range_on_the_axis_zooms_to_it_and_reset_restores(page: Page, live_server) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(live_server.url + "/" + DEMO)
    expect(page.locator("#result .tl-slider")).to_be_visible()
    fitted = axis_labels(page)
    assert fitted["zoomed"] == [] and fitted["fitted"][:3] in (["0", "0.5", "1"], ["0", "1", "2"])
    bar = page.locator("#result .tl-bar-g").first.locator("rect").first
    width_before = bar.get_attribute("width")
    a, b = axis_point(page, 0.5), axis_point(page, 1.5)       # along the top axis, from 0.5 s to 1.5 s
    page.mouse.move(*a)
    page.mouse.down()
    page.mouse.move(*b, steps=8)
    expect(page.locator("#result .tl-range")).not_to_have_attribute("width", "0")   # the range being chosen
    page.mouse.up()
    expect(page.locator("#result .tl-panel")).to_have_class(re.compile("tl-zoomed"))
    zoomed = axis_labels(page)
    assert zoomed["fitted"] == []                           # the fitted axis and its breaks make way
    ms = values(zoomed["zoomed"], "ms")                     # one second in view: ticks every 100 ms
    top = sorted(set(ms))
    assert sorted(ms) == sorted(top * 2)                    # the same ticks on the top and bottom axes
    steps = {b - a for a, b in zip(top, top[1:])}
    assert 400 <= top[0] <= 600 and 1400 <= top[-1] <= 1600 and len(steps) == 1 and steps <= {100, 200}
    # the bars are laid out for the window, not magnified: prepare (0–1 s) now spans most of the plot
    assert float(bar.get_attribute("width")) > 2 * float(width_before)
    page.locator("#result .tl-reset").click()
    expect(page.locator("#result .tl-panel")).not_to_have_class(re.compile("tl-zoomed"))
    assert axis_labels(page) == fitted
    assert bar.get_attribute("width") == width_before


def test_ctrl_wheel_and_pinch_zoom_and_a_plain_wheel_scrolls(page: Page, live_server) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(live_server.url + "/" + DEMO)
    expect(page.locator("#result .tl-slider")).to_be_visible()
    panel = page.locator("#result .tl-panel")
    svg = page.locator("#result .timeline svg")
    svg.scroll_into_view_if_needed()
    fitted = axis_labels(page)
    zero, one = label_box(page, "0"), label_box(page, "1")
    box = svg.bounding_box()
    x, y = (zero["x"] + one["x"]) / 2, box["y"] + box["height"] * 0.75          # over the lanes
    page.mouse.move(x, y)
    page.mouse.wheel(0, 120)                                # a plain wheel is the page's: no zoom
    page.wait_for_timeout(200)
    expect(panel).not_to_have_class(re.compile("tl-zoomed"))
    box = svg.bounding_box()
    y = box["y"] + box["height"] * 0.75
    page.mouse.move(x, y)
    page.keyboard.down("Control")
    for _ in range(5):                                      # 30 s × 0.8⁵ ≈ 9.8 s in view
        page.mouse.wheel(0, -100)
    page.keyboard.up("Control")
    expect(panel).to_have_class(re.compile("tl-zoomed"))
    seconds = values(axis_labels(page)["zoomed"], "s")
    top = sorted(set(seconds))
    assert 0 <= top[0] and top[-1] <= 30 and 8 <= top[-1] - top[0] <= 10       # ≈ 9.8 s, in whole seconds
    assert len({b - a for a, b in zip(top, top[1:])}) == 1 and top[1] - top[0] in (1, 2)   # one round step
    # a trackpad pinch arrives as a wheel event with ctrlKey set
    prevented = svg.evaluate("""(svg, [x, y]) => {
        const e = new WheelEvent('wheel', {deltaY: -40, ctrlKey: true, clientX: x, clientY: y, bubbles: true, cancelable: true});
        svg.dispatchEvent(e);
        return e.defaultPrevented;
    }""", [x, y])
    assert prevented                                        # the browser does not zoom the page instead
    pinched = sorted(set(values(axis_labels(page)["zoomed"], "s")))
    assert pinched[-1] - pinched[0] < top[-1] - top[0]     # a narrower window
    page.mouse.move(x, y)
    page.keyboard.down("Control")
    for _ in range(8):                                      # out again, past the whole story
        page.mouse.wheel(0, 100)
    page.keyboard.up("Control")
    expect(panel).not_to_have_class(re.compile("tl-zoomed"))
    assert axis_labels(page) == fitted


def test_zoomed_ticks_go_from_minutes_to_milliseconds(page: Page, live_server) -> None:
    link, _token = Permalink.store((Path(__file__).parents[1] / "fixtures/pods/crashing_app.yaml").read_text(),
                                   {"containers": {"app": {"runSeconds": 2, "exitCode": 1}}, "deleteAt": 1500},
                                   "1.34")
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(f"{live_server.url}/p/{link.id}/")
    wait_fitted(page)                                       # the fitted axis of the chart laid out for this panel
    slider = page.locator("[role=slider]")
    fitted = axis_labels(page, ".timeline svg")
    slider.focus()
    slider.press("End")
    slider.press("+")                                       # ≈ 750 s in view: minutes
    minutes = sorted(set(values(axis_labels(page, ".timeline svg")["zoomed"], "min")))
    steps = {round(b - a, 3) for a, b in zip(minutes, minutes[1:])}
    assert len(minutes) >= 5 and len(steps) == 1 and steps <= {1, 2, 5}         # one round step, in minutes
    assert minutes[-1] * 60 <= 1500 + 30                    # at the end of the story (deleted at 1500 s)
    for _ in range(4):                                      # ≈ 47 s: seconds
        slider.press("+")
    values(axis_labels(page, ".timeline svg")["zoomed"], "s")
    for _ in range(6):                                      # < 1 s: milliseconds
        slider.press("+")
    values(axis_labels(page, ".timeline svg")["zoomed"], "ms")
    slider.press("0")                                       # 0 (like Reset) goes back to the fitted axis
    assert axis_labels(page, ".timeline svg") == fitted


# ---- the cursor's time and the guides' labels ----------------------------------------------------------
def boxes_overlap(a: dict, b: dict) -> bool:
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and \
        a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


def test_the_cursors_time_never_covers_a_guide_label(page: Page, live_server) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(live_server.url + "/" + DEMO)
    slider = page.locator("#result [role=slider]")
    label = page.locator("#result .tl-cursor-text")
    guide = page.locator("#result .tl-guides text", has_text="Pod deleted")
    svg = page.locator("#result .timeline svg").bounding_box()
    slider.focus()
    slider.press("End")                                     # the deletion is the very end: one label says both
    expect(label).to_have_text("30 s · Pod deleted")
    expect(guide).to_have_css("visibility", "hidden")
    box = label.bounding_box()
    assert svg["x"] <= box["x"] and box["x"] + box["width"] <= svg["x"] + svg["width"]
    slider.press("Home")
    expect(label).to_have_text("0 s")
    expect(guide).to_have_css("visibility", "visible")
    # near a guide (web-app-pod is deleted at 60 s of 70), the time stands beside its label
    page.goto(live_server.url + "/?example=web-app-pod")
    guide = page.locator("#result .tl-guides text", has_text="Pod deleted")
    page.locator("#result .story li[data-t]", has_text="The Pod is deleted").get_by_role("button").click()
    expect(label).to_have_text("60 s · Pod deleted")
    for key, text in (("Shift+ArrowRight", "61 s"), ("Shift+ArrowLeft", "60 s · Pod deleted"),
                      ("Shift+ArrowLeft", "59 s"), ("Shift+ArrowLeft", "58 s")):
        slider.press(key)
        expect(label).to_have_text(text)
        if "·" not in text:
            expect(guide).to_have_css("visibility", "visible")
            box = label.bounding_box()
            assert not boxes_overlap(box, guide.bounding_box()), text
            line = page.locator("#result .tl-cursor-line").bounding_box()
            scale = page.locator("#result .timeline svg").evaluate("s => s.getBoundingClientRect().width / s.viewBox.baseVal.width")
            assert abs(box["x"] + box["width"] / 2 - line["x"]) < 100 * scale    # still beside the cursor (100 px of the drawing)


def test_story_and_events_write_times_like_the_rest_of_the_page(page: Page, live_server) -> None:
    page.goto(live_server.url + "/" + DEMO)
    times = page.locator("#result .story li .t").all_inner_texts()
    assert times[:3] == ["0 s", "0 s", "1 s"] and times[-1] == "30 s"
    assert all(re.fullmatch(r"\d+(\.\d{1,3})? s", t) and not re.search(r"\.\d*0 s$", t) for t in times), times
    expect(page.locator("#result .pod-head .summary")).to_contain_text("at 30 s")
    cells = page.locator("#result details.events tbody tr td:first-child").all_text_contents()
    assert cells[0] == "0" and cells[-1] == "30" and not any(c.endswith(".0") for c in cells)


# ---- exports: the same fitted drawing ---------------------------------------------------------------------
def test_svg_and_png_exports_are_the_fitted_drawing(page: Page, live_server) -> None:
    import struct
    import xml.etree.ElementTree as ET

    import yaml

    from explainer.examples import BY_SLUG
    example = BY_SLUG["lifecycle-demo"]
    link, _token = Permalink.store(example.manifest(), yaml.safe_load(example.scenario or "{}") or None, "1.34")
    page.goto(f"{live_server.url}/p/{link.id}/")
    wait_fitted(page)
    shown = page.locator(".timeline svg").first
    breaks = shown.locator(".tl-break-text").all_text_contents()
    assert breaks and breaks[0] == "… 26 s …"
    response = page.request.get(f"{live_server.url}/p/{link.id}/timeline.svg")
    assert response.ok and response.headers["content-type"].startswith("image/svg+xml")
    root = ET.fromstring(response.text())
    ns = "{http://www.w3.org/2000/svg}"
    # the page lays its drawing out for its panel (issue 25); the export is the standard drawing, fitted
    # the same way (the same quiet stretch cut), at the one width every export has
    view_box = root.get("viewBox")
    _x, _y, vb_w, vb_h = (float(v) for v in view_box.split())
    assert vb_w == float(root.get("width")) and vb_w < 1000  # fitted: no 30 px per second sprawl
    export_breaks = [t.text for t in root.iter(f"{ns}text") if "tl-break-text" in (t.get("class") or "")]
    assert export_breaks == breaks
    axis = [t.text for g in root.iter(f"{ns}g") if g.get("class") == "tl-axes"
            for t in g.iter(f"{ns}text") if t.get("text-anchor") == "middle"]
    assert axis[-1] == "30"                                 # to the end of the story
    png = page.request.get(f"{live_server.url}/p/{link.id}/timeline.png")
    assert png.ok and png.headers["content-type"] == "image/png"
    body = png.body()
    assert body[:8] == b"\x89PNG\r\n\x1a\n" and body[12:16] == b"IHDR"
    width, height = struct.unpack(">II", body[16:24])
    assert width >= vb_w and abs(width / height - vb_w / vb_h) < 0.01 * (vb_w / vb_h), (width, height, view_box)


# ---- the page does not scroll sideways with the findings open ---------------------------------------------
@pytest.mark.parametrize("width", [1440, 1024, 390])
@pytest.mark.parametrize("pod", ["lifecycle-demo", "30-containers"])
def test_no_sideways_scrolling_with_the_findings_open(page: Page, live_server, shot, width: int, pod: str) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    if pod == "lifecycle-demo":
        page.goto(live_server.url + "/" + DEMO)
    else:
        page.goto(live_server.url)
        page.locator("#manifest").fill(generated_pod(30))
        page.get_by_role("button", name="Explain").click()
    expect(page.locator("#result .tl-slider")).to_be_visible()
    wait_fitted(page)   # the chart laid out for its panel (a refit replaces the result, closing nothing it opens)
    page.evaluate("document.querySelectorAll('#result details').forEach(d => { d.open = true; })")
    links = page.locator("#result .finding .refs a")
    assert links.count() > 0
    # every reference link stays inside its finding, wrapped if need be
    outside = page.evaluate("""() => [...document.querySelectorAll('#result .finding .refs a')].filter(a =>
        a.getBoundingClientRect().right > a.closest('.finding').getBoundingClientRect().right + 1).map(a => a.href)""")
    assert outside == []
    # ... and the result's panels stay inside the result
    right = page.evaluate("""() => Math.max(...[...document.querySelectorAll(
        '#result .findings, #result .findings *, #result .tl-panel, #result .tl-panel *, #result .story, #result .tl-diagram-note')]
        .map(e => e.getBoundingClientRect().right))""")
    result_right = page.locator("#result").bounding_box()
    assert right <= result_right["x"] + result_right["width"] + 1
    sizes = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert sizes[0] <= sizes[1], f"the page scrolls sideways at {width} px: {sizes}"
    shot(page, f"{pod}-{width}-findings-open")
