"""The sentences of what the two runs differ in (moments.py): each container's moments, roles, the grace
period and the deletion, the STATUS column, the Pod's Ready condition, and the first differing event.

Containers whose moment moved the same way are told in one sentence; a moment that moved by exactly as
much as the container's start is left to the start's sentence (starts.py), which also says why.
"""
from __future__ import annotations

from typing import Any

from ..explain import PodReport
from ..lifecycle.i18n import Text, gettext_noop as _
from ..lifecycle.kubelet.trace import TraceEvent
from .model import EPS, MomentChange, PodPair, _names, _secs
from .moments import first_difference, ready_lost

ROLE_NAMES = {"init": _("a plain init container"), "sidecar": _("a native sidecar"), "app": _("an app container"),
              "ephemeral": _("an ephemeral container")}

# kind -> (later, sooner, now (before: never), no longer (after: never)); {containers} is one name or several
_MOVED = {
    "ready": (_("The kubelet now reports {containers} Ready {delta} s later (at {after} s instead of {before} s)"),
              _("The kubelet now reports {containers} Ready {delta} s sooner (at {after} s instead of {before} s)"),
              _("The kubelet now reports {containers} Ready, at {after} s (before, never)"),
              _("The kubelet never reports {containers} Ready any more (before, at {before} s)")),
    "stopping": (_("The kubelet now begins to stop {containers} {delta} s later (at {after} s instead of "
                   "{before} s)"),
                 _("The kubelet now begins to stop {containers} {delta} s sooner (at {after} s instead of "
                   "{before} s)"),
                 _("The kubelet now begins to stop {containers}, at {after} s (before, never)"),
                 _("The kubelet no longer begins to stop {containers} (before, it did at {before} s)")),
    "exited": (_("The first exit of {containers} now comes {delta} s later (at {after} s instead of {before} s)"),
               _("The first exit of {containers} now comes {delta} s sooner (at {after} s instead of {before} s)"),
               _("The first exit of {containers} now comes at {after} s (before, there was none)"),
               _("There is no exit of {containers} any more (before, the first came at {before} s)")),
    "ended": (_("The last exit of {containers} now comes {delta} s later (at {after} s instead of {before} s)"),
              _("The last exit of {containers} now comes {delta} s sooner (at {after} s instead of {before} s)"),
              _("The kubelet now leaves {containers} stopped after the exit at {after} s (before, a restart "
                "followed)"),
              _("The kubelet no longer leaves {containers} stopped at the end (before, from {before} s on)")),
}
_CODE = _("{sentence}, with exit code {code_after} instead of {code_before}")
_CODE_ONLY = {"exited": _("The first exit of {containers} now has exit code {code_after} instead of {code_before} "
                          "(at {t} s)"),
              "ended": _("The last exit of {containers} now has exit code {code_after} instead of {code_before} "
                         "(at {t} s)")}
_PERIOD = _("{sentence}.")


def moment_sentences(pair: PodPair) -> list[Text]:
    """One sentence per group of containers whose moment moved the same way, in the order first met."""
    groups: dict[tuple[Any, ...], list[MomentChange]] = {}
    for m in pair.changed_moments:
        if not m.with_start:
            groups.setdefault((m.kind, m.before, m.after, m.code_before, m.code_after), []).append(m)
    return [_moment_sentence(group) for group in groups.values()]


def _moment_sentence(group: list[MomentChange]) -> Text:
    m = group[0]
    later, sooner, now, gone = _MOVED[m.kind]
    params: dict[str, Any] = {"containers": _names(x.container for x in group)}
    if m.before is not None and m.after is not None and abs(m.after - m.before) <= EPS:
        return Text(_PERIOD, {"sentence": Text(_CODE_ONLY[m.kind], {
            **params, "t": _secs(m.after), "code_after": m.code_after, "code_before": m.code_before})})
    if m.before is None:
        sentence = Text(now, {**params, "after": _secs(m.after or 0.0)})
    elif m.after is None:
        sentence = Text(gone, {**params, "before": _secs(m.before)})
    else:
        sentence = Text(later if m.after > m.before else sooner, {
            **params, "delta": _secs(abs(m.after - m.before)), "after": _secs(m.after), "before": _secs(m.before)})
    if m.before is not None and m.after is not None and m.code_before != m.code_after:
        sentence = Text(_CODE, {"sentence": sentence, "code_after": m.code_after, "code_before": m.code_before})
    return Text(_PERIOD, {"sentence": sentence})


def role_sentences(pair: PodPair) -> list[Text]:
    return [Text(_("{container} is now {after} (before, {before})."),
                 {"container": r.container, "after": Text(ROLE_NAMES.get(r.after, ROLE_NAMES["app"])),
                  "before": Text(ROLE_NAMES.get(r.before, ROLE_NAMES["app"]))}) for r in pair.roles]


def grace_sentences(pair: PodPair) -> list[Text]:
    """The Pods' grace periods, then the deletion: when it is asked for, its grace period, its length."""
    out: list[Text] = []
    gb, ga = pair.grace_before, pair.grace_after
    if gb is not None and ga is not None and gb != ga:
        out.append(Text(_("terminationGracePeriodSeconds is now {after} s instead of {before} s."),
                        {"after": ga, "before": gb}))
    d = pair.deletion
    if d is None:
        return out
    rb, ra = d.requested_before, d.requested_after
    if rb is None and ra is not None:
        out.append(Text(_("The Pod is now deleted, at {after} s (before, it was not)."), {"after": _secs(ra)}))
    elif ra is None and rb is not None:
        out.append(Text(_("The Pod is no longer deleted (before, at {before} s)."), {"before": _secs(rb)}))
    elif rb is not None and ra is not None and abs(ra - rb) > EPS:
        out.append(Text(_("The Pod is now deleted at {after} s instead of {before} s."),
                        {"after": _secs(ra), "before": _secs(rb)}))
    if rb is None or ra is None:
        return out
    told = gb != ga and (d.grace_before, d.grace_after) == (gb, ga)     # the Pods' own: said above
    if d.grace_before != d.grace_after and not told:
        out.append(Text(_("The deletion's grace period is now {after} s instead of {before} s."),
                        {"after": d.grace_after, "before": d.grace_before}))
    lb, la = d.length_before, d.length_after
    if lb is not None and la is not None and abs(la - lb) > EPS:
        out.append(Text(_("The deletion now takes {after} s instead of {before} s (from the request until the "
                          "last container has exited)."), {"after": _secs(la), "before": _secs(lb)}))
    elif lb is not None and la is None:
        out.append(Text(_("The deletion no longer ends within the run (before, it took {before} s)."),
                        {"before": _secs(lb)}))
    elif la is not None and lb is None:
        out.append(Text(_("The deletion now ends within the run: it takes {after} s (before, it did not end)."),
                        {"after": _secs(la)}))
    elif (la is not None and d.grace_before is not None and d.grace_after is not None
          and d.grace_before != d.grace_after):
        if la < min(d.grace_before, d.grace_after) - EPS:
            out.append(Text(_("The deletion still takes {after} s: every container has exited before either "
                              "grace period ends."), {"after": _secs(la)}))
        else:
            out.append(Text(_("The deletion still takes {after} s."), {"after": _secs(la)}))
    return out


MAX_STATUSES = 12   # longer sequences show their first and last values around "…"


def _sequence(statuses: tuple[str, ...]) -> str:
    shown = list(statuses)
    if len(shown) > MAX_STATUSES:
        shown = shown[:MAX_STATUSES - 3] + ["…"] + shown[-2:]
    return " → ".join(shown)


def status_sentences(pair: PodPair) -> list[Text]:
    if pair.status_before == pair.status_after or not pair.status_before or not pair.status_after:
        return []
    return [Text(_("kubectl's STATUS column now goes {after} (before: {before})."),
                 {"after": _sequence(pair.status_after), "before": _sequence(pair.status_before)})]


def ready_lost_sentences(lr: PodReport, rr: PodReport) -> list[Text]:
    """When the Pod's Ready condition turns false again, for Pods Ready on both sides (whether and when it
    first becomes Ready is summary.py's sentence)."""
    if lr.simulation is None or rr.simulation is None:
        return []
    if not any(p.ready for p in lr.simulation.timeline) or not any(p.ready for p in rr.simulation.timeline):
        return []
    b, a = ready_lost(lr), ready_lost(rr)
    if a is not None and b is not None and abs(a - b) > EPS:
        msg = (_("The Pod's Ready condition now turns false {delta} s later (at {after} s instead of {before} s).")
               if a > b else
               _("The Pod's Ready condition now turns false {delta} s sooner (at {after} s instead of {before} s)."))
        return [Text(msg, {"delta": _secs(abs(a - b)), "after": _secs(a), "before": _secs(b)})]
    if a is not None and b is None:
        return [Text(_("The Pod's Ready condition now turns false at {after} s (before, once true it stayed true)."),
                     {"after": _secs(a)})]
    if b is not None and a is None:
        return [Text(_("The Pod's Ready condition no longer turns false (before, it did at {before} s)."),
                     {"before": _secs(b)})]
    return []


def _event(e: TraceEvent | None) -> Text:
    if e is None:
        return Text(_("nothing more"))
    what = e.text if e.text is not None else e.message or e.type.value
    code = Text(_(" (exit code {code})"), {"code": e.exit_code}) if e.exit_code is not None else ""
    if e.container is None:
        return Text(_("at {t} s, the Pod: {what}{code}"), {"t": _secs(e.t), "what": what, "code": code})
    return Text(_("at {t} s, {container}: {what}{code}"),
                {"t": _secs(e.t), "container": e.container, "what": what, "code": code})


def difference_sentences(lr: PodReport, rr: PodReport) -> list[Text]:
    """The first event in which the runs differ, for runs whose difference no other sentence names."""
    first = first_difference(lr, rr)
    if first is None:
        return []
    before, after = first
    return [Text(_("The runs differ from their events on: {after} (before, {before})."),
                 {"after": _event(after), "before": _event(before)})]
