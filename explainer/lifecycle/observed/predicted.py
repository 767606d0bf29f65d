"""What the prediction says about each container, indexed for the comparison: when it started, exited,
was killed, became Ready, and how many restarts it had by a given moment.

Read from the simulation's events before the crash-loop summary folds them (explain.py builds the
observation report first); a fast-forwarded stretch (§7.6) has no events, but every event after it
carries the restart count the jump reached, so `restarts_at` stays right (docs/lifecycle-model.md).
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from ..i18n import Phrase
from ..kubelet.simulate import Simulation
from ..kubelet.trace import EventKind


@dataclass
class Predicted:
    name: str
    starts: list[float] = field(default_factory=list)
    exits: list[tuple[float, int | None, str | None, bool]] = field(default_factory=list)  # (t, code, reason, assumed)
    probe_kills: list[tuple[float, str]] = field(default_factory=list)          # (t, liveness | startup)
    ready: list[float] = field(default_factory=list)
    not_ready: list[float] = field(default_factory=list)
    pull_failed: float | None = None
    _counts: list[tuple[float, int]] = field(default_factory=list)             # (t, restart count then)
    assumed_run: bool = False        # its run time is a guess (the scenario does not say)
    assumed_why: Phrase | None = None    # why the guess (the behaviour's own words)

    def restarts_at(self, t: float) -> int:
        """The container's restart count at ``t``: that of its last event at or before ``t``."""
        i = bisect_right(self._counts, (t, float("inf")))
        return self._counts[i - 1][1] if i else 0

    def first_start(self) -> float | None:
        return self.starts[0] if self.starts else None

    def first_ready(self) -> float | None:
        return self.ready[0] if self.ready else None

    def exits_before(self, t: float) -> list[tuple[float, int | None, str | None, bool]]:
        return [e for e in self.exits if e[0] <= t]

    def running_at(self, t: float) -> bool:
        started = [s for s in self.starts if s <= t]
        ended = [e[0] for e in self.exits if e[0] <= t]
        return bool(started) and (not ended or started[-1] > ended[-1] or
                                  (started[-1] == ended[-1] and len(started) > len(ended)))


def index(sim: Simulation) -> dict[str, Predicted]:
    out: dict[str, Predicted] = {}
    for e in sim.events:
        if e.container is None:
            continue
        p = out.setdefault(e.container, Predicted(e.container))
        if e.restart_count is not None:
            p._counts.append((e.t, e.restart_count))
        kind = e.type
        if kind == EventKind.STARTED:
            p.starts.append(e.t)
            p.assumed_run = p.assumed_run or e.assumed
        elif kind == EventKind.EXITED:
            p.exits.append((e.t, e.exit_code, e.reason, e.assumed))
        elif kind in (EventKind.LIVENESS_FAILED, EventKind.STARTUP_PROBE_FAILED):
            p.probe_kills.append((e.t, "liveness" if kind == EventKind.LIVENESS_FAILED else "startup"))
        elif kind == EventKind.READY:
            p.ready.append(e.t)
        elif kind == EventKind.NOT_READY:
            p.not_ready.append(e.t)
        elif kind == EventKind.IMAGE_PULL_FAILED and p.pull_failed is None:
            p.pull_failed = e.t
    for name, b in sim.behaviours.items():
        if name in out and "runSeconds" in b.assumed:
            out[name].assumed_why = b.assumed["runSeconds"]
    for name, count in sim.restart_counts.items():
        p = out.setdefault(name, Predicted(name))
        if not p._counts or p._counts[-1][1] != count:
            p._counts.append((sim.end_time, count))
    return out


def status_at(sim: Simulation, t: float) -> str | None:
    """kubectl's STATUS in the prediction at ``t``."""
    i = bisect_right(sim.timeline, t, key=lambda p: p.t)
    return sim.timeline[i - 1].status if i else None
