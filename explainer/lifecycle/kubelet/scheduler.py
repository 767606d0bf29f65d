"""A tiny deterministic discrete-event scheduler."""
from __future__ import annotations

import heapq
import itertools
from typing import Any, Callable

# Priorities at one instant: what happens to containers first, the kubelet's decision last,
# so that a sync sees every change of its instant (docs/lifecycle-model.md §6.2: decisions are
# made on the sync that follows a runtime event).
HAPPEN = 1
DECIDE = 9


class Scheduler:
    """Runs actions in (time, priority, insertion) order.

    Time never goes backwards: an action scheduled in the past runs now.  Two actions at the
    same time and priority run in the order they were scheduled, which is their causal order.
    """

    def __init__(self, until: float, max_actions: int, max_work: int | None = None) -> None:
        self.now = 0.0
        self.until = until
        self.max_actions = max_actions
        self.actions = 0
        # what the actions cost beyond one step each (a sync walks every container): charged by them
        self.max_work = max_work
        self.work = 0
        self._heap: list[tuple[float, int, int, Callable[..., Any], tuple[Any, ...]]] = []
        self._seq = itertools.count()
        # fastforward.py: ``check`` asks for ``on_check`` once the current instant is over
        self.check = False
        self.on_check: Callable[[], Any] | None = None

    def at(self, t: float, priority: int, action: Callable[..., Any], *args: Any) -> None:
        if t is None or t > self.until:
            return
        heapq.heappush(self._heap, (max(t, self.now), priority, next(self._seq), action, args))

    def run(self) -> bool:
        """Run to the horizon; False when the action budget ran out first."""
        heap = self._heap
        while heap:
            t, _prio, _seq, action, args = heapq.heappop(heap)
            self.now = t
            self.actions += 1
            if self.actions > self.max_actions or (self.max_work is not None and self.work > self.max_work):
                return False
            action(*args)
            if self.check and (not heap or heap[0][0] > t):
                self.check = False
                if self.on_check is not None:
                    self.on_check()
        return True
