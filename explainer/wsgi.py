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
