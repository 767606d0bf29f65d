"""Every answer, page, fragment and export within its cap, by construction (issue 27): sharing as groups,
not pairs; findings folded per rule past a number; scenario entries counted; exports capped like pages."""
from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client

from explainer.web.models import Permalink

pytestmark = pytest.mark.django_db
CAP = 5 * 1024 * 1024
HX = {"HTTP_HX_REQUEST": "true"}


def sharing_pod(containers: int = 500, volumes: int = 16) -> str:
    """Every container mounts every volume, writable: 500 x 499 pairs per volume."""
    mounts = "".join(f"      - {{name: v{j}, mountPath: /v{j}}}\n" for j in range(volumes))
    cs = "".join(f"    - name: c{i}\n      image: busybox\n      volumeMounts:\n{mounts}" for i in range(containers))
    vols = "".join(f"    - {{name: v{j}, emptyDir: {{}}}}\n" for j in range(volumes))
    return f"apiVersion: v1\nkind: Pod\nmetadata: {{name: shared}}\nspec:\n  containers:\n{cs}  volumes:\n{vols}"


def unmounted_volumes(n: int = 25_000) -> str:
    vols = "".join(f"  - {{name: v{j}, emptyDir: {{}}}}\n" for j in range(n))
    return ("apiVersion: v1\nkind: Pod\nmetadata: {name: many}\nspec:\n  containers:\n  - {name: app, image: nginx}\n"
            f"  volumes:\n{vols}")


def api(client: Client, manifest: str, scenario: object = None) -> tuple[int, bytes]:
    response = client.post("/api/v1/explain", json.dumps({"manifest": manifest, "scenario": scenario}),
                           content_type="application/json")
    return response.status_code, response.content


def test_sharing_is_groups_not_pairs() -> None:
    status, content = api(Client(), sharing_pod())
    assert status == 200 and len(content) < CAP, f"{len(content):,} bytes"
    body = json.loads(content)
    volume = body["pods"][0]["sharing"]["volumes"][0]
    assert len(volume["writers"]) == len(volume["readers"]) == 500
    assert len(volume["exchanges"]) == 100 and volume["exchangesLeftOut"] == 500 * 499 - 100
    assert "answerTruncated" not in body          # the groups make it small, nothing had to be cut


def test_findings_of_one_rule_are_folded_past_fifty_in_the_api_and_on_the_page() -> None:
    client = Client()
    status, content = api(client, unmounted_volumes())
    assert status == 200 and len(content) < CAP, f"{len(content):,} bytes"
    pod = json.loads(content)["pods"][0]
    assert pod["findingsFolded"] == [{"id": "volume-not-mounted", "kept": 50, "of": 25_000}]
    assert sum(1 for f in pod["findings"] if f["id"] == "volume-not-mounted") == 50
    page = client.post("/", {"manifest": unmounted_volumes(), "version": "1.34"}, **HX)
    assert page.status_code == 200 and len(page.content) < CAP, f"{len(page.content):,} bytes"
    assert "24,950 more findings of volume-not-mounted are not listed here" in page.content.decode()


def test_debug_entries_of_a_scenario_count_against_the_container_limit() -> None:
    manifest = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - {name: app, image: nginx}\n"
    debug = [{"name": f"d{i}", "image": "busybox", "at": 5} for i in range(40_000)]
    status, content = api(Client(), manifest, {"debug": debug})
    assert status == 400   # refused before any entry is read (api_input._within_the_container_limit)
    error = json.loads(content)["errors"][0]
    assert error["path"] == "scenario.debug" and "40,000 debug entries" in error["message"]
    assert f"the limit is {settings.MAX_CONTAINERS:,} containers" in error["message"]
    assert "EXPLAINER_MAX_CONTAINERS" in error["message"]
    # under the entries' own bound, the Pods' containers and the debug ones count together (explain.py)
    pods = "".join(f"---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p{i}}}\nspec:\n  containers:\n"
                   f"  - {{name: app, image: nginx}}\n" for i in range(3))
    few = [{"name": f"d{i}", "image": "busybox", "at": 5} for i in range(settings.MAX_CONTAINERS // 2)]
    status, content = api(Client(), pods, {"debug": few})
    error = json.loads(content)["errors"][0]
    assert status == 400 and error["kind"] == "limit" and "of them the scenario's debug containers" in error["message"]
    updates = [{"container": "app", "image": f"nginx:{i}", "at": i} for i in range(600)]
    status, content = api(Client(), manifest, {"imageUpdates": updates})
    assert status == 400 and "600 image updates" in json.loads(content)["errors"][0]["message"]


def _crash_day(n: int = 500) -> tuple[str, dict]:
    manifest = "apiVersion: v1\nkind: Pod\nmetadata: {name: crash}\nspec:\n  containers:\n" + \
        "".join(f"  - {{name: c{i}, image: busybox}}\n" for i in range(n))
    return manifest, {"until": 86400, "containers": {f"c{i}": {"runSeconds": 1, "exitCode": 1} for i in range(n)}}


def test_exports_of_a_500_container_link_are_within_their_caps() -> None:
    client = Client()
    manifest, scenario = _crash_day()
    link, _ = Permalink.store(manifest, scenario, "1.34")
    exported = client.get(f"/p/{link.id}.json")
    assert exported.status_code == 200 and len(exported.content) <= settings.MAX_ANSWER_BYTES
    assert json.loads(exported.content)["pods"][0]["restartCounts"]["c0"] == 291
    markdown = client.get(f"/p/{link.id}.md")
    assert markdown.status_code == 200 and len(markdown.content) <= settings.MAX_ANSWER_BYTES
    api_read = client.get(f"/api/v1/permalinks/{link.id}")
    assert api_read.status_code == 200 and len(api_read.content) <= settings.MAX_ANSWER_BYTES + 64 * 1024


def test_a_timeline_export_over_the_page_cap_is_refused_with_why(monkeypatch) -> None:
    """Over the cap (set low here, so that a small day of crash loops is over it): 422 with why and no
    Retry-After, for asking again cannot change it; the same link within the cap draws."""
    from explainer.web import permalinks
    manifest, scenario = _crash_day(3)
    link, _ = Permalink.store(manifest, scenario, "1.34")
    drawn = Client().get(f"/p/{link.id}/timeline.svg")
    assert drawn.status_code == 200 and drawn.content.lstrip().startswith(b"<svg")
    monkeypatch.setattr(permalinks, "MAX_PAGE_SVG_BYTES", len(drawn.content) - 1)
    cache.clear()
    for fmt in ("svg", "png"):
        response = Client().get(f"/p/{link.id}/timeline.{fmt}")
        assert response.status_code == 422 and b"more than an export holds" in response.content, fmt
        assert "Retry-After" not in response


def test_a_comparison_answer_is_bounded_too(settings) -> None:
    settings.MAX_ANSWER_BYTES = 200_000
    left, _ = Permalink.store(unmounted_volumes(3_000), None, "1.34")
    right, _ = Permalink.store(sharing_pod(40, 4), None, "1.34")
    compare, _ = Permalink.store_compare(left.id, right.id)
    response = Client().get(f"/api/v1/permalinks/{compare.id}")
    assert response.status_code == 200 and len(response.content) <= 200_000 + 8 * 1024


def test_a_comparison_page_of_large_links_is_within_the_page_cap() -> None:
    manifest, scenario = _crash_day(300)
    left, _ = Permalink.store(manifest, scenario, "1.34")
    right, _ = Permalink.store(manifest, {**scenario, "deleteAt": 600}, "1.34")
    compare, _ = Permalink.store_compare(left.id, right.id)
    page = Client().get(f"/c/{compare.id}/")
    assert page.status_code == 200 and len(page.content) < CAP, f"{len(page.content):,} bytes"
    assert b"more than a page shows" in page.content or page.content.count(b"<svg") >= 2


def test_a_500_container_comparison_and_its_text_diff_are_within_the_page_cap() -> None:
    """Both sides crash-loop for a day, every container's image differs: the timelines, the starts of 500
    containers and the side-by-side text of two 500-container manifests on one page."""
    manifest, scenario = _crash_day(500)
    left, _ = Permalink.store(manifest, scenario, "1.34")
    right, _ = Permalink.store(manifest.replace("image: busybox", "image: busybox:1.36"), {**scenario, "deleteAt": 600},
                               "1.34")
    compare, _ = Permalink.store_compare(left.id, right.id)
    page = Client().get(f"/c/{compare.id}/")
    body = page.content.decode()
    assert page.status_code == 200 and len(page.content) < CAP, f"{len(page.content):,} bytes"
    assert "Lines removed or changed: 500" in body
    assert 'class="textdiff' in body or "The line-by-line view is" in body
    answer = Client().get(f"/api/v1/permalinks/{compare.id}")
    assert answer.status_code == 200 and len(answer.content) <= settings.MAX_ANSWER_BYTES + 64 * 1024


def test_a_line_by_line_view_over_its_cap_is_left_out_with_why() -> None:
    from explainer.comparison.textdiff import side_by_side
    from explainer.web.compare_diff import MAX_DIFF_HTML_BYTES, diff_html
    before = "".join(f"line {i}: {'a' * 90}\n" for i in range(4000))
    after = "".join(f"line {i}: {'<' * 90}\n" for i in range(4000))
    html = diff_html(side_by_side(before, after), "Before", "After")
    assert len(html) <= MAX_DIFF_HTML_BYTES and "The line-by-line view is" in html and "more than a page shows" in html
    small = diff_html(side_by_side("a\nb\n", "a\nc\n"), "Before", "After")
    assert "The line-by-line view is" not in small


def test_findings_about_the_inputs_services_are_folded_per_rule_too() -> None:
    """Services of the input that select no Pod (issue 22's input rules): thousands of them, as a List."""
    services = "".join(f"- {{apiVersion: v1, kind: Service, metadata: {{name: s{i}}}, "
                       f"spec: {{selector: {{app: x{i}}}, ports: [{{port: 80}}]}}}}\n" for i in range(6_000))
    manifest = ("apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {app: y}}\nspec: {containers: [{name: a, "
                "image: nginx}]}\n---\napiVersion: v1\nkind: List\nitems:\n" + services)
    status, content = api(Client(), manifest)
    assert status == 200 and len(content) < CAP, f"{len(content):,} bytes"
    body = json.loads(content)
    assert body["findingsFolded"] == [{"id": "service-selects-no-pod", "kept": 50, "of": 6_000}]
    assert len(body["findings"]) == 50 and "answerTruncated" not in body
    assert body["pods"][0]["events"]          # nothing of the Pod was cut for the Services' sake
