"""Traffic and rollouts on the page (issue 22), in a real Chromium: the rollout picture at 1440, 1024 and
390 px, light and dark, without JavaScript, with its cursor, in Simplified Chinese; axe finds nothing
serious; the Pod timeline's traffic row with its failure window; the what-if controls reach both."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.web.test_browser_page import axe_violations, open_what_if
from tests.web.test_browser_timeline import wait_fitted

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SURGE = "?example=rollout-surge-vs-unavailable"
RACE = "?example=deploy-502-race"
ROLLOUT = "#result .rollout"


def assert_fits(page: Page, box: str = f"{ROLLOUT} .timeline") -> None:
    """Nothing scrolls sideways: not the picture's box, not the page; the picture ends inside the window (once
    the page has laid its charts out for their panels: before that, the first drawing is the default panel's)."""
    wait_fitted(page)
    holder = page.locator(box).locator("visible=true").first     # without scripts, a narrow panel's drawing
    expect(holder).to_be_visible()
    sizes = holder.evaluate("e => [e.scrollWidth, e.clientWidth, e.querySelector('svg').getBoundingClientRect().right,"
                            " e.getBoundingClientRect().right]")
    assert sizes[0] <= sizes[1] + 1 and sizes[2] <= sizes[3] + 1, sizes
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px"
    right = page.evaluate("Math.max(...[...document.querySelectorAll('#result .rollout, #result .rollout *')]"
                          ".filter(e => e.getClientRects().length).map(e => e.getBoundingClientRect().right))")
    assert right <= page.viewport_size["width"] + 1, f"the rollout's section reaches x={right}"


@pytest.mark.parametrize("width,height", [(1440, 900), (1024, 768), (390, 844)])
def test_the_rollout_picture_fits_and_its_cursor_reports_the_pods(page: Page, live_server, width: int, height: int,
                                                                 shot) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(live_server.url + "/" + SURGE)
    section = page.locator(ROLLOUT).first
    expect(section.locator("h3")).to_have_text("Rollout")
    expect(section.locator(".tl-slider")).to_be_visible()
    assert_fits(page)
    # the picture names its floor and ceiling, and the story follows the cursor
    svg = section.locator(".timeline svg")
    expect(svg.locator(".ro-level-text")).to_have_count(2)
    assert "capacity floor 4" in svg.inner_html() and "surge ceiling 5" in svg.inner_html()
    slider = section.locator(".tl-slider")
    slider.focus()
    slider.press("End")
    panel = section.locator(".tl-state")
    expect(panel).to_contain_text("At the cursor")
    expect(panel.locator("tbody tr")).to_have_count(4)          # four new Pods, every old one gone
    expect(panel.locator("tbody")).not_to_contain_text("old revision")
    expect(page.locator('[data-story="rollout-1"] > ol > li[aria-current="step"]')).to_contain_text("complete")
    slider.press("Home")
    expect(panel.locator("tbody")).to_contain_text("old revision")
    section.scroll_into_view_if_needed()
    shot(page, f"{width}")


def test_zoom_lays_out_the_counts_again(page: Page, live_server) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(live_server.url + "/" + SURGE)
    section = page.locator(ROLLOUT).first
    path = section.locator('.tl-series[data-series="available"] path')
    before = path.get_attribute("d")
    section.get_by_role("button", name="Zoom in").click()
    expect(section).to_have_class(re.compile("tl-zoomed"))
    assert path.get_attribute("d") != before                 # the step line follows the zoomed axis
    section.get_by_role("button", name="Reset zoom").click()
    assert path.get_attribute("d") == before


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_dark_mode_and_axe(page: Page, live_server, scheme: str, shot) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.emulate_media(color_scheme=scheme)
    page.goto(live_server.url + "/" + SURGE)
    svg = page.locator(f"{ROLLOUT} .timeline svg").first
    background = svg.locator(".tl-bg").first.evaluate("e => getComputedStyle(e).fill")
    assert background == ("rgb(17, 24, 39)" if scheme == "dark" else "rgb(255, 255, 255)")
    open_what_if(page)
    page.locator(f"{ROLLOUT} details.events > summary").first.click()
    assert axe_violations(page) == []
    page.goto(live_server.url + "/" + RACE)
    assert axe_violations(page) == []
    page.locator(ROLLOUT).first.scroll_into_view_if_needed()
    shot(page, scheme)


def test_without_javascript_the_picture_tables_and_story_are_there(browser, live_server, shot) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1024, "height": 768})
    try:
        page = context.new_page()
        page.goto(live_server.url + "/" + SURGE)
        assert_fits(page)
        section = page.locator(ROLLOUT).first
        expect(section.locator(".tl-slider")).to_have_count(0)           # no inert controls
        expect(section.locator("details.events")).to_have_count(2)       # the Pods, the counts
        expect(page.locator('[data-story="rollout-1"] > ol > li').last).to_contain_text("complete")
        expect(section.locator(".rollout-facts")).to_contain_text("Capacity floor")
        shot(page, "no-js")
    finally:
        context.close()


def test_in_simplified_chinese(page: Page, live_server, shot) -> None:
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(live_server.url + "/" + SURGE)
    page.locator("#language").select_option("zh-hans")
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    section = page.locator(ROLLOUT).first
    expect(section.locator("h3")).to_have_text("发布（rollout）")
    assert "容量下限" in section.locator(".timeline svg").inner_html()
    expect(section.locator(".tl-toolbar")).to_be_visible()
    section.locator(".tl-slider").focus()
    section.locator(".tl-slider").press("End")
    expect(section.locator(".tl-state")).to_contain_text("游标处")
    assert_fits(page)
    section.scroll_into_view_if_needed()
    shot(page, "zh-hans")


def test_the_traffic_row_shows_the_502_window_and_the_what_if_moves_it(page: Page, live_server, shot) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(live_server.url + "/" + RACE)
    timeline = page.locator('#result section[data-timeline="pod-1"]')
    svg = timeline.locator(".timeline svg")
    expect(svg.locator(".tl-strip text", has_text="Traffic")).to_have_count(1)
    fail = svg.locator(".tl-fail-g")
    expect(fail).to_have_count(1)
    expect(fail.locator("text")).to_have_text("✕ requests fail")
    assert fail.get_attribute("data-t0") == "30" and fail.get_attribute("data-t1") == "35"
    shot(page, "race")
    # the propagation time is assumed: the panel says so; one second shrinks the window to one second
    open_what_if(page)
    expect(page.locator(".rollout-controls .assumed-value")).to_contain_text("assumed: 5 s")
    field = page.locator('input[name="traffic_propagation"]')
    field.fill("1")
    expect(svg.locator(".tl-fail-g")).to_have_attribute("data-t1", "31")
    expect(page.locator('input[name="traffic_propagation"]')).to_have_value("1")


def test_a_new_revision_that_never_becomes_ready_stalls_the_rollout(page: Page, live_server) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(live_server.url + "/" + SURGE)
    open_what_if(page)
    page.locator('input[name="n.api.never_ready"]').check()
    section = page.locator(ROLLOUT).first
    expect(section.locator(".rollout-facts")).to_contain_text("Stalled at")
    expect(section.locator(".timeline svg .ro-guide-stalled").first).to_be_attached()
