"""Bounded cost per request (issue 11): caps, lazy diagrams, the cache's byte budget, failures
and comparisons cached, rate limits in a shared store keyed on the right client address."""
from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client, RequestFactory

import explainer.web.models as models
import explainer.web.permalinks as permalinks
from explainer.render.graphviz.diagram import DiagramError
from explainer.web.cache import BoundedLocMemCache
from explainer.web.models import Permalink, RateCount
from explainer.web import security, share
from explainer.web.security import client_key, rate_limited
from tests.conftest import load_manifest

pytestmark = pytest.mark.django_db
INIT = load_manifest("seeds/init-example")


def pods(n: int, containers: int = 1) -> str:
    cs = "".join(f"{{name: c{j}, image: busybox}}," for j in range(containers))
    return "".join(f"---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p{i}}}\nspec: {{containers: [{cs}]}}\n"
                   for i in range(n))


def test_a_thousand_pods_are_refused_with_the_limit_named(client: Client) -> None:
    response = client.post("/api/v1/explain", {"manifest": pods(1000)}, content_type="application/json")
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["kind"] == "limit" and "1,000 Pods" in error["message"] and "limit is 50" in error["message"]
    page = client.post("/", {"manifest": pods(1000), "version": "1.34"}).content.decode()
    assert "limit is 50 per request" in page and "<svg" not in page.split('id="result"')[1]


def test_containers_are_capped_over_all_pods(client: Client, settings) -> None:
    settings.MAX_CONTAINERS = 20
    response = client.post("/api/v1/explain", {"manifest": pods(3, containers=7)}, content_type="application/json")
    assert response.status_code == 400 and "21 containers; the limit is 20" in response.json()["error"]
    assert client.post("/api/v1/explain", {"manifest": pods(2, containers=10)},
                       content_type="application/json").status_code == 200


def test_pods_after_the_first_three_get_their_diagram_on_demand(client: Client) -> None:
    page = client.post("/", {"manifest": pods(5), "version": "1.34"}, HTTP_HX_REQUEST="true").content.decode()
    urls = __import__("re").findall(r'<img src="(/diagram/[0-9a-f]{64}\.svg)"', page)
    inline = __import__("re").findall(r'<div class="scroll diagram"[^>]*>\s*<svg', page)
    assert len(urls) == 2 and len(inline) == 3
    first = client.get(urls[0])
    assert first.status_code == 200 and first["Content-Type"] == "image/svg+xml" and b"p3" in first.content
    assert client.get(urls[0]).content == first.content
    assert client.get("/diagram/" + "0" * 64 + ".svg").status_code == 404


def test_an_entry_over_the_byte_limit_is_not_cached_and_the_total_stays_in_budget(settings) -> None:
    settings.CACHE_MAX_ENTRY_BYTES, settings.CACHE_MAX_BYTES = 10_000, 50_000
    c = BoundedLocMemCache("budget-test", {"OPTIONS": {"MAX_ENTRIES": 1000}})
    c.set("big", "x" * 20_000)
    assert c.get("big") is None
    for i in range(20):
        c.set(f"k{i}", "y" * 8_000)
    assert c.size() <= 50_000 and c.get("k19") is not None and c.get("k0") is None


def test_the_bytes_held_are_counted_exactly_through_sets_deletes_overwrites_and_expiry(settings) -> None:
    settings.CACHE_MAX_ENTRY_BYTES, settings.CACHE_MAX_BYTES = 10_000, 30_000
    c = BoundedLocMemCache("count-test", {"OPTIONS": {"MAX_ENTRIES": 5}})
    c.clear()
    held = lambda: sum(len(v) for v in c._cache.values())   # noqa: E731  what the counter stands for
    for i in range(12):
        c.set(f"k{i % 7}", "v" * (1_000 * (i % 5 + 1)))   # overwrites, and evictions by count and by bytes
        assert c.size() == held() and c.size() <= 30_000 and len(c._cache) <= 5
    c.delete("k4")
    c.set("n", 1)
    c.incr("n", 10_000_000)
    c.set("gone", "x", timeout=-1)   # expired at once: the next get removes it
    assert c.get("gone") is None
    assert c.size() == held()
    c.clear()
    assert c.size() == 0 == held()


def test_a_large_input_does_not_fill_the_cache(client: Client, settings) -> None:
    settings.CACHE_MAX_ENTRY_BYTES = 200_000
    big = INIT.replace("name: init-demo", "name: init-demo\n  annotations: {note: '" + "z" * 400_000 + "'}", 1)
    assert client.post("/", {"manifest": big, "version": "1.34"}).status_code == 200
    assert cache.size() < 200_000   # type: ignore[attr-defined]


def test_a_failed_picture_is_cached_like_a_picture(client: Client, monkeypatch) -> None:
    calls = []

    def failing(dot: str, **kwargs: object) -> bytes:
        calls.append(dot)
        raise DiagramError("Graphviz could not lay out the diagram.")   # not a passing failure: kept

    monkeypatch.setattr(permalinks, "render_png", failing)
    link, _ = Permalink.store(INIT, None, "1.34")
    answers = [client.get(f"/p/{link.id}/sharing.png") for _ in range(3)]
    assert [a.status_code for a in answers] == [422] * 3 and len(calls) == 1
    assert b"could not lay out" in answers[2].content and "Retry-After" not in answers[2]


def test_comparison_pages_are_cached(client: Client, monkeypatch) -> None:
    left, _ = Permalink.store(INIT, None, "1.34")
    right, _ = Permalink.store(INIT, {"deleteAt": 5}, "1.34")
    calls = []
    original = models.explain
    monkeypatch.setattr(models, "explain", lambda *a, **k: calls.append(1) or original(*a, **k))
    first = client.get(f"/compare/?left={left.id}&right={right.id}")
    second = client.get(f"/compare/?left={left.id}&right={right.id}")
    assert first.status_code == second.status_code == 200 and len(calls) == 2   # both sides, once


@pytest.mark.parametrize("hops, forwarded, remote, expected", [
    (0, "1.1.1.1", "10.0.0.1", "10.0.0.1"),                         # no proxy trusted: the peer
    (1, "6.6.6.6, 203.0.113.7", "10.0.0.1", "203.0.113.7"),          # the spoofed entry is ignored
    (1, "", "10.0.0.1", "10.0.0.1"),                                 # no header: the peer
    (2, "6.6.6.6, 203.0.113.7, 10.0.0.2", "10.0.0.1", "203.0.113.7"),
    (3, "203.0.113.7", "10.0.0.1", "203.0.113.7"),                   # fewer hops than trusted
])
def test_the_client_is_the_right_most_untrusted_hop(settings, hops: int, forwarded: str, remote: str,
                                                    expected: str) -> None:
    settings.TRUSTED_PROXIES = hops
    request = RequestFactory().get("/", HTTP_X_FORWARDED_FOR=forwarded, REMOTE_ADDR=remote)
    assert client_key(request) == expected


@pytest.mark.postgres
def test_rate_limits_are_counted_in_the_database_without_redis(settings, monkeypatch) -> None:
    monkeypatch.setattr(security, "_shared_cache", lambda: False)   # as without REDIS_URL
    settings.SHARE_RATE_LIMIT, settings.SHARE_RATE_WINDOW = 3, 3600
    request = RequestFactory().post("/", REMOTE_ADDR="192.0.2.1")
    assert [rate_limited(request, "share") for _ in range(5)] == [False, False, False, True, True]
    assert RateCount.objects.get().count == 5
    cache.clear()   # a cache cleared (or another worker's) changes nothing
    assert rate_limited(request, "share") is True


def test_a_limited_client_costs_no_credential_scan(client: Client, settings, monkeypatch) -> None:
    settings.SHARE_RATE_LIMIT = 1
    scans = []
    original = share.find_secrets
    monkeypatch.setattr(share, "find_secrets", lambda text: scans.append(1) or original(text))
    codes = [client.post("/share/", {"manifest": INIT + f"# {i}\n", "version": "1.34"}).status_code
             for i in range(3)]
    assert codes == [200, 429, 429] and len(scans) == 1


def test_compare_share_and_drawn_pictures_are_rate_limited(client: Client, settings) -> None:
    settings.SHARE_RATE_LIMIT, settings.RENDER_RATE_LIMIT = 1, 2
    left, _ = Permalink.store(INIT, None, "1.34")
    right, _ = Permalink.store(INIT, {"deleteAt": 5}, "1.34")
    codes = [client.post("/compare/share/", {"left": left.id, "right": right.id}).status_code for _ in range(2)]
    assert codes == [303, 429]
    pictures = [client.get(f"/p/{left.id}/{name}").status_code
                for name in ("sharing.svg", "sharing.svg", "timeline.svg", "sharing.png")]
    assert pictures == [200, 200, 200, 429]   # the second is cached: only drawings count


@pytest.mark.redis
def test_with_redis_the_counts_and_the_entry_limit_live_in_redis(settings) -> None:
    if "redis" not in settings.CACHES["default"]["BACKEND"].lower():
        pytest.skip("REDIS_URL is not set (run with -p tests.services_plugin, as `make test` does)")
    settings.SHARE_RATE_LIMIT, settings.SHARE_RATE_WINDOW = 2, 3600
    request = RequestFactory().post("/", REMOTE_ADDR="192.0.2.2")
    assert [rate_limited(request, "share") for _ in range(3)] == [False, False, True]
    assert not RateCount.objects.exists()
    settings.CACHE_MAX_ENTRY_BYTES = 10_000
    cache.set("small", "x" * 100)
    cache.set("big", "x" * 20_000)
    assert cache.get("small") == "x" * 100 and cache.get("big") is None


def test_a_stored_thousand_pod_manifest_opens_with_the_limit_named(client: Client) -> None:
    link, _ = Permalink.store(pods(1000), None, "1.34")
    for url in (f"/p/{link.id}/", f"/embed/{link.id}/"):
        response = client.get(url)
        assert response.status_code == 200, url
    assert b"limit is 50 per request" in client.get(f"/p/{link.id}/").content
    assert client.get(f"/p/{link.id}/sharing.svg").status_code == 404   # no Pod explained: no picture
