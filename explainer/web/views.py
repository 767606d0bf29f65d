"""Page views: function-based, one view serves both the full page and its htmx fragment."""
from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """HttpRequest with the attribute HtmxMiddleware adds, for type checkers."""

    htmx: HtmxDetails


@require_GET
def index(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "pages/index.html")
