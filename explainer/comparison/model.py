"""The result of comparing two explanations: per Pod pair, what changed (data plus `Text` ids)."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..explain import Explanation, PodReport
from ..lifecycle.i18n import Text, gettext_noop as _
from ..lifecycle.kubelet.trace import StatusPoint
from explainer.lifecycle.records import record

EPS = 1e-6


class _Moved:
    """A time before and after, and whatever else must match for the two to be the same (``_differs``)."""

    __slots__ = ()
    before: float | None
    after: float | None

    def _differs(self) -> bool:
        return False

    @property
    def delta(self) -> float | None:
        if self.before is None or self.after is None:
            return None
        return round(self.after - self.before, 6)

    @property
    def changed(self) -> bool:
        if (self.before is None) != (self.after is None) or self._differs():
            return True
        return self.delta is not None and abs(self.delta) > EPS

ROLE_WORDS = {"init": _("init container"), "sidecar": _("sidecar"), "app": _("container"),
              "ephemeral": _("ephemeral container")}
def _secs(t: float) -> str:
    return f"{round(t, 3):g}"


def _role(role: str) -> Text:
    return Text(ROLE_WORDS.get(role, ROLE_WORDS["app"]))


def _names(names: Iterable[str]) -> str:
    return ", ".join(names)


# ---- the result -------------------------------------------------------------------------------
@record
class StartChange(_Moved):
    """When one container first starts, before and after (None: never, or not in that manifest)."""

    container: str
    role: str
    before: float | None
    after: float | None
    in_before: bool = True
    in_after: bool = True
    cause: Text | None = None

    def _differs(self) -> bool:
        return self.in_before != self.in_after


@record
class SharingChange:
    topic: str                     # volume | namespace | port
    change: str                    # added | removed
    subject: str                   # the volume's name, the namespace ("pid"), the port ("8080/TCP")
    containers: tuple[str, ...]
    text: Text


@record
class MomentChange(_Moved):
    """When one container, present on both sides, first reaches a moment of its run, before and after
    (None: never).  ``kind``: ready (first Ready), stopping (the kubelet first begins to stop it: a preStop
    hook, the stop signal or SIGKILL), exited (its first exit) or ended (its last exit, when it does not
    run again and that is not its first).  ``with_start``: moved by exactly as much as the container's
    first start, so the start's sentence tells it."""

    container: str
    kind: str
    before: float | None
    after: float | None
    code_before: int | None = None
    code_after: int | None = None
    with_start: bool = False

    def _differs(self) -> bool:
        return self.code_before != self.code_after


@record
class RoleChange:
    """A container of both sides whose role differs (init, sidecar, app, ephemeral)."""

    container: str
    before: str
    after: str


@record
class DeletionChange:
    """The Pod's deletion on each side: when it is asked for (None: never), the grace period it uses, and
    when the last container has exited after it (None: not within the run)."""

    requested_before: float | None
    requested_after: float | None
    grace_before: int | None
    grace_after: int | None
    ended_before: float | None
    ended_after: float | None

    @property
    def length_before(self) -> float | None:
        return _length(self.requested_before, self.ended_before)

    @property
    def length_after(self) -> float | None:
        return _length(self.requested_after, self.ended_after)


def _length(start: float | None, end: float | None) -> float | None:
    return None if start is None or end is None else round(end - start, 6)


@dataclass
class PodPair:
    kind: str
    name: str
    left: PodReport | None
    right: PodReport | None
    new: list[Any] = field(default_factory=list)          # findings only in the right-hand manifest
    fixed: list[Any] = field(default_factory=list)        # findings only in the left-hand one
    unchanged: list[Any] = field(default_factory=list)    # (the right-hand copies)
    sharing: list[SharingChange] = field(default_factory=list)
    starts: list[StartChange] = field(default_factory=list)
    final_before: StatusPoint | None = None
    final_after: StatusPoint | None = None
    # what the two simulations' events differ in (moments.py)
    moments: list[MomentChange] = field(default_factory=list)
    roles: list[RoleChange] = field(default_factory=list)
    grace_before: int | None = None          # the Pods' terminationGracePeriodSeconds
    grace_after: int | None = None
    deletion: DeletionChange | None = None   # None: neither side is deleted
    status_before: tuple[str, ...] = ()      # kubectl's STATUS column, each change once
    status_after: tuple[str, ...] = ()
    view_end: float = 10.0         # one time window for both timelines: set by `render.compare.compare`
    summary: list[Text] = field(default_factory=list)

    @property
    def changed_starts(self) -> list[StartChange]:
        return [s for s in self.starts if s.changed]

    @property
    def changed_moments(self) -> list[MomentChange]:
        return [m for m in self.moments if m.changed]


@dataclass
class Comparison:
    left: Explanation
    right: Explanation
    pods: list[PodPair] = field(default_factory=list)
    summary: list[Text] = field(default_factory=list)

    @property
    def same(self) -> bool:
        return not any(p.summary for p in self.pods) and self.left.version == self.right.version
