"""A workload's rollout on the result page (issue 22): the picture with its cursor, the numbers a
design review compares, the Pods and the counts as tables, and the controller's steps in words.

Rendered from `partials/_rollout.html` when the Pod's view is made (present.py keeps it with the view).  The
picture's cursor, zoom and tooltips are static/js/timeline.js's (the section
carries ``data-timeline`` and ``data-tl`` as the Pod timeline's does; the story ``data-story``).
Without JavaScript the picture, the tables and the story are all there.
"""
from __future__ import annotations

import json
from typing import Any, Callable

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from explainer.explain import PodReport
from explainer.lifecycle.i18n import render
from explainer.render.rollout.layout import layout_rollout
from explainer.render.rollout.story import count_rows, pod_rows, rollout_frames, story, summary
from explainer.render.rollout.svg import rollout_document
from explainer.web.fit import DEFAULT_PANEL_PX, PHONE_PANEL_PX, layout_width, picture
from explainer.web.lists import steps_html
from explainer.web.panels import secs

Gettext = Callable[[str], str]
MAX_ROLLOUT_SVG_BYTES = 2 * 1024 * 1024      # as the Pod timeline (present.MAX_PAGE_SVG_BYTES)
MAX_TABLE_ROWS = 2000
COMMANDS = {"Deployment": "deployment", "StatefulSet": "statefulset", "DaemonSet": "daemonset"}


def _t(value: float | None, gettext: Gettext) -> str:
    return gettext("never") if value is None else secs(value)


def workload_name(r: PodReport) -> str:
    return r.pod.source.name or r.pod.name


def rollout_section(r: PodReport, counter: int, gettext: Gettext, panel: int | None = None) -> SafeString:
    """The rollout sections of the ``counter``-th Pod's article ("" when its kind has no rollout),
    rendered from `partials/_rollout.html`; the picture laid out for ``panel`` CSS px (web/fit.py), with a
    phone's drawing when that is unknown."""
    ro = r.rollout
    if ro is None:
        return mark_safe("")
    name = workload_name(r)
    px = panel or DEFAULT_PANEL_PX
    lay = layout_rollout(ro, name, gettext=gettext, fit_width=layout_width(px))
    svg = rollout_document(ro, lay, gettext=gettext)
    key = f"rollout-{counter}"
    command = f"kubectl rollout restart {COMMANDS.get(ro.kind, ro.kind.lower())}/{name}"
    context: dict[str, Any] = {
        "key": key, "facts": summary(ro, gettext),
        "intro": gettext("What %(command)s does: old Pods replaced by new ones at the pace the controller allows, "
                         "each Pod with its own start-up, readiness and shutdown.") % {"command": command}}
    if len(svg) > MAX_ROLLOUT_SVG_BYTES:
        context["too_large"] = {"size": f"{len(svg):,}", "limit": f"{MAX_ROLLOUT_SVG_BYTES:,}"}
    else:
        context["frames"] = json.dumps(rollout_frames(ro, lay, gettext=gettext), ensure_ascii=False,
                                       separators=(",", ":"))
        narrow, narrow_width = "", 0.0
        if panel is None:          # a phone without JavaScript: the names above the lanes
            small = layout_rollout(ro, name, gettext=gettext, fit_width=layout_width(PHONE_PANEL_PX))
            narrow, narrow_width = rollout_document(ro, small, gettext=gettext, id_suffix="n"), small.chart.width
        context["picture"] = picture(svg, lay.chart.width, px, narrow, narrow_width)
    before = gettext("before")
    context["pods"] = [(p["name"], p["revision_label"],
                        *((_t(p[k], gettext) for k in ("created", "ready", "available")) if p["created"] is not None
                          else (before,) * 3),
                        _t(p["deleted"], gettext), _t(p["gone"], gettext))
                       for p in pod_rows(ro, gettext)[:MAX_TABLE_ROWS]]
    keys = ("desired", "old", "new", "ready", "available", "terminating", "total")
    context["counts"] = [(secs(c["t"]), *(c[k] for k in keys)) for c in count_rows(ro)[:MAX_TABLE_ROWS]]
    steps = [{"t": t, "text": text.render(gettext), "assumed": False, "container": pod, "steps": []}
             for t, text, pod in story(ro)[:MAX_TABLE_ROWS]]
    context["steps_html"] = steps_html(steps)
    context["notes"] = [render(n, gettext) for n in ro.notes]
    context["assumed"] = [(k, render(why, gettext)) for k, why in ro.assumed.items()]
    return render_to_string("partials/_rollout.html", context)
