"""What the cluster shows, as pieces on the prediction's time axis: the observed lanes' bars and marks, the
time the prediction leaves out, kubectl's printed columns and the divergences (issue 23; docs/lifecycle-model.md
§34-§36).

The core (`lifecycle/observed/`) reads kubectl's output, aligns it with the prediction and gives each container's
observed lane (`lanes.py`: runs, waits and image pulls, the runs a status cannot show marked inferred).  This
module turns an `ObservedReport` into time-only pieces, with no pixel and no translated word: the chart places
them (`render/timeline/observed.py`), the event table, the story and the cursor's panel say them.  Their words are the
message ids below (the Simplified Chinese at the end of the .po file).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..lifecycle.observed import ObservedReport
from ..lifecycle.observed.kubectl import print_pod
from ..lifecycle.observed.model import SpecInfo
from .i18n import Text, gettext_noop as _
from .story import Step
from explainer.lifecycle.records import record

# the words of the observed lanes (the chart, the table, the cursor)
LANE_LABEL = _("↳ observed")
LANE_TIP = _("{c}: what the cluster shows (kubectl's output), on the prediction's time axis")
ROW_LABEL = _("Observed")
NOTHING = _("nothing about {c} in the paste")
NO_TIMES = _("{what} · no times in the paste")
STATE_WORDS = {"running": _("Running"), "inferred": _("inferred run"), "pull": _("image pull"),
               "waiting": _("Waiting"), "backoff": _("Back-off")}
BAR_TIP = _("{c} · {state} (observed) · {t0}–{t1} s")
OPEN = _("still so when the output was printed, at {t} s")
INFERRED_TIP = _("Inferred: a status keeps only the last termination, so this run is placed by the kubelet's "
                 "back-off (10 s doubling to 300 s) and the length of the runs the paste shows.")
PULL_TIP = _("The prediction leaves image pulls out: its containers start as soon as they may.")
ENDED = _("ended {reason}, exit code {code}")
SETUP_LABEL = _("scheduling, sandbox")
SETUP_PULL_LABEL = _("sandbox, image pull")
SETUP_TIP = _("From {t0} s to {t1} s no container started: the scheduler placed the Pod and the kubelet created "
              "its sandbox and network. The prediction leaves this time out: its first container starts at once.")
SETUP_PULL_TIP = _("From {t0} s to {t1} s no container started: the scheduler, the Pod's sandbox and network, and "
                   "pulling the image (the paste has no Pulling event to tell them apart). The prediction leaves "
                   "this time out: its first container starts at once.")
SNAPSHOT_TIP = _("kubectl get pod at {t} s: READY {ready} · STATUS {status} · RESTARTS {restarts}")
SNAPSHOT_RANGE = _("kubectl get pod at {t} s to {t1} s (its AGE is coarse): READY {ready} · STATUS {status} · "
                   "RESTARTS {restarts}")
PRINTED_TIP = _("The Pod's status at {t} s, as kubectl get pod prints it: READY {ready} · STATUS {status} · "
                "RESTARTS {restarts}")
COLUMNS = _("READY {ready} · STATUS {status} · RESTARTS {restarts}")
SEEN_TIP = _("{c} at {t} s, as the output shows it: {state}")
SEEN_READY = _("{state}, Ready {ready}, RESTARTS {restarts}")
SEEN_ONLY_READY = _("{state}, Ready {ready}")
EVENT_TIP = _("{reason} (observed) · {t} s")
EVENT_SERIES = _("{count} times from {first} s to {last} s")
DIFF_TIP = _("Differs from the prediction: {kind}")
PREDICTED = _("predicted: {text}")
OBSERVED = _("observed: {text}")
BEYOND_NOTE = _("The prediction ends at {end} s; what the cluster shows reaches {seen} s.")

KIND_LABELS = {
    "oom-killed": _("killed for memory (OOMKilled)"), "liveness-kill": _("killed by its probe"),
    "completed-restarted": _("finished and restarted"), "crashed": _("crashed"), "restarted": _("restarted"),
    "not-observed": _("predicted, did not happen"), "still-running": _("still running"), "exited": _("exited"),
    "slow-image-pull": _("slow image pull"), "late-start": _("started late"), "late-ready": _("Ready late"),
    "never-ready": _("never Ready"), "image-pull-failed": _("image pull failed"), "cannot-start": _("cannot start"),
    "deleted": _("deleted"), "status": _("another STATUS"),
}

# the story's sentences
S_SETUP = _("In the cluster no container started until {t} s: scheduling, the Pod's sandbox and network{pull}. "
            "The prediction leaves this time out.")
S_SETUP_PULL = _(", and pulling the image")
S_PULL = _("In the cluster {c}'s image was pulled from {t0} s to {t1} s; the prediction leaves image pulls out.")
S_RUN = _("In the cluster {c} runs from {t} s.")
S_RUN_ENDED = _("In the cluster {c} runs from {t} s to {t1} s and ends {reason}, exit code {code}.")
S_INFERRED = _("In the cluster {c} ran {n} more times before, drawn as inferred runs: a status keeps only the last "
               "termination.")
S_WAIT = _("In the cluster {c} waits: {reason}.")
S_EVENT = _("In the cluster: {reason} for {c}. {message}")
S_POD_EVENT = _("In the cluster: {reason}. {message}")
S_EVENT_SERIES = _("In the cluster: {reason} for {c}, {count} times until {last} s. {message}")
S_SNAPSHOT = _("In the cluster kubectl get pod shows READY {ready}, STATUS {status}, RESTARTS {restarts}.")
S_DIFF = _("Differs from the prediction ({kind}): the cluster shows {observed}; the prediction {predicted}.")
S_DIFF_ONE = _("Differs from the prediction ({kind}).")

# events that say what the kubelet did, drawn as marks (the others are the lanes' bars: Pulling, Started, ...)
MARK_OF = {"Killing": "kill", "Unhealthy": "probe-failed", "ProbeWarning": "probe-failed", "BackOff": "backoff"}
MAX_EVENT_MARKS = 240     # events drawn at most (the first and the last half of them), whatever the paste holds
DROPPED = _("{n} events of the paste are not drawn: the chart shows its first {k} and its last {k}.")


@record
class RawBar:
    container: str
    state: str                 # running | inferred | pull | waiting | backoff
    t0: float
    t1: float | None           # None: still so when the output was printed
    exit_code: int | None = None
    reason: str | None = None


@record
class RawMark:
    container: str | None      # None: the Pod (the strip's Observed row)
    kind: str                  # exit | restart | kill | probe-failed | backoff | failed | seen | snapshot | differs
    t: float
    text: Text                 # its words (the tooltip's first line, the table's detail)
    label: str = ""            # exit code; STATUS of a snapshot
    value: Text | str | None = None   # kubectl's columns (snapshot), the state (seen), the reason (events)
    more: tuple[Text | str, ...] = ()   # further lines of the tooltip
    dashed: bool = False       # belongs to an inferred run


@dataclass
class Pieces:
    names: list[str]                                   # the containers with an observed lane, in lane order
    bars: dict[str, list[RawBar]] = field(default_factory=dict)
    marks: list[RawMark] = field(default_factory=list)
    setup: tuple[float, float, bool] | None = None     # (from, to, the pull is in it): before the first container
    until: dict[str, float] = field(default_factory=dict)   # container -> where its open bars end
    notes: dict[str, Text] = field(default_factory=dict)   # container -> what its row says when it shows nothing
    end: float | None = None                           # the latest instant the paste shows
    dropped: int = 0                                   # events not drawn (beyond MAX_EVENT_MARKS)

    def moments(self) -> list[float]:
        out = [b.t0 for bs in self.bars.values() for b in bs]
        out += [b.t1 if b.t1 is not None else self.until.get(name, b.t0)
                for name, bs in self.bars.items() for b in bs]
        out += [m.t for m in self.marks]
        if self.setup is not None:
            out += [self.setup[0], self.setup[1]]
        if self.end is not None:
            out.append(self.end)
        return out


def _s(t: float) -> str:
    return f"{t:g}"


def _state_bar(container: str, s) -> RawBar:
    if s.state == "pulling":
        return RawBar(container, "pull", s.start, s.end)
    if s.state == "waiting":
        return RawBar(container, "backoff" if s.reason == "CrashLoopBackOff" else "waiting", s.start, s.end,
                      None, s.reason)
    return RawBar(container, "inferred" if s.inferred else "running", s.start, s.end, s.exit_code, s.reason)


def pieces(obs: ObservedReport, names: list[str], spec: SpecInfo | None = None) -> Pieces:
    """The observation of one Pod in pieces, for the containers ``names`` (the chart's lanes, in order);
    ``spec`` the part of the Pod's spec kubectl's printer reads (for a status printed before a later row)."""
    out = Pieces(list(names))
    view = obs.view
    out.end = view.end if view is not None else None
    for name in names:
        cv = view.containers.get(name) if view is not None else None
        if view is not None and cv is not None and cv.status is not None and view.seen is not None:
            out.until[name] = view.seen     # a state read from a status: still so when that was printed
        elif out.end is not None:
            out.until[name] = out.end       # events only: nothing ended it before the paste's last moment
        stretches = obs.lanes.get(name, [])
        bars = [_state_bar(name, s) for s in stretches if s.end is None or s.end >= s.start]
        out.bars[name] = bars
        runs = sorted((b for b in bars if b.state in ("running", "inferred")), key=lambda b: b.t0)
        for i, b in enumerate(runs):
            if i:
                out.marks.append(RawMark(name, "restart", b.t0, Text(_("Restart")), dashed=b.state == "inferred"))
            if b.t1 is not None and (b.exit_code is not None or b.reason):
                words = Text(ENDED, {"reason": b.reason or "?", "code": "?" if b.exit_code is None else b.exit_code})
                out.marks.append(RawMark(name, "exit", b.t1, words, "" if b.exit_code is None else str(b.exit_code)))
    if view is None:
        return out
    events = [s for s in view.events if (MARK_OF.get(s.reason) or s.type == "Warning")
              and (s.first is not None or s.last is not None)]
    if len(events) > MAX_EVENT_MARKS:      # a chart of a few hundred glyphs says what it can: the first and the last
        out.dropped = len(events) - MAX_EVENT_MARKS
        events = events[:MAX_EVENT_MARKS // 2] + events[-MAX_EVENT_MARKS // 2:]
    for s in events:
        kind = MARK_OF.get(s.reason) or "failed"
        container = s.container if s.container in names else None
        more: list[Text | str] = []
        if s.count > 1 and s.first is not None and s.last is not None:
            more.append(Text(EVENT_SERIES, {"count": s.count, "first": _s(s.first), "last": _s(s.last)}))
        if s.message:
            more.append(s.message)
        for t in sorted({t for t in (s.first, s.last) if t is not None}):
            out.marks.append(RawMark(container, kind, t, Text(EVENT_TIP, {"reason": s.reason, "t": _s(t)}),
                                     more=tuple(more), value=s.reason))
    _snapshots(obs, out, spec)
    _seen(obs, names, out)
    for d in obs.divergences:
        if d.t is None:
            continue
        container = d.container if d.container in names else None
        more = tuple(Text(k, {"text": v}) for k, v in ((PREDICTED, d.predicted), (OBSERVED, d.observed))
                     if v is not None) + (d.explanation,)
        out.marks.append(RawMark(container, "differs", max(d.t, 0.0),
                                 Text(DIFF_TIP, {"kind": Text(KIND_LABELS.get(d.kind, d.kind))}), more=more))
    out.setup = _setup(obs, out)
    for name in names:
        if not out.bars[name] and not any(m.container == name for m in out.marks):
            out.notes[name] = _note(obs, name)
    return out


def _snapshots(obs: ObservedReport, out: Pieces, spec: SpecInfo | None) -> None:
    """kubectl get pod's rows, each where it was printed, and the columns printed from a status."""
    view = obs.view
    assert view is not None
    seen: set[tuple] = set()
    later = False                     # a row printed after the status: the report's columns are that row's
    for row in view.rows:
        t = view.clock.t(row.age) if row.age is not None else None
        if t is None:
            continue
        later = later or (view.seen is not None and t > view.seen)
        key = (round(t, 3), row.ready, row.status, row.restarts)
        if key in seen:
            continue
        seen.add(key)
        values = {"t": _s(max(t, 0.0)), "ready": row.ready, "status": row.status, "restarts": row.restarts}
        slack = row.age.slack if row.age is not None else 1.0
        text = Text(SNAPSHOT_RANGE, {**values, "t1": _s(t + slack)}) if slack > 1 else Text(SNAPSHOT_TIP, values)
        out.marks.append(RawMark(None, "snapshot", max(t, 0.0), text, f"{row.status} ({_s(max(t, 0.0))} s)",
                                 Text(COLUMNS, {k: values[k] for k in ("ready", "status", "restarts")})))
    cols, snap = obs.columns, view.snapshot
    if snap is not None and later:    # the status's own columns, as printPod computes them (no "ago": no print time)
        cols = print_pod(snap, snap.spec or spec, None) if (snap.spec or spec) is not None else None
    if cols is not None and snap is not None and snap.kind != "fragment" and view.seen is not None:
        key = (round(view.seen, 3), cols.ready, cols.status, cols.restarts)
        if key not in seen:
            values = {"t": _s(max(view.seen, 0.0)), "ready": cols.ready, "status": cols.status,
                      "restarts": cols.restarts}
            out.marks.append(RawMark(None, "snapshot", max(view.seen, 0.0), Text(PRINTED_TIP, values),
                                     f"{cols.status} ({_s(max(view.seen, 0.0))} s)",
                                     Text(COLUMNS, {k: values[k] for k in ("ready", "status", "restarts")})))


def _state_words(c) -> str:
    state = (c.state or "?").capitalize()
    return f"{state} ({c.reason})" if c.reason else state


def _seen(obs: ObservedReport, names: list[str], out: Pieces) -> None:
    """Each container's state at the moment the latest status was printed."""
    view = obs.view
    assert view is not None
    if view.seen is None or view.snapshot is None:
        return
    for name in names:
        cv = view.containers.get(name)
        st = cv.status if cv is not None else None
        if st is None:
            continue
        state = _state_words(st)
        words: Text | str = state
        if st.ready is not None and st.restart_count is not None:
            words = Text(SEEN_READY, {"state": state, "ready": st.ready, "restarts": st.restart_count})
        elif st.ready is not None:
            words = Text(SEEN_ONLY_READY, {"state": state, "ready": st.ready})
        out.marks.append(RawMark(name, "seen", max(view.seen, 0.0),
                                 Text(SEEN_TIP, {"c": name, "t": _s(max(view.seen, 0.0)), "state": words}),
                                 state, value=state))


def _setup(obs: ObservedReport, out: Pieces) -> tuple[float, float, bool] | None:
    """The time before the first container acted: from the Scheduled event (or the Pod's start, where an
    absolute startTime aligns the paste) to the first pull or start the paste shows.  Where a container's first
    runs are only inferred and no event says when the first container acted, or nothing says it at all,
    nothing is drawn."""
    view = obs.view
    assert view is not None
    scheduled = [s.first for s in view.events if s.reason == "Scheduled" and s.first is not None]
    start = min(scheduled) if scheduled else (0.0 if view.clock.start is not None else None)
    if start is None:
        return None
    acted = [s.first for s in view.events if s.reason in ("Pulling", "Pulled", "Created", "Started")
             and s.first is not None]
    bars = [b for bs in out.bars.values() for b in bs]
    if not acted and any(b.state == "inferred" for b in bars):
        return None                   # the first runs are only placed by a guess: when the first acted is unknown
    firsts = [b.t0 for b in bars] + acted
    if not firsts:
        return None
    start, end = max(start, 0.0), min(firsts)
    if end <= start + 0.05:
        return None
    return start, end, not any(s.reason in ("Pulling", "Pulled") for s in view.events)


def _note(obs: ObservedReport, name: str) -> Text:
    """What a row without a bar or a mark says: what the paste holds about the container, without times."""
    view = obs.view
    cv = view.containers.get(name) if view is not None else None
    if cv is None or (cv.status is None and not cv.ended and not cv.events and cv.table_restarts is None):
        return Text(NOTHING, {"c": name})
    parts: list[str] = []
    st = cv.status
    if st is not None:
        parts.append(_state_words(st))
    restarts = st.restart_count if st is not None and st.restart_count is not None else cv.table_restarts
    if restarts is not None:
        parts.append(f"RESTARTS {restarts}")
    if cv.ended:
        last = cv.ended[-1]
        parts.append(str(Text(ENDED, {"reason": last.reason or "?",
                                      "code": "?" if last.exit_code is None else last.exit_code})))
    return Text(NO_TIMES, {"what": " · ".join(parts) or "?"})


def story_steps(p: Pieces) -> list[Step]:
    """The story's steps of what the cluster shows (kind "observed"), in time order."""
    out: list[Step] = []
    if p.setup is not None:
        pull = Text(S_SETUP_PULL) if p.setup[2] else ""
        out.append(Step(p.setup[1], None, Text(S_SETUP, {"t": _s(p.setup[1]), "pull": pull}), False, "observed"))
    for name in p.names:
        bars = sorted(p.bars.get(name, []), key=lambda b: b.t0)
        inferred = [b for b in bars if b.state == "inferred"]
        if inferred:
            out.append(Step(inferred[0].t0, name, Text(S_INFERRED, {"c": name, "n": len(inferred)}), False,
                            "observed"))       # inferred from the paste, not assumed by the model: the text says so
        for b in bars:
            if b.state == "pull":
                text = Text(S_PULL, {"c": name, "t0": _s(b.t0), "t1": "?" if b.t1 is None else _s(b.t1)})
            elif b.state == "running" and b.t1 is not None and (b.exit_code is not None or b.reason):
                text = Text(S_RUN_ENDED, {"c": name, "t": _s(b.t0), "t1": _s(b.t1), "reason": b.reason or "?",
                                          "code": "?" if b.exit_code is None else b.exit_code})
            elif b.state == "running":
                text = Text(S_RUN, {"c": name, "t": _s(b.t0)})
            elif b.state in ("waiting", "backoff"):
                text = Text(S_WAIT, {"c": name, "reason": b.reason or "?"})
            else:
                continue
            out.append(Step(max(b.t0, 0.0), name, text, False, "observed"))
    for m in p.marks:
        if m.kind in ("kill", "probe-failed", "backoff", "failed") and isinstance(m.value, str):
            reason = m.value
            message = next((x for x in m.more if isinstance(x, str)), "")
            series = next((x for x in m.more if isinstance(x, Text)), None)
            if series is not None and m.t != float(series.params["last"]):
                continue                       # a series is told once, at its last time
            if series is not None:
                text = Text(S_EVENT_SERIES, {"reason": reason, "c": m.container, "count": series.params["count"],
                                             "last": series.params["last"], "message": message})
            elif m.container is None:
                text = Text(S_POD_EVENT, {"reason": reason, "message": message})
            else:
                text = Text(S_EVENT, {"reason": reason, "c": m.container, "message": message})
            out.append(Step(m.t, m.container, text, False, "observed"))
        elif m.kind == "snapshot" and isinstance(m.value, Text):
            out.append(Step(m.t, None, Text(S_SNAPSHOT, dict(m.value.params)), False, "observed"))
        elif m.kind == "differs":
            kind = m.text.params["kind"]
            sides = {k: v for k, v in (("predicted", _side(m, PREDICTED)), ("observed", _side(m, OBSERVED)))}
            text = (Text(S_DIFF, {"kind": kind, **sides}) if all(v is not None for v in sides.values())
                    else Text(S_DIFF_ONE, {"kind": kind}))
            out.append(Step(m.t, m.container, text, False, "observed"))
    return sorted(out, key=lambda s: s.t)


def _side(m: RawMark, msgid: str) -> Text | str | None:
    return next((x.params["text"] for x in m.more if isinstance(x, Text) and x.msgid == msgid), None)
