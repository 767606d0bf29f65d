"""What the scenario does to the running Pod: deletion, the active deadline, a lost sandbox, an image
update, a debug container (docs/lifecycle-model.md §12 Termination, §14 Ephemeral containers).

A part of the kubelet model (kubelet_state.py says what the parts share): `simulate.py` schedules
these at the scenario's times.
"""
from __future__ import annotations

import dataclasses

from .behaviour import Behaviour, Run
from .i18n import Phrase, Text, gettext_noop as _
from .kubelet_state import KubeletState
from .model import Container
from .runtime import CState
from .scenario import DebugRequest
from .status import EXITED, WAITING, RuntimeStatus
from .trace import EventKind

_GONE_WITH_SANDBOX = Text(_("gone with the sandbox"))


class ScenarioActionsMixin(KubeletState):
    """The scenario's one-off actions (fastforward.py never jumps over them)."""
    # the shared state this part assigns (kubelet_state.py; tests/lifecycle/test_kubelet_parts.py holds it to it)
    CHANGES = frozenset({"after_free", "busy", "debug_specs", "deleting", "ephemeral", "forced_phase",
                         "initialized", "notes", "queue", "sandbox", "status_reason", "sync_wanted"})

    def _delete(self) -> None:
        grace = self.scenario.delete_grace
        if grace is None:
            grace = self.pod.termination_grace_period
        self.deleting = True
        self.emit(None, EventKind.DELETE_REQUESTED, reason="Deleted",
                  message=Text(_("kubectl delete: grace period {grace}s"), {"grace": f"{grace}"}))
        if self.terminal:
            return
        if self.pod_kill is not None:
            return
        if grace == 0:
            # strategy.go `CheckGracefulDelete` keeps a 0 (from the spec or the request), and a 0 makes
            # the registry delete the object at once: a forced deletion (docs/lifecycle-model.md §12.6)
            self.notes.append(Text(_(
                "The grace period is 0, so the API server removes the Pod object at once, as a forced deletion "
                "would: its name is free again and a controller may start a replacement while these containers "
                "still stop. The kubelet still stops them with its own minimum grace: 1 s for preStop, then "
                "the stop signal with at least 2 s before SIGKILL.")) if not self.legacy_kill else Text(_(
                "The grace period is 0, so the API server removes the Pod object at once, as a forced deletion "
                "would: its name is free again and a controller may start a replacement while these containers "
                "still stop. Before 1.27 the kubelet skips preStop (no grace left for it) and gives the stop "
                "signal its own minimum grace of 1 s before SIGKILL.")))
        self._worker_kill("Deleted", float(grace), Text(_("the Pod was deleted")))

    def _deadline(self) -> None:
        if self.terminal or self.pod_kill is not None:
            return
        self.status_reason = "DeadlineExceeded"
        self.forced_phase = "Failed"
        self.emit(None, EventKind.DEADLINE_EXCEEDED, reason="DeadlineExceeded",
                  message=Text(_("Pod was active on the node longer than the specified deadline")))
        self._worker_kill("DeadlineExceeded", self.pod.termination_grace_period,
                       Text(_("activeDeadlineSeconds passed")))

    def _sandbox_lost(self) -> None:
        """§6.1: the node reboots; everything is gone and init containers will run again."""
        if self.terminal:
            return
        self.emit(None, EventKind.SANDBOX_LOST, reason="SandboxChanged",
                  message=Text(_("the node reboots: every container and the sandbox are gone")))
        self.sandbox = False
        self.queue.clear()
        self.busy = False
        self.sync_wanted = False
        for c in self.init + self.apps + self.ephemeral:
            c.in_poststart = False
            c.kill = None
            c.bo_delay, c.img_delay = None, None      # the kubelet restarted: back-off is forgotten
            if c.alive:
                self._exit_lost(c)
        for c in self.init:     # SyncPod step 2 `purgeInitContainers`
            if not c.alive and c.ever_created:
                c.st.last_exit = None
                self._set(c, WAITING, reason="PodInitializing")
                c.finished_at = None
                c.has_status = False
        self.initialized = False
        if self.pod_kill is not None:
            self._finish()
            return
        self.request_sync()

    def _exit_lost(self, c: CState) -> None:
        was_ready = c.st.ready
        self._mark_dead(c)
        c.gen += 1
        c.finished_at = self.s.now
        self._set(c, EXITED, exit_code=255)
        self.emit(c, EventKind.EXITED, exit_code=255, reason="Unknown", message=_GONE_WITH_SANDBOX)
        if was_ready:
            self.emit(c, EventKind.NOT_READY, message=_GONE_WITH_SANDBOX)

    def _update_image(self, c: CState, image: str) -> None:
        """§7.5: a new image restarts a running app container or sidecar, whatever the
        restartPolicy; a finished init container is not run again; nothing restarts once terminating."""
        c.spec = dataclasses.replace(c.spec, image=image)
        self.emit(c, EventKind.IMAGE_UPDATED, reason="SpecChanged",
                  message=Text(_("kubectl set image: {image}"), {"image": image}))
        if self.terminal or self.deleting or self.pod_kill is not None:
            return
        if not c.alive and c.st.state == WAITING and c.st.waiting_reason == "InvalidImageName":
            self.request_sync()     # the next sync parses the new reference (docs/lifecycle-model.md §28)
            return
        if not c.alive or c.kill:
            return
        if c.spec.role == "init":
            return
        if self.busy:
            self.after_free.append((self._update_kill, (c, c.gen)))
            return
        self._update_kill(c, c.gen)

    def _update_kill(self, c: CState, gen: int) -> None:
        if gen != c.gen or not c.alive or c.kill or self.pod_kill is not None:
            return
        c.force_restart = True
        self.busy = True
        self._begin_kill(c, self.pod.termination_grace_period, "SpecChanged", ordered=False)

    def _debug(self, i: int, req: DebugRequest) -> None:
        spec = Container(name=req.name, role="ephemeral", index=len(self.ephemeral), image=req.image,
                         path=f"debug[{i}]", line=req.line, target=req.target)
        b = Behaviour(runs=(Run(req.run_seconds, 0),),
                      assumed={} if req.run_seconds is not None else
                      {"runSeconds": Phrase(_("a debug session is assumed to stay open"))})
        c = CState(spec, b, RuntimeStatus("ephemeral", spec.index, "ContainerCreating"))
        self.ephemeral.append(c)
        self.debug_specs.append(spec)
        if req.target:
            added = Text(_("kubectl debug adds {name} ({image}) targeting {target}"),
                         {"name": req.name, "image": req.image, "target": req.target})
        else:
            added = Text(_("kubectl debug adds {name} ({image})"), {"name": req.name, "image": req.image})
        self.emit(None, EventKind.DEBUG_REQUESTED, reason="EphemeralContainerAdded", message=added)
        if self.terminal or self.deleting or self.pod_kill is not None:
            c.requested = False
            self.notes.append(Text(_("{c} was added at t={t}s but never starts: the Pod is no longer running."),
                                   {"c": req.name, "t": f"{req.at:g}"}))
            return
        c.requested = True
        self.request_sync()
