"""When each container first starts, before and after, and why it moved: the root of the wait chain."""
from __future__ import annotations

from typing import Any

from ..explain import PodReport
from ..lifecycle.i18n import Text, gettext_noop as _
from .model import EPS, StartChange, _names, _role, _secs

# Dependency.condition -> the event that fulfils it
_CONDITION_EVENT = {"exit0": "exit0", "started": "started", "postStart": "poststart_done",
                    "startupProbe": "startup_probe_ok", "created": "created"}


def _first(report: PodReport, name: str, what: str) -> float | None:
    """When ``name`` first reaches ``what`` (an event type, or "exit0")."""
    sim = report.simulation
    if sim is None:
        return None
    for e in sim.events:
        if e.container != name:
            continue
        if what == "exit0" and e.type == "exited" and e.exit_code == 0:
            return e.t
        if e.type == what:
            return e.t
    return None


def _containers(report: PodReport) -> dict[str, str]:
    """name -> role, in lane order (init and sidecars, app containers, ephemeral)."""
    out = {c.name: c.role for c in report.pod.all_containers}
    if report.simulation is not None:
        out.update({c.name: c.role for c in report.simulation.debug_containers if c.name not in out})
    return out


def _starts(lr: PodReport, rr: PodReport) -> list[StartChange]:
    cb, ca = _containers(lr), _containers(rr)
    out = []
    for name in list(ca) + [n for n in cb if n not in ca]:
        before = _first(lr, name, "started") if name in cb else None
        after = _first(rr, name, "started") if name in ca else None
        change = StartChange(name, ca.get(name) or cb[name], before, after, name in cb, name in ca)
        if change.changed and name in cb and name in ca:
            change = StartChange(change.container, change.role, before, after, True, True,
                                 _cause(lr, rr, name, change.delta, 0))
        out.append(change)
    return out


_TAKES = {  # condition -> (longer, shorter): "{role} {name} ..." with before/after durations
    "exit0": (_("{role} {name} takes longer ({after} s instead of {before} s)"),
              _("{role} {name} finishes sooner ({after} s instead of {before} s)")),
    "startupProbe": (_("the startup probe of {role} {name} passes later ({after} s after its start "
                       "instead of {before} s)"),
                     _("the startup probe of {role} {name} passes sooner ({after} s after its start "
                       "instead of {before} s)")),
    "postStart": (_("the postStart hook of {role} {name} takes longer ({after} s instead of {before} s)"),
                  _("the postStart hook of {role} {name} is quicker ({after} s instead of {before} s)")),
}
_NEVER = {"exit0": _("{role} {name} never completes"), "started": _("{role} {name} never starts"),
          "startupProbe": _("the startup probe of {role} {name} never passes"),
          "postStart": _("the postStart hook of {role} {name} never finishes"),
          "created": _("{role} {name} is never created")}


def _cause(lr: PodReport, rr: PodReport, name: str, delta: float | None, depth: int) -> Text | None:
    """Why ``name`` starts ``delta`` seconds later (or earlier, or never): the root of the chain."""
    if rr.simulation is None or lr.simulation is None or depth > 20:
        return None
    roles = _containers(rr)
    deps_after = [d for d in rr.simulation.dependencies if d.container == name]
    waited_before = {d.waits_for for d in lr.simulation.dependencies if d.container == name}
    best: tuple[float, Any, float | None, float | None] | None = None
    for dep in deps_after:
        event = _CONDITION_EVENT.get(dep.condition, "started")
        tb, ta = _first(lr, dep.waits_for, event), _first(rr, dep.waits_for, event)
        if ta is None and tb is not None and (delta is None or delta > 0):
            score = float("inf")
        elif ta is not None and tb is not None:
            score = (ta - tb) * (1 if delta is None or delta > 0 else -1)
        else:
            continue
        if score > EPS and (best is None or score > best[0]):
            best = (score, dep, tb, ta)
    if best is None:
        added = [d.waits_for for d in deps_after if d.waits_for not in waited_before]
        if added and (delta is None or delta > 0):
            return Text(_("it now waits for {containers}"), {"containers": _names(added)})
        gone = sorted(waited_before - {d.waits_for for d in deps_after})
        if gone and delta is not None and delta < 0:
            return Text(_("it no longer waits for {containers}"), {"containers": _names(gone)})
        return None
    _score, dep, tb, ta = best
    w = dep.waits_for
    role = _role(roles.get(w, "app"))
    if ta is None:
        return Text(_NEVER.get(dep.condition, _NEVER["started"]), {"role": role, "name": w})
    sb, sa = _first(lr, w, "started"), _first(rr, w, "started")
    if sb is not None and sa is not None and abs(sa - sb) > EPS and dep.condition != "created":
        deeper = _cause(lr, rr, w, round(sa - sb, 6), depth + 1)
        if deeper is not None:
            return deeper
        msg = _("{role} {name} starts {delta} s later") if sa > sb else _("{role} {name} starts {delta} s sooner")
        return Text(msg, {"role": role, "name": w, "delta": _secs(abs(sa - sb))})
    if dep.condition in _TAKES and sb is not None and sa is not None:
        longer, shorter = _TAKES[dep.condition]
        return Text(longer if ta - sa > tb - sb else shorter,
                    {"role": role, "name": w, "after": _secs(ta - sa), "before": _secs(tb - sb)})
    return None
