"""Pod phase, conditions and kubectl's STATUS column, kept up to date in O(log n) a change.

The rules are the kubelet's `getPhase` (pkg/kubelet/kubelet_pods.go), the conditions of
pkg/kubelet/status/generate.go and kubectl's `printPod`
(pkg/printers/internalversion/printers.go), as summarised in docs/lifecycle-model.md §10 and
§15.  Recomputing them from every container after every event is quadratic in the number of
containers, so each container contributes to a few counters, and the two "first container
that ..." walks of `printPod` use heaps with lazy deletion.
"""
from __future__ import annotations

import heapq
from collections.abc import Callable

WAITING, RUNNING, EXITED = "waiting", "running", "exited"

# counter slots
(PEND_INIT, FAILED_INIT, PEND_SIDECAR, RUNNING_N, WAITING_N, STOPPED, SUCCEEDED,
 READY_NEEDED_OK, RUN_READY_APP, RESTARTS_INIT, RESTARTS_SIDECAR, RESTARTS_APP,
 READY_SIDECAR, STOPPED_RESTARTING) = range(14)
_SLOTS = 14
_ZERO: tuple[tuple[int, int], ...] = ()   # a contribution: (slot, amount) pairs, the slots left out add 0


class RuntimeStatus:
    """The part of a container's status the Pod-level rules read."""

    __slots__ = ("role", "index", "state", "waiting_reason", "exit_code", "last_exit", "started",
                 "ready", "restarts", "contrib", "will_restart", "exit_reason", "walked")

    def __init__(self, role: str, index: int, waiting_reason: str) -> None:
        self.role, self.index = role, index
        self.state = WAITING
        self.waiting_reason = waiting_reason
        self.exit_code: int | None = None
        self.last_exit: int | None = None      # lastState.terminated.exitCode
        self.started = False
        self.ready = False
        self.restarts = 0
        self.contrib: tuple[tuple[int, int], ...] = _ZERO
        self.will_restart = True               # `ContainerShouldRestart` for the last exit
        self.exit_reason: str | None = None    # OOMKilled: what the runtime reports instead of Error
        self.walked = (0, 0, 0)                # what it adds to StatusBook's sums over the init list

    def terminated_reason(self) -> str:
        return self.exit_reason or ("Completed" if self.exit_code == 0 else "Error")


def _contribution(s: RuntimeStatus) -> tuple[tuple[int, int], ...]:
    """What ``s`` adds to the counters: (slot, amount) for each slot it adds to (the others are 0)."""
    c: list[tuple[int, int]] = []
    role, state = s.role, s.state
    if role == "init":
        if s.restarts:
            c.append((RESTARTS_INIT, s.restarts))
        # a failure counts against the Pod only when the container will not be restarted
        if state == RUNNING:
            c.append((PEND_INIT, 1))
        elif state == EXITED:
            if s.exit_code != 0 and not s.will_restart:
                c.append((FAILED_INIT, 1))
        elif s.last_exit is not None:
            if s.last_exit != 0 and not s.will_restart:
                c.append((FAILED_INIT, 1))
        else:
            c.append((PEND_INIT, 1))
    elif role == "sidecar":
        if s.restarts:
            c.append((RESTARTS_SIDECAR, s.restarts))
        if state == RUNNING:
            c.append((RUNNING_N, 1))
            if not s.started:
                c.append((PEND_SIDECAR, 1))
        elif state == WAITING and s.last_exit is None:
            c.append((PEND_SIDECAR, 1))
            c.append((WAITING_N, 1))
        if s.ready:
            c.append((READY_NEEDED_OK, 1))
            if s.started:
                c.append((READY_SIDECAR, 1))
    elif role == "app":
        if s.restarts:
            c.append((RESTARTS_APP, s.restarts))
        if state == RUNNING:
            c.append((RUNNING_N, 1))
            if s.ready:
                c.append((RUN_READY_APP, 1))
        elif state == EXITED:
            c.append((STOPPED, 1))
            if s.exit_code == 0:
                c.append((SUCCEEDED, 1))
            if s.will_restart:
                c.append((STOPPED_RESTARTING, 1))
        elif s.last_exit is not None:
            c.append((STOPPED, 1))
            if s.will_restart:
                c.append((STOPPED_RESTARTING, 1))
        else:
            c.append((WAITING_N, 1))
        if s.ready:
            c.append((READY_NEEDED_OK, 1))
    return tuple(c)


class _Sums:
    """Point updates and prefix sums over the init list (a Fenwick tree), O(log n) each: printPod sums
    restarts and READY over the init statuses it walked, which stops at the first blocking one."""

    __slots__ = ("tree",)

    def __init__(self, n: int) -> None:
        self.tree = [0] * (n + 1)

    def add(self, i: int, delta: int) -> None:
        i += 1
        while i < len(self.tree):
            self.tree[i] += delta
            i += i & -i

    def prefix(self, end: int) -> int:
        """The sum over indices 0 .. end - 1."""
        total, i = 0, min(end, len(self.tree) - 1)
        while i > 0:
            total += self.tree[i]
            i -= i & -i
        return total


class StatusBook:
    """Counters over all containers, and the answers the Pod-level rules need."""

    def __init__(self, statuses: list[RuntimeStatus], n_init: int, n_ready_needed: int,
                 restart_policy: str, readiness_gates: int, terminal_on_delete: bool = True) -> None:
        self.counts = [0] * _SLOTS
        # since 1.27 a deleted Pod is moved to a terminal phase before it goes (docs/lifecycle-model.md §33)
        self.terminal_on_delete = terminal_on_delete
        self.n_init = n_init
        self.n_ready_needed = n_ready_needed
        self.restart_policy = restart_policy
        self.readiness_gates = readiness_gates
        self.init: list[RuntimeStatus] = []
        self.apps: list[RuntimeStatus] = []
        self._blocking: list[int] = []     # heap of init indices that stop printPod's init walk
        self._reasoned: list[int] = []     # heap of app indices that carry a waiting/terminated reason
        n = sum(1 for st in statuses if st.role in ("init", "sidecar"))
        # per init index: every restart, a sidecar's restarts, a started and ready sidecar (printPod's walk)
        self._restarts_all, self._restarts_sidecar, self._ready_sidecar = _Sums(n), _Sums(n), _Sums(n)
        self._walk_end = 0                 # where the last `kubectl_status` walk stopped (len(init): it did not)
        # set by every `changed`: the answers below may differ from the last ones asked for
        # (simulate.py `_snapshot` skips recomputing them while it is False)
        self.dirty = True
        for s in statuses:
            (self.init if s.role in ("init", "sidecar") else self.apps if s.role == "app" else []).append(s)
            self.changed(s)

    def changed(self, s: RuntimeStatus) -> None:
        self.dirty = True
        new = _contribution(s)
        old = s.contrib
        if new != old:
            counts = self.counts
            for i, n in old:
                counts[i] -= n
            for i, n in new:
                counts[i] += n
            s.contrib = new
        if s.role in ("init", "sidecar"):
            sidecar = s.role == "sidecar"
            walked = (s.restarts, s.restarts if sidecar else 0, 1 if sidecar and s.ready and s.started else 0)
            if walked != s.walked:
                for sums, now, before in zip((self._restarts_all, self._restarts_sidecar, self._ready_sidecar),
                                             walked, s.walked):
                    if now != before:
                        sums.add(s.index, now - before)
                s.walked = walked
            if _init_blocks(s):
                heapq.heappush(self._blocking, s.index)
        elif s.role == "app" and s.state != RUNNING:
            heapq.heappush(self._reasoned, s.index)

    def phase(self, pod_has_initialized: bool, terminal: bool) -> str:
        """`getPhase`: the phase from the containers' states (docs/lifecycle-model.md §10.1).

        A Pod the kubelet has finished with is never left Pending or Running: since 1.27 it is
        moved to a terminal phase before it goes (status manager `TerminatePod`), Failed unless
        every app container exited 0.
        """
        found = self._phase(pod_has_initialized, terminal)
        if terminal and found not in ("Succeeded", "Failed"):
            return "Failed"
        return found

    def _phase(self, pod_has_initialized: bool, terminal: bool) -> str:
        c = self.counts
        # `getPhase`: an init container failure that will not be restarted fails the Pod.  Up to 1.34 that
        # is "restartPolicy Never"; from 1.35 `ContainerShouldRestart` decides per container (the same
        # answer when no container has its own restartPolicy; docs/lifecycle-model.md §17).
        if c[FAILED_INIT] > 0:
            return "Failed"
        if c[PEND_INIT] > 0 or (c[PEND_SIDECAR] > 0 and not pod_has_initialized) or c[WAITING_N] > 0:
            return "Pending"
        if c[RUNNING_N] > 0:
            return "Running"
        if c[STOPPED] > 0:
            if terminal:
                return "Succeeded" if c[STOPPED] == c[SUCCEEDED] else "Failed"
            # Always, or OnFailure with a failure: "in the process of restarting"; generalised per
            # container by `ContainerShouldRestart` (a Never Pod whose container has a Restart rule runs on)
            if c[STOPPED_RESTARTING] > 0:
                return "Running"
            return "Succeeded" if c[STOPPED] == c[SUCCEEDED] else "Failed"
        return "Pending"

    def point(self, forced_phase: str | None, status_reason: str | None, initialized: bool, deleting: bool,
              terminal: bool) -> tuple[str, str, bool, str, int, bool]:
        """(STATUS, phase, Ready, READY, RESTARTS, initializing): a status point's fields in one call."""
        # before 1.27 a deleted Pod kept the phase `getPhase` gave it until it left the API (k/k #116410)
        phase = forced_phase or self.phase(initialized, terminal and (self.terminal_on_delete or not deleting))
        status, initializing = self.kubectl_status(phase, status_reason, initialized, deleting)
        return (status, phase, self.ready(phase), self.ready_count(initializing, initialized),
                self.restarts(initializing, initialized), initializing)

    def containers_ready(self) -> bool:
        return self.counts[READY_NEEDED_OK] == self.n_ready_needed

    def ready(self, phase: str) -> bool:
        """The Pod's Ready condition: every sidecar and app container ready, gates passed."""
        return (phase not in ("Succeeded", "Failed") and self.containers_ready()
                and self.readiness_gates == 0)

    def ready_count(self, initializing: bool = False, initialized: bool = True) -> str:
        """READY: the started, ready sidecars `printPod`'s init walk reached, then (when the walk did not
        stop, or the Pod is Initialized) the running, ready app containers.  After `kubectl_status`."""
        apps = self.counts[RUN_READY_APP] if not initializing or initialized else 0
        return f"{self._ready_sidecar.prefix(self._walk_end) + apps}/{self.n_ready_needed}"

    def restarts(self, initializing: bool = False, initialized: bool = True) -> int:
        """RESTARTS: while initialising, every init status the walk reached (the blocking one included);
        else the walked sidecars' and every app container's.  After `kubectl_status`."""
        reached = self._walk_end + 1 if initializing else self._walk_end
        if initializing and not initialized:
            return self._restarts_all.prefix(reached)
        return self._restarts_sidecar.prefix(reached) + self.counts[RESTARTS_APP]

    def kubectl_status(self, phase: str, status_reason: str | None, initialized: bool,
                       deleting: bool) -> tuple[str, bool]:
        """`printPod`'s STATUS value, and whether the init walk stopped (the Pod is initializing)."""
        reason = status_reason or phase
        initializing = False
        blocking = _first(self._blocking, self.init, _init_blocks)
        self._walk_end = blocking.index if blocking is not None else len(self.init)
        if blocking is not None:
            initializing = True
            if blocking.state == EXITED:
                reason = "Init:" + blocking.terminated_reason()
            elif blocking.state == WAITING and blocking.waiting_reason not in ("PodInitializing", ""):
                reason = "Init:" + blocking.waiting_reason
            else:
                reason = f"Init:{blocking.index}/{self.n_init}"
        if not initializing or initialized:
            first = _first(self._reasoned, self.apps, _not_running)
            if first is not None:
                reason = first.terminated_reason() if first.state == EXITED else first.waiting_reason
            if reason == "Completed" and self.counts[RUN_READY_APP] > 0:
                reason = "Running" if self.ready(phase) else "NotReady"
        if deleting and phase not in ("Succeeded", "Failed"):
            reason = "Terminating"
        return reason, initializing


def _first(heap: list[int], items: list[RuntimeStatus], keep: Callable[[RuntimeStatus], bool]) -> RuntimeStatus | None:
    """The first of ``items`` (by the indices in ``heap``) that ``keep`` accepts; the others on top are
    dropped (lazy deletion: `changed` pushes a container again when it qualifies again)."""
    while heap:
        s = items[heap[0]]
        if keep(s):
            return s
        heapq.heappop(heap)
    return None


def _not_running(s: RuntimeStatus) -> bool:
    return s.state != RUNNING


def _init_blocks(s: RuntimeStatus) -> bool:
    if s.state == EXITED and s.exit_code == 0:
        return False
    if s.role == "sidecar" and s.started:
        return False
    return True
