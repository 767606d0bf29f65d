"""One Pod's observation: the parts of a paste about it, merged, on the axis of align.py.

Several snapshots (pastes taken at different moments, `get pod -w`) are merged: the latest says the
current state; every termination any of them shows is kept (each snapshot keeps only its last one).
Events that several sources show are counted once.  docs/lifecycle-model.md §35.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..i18n import Text
from ..numbers import whole_number
from .align import Clock, latest, make_clock
from .kubectl import Columns, print_pod
from .model import ABSOLUTE, ContainerObs, EventObs, Observation, PodRow, Snapshot, SpecInfo, Termination, When
from explainer.lifecycle.records import record


@record
class Ended:
    """A termination on the axis: ``start``/``end`` in seconds from the Pod's start (None: unknown)."""

    container: str | None
    exit_code: int | None
    signal: int | None
    reason: str | None
    start: float | None
    end: float | None


@record
class Seen:
    """An event on the axis (a merged series: ``count`` times from ``first`` to ``last``)."""

    container: str | None
    reason: str
    type: str | None
    count: int
    first: float | None
    last: float | None
    message: str


@dataclass
class ContainerView:
    name: str
    status: ContainerObs | None            # in the latest snapshot that lists it
    ended: list[Ended] = field(default_factory=list)
    events: list[Seen] = field(default_factory=list)
    running_since: float | None = None
    table_restarts: int | None = None      # RESTARTS of the latest `get pod` row, for the Pod's only container


@dataclass
class PodView:
    name: str | None
    sources: list[int]
    clock: Clock
    snapshot: Snapshot | None              # the latest
    rows: list[PodRow]
    containers: dict[str, ContainerView]
    events: list[Seen]                     # every event, the containers' included, in time order
    ended: list[Ended]
    columns: Columns | None
    end: float | None                      # the latest instant the paste shows
    seen: float | None                     # when the latest snapshot was printed (at the latest: its last stamp)
    ready_at: float | None                 # the Ready condition's lastTransitionTime, when True
    notes: list[Text] = field(default_factory=list)


def observed_names(obs: Observation) -> list[str]:
    seen: dict[str, None] = {}
    for n in [s.name for s in obs.snapshots] + [e.pod for e in obs.events] + [r.name for r in obs.rows]:
        if n:
            seen.setdefault(n, None)
    return list(seen)


def choose(obs: Observation, pod_name: str, only_pod: bool) -> tuple[str | None, list[str]]:
    """Which observed Pod is ``pod_name`` (a workload's Pods carry its name and a suffix), and the
    other Pods of the same workload the paste shows."""
    names = observed_names(obs)
    described = {s.name for s in obs.snapshots if s.name}
    if pod_name in names:
        return pod_name, [n for n in names if n != pod_name and n.startswith(pod_name + "-")]
    family = [n for n in names if n.startswith(pod_name + "-")]
    if not family and only_pod:
        family = names
    if not family:
        return None, []
    chosen = next((n for n in family if n in described), family[0])
    return chosen, [n for n in family if n != chosen]


def _key(s: Snapshot) -> tuple[int, float]:
    stamps = [w.value for c in s.containers() for w in (c.started_at, c.last.finished if c.last else None,
                                                         c.terminated.finished if c.terminated else None)
              if w is not None and w.kind == ABSOLUTE]
    stamps += [c.since.value for c in s.conditions if c.since is not None and c.since.kind == ABSOLUTE]
    return (0 if s.kind == "fragment" else 1, max(stamps) if stamps else float("-inf"))


def build(obs: Observation, name: str | None, spec: SpecInfo, roles: dict[str, str]) -> PodView:
    """The view of the observed Pod ``name`` (None: the paste names no Pod), its containers named as in
    ``spec`` (the manifest's, where the paste has none), ``roles`` mapping names to init/sidecar/app/ephemeral."""
    names_by_source: dict[int, set[str]] = {}
    for source, n in ([(s.source, s.name) for s in obs.snapshots] + [(e.source, e.pod) for e in obs.events]
                      + [(r.source, r.name) for r in obs.rows]):
        if n:
            names_by_source.setdefault(source, set()).add(n)

    def mine(item_name: str | None, source: int) -> bool:
        if item_name is not None:
            return item_name == name
        return names_by_source.get(source, set()) <= ({name} if name else set())

    snapshots = [s for s in obs.snapshots if mine(s.name, s.source)]
    uids = {s.uid for s in snapshots if s.uid}
    # filtered by involvedObject.uid too, where both say it: a Pod recreated under its name (a StatefulSet's)
    events = [e for e in obs.events if mine(e.pod, e.source) and not (uids and e.uid and e.uid not in uids)]
    rows = [r for r in obs.rows if mine(r.name, r.source)]
    single = next(iter(roles)) if len(roles) == 1 else None
    terminations = list(obs.terminations) if name is None or len(observed_names(obs)) <= 1 else []
    clock = make_clock(snapshots, events, terminations)
    ordered = sorted(snapshots, key=_key)
    current = ordered[-1] if ordered else None

    containers = {n: ContainerView(n, None) for n in roles}
    for s in ordered:              # later snapshots overwrite earlier ones
        for c in s.containers():
            cname = container_name(c.name, containers, single, len(s.containers()))
            if cname is None:
                continue
            view = containers.setdefault(cname, ContainerView(cname, None))
            view.status = c
            view.running_since = clock.t(c.started_at) if c.state == "running" else None
    ended = _ended(ordered, terminations, clock, single)
    for e in ended:
        if e.container in containers:
            containers[e.container].ended.append(e)
    seen_events = _seen(events, clock, single)
    for s_ev in seen_events:
        if s_ev.container in containers:
            containers[s_ev.container].events.append(s_ev)

    if single is not None and rows:
        latest_row = max(rows, key=lambda r: (clock.t(r.age) if r.age else -1.0, r.line or 0))
        count = whole_number(latest_row.restarts.split()[0], 9)
        if count is not None:
            containers[single].table_restarts = count
    for cv in containers.values():     # a run whose startedAt the paste left out: its Started event
        st = cv.status
        if st is not None and st.state == "running" and cv.running_since is None and not st.restart_count:
            cv.running_since = min((e.first for e in cv.events if e.reason == "Started" and e.first is not None),
                                   default=None)

    printed = _printed(current, clock) if current is not None else None
    anchor = clock.printed(current.source) if current is not None else None
    seen = anchor if anchor is not None else (clock.t(When(ABSOLUTE, printed)) if printed is not None else None)
    columns = None
    last_row = max(rows, key=lambda r: (clock.t(r.age) if r.age else -1.0, r.line or 0)) if rows else None
    row_t = clock.t(last_row.age) if last_row is not None else None
    if current is not None and current.kind != "fragment" and (row_t is None or seen is None or seen >= row_t):
        # "(10s ago)" only where the moment kubectl printed is known: a describe's events count back from it
        now = clock.start + anchor if anchor is not None and clock.start is not None else None
        columns = print_pod(current, current.spec or spec, now)
    elif last_row is not None:
        columns = Columns(last_row.ready, last_row.status, last_row.restarts)
    row_times = [t for t in (clock.t(r.age) for r in rows) if t is not None]
    end = latest(clock, snapshots, events, terminations, row_times)
    ready_at = None
    if current is not None:
        cond = next((c for c in current.conditions if c.type == "Ready" and c.status == "True"), None)
        ready_at = clock.t(cond.since) if cond is not None else None
    sources = sorted({s.source for s in snapshots} | {e.source for e in events} | {r.source for r in rows})
    return PodView(name, sources, clock, current, rows, containers, seen_events, ended, columns, end, seen, ready_at)


def container_name(name: str | None, known: dict, single: str | None, listed: int) -> str | None:
    """The manifest's name for an observed container: its own, or the Pod's only container when the paste
    leaves the name out (a fragment) or lists one container under another name (describe's placeholders)."""
    if name in known:
        return name
    if single is not None and (name is None or listed == 1):
        return single
    return name


def _printed(snap: Snapshot, clock: Clock) -> float | None:
    """When the snapshot was printed, as Unix seconds: its own relative clock says so when anchored
    (describe's events), else its latest timestamp stands for it (the earliest it can have been)."""
    anchor = clock.printed(snap.source)
    if anchor is not None and clock.start is not None:
        return clock.start + anchor
    stamps = [w.value for c in snap.containers() for w in (c.started_at, c.last.finished if c.last else None)
              if w is not None and w.kind == ABSOLUTE]
    stamps += [c.since.value for c in snap.conditions if c.since is not None and c.since.kind == ABSOLUTE]
    return max(stamps) if stamps else None


def _ended(snapshots: list[Snapshot], loose: list[Termination], clock: Clock, single: str | None) -> list[Ended]:
    found: dict[tuple, Ended] = {}
    for s in snapshots:
        for c in s.containers():
            for t in (c.terminated, c.last):
                if t is not None:
                    e = _end(t, container_name(c.name, {single: 0} if single else {}, single,
                                               len(s.containers())), clock)
                    found.setdefault((e.container, e.end, e.exit_code, e.reason), e)
    for t in loose:
        e = _end(t, t.container or single, clock)
        found.setdefault((e.container, e.end, e.exit_code, e.reason), e)
    return sorted(found.values(), key=lambda e: (e.end is None, e.end or 0.0))


def _end(t: Termination, container: str | None, clock: Clock) -> Ended:
    return Ended(container, t.exit_code, t.signal, t.reason, clock.t(t.started), clock.t(t.finished))


def _seen(events: list[EventObs], clock: Clock, single: str | None) -> list[Seen]:
    found: dict[tuple, Seen] = {}
    for e in events:
        s = Seen(e.container or single, e.reason, e.type, e.count, clock.t(e.first), clock.t(e.last), e.message)
        # the same event in two pastes: same reason, container and count, times within their slack
        key = (s.container, s.reason, s.count, None if s.first is None else round(s.first),
               None if s.last is None else round(s.last))
        found.setdefault(key, s)
    return sorted(found.values(), key=lambda s: (s.first is None, s.first if s.first is not None else 0.0,
                                                 s.last or 0.0))

