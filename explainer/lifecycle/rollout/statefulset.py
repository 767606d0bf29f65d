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

from dataclasses import dataclass

from ..i18n import Text, gettext_noop as _
from .engine import Engine, RPod, names
from .model import NEVER_AVAILABLE, NEVER_READY, NEW, OLD
from .revision import Revision

_RUNNING_AND_READY = Text(_("Running and Ready: {names}."))


@dataclass(frozen=True, slots=True)
class StatefulSetSettings:
    name: str
    replicas: int
    partition: int
    ordered: bool                  # podManagementPolicy OrderedReady (else Parallel)
    on_delete: bool
    max_unavailable: int           # resolved; 1 without the MaxUnavailableStatefulSet gate
    gate: bool                     # MaxUnavailableStatefulSet on


class StatefulSetController:
    def __init__(self, eng: Engine, s: StatefulSetSettings, old: Revision, new: Revision) -> None:
        self.eng, self.s, self.old_rev, self.new_rev = eng, s, old, new
        self.slots: list[RPod] = [eng.add_old(f"{s.name}-{i}", old, ordinal=i) for i in range(s.replicas)]
        eng.ready_words = _RUNNING_AND_READY
        self.created: list[RPod] = []

    def _healthy(self, p: RPod, t: float) -> bool:
        return p.ready(t) and not p.terminating(t)

    def sync(self, t: float) -> bool:
        s, eng = self.s, self.eng
        acted = False
        made: list[RPod] = []
        ordered = s.ordered
        for i, p in enumerate(self.slots):            # `processReplica` (p.here/on/up/ok: exists, active, Ready, available)
            if p.here and (not ordered or (p.on and p.up and p.ok)):
                continue
            if not p.here:
                revision = OLD if (not s.on_delete and i < s.partition) else NEW
                p = eng.create(t, p.name, revision, self.new_rev if revision == NEW else self.old_rev, ordinal=i)
                self.slots[i] = p
                self.created.append(p)
                made.append(p)
                acted = True
                if ordered:
                    break
                continue
            break                                     # OrderedReady waits at a Pod not Running, Ready, available
        else:
            if not s.on_delete:
                acted = (self._update_gated(t) if s.gate else self._update(t)) or acted
        if made and made[0].revision == NEW:
            eng.step(t, Text(_("Gone, so created again with the same name from the new revision: {names}."),
                             {"names": names(made)}), tuple(p.name for p in made))
        elif made:
            eng.step(t, Text(_("Gone, so created again with the same name, from the old revision because its "
                               "ordinal is below the partition: {names}."), {"names": names(made)}),
                     tuple(p.name for p in made))
        return acted

    def _update(self, t: float) -> bool:
        """The update loop without MaxUnavailableStatefulSet: one Pod at a time from the top."""
        for target in range(len(self.slots) - 1, self.s.partition - 1, -1):
            p = self.slots[target]
            if p.revision == OLD and not p.terminating(t):
                self._delete(t, [p])
                return True
            if not self._healthy(p, t):
                return False
        return False

    def _update_gated(self, t: float) -> bool:
        """`updateStatefulSetAfterInvariantEstablished`."""
        s = self.s
        unavailable = [p for p in self.slots if p.terminating(t) or not p.available(t)]
        stale = [p for p in unavailable if not s.ordered and p.revision == OLD and not p.terminating(t)]
        if len(unavailable) >= s.max_unavailable and not stale:
            return False
        targets = [p for p in reversed(self.slots[s.partition:]) if p.revision == OLD and not p.terminating(t)]
        if s.ordered:
            chosen = targets[: max(0, s.max_unavailable - len(unavailable))]
        else:
            chosen = [p for p in targets if not p.available(t)]       # phase 1: already unavailable
            budget = s.max_unavailable - len(unavailable)
            chosen += [p for p in targets if p.available(t)][: max(0, budget)]
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
        updated = all(p.revision == NEW and p.active(t) for p in self.slots[s.partition:])
        if updated and all(p.ready(t) for p in self.slots):    # kubectl rollout status's test
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
        waiting = next((p for p in self.slots if not self._healthy(p, t) or not p.available(t)), None)
        if waiting is None:
            return
        ever_ready = waiting.rev.steady_ready if waiting.created is None else bool(waiting.rev.ready)
        reason = NEVER_AVAILABLE if ever_ready else NEVER_READY
        eng.stalled(eng.last_action, reason, Text(_(
            "The controller waits for {name}, which never stays Running and Ready{available}: the rollout stops "
            "here, with {old} Pods still on the old revision. A StatefulSet has no progress deadline; fix the "
            "Pod (or delete it) to go on."),
            {"name": waiting.name, "available": Text(_(" for minReadySeconds")) if eng.lag else "",
             "old": sum(1 for p in self.slots if p.revision == OLD)}))
