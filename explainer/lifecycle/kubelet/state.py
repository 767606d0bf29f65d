"""The simulated kubelet's state, declared in one place (docs/lifecycle-model.md §4).

One run of the kubelet model (simulate.py) keeps:

- `KubeletConfig`: what the run is given and never changes (the Pod, the scenario, the node's back-off);
- `PodState`: the pod worker's state and the Pod's end, which every part reads and changes;
- `Containers`: each container's `ContainerState` (runtime.py), by name and in the Pod's lists;
- `Record`: what the run writes (the trace's events, the status timeline, notes) and the status book
  the timeline is computed from;
- `PodWorker`: the pod worker's queue of syncs and of work that waits for it.

The parts of the kubelet (startup.py, kubelet/prober.py, termination.py, restart_all.py, fastforward.py,
scenario_actions.py) are objects that are handed exactly these, and each other, when simulate.py
builds them: a reader sees in each part's constructor what it reads and changes.  The dataclasses
have slots, so no part can keep state of its own on the side.  `PodState.signature` and
`ContainerState.signature` (runtime.py) are what fast-forward compares, beside the fields they cover.
"""
from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..i18n import Text
from ..model import Container, Pod
from .restart_rules import should_restart
from .runtime import ContainerState
from ..scenario.document import Scenario
from .scheduler import DECIDE, Scheduler
from .status import EXITED, WAITING, StatusBook
from .trace import EventKind, StatusPoint, TraceEvent
from explainer.lifecycle.records import record


@record
class FastForward:
    """One jump over steady crash loops (fastforward.py): the events resume at ``event_index``; ``at`` is
    the time before the jump, ``shift`` its length, ``restarts`` the restarts (per container) that the
    skipped periods made.  The status points of the skipped periods are repeated up to the timeline's
    bound; past it ``points_left_out`` of them, from ``kept_until`` to ``at + shift``, are not kept."""

    event_index: int
    at: float
    shift: float
    restarts: dict[str, int]
    period: float = 0.0
    kept_until: float = 0.0
    points_left_out: int = 0


@record
class KubeletConfig:
    """What one run is given: it never changes while the run goes on."""

    pod: Pod
    scenario: Scenario
    restart_rules: bool                 # container restart rules are on (gate and version)
    until: float                        # the horizon
    default_wait: str                   # PodInitializing or ContainerCreating
    bo_initial: float                   # the node's crash-loop back-off: first delay and cap (§20)
    bo_max: float
    legacy_kill: bool                   # before 1.27: the pod worker's override after preStop (§33)

    def will_restart(self, c: ContainerState, exit_code: int) -> bool:
        """`ContainerShouldRestart` for ``c``'s exit (docs/lifecycle-model.md §17)."""
        return should_restart(c.spec, self.pod.restart_policy, exit_code)

    def should_start(self, c: ContainerState) -> bool:
        """`ShouldContainerBeRestarted` (pkg/kubelet/container/helpers.go), §7.1; from 1.35 it asks
        `ContainerShouldRestart` with the last exit code (restart rules, docs/lifecycle-model.md §17)."""
        if not c.ever_created or not c.has_status or c.force_restart:
            return True      # no status left (removed by RestartAllContainers): started like a new one
        return self.will_restart(c, c.st.last_exit or 0)


@dataclass(slots=True)
class PodState:
    """The pod worker's state and the Pod's end."""

    # the pod worker (startup.py, termination.py)
    sandbox: bool = False
    sandbox_ever: bool = False
    initialized: bool = False           # regular containers have been started in this sandbox
    sync_pending: bool = False
    busy: bool = False                  # inside a start loop or a kill
    sync_wanted: bool = False
    queue: list[ContainerState] = field(default_factory=list)     # the start loop's containers still to start
    after_free: list[tuple[Callable[..., None], tuple[Any, ...]]] = field(default_factory=list)
    restart_all: tuple[Any, ...] | None = None   # (container, exit code, rule) for the next sync (restart_all.py)
    # alive bookkeeping (`mark_alive`, `mark_dead`)
    alive_total: int = 0
    alive_apps: int = 0
    sidecar_heap: list[int] = field(default_factory=list)   # -index of sidecars started, for "the last one running"
    # the Pod's end
    pod_kill: str | None = None
    deleting: bool = False
    terminal: bool = False
    forced_phase: str | None = None
    status_reason: str | None = None
    end_time: float | None = None

    def mark_alive(self, c: ContainerState) -> None:
        c.alive = True
        self.alive_total += 1
        if c.spec.role == "app":
            self.alive_apps += 1
        elif c.spec.role == "sidecar":
            heapq.heappush(self.sidecar_heap, -c.spec.index)

    def mark_dead(self, c: ContainerState) -> None:
        c.alive = False
        self.alive_total -= 1
        if c.spec.role == "app":
            self.alive_apps -= 1

    def last_alive_sidecar(self, init: list[ContainerState]) -> ContainerState | None:
        """The running sidecar with the highest index (``init`` is the Pod's init list)."""
        heap = self.sidecar_heap
        while heap and not init[-heap[0]].alive:
            heapq.heappop(heap)
        return init[-heap[0]] if heap else None

    def stopping(self) -> bool:
        """The Pod is being deleted, killed or is over: nothing new starts or restarts."""
        return self.deleting or self.pod_kill is not None or self.terminal

    def signature(self) -> tuple[Any, ...] | None:
        """The Pod's part of fast-forward's signature (fastforward.py); None while the state cannot repeat:
        the Pod is stopping or over, or the pod worker is in the middle of something."""
        if (self.terminal or self.deleting or self.pod_kill is not None or self.busy or self.queue
                or self.after_free or self.restart_all is not None or self.end_time is not None):
            return None
        return (self.sandbox, self.sandbox_ever, self.initialized, self.sync_pending, self.sync_wanted,
                self.alive_total, self.alive_apps, self.forced_phase, self.status_reason)


# What `PodState.signature` does not compare, and why (tests/lifecycle/test_kubelet_state.py holds every other field to it).
SIGNATURE_LEAVES_OUT = {
    "busy": "no signature while the worker is busy", "queue": "none while containers wait to start",
    "after_free": "none while work waits for the worker", "restart_all": "none while a whole-Pod restart waits",
    "pod_kill": "none once the Pod is being killed", "deleting": "none once it is deleted",
    "terminal": "none once it is over", "end_time": "none once it has ended",
    "sidecar_heap": "an index of the sidecars started, popped lazily: the containers' alive flags say the same",
}


@dataclass(slots=True)
class Containers:
    """Every container's runtime state, by name and in the Pod's lists."""

    by_name: dict[str, ContainerState]
    init: list[ContainerState]
    apps: list[ContainerState]
    ephemeral: list[ContainerState] = field(default_factory=list)
    debug_specs: list[Container] = field(default_factory=list)   # the debug containers kubectl added

    def all(self) -> list[ContainerState]:
        return self.init + self.apps + self.ephemeral


class Record:
    """What the run writes: the trace's events and the status timeline (a point whenever kubectl's
    columns change), the notes, and the status book both are computed from."""

    __slots__ = ("s", "state", "cfg", "book", "events", "timeline", "timeline_modes", "notes", "snap_key",
                 "snap_point", "slow_probes_noted")

    def __init__(self, s: Scheduler, state: PodState, cfg: KubeletConfig, book: StatusBook, notes: list[Text]) -> None:
        self.s, self.state, self.cfg, self.book = s, state, cfg, book
        self.events: list[TraceEvent] = []
        self.timeline: list[StatusPoint] = []
        self.timeline_modes: list[bool] = []    # per timeline point: RESTARTS counted while initialising
        self.notes = notes
        self.snap_key: tuple[Any, ...] | None = None     # `snapshot`'s inputs, and the point it left last
        self.snap_point: StatusPoint | None = None
        self.slow_probes_noted: set[tuple[str, str]] = set()   # kubelet/prober.py says it once per probe

    def emit(self, c: ContainerState | None, kind: EventKind, *, exit_code: int | None = None,
             reason: str | None = None, message: Text | str = "", assumed: bool = False) -> None:
        """Record an event; a `Text` message is kept as ``text`` beside its English rendering."""
        text = message if isinstance(message, Text) else None
        self.events.append(TraceEvent(
            round(self.s.now, 3), c.spec.name if c else None, kind,
            c.st.restarts if c else None, exit_code, reason,
            str(message) if text is None else text.render(), assumed, text))
        self.snapshot()

    def snapshot(self) -> None:
        """Append a status point when the Pod's status differs from the last point.

        The status is a function of the book (its counters and the statuses it was told of by
        `StatusBook.changed`) and of the five flags below: while none of them changed since the last
        snapshot, and the last point is still the one that snapshot saw (fastforward.py appends points
        of its own), the answer is the last point's, which is not appended again.  So skip the work."""
        book, state = self.book, self.state
        key = (state.forced_phase, state.status_reason, state.initialized, state.deleting, state.terminal)
        timeline = self.timeline
        if not book.dirty and key == self.snap_key and timeline and timeline[-1] is self.snap_point:
            return
        book.dirty = False
        self.snap_key = key
        status, phase, ready, ready_count, restarts, initializing = book.point(*key)
        last = timeline[-1] if timeline else None
        if last is None or (last.status, last.phase, last.ready, last.ready_count, last.restarts) != (
                status, phase, ready, ready_count, restarts):
            last = StatusPoint(round(self.s.now, 3), status, phase, ready, ready_count, restarts, state.initialized)
            timeline.append(last)
            self.timeline_modes.append(initializing and not state.initialized)
        self.snap_point = last

    def set(self, c: ContainerState, state: str, *, reason: str | None = None, exit_code: int | None = None,
            will_restart: bool | None = None) -> None:
        """``c``'s status changes to ``state`` (WAITING, RUNNING or EXITED)."""
        st = c.st
        st.state = state
        if state == WAITING:
            st.waiting_reason = reason or self.cfg.default_wait
        elif state == EXITED:
            st.exit_reason = reason if reason == "OOMKilled" else None
            st.exit_code = exit_code
            st.last_exit = exit_code
            st.started = st.ready = False
            st.will_restart = self.cfg.will_restart(c, exit_code or 0) if will_restart is None else will_restart
        self.book.changed(st)


class PodWorker:
    """The pod worker's one sync at a time (pkg/kubelet/pod_workers.go): a sync asked for while it is busy
    (in a start loop or a kill) runs when it is free, as does work that waits for it (``after_free``)."""

    __slots__ = ("s", "state", "sync")

    def __init__(self, s: Scheduler, state: PodState) -> None:
        self.s, self.state = s, state
        self.sync: Callable[[], None] = unset   # startup.py's sync, set when simulate.py builds the parts

    def request_sync(self) -> None:
        state = self.state
        if state.busy:
            state.sync_wanted = True
        elif not state.sync_pending and not state.terminal:
            state.sync_pending = True
            self.s.at(self.s.now, DECIDE, self.sync)

    def free(self) -> None:
        state = self.state
        state.busy = False
        while state.after_free and not state.busy:
            action, args = state.after_free.pop(0)
            action(*args)
        if state.busy:
            return
        if state.sync_wanted:
            state.sync_wanted = False
            self.request_sync()


def unset() -> None:
    """What a part calls before simulate.py has handed it the part it calls (never, once built)."""
    raise RuntimeError("called before simulate.py built the kubelet's parts")
