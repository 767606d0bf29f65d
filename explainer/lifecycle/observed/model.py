"""What a paste of kubectl's output holds, read: frozen values the readers make and the rest compares.

A time read from a paste is a `When`: an absolute instant (RFC 3339 and describe's dates), an age
before the paste was printed (describe's and `get events`' "10s", one clock per source), or an age
since the Pod was created (`get pod`'s AGE).  Where the true instant may lie later than the value
read (whole seconds, coarse ages like "15m"), ``slack`` says by how much.  docs/lifecycle-model.md §34.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..i18n import Text
from ..records import quick_init
from explainer.lifecycle.records import record

ABSOLUTE, AGO, SINCE = "absolute", "ago", "since"


@quick_init   # the readers make one per row (records.py)
@record
class When:
    kind: str                      # ABSOLUTE (Unix seconds) | AGO (seconds before the print) | SINCE (Pod's age)
    value: float
    clock: int = 0                 # the source whose print moment an AGO value counts back from
    slack: float = 1.0             # the true moment is up to this much later (AGO: earlier) than ``value`` says


@record
class Termination:
    """A ``terminated`` state: the current one, or ``lastState`` (only the last one is kept)."""

    container: str | None
    exit_code: int | None
    signal: int | None
    reason: str | None
    message: str | None
    started: When | None
    finished: When | None
    line: int | None = None


@record
class ContainerObs:
    name: str | None
    role: str                      # init | app | ephemeral (a sidecar is an init container; the spec says which)
    state: str | None = None       # running | waiting | terminated | None (not said)
    reason: str | None = None      # waiting.reason, or terminated.reason
    message: str | None = None
    started_at: When | None = None    # running.startedAt
    terminated: Termination | None = None
    last: Termination | None = None
    restart_count: int | None = None
    ready: bool | None = None
    started: bool | None = None
    image: str | None = None
    line: int | None = None


@record
class Condition:
    type: str
    status: str
    reason: str | None = None
    since: When | None = None      # lastTransitionTime


@record
class SpecInfo:
    """The part of the spec `printPod` reads: init containers in order with their restartPolicy, the
    number of app containers, readiness gates; and each container's name by role."""

    init: tuple[tuple[str, bool], ...]     # (name, restartPolicy Always)
    apps: tuple[str, ...]
    readiness_gates: int = 0
    restart_policy: str | None = None


@record
class Snapshot:
    """One reading of a Pod's status: a pasted object, or a `describe`."""

    source: int
    kind: str                      # pod | describe | fragment
    name: str | None
    phase: str | None = None
    reason: str | None = None
    message: str | None = None
    start_time: When | None = None
    created: When | None = None
    deleted: When | None = None    # deletionTimestamp: when the grace period ends
    deleting: bool = False         # a deletion timestamp is set (describe: "Status: Terminating")
    grace: int | None = None       # deletionGracePeriodSeconds
    conditions: tuple[Condition, ...] = ()
    init: tuple[ContainerObs, ...] = ()
    apps: tuple[ContainerObs, ...] = ()
    ephemeral: tuple[ContainerObs, ...] = ()
    spec: SpecInfo | None = None
    line: int | None = None
    owner: str | None = None       # "ReplicaSet/web-7d4b9c" (metadata.ownerReferences, describe's Controlled By)
    uid: str | None = None         # metadata.uid: a Pod recreated under the same name has another

    def containers(self) -> tuple[ContainerObs, ...]:
        return self.init + self.apps + self.ephemeral


@quick_init   # the readers make one per row (records.py)
@record
class EventObs:
    """One event (or one merged series: ``count`` occurrences from ``first`` to ``last``)."""

    source: int
    pod: str | None                # involvedObject.name; None when the paste does not say
    reason: str
    type: str | None               # Normal | Warning
    container: str | None          # from involvedObject.fieldPath, "spec.containers{app}"
    count: int
    first: When | None
    last: When | None
    message: str = ""
    line: int | None = None
    uid: str | None = None         # involvedObject.uid / regarding.uid, where the paste has it


@quick_init   # the readers make one per row (records.py)
@record
class PodRow:
    """A row of `kubectl get pod`: the columns as kubectl printed them."""

    source: int
    name: str
    ready: str
    status: str
    restarts: str
    age: When | None
    line: int | None = None


@quick_init   # the readers make one per row (records.py)
@record
class Unread:
    line: int
    text: str


@record
class Source:
    kind: str                      # pod | events | events-table | describe | pod-table | fragment
    lines: tuple[int, int]         # first and last line of the paste it was read from


@dataclass(eq=False)
class Observation:
    """Everything read from the pasted text(s), in the order found.

    ``events`` is a list like the others, but the events of a long `get events` table are made when it is
    first asked for (observed/read/blocks.py): reading such a table finds every row's event and checks it, the
    records themselves are built for whoever reads them (issue 23's `make bench` row)."""

    sources: list[Source] = field(default_factory=list)
    snapshots: list[Snapshot] = field(default_factory=list)
    rows: list[PodRow] = field(default_factory=list)
    terminations: list[Termination] = field(default_factory=list)   # bare lastState/state fragments
    unread: list[Unread] = field(default_factory=list)
    unread_more: int = 0           # unread lines beyond the ones kept (bounded)
    notes: list[Text] = field(default_factory=list)                  # what a part held that could not be read
    errors: list[Text] = field(default_factory=list)                 # why nothing could be read (a limit)
    _events: list[EventObs] = field(default_factory=list, repr=False)
    _later: list[Callable[[], list[EventObs]]] = field(default_factory=list, repr=False)

    @property
    def events(self) -> list[EventObs]:
        """Every event, in the order found (the deferred ones made now, in their place)."""
        if self._later:
            later, self._later = self._later, []
            for make in later:
                self._events.extend(make())
        return self._events

    def defer_events(self, make: Callable[[], list[EventObs]]) -> None:
        """Events that follow the ones read so far, made by ``make`` when ``events`` is first read."""
        self._later.append(make)

    def add_event(self, event: EventObs) -> None:
        """One more event (after the deferred ones, without making them)."""
        if self._later:
            self._later.append(lambda: [event])
        else:
            self._events.append(event)

    def add_events(self, events: list[EventObs]) -> None:
        if self._later:
            self._later.append(lambda: events)
        else:
            self._events.extend(events)

    def add_source(self, kind: str, first: int, last: int) -> int:
        self.sources.append(Source(kind, (first, last)))
        return len(self.sources) - 1

    @property
    def empty(self) -> bool:
        return not (self.snapshots or self._events or self._later or self.rows or self.terminations)

    def _key(self) -> tuple:
        return (self.sources, self.snapshots, self.events, self.rows, self.terminations, self.unread,
                self.unread_more, self.notes, self.errors)

    def __eq__(self, other: object) -> bool:
        return self._key() == other._key() if isinstance(other, Observation) else NotImplemented

    def __repr__(self) -> str:
        return (f"Observation(sources={self.sources!r}, snapshots={self.snapshots!r}, events={self.events!r}, "
                f"rows={self.rows!r}, terminations={self.terminations!r}, unread={self.unread!r}, "
                f"unread_more={self.unread_more!r}, notes={self.notes!r}, errors={self.errors!r})")
