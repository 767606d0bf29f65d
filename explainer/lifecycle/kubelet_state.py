"""The simulated kubelet's state, declared in one place (docs/lifecycle-model.md §4).

`simulate.py` `_Kubelet` is one object built from five parts, each a mixin with its own concern:
`startup.py` (the pod worker's sync loop: sandbox, init containers, starts, hooks), `probing.py`
(probe results, probes that cannot pass, the kill a failed probe orders),
`termination.py` (kills: preStop, SIGTERM, SIGKILL, the Pod's deletion and end, and the alive
bookkeeping), `restart_all.py` (the RestartAllContainers action) and `fastforward.py` (jumps over
steady crash loops).  They share the state below, which `_Kubelet.__init__` (and `_ff_init`) set,
and call one another through the methods declared at the end, so that a reader and a type checker
can follow every attribute and every call across the parts.  The declarations have no effect at
run time: the real methods come first in the method resolution order.  Each part reads what it
needs of the state and declares what it assigns (its ``CHANGES``; tests/lifecycle/test_kubelet_parts.py
holds it to that).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .i18n import Text
from .model import Container, Pod, RestartRule
from .runtime import CState
from .scenario import Scenario
from .scheduler import Scheduler
from .status import StatusBook
from .trace import EventKind, StatusPoint, TraceEvent


@dataclass(frozen=True, slots=True)
class FastForward:
    """One jump over steady crash loops (fastforward.py): the events resume at ``event_index``; ``at`` is
    the time before the jump, ``shift`` its length, ``restarts`` the restarts (per container) that the
    skipped periods made."""

    event_index: int
    at: float
    shift: float
    restarts: dict[str, int]


class KubeletState:
    """What every part of the simulated kubelet reads and changes (set in `_Kubelet.__init__`)."""

    # the input
    pod: Pod
    scenario: Scenario
    restart_rules: bool                 # container restart rules are on (gate and version)
    until: float                        # the horizon
    default_wait: str                   # PodInitializing or ContainerCreating
    bo_initial: float                   # the node's crash-loop back-off: first delay and cap
    bo_max: float
    legacy_kill: bool                   # before 1.27: the pod worker's override after preStop (§33)
    # the clock and the record
    s: Scheduler
    events: list[TraceEvent]
    timeline: list[StatusPoint]
    notes: list[Text]
    book: StatusBook
    # the containers
    cs: dict[str, CState]
    init: list[CState]
    apps: list[CState]
    ephemeral: list[CState]
    debug_specs: list[Container]
    # the pod worker (startup.py, termination.py)
    sandbox: bool
    sandbox_ever: bool
    initialized: bool                   # regular containers have been started in this sandbox
    sync_pending: bool
    busy: bool                          # inside a start loop or a kill
    sync_wanted: bool
    queue: list[CState]
    after_free: list[Any]
    restart_all: tuple[Any, ...] | None   # (container, exit code, rule) for the next sync (restart_all.py)
    # alive bookkeeping (termination.py `_mark_alive`/`_mark_dead`)
    alive_total: int
    alive_apps: int
    sidecar_heap: list[int]             # -index of sidecars started, for "the last one running"
    # the Pod's end
    pod_kill: str | None
    deleting: bool
    terminal: bool
    forced_phase: str | None
    status_reason: str | None
    end_time: float | None
    # fast-forward (fastforward.py `_ff_init`)
    ff_enabled: bool
    ff_pilot: CState | None
    ff_seen: dict[tuple[Any, ...], tuple[Any, ...]]
    fast_forwards: list[FastForward]
    timeline_modes: list[bool]

    # ---- what the parts call across their boundaries (defined where named) -----------------
    # simulate.py `_Kubelet`
    def emit(self, c: CState | None, kind: EventKind, *, exit_code: int | None = None, reason: str | None = None,
             message: Text | str = "", assumed: bool = False) -> None:
        raise NotImplementedError

    def _snapshot(self) -> None:
        raise NotImplementedError

    def _set(self, c: CState, state: str, *, reason: str | None = None, exit_code: int | None = None,
             will_restart: bool | None = None) -> None:
        raise NotImplementedError

    def request_sync(self) -> None:
        raise NotImplementedError

    def _free(self) -> None:
        raise NotImplementedError

    def will_restart(self, c: CState, exit_code: int) -> bool:
        raise NotImplementedError

    def _exit(self, c: CState, gen: int, code: int, how: str | Text, assumed: bool | None = None) -> None:
        raise NotImplementedError

    # the scenario's one-off actions (fastforward.py never jumps over them)
    def _delete(self) -> None:
        raise NotImplementedError

    def _deadline(self) -> None:
        raise NotImplementedError

    def _sandbox_lost(self) -> None:
        raise NotImplementedError

    def _update_image(self, c: CState, image: str) -> None:
        raise NotImplementedError

    def _debug(self, i: int, req: Any) -> None:
        raise NotImplementedError

    # startup.py
    def _start_queue(self) -> None:
        raise NotImplementedError

    def _should_restart(self, c: CState) -> bool:
        raise NotImplementedError

    # termination.py
    def _kill_pod(self, reason: str, grace: float, why: Text, override: float | None = None) -> None:
        raise NotImplementedError

    def _worker_kill(self, reason: str, grace: float, why: Text) -> None:
        raise NotImplementedError

    def _begin_kill(self, c: CState, grace: float, reason: str, ordered: bool, override: float | None = None) -> None:
        raise NotImplementedError

    def _mark_alive(self, c: CState) -> None:
        raise NotImplementedError

    def _mark_dead(self, c: CState) -> None:
        raise NotImplementedError

    def _pod_kill_progress(self) -> None:
        raise NotImplementedError

    def _finish(self) -> None:
        raise NotImplementedError

    # restart_all.py
    def restart_all_rule(self, c: CState, code: int) -> RestartRule | None:
        raise NotImplementedError

    def _restart_all_containers(self) -> None:
        raise NotImplementedError

    # fastforward.py
    def _ff_init(self, enabled: bool) -> None:
        raise NotImplementedError

    def _ff_started(self, c: CState) -> None:
        raise NotImplementedError
