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

import heapq

from ..i18n import Text, gettext_noop as _
from .engine import Engine, RPod, names
from .model import NEVER_AVAILABLE, NEW, OLD
from .revision import Revision
from explainer.lifecycle.records import record


@record
class DaemonSetSettings:
    name: str
    nodes: int
    surge: int                     # resolved against the nodes
    unavailable: int
    on_delete: bool


class DaemonSetController:
    """Each node's Pods are classified whenever one of them changes (the engine's watcher), so a sync looks
    only at the nodes that matter: the candidates come in node order from a heap, the counts are kept."""

    def __init__(self, eng: Engine, s: DaemonSetSettings, old: Revision, new: Revision) -> None:
        self.eng, self.s, self.new_rev = eng, s, new
        self.nodes = [f"node-{k + 1}" for k in range(s.nodes)]
        self.pods: dict[str, list[RPod]] = {n: [eng.add_old(f"{s.name}-old-{k + 1}", old, node=n)]
                                             for k, n in enumerate(self.nodes)}
        self.created: list[RPod] = []
        self._index = {n: k + 1 for k, n in enumerate(self.nodes)}
        self._emptying: set[str] = set()     # nodes whose Pods were deleted: empty once they have stopped
        self._class: dict[str, str] = {}
        self._count: dict[str, int] = {}
        self._members: dict[str, set[str]] = {}
        self._candidates: list[int] = []     # a heap of node indices (stale entries are skipped)
        self._finished = 0                   # nodes whose only Pod is new and available
        self._done: dict[str, bool] = {}
        for n in self.nodes:
            self._classify(n)
        eng.watcher = self._watch

    def _watch(self, p: RPod) -> None:
        if p.node is not None:
            self._classify(p.node)

    def _classify(self, node: str) -> None:
        """`findUpdatedPodsOnNode` and the case `rollingUpdate` puts the node in (without surge: u unavailable,
        r old not available, c candidate, d new available; with surge: x nothing to do, a old not available,
        c candidate, s surging, t old to retire)."""
        new = old = None
        old_here = False
        for p in self.pods[node]:
            old_here = old_here or (p.revision == OLD and p.here)
            if p.on:
                if p.revision == NEW:
                    new = p
                else:
                    old = p
        if self.s.surge:
            if old is None:
                kind = "x"
            elif new is None:
                kind = "c" if old.ok else "a"
            else:
                kind = "t" if new.ok else "s"
        elif (new is None) == (old is None):
            kind = "u"
        elif new is not None:
            kind = "d" if new.ok else "u"
        else:
            kind = "c" if old is not None and old.ok else "r"
        before = self._class.get(node)
        if before != kind:
            if before is not None:
                self._count[before] -= 1
                self._members[before].discard(node)
            self._class[node] = kind
            self._count[kind] = self._count.get(kind, 0) + 1
            self._members.setdefault(kind, set()).add(node)
            if kind == "c":
                heapq.heappush(self._candidates, self._index[node])
        done = new is not None and new.ok and not old_here
        if done != self._done.get(node, False):
            self._finished += 1 if done else -1
            self._done[node] = done

    def _first_candidates(self, n: int) -> list[str]:
        """The first ``n`` candidate nodes in node order (taken off the heap: they are about to change)."""
        out: list[str] = []
        while self._candidates and len(out) < n:
            node = self.nodes[heapq.heappop(self._candidates) - 1]
            if self._class.get(node) == "c" and node not in out:
                out.append(node)
        return out

    def _sorted(self, kind: str) -> list[str]:
        return sorted(self._members.get(kind, ()), key=lambda n: self._index[n])

    def _delete(self, p: RPod, t: float) -> None:
        self.eng.delete(t, p)
        if p.node is not None:
            self._emptying.add(p.node)

    def _on(self, node: str) -> tuple[RPod | None, RPod | None]:
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
        empty = sorted((n for n in self._emptying if not any(p.here for p in self.pods[n])),
                       key=lambda n: self._index[n])
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
        p = self.eng.create(t, f"{self.s.name}-new-{self._index[node]}", NEW, self.new_rev, node=node)
        self.pods[node].append(p)
        self.created.append(p)
        self._classify(node)
        return p

    def _unavailable(self, t: float) -> bool:
        """`rollingUpdate` with maxSurge 0: the old Pods that are not available, and the first candidates while
        fewer than maxUnavailable nodes are without an available Pod."""
        count = self._count.get("u", 0) + self._count.get("r", 0)
        replace = [self._on(n)[1] for n in self._sorted("r")]
        room = max(0, self.s.unavailable - count)
        chosen = [p for p in replace if p is not None]
        chosen += [p for p in (self._on(n)[1] for n in self._first_candidates(room)) if p is not None]
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
        room = max(0, self.s.surge - self._count.get("s", 0))
        targets = self._sorted("a") + self._first_candidates(room)
        retire = [p for p in (self._on(n)[1] for n in self._sorted("t")) if p is not None]
        made = [self._create(n, t) for n in targets]
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
        """`updateDaemonSetStatus`: a node is updated when its oldest Pod is new, and kubectl rollout status waits
        for every node to be updated and available."""
        eng = self.eng
        if eng.complete_at is None and self._finished == len(self.nodes):
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
            {"names": names(waiting), "old": sum(1 for n in self.nodes if self._on(n)[1] is not None)}))
