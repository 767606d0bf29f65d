"""The page's "What the cluster shows" panel (issue 23; docs/lifecycle-model.md §34-§36): kubectl's columns as
the cluster printed them beside the prediction's at the same moment, every divergence in words (predicted and
observed, why, and whether the scenario can reproduce it), "Make the prediction match", what the paste cannot
show, and the lines no reader could place.

`observed_view` turns a Pod's `ObservedReport` into plain values in the reader's language (cached with the
page's analysis); `observed_html` writes the panel, escaped as the templates escape.  "Make the prediction
match" is a submit button of the editor's form (``name="match"``: views.index writes the scenario and explains
again, with or without JavaScript); on a permalink's page, which has no editor, it is a link that opens the
editor with the link's input and that scenario (``?from=<id>&match=<pod>``).
"""
from __future__ import annotations

from bisect import bisect_right
from html import escape
from typing import Any, Callable

from django.urls import reverse

from explainer.explain import PodReport
from explainer.lifecycle.i18n import render
from explainer.render.observed_pieces import KIND_LABELS
from explainer.web.whatif import scenario_as_yaml

Gettext = Callable[[str], str]
SOURCE_KINDS = {"pod": "kubectl get pod -o yaml/json", "events": "kubectl get events -o yaml/json",
                "events-table": "kubectl get events", "describe": "kubectl describe pod",
                "pod-table": "kubectl get pod", "fragment": "kubectl get pod -o yaml (a part)"}


def _secs(t: Any) -> str:
    return "?" if t is None else f"{round(float(t), 3):g}"


def _moment(r: PodReport) -> float | None:
    """When kubectl's columns of the report were printed: the latest `get pod` row printed after the status,
    else the status's own moment, else the paste's last one."""
    o = r.observed
    view = o.view if o is not None else None
    if view is None:
        return None
    rows = [t for t in (view.clock.t(row.age) for row in view.rows if row.age is not None) if t is not None]
    if rows and (view.seen is None or max(rows) > view.seen):
        return max(rows)
    return view.seen if view.seen is not None else view.end


def observed_view(r: PodReport, gettext: Gettext) -> dict[str, Any] | None:
    """What the panel shows of ``r``'s observation, in the reader's language (None: nothing was pasted)."""
    o = r.observed
    if o is None:
        return None
    at = _moment(r)
    predicted = None
    sim = r.simulation
    if sim is not None and sim.timeline and at is not None and o.columns is not None:
        when = min(max(at, 0.0), sim.end_time)
        i = bisect_right(sim.timeline, when, key=lambda p: p.t)
        if i:
            p = sim.timeline[i - 1]
            predicted = {"ready": p.ready_count, "status": p.status, "restarts": str(p.restarts), "t": _secs(when)}
    return {
        "name": o.name or r.pod.name,
        "sources": [{"kind": SOURCE_KINDS.get(s.kind, s.kind), "first": s.lines[0], "last": s.lines[1]}
                    for s in o.sources],
        "kubectl": ({"ready": o.columns.ready, "status": o.columns.status, "restarts": o.columns.restarts,
                     "t": _secs(at) if at is not None else None} if o.columns is not None else None),
        "predicted": predicted,
        "divergences": [{"t": None if d.t is None else _secs(max(d.t, 0.0)), "container": d.container or "",
                         "kind": d.kind, "kind_label": gettext(KIND_LABELS.get(d.kind, d.kind)),
                         "predicted": render(d.predicted, gettext) if d.predicted is not None else "",
                         "observed": render(d.observed, gettext) if d.observed is not None else "",
                         "explanation": render(d.explanation, gettext), "reproducible": d.reproducible}
                        for d in o.divergences],
        "notes": [render(n, gettext) for n in o.notes],
        "unread": [{"line": u.line, "text": u.text} for u in o.unread],
        "unread_more": o.unread_more,
        "scenario": o.scenario,
        "scenario_yaml": scenario_as_yaml(o.scenario),
        "matchable": any(d.reproducible for d in o.divergences),
    }


def _v(value: Any) -> str:
    return escape(str(value))


def _columns(obs: dict[str, Any], counter: int, gettext: Gettext) -> str:
    """kubectl get pod's columns as the cluster printed them, and the prediction's at the same moment."""
    ident = f"observed-{counter}-columns"
    k, p = obs["kubectl"], obs["predicted"]
    if k is None:
        return f'<p class="muted">{gettext("The paste holds no status of this Pod to print its columns from.")}</p>'
    head = ('<thead><tr><td></td><th scope="col" class="obs-name">NAME</th><th scope="col">READY</th>'
            '<th scope="col">STATUS</th><th scope="col">RESTARTS</th></tr></thead>')
    seen = (gettext("In the cluster, at %(t)s s") % {"t": _v(k["t"])} if k["t"] is not None
            else gettext("In the cluster"))
    name = f'<td class="obs-name">{_v(obs["name"])}</td>'
    rows = (f'<tr class="obs-seen"><th scope="row">{seen}</th>{name}<td>{_v(k["ready"])}</td>'
            f'<td>{_v(k["status"])}</td><td>{_v(k["restarts"])}</td></tr>')
    differs = ""
    if p is not None:
        said = gettext("Predicted, at %(t)s s") % {"t": _v(p["t"])}
        differs = ' class="obs-differs"' if (p["ready"], p["status"], p["restarts"].split()[0]) != (
            k["ready"], k["status"], k["restarts"].split()[0]) else ""
        rows += (f'<tr{differs}><th scope="row">{said}</th>{name}<td>{_v(p["ready"])}</td>'
                 f'<td>{_v(p["status"])}</td><td>{_v(p["restarts"])}</td></tr>')
    caption = gettext("kubectl get pod: READY, STATUS and RESTARTS as kubectl prints them")
    same = ""
    if p is not None and differs and not obs["divergences"]:    # one course seen at two of its moments
        words = gettext("The columns differ at this moment, the course does not: a crash loop shows Running, Error "
                        "and CrashLoopBackOff by turns, and restart counts one apart differ only by when the back-off "
                        "ends.")
        same = f'<p class="muted obs-same">{words}</p>'
    return (f'<p class="obs-caption" id="{ident}">{caption}</p><div class="scroll" tabindex="0">'
            f'<table class="kubectl-columns" aria-labelledby="{ident}">'
            f"{head}<tbody>{rows}</tbody></table></div>{same}")


def _divergence(d: dict[str, Any], gettext: Gettext) -> str:
    when = f'<span class="t">{_v(d["t"])} s</span> ' if d["t"] is not None else ""
    who = f'<code>{_v(d["container"])}</code> ' if d["container"] else ""
    repro = (f'<span class="repro repro-yes">✓ {gettext("the scenario can reproduce it")}</span>' if d["reproducible"]
             else f'<span class="repro repro-no">✗ {gettext("the scenario cannot reproduce it")}</span>')
    sides = ""
    if d["predicted"] or d["observed"]:
        sides = (f'<dl class="obs-sides"><dt>{gettext("Predicted")}</dt><dd>{_v(d["predicted"] or "—")}</dd>'
                 f'<dt>{gettext("In the cluster")}</dt><dd>{_v(d["observed"] or "—")}</dd></dl>')
    return (f'<li class="divergence" data-kind="{_v(d["kind"])}"><p class="divergence-head">{when}{who}'
            f'<strong>{_v(d["kind_label"])}</strong> {repro}</p>{sides}<p>{_v(d["explanation"])}</p></li>')


def _match(obs: dict[str, Any], counter: int, gettext: Gettext, link_id: str | None) -> str:
    """The "Make the prediction match" control, and the scenario it writes."""
    if not obs["matchable"]:
        none = gettext("No scenario reproduces these differences: the model has no knob for them (see each one).")
        return f'<p class="muted">{none}</p>'
    label = gettext("Make the prediction match")
    what = gettext("Writes the scenario below into “What if…” and explains again: the timeline then shows what "
                   "the cluster did, and what comes next (in a crash loop: the next back-off, CrashLoopBackOff at "
                   "its cap).")
    if link_id is None:
        control = (f'<button type="submit" form="manifest-form" name="match" value="{counter - 1}" '
                   f'class="match-button" aria-describedby="match-{counter}-what">{label}</button>')
    else:
        href = f'{reverse("web:index")}?from={_v(link_id)}&amp;match={counter - 1}'
        control = (f'<a class="button match-button" href="{href}" aria-describedby="match-{counter}-what">'
                   f"{label}</a>")
    return (f'<div class="match">{control}<p class="muted" id="match-{counter}-what">{what}</p>'
            f'<details><summary>{gettext("The scenario it writes")}</summary>'
            f'<pre class="match-scenario" tabindex="0">{_v(obs["scenario_yaml"])}</pre></details></div>')


def observed_html(obs: dict[str, Any], counter: int, gettext: Gettext, link_id: str | None = None) -> str:
    """The panel of the ``counter``-th Pod of the page; ``link_id``: on a permalink's page (no editor)."""
    sources = ", ".join(gettext("%(kind)s (lines %(first)s–%(last)s)") % {
        "kind": _v(s["kind"]), "first": _v(s["first"]), "last": _v(s["last"])} for s in obs["sources"])
    out = [f'\n  <section class="panel observed" id="observed-{counter}" aria-labelledby="observed-{counter}-h">\n'
           f'    <h3 id="observed-{counter}-h">{gettext("What the cluster shows")}</h3>\n'
           f'    <p class="muted">{gettext("Read from:")} {sources or gettext("nothing about this Pod")}. '
           f'{gettext("Drawn under each container’s lane of the timeline (“↳ observed”).")}</p>\n    ',
           _columns(obs, counter, gettext)]
    divergences = obs["divergences"]
    if divergences:
        head = (gettext("1 difference from the prediction") if len(divergences) == 1 else
                gettext("%(n)s differences from the prediction") % {"n": len(divergences)})
        items = "".join(_divergence(d, gettext) for d in divergences)
        out.append(f'\n    <h4>{head}</h4>\n    <ol class="divergences">{items}</ol>\n    ')
        out.append(_match(obs, counter, gettext, link_id))
    else:
        out.append(f'\n    <p class="no-divergence">{gettext("No difference from the prediction.")}</p>')
    if obs["notes"]:
        items = "".join(f"<li>{_v(n)}</li>" for n in obs["notes"])
        out.append(f'\n    <details class="obs-notes" open><summary>{gettext("What the paste cannot show")}'
                   f'</summary><ul>{items}</ul></details>')
    if obs["unread"]:
        n = len(obs["unread"]) + obs["unread_more"]
        items = "".join(f'<li><span class="t">{gettext("line %(line)s") % {"line": _v(u["line"])}}</span> '
                        f'<code>{_v(u["text"])}</code></li>' for u in obs["unread"])
        more = (f'<p class="muted">{gettext("… and %(n)s more") % {"n": obs["unread_more"]}}</p>'
                if obs["unread_more"] else "")
        out.append(f'\n    <details class="obs-unread"><summary>'
                   f'{gettext("Lines that could not be read: %(n)s") % {"n": n}}</summary><ul>{items}</ul>{more}'
                   f"</details>")
    out.append("\n  </section>\n  ")
    return "".join(out)
