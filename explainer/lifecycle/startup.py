"""Start-up: the kubelet's sync (`computePodActions` + `SyncPod`), starting containers (probes: probing.py).

A mixin of the kubelet model in simulate.py: the methods share its state (``self.init``,
``self.apps``, ``self.book``, the scheduler ``self.s``).  Section numbers (§) refer to
docs/lifecycle-model.md.
"""
from __future__ import annotations

from . import defaults as d
from .i18n import Text, gettext_noop as _
from .images import kubelet_message, reference_error
from .probes import Checks, success_time
from .probing import ProbingMixin
from .runtime import CState
from .scenario import Run
from .scheduler import HAPPEN
from .status import EXITED, RUNNING, WAITING
from .trace import EventKind

_SANDBOX = Text(_("the kubelet creates the Pod sandbox: network namespace and IP"))
_SANDBOX_HOST = Text(_("the kubelet creates the Pod sandbox in the node's network namespace (hostNetwork): "
                       "the node's IP"))
_RUNS_UNTIL_STOPPED = Text(_("runs until stopped"))
_READY_NO_PROBE = Text(_("no readinessProbe: ready once started"))


class StartupMixin(ProbingMixin):
    """Decides what to start and starts it: init containers, sidecars, app containers."""
    # the shared state this part assigns (kubelet_state.py; tests/lifecycle/test_kubelet_parts.py holds it to it)
    CHANGES = frozenset({"busy", "deleting", "end_time", "forced_phase", "initialized", "notes", "queue",
                         "sandbox", "sandbox_ever", "sync_pending", "sync_wanted", "terminal"})

    # ---- the sync: computePodActions + SyncPod -------------------------------------------
    def _sync(self) -> None:
        self.sync_pending = False
        if self.terminal or self.pod_kill is not None:
            return
        if self.busy:
            self.sync_wanted = True
            return
        if not self.sandbox and not self._create_sandbox():
            return
        if self.restart_all is not None:
            self._restart_all_containers()
        queue = [c for c in self.ephemeral if c.requested and not c.ever_created] if self.ephemeral else []
        starts, initialized, kill = self._init_actions()
        if kill:
            self._kill_pod("InitContainerFailed", self.pod.termination_grace_period,
                           Text(_("a plain init container failed and restartPolicy is Never")))
            return
        queue += starts
        if initialized:
            self.initialized = True
            apps, kill = self._app_actions()
            if kill:
                self._kill_pod("PodCompleted", self.pod.termination_grace_period,
                               Text(_("no app container is running or will restart")))
                return
            queue += apps
        self.queue = queue
        self._start_queue()

    def _create_sandbox(self) -> bool:
        """§6.1: a new sandbox, except under Never once containers ran (the Pod stays dead)."""
        if self.sandbox_ever:
            never_again = self.pod.restart_policy == "Never" and any(c.ever_created for c in self.apps + self.init)
            done = all(c.ever_created and c.st.state == EXITED and c.st.exit_code == 0 for c in self.apps) \
                and self.pod.restart_policy == "OnFailure"
            if never_again or done:
                self.terminal = True
                self.end_time = self.s.now
                self.notes.append(Text(_("The sandbox is gone and restartPolicy does not let the kubelet "
                                         "build a new one: the Pod stays down.")))
                self._snapshot()
                return False
        self.sandbox = self.sandbox_ever = True
        # hostNetwork: the runtime makes no network namespace for the sandbox; the Pod gets the node's IP
        # (pkg/kubelet/kuberuntime/util.go `namespacesForPod` -> `networkNamespaceForPod`: NamespaceMode_NODE)
        self.emit(None, EventKind.SANDBOX_READY, message=_SANDBOX_HOST if self.pod.host_network else _SANDBOX)
        return True

    def _init_actions(self) -> tuple[list[CState], bool, bool]:
        """`computeInitContainerActions`: walk the init containers from the last one (§6.2-6.3).

        Returns (init containers to start, initialized, kill the pod).
        """
        has_init = False
        for c in self.apps:
            if c.alive or c.in_poststart:
                has_init = True
                break
        previously = has_init
        to_start: list[CState] = []
        n = len(self.init)
        for i in range(n - 1, -1, -1):
            c = self.init[i]
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
                        to_start.append(self.init[i + 1])
            elif c.kill is None:   # exited
                if sidecar:
                    to_start.append(c)
                elif c.st.exit_code != 0:
                    # 1.35+: `ContainerShouldRestart` decides per init container (its own restartPolicy
                    # and rules first), so a Never init container fails an Always Pod (lifecycle-model.md §17)
                    if not self.will_restart(c, c.st.exit_code or 0):
                        return [], False, True
                    to_start.append(c)
                elif i == n - 1:
                    has_init = True
                else:
                    to_start.append(self.init[i + 1])
            previously = True
        if not previously and n:
            to_start.append(self.init[0])
        to_start.reverse()
        return [c for c in to_start if not c.alive], has_init or n == 0, False

    def _app_actions(self) -> tuple[list[CState], bool]:
        """The regular-container half of `computePodActions`, with its KillPod rule (§12.1)."""
        to_start, keep = [], 0
        for c in self.apps:
            if c.alive or c.in_poststart:
                keep += 1
            elif c.kill is None and self._should_restart(c):
                to_start.append(c)
        if keep == 0 and not to_start:
            return [], True
        return to_start, False

    def _should_restart(self, c: CState) -> bool:
        """`ShouldContainerBeRestarted` (pkg/kubelet/container/helpers.go), §7.1; from 1.35 it asks
        `ContainerShouldRestart` with the last exit code (restart rules, docs/lifecycle-model.md §17)."""
        if not c.ever_created or not c.has_status or c.force_restart:
            return True      # no status left (removed by RestartAllContainers): started like a new one
        return self.will_restart(c, c.st.last_exit or 0)

    # ---- starting containers --------------------------------------------------------------
    def _start_queue(self) -> None:
        """SyncPod's start loop: one container after another; a postStart hook blocks the loop."""
        while self.queue:
            c = self.queue.pop(0)
            if self.terminal or self.pod_kill:
                break
            outcome = self._start(c)
            if outcome != "started":
                if c.spec.role == "init":
                    self.queue.clear()   # SyncPod returns when a plain init container cannot start
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
            self.busy = True
            if seconds is not None:
                self.s.at(self.s.now + seconds, HAPPEN, self._poststart_done, c, c.gen)
            return
        self._free()

    def _start(self, c: CState) -> str:
        now = self.s.now
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
            self._set(c, WAITING, reason="ErrImagePull")
            self.emit(c, EventKind.IMAGE_PULL_FAILED, reason="ErrImagePull",
                      message=Text(_("pulling {image} failed"), {"image": c.spec.image}))
            self._set(c, WAITING, reason="ImagePullBackOff")
            self.emit(c, EventKind.BACKOFF, reason="ImagePullBackOff",
                      message=Text(_("next pull in {delay}s"), {"delay": f"{c.img_delay:g}"}))
            self.s.at(c.img_retry_at, HAPPEN, self.request_sync)
            return "pull"
        if c.ever_created:
            c.st.restarts += 1
            self._ff_started(c)
            if self.pod.backoff_limit is not None and self.pod.restart_policy == "OnFailure":
                self.s.at(now, HAPPEN, self._job_backoff_limit)
        c.ever_created = c.has_status = True
        c.force_restart = False
        c.announced = False
        c.gen += 1
        self._mark_alive(c)
        c.start_t = now
        run = c.b.run(c.runs)
        c.runs += 1
        if c.spec.post_start is not None and c.spec.role != "ephemeral" and c.st.state == EXITED:
            self._set(c, WAITING, reason="ContainerCreating")   # not Running until postStart ends
        self.emit(c, EventKind.CREATED, message=Text(_("image {image}"), {"image": c.spec.image}))
        self.emit(c, EventKind.STARTED, message=self._run_text(c, run), assumed="runSeconds" in c.b.assumed)
        if run.seconds is not None:
            how = "oom" if run.reason == "OOMKilled" else "natural"
            self.s.at(now + run.seconds, HAPPEN, self._exit, c, c.gen, run.exit_code, how)
        return "started"

    def _image_invalid(self, c: CState) -> bool:
        """`EnsureImageExists` (pkg/kubelet/images/image_manager.go): an image reference the parser refuses is
        an InspectFailed event and the waiting reason InvalidImageName, on every sync, with no pull and no
        back-off; the model records it once (docs/lifecycle-model.md §28)."""
        if c.spec.role == "ephemeral":
            return False
        error = reference_error(c.spec.image)
        if error is None:
            return False
        if c.st.state != WAITING or c.st.waiting_reason != "InvalidImageName":
            self._set(c, WAITING, reason="InvalidImageName")
            # the kubelet's own words stay English, as `kubectl describe` shows them
            self.emit(c, EventKind.IMAGE_PULL_FAILED, reason="InvalidImageName",
                      message=Text(_("event InspectFailed: {message}"),
                                   {"message": kubelet_message(c.spec.image, error)}))
        return True

    @staticmethod
    def _run_text(c: CState, run: Run) -> Text:
        if run.seconds is None:
            return _RUNS_UNTIL_STOPPED
        return Text(_("runs {seconds}s, then exits {code}"), {"seconds": f"{run.seconds:g}", "code": run.exit_code})

    def _backoff_allows(self, c: CState) -> bool:
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
                self._set(c, WAITING, reason="CrashLoopBackOff")
                self.emit(c, EventKind.BACKOFF, reason="CrashLoopBackOff",
                          message=Text(_("back-off {delay}s restarting failed container; next start at {t}s"),
                                       {"delay": f"{delay:g}", "t": f"{ts + delay:g}"}))
                self.s.at(ts + delay, HAPPEN, self.request_sync)
            return False
        c.bo_delay = self.bo_initial if expired or delay is None else min(delay * 2, self.bo_max)
        c.bo_updated = now
        return True

    def _poststart_done(self, c: CState, gen: int) -> None:
        if gen != c.gen or not c.in_poststart:
            return
        c.in_poststart = False
        if c.b.post_start_exit_code:
            self._poststart_failed(c)
            return
        self.emit(c, EventKind.POSTSTART_DONE, reason="PostStartHookSucceeded" if c.b.post_start_seconds else None,
                  message=c.spec.post_start.detail if c.spec.post_start else "",
                  assumed="postStartSeconds" in c.b.assumed)
        self._running(c)
        if self.busy:
            self._start_queue()

    def _poststart_failed(self, c: CState) -> None:
        """`startContainer` (kuberuntime_container.go): a failed postStart hook records FailedPostStartHook
        and calls `killContainer` with reason FailedPostStartHook (preStop and the Pod's grace period,
        `setTerminationGracePeriod`); the start counts as failed, and the restart policy and back-off
        decide what follows.  The start loop goes on with the next container after the kill (§9, §24.3)."""
        self.emit(c, EventKind.POSTSTART_DONE, exit_code=c.b.post_start_exit_code, reason="FailedPostStartHook",
                  message=Text(_("the hook failed: the kubelet kills the container")),
                  assumed="postStartSeconds" in c.b.assumed)
        self.busy = True
        self._begin_kill(c, self.pod.termination_grace_period, "FailedPostStartHook", ordered=False)

    def _running(self, c: CState) -> None:
        """The container is reported Running; its probes begin."""
        if c.spec.role == "ephemeral":
            return
        self._set(c, RUNNING)
        self._snapshot()
        if c.runs == 1 and c.b.probe_faults:
            self._note_probe_faults(c)
        if c.spec.startup_probe is None:
            self._started(c, immediate_readiness=False)
        elif self._errors(c, "startup"):
            pass     # never started, never killed for it: errored checks are thrown away (probe_reach.py)
        else:
            p = c.spec.startup_probe
            checks = Checks(c.start_t + p.initial_delay, p.period, self.s.now)
            healthy = self._healthy_from(c, "startup")
            fail = self._failure_time(c, p, checks, healthy)
            if fail is not None:
                self.s.at(fail, HAPPEN, self._probe_failed, c, c.gen, "startup")
            else:
                ok = success_time(checks, healthy, 1)
                if ok is not None:   # None: it never passes (an erroring probe): nothing to schedule
                    self.s.at(ok, HAPPEN, self._startup_ok, c, c.gen)
        self.request_sync()


    def _job_backoff_limit(self) -> None:
        """The Job controller counts an OnFailure Pod's container restarts against backoffLimit and, when
        they reach it, fails the Job and deletes the Pod, logs and all (job_controller.go
        `pastBackoffLimitOnFailure`; a limit of 0 is passed by the first restart)."""
        limit = self.pod.backoff_limit or 0
        total = sum(x.st.restarts for x in self.init + self.apps)
        if self.pod_kill is not None or self.terminal or total < max(limit, 1):
            return
        self.deleting = True
        self.status_reason, self.forced_phase = "BackoffLimitExceeded", "Failed"
        self.emit(None, EventKind.DELETE_REQUESTED, reason="BackoffLimitExceeded",
                  message=Text(_("the Job controller deletes the Pod: its containers restarted {n} times, "
                                 "backoffLimit is {limit}"), {"n": total, "limit": limit}))
        self.notes.append(Text(_(
            "restartPolicy OnFailure: every retry restarted a container in this same Pod, with the kubelet's "
            "back-off. At {t} s the restarts reach the Job's backoffLimit ({limit}): the Job fails "
            "(BackoffLimitExceeded) and the Job controller deletes the Pod, and the logs of every attempt "
            "go with it. With restartPolicy Never each retry would be a new Pod, the failed ones kept."),
            {"t": f"{self.s.now:g}", "limit": limit}))
        self._worker_kill("BackoffLimitExceeded", self.pod.termination_grace_period,
                       Text(_("the Job's backoffLimit was reached")))


    def _startup_ok(self, c: CState, gen: int) -> None:
        if gen != c.gen or not c.alive or self.deleting:
            return
        self.emit(c, EventKind.STARTUP_PROBE_OK, message=c.spec.startup_probe.detail if c.spec.startup_probe else "")
        self._started(c, immediate_readiness=True)
        self.request_sync()

    def _started(self, c: CState, immediate_readiness: bool) -> None:
        st = c.st
        st.started = True
        self.book.changed(st)
        now = self.s.now
        if c.spec.role == "init":
            return    # a plain init container is "ready" only by completing (§11)
        rp = c.spec.readiness_probe
        if rp is None:
            self._ready(c, c.gen)
        else:
            checks = Checks(c.start_t + rp.initial_delay, rp.period, now, now if immediate_readiness else None)
            ok = success_time(checks, self._healthy_from(c, "readiness"), rp.success_threshold)
            if ok is not None:
                self.s.at(ok, HAPPEN, self._ready, c, c.gen)
        lp = c.spec.liveness_probe
        if lp is not None and not self._errors(c, "liveness"):
            checks = Checks(c.start_t + lp.initial_delay, lp.period, now)
            fail = self._failure_time(c, lp, checks, self._healthy_from(c, "liveness"))
            if fail is not None:
                self.s.at(fail, HAPPEN, self._probe_failed, c, c.gen, "liveness")

    def _ready(self, c: CState, gen: int) -> None:
        if gen != c.gen or not c.alive or c.st.ready:
            return
        c.st.ready = True
        self.book.changed(c.st)
        self.emit(c, EventKind.READY, message=c.spec.readiness_probe.detail if c.spec.readiness_probe else
                  _READY_NO_PROBE)


