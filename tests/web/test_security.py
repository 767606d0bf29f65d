"""Security: headers, no inline scripts, framing, body limits, rate limits, inert names, deploy check."""
from __future__ import annotations

import importlib
import os
import runpy
import re
import subprocess
import sys
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from django.test import Client

from explainer.web.models import Permalink
from tests.conftest import load_manifest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


def test_pages_carry_a_strict_content_security_policy(client: Client) -> None:
    response = client.get("/?example=lifecycle-demo")
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in csp
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"


def test_no_inline_scripts_or_event_handlers_in_any_page(client: Client) -> None:
    link, _ = Permalink.store(load_manifest("seeds/web-app-pod"), {"deleteAt": 60}, "1.34")
    for url in ("/", "/?example=web-app-pod", f"/p/{link.id}/", f"/embed/{link.id}/", "/rules/"):
        body = client.get(url).content.decode()
        for tag in re.findall(r"<script\b[^>]*>", body):
            assert "src=" in tag, (url, tag)
        assert not re.search(r"\son[a-z]+\s*=", body), url


def test_the_embed_view_may_be_framed_by_anyone(client: Client) -> None:
    link, _ = Permalink.store(load_manifest("seeds/init-example"), None, "1.34")
    response = client.get(f"/embed/{link.id}/")
    assert "frame-ancestors *" in response["Content-Security-Policy"]
    assert "X-Frame-Options" not in response


def test_oversized_bodies_get_413_with_a_message(client: Client, settings) -> None:
    settings.MAX_REQUEST_BYTES = 1000
    response = client.post("/", {"manifest": "x" * 5000, "version": "1.34"})
    assert response.status_code == 413 and b"limit is 1,000 bytes" in response.content


def test_permalink_creation_is_rate_limited_per_client(client: Client, settings) -> None:
    settings.SHARE_RATE_LIMIT = 2
    manifests = [load_manifest("seeds/init-example") + f"# {i}\n" for i in range(3)]
    codes = [client.post("/share/", {"manifest": m, "version": "1.34"}).status_code for m in manifests]
    assert codes == [200, 200, 429]
    other = Client(REMOTE_ADDR="10.9.9.9")
    assert other.post("/share/", {"manifest": manifests[2], "version": "1.34"}).status_code == 200


HOSTILE = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "a]b->c:d", "{{7*7}}"]


def test_manifest_text_renders_inert_in_every_view_and_export(client: Client) -> None:
    manifest = load_manifest("pods/hostile_admitted")
    link, _ = Permalink.store(manifest, {"debug": [{"name": "dbg", "image": "<script>alert(2)</script>", "at": 5}],
                                         "deleteAt": 20}, "1.34")
    urls = [f"/p/{link.id}/", f"/embed/{link.id}/", f"/p/{link.id}/timeline.svg", f"/p/{link.id}/sharing.svg",
            f"/p/{link.id}.md", f"/p/{link.id}.json"]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        body = response.content.decode()
        if url.endswith(".json"):   # data, faithfully: inert as application/json with nosniff
            assert response["Content-Type"] == "application/json"
            assert response["X-Content-Type-Options"] == "nosniff"
            continue
        if url.endswith(".md"):   # what a CommonMark renderer (raw HTML allowed) makes of it
            body = MarkdownIt("commonmark", {"html": True}).enable("table").render(body)
        assert "<script>alert" not in body, url
        assert "<img src=x" not in body, url
    for text in (manifest, load_manifest("pods/hostile_names")):
        page = client.post("/", {"manifest": text, "version": "1.34"}, HTTP_HX_REQUEST="true").content.decode()
        assert "<script>alert" not in page and "<img src=x" not in page


def test_manage_py_check_deploy_passes_with_production_settings(tmp_path: Path) -> None:
    env = {**_without_explainer_settings(), "EXPLAINER_DEBUG": "false",
           "EXPLAINER_SECRET_KEY": "x7Q!z9#Lm2$vB8&pR4^tY6*wE1@uI3%oA5-k8Jd0Hs7Gf6Vb5Nc4Xz3",
           "EXPLAINER_ALLOWED_HOSTS": "explainer.example.org", "EXPLAINER_DB_PATH": str(tmp_path / "db.sqlite3")}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)   # set for the browser tests of this session only
    done = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def _without_explainer_settings() -> dict[str, str]:
    """This process's environment without EXPLAINER_* settings: a subprocess gets the defaults."""
    return {k: v for k, v in os.environ.items() if not k.startswith("EXPLAINER_")}


SERVE = "import explainer.wsgi"   # what gunicorn and runserver do first


@pytest.mark.parametrize("key, why", [(None, "must be set"), ("12345", "too short"),
                                      ("dev-only-insecure-secret-key", "must be set"), ("a" * 60, "too simple")])
def test_production_refuses_to_serve_with_a_missing_short_or_default_secret_key(key: str | None, why: str) -> None:
    env = {**os.environ, "EXPLAINER_DEBUG": "false"}
    env.pop("EXPLAINER_SECRET_KEY", None)
    if key is not None:
        env["EXPLAINER_SECRET_KEY"] = key
    done = subprocess.run([sys.executable, "-c", SERVE], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode != 0 and "EXPLAINER_SECRET_KEY" in done.stderr and why in done.stderr
    check = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=120)
    assert check.returncode != 0 and "explainer.E001" in check.stderr


def test_debug_is_off_unless_the_environment_turns_it_on() -> None:
    env = {k: v for k, v in _without_explainer_settings().items() if k != "DJANGO_SETTINGS_MODULE"}
    code = "from django.conf import settings as s; print(s.DEBUG, s.SECURE_HSTS_PRELOAD, s.SECURE_SSL_REDIRECT)"
    done = subprocess.run([sys.executable, "-c", "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = "
                           f"'explainer.settings'; django.setup(); {code}"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["False", "False", "True"], done.stderr   # no preload unless asked for
    makefile = (ROOT / "Makefile").read_text()
    run = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "EXPLAINER_DEBUG=" in run and "true" in run


def test_the_command_line_needs_no_secret_key() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("EXPLAINER_DEBUG", "EXPLAINER_SECRET_KEY")}
    done = subprocess.run([sys.executable, "manage.py", "explain", "-"], cwd=ROOT, env=env, capture_output=True,
                          input=load_manifest("seeds/init-example"), text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_make_serve_refuses_several_workers_on_the_per_process_cache() -> None:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(EXPLAINER_SECRET_KEY="k" * 10 + "x7Q!z9#Lm2$vB8&pR4^tY6*wE1@uI3%oA5-k8Jd0Hs7Gf6Vb5Nc4Xz3",
               EXPLAINER_WORKERS="4")
    done = subprocess.run(["make", "-s", "-o", "setup", "serve"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)   # -o setup: the check runs before anything is set up or started
    assert done.returncode != 0 and "needs REDIS_URL" in done.stdout
    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    module, _, name = conf["worker_class"].rpartition(".")
    from gunicorn.workers.gthread import ThreadWorker
    assert issubclass(getattr(importlib.import_module(module), name), ThreadWorker)   # threads, and a probe lane
    assert conf["timeout"] == 30 and conf["threads"] >= 2


def test_an_oversized_body_is_refused_in_the_readers_language_whatever_the_last_request_used(
        client: Client, settings) -> None:
    """The 413 is written before LocaleMiddleware runs: it must not take the language a previous request
    left active in the thread."""
    settings.MAX_REQUEST_BYTES = 1000
    client.get("/", HTTP_ACCEPT_LANGUAGE="zh-hans")           # leaves Chinese active in this thread
    english = client.post("/", {"manifest": "x" * 5000, "version": "1.34"}, HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 413 and b"limit is 1,000 bytes" in english.content
    chinese = client.post("/", {"manifest": "x" * 5000, "version": "1.34"}, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert chinese.status_code == 413 and 'lang="zh-hans"' in chinese.content.decode()
