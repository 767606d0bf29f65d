"""Cache back-ends with a byte budget (issue 11), that a fault never turns into an error (issue 27).

Every explained input caches its page parts; without a bound, a few large distinct inputs fill
the memory of every worker.  Both back-ends refuse an entry larger than
``CACHE_MAX_ENTRY_BYTES`` (it is simply not cached: the next request computes it again), and
the local-memory one also keeps its total under ``CACHE_MAX_BYTES`` by dropping the least
recently used entries.  Redis bounds its total itself (``maxmemory`` with an eviction policy,
see the README).

The cache is optional: every entry can be computed again.  So (issue 27):

- keys carry the release (settings.RELEASE in the key prefix): objects pickled by another release
  of the code are never read;
- an entry that cannot be unpickled is a miss (and is dropped);
- Redis down or hung costs one short time-out (``socket_timeout`` in settings), then the cache is
  skipped for ``CACHE_RETRY_SECONDS``: reads miss, writes are dropped, rate limits count in the
  database meanwhile (`CacheUnavailable` from ``add``/``incr``);
- a view that fails after reading something from the cache runs once more without the cache
  (`CacheFaultMiddleware`): what an older object lacks is computed afresh instead of a 500;
- a large entry is stored compressed (`Packed`, zlib): the page of a 500-container link or a comparison
  (5-30 MB of HTML and objects, 14 s to compute) fits the entry limit in a tenth of the room, so it is
  computed once, not on every read.
"""
from __future__ import annotations

import contextlib
import contextvars
import logging
import threading
import pickle
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest, HttpResponse

log = logging.getLogger(__name__)
CACHE_RETRY_SECONDS = 10.0   # after a failure the shared cache is left alone this long (one time-out, not one per call)
# What unpickling an entry written by other code can raise: the entry is then a miss.
UNREADABLE = (pickle.UnpicklingError, AttributeError, ImportError, EOFError, TypeError, ValueError, IndexError,
              KeyError, zlib.error)
_BYPASS: contextvars.ContextVar[bool] = contextvars.ContextVar("cache_bypass", default=False)
_HITS: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar("cache_hits", default=None)


PACK_FROM_BYTES = 64 * 1024   # pickles this large are stored compressed


@dataclass(frozen=True)
class Packed:
    """A large entry, pickled and compressed; `pack`/`unpack` are what the back-ends store and read."""

    data: bytes


def pack(value: Any) -> Any:
    if isinstance(value, (int, Packed)) or value is None:
        return value
    data = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    return Packed(zlib.compress(data, 3)) if len(data) >= PACK_FROM_BYTES else value


def unpack(value: Any) -> Any:
    return pickle.loads(zlib.decompress(value.data)) if isinstance(value, Packed) else value


_FLIGHTS: dict[str, threading.Lock] = {}
_FLIGHTS_LOCK = threading.Lock()


@contextlib.contextmanager
def single_flight(key: str) -> Iterator[None]:
    """Hold ``key``'s lock of this process while the block runs: threads that ask for the same costly
    entry at once wait for the first to compute it (then read the cache) instead of computing it each."""
    with _FLIGHTS_LOCK:
        lock = _FLIGHTS.setdefault(key, threading.Lock())
    with lock:
        yield
    with _FLIGHTS_LOCK:
        if not lock.locked() and _FLIGHTS.get(key) is lock:
            del _FLIGHTS[key]


class CacheUnavailable(Exception):
    """The shared cache cannot be reached now (raised by ``add`` and ``incr`` only: a rate-limit count
    must go elsewhere; every other operation just misses)."""


@dataclass
class _Health:
    down_until: float = 0.0
    error: str = ""


HEALTH = _Health()


def cache_available() -> bool:
    """False while the shared cache is being skipped after a failure."""
    return time.monotonic() >= HEALTH.down_until


def _hit(value: Any, default: Any) -> Any:
    hits = _HITS.get()
    if hits is not None and value is not default and value is not None and not isinstance(value, int):
        hits[0] += 1   # an object or a text the view will use (a rate-limit count is none)
    return value


EXPORT_CACHE_SECONDS = 7 * 24 * 3600   # permalinks never change; the week only bounds the cache
# A failure (a time-out, a diagram over the limit) is cached for its input like a picture, so
# that asking again costs nothing; for less long, as a time-out may come from a busy moment.
FAILURE_CACHE_SECONDS = 600


@dataclass(frozen=True)
class Failure:
    """A picture that could not be drawn, cached like one: ``message`` says why.  A ``transient`` one
    (the server was busy, the run timed out) is answered but never cached: another moment may draw it."""

    message: str
    transient: bool = False


class BoundedLocMemCache(LocMemCache):
    """LocMemCache with a byte budget per process and a size limit per entry.

    The bytes held are counted as entries come and go (one counter per named cache, shared by
    the threads' instances like the entries themselves), so a set costs the same with 2 or
    2,000 entries."""

    def __init__(self, name: str, params: dict[str, Any]) -> None:
        super().__init__(name, params)
        self._held = _HELD.setdefault(name, [0])

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        if _BYPASS.get():
            return default
        try:
            return _hit(unpack(super().get(key, default, version)), default)
        except UNREADABLE as exc:   # pickled by other code: a miss
            log.warning("cache entry %r could not be read (%s): computed again", key, exc)
            self.delete(key, version=version)
            return default

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> None:
        super().set(key, pack(value), timeout, version)

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        return super().add(key, pack(value), timeout, version)

    def _set(self, key: str, value: bytes, timeout: Any = DEFAULT_TIMEOUT) -> None:
        self._delete(key)
        if len(value) > settings.CACHE_MAX_ENTRY_BYTES:
            return
        while self._cache and (self._held[0] + len(value) > settings.CACHE_MAX_BYTES
                               or len(self._cache) >= self._max_entries):
            self._delete(next(reversed(self._cache)))   # the least recently used (gets move keys to the front)
        super()._set(key, value, timeout)
        self._held[0] += len(value)

    def _delete(self, key: str) -> bool:
        old = self._cache.get(key)
        if not super()._delete(key):
            return False
        self._held[0] -= len(old) if old is not None else 0
        return True

    def _cull(self) -> None:   # not reached from _set (it makes room first); kept exact all the same
        super()._cull()
        self._held[0] = sum(len(v) for v in self._cache.values())

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        value = super().incr(key, delta, version)
        with self._lock:
            self._held[0] = sum(len(v) for v in self._cache.values())
        return value

    def clear(self) -> None:
        with self._lock:
            self._cache.clear()
            self._expire_info.clear()
            self._held[0] = 0

    def size(self) -> int:
        """Bytes held now (for tests and the load test)."""
        with self._lock:
            return self._held[0]


_HELD: dict[str, list[int]] = {}   # bytes held by each named local-memory cache


class BoundedRedisCache(RedisCache):
    """RedisCache that does not store entries larger than ``CACHE_MAX_ENTRY_BYTES``, and that Redis
    down or hung (short socket time-outs, settings.py) only ever makes miss (see the module)."""

    def _too_big(self, value: Any) -> bool:
        return not isinstance(value, int) and \
            len(pickle.dumps(value, pickle.HIGHEST_PROTOCOL)) > settings.CACHE_MAX_ENTRY_BYTES

    def _guarded(self, what: str, call: Callable[[], Any], fallback: Any, strict: bool = False) -> Any:
        """``call()``, or ``fallback`` when Redis fails (it is then skipped for a while); ``strict``:
        CacheUnavailable instead of the fallback."""
        if not cache_available():
            if strict:
                raise CacheUnavailable(HEALTH.error)
            return fallback
        try:
            return call()
        except CacheUnavailable:
            raise
        except UNREADABLE:
            raise
        except Exception as exc:   # redis' ConnectionError, TimeoutError, ResponseError, OSError, ...
            HEALTH.down_until, HEALTH.error = time.monotonic() + CACHE_RETRY_SECONDS, f"{type(exc).__name__}: {exc}"
            log.warning("the cache failed on %s (%s); working without it for %g s", what, exc, CACHE_RETRY_SECONDS)
            if strict:
                raise CacheUnavailable(HEALTH.error) from None
            return fallback

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        if _BYPASS.get():
            return default
        try:
            return _hit(unpack(self._guarded("get", lambda: super(BoundedRedisCache, self).get(key, default, version),
                                             default)), default)
        except UNREADABLE as exc:   # pickled by other code: a miss
            log.warning("cache entry %r could not be read (%s): computed again", key, exc)
            self.delete(key, version=version)
            return default

    def get_many(self, keys: Any, version: Any = None) -> dict[Any, Any]:
        if _BYPASS.get():
            return {}
        try:
            found = self._guarded("get_many", lambda: super(BoundedRedisCache, self).get_many(keys, version), {})
            return {k: unpack(v) for k, v in found.items()}
        except UNREADABLE:
            return {}

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> None:
        value = pack(value)
        if self._too_big(value):
            self.delete(key, version=version)
            return
        self._guarded("set", lambda: super(BoundedRedisCache, self).set(key, value, timeout, version=version), None)

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        value = pack(value)
        if self._too_big(value):
            return False
        return self._guarded("add", lambda: super(BoundedRedisCache, self).add(key, value, timeout, version=version),
                             False, strict=True)

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        return self._guarded("incr", lambda: super(BoundedRedisCache, self).incr(key, delta, version), 0,
                             strict=True)

    def delete(self, key: Any, version: Any = None) -> bool:
        return self._guarded("delete", lambda: super(BoundedRedisCache, self).delete(key, version), False)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        return self._guarded("touch", lambda: super(BoundedRedisCache, self).touch(key, timeout, version), False)

    def has_key(self, key: Any, version: Any = None) -> bool:
        return self._guarded("has_key", lambda: super(BoundedRedisCache, self).has_key(key, version), False)

    def clear(self) -> None:
        self._guarded("clear", lambda: super(BoundedRedisCache, self).clear(), None)

    def ping(self) -> bool:
        """For /healthz: a round trip to Redis now (even while it is being skipped); True when it answered."""
        try:
            self._cache.get_client(write=True).ping()
        except Exception as exc:   # noqa: BLE001 - any failure is "down"
            HEALTH.down_until, HEALTH.error = time.monotonic() + CACHE_RETRY_SECONDS, f"{type(exc).__name__}: {exc}"
            return False
        HEALTH.down_until = 0.0
        return True


class CacheFaultMiddleware:
    """A view that fails after it read something from the cache runs once more with the cache
    skipped (issue 27): an entry written by another release, or one whose objects no longer suit
    the code, is computed afresh instead of answering 500.  A view that read nothing from the
    cache fails as before."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = _HITS.set([0])
        try:
            return self.get_response(request)
        finally:
            _HITS.reset(token)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        hits = _HITS.get()
        match = getattr(request, "resolver_match", None)
        if not hits or not hits[0] or _BYPASS.get() or match is None or _expected(exception):
            return None
        log.warning("%s %s failed with what the cache held (%s); answered again without the cache",
                    request.method, request.path, exception)
        token = _BYPASS.set(True)
        try:
            return match.func(request, *match.args, **match.kwargs)
        except Exception:   # not the cache's fault after all: the first exception is answered as usual
            log.exception("%s %s failed again without the cache", request.method, request.path)
            return None
        finally:
            _BYPASS.reset(token)


def _expected(exception: Exception) -> bool:
    """Exceptions that are answers (404, 403, a rate limit: ``is_answer``) or the database's, not the cache's."""
    from django.core.exceptions import PermissionDenied
    from django.http import Http404

    from django.db import DatabaseError

    return isinstance(exception, (Http404, PermissionDenied, DatabaseError)) or getattr(exception, "is_answer", False)
