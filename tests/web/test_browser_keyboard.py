"""Keyboard and presentation (issue 25, section 2), in a real Chromium: no keyboard trap that edits, Space
plays in presentation mode, a caption in words, the chosen step stays in view, the cursor's time in the
address; and a zoom keeps the cursor and never cuts a label."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import load_manifest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DEMO = "/?example=lifecycle-demo"
SIZES = [(1280, 720), (1440, 900), (390, 844), (360, 740)]


def settle(page: Page) -> None:
    """Each chart laid out for its panel (static/js/layout.js), so that nothing is swapped in under the test."""
    expect(page.locator("html")).to_have_attribute("data-charts", "fitted", timeout=20_000)


def focused(page: Page) -> str | None:
    return page.evaluate("""() => { const e = document.activeElement;
        return !e || e === document.body ? null : (e.id || e.name || e.getAttribute('aria-label') || e.textContent.trim().slice(0, 30)); }""")


# ---- no keyboard trap that edits (WCAG 2.1.2) ----------------------------------------------------------------

@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width,height", SIZES)
def test_tab_from_the_page_top_through_every_control_never_changes_the_manifest(
        browser, live_server, width: int, height: int, scheme: str) -> None:
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
    try:
        page = context.new_page()
        page.goto(live_server.url + DEMO)
        settle(page)
        before = page.locator("#manifest").input_value()
        posts: list[str] = []
        page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
        page.evaluate("() => { document.activeElement.blur(); window.scrollTo(0, 0); }")
        seen, editor_visits = [], 0
        for _ in range(400):
            page.keyboard.press("Tab")
            key = focused(page)
            if key == "manifest":
                editor_visits += 1
                note = page.locator("#editor-keys")
                expect(note).to_have_text("Tab leaves the editor until you type in it.")   # said, and announced
                assert note.get_attribute("aria-live") == "polite"
            if key is None or (seen and key == seen[0]):
                break
            seen.append(key)
        assert editor_visits == 1, seen              # through the editor once, and out again by Tab alone
        assert "explain" in seen and seen.index("explain") > seen.index("manifest")
        expect(page.locator("#manifest")).to_have_value(before)
        expect(page.locator("#stale-note")).to_be_hidden()
        expect(page.locator("#result")).not_to_have_class(re.compile("stale"))
        page.wait_for_timeout(900)                   # longer than explaining-as-you-type waits: nothing was sent
        assert posts == []
    finally:
        context.close()


def test_tab_indents_once_typing_with_the_way_out_shown_and_announced(page: Page, live_server) -> None:
    page.goto(live_server.url + DEMO)
    settle(page)
    editor, note = page.locator("#manifest"), page.locator("#editor-keys")
    editor.focus()                                   # focus that came without typing: Tab moves on
    expect(note).to_have_text("Tab leaves the editor until you type in it.")
    expect(note).to_be_visible()
    page.keyboard.press("Tab")
    assert focused(page) != "manifest"
    editor.focus()
    page.keyboard.press("Control+Home")
    page.keyboard.type("#")                          # typing: from now on Tab indents
    expect(note).to_have_text("Tab indents while you type. To leave the editor: Esc, then Tab.")
    page.keyboard.press("Tab")
    assert focused(page) == "manifest"
    assert editor.input_value().startswith("#  # Seed example")
    page.keyboard.press("Escape")                    # the way out
    expect(note).to_have_text("Tab now leaves the editor.")
    page.keyboard.press("Tab")
    assert focused(page) != "manifest"
    expect(note).to_be_hidden()                      # shown while the editor has the focus


def test_a_line_link_puts_the_focus_in_the_editor_without_trapping_it(page: Page, live_server) -> None:
    page.goto(live_server.url + "/?example=web-app-pod")
    settle(page)
    text = page.locator("#manifest").input_value()
    page.locator("details.finding > summary").first.click()
    page.locator("details.finding[open] .line-link").first.click()
    assert focused(page) == "manifest"
    page.keyboard.press("Tab")                       # the focus came from a link, not from typing
    assert focused(page) != "manifest"
    expect(page.locator("#manifest")).to_have_value(text)


def test_without_javascript_tab_only_moves_on(browser, live_server) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(live_server.url + DEMO)
        text = page.locator("#manifest").input_value()
        page.locator("#manifest").focus()
        page.keyboard.press("Tab")
        assert focused(page) != "manifest"
        expect(page.locator("#manifest")).to_have_value(text)
    finally:
        context.close()


# ---- presentation mode ----------------------------------------------------------------------------------------

def test_space_plays_in_presentation_mode_whichever_button_has_the_focus(page: Page, live_server) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(live_server.url + DEMO)
    settle(page)
    section = page.locator("#result .tl-panel").first
    play = section.locator(".tl-play")
    section.locator(".tl-present-btn").click()
    expect(section).to_have_class(re.compile("tl-presenting"))
    assert focused(page) == "Close presentation (Esc)"
    page.keyboard.press("Space")                     # plays (it used to close the mode)
    expect(section).to_have_class(re.compile("tl-presenting"))
    expect(play).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Space")
    expect(play).to_have_attribute("aria-pressed", "false")
    play.focus()
    page.keyboard.press("Space")                     # on Play itself: one toggle, not two
    expect(play).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Space")
    expect(play).to_have_attribute("aria-pressed", "false")
    page.keyboard.press("Escape")
    expect(section).not_to_have_class(re.compile("tl-presenting"))


def test_the_caption_never_shows_the_badges_word(page: Page, live_server) -> None:
    page.goto(live_server.url + DEMO)
    settle(page)
    section = page.locator("#result .tl-panel").first
    caption = section.locator(".tl-present-step")
    steps = page.locator("#result .story li[data-t]")
    index = steps.evaluate_all("ls => ls.findIndex(l => l.querySelector('.assumed'))")
    assert index >= 0
    expected_start = steps.nth(index).locator(".t").inner_text()
    section.locator(".tl-present-btn").click()
    page.keyboard.press("Home")                       # the story, walked with the arrows, to a step whose
    for _ in range(index):                            # duration is assumed
        page.keyboard.press("ArrowRight")
    expect(caption).to_contain_text("(an assumed duration)")
    text = caption.inner_text()
    assert text.startswith(expected_start) and not re.search(r"\bassumed$", text.replace("(an assumed duration)", ""))
    assert "assumed (" not in text and text.count("assumed") == 1, text


def test_choosing_a_story_step_keeps_it_in_view(page: Page, live_server) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(live_server.url + "/")
    page.locator("#manifest").fill(load_manifest("seeds/lifecycle-demo"))
    page.get_by_role("button", name="Explain", exact=True).click()
    expect(page.locator("#result .pod")).to_have_count(1)
    page.locator("#what-if > summary").click() if not page.locator('input[name="delete_at"]').is_visible() else None
    page.locator('input[name="c.app.crashes"]').fill("6")          # a long story: its list scrolls
    expect(page.locator("#result .story details.folded")).to_have_count(1)
    settle(page)
    listing = page.locator("#result .story > ol")
    assert listing.evaluate("l => l.scrollHeight > l.clientHeight + 20")
    listing.evaluate("l => { l.scrollTop = l.scrollHeight; }")     # near the end of the story
    steps = page.locator("#result .story > ol > li[data-t]")
    last = steps.last
    last.get_by_role("button").click()
    expect(last).to_have_attribute("aria-current", "step")
    inside = listing.evaluate("""(l, li) => { const a = l.getBoundingClientRect(), b = li.getBoundingClientRect();
        return b.top >= a.top - 1 && b.bottom <= a.bottom + 1 && l.scrollTop > 0; }""", last.element_handle())
    assert inside                                    # it stays where it was chosen (the list used to jump to its top)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width,height", SIZES)
def test_presentation_caption_step_and_address_at_each_size(browser, live_server, width: int, height: int,
                                                            scheme: str) -> None:
    """The points above at each size, light and dark, on one page: Space plays in presentation mode, its caption
    says "(an assumed duration)" in words, a chosen story step stays in view, its time goes into the address."""
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
    try:
        page = context.new_page()
        page.goto(live_server.url + DEMO)
        settle(page)
        section = page.locator("#result .tl-panel").first
        play, caption = section.locator(".tl-play"), section.locator(".tl-present-step")
        section.locator(".tl-present-btn").click()
        expect(section).to_have_class(re.compile("tl-presenting"))
        page.keyboard.press("Space")
        expect(play).to_have_attribute("aria-pressed", "true")
        expect(section).to_have_class(re.compile("tl-presenting"))
        page.keyboard.press("Space")
        expect(play).to_have_attribute("aria-pressed", "false")
        steps = page.locator("#result .story li[data-t]")
        index = steps.evaluate_all("ls => ls.findIndex(l => l.querySelector('.assumed'))")
        page.keyboard.press("Home")
        for _ in range(index):
            page.keyboard.press("ArrowRight")
        expect(caption).to_contain_text("(an assumed duration)")
        assert caption.inner_text().count("assumed") == 1
        page.keyboard.press("Escape")
        expect(section).not_to_have_class(re.compile("tl-presenting"))
        last = page.locator("#result .story > ol > li[data-t]").last
        t = last.get_attribute("data-t")
        last.get_by_role("button").click()
        expect(last).to_have_attribute("aria-current", "step")
        expect(last).to_be_in_viewport()
        page.wait_for_url(re.compile(rf"t={float(t or 0):g}$"))
    finally:
        context.close()


# ---- the cursor's time in the address ---------------------------------------------------------------------

def test_the_cursor_time_goes_into_the_address_and_comes_back_on_load(page: Page, live_server, browser) -> None:
    page.goto(live_server.url + "/?example=web-app-pod")
    settle(page)
    slider = page.locator("#result [role=slider]").first
    page.locator("#result .story li[data-t]", has_text="The Pod is deleted").get_by_role("button").click()
    expect(slider).to_have_attribute("aria-valuenow", "60")
    page.wait_for_url(re.compile(r"#t=60$"))
    # a trainer shares "look at 60 s": the same page opened elsewhere shows the cursor there
    fresh = browser.new_context()
    try:
        other = fresh.new_page()
        other.goto(live_server.url + "/?example=web-app-pod#t=60")
        expect(other.locator("#result [role=slider]").first).to_have_attribute("aria-valuenow", "60")
        expect(other.locator("#result .tl-state").first).to_contain_text("60 s")
    finally:
        fresh.close()
    # with an input in the address the two live side by side: #i=…&t=…
    slider.focus()
    slider.press("Home")
    page.wait_for_url(re.compile(r"/(\?example=web-app-pod)?(#[^t]*)?$"))
    page.locator("#manifest").fill(load_manifest("seeds/init-example"))
    page.get_by_role("button", name="Explain", exact=True).click()
    page.wait_for_url(re.compile(r"#i=[A-Za-z0-9_-]+$"))
    slider = page.locator("#result [role=slider]").first
    slider.focus()
    slider.press("End")
    page.wait_for_url(re.compile(r"#i=[A-Za-z0-9_-]+&t=\d+"))
    end = slider.get_attribute("aria-valuenow")
    page.reload()
    expect(page.locator("#result [role=slider]").first).to_have_attribute("aria-valuenow", end)


def test_the_cursor_stays_where_it_was_when_a_what_if_redraws_the_chart(page: Page, live_server) -> None:
    page.goto(live_server.url + DEMO)
    settle(page)
    slider = page.locator("#result [role=slider]").first
    slider.focus()
    slider.press("End")
    page.wait_for_url(re.compile(r"t=30"))
    if not page.locator('input[name="delete_at"]').is_visible():
        page.locator("#what-if > summary").click()
    page.locator('input[name="delete_at"]').fill("45")             # a longer story: 30 s is inside it
    expect(page.locator("#result .story")).to_contain_text("45 s")
    slider = page.locator("#result [role=slider]").first
    expect(slider).to_have_attribute("aria-valuenow", "30")          # not back to 0
    assert float(slider.get_attribute("aria-valuemax")) > 30


# ---- zoom keeps the cursor and never cuts a label ----------------------------------------------------------

CUT_LABELS = """svg => {
    const vb = svg.viewBox.baseVal, out = [];
    const plot = svg.closest('[data-timeline]').tlInstrument.data;
    for (const t of svg.querySelectorAll('text')) {
        const s = getComputedStyle(t);
        if (!t.textContent.trim() || s.display === 'none' || s.visibility === 'hidden') continue;
        let hidden = false;
        for (let n = t.parentNode; n && n !== svg; n = n.parentNode) if (getComputedStyle(n).display === 'none') hidden = true;
        if (hidden) continue;
        const b = t.getBBox(), k = svg.getScreenCTM().inverse().multiply(t.getScreenCTM());   // text -> drawing units
        const x0 = k.a * b.x + k.e, x1 = k.a * (b.x + b.width) + k.e;
        const clipped = !!t.closest('.tl-plot');
        const lo = clipped ? plot.plotX - 6 : 0;
        if (x0 < lo - 0.5 || x1 > vb.width + 0.5) out.push([t.textContent, Math.round(x0), Math.round(x1)]);
    }
    return out;
}"""


@pytest.mark.parametrize("width,height", SIZES)
def test_zoom_keeps_the_cursor_in_view_and_cuts_no_label(page: Page, live_server, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(live_server.url + "/?example=web-app-pod")
    settle(page)
    section = page.locator("#result .tl-panel").first
    svg = section.locator(".timeline svg")
    slider = section.locator("[role=slider]")
    assert svg.evaluate(CUT_LABELS) == []
    slider.focus()
    slider.press("End")
    end = float(slider.get_attribute("aria-valuenow"))
    # zoom in with the mouse over the start: the window moves to keep the cursor (at the end) in it
    box = svg.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.8)
    page.keyboard.down("Control")
    for _ in range(4):
        page.mouse.wheel(0, -100)
    page.keyboard.up("Control")
    expect(section).to_have_class(re.compile("tl-zoomed"))
    cursor = section.locator(".tl-cursor")
    expect(cursor).to_be_visible()
    assert float(slider.get_attribute("aria-valuenow")) == end
    view = section.evaluate("s => s.tlInstrument.view")
    assert view[0] <= end <= view[1]
    for _ in range(3):                               # and at every zoom level, no label cut at an edge
        assert svg.evaluate(CUT_LABELS) == []
        slider.press("+")
        expect(cursor).to_be_visible()
    # a window dragged along the axis away from the cursor: the cursor comes into it
    slider.press("0")
    expect(section).not_to_have_class(re.compile("tl-zoomed"))
    point = """([svg, t]) => { const tl = svg.closest('[data-timeline]').tlInstrument, r = svg.getBoundingClientRect(), k = r.width / tl.width;
        return [r.left + tl.xOf(t) * k, r.top + (tl.axisYs[0] - 4) * k]; }"""
    a = page.evaluate(point, [svg.element_handle(), 1])
    b = page.evaluate(point, [svg.element_handle(), 5])
    page.mouse.move(*a)
    page.mouse.down()
    page.mouse.move(*b, steps=6)
    page.mouse.up()
    expect(section).to_have_class(re.compile("tl-zoomed"))
    now = float(slider.get_attribute("aria-valuenow"))
    view = section.evaluate("s => s.tlInstrument.view")
    assert view[0] - 1e-6 <= now <= view[1] + 1e-6 and now < end
    expect(cursor).to_be_visible()
    expect(section.locator(".tl-state")).to_contain_text(f"{now:g} s")
    assert svg.evaluate(CUT_LABELS) == []
