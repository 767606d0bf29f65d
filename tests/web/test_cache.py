"""Analyses and pictures are cached by a hash of the input (issue 6).

Marked `redis`: `make test` runs this module again with REDIS_URL pointing at a real
redis-server, so the same assertions hold for the shared cache.
"""
from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client

import explainer.web.models as models
import explainer.web.views as views
from explainer.web.models import Permalink
from tests.conftest import load_manifest

pytestmark = [pytest.mark.django_db, pytest.mark.redis]


@pytest.fixture
def explain_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    for module in (views, models):
        original = module.explain

        def counting(*args, _original=original, **kwargs):
            calls.append("explain")
            return _original(*args, **kwargs)

        monkeypatch.setattr(module, "explain", counting)
    return calls


def test_permalink_page_is_analysed_once_then_served_from_cache(client: Client, explain_calls: list[str]) -> None:
    link, _ = Permalink.store(load_manifest("seeds/web-app-pod"), {"deleteAt": 60}, "1.34")
    first = client.get(f"/p/{link.id}/").content
    assert explain_calls == ["explain"]
    second = client.get(f"/p/{link.id}/").content
    assert explain_calls == ["explain"]
    assert first.count(b"<svg") == second.count(b"<svg")


def test_the_cache_is_per_language(client: Client, explain_calls: list[str]) -> None:
    link, _ = Permalink.store(load_manifest("seeds/init-example"), None, "1.34")
    client.get(f"/p/{link.id}/")
    client.get(f"/p/{link.id}/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert len(explain_calls) == 2


@pytest.mark.parametrize("suffix", ["/timeline.svg", "/sharing.png", ".json", ".md"])
def test_exports_are_served_from_cache_after_the_first_view(client: Client, explain_calls: list[str],
                                                             suffix: str) -> None:
    link, _ = Permalink.store(load_manifest("seeds/lifecycle-demo"), None, "1.34")
    a = client.get(f"/p/{link.id}{suffix}").content
    b = client.get(f"/p/{link.id}{suffix}").content
    assert a == b and len(explain_calls) == 1


def test_a_deleted_permalink_is_not_served_from_cache(client: Client) -> None:
    link, token = Permalink.store(load_manifest("seeds/lifecycle-demo"), None, "1.34")
    assert client.get(f"/p/{link.id}/timeline.svg").status_code == 200
    client.post(f"/p/{link.id}/delete/", {"token": token})
    assert client.get(f"/p/{link.id}/timeline.svg").status_code == 404


def test_the_editor_reuses_the_analysis_of_the_same_input(client: Client, explain_calls: list[str]) -> None:
    data = {"manifest": load_manifest("seeds/lifecycle-demo"), "version": "1.34"}
    client.post("/", data, HTTP_HX_REQUEST="true")
    client.post("/", data, HTTP_HX_REQUEST="true")
    assert explain_calls == ["explain"]
    data["delete_at"] = "20"
    client.post("/", data, HTTP_HX_REQUEST="true")
    assert len(explain_calls) == 2


def test_the_configured_backend_holds_the_entries(client: Client, settings) -> None:
    link, _ = Permalink.store(load_manifest("seeds/init-example"), None, "1.34")
    client.get(f"/p/{link.id}/timeline.svg")
    key = f"export:{link.id}:timeline.svg:0:en"   # link, export, Pod index, language
    assert cache.get(key) is not None
    if "redis" in settings.CACHES["default"]["BACKEND"].lower():
        import redis
        server = redis.Redis.from_url(settings.CACHES["default"]["LOCATION"])
        assert any(k.endswith(key.encode()) for k in server.keys("*export*"))


def test_the_same_htmx_input_gets_the_same_fragment_without_rendering_it_again(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    data = {"manifest": load_manifest("seeds/lifecycle-demo"), "version": "1.34", "delete_at": "30"}
    first = client.post("/", data, HTTP_HX_REQUEST="true")
    renders: list[str] = []
    monkeypatch.setattr(views, "render_to_string", lambda *a, **k: renders.append("render"))
    again = client.post("/", {**data, "csrfmiddlewaretoken": "another visitor's"}, HTTP_HX_REQUEST="true")
    assert renders == [] and again.status_code == 200
    assert again.content == first.content and again["Content-Type"] == first["Content-Type"]
    assert b'id="result"' in again.content and b"<svg" in again.content


@pytest.mark.parametrize("change", [{"delete_at": "31"}, {"c.app.crashes": "1"}, {"version": "1.27"},
                                    {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}, {"HTTP_HX_REQUEST": None}])
def test_any_other_field_language_or_a_full_page_is_rendered_afresh(client: Client, change: dict) -> None:
    data = {"manifest": load_manifest("seeds/lifecycle-demo"), "version": "1.34", "delete_at": "30"}
    first = client.post("/", data, HTTP_HX_REQUEST="true").content
    headers = {"HTTP_HX_REQUEST": "true"}
    for key, value in change.items():
        (headers if key.startswith("HTTP_") else data)[key] = value
    second = client.post("/", data, **{k: v for k, v in headers.items() if v is not None}).content
    assert second != first and b'id="result"' in second


def test_input_the_form_refuses_is_not_kept_as_a_fragment(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = {"manifest": "", "version": "1.34"}
    first = client.post("/", bad, HTTP_HX_REQUEST="true")
    renders: list[str] = []
    original = views.render_to_string
    monkeypatch.setattr(views, "render_to_string", lambda *a, **k: renders.append("render") or original(*a, **k))
    again = client.post("/", bad, HTTP_HX_REQUEST="true")
    assert renders == ["render"] and again.content == first.content


def test_a_what_if_change_reuses_the_drawn_diagram(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    import explainer.web.present as present

    data = {"manifest": load_manifest("seeds/lifecycle-demo"), "version": "1.34"}
    drawn = client.post("/", data, HTTP_HX_REQUEST="true").content.decode()
    started: list[str] = []
    original = present.start_svg
    monkeypatch.setattr(present, "start_svg", lambda dot: started.append(dot) or original(dot))
    data["c.app.crashes"] = "2"   # another timeline, the same containers and sharing: the same DOT
    changed = client.post("/", data, HTTP_HX_REQUEST="true").content.decode()
    assert started == []
    assert _diagram(changed) == _diagram(drawn) and "<svg" in _diagram(changed)
    renamed = {"manifest": data["manifest"].replace("name: app\n", "name: app2\n"), "version": "1.34"}
    assert "<svg" in _diagram(client.post("/", renamed, HTTP_HX_REQUEST="true").content.decode())
    assert len(started) == 1   # another diagram: dot draws it


def _diagram(page: str) -> str:
    """The SVG Graphviz drew (its <g class="graph">), as it stands in the page."""
    [svg] = [s for s in re.findall(r"<svg\b.*?</svg>", page, flags=re.S) if 'class="graph"' in s]
    return svg


def _diagram_section(body: bytes) -> str:
    return re.search(r'<section class="panel" data-diagram="pod-1">.*?</section>', body.decode(), re.S).group(0)


def test_a_what_if_change_reuses_the_diagram_source_unless_what_it_shows_changed(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    import explainer.web.present as present
    built: list[str] = []
    original = present.sharing_diagram
    monkeypatch.setattr(present, "sharing_diagram", lambda r, **kw: built.append(r.pod.name) or original(r, **kw))
    demo = load_manifest("seeds/lifecycle-demo").replace("name: lifecycle-demo", "name: memo-demo", 1)

    def diagram(**fields: str) -> str:
        response = client.post("/", {"manifest": demo, "version": "1.34", **fields}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        return _diagram_section(response.content)

    plain = diagram()
    assert diagram(delete_at="40") == diagram(delete_at="41") == plain and len(built) == 1   # timings: reused
    with_debugger = diagram(debug_at="5", debug_name="dbg")   # a debug container joins the drawing
    assert "dbg" in with_debugger and "dbg" not in plain and len(built) == 2
    assert diagram(debug_at="5", debug_name="dbg", delete_at="30") == with_debugger and len(built) == 2
    diagram(scenario="featureGates: {PodReadyToStartContainersCondition: false}\n")
    assert len(built) == 3   # feature gates decide what the API server keeps of the Pod: drawn again


def test_the_fragment_and_the_analysis_are_stored_once_the_response_is_sent(rf) -> None:
    from django_htmx.middleware import HtmxDetails

    data = {"manifest": load_manifest("seeds/lifecycle-demo").replace("lifecycle-demo", "after-send", 1),
            "version": "1.34", "delete_at": "12"}
    request = rf.post("/", data, HTTP_HX_REQUEST="true")
    request.htmx = HtmxDetails(request)
    response = views.index(request)
    key = views.fragment_key(request)
    assert response.status_code == 200 and cache.get(key) is None   # not yet: the body is still on its way
    response.close()   # what the WSGI server does when the body is out
    assert cache.get(key) == response.content.decode()


# ---- faults of the cache are misses, never a 500 (issue 27) ------------------------------------------------
def _poison(key: str, data: bytes) -> None:
    """Store raw bytes under ``key`` as the back-end would hold a pickled entry (one written by other code)."""
    full = cache.make_and_validate_key(key)
    if hasattr(cache, "_cache") and isinstance(cache._cache, dict):      # local memory: pickles per entry
        cache.set(key, "placeholder")
        with cache._lock:
            cache._cache[full] = data
    else:                                                                 # Redis: the pickle is the value
        cache._cache.get_client(write=True).set(full, data, ex=60)


def _explained_key(client: Client, manifest: str) -> str:
    """The key of the analysis behind /?example=lifecycle-demo (``manifest`` is that example's text)."""
    from explainer.examples import BY_SLUG
    from explainer.lifecycle import defaults as d
    example = BY_SLUG["lifecycle-demo"]
    assert example.manifest() == manifest
    # "explained:<language>:<the panel's width, none measured>:<input>" (views.run_explain, web/fit.py)
    return f"explained:en::{views.fingerprint(manifest, example.scenario or None, d.DEFAULT_VERSION)}"


def test_cache_keys_carry_the_release(settings, monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    from explainer import settings as project
    assert settings.RELEASE and settings.RELEASE in settings.CACHES["default"]["KEY_PREFIX"]
    assert settings.RELEASE in cache.make_key("x")
    monkeypatch.setenv("EXPLAINER_RELEASE", "2026.12.1")
    assert project.release_id() == "2026.12.1"
    monkeypatch.delenv("EXPLAINER_RELEASE")
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "a.html").write_text("<p>one</p>")
    monkeypatch.setattr(project, "BASE_DIR", tmp_path)
    before = project.release_id()
    (tmp_path / "templates" / "a.html").write_text("<p>two</p>")
    assert project.release_id() != before            # another release of the templates: other keys


@pytest.mark.parametrize("data", [b"\x80\x05\x95 not a pickle", b"\x80\x04\x95\x1c\x00\x00\x00\x00\x00\x00\x00"
                                  b"\x8c\x0bgone_module\x94\x8c\x05Thing\x94\x93\x94)\x81\x94."])
def test_an_entry_that_cannot_be_unpickled_is_a_miss(client: Client, data: bytes) -> None:
    example = "/?example=lifecycle-demo"
    manifest = load_manifest("seeds/lifecycle-demo")
    good = client.get(example)
    assert good.status_code == 200
    _poison(_explained_key(client, manifest), data)
    again = client.get(example)
    assert again.status_code == 200 and again.content.count(b"<svg") == good.content.count(b"<svg")
    assert isinstance(cache.get(_explained_key(client, manifest)), dict)     # computed again and stored


class _OldPodView:
    """What an older release pickled: a view without the fields this release reads."""

    name, kind = "lifecycle-demo", "Pod"


def test_a_cached_analysis_that_no_longer_suits_the_code_is_computed_again(client: Client) -> None:
    example = "/?example=lifecycle-demo"
    manifest = load_manifest("seeds/lifecycle-demo")
    good = client.get(example)
    key = _explained_key(client, manifest)
    stale = dict(cache.get(key))
    stale["pods"] = [_OldPodView()]
    cache.set(key, stale)
    again = client.get(example)
    assert again.status_code == 200 and again.content.count(b"<svg") == good.content.count(b"<svg")
    assert not isinstance(cache.get(key)["pods"][0], _OldPodView)


def test_a_pod_view_pickled_without_a_later_field_gets_its_default() -> None:
    import pickle

    from explainer.web.present import PodView
    view = PodView("p", "Pod", 1, True, [], [])
    state = view.__getstate__()
    del state["qos_class"], state["findings"]
    old = PodView.__new__(PodView)
    old.__setstate__(state)
    assert old.qos_class == "" and old.findings == [] and pickle.loads(pickle.dumps(old)).name == "p"


# ---- large permalinks and comparisons are cached compressed; computing them again is rate limited -------
def _crash_pod(n: int) -> tuple[str, dict]:
    manifest = "apiVersion: v1\nkind: Pod\nmetadata: {name: crash}\nspec:\n  containers:\n" + \
        "".join(f"  - {{name: c{i}, image: busybox}}\n" for i in range(n))
    return manifest, {"until": 3600, "containers": {f"c{i}": {"runSeconds": 1 + i % 5, "exitCode": 1} for i in range(n)}}


@pytest.fixture
def in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Costly work done in this process (not a child of it, web/isolate.py), so that its calls are counted here."""
    from explainer.web import isolate
    monkeypatch.setattr(isolate, "run_isolated", lambda work, seconds=None: work())


def test_a_large_permalink_page_is_cached_compressed_and_read_once(client: Client, explain_calls: list[str],
                                                                    settings, in_process: None) -> None:
    import pickle

    from explainer.web.cache import Packed, pack
    settings.CACHE_MAX_ENTRY_BYTES = 400_000
    link, _ = Permalink.store(*_crash_pod(60), "1.34")
    first = client.get(f"/p/{link.id}/")
    assert first.status_code == 200 and len(first.content) > settings.CACHE_MAX_ENTRY_BYTES   # too large as it is
    second = client.get(f"/p/{link.id}/")
    assert second.status_code == 200 and second.content.count(b"<svg") == first.content.count(b"<svg")
    assert explain_calls == ["explain"]           # the page parts came from the cache, compressed
    assert isinstance(pack({"html": "x" * 200_000}), Packed) and pickle.loads(pickle.dumps(Packed(b"x")))


def test_a_large_comparison_is_cached(client: Client, explain_calls: list[str], settings, in_process: None) -> None:
    settings.CACHE_MAX_ENTRY_BYTES = 400_000
    manifest, scenario = _crash_pod(60)
    left, _ = Permalink.store(manifest, scenario, "1.34")
    right, _ = Permalink.store(manifest, {**scenario, "deleteAt": 600}, "1.34")
    url = f"/compare/?left={left.id}&right={right.id}"
    first = client.get(url)
    calls = len(explain_calls)
    assert first.status_code == 200 and calls == 2
    assert client.get(url).status_code == 200 and len(explain_calls) == calls


def test_reads_that_compute_a_link_again_are_rate_limited(client: Client, settings) -> None:
    settings.COSTLY_READ_RATE_LIMIT = 2
    links = [Permalink.store(load_manifest("seeds/init-example"), {"deleteAt": 10 + i}, "1.34")[0] for i in range(3)]
    assert [client.get(f"/p/{link.id}/").status_code for link in links[:2]] == [200, 200]
    refused = client.get(f"/p/{links[2].id}/")
    assert refused.status_code == 429 and "computed afresh" in refused.content.decode()
    assert refused["Retry-After"]
    assert client.get(f"/p/{links[0].id}/").status_code == 200          # in the cache: not counted
    api = client.get(f"/api/v1/permalinks/{links[2].id}")
    assert api.status_code == 429 and "computed afresh" in api.json()["error"]


@pytest.mark.django_db(transaction=True)
def test_the_same_export_asked_for_at_once_is_computed_once(explain_calls: list[str], settings) -> None:
    import threading
    import time as clock

    settings.COSTLY_READ_RATE_LIMIT = 0   # no rate-limit rows: the test database's shared cache locks per table

    link, _ = Permalink.store(*_crash_pod(30), "1.34")
    real = models.explain

    def slow(*args, **kwargs):        # long enough for every thread to ask while it computes
        clock.sleep(0.3)
        return real(*args, **kwargs)

    models.explain = slow
    try:
        codes: list[int] = []
        threads = [threading.Thread(target=lambda: codes.append(Client().get(f"/p/{link.id}.json").status_code))
                   for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    finally:
        models.explain = real
    assert codes == [200, 200, 200]
    assert explain_calls == ["explain"], explain_calls
