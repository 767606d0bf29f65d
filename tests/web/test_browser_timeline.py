"""The timeline as an instrument, in a real browser: it fits, the cursor, the story in step, play,
presentation mode, dark mode and a large Pod."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from explainer.bench import generated_pod
from explainer.web.models import Permalink

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DEMO = "?example=lifecycle-demo"


def assert_fits(page: Page, container: str = "#result .timeline") -> None:
    """Not scrollable sideways, and the whole drawing (0 s to the end) inside the visible box."""
    box = page.locator(container).first
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
    page.locator(svg).first.scroll_into_view_if_needed()
    width = page.viewport_size["width"]
    for what in (".tl-guide-deleted", ".tl-m-sigterm", ".tl-axes text[text-anchor=middle]"):
        right = page.locator(svg).first.evaluate(
            "(svg, sel) => Math.max(...[...svg.querySelectorAll(sel)].map(e => e.getBoundingClientRect().right))", what)
        assert 0 < right <= width, f"{what} is off screen at x={right} (viewport {width})"
    labels = page.locator(svg).first.locator(".tl-axes text[text-anchor=middle]").evaluate_all(
        "es => es.map(e => e.textContent)")
    assert labels[-1] == "30"       # the axis goes to the end: the deletion at 30 s


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
