"""The page's layout (issue 25, section 1), in a real Chromium: an editor pane that can be resized and hidden,
charts laid out for the width they get (names above the lanes on a phone), the result in view on a phone,
44 px targets on touch screens and phones, a what-if table that fits 360 px, no keyboard-only hints on
touch screens; with JavaScript and without, light and dark."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import load_manifest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(1280, 720), (1440, 900), (390, 844), (360, 740)]
PHONES = [(390, 844), (360, 740)]


def settle(page: Page) -> None:
    if page.evaluate("() => !!document.querySelector('.tl-live')"):
        expect(page.locator("html")).to_have_attribute("data-charts", "fitted", timeout=20_000)


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth - innerWidth") <= 0


def chart_fits(page: Page) -> None:
    """Each visible chart is laid out for its panel: no scrolling inside it, shown at 1.2 times its drawing
    or more (its smallest text, 10 px in the drawing, at 12 px)."""
    for holder in page.locator(".timeline-wide, .timeline-narrow").all():
        if not holder.is_visible():
            continue
        scroll, client, scale = holder.evaluate(
            "h => [h.scrollWidth, h.clientWidth, h.querySelector('svg').getBoundingClientRect().width /"
            " h.querySelector('svg').viewBox.baseVal.width]")
        assert scroll <= client + 1 and scale >= 1.19, (scroll, client, scale)


# ---- the editor pane: resized, hidden ----------------------------------------------------------------------

def test_the_splitter_resizes_the_editor_by_keyboard_and_the_charts_follow(page: Page, live_server) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(live_server.url + "/?example=lifecycle-demo")
    settle(page)
    splitter = page.get_by_role("separator", name="Editor width")
    expect(splitter).to_have_attribute("aria-controls", "input-pane")
    editor_width = lambda: page.locator("#input-pane").bounding_box()["width"]     # noqa: E731
    fit = lambda: int(page.locator(".timeline-wide").first.get_attribute("data-fit"))   # noqa: E731
    before, fit_before = editor_width(), fit()
    splitter.focus()
    for _ in range(10):
        page.keyboard.press("ArrowLeft")            # a narrower editor, a wider result
    assert editor_width() < before - 100
    valuenow = int(splitter.get_attribute("aria-valuenow"))
    assert 15 <= valuenow < 25
    settle(page)
    page.wait_for_function("f => +document.querySelector('.timeline-wide').dataset.fit > f", arg=fit_before)
    chart_fits(page)                                 # laid out again for the room it now has
    page.keyboard.press("Enter")                     # Enter hides the editor ("Result only") …
    expect(page.locator("#input-pane")).to_be_hidden()
    expect(page.locator("#result-only")).to_be_checked()
    settle(page)
    chart_fits(page)
    page.reload()                                    # … and both are kept in this browser
    expect(page.locator("#input-pane")).to_be_hidden()
    page.locator("label[for=result-only]").click()
    expect(page.locator("#input-pane")).to_be_visible()
    assert abs(int(page.get_by_role("separator").get_attribute("aria-valuenow")) - valuenow) <= 1
    no_sideways_scroll(page)


def test_the_splitter_can_be_dragged(page: Page, live_server) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(live_server.url + "/?example=lifecycle-demo")
    settle(page)
    splitter = page.get_by_role("separator", name="Editor width").bounding_box()
    x, y = splitter["x"] + splitter["width"] / 2, splitter["y"] + 200
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 250, y, steps=6)
    page.mouse.up()
    assert page.locator("#input-pane").bounding_box()["width"] > 550
    settle(page)
    chart_fits(page)
    no_sideways_scroll(page)


@pytest.mark.parametrize("js", [True, False])
def test_result_only_hides_the_editor_with_and_without_javascript(browser, live_server, js: bool) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720}, java_script_enabled=js)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/?example=lifecycle-demo")
        settle(page)
        narrow = page.locator("#result .timeline svg").locator("visible=true").first.bounding_box()["width"]
        page.get_by_text("Result only").click()
        expect(page.locator("#input-pane")).to_be_hidden()
        settle(page)
        wide = page.locator("#result .timeline svg").locator("visible=true").first.bounding_box()["width"]
        assert wide > narrow * 1.2                   # the chart takes the room
        chart_fits(page)
        no_sideways_scroll(page)
        page.get_by_text("Result only").click()
        expect(page.locator("#manifest")).to_be_visible()
    finally:
        context.close()


# ---- phones: laid out for the width, the result in view ------------------------------------------------

@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("js", [True, False])
@pytest.mark.parametrize("width,height", PHONES)
def test_on_a_phone_the_chart_is_laid_out_for_the_width_and_an_example_opens_at_its_result(
        browser, live_server, width: int, height: int, js: bool, scheme: str, shot) -> None:
    context = browser.new_context(viewport={"width": width, "height": height}, java_script_enabled=js,
                                  color_scheme=scheme, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/")
        page.locator('a[data-example="web-app-pod"]').click()          # from the gallery, as a learner does
        expect(page.locator("#result .pod")).to_have_count(1)
        settle(page)
        top = page.evaluate("() => document.getElementById('result').getBoundingClientRect().top")
        assert -2 <= top < 120, top                  # the result is what the phone shows, not the editor
        svg = page.locator("#result .tl-panel .timeline svg").locator("visible=true").first
        # names above their lanes: each lane's name is above its bars, and the plot takes the whole width
        lanes = svg.evaluate("""svg => [...svg.querySelectorAll('.tl-lane-label')].map(g => {
            const name = g.querySelector('text').getBBox(), bar = svg.querySelector(`.tl-bar-g[data-lane="${g.dataset.lane}"] rect`);
            return bar ? [name.y + name.height, bar.getBBox().y, bar.getBBox().x] : null; }).filter(Boolean)""")
        assert lanes and all(bottom <= bar_top + 1 for bottom, bar_top, _x in lanes), lanes
        assert min(x for *_y, x in lanes) < 40       # no column of names left of the plot
        # a time axis in few ticks, each saying its unit; with the quiet stretch's cut, from the start to the end
        ticks = svg.locator(".tl-axes text[text-anchor=middle]").all_text_contents()
        cuts = svg.locator(".tl-break-text").all_text_contents()
        assert 2 <= len(set(ticks)) <= 6 and all(t.endswith(" s") for t in ticks), ticks
        assert ticks[0] == "0 s" and ticks[-1] == "65 s" and 3 <= len(set(ticks + cuts)) <= 8, (ticks, cuts)
        chart_fits(page)
        no_sideways_scroll(page)
        shot(page, f"{width}-{'js' if js else 'nojs'}-{scheme}")
    finally:
        context.close()


@pytest.mark.parametrize("width,height", PHONES)
def test_on_a_phone_the_what_if_table_fits(browser, live_server, width: int, height: int) -> None:
    for js in (True, False):
        context = browser.new_context(viewport={"width": width, "height": height}, java_script_enabled=js)
        try:
            page = context.new_page()
            page.goto(live_server.url + "/?example=web-app-pod")
            if not page.locator('input[name="delete_at"]').is_visible():
                page.locator("#what-if > summary").click()
            panel = page.locator("#what-if")
            sizes = panel.evaluate("p => [p.scrollWidth, p.clientWidth, p.getBoundingClientRect().right]")
            assert sizes[0] <= sizes[1] and sizes[2] <= width, (js, sizes)
            for control in panel.locator(".whatif-table input").all():      # each whole and inside the table
                box = control.bounding_box()
                assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
            # the column heads stay readable above the controls
            expect(panel.locator(".whatif-table thead th", has_text="Healthy after (s)")).to_be_visible()
            no_sideways_scroll(page)
        finally:
            context.close()


# ---- touch: 44 px targets, no keyboard-only hints ----------------------------------------------------------

SMALL_TARGETS = """() => {
    const sel = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=slider], [role=separator], label.toggle';
    const out = []; let n = 0;
    for (const e of document.querySelectorAll(sel)) {
        if (e.closest('svg')) continue;                          // the chart's marks: the slider and the table stand for them
        let t = e;
        if (e.matches('input[type=checkbox], input[type=radio]'))   // a box's target is its label
            t = e.closest('label') || (e.id && document.querySelector(`label[for="${e.id}"]`)) || e;
        const r = t.getBoundingClientRect(), s = getComputedStyle(t);
        if (!r.width || !r.height || s.visibility === 'hidden' || t.closest('[hidden]')) continue;
        n++;
        if (r.width < 44 - 0.5 || r.height < 44 - 0.5) out.push([t.tagName, t.className, (t.textContent || t.name || '').trim().slice(0, 30), Math.round(r.width), Math.round(r.height)]);
    }
    return {n, small: out};
}"""


@pytest.mark.parametrize("js", [True, False])
@pytest.mark.parametrize("width,height,touch", [(390, 844, True), (360, 740, True), (360, 740, False), (1280, 720, True)])
def test_every_control_is_a_44_px_target_on_touch_screens_and_phones(browser, live_server, width: int, height: int,
                                                                     touch: bool, js: bool) -> None:
    context = browser.new_context(viewport={"width": width, "height": height}, java_script_enabled=js,
                                  has_touch=touch, is_mobile=touch and width < 700)
    try:
        page = context.new_page()
        for path in ("/?example=lifecycle-demo", "/?example=web-app-pod"):
            page.goto(live_server.url + path)
            settle(page)
            if not page.locator('input[name="delete_at"]').is_visible():
                page.locator("#what-if > summary").click()
            page.locator("details.finding > summary").first.click()       # a pitfall open: its fix and links
            found = page.evaluate(SMALL_TARGETS)
            assert found["n"] > 40 and found["small"] == [], found["small"]
    finally:
        context.close()


def test_no_keyboard_only_hints_on_a_touch_screen(browser, live_server) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/?example=lifecycle-demo")
        settle(page)
        expect(page.locator(".kbd-hint")).to_be_hidden()
        page.locator("#manifest").focus()
        expect(page.locator("#editor-keys")).to_be_hidden()
        help_text = page.locator("#result .tl-help").first
        expect(help_text).to_contain_text("Tap or drag")
        assert not re.search(r"Shift|Home|Ctrl|←|→", help_text.inner_text())
    finally:
        context.close()
    context = browser.new_context(viewport={"width": 1280, "height": 720})           # a keyboard: the keys said
    try:
        page = context.new_page()
        page.goto(live_server.url + "/?example=lifecycle-demo")
        expect(page.locator(".kbd-hint")).to_be_visible()
        expect(page.locator("#result .tl-help").first).to_contain_text("Shift+←/→")
    finally:
        context.close()


def test_on_a_phone_explain_brings_the_result_into_view_and_typing_does_not(page: Page, live_server) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(live_server.url + "/")
    page.locator("#manifest").fill(load_manifest("seeds/init-example"))
    page.get_by_role("button", name="Explain", exact=True).click()
    expect(page.locator("#result .pod")).to_have_count(1)
    page.wait_for_function("() => Math.abs(document.getElementById('result').getBoundingClientRect().top) < 80")
    settle(page)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.locator("#manifest").press("End")
    page.locator("#manifest").type("\n# typed")
    expect(page.locator("#updating")).to_be_hidden()
    page.wait_for_timeout(1500)                        # explained while typing: the page stays at the editor
    assert page.evaluate("() => window.scrollY") < 200
    expect(page.locator("#manifest")).to_be_focused()


def test_an_example_address_without_result_opens_at_its_result_on_a_phone_only(browser, live_server) -> None:
    """A shared ``?example=`` address has no ``#result``: on a phone the page still opens at the result, as the
    gallery's links do; a reload leaves the reader where they were; a wide screen stays at its top."""
    def result_top(page: Page) -> float:
        return page.evaluate("() => document.getElementById('result').getBoundingClientRect().top")

    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/?example=web-app-pod")
        expect(page.locator("#result .pod")).to_have_count(1)
        settle(page)
        assert page.evaluate("() => window.scrollY") > 300            # the editor is above it
        assert -2 <= result_top(page) < 120, result_top(page)
        page.evaluate("() => window.scrollTo(0, 0)")
        page.reload()
        expect(page.locator("#result .pod")).to_have_count(1)
        settle(page)
        page.wait_for_timeout(300)
        assert page.evaluate("() => window.scrollY") < 50              # a reload leaves the reader where they were
    finally:
        context.close()
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        page.goto(live_server.url + "/?example=web-app-pod")
        expect(page.locator("#result .pod")).to_have_count(1)
        settle(page)
        assert page.evaluate("() => window.scrollY") == 0               # beside the editor: nothing to scroll
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_permalink_and_embed_pages_fit_their_charts_too(browser, live_server, scheme: str) -> None:
    import yaml

    from explainer.examples import BY_SLUG
    from explainer.web.models import Permalink
    example = BY_SLUG["rollout-surge-vs-unavailable"]
    link, _token = Permalink.store(example.manifest(), yaml.safe_load(example.scenario or "{}") or None, "1.34")
    for width, height in SIZES:
        for js in (True, False):
            context = browser.new_context(viewport={"width": width, "height": height}, java_script_enabled=js,
                                          color_scheme=scheme)
            try:
                page = context.new_page()
                for path in (f"/p/{link.id}/", f"/embed/{link.id}/"):
                    page.goto(live_server.url + path)
                    settle(page)
                    chart_fits(page)
                    no_sideways_scroll(page)
            finally:
                context.close()


def test_what_the_reader_opens_while_a_phone_refits_the_result_stays_open(page: Page, live_server) -> None:
    """At 390 px an example opens laid out for the default panel and is explained again for the phone's
    (the refit swaps the result): a finding opened before that answer lands is still open after it."""
    held: list = []

    def hold(route) -> None:   # the refit's answer waits until the finding is opened
        held.append(route)

    page.set_viewport_size({"width": 390, "height": 800})
    page.route(lambda url: url.rstrip("/") == live_server.url.rstrip("/"), lambda route: hold(route)
               if route.request.method == "POST" else route.continue_())
    page.goto(live_server.url + "?example=web-app-pod")
    expect(page.locator("html")).to_have_attribute("data-charts", "refitting", timeout=20_000)
    summaries = page.locator("#result details.finding > summary")
    closed = page.locator("#result details.finding:not([open]) > summary").first
    index = summaries.evaluate_all("(all, one) => all.indexOf(one)", closed.element_handle())
    closed.click()
    page.wait_for_timeout(50)
    page.unroute(lambda url: url.rstrip("/") == live_server.url.rstrip("/"))
    for route in held:
        route.continue_()
    expect(page.locator("html")).to_have_attribute("data-charts", "fitted", timeout=20_000)
    assert held, "the phone's refit asked the server again"
    assert page.locator("#result .timeline-wide").first.get_attribute("data-fit") != "800"   # the refit landed
    assert page.locator("#result details.finding").nth(index).evaluate("d => d.open")
