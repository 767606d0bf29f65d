"""Apply fix and Undo in a real browser: the server patches, the editor's text changes and is
explained again; Undo restores the text and its findings."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import load_manifest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _finding(page: Page, rule: str):
    return page.locator("#result details.finding").filter(has=page.locator(".rule-id", has_text=rule))


def test_apply_fix_changes_the_editor_and_undo_restores_it(page: Page, live_server, shot) -> None:
    original = load_manifest("findings/liveness-without-startup-probe/fires")
    page.goto(live_server.url)
    page.locator("#manifest").fill(original)
    page.get_by_role("button", name="Explain").click()
    finding = _finding(page, "liveness-without-startup-probe")
    expect(finding).to_have_count(1)
    # needs a person: no button
    expect(_finding(page, "missing-resources").locator("button.apply-fix")).to_have_count(0)
    finding.locator("summary").click()
    button = finding.get_by_role("button", name="Apply fix")
    expect(button).to_be_visible()
    shot(page, "before")
    button.click()
    expect(page.locator("#manifest")).to_have_value(re.compile(r"startupProbe:\n\s+httpGet: \{path: /healthz"))
    expect(_finding(page, "liveness-without-startup-probe")).to_have_count(0)   # explained again
    expect(_finding(page, "missing-resources")).to_have_count(1)
    text = page.locator("#manifest").input_value()
    assert text.startswith(original.rstrip("\n").rsplit("failureThreshold: 3", 1)[0])   # the rest as written
    assert "# A JVM service" in text
    undo = page.get_by_role("button", name="Undo fix")
    expect(undo).to_be_visible()
    shot(page, "fixed")
    undo.click()
    expect(page.locator("#manifest")).to_have_value(original)
    expect(_finding(page, "liveness-without-startup-probe")).to_have_count(1)
    expect(undo).to_be_hidden()


def test_a_fix_that_no_longer_applies_says_so(page: Page, live_server) -> None:
    page.goto(live_server.url)
    page.locator("#manifest").fill(load_manifest("findings/readiness-probe-missing/fires"))
    page.get_by_role("button", name="Explain").click()
    finding = _finding(page, "readiness-probe-missing")
    finding.locator("summary").click()
    page.locator("#manifest").fill("apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  containers:\n"
                                   "    - {name: a, image: b}\n")   # edited since it was explained
    finding.get_by_role("button", name="Apply fix").click()
    expect(finding.locator(".fix-error")).to_contain_text("does not apply")
    expect(page.locator("#manifest")).to_have_value(re.compile("name: a, image: b"))
