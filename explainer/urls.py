"""Root URLconf: pages under "", the JSON API under "api/"."""
from __future__ import annotations

from django.urls import include, path

from explainer.web.health import healthz, livez

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("livez", livez, name="livez"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("explainer.web.urls")),
    path("api/", include("explainer.web.api_urls")),
]
