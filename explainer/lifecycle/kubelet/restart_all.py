"""`action: RestartAllContainers`: the kubelet restarts the whole Pod in place (KEP-5532, 1.35+).

A part of the kubelet model (simulate.py builds it; kubelet/state.py declares what it is handed).
Sources (release-1.35 to 1.37), docs/lifecycle-model.md §18:
pkg/kubelet/container/helpers.go `ShouldAllContainersRestart` (a container exited and its first matching
rule says RestartAllContainers, or the condition is already True; never once the Pod is being deleted),
pkg/kubelet/status/generate.go `GenerateAllContainersRestartingCondition` (AllContainersRestarting=True,
reason RestartAllContainersStarted, until every container is cleaned up), and
pkg/kubelet/kuberuntime/kuberuntime_manager.go `computePodActions` / `SyncPod` (every container goes into
the reset list: running ones are killed with a 0 s grace override and no preStop hook, then removed; the
sandbox is kept; the sync is re-queued and starts from the first init container).
"""
from __future__ import annotations

from .. import defaults as d
from ..i18n import Text, gettext_noop as _
from .state import Containers, KubeletConfig, PodState, Record
from ..model import RestartRule
from .restart_rules import RESTART_ALL, matching_rule
from .runtime import ContainerState
from .scheduler import Scheduler
from .status import EXITED, WAITING
from .trace import EventKind

_KILLED_AT_ONCE = Text(_("killed at once for RestartAllContainers: no preStop hook, no grace period"))
_REMOVED = Text(_("AllContainersRestarting=False: every container is removed; the sandbox (IP, volumes) is "
                  "kept and the kubelet starts again from the first init container"))


# The note a reader sees (docs/lifecycle-model.md §18): what happens, in their words; what the model draws at
# one instant.  (The kubelet kills the containers one after another within one sync; `doBackOff` finds no
# exited status of a removed container, so no back-off applies.)
_ASSUMED = Text(_("Restarting every container (RestartAllContainers): the kubelet kills the running containers "
                  "at once, with no grace period and no preStop hook, and starts the Pod again from its first init "
                  "container, with no crash-loop back-off. The timeline draws every kill at the moment of the "
                  "exit; what kubectl shows within that moment may differ."))


def restart_all_rule(state: PodState, c: ContainerState, code: int) -> RestartRule | None:
    """The matching RestartAllContainers rule for this exit, unless the Pod is being stopped."""
    if state.deleting or state.pod_kill is not None or state.terminal or c.spec.role == "ephemeral":
        return None
    rule = matching_rule(c.spec, code)
    return rule if rule is not None and rule.action == RESTART_ALL else None


class RestartAll:
    """Performs the in-place restart a RestartAllContainers exit asked for (termination.py `exit` records the
    exit in ``state.restart_all``), on the next sync."""

    __slots__ = ("cfg", "state", "cs", "s", "rec")

    def __init__(self, cfg: KubeletConfig, state: PodState, cs: Containers, s: Scheduler, rec: Record) -> None:
        self.cfg, self.state, self.cs, self.s, self.rec = cfg, state, cs, s, rec

    def restart_all_containers(self) -> None:
        state, rec, cs = self.state, self.rec, self.cs
        assert state.restart_all is not None   # the sync that calls this found it set
        c, code, rule = state.restart_all
        state.restart_all = None
        if not any(e.type == "all_containers_restarting" for e in rec.events):
            rec.notes.append(_ASSUMED)
        rec.emit(None, EventKind.ALL_CONTAINERS_RESTARTING, reason="RestartAllContainersStarted", message=Text(
            _("{c} exited {code}: restartPolicyRules[{i}] ({operator} {values}) → RestartAllContainers; "
              "AllContainersRestarting=True"),
            {"c": c.spec.name, "code": code, "i": rule.index, "operator": rule.operator,
             "values": ", ".join(str(v) for v in rule.values)}))
        state.queue.clear()
        # Init and sidecar containers, app containers, then ephemeral ones: the order of the Pod's lists.
        # The kubelet kills them one after another in one sync, each with a 0 s grace override, so the
        # model puts every kill at the same instant (§18).
        for x in cs.all():
            if x.alive:
                self._kill(x)
        for x in cs.init + cs.apps:
            # Removed: no status is left, so `doBackOff` finds no exited container and the restart is
            # not backed off; the restart count still goes up by one when each starts again.
            x.kill, x.force_restart, x.in_poststart = None, False, False
            x.finished_at = None
            x.has_status = False
            x.st.last_exit = None
            rec.set(x, WAITING, reason=self.cfg.default_wait)
        for x in cs.ephemeral:
            x.requested = False      # ephemeral containers are never restarted
        state.initialized = False
        rec.emit(None, EventKind.ALL_CONTAINERS_RESTARTING, reason="AllContainersRestarted", message=_REMOVED)

    def _kill(self, x: ContainerState) -> None:
        rec = self.rec
        was_ready = x.st.ready
        rec.emit(x, EventKind.KILLED, reason="RestartAllContainers", message=_KILLED_AT_ONCE)
        self.state.mark_dead(x)
        x.gen += 1
        x.kill = None
        x.in_poststart = False
        x.finished_at = self.s.now
        if x.spec.role == "ephemeral":
            x.st.state = EXITED
        else:
            rec.set(x, EXITED, exit_code=d.EXIT_SIGKILL, will_restart=True)
        rec.emit(x, EventKind.EXITED, exit_code=d.EXIT_SIGKILL, reason="Error", message=_KILLED_AT_ONCE)
        if was_ready:
            rec.emit(x, EventKind.NOT_READY, message=_KILLED_AT_ONCE)
