"""The comparison's sentences: what a reader is told changed, in order of importance."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..explain import PodReport
from ..lifecycle.i18n import Text, gettext_noop as _
from ..lifecycle.kubelet.trace import StatusPoint
from .model import EPS, PodPair, StartChange, _names, _role, _secs
from .words import (difference_sentences, grace_sentences, moment_sentences, ready_lost_sentences, role_sentences,
                    status_sentences)


def _first_point(sim: Any, test: Callable[[StatusPoint], bool]) -> float | None:
    if sim is None:
        return None
    return next((p.t for p in sim.timeline if test(p)), None)


def _summary(pair: PodPair, lr: PodReport, rr: PodReport) -> list[Text]:
    out: list[Text] = []
    who = {"kind": pair.kind, "name": pair.name}
    if lr.admitted and not rr.admitted:
        first = rr.errors[0].message if rr.errors else ""
        out.append(Text(_("The API server would now reject {kind} {name}, so it never runs: {error}"),
                        {**who, "error": first}))
    elif rr.admitted and not lr.admitted:
        out.append(Text(_("The API server now accepts {kind} {name} (before, it would have rejected it)."), who))
    runs = _outcome(pair, lr, rr) + role_sentences(pair) + grace_sentences(pair) + _start_sentences(pair) + moment_sentences(pair)
    runs += _ready_sentences(lr, rr) + ready_lost_sentences(lr, rr)
    for name in sorted(set(_restarts(lr)) | set(_restarts(rr))):
        b, a = _restarts(lr).get(name, 0), _restarts(rr).get(name, 0)
        if a != b and lr.simulation is not None and rr.simulation is not None:
            runs.append(Text(_("Restarts of {container}: {after} instead of {before}."),
                             {"container": name, "after": a, "before": b}))
    runs += status_sentences(pair)
    if not runs and lr.simulation is not None and rr.simulation is not None:
        runs = difference_sentences(lr, rr)      # the runs differ in nothing named above: where their events part
    out += runs
    out += [s.text for s in pair.sharing]
    for f in pair.new:
        out.append(Text(_("New pitfall: {title}{where}."), {"title": f.title, "where": _where(f)}))
    for f in pair.fixed:
        out.append(Text(_("Fixed pitfall: {title}{where}."), {"title": f.title, "where": _where(f)}))
    return out


def _where(f: Any) -> str:
    return f" ({f.container})" if f.container else ""


def _restarts(r: PodReport) -> dict[str, int]:
    return dict(r.simulation.restart_counts) if r.simulation is not None else {}


def _outcome(pair: PodPair, lr: PodReport, rr: PodReport) -> list[Text]:
    b, a = pair.final_before, pair.final_after
    if b is None or a is None:
        return []
    who = {"kind": pair.kind}
    done_b = _first_point(lr.simulation, lambda p: p.phase == "Succeeded")
    done_a = _first_point(rr.simulation, lambda p: p.phase == "Succeeded")
    if a.phase == "Succeeded" and b.phase != "Succeeded":
        return [Text(_("The {kind} now completes: the Pod reaches Succeeded at {t} s (before, it ended as "
                       "{before}, phase {phase})."),
                     {**who, "t": _secs(done_a or 0.0), "before": b.status, "phase": b.phase})]
    if b.phase == "Succeeded" and a.phase != "Succeeded":
        return [Text(_("The {kind} no longer completes: the Pod ends as {after}, phase {phase} (before, it "
                       "reached Succeeded at {t} s)."),
                     {**who, "after": a.status, "phase": a.phase, "t": _secs(done_b or 0.0)})]
    if a.phase == "Succeeded" and done_a is not None and done_b is not None and abs(done_a - done_b) > EPS:
        msg = (_("The {kind} now completes {delta} s later (at {after} s instead of {before} s).") if done_a > done_b
               else _("The {kind} now completes {delta} s sooner (at {after} s instead of {before} s)."))
        return [Text(msg, {**who, "delta": _secs(abs(done_a - done_b)), "after": _secs(done_a),
                           "before": _secs(done_b)})]
    if (a.status, a.phase) != (b.status, b.phase):
        return [Text(_("The Pod now ends as {after} (phase {phase_after}) instead of {before} (phase "
                       "{phase_before})."),
                     {"after": a.status, "phase_after": a.phase, "before": b.status, "phase_before": b.phase})]
    return []


def _start_sentences(pair: PodPair) -> list[Text]:
    changed = pair.changed_starts
    shown = [s for s in changed if s.role != "init"] or changed
    out: list[Text | tuple[Any, ...]] = []      # a sentence, or the key of a group of shifts
    shifts: dict[tuple[Any, ...], list[StartChange]] = {}   # same shift, same cause: one sentence
    for s in shown:
        role = _role(s.role)
        if not s.in_before:
            out.append(Text(_("New {role} {container}, which starts at {after} s.") if s.after is not None
                            else _("New {role} {container}, which never starts."),
                            {"role": role, "container": s.container, "after": _secs(s.after or 0.0)}))
        elif not s.in_after:
            out.append(Text(_("{role} {container} is removed."), {"role": role, "container": s.container}))
        else:
            key = (s.before, s.after, s.cause.render() if s.cause is not None else None)
            if key not in shifts:
                shifts[key] = []
                out.append(key)
            shifts[key].append(s)
    return [item if isinstance(item, Text) else _shift_sentence(shifts[item]) for item in out]


def _shift_sentence(group: list[StartChange]) -> Text:
    s, many = group[0], len(group) > 1
    params: dict[str, Any] = {"container": s.container, "containers": _names(c.container for c in group),
                              "before": _secs(s.before or 0.0), "after": _secs(s.after or 0.0)}
    if s.after is None:
        msg = (_("{containers} no longer start (before, they started at {before} s)") if many
               else _("{container} no longer starts (before, it started at {before} s)"))
    elif s.before is None:
        msg = (_("{containers} now start, at {after} s (before, they never started)") if many
               else _("{container} now starts, at {after} s (before, it never started)"))
    else:
        params["delta"] = _secs(abs(s.delta or 0.0))
        if (s.delta or 0) > 0:
            msg = (_("{containers} now start {delta} s later (at {after} s instead of {before} s)") if many
                   else _("{container} now starts {delta} s later (at {after} s instead of {before} s)"))
        else:
            msg = (_("{containers} now start {delta} s sooner (at {after} s instead of {before} s)") if many
                   else _("{container} now starts {delta} s sooner (at {after} s instead of {before} s)"))
    sentence = Text(msg, params)
    if s.cause is not None:
        return Text(_("{sentence} because {cause}."), {"sentence": sentence, "cause": s.cause})
    return Text(_("{sentence}."), {"sentence": sentence})


def _ready_sentences(lr: PodReport, rr: PodReport) -> list[Text]:
    b = _first_point(lr.simulation, lambda p: p.ready)
    a = _first_point(rr.simulation, lambda p: p.ready)
    if lr.simulation is None or rr.simulation is None:
        return []
    if a is None and b is not None:
        return [Text(_("The Pod never becomes Ready any more (before, it was Ready at {before} s)."),
                     {"before": _secs(b)})]
    if b is None and a is not None:
        return [Text(_("The Pod now becomes Ready at {after} s (before, it never did)."), {"after": _secs(a)})]
    if a is not None and b is not None and abs(a - b) > EPS:
        msg = (_("The Pod now becomes Ready {delta} s later (at {after} s instead of {before} s).") if a > b
               else _("The Pod now becomes Ready {delta} s sooner (at {after} s instead of {before} s)."))
        return [Text(msg, {"delta": _secs(abs(a - b)), "after": _secs(a), "before": _secs(b)})]
    return []
