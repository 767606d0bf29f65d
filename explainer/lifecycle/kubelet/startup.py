"""Start-up: the kubelet's sync (`computePodActions` + `SyncPod`), starting containers (probes: kubelet/prober.py).

A part of the kubelet model (simulate.py builds it; kubelet/state.py declares what it is handed).
Section numbers (§) refer to docs/lifecycle-model.md.
"""
from __future__ import annotations

from .. import defaults as d
from ..i18n import Text, gettext_noop as _
from .images import kubelet_message, reference_error
from .fastforward import FastForwarder
from .state import Containers, KubeletConfig, PodState, PodWorker, Record
from .probe_timing import Checks, success_time
from .prober import Probing
from .restart_all import RestartAll
from .runtime import ContainerState
from ..scenario.document import Run
from .scheduler import HAPPEN, Scheduler
from .status import EXITED, RUNNING, WAITING
from .termination import Termination
from .trace import EventKind

_SANDBOX = Text(_("the kubelet creates the Pod sandbox: network namespace and IP"))
_SANDBOX_HOST = Text(_("the kubelet creates the Pod sandbox in the node's network namespace (hostNetwork): "
                       "the node's IP"))
_RUNS_UNTIL_STOPPED = Text(_("runs until stopped"))
_READY_NO_PROBE = Text(_("no readinessProbe: ready once started"))


class Startup:
    """Decides what to start and starts it: init containers, sidecars, app containers; the containers'
    probes (through ``probing``) once they run."""

    __slots__ = ("cfg", "state", "cs", "s", "rec", "worker", "term", "restart_all", "probing", "ff")

    def __init__(self, cfg: KubeletConfig, state: PodState, cs: Containers, s: Scheduler, rec: Record,
                 worker: PodWorker, term: Termination, restart_all: RestartAll, probing: Probing,
                 ff: FastForwarder) -> None:
        self.cfg, self.state, self.cs, self.s, self.rec, self.worker = cfg, state, cs, s, rec, worker
        self.term, self.restart_all, self.probing, self.ff = term, restart_all, probing, ff

    # ---- the sync: computePodActions + SyncPod -------------------------------------------
    def sync(self) -> None:
        state = self.state
        state.sync_pending = False
        cs = self.cs
        self.s.work += len(cs.init) + len(cs.apps)   # computePodActions walks every container (MAX_SYNC_WORK)
        if state.terminal or state.pod_kill is not None:
            return
        if state.busy:
            state.sync_wanted = True
            return
        if not state.sandbox and not self._create_sandbox():
            return
        if state.restart_all is not None:
            self.restart_all.restart_all_containers()
        ephemeral = self.cs.ephemeral
        queue = [c for c in ephemeral if c.requested and not c.ever_created] if ephemeral else []
        starts, initialized, kill = self._init_actions()
        pod = self.cfg.pod
        if kill:
            self.term.kill_pod("InitContainerFailed", pod.termination_grace_period,
                               Text(_("a plain init container failed and restartPolicy is Never")))
            return
        queue += starts
        if initialized:
            state.initialized = True
            apps, kill = self._app_actions()
            if kill:
                self.term.kill_pod("PodCompleted", pod.termination_grace_period,
                                   Text(_("no app container is running or will restart")))
                return
            queue += apps
        state.queue = queue
        self.start_queue()

    def _create_sandbox(self) -> bool:
        """§6.1: a new sandbox, except under Never once containers ran (the Pod stays dead)."""
        state, pod, cs = self.state, self.cfg.pod, self.cs
        if state.sandbox_ever:
            never_again = pod.restart_policy == "Never" and any(c.ever_created for c in cs.apps + cs.init)
            done = all(c.ever_created and c.st.state == EXITED and c.st.exit_code == 0 for c in cs.apps) \
                and pod.restart_policy == "OnFailure"
            if never_again or done:
                state.terminal = True
                state.end_time = self.s.now
                self.rec.notes.append(Text(_("The sandbox is gone and restartPolicy does not let the kubelet "
                                             "build a new one: the Pod stays down.")))
                self.rec.snapshot()
                return False
        state.sandbox = state.sandbox_ever = True
        # hostNetwork: the runtime makes no network namespace for the sandbox; the Pod gets the node's IP
        # (pkg/kubelet/kuberuntime/util.go `namespacesForPod` -> `networkNamespaceForPod`: NamespaceMode_NODE)
        self.rec.emit(None, EventKind.SANDBOX_READY, message=_SANDBOX_HOST if pod.host_network else _SANDBOX)
        return True

    def _init_actions(self) -> tuple[list[ContainerState], bool, bool]:
        """`computeInitContainerActions`: walk the init containers from the last one (§6.2-6.3).

        Returns (init containers to start, initialized, kill the pod).
        """
        has_init = False
        for c in self.cs.apps:
            if c.alive or c.in_poststart:
                has_init = True
                break
        previously = has_init
        to_start: list[ContainerState] = []
        init = self.cs.init
        n = len(init)
        for i in range(n - 1, -1, -1):
            c = init[i]
            sidecar = c.spec.role == "sidecar"
            if not c.has_status:
                if previously and sidecar:
                    to_start.append(c)
                continue
            if previously and not sidecar:
                continue
            if c.alive or c.in_poststart:
                if sidecar and c.st.started and not c.kill:
                    if i == n - 1:
                        has_init = True
                    elif not previously:
                        to_start.append(init[i + 1])
            elif c.kill is None:   # exited
                if sidecar:
                    to_start.append(c)
                elif c.st.exit_code != 0:
                    # 1.35+: `ContainerShouldRestart` decides per init container (its own restartPolicy
                    # and rules first), so a Never init container fails an Always Pod (lifecycle-model.md §17)
                    if not self.cfg.will_restart(c, c.st.exit_code or 0):
                        return [], False, True
                    to_start.append(c)
                elif i == n - 1:
                    has_init = True
                else:
                    to_start.append(init[i + 1])
            previously = True
        if not previously and n:
            to_start.append(init[0])
        to_start.reverse()
        return [c for c in to_start if not c.alive], has_init or n == 0, False

    def _app_actions(self) -> tuple[list[ContainerState], bool]:
        """The regular-container half of `computePodActions`, with its KillPod rule (§12.1)."""
        to_start, keep = [], 0
        should_start = self.cfg.should_start
        for c in self.cs.apps:
            if c.alive or c.in_poststart:
                keep += 1
            elif c.kill is None and should_start(c):
                to_start.append(c)
        if keep == 0 and not to_start:
            return [], True
        return to_start, False

    # ---- starting containers --------------------------------------------------------------
    def start_queue(self) -> None:
        """SyncPod's start loop: one container after another; a postStart hook blocks the loop."""
        state = self.state
        while state.queue:
            c = state.queue.pop(0)
            if state.terminal or state.pod_kill:
                break
            outcome = self._start(c)
            if outcome != "started":
                if c.spec.role == "init":
                    state.queue.clear()   # SyncPod returns when a plain init container cannot start
                continue
            hook = c.spec.post_start
            if hook is None:
                self._running(c)
                continue
            seconds = c.b.post_start_seconds
            c.in_poststart = True
            if seconds == 0:
                self._poststart_done(c, c.gen)
                continue
            state.busy = True
            if seconds is not None:
                self.s.at(self.s.now + seconds, HAPPEN, self._poststart_done, c, c.gen)
            return
        self.worker.free()

    def _start(self, c: ContainerState) -> str:
        now = self.s.now
        rec = self.rec
        if c.ever_created and not self._backoff_allows(c):
            return "backoff"
        if self._image_invalid(c):
            return "pull"
        if c.b.image_pull_fails:
            if now + 1e-9 < c.img_retry_at:
                return "pull"
            c.img_delay = (d.IMAGE_BACKOFF_INITIAL_SECONDS if c.img_delay is None
                           else min(c.img_delay * 2, d.IMAGE_BACKOFF_MAX_SECONDS))
            c.img_retry_at = now + c.img_delay
            rec.set(c, WAITING, reason="ErrImagePull")
            rec.emit(c, EventKind.IMAGE_PULL_FAILED, reason="ErrImagePull",
                     message=Text(_("pulling {image} failed"), {"image": c.spec.image}))
            rec.set(c, WAITING, reason="ImagePullBackOff")
            rec.emit(c, EventKind.BACKOFF, reason="ImagePullBackOff",
                     message=Text(_("next pull in {delay}s"), {"delay": f"{c.img_delay:g}"}))
            self.s.at(c.img_retry_at, HAPPEN, self.worker.request_sync)
            return "pull"
        if c.ever_created:
            c.st.restarts += 1
            self.ff.started(c)
            pod = self.cfg.pod
            if pod.backoff_limit is not None and pod.restart_policy == "OnFailure":
                self.s.at(now, HAPPEN, self._job_backoff_limit)
        c.ever_created = c.has_status = True
        c.force_restart = False
        c.announced = False
        c.gen += 1
        self.state.mark_alive(c)
        c.start_t = now
        run = c.b.run(c.runs)
        c.runs += 1
        if c.spec.post_start is not None and c.spec.role != "ephemeral" and c.st.state == EXITED:
            rec.set(c, WAITING, reason="ContainerCreating")   # not Running until postStart ends
        rec.emit(c, EventKind.CREATED, message=Text(_("image {image}"), {"image": c.spec.image}))
        rec.emit(c, EventKind.STARTED, message=self._run_text(run), assumed="runSeconds" in c.b.assumed)
        if run.seconds is not None:
            how = "oom" if run.reason == "OOMKilled" else "natural"
            self.s.at(now + run.seconds, HAPPEN, self.term.exit, c, c.gen, run.exit_code, how)
        return "started"

    def _image_invalid(self, c: ContainerState) -> bool:
        """`EnsureImageExists` (pkg/kubelet/images/image_manager.go): an image reference the parser refuses is
        an InspectFailed event and the waiting reason InvalidImageName, on every sync, with no pull and no
        back-off; the model records it once (docs/lifecycle-model.md §28)."""
        if c.spec.role == "ephemeral":
            return False
        error = reference_error(c.spec.image)
        if error is None:
            return False
        if c.st.state != WAITING or c.st.waiting_reason != "InvalidImageName":
            self.rec.set(c, WAITING, reason="InvalidImageName")
            # the kubelet's own words stay English, as `kubectl describe` shows them
            self.rec.emit(c, EventKind.IMAGE_PULL_FAILED, reason="InvalidImageName",
                          message=Text(_("event InspectFailed: {message}"),
                                       {"message": kubelet_message(c.spec.image, error)}))
        return True

    @staticmethod
    def _run_text(run: Run) -> Text:
        if run.seconds is None:
            return _RUNS_UNTIL_STOPPED
        return Text(_("runs {seconds}s, then exits {code}"), {"seconds": f"{run.seconds:g}", "code": run.exit_code})

    def _backoff_allows(self, c: ContainerState) -> bool:
        """`doBackOff` over client-go's Backoff: first restart at once, then 10 s doubling to 300 s (or the
        node's settings, `newCrashLoopBackOff`; docs/lifecycle-model.md §7.4, §20)."""
        now, ts = self.s.now, c.finished_at
        if ts is None:
            return True
        delay = c.bo_delay
        expired = delay is None or ts - c.bo_updated > d.CRASH_LOOP_RESET_SECONDS
        if delay is not None and not expired and now - ts < delay - 1e-9:
            if not c.announced:
                c.announced = True
                self.rec.set(c, WAITING, reason="CrashLoopBackOff")
                self.rec.emit(c, EventKind.BACKOFF, reason="CrashLoopBackOff",
                              message=Text(_("back-off {delay}s restarting failed container; next start at {t}s"),
                                           {"delay": f"{delay:g}", "t": f"{ts + delay:g}"}))
                self.s.at(ts + delay, HAPPEN, self.worker.request_sync)
            return False
        c.bo_delay = self.cfg.bo_initial if expired or delay is None else min(delay * 2, self.cfg.bo_max)
        c.bo_updated = now
        return True

    def _poststart_done(self, c: ContainerState, gen: int) -> None:
        if gen != c.gen or not c.in_poststart:
            return
        c.in_poststart = False
        if c.b.post_start_exit_code:
            self._poststart_failed(c)
            return
        self.rec.emit(c, EventKind.POSTSTART_DONE,
                      reason="PostStartHookSucceeded" if c.b.post_start_seconds else None,
                      message=c.spec.post_start.detail if c.spec.post_start else "",
                      assumed="postStartSeconds" in c.b.assumed)
        self._running(c)
        if self.state.busy:
            self.start_queue()

    def _poststart_failed(self, c: ContainerState) -> None:
        """`startContainer` (kuberuntime_container.go): a failed postStart hook records FailedPostStartHook
        and calls `killContainer` with reason FailedPostStartHook (preStop and the Pod's grace period,
        `setTerminationGracePeriod`); the start counts as failed, and the restart policy and back-off
        decide what follows.  The start loop goes on with the next container after the kill (§9, §24.3)."""
        self.rec.emit(c, EventKind.POSTSTART_DONE, exit_code=c.b.post_start_exit_code, reason="FailedPostStartHook",
                      message=Text(_("the hook failed: the kubelet kills the container")),
                      assumed="postStartSeconds" in c.b.assumed)
        self.state.busy = True
        self.term.begin_kill(c, self.cfg.pod.termination_grace_period, "FailedPostStartHook", ordered=False)

    def _running(self, c: ContainerState) -> None:
        """The container is reported Running; its probes begin."""
        if c.spec.role == "ephemeral":
            return
        probing = self.probing
        self.rec.set(c, RUNNING)
        self.rec.snapshot()
        if c.runs == 1 and c.b.probe_faults:
            probing.note_probe_faults(c)
        if c.spec.startup_probe is None:
            self._started(c, immediate_readiness=False)
        elif probing.errors(c, "startup"):
            pass     # never started, never killed for it: errored checks are thrown away (commands/probe_faults.py)
        else:
            p = c.spec.startup_probe
            checks = Checks(c.start_t + p.initial_delay, p.period, self.s.now)
            healthy = probing.healthy_from(c, "startup")
            fail = probing.failure_time(c, p, checks, healthy)
            if fail is not None:
                self.s.at(fail, HAPPEN, probing.probe_failed, c, c.gen, "startup")
            else:
                ok = success_time(checks, healthy, 1)
                if ok is not None:   # None: it never passes (an erroring probe): nothing to schedule
                    self.s.at(ok, HAPPEN, self._startup_ok, c, c.gen)
        self.worker.request_sync()

    def _job_backoff_limit(self) -> None:
        """The Job controller counts an OnFailure Pod's container restarts against backoffLimit and, when
        they reach it, fails the Job and deletes the Pod, logs and all (job_controller.go
        `pastBackoffLimitOnFailure`; a limit of 0 is passed by the first restart)."""
        state, pod = self.state, self.cfg.pod
        limit = pod.backoff_limit or 0
        total = sum(x.st.restarts for x in self.cs.init + self.cs.apps)
        if state.pod_kill is not None or state.terminal or total < max(limit, 1):
            return
        state.deleting = True
        state.status_reason, state.forced_phase = "BackoffLimitExceeded", "Failed"
        self.rec.emit(None, EventKind.DELETE_REQUESTED, reason="BackoffLimitExceeded",
                      message=Text(_("the Job controller deletes the Pod: its containers restarted {n} times, "
                                     "backoffLimit is {limit}"), {"n": total, "limit": limit}))
        self.rec.notes.append(Text(_(
            "restartPolicy OnFailure: every retry restarted a container in this same Pod, with the kubelet's "
            "back-off. At {t} s the restarts reach the Job's backoffLimit ({limit}): the Job fails "
            "(BackoffLimitExceeded) and the Job controller deletes the Pod, and the logs of every attempt "
            "go with it. With restartPolicy Never each retry would be a new Pod, the failed ones kept."),
            {"t": f"{self.s.now:g}", "limit": limit}))
        self.term.worker_kill("BackoffLimitExceeded", pod.termination_grace_period,
                              Text(_("the Job's backoffLimit was reached")))

    def _startup_ok(self, c: ContainerState, gen: int) -> None:
        if gen != c.gen or not c.alive or self.state.deleting:
            return
        self.rec.emit(c, EventKind.STARTUP_PROBE_OK, message=c.spec.startup_probe.detail if c.spec.startup_probe else "")
        self._started(c, immediate_readiness=True)
        self.worker.request_sync()

    def _started(self, c: ContainerState, immediate_readiness: bool) -> None:
        st = c.st
        st.started = True
        self.rec.book.changed(st)
        now = self.s.now
        if c.spec.role == "init":
            return    # a plain init container is "ready" only by completing (§11)
        probing = self.probing
        rp = c.spec.readiness_probe
        if rp is None:
            self._ready(c, c.gen)
        else:
            checks = Checks(c.start_t + rp.initial_delay, rp.period, now, now if immediate_readiness else None)
            ok = success_time(checks, probing.healthy_from(c, "readiness"), rp.success_threshold)
            if ok is not None:
                self.s.at(ok, HAPPEN, self._ready, c, c.gen)
        lp = c.spec.liveness_probe
        if lp is not None and not probing.errors(c, "liveness"):
            checks = Checks(c.start_t + lp.initial_delay, lp.period, now)
            fail = probing.failure_time(c, lp, checks, probing.healthy_from(c, "liveness"))
            if fail is not None:
                self.s.at(fail, HAPPEN, probing.probe_failed, c, c.gen, "liveness")

    def _ready(self, c: ContainerState, gen: int) -> None:
        if gen != c.gen or not c.alive or c.st.ready:
            return
        c.st.ready = True
        self.rec.book.changed(c.st)
        self.rec.emit(c, EventKind.READY, message=c.spec.readiness_probe.detail if c.spec.readiness_probe else
                      _READY_NO_PROBE)
