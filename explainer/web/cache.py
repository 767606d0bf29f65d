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
    """LocMemCache with a byte budget per process and a size limit per entry."""

    def _set(self, key: str, value: bytes, timeout: Any = DEFAULT_TIMEOUT) -> None:
        self._delete(key)
        if len(value) > settings.CACHE_MAX_ENTRY_BYTES:
            return
        total = sum(len(v) for v in self._cache.values()) + len(value)
        while self._cache and (total > settings.CACHE_MAX_BYTES or len(self._cache) >= self._max_entries):
            old_key, old = self._cache.popitem()   # the least recently used (gets move keys to the front)
            self._expire_info.pop(old_key, None)
            total -= len(old)
        super()._set(key, value, timeout)

    def size(self) -> int:
        """Bytes held now (for tests and the load test)."""
        with self._lock:
            return sum(len(v) for v in self._cache.values())


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
