"""A DaemonSet's rolling update, as the DaemonSet controller does it (docs/lifecycle-model.md §26.7).

k/k pkg/controller/daemon [code]:
- update.go `rollingUpdate`, without maxSurge: count the nodes without an available Pod (nothing there, two Pods,
  a new Pod not yet available, an old one that is not available: the last are replaced at once), then delete
  old available Pods on up to maxUnavailable minus that many nodes.  `findUpdatedPodsOnNode` ignores Pods being
  deleted, so a node whose old Pod is terminating counts as unavailable.
- daemon_controller.go `manage` / `podsShouldBeOnNode`: a node with no daemon Pod gets one.  A deleted Pod still
  counts until it is terminal (`getNodesToDaemonPods` leaves out only deleted Pods whose phase is Failed or
  Succeeded), so the new Pod is created once the old one's containers have stopped.
- `rollingUpdate` with maxSurge: a node whose old Pod is available gets the new Pod beside it while fewer than
  maxSurge nodes have a new Pod that is not yet available; once the new Pod is available the old one is deleted.
- `updateDaemonSetStatus`: a node counts as updated only when its oldest Pod is new, so kubectl rollout status
  waits for the old Pods to be gone (not only deleted).
`updatedDesiredNodeCounts` resolves both numbers against the nodes, rounding up, and takes maxUnavailable 1 when
both come to 0.  Nodes are visited in name order (the controller walks a map: its order is not fixed).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..i18n import Text, gettext_noop as _
from .engine import Engine, RPod, names
from .model import NEVER_AVAILABLE, NEW, OLD
from .revision import Revision


@dataclass(frozen=True, slots=True)
class DaemonSetSettings:
    name: str
    nodes: int
    surge: int                     # resolved against the nodes
    unavailable: int
    on_delete: bool


class DaemonSetController:
    def __init__(self, eng: Engine, s: DaemonSetSettings, old: Revision, new: Revision) -> None:
        self.eng, self.s, self.new_rev = eng, s, new
        self.nodes = [f"node-{k + 1}" for k in range(s.nodes)]
        self.pods: dict[str, list[RPod]] = {n: [eng.add_old(f"{s.name}-old-{k + 1}", old, node=n)]
                                             for k, n in enumerate(self.nodes)}
        self.created: list[RPod] = []
        self._index = {n: k + 1 for k, n in enumerate(self.nodes)}
        self._emptying: set[str] = set()     # nodes whose Pods were deleted: empty once they have stopped

    def _delete(self, p: RPod, t: float) -> None:
        self.eng.delete(t, p)
        if p.node is not None:
            self._emptying.add(p.node)

    def _on(self, node: str, t: float) -> tuple[RPod | None, RPod | None]:
        """(new, old) Pods on ``node`` that are not being deleted (`findUpdatedPodsOnNode`)."""
        new = old = None
        for p in self.pods[node]:
            if p.on:
                if p.revision == NEW:
                    new = p
                else:
                    old = p
        return new, old

    def sync(self, t: float) -> bool:
        eng = self.eng
        empty = sorted((n for n in self._emptying if not any(p.here for p in self.pods[n])), key=lambda n: self._index[n])
        self._emptying.difference_update(empty)
        made = [self._create(n, t) for n in empty]                   # `manage`
        if made:
            eng.step(t, Text(_("{nodes}: the old Pod has stopped, so the new one is created: {names}."),
                             {"nodes": ", ".join(empty), "names": names(made)}), tuple(p.name for p in made))
        if self.s.on_delete:
            return bool(made)
        acted = self._surge(t) if self.s.surge else self._unavailable(t)
        return bool(made) or acted

    def _create(self, node: str, t: float) -> RPod:
        k = self._index[node]
        p = self.eng.create(t, f"{self.s.name}-new-{k}", NEW, self.new_rev, node=node)
        self.pods[node].append(p)
        self.created.append(p)
        return p

    def _unavailable(self, t: float) -> bool:
        """`rollingUpdate` with maxSurge 0."""
        count, replace, candidates = 0, [], []
        for node in self.nodes:
            new, old = self._on(node, t)
            if (new is None) == (old is None):
                count += 1
            elif new is not None:
                count += not new.available(t)
            elif old is not None and not old.available(t):
                replace.append(old)
                count += 1
            elif old is not None and count < self.s.unavailable:
                candidates.append(old)
        chosen = replace + candidates[: max(0, min(self.s.unavailable - count, len(candidates)))]
        for p in chosen:
            self._delete(p, t)
        if chosen:
            self.eng.step(t, Text(_("Deleted so that their nodes get the new Pod: {names} (nodes without an "
                                    "available Pod: at most {n} of {nodes}, maxUnavailable)."),
                                  {"names": names(chosen), "n": self.s.unavailable, "nodes": self.s.nodes}),
                          tuple(p.name for p in chosen))
        return bool(chosen)

    def _surge(self, t: float) -> bool:
        """`rollingUpdate` with maxSurge."""
        surging, allowed, candidates, retire = 0, [], [], []
        for node in self.nodes:
            new, old = self._on(node, t)
            if old is None:
                continue
            if new is None:
                if not old.available(t):
                    allowed.append(node)
                elif surging < self.s.surge:
                    candidates.append(node)
            elif not new.available(t):
                surging += 1
            else:
                retire.append(old)
        room = max(0, min(self.s.surge - surging, len(candidates)))
        made = [self._create(n, t) for n in allowed + candidates[:room]]
        for p in retire:
            self._delete(p, t)
        if made:
            self.eng.step(t, Text(_("Created beside the old Pod on its node: {names} (nodes with a new Pod that is "
                                    "not available yet: at most {n}, maxSurge)."),
                                  {"names": names(made), "n": self.s.surge}), tuple(p.name for p in made))
        if retire:
            self.eng.step(t, Text(_("{nodes}: the new Pod is available, so the old one is deleted: {names}."),
                                  {"nodes": ", ".join(p.node or "" for p in retire),
                                                  "names": names(retire)}), tuple(p.name for p in retire))
        return bool(made or retire)

    def observe(self, t: float) -> None:
        eng = self.eng
        if eng.complete_at is not None:
            return
        done = True
        for node in self.nodes:
            alive = [p for p in self.pods[node] if p.exists(t)]
            oldest = alive[0] if alive else None      # `updateDaemonSetStatus` looks at the oldest Pod
            if oldest is None or oldest.revision != NEW or not oldest.available(t):
                done = False
                break
        if done:
            eng.complete_at = t
            eng.step(t, Text(_("Every node runs only the new Pod and it is available: the rollout is complete.")))

    def finish(self, t: float) -> None:
        eng = self.eng
        if eng.complete_at is not None or eng.stall is not None or eng.cut_short or t >= eng.horizon \
                or self.s.on_delete:
            return
        waiting = [p for p in self.created if p.active(t) and not p.available(t)]
        if not waiting:
            return
        eng.stalled(eng.last_action, NEVER_AVAILABLE, Text(_(
            "The new Pods {names} never become available, so the controller replaces no more old Pods: {old} nodes "
            "keep the old revision. A DaemonSet has no progress deadline."),
            {"names": names(waiting), "old": sum(1 for n in self.nodes if self._on(n, t)[1] is not None)}))
