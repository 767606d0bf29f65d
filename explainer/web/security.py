"""Response headers and request limits that every page and the API get.

- Content-Security-Policy: scripts only from this origin (no inline scripts: htmx and our
  editor script are static files); inline SVG needs inline styles, which are allowed.
- frame-ancestors: nobody may frame a page, except the embed view, which anyone may.
- Request bodies over the limit get 413 with a message, before Django reads them.
- Permalink creation is rate limited per client (a fixed window in the cache).
"""
from __future__ import annotations

import time
from typing import Callable

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
       "frame-ancestors {ancestors}")


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def error_response(request: HttpRequest, status: int, message: str) -> HttpResponse:
    """A plain, friendly error: JSON for the API, a small page otherwise.  Never a traceback."""
    if _wants_json(request):
        return JsonResponse({"error": message, "errors": [{"message": message}]}, status=status)
    html = render_to_string("error.html", {"status": status, "message": message}, request=request)
    return HttpResponse(html, status=status)


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        length = request.META.get("CONTENT_LENGTH") or "0"
        if length.isdigit() and int(length) > settings.MAX_REQUEST_BYTES:
            response = error_response(request, 413, _("The request is %(size)s bytes; the limit is %(limit)s bytes.")
                                      % {"size": f"{int(length):,}", "limit": f"{settings.MAX_REQUEST_BYTES:,}"})
        else:
            response = self.get_response(request)
        embeddable = getattr(response, "embeddable", False)
        response.setdefault("Content-Security-Policy", CSP.format(ancestors="*" if embeddable else "'none'"))
        response.setdefault("Cross-Origin-Opener-Policy", "same-origin")
        response.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, RequestDataTooBig):
            return error_response(request, 413, _("The request body is too large."))
        return None


def client_key(request: HttpRequest) -> str:
    """The client's address; behind a trusted proxy, the first X-Forwarded-For entry."""
    if settings.TRUST_X_FORWARDED_FOR:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        if forwarded:
            return forwarded.split(",")[0].strip()
    return request.META.get("REMOTE_ADDR", "unknown")


def rate_limited(request: HttpRequest, scope: str) -> bool:
    """True when this client has used up its permalink creations for the current window."""
    limit, window = settings.SHARE_RATE_LIMIT, settings.SHARE_RATE_WINDOW
    if limit <= 0:
        return False
    bucket = int(time.time() // window)
    key = f"rate:{scope}:{client_key(request)}:{bucket}"
    if cache.add(key, 1, timeout=window + 5):
        return False
    try:
        count = cache.incr(key)
    except ValueError:
        cache.set(key, 1, timeout=window + 5)
        return False
    return count > limit
