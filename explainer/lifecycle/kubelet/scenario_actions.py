"""What the scenario does to the running Pod: deletion, the active deadline, a lost sandbox, an image
update, a debug container (docs/lifecycle-model.md §12 Termination, §14 Ephemeral containers).

A part of the kubelet model (simulate.py builds it, and schedules these at the scenario's times;
kubelet/state.py declares what it is handed).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from ..scenario.behaviour import Behaviour, Run
from ..i18n import Phrase, Text, gettext_noop as _
from .state import Containers, KubeletConfig, PodState, PodWorker, Record
from ..model import Container
from .runtime import ContainerState
from ..scenario.document import DebugRequest
from .scheduler import Scheduler
from .status import EXITED, WAITING, RuntimeStatus
from .termination import Termination
from .trace import EventKind

_GONE_WITH_SANDBOX = Text(_("gone with the sandbox"))


class ScenarioActions:
    """The scenario's one-off actions (fastforward.py never jumps over them)."""

    __slots__ = ("cfg", "state", "cs", "s", "rec", "worker", "term")

    def __init__(self, cfg: KubeletConfig, state: PodState, cs: Containers, s: Scheduler, rec: Record,
                 worker: PodWorker, term: Termination) -> None:
        self.cfg, self.state, self.cs, self.s, self.rec, self.worker, self.term = cfg, state, cs, s, rec, worker, term

    def one_offs(self) -> frozenset[Callable[..., Any]]:
        """The actions `simulate.py` schedules at the scenario's times."""
        return frozenset({self.delete, self.deadline, self.sandbox_lost, self.debug, self.update_image})

    def delete(self) -> None:
        state, cfg = self.state, self.cfg
        grace = cfg.scenario.delete_grace
        if grace is None:
            grace = cfg.pod.termination_grace_period
        state.deleting = True
        self.rec.emit(None, EventKind.DELETE_REQUESTED, reason="Deleted",
                      message=Text(_("kubectl delete: grace period {grace}s"), {"grace": f"{grace}"}))
        if state.terminal:
            return
        if state.pod_kill is not None:
            return
        if grace == 0:
            # strategy.go `CheckGracefulDelete` keeps a 0 (from the spec or the request), and a 0 makes
            # the registry delete the object at once: a forced deletion (docs/lifecycle-model.md §12.6)
            self.rec.notes.append(Text(_(
                "The grace period is 0, so the API server removes the Pod object at once, as a forced deletion "
                "would: its name is free again and a controller may start a replacement while these containers "
                "still stop. The kubelet still stops them with its own minimum grace: 1 s for preStop, then "
                "the stop signal with at least 2 s before SIGKILL.")) if not cfg.legacy_kill else Text(_(
                "The grace period is 0, so the API server removes the Pod object at once, as a forced deletion "
                "would: its name is free again and a controller may start a replacement while these containers "
                "still stop. Before 1.27 the kubelet skips preStop (no grace left for it) and gives the stop "
                "signal its own minimum grace of 1 s before SIGKILL.")))
        self.term.worker_kill("Deleted", float(grace), Text(_("the Pod was deleted")))

    def deadline(self) -> None:
        state = self.state
        if state.terminal or state.pod_kill is not None:
            return
        state.status_reason = "DeadlineExceeded"
        state.forced_phase = "Failed"
        self.rec.emit(None, EventKind.DEADLINE_EXCEEDED, reason="DeadlineExceeded",
                      message=Text(_("Pod was active on the node longer than the specified deadline")))
        self.term.worker_kill("DeadlineExceeded", self.cfg.pod.termination_grace_period,
                              Text(_("activeDeadlineSeconds passed")))

    def sandbox_lost(self) -> None:
        """§6.1: the node reboots; everything is gone and init containers will run again."""
        state = self.state
        if state.terminal:
            return
        self.rec.emit(None, EventKind.SANDBOX_LOST, reason="SandboxChanged",
                      message=Text(_("the node reboots: every container and the sandbox are gone")))
        state.sandbox = False
        state.queue.clear()
        state.busy = False
        state.sync_wanted = False
        for c in self.cs.all():
            c.in_poststart = False
            c.kill = None
            c.bo_delay, c.img_delay = None, None      # the kubelet restarted: back-off is forgotten
            if c.alive:
                self._exit_lost(c)
        self.term.purge_init_containers()
        state.initialized = False
        if state.pod_kill is not None:
            self.term.finish()
            return
        self.worker.request_sync()

    def _exit_lost(self, c: ContainerState) -> None:
        was_ready = c.st.ready
        self.state.mark_dead(c)
        c.gen += 1
        c.finished_at = self.s.now
        self.rec.set(c, EXITED, exit_code=255)
        self.rec.emit(c, EventKind.EXITED, exit_code=255, reason="Unknown", message=_GONE_WITH_SANDBOX)
        if was_ready:
            self.rec.emit(c, EventKind.NOT_READY, message=_GONE_WITH_SANDBOX)

    def update_image(self, c: ContainerState, image: str) -> None:
        """§7.5: a new image restarts a running app container or sidecar, whatever the
        restartPolicy; a finished init container is not run again; nothing restarts once terminating."""
        state = self.state
        c.spec = dataclasses.replace(c.spec, image=image)
        self.rec.emit(c, EventKind.IMAGE_UPDATED, reason="SpecChanged",
                      message=Text(_("kubectl set image: {image}"), {"image": image}))
        if state.stopping():
            return
        if not c.alive and c.st.state == WAITING and c.st.waiting_reason == "InvalidImageName":
            self.worker.request_sync()     # the next sync parses the new reference (docs/lifecycle-model.md §28)
            return
        if not c.alive or c.kill:
            return
        if c.spec.role == "init":
            return
        if state.busy:
            state.after_free.append((self._update_kill, (c, c.gen)))
            return
        self._update_kill(c, c.gen)

    def _update_kill(self, c: ContainerState, gen: int) -> None:
        if gen != c.gen or not c.alive or c.kill or self.state.pod_kill is not None:
            return
        c.force_restart = True
        self.state.busy = True
        self.term.begin_kill(c, self.cfg.pod.termination_grace_period, "SpecChanged", ordered=False)

    def debug(self, i: int, req: DebugRequest) -> None:
        cs = self.cs
        spec = Container(name=req.name, role="ephemeral", index=len(cs.ephemeral), image=req.image,
                         path=f"debug[{i}]", line=req.line, target=req.target)
        b = Behaviour(runs=(Run(req.run_seconds, 0),),
                      assumed={} if req.run_seconds is not None else
                      {"runSeconds": Phrase(_("a debug session is assumed to stay open"))})
        c = ContainerState(spec, b, RuntimeStatus("ephemeral", spec.index, "ContainerCreating"))
        cs.ephemeral.append(c)
        cs.debug_specs.append(spec)
        if req.target:
            added = Text(_("kubectl debug adds {name} ({image}) targeting {target}"),
                         {"name": req.name, "image": req.image, "target": req.target})
        else:
            added = Text(_("kubectl debug adds {name} ({image})"), {"name": req.name, "image": req.image})
        self.rec.emit(None, EventKind.DEBUG_REQUESTED, reason="EphemeralContainerAdded", message=added)
        if self.state.stopping():
            c.requested = False
            self.rec.notes.append(Text(_("{c} was added at t={t}s but never starts: the Pod is no longer running."),
                                       {"c": req.name, "t": f"{req.at:g}"}))
            return
        c.requested = True
        self.worker.request_sync()
