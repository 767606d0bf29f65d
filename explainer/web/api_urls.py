"""JSON API URLs (namespace "api"), under /api/ (see explainer/urls.py); no trailing slashes."""
from __future__ import annotations

from django.urls import URLPattern, path, re_path

from explainer.web import api

app_name = "api"

urlpatterns: list[URLPattern] = [
    path("v1/explain", api.explain_view, name="explain"),
    path("v1/permalinks", api.permalinks_view, name="permalinks"),
    path("v1/permalinks/<str:pid>", api.permalink_view, name="permalink"),
    path("v1/openapi.json", api.openapi_view, name="openapi"),
    re_path(r"^(?P<rest>.*)$", api.not_found_view, name="not-found"),   # JSON 404, not an HTML page
]
