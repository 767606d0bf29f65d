"""Faults say what broke (issue 27): Redis down or hung is a cache that misses (a short time-out, then
none), a database that is full or gone is a 503 that says so, and /healthz reports the database and the
cache (the readiness probe of deploy/ reads it; liveness reads /livez).

The Redis and PostgreSQL cases run against the real servers of `make test` (tests/services_plugin.py
starts them; these tests stop, freeze and restart them); the full disk is SQLite's own SQLITE_FULL.
"""
from __future__ import annotations

import json
import os
import signal
import time
from typing import Any, Callable

import pytest
from django.db import connection
from django.test import Client

from tests.conftest import load_manifest
from tests.test_services import _require

DEMO = load_manifest("seeds/lifecycle-demo")
HANG = 20.0   # a request that has not returned by then waits for a server that does not answer


class NoAnswer(Exception):
    pass


def answered_within(seconds: float, work: Callable[[], Any]) -> Any:
    """``work()``, in this thread (its database connection is the test's, so what it writes is rolled
    back), failing when it has not returned within ``seconds`` (SIGALRM interrupts a blocked read)."""
    def too_late(_signum: int, _frame: Any) -> None:
        raise NoAnswer(f"no answer within {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, too_late)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return work()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _share(client: Client, n: int) -> Any:
    return client.post("/api/v1/permalinks", json.dumps({"manifest": DEMO + f"# {n}\n"}),
                       content_type="application/json")


# ---- /healthz and /livez --------------------------------------------------------------------------------
@pytest.mark.django_db
def test_healthz_reports_the_database_and_the_cache(client: Client) -> None:
    response = client.get("/healthz")
    lines = response.content.decode().splitlines()
    assert response.status_code == 200 and lines[:2] == ["ok", "database: ok"] and lines[2].startswith("cache: ok")
    assert client.get("/livez").content == b"ok\n"


def test_the_deployment_probes_readiness_with_healthz_and_liveness_with_livez() -> None:
    import yaml
    from tests.conftest import TESTS_DIR
    docs = list(yaml.safe_load_all((TESTS_DIR.parent / "deploy" / "kubernetes" / "web.yaml").read_text()))
    pod = next(d for d in docs if d and d.get("kind") == "Deployment")["spec"]["template"]["spec"]
    web = next(c for c in pod["containers"] if c["name"] == "web")
    assert web["readinessProbe"]["httpGet"]["path"] == "/healthz"
    assert web["livenessProbe"]["httpGet"]["path"] == "/livez"


# ---- a full disk (SQLite) ---------------------------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_a_full_database_says_so(client: Client) -> None:
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's page limit stands in for a full disk; PostgreSQL has its own test below")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA page_count")
        (pages,) = cursor.fetchone()
        cursor.execute(f"PRAGMA max_page_count = {pages}")   # every new page: SQLITE_FULL, as a full disk
    try:
        bulky = "# " + "x" * 100_000 + "\n"          # more than the free room of the pages there are
        api = client.post("/api/v1/permalinks", json.dumps({"manifest": DEMO + bulky}), content_type="application/json")
        assert api.status_code == 503 and api.json()["storage"] == "full", api.content[:300]
        assert "storage is full" in api.json()["error"]
        page = client.post("/share/", {"manifest": DEMO + bulky + "# 2\n", "version": "1.34"}, HTTP_HX_REQUEST="true")
        assert page.status_code == 503 and "storage is full" in page.content.decode()
        assert "storage%20is%20full" in page["X-Explainer-Message"]   # what the page's script shows
        assert "smaller manifest" not in page.content.decode()
        _fill(bulky)
        health = client.get("/healthz")
        assert health.status_code == 503 and "database: full" in health.content.decode()
    finally:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA max_page_count = 1073741823")


def _fill(text: str) -> None:
    """Use up what room the database has left (rows until SQLite says it is full)."""
    from django.db import DatabaseError

    from explainer.web.models import RateCount
    for i in range(100_000):
        try:
            RateCount.objects.create(key=f"fill:{i}:" + "x" * 150, count=0, expires=0)
        except DatabaseError:
            return
    raise AssertionError("the database never filled")


# ---- Redis down, Redis hung ---------------------------------------------------------------------------------
def _redis() -> Any:
    _require("EXPLAINER_TEST_REDIS", bool(os.environ.get("REDIS_URL")), "REDIS_URL is not set")
    from tests.services_plugin import SERVICES
    if SERVICES.redis is None:
        pytest.skip("the Redis server was not started by tests/services_plugin.py, so this test cannot stop it")
    return SERVICES.redis


@pytest.fixture
def fresh_cache_health() -> Any:
    from explainer.web.cache import HEALTH
    HEALTH.down_until = 0.0
    yield HEALTH
    HEALTH.down_until = 0.0


@pytest.mark.redis
@pytest.mark.django_db
def test_with_redis_down_pages_shares_and_exports_answer(client: Client, fresh_cache_health: Any) -> None:
    redis = _redis()
    assert client.get("/?example=lifecycle-demo").status_code == 200
    redis.stop()
    try:
        page = answered_within(HANG, lambda: client.get("/?example=web-app-pod"))
        assert page.status_code == 200 and b"<svg" in page.content
        shared = answered_within(HANG, lambda: _share(client, 3))       # its rate limit counts in the database
        assert shared.status_code == 201, shared.content
        pid = shared.json()["id"]
        for path in (f"/p/{pid}/", f"/p/{pid}.json", f"/p/{pid}/timeline.svg"):
            assert answered_within(HANG, lambda: client.get(path)).status_code == 200, path
        health = client.get("/healthz")
        assert health.status_code == 200 and "cache: unavailable, working without it" in health.content.decode()
    finally:
        redis.start()
    fresh_cache_health.down_until = 0.0
    assert "cache: ok (redis)" in client.get("/healthz").content.decode()


@pytest.mark.redis
@pytest.mark.django_db
def test_with_redis_hung_requests_do_not_wait_for_it(client: Client, fresh_cache_health: Any) -> None:
    redis = _redis()
    pid = redis.process.pid
    os.kill(pid, signal.SIGSTOP)       # the server accepts connections and never answers
    try:
        started = time.monotonic()
        page = answered_within(HANG, lambda: client.get("/?example=init-example"))
        first = time.monotonic() - started
        assert page.status_code == 200
        shared = answered_within(HANG, lambda: _share(client, 4))
        assert shared.status_code == 201, shared.content
        health = answered_within(HANG, lambda: client.get("/healthz"))
        assert health.status_code == 200 and "cache: unavailable" in health.content.decode()
        # one short time-out, then the cache is skipped: not a wait per call
        assert first < 10, f"the first page took {first:.1f} s"
    finally:
        os.kill(pid, signal.SIGCONT)


# ---- PostgreSQL down ---------------------------------------------------------------------------------------
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_with_postgres_down_healthz_fails_and_shares_say_why(client: Client) -> None:
    _require("EXPLAINER_TEST_POSTGRES", connection.vendor == "postgresql", "DATABASE_URL is not a PostgreSQL URL")
    from tests.services_plugin import SERVICES, restart_postgres
    if SERVICES.postgres is None:
        pytest.skip("the server was not started by tests/services_plugin.py, so this test cannot stop it")
    connection.close()
    SERVICES.postgres.stop()
    try:
        health = answered_within(HANG, lambda: client.get("/healthz"))
        assert health.status_code == 503 and "database: unavailable" in health.content.decode()
        assert client.get("/livez").status_code == 200          # alive: restarting it would not help
        api = answered_within(HANG, lambda: _share(client, 5))
        assert api.status_code == 503 and api.json()["storage"] == "unavailable"
        assert "database cannot be reached" in api.json()["error"]
        page = answered_within(HANG, lambda: client.get("/p/AAAAAAAAAAAA/"))
        assert page.status_code == 503 and "database cannot be reached" in page.content.decode()
    finally:
        SERVICES.postgres.start()
        restart_postgres()
        connection.close()
    assert client.get("/healthz").status_code == 200
