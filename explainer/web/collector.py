"""When a server worker runs Python's full garbage collections: between requests, not inside a big one.

CPython's cyclic collector runs a full (oldest-generation) collection from whatever thread happens
to allocate when enough objects have survived, and holds the interpreter lock while it scans every
tracked object.  A day of crash-looping containers keeps ~500,000 objects alive for a second or
two (the simulation's status points, then the answer's dicts); a full collection then takes 100-200
ms, and every other request the same worker is answering waits that long (`make loadtest`: the JSON
API's p99 beside the hostile mix went past 500 ms).

So the workers (gunicorn.conf.py) first freeze what they loaded (Django, the explainer's modules, the
compiled schemas: some 80,000 objects that live as long as the worker), which takes them out of every
later scan (a full collection of an idle worker: ~40 ms before, ~0.1 ms after); and they leave full
collections to `FullCollections`: the automatic
trigger is set so high that it does not fire, and a full collection runs when a request ends and
(a) the usual number of younger collections has passed and no other request is in flight in the
worker, when there is little to scan, or (b) ten times that number has passed whatever is in
flight, so a worker that is never idle still collects its cyclic garbage (~300 objects a request).
The younger generations are collected as always.
"""
from __future__ import annotations

import gc
import threading

DEFAULT_FULL_AFTER = 10          # CPython's default third threshold: younger collections before a full one
OVERDUE_FACTOR = 10              # collect even with requests in flight once this many times overdue
NEVER = 1_000_000_000            # an automatic trigger that does not fire


class FullCollections:
    """Counts a worker's requests in flight and runs the full collection at a request's end."""

    def __init__(self, full_after: int = DEFAULT_FULL_AFTER) -> None:
        self.full_after = full_after
        self.in_flight = 0
        self.lock = threading.Lock()
        self.collections = 0          # full collections this policy ran (for tests and curiosity)

    def settle(self) -> None:
        """Once the application is loaded: collect, then freeze every object left (they stay for
        the worker's life), so no later collection scans them again."""
        gc.collect()
        gc.freeze()

    def install(self) -> None:
        """Take full collections over from the automatic trigger (the younger thresholds stay)."""
        young, middle, _old = gc.get_threshold()
        gc.set_threshold(young, middle, NEVER)

    def started(self) -> None:
        with self.lock:
            self.in_flight += 1

    def finished(self) -> None:
        with self.lock:
            self.in_flight -= 1
            due = gc.get_count()[2]     # younger collections since the last full one
            collect = (due >= self.full_after and self.in_flight == 0) or due >= self.full_after * OVERDUE_FACTOR
        if collect:
            gc.collect()
            self.collections += 1
