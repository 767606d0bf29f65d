"""A workload's rollout on the result page (issue 22): the picture with its cursor, the numbers a
design review compares, the Pods and the counts as tables, and the controller's steps in words.

Written out in Python as the rest of a Pod's article is (web/panels.py): values escaped, labels
through gettext.  The picture's cursor, zoom and tooltips are static/js/timeline.js's (the section
carries ``data-timeline`` and ``data-tl`` as the Pod timeline's does; the story ``data-story``).
Without JavaScript the picture, the tables and the story are all there.
"""
from __future__ import annotations

import json
from html import escape
from typing import Any, Callable

from django.utils.safestring import SafeString, mark_safe

from explainer.explain import PodReport
from explainer.lifecycle.i18n import render
from explainer.render.rollout_layout import layout_rollout
from explainer.render.rollout_story import count_rows, pod_rows, rollout_frames, story, summary
from explainer.render.rollout_svg import rollout_document
from explainer.web.fit import DEFAULT_PANEL_PX, PHONE_PANEL_PX, layout_width, picture_html
from explainer.web.lists import steps_html
from explainer.web.panels import secs

Gettext = Callable[[str], str]
MAX_ROLLOUT_SVG_BYTES = 2 * 1024 * 1024      # as the Pod timeline (present.MAX_PAGE_SVG_BYTES)
MAX_TABLE_ROWS = 2000
COMMANDS = {"Deployment": "deployment", "StatefulSet": "statefulset", "DaemonSet": "daemonset"}


def _v(value: Any) -> str:
    return escape(str(value))


def _t(value: float | None, gettext: Gettext) -> str:
    return gettext("never") if value is None else secs(value)


def workload_name(r: PodReport) -> str:
    return r.pod.source.name or r.pod.name


def rollout_section(r: PodReport, counter: int, gettext: Gettext, panel: int | None = None) -> SafeString:
    """The rollout sections of the ``counter``-th Pod's article ("" when its kind has no rollout); the
    picture laid out for ``panel`` CSS px (web/fit.py), with a phone's drawing when that is unknown."""
    ro = r.rollout
    if ro is None:
        return mark_safe("")
    name = workload_name(r)
    px = panel or DEFAULT_PANEL_PX
    lay = layout_rollout(ro, name, gettext=gettext, fit_width=layout_width(px))
    svg = rollout_document(ro, lay, gettext=gettext)
    key = f"rollout-{counter}"
    command = f"kubectl rollout restart {COMMANDS.get(ro.kind, ro.kind.lower())}/{name}"
    intro = gettext("What %(command)s does: old Pods replaced by new ones at the pace the controller allows, each "
                    "Pod with its own start-up, readiness and shutdown.") % {"command": command}
    facts = "".join(f"<div><dt>{_v(k)}</dt><dd>{_v(v)}</dd></div>" for k, v in summary(ro, gettext))
    out = [f'\n<section class="panel tl-panel rollout" id="{key}"']
    if len(svg) > MAX_ROLLOUT_SVG_BYTES:
        picture = (f'<p class="note">' + gettext("The rollout picture is %(size)s bytes, more than a page shows "
                                                 "(%(limit)s); the tables below have every Pod.")
                   % {"size": f"{len(svg):,}", "limit": f"{MAX_ROLLOUT_SVG_BYTES:,}"} + "</p>")
    else:
        data = json.dumps(rollout_frames(ro, lay, gettext=gettext), ensure_ascii=False, separators=(",", ":"))
        out.append(f' data-timeline="{key}" data-tl="{_v(data)}"')
        narrow, narrow_width = "", 0.0
        if panel is None:          # a phone without JavaScript: the names above the lanes
            small = layout_rollout(ro, name, gettext=gettext, fit_width=layout_width(PHONE_PANEL_PX))
            narrow, narrow_width = rollout_document(ro, small, gettext=gettext, id_suffix="n"), small.chart.width
        picture = picture_html(svg, lay.chart.width, px, narrow, narrow_width)
    out.append(f'>\n  <h3>{gettext("Rollout")}</h3>\n  <p class="muted">{_v(intro)}</p>\n'
               f'  <dl class="rollout-facts">{facts}</dl>\n  {picture}\n')
    out.append(_pods_table(ro, gettext) + _counts_table(ro, gettext) + "</section>\n")
    out.append(_story(ro, key, gettext))
    return mark_safe("".join(out))


def _pods_table(ro: Any, gettext: Gettext) -> str:
    rows = pod_rows(ro, gettext)
    body = "".join(
        f'<tr><td><code>{_v(p["name"])}</code></td><td>{_v(p["revision_label"])}</td>'
        f'<td>{_t(p["created"], gettext) if p["created"] is not None else _v(gettext("before"))}</td>'
        f'<td>{_t(p["ready"], gettext) if p["created"] is not None else _v(gettext("before"))}</td>'
        f'<td>{_t(p["available"], gettext) if p["created"] is not None else _v(gettext("before"))}</td>'
        f'<td>{_t(p["deleted"], gettext)}</td><td>{_t(p["gone"], gettext)}</td></tr>'
        for p in rows[:MAX_TABLE_ROWS])
    head = "".join(f"<th>{_v(h)}</th>" for h in (
        gettext("Pod"), gettext("Revision"), gettext("Created (s)"), gettext("Ready (s)"), gettext("Available (s)"),
        gettext("Deleted (s)"), gettext("Gone (s)")))
    return (f'  <details class="events">\n    <summary>{gettext("The Pods as a table")}</summary>\n'
            f'    <table>\n      <thead><tr>{head}</tr></thead>\n      <tbody>{body}</tbody>\n    </table>\n'
            f'  </details>\n')


def _counts_table(ro: Any, gettext: Gettext) -> str:
    keys = ("desired", "old", "new", "ready", "available", "terminating", "total")
    body = "".join("<tr><td>" + secs(c["t"]) + "</td>" + "".join(f"<td>{_v(c[k])}</td>" for k in keys) + "</tr>"
                   for c in count_rows(ro)[:MAX_TABLE_ROWS])
    head = "".join(f"<th>{_v(h)}</th>" for h in (
        gettext("t (s)"), gettext("desired"), gettext("old Pods"), gettext("new Pods"), gettext("ready"),
        gettext("available"),
        gettext("terminating"), gettext("total")))
    return (f'  <details class="events">\n    <summary>{gettext("The counts as a table")}</summary>\n'
            f'    <table>\n      <thead><tr>{head}</tr></thead>\n      <tbody>{body}</tbody>\n    </table>\n'
            f'  </details>\n')


def _story(ro: Any, key: str, gettext: Gettext) -> str:
    steps = [{"t": t, "text": text.render(gettext), "assumed": False, "container": pod, "steps": []}
             for t, text, pod in story(ro)[:MAX_TABLE_ROWS]]
    out = [f'<section class="panel story rollout-story" data-story="{key}">\n'
           f'  <h3>{gettext("The rollout, step by step")}</h3>\n  <ol>{steps_html(steps, gettext)}</ol>\n']
    if ro.notes:
        out.append("".join(f'  <p class="note">{_v(render(n, gettext))}</p>\n' for n in ro.notes))
    if ro.assumed:
        items = "".join(f"<li><code>{_v(k)}</code>: {_v(render(why, gettext))}</li>" for k, why in ro.assumed.items())
        out.append(f'  <details><summary>{gettext("Assumptions")}</summary>\n    <ul class="muted">{items}</ul>\n'
                   f'  </details>\n')
    out.append("</section>\n")
    return "".join(out)
