"""Where the cluster and the prediction differ, each difference explained, with whether (and how) the
scenario can reproduce it (docs/lifecycle-model.md §36).

Per container: a restart, kill or exit the prediction does not have (OOMKilled → the memory limit; a
liveness kill → the probe; exit 0 under Always → a command that finishes), one it has and the cluster
does not, a start or a Ready that came much later, an image that could not be pulled; for the Pod, a
deletion the scenario does not have.  Compared at the last moment the paste shows (or the prediction's
end, when that is earlier).  Each divergence carries the scenario entries that reproduce it (reproduce.py
merges them).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..i18n import Text
from ..model import Container, Pod
from ..kubelet.simulate import Simulation
from . import words as w
from .predicted import Predicted, index, status_at
from .view import ContainerView, Ended, PodView

TOLERANCE = 10.0        # seconds a start or a Ready may differ before it is a divergence (whole-second, coarse ages)
SLOW_PULL = 5.0         # an image pull this long or longer explains a late start
COUNT_SLACK = 1         # restart counts this far apart, both crash-looping, differ by the timing of the back-off
PULL_REASONS = ("ErrImagePull", "ImagePullBackOff", "InvalidImageName", "ErrImageNeverPull", "RegistryUnavailable")
RUNTIME_REASONS = ("CreateContainerConfigError", "CreateContainerError", "RunContainerError", "ContainerCannotRun",
                   "PreStartHookError", "PostStartHookError")
_INIT_PROGRESS = re.compile(r"Init:(\d+)/\d+$")
KINDS = ("oom-killed", "liveness-kill", "completed-restarted", "crashed", "restarted", "not-observed",
         "still-running", "exited", "slow-image-pull", "late-start", "late-ready", "never-ready",
         "image-pull-failed", "cannot-start", "deleted", "status")


@dataclass(frozen=True)
class Divergence:
    t: float | None
    container: str | None
    kind: str                           # one of KINDS
    predicted: Text | None
    observed: Text | None
    explanation: Text
    reproducible: bool
    scenario: dict[str, Any] = field(default_factory=dict)   # what reproduces it: {"containers": {name: {...}}}, ...


def _r(t: float | None) -> str:
    return "?" if t is None else f"{t:g}"


def _entry(name: str, **values: Any) -> dict[str, Any]:
    return {"containers": {name: values}}


def compare(view: PodView, pod: Pod, sim: Simulation, delete_at: float | None) -> list[Divergence]:
    pred = index(sim)
    moment = view.seen if view.seen is not None else view.end     # when the containers' states were seen
    at = sim.until if moment is None else min(moment, sim.until)
    out: list[Divergence] = []
    for c in pod.all_containers + tuple(sim.debug_containers):
        cv = view.containers.get(c.name)
        if cv is None or (cv.status is None and not cv.ended and not cv.events and cv.table_restarts is None):
            continue
        p = pred.get(c.name) or Predicted(c.name)
        found = (_waiting(c, cv, p) or _restarts(c, cv, p, pod, at, moment)
                 or _runs(c, cv, p, _still_initializing(c, view, at), len(pod.init_containers), view, sim.until))
        if found is not None:
            out.append(found)
        start = _start(c, cv, p)
        if start is not None:
            out.append(start)
    out += _ready(view, pod, sim, pred, at)
    deleted = _deleted(view, delete_at)
    if deleted is not None:
        out.append(deleted)
    if not out and view.columns is not None and view.end is not None and view.end <= sim.until:
        predicted = status_at(sim, view.end)
        if predicted is not None and _family(predicted) != _family(view.columns.status):
            out.append(Divergence(view.end, None, "status", Text(w.STATUS, {"status": predicted, "t": _r(at)}),
                                  Text(w.STATUS, {"status": view.columns.status, "t": _r(at)}),
                                  Text(w.STATUS_WHY, {"observed": view.columns.status, "t": _r(at),
                                                      "predicted": predicted, "repro": Text(w.CANNOT_STATUS)}),
                                  False))
    return sorted(out, key=lambda d: (d.t is None, d.t or 0.0))


def _family(status: str) -> str:
    """STATUS values that one moment or another of the same course shows (a crash loop is Running, Error,
    CrashLoopBackOff and Completed by turns): only a different course is a divergence of its own."""
    if status.startswith("Init:") or status == "PodInitializing":
        return "initializing"
    if status in ("Pending", "ContainerCreating", "SchedulingGated", "ErrImagePull", "ImagePullBackOff"):
        return "starting"
    if status in ("Terminating", "Unknown"):
        return "stopping"
    if status in ("Succeeded", "Failed", "Evicted", "DeadlineExceeded"):
        return "done"
    return "running"


def _waiting(c: Container, cv: ContainerView, p: Predicted) -> Divergence | None:
    st = cv.status
    if st is None or st.state != "waiting" or not st.reason:
        return None
    t = next((e.first for e in cv.events if e.reason in ("Failed", "BackOff", "ErrImagePull")), None)
    if st.reason in PULL_REASONS and p.pull_failed is None:
        return Divergence(t, c.name, "image-pull-failed", Text(w.PULLED), Text(w.WAITING, {"reason": st.reason}),
                          Text(w.PULL_FAILED, {"c": c.name, "reason": st.reason,
                                               "repro": Text(w.CAN_PULL, {"c": c.name})}),
                          True, _entry(c.name, imagePull="fails"))
    if st.reason in RUNTIME_REASONS:
        return Divergence(t, c.name, "cannot-start", Text(w.STARTS_AT, {"t": _r(p.first_start())}),
                          Text(w.WAITING, {"reason": st.reason}),
                          Text(w.CANNOT_START, {"c": c.name, "reason": st.reason, "repro": Text(w.CANNOT_RUNTIME)}),
                          False)
    return None


def _restart_count(cv: ContainerView) -> int | None:
    if cv.status is not None and cv.status.restart_count is not None:
        return cv.status.restart_count
    if cv.table_restarts is not None:
        return cv.table_restarts
    starts = sum(e.count for e in cv.events if e.reason == "Started")
    return starts - 1 if starts else None


def _last(cv: ContainerView) -> Ended | None:
    known = [e for e in cv.ended]
    return known[-1] if known else None


def _run_seconds(last: Ended | None, cv: ContainerView) -> float:
    if last is not None and last.start is not None and last.end is not None and last.end >= last.start:
        return max(1.0, round(last.end - last.start))
    return 1.0


def _crash_runs(c: Container, cv: ContainerView, last: Ended | None, n: int, code: int, oom: bool,
                end: float | None) -> tuple[list[dict[str, Any]], Text]:
    """The runs that crash like the observed ones: again after every restart while it still crashes; n
    times, then running on, when it has now run longer than its crashed runs did."""
    seconds = _run_seconds(last, cv)
    run: dict[str, Any] = {"runSeconds": seconds, "exitCode": code}
    if oom:
        run["reason"] = "OOMKilled"
    st = cv.status
    steady = (st is not None and st.state == "running" and cv.running_since is not None and end is not None
              and end - cv.running_since > seconds + 1)
    if steady and n > 0:
        return [dict(run) for _ in range(min(n, 50))] + [{"runSeconds": "forever"}], Text(w.HOW_THEN_RUNS, {"n": n})
    return [run], Text(w.HOW_REPEAT)


def _restarts(c: Container, cv: ContainerView, p: Predicted, pod: Pod, at: float,
              moment: float | None) -> Divergence | None:
    """More (or fewer) restarts than predicted by ``at``, and why; ``moment`` is when the paste shows them."""
    n = _restart_count(cv)
    killed = [e for e in cv.events if e.reason == "Killing"]
    unhealthy = [e for e in cv.events if e.reason == "Unhealthy"]
    probe = c.liveness_probe or c.startup_probe
    kills = sum(e.count for e in killed) if unhealthy and probe is not None else 0
    if n is None and not kills:
        return None
    m = p.restarts_at(at)
    n = m if n is None else n
    last = _last(cv)
    t_first = min([e.end for e in cv.ended if e.end is not None] +
                  [e.first for e in cv.events if e.reason in ("Killing", "BackOff") and e.first is not None],
                  default=None)
    oom_seen = last is not None and last.reason == "OOMKilled"
    probe_killed = kills > len([k for k in p.probe_kills if k[0] <= at])
    oom_unpredicted = oom_seen and not any(e[2] == "OOMKilled" for e in p.exits_before(at))
    # both restarting, for the same reason: a count one apart is the back-off's timing, not a difference
    if n and m and abs(n - m) <= COUNT_SLACK and not probe_killed and not oom_unpredicted:
        return None
    shown = at if moment is None else moment
    if n < m:
        return _not_observed(c, p, at, Text(w.RESTARTS, {"n": m, "t": _r(at)}),
                             Text(w.RESTARTS, {"n": n, "t": _r(shown)}))
    if n == m and not probe_killed and not oom_unpredicted:
        return None
    predicted = Text(w.RESTARTS, {"n": m, "t": _r(at)})
    observed = Text(w.RESTARTS_LAST, {"n": n, "reason": last.reason or "?", "code": _r(last.exit_code)}) \
        if last is not None else Text(w.RESTARTS, {"n": n, "t": _r(shown)})
    if oom_seen:
        code = last.exit_code if last and last.exit_code is not None else 137
        runs, how = _crash_runs(c, cv, last, n, code, True, at)
        limit = dict(c.limits).get("memory")
        repro = Text(w.CAN_RUNS, {"c": c.name, "seconds": f"{runs[0]['runSeconds']:g}", "code": code,
                                  "oom": Text(w.OOM_SUFFIX), "how": how})
        return Divergence(t_first, c.name, "oom-killed", predicted, observed,
                          Text(w.OOM, {"c": c.name, "code": code, "repro": repro,
                                       "limit": Text(w.LIMIT, {"limit": limit}) if limit else ""}),
                          True, _entry(c.name, runs=runs))
    if probe_killed and probe is not None:
        kind = "liveness" if c.liveness_probe is not None else "startup"
        return Divergence(t_first, c.name, "liveness-kill", predicted, observed,
                          Text(w.LIVENESS, {"c": c.name, "kind": kind, "detail": probe.detail,
                                            "repro": Text(w.CAN_PROBE, {"kind": kind, "c": c.name})}),
                          True, _entry(c.name, failingProbes=[kind]))
    if last is not None and last.exit_code == 0:
        runs, how = _crash_runs(c, cv, last, n, 0, False, at)
        repro = Text(w.CAN_RUNS, {"c": c.name, "seconds": f"{runs[0]['runSeconds']:g}", "code": 0, "oom": "",
                                  "how": how})
        kind = "completed-restarted" if pod.restart_policy == "Always" or c.role == "sidecar" else "restarted"
        text = w.COMPLETED if kind == "completed-restarted" else w.RESTARTED
        return Divergence(t_first, c.name, kind, predicted, observed,
                          Text(text, {"c": c.name, "n": n, "p": m, "repro": repro}), True, _entry(c.name, runs=runs))
    if last is not None and last.exit_code is not None:
        runs, how = _crash_runs(c, cv, last, n, last.exit_code, False, at)
        repro = Text(w.CAN_RUNS, {"c": c.name, "seconds": f"{runs[0]['runSeconds']:g}", "code": last.exit_code,
                                  "oom": "", "how": how})
        return Divergence(t_first, c.name, "crashed", predicted, observed,
                          Text(w.CRASHED, {"c": c.name, "code": last.exit_code, "reason": last.reason or "?",
                                           "repro": repro}), True, _entry(c.name, runs=runs))
    runs, how = _crash_runs(c, cv, last, n, 1, False, at)
    repro = Text(w.CAN_RUNS, {"c": c.name, "seconds": f"{runs[0]['runSeconds']:g}", "code": 1, "oom": "",
                              "how": how})
    return Divergence(t_first, c.name, "restarted", predicted, observed,
                      Text(w.RESTARTED, {"c": c.name, "n": n, "p": m, "repro": repro}), True, _entry(c.name, runs=runs))


def _not_observed(c: Container, p: Predicted, at: float, predicted: Text, observed: Text) -> Divergence:
    """A restart, kill or exit the prediction has and the cluster does not."""
    kill = next((k for k in p.probe_kills if k[0] <= at), None)
    t = min([e[0] for e in p.exits_before(at)] + ([kill[0]] if kill else []), default=None)
    if kill is not None and not p.assumed_run:
        return Divergence(t, c.name, "not-observed", predicted, observed,
                          Text(w.NOT_OBSERVED, {"c": c.name, "what": predicted, "observed": observed, "why": "",
                                                "repro": Text(w.CANNOT_PROBE)}), False)
    why = Text(w.ASSUMED, {"c": c.name, "why": p.assumed_why or "runSeconds"}) if p.assumed_run else ""
    return Divergence(t, c.name, "not-observed", predicted, observed,
                      Text(w.NOT_OBSERVED, {"c": c.name, "what": predicted, "observed": observed, "why": why,
                                            "repro": Text(w.CAN_FOREVER, {"c": c.name})}),
                      True, _entry(c.name, runSeconds="forever", runs=None, exitCode=None))


def _still_initializing(c: Container, view: PodView, at: float) -> float:
    """The latest moment an init container is known not to have completed: a later `get pod` row that
    still shows Init:i/N with i at most its index says so (printPod counts completed init containers)."""
    if c.role != "init":
        return at
    for row in view.rows:
        m = _INIT_PROGRESS.match(row.status)
        t = view.clock.t(row.age)
        if m is not None and t is not None and int(m.group(1)) <= c.index:
            at = max(at, t)
    return at


def _finished_by(c: Container, view: PodView, after: float) -> float | None:
    """The first `get pod` row after ``after`` past initialisation: the init container ended before it."""
    times = [t for row in view.rows if not row.status.startswith("Init:")
             for t in (view.clock.t(row.age),) if t is not None and t > after]
    return min(times) if times else None


def _runs(c: Container, cv: ContainerView, p: Predicted, at: float, n_init: int,
          view: PodView, until: float) -> Divergence | None:
    """Still running where the prediction has it end; or ended where the prediction has it run on."""
    st = cv.status
    if st is None:
        return None
    seen, at = at, min(at, until)          # what the paste shows; when the prediction says something about it
    ended_pred = [e for e in p.exits_before(at)]
    if st.state == "running" and ended_pred and not p.running_at(at):
        t_exit = ended_pred[-1][0]
        text = w.STILL_RUNNING if c.role == "init" else w.STILL_RUNNING_APP
        done = _finished_by(c, view, seen) if c.role == "init" else None
        start = p.first_start() or 0.0      # the run starts where the prediction starts it
        if done is not None:      # it ended between `seen` and `done`: end it half-way, on the prediction's axis
            seconds = max(1.0, round((seen + done) / 2 - start))
            repro = Text(w.CAN_RUN_ONCE, {"c": c.name, "seconds": f"{seconds:g}", "code": 0})
            fix = _entry(c.name, runSeconds=seconds, exitCode=0, runs=None)
        else:
            repro = Text(w.CAN_FOREVER, {"c": c.name})
            fix = _entry(c.name, runSeconds="forever", runs=None, exitCode=None)
        return Divergence(t_exit, c.name, "still-running", Text(w.EXITS_AT, {"t": _r(t_exit)}),
                          Text(w.RUNNING, {"t": _r(seen)}),
                          Text(text, {"c": c.name, "t": _r(seen), "p": _r(t_exit), "i": c.index, "n": n_init,
                                      "repro": repro}), True, fix)
    if st.state == "terminated" and st.terminated is not None and not ended_pred and p.running_at(at):
        t = next((e.end for e in reversed(cv.ended) if e.end is not None), None)
        last = _last(cv)
        seconds = _run_seconds(last, cv)
        code = st.terminated.exit_code or 0
        return Divergence(t, c.name, "exited", Text(w.RUNNING, {"t": _r(at)}),
                          Text(w.EXITED, {"t": _r(t), "reason": st.terminated.reason or "?", "code": code}),
                          Text(w.EXITED_EARLY, {"c": c.name, "t": _r(t), "reason": st.terminated.reason or "?",
                                                "code": code, "repro": Text(w.CAN_RUN_ONCE, {
                                                    "c": c.name, "seconds": f"{seconds:g}", "code": code})}),
                          True, _entry(c.name, runSeconds=seconds, exitCode=code, runs=None))
    return None


def _start(c: Container, cv: ContainerView, p: Predicted) -> Divergence | None:
    starts = [e.first for e in cv.events if e.reason == "Started" and e.first is not None]
    if not _restart_count(cv):      # no restart yet: the run it shows is its first
        starts += [e.start for e in cv.ended if e.start is not None]
        if cv.running_since is not None:
            starts.append(cv.running_since)
    pred = p.first_start()
    if not starts or pred is None:
        return None
    first = min(starts)
    delay = first - pred
    if delay <= TOLERANCE:
        return None
    pulling = [e.first for e in cv.events if e.reason == "Pulling" and e.first is not None]
    pulled = [e.first for e in cv.events if e.reason == "Pulled" and e.first is not None]
    pull = (min(pulled) - min(pulling)) if pulling and pulled and min(pulled) >= min(pulling) else None
    predicted, observed = Text(w.STARTS_AT, {"t": _r(pred)}), Text(w.STARTS_AT, {"t": _r(first)})
    if pull is not None and pull >= SLOW_PULL:
        return Divergence(pred, c.name, "slow-image-pull", predicted, observed,
                          Text(w.SLOW_PULL, {"c": c.name, "pull": _r(pull), "t": _r(first), "delay": _r(delay),
                                             "repro": Text(w.CANNOT_PULL_TIME)}), False)
    return Divergence(pred, c.name, "late-start", predicted, observed,
                      Text(w.LATE_START, {"c": c.name, "t": _r(first), "delay": _r(delay), "p": _r(pred),
                                          "repro": Text(w.CANNOT_CONTROL_PLANE)}), False)


def _ready(view: PodView, pod: Pod, sim: Simulation, pred: dict[str, Predicted], at: float) -> list[Divergence]:
    out: list[Divergence] = []
    for c in pod.containers + pod.sidecars:
        cv = view.containers.get(c.name)
        p = pred.get(c.name)
        if cv is None or cv.status is None or p is None or c.readiness_probe is None:
            continue
        st = cv.status
        p_ready = p.first_ready()
        start = cv.running_since if st.restart_count == 0 else None
        if st.state == "running" and st.ready is False and p_ready is not None and p_ready <= at and \
                (start is None or at - start > TOLERANCE):
            out.append(Divergence(p_ready, c.name, "never-ready", Text(w.READY_AT, {"t": _r(p_ready)}),
                                  Text(w.NOT_READY, {"t": _r(at)}),
                                  Text(w.NEVER_READY_WHY, {"c": c.name, "t": _r(at), "p": _r(p_ready),
                                                           "detail": c.readiness_probe.detail,
                                                           "repro": Text(w.CAN_PROBE, {"kind": "readiness",
                                                                                       "c": c.name})}),
                                  True, _entry(c.name, failingProbes=["readiness"])))
        elif st.ready and p_ready is None and not p.starts == []:
            out.append(Divergence(None, c.name, "not-observed", Text(w.NEVER_READY), Text(w.READY_AT, {"t": "?"}),
                                  Text(w.READY_UNEXPECTED, {"c": c.name, "repro": Text(w.CANNOT_PROBE)}), False))
        elif st.ready and p_ready is not None and view.ready_at is not None and start is not None and \
                len(pod.containers) == 1:
            after, p_after = view.ready_at - start, p_ready - (p.first_start() or 0.0)
            if after - p_after > TOLERANCE:
                s = max(1.0, round(after))
                out.append(Divergence(p_ready, c.name, "late-ready", Text(w.READY_AT, {"t": _r(p_ready)}),
                                      Text(w.READY_AT, {"t": _r(view.ready_at)}),
                                      Text(w.LATE_READY, {"c": c.name, "after": _r(after), "p": _r(p_after),
                                                          "s": f"{s:g}",
                                                          "repro": Text(w.CAN_STARTUP, {"s": f"{s:g}", "c": c.name})}),
                                      True, _entry(c.name, startupSeconds=s)))
    return out


def _deleted(view: PodView, delete_at: float | None) -> Divergence | None:
    snap = view.snapshot
    if snap is None or not snap.deleting or delete_at is not None:
        return None
    grace = snap.grace if snap.grace is not None else 30
    t_end = view.clock.t(snap.deleted)
    t = None if t_end is None else max(0.0, round(t_end - grace))
    fix: dict[str, Any] = {"deleteGracePeriodSeconds": grace}
    if t is not None:
        fix["deleteAt"] = t
    target = next((c for c in snap.conditions if c.type == "DisruptionTarget" and c.status == "True"), None)
    why = Text(w.DISRUPTION, {"reason": target.reason or "?"}) if target is not None else ""
    return Divergence(t, None, "deleted", Text(w.NO_DELETION), Text(w.DELETED, {"t": _r(t)}),
                      Text(w.DELETED_WHY, {"t": _r(t), "grace": grace, "why": why,
                                           "repro": Text(w.CAN_DELETE, {"t": _r(t), "grace": grace})}),
                      t is not None, fix if t is not None else {})
