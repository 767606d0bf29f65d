"""Response headers and request limits that every page and the API get.

- Content-Security-Policy: scripts only from this origin (no inline scripts: htmx and our
  editor script are static files); inline SVG needs inline styles, which are allowed.
- frame-ancestors: nobody may frame a page, except the embed view, which anyone may.
- Request bodies over the limit get 413 with a message, before Django reads them.
- Storing endpoints and expensive renderings are rate limited per client, in a store all
  workers share (a fixed window in the database, or in Redis).
"""
from __future__ import annotations

import logging
import time
from urllib.parse import quote
from collections.abc import Sequence
from typing import Any, Callable

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import RequestDataTooBig
from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import F
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _, gettext_noop

from explainer.lifecycle.errors import ErrorRecord
from explainer.lifecycle.numbers import whole_number
from explainer.render.jsonable import error_to_dict
from explainer.web.cache import CacheUnavailable, cache_available, single_flight
from explainer.web.limits import request_limits  # noqa: F401  (where the views have always found it)

logger = logging.getLogger(__name__)

JSON_PARAMS = {"ensure_ascii": False}
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
       "frame-ancestors {ancestors}")


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def error_response(status: int, message: str, records: Sequence[ErrorRecord] | None = None, *,
                   request: HttpRequest | None = None, **extra: Any) -> HttpResponse:
    """Every error answer of the site, never a traceback.

    With a ``request`` outside the API: a small HTML page with the message.  Otherwise JSON,
    ``{"error": message, "errors": [records], **extra}``; a request under ``/api/`` that names no
    records gets the message as its one record.  The JSON cannot fail: text that cannot be written
    as UTF-8 (a lone surrogate echoed from the input) is written with \\u escapes instead (issue 11)."""
    if request is not None and not _wants_json(request):
        html = render_to_string("error.html", {"status": status, "message": message}, request=request)
        response = HttpResponse(html, status=status)
        # for the page's script, which shows it above the result (an htmx answer's body is not swapped in)
        response["X-Explainer-Message"] = quote(str(message)[:1000])
        return response
    try:
        errors = ([{"message": message}] if records is None and request is not None
                  else [error_to_dict(r) for r in records or []])
        body = {"error": message, "errors": errors, **extra}
        try:
            return JsonResponse(body, status=status, json_dumps_params=JSON_PARAMS)
        except UnicodeEncodeError:
            return JsonResponse(body, status=status)   # ensure_ascii: every character escaped
    except Exception:   # a record that cannot be turned into JSON at all: the message alone
        logger.exception("could not write an error answer")
        return JsonResponse({"error": str(message).encode("ascii", "backslashreplace").decode("ascii"),
                             "errors": []}, status=status)


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        length = whole_number(request.META.get("CONTENT_LENGTH") or "0", 30) or 0   # "²" is no length
        if length > settings.MAX_REQUEST_BYTES:
            # answered before LocaleMiddleware has run: in the reader's language, not in whatever language
            # this thread's previous request left active
            with translation.override(translation.get_language_from_request(request)):
                response = error_response(413, _("The request is %(size)s bytes; the limit is %(limit)s bytes "
                                                 "(EXPLAINER_MAX_REQUEST_BYTES raises it where the explainer runs).")
                                          % {"size": f"{length:,}", "limit": f"{settings.MAX_REQUEST_BYTES:,}"},
                                          request=request)
        else:
            response = self.get_response(request)
        embeddable = getattr(response, "embeddable", False)
        response.setdefault("Content-Security-Policy", CSP.format(ancestors="*" if embeddable else "'none'"))
        response.setdefault("Cross-Origin-Opener-Policy", "same-origin")
        response.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, TooManyMisses):
            return error_response(429, _(MISSES_MESSAGE), request=request)
        if isinstance(exception, CostlyReadLimited):
            response = error_response(429, _(COSTLY_MESSAGE), request=request)
            response["Retry-After"] = str(settings.COSTLY_READ_RATE_WINDOW)
            return response
        if isinstance(exception, DatabaseError):
            return storage_error(request, exception)
        if isinstance(exception, RequestDataTooBig):
            return error_response(413, _("The request body is too large (EXPLAINER_MAX_REQUEST_BYTES "
                                         "raises the limit where the explainer runs)."), request=request)
        if _wants_json(request):   # the API answers JSON even for what its own handler missed
            logger.error("unhandled error on %s %s", request.method, request.path, exc_info=exception)
            return error_response(500, "Internal error: the explainer could not answer this request.", [])
        return None


# A disk or database that is full: SQLite's SQLITE_FULL, PostgreSQL's class 53 (insufficient resources).
_FULL = ("database or disk is full", "no space left on device", "could not extend file", "disk full")
STORAGE_FULL = gettext_noop("The server's storage is full, so nothing could be stored. Try again later; if it keeps "
                            "failing, tell whoever runs this explainer.")
STORAGE_DOWN = gettext_noop("The server's database cannot be reached right now, so this page cannot be answered. "
                            "Try again in a minute.")
STORAGE_BUSY = gettext_noop("The server's database is busy with other writes right now. Try again in a moment.")


def storage_error(request: HttpRequest, exc: Exception) -> HttpResponse:
    """503 that says what happened to the database (full, or not reachable), never a generic 500 (issue 27)."""
    text = str(exc).lower()
    full = any(marker in text for marker in _FULL) or getattr(getattr(exc, "__cause__", None), "sqlstate", "") \
        in ("53100", "53200", "53300")
    busy = not full and "locked" in text   # SQLite: another writer held it past the busy time-out
    logger.error("database error on %s %s: %s", request.method, request.path, exc)
    response = error_response(503, _(STORAGE_FULL if full else STORAGE_BUSY if busy else STORAGE_DOWN),
                              request=request, storage="full" if full else "busy" if busy else "unavailable")
    if busy:
        response["Retry-After"] = "1"
    return response


class TooManyMisses(Exception):
    """The client asked for too many permalink ids that name nothing (web/lookup.py): no permalink is read
    for it until its window ends; every view answers 429 (the middleware turns it into the answer)."""

    is_answer = True   # not a fault: CacheFaultMiddleware leaves it alone


class CostlyReadLimited(Exception):
    """The client asked for too many reads that compute a large analysis again (not in the cache)."""

    is_answer = True


COSTLY_MESSAGE = gettext_noop("Too many pages computed afresh for your address (permalinks and comparisons not in the "
                              "cache); try again in a minute.")


def cached_or_counted(request: HttpRequest, key: str, compute: Callable[[], Any], timeout: int) -> Any:
    """What the cache holds under ``key``; otherwise ``compute()`` (stored for ``timeout`` seconds), counted
    against the client's ``EXPLAINER_COSTLY_READ_RATE_LIMIT``: a read that must compute a permalink's or a
    comparison's analysis again costs seconds, so those reads are rate limited (issue 27)."""
    value = cache.get(key)
    if value is None:
        with single_flight(key):   # the same analysis asked for at once: computed once per process
            value = cache.get(key)
            if value is None:
                if rate_limited(request, "costly"):
                    raise CostlyReadLimited()
                value = compute()
                cache.set(key, value, timeout=timeout)
    return value


MISSES_MESSAGE = gettext_noop("Too many permalinks that do not exist were asked for from your address; try again "
                              "later.")


def client_key(request: HttpRequest) -> str:
    """The client's address, as far as it can be trusted.

    With ``TRUSTED_PROXIES`` = N (default 0) the last N hops are our own proxies: each appends
    the address it saw to X-Forwarded-For, the nearest one is REMOTE_ADDR.  The client is the
    right-most address that none of them added; whatever stands left of it came from the client
    and may be forged, so it is never used.
    """
    remote = request.META.get("REMOTE_ADDR") or "unknown"
    hops = settings.TRUSTED_PROXIES
    if hops <= 0:
        return remote
    forwarded = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
    chain = forwarded + [remote]
    return chain[max(len(chain) - 1 - hops, 0)][:100]


# scope -> (setting of the limit, setting of the window in seconds)
SCOPES = {"share": ("SHARE_RATE_LIMIT", "SHARE_RATE_WINDOW"),
          "render": ("RENDER_RATE_LIMIT", "RENDER_RATE_WINDOW"),
          # Apply fix: the same limit as the other writes, a budget of its own (issue 27)
          "fix": ("SHARE_RATE_LIMIT", "SHARE_RATE_WINDOW"),
          # permalink ids that name nothing: guessing links costs a client its budget (issue 27)
          "miss": ("NOT_FOUND_RATE_LIMIT", "NOT_FOUND_RATE_WINDOW"),
          # reads that must compute a large analysis again (not in the cache; issue 27)
          "costly": ("COSTLY_READ_RATE_LIMIT", "COSTLY_READ_RATE_WINDOW")}


def _window(request: HttpRequest, scope: str) -> tuple[int, str, float, float] | None:
    """(limit, key, window's end, now) of the client's current window for ``scope``; None without a limit."""
    limit_name, window_name = SCOPES[scope]
    limit, window = getattr(settings, limit_name), getattr(settings, window_name)
    if limit <= 0:
        return None
    now = time.time()
    bucket = int(now // window)
    return limit, f"rate:{scope}:{client_key(request)}:{bucket}", (bucket + 1) * window, now


def rate_limited(request: HttpRequest, scope: str) -> bool:
    """Count this request against the client's budget for ``scope``; True once it is used up.

    The count lives in a store that every worker and host shares (issue 11): Redis when the
    cache is Redis (an atomic INCR), the database otherwise.  A per-process cache would give
    each worker its own budget.
    """
    found = _window(request, scope)
    if found is None:
        return False
    limit, key, expires, now = found
    if _shared_cache():
        try:
            return _count_in_cache(key, expires - now) > limit
        except CacheUnavailable:   # Redis down or hung: the database counts meanwhile (issue 27)
            pass
    return _count_in_database(key, expires, now) > limit


def budget_used_up(request: HttpRequest, scope: str) -> bool:
    """Whether the client's budget for ``scope`` is used up, without counting this request."""
    found = _window(request, scope)
    if found is None:
        return False
    limit, key, _expires, _now = found
    if _shared_cache() and cache_available():
        return (cache.get(key) or 0) >= limit
    from explainer.web.models import RateCount
    row = RateCount.objects.filter(key=key).first()
    return row is not None and row.count >= limit


def _shared_cache() -> bool:
    return "redis" in settings.CACHES["default"]["BACKEND"].lower()


def _count_in_cache(key: str, ttl: float) -> int:
    if cache.add(key, 1, timeout=int(ttl) + 5):
        return 1
    try:
        return cache.incr(key)
    except ValueError:   # expired between add and incr
        cache.set(key, 1, timeout=int(ttl) + 5)
        return 1


def _count_in_database(key: str, expires: float, now: float) -> int:
    from explainer.web.models import RateCount   # models import the core; keep this module light

    for _attempt in range(3):
        with transaction.atomic():
            if RateCount.objects.filter(key=key).update(count=F("count") + 1):
                return RateCount.objects.get(key=key).count
            try:
                with transaction.atomic():
                    RateCount.objects.create(key=key, count=1, expires=expires)
            except IntegrityError:   # another worker created it first: count again
                continue
        RateCount.objects.filter(expires__lt=now).delete()   # a new window: forget the old ones
        return 1
    return RateCount.objects.get(key=key).count
