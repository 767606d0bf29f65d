"""What the cluster shows, in a real Chromium (issue 23): the gallery's cases at 1440 and 390 px, light and dark,
axe finds nothing serious; the observed lanes fit and the cursor reports them; "Make the prediction match" with
htmx and without JavaScript; the second field is kept in the browser and the address like the manifest; Simplified
Chinese."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from explainer.examples import BY_SLUG
from tests.web.test_browser_page import axe_violations, open_what_if
from tests.web.test_browser_timeline import assert_fits

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OOM, LIVENESS, INIT = "observed-oom-crash-loop", "observed-liveness-kill", "observed-init-waits-for-service"
PANEL = "#observed-1"
SVG = '#result section[data-timeline="pod-1"] .timeline svg:visible'      # without scripts a phone's drawing waits hidden


def show_panel(page: Page) -> None:
    page.locator(PANEL).scroll_into_view_if_needed()


@pytest.mark.parametrize("width,height", [(1440, 900), (390, 844)])
@pytest.mark.parametrize("slug", [OOM, LIVENESS, INIT])
def test_each_case_fits_and_shows_its_observed_lanes_and_differences(page: Page, live_server, width: int, height: int,
                                                                    slug: str, shot) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(live_server.url + f"/?example={slug}")
    svg = page.locator(SVG)
    expect(svg.locator(".tl-obs-label")).to_have_count(len(svg.locator(".tl-lane-label").all()))
    expect(svg.locator(".tl-strip text, .tl-strip-name", has_text="Observed")).to_have_count(1)   # stacked: above the row
    assert_fits(page)
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px"
    panel = page.locator(PANEL)
    expect(panel.locator("h3")).to_have_text("What the cluster shows")
    expect(panel.locator(".divergence")).to_have_count(1)
    expect(panel.locator(".match-button")).to_be_visible()
    right = panel.evaluate("p => Math.max(...[...p.querySelectorAll('*')].filter(e => e.getClientRects().length)"
                           ".map(e => e.getBoundingClientRect().right))")
    scrolled = panel.evaluate("p => [...p.querySelectorAll('.scroll, pre')].map(e => e.getBoundingClientRect().right)")
    assert right <= width + 1 or all(r <= width + 1 for r in scrolled), f"the panel reaches x={right}"
    page.locator(SVG).scroll_into_view_if_needed()
    shot(page, f"{slug}-{width}")


def test_the_cursor_reports_the_observed_lane_and_kubectls_columns(page: Page, live_server) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(live_server.url + f"/?example={LIVENESS}")
    section = page.locator('#result section[data-timeline="pod-1"]')
    slider = section.locator(".tl-slider")
    slider.focus()
    for _ in range(3):            # 0 s, the pull at 2 s, the run from 4 s
        slider.press("ArrowRight")
    state = section.locator(".tl-state")
    expect(state).to_contain_text("Observed: liveness")
    expect(state).to_contain_text("Running")
    slider.press("End")
    expect(state).to_contain_text("READY 1/1 · STATUS Running · RESTARTS 1 (printed at 60 s)")
    # the observed bars have tooltips and move with the zoom like the others
    bar = section.locator(".tl-obs-g[data-state=running]")
    assert "(observed)" in (bar.get_attribute("aria-label") or "")
    before = bar.locator("rect").first.get_attribute("x")
    section.get_by_role("button", name="Zoom in").click()
    assert bar.locator("rect").first.get_attribute("x") != before


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_light_and_dark_and_axe(page: Page, live_server, scheme: str, shot) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.emulate_media(color_scheme=scheme)
    page.goto(live_server.url + f"/?example={OOM}")
    row = page.locator(f"{SVG} .tl-obs-row").first.evaluate("e => getComputedStyle(e).fill")
    assert row == ("rgb(24, 32, 47)" if scheme == "dark" else "rgb(244, 246, 251)")
    page.locator("#result details.events > summary").first.click()
    page.locator(f"{PANEL} .match details > summary").click()
    assert axe_violations(page) == []
    page.goto(live_server.url + f"/?example={INIT}")
    page.locator(f"{PANEL} .obs-notes").evaluate("e => e.open = true")
    assert axe_violations(page) == []
    page.locator(SVG).scroll_into_view_if_needed()
    shot(page, f"{scheme}-timeline")
    show_panel(page)
    shot(page, f"{scheme}-panel")


def test_make_the_prediction_match_with_htmx(page: Page, live_server, shot) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(live_server.url + f"/?example={OOM}")
    open_what_if(page)
    page.locator('input[name="c.memory-demo-2-ctr.startup"]').fill("2")
    expect(page.locator("#scenario-effective, .scenario-effective")).to_contain_text("startupSeconds: 2")
    page.locator(f"{PANEL} .match-button").click()
    scenario = page.locator("#scenario")
    expect(scenario).to_have_value(re.compile(r"reason: OOMKilled"))
    assert "startupSeconds: 2" in scenario.input_value()            # what the controls said is in the YAML now
    expect(page.locator('input[name="c.memory-demo-2-ctr.startup"]')).to_have_value("")
    expect(page.locator(f"{PANEL} .no-divergence")).to_be_visible()
    # what comes next: the prediction crash-loops with the kills, up to the back-off's cap
    expect(page.locator("#result .pod-head .status")).to_have_text("CrashLoopBackOff")
    expect(page.locator("#result .story")).to_contain_text("OOMKilled")
    # a what-if change afterwards keeps the written scenario (it is not written twice)
    page.locator('input[name="delete_at"]').fill("500")
    expect(page.locator("#result .story")).to_contain_text("deleted")
    expect(page.locator(f"{PANEL} .no-divergence")).to_be_visible()
    page.reload()                                  # kept in this browser like every input
    expect(page.locator("#scenario")).to_have_value(re.compile(r"reason: OOMKilled"))
    expect(page.locator("#observed")).to_have_value(BY_SLUG[OOM].observed())
    show_panel(page)
    shot(page, "matched")


def test_make_the_prediction_match_without_javascript(browser, live_server, shot) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1024, "height": 768})
    try:
        page = context.new_page()
        page.goto(live_server.url + f"/?example={LIVENESS}")
        expect(page.locator(f"{SVG} .tl-obs-label")).to_have_count(1)
        expect(page.locator(f"{PANEL} .divergence")).to_contain_text("killed by its probe")
        assert_fits(page)
        page.locator(f"{PANEL} .match-button").click()
        expect(page.locator("#scenario")).to_have_value(re.compile(r"failingProbes:\s*\n\s*- liveness"))
        expect(page.locator(f"{PANEL} .no-divergence")).to_be_visible()
        expect(page.locator("#observed")).to_have_value(BY_SLUG[LIVENESS].observed())
        expect(page.locator("#result .story")).to_contain_text("liveness probe")
        show_panel(page)
        shot(page, "no-js")
    finally:
        context.close()


def test_a_pasted_observation_is_explained_and_kept_in_the_address(page: Page, live_server, browser) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(live_server.url)
    page.locator("#manifest").fill(BY_SLUG[LIVENESS].manifest())
    page.locator(".observed-input > summary").click()
    page.locator("#observed").fill(BY_SLUG[LIVENESS].observed())
    page.get_by_role("button", name="Explain", exact=True).click()
    expect(page.locator(f"{PANEL} .divergence")).to_contain_text("killed by its probe")
    page.wait_for_url(re.compile(r"#i=[A-Za-z0-9_-]+$"))
    # editing the observed output is followed as editing the manifest is: explained again at a pause, or, with
    # explaining as you type switched off, the result marked out of date
    page.locator("#observed").press("End")
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.locator("#observed").type("\n")
    expect(page.locator("#stale-note")).to_be_hidden()
    page.locator("#auto-explain").uncheck()
    page.locator("#observed").type("\n")
    expect(page.locator("#stale-note")).to_be_visible()
    page.locator("#observed").fill(BY_SLUG[LIVENESS].observed())
    page.get_by_role("button", name="Explain", exact=True).click()
    expect(page.locator("#stale-note")).to_be_hidden()
    page.wait_for_url(re.compile(r"#i=[A-Za-z0-9_-]+$"))
    fresh = browser.new_context()          # no localStorage: only the address
    try:
        other = fresh.new_page()
        other.goto(page.url)
        expect(other.locator("#observed")).to_have_value(BY_SLUG[LIVENESS].observed())
        expect(other.locator(f"{PANEL} .divergence")).to_contain_text("killed by its probe")
    finally:
        fresh.close()


def test_a_permalink_carries_the_observation_and_its_match_link_opens_the_editor(page: Page, live_server,
                                                                                  shot) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(live_server.url + f"/?example={INIT}")
    page.get_by_role("button", name="Share", exact=True).click()
    link = page.locator("#share-url")
    expect(link).to_be_visible()
    page.goto(link.get_attribute("href") or "")
    expect(page.locator(f"{SVG} .tl-obs-label")).to_have_count(3)
    expect(page.locator(f"{PANEL} .divergence")).to_contain_text("still running")
    assert axe_violations(page) == []
    shot(page, "permalink")
    page.locator(f"{PANEL} .match-button").click()
    expect(page.locator("#scenario")).to_have_value(re.compile(r"runSeconds: 450"))
    expect(page.locator(f"{PANEL} .no-divergence")).to_be_visible()


def test_observed_in_simplified_chinese(page: Page, live_server, shot) -> None:
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(live_server.url + f"/?example={LIVENESS}")
    page.locator("#language").select_option("zh-hans")
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    expect(page.locator(f"{PANEL} h3")).to_have_text("集群实况")
    expect(page.locator(f"{PANEL} .match-button")).to_have_text("让预测与集群一致")
    expect(page.locator(f"{SVG} .tl-obs-name")).to_have_text("↳ 观测")
    expect(page.locator(f"{PANEL} .divergence")).to_contain_text("被探针杀掉")
    assert_fits(page)
    page.locator(SVG).scroll_into_view_if_needed()
    shot(page, "zh-hans")
