"""WSGI entry point (gunicorn explainer.wsgi)."""
from __future__ import annotations

import os

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "explainer.settings")

application = get_wsgi_application()

# A server that would sign cookies with a known or guessable key does not start (issue 11).
from explainer.settings import secret_key_problem  # noqa: E402  (after Django is set up)

_problem = secret_key_problem(settings.SECRET_KEY, settings.DEBUG)
if _problem:
    raise ImproperlyConfigured(_problem)


def _warm() -> None:
    """What every worker would read on its first requests, read once before gunicorn forks them (preload_app,
    gunicorn.conf.py): the URLconf with every view, and the templates of the pages and their partials."""
    from django.template import engines
    from django.urls import get_resolver

    get_resolver().url_patterns   # noqa: B018 - reading it imports every view
    root = settings.BASE_DIR / "templates"
    for engine, folder in ((engines["django"], root), (engines["jinja2"], root / "jinja2")):
        for path in sorted([*folder.glob("*.html"), *folder.glob("*/*.html")]):
            name = path.relative_to(folder).as_posix()
            if engine.name == "django" and name.startswith("jinja2/"):
                continue
            engine.get_template(name)


_warm()
