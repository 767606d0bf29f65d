"""The page in a real browser: paste, explain, what-if, language, examples."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import load_manifest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def fill_manifest(page: Page, text: str) -> None:
    page.locator("#manifest").fill(text)


def test_paste_and_explain_shows_one_lane_per_container_and_the_diagram(page: Page, live_server, shot) -> None:
    page.goto(live_server.url)
    fill_manifest(page, load_manifest("seeds/lifecycle-demo"))
    page.get_by_role("button", name="Explain", exact=True).click()
    result = page.locator("#result")
    expect(result.locator(".pod")).to_have_count(1)
    timeline = result.locator(".timeline svg")
    expect(timeline).to_be_visible()
    for name in ("prepare", "helper", "app"):
        expect(timeline.get_by_text(name, exact=True).first).to_be_visible()
    expect(result.locator(".diagram svg")).to_be_visible()
    expect(result.locator(".story li").first).to_contain_text("sandbox")
    assert "?example" not in page.url          # htmx swapped the result: no reload
    shot(page, "explained")


def test_keyboard_shortcut_explains(page: Page, live_server) -> None:
    page.goto(live_server.url)
    fill_manifest(page, load_manifest("seeds/native-sidecar-example"))
    page.locator("#manifest").press("Control+Enter")
    expect(page.locator("#result .pod")).to_have_count(1)


def test_what_if_panel_re_explains(page: Page, live_server, shot) -> None:
    page.goto(live_server.url + "?example=lifecycle-demo")
    expect(page.locator("#result .pod")).to_have_count(1)
    crashes = page.locator('input[name="c.app.crashes"]')
    if not crashes.is_visible():
        page.locator("#what-if > summary").click()
    crashes.fill("3")
    crashes.dispatch_event("change")
    expect(page.locator("#result")).to_contain_text("CrashLoopBackOff")
    expect(page.locator('input[name="c.app.crashes"]')).to_have_value("3")   # the value survives the swap
    shot(page, "what-if")


def test_errors_appear_with_their_line_and_the_rest_stays_usable(page: Page, live_server) -> None:
    page.goto(live_server.url)
    fill_manifest(page, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  containers:\n  - name: a\n   image: b\n")
    page.get_by_role("button", name="Explain", exact=True).click()
    panel = page.locator(".error-panel")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("line 8")
    panel.locator(".line-link").first.click()
    selected = page.evaluate("() => { const a = document.getElementById('manifest'); return a.value.slice(a.selectionStart, a.selectionEnd); }")
    assert selected.strip() == "image: b"
    fill_manifest(page, load_manifest("seeds/init-example"))
    page.get_by_role("button", name="Explain", exact=True).click()
    expect(page.locator("#result .pod")).to_have_count(1)


def test_examples_load_into_the_editor_and_explain(page: Page, live_server) -> None:
    page.goto(live_server.url)
    page.locator('a[data-example="job-classic-sidecar"]').click()
    expect(page.locator("#manifest")).to_have_value(re.compile("log-sidecar"))
    expect(page.locator("#result")).to_contain_text("job-sidecar-blocks-completion")


def test_switching_language_to_chinese(page: Page, live_server, shot) -> None:
    page.goto(live_server.url + "?example=lifecycle-demo")
    page.locator("#language").select_option("zh-hans")
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    expect(page.locator("#result")).to_contain_text("沙箱")
    shot(page, "zh-hans")
    page.locator("#language").select_option("en")
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_share_then_open_the_link_in_a_fresh_browser_context(page: Page, live_server, browser, shot) -> None:
    page.goto(live_server.url + "?example=lifecycle-demo")
    expect(page.locator("#result .pod")).to_have_count(1)
    page.locator("#share-button").click()
    link = page.locator("#share-url")
    expect(link).to_be_visible()
    expect(page.locator("#share-token")).to_be_visible()
    url = link.get_attribute("href")
    original = page.locator("#result .story li").all_inner_texts()
    fresh = browser.new_context()          # no cookies, no history: a reviewer opening the link
    try:
        other = fresh.new_page()
        other.goto(url)
        expect(other.locator("#result .pod")).to_have_count(1)
        expect(other.locator("#result .timeline svg")).to_be_visible()
        expect(other.locator("#result .diagram svg")).to_be_visible()
        assert other.locator("#result .story li").all_inner_texts() == original
        shot(other, "permalink")
    finally:
        fresh.close()
