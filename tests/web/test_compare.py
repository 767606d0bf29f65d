"""The compare pages (issue 5 "Compare"): two permalinks on one time axis, the editor against a
permalink, and the comparison's own permalink.

Marked `postgres`: `make test` runs this module again against a real PostgreSQL server.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from django.test import Client
from django.urls import reverse

from explainer.web.models import KIND_COMPARE, Permalink
from tests.conftest import load_manifest

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]
HX = {"HTTP_HX_REQUEST": "true"}
INIT = load_manifest("seeds/init-example")
SLOW = {"containers": {"generate-config": {"runSeconds": 5}}}
SECRET_POD = """apiVersion: v1
kind: Pod
metadata: {name: init-example}
spec:
  containers:
    - name: app
      image: alpine:3.20
      env:
        - {name: API_TOKEN, value: s3cr3t-value-123}
"""


def two_links() -> tuple[Permalink, Permalink]:
    left, _ = Permalink.store(INIT, None, "1.34")
    right, _ = Permalink.store(INIT, SLOW, "1.34")
    return left, right


def timeline_svgs(body: str) -> list[str]:
    return re.findall(r'<svg[^>]*class="tl-root".*?</svg>', body, flags=re.S)


def test_url_names() -> None:
    assert reverse("web:compare") == "/compare/"
    assert reverse("web:compare-permalink", args=["abc"]) == "/c/abc/"


def test_compare_page_shows_both_timelines_on_one_time_axis(client: Client) -> None:
    left, right = two_links()
    response = client.get(f"/compare/?left={left.id}&right={right.id}")
    assert response.status_code == 200
    body = response.content.decode()
    svgs = timeline_svgs(body)
    assert len(svgs) == 2
    roots = [ET.fromstring(svg) for svg in svgs]               # each is well-formed XML
    widths = [root.get("viewBox").split()[2] for root in roots]
    assert widths[0] == widths[1]
    assert roots[0].get("data-view-end") == roots[1].get("data-view-end")
    assert roots[0].get("data-px-per-second") == roots[1].get("data-px-per-second")   # the same time scale
    shown = [re.search(r"Shown: 0 to ([0-9.]+) s", svg).group(1) for svg in svgs]
    assert shown[0] == shown[1]
    assert body.index("Before: Pod init-example") < body.index("After: Pod init-example")   # one above the other
    assert ("app now starts 4 s later (at 5 s instead of 1 s) because init container generate-config takes "
            "longer (5 s instead of 1 s).") in body
    assert "Share this comparison" in body
    assert f'href="/p/{left.id}/"' in body and f'href="/p/{right.id}/"' in body


def test_findings_and_sharing_differences_are_shown(client: Client) -> None:
    tmp = load_manifest("seeds/tmp-without-volume")
    fixed = tmp.replace('"echo token > /tmp/token"]\n', '"echo token > /tmp/token"]\n'
                        "      volumeMounts: [{name: tmp, mountPath: /tmp}]\n").replace(
        '"cat /tmp/token; sleep 3600"]\n', '"cat /tmp/token; sleep 3600"]\n'
        "      volumeMounts: [{name: tmp, mountPath: /tmp}]\n  volumes: [{name: tmp, emptyDir: {}}]\n")
    left, _ = Permalink.store(tmp, None, "1.34")
    right, _ = Permalink.store(fixed, None, "1.34")
    body = client.get(f"/compare/?left={left.id}&right={right.id}").content.decode()
    assert "Volume tmp is now shared by fetch-token, app." in body
    fixed_section = body[body.index("<h4>Fixed"):body.index("<h4>Unchanged")]
    assert "file-shared-without-volume" in fixed_section


def test_compare_permalink_round_trip(client: Client) -> None:
    left, right = two_links()
    response = client.post("/compare/share/", {"left": left.id, "right": f"http://testserver/p/{right.id}/"})
    assert response.status_code == 303
    pid = re.fullmatch(r"/c/([A-Za-z0-9_-]{12})/", response["Location"]).group(1)
    link = Permalink.objects.get(pk=pid)
    assert (link.kind, link.left, link.right) == (KIND_COMPARE, left.id, right.id)
    again = client.post("/compare/share/", {"left": left.id, "right": right.id})
    assert again["Location"] == response["Location"]                     # same pair, same link
    assert Permalink.objects.filter(kind=KIND_COMPARE).count() == 1
    page = client.get(response["Location"])
    assert page.status_code == 200
    body = page.content.decode()
    assert f"http://testserver/c/{pid}/" in body and "Share this comparison" not in body
    assert len(timeline_svgs(body)) == 2
    assert "app now starts 4 s later" in body and 'property="og:title"' in body
    # the comparison is only as alive as its two sides
    left_id = left.id
    left.delete()
    gone = client.get(f"/c/{pid}/")
    assert gone.status_code == 404 and f"permalink {left_id} was deleted" in gone.content.decode()


def test_unknown_comparison_and_compare_of_unknown_permalinks(client: Client) -> None:
    assert client.get("/c/nothinghere0/").status_code == 404
    left, _ = Permalink.store(INIT, None, "1.34")
    response = client.get(f"/compare/?left={left.id}&right=nothinghere0")
    assert response.status_code == 404 and "No permalink nothinghere0" in response.content.decode()
    assert client.get("/compare/?left=not a link").status_code == 400


def test_urls_are_accepted_and_normalised_to_ids(client: Client) -> None:
    left, right = two_links()
    response = client.get(f"/compare/?left=https://explainer.example/p/{left.id}/&right=/p/{right.id}.json")
    assert response.status_code == 302
    assert response["Location"] == f"/compare/?left={left.id}&right={right.id}"


def test_choosing_the_right_side_prefills_the_editor_with_the_left(client: Client) -> None:
    left, _ = Permalink.store(INIT, {"deleteAt": 9}, "1.32")
    body = client.get(f"/compare/?left={left.id}").content.decode()
    assert "generate-config" in body and "deleteAt: 9" in body
    assert f'name="left" value="{left.id}"' in body


def test_pasted_manifest_is_stored_then_the_comparison_opens(client: Client) -> None:
    left, _ = Permalink.store(INIT, None, "1.34")
    form = {"left": left.id, "manifest": INIT, "version": "1.34", "scenario": "containers:\n  generate-config: "
            "{runSeconds: 5}\n"}
    first = client.post("/compare/", form)
    link = Permalink.objects.get(kind=KIND_COMPARE)
    assert first.status_code == 303 and first["Location"] == f"/c/{link.id}/"   # post/redirect/get
    shown = client.get(first["Location"])              # the stored side's delete token is shown once
    body = shown.content.decode()
    right = Permalink.objects.exclude(pk=left.id).get(kind="explain")
    assert right.scenario_data == SLOW
    token = re.search(r'<code id="compare-token">([^<]+)</code>', body).group(1)
    assert right.token_matches(token)
    assert "app now starts 4 s later" in body and len(timeline_svgs(body)) == 2
    assert f"/c/{link.id}/" in body
    assert 'id="compare-token"' not in client.get(first["Location"]).content.decode()   # once
    again = client.post("/compare/", form)             # nothing new to show: straight to the comparison
    assert again.status_code == 303 and again["Location"] == f"/c/{link.id}/"


def test_the_editor_compares_with_a_permalink_through_htmx(client: Client) -> None:
    left, _ = Permalink.store(INIT, None, "1.34")
    editor = client.get(f"/?from={left.id}").content.decode()
    assert 'id="compare-box"' in editor and f'name="left" id="compare-left" autocomplete="off" ' \
                                           f'spellcheck="false" value="{left.id}"' in editor
    form = {"left": f"http://testserver/p/{left.id}/", "manifest": INIT, "version": "1.34", "c.app.crashes": "1"}
    first = client.post("/compare/", form, **HX)
    body = first.content.decode()
    assert first.status_code == 200 and body.lstrip().startswith('<div id="compare-box"')
    link = Permalink.objects.get(kind=KIND_COMPARE)
    assert f"http://testserver/c/{link.id}/" in body and 'id="compare-token"' in body
    second = client.post("/compare/", form, **HX)
    assert second["HX-Redirect"] == f"/c/{link.id}/"
    page = client.get(f"/c/{link.id}/").content.decode()
    assert "Restarts of app: 1 instead of 0." in page


def test_pasted_credentials_are_flagged_before_storing(client: Client) -> None:
    left, _ = Permalink.store(INIT, None, "1.34")
    form = {"left": left.id, "manifest": SECRET_POD, "version": "1.34"}
    warned = client.post("/compare/", form, **HX).content.decode()
    assert "seems to hold credentials" in warned and Permalink.objects.count() == 1
    stored = client.post("/compare/", {**form, "secrets": "redact"}, **HX)
    assert stored.status_code == 200
    right = Permalink.objects.exclude(pk=left.id).get(kind="explain")
    assert right.redacted and "s3cr3t" not in right.manifest


def test_editor_compare_errors(client: Client) -> None:
    body = client.post("/compare/", {"manifest": INIT, "version": "1.34"}, **HX).content.decode()
    assert "Give the permalink" in body
    body = client.post("/compare/", {"left": "nothinghere0", "manifest": INIT, "version": "1.34"}, **HX).content.decode()
    assert "No permalink nothinghere0" in body
    left, _ = Permalink.store(INIT, None, "1.34")
    body = client.post("/compare/", {"left": left.id, "manifest": "", "version": "1.34"}, **HX).content.decode()
    assert 'class="errors"' in body
    full = client.post("/compare/", {"left": left.id, "manifest": "", "version": "1.34"})
    assert full.status_code == 400 and 'class="errors"' in full.content.decode()
    assert Permalink.objects.count() == 1


def test_permalink_page_links_to_compare(client: Client) -> None:
    left, _ = Permalink.store(INIT, None, "1.34")
    body = client.get(f"/p/{left.id}/").content.decode()
    assert f'href="/compare/?left={left.id}"' in body and "Compare with…" in body


def test_compare_page_speaks_the_readers_language(client: Client) -> None:
    left, right = two_links()
    body = client.get(f"/compare/?left={left.id}&right={right.id}", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert 'lang="zh-hans"' in body and len(timeline_svgs(body)) == 2


def test_compare_forms_need_the_csrf_token() -> None:
    left, right = two_links()
    client = Client(enforce_csrf_checks=True)
    assert client.post("/compare/share/", {"left": left.id, "right": right.id}).status_code == 403


def test_the_compare_page_has_one_form_that_redirects_to_the_comparisons_address(client: Client) -> None:
    left, right = two_links()
    page = client.get("/compare/").content.decode()
    assert page.count('name="left"') == 1 and page.count("<form") == 2   # the language switch, and this one
    assert len(re.findall(r'<button type="submit">Compare</button>', page)) == 1
    response = client.post("/compare/", {"left": left.id, "right": f"/p/{right.id}/"})
    assert response.status_code == 303
    assert response["Location"] == f"/compare/?left={left.id}&right={right.id}"
    assert client.post("/compare/", {"left": "nothinghere0", "right": right.id}).status_code == 404


def test_a_token_cookie_for_another_side_is_ignored(client: Client) -> None:
    left, right = two_links()
    link, _ = Permalink.store_compare(left.id, right.id)
    client.cookies["compare_token_" + link.id] = "forged"
    assert 'id="compare-token"' not in client.get(f"/c/{link.id}/").content.decode()


def test_the_page_shows_both_manifests_line_by_line_and_the_scenarios_when_they_differ(client: Client) -> None:
    base = load_manifest("compare/base")
    left, _ = Permalink.store(base, {"deleteAt": 40}, "1.34")
    right, _ = Permalink.store(base.replace("terminationGracePeriodSeconds: 30", "terminationGracePeriodSeconds: 10"),
                               {"deleteAt": 20}, "1.34")
    body = client.get(f"/compare/?left={left.id}&right={right.id}").content.decode()
    section = body[body.index('class="panel compare-text"'):body.index("</section>", body.index('class="panel compare-text"'))]
    wide = section[section.index("textdiff-wide"):section.index("textdiff-narrow")]
    assert f"Before · {left.id}" in wide and f"After · {right.id}" in wide
    assert ('<td class="tx del">  terminationGracePeriodSeconds: <del>3</del>0</td>' in wide
            and '<td class="tx ins">  terminationGracePeriodSeconds: <ins>1</ins>0</td>' in wide)
    assert '<span class="visually-hidden"> removed</span>' in wide and "unchanged lines" in wide
    narrow = section[section.index("textdiff-narrow"):]
    assert narrow.index("<del>3</del>") < narrow.index("<ins>1</ins>")           # before, then after
    assert "The scenarios, line by line" in section
    assert "deleteAt: <del>4</del>0" in section and "deleteAt: <ins>2</ins>0" in section
    same = client.get(f"/compare/?left={left.id}&right={left.id}").content.decode()
    assert "The same text on both sides." in same and "The scenarios, line by line" not in same


def test_the_summary_of_two_runs_that_differ_is_never_no_difference(client: Client) -> None:
    base = load_manifest("compare/base")
    left, _ = Permalink.store(base, {"deleteAt": 40}, "1.34")
    right, _ = Permalink.store(base, {"deleteAt": 40, "containers": {"shipper": {"stopSeconds": "never"}}}, "1.34")
    body = client.get(f"/compare/?left={left.id}&right={right.id}").content.decode()
    summary = body[body.index("compare-summary"):body.index("</section>", body.index("compare-summary"))]
    assert "No difference" not in summary
    assert ("The first exit of shipper now comes 30 s later (at 70 s instead of 40 s), with exit code 137 instead "
            "of 143.") in summary


def test_markup_in_a_manifest_is_text_in_the_line_by_line_view(client: Client) -> None:
    base = load_manifest("compare/base")
    left, _ = Permalink.store("# <script>alert(1)</script> & `x`\n" + base, None, "1.34")
    right, _ = Permalink.store("# <img src=x onerror=alert(2)> &amp;\n" + base, None, "1.34")
    body = client.get(f"/compare/?left={left.id}&right={right.id}").content.decode()
    section = body[body.index('class="panel compare-text"'):]
    assert "<script>alert" not in section and "<img src=x" not in section
    assert "&lt;script&gt;" in section and "&lt;img" in section and "&amp;amp;" in section
