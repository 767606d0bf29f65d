"""Permalinks: share, open, immutability, redaction, exports, embed, delete (issue 5).

Marked `postgres`: `make test` runs this module again against a real PostgreSQL server.
"""
from __future__ import annotations

import re
import struct
import xml.etree.ElementTree as ET

import pytest
from django.test import Client

from explainer.explain import explain
from explainer.render.graphviz.diagram import render_svg, sharing_diagram
from explainer.web.models import ImmutableError, Permalink, canonical_manifest
from tests.conftest import load_manifest

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]
HX = {"HTTP_HX_REQUEST": "true"}
SECRET_POD = load_manifest("pods/secret_env")


def share(client: Client, manifest: str, **extra: str):
    return client.post("/share/", {"manifest": manifest, "version": "1.34", **extra}, **HX)


def link_of(body: str) -> str:
    m = re.search(r'href="http://testserver/p/([A-Za-z0-9_-]{12})/"', body)
    assert m, body
    return m.group(1)


def test_share_returns_a_short_stable_link_and_a_delete_token_once(client: Client) -> None:
    manifest = load_manifest("seeds/lifecycle-demo")
    first = share(client, manifest).content.decode()
    pid = link_of(first)
    assert "Delete token" in first
    again = share(client, manifest.replace("\n", "\r\n")).content.decode()   # same input, other line endings
    assert link_of(again) == pid
    assert "Delete token" not in again
    assert Permalink.objects.count() == 1
    other = share(client, manifest, **{"c.app.crashes": "2"}).content.decode()
    assert link_of(other) != pid                                           # another scenario, another link


def test_permalink_page_shows_the_full_analysis_with_version_and_scenario(client: Client) -> None:
    link, _ = Permalink.store(load_manifest("seeds/lifecycle-demo"), {"deleteAt": 30}, "1.33")
    body = client.get(f"/p/{link.id}/").content.decode()
    assert "Kubernetes 1.33" in body and "deleteAt: 30" in body
    assert body.count("<svg") >= 2 and "What happens, step by step" in body
    assert 'property="og:title"' in body and 'name="twitter:card"' in body
    assert f'href="/?from={link.id}"' in body


def test_permalink_page_speaks_the_readers_language(client: Client) -> None:
    link, _ = Permalink.store(load_manifest("seeds/lifecycle-demo"), None, "1.34")
    body = client.get(f"/p/{link.id}/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert 'lang="zh-hans"' in body


def test_a_stored_permalink_is_never_changed() -> None:
    link, _ = Permalink.store(load_manifest("seeds/init-example"), None, "1.34")
    link.manifest = "changed"
    with pytest.raises(ImmutableError):
        link.save()
    assert Permalink.objects.get(pk=link.id).manifest == canonical_manifest(load_manifest("seeds/init-example"))


def test_edit_a_copy_prefills_the_editor(client: Client) -> None:
    link, _ = Permalink.store(load_manifest("seeds/init-example"), {"deleteAt": 9}, "1.32")
    body = client.get(f"/?from={link.id}").content.decode()
    assert "generate-config" in body and "deleteAt: 9" in body
    assert '<option value="1.32" selected>' in body


def test_credentials_are_found_and_redacted_on_request(client: Client) -> None:
    warn = share(client, SECRET_POD).content.decode()
    assert "seems to hold credentials" in warn and "DB_PASSWORD" in warn
    assert Permalink.objects.count() == 0
    stored = share(client, SECRET_POD, secrets="redact").content.decode()
    link = Permalink.objects.get(pk=link_of(stored))
    assert link.redacted and "hunter2" not in link.manifest and "<redacted>" in link.manifest
    assert link.manifest.count("\n") == SECRET_POD.count("\n")              # lines keep their numbers
    kept = share(client, SECRET_POD, secrets="keep").content.decode()
    assert "hunter2" in Permalink.objects.get(pk=link_of(kept)).manifest


def test_stored_input_has_a_size_limit(client: Client, settings) -> None:
    settings.MAX_STORED_BYTES = 2000
    body = share(client, load_manifest("seeds/web-app-pod")).content.decode()
    assert "at most" in body and Permalink.objects.count() == 0


@pytest.mark.parametrize("suffix,ctype", [
    (".json", "application/json"), (".md", "text/markdown"), ("/timeline.svg", "image/svg+xml"),
    ("/sharing.svg", "image/svg+xml"), ("/timeline.png", "image/png"), ("/sharing.png", "image/png"),
])
def test_exports(client: Client, suffix: str, ctype: str) -> None:
    link, _ = Permalink.store(load_manifest("seeds/lifecycle-demo"), {"deleteAt": 30}, "1.34")
    response = client.get(f"/p/{link.id}{suffix}")
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"].startswith(ctype)
    body = response.content
    if suffix.endswith(".svg"):
        root = ET.fromstring(body)
        assert root.tag.endswith("svg")
    elif suffix.endswith(".png"):
        assert body[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", body[16:24])
        assert width > 100 and height > 50
    elif suffix == ".json":
        data = response.json()
        assert data["schemaVersion"] == 1 and data["pods"][0]["name"] == "lifecycle-demo"
    else:
        text = body.decode()
        assert f"/p/{link.id}/" in text and "lifecycle-demo" in text and "| Severity |" in text


def test_the_diagram_exports_as_the_dot_text_the_page_draws(client: Client) -> None:
    link, _ = Permalink.store(load_manifest("seeds/lifecycle-demo"), {"deleteAt": 30}, "1.34")
    response = client.get(f"/p/{link.id}/sharing.dot")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/vnd.graphviz; charset=utf-8"
    assert response["Content-Disposition"] == f'inline; filename="{link.id}-sharing.dot"'
    report = explain(link.manifest, link.scenario_data, "1.34").pods[0]
    assert response.content.decode() == sharing_diagram(report)
    assert render_svg(response.content.decode()).startswith("<svg")   # draws in Graphviz as it is
    page = client.get(f"/p/{link.id}/").content.decode()
    assert f'href="/p/{link.id}/sharing.dot"' in page
    zh = client.get(f"/p/{link.id}/sharing.dot", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert zh != response.content.decode() and zh.startswith("digraph")


def test_embed_has_the_pictures_but_no_editor_and_may_be_framed(client: Client) -> None:
    link, _ = Permalink.store(load_manifest("seeds/lifecycle-demo"), None, "1.34")
    response = client.get(f"/embed/{link.id}/")
    body = response.content.decode()
    assert body.count("<svg") >= 2 and 'id="manifest"' not in body
    assert "X-Frame-Options" not in response


def test_delete_needs_the_token(client: Client) -> None:
    body = share(client, load_manifest("seeds/init-example")).content.decode()
    pid = link_of(body)
    token = re.search(r'<code id="share-token">([^<]+)</code>', body).group(1)
    assert client.post(f"/p/{pid}/delete/", {"token": "wrong"}).status_code == 403
    assert client.get(f"/p/{pid}/").status_code == 200
    assert client.post(f"/p/{pid}/delete/", {"token": token}).status_code == 200
    assert client.get(f"/p/{pid}/").status_code == 404
    assert client.get(f"/p/{pid}.json").status_code == 404


def test_unknown_permalink_is_404(client: Client) -> None:
    assert client.get("/p/AAAAAAAAAAAA/").status_code == 404
    assert client.get("/?from=AAAAAAAAAAAA").status_code == 404


def test_an_htmx_request_cannot_change_what_later_visitors_see(client: Client) -> None:
    link, _ = Permalink.store(load_manifest("seeds/lifecycle-demo"), None, "1.34")
    client.get(f"/p/{link.id}/", HTTP_HX_REQUEST="true")
    body = client.get(f"/p/{link.id}/").content.decode()
    assert 'id="what-if"' not in body


@pytest.mark.parametrize("pod", ["-1", "x", "99999", "7"])
def test_the_pod_parameter_of_exports_is_checked(client: Client, pod: str) -> None:
    link, _ = Permalink.store(load_manifest("seeds/lifecycle-demo"), None, "1.34")
    assert client.get(f"/p/{link.id}/timeline.svg?pod={pod}").status_code == 404


# ---- ids that cannot be computed from a guess, and guessing them is bounded (issue 27) ------------------
def test_a_link_id_is_keyed_with_the_server_secret(client: Client, settings) -> None:
    import base64
    import hashlib

    from explainer.web.models import KIND_EXPLAIN, canonical_scenario, permalink_id

    manifest = canonical_manifest(load_manifest("seeds/lifecycle-demo"))
    pid = link_of(share(client, manifest).content.decode())
    plain = base64.urlsafe_b64encode(hashlib.sha256("\x00".join(
        [KIND_EXPLAIN, manifest, canonical_scenario(None), "1.34"]).encode()).digest()[:9]).decode()
    assert pid != plain                                    # not computable from the input alone
    assert permalink_id(KIND_EXPLAIN, manifest, "", "1.34") == pid        # one input, one link
    settings.SECRET_KEY = "another-" + "k" * 60
    assert permalink_id(KIND_EXPLAIN, manifest, "", "1.34") != pid


def test_guessing_ids_runs_out_and_then_every_link_read_is_refused(client: Client, settings) -> None:
    settings.NOT_FOUND_RATE_LIMIT = 3
    link, _token = Permalink.store(load_manifest("seeds/lifecycle-demo"), None, "1.34")
    assert client.get(f"/p/{link.id}/").status_code == 200
    for guess in ("AAAAAAAAAAAA", "AAAAAAAAAAAB", "AAAAAAAAAAAC"):
        assert client.get(f"/p/{guess}/").status_code == 404
    # the budget is used up: a miss and a hit look the same, on every way of reading a link
    for path in (f"/p/{link.id}/", "/p/AAAAAAAAAAAD/", f"/p/{link.id}.json", f"/p/{link.id}/timeline.svg",
                 f"/embed/{link.id}/", f"/?from={link.id}", f"/compare/?left={link.id}&right={link.id}",
                 "/c/AAAAAAAAAAAE/"):
        response = client.get(path)
        assert response.status_code == 429, (path, response.status_code)
        assert "Too many permalinks that do not exist" in response.content.decode()
    api = client.get(f"/api/v1/permalinks/{link.id}")
    assert api.status_code == 429 and "do not exist" in api.json()["error"]
    other = Client(REMOTE_ADDR="10.9.8.7")          # another client keeps its own budget
    assert other.get(f"/p/{link.id}/").status_code == 200
