"""Throwaway PostgreSQL and Redis for the tests marked ``postgres`` or ``redis``.

    pytest -p tests.services_plugin -m "postgres or redis"

The servers are started by the maintained executors of pytest-postgresql and pytest-redis, on
loopback, on free ports, with their data in a fresh temporary directory, and stopped (their
directories removed) when pytest ends.  They start in ``pytest_load_initial_conftests``, before
pytest-django reads the settings, so ``DATABASE_URL`` and ``REDIS_URL`` point the app at them
exactly as in production.  ``EXPLAINER_TEST_POSTGRES`` / ``EXPLAINER_TEST_REDIS`` turn a skip for
a missing service into a failure.  ``SERVICES.postgres`` is the executor, so a test can restart
the server (``stop()`` then ``start()``: the data directory is kept).

As root (CI runs as root) the PostgreSQL programs run as the ``postgres`` system user through a
two-line wrapper around ``pg_ctl``, since initdb refuses to run as root.  When ``DATABASE_URL`` or
``REDIS_URL`` is already set, that server is used and none is started.
"""
from __future__ import annotations

import glob
import os
import pwd
import re
import shutil
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import port_for
import pytest

HOST = "127.0.0.1"


@dataclass
class Services:
    postgres: Any = None           # pytest_postgresql's PostgreSQLExecutor, when this plugin started one
    redis: Any = None              # pytest_redis's RedisExecutor
    tmp: Path | None = None


SERVICES = Services()


def _pg_ctl() -> str:
    """pg_ctl of the newest PostgreSQL installed (Debian keeps it under /usr/lib/postgresql/N/bin)."""
    found = glob.glob("/usr/lib/postgresql/*/bin/pg_ctl")
    if not found:
        raise pytest.UsageError("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/pg_ctl): "
                                "run `make setup` or `apt-get install postgresql`")
    return max(found, key=lambda p: [int(n) for n in re.findall(r"\d+", p)])


def _as_postgres_user(pg_ctl: str, tmp: Path) -> str:
    """As root: a pg_ctl that runs as the postgres user, and a tree that user may write in."""
    user = pwd.getpwnam("postgres")
    wrapper = tmp / "pg_ctl"
    wrapper.write_text(f'#!/bin/sh\nexec runuser -u postgres -- "{pg_ctl}" "$@"\n')
    wrapper.chmod(stat.S_IRWXU)
    for sub in ("pg", "pg/socket"):
        (tmp / sub).mkdir()
        os.chown(tmp / sub, user.pw_uid, user.pw_gid)
    return str(wrapper)


def _start_postgres(tmp: Path) -> None:
    from pytest_postgresql.executors.proc import PostgreSQLExecutor
    from pytest_postgresql.janitor import DatabaseJanitor

    pg_ctl = _pg_ctl()
    if os.geteuid() == 0:
        pg_ctl = _as_postgres_user(pg_ctl, tmp)
    else:
        (tmp / "pg" / "socket").mkdir(parents=True)
    port = port_for.select_random()
    executor = PostgreSQLExecutor(
        executable=pg_ctl, host=HOST, port=port, datadir=str(tmp / "pg" / "data"),
        unixsocketdir=str(tmp / "pg" / "socket"), logfile=str(tmp / "pg" / "server.log"),
        startparams="-w", dbname="explainer", user="postgres",
        # A throwaway server: trust on loopback, no fsync.
        postgres_options="-c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off "
                         "-c full_page_writes=off")
    executor.start()
    executor.wait_for_postgres()
    SERVICES.postgres = executor
    # The app's database (pytest-django makes test_explainer beside it for the tests).
    DatabaseJanitor(user="postgres", host=HOST, port=port, dbname="explainer").init()
    os.environ["DATABASE_URL"] = f"postgres://postgres@{HOST}:{port}/explainer"
    os.environ["EXPLAINER_TEST_POSTGRES"] = "1"


def _start_redis(tmp: Path) -> None:
    from pytest_redis.executor.process import RedisExecutor

    binary = shutil.which("redis-server")
    if not binary:
        raise pytest.UsageError("redis-server is not installed: run `make setup` or "
                                "`apt-get install redis-server`")
    (tmp / "redis").mkdir()
    port = port_for.select_random()
    executor = RedisExecutor(binary, databases=4, redis_timeout=30, loglevel="warning", host=HOST,
                             port=port, datadir=tmp / "redis")
    executor.start()
    SERVICES.redis = executor
    os.environ["REDIS_URL"] = f"redis://{HOST}:{port}/0"
    os.environ["EXPLAINER_TEST_REDIS"] = "1"


@pytest.hookimpl(wrapper=True)
def pytest_load_initial_conftests(early_config: pytest.Config, parser: pytest.Parser, args: list[str]):
    """Start the servers before any other plugin (pytest-django) sees the environment."""
    tmp = Path(tempfile.mkdtemp(prefix="explainer-services-", dir="/tmp"))
    tmp.chmod(0o755)      # the postgres user must reach its directories below
    SERVICES.tmp = tmp
    early_config.add_cleanup(_stop_all)
    if not os.environ.get("DATABASE_URL"):
        _start_postgres(tmp)
    if not os.environ.get("REDIS_URL"):
        _start_redis(tmp)
    return (yield)


def restart_postgres(timeout: float = 30.0) -> None:
    """Stop the PostgreSQL this plugin started (fast shutdown) and start it again on the same data,
    returning once it accepts connections (pg_ctl's port is open before recovery is over)."""
    import psycopg

    executor = SERVICES.postgres
    executor.stop()
    executor.start()
    executor.wait_for_postgres()
    deadline = time.monotonic() + timeout
    while True:
        try:
            with psycopg.connect(host=HOST, port=executor.port, user="postgres", dbname="postgres",
                                 connect_timeout=2):
                return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def _stop_all() -> None:
    for executor in (SERVICES.redis, SERVICES.postgres):
        if executor is not None and executor.running():
            executor.stop()
    if SERVICES.tmp is not None:
        shutil.rmtree(SERVICES.tmp, ignore_errors=True)
