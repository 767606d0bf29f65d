"""The real servers behind DATABASE_URL and REDIS_URL: PostgreSQL (survives a restart) and Redis.

These run in the second half of `make test`, with the plugin tests/services_plugin.py, which
starts throwaway servers on loopback (pytest-postgresql's and pytest-redis's executors) and sets
EXPLAINER_TEST_POSTGRES / EXPLAINER_TEST_REDIS. In the plain SQLite run they skip; when those
markers are set, a missing service is a failure.
"""
from __future__ import annotations

import os
import uuid

import pytest


def _require(marker: str, ready: bool, reason: str) -> None:
    """Skip when the service is not configured, but fail when tests/services_plugin.py promised it."""
    if ready:
        return
    if os.environ.get(marker) == "1":
        pytest.fail(f"{marker}=1 but {reason}")
    pytest.skip(f"{reason} (run with -p tests.services_plugin, as `make test` does)")


def _postgres_configured() -> bool:
    from django.db import connection

    return connection.vendor == "postgresql"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_postgres_round_trip() -> None:
    _require("EXPLAINER_TEST_POSTGRES", _postgres_configured(), "DATABASE_URL is not a PostgreSQL URL")
    from django.conf import settings
    from django.db import connection

    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    assert settings.DATABASES["default"]["CONN_MAX_AGE"] == 600
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True
    # pytest-django made test_<NAME> on the server named by DATABASE_URL.
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database(), inet_server_addr()::text")
        database, address = cursor.fetchone()
    assert database == connection.settings_dict["NAME"]
    assert database.startswith("test_")
    assert address.split("/")[0] == connection.settings_dict["HOST"]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_postgres_keeps_committed_rows_across_a_server_restart() -> None:
    _require("EXPLAINER_TEST_POSTGRES", _postgres_configured(), "DATABASE_URL is not a PostgreSQL URL")
    from tests.services_plugin import SERVICES, restart_postgres

    if SERVICES.postgres is None:
        pytest.skip("the server was not started by tests/services_plugin.py, so this test cannot restart it")
    from django.db import connection

    token = uuid.uuid4().hex
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_postmaster_start_time()")
        (started_before,) = cursor.fetchone()
        cursor.execute("CREATE TABLE IF NOT EXISTS explainer_restart_probe (token text PRIMARY KEY)")
        cursor.execute("INSERT INTO explainer_restart_probe (token) VALUES (%s)", [token])
    connection.close()  # autocommit: the row is committed; let the server go

    restart_postgres()               # pg_ctl stop -m fast, then start on the same data directory

    try:
        with connection.cursor() as cursor:  # a new connection to the restarted server
            cursor.execute("SELECT pg_postmaster_start_time()")
            (started_after,) = cursor.fetchone()
            assert started_after > started_before, "the server was not restarted"
            cursor.execute("SELECT token FROM explainer_restart_probe WHERE token = %s", [token])
            assert cursor.fetchall() == [(token,)]
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE IF EXISTS explainer_restart_probe")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_kept_connection_broken_by_a_restart_is_replaced_when_the_next_request_starts() -> None:
    """CONN_MAX_AGE keeps one connection per worker; CONN_HEALTH_CHECKS replaces a dead one."""
    _require("EXPLAINER_TEST_POSTGRES", _postgres_configured(), "DATABASE_URL is not a PostgreSQL URL")
    from tests.services_plugin import SERVICES, restart_postgres

    if SERVICES.postgres is None:
        pytest.skip("the server was not started by tests/services_plugin.py, so this test cannot restart it")
    from django.db import close_old_connections, connection

    from explainer.web.models import Permalink

    close_old_connections()   # what request_started does for every request
    Permalink.objects.exists()
    kept = connection.connection
    close_old_connections()
    Permalink.objects.exists()
    assert connection.connection is kept, "the connection was not kept between requests"

    restart_postgres()

    close_old_connections()
    assert Permalink.objects.exists() in (True, False)   # no OperationalError: a new connection
    assert connection.connection is not kept


@pytest.mark.redis
def test_redis_cache_sets_and_gets_through_django() -> None:
    _require("EXPLAINER_TEST_REDIS", bool(os.environ.get("REDIS_URL")), "REDIS_URL is not set")
    import redis
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    backend = caches["default"]
    assert isinstance(backend, RedisCache), f"default cache is {type(backend).__name__}, not RedisCache"

    key = f"test-services-{uuid.uuid4().hex}"
    value = {"svg": "<svg/>", "n": 3}
    backend.set(key, value, timeout=60)
    try:
        assert backend.get(key) == value
        # It really is in the server named by REDIS_URL, not in this process.
        client = redis.Redis.from_url(os.environ["REDIS_URL"])
        try:
            assert client.exists(backend.make_and_validate_key(key)) == 1
        finally:
            client.close()
    finally:
        backend.delete(key)
    assert backend.get(key) is None
