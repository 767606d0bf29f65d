"""Source ↔ picture (issue 25, section 3), in a real Chromium: a lane, a story step or a pitfall marks its
lines in the editor; a click in the editor selects its container in the timeline and the diagram; and the
page explains as you type, debounced, keeping the last good picture while the text does not explain."""
from __future__ import annotations

import re
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import load_manifest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(1280, 720), (1440, 900), (390, 844), (360, 740)]


def settle(page: Page) -> None:
    expect(page.locator("html")).to_have_attribute("data-charts", "fitted", timeout=20_000)


def marked_lines(page: Page) -> list[list[int]]:
    """The editor's marked lines, read from the bands' places (first and last line of each)."""
    return page.evaluate("""() => {
        const area = document.getElementById('manifest'), s = getComputedStyle(area);
        const lh = parseFloat(s.lineHeight), top = area.offsetTop + parseFloat(s.paddingTop) - area.scrollTop;
        return [...document.querySelectorAll('#editor-marks .editor-mark')].map(b => {
            const first = Math.round((parseFloat(b.style.top) - top) / lh) + 1;
            return [first, first + Math.round(parseFloat(b.style.height) / lh) - 1];
        });
    }""")


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), 1) if needle in line)


def band_in_view(page: Page) -> bool:
    return page.evaluate("""() => { const b = document.querySelector('#editor-marks .editor-mark');
        const e = document.querySelector('.editor').getBoundingClientRect(), r = b.getBoundingClientRect();
        return r.bottom > e.top && r.top < e.bottom; }""")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width,height", SIZES)
def test_a_lane_a_step_and_a_pitfall_mark_their_lines_in_the_editor(browser, live_server, width: int, height: int,
                                                                     scheme: str, shot) -> None:
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/?example=web-app-pod")
        settle(page)
        text = page.locator("#manifest").input_value()
        app = line_of(text, "- name: app")
        # a lane: hovering its name, then focusing one of its bars (the keyboard's way)
        label = page.locator("#result .tl-lane-label", has=page.locator("text", has_text=re.compile(r"^app$"))).first
        label.scroll_into_view_if_needed()
        label.locator("text").first.hover()
        expect(page.locator("#editor-marks .editor-mark")).to_have_count(1)
        first, last = marked_lines(page)[0]
        assert first == app and last > app + 3          # the container's whole block: name, image, probes…
        assert all(line.startswith("      ") or not line.strip() or line.lstrip().startswith("#")
                   for line in text.split("\n")[first:last]), text.split("\n")[first - 1:last]
        assert band_in_view(page)
        if width > 700:
            shot(page, f"lane-{width}-{scheme}")
        page.mouse.move(0, 0)
        expect(page.locator("#editor-marks .editor-mark")).to_have_count(0)
        lane = label.evaluate("g => g.getAttribute('data-lane')")
        page.locator(f'#result .tl-bar-g[data-lane="{lane}"]').first.focus()
        expect(page.locator("#editor-marks .editor-mark")).to_have_count(1)
        assert marked_lines(page)[0][0] == app
        assert page.evaluate("() => document.activeElement.classList.contains('tl-bar-g')")   # the focus stays
        # a story step of that container
        step = page.locator("#result .story li[data-container='app']").first
        step.get_by_role("button").focus()
        expect(page.locator("#editor-marks .editor-mark")).to_have_count(1)
        assert marked_lines(page)[0][0] == app
        # a pitfall: its field's line
        finding = page.locator("#result details.finding:has(.line-link)").first
        line = int(finding.locator(".line-link").first.get_attribute("data-line"))
        finding.locator("summary").hover()
        expect(page.locator("#editor-marks .editor-mark")).to_have_count(1)
        assert marked_lines(page)[0][0] == line
        assert band_in_view(page)
    finally:
        context.close()


@pytest.mark.parametrize("width,height", SIZES)
def test_a_click_in_the_editor_selects_its_container_in_the_timeline_and_the_diagram(
        page: Page, live_server, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(live_server.url + "/?example=lifecycle-demo")
    settle(page)
    text = page.locator("#manifest").input_value()
    names = page.evaluate("() => document.querySelector('#result [data-timeline]').tlInstrument.data.lanes.map(l => l.name)")
    for name in ("helper", "app"):
        line = line_of(text, f"- name: {name}") + 1                  # a line inside its block (its image)
        page.evaluate("""n => { const a = document.getElementById('manifest'); const lines = a.value.split('\\n');
            let at = 0; for (let i = 0; i < n - 1; i++) at += lines[i].length + 1;
            a.focus(); a.setSelectionRange(at + 4, at + 4);
            a.dispatchEvent(new MouseEvent('click', {bubbles: true})); }""", line)
        lane = names.index(name)
        selected = page.locator("#result .tl-lane-label.tl-sel")
        expect(selected).to_have_count(1)
        expect(selected).to_have_attribute("data-lane", str(lane))
        assert page.locator(f"#result .tl-bar-g.tl-sel:not([data-lane='{lane}'])").count() == 0
        assert page.locator(f"#result .tl-bar-g.tl-sel[data-lane='{lane}']").count() >= 1
        expect(page.locator(f"#result .diagram svg .ctr-{lane}.tl-sel").first).to_be_attached()
        assert page.locator("#result .diagram svg .tl-sel").evaluate_all(
            "ns => ns.every(n => n.classList.contains('ctr-' + arguments[0]))".replace("arguments[0]", str(lane)))
    page.evaluate("""() => { const a = document.getElementById('manifest'); a.setSelectionRange(0, 0);
        a.dispatchEvent(new MouseEvent('click', {bubbles: true})); }""")            # line 1: no container
    expect(page.locator("#result .tl-sel")).to_have_count(0)
    expect(page.locator("#result .diagram svg .tl-sel")).to_have_count(0)


def test_a_real_click_on_an_editor_line_selects_the_container(page: Page, live_server) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(live_server.url + "/?example=lifecycle-demo")
    settle(page)
    editor = page.locator("#manifest")
    text = editor.input_value()
    line = line_of(text, "- name: prepare")
    box = editor.bounding_box()
    lh = editor.evaluate("a => parseFloat(getComputedStyle(a).lineHeight)")
    pad = editor.evaluate("a => parseFloat(getComputedStyle(a).paddingTop)")
    page.mouse.click(box["x"] + 60, box["y"] + pad + (line - 0.5) * lh)
    selected = page.locator("#result .tl-lane-label.tl-sel")
    expect(selected).to_have_count(1)
    expect(selected).to_contain_text("prepare")


# ---- explain as you type -------------------------------------------------------------------------------

def posts_of(page: Page, times: list[float] | None = None) -> list[str]:
    import time

    posts: list[str] = []

    def seen(r) -> None:
        if r.method == "POST":
            posts.append(r.post_data or "")
            if times is not None:
                times.append(time.monotonic())
    page.on("request", seen)
    return posts


@pytest.mark.parametrize("width,height", SIZES)
def test_typing_explains_at_a_pause_without_flooding_the_server(page: Page, live_server, width: int,
                                                                 height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(live_server.url + "/?example=lifecycle-demo")
    settle(page)
    times: list[float] = []
    posts = posts_of(page, times)
    editor = page.locator("#manifest")
    editor.click()                                   # (on a phone the example opened at its result)
    page.keyboard.press("Control+End")
    scroll_before = page.evaluate("() => window.scrollY")
    sentence = "\n# a note typed at a steady pace, one key every 60 ms"
    page.keyboard.type(sentence, delay=60)
    expect(page.locator("#result .pod")).to_have_count(1)
    page.wait_for_timeout(1800)                      # the pause: its request carries the whole sentence
    # one request for the sentence (a loaded machine may stall the keys long enough for one more on the way),
    # never one a key, and never two within a second
    assert 1 <= len(posts) <= 2, len(posts)
    assert all(b - a >= 0.95 for a, b in zip(times, times[1:])), times
    assert sentence in parse_qs(posts[-1])["manifest"][0]
    expect(page.locator("#stale-note")).to_be_hidden()
    expect(page.locator("#result")).not_to_have_class(re.compile("stale"))
    assert page.evaluate("() => document.activeElement.id") == "manifest"       # still typing where it was
    if width <= 700:
        assert abs(page.evaluate("() => window.scrollY") - scroll_before) < 400  # not carried off to the result
    # the address follows (replaced, not pushed: typing is not a history of its own)
    page.wait_for_url(re.compile(r"#i="))


def test_an_incomplete_text_keeps_the_last_good_picture_marked_with_its_problems(page: Page, live_server) -> None:
    page.goto(live_server.url + "/?example=lifecycle-demo")
    settle(page)
    editor = page.locator("#manifest")
    text = editor.input_value()
    line = line_of(text, "name: lifecycle-demo")
    editor.click()
    page.keyboard.press("Control+Home")
    for _ in range(line - 1):
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Home")
    for _ in range(len("  name: ")):
        page.keyboard.press("ArrowRight")
    page.keyboard.type('"')                             # a quote opened, not yet closed: the YAML does not parse
    draft = page.locator("#draft-problems")
    expect(draft.locator(".error-panel")).to_be_visible()
    expect(page.locator("#result .pod")).to_have_count(1)    # the last good picture stays
    expect(page.locator("#result .timeline svg").first).to_be_visible()
    expect(page.locator("#result")).to_have_class(re.compile("stale"))
    note = page.locator("#stale-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("the picture below is of the last version that did")
    expect(page.locator("#gutter .err")).not_to_have_count(0)   # the problem's line marked in the editor
    page.keyboard.press("End")
    page.keyboard.type('"')                              # closed: the picture follows, the marks go
    expect(draft).to_be_hidden()
    expect(note).to_be_hidden()
    expect(page.locator("#result")).not_to_have_class(re.compile("stale"))
    expect(page.locator("#result .pod")).to_have_count(1)


def test_explain_still_shows_the_problems_in_full(page: Page, live_server) -> None:
    page.goto(live_server.url + "/?example=lifecycle-demo")
    settle(page)
    page.locator("#manifest").fill("apiVersion: v1\nkind: Pod\nmetadata: [")
    page.get_by_role("button", name="Explain", exact=True).click()
    expect(page.locator("#result .error-panel")).to_be_visible()
    expect(page.locator("#result .pod")).to_have_count(0)


def test_switched_off_an_edit_marks_the_result_out_of_date(page: Page, live_server) -> None:
    page.goto(live_server.url + "/?example=lifecycle-demo")
    settle(page)
    page.get_by_label("Explain as you type").uncheck()
    posts = posts_of(page)
    page.locator("#manifest").press("End")
    page.locator("#manifest").type("\n# changed")
    note = page.locator("#stale-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Out of date")
    page.wait_for_timeout(1500)
    assert posts == []
    note.get_by_role("button", name="Explain again").click()
    expect(note).to_be_hidden()
    expect(page.locator("#result")).not_to_have_class(re.compile("stale"))
    page.reload()                                        # the choice is kept in this browser
    expect(page.get_by_label("Explain as you type")).not_to_be_checked()


def test_a_429_pauses_typing_requests_until_the_server_says(page: Page, live_server) -> None:
    page.goto(live_server.url + "/?example=lifecycle-demo")
    settle(page)
    posts = posts_of(page)
    page.route("**/", lambda route: route.fulfill(status=429, body="slow down", headers={"Retry-After": "30"})
               if route.request.method == "POST" else route.continue_())
    editor = page.locator("#manifest")
    editor.press("End")
    editor.type("\n# one")
    expect(page.locator("#page-alert")).to_contain_text("try again in 30 s")
    assert len(posts) == 1
    editor.type("\n# two")
    page.wait_for_timeout(2000)
    assert len(posts) == 1                               # nothing more until Retry-After has passed
