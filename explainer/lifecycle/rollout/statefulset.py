"""A StatefulSet's rolling update, as the StatefulSet controller does it (docs/lifecycle-model.md §26.6).

k/k pkg/controller/statefulset/stateful_set_control.go `updateStatefulSet` [code]:
- `processReplica`, for every ordinal in ascending order: a missing Pod is created (ordinals below the
  partition from the current revision, the rest from the update revision: `newVersionedStatefulSetPod`); with
  podManagementPolicy OrderedReady (`monotonic`) the pass stops there, and also at a Pod that is terminating,
  not Running and Ready (`isRunningAndReady`), or not available for minReadySeconds (`isRunningAndAvailable`).
  With Parallel (`allowsBurst`) nothing waits: every missing Pod is created at once.
- OnDelete: nothing more; a Pod is only replaced when someone deletes it.
- the update, without the MaxUnavailableStatefulSet gate: from the highest ordinal down to the partition, delete
  the first Pod of the old revision that is not terminating, and stop at a Pod that is not healthy
  (`isHealthy`: Running and Ready and not terminating) -- one Pod at a time, whatever podManagementPolicy says.
- with the gate (`updateStatefulSetAfterInvariantEstablished`): count the unavailable Pods (terminating, or not
  Running and Ready for minReadySeconds) and delete up to maxUnavailable minus that, highest ordinal first;
  with Parallel, old Pods that are already unavailable go first (a later two-phase version of the function).
  With OrderedReady the Pods are still created again one at a time, lowest ordinal first, each waiting for the
  one before (`processReplica`), so maxUnavailable mostly deletes several Pods at once.
The replacement keeps the name `<set>-<ordinal>`: it can only be created once the old Pod is gone.
"""
from __future__ import annotations

import heapq
from collections.abc import Callable

from ..i18n import Text, gettext_noop as _
from .engine import Engine, RPod, names
from .model import NEVER_AVAILABLE, NEVER_READY, NEW, OLD
from .revision import Revision
from explainer.lifecycle.records import record

_RUNNING_AND_READY = Text(_("Running and Ready: {names}."))


@record
class StatefulSetSettings:
    name: str
    replicas: int
    partition: int
    ordered: bool                  # podManagementPolicy OrderedReady (else Parallel)
    on_delete: bool
    max_unavailable: int           # resolved; 1 without the MaxUnavailableStatefulSet gate
    gate: bool                     # MaxUnavailableStatefulSet on


class StatefulSetController:
    """Each ordinal's Pod is looked at again whenever it changes (the engine's watcher): the first unsettled
    ordinal, the highest unhealthy one and the highest old one come from heaps (stale entries skipped), the
    counts are kept, so a sync costs little however many replicas there are."""

    def __init__(self, eng: Engine, s: StatefulSetSettings, old: Revision, new: Revision) -> None:
        self.eng, self.s, self.old_rev, self.new_rev = eng, s, old, new
        self.slots: list[RPod] = [eng.add_old(f"{s.name}-{i}", old, ordinal=i) for i in range(s.replicas)]
        eng.ready_words = _RUNNING_AND_READY
        self._unsettled: list[int] = []      # min-heap: not Running, Ready and available (or missing)
        self._unhealthy: list[int] = []      # max-heap (negated): not Running and Ready, or terminating
        self._old: list[int] = []            # max-heap (negated): an old Pod not being deleted
        self._missing: set[int] = set()
        self._stale: set[int] = set()        # old, not being deleted, not available
        self._flags: dict[int, tuple[bool, bool, bool]] = {}   # (available, new and active, Ready)
        self.unavailable = self.new_above = self.ready = 0
        for i in range(s.replicas):
            self._look(i)
        eng.watcher = self._watch

    def _watch(self, p: RPod) -> None:
        if p.ordinal is not None and self.slots[p.ordinal] is p:
            self._look(p.ordinal)

    def _look(self, i: int) -> None:
        p = self.slots[i]
        if not (p.here and p.on and p.up and p.ok):
            heapq.heappush(self._unsettled, i)
        if not (p.here and p.on and p.up):
            heapq.heappush(self._unhealthy, -i)
        if p.revision == OLD and p.on:
            heapq.heappush(self._old, -i)
        (self._missing.discard if p.here else self._missing.add)(i)
        (self._stale.add if p.revision == OLD and p.on and not p.ok else self._stale.discard)(i)
        flags = (p.on and p.ok, p.revision == NEW and p.on, p.up)
        before = self._flags.get(i, (True, False, False))
        if flags != before:
            self.unavailable += int(before[0]) - int(flags[0])
            if i >= self.s.partition:
                self.new_above += int(flags[1]) - int(before[1])
            self.ready += int(flags[2]) - int(before[2])
            self._flags[i] = flags

    def _settled(self, i: int) -> bool:
        p = self.slots[i]
        return p.here and p.on and p.up and p.ok

    def _top(self, heap: list[int], valid: Callable[[int], bool], sign: int = 1) -> int | None:
        """The first valid entry of ``heap`` (stale ones dropped)."""
        while heap and not valid(sign * heap[0]):
            heapq.heappop(heap)
        return sign * heap[0] if heap else None

    def _is_unhealthy(self, i: int) -> bool:
        p = self.slots[i]
        return not (p.here and p.on and p.up)

    def _is_old(self, i: int) -> bool:
        p = self.slots[i]
        return p.revision == OLD and p.on

    def sync(self, t: float) -> bool:
        s, eng = self.s, self.eng
        made: list[RPod] = []
        if s.ordered:                       # `processReplica`, ascending: create the first missing Pod or wait
            first = self._top(self._unsettled, lambda i: not self._settled(i))
            if first is not None:
                if not self.slots[first].here:
                    made.append(self._create(first, t))
                self._tell(t, made)
                return bool(made)
        else:
            made = [self._create(i, t) for i in sorted(self._missing)]
        self._tell(t, made)
        if s.on_delete:
            return bool(made)
        return (self._update_gated(t) if s.gate else self._update(t)) or bool(made)

    def _create(self, i: int, t: float) -> RPod:
        s = self.s
        revision = OLD if (not s.on_delete and i < s.partition) else NEW     # `newVersionedStatefulSetPod`
        p = self.eng.create(t, self.slots[i].name, revision, self.new_rev if revision == NEW else self.old_rev,
                            ordinal=i)
        self.slots[i] = p
        self._look(i)
        return p

    def _tell(self, t: float, made: list[RPod]) -> None:
        if made and made[0].revision == NEW:
            self.eng.step(t, Text(_("Gone, so created again with the same name from the new revision: {names}."),
                                  {"names": names(made)}), tuple(p.name for p in made))
        elif made:
            self.eng.step(t, Text(_("Gone, so created again with the same name, from the old revision because its "
                                    "ordinal is below the partition: {names}."), {"names": names(made)}),
                          tuple(p.name for p in made))

    def _update(self, t: float) -> bool:
        """The update loop without MaxUnavailableStatefulSet: from the top, the first Pod that is old and not being
        deleted is deleted, and a Pod that is not healthy above it stops the loop -- one Pod at a time."""
        old = self._top(self._old, self._is_old, -1)
        bad = self._top(self._unhealthy, self._is_unhealthy, -1)
        if old is not None and old >= self.s.partition and (bad is None or old >= bad):
            self._delete(t, [self.slots[old]])
            return True
        return False

    def _update_gated(self, t: float) -> bool:
        """`updateStatefulSetAfterInvariantEstablished`."""
        s = self.s
        stale = bool(self._stale) and not s.ordered
        if self.unavailable >= s.max_unavailable and not stale:
            return False
        chosen: list[RPod] = []
        if not s.ordered:                                             # phase 1: old and already unavailable
            chosen = [self.slots[i] for i in sorted(self._stale, reverse=True) if i >= s.partition]
        for _k in range(max(0, s.max_unavailable - self.unavailable)):   # then from the top, within the budget
            i = self._top(self._old, lambda j: self._is_old(j) and (s.ordered or self.slots[j].ok), -1)
            if i is None or i < s.partition:
                break
            heapq.heappop(self._old)
            chosen.append(self.slots[i])
        if chosen:
            self._delete(t, chosen)
        return bool(chosen)

    def _delete(self, t: float, pods: list[RPod]) -> None:
        for p in pods:
            self.eng.delete(t, p)
        self.eng.step(t, Text(_("Old revision, so deleted (the highest ordinal first); its replacement waits until "
                                "it is gone: {names}."), {"names": names(pods)}), tuple(p.name for p in pods))

    def observe(self, t: float) -> None:
        eng, s = self.eng, self.s
        if eng.complete_at is not None:
            return
        # kubectl rollout status: every ordinal from the partition up new, and every Pod Running and Ready
        if self.new_above == s.replicas - s.partition and self.ready == s.replicas:
            eng.complete_at = t
            if s.partition:
                eng.step(t, Text(_("Ordinals {partition} and up run the new revision and all {replicas} Pods are "
                                   "Running and Ready: the partitioned rollout is complete; ordinals below "
                                   "{partition} keep the old revision."),
                                 {"partition": s.partition, "replicas": s.replicas}))
            else:
                eng.step(t, Text(_("Every Pod runs the new revision and is Running and Ready: the rollout is "
                                   "complete.")))

    def finish(self, t: float) -> None:
        eng = self.eng
        if eng.complete_at is not None or eng.stall is not None or eng.cut_short or t >= eng.horizon \
                or self.s.on_delete:
            return
        first = self._top(self._unsettled, lambda i: not self._settled(i))
        if first is None:
            return
        waiting = self.slots[first]
        ever_ready = waiting.rev.steady_ready if waiting.created is None else bool(waiting.rev.ready)
        reason = NEVER_AVAILABLE if ever_ready else NEVER_READY
        eng.stalled(eng.last_action, reason, Text(_(
            "The controller waits for {name}, which never stays Running and Ready{available}: the rollout stops "
            "here, with {old} Pods still on the old revision. A StatefulSet has no progress deadline; fix the "
            "Pod (or delete it) to go on."),
            {"name": waiting.name, "available": Text(_(" for minReadySeconds")) if eng.lag else "",
             "old": sum(1 for p in self.slots if p.revision == OLD)}))
