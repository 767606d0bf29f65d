"""Two explanations side by side: what changed between a manifest and a proposal (issue 5).

`diff(left, right)` pairs the Pods of both explanations (by kind and name, else by position) and
works out, per pair, the findings that are new, fixed or unchanged, what the containers now share
or no longer share, when each container starts, how the Pod ends, and a plain summary in
sentences.  Everything is data plus `Text` message ids, so the web layer translates the sentences
and the JSON API gets them in English.  Pure analysis: the pictures on one time axis are
`render/compare.py`, the JSON `render/jsonable.py`.
"""
from __future__ import annotations

from typing import Any

from ..explain import Explanation, PodReport
from ..lifecycle.i18n import Text, gettext_noop as _
from ..lifecycle.scenario.document import Scenario
from .model import EPS, ROLE_WORDS, Comparison, DeletionChange, MomentChange, PodPair, RoleChange, SharingChange, StartChange
from .moments import deletion, moment_changes, role_changes, status_sequence
from .sharing import sharing_changes
from .starts import _starts
from .summary import _summary


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
def diff(left: Explanation, right: Explanation) -> Comparison:
    """What changes from ``left`` (what runs today) to ``right`` (the proposal).  The time window
    both timelines share (`PodPair.view_end`) is the renderer's: see `render.compare.compare`."""
    result = Comparison(left, right)
    if left.version != right.version:
        result.summary.append(Text(_("Kubernetes version: {after} instead of {before}."),
                                   {"after": right.version, "before": left.version}))
    pairs = pair_pods(left.pods, right.pods)
    for lr, rr in pairs:
        pair = _compare_pair(lr, rr, left.scenario, right.scenario)
        result.pods.append(pair)
        for sentence in pair.summary:
            result.summary.append(sentence if len(pairs) == 1 else
                                  Text(_("{kind} {name}: {text}"), {"kind": pair.kind, "name": pair.name,
                                                                    "text": sentence}))
    if not result.summary:
        result.summary.append(Text(_("No difference: both manifests behave the same way.")))
    return result


def _compare_pair(lr: PodReport | None, rr: PodReport | None, sb: Scenario, sa: Scenario) -> PodPair:
    some = rr if rr is not None else lr
    assert some is not None
    pair = PodPair(some.pod.source.kind, some.pod.name, lr, rr)
    if lr is None or rr is None:
        text = _("{kind} {name} is new.") if lr is None else _("{kind} {name} is no longer in the manifest.")
        pair.summary.append(Text(text, {"kind": pair.kind, "name": pair.name}))
        pair.new = list(rr.findings) if rr is not None else []
        pair.fixed = list(lr.findings) if lr is not None else []
        return pair
    if lr.pod.name != rr.pod.name or _key(lr)[0] != _key(rr)[0]:
        pair.summary.append(Text(_("{before} is now {after}."), {
            "before": f"{lr.pod.source.kind} {lr.pod.name}", "after": f"{rr.pod.source.kind} {rr.pod.name}"}))
    _findings(pair, lr, rr)
    pair.sharing = sharing_changes(lr.sharing, rr.sharing)
    pair.starts = _starts(lr, rr)
    pair.final_before = lr.simulation.timeline[-1] if lr.simulation and lr.simulation.timeline else None
    pair.final_after = rr.simulation.timeline[-1] if rr.simulation and rr.simulation.timeline else None
    pair.moments = moment_changes(lr, rr, pair.starts)
    pair.roles = role_changes(lr, rr)
    pair.grace_before, pair.grace_after = lr.pod.termination_grace_period, rr.pod.termination_grace_period
    pair.deletion = deletion(lr, rr, sb, sa)
    pair.status_before, pair.status_after = status_sequence(lr), status_sequence(rr)
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


__all__ = ["EPS", "ROLE_WORDS", "Comparison", "DeletionChange", "MomentChange", "PodPair", "RoleChange",
           "SharingChange", "StartChange", "diff", "pair_pods", "sharing_changes"]
