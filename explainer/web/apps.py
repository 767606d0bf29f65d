"""The only Django app: pages, the JSON API, permalinks and the explain command."""
from __future__ import annotations

from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "explainer.web"
    label = "web"
    default_auto_field = "django.db.models.BigAutoField"
