"""Issue 25, sections 4 and 5, in a real Chromium: the compare page's summary and its manifests line by line,
the rules page's index and filter, and the words a deleted example opens with; at a projector's 1280×720 and
a phone's 390×844, light and dark, with JavaScript and without, axe clean."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.conftest import load_manifest
from tests.web.test_browser_page import axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"projector": {"width": 1280, "height": 720}, "phone": {"width": 390, "height": 844}}
VIEWS = [(size, scheme, js) for size in SIZES for scheme in ("light", "dark") for js in (True, False)]


def view_id(view: tuple[str, str, bool]) -> str:
    size, scheme, js = view
    return f"{size}-{scheme}-{'js' if js else 'nojs'}"


@pytest.fixture(params=VIEWS, ids=view_id)
def viewer(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    size, scheme, js = request.param
    context = browser.new_context(viewport=SIZES[size], color_scheme=scheme, java_script_enabled=js)
    try:
        yield context.new_page()
    finally:
        context.close()


def scripting(page: Page) -> bool:
    return page.evaluate("() => !document.documentElement.classList.contains('no-js')")


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0


def axe_clean(page: Page, browser: Browser) -> None:
    """axe-core on the page as shown.  axe runs on timers, which a page without JavaScript never fires: that
    page's HTML, its scripts taken out, is served again to a context that runs the driver's scripts only."""
    if scripting(page):
        assert axe_violations(page) == []
        return
    html = re.sub(r"<script\b[^>]*>.*?</script>", "", page.content(), flags=re.S | re.I)
    scheme = page.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'")
    context = browser.new_context(viewport=page.viewport_size, color_scheme=scheme)
    try:
        copy = context.new_page()
        copy.route(page.url, lambda route: route.fulfill(body=html, content_type="text/html; charset=utf-8"))
        copy.goto(page.url)
        assert copy.evaluate("() => document.documentElement.classList.contains('no-js')")
        assert axe_violations(copy) == []
    finally:
        context.close()


# 4. Compare that sees every change ----------------------------------------------------------------------

def test_compare_tells_what_moved_and_shows_the_manifests_line_by_line(viewer: Page, browser: Browser, live_server,
                                                                      shot) -> None:
    from explainer.web.models import Permalink
    base = load_manifest("compare/base")
    left, _ = Permalink.store(base, {"deleteAt": 40}, "1.37")
    right, _ = Permalink.store(base.replace("terminationGracePeriodSeconds: 30", "terminationGracePeriodSeconds: 10"),
                               {"deleteAt": 40, "containers": {"shipper": {"stopSeconds": "never"}}}, "1.37")
    viewer.goto(f"{live_server.url}/compare/?left={left.id}&right={right.id}")
    summary = viewer.locator(".compare-summary")
    expect(summary).to_contain_text("terminationGracePeriodSeconds is now 10 s instead of 30 s.")
    expect(summary).to_contain_text("The deletion now takes 10 s instead of 5 s")
    expect(summary).not_to_contain_text("No difference")
    wide = viewer.locator(".textdiff-wide").first
    narrow = viewer.locator(".textdiff-narrow").first
    phone = viewer.viewport_size is not None and viewer.viewport_size["width"] < 700
    shown, hidden = (narrow, wide) if phone else (wide, narrow)
    expect(shown).to_be_visible()
    expect(hidden).to_be_hidden()
    expect(shown.locator("del", has_text="3")).to_be_visible()
    expect(shown.locator("ins", has_text="1")).to_be_visible()
    if not phone:       # side by side: the changed line's two sides on one row
        row = wide.locator("tr.td-changed")
        expect(row).to_have_count(1)
        before, after = row.locator("td.tx").all()
        b, a = before.bounding_box(), after.bounding_box()
        assert b is not None and a is not None and abs(b["y"] - a["y"]) < 1 and b["x"] < a["x"]
    no_sideways_scroll(viewer)
    shot(viewer, "compare")
    axe_clean(viewer, browser)
