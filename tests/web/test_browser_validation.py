"""In a real browser: a schema-only warning beside the explained Pod, and an empty input (issue 13)."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import load_manifest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_schema_only_warning_sits_above_the_explained_pod(page: Page, live_server, shot) -> None:
    page.goto(live_server.url)
    page.locator("#manifest").fill(load_manifest("validation/statefulset_without_service_name"))
    page.locator("#id_version").select_option("1.30")
    page.get_by_role("button", name="Explain", exact=True).click()
    panel = page.locator("#result .warning-panel")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text('"serviceName" is required only by the published OpenAPI schema')
    expect(page.locator("#result .pod")).to_have_count(1)
    expect(page.locator("#result .error-panel")).to_have_count(0)
    shot(page, "schema-only-warning")


def test_only_comments_say_there_is_nothing_to_explain(page: Page, live_server, shot) -> None:
    page.goto(live_server.url)
    page.locator("#manifest").fill("# rendered by helm: every template was disabled\n---\n")
    page.get_by_role("button", name="Explain", exact=True).click()
    expect(page.locator("#result .nothing")).to_contain_text("Nothing to explain: the input is empty")
    expect(page.locator("#result .empty-examples")).to_have_count(0)
    shot(page, "nothing-to-explain")
