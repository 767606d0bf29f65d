"""The only Django app: pages, the JSON API, permalinks and the explain command."""
from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core import checks


class WebConfig(AppConfig):
    name = "explainer.web"
    label = "web"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        checks.register(check_secret_key, checks.Tags.security, deploy=True)


def check_secret_key(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """`manage.py check --deploy` fails on the key a server would refuse to start with."""
    from explainer.settings import secret_key_problem

    problem = secret_key_problem(settings.SECRET_KEY, settings.DEBUG)
    return [checks.Error(problem, id="explainer.E001")] if problem else []
