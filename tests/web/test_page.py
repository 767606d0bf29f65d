"""The index page's server side (issue 10): what the page script reads, what works without it."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.test import Client
from markdown_it import MarkdownIt

from explainer.web.models import Permalink
from explainer.web.present import group_findings
from tests.conftest import load_manifest

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def test_the_index_has_a_heading_the_page_messages_and_no_inline_script(client: Client) -> None:
    body = client.get("/").content.decode()
    assert re.search(r"<h1[^>]*>Pod Lifecycle Explainer</h1>", body)
    raw = re.search(r'id="page-messages" hidden data-messages="([^"]*)"', body).group(1)
    messages = json.loads(raw.replace("&quot;", '"').replace("&#x27;", "'").replace("&amp;", "&")
                          .replace("&lt;", "<").replace("&gt;", ">"))
    assert "EXPLAINER_MAX_REQUEST_BYTES" in messages["tooLarge"] and "{seconds}" in messages["rateLimited"]
    assert 'role="alert"' in body and 'id="stale-note"' in body


def test_page_messages_speak_the_readers_language(client: Client) -> None:
    body = client.get("/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "无法连接服务器" in body


def test_the_favicon_answers(client: Client) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("favicon.svg")
    assert 'rel="icon"' in client.get("/rules/").content.decode()


def test_the_events_table_shows_event_names_in_words(client: Client) -> None:
    body = client.get("/?example=lifecycle-demo").content.decode()
    assert "<td title=\"sandbox_ready\">Sandbox ready</td>" in body
    zh = client.get("/?example=lifecycle-demo", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert '<td title="sandbox_ready">Sandbox ready</td>' not in zh


def test_the_credential_warning_shows_the_redaction_word_as_text(client: Client) -> None:
    body = client.post("/share/", {"manifest": load_manifest("pods/secret_env"), "version": "1.34"}, **HX)
    text = body.content.decode()
    assert "replaced by &lt;redacted&gt;?" in text and "<redacted>" not in text


def test_findings_of_one_rule_with_one_fix_group_over_containers() -> None:
    def finding(c: str, rule: str = "missing-resources", fix: str | None = None) -> dict:
        return {"id": rule, "severity": "info", "title": "No resource requests", "container": c,
                "fix": fix if fix is not None else f"- name: {c}\n  resources: {{}}", "explanation": c, "line": 1}
    groups = group_findings([finding("a"), finding("b"), finding("c", fix="other"), finding("d", rule="x")])
    assert [(g["id"], [m["container"] for m in g["members"]], g["grouped"]) for g in groups] == [
        ("missing-resources", ["a", "b"], True), ("missing-resources", ["c"], False), ("x", ["d"], False)]


def test_thirty_containers_make_one_pitfall_entry_with_a_severity_filter(client: Client) -> None:
    containers = "".join(f"  - name: c{i}\n    image: busybox:1.36\n    command: ['sleep', 'infinity']\n"
                         for i in range(30))
    manifest = f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: wide\nspec:\n  containers:\n{containers}"
    body = client.post("/", {"manifest": manifest, "version": "1.34"}, **HX).content.decode()
    assert body.count('<details class="finding') < 10
    assert "— 30 containers" in body


def test_a_long_crash_loop_is_folded_without_javascript(client: Client) -> None:
    body = client.post("/", {"manifest": load_manifest("seeds/lifecycle-demo"), "version": "1.34",
                             "c.app.crashes": "8"}).content.decode()
    assert re.search(r'<details class="folded"><summary><span class="t">[\d.]+ s</span> app exits and is '
                     r"restarted \d+ more times, back-off \d+ s → \d+ s\.</summary>", body)


def test_the_markdown_export_has_the_story_the_fixes_and_the_timeline(client: Client) -> None:
    link, _ = Permalink.store(load_manifest("seeds/lifecycle-demo"), {"containers": {"app": {"runs": [
        {"runSeconds": 1, "exitCode": 1}] * 6 + [{"runSeconds": "forever"}]}}}, "1.34")
    text = client.get(f"/p/{link.id}.md").content.decode()
    html = MarkdownIt("commonmark").enable("table").render(text)
    svg = f"http://testserver/p/{link.id}/timeline.svg"
    assert f'<a href="{svg}"><img src="{svg}" alt="Timeline" /></a>' in html
    assert "more steps" not in text and "Write instead:" in text and "resources:" in text
    assert "app starts again (restart 5)" in text


def test_the_pod_header_shows_the_qos_class(client: Client) -> None:
    """docs/lifecycle-model.md §25: limits only on cpu and memory -> requests default to them -> Guaranteed."""
    text = (Path(__file__).resolve().parent.parent / "fixtures" / "findings" / "cases"
            / "limits_only_guaranteed.yaml").read_text(encoding="utf-8")
    body = client.post("/", {"manifest": text, "version": "1.34"}, **HX).content.decode()
    assert re.search(r'<span class="pill qos" title="QoS class: [^"]*">QoS class Guaranteed</span>', body)
    zh = client.post("/", {"manifest": text, "version": "1.34"}, HTTP_ACCEPT_LANGUAGE="zh-hans",
                     **HX).content.decode()
    assert "QoS 类别 Guaranteed" in zh
