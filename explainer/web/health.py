"""/healthz and /livez (issue 27): readiness says what the database and the cache are doing, one line each;
liveness only that the process answers."""
from __future__ import annotations

import os
import shutil

from django.core.cache import caches
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from explainer.web.cache import BoundedRedisCache
from explainer.web.models import Permalink


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """Readiness, for load balancers (issue 27): the database (a read; SQLite: room left to write) and the
    cache (Redis: a ping),
    one line each.  503 when the database fails; the cache is optional, so a cache that is down is
    reported ("working without it") and the answer stays 200."""
    lines, ready = [], True
    try:
        Permalink.objects.exists()
        full = _sqlite_full()
        ready = not full
        lines.append("database: full, nothing can be stored" if full else "database: ok")
    except DatabaseError as exc:
        ready = False
        lines.append(f"database: unavailable ({type(exc).__name__})")
    backend = caches["default"]
    if isinstance(backend, BoundedRedisCache):
        lines.append("cache: ok (redis)" if backend.ping() else "cache: unavailable, working without it")
    else:
        lines.append("cache: ok (local memory of this process)")
    return HttpResponse(("ok" if ready else "unavailable") + "\n" + "\n".join(lines) + "\n",
                        status=200 if ready else 503, content_type="text/plain; charset=utf-8")


def _sqlite_full() -> bool:
    """Whether an SQLite database has no room left to write (its page limit, or a disk with less than a
    megabyte free), read without writing: a write probe would contend with every request's writes."""
    if connection.vendor != "sqlite":
        return False   # PostgreSQL reports a full disk on the write that meets it (a 503 that says so)
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA page_count")
        (pages,) = cursor.fetchone()
        cursor.execute("PRAGMA max_page_count")
        (most,) = cursor.fetchone()
        cursor.execute("PRAGMA freelist_count")
        (free_pages,) = cursor.fetchone()
        cursor.execute("PRAGMA page_size")
        (page_size,) = cursor.fetchone()
    # the room left in the file, as on the disk below: less than a megabyte is full (a few free pages
    # left between rows are no room for the next link, whose rows and index entries take several)
    if (max(0, most - pages) + free_pages) * page_size < 1024 * 1024:
        return True
    name = str(connection.settings_dict.get("NAME") or "")
    if not name or name.startswith(("file:", ":memory:")) or not os.path.exists(name):
        return False
    return shutil.disk_usage(os.path.dirname(os.path.abspath(name))).free < 1024 * 1024


@require_GET
def livez(request: HttpRequest) -> HttpResponse:
    """Liveness: the process answers (whatever its database does: restarting it would not help)."""
    return HttpResponse("ok\n", content_type="text/plain; charset=utf-8")
