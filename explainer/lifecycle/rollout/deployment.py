"""A Deployment's rollout: RollingUpdate and Recreate, as the deployment controller does them
(docs/lifecycle-model.md §26.3, §26.4, §26.5).

k/k pkg/controller/deployment [code]:
- rolling.go `rolloutRolling`: scale up (`reconcileNewReplicaSet`) and if that changed nothing scale down
  (`reconcileOldReplicaSets`: `cleanupUnhealthyReplicas` first, then `scaleDownOldReplicaSetsForRollingUpdate`);
  one of the two per sync.
- util/deployment_util.go `NewRSNewReplicas` (the new ReplicaSet grows while all ReplicaSets' replicas stay
  <= replicas + maxSurge), `ResolveFenceposts`, `MaxUnavailable`, `DeploymentComplete`, `DeploymentProgressing`,
  `DeploymentTimedOut`.
- recreate.go `rolloutRecreate`: every old ReplicaSet to 0, nothing new while `oldPodsRunning` (a deleted Pod
  counts until its containers have stopped and its phase is terminal), then the new ReplicaSet to replicas.
- progress.go `syncRolloutStatus`, `requeueStuckDeployment`: Progressing=False with ProgressDeadlineExceeded
  once no progress was seen for progressDeadlineSeconds; no rollback.
The ReplicaSet controller (pkg/controller/replicaset/replica_set.go `manageReplicas`) creates or deletes Pods
until its active Pods (not being deleted: `controller.FilterActivePods`) match its replicas; it deletes
not-Ready Pods before Ready ones (`controller.ActivePodsWithRanks`); identical old Pods go in name order from
the last (the real order among them is the ranking's tie-break: creation time, then the Pod UID) [assumed].
"""
from __future__ import annotations


from ..i18n import Text, gettext_noop as _
from .engine import Engine, RPod, names
from .model import NEW, NO_PROGRESS, NOT_ENOUGH_AVAILABLE, PROGRESS_DEADLINE_EXCEEDED
from .revision import Revision
from .. import defaults as d
from explainer.lifecycle.records import record


@record
class DeploymentSettings:
    name: str
    replicas: int
    surge: int                     # resolved
    unavailable: int               # resolved
    deadline: int | None           # progressDeadlineSeconds (None: none)
    recreate: bool = False


class DeploymentController:
    def __init__(self, eng: Engine, s: DeploymentSettings, old: Revision, new: Revision) -> None:
        self.eng, self.s, self.new_rev = eng, s, new
        self.old = [eng.add_old(f"{s.name}-old-{i + 1}", old) for i in range(s.replicas)]
        self.old_active = list(self.old)     # the old Pods not being deleted, in name order
        self.new: list[RPod] = []
        self.old_spec, self.new_spec = s.replicas, 0
        self.floor = s.replicas - s.unavailable
        self.ceiling = s.replicas + s.surge
        serving = s.replicas if old.steady_ready else 0
        self.prev = (s.replicas, 0, serving, serving)   # the status the restart's first sync writes: replicas,
        self.prev_updated = 0                           # updated (the new ReplicaSet's), ready, available
        self.last_progress = eng.delay   # NewReplicaSetCreated sets lastUpdateTime when it sees the restart
        self.timed_out = False
        if s.deadline is not None and s.replicas:
            eng.timer(eng.delay + s.deadline + d.PROGRESS_RECHECK_SECONDS, eng.delay)

    # ---- the ReplicaSet controller -------------------------------------------------------------
    def _reconcile(self, t: float) -> tuple[list[RPod], list[RPod]]:
        """Pods created and deleted so that each ReplicaSet's active Pods match its replicas.  The old Pods all
        share one revision, so the ranking (`ActivePodsWithRanks`: not Ready before Ready, ...) cannot tell them
        apart: they go from the last name [assumed]; new Pods are never deleted here."""
        deleted = []
        while len(self.old_active) > self.old_spec:
            p = self.old_active.pop()
            self.eng.delete(t, p)
            deleted.append(p)
        created = [self.eng.create(t, f"{self.s.name}-new-{len(self.new) + k + 1}", NEW, self.new_rev)
                   for k in range(self.new_spec - len(self.new))]
        self.new.extend(created)
        return created, deleted

    # ---- the deployment controller -------------------------------------------------------------
    def sync(self, t: float) -> bool:
        if self.s.recreate:
            return self._recreate(t)
        return self._scale_up(t) or self._scale_down(t)

    def _scale_up(self, t: float) -> bool:
        """`reconcileNewReplicaSet` with `NewRSNewReplicas`."""
        s = self.s
        current = self.old_spec + self.new_spec
        if self.new_spec >= s.replicas or current >= self.ceiling:
            return False
        self.new_spec += min(self.ceiling - current, s.replicas - self.new_spec)
        created, _deleted = self._reconcile(t)
        self.eng.step(t, Text(_("The new ReplicaSet is scaled up to {n}: {names} created. Pods not being deleted: "
                                "{total}, at most {ceiling} (replicas {replicas} + maxSurge {surge})."),
                              {"n": self.new_spec, "names": names(created), "total": self.old_spec + self.new_spec,
                               "ceiling": self.ceiling, "replicas": s.replicas, "surge": s.surge}),
                      tuple(p.name for p in created))
        return True

    def _scale_down(self, t: float) -> bool:
        """`reconcileOldReplicaSets`: unhealthy old Pods first, then as many as the floor allows."""
        if self.old_spec == 0:
            return False
        snap = self.eng.snapshot(t)
        new_unavailable = self.new_spec - snap.new_available
        max_scaled_down = self.old_spec + self.new_spec - self.floor - new_unavailable
        if max_scaled_down <= 0:
            return False
        cleanup = min(max_scaled_down, self.old_spec - snap.old_available)    # `cleanupUnhealthyReplicas`
        if cleanup > 0:
            self.old_spec -= cleanup
            _created, deleted = self._reconcile(t)
            self.eng.step(t, Text(_("Old Pods that are not available go first, whatever the floor: the old "
                                    "ReplicaSet is scaled down to {n} and {names} deleted."),
                                  {"n": self.old_spec, "names": names(deleted)}), tuple(p.name for p in deleted))
        available = snap.old_available + snap.new_available   # `scaleDownOldReplicaSetsForRollingUpdate`
        down = min(self.old_spec, available - self.floor) if available > self.floor else 0
        if down > 0:
            self.old_spec -= down
            _created, deleted = self._reconcile(t)
            self.eng.step(t, Text(_("{available} Pods are available and at least {floor} must be (replicas "
                                    "{replicas} - maxUnavailable {unavailable}), so the old ReplicaSet is scaled "
                                    "down to {n}: {names} deleted."),
                                  {"available": available, "floor": self.floor, "replicas": self.s.replicas,
                                   "unavailable": self.s.unavailable, "n": self.old_spec, "names": names(deleted)}),
                          tuple(p.name for p in deleted))
        return cleanup + down > 0

    def _recreate(self, t: float) -> bool:
        """`rolloutRecreate`."""
        if self.old_active:
            self.old_spec = 0
            _created, deleted = self._reconcile(t)
            self.eng.step(t, Text(_("Recreate: the old ReplicaSet is scaled down to 0 and every old Pod is deleted "
                                    "at once ({names}); no new Pod is created until they have all stopped."),
                                  {"names": names(deleted)}), tuple(p.name for p in deleted))
            return True
        if any(p.exists(t) for p in self.old) or self.new_spec == self.s.replicas:
            return False      # `oldPodsRunning`
        self.new_spec = self.s.replicas
        created, _deleted = self._reconcile(t)
        self.eng.step(t, Text(_("Every old Pod has stopped, so the new ReplicaSet is scaled up to {n}: {names} "
                                "created. Until they are available nothing serves."),
                              {"n": self.new_spec, "names": names(created)}), tuple(p.name for p in created))
        return True

    # ---- status and progress (progress.go) -----------------------------------------------------
    def observe(self, t: float) -> None:
        eng, s = self.eng, self.s
        snap = eng.snapshot(t)
        status = (snap.old + snap.new, snap.new, snap.ready, snap.available)
        complete = snap.new == s.replicas and snap.old == 0 and snap.available == s.replicas
        if eng.complete_at is None and complete:
            eng.complete_at = t
            stopping = [p for p in self.old if p.exists(t)] if self.old_active or snap.terminating else []
            if stopping:
                eng.step(t, Text(_("Every replica runs the new revision and is available: the rollout is complete "
                                   "(kubectl rollout status returns). Still stopping: {names}."),
                                 {"names": names(stopping)}), tuple(p.name for p in stopping))
            else:
                eng.step(t, Text(_("Every replica runs the new revision and is available: the rollout is "
                                   "complete.")))
        elif eng.complete_at is None:
            replicas, updated, ready, available = status
            old_replicas, prev_old = replicas - updated, self.prev[0] - self.prev_updated
            if updated > self.prev_updated or old_replicas < prev_old or ready > self.prev[2] or \
                    available > self.prev[3]:    # `DeploymentProgressing`
                if self.timed_out:
                    self.timed_out = False
                    eng.step(t, Text(_("Progress again: the Progressing condition turns True again "
                                       "(ReplicaSetUpdated).")))
                self.last_progress = t
                if s.deadline is not None:
                    eng.timer(t + s.deadline + d.PROGRESS_RECHECK_SECONDS, t)
            elif s.deadline is not None and not self.timed_out and self.last_progress in eng.timers \
                    and t > self.last_progress + s.deadline:      # `DeploymentTimedOut`
                self.timed_out = True
                eng.stalled(t, PROGRESS_DEADLINE_EXCEEDED, Text(_(
                    "No progress for {deadline} s (progressDeadlineSeconds): the Progressing condition turns False "
                    "with reason ProgressDeadlineExceeded and kubectl rollout status fails. Nothing is rolled back: "
                    "{available} of {replicas} Pods are available, {old} of them old."),
                    {"deadline": s.deadline, "available": snap.available, "replicas": s.replicas, "old": snap.old}))
        self.prev, self.prev_updated = status, status[1]

    def finish(self, t: float) -> None:
        """The run is over at ``t``: without a deadline nothing reports a rollout that stopped moving."""
        eng = self.eng
        if eng.complete_at is None and eng.stall is None and eng.stop == "quiet" and self.s.deadline is not None:
            snap = eng.snapshot(t)
            eng.stalled(eng.last_action, NOT_ENOUGH_AVAILABLE, Text(_(
                "From {t} s on the controller deletes and creates nothing more: the new Pods keep losing their Ready "
                "condition, so too few are available at once to let another old Pod go ({old} old Pods left). "
                "Each new Pod that turns Ready again counts as progress, so the progress deadline never fires."),
                {"t": f"{eng.last_action:g}", "old": snap.old}))
        if self.s.deadline is None and eng.complete_at is None and eng.stall is None and not eng.cut_short \
                and t < eng.horizon:
            eng.stalled(self.last_progress, NO_PROGRESS, Text(_(
                "The rollout makes no more progress after {t} s, and with progressDeadlineSeconds at its maximum "
                "(2147483647: no deadline) no condition reports it."), {"t": f"{self.last_progress:g}"}))
