"""The index page as people use it (issue 10), in a real Chromium: one test or more per point."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import load_manifest
from tests.web.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
# Fetched by `make setup` with npm (like the SARIF schema); never committed.
AXE = ROOT / ".cache" / "axe-core-4.11.0.min.js"


def open_what_if(page: Page) -> None:
    if not page.locator('input[name="delete_at"]').is_visible():
        page.locator("#what-if > summary").click()


def deletion_step(page: Page):
    return page.locator("#result .story li", has_text="The Pod is deleted")


def at(t: str) -> re.Pattern[str]:
    return re.compile(rf"^\s*{t}(\.0)? s ")


def explain_text(page: Page, text: str) -> None:
    page.locator("#manifest").fill(text)
    page.get_by_role("button", name="Explain", exact=True).click()


# 1. What-if re-explains on every change, keeps focus and caret, shows "updating…" ---------------

def test_three_successive_what_if_changes_each_reach_the_result(page: Page, live_server) -> None:
    page.goto(live_server.url + "?example=lifecycle-demo")
    expect(page.locator("#result .pod")).to_have_count(1)
    open_what_if(page)
    field = page.locator('input[name="delete_at"]')
    for t in ("12", "23", "41"):
        field.click()
        field.press("Control+a")
        field.press_sequentially(t)
        expect(deletion_step(page)).to_contain_text(at(t))
        expect(page.locator('input[name="delete_at"]')).to_have_value(t)
        # focus stays in the field the person was typing in, not on <body>
        assert page.evaluate("() => document.activeElement && document.activeElement.name") == "delete_at"
    expect(page.locator("#result .pod")).to_have_count(1)


def test_typing_on_after_an_update_continues_where_the_caret_was(page: Page, live_server) -> None:
    page.goto(live_server.url + "?example=lifecycle-demo")
    open_what_if(page)
    field = page.locator('input[name="delete_at"]')
    field.click()
    field.press("Control+a")
    page.keyboard.type("1")
    expect(deletion_step(page)).to_contain_text(at("1"))
    page.keyboard.type("5")                                 # no click: the caret is still after the 1
    expect(deletion_step(page)).to_contain_text(at("15"))
    expect(page.locator('input[name="delete_at"]')).to_have_value("15")
    image = page.locator('input[name="debug_image"]')
    image.click()
    image.press("End")
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.keyboard.type("x")
    expect(page.locator("#updating")).to_be_hidden()        # the answer to "x" has been swapped in
    page.keyboard.press("ArrowLeft")
    page.keyboard.type("Y")
    expect(page.locator('input[name="debug_image"]')).to_have_value("busybox:1.36Yx")


def test_a_what_if_change_shows_an_updating_state_while_it_runs(page: Page, live_server) -> None:
    page.goto(live_server.url + "?example=lifecycle-demo")
    open_what_if(page)
    held = []
    page.route("**/", lambda route: held.append(route) if route.request.method == "POST" else route.continue_())
    page.locator('input[name="delete_at"]').fill("5")
    expect(page.locator("#updating")).to_be_visible()      # the answer is held back meanwhile
    expect(page.locator("#result")).to_have_css("opacity", "0.6")
    page.unroute("**/")
    page.locator('input[name="delete_at"]').fill("6")       # a fresh request replaces the held one
    expect(deletion_step(page)).to_contain_text(at("6"))
    expect(page.locator("#updating")).to_be_hidden()


# 2. Layout: panes side by side on wide screens; one column with no sideways scroll on phones -----

@pytest.mark.parametrize("width", [360, 390])
def test_phone_widths_have_no_sideways_page_scrolling(page: Page, live_server, width: int, shot) -> None:
    page.set_viewport_size({"width": width, "height": 800})
    for url in ("", "?example=lifecycle-demo", "?example=web-app-pod"):
        page.goto(live_server.url + url)
        open_what_if(page)
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, (url, overflow)
    # the editor scrolls inside itself: a very long line does not widen the page
    explain_text(page, load_manifest("seeds/lifecycle-demo").replace("name: app", "name: app  # " + "x" * 400))
    expect(page.locator("#result .pod")).to_have_count(1)
    assert page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0
    shot(page, f"{width}")


def test_wide_screens_show_the_what_if_controls_and_the_timeline_together(page: Page, live_server) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(live_server.url + "?example=lifecycle-demo")
    open_what_if(page)
    field = page.locator('input[name="delete_at"]')
    field.scroll_into_view_if_needed()
    timeline = page.locator("#result .timeline svg")
    height = 900
    for box in (field.bounding_box(), timeline.bounding_box()):
        assert box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 40) <= height, box
    # each pane scrolls on its own: the page itself does not move to reach the controls
    assert page.evaluate("() => window.scrollY") == 0


# 3. Nothing lost -----------------------------------------------------------------------------

def test_a_reload_keeps_the_editor_the_version_and_the_what_if_values(page: Page, live_server) -> None:
    page.goto(live_server.url)
    page.locator("#manifest").fill(load_manifest("seeds/native-sidecar-example"))
    page.locator("#id_version").select_option("1.31")
    page.get_by_role("button", name="Explain", exact=True).click()
    expect(page.locator("#result .pod")).to_have_count(1)
    open_what_if(page)
    page.locator('input[name="delete_at"]').fill("7")
    expect(deletion_step(page)).to_contain_text(at("7"))
    text = page.locator("#manifest").input_value()
    page.reload()
    expect(page.locator("#manifest")).to_have_value(text)
    expect(page.locator("#id_version")).to_have_value("1.31")
    expect(page.locator("#result .pod")).to_have_count(1)
    expect(page.locator('input[name="delete_at"]')).to_have_value("7")
    expect(deletion_step(page)).to_contain_text(at("7"))


def test_the_address_carries_the_input_and_opens_it_elsewhere(page: Page, live_server, browser) -> None:
    page.goto(live_server.url)
    explain_text(page, load_manifest("seeds/init-example"))
    expect(page.locator("#result .pod")).to_have_count(1)
    page.wait_for_url(re.compile(r"#i=[A-Za-z0-9_-]+$"))
    url = page.url
    fresh = browser.new_context()        # no localStorage: only the address
    try:
        other = fresh.new_page()
        other.goto(url)
        expect(other.locator("#manifest")).to_have_value(load_manifest("seeds/init-example"))
        expect(other.locator("#result .pod")).to_have_count(1)
        other.goto(live_server.url + "/#i=not-deflate")
        expect(other.locator("#page-alert")).to_contain_text("could not be read")
    finally:
        fresh.close()


def test_an_input_too_large_for_the_address_says_so(page: Page, live_server) -> None:
    page.goto(live_server.url)
    noise = random.Random(10).randbytes(24_000).hex()      # does not compress below the limit
    big = load_manifest("seeds/init-example") + "".join(f"# {noise[i:i + 96]}\n" for i in range(0, len(noise), 96))
    explain_text(page, big)
    expect(page.locator("#result .pod")).to_have_count(1)
    expect(page.locator("#link-note")).to_contain_text("too large to keep in the address")
    assert "#i=" not in page.url


def test_back_and_forward_walk_through_explained_inputs(page: Page, live_server) -> None:
    page.goto(live_server.url)
    first, second = load_manifest("seeds/init-example"), load_manifest("seeds/native-sidecar-example")
    explain_text(page, first)
    page.wait_for_url(re.compile("#i="))
    url_first = page.url
    explain_text(page, second)
    page.wait_for_function("u => location.href !== u", arg=url_first)
    page.go_back()
    expect(page.locator("#manifest")).to_have_value(first)
    expect(page.locator("#result .pod h2")).to_contain_text("init-example")
    page.go_forward()
    expect(page.locator("#manifest")).to_have_value(second)


def test_an_example_over_edited_text_offers_undo(page: Page, live_server) -> None:
    page.goto(live_server.url)
    mine = "# my own work\n" + load_manifest("seeds/init-example")
    page.locator("#manifest").fill(mine)
    page.locator('a[data-example="web-app-pod"]').click()
    expect(page.locator("#manifest")).to_have_value(re.compile("web-app"))
    note = page.locator("#restore-note")
    expect(note).to_contain_text("The example replaced your text")
    note.get_by_role("button", name="Undo").click()
    expect(page.locator("#manifest")).to_have_value(mine)
    expect(page.locator("#result .pod")).to_have_count(1)
    # the undo is an explanation of its own, in the history once its address is written (asynchronous:
    # waiting for it keeps Back from racing the write): Back shows the example again, Forward the text
    expect(page.locator("#result .pod h2")).to_contain_text("init-example")
    page.wait_for_function("() => history.state && history.state.input && history.state.input.m.startsWith('# my own work')")
    page.go_back()
    expect(page.locator("#manifest")).to_have_value(re.compile("web-app"))
    page.go_forward()
    expect(page.locator("#manifest")).to_have_value(mine)


# 4. Failures are visible ------------------------------------------------------------------------

def test_an_aborted_request_shows_an_alert(page: Page, live_server) -> None:
    page.goto(live_server.url + "?example=lifecycle-demo")
    page.route("**/", lambda route: route.abort() if route.request.method == "POST" else route.continue_())
    page.get_by_role("button", name="Explain", exact=True).click()
    alert = page.locator("#page-alert[role=alert]")
    expect(alert).to_be_visible()
    expect(alert).to_contain_text("could not be reached")
    page.unroute("**/")
    page.get_by_role("button", name="Explain", exact=True).click()
    expect(alert).to_be_hidden()


def test_a_413_names_the_limit_and_how_to_raise_it(page: Page, live_server, settings) -> None:
    settings.MAX_REQUEST_BYTES = 3000
    page.goto(live_server.url)
    explain_text(page, load_manifest("seeds/init-example") + "#" * 4000 + "\n")
    alert = page.locator("#page-alert")
    expect(alert).to_contain_text("at most 2.9")
    expect(alert).to_contain_text("EXPLAINER_MAX_REQUEST_BYTES")


def test_a_real_429_from_the_share_button_says_when_to_retry(page: Page, live_server, settings) -> None:
    settings.SHARE_RATE_LIMIT = 1
    page.goto(live_server.url + "?example=lifecycle-demo")
    page.locator("#share-button").click()
    expect(page.locator("#share-url")).to_be_visible()
    page.locator("#manifest").press("End")
    page.locator("#manifest").type("\n# another")
    page.locator("#share-button").click()
    expect(page.locator("#page-alert[role=alert]")).to_contain_text("Too many requests from your address")


@pytest.mark.parametrize("status, says", [(429, "try again in 42 s"), (500, "HTTP 500"), (400, "HTTP 400")])
def test_error_answers_show_a_message(page: Page, live_server, status: int, says: str) -> None:
    page.goto(live_server.url + "?example=lifecycle-demo")
    page.route("**/", lambda route: route.fulfill(status=status, body="no", headers={"Retry-After": "42"})
               if route.request.method == "POST" else route.continue_())
    page.get_by_role("button", name="Explain", exact=True).click()
    expect(page.locator("#page-alert")).to_contain_text(says)


# An edit explains itself at the next pause, or marks the result out of date when that is switched off:
# tests/web/test_browser_source.py (issue 25).


# 5. Accessibility: axe-core on the pages, keyboard ---------------------------------------------------

def axe_violations(page: Page) -> list[dict]:
    if not AXE.exists():
        pytest.fail(f"{AXE.relative_to(ROOT)} is missing: run `make setup` (it fetches axe-core with npm)")
    page.evaluate(AXE.read_text(encoding="utf-8"))   # evaluated by the driver: no inline script for the CSP
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [{"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violation_on_the_index_and_an_explained_example(page: Page, live_server, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)
    page.goto(live_server.url)
    assert axe_violations(page) == []
    page.goto(live_server.url + "?example=lifecycle-demo")
    open_what_if(page)
    page.locator("details.events > summary").first.click()
    assert axe_violations(page) == []


def test_a_fix_too_wide_for_a_phone_can_be_scrolled_from_the_keyboard(page: Page, live_server) -> None:
    """At 390 px a fix's code block scrolls sideways: it takes the focus (axe: scrollable-region-focusable)."""
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(live_server.url + "?example=web-app-pod")
    page.locator("details.finding > summary").first.click()
    code = page.locator("details.finding[open] pre").first
    assert code.evaluate("e => e.scrollWidth > e.clientWidth") and code.get_attribute("tabindex") == "0"
    assert axe_violations(page) == []


def test_axe_finds_no_serious_violation_on_permalink_compare_and_rules(page: Page, live_server) -> None:
    from explainer.web.models import Permalink
    left, _ = Permalink.store(load_manifest("seeds/lifecycle-demo"), None, "1.34")
    right, _ = Permalink.store(load_manifest("seeds/lifecycle-demo"), {"deleteAt": 20}, "1.34")
    for path in (f"/p/{left.id}/", f"/compare/?left={left.id}&right={right.id}", "/compare/", "/rules/"):
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.goto(live_server.url + path)
            assert axe_violations(page) == [], (path, scheme)


def test_tab_indents_in_the_editor_and_escape_then_tab_leaves(page: Page, live_server) -> None:
    page.goto(live_server.url)
    editor = page.locator("#manifest")
    editor.fill("spec:\ncontainers:")
    editor.press("End")
    page.keyboard.press("Home")
    page.keyboard.press("Tab")
    expect(editor).to_have_value("spec:\n  containers:")
    assert page.evaluate("() => document.activeElement.id") == "manifest"
    page.keyboard.press("Shift+Tab")
    expect(editor).to_have_value("spec:\ncontainers:")
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") != "manifest"
    expect(editor).to_have_value("spec:\ncontainers:")


def test_every_control_is_reachable_by_keyboard_with_a_visible_focus(page: Page, live_server) -> None:
    page.goto(live_server.url + "?example=lifecycle-demo")
    open_what_if(page)
    page.evaluate("() => document.activeElement.blur()")
    seen: list[str] = []
    for _ in range(120):
        page.keyboard.press("Tab")
        info = page.evaluate("""() => { const e = document.activeElement; if (e.id === 'manifest') return 'editor';
            if (e === document.body) return null;
            const s = getComputedStyle(e); return {key: e.id || e.name || e.textContent.trim().slice(0, 30),
            outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0}; }""")
        if info == "editor":                   # Tab indents in the editor: Esc lets the next Tab leave
            page.keyboard.press("Escape")
            continue
        if info is None or info["key"] in seen[:1]:   # past the last control
            break
        assert info["outline"], info
        seen.append(info["key"])
    for key in ("explain", "share-button", "delete_at", "id_version", "debug_target", "language"):
        assert key in seen, (key, seen)


def test_the_gutter_follows_the_editor_when_it_is_resized(page: Page, live_server) -> None:
    page.goto(live_server.url)
    page.locator("#manifest").fill(load_manifest("seeds/lifecycle-demo"))
    for height in (200, 640):
        page.evaluate("h => { document.getElementById('manifest').style.height = h + 'px'; }", height)
        heights = page.evaluate("() => [document.getElementById('manifest').getBoundingClientRect().height,"
                                " document.getElementById('gutter').getBoundingClientRect().height]")
        assert abs(heights[0] - heights[1]) <= 2, heights


# 6. Broken YAML: the likely cause, the misplaced keys with their lines, gutter markers, "did you mean" --

def test_lost_indentation_names_the_cause_and_the_misplaced_keys_and_marks_the_gutter(page: Page, live_server, shot) -> None:
    page.goto(live_server.url)
    explain_text(page, load_manifest("invalid/seed_no_indentation"))
    panel = page.locator(".error-panel")
    expect(panel).to_contain_text("The indentation looks lost")
    for key, line in (("name", 5), ("containers", 7), ("image", 9), ("command", 10)):
        expect(panel.locator("li", has_text=f"{key} is at the top level")).to_contain_text(f"line {line}")
    marked = page.locator("#gutter .err").all_inner_texts()
    assert marked == ["5", "7", "9", "10"]
    shot(page, "lost-indentation")
    explain_text(page, load_manifest("seeds/init-example"))          # fixed: the markers go
    expect(page.locator("#result .pod")).to_have_count(1)
    expect(page.locator("#gutter .err")).to_have_count(0)


def test_an_unknown_field_gets_did_you_mean(page: Page, live_server) -> None:
    page.goto(live_server.url)
    explain_text(page, load_manifest("seeds/init-example").replace("image:", "imagee:", 1))
    expect(page.locator("#result")).to_contain_text('did you mean "image"?')


# 7. Repetition: grouped findings with a severity filter; folded crash loops ------------------------

def many_containers(n: int) -> str:
    containers = "".join(f"  - name: c{i}\n    image: busybox:1.36\n    command: ['sleep', 'infinity']\n"
                         for i in range(n))
    return f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: wide\nspec:\n  containers:\n{containers}"


def test_findings_group_over_containers_and_filter_by_severity(page: Page, live_server) -> None:
    page.goto(live_server.url)
    explain_text(page, many_containers(30))
    findings = page.locator("#result .findings")
    group = findings.locator("details.finding", has_text="No resource requests")
    expect(group).to_have_count(1)
    expect(group).to_contain_text("30 containers")
    group.locator("summary").click()
    expect(group.locator(".group-members li")).to_have_count(30)
    assert findings.locator("details.finding").count() < 10
    severities = findings.locator(".severity-filter input")
    if severities.count() > 1:
        info = findings.locator('.severity-filter input[value="info"]')
        info.uncheck()
        expect(findings.locator("details.finding.sev-info").first).to_be_hidden()
        info.check()
        expect(findings.locator("details.finding.sev-info").first).to_be_visible()


def test_a_long_crash_loop_is_folded_with_a_control_to_expand(page: Page, live_server) -> None:
    page.goto(live_server.url)
    explain_text(page, load_manifest("seeds/lifecycle-demo"))
    expect(page.locator("#result .pod")).to_have_count(1)
    open_what_if(page)
    page.locator('input[name="c.app.crashes"]').fill("8")
    story = page.locator("#result .story")
    folded = story.locator("details.folded")
    expect(folded).to_have_count(1)
    expect(folded.locator("summary")).to_contain_text(re.compile(r"app exits and is restarted \d+ more times, "
                                                                 r"back-off \d+ s → \d+ s"))
    inner = folded.locator("ol li")
    expect(inner.first).to_be_hidden()
    folded.locator("summary").click()
    expect(inner.first).to_be_visible()


# 8. The smaller things -----------------------------------------------------------------------------

def test_the_events_table_names_events_in_words_in_both_languages(page: Page, live_server) -> None:
    page.goto(live_server.url + "?example=lifecycle-demo")
    page.locator("details.events > summary").first.click()
    table = page.locator("details.events table").first
    expect(table).to_contain_text("Sandbox ready")
    expect(table).not_to_contain_text("sandbox_ready")
    page.locator("#language").select_option("zh-hans")
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    page.locator("details.events > summary").first.click()
    expect(page.locator("details.events table").first).not_to_contain_text("Sandbox ready")


def test_the_credential_warning_shows_the_redaction_word(page: Page, live_server) -> None:
    page.goto(live_server.url)
    page.locator("#manifest").fill(load_manifest("pods/secret_env"))
    page.locator("#share-button").click()
    expect(page.locator(".secret-warning")).to_contain_text("replaced by <redacted>?")


def test_the_favicon_is_served(page: Page, live_server) -> None:
    response = page.goto(live_server.url + "/favicon.ico")
    assert response is not None and response.ok
    assert response.headers["content-type"].startswith("image/svg+xml")


def test_without_javascript_the_page_still_explains(browser, live_server) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(live_server.url)
        page.locator("#manifest").fill(load_manifest("seeds/init-example"))
        page.get_by_role("button", name="Explain", exact=True).click()
        expect(page.locator("#result .pod")).to_have_count(1)
        expect(page.locator("#stale-note")).to_be_hidden()
        assert page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0
        open_what_if(page)
        page.locator('input[name="delete_at"]').fill("9")
        page.get_by_role("button", name="Explain", exact=True).click()
        expect(deletion_step(page)).to_contain_text(at("9"))
    finally:
        context.close()


def test_the_compare_page_has_one_form_and_lands_on_the_comparisons_address(page: Page, live_server) -> None:
    from explainer.web.models import Permalink
    left, _ = Permalink.store(load_manifest("seeds/lifecycle-demo"), None, "1.34")
    right, _ = Permalink.store(load_manifest("seeds/lifecycle-demo"), {"deleteAt": 20}, "1.34")
    page.goto(live_server.url + "/compare/")
    expect(page.get_by_role("button", name="Compare", exact=True)).to_have_count(1)
    expect(page.get_by_label("Before (permalink id or URL)")).to_have_count(1)
    page.get_by_label("Before (permalink id or URL)").fill(f"{live_server.url}/p/{left.id}/")
    page.get_by_label("After (permalink id or URL)").fill(right.id)
    page.get_by_role("button", name="Compare", exact=True).click()
    page.wait_for_url(re.compile(rf"/compare/\?left={left.id}&right={right.id}$"))
    expect(page.locator(".compare-timelines svg")).to_have_count(2)
    page.reload()                                        # a GET: nothing is posted again
    expect(page.locator(".compare-timelines svg")).to_have_count(2)
    # the "after" pasted instead: stored, then the comparison's permalink
    page.goto(live_server.url + f"/compare/?left={left.id}")
    page.locator("#manifest").fill(load_manifest("seeds/init-example"))
    page.get_by_role("button", name="Compare", exact=True).click()
    page.wait_for_url(re.compile(r"/c/[A-Za-z0-9_-]{12}/$"))
    expect(page.locator("#compare-token")).to_be_visible()
    page.reload()
    expect(page.locator("#compare-token")).to_have_count(0)


def test_on_a_phone_explain_brings_the_result_into_view(page: Page, live_server) -> None:
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(live_server.url)
    explain_text(page, load_manifest("seeds/init-example"))
    expect(page.locator("#result .pod")).to_have_count(1)
    page.wait_for_function("() => Math.abs(document.getElementById('result').getBoundingClientRect().top) < 80")


def test_text_only_typed_comes_back_after_a_reload_without_being_sent(page: Page, live_server) -> None:
    page.goto(live_server.url)
    page.locator("#manifest").fill("apiVersion: v1\nkind: Pod\n# not explained yet\n")
    page.wait_for_timeout(100)
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.reload()
    expect(page.locator("#manifest")).to_have_value("apiVersion: v1\nkind: Pod\n# not explained yet\n")
    expect(page.locator("#restore-note")).to_contain_text("restored")
    page.wait_for_timeout(2000)                     # past explain-as-you-type's pause (app.js AUTO_DELAY, 700 ms)
    assert posts == []
    expect(page.locator("#result .pod, #result .error-panel")).to_have_count(0)


# 9. Charts a class can read (issue 25): the text of the timeline, the rollout and the diagram at 12 px or more
#    on a projector and a laptop, 11 px or more on a phone, with and without JavaScript, light and dark ------

SIZES = [(1280, 720), (1440, 900), (390, 844), (360, 740)]
READABLE = {1280: 12.0, 1440: 12.0, 390: 11.0, 360: 11.0}      # the smallest text each size must show, CSS px

# Each visible chart's texts: the font size the browser computed, times the chart's scale on screen. The scale is
# measured twice, from the SVG's transformation to the screen (getScreenCTM) and from a text's box on screen
# against its box in the drawing (getBoundingClientRect vs getBBox): they must agree.
TEXT_SIZES = """sel => {
    const out = [];
    for (const svg of document.querySelectorAll(sel)) {
        const r = svg.getBoundingClientRect();
        if (!r.width || !r.height || svg.closest('[hidden]')) continue;
        const sizes = [], disagree = [];
        for (const t of svg.querySelectorAll('text')) {
            if (!t.textContent.trim()) continue;
            const s = getComputedStyle(t), box = t.getBoundingClientRect();
            if (s.display === 'none' || s.visibility === 'hidden' || !box.width) continue;
            const m = t.getScreenCTM(), ctm = Math.hypot(m.a, m.b);
            const bb = t.getBBox(), measured = bb.height ? box.height / bb.height : ctm;
            if (Math.abs(measured - ctm) > 0.02 * ctm) disagree.push(t.textContent);
            sizes.push(parseFloat(s.fontSize) * measured);
        }
        sizes.sort((a, b) => a - b);
        if (sizes.length) out.push({min: sizes[0], median: sizes[sizes.length >> 1], n: sizes.length,
                                    width: r.width, disagree: disagree.slice(0, 3)});
    }
    return out;
}"""
CHARTS = {"timeline": "article.pod > .tl-panel .timeline svg, section.tl-panel:not(.rollout) .timeline svg",
          "rollout": ".rollout .timeline svg", "diagram": ".diagram svg"}


def chart_text_sizes(page: Page) -> dict[str, dict]:
    """The smallest (and median) text of each kind of chart on the page, over every visible one."""
    out = {}
    for name, sel in CHARTS.items():
        found = page.evaluate(TEXT_SIZES, sel)
        for f in found:
            assert not f["disagree"], (name, f)          # the two measures of the scale agree
        if found:
            out[name] = {"min": min(f["min"] for f in found), "median": min(f["median"] for f in found),
                         "n": sum(f["n"] for f in found)}
    return out


def settle(page: Page) -> None:
    """With scripts, each chart is laid out for its panel once the page has measured it (static/js/layout.js)."""
    if page.evaluate("() => !!document.querySelector('.tl-live')"):
        expect(page.locator("html")).to_have_attribute("data-charts", "fitted", timeout=20_000)   # a busy machine


def test_the_charts_text_sizes_at_each_size_light_and_dark_with_and_without_javascript(browser, live_server) -> None:
    """The figures of issue 25, printed: the smallest text of the timeline, the rollout picture and the sharing
    diagram at 1280×720 and 1440×900 (12 px or more) and on two phones (11 px or more), with and without
    JavaScript, light and dark; and nowhere does the page scroll sideways."""
    rows, failures = [], []
    for (width, height) in SIZES:
        for js in (True, False):
            for scheme in ("light", "dark"):
                context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme,
                                              java_script_enabled=js)
                try:
                    page = context.new_page()
                    for example in ("lifecycle-demo", "rollout-surge-vs-unavailable"):
                        page.goto(f"{live_server.url}/?example={example}")
                        settle(page)
                        sizes = chart_text_sizes(page)
                        overflow = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
                        label = f"{width}×{height} {scheme:5} {'JS' if js else 'no JS':5} {example:30}"
                        rows.append(label + "  " + "  ".join(f"{k} {v['min']:.1f} px (median {v['median']:.1f})"
                                                             for k, v in sizes.items()))
                        wanted = {"timeline", "diagram"} | ({"rollout"} if example.startswith("rollout") else set())
                        if set(sizes) < wanted:
                            failures.append((label, "missing", wanted - set(sizes)))
                        failures += [(label, k, round(v["min"], 2)) for k, v in sizes.items()
                                     if v["min"] < READABLE[width]]
                        if overflow > 0:
                            failures.append((label, "page scrolls sideways", overflow))
                        if scheme == "dark" and example == "lifecycle-demo":
                            ARTIFACTS.mkdir(exist_ok=True)
                            page.screenshot(path=str(ARTIFACTS / f"text-sizes-{width}-{'js' if js else 'nojs'}.png"))
                finally:
                    context.close()
    table = "\n".join(["Smallest text of each chart, CSS px (issue 25):"] + rows)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "text-sizes.txt").write_text(table + "\n", encoding="utf-8")
    print("\n" + table)
    assert not failures, failures


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width,height", SIZES)
def test_axe_finds_no_serious_violation_in_the_pages_new_states(browser, live_server, width: int, height: int,
                                                                 scheme: str) -> None:
    """Issue 25's states: a chart laid out for the panel (names above the lanes on a phone), the splitter,
    "Result only", lines marked from the picture, the last good picture kept under a text's problems; and the
    page as it is without JavaScript (the phone's drawing from its <noscript>)."""
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/?example=web-app-pod")
        settle(page)
        page.locator("details.events > summary").first.click()
        assert axe_violations(page) == [], "example"
        page.locator("#result .tl-lane-label text").first.hover()              # lines marked in the editor
        page.locator("#manifest").click()
        page.keyboard.press("Control+End")
        page.keyboard.type("\nspec: [")                                          # the text stops explaining
        expect(page.locator("#draft-problems .error-panel")).to_be_visible()
        assert axe_violations(page) == [], "kept"
        page.get_by_text("Result only").click()
        expect(page.locator("#input-pane")).to_be_hidden()
        assert axe_violations(page) == [], "result only"
        # without JavaScript (axe needs scripts to run): the page as such a browser builds it, its <noscript>
        # drawing in place, checked in a page that runs nothing of its own
        still = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme,
                                    java_script_enabled=False)
        try:
            plain = still.new_page()
            plain.goto(live_server.url + "/?example=web-app-pod")
            html = re.sub(r"<script\b[^>]*>.*?</script>", "", plain.content(), flags=re.S)
            html = html.replace("<noscript>", '<div class="noscript">').replace("</noscript>", "</div>")
        finally:
            still.close()
        page.set_content(html)
        expect(page.locator(".timeline-narrow svg")).to_have_count(1)             # the phone's drawing, in place
        assert axe_violations(page) == [], "no JavaScript"
    finally:
        context.close()
