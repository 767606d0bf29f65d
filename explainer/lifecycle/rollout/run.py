"""Running a rollout: the workload's settings resolved, the controller picked, the result assembled
(docs/lifecycle-model.md §26; the API is described in the package's docstring)."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from .. import defaults as d
from ..i18n import Text, gettext_noop as _
from ..model import Pod, Workload
from ..scenario.document import Scenario
from ..admission.versions import gate_enabled
from .arith import resolve_fenceposts, scaled_value
from .daemonset import DaemonSetController, DaemonSetSettings
from .deployment import DeploymentController, DeploymentSettings
from .engine import Engine
from .model import OLD, ON_DELETE, Rollout
from .revision import FIRST_HORIZON, HORIZON, Revision, learn, merged_containers
from .statefulset import StatefulSetController, StatefulSetSettings
from explainer.lifecycle.records import record

KINDS = ("Deployment", "StatefulSet", "DaemonSet")


@record
class Revisions:
    """The old and the new revision's Pod, each learnt once from the kubelet model."""

    old: Revision
    new: Revision


@record
class Knobs:
    """What the scenario's ``rollout`` says (None: not said)."""

    replicas: int | None = None
    nodes: int | None = None
    sync_delay: float | None = None


def learn_revisions(pod: Pod, scenario: Scenario, version: str, *, container_restart_rules: bool = False,
                    new_pod: Pod | None = None, new_scenario: Scenario | None = None,
                    new_container_restart_rules: bool | None = None, horizon: float = HORIZON) -> Revisions:
    """Old Pods from ``pod`` behaving as ``scenario`` says; new Pods from ``new_pod`` (default: the same
    template) behaving as ``new_scenario`` says (default: the same scenario with its ``rollout.newRevision``
    on top), each known ``horizon`` seconds after its creation.  One simulation when both are the same."""
    old = learn(pod, scenario, version, container_restart_rules=container_restart_rules, horizon=horizon)
    overrides = (new_scenario or scenario).rollout.new_revision if (new_scenario or scenario).rollout else {}
    if new_pod is None and new_scenario is None and not overrides:
        return Revisions(old, old)
    base = new_scenario or scenario
    new = learn(new_pod or pod, base, version, containers=merged_containers(base, overrides), horizon=horizon,
                container_restart_rules=container_restart_rules if new_container_restart_rules is None
                else new_container_restart_rules)
    return Revisions(old, new)


def _learnt(learn_at: Callable[[float], Revisions], run: Callable[[Revisions], Rollout]) -> Rollout:
    """Learn the revisions over an hour (a crash loop of a day costs far more to simulate), run the rollout, and
    learn them again over the whole horizon when the run needed more than the hour."""
    revs = learn_at(FIRST_HORIZON)
    out = run(revs)
    if out.complete_at is None and out.until >= min(revs.old.horizon, revs.new.horizon):
        out = run(learn_at(HORIZON))
    return out


def knobs_of(scenario: Scenario) -> Knobs:
    r = scenario.rollout
    return Knobs() if r is None else Knobs(r.replicas, r.nodes, r.sync_delay)


def simulate_rollout(pod: Pod, scenario: Scenario = Scenario(), version: str | None = None, *,
                     gates: dict[str, bool] | None = None, container_restart_rules: bool = False,
                     revisions: Revisions | None = None) -> Rollout | None:
    """`kubectl rollout restart` of ``pod``'s workload (None for kinds without a rollout)."""
    wl = pod.workload
    if wl is None or wl.kind not in KINDS:
        return None
    version = version or d.DEFAULT_VERSION
    name, knobs = pod.source.name or pod.name, knobs_of(scenario)
    gates = gates if gates is not None else scenario.feature_gates
    if revisions is not None:
        return rollout_for(wl, name, revisions, knobs, version, gates)
    return _learnt(lambda horizon: learn_revisions(pod, scenario, version, horizon=horizon,
                                                   container_restart_rules=container_restart_rules),
                   lambda revs: rollout_for(wl, name, revs, knobs, version, gates))


def rollout_for(wl: Workload, name: str, revs: Revisions, knobs: Knobs = Knobs(), version: str = d.DEFAULT_VERSION,
                gates: dict[str, bool] | None = None) -> Rollout:
    """The controller's arithmetic over the replicas, given how one Pod of each revision behaves."""
    gates = gates or {}
    assumed: dict[str, Text] = {}
    notes: list[Text] = []
    delay = knobs.sync_delay
    if delay is None:
        delay = d.ROLLOUT_SYNC_DELAY_SECONDS
        assumed["syncDelaySeconds"] = Text(_("The controllers react to a Pod's change at once (0 s); "
                                             "rollout.syncDelaySeconds in the scenario adds their delay."))
    if wl.kind == "DaemonSet":
        desired = knobs.nodes if knobs.nodes is not None else d.ROLLOUT_ASSUMED_NODES
        if knobs.nodes is None:
            assumed["nodes"] = Text(_("The DaemonSet runs on {n} nodes (assumed); rollout.nodes in the scenario "
                                      "sets the number."), {"n": desired})
    elif knobs.replicas is not None:
        desired = knobs.replicas
    else:
        desired = wl.replicas
        if not wl.replicas_written:
            assumed["replicas"] = Text(_("spec.replicas is not written, so the API server's default, 1, is used. "
                                         "A HorizontalPodAutoscaler may own the count; rollout.replicas in the "
                                         "scenario tries another."))
    eng = Engine(desired, wl.min_ready_seconds, delay, min(revs.old.horizon, revs.new.horizon))
    eng.quiet = _quiet_window(wl, revs, eng.lag)
    if wl.kind == "Deployment":
        out = _deployment(eng, wl, name, desired, revs)
    elif wl.kind == "StatefulSet":
        out = _statefulset(eng, wl, name, desired, revs, version, gates, notes)
    else:
        out = _daemonset(eng, wl, name, desired, revs)
    strategy, surge, unavailable, floor, ceiling, controller = out
    if strategy == "OnDelete" and desired:
        eng.stalled(0.0, ON_DELETE, Text(_(
            "updateStrategy OnDelete: the template changes, but the controller replaces no Pod by itself; each old "
            "Pod runs until someone deletes it, and only its replacement gets the new revision.")))
    if desired:
        eng.run(controller)
    else:
        eng.complete_at = 0.0
        notes.append(Text(_("No replicas: there is nothing to roll out.")))
    return _assemble(eng, wl, strategy, desired, surge, unavailable, floor, ceiling, revs, notes, assumed, delay)


def _quiet_window(wl: Workload, revs: Revisions, lag: float) -> float:
    """How long without a controller action ends the run: longer than anything a Pod of either revision still
    does that could let the controller act (its first Ready, the longest not-Ready gap of a revision that
    crashes, an old Pod's stop) and than the progress deadline."""
    longest = 600.0
    if wl.progress_deadline_seconds is not None:
        longest = max(longest, wl.progress_deadline_seconds + d.PROGRESS_RECHECK_SECONDS + 1)
    ready = revs.new.ready
    if ready:
        longest = max(longest, ready[0][0] + lag + revs.old.gone_after + 2)
        for (_a, b), (c, _d) in zip(ready, ready[1:]):
            longest = max(longest, c - b + lag + 2)
    return longest


def _deployment(eng: Engine, wl: Workload, name: str, desired: int, revs: Revisions) -> tuple:
    recreate = wl.strategy == "Recreate"
    if recreate:
        surge, unavailable = 0, desired
    else:
        surge, unavailable = resolve_fenceposts(wl.max_surge, wl.max_unavailable, desired)
    s = DeploymentSettings(name, desired, surge, unavailable, wl.progress_deadline_seconds, recreate)
    if recreate:
        eng.step(0.0, Text(_("kubectl rollout restart at 0 s, strategy Recreate: every old Pod goes first, then "
                             "{replicas} new Pods start together; nothing serves in between.")
                           , {"replicas": desired}))
    else:
        eng.step(0.0, Text(_("kubectl rollout restart at 0 s: a new ReplicaSet for the new revision. replicas "
                             "{replicas}, maxSurge {surge}, maxUnavailable {unavailable}: at most {ceiling} Pods that "
                             "are not being deleted, at least {floor} available."),
                           {"replicas": desired, "surge": _resolved(wl.max_surge, surge),
                            "unavailable": _resolved(wl.max_unavailable, unavailable),
                            "ceiling": desired + surge, "floor": desired - unavailable}))
    controller = DeploymentController(eng, s, revs.old, revs.new)
    return wl.strategy, surge, unavailable, desired - unavailable, desired + surge, controller


def _resolved(written: int | str | None, value: int) -> str:
    """"25% = 2" for a percentage (ResolveFenceposts' rounding shown), the number itself otherwise."""
    return f"{written} = {value}" if isinstance(written, str) and written != str(value) else str(value)


def _statefulset(eng: Engine, wl: Workload, name: str, desired: int, revs: Revisions, version: str,
                 gates: dict[str, bool], notes: list[Text]) -> tuple:
    on_delete = wl.strategy == "OnDelete"
    gate = gate_enabled("MaxUnavailableStatefulSet", version, gates)
    # `getStatefulSetMaxUnavailable`: rounded down, at least 1 (the API reference says "rounding up"; the code does not)
    k = max(1, scaled_value(wl.max_unavailable, desired, False, 1)) if gate and not on_delete else 1
    ordered = wl.pod_management_policy != "Parallel"
    partition = min(wl.partition, desired) if not on_delete else 0
    s = StatefulSetSettings(name, desired, partition, ordered, on_delete, k, gate)
    if not on_delete:
        available = Text(_(" and available for minReadySeconds ({s} s)"), {"s": wl.min_ready_seconds}) \
            if wl.min_ready_seconds else ""
        eng.step(0.0, Text(_("kubectl rollout restart at 0 s: the StatefulSet replaces its Pods from the highest "
                             "ordinal ({top}) down to {partition}, {at_a_time}: delete the Pod, wait until it is "
                             "gone, create it again from the new revision, and go on once it is Running and "
                             "Ready{available}."),
                           {"top": desired - 1, "partition": partition, "available": available,
                            "at_a_time": Text(_("one at a time")) if k == 1 else
                            Text(_("deleting up to {n} at a time (maxUnavailable)"), {"n": k})}))
        if partition:
            notes.append(Text(_("partition {p}: ordinals below {p} keep the old revision; only {n} of {replicas} "
                                "Pods are updated."), {"p": partition, "n": desired - partition,
                                                       "replicas": desired}))
    if not ordered and not on_delete:
        notes.append(Text(_("podManagementPolicy: Parallel only changes how Pods are created and deleted when the "
                            "StatefulSet scales up or down; an update still replaces them one at a time (with the "
                            "MaxUnavailableStatefulSet gate, up to maxUnavailable at a time).")))
        if wl.min_ready_seconds and not gate:
            # Parallel: `processReplica` waits for nothing, and the update loop only for `isHealthy`
            notes.append(Text(_("With podManagementPolicy Parallel and without the MaxUnavailableStatefulSet gate, "
                                "the update waits for each new Pod to be Running and Ready, not for minReadySeconds: "
                                "fewer Pods than replicas - 1 may be available meanwhile.")))
    controller = StatefulSetController(eng, s, revs.old, revs.new)
    return wl.strategy, 0, 0 if on_delete else k, desired - (0 if on_delete else k), desired, controller


def _daemonset(eng: Engine, wl: Workload, name: str, nodes: int, revs: Revisions) -> tuple:
    on_delete = wl.strategy == "OnDelete"
    surge = scaled_value(wl.max_surge, nodes, True)
    unavailable = scaled_value(wl.max_unavailable, nodes, True)
    if surge == 0 and unavailable == 0:
        unavailable = 1               # `updatedDesiredNodeCounts`
    if on_delete:
        surge = unavailable = 0
    s = DaemonSetSettings(name, nodes, surge, unavailable, on_delete)
    if surge and not on_delete:
        eng.step(0.0, Text(_("kubectl rollout restart at 0 s on {nodes} nodes, maxSurge {n}: the new Pod starts "
                             "beside the old one on the same node, and the old one is deleted once the new one is "
                             "available; nodes with a new Pod that is not available yet: at most {n}."),
                           {"nodes": nodes, "n": surge}))
    elif not on_delete:
        eng.step(0.0, Text(_("kubectl rollout restart at 0 s on {nodes} nodes, maxUnavailable {n}: an old Pod is "
                             "deleted, and its node gets the new Pod only once the old one has stopped; nodes without "
                             "an available Pod: at most {n}."), {"nodes": nodes, "n": unavailable}))
    controller = DaemonSetController(eng, s, revs.old, revs.new)
    return wl.strategy, surge, unavailable, nodes - unavailable, nodes + surge, controller


def _assemble(eng: Engine, wl: Workload, strategy: str, desired: int, surge: int, unavailable: int, floor: int,
              ceiling: int, revs: Revisions, notes: list[Text], assumed: dict[str, Text], delay: float) -> Rollout:
    pods = tuple(p.result() for p in eng.pods)
    counts = tuple(eng.counts)
    end = eng.complete_at if eng.complete_at is not None else eng.end
    window = [c for c in counts if c.t <= end] or list(counts)
    old_gone = [p.gone_at for p in pods if p.revision == OLD]
    last_gone = max(old_gone) if old_gone and all(g is not None for g in old_gone) else None   # type: ignore[type-var]
    notes = list(notes)
    if revs.old is revs.new:
        notes.extend(revs.new.notes)
    else:
        notes.extend(Text(_("Old revision: {note}"), {"note": n}) for n in revs.old.notes)
        notes.extend(Text(_("New revision: {note}"), {"note": n}) for n in revs.new.notes)
    if not revs.old.steady_ready:
        notes.append(Text(_("The old revision's Pods are not Ready when the rollout starts: they count as "
                            "unavailable, and the controllers replace them first.")))
    if eng.cut_short:
        notes.append(Text(_("The rollout simulation stopped after {n} controller syncs at {t} s."),
                          {"n": f"{d.ROLLOUT_MAX_SYNCS:,}", "t": f"{eng.end:g}"}))
    if eng.complete_at is None and eng.stall is None and desired:
        notes.append(Text(_("The rollout does not complete within the {t} s simulated."), {"t": f"{eng.end:g}"}))
    left_out = eng.left_out_note()
    if left_out is not None:
        notes.append(left_out)
    return Rollout(
        kind=wl.kind, strategy=strategy, replicas=desired, max_surge=surge, max_unavailable=unavailable,
        min_ready_seconds=wl.min_ready_seconds, progress_deadline_seconds=wl.progress_deadline_seconds,
        until=round(eng.end, 3), complete_at=None if eng.complete_at is None else round(eng.complete_at, 3),
        stalled=eng.stall, min_available=min((c.available for c in window), default=desired),
        max_pods=max((c.old + c.new for c in counts), default=desired),
        max_pods_including_terminating=max((c.old + c.new + c.terminating for c in counts), default=desired),
        pods=pods, counts=counts, steps=tuple(eng.steps), notes=tuple(notes), assumed=assumed,
        capacity_floor=max(0, floor), surge_ceiling=ceiling,
        partition=wl.partition if wl.kind == "StatefulSet" else None,
        pod_management_policy=wl.pod_management_policy if wl.kind == "StatefulSet" else None,
        nodes=desired if wl.kind == "DaemonSet" else None, sync_delay=delay, last_gone_at=last_gone)


def rollout_between(old_pod: Pod, new_pod: Pod, old_scenario: Scenario = Scenario(),
                    new_scenario: Scenario | None = None, version: str | None = None, *,
                    gates: dict[str, bool] | None = None, container_restart_rules: bool = False,
                    new_container_restart_rules: bool | None = None) -> Rollout | None:
    """The rollout from one template to another: old Pods from ``old_pod`` (behaving as ``old_scenario``
    says), new Pods from ``new_pod`` (as ``new_scenario`` says, default the old one), with the new manifest's
    workload settings, as when the second manifest is applied over the first."""
    wl = new_pod.workload
    if wl is None or wl.kind not in KINDS:
        return None
    version = version or d.DEFAULT_VERSION
    sc = new_scenario or old_scenario
    the_gates = gates if gates is not None else sc.feature_gates
    return _learnt(lambda horizon: learn_revisions(
        old_pod, old_scenario, version, container_restart_rules=container_restart_rules, new_pod=new_pod,
        new_scenario=sc, new_container_restart_rules=new_container_restart_rules, horizon=horizon),
        lambda revs: rollout_for(wl, new_pod.source.name or new_pod.name, revs, knobs_of(sc), version, the_gates))


def compare_strategies(pod: Pod, workloads: Sequence[Workload], scenario: Scenario = Scenario(),
                       version: str | None = None, *, gates: dict[str, bool] | None = None,
                       container_restart_rules: bool = False) -> list[Rollout]:
    """The same template rolled out under each of ``workloads`` (the Pod's own settings with other values,
    e.g. ``dataclasses.replace(pod.workload, max_surge=0, max_unavailable=1)``): the Pods are learnt once."""
    version = version or d.DEFAULT_VERSION
    the_gates = gates if gates is not None else scenario.feature_gates
    learnt: dict[float, Revisions] = {}

    def learn_at(horizon: float) -> Revisions:
        if horizon not in learnt:
            learnt[horizon] = learn_revisions(pod, scenario, version, horizon=horizon,
                                              container_restart_rules=container_restart_rules)
        return learnt[horizon]

    def runner(wl: Workload) -> Callable[[Revisions], Rollout]:
        return lambda revs: rollout_for(wl, pod.source.name or pod.name, revs, knobs_of(scenario), version, the_gates)

    return [_learnt(learn_at, runner(wl)) for wl in workloads]


__all__ = ["KINDS", "Knobs", "Revisions", "compare_strategies", "knobs_of", "learn_revisions", "rollout_between",
           "rollout_for", "simulate_rollout"]
