"""Two explanations side by side: what changed between a manifest and a proposal (issue 5).

`compare(left, right)` pairs the Pods of both explanations (by kind and name, else by
position) and works out, per pair, the findings that are new, fixed or unchanged, what the
containers now share or no longer share, when each container starts, how the Pod ends, and a
plain summary in sentences.  Everything is data plus `Text` message ids, so the web layer
translates the sentences and the JSON API gets them in English.

`shared_axis_svgs` draws both timelines of a pair on one time axis: the same window for both
and the time origin at the same x, so a reader sees a shift at a glance.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..explain import Explanation, PodReport
from ..lifecycle.trace import StatusPoint
from .i18n import Text, gettext_noop as _
from .timeline_svg import svg_document
from .timeline import default_view_end, layout_timeline

EPS = 1e-6
Gettext = Callable[[str], str]

ROLE_WORDS = {"init": _("init container"), "sidecar": _("sidecar"), "app": _("container"),
              "ephemeral": _("ephemeral container")}
# Dependency.condition -> the event that fulfils it
_CONDITION_EVENT = {"exit0": "exit0", "started": "started", "postStart": "poststart_done",
                    "startupProbe": "startup_probe_ok", "created": "created"}


def _secs(t: float) -> str:
    return f"{round(t, 3):g}"


def _role(role: str) -> Text:
    return Text(ROLE_WORDS.get(role, ROLE_WORDS["app"]))


def _names(names: Iterable[str]) -> str:
    return ", ".join(names)


# ---- the result -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class StartChange:
    """When one container first starts, before and after (None: never, or not in that manifest)."""

    container: str
    role: str
    before: float | None
    after: float | None
    in_before: bool = True
    in_after: bool = True
    cause: Text | None = None

    @property
    def delta(self) -> float | None:
        if self.before is None or self.after is None:
            return None
        return round(self.after - self.before, 6)

    @property
    def changed(self) -> bool:
        if (self.before is None) != (self.after is None) or self.in_before != self.in_after:
            return True
        return self.delta is not None and abs(self.delta) > EPS


@dataclass(frozen=True, slots=True)
class SharingChange:
    topic: str                     # volume | namespace | port
    change: str                    # added | removed
    subject: str                   # the volume's name, the namespace ("pid"), the port ("8080/TCP")
    containers: tuple[str, ...]
    text: Text


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
    view_end: float = 10.0         # one time window for both timelines
    summary: list[Text] = field(default_factory=list)

    @property
    def changed_starts(self) -> list[StartChange]:
        return [s for s in self.starts if s.changed]


@dataclass
class Comparison:
    left: Explanation
    right: Explanation
    pods: list[PodPair] = field(default_factory=list)
    summary: list[Text] = field(default_factory=list)

    @property
    def same(self) -> bool:
        return not any(p.summary for p in self.pods) and self.left.version == self.right.version


# ---- pairing ----------------------------------------------------------------------------------
def _key(r: PodReport) -> tuple[str, str]:
    return (r.pod.source.kind, r.pod.name)


def pair_pods(left: list[PodReport], right: list[PodReport]) -> list[tuple[PodReport | None, PodReport | None]]:
    """Pods with the same kind and name first; what is left over pairs by position."""
    free_right = list(range(len(right)))
    pairs: dict[int, int] = {}
    for i, r in enumerate(left):
        j = next((j for j in free_right if _key(right[j]) == _key(r)), None)
        if j is not None:
            pairs[i] = j
            free_right.remove(j)
    free_left = [i for i in range(len(left)) if i not in pairs]
    for i, j in zip(free_left, list(free_right)):
        pairs[i] = j
        free_right.remove(j)
    out: list[tuple[PodReport | None, PodReport | None]] = []
    for i, r in enumerate(left):
        out.append((r, right[pairs[i]] if i in pairs else None))
    # Pods only on the right come after, in their own order; keep right-hand order for matched ones
    out += [(None, right[j]) for j in free_right]
    return out


# ---- compare ----------------------------------------------------------------------------------
def compare(left: Explanation, right: Explanation) -> Comparison:
    """What changes from ``left`` (what runs today) to ``right`` (the proposal)."""
    result = Comparison(left, right)
    if left.version != right.version:
        result.summary.append(Text(_("Kubernetes version: {after} instead of {before}."),
                                   {"after": right.version, "before": left.version}))
    pairs = pair_pods(left.pods, right.pods)
    for lr, rr in pairs:
        pair = _compare_pair(lr, rr)
        result.pods.append(pair)
        for sentence in pair.summary:
            result.summary.append(sentence if len(pairs) == 1 else
                                  Text(_("{kind} {name}: {text}"), {"kind": pair.kind, "name": pair.name,
                                                                    "text": sentence}))
    if not result.summary:
        result.summary.append(Text(_("No difference: both manifests behave the same way.")))
    return result


def _compare_pair(lr: PodReport | None, rr: PodReport | None) -> PodPair:
    some = rr if rr is not None else lr
    assert some is not None
    pair = PodPair(some.pod.source.kind, some.pod.name, lr, rr)
    if lr is None or rr is None:
        text = _("{kind} {name} is new.") if lr is None else _("{kind} {name} is no longer in the manifest.")
        pair.summary.append(Text(text, {"kind": pair.kind, "name": pair.name}))
        pair.new = list(rr.findings) if rr is not None else []
        pair.fixed = list(lr.findings) if lr is not None else []
        pair.view_end = default_view_end(some)[0]
        return pair
    if lr.pod.name != rr.pod.name or _key(lr)[0] != _key(rr)[0]:
        pair.summary.append(Text(_("{before} is now {after}."), {
            "before": f"{lr.pod.source.kind} {lr.pod.name}", "after": f"{rr.pod.source.kind} {rr.pod.name}"}))
    _findings(pair, lr, rr)
    pair.sharing = sharing_changes(lr.sharing, rr.sharing)
    pair.starts = _starts(lr, rr)
    pair.final_before = lr.simulation.timeline[-1] if lr.simulation and lr.simulation.timeline else None
    pair.final_after = rr.simulation.timeline[-1] if rr.simulation and rr.simulation.timeline else None
    pair.view_end = max(default_view_end(lr)[0], default_view_end(rr)[0])
    pair.summary += _summary(pair, lr, rr)
    return pair


def _fkey(f: Any) -> tuple[str, str | None]:
    return (f.id, f.container)


def _findings(pair: PodPair, lr: PodReport, rr: PodReport) -> None:
    before = {_fkey(f) for f in lr.findings}
    after = {_fkey(f) for f in rr.findings}
    pair.new = [f for f in rr.findings if _fkey(f) not in before]
    pair.fixed = [f for f in lr.findings if _fkey(f) not in after]
    pair.unchanged = [f for f in rr.findings if _fkey(f) in before]


# ---- sharing ----------------------------------------------------------------------------------
def _volume_users(sharing: dict[str, Any]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for v in sharing.get("volumes", []):
        users = out.setdefault(v["name"], [])
        for m in v["mounts"]:
            if m["container"] not in users:
                users.append(m["container"])
    return out


def _ns_state(sharing: dict[str, Any], kind: str) -> tuple[str, frozenset[tuple[str, ...]]]:
    """("node" | "pod" | "container", the groups of two or more containers)."""
    groups = sharing.get("namespaces", {}).get(kind, {}).get("groups", [])
    scopes = {g["scope"] for g in groups}
    scope = "node" if "node" in scopes else "pod" if "pod" in scopes else "container"
    return scope, frozenset(tuple(g["containers"]) for g in groups if len(g["containers"]) > 1)


_NS_NAMES = {"network": "network", "ipc": "IPC", "uts": "UTS", "pid": "PID"}
_SCOPE_WORDS = {"node": _("the node's own (shared with every process on the node)"),
                "pod": _("shared by all containers of the Pod"),
                "container": _("separate for each container")}


def sharing_changes(before: dict[str, Any], after: dict[str, Any]) -> list[SharingChange]:
    """Volumes, namespaces and port conflicts that are now shared, or no longer."""
    out: list[SharingChange] = []
    vb, va = _volume_users(before), _volume_users(after)
    for name in list(vb) + [n for n in va if n not in vb]:
        b, a = vb.get(name, []), va.get(name, [])
        shared_b, shared_a = len(b) > 1, len(a) > 1
        if shared_a and not shared_b:
            out.append(SharingChange("volume", "added", name, tuple(a), Text(
                _("Volume {volume} is now shared by {containers}."), {"volume": name, "containers": _names(a)})))
        elif shared_b and not shared_a:
            out.append(SharingChange("volume", "removed", name, tuple(b), Text(
                _("Volume {volume} is no longer shared (before, {containers} shared it)."),
                {"volume": name, "containers": _names(b)})))
        elif shared_a and shared_b:
            joined, gone = [c for c in a if c not in b], [c for c in b if c not in a]
            if joined:
                out.append(SharingChange("volume", "added", name, tuple(joined), Text(
                    _("Volume {volume} is now also shared with {containers}."),
                    {"volume": name, "containers": _names(joined)})))
            if gone:
                out.append(SharingChange("volume", "removed", name, tuple(gone), Text(
                    _("Volume {volume} is no longer shared with {containers}."),
                    {"volume": name, "containers": _names(gone)})))
    for kind, label in _NS_NAMES.items():
        (sb, gb), (sa, ga) = _ns_state(before, kind), _ns_state(after, kind)
        if sb != sa:
            names = tuple(c for g in after.get("namespaces", {}).get(kind, {}).get("groups", [])
                          for c in g["containers"])
            out.append(SharingChange("namespace", "added" if sa != "container" else "removed", kind, names, Text(
                _("The {namespace} namespace is now {after} (before: {before})."),
                {"namespace": label, "after": Text(_SCOPE_WORDS[sa]), "before": Text(_SCOPE_WORDS[sb])})))
        elif sa == "container":
            for g in sorted(ga - gb):
                out.append(SharingChange("namespace", "added", kind, g, Text(
                    _("{containers} now share one {namespace} namespace."),
                    {"containers": _names(g), "namespace": label})))
            for g in sorted(gb - ga):
                out.append(SharingChange("namespace", "removed", kind, g, Text(
                    _("{containers} no longer share one {namespace} namespace."),
                    {"containers": _names(g), "namespace": label})))
    cb = {(x["port"], x["protocol"], tuple(x["containers"])) for x in before.get("conflicts", [])}
    ca = {(x["port"], x["protocol"], tuple(x["containers"])) for x in after.get("conflicts", [])}
    for port, proto, names in sorted(ca - cb):
        out.append(SharingChange("port", "added", f"{port}/{proto}", names, Text(
            _("Port conflict: {containers} now use port {port} at the same time."),
            {"containers": _names(names), "port": f"{port}/{proto}"})))
    for port, proto, names in sorted(cb - ca):
        out.append(SharingChange("port", "removed", f"{port}/{proto}", names, Text(
            _("The port conflict on {port} between {containers} is gone."),
            {"containers": _names(names), "port": f"{port}/{proto}"})))
    return out


# ---- start times and their causes -------------------------------------------------------------
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


# ---- the summary ------------------------------------------------------------------------------
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
    out += _outcome(pair, lr, rr)
    out += _start_sentences(pair)
    out += _ready_sentences(lr, rr)
    for name in sorted(set(_restarts(lr)) | set(_restarts(rr))):
        b, a = _restarts(lr).get(name, 0), _restarts(rr).get(name, 0)
        if a != b and lr.simulation is not None and rr.simulation is not None:
            out.append(Text(_("Restarts of {container}: {after} instead of {before}."),
                            {"container": name, "after": a, "before": b}))
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


# ---- pictures on one time axis ----------------------------------------------------------------
_SVG_ID = re.compile(r'aria-labelledby="(tl[0-9a-f]+)-title')
_ROOT = re.compile(r"<svg\b([^>]*)>")
_SIZE = re.compile(r'\s(width|height|viewBox)="[^"]*"')


def shared_axis_svgs(left: PodReport | None, right: PodReport | None, view_end: float, *,
                     gettext: Gettext = _, titles: tuple[str | None, str | None] = (None, None),
                     ) -> tuple[str, str]:
    """Both timelines for one page: the same window (``view_end``, passed to `render_timeline_svg`),
    t = 0 at the same x and the same width.  A side without a simulation gives ""."""
    reports = (left, right)
    drawn = [r if r is not None and r.simulation is not None else None for r in reports]
    first = [layout_timeline(r, gettext=gettext, view_end=view_end) for r in drawn if r is not None]
    pps = max((lay.px_per_second for lay in first), default=None)   # one scale: the finer of the two
    layouts = [layout_timeline(r, gettext=gettext, view_end=view_end, px_per_second=pps) if r is not None
               else None for r in drawn]
    plot_x = max((lay.plot_x for lay in layouts if lay is not None), default=0.0)
    width = max((plot_x - lay.plot_x + lay.width for lay in layouts if lay is not None), default=0.0)
    out = []
    for side, (r, lay, title) in enumerate(zip(reports, layouts, titles)):
        if r is None or lay is None:
            out.append("")
            continue
        svg = svg_document(r, lay, gettext=gettext, title=title)   # the layout made above, not a new one
        m = _SVG_ID.search(svg)
        if m and side == 1:   # both sides of one Pod would use the same ids in one page
            svg = svg.replace(f"{m.group(1)}-", f"{m.group(1)}r-")
        root = _ROOT.search(svg)
        if root is None:
            out.append(svg)
            continue
        dx = round(plot_x - lay.plot_x, 1)
        w, h = f"{width:g}", f"{lay.height:g}"
        attrs = _SIZE.sub("", root.group(1))
        body = svg[root.end():svg.rindex("</svg>")]
        out.append(f'<svg{attrs} width="{w}" height="{h}" viewBox="0 0 {w} {h}" data-view-end="{view_end:g}" '
                   f'data-px-per-second="{lay.px_per_second:g}" data-time-origin="{plot_x:g}">'
                   f'<rect class="tl-bg" width="{w}" height="{h}"/><g transform="translate({dx:g} 0)">'
                   f"{body}</g></svg>\n")
    return out[0], out[1]


# ---- JSON -------------------------------------------------------------------------------------
def _status(p: StatusPoint | None) -> dict[str, Any] | None:
    if p is None:
        return None
    return {"t": p.t, "status": p.status, "phase": p.phase, "ready": p.ready, "readyContainers": p.ready_count,
            "restarts": p.restarts}


def _finding_ref(f: Any) -> dict[str, Any]:
    return f.to_dict() if hasattr(f, "to_dict") else dict(f)


def comparison_to_dict(c: Comparison, gettext: Gettext = _) -> dict[str, Any]:
    """The comparison as JSON-ready data (sentences through ``gettext``; English by default)."""
    return {
        "kubernetesVersion": {"before": c.left.version, "after": c.right.version},
        "summary": [t.render(gettext) for t in c.summary],
        "pods": [{
            "kind": p.kind, "name": p.name,
            "before": p.left.pod.name if p.left is not None else None,
            "after": p.right.pod.name if p.right is not None else None,
            "viewEnd": p.view_end,
            "summary": [t.render(gettext) for t in p.summary],
            "findings": {"new": [_finding_ref(f) for f in p.new], "fixed": [_finding_ref(f) for f in p.fixed],
                         "unchanged": [_finding_ref(f) for f in p.unchanged]},
            "sharing": [{"topic": s.topic, "change": s.change, "subject": s.subject,
                         "containers": list(s.containers), "text": s.text.render(gettext)} for s in p.sharing],
            "starts": [{"container": s.container, "role": s.role, "before": s.before, "after": s.after,
                        "delta": s.delta, "cause": s.cause.render(gettext) if s.cause else None}
                       for s in p.starts],
            "final": {"before": _status(p.final_before), "after": _status(p.final_after)},
        } for p in c.pods],
    }
