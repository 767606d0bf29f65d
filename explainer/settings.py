"""Settings for the Pod Lifecycle Explainer: one file, driven by EXPLAINER_* env vars.

A fresh checkout works with no environment at all (SQLite next to manage.py); DEBUG is off
unless EXPLAINER_DEBUG=true (`make run` sets it). The README lists every variable.
"""
from __future__ import annotations

import hashlib
import os
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    if value.lower() not in ("true", "false"):
        raise ImproperlyConfigured(f"{name} must be 'true' or 'false', got {value!r}")
    return value.lower() == "true"


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {value!r}") from None


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# One database connection per worker, kept between requests (not one per request, issue 14);
# the health check at the start of each request replaces one a server restart or failover broke.
PERSISTENT_CONNECTIONS = {"CONN_MAX_AGE": env_int("EXPLAINER_DB_CONN_MAX_AGE", 600), "CONN_HEALTH_CHECKS": True}


def _postgres_from_url(url: str) -> dict[str, object]:
    """Parse postgres://user:pass@host:port/name?sslmode=require into a DATABASES entry."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql"):
        raise ImproperlyConfigured(f"DATABASE_URL must start with postgres://, got {parts.scheme}://")
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": unquote(parts.path.lstrip("/")),
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": str(parts.port or ""),
        "OPTIONS": dict(parse_qsl(parts.query)),
        # Tests create test_<NAME> on the same server, so USER needs CREATEDB.
        **PERSISTENT_CONNECTIONS,
    }


# Off unless asked for: `make run` (and the tests' settings) turn it on.  A server started any
# other way (gunicorn directly, a container) never shows Django's debug pages (issue 11).
DEBUG = env_bool("EXPLAINER_DEBUG", False)

DEV_SECRET_KEY = "dev-only-insecure-secret-key"
SECRET_KEY = os.environ.get("EXPLAINER_SECRET_KEY", "") or DEV_SECRET_KEY


def secret_key_problem(key: str, debug: bool) -> str | None:
    """Why ``key`` must not sign cookies in production (None when it may).  Checked when the
    app starts to serve (explainer/wsgi.py) and by `manage.py check --deploy`; commands such as
    `explain` or `migrate` sign nothing and run without a key."""
    if debug:
        return None
    if not key or key == DEV_SECRET_KEY:
        return "EXPLAINER_SECRET_KEY must be set when EXPLAINER_DEBUG is false."
    if len(key) < 50 or len(set(key)) < 5:
        return (f"EXPLAINER_SECRET_KEY is too short or too simple ({len(key)} characters, {len(set(key))} "
                "different): use at least 50 random characters, e.g. "
                "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`.")
    return None


ALLOWED_HOSTS = env_list("EXPLAINER_ALLOWED_HOSTS", "localhost,127.0.0.1")

# Largest manifest the form and the API will analyse (1 MiB).
MAX_MANIFEST_BYTES = env_int("EXPLAINER_MAX_MANIFEST_BYTES", 1048576)
# Pods and containers (all Pods together) one request may explain (issue 11); 500 is also the
# most one Pod may have (issue 6).  The simulation's cost grows with containers x simulated
# time: 200 containers crash-looping for a day take ~4.5 s of CPU, 500 take 12 s and more and
# stop at the simulator's step limit (defaults.MAX_EVENTS).
MAX_PODS = env_int("EXPLAINER_MAX_PODS", 50)
MAX_CONTAINERS = env_int("EXPLAINER_MAX_CONTAINERS", 500)
# The largest JSON answer: a longer one leaves out the tails of its longest lists and says so
# in "answerTruncated" (restart counts and the final phase stay complete).
MAX_ANSWER_BYTES = env_int("EXPLAINER_MAX_ANSWER_BYTES", 5 * 1024 * 1024)
# The largest text "Apply fix" patches (issue 27): two explanations and a patch, linear in the text.
MAX_FIX_BYTES = env_int("EXPLAINER_MAX_FIX_BYTES", 512 * 1024)
# Input stored for a permalink (issue 5): smaller than what can be explained.
MAX_STORED_BYTES = env_int("EXPLAINER_MAX_STORED_BYTES", 262144)
# A urlencoded form body can be up to 3x the manifest; let the form reject
# oversize manifests with a readable error instead of Django's bare 400.
DATA_UPLOAD_MAX_MEMORY_SIZE = 4 * MAX_MANIFEST_BYTES
# Anything larger is refused with 413 before it is read.
MAX_REQUEST_BYTES = env_int("EXPLAINER_MAX_REQUEST_BYTES", DATA_UPLOAD_MAX_MEMORY_SIZE)
# Permalink creation per client: SHARE_RATE_LIMIT in each SHARE_RATE_WINDOW seconds (0: no limit).
SHARE_RATE_LIMIT = env_int("EXPLAINER_SHARE_RATE_LIMIT", 60)
SHARE_RATE_WINDOW = env_int("EXPLAINER_SHARE_RATE_WINDOW", 3600)
# Pictures drawn (not served from the cache) per client: PNGs and diagrams cost a process each.
RENDER_RATE_LIMIT = env_int("EXPLAINER_RENDER_RATE_LIMIT", 120)
RENDER_RATE_WINDOW = env_int("EXPLAINER_RENDER_RATE_WINDOW", 60)
# Permalink ids that name no link, per client (issue 27): past the limit every permalink read of that
# client is refused (429) until its window ends, so guessing ids tells nothing more.
NOT_FOUND_RATE_LIMIT = env_int("EXPLAINER_NOT_FOUND_RATE_LIMIT", 30)
NOT_FOUND_RATE_WINDOW = env_int("EXPLAINER_NOT_FOUND_RATE_WINDOW", 600)
# Reads that compute a large analysis again (a permalink or comparison not in the cache), per client.
COSTLY_READ_RATE_LIMIT = env_int("EXPLAINER_COSTLY_READ_RATE_LIMIT", 30)
COSTLY_READ_RATE_WINDOW = env_int("EXPLAINER_COSTLY_READ_RATE_WINDOW", 60)
# Costly work (a large input, many containers, a long crash-looping scenario, a permalink or comparison
# computed afresh): at most COSTLY_SLOTS such requests run at once in the whole service (every worker, through
# lock files in COSTLY_DIR, one folder per service), each in a child process of its own that is killed after
# COSTLY_SECONDS; one that finds no slot within COSTLY_WAIT_SECONDS is answered 503 "busy" (web/gate.py).
COSTLY_SLOTS = env_int("EXPLAINER_COSTLY_SLOTS", max(1, (os.cpu_count() or 2) - 1))
COSTLY_WAIT_SECONDS = float(os.environ.get("EXPLAINER_COSTLY_WAIT_SECONDS", "0.5"))
COSTLY_SECONDS = env_int("EXPLAINER_COSTLY_SECONDS", 60)
COSTLY_DIR = os.environ.get("EXPLAINER_COSTLY_DIR", "")
# How many proxies in front of the app append to X-Forwarded-For: the client is the right-most
# address they did not add (anything left of it can be forged).  The older
# EXPLAINER_TRUST_X_FORWARDED_FOR=true means one such proxy.
TRUSTED_PROXIES = env_int("EXPLAINER_TRUSTED_PROXIES", 1 if env_bool("EXPLAINER_TRUST_X_FORWARDED_FOR", False) else 0)
if env_bool("EXPLAINER_BEHIND_TLS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

INSTALLED_APPS = [
    "django.contrib.staticfiles",
    "django.contrib.contenttypes",
    "django_htmx",
    "explainer.web",
]

MIDDLEWARE = [
    "explainer.web.security.SecurityHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # last, next to the view: a view that fails on what the cache held runs again without it (issue 27)
    "explainer.web.cache.CacheFaultMiddleware",
]

ROOT_URLCONF = "explainer.urls"
WSGI_APPLICATION = "explainer.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
            ],
        },
    },
    {   # the partials rendered for every analysis, the page's longest loops (explainer/web/jinja.py)
        "NAME": "jinja2",
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "explainer.web.jinja.environment"},
    },
]

# SQLite by default so a fresh checkout needs no server; WAL lets readers
# (permalink views) run while a write is in progress. DATABASE_URL switches
# to PostgreSQL for deployments.
if os.environ.get("DATABASE_URL"):
    DATABASES = {"default": _postgres_from_url(os.environ["DATABASE_URL"])}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("EXPLAINER_DB_PATH", str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": {"init_command": "PRAGMA journal_mode=WAL;"},
            **PERSISTENT_CONNECTIONS,
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The cache's byte budget (issue 11): an entry larger than CACHE_MAX_ENTRY_BYTES is not cached;
# the local-memory cache holds at most CACHE_MAX_BYTES per process (Redis: its own maxmemory).
CACHE_MAX_ENTRY_BYTES = env_int("EXPLAINER_CACHE_MAX_ENTRY_BYTES", 1024 * 1024)
CACHE_MAX_BYTES = env_int("EXPLAINER_CACHE_MAX_BYTES", 32 * 1024 * 1024)


def release_id() -> str:
    """What every cache key carries (issue 27) besides the package's version: EXPLAINER_RELEASE when the deployment
    names its release, else a digest of the code, templates and translations this process runs.  Objects
    pickled by one release (a page view, a rendered fragment) are never read by another, which may lack or
    add fields."""
    named = os.environ.get("EXPLAINER_RELEASE", "").strip()
    if named:
        return named[:40]
    digest = hashlib.sha256()
    for top in ("explainer", "templates", "locale"):
        for path in sorted((BASE_DIR / top).rglob("*")):
            if path.suffix in (".py", ".html", ".po") and path.is_file():
                digest.update(path.relative_to(BASE_DIR).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


try:
    PACKAGE_VERSION = version("pod-lifecycle-explainer")
except PackageNotFoundError:     # run from a checkout that was never installed
    PACKAGE_VERSION = "0+checkout"
RELEASE = release_id()
CACHE_KEY_PREFIX = f"explainer:{PACKAGE_VERSION}:{RELEASE}"
# Redis down or hung costs one short time-out, then the cache is skipped for a while (web/cache.py).
CACHE_SOCKET_TIMEOUT = float(os.environ.get("EXPLAINER_CACHE_TIMEOUT", "0.25"))
if os.environ.get("REDIS_URL"):
    CACHES = {
        "default": {
            "BACKEND": "explainer.web.cache.BoundedRedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            "TIMEOUT": 3600,
            "KEY_PREFIX": CACHE_KEY_PREFIX,
            "OPTIONS": {"socket_connect_timeout": CACHE_SOCKET_TIMEOUT, "socket_timeout": CACHE_SOCKET_TIMEOUT},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "explainer.web.cache.BoundedLocMemCache", "KEY_PREFIX": CACHE_KEY_PREFIX,
                          "TIMEOUT": 3600, "OPTIONS": {"MAX_ENTRIES": 2000}}}

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("zh-hans", _("Simplified Chinese"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Not the Manifest variant: that one fails on every page until
    # collectstatic has run, which would break tests and a fresh checkout.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage" if DEBUG
                    else "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# Production (EXPLAINER_DEBUG=false): `manage.py check --deploy` passes with these defaults.
# Behind a TLS-terminating load balancer set EXPLAINER_BEHIND_TLS_PROXY=true; on plain HTTP
# (a loopback load test) set EXPLAINER_SSL_REDIRECT=false.
SECURE_SSL_REDIRECT = env_bool("EXPLAINER_SSL_REDIRECT", not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^livez$"]
SECURE_HSTS_SECONDS = env_int("EXPLAINER_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
# Preload lists are hard to leave: an explicit opt-in only (issue 11).
SECURE_HSTS_PRELOAD = env_bool("EXPLAINER_HSTS_PRELOAD", False)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("EXPLAINER_SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_HTTPONLY = False   # htmx reads no cookie: the token is in hx-headers
X_FRAME_OPTIONS = "DENY"
# security.W021 asks for HSTS preload; it is an opt-in here (EXPLAINER_HSTS_PRELOAD=true).
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD or not SECURE_HSTS_SECONDS else ["security.W021"]
CSRF_TRUSTED_ORIGINS = env_list("EXPLAINER_CSRF_TRUSTED_ORIGINS", "")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
