"""Issue 25, sections 4 and 5, in a real Chromium: the compare page's summary and its manifests line by line,
the rules page's index and filter, and the words a deleted example opens with; at a projector's 1280×720, a
laptop's 1440×900 and phones' 390×844 and 360×740, light and dark, with JavaScript and without, axe clean."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.conftest import load_manifest
from tests.web.test_browser_page import axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"projector": {"width": 1280, "height": 720}, "laptop": {"width": 1440, "height": 900},
         "phone": {"width": 390, "height": 844}, "small-phone": {"width": 360, "height": 740}}
# Every pair of factors, not every triple (8 views, not 16; the suite's time budget): each size light and dark,
# with and without JavaScript, and each of light/dark with and without JavaScript twice.  axe's colour checks
# follow the scheme, its structure checks the scripts, the layout the size.
VIEWS = [(size, scheme, js) for i, size in enumerate(SIZES)
         for scheme, js in ((("light", True), ("dark", False)) if i % 2 == 0 else (("dark", True), ("light", False)))]


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
    page's HTML, its scripts taken out and its <noscript> parts kept as shown, is served again to a context that
    runs the driver's scripts only."""
    if scripting(page):
        assert axe_violations(page) == []
        return
    html = re.sub(r"<script\b[^>]*>.*?</script>", "", page.content(), flags=re.S | re.I)
    # what a browser without scripts shows of its <noscript> (a phone's drawing), shown by one with scripts too
    html = re.sub(r"<(/?)noscript>", r'<\1div>', html)
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


# 5. Words a class sees first ------------------------------------------------------------------------------

def test_a_deleted_example_opens_with_what_happened(viewer: Page, browser: Browser, live_server, shot) -> None:
    viewer.goto(f"{live_server.url}/?example=lifecycle-demo")
    headline = viewer.locator("#result .pod-head .headline")
    expect(headline).to_have_text("Deleted at 30 s; app and helper exited on SIGTERM (143), so the Pod ends Failed — "
                                  "normal for a deletion.")
    status = viewer.locator("#result .pod-head .pill.status")
    expect(status).to_have_text("Error")                          # STATUS and phase stay exact, after it
    expect(viewer.locator("#result .pod-head .pill", has_text="phase Failed")).to_be_visible()
    # on a phone the chart is laid out again for its panel once measured, which swaps the result: both
    # boxes are read from one settled frame
    viewer.wait_for_load_state("networkidle")
    h, s = viewer.evaluate("""() => [document.querySelector('#result .pod-head .headline'),
                                      document.querySelector('#result .pod-head .pill.status')]
                                     .map(e => e && e.getBoundingClientRect().toJSON())""")
    assert h is not None and s is not None and h["y"] + h["height"] <= s["y"] + 1
    assert "`" not in viewer.locator("#result .note").all_inner_texts().__str__()
    shot(viewer, "headline")
    axe_clean(viewer, browser)


def test_the_rules_page_has_an_index_and_a_filter(viewer: Page, browser: Browser, live_server, shot) -> None:
    from explainer.findings import RULES
    viewer.goto(f"{live_server.url}/rules/")
    index = viewer.locator(".rules-index li")
    expect(index).to_have_count(len(RULES))
    expect(viewer.locator("article.rule[data-severity]:visible")).to_have_count(len(RULES))
    expect(viewer.locator("#kill-pid1-shared-namespace code", has_text="shareProcessNamespace: true").first).to_be_visible()
    no_sideways_scroll(viewer)
    axe_clean(viewer, browser)
    viewer.get_by_label("Find").fill("PID 1 shareProcessNamespace preStop signals")
    if not scripting(viewer):
        viewer.get_by_role("button", name="Filter").click()       # the server filters
        viewer.wait_for_url("**/rules/?q=PID+1+shareProcessNamespace+preStop+signals&severity=")
    expect(viewer.locator("article.rule[data-severity]:visible")).to_have_count(1)
    expect(viewer.locator("article.rule[data-severity]:visible")).to_have_id("kill-pid1-shared-namespace")
    expect(viewer.locator("#rules-count")).to_have_text(f"Showing 1 of {len(RULES)} rules.")
    expect(viewer.locator(".rules-index li:visible")).to_have_count(1)
    if scripting(viewer):
        assert "q=PID+1+shareProcessNamespace" in viewer.url       # the address follows: a shareable filter
    viewer.locator(".rules-index a").filter(visible=True).click()
    expect(viewer.locator("#kill-pid1-shared-namespace")).to_be_in_viewport()
    viewer.get_by_label("Find").fill("")
    viewer.get_by_label("Severity").select_option("error")
    if not scripting(viewer):
        viewer.get_by_role("button", name="Filter").click()
        viewer.wait_for_url("**/rules/?q=&severity=error")
    errors = sum(1 for r in RULES if r.SEVERITY.value == "error")
    expect(viewer.locator("article.rule[data-severity]:visible")).to_have_count(errors)
    no_sideways_scroll(viewer)
    shot(viewer, "rules")
    axe_clean(viewer, browser)
