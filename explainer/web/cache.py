"""Cache back-ends with a byte budget (issue 11).

Every explained input caches its page parts; without a bound, a few large distinct inputs fill
the memory of every worker.  Both back-ends refuse an entry larger than
``CACHE_MAX_ENTRY_BYTES`` (it is simply not cached: the next request computes it again), and
the local-memory one also keeps its total under ``CACHE_MAX_BYTES`` by dropping the least
recently used entries.  Redis bounds its total itself (``maxmemory`` with an eviction policy,
see the README).
"""
from __future__ import annotations

import pickle
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache


EXPORT_CACHE_SECONDS = 7 * 24 * 3600   # permalinks never change; the week only bounds the cache
# A failure (a time-out, a diagram over the limit) is cached for its input like a picture, so
# that asking again costs nothing; for less long, as a time-out may come from a busy moment.
FAILURE_CACHE_SECONDS = 600


@dataclass(frozen=True)
class Failure:
    """A picture that could not be drawn, cached like one: ``message`` says why."""

    message: str


class BoundedLocMemCache(LocMemCache):
    """LocMemCache with a byte budget per process and a size limit per entry.

    The bytes held are counted as entries come and go (one counter per named cache, shared by
    the threads' instances like the entries themselves), so a set costs the same with 2 or
    2,000 entries."""

    def __init__(self, name: str, params: dict[str, Any]) -> None:
        super().__init__(name, params)
        self._held = _HELD.setdefault(name, [0])

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
    """RedisCache that does not store entries larger than ``CACHE_MAX_ENTRY_BYTES``."""

    def _too_big(self, value: Any) -> bool:
        return not isinstance(value, int) and \
            len(pickle.dumps(value, pickle.HIGHEST_PROTOCOL)) > settings.CACHE_MAX_ENTRY_BYTES

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> None:
        if self._too_big(value):
            self.delete(key, version=version)
            return
        super().set(key, value, timeout, version=version)

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        if self._too_big(value):
            return False
        return super().add(key, value, timeout, version=version)
